"""The lean path for `--json` reads: answer without loading Typer, Click or rich.

Scripts and agents call `normcli toc X --json` many times a second; building the Typer app costs
more than answering. This parser knows only the read commands and their options, as `normcli.operations` declares
them (the Typer app is generated from the same declarations). Anything else — `--help`, a usage error,
an option it does not know — returns None and the full command line takes over, so messages
and exit codes stay Typer's.
"""

from __future__ import annotations

import functools
import sys

from normcli.record import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


@record
class Grammar:
    """The read commands as the lean parser knows them, made from the declared operations."""

    commands: dict[str, tuple[tuple[str, ...], dict[str, str]]]  # command → (positionals, {option: parameter})
    integers: frozenset[str]  # the parameters that take a whole number
    # Flags that take no value: a yes/no parameter (`--force`), or a switch for a fixed value (`--incoming`).
    flags: dict[str, dict[str, tuple[str, object]]]
    optional: dict[str, int]  # how many positional parameters each command may leave out at the end (diff's PATH)


@functools.cache
def grammar() -> Grammar:
    """The grammar of the norm read commands, made at the first norm read (an `api` read needs none of it)."""
    from normcli.operations import OPERATIONS

    fast = [op for op in OPERATIONS.values() if op.fast]
    return Grammar(
        commands={
            op.name: (
                tuple(param.name for param in op.params if not param.flags),
                {flag: param.name for param in op.params if param.kind is not bool for flag in param.flags},
            )
            for op in fast
            if not op.group  # the `api` group: `parse_api`
        },
        integers=frozenset(param.name for op in OPERATIONS.values() for param in op.params if param.kind is int),
        flags={
            op.name: {
                **{flag: (param.name, True) for param in op.params if param.kind is bool for flag in param.flags},
                **{flag: (param.name, value) for param in op.params for flag, value in param.switches},
            }
            for op in fast
        },
        optional={op.name: sum(1 for param in op.params if not param.flags and not param.required) for op in fast},
    )


def scan(
    argv: list[str],
    commands: dict[str, tuple[tuple[str, ...], dict[str, str]]],
    integers: frozenset[str],
    flags: dict[str, dict[str, tuple[str, object]]] | None = None,
    group: str = "",
) -> tuple[str | None, str, list[str], dict[str, object]] | None:
    """(workspace, command, positionals, parameters) of a plain `[--workspace DIR] [GROUP] COMMAND … --json`
    (`commands` as `Grammar.commands`), else None: shared by the norm reads and the `api` group."""
    workspace: str | None = None
    as_json = False
    group_seen = not group
    command: str | None = None
    positionals: list[str] = []
    params: dict[str, object] = {}
    options: dict[str, str] = {}
    index = 0
    while index < len(argv):
        word = argv[index]
        name, has_value, inline = word.partition("=")
        if word == "--json":
            as_json = True
        elif name in ("--workspace", "-w") and command is None and (not group or not group_seen):  # global: before the first command word
            value = inline if has_value else (argv[index + 1] if index + 1 < len(argv) else None)
            if value is None:
                return None
            workspace = value
            index += 0 if has_value else 1
        elif not group_seen:
            if word != group:
                return None
            group_seen = True
        elif command is None:
            if word not in commands:
                return None
            command = word
            options = commands[word][1]
        elif flags is not None and word in flags.get(command, {}):
            key, flag_value = flags[command][word]
            params[key] = flag_value
        elif name in options and (has_value or index + 1 < len(argv)):
            value = inline if has_value else argv[index + 1]
            index += 0 if has_value else 1
            key = options[name]
            if key in integers:
                try:
                    params[key] = int(value)
                except ValueError:
                    return None
            else:
                params[key] = value
        elif word.startswith("-") and word != "-":  # an option it does not know, or `-1`, which Click reads as one
            return None
        else:
            positionals.append(word)
        index += 1
    if not as_json or command is None:
        return None
    return workspace, command, positionals, params


def parse(argv: list[str]) -> tuple[str | None, str, dict[str, object]] | None:
    """(workspace, command, parameters) for a plain `--json` read, else None."""
    known = grammar()
    scanned = scan(argv, known.commands, known.integers, known.flags)
    if scanned is None:
        return None
    workspace, command, positionals, params = scanned
    names = known.commands[command][0]
    if not len(names) - known.optional[command] <= len(positionals) <= len(names):
        return None
    params.update(zip(names, positionals, strict=False))
    return workspace, command, params


def parse_api(argv: list[str]) -> tuple[str | None, Callable[[Any], Any]] | None:
    """(workspace, service call) for a plain `normcli [--workspace DIR] api COMMAND … --json`, else None
    (the full command line then answers: help, usage errors, output for people)."""
    from normcli.cli import api_args
    from normcli.errors import InvalidArgument

    scanned = scan(argv, api_args.COMMANDS, api_args.INTEGERS, group=api_args.GROUP)
    if scanned is None:
        return None
    workspace, command, positionals, options = scanned
    try:
        call = api_args.service_call(command, positionals, options)
    except InvalidArgument:
        return None  # Typer words usage errors
    return workspace, call


def _say_if_sample(session: Any) -> None:
    """The note on stderr when no workspace was found and the sample is read (SPEC §4), as the full command line says it."""
    if session.is_sample:
        from normcli.cli.diagnostics import note, sample_note

        note(sample_note(session.root))


def answer(argv: list[str]) -> int | None:
    """Answer a plain `--json` read and return its exit code, or None to let Typer handle `argv`."""
    call = None
    api = None
    if "api" in argv:  # the spec reads first: they need neither the norm grammar nor the norm service
        api = parse_api(argv)
    if api is not None:
        workspace, call = api
    else:
        parsed = parse(argv)
        if parsed is None:
            return None
        workspace, command, params = parsed
    try:
        if call is not None:  # the spec reads need no norm service
            from normcli.discovery.session import SpecSession

            session = SpecSession.open(workspace)
            _say_if_sample(session)
            data = call(session).to_json()
        else:
            from normcli.operations import run
            from normcli.service import Service

            service = Service.open(workspace)
            _say_if_sample(service)
            data = run(service, command, params).to_json()
    except Exception as exc:  # the same boundary as the full command line
        from normcli.cli.diagnostics import report

        return int(report(exc, as_json=True))
    from normcli.lean_json import dumps

    sys.stdout.write(dumps(data, indent=2 if sys.stdout.isatty() else None) + "\n")
    return 0
