"""The commands about the workspace itself rather than one norm: `check`, `index` and `batch`."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from normcli.cli.diagnostics import ExitCode, report
from normcli.cli.runner import answer, error_boundary, options_of

Json = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]


def check(ctx: typer.Context, json_: Json = False) -> None:
    """Validate every bundle: problems with file, line and reason, and a quality score. Example: normcli check"""
    from normcli.cli import output

    holder: dict[str, Any] = {}

    def run(service: Any) -> Any:
        holder["result"] = service.check()
        return holder["result"]

    answer(ctx, json_, run)
    result = holder.get("result")
    if result is not None and any(not item.readable for item in (*result.bundles, *result.specs)):
        output.note("some bundles or API specs cannot be read; fix the errors above (exit 3)")
        raise typer.Exit(ExitCode.WORKSPACE)


def index(
    ctx: typer.Context,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild the whole index instead of refreshing changed bundles.")] = False,
    json_: Json = False,
) -> None:
    """Refresh the search index now (it also refreshes itself on every call). Example: normcli index --rebuild"""
    answer(ctx, json_, lambda service: service.rebuild(force=rebuild))


def batch(ctx: typer.Context) -> None:
    """Answer JSON Lines of operations from stdin, one JSON answer per line. Example: echo '{"op": "toc", "code": "SIA 261"}' | normcli batch"""
    from normcli.cli.batch import run_batch

    try:
        code = run_batch(options_of(ctx).workspace, sys.stdin, sys.stdout, sys.stderr)
    except KeyboardInterrupt as exc:
        code = report(exc)
    except BrokenPipeError:  # the reader has gone: as every command, end quietly with 0
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = ExitCode.OK
    raise typer.Exit(code)


def init(
    ctx: typer.Context,
    folder: Annotated[Path, typer.Argument(help="The folder to make a workspace (created when missing).", show_default=False)],
    name: Annotated[
        str | None, typer.Option("--name", help="The workspace's name (default: the folder's name).", show_default=False)
    ] = None,
    language: Annotated[
        str | None, typer.Option("--language", "-l", help="The preferred language of its norms: fr, de, it or en.", show_default=False)
    ] = None,
    json_: Json = False,
) -> None:
    """Create a workspace: the folder, norms/ and a normcli.toml; what exists is kept. Example: normcli init ~/norms --language fr"""
    import json

    from normcli.cli import output
    from normcli.workspace import create_workspace

    options = options_of(ctx)
    as_json = options.json or json_
    with error_boundary(options, as_json):
        created = create_workspace(folder.expanduser(), name, language)
    root = str(folder.expanduser().resolve())
    if as_json:
        sys.stdout.write(json.dumps({"workspace": root, "created": created}, ensure_ascii=False) + "\n")
    elif created:
        output.note(f"workspace ready at {root}; add norms with: normcli --workspace {root} ingest FILE --code CODE --edition EDITION")
    else:
        output.note(f"{root} is already a workspace; nothing was changed")


def register(app: typer.Typer) -> None:
    """Add `check`, `index`, `batch` and `init` to `app`."""
    for command in (check, index, batch, init):
        app.command()(command)
