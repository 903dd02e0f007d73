"""`normcli browse [CODE [PATH]]`: the Textual reader. Textual is imported here only, inside the command."""

from __future__ import annotations

from typing import Annotated

import typer

from normcli.cli.diagnostics import report
from normcli.cli.runner import Options
from normcli.errors import InvalidArgument, NormcliError

_GRAPHIC_TERMS = ("kitty", "ghostty", "foot", "mlterm", "wezterm", "contour", "yaft", "mintty")
_GRAPHIC_PROGRAMS = ("wezterm", "iterm.app", "ghostty", "vscode", "mintty", "contour", "rio", "konsole", "warpterminal")


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
    theme: Annotated[
        str | None,
        typer.Option(
            "--theme", help="Textual theme: textual-dark, textual-light, nord … (default: the last one chosen).", show_default=False
        ),
    ] = None,
    serve: Annotated[
        bool, typer.Option("--serve", help="Serve the same reader to a web browser instead of this terminal (Ctrl+C stops it).")
    ] = False,
    port: Annotated[int, typer.Option("--port", min=1, max=65535, help="With --serve: the port to listen on.")] = 8000,
    host: Annotated[
        str, typer.Option("--host", help="With --serve: the address to listen on (0.0.0.0 for every network; mind who can reach it).")
    ] = "127.0.0.1",
) -> None:
    """Read the norms in a terminal reader (tree, text, references, search). Example: normcli browse "SIA 261" 4.2.1"""
    import contextlib
    import os
    import sys
    import time

    entered = time.perf_counter()
    options: Options = ctx.obj or Options()
    if serve:
        _serve(options, [value for value in (code, path) if value], edition, language, theme, host, port)
        return
    served = "WebDriver" in os.environ.get("TEXTUAL_DRIVER", "")  # started by --serve for one browser tab
    if not served and (not sys.stdin.isatty() or not sys.stdout.isatty()):
        raise typer.Exit(report(InvalidArgument("browse needs a terminal", "for scripts use toc, section, search and --json")))
    if _may_draw_images():
        # textual-image asks the terminal about graphics support once, before the app takes the screen;
        # without it (or with a terminal that does not answer) figures fall back to a preview, save and open.
        with contextlib.suppress(Exception):
            import textual_image.renderable  # noqa: F401
    from normcli.catalogue import split_code
    from normcli.tui.app import NormcliApp
    from normcli.tui.library import Location

    start = None
    if code:
        try:
            base, named_edition = split_code(code, edition)
        except NormcliError as error:
            raise typer.Exit(report(error)) from None
        start = Location(base, path or "", named_edition, language)
    reader = NormcliApp(options.workspace, start, theme=theme, entered=entered)
    if theme and reader.theme != theme:
        themes = ", ".join(sorted(reader.available_themes))
        raise typer.Exit(report(InvalidArgument(f"no theme '{theme}'", f"themes: {themes}")))
    reader.run()


def _serve(
    options: Options, arguments: list[str], edition: str | None, language: str | None, theme: str | None, host: str, port: int
) -> None:
    """Serve `normcli browse` to web browsers with textual-serve: each browser tab runs the reader in its own process."""
    import shlex
    import socket
    import sys
    from pathlib import Path

    command = [sys.executable, "-m", "normcli"]
    if options.workspace is not None:
        command += ["--workspace", str(Path(options.workspace).resolve())]
    command += ["browse", *arguments]
    for flag, value in (("--edition", edition), ("--language", language), ("--theme", theme)):
        if value:
            command += [flag, value]
    try:  # say so at once, rather than from deep inside the web server
        with socket.create_server((host, port)):
            pass
    except OSError as error:
        problem = InvalidArgument(f"cannot listen on {host}:{port} ({error.strerror or error})", "choose another --port or --host")
        raise typer.Exit(report(problem)) from None
    from textual_serve.server import Server

    Server(shlex.join(command), host=host, port=port, title="normcli browse").serve()


def _may_draw_images() -> bool:
    """Whether to ask the terminal about sixel / kitty graphics (asking costs ~0.3 s at start-up).

    NORMCLI_IMAGES=1 or 0 decides; otherwise only terminals known to draw images are asked, and never
    inside tmux or screen, which do not pass the graphics through.
    """
    import os

    forced = os.environ.get("NORMCLI_IMAGES", "").strip().lower()
    if forced in ("1", "yes", "true", "on"):
        return True
    if forced in ("0", "no", "false", "off"):
        return False
    if os.environ.get("TMUX") or os.environ.get("STY"):
        return False
    term = os.environ.get("TERM", "").lower()
    program = os.environ.get("TERM_PROGRAM", "").lower()
    return (
        bool(os.environ.get("KITTY_WINDOW_ID") or os.environ.get("KONSOLE_VERSION") or os.environ.get("WT_SESSION"))
        or any(name in term for name in _GRAPHIC_TERMS)
        or program in _GRAPHIC_PROGRAMS
    )


def register(app: typer.Typer) -> None:
    """Add `browse` to `app`."""
    app.command("browse")(browse)
