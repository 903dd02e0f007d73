"""Footnotes of a real LaTeX paper: every note the PDF prints at the foot of a page becomes a Markdown footnote."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from normcli.bundle import parse_bundle
from normcli.importers import ingest

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
PAPER = CORPUS / "ethereum-yellowpaper" / "paper.pdf"
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not PAPER.is_file(), reason="../shared/corpus is not there")]


def _printed_notes(pdf: Path) -> list[str]:
    """The numbers of the notes at the foot of the pages, read from the PDF's characters: a run of digits of one size opening a
    line in the lowest fifth of the page, set smaller than the character after it and raised above its baseline."""
    pdfium = pytest.importorskip("pypdfium2")
    raw = pdfium.raw
    numbers = []
    document = pdfium.PdfDocument(str(pdf))
    for page in document:
        text = page.get_textpage()
        count = text.count_chars()
        chars = "".join(chr(raw.FPDFText_GetUnicode(text.raw, index)) for index in range(count))
        k = 0
        while k < count:
            start = k
            size = raw.FPDFText_GetFontSize(text.raw, start)
            while k < count and chars[k].isdigit() and raw.FPDFText_GetFontSize(text.raw, k) == size:
                k += 1
            if k == start:
                k += 1
                continue
            if k >= count or (start > 0 and chars[start - 1] not in "\r\n"):
                continue
            after = raw.FPDFText_GetFontSize(text.raw, k)
            bottom, next_bottom = text.get_charbox(start)[1], text.get_charbox(k)[1]
            if bottom < 0.2 * page.get_height() and after > size + 0.5 and bottom > next_bottom + 0.5:
                numbers.append(chars[start:k])
    return numbers


def test_every_printed_footnote_becomes_a_markdown_footnote(tmp_path: Path) -> None:
    printed = _printed_notes(PAPER)
    assert len(printed) >= 10
    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    report = ingest(PAPER, "PAPER", "1", workspace=root, language="en")
    text = (root / report.file).read_text(encoding="utf-8")
    notes = re.findall(r"^\[\^(\d+)\]: (.*)$", text, flags=re.MULTILINE)
    marks = re.findall(r"\[\^(\d+)\](?!:)", text)
    assert sorted(number for number, _ in notes) == sorted(printed)
    assert sorted(marks) == sorted(printed)
    for number, body in notes:  # each note on its own: no other note's number glued to its text
        assert not re.search(r"[⁰¹²³⁴⁵⁶⁷⁸⁹]+[A-Za-z]", body), (number, body)
    for node in parse_bundle(root / report.file).nodes:  # each note at the end of the clause that cites it
        for number in re.findall(r"^\[\^(\d+)\]: ", node.text, flags=re.MULTILINE):
            assert f"[^{number}]" in node.text.replace(f"[^{number}]:", ""), (node.path, number)
