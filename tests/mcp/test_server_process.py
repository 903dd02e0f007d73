"""`normcli mcp` as a process: stdout carries only JSON-RPC, bad input never kills it, settings apply."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import anyio
from mcp_support import PROJECT, child_env, server_command

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw-test", "version": "0"}},
}


def raw_exchange(workspace: Path, lines: list[str], wanted: set[int]) -> tuple[list[dict], str, int]:
    """Write raw lines to the server's stdin, read stdout until the `wanted` ids have answers, then close stdin.

    Returns every message the server wrote (each stdout line must be JSON), its stderr and its exit code.
    """
    process = subprocess.Popen(
        server_command(workspace),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
        cwd=PROJECT,
    )
    messages: list[dict] = []
    timer = threading.Timer(60, process.kill)
    timer.start()
    try:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write("".join(line + "\n" for line in lines))
        process.stdin.flush()
        while wanted - {message.get("id") for message in messages}:
            line = process.stdout.readline()
            if not line:
                break
            messages.append(json.loads(line))
        process.stdin.close()
        messages += [json.loads(line) for line in process.stdout.read().splitlines() if line.strip()]
        code = process.wait()
    finally:
        timer.cancel()
    assert process.stderr is not None
    return messages, process.stderr.read(), code


def test_malformed_json_rpc_does_not_kill_the_server(sample_copy: Path) -> None:
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "get_toc", "arguments": {"code": "SIA 261"}}}
    lines = [
        "this is not json",
        json.dumps(INITIALIZE),
        '{"jsonrpc": "2.0", "id": 7, "method": ',
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps({"jsonrpc": "2.0", "id": 8, "method": "no/such/method"}),
        json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "get_toc", "arguments": "not an object"}}),
        json.dumps(call),
    ]
    messages, stderr, code = raw_exchange(sample_copy, lines, {1, 2, 8, 9})
    by_id = {message.get("id"): message for message in messages}
    parse_errors = [message for message in messages if message.get("id") is None and message["error"]["code"] == -32700]
    assert len(parse_errors) == 2  # "this is not json" and the cut line, each answered as JSON-RPC asks
    assert by_id[1]["result"]["serverInfo"]["name"] == "normcli"
    assert "error" in by_id[8]
    assert 9 in by_id
    answer = by_id[2]["result"]
    assert answer["isError"] is False
    assert answer["structuredContent"]["code"] == "SIA 261"
    assert code == 0
    assert "Traceback" not in stderr


def test_stdout_carries_nothing_but_json_rpc(sample_copy: Path) -> None:
    calls = [
        json.dumps(INITIALIZE),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        json.dumps(
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {"name": "get_section", "arguments": {"code": "SIA 999", "path": "1"}},
            }
        ),
        json.dumps({"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "normcli://methodology"}}),
    ]
    messages, _, code = raw_exchange(sample_copy, calls, {1, 2, 3})
    assert code == 0
    assert sorted(message["id"] for message in messages) == [1, 2, 3]


def test_an_unreadable_workspace_is_one_line_on_stderr_and_exit_3(tmp_path: Path) -> None:
    done = subprocess.run(
        server_command(tmp_path / "missing"), capture_output=True, text=True, env=child_env(), cwd=PROJECT, timeout=60, input=""
    )
    assert done.returncode == 3
    assert done.stdout == ""
    assert len(done.stderr.strip().splitlines()) == 1 and "not a folder" in done.stderr


def test_the_mcp_command_has_help_with_its_budget_options() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "normcli", "mcp", "--help"], capture_output=True, text=True, env=child_env(), cwd=PROJECT, timeout=60
    )
    assert done.returncode == 0
    for option in ("--read-budget", "--audit-budget", "--audit", "--idle-reset"):
        assert option in done.stdout


def reads_until_reminder(workspace: Path, stdio, *options: str) -> int:
    """How many reads in a row the server allows before its first reminder (up to 10)."""

    async def session() -> int:
        async with stdio(workspace, *options) as client:
            for count in range(1, 11):
                result = await client.call_tool("get_section", {"code": "SIA 261", "path": "4.2.1", "offset": count})
                if any(block.type == "text" and block.text.startswith("Budget:") for block in result.content):
                    return count - 1
        return 10

    return anyio.run(session)


def test_the_budget_comes_from_the_command_line(sample_copy: Path, stdio) -> None:
    assert reads_until_reminder(sample_copy, stdio) == 4
    assert reads_until_reminder(sample_copy, stdio, "--read-budget", "2") == 2
    assert reads_until_reminder(sample_copy, stdio, "--audit") == 8


def test_the_budget_comes_from_normcli_toml(sample_fresh: Path, stdio) -> None:
    settings = sample_fresh / "normcli.toml"
    settings.write_text(settings.read_text(encoding="utf-8") + "\n[mcp]\nread_budget = 3\naudit_budget = 5\n", encoding="utf-8")
    assert reads_until_reminder(sample_fresh, stdio) == 3
    assert reads_until_reminder(sample_fresh, stdio, "--audit") == 5
    assert reads_until_reminder(sample_fresh, stdio, "--read-budget", "1") == 1, "the command line wins over the file"
