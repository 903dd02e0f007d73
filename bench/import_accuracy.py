"""How well `normcli ingest` recovers a PDF's clause tree without its bookmark outline, and with it.

For every PDF with an outline in ../shared/corpus (or the PDFs given as arguments) the outline is the
ground truth: each entry's title and target page, and its clause path (the number in the entry's
title, else the number printed with the heading on the target page, as the import with the outline
reads it). The PDF is imported twice into a scratch workspace, once ignoring the outline and once
using it, and an entry counts as recovered when a clause with the same path and title (case,
accents and punctuation ignored) starts on the same PDF page.

    .venv/bin/python bench/import_accuracy.py            # the corpus
    .venv/bin/python bench/import_accuracy.py a.pdf b.pdf --json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from normcli.bundle import parse_bundle  # noqa: E402
from normcli.importers import build_draft  # noqa: E402
from normcli.importers.common import parse_number, title_key  # noqa: E402
from normcli.importers.pdf_tree import outline_entries  # noqa: E402
from normcli.importers.writer import write_bundle  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
_MARKER = re.compile(r"^<!--\s*page\s+\S+\s+pdf=(\d+)")


@dataclass
class Run:
    """One import of one PDF: the clauses it wrote (path, title key, PDF page) and how long the import took."""

    nodes: list[tuple[str, str, int]]
    seconds: float
    pages: int


def import_once(pdf: Path, workspace: Path, use_outline: bool) -> Run:
    """Import `pdf` into `workspace` and read back every clause with the PDF page it starts on."""
    started = time.perf_counter()
    draft = build_draft(pdf, "pdf", use_outline=use_outline)
    seconds = time.perf_counter() - started
    code = f"BENCH {pdf.stem} {'outline' if use_outline else 'text'}"
    written = write_bundle(workspace, draft, code, "1", "en", code, force=True)
    bundle = parse_bundle(written)
    pdf_page_of_line: dict[int, int] = {}
    page = 1
    for number, line in enumerate(written.read_text(encoding="utf-8").split("\n"), start=1):
        match = _MARKER.match(line)
        if match:
            page = int(match.group(1))
        pdf_page_of_line[number] = page
    nodes = [(node.path, title_key(node.title), pdf_page_of_line.get(node.line, 1)) for node in bundle.nodes]
    return Run(nodes, seconds, draft.pages)


def truth(pdf: Path, with_outline: Run) -> list[tuple[str, str, int]]:
    """The outline entries as (path, title key, PDF page); paths from the title, else as printed on the page."""
    entries = []
    found = {(key, page): path for path, key, page in with_outline.nodes}
    for entry in outline_entries(pdf):
        number = parse_number(entry.title)
        title = number.title if number and number.title else entry.title
        page = (entry.page or 0) + 1
        path = number.path if number and number.title else found.get((title_key(title), page), entry.title)
        entries.append((path, title_key(title), page))
    return entries


def recovered(expected: list[tuple[str, str, int]], run: Run) -> float:
    """Share of the expected entries found with the same path, title and PDF page."""
    have = {(path.lower(), key, page) for path, key, page in run.nodes}
    hits = sum(1 for path, key, page in expected if (path.lower(), key, page) in have)
    return hits / len(expected) if expected else 1.0


def measure(pdf: Path) -> dict:
    """The accuracy row of one PDF."""
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        with_outline = import_once(pdf, workspace, use_outline=True)
        without = import_once(pdf, workspace, use_outline=False)
    expected = truth(pdf, with_outline)
    pages = max(without.pages, 1)
    return {
        "document": pdf.name,
        "pages": without.pages,
        "outlineEntries": len(expected),
        "withoutOutline": round(100 * recovered(expected, without), 1),
        "withOutline": round(100 * recovered(expected, with_outline), 1),
        "secondsPer100Pages": round(100 * max(without.seconds, with_outline.seconds) / pages, 2),
    }


def corpus_pdfs() -> list[Path]:
    """The corpus PDFs that have an outline."""
    return [pdf for pdf in sorted(CORPUS.glob("*/*.pdf")) if outline_entries(pdf)]


def main(argv: list[str] | None = None) -> int:
    """Print the accuracy table (Markdown) or, with --json, one JSON document."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path, help="PDFs with an outline (default: the corpus)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    args = parser.parse_args(argv)
    pdfs = args.pdfs or corpus_pdfs()
    if not pdfs:
        print("no PDF with an outline found (is ../shared/corpus there?)", file=sys.stderr)
        return 1
    rows = [measure(pdf) for pdf in pdfs]
    if args.json:
        print(json.dumps({"rows": rows}, indent=2))
        return 0
    print("| document | pages | outline entries | recovered without outline | with outline | import s / 100 pages |")
    print("|---|---:|---:|---:|---:|---:|")
    for row in rows:
        print(
            f"| {row['document']} | {row['pages']} | {row['outlineEntries']} | {row['withoutOutline']} % | "
            f"{row['withOutline']} % | {row['secondsPer100Pages']} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
