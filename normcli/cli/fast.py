"""The lean path for `--json` reads: answer without loading Typer, Click or rich.

Scripts and agents call `normcli toc X --json` many times a second; building the Typer app costs
more than answering. This parser knows only the read commands and their options, as `normcli.operations` declares
them (the Typer app is generated from the same declarations). Anything else — `--help`, a usage error,
an option it does not know — returns None and the full command line takes over, so messages
and exit codes stay Typer's.
"""

from __future__ import annotations

import sys

from normcli.operations import OPERATIONS


def _commands() -> dict[str, tuple[tuple[str, ...], dict[str, str]]]:
    """command → (positional parameters, {option: camelCase parameter}), from the declared operations."""
    return {
        op.name: (
            tuple(param.name for param in op.params if not param.flags),
            {flag: param.name for param in op.params for flag in param.flags},
        )
        for op in OPERATIONS.values()
        if op.fast and not op.group  # the `api` group is parsed by `cli.api_args`
    }


COMMANDS = _commands()
_INTEGERS = {param.name for op in OPERATIONS.values() for param in op.params if param.kind is int}


def parse(argv: list[str]) -> tuple[str | None, str, dict[str, object]] | None:
    """(workspace, command, parameters) for a plain `--json` read, else None."""
    workspace: str | None = None
    as_json = False
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
        elif name in ("--workspace", "-w") and command is None:
            value = inline if has_value else (argv[index + 1] if index + 1 < len(argv) else None)
            if value is None:
                return None
            workspace = value
            index += 0 if has_value else 1
        elif command is None:
            if word not in COMMANDS:
                return None
            command = word
            options = COMMANDS[word][1]
        elif name in options and (has_value or index + 1 < len(argv)):
            value = inline if has_value else argv[index + 1]
            index += 0 if has_value else 1
            key = options[name]
            if key in _INTEGERS:
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
    if not as_json or command is None or len(positionals) != len(COMMANDS[command][0]):
        return None
    params.update(zip(COMMANDS[command][0], positionals, strict=True))
    return workspace, command, params


def answer(argv: list[str]) -> int | None:
    """Answer a plain `--json` read and return its exit code, or None to let Typer handle `argv`."""
    parsed = parse(argv)
    call = None
    if parsed is None:
        if "api" not in argv:
            return None
        from normcli.cli.api_args import parse as parse_api

        api = parse_api(argv)
        if api is None:
            return None
        workspace, call = api
    else:
        workspace, command, params = parsed
    try:
        if call is not None:  # the spec reads need no norm service
            from normcli.discovery.session import SpecSession

            data = call(SpecSession.open(workspace)).to_json()
        else:
            from normcli.operations import run
            from normcli.service import Service

            data = run(Service.open(workspace), command, params).to_json()
    except Exception as exc:  # the same boundary as the full command line
        from normcli.cli.diagnostics import report

        return int(report(exc, as_json=True))
    import json

    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2 if sys.stdout.isatty() else None) + "\n")
    return 0
