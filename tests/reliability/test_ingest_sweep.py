"""Imports of odd PDFs found by the sweep over documents never seen (bench/sweep.py): each a clear one-line
message and a documented exit code, never a traceback, never a half-written bundle."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.support import child_env


def _ingest(workspace: Path, pdf: Path, *options: str) -> subprocess.CompletedProcess:
    command = [sys.executable, "-m", "normcli", "--workspace", str(workspace), "ingest", str(pdf), "--code", "DOC 1", "--edition", "1"]
    return subprocess.run([*command, *options], capture_output=True, text=True, env=child_env(), timeout=120)


def test_a_pdf_without_text_is_refused_in_one_line_that_names_ocr_once(tmp_path: Path) -> None:
    """A PDF of vector drawings only (a logo, an outline of glyph paths) has no text: exit 2, nothing written."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.add_page()
    pdf.rect(100, 100, 200, 150, style="F")
    pdf.line(100, 400, 400, 500)
    source = tmp_path / "logo.pdf"
    pdf.output(str(source))
    workspace = tmp_path / "ws"
    (workspace / "norms").mkdir(parents=True)
    for options in ((), ("--no-outline",), ("--json",)):
        done = _ingest(workspace, source, *options)
        assert done.returncode == 2, done.stderr
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
        assert "has no text to import" in lines[0] and lines[0].count("--ocr") == 1 and lines[0].count("scanned") == 1, lines[0]
        assert list((workspace / "norms").iterdir()) == [], "a refused import leaves nothing behind"
