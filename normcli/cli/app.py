"""The `normcli` command line: the app with its global options, and `run_cli()`.

The commands live under `cli/commands/` and are registered here explicitly; the read commands are
generated from `normcli.operations`. Every command runs through `cli/runner.py`'s error boundary, so
failures map to SPEC §4's exit codes and no traceback reaches a user.
"""

from __future__ import annotations

from typing import Annotated

import typer

from normcli import __version__
from normcli.cli.commands import register_all
from normcli.cli.diagnostics import ExitCode, report
from normcli.cli.runner import Options
from normcli.errors import InvalidArgument

app = typer.Typer(
    name="normcli",
    help="Read the technical norms in your workspace: tables of contents, clauses, search, references, figures.",
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"normcli {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    workspace: Annotated[
        str | None,
        typer.Option(
            "--workspace",
            "-w",
            help="Workspace folder (else $NORMCLI_WORKSPACE, the folder you are in, or the sample).",
            show_default=False,
        ),
    ] = None,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show the traceback of an internal error.")] = False,
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True, help="Print the version.")] = False,
) -> None:
    """Read the technical norms in your workspace. Example: normcli section "SIA 261" 4.2.1"""
    ctx.obj = Options(workspace, json_output, debug)


register_all(app)


def run_cli(argv: list[str]) -> int:
    """Run the app on `argv` and return the exit status instead of exiting.

    Usage errors get the same treatment as every other failure: one line on stderr, exit 2,
    and with --json the error object on stdout.
    """
    try:
        code = app(args=argv or ["--help"], prog_name="normcli", standalone_mode=False)
    except typer.Abort:
        return int(report(KeyboardInterrupt()))
    except Exception as exc:
        # Click's usage errors, recognised by their interface so that click is not imported here.
        if not (hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int)):
            raise
        command = next((word for word in argv if word in command_names()), "")
        hint = f"run `normcli {command} --help`".replace("  ", " ")
        return int(report(InvalidArgument(exc.format_message(), hint), "--json" in argv))
    return int(code) if isinstance(code, int) else int(ExitCode.OK)


def command_names() -> set[str]:
    """The names of the app's commands, as typed on the command line."""
    return {command.name or command.callback.__name__ for command in app.registered_commands if command.callback}
