"""PDFs from producers beyond the office suites: Apache FOP (DocBook → XSL-FO), dblatex (DocBook → LaTeX), groff -ms
printed to PostScript and turned into PDF by Ghostscript, WeasyPrint (HTML), against the source they were made from.

The fixtures under `tests/fixtures/producers/` were made by `bench/producers/make_documents.py` from the fictional
norms of `bench/producers/content.py` (the DocBook, ms and HTML sources are committed beside the PDFs), so the tests
run on a machine without those tools. Each `*.truth.json` was computed by that script from the source blocks, never
from an import: the clause tree with the pages the producer's bookmarks give, tables, scripts, footnotes, figures.
The small PDFs made here with fpdf2 show each general rule the producers called for on its own.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from importer_helpers import assert_figures_whole, assert_scripts_kept, assert_table_matches, norm_text, read_back, reader_key

from normcli.importers import ingest
from normcli.importers.pdf_pages import (
    _extend,
    _same_line,
    _Segment,
    _tail_of_line_above,
    _unspaced_gaps,
    note_number,
    outline_title,
    script_pieces,
)

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "producers"
CASES = [
    ("timber-de-small-fop.fop-nobookmarks.pdf", "timber-de-small-fop", "de"),  # Apache FOP 2.8, a DocBook book, no outline
    ("drainage-en-small-dblatex.dblatex.pdf", "drainage-en-small-dblatex", "en"),  # dblatex (pdfTeX), with its outline
    ("facade-fr-small.ps2pdf.pdf", "facade-fr-small", "fr"),  # groff -ms -Tps + Ghostscript: bookmarks in roff escapes
    ("drainage-en-small.weasyprint.pdf", "drainage-en-small", "en"),  # WeasyPrint 57: scripts moved, not made smaller
]


def _pdf_pages(text: str) -> dict[int, int]:
    """The PDF page of every line of norm.md, from its page markers."""
    pages, page = {}, 1
    for number, line in enumerate(text.split("\n"), start=1):
        match = re.match(r"^<!--\s*page\s+\S+\s+pdf=(\d+)", line)
        page = int(match.group(1)) if match else page
        pages[number] = page
    return pages


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, bool], tuple[str, object, dict, Path]]:
    """Each fixture PDF imported with its outline and with the outline ignored: (norm.md text, bundle, truth, folder)."""
    if not FIXTURES.is_dir():
        pytest.skip("tests/fixtures/producers is not there")
    pytest.importorskip("pypdfium2")
    results = {}
    for number, (pdf, stem, language) in enumerate(CASES, start=1):
        truth = json.loads((FIXTURES / f"{stem}.truth.json").read_text(encoding="utf-8"))
        for use_outline in (True, False):
            workspace = tmp_path_factory.mktemp(f"producer{number}")
            (workspace / "norms").mkdir()
            report = ingest(FIXTURES / pdf, f"PRODUCER {number}", "1", workspace=workspace, language=language, use_outline=use_outline)
            text = (workspace / report.file).read_text(encoding="utf-8")
            results[(pdf, use_outline)] = (text, read_back(workspace, report), truth, (workspace / report.file).parent)
    return results


@pytest.mark.parametrize("use_outline", [True, False], ids=["outline", "no-outline"])
@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_every_heading_of_the_source_is_a_clause_on_its_page(imported, pdf: str, use_outline: bool) -> None:
    """`Chapter 1. Scope` / `1.1. Field` (DocBook), `1.` … (ms), `Appendix A` over its title (dblatex), a bibliography
    numbered as a chapter (dblatex); groff's bookmarks read `R[u00E9]f[u00E9]rences` and still name their clause."""
    text, bundle, truth, _ = imported[(pdf, use_outline)]
    pdf_page = _pdf_pages(text)
    nodes = {(reader_key(node.path), reader_key(node.title)): pdf_page[node.line] for node in bundle.nodes}
    pages = truth["pages"].get(pdf, {})
    for entry in truth["tree"]:
        found = nodes.get((reader_key(entry["path"]), reader_key(entry["title"])))
        assert found is not None, (entry, sorted(nodes))
        if entry["path"] in pages:
            assert found == pages[entry["path"]], entry


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_captioned_tables_keep_their_header_row_and_cells(imported, pdf: str) -> None:
    """Ruled grids and tables without rules (DocBook `frame="none"`, a tbl table without `box`)."""
    _, bundle, truth, _ = imported[(pdf, True)]
    tables = {str(table.number): table for table in bundle.tables if table.number}
    for expected in truth["tables"]:
        assert_table_matches(tables[expected["number"]].markdown, expected)


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_superscripts_and_subscripts_stay_raised_and_lowered(imported, pdf: str) -> None:
    """`m²`, `10⁻³`, `A_ef` however the producer sets them: smaller and moved (FOP, dblatex), kerned into the letter's
    box (groff's `γ` + lowered `M`), or at the text's size and only moved (WeasyPrint)."""
    text, _, truth, _ = imported[(pdf, True)]
    assert_scripts_kept(text, truth["scripts"])


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_footnotes_become_markdown_footnotes(imported, pdf: str) -> None:
    """FOP sets a note's number as a label apart from its text, WeasyPrint raises it at the note's size: both are
    the note. No space is left between the mark and the punctuation after it."""
    text, _, truth, _ = imported[(pdf, True)]
    defined = re.findall(r"^\[\^([^\]]+)\]: (.*)$", text, re.M)
    for note in truth["footnotes"]:
        labels = [label for label, body in defined if reader_key(body) == reader_key(note)]
        assert labels, (note, defined)
        assert any(re.search(rf"[^\W\d_]\[\^{re.escape(label)}\][.,;]", text) for label in labels), note


@pytest.mark.parametrize("pdf", [case[0] for case in CASES])
def test_figures_are_whole_and_numbered_in_the_annex_too(imported, pdf: str) -> None:
    """DocBook's stylesheets set the caption over the drawing: the drawing below it is the figure, its labels stay
    out of the text; `Figure A.1` in the annex is figure A.1 with the id of its file, `fig-a.1`."""
    text, bundle, truth, folder = imported[(pdf, True)]
    assert_figures_whole(text, bundle, folder, truth["figures"], lambda figure: (12.0, 3.0))


def test_french_no_break_spaces_survive_groff(imported) -> None:
    text, _, truth, _ = imported[("facade-fr-small.ps2pdf.pdf", True)]
    for phrase in truth["nbsp"]:
        assert phrase in text, phrase


def test_a_running_head_repeating_the_chapter_title_is_not_text(imported) -> None:
    """FOP prints the chapter's title over a rule at the top of its later pages: no clause's text holds it."""
    _, bundle, truth, _ = imported[("timber-de-small-fop.fop-nobookmarks.pdf", False)]
    chapters = {entry["title"] for entry in truth["tree"] if entry["level"] == 1}
    for node in bundle.nodes:
        assert not [line for line in node.text.splitlines() if line.strip() in chapters], node.path


# -- each rule on a small PDF made here ----------------------------------------------------------------


def test_a_glyph_in_roff_escape_notation_in_a_bookmark_is_its_character() -> None:
    assert outline_title("1.2. R[u00E9]f[u00E9]rences normatives") == "1.2. Références normatives"
    assert outline_title("Annex A [u2013] Worked examples") == "Annex A – Worked examples"
    assert outline_title("Stra\\[u00DF]e") == "Straße"
    assert outline_title("Array [u] and [1]") == "Array [u] and [1]"


def _raised(builder, base: str, script: str, size: float, rise: float, script_size: float, after: str = "", x: float = 72) -> float:
    """`base` then `script` moved by `rise` points at `script_size`, then `after`; returns the x after it."""
    pdf = builder.pdf
    pdf.set_font("Helvetica", "", size)
    pdf.text(x, builder.y, base)
    x += pdf.get_string_width(base)
    pdf.set_font("Helvetica", "", script_size)
    pdf.text(x, builder.y - rise, script)
    x += pdf.get_string_width(script)
    pdf.set_font("Helvetica", "", size)
    pdf.text(x, builder.y, after)
    return x + pdf.get_string_width(after)


def test_a_script_only_moved_off_the_baseline_is_still_a_script(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """WeasyPrint sets `<sup>` and `<sub>` at the text's size, a third of an em up or down: `m²`, `A_ef`; a letter
    only a little off the line (a tenth of an em) is no script."""
    builder = pdf_builder().page().heading("1 Drains")
    builder.y += 14
    _raised(builder, "The area is at least 2.5 m", "2", 10, 3.5, 10, " at every point of the drain.")
    builder.y += 14
    _raised(builder, "The area A", "ef", 10, -3.0, 10, " is measured on the drawings of the drain.")
    builder.y += 14
    _raised(builder, "A stone n", "o", 10, 1.0, 10, " lies on the bed of the channel there.")
    report = ingest(builder.save(tmp_path / "moved.pdf"), "TEST 401", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "at least 2.5 m² at every point" in text
    assert "The area Aₑf is measured" in text or "The area A_{ef} is measured" in text
    assert "A stone no lies" in text


def test_a_script_kerned_into_its_letters_box_stays_on_its_line() -> None:
    """groff kerns a lowered `M` under the last letter (`γ` + `M`, the character boxes of `facade-fr-small.ps2pdf.pdf`):
    PDFium cuts the line there, and the subscript, starting inside that letter's box, still belongs to it."""
    line = _Segment(0, list("partiels γ"), [*((300.0 + 6 * k, 306.0 + 6 * k, 326.3, 333.8) for k in range(8)), None, (375.8, 383.3, 326.2, 334.2)],
                    [*((11.0, 328.7) for _ in range(8)), None, (11.0, 328.7)])  # fmt: skip
    script = _Segment(20, ["M"], [(381.0, 387.8, 323.2, 328.5)], [(8.0, 323.2)])
    assert _same_line(line, script)
    _extend(line, script)
    assert "".join(script_pieces("".join(line.chars), line.glyphs, line.baseline()[0])) == "partiels γ_{M}"
    assert not _same_line(line, _Segment(30, ["T"], [(82.5, 89.2, 309.2, 316.6)], [(11.0, 309.2)]))  # the next line


def test_a_letters_scripts_that_outnumber_it_keep_its_size() -> None:
    """`a₃,ₜ` alone in a table cell (dblatex's glyphs): three smaller characters off the letter's baseline are its
    subscript, so the line's size is the letter's, not the median of its characters."""
    segment = _Segment(0, list("a3,t"), [(68.6, 72.7, 177.8, 182.5), (73.0, 75.9, 176.2, 181.3), (76.8, 77.8, 175.3, 177.0),
                                         (78.3, 80.3, 176.2, 180.6)], [(9.96, 177.87), (7.37, 176.3), (7.37, 176.3), (7.37, 176.3)])  # fmt: skip
    size = segment.baseline()[0]
    assert size == 9.96
    assert "".join(script_pieces("a3,t", segment.glyphs, size)) == "a_{3,t}"
    same = _Segment(0, list("abc"), [(0, 5, 0, 7), (5, 10, 0, 7), (10, 15, 0, 7)], [(7.37, 100.0), (7.37, 100.0), (9.96, 100.0)])
    assert same.baseline()[0] == 7.37  # a larger letter on the same baseline is no base of scripts: the median stays


def test_a_number_set_low_before_a_title_opens_its_line_as_text() -> None:
    """A heading whose number is set smaller and lower than its title (`2.1` at 10 pt, 5 pt under `File Types` at 12 pt,
    DocBy.TeX's sections) keeps its number as text: a lowered run opening the line has no letter to be the subscript of;
    the same run after a letter still is one."""
    glyphs = [*[(9.96, 731.03)] * 3, None, *[(11.96, 736.02)] * 4, None, *[(11.96, 736.02)] * 5]
    assert "".join(script_pieces("2.1 File Types", glyphs, 11.96)) == "2.1 File Types"
    after = [*[(11.96, 736.02)] * 2, *[(9.96, 731.03)] * 3]
    assert "".join(script_pieces("Ab2.1", after, 11.96)) == "Ab_{2.1}"


def test_note_numbers_set_apart_or_unraised_with_a_dot_are_the_notes(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """FOP sets a note's raised number apart from its text (a list label); babel-french prints `1. Texte` unraised
    at the note's size. Both are the note that the raised mark on the page cites."""
    builder = pdf_builder().page().heading("1 Domaine")
    builder.y += 14
    _raised(builder, "La charge ne doit pas dépasser la valeur prévue", "1", 10, 4, 7, ", sauf justificatif.")
    builder.y += 14
    _raised(builder, "Les ancrages sont vérifiés sous le poids propre", "2", 10, 4, 7, ", et sous le vent.")
    pdf = builder.pdf
    pdf.set_font("Helvetica", "", 6)
    pdf.text(72, 760, "1")
    pdf.set_font("Helvetica", "", 8)
    pdf.text(80, 763, "Valeurs fictives, à ne pas utiliser.")  # the label raised and apart from its text
    pdf.text(72, 775, "2. Hypothèse simplifiée, un calcul plus précis est admis.")  # unraised, with a dot
    report = ingest(builder.save(tmp_path / "notes.pdf"), "TEST 404", "1", workspace=workspace, language="fr")
    text = norm_text(workspace, report)
    assert "la valeur prévue[^1], sauf" in text and "[^1]: Valeurs fictives, à ne pas utiliser." in text
    assert "le poids propre[^2], et sous" in text and "[^2]: Hypothèse simplifiée, un calcul plus précis est admis." in text


def test_a_note_mark_after_the_tail_of_a_hyphenated_word(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`Festigkeitsklas-` / `se³.`: the mark follows the tail of a word broken at the line above, two letters long."""
    builder = pdf_builder().page().heading("1 Lamellen")
    builder.line("Als Brettschichtholz gelten verklebte Bauteile gleicher Festigkeitsklas-")
    builder.y += 13
    _raised(builder, "se", "3", 10, 4, 7, ". Die wirksame Querschnittsfläche darf nicht unterschritten werden.")
    pdf = builder.pdf
    pdf.set_font("Helvetica", "", 6)
    pdf.text(72, 770, "3")
    pdf.set_font("Helvetica", "", 8)
    pdf.text(76, 773, "Vereinfachte Annahme; ein genauerer Nachweis ist zulässig.")
    report = ingest(builder.save(tmp_path / "tail.pdf"), "TEST 405", "1", workspace=workspace, language="de")
    text = norm_text(workspace, report)
    assert "gleicher Festigkeitsklasse[^3]. Die wirksame" in text
    assert "[^3]: Vereinfachte Annahme; ein genauerer Nachweis ist zulässig." in text


def test_a_running_head_over_a_rule_that_repeats_a_heading_is_dropped(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The chapter's title at the top of its later pages, over a rule across the text, is page furniture; the same
    words at the top of a page without such a rule are text."""
    builder = pdf_builder()
    for number, title, later in ((1, "Materials", 2), (2, "Loads", 1)):  # seen too rarely to be found as repeated
        builder.page().heading(f"{number} {title}")
        for line in range(3):
            builder.line(f"Line {line + 1} of the first page of the {title.lower()} chapter, with words of its own.")
        for _ in range(later):
            builder.page()
            pdf = builder.pdf
            pdf.set_font("Helvetica", "", 9)
            pdf.text(260, 50, title)
            pdf.set_line_width(0.5)
            pdf.line(72, 58, 523, 58)
            for line in range(3):
                builder.line(f"More text of the {title.lower()} chapter on a later page, line {line + 1}, goes on here.")
    builder.page()
    builder.pdf.set_font("Helvetica", "", 10)
    builder.pdf.text(72, 50, "Loads")
    builder.line("of every kind are listed in the table of chapter 2, which the designer reads first.")
    builder.page().heading("3 Checks").line("The checks of the last chapter close the document.")
    report = ingest(builder.save(tmp_path / "heads.pdf"), "TEST 406", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    texts = {node.path: node.text for node in nodes}
    assert "Materials" not in texts["1"]
    assert texts["2"].count("Loads") == 1  # the last page's first line, no rule under it, stays; the ruled one is gone


def _glyph_line(text: str, start: float, size: float, base: float, advance: float, gap_after: dict[int, float] | None = None) -> _Segment:
    """A segment of characters `advance` apart (ink 80 % of it) on one baseline; `gap_after` widens the step after index k."""
    boxes, glyphs, origins = [], [], []
    x = start
    for k, char in enumerate(text):
        if char == " ":
            boxes.append(None)
            glyphs.append(None)
            origins.append(None)
        else:
            origins.append(x)
            boxes.append((x + 0.1 * advance, x + 0.9 * advance, base, base + 0.7 * size))
            glyphs.append((size, base))
        x += advance + (gap_after or {}).get(k, 0.0)
    return _Segment(0, list(text), boxes, glyphs, origins=origins)


def test_a_word_space_printed_as_a_gap_without_a_space_character_is_a_space() -> None:
    """Ghostscript's PDFs of groff's PostScript: `γ =9,8` where the gap after `=` is a third of an em and no space
    character; side bearings inside a word (`11`) leave less than a fifth of an em."""
    line = _glyph_line("γ =9,8 and 11", 72.0, 11.0, 500.0, 5.5, gap_after={2: 3.5})
    assert _unspaced_gaps(line, 11.0) == [3]
    assert _unspaced_gaps(_glyph_line("1111", 72.0, 11.0, 500.0, 5.5, gap_after={1: 1.5}), 11.0) == []


def test_pieces_on_one_baseline_join_across_a_justified_space_but_not_a_gutter() -> None:
    """A justified word space of two thirds of an em joins two pieces PDFium cut; a gap of an em is a column gutter."""
    left = _glyph_line("Die Holzfeuchte", 72.0, 11.0, 500.0, 5.5)
    right_edge = max(box[1] for box in left.real())
    assert _same_line(left, _glyph_line("beim", right_edge + 7.0 - 0.55, 11.0, 500.0, 5.5))
    assert not _same_line(left, _glyph_line("beim", right_edge + 11.5 - 0.55, 11.0, 500.0, 5.5))


def test_a_script_at_a_line_end_that_pdfium_put_on_the_next_line_goes_back() -> None:
    """`… Elastizitätsmoduls E` then `0,mean` lowered at the right end, then `berechnet …` back at the margin on the next
    line: PDFium gives `0,mean berechnet …` as one line; the first six characters belong to the line above."""
    above = _glyph_line("Elastizitätsmoduls E", 400.0, 11.0, 503.0, 5.0)
    end = max(box[1] for box in above.real())
    script = _glyph_line("0,mean", end + 0.5, 8.0, 498.5, 3.8)
    rest = _glyph_line(" berechnet sind", 72.0, 11.0, 490.0, 5.0)
    segment = _Segment(
        0, script.chars + rest.chars, script.boxes + rest.boxes, script.glyphs + rest.glyphs, origins=script.origins + rest.origins
    )
    head = _tail_of_line_above(above, segment)
    assert "".join(segment.chars[:head]).strip() == "0,mean"
    assert _tail_of_line_above(above, rest) == 0


def test_a_font_named_roman_is_not_bold_whatever_weight_pdfium_reads(imported) -> None:
    """Ghostscript's Times-Roman reads as weight 695: body lines are not bold, headings (Times-Bold) are."""
    pytest.importorskip("pypdfium2")
    import pypdfium2 as pdfium

    from normcli.importers.common import Draft
    from normcli.importers.pdf_pages import _read_page

    document = pdfium.PdfDocument(str(FIXTURES / "facade-fr-small.ps2pdf.pdf"))
    try:
        page, _, _ = _read_page(document, 0, "", False, "fr", Draft())
    finally:
        document.close()
    body = [line for line in page.lines if len(line.text) > 60]
    headings = [line for line in page.lines if re.match(r"^1\.\d?\.? ", line.text)]
    assert body and all(line.bold_prefix == 0 for line in body), [(line.text, line.bold_prefix) for line in body]
    assert headings and all(line.bold_prefix == len(line.text) for line in headings)


def test_endnotes_land_at_the_end_of_the_clauses_that_cite_them(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """asciidoctor-pdf (and Word, LibreOffice with endnotes) print the notes together at the end: `[1] …` set smaller
    than the text. Each mark cites the note of its number, which goes to the end of the citing clause; entries of a
    bibliography numbered the same way at the text's size are no notes, nor is a mark without a note."""
    builder = pdf_builder().page().heading("1 Scope")
    builder.y += 14
    _raised(builder, "The drains of this norm are named after the older rules", "7", 10, 4, 6, " of the same office.")
    builder.y += 14
    _raised(builder, "Groundwater lowering is kept to the minimum the excavation requires", "[1]", 10, 4, 6, ".")
    builder.y += 14
    _raised(builder, "The outfall is protected against erosion over some metres of its", "", 10, 4, 6, "")
    builder.heading("2 Requirements")
    builder.y += 14
    _raised(builder, "Well-graded gravel is preferred for the bedding", "[2]", 10, 4, 6, "; single-size material may be used.")
    builder.y += 14
    _raised(builder, "The characteristic values", "5", 10, 4, 6, " are taken from the tables of this clause and the next.")
    builder.page().heading("3 Bibliography")
    builder.line("[1] DGN 31-10: The outfall is protected against erosion, issued in 2000.")
    builder.line("[2] DGN 31-11: The design of drains with characteristic values, 2001.")
    builder.gap(20)
    builder.line("[1] The values quoted are fictional and must not be used in practice.", size=8)
    builder.line("[2] See also the fictional guideline DGN 4, issued in 2017.", size=8)
    builder.line("1 A numbered item in small print that is no note of the text.", size=8)
    report = ingest(builder.save(tmp_path / "endnotes.pdf"), "TEST 406", "1", workspace=workspace, language="en")
    nodes = {node.path: node.text for node in read_back(workspace, report).nodes}
    assert "the excavation requires[^1]." in nodes["1"] and "[^1]: The values quoted are fictional" in nodes["1"], nodes["1"]
    assert "for the bedding[^2]; single-size" in nodes["2"] and "[^2]: See also the fictional guideline" in nodes["2"], nodes["2"]
    assert "values⁵ are taken" in nodes["2"] and "older rules⁷ of" in nodes["1"]
    assert "[1] DGN 31-10" in nodes["3"] and "[2] DGN 31-11" in nodes["3"] and "1 A numbered item in small print" in nodes["3"]
    assert "[^" not in nodes["3"]


def test_scripts_in_a_cell_set_on_a_baseline_of_its_own(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """WeasyPrint centres each cell of a header row, so PDFium joins cells that sit a quarter of an em apart: a
    script at nearly the text's size is measured from the letter it follows when the text goes on there after it."""
    builder = pdf_builder().page().heading("1 Werte")
    builder.line("Die charakteristischen Werte der Festigkeitsklassen stehen in der folgenden Zeile.")
    builder.y += 20
    pdf = builder.pdf
    pdf.set_font("Helvetica", "", 10)
    pdf.text(72, builder.y, "Festigkeitsklasse Nadelholz")
    builder.y -= 2.6  # the middle cell sits higher
    x = _raised(builder, "f", "m,k", 10, -4.5, 9, " in N/mm", x=220)
    _raised(builder, "", "2", 10, 4.5, 9, " und r", x=x)
    builder.y += 2.6
    pdf.text(400, builder.y, "Bemerkung zur Klasse")
    builder.line("Die Werte gelten für Vollholz und für Brettschichtholz gleichermassen.")
    report = ingest(builder.save(tmp_path / "cells.pdf"), "TEST 407", "1", workspace=workspace, language="de")
    text = norm_text(workspace, report)
    assert "f_{m,k} in N/mm² und r" in text, text


def test_endnotes_numbered_in_roman_beside_footnotes(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Word and LibreOffice number endnotes i, ii … beside footnotes 1, 2 …; the endnotes come on a page of
    their own at the end, their numbers unraised in the notes' smaller size."""
    builder = pdf_builder().page().heading("1 Scope")
    builder.y += 14
    _raised(builder, "The values apply to drains of every kind", "1", 10, 4, 6, " and to their outfalls.")
    builder.y += 14
    _raised(builder, "Gravel is preferred for the bedding", "i", 10, 4, 6, " under the pipes of the drain.")
    builder.pdf.set_font("Helvetica", "", 8)
    builder.pdf.text(72, 780, "1 The values quoted are fictional and must not be used.")
    builder.heading("2 Requirements")
    builder.y += 14
    _raised(builder, "Pipes are bedded on a granular layer", "ii", 10, 4, 6, " and surrounded by fill.")
    builder.page()
    builder.line("i See also the fictional guideline DGN 4, issued in 2017.", size=8)
    builder.line("ii A simplified assumption; a more detailed calculation is permitted.", size=8)
    report = ingest(builder.save(tmp_path / "word.pdf"), "TEST 408", "1", workspace=workspace, language="en")
    nodes = {node.path: node.text for node in read_back(workspace, report).nodes}
    assert "drains of every kind[^1] and" in nodes["1"] and "[^1]: The values quoted are fictional" in nodes["1"], nodes["1"]
    assert "for the bedding[^i] under" in nodes["1"] and "[^i]: See also the fictional guideline" in nodes["1"], nodes["1"]
    assert "granular layer[^ii] and" in nodes["2"] and "[^ii]: A simplified assumption" in nodes["2"], nodes["2"]


def test_a_moved_mark_after_a_gap_is_still_raised(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """WeasyPrint sets a `<sup>` mark nearly at the text's size a little apart from its word, and PDFium puts a space
    in that gap: the mark is still raised, and the gap is no space of the text."""
    builder = pdf_builder().page().heading("1 Feuchte")
    builder.y += 14
    x = _raised(builder, "Die Holzfeuchte soll 18 % nicht überschreiten", "", 10, 0, 10, "")
    _raised(builder, "", "8", 10, 4.8, 9.7, "", x=x + 2.2)
    builder.pdf.set_font("Helvetica", "", 10)
    builder.pdf.text(x + 7.7, builder.y, "; Abweichungen sind im Katalog zu begründen.")
    report = ingest(builder.save(tmp_path / "gap.pdf"), "TEST 409", "1", workspace=workspace, language="de")
    assert "nicht überschreiten⁸; Abweichungen" in norm_text(workspace, report)


def test_a_spacing_accent_set_over_its_letter_is_no_script(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A font test or a formula sets a spacing accent (`ˆ`, `¨`) raised over the letter after it: the accent is
    no superscript, and no baseline for what follows it."""
    builder = pdf_builder().page().heading("1 Accents")
    builder.y += 14
    x = _raised(builder, "The accents sit over the letters a +", "", 10, 0, 10, "")
    x = _raised(builder, "", "¨", 10, 3.5, 10, "", x=x + 3)
    _raised(builder, "", "", 10, 0, 10, "b + c and so on along the line.", x=x - 2)
    report = ingest(builder.save(tmp_path / "accents.pdf"), "TEST 410", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "^{" not in text and "₊" not in text and "along the line" in text, text


def test_a_raised_run_of_superscript_digits_is_no_note_mark() -> None:
    """A font that draws `²` as a raised small glyph (xypic's tutorial): the run `²²` is a digit to `str.isdigit`
    but no number to `int`, so it is no footnote mark, and the import goes on instead of failing."""
    segment = _Segment(0, list("x²²"), [(10.0, 15.0, 100.0, 107.0), (15.2, 18.0, 104.0, 108.5), (18.2, 21.0, 104.0, 108.5)],
                       [(10.0, 100.0), (7.0, 104.0), (7.0, 104.0)])  # fmt: skip
    assert note_number("²²") is None
    assert "".join(script_pieces("x²²", segment.glyphs, segment.baseline()[0])).startswith("x")
