"""Helpers shared by the MCP tests (imported by conftest.py and by test modules)."""

from __future__ import annotations

import os
import sys
from contextlib import asynccontextmanager
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
SAMPLE = PROJECT / "sample_workspace"


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a `normcli` subprocess: this checkout first on the path, no workspace from outside."""
    env = {key: value for key, value in os.environ.items() if key != "NORMCLI_WORKSPACE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), env.get("PYTHONPATH", "")]))
    env.pop("NO_COLOR", None)
    env.update(extra)
    return env


def server_command(workspace: Path, *options: str) -> list[str]:
    """The command line an MCP client is configured with."""
    return [sys.executable, "-m", "normcli", "--workspace", str(workspace), "mcp", *options]


@asynccontextmanager
async def stdio_session(workspace: Path, *options: str, env: dict[str, str] | None = None):
    """A `ClientSession` with `normcli mcp` running as a subprocess, initialized."""
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    command = server_command(workspace, *options)
    params = StdioServerParameters(command=command[0], args=command[1:], env=child_env(**(env or {})), cwd=str(PROJECT))
    with open(os.devnull, "w") as quiet:
        async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
            session.initialized = await session.initialize()  # type: ignore[attr-defined]
            yield session


PNG_1X1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)
