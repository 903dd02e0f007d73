"""Fixtures for the MCP server: a private sample workspace, the CLI's --json answers, MCP sessions.

Two ways to talk to the server: `normcli mcp` as a real subprocess over stdio (the SDK's
`ClientSession`), and the SDK's in-memory `Client` for fast tests of one behaviour.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp_support import PNG_1X1, PROJECT, child_env, stdio_session

from tests.conftest import write_bundle


@pytest.fixture(scope="session")
def cli_json(sample_copy: Path) -> Callable[..., tuple[int, dict]]:
    """`normcli --workspace SAMPLE ARGS --json` as a real process: (exit code, the JSON document on stdout)."""

    def run(*args: str, workspace: Path | None = None) -> tuple[int, dict]:
        command = [sys.executable, "-m", "normcli", "--workspace", str(workspace or sample_copy), *args, "--json"]
        done = subprocess.run(command, capture_output=True, text=True, env=child_env(), timeout=120, cwd=PROJECT)
        return done.returncode, json.loads(done.stdout)

    return run


@pytest.fixture(scope="session")
def stdio() -> Callable[..., Any]:
    """`async with stdio(workspace, *options) as session`: a real `normcli mcp` process and its client session."""
    return stdio_session


def in_memory(workspace: Path, test: Callable[[Any], Awaitable[Any]], **settings: Any) -> Any:
    """Run `test(client)` against the server built in this process, with the SDK's in-memory `Client`."""
    from mcp import Client

    from normcli.mcp.guard import McpSettings
    from normcli.mcp.server import build_server
    from normcli.service import Service

    service = Service.open(workspace)

    async def main() -> Any:
        async with Client(build_server(service, McpSettings(**settings))) as client:
            return await test(client)

    try:
        return anyio.run(main)
    finally:
        service.close()


@pytest.fixture
def run_in_memory(sample_copy: Path) -> Callable[..., Any]:
    """`run_in_memory(test, workspace=None, **settings)`: an in-memory session over the sample (or another workspace)."""

    def run(test: Callable[[Any], Awaitable[Any]], workspace: Path | None = None, **settings: Any) -> Any:
        return in_memory(workspace or sample_copy, test, **settings)

    return run


@pytest.fixture
def hostile_workspace(tmp_path: Path) -> Path:
    """A workspace whose figures try to leave the bundle folder: a `../` path and a symlink to a file outside."""
    root = tmp_path / "hostile"
    secret = tmp_path / "secret.png"
    secret.write_bytes(PNG_1X1)
    bundle = write_bundle(
        root,
        "test-1",
        "2024",
        """
        ---
        code: TEST 1
        edition: "2024"
        title: Figures that point outside
        language: en
        demo: true
        ---
        <!-- page 1 -->
        # 1 Scope
        Text of the scope.
        ![Figure 1 – Escapes with dots](../../../../secret.png)
        ![Figure 2 – Escapes with a link](figures/link.png)
        ![Figure 3 – Stays inside](figures/inside.png)
        """,
    )
    figures = bundle.parent / "figures"
    figures.mkdir()
    (figures / "inside.png").write_bytes(PNG_1X1)
    (figures / "link.png").symlink_to(secret)
    return root
