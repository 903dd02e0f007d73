"""`normcli browse` as a command: Textual loads only for it, and it refuses to run without a terminal."""

from __future__ import annotations

from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]


def test_browse_is_a_command_with_code_and_path(cli) -> None:
    ran = cli("browse", "--help")
    assert ran.code == 0
    assert "CODE" in ran.stdout.upper() and "PATH" in ran.stdout.upper()


def test_browse_without_a_terminal_says_so(cli, sample_copy) -> None:
    ran = cli("browse", "SIA 261", "4.2.1", workspace=sample_copy)
    assert ran.code == 2
    assert ran.stderr.startswith("normcli: browse needs a terminal") and ran.stderr.count("\n") == 1
