"""Every formula of the imported corpus documents is shown without a LaTeX command or a stray brace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from normcli.importers import ingest
from normcli.latex import to_unicode
from normcli.render import formulas_to_unicode

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not there")]

# The documents with displayed formulas (PDFs set in LaTeX) and Markdown that may hold `$…$`.
DOCUMENTS = ["ethereum-yellowpaper/paper.pdf", "theora-spec/Theora.pdf", "spdx-spec-2.3/spdx-spec-v2.3.md", "nist-sp800-63-3/sp800-63b.md"]
COMMAND = re.compile(r"\\[A-Za-z]+")


def _unescaped(latex: str) -> str:
    """What the page said: the formula's source without the importer's escapes and number spacing."""
    return re.sub(r"\\(?:textbackslash|textasciicircum|textasciitilde)\{\}|\\qquad|\\([{}$%#&_])", lambda m: m.group(1) or "", latex)


def _depth_trace(text: str) -> tuple[int, int]:
    depth = lowest = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        lowest = min(lowest, depth)
    return depth, lowest


@pytest.mark.parametrize("relative", DOCUMENTS)
def test_every_imported_formula_reads_cleanly(tmp_path: Path, relative: str) -> None:
    (tmp_path / "norms").mkdir()
    report = ingest(CORPUS / relative, "CORPUS X", "1", workspace=tmp_path, language="en", force=True)
    text = (tmp_path / report.file).read_text(encoding="utf-8")
    formulas = re.findall(r"\$\$(.+?)\$\$", text, re.S)
    if relative.endswith(".pdf"):
        assert len(formulas) >= 10, "a LaTeX-set PDF has numbered displayed formulas"
    for latex in formulas:
        shown = to_unicode(latex)
        assert not COMMAND.search(shown), (latex, shown)
        # Braces the page printed stay as printed; none of LaTeX's grouping braces are left over.
        assert _depth_trace(shown) == _depth_trace(_unescaped(latex)), (latex, shown)
        assert not COMMAND.search(formulas_to_unicode(f"$${latex}$$")), latex
