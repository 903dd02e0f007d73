"""The MCP server reads only the workspace: every file it opens during a hostile session is inside the
workspace, the index folder or Python's own installation; figures outside a bundle are refused; garbage
on stdin does not kill it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import tempfile
import threading
from pathlib import Path

import anyio

from normcli.service import Service
from tests.reliability.support import PNG, PROJECT, child_env, copy_sample, write_file

_OPENED: list[str] = []
_RECORDING = [False]


def _audit(event: str, args: tuple) -> None:
    if (
        _RECORDING[0]
        and event in ("open", "os.listdir", "os.scandir", "sqlite3.connect")
        and args
        and isinstance(args[0], str | bytes | os.PathLike)
    ):
        path = os.fsdecode(args[0])
        if event == "sqlite3.connect" and path.startswith("file:"):  # a URI: file:/path?mode=ro
            path = path[len("file:") :].split("?", 1)[0]
        _OPENED.append(path)


sys.addaudithook(_audit)


def _allowed_roots(workspace: Path) -> list[Path]:
    roots = {workspace.resolve(), Path(sys.prefix).resolve(), Path(sys.base_prefix).resolve(), PROJECT / "normcli"}
    roots |= {Path(path).resolve() for path in sysconfig.get_paths().values()}
    return sorted(roots)


def _hostile_workspace(root: Path) -> Path:
    copy_sample(root)
    secret = root.parent / "secret.png"
    secret.write_bytes(PNG)
    file = write_file(
        root,
        "evil-1",
        "2024",
        '---\ncode: EVIL 1\nedition: "2024"\nlanguage: en\n---\n# 1 Scope\nText.\n'
        "![Figure 1 – dots](../../../../secret.png)\n![Figure 2 – link](figures/link.png)\n![Figure 3 – absolute](" + str(secret) + ")\n",
    )
    (file.parent / "figures").mkdir()
    (file.parent / "figures" / "link.png").symlink_to(secret)
    outside = root.parent / "outside.md"
    outside.write_text('---\ncode: OUT 1\nedition: "2024"\n---\n# 1 Outside\nsecret text\n', encoding="utf-8")
    (root / "norms" / "out-1" / "2024").mkdir(parents=True)
    (root / "norms" / "out-1" / "2024" / "norm.md").symlink_to(outside)
    return root


def test_a_hostile_session_opens_no_file_outside_the_workspace(tmp_path: Path, monkeypatch) -> None:
    from mcp import Client

    from normcli.mcp.server import build_server

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "ws" / ".cache"))
    root = _hostile_workspace(tmp_path / "ws")
    service = Service.open(root)
    service.norms()  # the index is built before recording: building reads bundles, which is allowed
    calls = [
        ("get_figure", {"code": "EVIL 1", "figureId": "fig-1"}),
        ("get_figure", {"code": "EVIL 1", "figureId": "fig-2"}),
        ("get_figure", {"code": "EVIL 1", "figureId": "fig-3"}),
        ("get_figure", {"code": "EVIL 1", "figureId": "../../../secret.png"}),
        ("get_figure", {"code": "SIA 261", "figureId": str(tmp_path / "secret.png")}),
        ("get_toc", {"code": "OUT 1"}),
        ("get_toc", {"code": "../../../../etc/passwd"}),
        ("get_section", {"code": "SIA 261", "path": "/etc/passwd"}),
        ("search_corpus", {"keyword": "secret text"}),
        ("get_figure", {"code": "SIA 261", "figureId": "fig-1"}),
    ]

    async def session() -> tuple[list, list]:
        async with Client(build_server(service)) as client:
            results = [await client.call_tool(tool, arguments) for tool, arguments in calls]
            resources = []
            for uri in ("normcli://toc/..%2F..%2Fetc%2Fpasswd", "normcli://toc/../../etc", "normcli://toc/out-1", "file:///etc/passwd"):
                try:
                    resources.append(await client.read_resource(uri))
                except Exception as exc:  # refused: fine
                    resources.append(exc)
            return results, resources

    _OPENED.clear()
    _RECORDING[0] = True
    try:
        results, resources = anyio.run(session)
    finally:
        _RECORDING[0] = False
        service.close()
    assert [result.is_error for result in results] == [True] * 8 + [False, False]
    assert all("Outside" not in json.dumps(result.structured_content or {}) for result in results)  # the title in outside.md
    assert not any("root:" in str(resource) for resource in resources)
    assert any(path.endswith(".png") for path in _OPENED), "the recording missed the one figure that was read"
    allowed = _allowed_roots(root)
    outside = [path for path in _OPENED if not any(Path(path).resolve().is_relative_to(base) for base in allowed)]
    outside = [
        path
        for path in outside
        if not path.startswith(("/dev/", "/proc/")) and not Path(path).resolve().is_relative_to(Path(tempfile.gettempdir()) / "mcp")
    ]
    assert not outside, outside


def test_garbage_on_stdin_never_kills_the_server_and_it_still_answers(tmp_path: Path) -> None:
    root = copy_sample(tmp_path / "ws")
    initialize = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "0"}},
    }
    garbage = [
        "\x00\x01\x02",
        "{",
        "[]",
        "null",
        '{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": "not an object"}',
        '{"jsonrpc": "2.0", "id": 10, "method": "tools/call", "params": {"name": "get_toc", "arguments": {"code": ["SIA 261"]}}}',
        '{"jsonrpc": "2.0", "id": 11, "method": "tools/call", "params": {"name": "get_section", "arguments": {"code": "SIA 261", "path": "4.2.1", "maxChars": 1e308}}}',
        '{"jsonrpc": "2.0", "id": 12, "method": "no/such/method"}',
        '{"jsonrpc": "1.0", "id": {"a": 1}, "method": 5}',
        "x" * 100_000,
        json.dumps({"jsonrpc": "2.0", "id": 13, "method": "tools/call", "params": {"name": "get_toc", "arguments": {"code": "SIA 261"}}}),
    ]
    lines = [json.dumps(initialize), json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}), *garbage]
    process = subprocess.Popen(
        [sys.executable, "-m", "normcli", "--workspace", str(root), "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
        cwd=PROJECT,
    )
    timer = threading.Timer(90, process.kill)
    timer.start()
    answers: dict = {}
    try:
        assert process.stdin is not None and process.stdout is not None and process.stderr is not None
        process.stdin.write("".join(line + "\n" for line in lines))
        process.stdin.flush()
        while not {10, 11, 13} <= set(answers):
            line = process.stdout.readline()
            if not line:
                break
            message = json.loads(line)  # stdout carries nothing but JSON-RPC
            answers[message.get("id")] = message
        process.stdin.close()
        code, errors = process.wait(), process.stderr.read()
    finally:
        timer.cancel()
    assert answers[13]["result"]["structuredContent"]["tree"], "the server stopped answering"
    for request in (10, 11):
        assert "error" in answers[request] or answers[request]["result"]["isError"]
    assert code == 0 and "Traceback" not in errors
