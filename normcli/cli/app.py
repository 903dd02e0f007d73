"""The `normcli` command line: global options, one command per operation, one error boundary.

Every command calls the service through `answer()`, which maps every failure to SPEC §4's exit
codes and error object; nothing else prints errors and no traceback reaches a user.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer

from normcli import __version__
from normcli.errors import ExitCode, InvalidArgument, NormcliError

app = typer.Typer(
    name="normcli",
    help="Read the technical norms in your workspace: tables of contents, clauses, search, references, figures.",
    add_completion=True,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
)


@dataclass
class Options:
    """The global options, shared with every command through the Typer context."""

    workspace: str | None = None
    json: bool = False
    debug: bool = False


def _complete_code(incomplete: str) -> list[str]:
    """Shell completion for norm codes, from the workspace in force."""
    try:
        from normcli.service import Service

        codes = [norm.code for norm in Service.open().norms().norms]
    except Exception:  # completion must never fail loudly
        return []
    return [code for code in codes if code.lower().replace(" ", "").startswith(incomplete.lower().replace(" ", ""))]


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


Code = Annotated[
    str,
    typer.Argument(
        help="Norm code, optionally with its edition: 'SIA 261' or 'SIA 261:2014'.", autocompletion=_complete_code, show_default=False
    ),
]
ClausePath = Annotated[str, typer.Argument(help="Clause path as printed: 4.2.1, A.1, 'Annexe A'.", show_default=False)]
Edition = Annotated[
    str | None, typer.Option("--edition", "-e", help="Edition to read (default: the newest published).", show_default=False)
]
Language = Annotated[str | None, typer.Option("--language", "-l", help="Language version: fr, de, it or en.", show_default=False)]
Json = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]


@contextlib.contextmanager
def error_boundary(options: Options, as_json: bool, report_hint: str = "the command you ran") -> Iterator[None]:
    """The one place where failures become SPEC §4's exit codes: a NormcliError its own code, Ctrl-C
    130, a closed pipe 0, and anything else (a bug) one line asking for a report and exit 4."""
    from normcli.cli import output

    try:
        yield
    except NormcliError as error:
        output.fail(error, as_json)
        raise typer.Exit(error.exit_code) from None
    except typer.Exit:
        raise
    except KeyboardInterrupt:
        # Click would turn this into "Aborted!" and exit 1, which reads as "not found".
        output.note("interrupted")
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except BrokenPipeError:
        raise typer.Exit(ExitCode.OK) from None
    except Exception as exc:
        if options.debug:
            import traceback

            traceback.print_exc()
        hint = f"please report it with {report_hint}; --debug shows the traceback"
        output.fail(NormcliError(f"internal error ({type(exc).__name__}: {exc})", hint), as_json)
        raise typer.Exit(ExitCode.INTERNAL) from None


def answer(
    ctx: typer.Context, json_flag: bool, call: Callable[[Any], Any], render: Callable[..., None] | None = None, overview: bool = False
) -> None:
    """Run `call(service)` and print its result; failures go through `error_boundary`. An `overview`
    (what the workspace holds) also says on stderr what `check` would report first."""
    options: Options = ctx.obj or Options()
    as_json = options.json or json_flag
    from normcli.cli import output

    with error_boundary(options, as_json):
        from normcli.service import Service

        service = Service.open(options.workspace)
        if service.is_sample and not as_json:
            output.note(f"reading the sample workspace at {service.root} (pass --workspace DIR or set NORMCLI_WORKSPACE)")
        result = call(service)
        if as_json:
            output.print_json(result.to_json())
        else:
            (render or output.render)(result)
        if overview and not as_json:
            _workspace_notes(service)


def _workspace_notes(service: Any) -> None:
    from normcli.cli import output

    unreadable, hidden = service.unreadable_bundles(), service.hidden_bundles()
    said = (
        [f"{len(unreadable)} bundle(s) cannot be read ({', '.join(unreadable[:3])}{', …' if len(unreadable) > 3 else ''})"]
        if unreadable
        else []
    )
    said += [f"{len(hidden)} bundle(s) are not read: another declares the same norm, edition and language"] if hidden else []
    said += ["normcli.toml has a problem, so its settings are not used"] if service.settings.problems else []
    if said:
        output.note("; ".join(said) + " (run `normcli check` for the reasons)")


@app.command()
def info(ctx: typer.Context, json_: Json = False) -> None:
    """Which workspace is read and what it holds. Example: normcli info"""
    answer(ctx, json_, lambda service: service.info(), overview=True)


@app.command()
def norms(ctx: typer.Context, json_: Json = False) -> None:
    """List the norms with their editions and languages. Example: normcli norms"""
    answer(ctx, json_, lambda service: service.norms(), overview=True)


@app.command()
def methodology(ctx: typer.Context, json_: Json = False) -> None:
    """The reading method for agents and people, built for this workspace. Example: normcli methodology"""
    answer(ctx, json_, lambda service: service.methodology())


@app.command()
def toc(
    ctx: typer.Context,
    code: Code,
    depth: Annotated[int, typer.Option("--depth", "-d", help="How deep: 1 (chapters) to 6.")] = 1,
    edition: Edition = None,
    language: Language = None,
    json_: Json = False,
) -> None:
    """The table of contents of a norm. Example: normcli toc "SIA 261" --depth 2"""
    answer(ctx, json_, lambda service: service.toc(code, depth, edition, language))


@app.command()
def subtree(
    ctx: typer.Context,
    code: Code,
    path: ClausePath,
    depth: Annotated[int | None, typer.Option("--depth", "-d", help="Levels below the clause (default: all).", show_default=False)] = None,
    max_nodes: Annotated[
        int, typer.Option("--max-nodes", help="At most this many clauses, 20 to 2000; the deepest levels go first.")
    ] = 400,
    edition: Edition = None,
    language: Language = None,
    json_: Json = False,
) -> None:
    """A clause and the clauses below it. Example: normcli subtree "SIA 261" 4 --max-nodes 50"""
    answer(ctx, json_, lambda service: service.subtree(code, path, depth, max_nodes, edition, language))


@app.command()
def section(
    ctx: typer.Context,
    code: Code,
    path: ClausePath,
    max_chars: Annotated[int, typer.Option("--max-chars", help="Window size in characters, 500 to 40000.")] = 12000,
    offset: Annotated[int, typer.Option("--offset", help="Where the window starts (the nextOffset of the previous one).")] = 0,
    edition: Edition = None,
    language: Language = None,
    json_: Json = False,
) -> None:
    """Read a clause, window by window for long ones. Example: normcli section "SIA 261" 4.2.1"""
    from normcli.cli import output

    answer(
        ctx, json_, lambda service: service.section(code, path, max_chars, offset, edition, language), output.section_with_window(max_chars)
    )


@app.command()
def search(
    ctx: typer.Context,
    code: Code,
    keyword: Annotated[str, typer.Argument(help="Words to find (case and accents do not matter).", show_default=False)],
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many hits, 1 to 50.")] = 20,
    edition: Edition = None,
    language: Language = None,
    json_: Json = False,
) -> None:
    """Search the titles and text of one norm. Example: normcli search "SIA 261" "charge de neige\""""
    answer(ctx, json_, lambda service: service.search(code, keyword, limit, edition, language))


@app.command()
def corpus(
    ctx: typer.Context,
    keyword: Annotated[str, typer.Argument(help="Words or a clause number; accents, case and ß/ss do not matter.", show_default=False)],
    limit: Annotated[int, typer.Option("--limit", "-n", help="At most this many hits over all norms, 1 to 40.")] = 20,
    json_: Json = False,
) -> None:
    """Search every norm at once, title hits first. Example: normcli corpus "Straße\""""
    answer(ctx, json_, lambda service: service.corpus(keyword, limit))


@app.command()
def xrefs(
    ctx: typer.Context, code: Code, path: ClausePath, edition: Edition = None, language: Language = None, json_: Json = False
) -> None:
    """The references a clause makes, and where they lead. Example: normcli xrefs "SIA 261" 4.2.1"""
    answer(ctx, json_, lambda service: service.xrefs(code, path, edition, language))


@app.command()
def figure(
    ctx: typer.Context,
    code: Code,
    figure_id: Annotated[
        str, typer.Argument(metavar="FIGURE_ID", help="Figure id (fig-3) or number (3), as `section` lists them.", show_default=False)
    ],
    output_file: Annotated[Path | None, typer.Option("--output", "-o", help="Write the image to this file.", show_default=False)] = None,
    edition: Edition = None,
    language: Language = None,
    json_: Json = False,
) -> None:
    """Save a figure's image (or print it, base64, with --json). Example: normcli figure "SIA 261" fig-3 -o fig.png"""
    from normcli.cli import output

    as_json = (ctx.obj or Options()).json or json_

    def read(service: Any) -> Any:
        result = service.figure(code, figure_id, edition, language)
        if as_json and output_file is not None:  # the file as asked, beside the JSON document
            output.save_figure(result, output_file)
        return result

    answer(ctx, json_, read, lambda result: output.save_figure(result, output_file))


@app.command()
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


@app.command()
def index(
    ctx: typer.Context,
    rebuild: Annotated[bool, typer.Option("--rebuild", help="Rebuild the whole index instead of refreshing changed bundles.")] = False,
    json_: Json = False,
) -> None:
    """Refresh the search index now (it also refreshes itself on every call). Example: normcli index --rebuild"""
    answer(ctx, json_, lambda service: service.rebuild(force=rebuild))


@app.command()
def batch(ctx: typer.Context) -> None:
    """Answer JSON Lines of operations from stdin, one JSON answer per line. Example: echo '{"op": "toc", "code": "SIA 261"}' | normcli batch"""
    from normcli.cli.batch import run_batch

    options: Options = ctx.obj or Options()
    try:
        code = run_batch(options.workspace, sys.stdin, sys.stdout)
    except KeyboardInterrupt:
        sys.stderr.write("normcli: interrupted\n")
        code = ExitCode.INTERRUPTED
    except BrokenPipeError:  # the reader has gone: as every command, end quietly with 0
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = ExitCode.OK
    raise typer.Exit(code)


# Commands that live in modules of their own (each module adds itself to `app` when imported).
# One import line per module below this comment; keep their own imports lazy.
from normcli.cli import browse_command
from normcli.cli import mcp_command
from normcli.cli import ingest_command


def run_cli(argv: list[str]) -> int:
    """Run the app on `argv` and return the exit status instead of exiting.

    Usage errors get the same treatment as every other failure: one line on stderr, exit 2,
    and with --json the error object on stdout.
    """
    try:
        code = app(args=argv or ["--help"], prog_name="normcli", standalone_mode=False)
    except typer.Abort:
        sys.stderr.write("normcli: interrupted\n")
        return int(ExitCode.INTERRUPTED)
    except Exception as exc:
        # Click's usage errors, recognised by their interface so that click is not imported here.
        if not (hasattr(exc, "format_message") and isinstance(getattr(exc, "exit_code", None), int)):
            raise
        from normcli.cli import output

        command = next((word for word in argv if word in _command_names()), "")
        hint = f"run `normcli {command} --help`".replace("  ", " ")
        output.fail(InvalidArgument(exc.format_message(), hint), "--json" in argv)
        return int(ExitCode.USAGE)
    return int(code) if isinstance(code, int) else int(ExitCode.OK)


def _command_names() -> set[str]:
    return {command.name or command.callback.__name__ for command in app.registered_commands if command.callback}
