"""PDF imports, on small PDFs made by the tests: outline or not, headers, columns, hyphenation, figures, annexes, scans."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest
from importer_helpers import PdfBuilder, dejavu_pdf, norm_text, png_bytes, png_size, read_back

from normcli.errors import InvalidArgument
from normcli.importers import ingest


def _standard(builder: PdfBuilder) -> PdfBuilder:
    """A three-page norm: two chapters, sub-clauses, a numbered list that is not a heading, an annex."""
    builder.page()
    builder.heading("1 Scope").line("This standard applies to the design of small examples for importers.")
    builder.line("It covers three things:").line("1. Apples are not clauses.", x=90).line("2. Pears are not clauses either.", x=90)
    builder.heading("1.1 Terms", level=1).line("A term is defined here with enough words to be a real paragraph of text.")
    builder.heading("1.2 Symbols", level=1).line("Symbols are listed in this clause with enough words to fill a line.")
    builder.page()
    builder.heading("2 Requirements").line("The requirements of this standard are given in the clauses below here.")
    builder.heading("2.1 General", level=1).line("General requirements apply to every example that is imported by a tool.")
    builder.heading("2.1.1 Details", level=2).line("Details are given in this sub-clause with a reference to 2.1 and 1.1.")
    builder.page()
    builder.heading("Annex A Worked examples").line("This annex is informative and gives examples of the requirements above.")
    builder.heading("A.1 First example", level=1).line("The first example shows an import from a PDF file without surprises.")
    return builder


EXPECTED = ["1", "1.1", "1.2", "2", "2.1", "2.1.1", "Annex A", "A.1"]


def test_outline_gives_the_tree_with_printed_numbers(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _standard(pdf_builder(outline=True)).save(tmp_path / "with-outline.pdf")
    report = ingest(pdf, "TEST 1", "2020", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert report.outline_used
    assert [node.path for node in bundle.nodes] == EXPECTED
    assert [node.title for node in bundle.nodes][:3] == ["Scope", "Terms", "Symbols"]
    assert {node.path: node.page_start for node in bundle.nodes}["2.1.1"] == 2
    assert report.sections_by_depth == {"1": 3, "2": 4, "3": 1}
    assert not [problem for problem in bundle.problems if problem.severity == "error"]


def test_without_outline_headings_come_from_font_and_numbering_order(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _standard(pdf_builder()).save(tmp_path / "no-outline.pdf")
    report = ingest(pdf, "TEST 2", "2020", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert not report.outline_used
    assert [node.path for node in bundle.nodes] == EXPECTED
    text = norm_text(workspace, report)
    assert "1. Apples are not clauses." in text  # a numbered list stays text
    assert bundle.nodes[6].title == "Worked examples" and bundle.nodes[6].depth == 1


def test_the_outline_can_be_ignored(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _standard(pdf_builder(outline=True)).save(tmp_path / "with-outline.pdf")
    report = ingest(pdf, "TEST 3", "1", workspace=workspace, use_outline=False)
    assert not report.outline_used
    assert [node.path for node in read_back(workspace, report).nodes] == EXPECTED


def test_running_headers_and_page_numbers_are_removed_and_printed_pages_kept(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = _standard(pdf_builder(header="ACME Standard 1 - Edition 2020", first_page_number=11))
    pdf = builder.save(tmp_path / "headers.pdf")
    report = ingest(pdf, "TEST 4", "2020", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "ACME Standard" not in text
    assert "<!-- page 11 pdf=1 -->" in text and "<!-- page 13 pdf=3 -->" in text
    pages = {node.path: (node.page_start, node.page_end) for node in read_back(workspace, report).nodes}
    assert pages["2"] == (12, 12) and pages["A.1"] == (13, 13)
    assert "\n11\n" not in text and "\n12\n" not in text


def test_hyphenation_at_line_ends_is_undone(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("1 Scope")
    builder.line("The loads are given for the verifi-").line("cation of structures and for a well-")
    builder.line("known case; a well-known case is common.")
    pdf = builder.save(tmp_path / "hyphen.pdf")
    report = ingest(pdf, "TEST 5", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "verification of structures" in text
    assert "a well-known case; a well-known case" in text


def test_two_columns_read_left_column_first(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("1 Two columns")
    for row in range(8):  # written row by row, left then right: the content order is wrong for reading
        builder.y += 13
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72, builder.y, f"left column line {row} goes on with words")
        builder.pdf.text(320, builder.y, f"right column line {row} goes on with words")
    pdf = builder.save(tmp_path / "columns.pdf")
    report = ingest(pdf, "TEST 6", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert text.index("left column line 7") < text.index("right column line 0")
    assert text.index("left column line 0") < text.index("left column line 7")


def test_figures_are_cropped_to_their_image_with_number_and_caption(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    picture = tmp_path / "picture.png"
    picture.write_bytes(png_bytes())
    builder = pdf_builder().page().heading("1 Loads").line("The shape is shown in Figure 3 below.")
    builder.image(picture).line("Figure 3 - Shape coefficient for pitched roofs")
    builder.line("Text after the figure continues the clause with more words in it.")
    pdf = builder.save(tmp_path / "figure.pdf")
    report = ingest(pdf, "TEST 7", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert report.figures == 1
    figure = bundle.figures[0]
    assert figure.id == "fig-3" and figure.number == "3"
    assert "Shape coefficient for pitched roofs" in figure.caption
    image = workspace / Path(report.file).parent / figure.file
    assert image.read_bytes().startswith(b"\x89PNG")
    assert not [problem for problem in bundle.problems if problem.kind == "figure"]


def test_a_captioned_table_becomes_a_pipe_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("1 Values").line("Table 2 - Snow load on the ground")
    for altitude, load in (("Altitude", "Load"), ("200 m", "0.9 kN"), ("800 m", "1.6 kN")):
        builder.y += 13
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72, builder.y, altitude)
        builder.pdf.text(220, builder.y, load)
    builder.gap(20).line("The values apply to sites below 1500 m in this example norm.")
    pdf = builder.save(tmp_path / "table.pdf")
    report = ingest(pdf, "TEST 8", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert report.tables == 1
    assert bundle.tables[0].number == "2"
    assert "| 800 m | 1.6 kN |" in bundle.tables[0].markdown


def test_a_mostly_scanned_pdf_says_so(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A scan with some text (a typed cover page) imports that text and says the rest needs OCR."""
    picture = tmp_path / "scan.png"
    picture.write_bytes(png_bytes(80, 100))
    builder = pdf_builder().page().heading("1 Scope").line("This norm was scanned; only this page has a text layer of its own.")
    for _ in range(2):
        builder.page().image(picture, height=500)
    pdf = builder.save(tmp_path / "scan.pdf")
    report = ingest(pdf, "TEST 9", "1", workspace=workspace, language="en")
    assert report.scanned_pages == 2 and report.is_scan
    assert "scan" in report.warnings[0] and "OCR" in report.warnings[0]
    assert report.to_json()["scan"] is True


def test_ocr_uses_tesseract_when_installed(pdf_builder, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    picture = tmp_path / "scan.png"
    picture.write_bytes(png_bytes(80, 100))
    pdf = pdf_builder().page().image(picture, height=500).save(tmp_path / "scan.pdf")
    bin_folder = tmp_path / "bin"
    bin_folder.mkdir()
    fake = bin_folder / "tesseract"
    fake.write_text("#!/bin/sh\necho '1 Scope'\necho 'Recognised text of the scanned page.'\n", encoding="utf-8")
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    monkeypatch.setenv("PATH", f"{bin_folder}{os.pathsep}{os.environ.get('PATH', '')}")
    report = ingest(pdf, "TEST 11", "1", workspace=workspace, language="en", ocr=True)
    assert "Recognised text of the scanned page." in norm_text(workspace, report)
    assert any("OCR" in warning for warning in report.warnings)


def test_an_existing_edition_is_never_overwritten_without_force(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _standard(pdf_builder()).save(tmp_path / "norm.pdf")
    first = ingest(pdf, "TEST 12", "2020", workspace=workspace, language="en")
    before = (workspace / first.file).read_bytes()
    with pytest.raises(InvalidArgument, match="already exists"):
        ingest(pdf, "TEST 12", "2020", workspace=workspace, language="en")
    assert (workspace / first.file).read_bytes() == before
    again = ingest(pdf, "TEST 12", "2020", workspace=workspace, language="en", force=True)
    assert again.file == first.file
    assert not list((workspace / "norms").glob(".ingest-*"))


def test_an_interrupted_import_leaves_nothing_half_written(
    pdf_builder, workspace: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from normcli.importers import writer

    pdf = _standard(pdf_builder()).save(tmp_path / "norm.pdf")

    def crash(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(writer, "_write_files", crash)
    with pytest.raises(KeyboardInterrupt):
        ingest(pdf, "TEST 13", "2020", workspace=workspace, language="en")
    assert not (workspace / "norms" / "test-13").exists()
    assert not list((workspace / "norms").glob(".ingest-*"))


def test_the_report_counts_what_was_written(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _standard(pdf_builder(outline=True)).save(tmp_path / "norm.pdf")
    report = ingest(pdf, "TEST 14", "2020", workspace=workspace, language="en").to_json()
    assert report["pages"] == 3 and report["sections"] == 8
    assert report["sectionsByDepth"] == {"1": 3, "2": 4, "3": 1}
    assert report["quality"]["score"] is not None
    assert set(report) >= {"figures", "tables", "captionedTables", "warnings", "quality", "file", "outlineUsed"}


def test_a_file_that_is_not_a_pdf_is_a_usage_error(workspace: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.7 this is not really a pdf")
    with pytest.raises(InvalidArgument, match=r"'broken\.pdf' is cut short"):  # a PDF's header, but not its end
        ingest(broken, "TEST 15", "1", workspace=workspace, language="en")


def test_progress_is_reported_page_by_page(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _standard(pdf_builder()).save(tmp_path / "norm.pdf")
    calls: list[tuple[int, int]] = []
    ingest(pdf, "TEST 16", "1", workspace=workspace, language="en", progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_a_german_norm_with_anhang_bild_and_tabelle(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    picture = tmp_path / "bild.png"
    picture.write_bytes(png_bytes())
    builder = pdf_builder().page().heading("Vorwort").line("Diese Norm ersetzt die Ausgabe 2014 und wurde von der Kommission erarbeitet.")
    builder.heading("1 Geltungsbereich").line("Die Norm gilt für die Tragwerke von Hochbauten und für die Brücken aller Art.")
    builder.line("Tabelle 1 - Schneelast auf dem Boden")
    for left, right in (("Höhe", "Last"), ("400 m", "0,9 kN/m2"), ("800 m", "1,6 kN/m2")):
        builder.y += 13
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72, builder.y, left)
        builder.pdf.text(220, builder.y, right)
    builder.gap(10).image(picture, height=80).line("Bild 3 - Formbeiwert für Satteldächer")
    builder.page().heading("Anhang A (informativ) Beispiele").line("Dieser Anhang gibt Beispiele für die Berechnung der Schneelast.")
    builder.heading("A.1 Flachdach", level=1).line("Für ein Flachdach auf 600 m beträgt die Last 1,2 kN/m2 nach Tabelle 1.")
    pdf = builder.save(tmp_path / "sia-261-de.pdf")
    report = ingest(pdf, "SIA 261", "2020", workspace=workspace)
    bundle = read_back(workspace, report)
    assert report.language == "de"
    assert [node.path for node in bundle.nodes] == ["Vorwort", "1", "Anhang A", "A.1"]
    assert bundle.figures[0].id == "fig-3" and bundle.figures[0].caption.startswith("Bild 3")
    assert bundle.tables[0].number == "1" and "| 800 m | 1,6 kN/m2 |" in bundle.tables[0].markdown
    assert not [problem for problem in bundle.problems if problem.kind == "figure"]


@pytest.mark.parametrize(
    ("annex", "table", "figure"),
    [("Apéndice", "Cuadro", "Figura"), ("Anexo", "Tabla", "Figura"), ("Apêndice", "Tabela", "Figura")],
    ids=["es-babel", "es", "pt"],
)
def test_spanish_and_portuguese_annexes_tables_and_figures(
    pdf_builder, workspace: Path, tmp_path: Path, annex: str, table: str, figure: str
) -> None:
    picture = tmp_path / "figura.png"
    picture.write_bytes(png_bytes())
    builder = pdf_builder().page().heading("1 Alcance").line("Esta norma se aplica a las estructuras de edificios y a los puentes.")
    builder.line(f"{table} 1: Carga de nieve sobre el terreno")
    for left, right in (("Altitud", "Carga"), ("400 m", "0,9 kN/m2"), ("800 m", "1,6 kN/m2")):
        builder.y += 13
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72, builder.y, left)
        builder.pdf.text(220, builder.y, right)
    builder.gap(10).image(picture, height=80).line(f"{figure} 2: Coeficiente de forma para cubiertas")
    builder.page().heading(f"{annex} A Ejemplos").line("Este anexo da ejemplos del cálculo de la carga de nieve sobre cubiertas.")
    builder.heading("A.1 Cubierta plana", level=1).line(
        f"Para una cubierta plana a 600 m la carga vale 1,2 kN/m2 según el {table.lower()} 1."
    )
    pdf = builder.save(tmp_path / "norma.pdf")
    report = ingest(pdf, "UNE 1", "2020", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [node.path for node in bundle.nodes] == ["1", f"{annex} A", "A.1"]
    assert bundle.nodes[2].parent_path == f"{annex} A"
    assert bundle.tables and bundle.tables[0].number == "1" and "| 800 m | 1,6 kN/m2 |" in bundle.tables[0].markdown
    assert (report.tables, report.captioned_tables) == (1, 1)  # the one table, printed with its caption
    assert bundle.figures[0].id == "fig-2" and bundle.figures[0].caption.endswith("2 – Coeficiente de forma para cubiertas")
    assert f"![{figure} 2 – Coeficiente de forma" in norm_text(workspace, report)  # the document's own word for a figure
    # the annex answers to every annex word, as `Annexe A` does (SPEC §3: paths matched forgivingly)
    from normcli.service import Service

    service = Service.open(workspace)
    for asked in ("Annex A", "annexe a", f"{annex} A"):
        assert service.section("UNE 1", asked, 500, 0, "2020", None).path == f"{annex} A"


@pytest.mark.parametrize(
    ("table", "figure"),
    [
        ("Tabel", "Figuur"),
        ("Tabel", "Figur"),
        ("Tabulka", "Obrázek"),
        ("Tabuľka", "Obrázok"),
        ("Tablo", "Şekil"),
        ("Таблица", "Рисунок"),
        ("Tabela", "Rysunek"),
    ],
    ids=["nl", "da", "cs", "sk", "tr", "ru", "pl"],
)
def test_tables_and_figures_captioned_in_seven_more_languages(workspace: Path, tmp_path: Path, table: str, figure: str) -> None:
    """A caption word of Dutch, Danish, Czech, Slovak, Turkish, Russian or Polish opens a captioned table and a figure
    as `Table` and `Figure` do (set in DejaVu Sans, whose glyphs cover `Ş` and Cyrillic)."""
    pdf = dejavu_pdf(("DejaVu", "", "DejaVuSans.ttf"), ("DejaVu", "B", "DejaVuSans-Bold.ttf"))
    picture = tmp_path / "figure.png"
    picture.write_bytes(png_bytes())
    pdf.set_font("DejaVu", "B", 16)
    pdf.text(72, 110, "1 Scope")
    pdf.set_font("DejaVu", "", 10)
    pdf.text(72, 140, "This norm applies to the structures of buildings and to bridges of every kind.")
    pdf.text(72, 160, f"{table} 2: Snow load on the ground")
    for y, (left, right) in zip((175, 188, 201), (("Altitude", "Load"), ("400 m", "0,9 kN/m2"), ("800 m", "1,6 kN/m2")), strict=True):
        pdf.text(72, y, left)
        pdf.text(220, y, right)
    pdf.image(str(picture), x=150, y=225, w=200, h=80)
    pdf.text(72, 325, f"{figure} 4: Shape coefficient for pitched roofs")
    pdf.output(str(tmp_path / "norm.pdf"))
    report = ingest(tmp_path / "norm.pdf", "NORM 1", "2020", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert (report.tables, report.captioned_tables) == (1, 1)
    assert bundle.tables[0].number == "2" and "| 800 m | 1,6 kN/m2 |" in bundle.tables[0].markdown
    assert [found.id for found in bundle.figures] == ["fig-4"]
    assert f"![{figure} 4 – Shape coefficient for pitched roofs]" in norm_text(workspace, report)


def test_a_spanish_chapter_word_over_its_title_is_the_chapter_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Without an outline, `Capítulo 2` set above the chapter's title (as babel's Spanish and Portuguese book
    classes print it) numbers that chapter, as `Chapter 2` does; it is no clause of its own."""
    body = "Este capítulo explica lo que debe saber antes de empezar con el resto del documento."
    builder = pdf_builder()
    for number, title in ((1, "Cosas que debe saber"), (2, "Composición de texto")):
        builder.page().line(f"Capítulo {number}", size=20, bold=True).line(title, size=25, bold=True)
        builder.gap(12).line(body).line(body).line(body)
        builder.heading(f"{number}.1 Primera sección", level=1).line(body).line(body)
    pdf = builder.save(tmp_path / "libro.pdf")
    report = ingest(pdf, "LIBRO 1", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Cosas que debe saber"),
        ("1.1", "Primera sección"),
        ("2", "Composición de texto"),
        ("2.1", "Primera sección"),
    ]


def test_numbered_formulas_become_formula_blocks(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("1 Loads").line("The design value follows from the load and its factor:")
    builder.gap(6).line("(1) qd = gQ * qk", x=150).gap(6).line("with the values given in this clause for every case (2) of the list.")
    builder.gap(6).line("(2) sk = 0.4 + h / 400", x=150)
    pdf = builder.save(tmp_path / "formulas.pdf")
    report = ingest(pdf, "TEST 17", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(formula.number, formula.latex) for formula in bundle.formulas] == [("1", "qd = gQ * qk"), ("2", "sk = 0.4 + h / 400")]


def test_a_figure_id_is_its_file_stem(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    picture = tmp_path / "picture.png"
    picture.write_bytes(png_bytes())
    builder = pdf_builder().page().heading("2 Layout").line("The frame is shown in Figure 2.1 below.")
    builder.image(picture).line("Figure 2.1: Location of frame and picture regions")
    pdf = builder.save(tmp_path / "figure-dotted.pdf")
    report = ingest(pdf, "TEST 71", "1", workspace=workspace, language="en")
    figure = read_back(workspace, report).figures[0]
    assert figure.id == "fig-2.1" and Path(figure.file).name == "fig-2.1.png"
    from normcli.service import Service

    service = Service.open(workspace)
    try:
        assert service.figure("TEST 71", "fig-2.1").figure_id == "fig-2.1"
    finally:
        service.close()


def _with_printed_contents(builder: PdfBuilder) -> PdfBuilder:
    """A title page, a printed contents page with dot leaders, then clauses whose chapter 2 heading has no layout signal."""
    builder.page().line("ACME Example Standard", size=20).line("Edition 2030, an example for importers to read.")
    builder.page().line("Table of Contents", size=16)
    for entry, page in (("1 Scope", 1), ("1.1 Terms", 1), ("2 Requirements", 2), ("2.1 General", 2), ("Bibliography", 3)):
        builder.line(f"{entry} {'.' * 60} {page}")
    builder.page().heading("1 Scope").line("This standard applies to the design of small examples for importers.")
    builder.heading("1.1 Terms", level=1).line("A term is defined here with enough words to be a real paragraph of text.")
    builder.page().line("2 Requirements").line("The requirements of this standard are given in the clauses below here.")
    builder.heading("2.1 General", level=1).line("General requirements apply to every example that is imported by a tool.")
    builder.page().line("Bibliography", size=13, bold=True).line("[1] An example reference, with its title and its year of 2030.")
    return builder


def test_printed_contents_anchor_the_tree_and_become_their_own_node(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _with_printed_contents(pdf_builder()).save(tmp_path / "contents.pdf")  # no page labels: the offset is learnt
    report = ingest(pdf, "TEST 80", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    paths = [node.path for node in bundle.nodes]
    assert paths[1:] == ["Table of Contents", "1", "1.1", "2", "2.1", "Bibliography"], paths
    text = norm_text(workspace, report)
    contents = text[text.index("# Table of Contents") : text.index("# 1 Scope")]
    assert sum(1 for line in contents.splitlines() if "...." in line) == 5  # every contents line is in the contents node, none in a clause
    assert "...." not in text[text.index("# 1 Scope") :]
    requirements = next(node for node in bundle.nodes if node.path == "2")
    assert requirements.title == "Requirements" and requirements.page_start == 4  # PDF page 4, printed 2 in the contents


def test_with_an_outline_the_printed_contents_check_it(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder(outline=True)
    builder.page().line("Contents", size=16)
    for entry, page in (("1 Scope", 2), ("2 Loads", 2), ("3 Missing from the outline", 2)):
        builder.line(f"{entry} {'.' * 60} {page}")
    builder.page().heading("1 Scope").line("This standard applies to the design of small examples for importers.")
    builder.heading("2 Loads").line("Loads are given here with enough words to be a real paragraph of text.")
    builder.line("3 Missing from the outline", size=16, bold=True).line("A clause the bookmarks forgot, found in the printed contents.")
    pdf = builder.save(tmp_path / "outline-and-contents.pdf")
    report = ingest(pdf, "TEST 81", "1", workspace=workspace, language="en")
    assert report.outline_used
    assert any("printed contents lists 1 of 3 entries that the outline lacks: 3 Missing from the outline" in w for w in report.warnings), (
        report.warnings
    )
    assert [node.path for node in read_back(workspace, report).nodes][:1] == ["Contents"]


def _runs(builder: PdfBuilder, parts: list[tuple[str, float, float]], x: float = 72) -> PdfBuilder:
    """One line written piece by piece: (text, font size, baseline shift up), as a typesetter sets scripts."""
    builder.y += 13
    for text, size, rise in parts:
        builder.pdf.set_font("Helvetica", "", size)
        builder.pdf.text(x, builder.y - rise, text)
        x += builder.pdf.get_string_width(text)
    return builder


def test_superscripts_subscripts_and_footnotes_keep_their_meaning(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("1 Units")
    _runs(
        builder,
        [
            ("One Gwei is 10", 10, 0),
            ("9", 7, 4),
            (" Wei and the load is 5 kN/m", 10, 0),
            ("3", 7, 4),
            (" on 2 m", 10, 0),
            ("2", 7, 4),
            (".", 10, 0),
        ],
    )
    _runs(
        builder, [("The value x", 10, 0), ("1", 7, -2), (" is the first, the luma Y", 10, 0), ("'", 7, 4), (" plane comes first.", 10, 0)]
    )
    _runs(builder, [("Packages are split into areas", 10, 0), ("5", 7, 4), (" based on their licences and more words.", 10, 0)])
    builder.heading("1.1 Next", level=1).line("Text of the next clause, which the footnote must not join.")
    builder.y = 780
    _runs(builder, [("5", 6, 3), ("The archive software uses the term component internally.", 8, 0)])
    pdf = builder.save(tmp_path / "scripts.pdf")
    report = ingest(pdf, "TEST 90", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "10⁹ Wei" in text and "kN/m³" in text and "2 m²." in text
    assert "x₁ is the first" in text and "luma Y′ plane" in text
    assert "areas[^5] based" in text
    nodes = {node.path: node for node in read_back(workspace, report).nodes}
    assert nodes["1"].text.rstrip().endswith("[^5]: The archive software uses the term component internally.")
    assert "[^5]" not in nodes["1.1"].text


def test_a_mark_after_a_short_word_and_a_note_on_the_page_before_its_mark_are_footnotes(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    builder = pdf_builder().page().heading("1 Fees")
    _runs(builder, [("The sender limits the priority fee", 10, 0), ("4", 7, 4), (" that is paid to the validator.", 10, 0)])
    _runs(builder, [("The square of the sine is sin", 10, 0), ("2", 7, 4), (" x for every angle of the triangle.", 10, 0)])
    builder.line("The next line of this clause goes on with enough words to fill a line.")
    builder.y = 740
    _runs(builder, [("4", 6, 3), ("The priority fee is discussed in greater detail in the next clause.", 8, 0)])
    _runs(builder, [("6", 6, 3), ("Ommer is a gender-neutral term to mean the sibling of a parent.", 8, 0)])
    builder.page()
    _runs(builder, [("Blocks of the parent's parent were known as ommers", 10, 0), ("6", 7, 4), (", and more words follow here.", 10, 0)])
    pdf = builder.save(tmp_path / "notes.pdf")
    report = ingest(pdf, "TEST 91", "1", workspace=workspace, language="en")
    text = read_back(workspace, report).nodes[0].text
    assert "priority fee[^4] that" in text and "ommers[^6], and" in text
    assert "[^4]: The priority fee is discussed" in text and "[^6]: Ommer is a gender-neutral term" in text
    assert "sin² x for every angle" in text  # no note 2 anywhere: a superscript
    assert "⁴" not in text and "⁶" not in text


def test_a_raised_number_after_a_digit_is_an_exponent_even_with_a_note_of_that_number_on_the_page(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """A decision, not an accident: `10` + raised `3` could be `10³` or a footnote mark after a number, and a wrong
    exponent is as wrong a value as a lost one. The importer reads an exponent (a norm's `10³` or `m²` matters more
    than a note's link), even when a note numbered 3 sits at the foot of the page; after a word, the same mark cites it."""
    builder = pdf_builder().page().heading("1 Units")
    _runs(builder, [("The modulus is taken as 10", 10, 0), ("3", 7, 4), (" MPa for every beam of this example.", 10, 0)])
    _runs(builder, [("The values are those of the tables", 10, 0), ("3", 7, 4), (" given in the annex of this standard.", 10, 0)])
    builder.line("The next line of this clause goes on with enough words to fill a line.")
    builder.y = 760
    _runs(builder, [("3", 6, 3), ("The tables were measured on the beams of the laboratory.", 8, 0)])
    pdf = builder.save(tmp_path / "exponent.pdf")
    text = read_back(workspace, ingest(pdf, "TEST 92", "1", workspace=workspace, language="en")).nodes[0].text
    assert "taken as 10³ MPa" in text and "10[^3]" not in text
    assert "of the tables[^3] given" in text and "[^3]: The tables were measured" in text


def test_a_compound_broken_at_its_hyphen_keeps_it_by_the_documents_own_words(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("1 Scope")
    builder.line("Files may be shareable and architecture-").line("independent data; the architecture matters, and")
    builder.line("independent parts are named. The verifi-").line("cation of data is a verification.")
    pdf = builder.save(tmp_path / "compound.pdf")
    text = norm_text(workspace, ingest(pdf, "TEST 91", "1", workspace=workspace, language="en"))
    assert "architecture-independent data" in text and "The verification of data" in text


def test_a_language_version_takes_the_paths_of_the_existing_one_and_reports_the_rest(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    english = pdf_builder().page().line("Foreword", size=16, bold=True).line("This example norm has a foreword before its clauses.")
    english.heading("1 Scope").line("This standard applies to the design of small examples for importers.")
    english.heading("Annex A Examples").line("This annex is informative and gives examples of the requirements.")
    german = pdf_builder().page().line("Vorwort", size=16, bold=True).line("Diese Beispielnorm hat ein Vorwort vor ihren Abschnitten.")
    german.heading("1 Geltungsbereich").line("Diese Norm gilt für die Bemessung kleiner Beispiele für Importprogramme.")
    german.heading("2 Nur deutsch").line("Ein Abschnitt, den es nur in dieser Fassung gibt, mit genug Wörtern.")
    german.heading("Anhang A Beispiele").line("Dieser Anhang ist informativ und gibt Beispiele für die Anforderungen.")
    ingest(english.save(tmp_path / "en.pdf"), "TEST 95", "1", workspace=workspace, language="en")
    report = ingest(german.save(tmp_path / "de.pdf"), "TEST 95", "1", workspace=workspace, language="de")
    edition = workspace / Path(report.file).parent
    from normcli.bundle import parse_bundle

    german_nodes = {node.path: node.title for node in parse_bundle(edition / "norm.de.md").nodes}
    english_paths = [node.path for node in parse_bundle(edition / "norm.en.md").nodes]
    assert english_paths == ["Foreword", "1", "Annex A"]
    assert german_nodes == {"Foreword": "Vorwort", "1": "Geltungsbereich", "2": "Nur deutsch", "Annex A": "Beispiele"}
    assert report.alignment == {"against": "en", "aligned": 3, "renamed": 2, "unmatchedNew": ["2"], "unmatchedExisting": []}
    assert any("1 clause(s) of this version have no counterpart (2)" in warning for warning in report.warnings)


def _row(builder: PdfBuilder, cells: list[tuple[float, str]], bold: bool = False) -> None:
    builder.y += 13
    builder.pdf.set_font("Helvetica", "B" if bold else "", 10)
    for x, text in cells:
        builder.pdf.text(x, builder.y, text)


def test_tables_keep_their_header_and_multi_line_cells_and_a_data_row_is_never_a_header(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    builder = pdf_builder().page().heading("1 Parameters").line("The parameters are listed below, then the codes.")
    _row(builder, [(72, "Name"), (160, "Type"), (260, "Description")], bold=True)
    _row(builder, [(72, "FTYPE"), (160, "Integer"), (260, "The frame type of the frame that is")])
    _row(builder, [(260, "being decoded, over two lines.")])
    _row(builder, [(72, "NQIS"), (160, "Integer"), (260, "The number of qi values.")])
    _row(builder, [(72, "QIS"), (160, "Integer array"), (260, "An array of qi values.")])
    builder.gap(20).line("The codes of the tokens are given in Table 3 with their lengths in bits for decoding.")
    for cells in (("0", "2", "00"), ("1", "3", "010"), ("2", "3", "011"), ("3", "4", "1000")):
        _row(builder, [(72, cells[0]), (160, cells[1]), (260, cells[2])])
    builder.line("Table 3: Huffman codes of the tokens")
    builder.gap(20).line("The text goes on after the table with more words in it than a cell holds.")
    pdf = builder.save(tmp_path / "tables.pdf")
    report = ingest(pdf, "TEST 92", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert (
        "| Name | Type | Description |\n|---|---|---|\n| FTYPE | Integer | The frame type of the frame that is being decoded, over two lines. |"
        in text
    )
    assert "Table 3: Huffman codes of the tokens\n|  |  |  |\n|---|---|---|\n| 0 | 2 | 00 |" in text  # the caption under the table leads it
    tables = read_back(workspace, report).tables
    assert len(tables) == 2 and [table.number for table in tables] == [None, "3"]


def test_a_vector_figure_is_its_whole_drawing_with_its_labels_kept_out_of_the_text(pdf_builder, workspace: Path, tmp_path: Path) -> None:

    builder = pdf_builder().page().heading("2 Layout").line("The frame and picture regions are shown in Figure 2.1 below.")
    top = builder.y + 20
    builder.pdf.rect(150, top, 240, 150)  # the frame: two rectangles and labels drawn inside, 240 x 150 pt
    builder.pdf.rect(190, top + 40, 120, 70)
    builder.pdf.set_font("Helvetica", "", 8)
    for x, y, label in ((160, top + 20, "Frame"), (200, top + 60, "Picture"), (200, top + 100, "Picture Height")):
        builder.pdf.text(x, y, label)
    builder.y = top + 150 + 16
    builder.line("Figure 2.1: Location of frame and picture regions")
    builder.line("The picture region plays no other role in the decode process of the frame.")
    pdf = builder.save(tmp_path / "vector-figure.pdf")
    report = ingest(pdf, "TEST 93", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    figure = bundle.figures[0]
    text = norm_text(workspace, report)
    assert figure.id == "fig-2.1"
    assert "Picture Height" not in text and "\nFrame\n" not in text  # the labels are in the picture
    width, height = png_size(workspace / Path(report.file).parent / figure.file)
    assert width >= 240 * 150 / 72 and height >= 150 * 150 / 72  # the whole drawing, at 150 dpi or more
    assert width < 595 * 150 / 72 * 0.8  # cropped to the drawing, not the page


def test_body_lines_that_repeat_in_shape_from_page_to_page_are_no_page_furniture(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder()
    written = {}
    for chapter in (1, 2, 3):
        builder.page().heading(f"{chapter} Chapter {chapter}")
        for k in range(5):
            text = f"Text of chapter {chapter}, line {k}: the body goes on with enough words to be prose."
            builder.line(text)
            written[(chapter, k)] = text
    pdf = builder.save(tmp_path / "shapes.pdf")
    report = ingest(pdf, "TEST 92", "1", workspace=workspace, language="en")
    nodes = {node.path: node for node in read_back(workspace, report).nodes}
    for (chapter, k), text in written.items():
        assert text in nodes[str(chapter)].text, (chapter, k)


def test_a_sentence_that_goes_on_after_a_page_break_and_a_figure_is_one_paragraph_the_figure_after_it(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    picture = tmp_path / "blocks.png"
    picture.write_bytes(png_bytes())
    builder = pdf_builder().page().heading("1 Orders")
    opening = "Within each frame, the super blocks of the plane are traversed in raster order, similar to"
    builder.line("Blocks are accessed in two orders that the decoder uses in its various processes here.")
    builder.line(opening)
    builder.page().image(picture, height=80).line("Figure 1: Raster ordering of blocks")
    builder.gap(24).line("raster order for blocks. Within each super block, the blocks follow a curve.")
    builder.gap(10).line("The next paragraph is one of its own, and it is set apart by a gap from the one above.")
    pdf = builder.save(tmp_path / "orders.pdf")
    report = ingest(pdf, "TEST 93", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    joined = opening + " raster order for blocks. Within each super block"
    assert joined in text
    assert text.index(joined) < text.index("![Figure 1 – Raster ordering of blocks]") < text.index("The next paragraph is one")
    assert text.index(joined) < text.index("<!-- page 2 pdf=2 -->") < text.index("![Figure 1")


def test_a_folio_that_counts_the_pages_is_furniture_even_set_larger_than_the_text(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A report prints `2 of 3` at the foot of each page in a larger size than its small text: the second number is the
    number of pages, so the line is a folio to drop, never clause 2 titled `of 3`."""
    builder = pdf_builder()
    for number in range(1, 4):
        builder.page().heading(f"{number} Results of district {number}")
        for row in range(6):
            builder.line(f"The votes of precinct {row} in district {number} were counted twice by hand.", size=8)
        builder.pdf.set_font("Helvetica", "", 12)
        builder.pdf.text(280, 812, f"{number} of 3")
    report = ingest(builder.save(tmp_path / "folios.pdf"), "TEST 473", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert [node.path for node in read_back(workspace, report).nodes if node.path[:1].isdigit()] == ["1", "2", "3"]
    assert " of 3" not in text and "of3" not in text
