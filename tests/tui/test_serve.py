"""`normcli browse --serve`: the reader served to a web browser, driven over its websocket as a browser would."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[2]
_ESCAPES = re.compile(r"\x1b\[[0-9;?<>]*[A-Za-z~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Z0-9]|\x1b[=>78]")


def free_port() -> int:
    """A port nobody listens on now, on the loopback interface."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def screen_text(data: bytes) -> str:
    """What the terminal output says, without its escape sequences."""
    return _ESCAPES.sub("", data.decode("utf-8", "replace"))


@pytest.fixture
def served(sample_copy: Path, tmp_path: Path):  # type: ignore[no-untyped-def]
    """`normcli browse --serve` on a free loopback port; yields the port, stops the server after the test."""
    port = free_port()
    env = {**os.environ, "NORMCLI_DATA_DIR": str(tmp_path / "data"), "NORMCLI_IMAGES": "0"}
    process = subprocess.Popen(
        [sys.executable, "-m", "normcli", "--workspace", str(sample_copy), "browse", "--serve", "--port", str(port)],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            assert process.poll() is None, process.stdout.read().decode() if process.stdout else ""
            time.sleep(0.1)
    try:
        yield port
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        if process.stdout:
            process.stdout.close()


def test_browse_serve_serves_the_reader_and_a_browser_can_drive_it(served: int) -> None:
    import aiohttp

    page = urllib.request.urlopen(f"http://127.0.0.1:{served}/", timeout=10).read().decode()
    assert "<html" in page.lower() and "/ws" in page

    async def drive() -> tuple[str, str]:
        received = b""
        async with aiohttp.ClientSession() as session, session.ws_connect(f"ws://127.0.0.1:{served}/ws?width=120&height=40") as socket_:

            async def until(text: str, seconds: float = 45) -> str:
                nonlocal received
                deadline = time.monotonic() + seconds
                while text not in screen_text(received):
                    message = await socket_.receive(timeout=max(0.1, deadline - time.monotonic()))
                    if message.type == aiohttp.WSMsgType.BINARY:
                        received += message.data
                    elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.ERROR):
                        raise AssertionError(f"the websocket closed before '{text}' showed")
                return screen_text(received)

            await socket_.send_json(["resize", {"width": 120, "height": 40}])
            tree = await until("VSS 640 100")  # the tree of norms is on the page
            received = b""
            await socket_.send_json(["stdin", "g"])
            await until("Go to clause")
            await socket_.send_json(["stdin", "SIA 261 4.2.1\r"])
            text = await until("Charge de neige sur le sol")
            await socket_.send_json(["stdin", "q"])
            return tree, text

    tree, text = asyncio.run(asyncio.wait_for(drive(), 90))
    assert "SIA 261" in tree and "EN 1991-1-3" in tree
    assert "4.2.1" in text


def test_serve_refuses_a_port_in_use(cli, sample_copy: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as taken:
        port = taken.getsockname()[1]
        ran = cli("browse", "--serve", "--port", str(port), workspace=sample_copy)
    assert ran.code == 2
    assert f"cannot listen on 127.0.0.1:{port}" in ran.stderr


def test_serve_loads_textual_serve_only_for_serve() -> None:
    probe = (
        "import sys\n"
        "from normcli.cli.app import run_cli\n"
        "run_cli(['browse', '--help'])\n"
        "print('LOADED:' + ','.join(sorted(name for name in sys.modules if name.split('.')[0] in ('textual_serve', 'aiohttp'))))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=PROJECT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "LOADED:"
