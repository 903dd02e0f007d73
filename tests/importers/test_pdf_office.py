"""PDFs from office producers (LibreOffice from .odt and .docx, Chromium's Skia/PDF) against their source.

The fixtures under `tests/fixtures/producers/` were made by `bench/producers/make_documents.py` from
fictional norms written for this (the flat ODF or HTML source is committed beside each PDF), so the
tests run without LibreOffice. Each `*.truth.json` was computed by that script from the source
blocks, never from an import: the clause tree with the pages the producer's own bookmarks give,
the tables with caption, header row and rows, the super- and subscripts set as real formatting, the
footnotes, the figures and their labels, the French no-break spaces and the hyphenated words.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from importer_helpers import (
    assert_figures_whole,
    assert_scripts_kept,
    assert_table_matches,
    norm_text,
    pipe_rows,
    read_back,
    reader_key,
)

from normcli.importers import ingest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "producers"
# (PDF, its truth file, the language): one PDF per producer path, with and without bookmarks
CASES = [
    ("timber-de-small.odt-nobookmarks.pdf", "timber-de-small", "de"),  # LibreOffice from .odt, no outline
    ("facade-fr-small.docx.pdf", "facade-fr-small", "fr"),  # LibreOffice from .docx, with its outline
    ("drainage-en-small.chromium.pdf", "drainage-en-small", "en"),  # Chromium (Skia/PDF) from HTML, no outline
    ("drainage-en-small-endnotes.docx.pdf", "drainage-en-small-endnotes", "en"),  # .docx with footnotes and endnotes (i, ii …)
]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[str, object, dict, Path]]:
    """Each fixture PDF imported once: (norm.md text, bundle, truth, bundle folder)."""
    if not FIXTURES.is_dir():
        pytest.skip("tests/fixtures/producers is not there")
    pytest.importorskip("pypdfium2")
    results = {}
    for number, (pdf, stem, language) in enumerate(CASES, start=1):
        workspace = tmp_path_factory.mktemp(f"office{number}")
        (workspace / "norms").mkdir()
        report = ingest(FIXTURES / pdf, f"OFFICE {number}", "1", workspace=workspace, language=language)
        bundle = read_back(workspace, report)
        truth = json.loads((FIXTURES / f"{stem}.truth.json").read_text(encoding="utf-8"))
        results[pdf] = ((workspace / report.file).read_text(encoding="utf-8"), bundle, truth, (workspace / report.file).parent)
    return results


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_every_heading_of_the_source_is_a_clause_on_its_page(imported, pdf: str) -> None:
    """Numbered headings three deep, the unnumbered foreword and bibliography, the annex and its clauses:
    with the outline and, from the printed contents and the layout, without it."""
    text, bundle, truth, _ = imported[pdf]
    pdf_page = {}
    page = 1
    for number, line in enumerate(text.split("\n"), start=1):
        match = re.match(r"^<!--\s*page\s+\S+\s+pdf=(\d+)", line)
        page = int(match.group(1)) if match else page
        pdf_page[number] = page
    nodes = {(reader_key(node.path), reader_key(node.title)): pdf_page[node.line] for node in bundle.nodes}
    pages = truth["pages"][pdf]
    for entry in truth["tree"]:
        found = nodes.get((reader_key(entry["path"]), reader_key(entry["title"])))
        assert found is not None, (entry, sorted(nodes))
        assert found == pages[entry["path"]], entry


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_the_printed_contents_is_a_node_of_its_own(imported, pdf: str) -> None:
    _, bundle, truth, _ = imported[pdf]
    contents = [node for node in bundle.nodes if reader_key(node.title) in (reader_key(truth["contents"]), "contents")]
    assert contents, [node.title for node in bundle.nodes]
    assert not [node.path for node in bundle.nodes if node not in contents and re.search(r"\.{5,}\s*\d", node.text)]


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_captioned_tables_keep_their_header_row_and_multi_line_cells(imported, pdf: str) -> None:
    _, bundle, truth, _ = imported[pdf]
    tables = {str(table.number): table for table in bundle.tables if table.number}
    assert len(bundle.tables) == len(truth["tables"])  # no paragraph or figure taken for a table
    for expected in truth["tables"]:
        assert_table_matches(tables[expected["number"]].markdown, expected)


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_superscripts_and_subscripts_stay_raised_and_lowered(imported, pdf: str) -> None:
    """`m²`, `kN/m³`, `10⁻³` and the subscripts LibreOffice lowers by only a twelfth of the size (`A_ef`, `u₁`)."""
    text, _, truth, _ = imported[pdf]
    assert_scripts_kept(text, truth["scripts"])


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_footnotes_become_markdown_footnotes_cited_where_the_mark_was(imported, pdf: str) -> None:
    """LibreOffice prints the note's own number unraised at the note's size: it is still the note."""
    text, _, truth, _ = imported[pdf]
    defined = dict(re.findall(r"^\[\^([^\]]+)\]: (.*)$", text, re.M))
    for note in truth["footnotes"]:
        labels = [label for label, body in defined.items() if reader_key(body) == reader_key(note)]
        assert labels, (note, defined)
        assert any(re.search(rf"[^\W\d_]\[\^{re.escape(label)}\][.,;]", text) for label in labels), note  # no space before the mark
    assert not re.search(r"\w[¹²³⁴⁵⁶⁷⁸⁹]\s*\.", re.sub(r"m[²³]|10⁻?[¹²³⁴⁵⁶⁷⁸⁹]", "", text))  # no mark left as a superscript


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_figures_are_whole_named_by_their_file_and_keep_their_labels_out_of_the_text(imported, pdf: str) -> None:
    """A drawing of shapes with labels (several on one baseline, some outside every shape) and an embedded PNG."""
    text, bundle, truth, folder = imported[pdf]
    # the sizes as the source sets them: the drawing of shapes 12 × 3.5 cm, the PNG 12 × 6 cm
    assert_figures_whole(text, bundle, folder, truth["figures"], lambda figure: (12.0, 3.5) if figure["kind"] == "shapes" else (12.0, 6.0))


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_no_break_spaces_and_hyphenated_words_survive_line_ends(imported, pdf: str) -> None:
    """French `valeur\u00a0:` (producers print the no-break space as a plain one); a compound written with a
    hyphen keeps every hyphen when a line breaks after one (`Stoß-an-Stoß-` + `Verbindung`, `porte-` +
    `à-faux`); a word with soft hyphens is one word."""
    text, _, truth, _ = imported[pdf]
    for phrase in truth["nbsp"]:
        assert phrase in text, phrase
    for word in truth["hyphenated"]:
        assert word in text, word
        for cut in [k for k, c in enumerate(word) if c == "-"]:
            assert word[:cut] + word[cut + 1 :] not in text, word
    for word in truth["soft"]:
        assert word in text
        assert not any(f"{word[:cut]}-{word[cut:]}" in text for cut in range(2, len(word) - 1)), word


# -- the causes found on office PDFs, each on a small PDF made here -------------------------------------


def _grid(builder, columns: list[float], rows: list[list[str | list[str]]], height: float = 16.0) -> None:
    """A ruled grid (a rule around every cell); a cell given as a list of lines wraps over them."""
    pdf = builder.pdf
    heights = [height * max(len(cell) if isinstance(cell, list) else 1 for cell in row) for row in rows]
    top = builder.y + 6
    tops = [top + sum(heights[:k]) for k in range(len(rows) + 1)]
    pdf.set_line_width(0.5)
    for y in tops:
        pdf.line(columns[0], y, columns[-1], y)
    for x in columns:
        pdf.line(x, top, x, tops[-1])
    for k, cells in enumerate(rows):
        pdf.set_font("Helvetica", "B" if k == 0 else "", 10)
        for x, cell in zip(columns, cells, strict=False):
            for n, text in enumerate(cell if isinstance(cell, list) else [cell]):
                pdf.text(x + 3, tops[k] + 11 + n * 12, text)
    builder.y = tops[-1] + 2


def test_text_under_a_grid_at_the_foot_of_a_page_is_not_a_row_of_it(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A grid draws a rule around every row: the short paragraph after it, at the foot of the page, stays text
    (it was taken as rows going on to the next page, as a booktabs table without a closing rule may)."""
    builder = pdf_builder().page().heading("1 Runoff").line("The coefficients of Table 1 apply to every surface.")
    builder.gap(640).line("Table 1: Runoff coefficients")
    _grid(
        builder,
        [72.0, 200.0, 330.0, 520.0],
        [["Surface", "Coefficient", "Note"], ["Asphalt", "0.90", "new surfaces"], ["Gravel", "0.60", "compacted"]],
    )
    builder.line("The outfall is protected against erosion with rip-rap over its length.").line("Nothing else follows.")
    builder.page().heading("2 Outfalls").line("The text of the next clause.")
    report = ingest(builder.save(tmp_path / "grid-foot.pdf"), "TEST 301", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [len(pipe_rows(table.markdown)) for table in bundle.tables] == [3]
    assert "The outfall is protected against erosion with rip-rap over its length. Nothing else follows." in bundle.nodes[0].text


def test_a_footnote_whose_text_recurs_on_several_pages_is_not_a_running_footer(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The same note at the foot of four pages (`¹ Values are fictional.`) is four footnotes, not page furniture."""
    builder = pdf_builder()
    titles = ["Scope", "Terms", "Loads", "Checks"]
    for number in range(1, 5):
        builder.page().heading(f"{number} {titles[number - 1]}")
        for line in range(4):
            builder.line(f"Line {line + 1} of the {titles[number - 1].lower()} clause says something of its own here.")
        builder.y += 13
        pdf = builder.pdf
        pdf.set_font("Helvetica", "", 10)
        sentence = f"The values of the {titles[number - 1].lower()} clause are listed below"
        pdf.text(72, builder.y, sentence)
        x = 72 + pdf.get_string_width(sentence)
        pdf.set_font("Helvetica", "", 7)
        pdf.text(x, builder.y - 4, str(number))
        pdf.set_font("Helvetica", "", 10)
        pdf.text(x + pdf.get_string_width(str(number)) + 0.5, builder.y, ".")
        pdf.set_font("Helvetica", "", 6)
        pdf.text(72, 790 - 3, str(number))
        pdf.set_font("Helvetica", "", 8)
        pdf.text(76, 790, "Values are fictional and must not be used.")
    report = ingest(builder.save(tmp_path / "notes.pdf"), "TEST 302", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    for number, node in enumerate(nodes, start=1):
        assert f"listed below[^{number}]." in node.text
        assert node.text.rstrip().endswith(f"[^{number}]: Values are fictional and must not be used."), node.text


def test_a_hyphen_at_a_line_end_in_a_cell_and_an_enumerator_like_line_start_keep_the_text(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """`well-` + `graded` in a wrapped cell is `well-graded` when the document writes it so; a line that opens
    with `m.` after a full line that runs on (`at least 20` / `m. The`) goes on with the sentence."""
    builder = pdf_builder().page().heading("1 Drains")
    builder.line("Well-graded gravel is preferred for the bedding of every drain that is laid in soft ground")
    builder.line("and the outfall is protected against erosion with rip-rap over a length of at least 20")
    builder.line("m. The filter layer is placed below the pipe, and the drains are inspected every year.")
    builder.gap(10).line("Table 1: Bedding materials")
    _grid(builder, [72.0, 200.0, 330.0, 520.0], [["Material", "Size", "Note"], ["Gravel", "8/16", ["compacted, well-", "graded material"]]])
    builder.gap(10).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "cells.pdf"), "TEST 303", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "over a length of at least 20 m. The filter layer" in text
    assert "| Gravel | 8/16 | compacted, well-graded material |" in text


def test_a_hyphen_at_a_line_end_before_a_capital_is_the_words_own(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A word broken by hyphenation goes on in lower case: `Stoß-an-Stoß-` + `Verbindung` keeps its hyphen, as
    does `ISO-` + `9001`; a line set in capitals (`CONSTRUC-` + `TION`) is one word broken, and so is an
    identifier the document writes joined elsewhere (`state-` + `Root`)."""
    builder = pdf_builder().page().heading("1 Stöße")
    builder.line("Die Lamellen werden mit Keilzinken verbunden; eine Stoß-an-Stoß-")
    builder.line("Verbindung ist nur mit Zulassung erlaubt, die Prüfung erfolgt nach ISO-")
    builder.line("9001 und wird dokumentiert. DIE ABNAHME DER KONSTRUK-")
    builder.line("TION ERFOLGT VOR DEM EINBAU durch eine unabhängige Stelle vor Ort. Der stateRoot und der state-")
    builder.line("Root sind Bezeichner, die Prüfer wünschen sich keine Trennung, wish-")
    builder.line("ing for words joined again by the rule of the words of the document.")
    report = ingest(builder.save(tmp_path / "hyphens.pdf"), "TEST 304", "1", workspace=workspace, language="de")
    text = norm_text(workspace, report)
    assert "eine Stoß-an-Stoß-Verbindung ist" in text
    assert "nach ISO-9001 und" in text
    assert "DER KONSTRUKTION ERFOLGT" in text
    assert "der stateRoot sind" in text  # a capital after the break, but the document writes the word joined
    assert "Trennung, wishing for" in text  # `ing` opens a line only: the tail of a broken word, not a word


def test_endnotes_beside_footnotes_each_go_to_the_clause_that_cites_them(imported) -> None:
    """Word and LibreOffice print endnotes (`i`, `ii` …) on a page of their own after the text: each note of the
    source, footnote or endnote, is one `[^…]:` paragraph, cited in the clause it ends."""
    text, bundle, truth, _ = imported["drainage-en-small-endnotes.docx.pdf"]
    defined = re.findall(r"^\[\^([^\]]+)\]: (.*)$", text, re.M)
    assert sorted(reader_key(body) for _, body in defined) == sorted(reader_key(note) for note in truth["footnotes"])
    roman = [label for label, _ in defined if not label.isdigit()]
    assert roman and len(roman) == len(truth["footnotes"]) // 2, defined
    for node in bundle.nodes:
        for label in re.findall(r"^\[\^([^\]]+)\]: ", node.text, re.M):
            assert re.search(rf"\w\[\^{re.escape(label)}\](?!:)", node.text), (node.path, label)
