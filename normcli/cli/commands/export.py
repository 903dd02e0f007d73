"""`normcli export docset DIR`: the workspace written out for other tools."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from normcli.cli.runner import answer

export_app = typer.Typer(name="export", help="Write the workspace out for other tools: export docset DIR.", no_args_is_help=True)


@export_app.command("docset")
def docset(
    ctx: typer.Context,
    folder: Annotated[
        Path, typer.Argument(metavar="DIR", help="The folder to write the docset into (created if missing).", show_default=False)
    ],
    force: Annotated[bool, typer.Option("--force", help="Write into a folder that is not empty (only <Name>.docset is replaced).")] = False,
    name: Annotated[
        str | None, typer.Option("--name", help="The docset's name (default: the workspace's name).", show_default=False)
    ] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")] = False,
) -> None:
    """A Dash/Zeal docset of the workspace: one page per clause, every clause, table, figure and defined term searchable. Example: normcli export docset ~/Docsets"""
    from normcli.cli import output

    def write(service: Any) -> Any:
        from normcli.export.docset import write_docset

        return write_docset(service, folder, force, name)

    def show(result: Any) -> None:
        counts = ", ".join(f"{count} {kind}" for kind, count in result.entries)
        output.note(f"{result.path}: {result.pages} pages; search entries: {counts}")

    answer(ctx, json_, write, show, command="export")


def register(app: typer.Typer) -> None:
    """Add `export` and its subcommands to `app`."""
    app.add_typer(export_app, name="export")
