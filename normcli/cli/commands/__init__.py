"""The commands of `normcli`, each module adding its own to the app through `register(app)`.

Registration is explicit (the app calls `register_all`), so no command module imports the app.
Each module keeps its heavy imports (Textual, the MCP SDK, PDF readers) inside its command's body.
"""

from __future__ import annotations

import typer


def register_all(app: typer.Typer) -> None:
    """Add every command to `app`, the read operations first, in the order `normcli --help` lists them."""
    from normcli.cli.commands import api, ask, browse, ingest, mcp, reads, workspace

    for module in (reads, api, workspace, browse, mcp, ingest, ask):
        module.register(app)
