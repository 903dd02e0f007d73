"""Tables and what is boxed, ruled upright or listed like one: a code box shut at its foot, console output cut at
the gutter, a contents in Chinese, a grid ruled only by vertical rules."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import norm_text, pipe_rows, png_bytes, read_back

from normcli.importers import ingest
from normcli.importers.pdf_pages import Line, Page, _split_columns
from normcli.importers.pdf_tables import _contents_entries


def test_a_code_box_shut_at_its_foot_takes_no_rows_from_under_it(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A shaded code box framed on all four sides, then a list whose marks stand apart from its items down to the foot of
    the page: the box's last rule is its end, so nothing under it is its rows, and neither is a table."""
    builder = pdf_builder().page().heading("3 Encoders").line("A message as the pretty text encoder writes it:").gap(6)
    pdf = builder.pdf
    top = builder.y
    pdf.set_fill_color(240, 240, 240)
    pdf.rect(72, top, 450, 70, style="F")
    pdf.set_line_width(0.5)
    for x0, y0, x1, y1 in ((72, top, 522, top), (72, top + 70, 522, top + 70), (72, top, 72, top + 70), (522, top, 522, top + 70)):
        pdf.line(x0, y0, x1, y1)  # the frame drawn rule by rule, as FOP draws a block's borders
    pdf.set_font("Courier", "", 9)
    for k, code in enumerate(
        ["{'MegacoMessage', asn1_NOVALUE,", "  {'Message', 1, {ip4Address,", "    {'IP4Address', [124,124,124,222]}}}}"]
    ):
        pdf.text(80, top + 16 + 11 * k, code)
    builder.y = top + 70
    builder.gap(6).line("The encoders provided:").gap(4)
    for name in ("pretty_text_encoder - encodes messages as pretty text", "compact_text_encoder - encodes messages as compact text"):
        for more in ("", " again"):
            builder.y += 13
            pdf.set_font("Helvetica", "", 10)
            pdf.text(80, builder.y, "\x95")
            pdf.text(96, builder.y, name + more)
    report = ingest(builder.save(tmp_path / "box.pdf"), "TEST 481", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert not read_back(workspace, report).tables, text
    assert "MegacoMessage" in text and "compact_text_encoder" in text


def test_console_columns_cut_at_the_gutter_stay_code_on_both_sides() -> None:
    """A page read as two columns cuts lines that run across its gutter: the halves of a line in a fixed pitch (a
    console's columns) are in a fixed pitch still, so the columns of code are not read as a table."""
    lines = []
    for k in range(4):
        spans = [("mnesia_locker", 68.0, 130.0), ("proc_msgq 5449930", 146.0, 250.0), ("1.0894", 339.0, 370.0), ("0.1162", 459.0, 486.0)]
        lines.append(
            Line(
                0,
                "   ".join(span[0] for span in spans),
                68.0,
                486.0,
                700.0 - 10 * k,
                692.0 - 10 * k,
                8.0,
                spans=spans,
                mono=True,
                listing=True,
            )
        )
    halves = _split_columns(lines, 297.0)
    assert len(halves) == 8
    assert all(half.mono and half.listing for half in halves)


def test_a_contents_in_chinese_is_no_table() -> None:
    """A contents set in two columns under its title, its chapters counted `第 N 节` and its titles in ideographs (no
    capitals to tell a title from a sentence): a list of pages, not a table, whether numbered or not."""
    page = Page(0, 595.0, 842.0, [], 1, "1")
    counted = [["第 1 节 简介", "1"], ["第 2 节 基本用法", "1"], ["第 3 节 用户手册", "2"]]
    assert _contents_entries(counted, page, 170)
    unnumbered = [["第 4 节 已知问题和兼容性", "16"], ["第 5 节 xeCJK 代码实现", "17"], ["版本历史", "165"], ["代码索引", "169"]]
    assert _contents_entries(unnumbered, page, 170)
    # the same pages beside names of one ideograph each are not titles: a table of data stays
    assert not _contents_entries([["甲", "1"], ["乙", "5"], ["丙", "9"], ["丁", "20"]], page, 170)


def test_a_grid_ruled_only_upright_is_one_table_though_its_cells_centre_glyphs(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Code points beside their glyphs, each pair between vertical rules that run through all rows, no horizontal rule:
    the glyphs stand at other x in their cells from row to row (a glyph's ink is not its advance), neither starting,
    ending nor centred where the one above does. One table of all its rows."""
    builder = pdf_builder().page().heading("5 Punctuation").line("The close punctuation marks and their code points:").gap(6)
    pdf = builder.pdf
    top = builder.y
    glyphs = ["i", "W", "mm", "l", "MM", "j"]
    shifts = [0, 6, 2, 8, 1, 5]
    rows = [[f"U+{0x3000 + 7 * r + c:04X}" for c in range(3)] for r in range(6)]
    pdf.set_line_width(0.4)
    walls = [76, 116, 148, 188, 220, 260, 292]
    for x in walls:
        pdf.line(x, top, x, top + 6 * 13 + 4)
    for r, codes in enumerate(rows):
        y = top + 11 + 13 * r
        for c, code in enumerate(codes):
            pdf.set_font("Courier", "", 8)
            pdf.text(walls[2 * c] + 4, y, code)
            glyph = glyphs[(r + 2 * c) % len(glyphs)]
            pdf.set_font("Helvetica", "", 10)
            pdf.text(walls[2 * c + 1] + 3 + shifts[(r + c) % len(shifts)], y, glyph)
    builder.y = top + 6 * 13 + 4
    builder.gap(16).line("The text goes on after the grid with more words in it than any cell of it holds.")
    report = ingest(builder.save(tmp_path / "grid.pdf"), "TEST 482", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1, norm_text(workspace, report)
    cells = pipe_rows(tables[0].markdown)
    assert [row[0] for row in cells if row[0].startswith("U+")] == [codes[0] for codes in rows]


def test_a_row_across_the_gutter_cut_into_cells_on_both_sides_is_not_cut() -> None:
    """A page whose lines run across its middle in pieces is read as two columns only when they are lines of text: a
    table's rows, three cells or more on both sides of the gutter, stay whole, and do not count towards it."""
    lines = []
    for k in range(6):
        spans = [("Kruger", 83.0, 110.0), ("K2-1901", 154.0, 190.0), ("RR2Y", 230.0, 255.0), ("1.9", 273.0, 285.0)]
        spans += [("Ac,PV", 326.0, 350.0), ("56.4", 372.0, 390.0), ("$846", 512.0, 530.0)]
        lines.append(Line(0, "   ".join(span[0] for span in spans), 83.0, 530.0, 550.0 - 12 * k, 542.0 - 12 * k, 8.0, spans=spans))
    assert _split_columns(lines, 306.0) == lines


def test_a_box_of_rows_shaded_in_bands_is_one_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A report's table in a box shut on all four sides, no rule between its columns, its rows shaded in bands of three
    (each band cut where a column is shaded apart) and ruled off in groups: one table of all its rows, not one for
    each group, nor a picture of its shading."""
    builder = pdf_builder().page().heading("2 Harvest report").line("The varieties tested this year:").gap(6)
    pdf = builder.pdf
    top = builder.y
    header = ["Company", "Product", "Maturity", "Yield", "Income"]
    rows = [[f"Brand {chr(65 + k)}", f"K{k + 2}-19{k:02d}", f"{1.5 + k / 10:.1f}", f"{56.4 - k:.1f}", f"${846 - 9 * k}"] for k in range(9)]
    xs = [84, 170, 260, 340, 430]
    height = 14 * (len(rows) + 1) + 8
    for band in (0, 6):  # rows 1-3 and 7-9 shaded, the yield column in a shade of its own
        pdf.set_fill_color(220, 235, 250)
        pdf.rect(80, top + 18 + 14 * band, 250, 42, style="F")
        pdf.set_fill_color(200, 200, 200)
        pdf.rect(336, top + 18 + 14 * band, 180, 42, style="F")
    pdf.set_line_width(0.5)
    for x0, y0, x1, y1 in (
        (72, top, 522, top),
        (72, top + height, 522, top + height),
        (72, top, 72, top + height),
        (522, top, 522, top + height),
    ):
        pdf.line(x0, y0, x1, y1)
    pdf.set_line_width(0.3)
    for after in (3, 6):  # a rule under every third row, short of the frame
        pdf.line(80, top + 18 + 14 * after + 1, 514, top + 18 + 14 * after + 1)
    for r, cells in enumerate([header, *rows]):
        pdf.set_font("Helvetica", "B" if r == 0 else "", 9)
        for x, cell in zip(xs, cells, strict=True):
            pdf.text(x, top + 14 + 14 * r, cell)
    builder.y = top + height
    builder.gap(16).line("The text goes on after the report with more words in it than any cell of it holds.")
    report = ingest(builder.save(tmp_path / "report.pdf"), "TEST 483", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1, norm_text(workspace, report)
    assert [row[0] for row in pipe_rows(tables[0].markdown)] == ["Company", *(row[0] for row in rows)]


def _boxes(pdf, left: float, top: float, cells: list[list[str]]) -> float:
    """A small grid of boxes with a word or two in each, as a diagram draws them; its bottom."""
    pdf.set_line_width(0.5)
    width, height = 40 * len(cells[0]), 22 * len(cells)
    for r in range(len(cells) + 1):
        pdf.line(left, top + 22 * r, left + width, top + 22 * r)
    for c in range(len(cells[0]) + 1):
        pdf.line(left + 40 * c, top, left + 40 * c, top + height)
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            pdf.set_font("Helvetica", "", 8)
            pdf.text(left + 40 * c + 6, top + 22 * r + 14, cell)
    return top + 22 * len(cells)


def test_boxes_of_a_diagram_over_its_figure_caption_are_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Two grids of boxes drawn in a diagram, each over a few lines of labels longer than a word or two, the figure's
    caption under them: a picture, not two tables. The same grid with a line of prose before a caption, or with the
    figure's own picture between it and the caption, stays a table."""
    builder = pdf_builder().page().heading("5 Anion gap").line("The urinary anion gap tells the two causes apart.").gap(10)
    pdf = builder.pdf
    top = builder.y
    for left in (120, 330):
        bottom = _boxes(pdf, left, top, [["Na+", "Cl-"], ["NH4+", "Anions"], ["Cations", "Others"]])
        pdf.set_font("Helvetica", "", 7)
        for k, label in enumerate(["Urinary anion gap is negative here", "= renal response adapted", "= digestive origin"]):
            pdf.text(left - 10, bottom + 12 + 9 * k, label)
    builder.y = bottom + 12 + 9 * 3
    builder.gap(8).line("Figure 2. The urinary anion gap, an indirect measure", x=180)
    builder.gap(20).line("The same boxes set as a table of their own, with text after them:").gap(6)
    bottom = _boxes(pdf, 120, builder.y, [["Na+", "Cl-"], ["NH4+", "Anions"], ["Cations", "Others"]])
    builder.y = bottom
    builder.gap(10).line("The cations and anions are counted in the urine of the patient over a whole day.")
    builder.gap(4).line("Figure 3. Another drawing under the text", x=180)
    # a grid right over a picture and its caption: the picture is the figure, the grid a table
    builder.gap(20).line("The next counts were made on a second patient, over a whole week of care.").gap(6)
    builder.y = _boxes(pdf, 120, builder.y, [["Na+", "Cl-"], ["NH4+", "Anions"], ["Cations", "Others"]])
    (tmp_path / "photo.png").write_bytes(png_bytes())
    builder.gap(40).image(tmp_path / "photo.png", height=60).line("Figure 4. A photograph of the sample", x=180)
    report = ingest(builder.save(tmp_path / "diagram.pdf"), "TEST 484", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 2, norm_text(workspace, report)


def test_cells_cut_by_vertical_rules_are_cells_whatever_brackets_they_hold(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Accents beside the commands that make them, three pairs a row between vertical rules: an accent the text layer
    gives as `{` leaves a bracket open in a cell, as code with wide spaces in its brackets would. A drawn rule is a
    cell's boundary all the same: the grid is a table."""
    builder = pdf_builder().page().heading("2 Accents").line("The accents and the commands that set them:").gap(10)
    rows = [
        ["o", "\\ut{o}", "o", "\\td{o}", "o", "\\syl{o}"],
        ["mn", "\\labvel{mn}", "ab", "a\\upbar b", "c", "\\rc{c}"],
        ["o {", "\\hill{o}", "o", "\\od{o}", "m", "m\\uplett{h}"],
        ["{o", "\\ohill{o}", "o", "\\acbar{o}", "o", "\\acarc{o}"],
    ]  # each accent beside its command, three pairs a row: a rule down between the pairs, one over and under them all
    builder.pdf.set_line_width(0.4)
    builder.pdf.set_font("Times", "", 10)
    builder.grid(rows, [100, 136, 220, 256, 340, 376, 460], height=14, over=[0, len(rows)], walls=[220, 340])
    builder.gap(16).line("The text goes on after the grid with more words in it than any cell of it holds.")
    report = ingest(builder.save(tmp_path / "accents.pdf"), "TEST 485", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1, norm_text(workspace, report)
    assert len(pipe_rows(tables[0].markdown)) == len(rows)
