"""`normcli browse` as a command: Textual loads only for it, and it refuses to run without a terminal."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def test_textual_never_loads_outside_browse() -> None:
    probe = (
        "import sys\n"
        "from normcli.cli.app import run_cli\n"
        "run_cli(['--help'])\n"
        "loaded = sorted(name for name in sys.modules if name.split('.')[0] in ('textual', 'textual_image'))\n"
        "loaded += sorted(name for name in sys.modules if name.startswith('normcli.tui'))\n"
        "print('LOADED:' + ','.join(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=PROJECT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "browse" in done.stdout
    assert done.stdout.strip().splitlines()[-1] == "LOADED:"


def test_browse_is_a_command_with_code_and_path(cli) -> None:
    ran = cli("browse", "--help")
    assert ran.code == 0
    assert "CODE" in ran.stdout.upper() and "PATH" in ran.stdout.upper()


def test_browse_without_a_terminal_says_so(cli, sample_copy) -> None:
    ran = cli("browse", "SIA 261", "4.2.1", workspace=sample_copy)
    assert ran.code == 2
    assert "needs a terminal" in ran.stderr
