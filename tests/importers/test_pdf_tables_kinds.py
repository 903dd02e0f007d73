"""Text that stands in columns without being a table, on small PDFs made by the tests: an index set in two
columns, music drawn on staves with the glyphs of a symbol font, two texts side by side with their line
numbers; and the real tables beside them that must stay tables (a feature matrix of check marks, rows numbered
with a sentence each, names with their pages)."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from importer_helpers import PdfBuilder, norm_text, read_back

from normcli.importers import ingest, pdf_pages
from normcli.importers.pdf_pages import Line
from normcli.importers.pdf_tables import _drawn, _figures, _glyph_drawing, _index_entries, _numbered_listing, _numbered_prose

_ENTRIES = [
    ("A", ""),
    ("\\addcols", "412, 518"),
    ("\\advance", "96, 1203, 1364, 1382, 1401, 1422, 1533, 1590, 1602, 1688"),
    ("\\arraycolsep", "64"),
    ("\\arrayrulewidth", "77, 803"),
    ("B", ""),
    ("\\begin", "21, 33"),
    ("\\bgroup", "1207, 1288, 1290, 1301, 1310, 1350, 1402, 1411"),
    ("\\box", "311"),
    ("\\boxmaxdepth", "1188"),
    ("C", ""),
    ("\\checkcols", "1364, 1382"),
    ("\\cline", "1505, 1510"),
    ("\\col@sep", "601, 622, 640, 1002, 1010, 1044, 1060, 1100, 1130"),
    ("\\count@", "733"),
    ("\\cr", "1020, 1041"),
]


def _index_lines(entries: list[tuple[str, str]], separator: str) -> list[tuple[str, str]]:
    """An index column's printed lines: (kind, text), an entry's numbers wrapped onto a line of their own."""
    lines = []
    for term, numbers in entries:
        if not numbers:
            lines.append(("letter", term))
            continue
        text = f"{term}{separator}{numbers}"
        if len(text) > 42:
            cut = text[:42].rfind(", ") + 1
            lines += [("entry", text[:cut]), ("more", text[cut:].strip())]
        else:
            lines.append(("entry", text))
    return lines


def _index_page(builder: PdfBuilder, separator: str) -> None:
    """An index in two columns, written row by row (each printed row's two entries one after the other, as
    producers that set columns side by side write them), so PDFium gives each row as one line cut at the gutter."""
    builder.heading("Index").line("Numbers written in italic refer to the page where the corresponding entry is described.")
    left = _index_lines(_ENTRIES, separator)
    right = _index_lines([(term.replace("\\", "\\x") if numbers else chr(ord(term) + 3), numbers) for term, numbers in _ENTRIES], separator)
    top = builder.y + 14
    for k in range(len(left)):
        for lines, x in ((left, 72), (right, 310)):
            kind, text = lines[k]
            builder.pdf.set_font("Helvetica", "B" if kind == "letter" else "", 9)
            builder.pdf.text(x + (20 if kind == "more" else 0), top + 11 * k, text)
    builder.y = top + 11 * len(left)


def test_an_index_set_in_two_columns_is_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    for number, separator in enumerate((" . . . ", ", ")):  # short dot leaders, or a comma before the numbers
        builder = pdf_builder().page()
        _index_page(builder, separator)
        builder.gap(20).line("The text goes on after the index with more words in it than any cell holds.")
        pdf = builder.save(tmp_path / f"index-{number}.pdf")
        report = ingest(pdf, f"TEST 40{number}", "1", workspace=workspace, language="en")
        assert not read_back(workspace, report).tables
        text = norm_text(workspace, report)
        assert f"\\checkcols{separator}1364, 1382" in text and f"\\xcol@sep{separator}601, 622" in text  # kept as text


def test_names_with_their_pages_and_a_listed_index_stay_apart() -> None:
    index = [
        ["A", "D"],
        ["\\addcols, 412, 518", "\\xaddcols, 412, 518"],
        ["\\advance . . . 96, 1203", "\\xadvance . . . 96"],
        ["\\box", "311"],
    ]
    assert _index_entries(index)
    # an expl3 index: each term, then its line numbers in a cell of their own, no leaders
    assert _index_entries([["\\box_set_dp:Nn", "1107, 1174, 1271, 1295"], ["\\box_set_ht:Nn", "1108, 1173"], ["\\box_use:N", "1277"]])
    # a table of names, a count and pages: columns of different kinds
    assert not _index_entries([["Name", "Count", "Pages"], ["Bolts", "12", "3, 5"], ["Nuts", "40", "7"], ["Washers", "8", "9, 12"]])
    assert not _index_entries([["Section", "Page"], ["Introduction", "3"], ["Loads", "12"], ["Materials", "18"]])


def _staves(builder: PdfBuilder, bars: bool) -> None:
    """Three five-line staves (with bar lines, or without), notes drawn with a dingbat glyph at their pitches,
    and the syllables of the lyrics under each staff."""
    pdf = builder.pdf
    top = builder.y + 30
    syllables = ["Twin-", "kle", "twin-", "kle", "lit-", "tle", "star,", "how", "I", "won-", "der", "what", "you", "are"]
    for staff in range(3):
        pdf.set_line_width(0.4)
        for k in range(5):
            pdf.line(72, top + 5 * k, 520, top + 5 * k)
        if bars:
            for x in (72, 184, 296, 408, 520):
                pdf.line(x, top, x, top + 20)
        pdf.set_font("ZapfDingbats", "", 9)
        if bars:  # chords: three notes stacked on each beat
            for level in range(3):
                for n in range(14):
                    pdf.text(95 + 30 * n, top + 17 - 5 * level, "l")
        else:  # a melody: one note a beat, at its pitch
            for n in range(14):
                pdf.text(95 + 30 * n, top + 22 - 2.5 * ((n * 3 + staff) % 9), "l")
        pdf.set_font("Helvetica", "", 9)
        for n, syllable in enumerate(syllables):
            pdf.text(93 + 30 * n, top + 36, syllable)
        top += 70
    builder.y = top


def test_music_drawn_on_staves_is_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    for number, bars in enumerate((True, False)):
        builder = pdf_builder().page().heading("3 A first tune").line("The melody below is written with the music font of the package.")
        _staves(builder, bars)
        builder.gap(10).line("The text goes on after the tune with more words in it than any cell holds.")
        pdf = builder.save(tmp_path / f"music-{number}.pdf")
        report = ingest(pdf, f"TEST 41{number}", "1", workspace=workspace, language="en")
        assert not read_back(workspace, report).tables


def _music_font_staves(path: Path, font: bytes) -> Path:
    """Three staves with bar lines, a clef `G` and notes `q` at their pitches in a music font named `font` (seven
    characters: it takes the place of Courier's name in the PDF, as MusiXTeX's `musix20` would), the text around
    them in Helvetica. The notes read as letters, as a music font's glyphs do without a text mapping."""
    builder = PdfBuilder().page().heading("3 A first tune").line("The melody below is written with the music font of the package.")
    pdf = builder.pdf
    top = builder.y + 30
    for staff in range(3):
        pdf.set_line_width(0.4)
        for k in range(5):
            pdf.line(72, top + 5 * k, 520, top + 5 * k)
        for x in (72, 184, 296, 408, 520):
            pdf.line(x, top, x, top + 20)
        pdf.set_font("Courier", "", 16)
        pdf.text(76, top + 15, "G")
        for n in range(14):
            pdf.text(95 + 30 * n, top + 22 - 2.5 * ((n * 3 + staff) % 9), "q")
        top += 50
    builder.y = top + 10
    pdf.set_font("Courier", "", 10)
    pdf.text(72, builder.y, "q")  # a legend: one note, then its meaning in text on the same line
    pdf.set_font("Helvetica", "", 10)
    pdf.text(80, builder.y, "stands for a quarter note, the shortest value the tune uses anywhere")
    builder.gap(10).line("The text goes on after the tune with more words in it than any cell holds.")
    builder.save(path)
    data = path.read_bytes()
    assert data.count(b"/BaseFont /Courier") == 1 and len(font) == len(b"Courier")
    path.write_bytes(data.replace(b"/BaseFont /Courier", b"/BaseFont /" + font))
    return path


def test_music_in_a_music_font_whose_notes_read_as_letters_is_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf = _music_font_staves(tmp_path / "musix.pdf", b"musix20")
    lines, _ = pdf_pages._page_lines(pdfium.PdfDocument(str(pdf))[0].get_textpage(), 0)
    notes = [line for line in lines if set(line.text.replace(" ", "")) <= {"q", "G"}]
    words = [line for line in lines if len(line.text.split()) >= 4 and not line.text.startswith("q ")]
    assert len(notes) >= 10 and all(line.pictures == 1.0 for line in notes)
    assert len(words) == 3 and all(line.pictures == 0.0 for line in words)  # the heading and two lines of text
    # the legend's note is one character of the 58 on its line (not the first of three looked at)
    assert [round(line.pictures, 3) for line in lines if line.text.startswith("q ")] == [round(1 / 58, 3)]
    report = ingest(pdf, "TEST 430", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "The text goes on after the tune" in norm_text(workspace, report)
    # the same staves with the notes in a text font (Courier kept): the lines are no pictures
    lines, _ = pdf_pages._page_lines(pdfium.PdfDocument(str(_music_font_staves(tmp_path / "text.pdf", b"Courier")))[0].get_textpage(), 0)
    assert not any(line.pictures for line in lines)


def _line(text: str, pictures: float = 0.0) -> Line:
    """A line of a table, with the share of its characters that are pictures."""
    return Line(page=0, text=text, x0=72, x1=400, top=700, bottom=690, size=10, pictures=pictures)


def test_a_table_with_a_few_pictures_in_it_is_still_a_table() -> None:
    staff = [_line("q q", 1.0), _line("G 3", 0.5), _line("q", 1.0), _line("4 q", 0.5)]
    assert _drawn(staff)
    # a song: its notes on most lines, the words under them a good part of its characters
    assert _drawn([_line("G", 1.0), _line("q q", 1.0), _line("Twin-"), _line("q", 1.0), _line("kle"), _line("q q q", 1.0), _line("star")])
    # a feature matrix whose marks are drawn with a symbol font: its names and numbers are most of its characters
    matrix = [
        _line("Feature Version A Version B"),
        _line("Export 2.1 q q", 2 / 11),
        _line("Print 3.0 q", 1 / 9),
        _line("Undo 1.4 q q", 2 / 9),
    ]
    assert not _drawn(matrix)


def test_a_matrix_of_check_marks_is_still_a_table() -> None:
    assert _glyph_drawing([["●", "● ●", "●"], ["● ●", "●", ""], ["●", "", "● ●"]])
    assert not _glyph_drawing([["Feature", "A", "B"], ["Export", "✓", "✗"], ["Print", "✓", "✓"], ["Undo", "✗", "✓"]])


_LEFT = (
    "the quick brown river carried every little stone down toward the patient sea while the old miller watched "
    "from his bridge and counted the boats that passed beneath him in the morning light of spring"
)
_RIGHT = (
    "le fleuve rapide emportait chaque petite pierre vers la mer patiente tandis que le vieux meunier regardait "
    "depuis son pont et comptait les bateaux qui passaient sous lui dans la lumiere du matin"
)


def _prose_lines(text: str, shift: int, count: int = 19) -> list[str]:
    """Lines of running prose about 38 characters long."""
    words = text.split(" ")
    lines = []
    for _ in range(count):
        line: list[str] = []
        while len(" ".join(line)) < 38:
            line.append(words[shift % len(words)])
            shift += 1
        lines.append(" ".join(line))
    return lines


def test_two_texts_side_by_side_with_line_numbers_are_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    for number, rowwise in enumerate((True, False)):  # each printed row written at once, or column after column
        builder = pdf_builder().page().heading("2 The two texts").line("The original and its translation are printed side by side below.")
        pdf = builder.pdf
        left, right = _prose_lines(_LEFT, 0), _prose_lines(_RIGHT, 3)
        top = builder.y + 16
        order = [(k, side) for k in range(19) for side in (0, 1)] if rowwise else [(k, side) for side in (0, 1) for k in range(19)]
        for k, side in order:
            y = top + 12 * k
            pdf.set_font("Times", "", 7)
            pdf.text(60 if side == 0 else 525, y, str(k + 1) if side == 0 else f"{k + 1}R")
            pdf.set_font("Times", "", 10)
            pdf.text(75 if side == 0 else 305, y, (left if side == 0 else right)[k])
        builder.y = top + 12 * 19
        builder.gap(10).line("The text goes on after the two columns with more words in it than any cell holds.")
        pdf_file = builder.save(tmp_path / f"parallel-{number}.pdf")
        report = ingest(pdf_file, f"TEST 42{number}", "1", workspace=workspace, language="en")
        assert not read_back(workspace, report).tables
        assert "emportait chaque petite pierre" in norm_text(workspace, report)


def test_rows_numbered_with_a_sentence_each_are_still_a_table() -> None:
    lines = [[f"line {k} of the running text goes on and", f"{k}R"] for k in range(1, 6)]
    assert _numbered_prose(lines)
    requirements = [
        ["1", "The archive shall keep every version of a record."],
        ["2", "A reader shall see the date of each change."],
        ["3", "The index shall be rebuilt when a record changes."],
        ["4", "Every export shall name its source and its edition."],
    ]
    assert not _numbered_prose(requirements)


def test_prose_lines_with_their_punctuation_and_hyphens_are_numbered_prose() -> None:
    """A critical edition's lines as PDFium reads them: words with their commas and stops, a word hyphenated at the
    line's end, the right-hand numbers (`5R`) in the last cell or run into the text's."""
    rows = [
        ["2", "tetur adipiscing elit. Vestibulum feugiat", "tetur adipiscing elit. Vestibulum feugiat", "2R"],
        ["3", "dolor vitae urna laoreet dapibus. Ut pul-", "dolor vitae urna laoreet dapibus. Ut pul- 3R", ""],
        ["4", "vinar nisl ultrices ex viverra, ac imperdiet", "vinar nisl ultrices ex viverra, ac imperdiet", "4R"],
        ["5", "sem gravida. Pellentesque malesuada au-", "sem gravida. Pellentesque malesuada au- 5R", ""],
        ["6", "gue a interdum placerat. Aenean tinci-", "gue a interdum placerat. Aenean tinci- 6R", ""],
    ]
    assert _numbered_prose(rows)
    assert _numbered_prose(
        [
            ["66", "Phasellus cursus bibendum turpis quis finibus."],
            ["68", "consectetur varius. Suspendisse dapibus,"],
            ["69", "enim quis laoreet feugiat, diam ex frin-"],
        ]
    )
    # every line numbered, a heading among them
    lines = [
        ["check if I have forgotten For now, I have a minimal pre-commit, which tests only the", "3R"],
        ["blank spaces at ends of lines, but not the forgotten.", "4R"],
        ["2.1 Right section", "5R"],
    ]
    assert _numbered_prose(lines)
    assert not _numbered_prose([*lines[:2], ["2.1 Right section", "7R"]])  # numbers that skip lines: no heading among them


def _framed_examples(builder: PdfBuilder, pictures: bool) -> None:
    """Two ruled grids of three cells over three labels. With `pictures`, each upper cell holds a drawing (a
    polygon and a circle over axis numbers, then a bar), as a manual shows what each option draws; without, each
    holds a value and its unit on a shaded band, as a table shades its cells (the last cell empty)."""
    pdf = builder.pdf
    pdf.set_line_width(0.5)
    band = 110 if pictures else 16
    for grid in range(2):
        top = builder.y + 10
        xs = (100, 240, 380, 520)
        for y in (top, top + band, top + band + 16):
            pdf.line(xs[0], y, xs[-1], y)
        for x in xs:
            pdf.line(x, top, x, top + band + 16)
        for k, x in enumerate(xs[:-1]):
            if pictures and grid == 0:
                pdf.polygon([(x + 20, top + 80), (x + 70, top + 15), (x + 120, top + 80), (x + 20 + 10 * k, top + 95)], style="D")
                pdf.ellipse(x + 40, top + 30, 60, 60, style="D")
            elif pictures:
                pdf.set_fill_color(40, 40, 200)
                pdf.rect(x + 30, top + 40 - 8 * k, 20 + 25 * k, 50 + 8 * k, style="F")  # a bar as thick as an option makes it
            else:
                pdf.set_fill_color(220, 220, 220)
                pdf.rect(x + 1, top + 1, 138, band - 2, style="F")
            pdf.set_font("Helvetica", "", 8 if pictures else 10)
            if pictures or k < 2:  # the last shaded cell is empty: its ground lines up with its neighbours'
                pdf.text(x + 12, top + band - 4, "-1" if pictures else f"{k + 2}.{5 * k}")
                pdf.text(x + 120, top + band - 4, "1" if pictures else "kN")
            pdf.set_font("Helvetica", "", 10)
            pdf.text(x + 30, top + band + 12, f"{'Rotation' if grid == 0 else 'Width'}={18 * (k + 1)}")
        builder.y = top + band + 30


def _imported(builder: PdfBuilder, pdf: Path, code: str, workspace: Path) -> tuple[list, str]:
    """The tables and the text of a one-page test PDF with a closing line after what it set: imported as `code`."""
    builder.gap(10).line("The text goes on after the example with more words in it than any cell holds.")
    report = ingest(builder.save(pdf), code, "1", workspace=workspace, language="en")
    return read_back(workspace, report).tables, norm_text(workspace, report)


def test_ruled_boxes_holding_drawings_are_examples_and_shaded_cells_stay_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    for number, pictures in enumerate((True, False)):
        builder = pdf_builder().page().heading("5 Options").line("Each option changes the drawing as shown below.")
        _framed_examples(builder, pictures)
        tables, text = _imported(builder, tmp_path / f"framed-{number}.pdf", f"TEST 43{number}", workspace)
        if pictures:
            assert not tables
            assert "Rotation=36" in text  # the labels stay text
        else:
            assert len(tables) == 2
            assert "| Rotation=18 | Rotation=36 | Rotation=54 |" in text


def test_shapes_read_as_curves_bars_fills_and_frames(pdf_builder, tmp_path: Path) -> None:
    builder = pdf_builder().page()
    pdf = builder.pdf
    pdf.set_line_width(0.5)
    pdf.ellipse(100, 100, 40, 40, style="D")
    pdf.polygon([(200, 100), (240, 140), (200, 140)], style="D")
    pdf.set_fill_color(200, 200, 200)
    pdf.rect(300, 100, 60, 20, style="F")
    pdf.rect(400, 100, 60, 20, style="D")
    pdf.set_line_width(12)
    pdf.line(100, 300, 300, 300)
    pdf.set_line_width(0.5)
    pdf.line(100, 400, 300, 400)  # a rule, no shape
    pdf.line(400, 300, 460, 340)  # a slanted line alone
    builder.page().pdf.ellipse(100, 100, 40, 40, style="D")  # a page without a rule: no region to tell apart
    document = pdfium.PdfDocument(builder.save(tmp_path / "shapes.pdf"))
    second = document[1]
    assert pdf_pages._drawn_objects(second.raw)[2] == []
    second.close()
    page = document[0]
    _, _, shapes, _ = pdf_pages._drawn_objects(page.raw)
    kinds = {(round(shape[0]), round(shape[1]), shape[4]) for shape in shapes}
    top = builder.pdf.h  # fpdf measures from the top, PDFium from the bottom
    assert {(x, kind) for x, _, kind in kinds if top - 150 < _ < top - 90} == {
        (100, "curve"),
        (199, "curve"),
        (300, "fill"),
        (400, "frame"),
    }  # the stroke widens the triangle
    assert {kind for x, y, kind in kinds if y < top - 250 and x < 350} == {"fill"}  # the bar; the thin rule under it is no shape
    assert {kind for x, y, kind in kinds if y < top - 250 and x > 350} == {"line"}
    assert len(kinds) == 6
    page.close()
    document.close()


def test_a_table_in_a_box_with_rounded_corners_is_still_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A ruled grid set in a shaded box with rounded corners (a framed note's ground, drawn with curves), its last
    row shaded across the table, a diagonal over its corner: grounds around and under the table's text and a line
    that paints no region, not a picture."""
    builder = pdf_builder().page().heading("4 Sizes").line("The sizes of the paper are these:")
    pdf = builder.pdf
    top = builder.y + 10
    pdf.set_fill_color(235, 235, 250)
    pdf.rect(90, top - 6, 300, 92, style="F", round_corners=True, corner_radius=8)
    pdf.set_fill_color(200, 200, 200)
    pdf.rect(100, top + 64, 280, 16, style="F")  # a shaded row across the table, one short word in it
    pdf.set_line_width(0.5)
    pdf.line(100, top, 200, top + 32)  # a diagonal over the corner cells, as a header's corner is split
    rows = [
        ["Size", "Width", "Height"],
        ["A4", "210 mm", "297 mm"],
        ["A5", "148 mm", "210 mm"],
        ["Letter", "216 mm", "279 mm"],
        ["Note", "", ""],
    ]
    for k in range(len(rows) + 1):
        pdf.line(100, top + 16 * k, 380, top + 16 * k)
    for x in (100, 200, 290, 380):
        pdf.line(x, top, x, top + 16 * len(rows))
    pdf.set_font("Helvetica", "", 10)
    for k, cells in enumerate(rows):
        for x, text in zip((104, 204, 294), cells, strict=True):
            pdf.text(x, top + 16 * k + 11, text)
    builder.y = top + 100
    builder.gap(10).line("The text goes on after the table with more words in it than any cell holds.")
    pdf_file = builder.save(tmp_path / "rounded.pdf")
    report = ingest(pdf_file, "TEST 440", "1", workspace=workspace, language="en")
    assert "| Letter | 216 mm | 279 mm |" in norm_text(workspace, report)


def _variation_grid(builder: PdfBuilder, labels: list[str], marks: str = "") -> None:
    """A ruled variation table as tkz-tab draws it: a column of row labels (`labels`) beside interval ends, signs,
    and the function's values joined by arrows drawn as curves that cover much of the lower band. With `marks`
    (letters), every cell beside the labels holds one of them instead, as the points of a drawing are named."""
    pdf = builder.pdf
    pdf.set_line_width(0.5)
    top = builder.y + 10
    heights = (top, top + 20, top + 40, top + 100)
    for y in heights:
        pdf.line(100, y, 420, y)
    for x in (100, 160, 420):
        pdf.line(x, top, x, heights[-1])
    pdf.set_font("Helvetica", "", 10)
    for label, y in zip(labels, (top + 14, top + 34, top + 74), strict=True):
        pdf.text(110, y, label)
    texts = ["-inf", "+", "1", "0", "+inf", "-", "-inf", "2", "-inf"]
    texts = [marks[k % len(marks)] for k in range(len(texts))] if marks else texts
    places = [(170, 14), (220, 34), (280, 14), (330, 34), (395, 14), (365, 34), (170, 95), (280, 52), (395, 95)]
    for text, (x, y) in zip(texts, places, strict=True):
        pdf.text(x, top + y, text)
    for x0, x1 in ((190, 275), (300, 390)):  # the arrows: arcs up to the maximum and down from it
        pdf.bezier([(x0, top + 92), (x0 + 20, top + 45), (x1 - 20, top + 45), (x1, top + 56 if x0 < 280 else top + 92)])
        pdf.ellipse(x0 + 30, top + 60, 25, 25, style="D")
    builder.y = heights[-1] + 6


def test_a_variation_table_with_drawn_arrows_is_a_table_when_its_rows_are_labelled(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Arcs cover much of a variation table's area, as a picture's curves do; its first column naming each row (`x`,
    `f'(x)`, `f(x)`) keeps it a table. The same ruled region with tick numbers down its side is a plot, and with
    letters in its cells (the names of a drawing's points) a drawing."""
    for number, (labels, marks) in enumerate(((["x", "f'(x)", "f(x)"], ""), (["2", "1", "0"], ""), (["A", "B", "C"], "PQMN"))):
        builder = pdf_builder().page().heading("3 Variations").line("The variations of the function are these:")
        _variation_grid(builder, labels, marks)
        tables, text = _imported(builder, tmp_path / f"variation-{number}.pdf", f"TEST 45{number}", workspace)
        if number == 0:
            assert len(tables) == 1
            assert all(f"| {label} |" in text for label in labels)
        else:
            assert not tables


def test_line_numbers_a_font_prints_as_letters_still_count_the_lines_of_a_listing() -> None:
    """Figures of a font with no Unicode digits come out as letters from one run of ten code points (`ūŪŪŬ`); read
    with the lowest of them as 0, they count the listing's lines. Lines led by them, or with the number between a
    margin note and the code, are a numbered listing; words of other letters are no numbers."""
    zero = 0x16A
    digits = "".join(chr(zero + k) for k in range(10))

    def coded(number: int) -> str:
        return "".join(digits[int(char)] for char in str(number))

    def line(*spans: str) -> Line:
        cut = [(text, 72.0 + 150 * k, 72.0 + 150 * k + 100) for k, text in enumerate(spans)]
        return Line(page=0, text="  ".join(spans), x0=72, x1=400, top=700, bottom=690, size=10, spans=cut)

    assert _figures([coded(1002), coded(1003), "12", "été", "x"]) == [1002, 1003, 12, None, None]
    assert _figures(["ūŪŪŬ", "Żółć"]) == [None, None]  # letters past a run of ten: words, not figures
    listing = [line(coded(n), code) for n, code in ((1002, "\\def\\x{%"), (1003, "\\relax"), (1004, "}"))]
    assert _numbered_listing(listing)
    margin = [line("Searching all affixes is done", coded(1006), "\\xs@All#1"), line("by this macro.", coded(1007), "}")]
    assert _numbered_listing([*margin, line(f"{coded(1008)} \\def\\y#1{{%")])
    assert not _numbered_listing([line("ab", "\\alpha"), line("ac", "\\beta"), line("ad", "\\gamma")])  # ASCII names


def test_cells_a_page_gives_after_the_rows_below_them_stay_in_their_rows(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A chart whose last column the producer writes after the columns beside it for a run of rows: those cells come
    after the rows below theirs in reading order, level with their own row. They are read into it, and the chart
    stays one table instead of breaking where the run of late cells starts."""
    names = ["less-than", "greater-than", "equals", "not equals", "less or equal", "greater or equal", "tilde", "plus"]
    rows = [(f"\\cmd{chr(97 + k)}", f"U+{0x2260 + k:04X}", f"{k + 1}.{k}", name) for k, name in enumerate(names)]
    builder = pdf_builder().page().heading("6 Relations").line("The relations of the font are listed below.")
    pdf = builder.pdf
    top = builder.y + 14
    late = range(2, 6)  # these rows' names are written after the other cells of the run
    for k, cells in enumerate(rows):
        pdf.set_font("Helvetica", "", 10)
        for x, text in zip((72, 190, 270, 340), cells if k not in late else cells[:3], strict=False):
            pdf.text(x, top + 16 * k, text)
        if k == late[-1]:
            for j in late:
                pdf.text(340, top + 16 * j, rows[j][3])
    builder.y = top + 16 * len(rows)
    builder.gap(10).line("The text goes on after the chart with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "late.pdf"), "TEST 460", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert len(tables) == 1
    assert all(f"| {' | '.join(cells)} |" in text for cells in rows)


def test_one_definition_of_a_rule_tells_rules_from_shapes_and_a_ruled_page(pdf_builder, tmp_path: Path) -> None:
    """A rule drawn in pieces shorter than a table rule, joined as `rules_of` joins them, makes the page ruled (its
    shapes are read); a bar 2.5 pt wide is no vertical rule (those are 2 pt at most), so it is a shape, not a thin
    path that is neither."""
    builder = pdf_builder().page()
    pdf = builder.pdf
    pdf.set_line_width(0.5)
    for x in (100, 110, 120):
        pdf.line(x, 200, x + 10, 200)  # three pieces of 10 pt, one 30 pt rule
    pdf.ellipse(300, 150, 40, 40, style="D")
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(400, 150, 2.5, 40, style="F")
    document = pdfium.PdfDocument(builder.save(tmp_path / "pieces.pdf"))
    page = document[0]
    _, paths, shapes, _ = pdf_pages._drawn_objects(page.raw)
    hrules, vrules = pdf_pages.rules_of(paths)
    assert len(hrules) == 1 and 30 <= hrules[0][1] - hrules[0][0] <= 31 and not vrules  # the pen widens each end
    assert sorted((round(shape[0]), shape[4]) for shape in shapes) == [(300, "curve"), (400, "fill")]
    page.close()
    document.close()
