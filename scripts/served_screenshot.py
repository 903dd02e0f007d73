"""Take a screenshot of `normcli browse --serve` as a web browser shows it (for docs/tui.md).

    python scripts/served_screenshot.py OUT.png [CODE PATH] [--workspace DIR] [--size 1440x900]

It serves the reader on a free loopback port, opens it in headless Chromium (Debian's `chromium` package)
through the DevTools protocol, waits until the reader has drawn, and saves the page as PNG.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def free_port() -> int:
    """A loopback port nobody listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(port: int, seconds: float = 30) -> None:
    """Wait until something listens on `port`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"nothing listens on port {port}")


async def capture(debug_port: int, url: str, width: int, height: int, settle: float) -> bytes:
    """Open `url` in a new tab, wait `settle` seconds for the reader to draw, and return a PNG of the page."""
    import aiohttp

    request = urllib.request.Request(f"http://127.0.0.1:{debug_port}/json/new?{url}", method="PUT")
    target = json.loads(urllib.request.urlopen(request, timeout=10).read())
    async with aiohttp.ClientSession() as session, session.ws_connect(target["webSocketDebuggerUrl"], max_msg_size=0) as tab:
        number = 0

        async def call(method: str, **params: object) -> dict:
            nonlocal number
            number += 1
            await tab.send_json({"id": number, "method": method, "params": params})
            while True:
                message = await tab.receive_json()
                if message.get("id") == number:
                    return message.get("result", {})

        await call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1, mobile=False)
        await call("Page.navigate", url=url)
        await asyncio.sleep(settle)
        shot = await call("Page.captureScreenshot", format="png")
    return base64.b64decode(shot["data"])


def main() -> None:
    """Serve, open, wait, save."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("--workspace", type=Path, default=REPO / "sample_workspace")
    parser.add_argument("--size", default="1440x900")
    parser.add_argument("--settle", type=float, default=8.0, help="seconds to let the reader draw")
    parser.add_argument("target", nargs="*", help="CODE PATH to open")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder) / "workspace"  # a copy: the index is never written into the repository
        shutil.copytree(args.workspace, workspace, ignore=shutil.ignore_patterns(".normcli"))
        port, debug_port = free_port(), free_port()
        env = {**os.environ, "NORMCLI_DATA_DIR": str(Path(folder) / "data"), "NORMCLI_IMAGES": "0"}
        command = [sys.executable, "-m", "normcli", "--workspace", str(workspace), "browse", *args.target, "--serve", "--port", str(port)]
        server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        browser = subprocess.Popen(
            [
                "chromium",
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                f"--remote-debugging-port={debug_port}",
                f"--user-data-dir={Path(folder) / 'chromium'}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            wait_for(port)
            wait_for(debug_port)
            png = asyncio.run(capture(debug_port, f"http://127.0.0.1:{port}/", width, height, args.settle))
            args.output.write_bytes(png)
            print(f"{args.output}: {len(png):,} bytes")
        finally:
            for process in (browser, server):
                os.killpg(process.pid, signal.SIGTERM)
                process.wait(timeout=10)


if __name__ == "__main__":
    main()
