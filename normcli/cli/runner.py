"""How a command runs: the global options, the one error boundary, and `answer()` for the read commands.

The commands under `cli/commands/` import from here, never from `cli/app.py`, so the app can
register them without an import cycle.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import typer

from normcli.cli.diagnostics import report, sample_note


@dataclass
class Options:
    """The global options, shared with every command through the Typer context."""

    workspace: str | None = None
    json: bool = False
    debug: bool = False


def options_of(ctx: typer.Context) -> Options:
    """The global options of this invocation (the defaults when a test calls a command directly)."""
    return ctx.obj or Options()


@contextlib.contextmanager
def error_boundary(options: Options, as_json: bool, report_hint: str = "the command you ran", command: str = "") -> Iterator[None]:
    """Where a command's failures end: reported by `diagnostics.report` (its advice worded for `command`'s
    options when it is not a read) and exited with its status."""
    try:
        yield
    except typer.Exit:
        raise
    except (Exception, KeyboardInterrupt) as exc:
        # Click would turn Ctrl-C into "Aborted!" and exit 1, which reads as "not found".
        raise typer.Exit(report(exc, as_json, options.debug, report_hint, command)) from None


def answer(
    ctx: typer.Context,
    json_flag: bool,
    call: Callable[[Any], Any],
    render: Callable[..., None] | None = None,
    overview: bool = False,
    command: str = "",
) -> None:
    """Run `call(service)` and print its result; failures go through `error_boundary` (advice worded for
    `command`'s options). An `overview` (what the workspace holds) also says on stderr what `check`
    would report first."""
    options = options_of(ctx)
    as_json = options.json or json_flag
    from normcli.cli import output

    with error_boundary(options, as_json, command=command):
        from normcli.service import Service

        service = Service.open(options.workspace)
        if service.is_sample:  # with --json too (SPEC §4): a script run outside its workspace must not read demo norms unaware
            output.note(sample_note(service.root))
        result = call(service)
        if as_json:
            output.print_json(result.to_json())
        else:
            (render or output.render)(result)
        if overview and not as_json:
            workspace_notes(service)


def workspace_notes(service: Any) -> None:
    """One line on stderr when some bundles or the settings cannot be used, pointing to `check`."""
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
