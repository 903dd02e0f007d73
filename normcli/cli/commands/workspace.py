"""The commands about the workspace itself rather than one norm: `check`, `index` and `batch`."""

from __future__ import annotations

import os
import sys
from typing import Annotated, Any

import typer

from normcli.cli.diagnostics import ExitCode, report
from normcli.cli.runner import answer, options_of

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
    if result is not None and any(not bundle.readable for bundle in result.bundles):
        output.note("some bundles cannot be read; fix the errors above (exit 3)")
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
        code = run_batch(options_of(ctx).workspace, sys.stdin, sys.stdout)
    except KeyboardInterrupt as exc:
        code = report(exc)
    except BrokenPipeError:  # the reader has gone: as every command, end quietly with 0
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = ExitCode.OK
    raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add `check`, `index` and `batch` to `app`."""
    for command in (check, index, batch):
        app.command()(command)
