"""Tables and what is boxed, ruled upright or listed like one: a code box shut at its foot, console output cut at
the gutter, a contents in Chinese, a grid ruled only by vertical rules."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import norm_text, pipe_rows, read_back

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
