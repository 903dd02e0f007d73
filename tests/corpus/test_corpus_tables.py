"""Tables of the corpus PDFs: every printed `Table N:` caption becomes its numbered table, the tables on the
hand-labelled pages of bench/table_truth.json are the real ones, and rows read from the page text survive."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from normcli.bundle import parse_bundle
from normcli.importers import ingest

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus"
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not there")]

# the test's own reading of a caption: label, number, then a separator that is not the dot of a longer number
CAPTION = re.compile(r"^(?:table|tableau)\s+(\d+(?:\.\d+)*)\s*(?::|–|—|\.(?!\d))", re.I)
LEADERS = re.compile(r"(?:\.\s?){4,}\s*\d+$")  # a list-of-tables entry
MARKER = re.compile(r"^<!--\s*page\s+\S+\s+pdf=(\d+)")
TABLE_RULE = re.compile(r"^\|(?:---\|)+$")


def _pdf_lines(pdf: Path) -> list[list[str]]:
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    pages = []
    for index in range(len(document)):
        textpage = document[index].get_textpage()
        pages.append([line.strip() for line in textpage.get_text_range().splitlines() if line.strip()])
    document.close()
    return pages


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The PDFs with tables, imported once each."""
    root = tmp_path_factory.mktemp("tables") / "ws"
    (root / "norms").mkdir(parents=True)
    done = {}
    for relative in ("theora-spec/Theora.pdf", "debian-reference/debian-reference.fr.pdf", "fhs-3.0/fhs-3.0.pdf"):
        report = ingest(CORPUS / relative, "TABLES " + Path(relative).stem, "1", workspace=root, language="en", force=True)
        done[Path(relative).name] = root / report.file
    return done


@pytest.mark.parametrize("name", ["Theora.pdf", "debian-reference.fr.pdf"])
def test_every_printed_table_caption_is_a_numbered_table(imported: dict[str, Path], name: str) -> None:
    pdf = next(CORPUS.glob(f"*/{name}"))
    printed = {match.group(1) for lines in _pdf_lines(pdf) for line in lines if (match := CAPTION.match(line)) and not LEADERS.search(line)}
    numbers = {str(table.number) for table in parse_bundle(imported[name]).tables if table.number}
    assert printed and printed <= numbers, sorted(printed - numbers)


@pytest.mark.parametrize("name", ["Theora.pdf", "debian-reference.fr.pdf", "fhs-3.0.pdf"])
def test_the_tables_on_the_labelled_pages_are_the_real_ones(imported: dict[str, Path], name: str) -> None:
    truth = json.loads((ROOT / "bench" / "table_truth.json").read_text(encoding="utf-8"))
    labelled = {**truth["documents"][name], **truth["heldOut"]["documents"][name]}
    found: dict[str, int] = {}
    page = "1"
    for line in imported[name].read_text(encoding="utf-8").split("\n"):
        if match := MARKER.match(line):
            page = match.group(1)
        elif TABLE_RULE.match(line):
            found[page] = found.get(page, 0) + 1
    wrong = {page: (found.get(page, 0), entry["tables"]) for page, entry in labelled.items() if found.get(page, 0) != entry["tables"]}
    assert not wrong, wrong  # page: (found, real)


def test_huffman_tables_side_by_side_keep_every_code(imported: dict[str, Path]) -> None:
    """Every `code value` pair printed on the Huffman pages of Theora's appendix is a row of a table."""
    pages = _pdf_lines(next(CORPUS.glob("*/Theora.pdf")))
    appendix = [lines for lines in pages if any("Huffman Table Number" in line for line in lines)]
    pairs = {pair for lines in appendix for line in lines for pair in re.findall(r"\b(b[01]+)\s+(\d+)\b", line)}
    text = imported["Theora.pdf"].read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| (b[01]+) \| (\d+) \|$", text, re.M))
    assert len(appendix) >= 40 and len(pairs) > 1000 and not pairs - rows, sorted(pairs - rows)[:5]
