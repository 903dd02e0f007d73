"""`normcli mcp`: run the stdio MCP server (the SDK is imported only when this command runs)."""

from __future__ import annotations

from dataclasses import replace
from typing import Annotated, Any

import typer

from normcli.cli.diagnostics import ExitCode, note, report
from normcli.cli.runner import Options
from normcli.errors import NormcliError


def mcp(
    ctx: typer.Context,
    read_budget: Annotated[
        int | None,
        typer.Option(
            "--read-budget",
            min=1,
            help="Read calls in a row before the server reminds the agent to answer (default 4, or [mcp] read_budget).",
            show_default=False,
        ),
    ] = None,
    audit_budget: Annotated[
        int | None,
        typer.Option(
            "--audit-budget", min=1, help="The same threshold in audit mode (default 8, or [mcp] audit_budget).", show_default=False
        ),
    ] = None,
    audit: Annotated[
        bool | None,
        typer.Option(
            "--audit/--no-audit",
            help="Apply the audit budget instead of the read budget (default: [mcp] audit, else off).",
            show_default=False,
        ),
    ] = None,
    idle_reset: Annotated[
        float | None,
        typer.Option(
            "--idle-reset",
            min=0,
            help="Seconds without a call after which a new run of reads starts (default 120; 0: never).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Serve the read tools to a local agent over stdio (MCP). Example: normcli --workspace ~/norms mcp"""
    options: Options = ctx.obj or Options()
    try:
        from normcli.mcp.guard import read_mcp_settings
        from normcli.service import Service

        service = Service.open(options.workspace)
        settings = read_mcp_settings(service.root)
        overrides: dict[str, Any] = {"read_budget": read_budget, "audit_budget": audit_budget, "audit": audit, "idle_reset": idle_reset}
        settings = replace(settings, **{key: value for key, value in overrides.items() if value is not None})
        for problem in settings.problems:
            note(f"{problem} (using the default)")
        service.index()  # fail now, on stderr, rather than on the agent's first call
        if service.is_sample:
            note(f"serving the sample workspace at {service.root} (pass --workspace DIR or set NORMCLI_WORKSPACE)")
        from normcli.mcp.server import build_server

        server = build_server(service, settings, "INFO" if options.debug else "WARNING")
    except NormcliError as error:
        raise typer.Exit(report(error)) from None
    except ImportError as exc:
        note(f"the MCP SDK cannot be imported ({exc}); reinstall normcli (it needs mcp>=2,<3)")
        raise typer.Exit(ExitCode.INTERNAL) from None
    note(f"MCP server on stdio for {service.root} (reading budget {settings.budget}); Ctrl-C or close stdin to stop")
    try:
        server.run("stdio")
    finally:
        service.close()


def register(app: typer.Typer) -> None:
    """Add `mcp` to `app`."""
    app.command("mcp")(mcp)
