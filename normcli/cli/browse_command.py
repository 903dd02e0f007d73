"""`normcli browse [CODE [PATH]]`: the Textual reader. Textual is imported here only, inside the command."""

from __future__ import annotations

from typing import Annotated

import typer

from normcli.cli.app import Options, app


@app.command("browse")
def browse(
    ctx: typer.Context,
    code: Annotated[
        str | None, typer.Argument(help="Norm to open, optionally with its edition: 'SIA 261' or 'SIA 261:2014'.", show_default=False)
    ] = None,
    path: Annotated[str | None, typer.Argument(help="Clause to open, as printed: 4.2.1, A.1, 'Annexe A'.", show_default=False)] = None,
    edition: Annotated[
        str | None, typer.Option("--edition", "-e", help="Edition to open (default: the newest published).", show_default=False)
    ] = None,
    language: Annotated[
        str | None, typer.Option("--language", "-l", help="Language version: fr, de, it or en.", show_default=False)
    ] = None,
) -> None:
    """Read the norms in a terminal reader (tree, text, references, search). Example: normcli browse "SIA 261" 4.2.1"""
    import contextlib
    import sys

    options: Options = ctx.obj or Options()
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        sys.stderr.write("normcli browse needs a terminal (for scripts use toc, section, search and --json)\n")
        raise typer.Exit(2)
    # textual-image asks the terminal about graphics support once, before the app takes the screen;
    # without it (or with a terminal that does not answer) figures fall back to save / open.
    with contextlib.suppress(Exception):
        import textual_image.renderable  # noqa: F401
    from normcli.service import split_code
    from normcli.tui.app import NormcliApp
    from normcli.tui.library import Location

    start = None
    if code:
        base, named_edition = split_code(code, edition)
        start = Location(base, path or "", named_edition, language)
    NormcliApp(options.workspace, start).run()
