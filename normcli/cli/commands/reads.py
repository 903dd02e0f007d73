"""The read commands (`toc`, `section`, `search` …), generated from `normcli.operations`.

Each declared operation becomes one Typer command: its positional parameters are arguments, the
others options under their declared flags, with the declared help, defaults and example. The only
per-command code here is how a result is shown to a person (`section`'s window, `figure`'s file).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from normcli.cli.runner import answer, options_of
from normcli.operations import OPERATIONS, Operation, Param

# Shown to a person, the workspace overview commands also say what `check` would report first.
_OVERVIEW = {"info", "norms"}
_JSON = inspect.Parameter(
    "json_",
    inspect.Parameter.KEYWORD_ONLY,
    annotation=Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")],
    default=False,
)


def complete_code(incomplete: str) -> list[str]:
    """Shell completion for norm codes, from the workspace in force."""
    try:
        from normcli.service import Service

        codes = [norm.code for norm in Service.open().norms().norms]
    except Exception:  # completion must never fail loudly
        return []
    return [code for code in codes if code.lower().replace(" ", "").startswith(incomplete.lower().replace(" ", ""))]


def _parameter(param: Param) -> inspect.Parameter:
    """The Typer parameter for a declared one: an argument when it has no flags, else an option."""
    if not param.flags:
        info: Any = typer.Argument(
            help=param.help,
            show_default=False,
            autocompletion=complete_code if param.name == "code" else None,
            metavar=param.metavar or None,
        )
        kind: Any = param.kind
        return inspect.Parameter(param.keyword, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[kind, info])
    optional = param.default is None
    info = typer.Option(*param.flags, help=param.help, show_default=not optional)
    kind = param.kind | None if optional else param.kind
    return inspect.Parameter(param.keyword, inspect.Parameter.KEYWORD_ONLY, annotation=Annotated[kind, info], default=param.default)


def command_for(op: Operation, run: Callable[..., None] | None = None, extra: tuple[inspect.Parameter, ...] = ()) -> Callable[..., None]:
    """The Typer callback of `op`: `run(ctx, json_flag, values)` (by default: answer with the service method)."""

    def default_run(ctx: typer.Context, json_flag: bool, values: dict[str, Any]) -> None:
        args = [values[param.keyword] for param in op.params]
        render = None
        if op.name == "section":
            from normcli.cli import output

            render = output.section_with_window(values["max_chars"])
        answer(ctx, json_flag, lambda service: getattr(service, op.name)(*args), render, overview=op.name in _OVERVIEW)

    runner = run or default_run

    def command(ctx: typer.Context, **values: Any) -> None:
        json_flag = values.pop("json_", False)
        runner(ctx, json_flag, values)

    context = inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)
    parameters = [context, *(_parameter(param) for param in op.params), *extra, _JSON]
    signature = inspect.Signature(parameters)
    command.__signature__ = signature  # type: ignore[attr-defined]
    command.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    command.__name__ = op.name
    command.__doc__ = f"{op.help} Example: {op.example}"
    return command


def _figure(ctx: typer.Context, json_flag: bool, values: dict[str, Any]) -> None:
    """`figure`: the image bytes to `--output` (or stdout), or with --json the JSON and the file as asked."""
    from normcli.cli import output

    output_file = values["output_file"]
    as_json = options_of(ctx).json or json_flag
    op = OPERATIONS["figure"]

    def read(service: Any) -> Any:
        result = service.figure(*(values[param.keyword] for param in op.params))
        if as_json and output_file is not None:  # the file as asked, beside the JSON document
            output.save_figure(result, output_file)
        return result

    answer(ctx, json_flag, read, lambda result: output.save_figure(result, output_file))


def _section(ctx: typer.Context, json_flag: bool, values: dict[str, Any]) -> None:
    """`section`: one window, or with `--all` every window of the clause (for people; JSON stays
    windowed); `--format markdown` prints the Markdown itself instead of rendering it."""
    from normcli.cli import output

    op = OPERATIONS["section"]
    whole, markdown = values.pop("whole"), values.pop("format_") is Format.markdown
    args = [values[param.keyword] for param in op.params]
    as_json = options_of(ctx).json or json_flag

    def read(service: Any) -> Any:
        first = service.section(*args)
        if not whole or as_json:
            return first
        windows = [first]
        while windows[-1].next_offset is not None:
            values_now = dict(zip((param.keyword for param in op.params), args, strict=True))
            values_now["offset"] = windows[-1].next_offset
            windows.append(service.section(*(values_now[param.keyword] for param in op.params)))
        return output.whole_section(windows)

    def show(result: Any) -> None:
        if markdown:
            output.plain(result.markdown)
        else:
            output.section_with_window(values["max_chars"])(result)

    answer(ctx, json_flag, read, show)


def _table(ctx: typer.Context, json_flag: bool, values: dict[str, Any]) -> None:
    """`table`: a rich table for people, or with `--format markdown` its caption and pipe table."""
    from normcli.cli import output

    markdown = values.pop("format_") is Format.markdown
    args = [values[param.keyword] for param in OPERATIONS["table"].params]
    answer(ctx, json_flag, lambda service: service.table(*args), output.table_markdown if markdown else None)


class Format(StrEnum):
    """How a clause or a table is printed for a person."""

    rich = "rich"
    markdown = "markdown"


_FORMAT = inspect.Parameter(
    "format_",
    inspect.Parameter.KEYWORD_ONLY,
    annotation=Annotated[
        Format,
        typer.Option(
            "--format",
            help="rich (rendered for a terminal) or markdown (the Markdown itself, formulas in LaTeX, for a report or a pipe).",
        ),
    ],
    default=Format.rich,
)
_ALL = inspect.Parameter(
    "whole",
    inspect.Parameter.KEYWORD_ONLY,
    annotation=Annotated[bool, typer.Option("--all", help="Print the whole clause, every window (--json stays windowed).")],
    default=False,
)

_OUTPUT = inspect.Parameter(
    "output_file",
    inspect.Parameter.KEYWORD_ONLY,
    annotation=Annotated[Path | None, typer.Option("--output", "-o", help="Write the image to this file.", show_default=False)],
    default=None,
)


def register(app: typer.Typer) -> None:
    """Add one command per declared operation to `app`."""
    for op in OPERATIONS.values():
        if op.group:  # the `api` group has its own module
            continue
        if op.name == "figure":
            app.command(op.name)(command_for(op, _figure, (_OUTPUT,)))
        elif op.name == "section":
            app.command(op.name)(command_for(op, _section, (_ALL, _FORMAT)))
        elif op.name == "table":
            app.command(op.name)(command_for(op, _table, (_FORMAT,)))
        else:
            app.command(op.name)(command_for(op))
