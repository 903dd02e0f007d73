"""What a table without a caption must show to be one, on small PDFs made by the tests: its columns hold one kind of
value each, row after row, and its rows are records. A glossary (a term and its name), lines of code cut at a wide
space, a grid of names and a figure's legend are set in columns too, and are not tables; a list of keys and their
values, a list under a header row and a grid of labels and repeated values are."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import PdfBuilder, norm_text, pipe_rows, read_back

from normcli.importers import ingest
from normcli.importers.pdf_pages import Line
from normcli.importers.pdf_tables import Table, _aligned_rows, _not_records, _value_kind

_CLOSING = "The text goes on after the list with more words in it than any cell holds."


def _columns(builder: PdfBuilder, rows: list[list[str]], xs: tuple[float, ...], font: str = "Helvetica") -> PdfBuilder:
    """Rows of cells set at the given x positions, one line each, without rules."""
    for cells in rows:
        builder.y += 13
        builder.pdf.set_font(font, "", 10)
        for x, text in zip(xs, cells, strict=False):
            if text:
                builder.pdf.text(x, builder.y, text)
    return builder


def _ingest(builder: PdfBuilder, tmp_path: Path, workspace: Path, code: str):
    builder.gap(20).line(_CLOSING)
    return ingest(builder.save(tmp_path / "records.pdf"), code, "1", workspace=workspace, language="en")


def test_a_glossary_of_signs_and_their_names_is_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Each sign beside the word that names it: two columns, the second in words, under no header row."""
    builder = pdf_builder().page().heading("Glossary").line("The signs used in the formulas:").gap(6)
    names = [["+", "addition."], ["-", "subtraction."], ["x", "multiplication."], ["/", "division."], ["<", "less than."], ["=", "equals."]]
    report = _ingest(_columns(builder, names, (90, 140)), tmp_path, workspace, "TEST 470")
    assert not read_back(workspace, report).tables
    assert "multiplication." in norm_text(workspace, report)  # kept as text


def test_keys_with_their_values_and_a_list_under_its_header_row_stay_tables(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Two columns again, but the second holds quantities (`0pt plus 2em`), or a header row heads the list: capitals over
    cells in lower case (`Option` over `grid`)."""
    builder = pdf_builder().page().heading("2.1 Settings").line("The attributes of the instance take these values:").gap(6)
    values = [["indent-width", "0pt"], ["left-skip", "0pt plus 2em"], ["right-skip", "0pt"], ["par-skip", "1pt plus 1pt"]]
    _columns(builder, values, (90, 220)).gap(20).line("The options of the package are these:").gap(6)
    options = [
        ["Option", "Description"],
        ["grid", "draws a grid over the page"],
        ["texcoord", "puts the origin at the top"],
        ["unit", "distance between the grid lines"],
        ["colour", "colour of the grid lines"],
    ]
    report = _ingest(_columns(builder, options, (90, 220)), tmp_path, workspace, "TEST 471")
    tables = [pipe_rows(table.markdown) for table in read_back(workspace, report).tables]
    assert len(tables) == 2
    assert ["left-skip", "0pt plus 2em"] in tables[0]
    assert tables[1][0] == ["Option", "Description"] and ["unit", "distance between the grid lines"] in tables[1]


def test_lines_of_code_cut_at_a_wide_space_are_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Literate code set in the text's font: a pattern, a wide space, the action it runs, each ending in `;`."""
    builder = pdf_builder().page().heading("3.2 Scanning rules").line("The scanner returns a token for each keyword:").gap(6)
    rules = [["glue", "return GLUE;"], ["plus", "return PLUS;"], ["minus", "return MINUS;"], ["table", "return TABLE;"]]
    report = _ingest(_columns(builder, rules, (90, 200)), tmp_path, workspace, "TEST 472")
    assert not read_back(workspace, report).tables
    assert "return MINUS;" in norm_text(workspace, report)


def test_a_grid_of_names_is_no_table_and_labels_with_values_are(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Names listed in three columns, each one of its own: a list set in columns. Labels down the first column with
    values that come back in the others (`serif`, `bold`) are data."""
    builder = pdf_builder().page().heading("4.1 Provinces").line("The provinces are listed from west to east:").gap(6)
    provinces = [
        ["British Columbia", "Alberta", "Saskatchewan"],
        ["Manitoba", "Ontario", "Quebec"],
        ["New Brunswick", "Nova Scotia", "Newfoundland"],
    ]
    _columns(builder, provinces, (90, 220, 350)).gap(20).line("The two styles of the alphabet differ in weight only:").gap(6)
    styles = [["attribute", "normal", "bold"], ["type", "serif", "serif"], ["weight", "medium", "bold"], ["shape", "upright", "upright"]]
    report = _ingest(_columns(builder, styles, (90, 220, 350)), tmp_path, workspace, "TEST 473")
    tables = [pipe_rows(table.markdown) for table in read_back(workspace, report).tables]
    assert len(tables) == 1 and ["weight", "medium", "bold"] in tables[0]
    assert "Saskatchewan" in norm_text(workspace, report)


def _line(text: str, spans: list[str], bold: int = 0) -> Line:
    return Line(
        0, text, 72.0, 400.0, 700.0, 690.0, 10.0, bold, spans, [(span, 72.0 + 100 * k, 150.0 + 100 * k) for k, span in enumerate(spans)]
    )


def _table(rows: list[list[str]], ruled: bool = False) -> tuple[Table, list[Line]]:
    lines = [_line(" ".join(row), [cell for cell in row if cell]) for row in rows]
    return Table(None, list(range(len(rows))), rows, False, ruled=ruled), lines


def test_a_legend_a_matrix_and_a_magic_square_are_no_records_and_data_beside_them_is() -> None:
    assert _not_records(*_table([["", "Running footer"], ["*", ""]], ruled=True))  # a legend: no row with two cells
    assert _not_records(*_table([["8", "1", "6"], ["3", "5", "7"], ["4", "9", "2"]], ruled=True))
    assert _not_records(*_table([["1", "2"], ["3", "4"]], ruled=True))
    # one value beside every name (an index's entries on one page): no row differs from another but by its name
    assert _not_records(*_table([["SCAN_UTF8_1", "17"], ["SCAN_UTF8_2", "17"], ["SCAN_UTF8_3", "17"], ["SCAN_UTF8_4", "17"]]))
    assert not _not_records(*_table([["multidot", "true"], ["babel", "true"], ["extendedchars", "false"]]))
    assert not _not_records(*_table([["\\leftmargin", ".5in"], ["\\rightmargin", ".5in"], ["\\topmargin", ".5in"]]))  # settings
    # a word and its hyphenations side by side: values that come back along a row
    assert not _not_records(
        *_table([["lös-te", "lö-ste", "lös-te"], ["Fas-sa-de", "Fas-sa-de", "Fassa-de"], ["Abend-stern", "Abend-stern", "Abends-tern"]])
    )
    # a language, a word and its hyphenation: each row the forms of one word
    assert not _not_records(
        *_table(
            [
                ["Catalan", "d’aquesta", "d’a-ques-ta"],
                ["French", "l’électricité", "l’élec-tri-ci-té"],
                ["Italian", "dell’eleganza", "del-l’e-le-gan-za"],
            ]
        )
    )
    # measurements: decimal fractions in every column, under no header row
    assert not _not_records(*_table([["0.00", "0.000000", "0.000000"], ["0.25", "0.433945", "0.462191"], ["0.50", "0.635025", "0.635685"]]))
    # a rounding table: short numbers beside long ones
    assert not _not_records(*_table([["-4", "12 345,679 0"], ["-3", "12 345,679"], ["-2", "12 345,68"], ["-1", "12 345,7"]]))
    # a ruled glossary (the rules say it is a table) and a header row over a matrix stay
    assert not _not_records(*_table([["^B", "move back a character"], ["^F", "move forward a character"], ["^A", "go to the start"]], True))
    assert not _not_records(*_table([["A", "B", "C"], ["2", "2", "2"], ["0", "2", "0"], ["2", "0", "0"]]))


def test_cells_read_as_kinds_of_value() -> None:
    assert [_value_kind(cell) for cell in ("13.65", "0pt", "21(2):33–55")] == ["number"] * 3
    assert [_value_kind(cell) for cell in ("+", '"<', "kg")] == ["symbol"] * 3
    assert [_value_kind(cell) for cell in ("\\mathrm{A}", "/Name", ".html", "pub_xc", "getMethod", "T2A")] == ["code"] * 6
    assert [_value_kind(cell) for cell in ("aluminium sulfate", "(kelvin) mass", "“in names, editors”")] == ["words"] * 3
    assert [_value_kind(cell) for cell in ("Use compatibility.", "the origin at the top of the page")] == ["prose"] * 2
    assert _value_kind("2002 ony doloodugaar saryn 1") == "mixed"


def test_chinese_descriptions_read_as_prose_and_an_option_list_of_them_is_no_table() -> None:
    """Chinese sets no space between its words: a description is prose by its length or its own stops (`。`, `，`),
    a name of a few ideographs is words; a font may map its ideographs to the Kangxi radicals (`⽤` for `用`)."""
    assert [_value_kind(cell) for cell in ("保留使⽤英⽂的标题样式。", "对中文标点的位置（宽度）进行调整", "中文标题")] == [
        "prose",
        "prose",
        "words",
    ]
    options = [
        ["chsstyle", "使⽤中⽂的标题样式。这是默认设置。"],
        ["nochsstyle", "保留使⽤英⽂的标题样式。"],
        ["punct", "对中⽂标点的位置（宽度）进⾏调整。"],
        ["nopunct", "不对中⽂标点的位置进⾏调整。"],
    ]
    assert _not_records(*_table(options))
    assert not _not_records(*_table([["宋体", "10.5"], ["黑体", "12"], ["楷体", "14"]]))  # names and sizes: records


def test_a_function_list_with_japanese_descriptions_naming_points_and_arguments_is_no_table() -> None:
    """A Japanese description of eight ideographs or more is a sentence though it names figures and arguments in it
    (`２点`, `p1,p2,p3`); a call without arguments (`grid()`) is code. A list of functions and what they do is a
    list, not records."""
    assert _value_kind("平面上の３点 p1,p2,p3 に対し角 p1p2p3 を返す") == "prose"
    assert _value_kind("２点を結ぶ直線を描く") == "prose"
    assert _value_kind("grid()") == "code" and _value_kind("f(x)") != "code"
    functions = [
        ["grid()", "xy 平面の方眼の描画"],
        ["line3d(name,list,option)", "２点を結ぶ直線を描く"],
        ["arrow3d(name,list,option)", "２点を結ぶ矢線を描く"],
        ["plate3d(name,list,option)", "多角形を色塗りする"],
    ]
    assert _not_records(*_table(functions))


def test_code_lines_numbered_in_their_first_cell_are_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A documented source's lines, each number set close to its code and a comment further right: the numbers
    count lines, the comments are no column of data."""
    builder = pdf_builder().page().heading("B.11 Cover").line("The tokens of the cover are defined first.")
    for number, name, comment in (
        (145, "\\newtoks\\fenlei", "% class"),
        (146, "\\newtoks\\DWdaihao", "% unit"),
        (147, "\\newtoks\\miji", "% level"),
        (148, "\\newtoks\\StuNum", "% number"),
        (149, "\\newtoks\\Ctitle", "% title"),
    ):
        builder.y += 12
        builder.pdf.set_font("Helvetica", "", 6)
        builder.pdf.text(100, builder.y, str(number))
        builder.pdf.set_font("Times", "", 9)  # set in a font PDFium does not take for fixed-pitch
        builder.pdf.text(113, builder.y, name)
        builder.pdf.text(230, builder.y, comment)
    report = _ingest(builder, tmp_path, workspace, "TEST 476")
    assert not read_back(workspace, report).tables
    assert "\\newtoks\\StuNum" in norm_text(workspace, report)


def test_labels_centred_over_the_columns_head_a_small_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Two rows under labels centred over their columns, the first column (the rows' names) without a label: the
    labels start nowhere near the cells under them, and are the table's header row all the same."""
    builder = pdf_builder().page().heading("2.1 Sizes").line("The sizes of the two faces are these:")
    pdf = builder.pdf
    builder.y += 14
    pdf.set_font("Helvetica", "", 10)
    for label, middle in (("Body size", 220), ("Leading", 300)):
        pdf.text(middle - pdf.get_string_width(label) / 2, builder.y, label)
    for name, size, leading in (("Regular", "10.5 pt", "12 pt"), ("Bold", "11 pt", "13 pt")):
        builder.y += 13
        pdf.text(150, builder.y, name)
        pdf.text(205, builder.y, size)  # the cells flush left in their columns
        pdf.text(288, builder.y, leading)
    report = _ingest(builder, tmp_path, workspace, "TEST 477")
    tables = [pipe_rows(table.markdown) for table in read_back(workspace, report).tables]
    assert tables == [[["", "Body size", "Leading"], ["Regular", "10.5 pt", "12 pt"], ["Bold", "11 pt", "13 pt"]]]


def test_figures_set_flush_right_under_a_centred_label_are_a_column(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A word processor sets amounts flush right (a decimal tab) and centres their column's label over them: each cell
    starts at its own x, but ends where the one above it ends, or sits centred on it. Without rules or a caption, the
    rows are still one table, its label row its header."""
    rows = [("Weekly", "$ 40.40"), ("Biweekly", "80.80"), ("Monthly", "175.00"), ("Semiannually", "1,050.00"), ("Annually", "2,100.00")]
    builder = pdf_builder().page().heading("2 Amounts").line("Add to the wages the amount shown below for the period.").gap(10)
    pdf = builder.pdf
    right = 300.0
    builder.y += 13
    pdf.set_font("Helvetica", "", 10)
    pdf.text(100, builder.y, "Payroll Period")
    label = "Add Additional"
    pdf.text(right - (pdf.get_string_width(label) + pdf.get_string_width(rows[0][1])) / 2, builder.y, label)  # over the first amount
    for name, amount in rows:
        builder.y += 16
        pdf.text(100, builder.y, name)
        pdf.text(right - pdf.get_string_width(amount), builder.y, amount)
    builder.gap(14).line(_CLOSING)
    report = ingest(builder.save(tmp_path / "amounts.pdf"), "TEST 472", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1
    assert pipe_rows(tables[0].markdown) == [["Payroll Period", "Add Additional"], *[list(row) for row in rows]]


def test_examples_each_followed_by_its_kind_in_parentheses_are_no_records() -> None:
    """Expressions at the left, each one's kind in parentheses at the right: a list of examples set in two columns."""
    examples = [
        ["i+1", "(expresión numérica)"],
        ["a[i,j] < 1.5", "(expresión relacional)"],
        ["s[i+1,j-1] <> 'Mar' & anho", "(expresión relacional)"],
        ["forall{i in I, j in J} a[i,j] < .5 * b[i]", "(expresión lógica iterada)"],
    ]
    assert _not_records(*_table(examples))
    assert not _not_records(*_table([["kN", "(kilonewton)"], ["m", "(metre)"], ["s", "(second)"]], ruled=True))  # ruled: a table


def _row(y: float, cells: list[tuple[float, str]], mono: bool = False) -> Line:
    """A line cut into cells at the given x (10 pt, 5.5 pt a character)."""
    spans = [(text, x, x + 5.5 * len(text)) for x, text in cells]
    text = "   ".join(text for _, text in cells)
    return Line(0, text, spans[0][1], spans[-1][2], y + 8, y, 10.0, 0, [span[0] for span in spans], spans, mono=mono)


def test_bounds_displayed_side_by_side_are_formulas_not_rows() -> None:
    """The bounds of a problem's rows and columns, two relations a row: mathematics set in columns. A relation beside
    the words that explain it is a row."""
    bounds = [
        [(205, "1 ≤ r₁ < +∞"), (288, "0 ≤ x₁ ≤ 4 (continuous)")],
        [(205, "8 ≤ r₂ < +∞"), (288, "2 ≤ x₂ ≤ 5 (integer)")],
        [(205, "5 ≤ r₃ < +∞"), (288, "0 ≤ x₃ ≤ 1 (integer)")],
    ]
    stream = [_row(600 - 13 * k, cells) for k, cells in enumerate(bounds)]
    assert _aligned_rows(stream, 0, {}, set(), set(), {}) == []
    meanings = [
        [(90, "x < y"), (200, "checks whether x < y")],
        [(90, "x <= y"), (200, "checks whether x ≤ y")],
        [(90, "x = y"), (200, "checks x = y")],
    ]
    stream = [_row(600 - 13 * k, cells) for k, cells in enumerate(meanings)]
    assert _aligned_rows(stream, 0, {}, set(), set(), {}) == [0, 1, 2]


def test_a_data_file_with_rows_left_out_under_dots_is_code() -> None:
    """Lines of a data file in a typewriter font, a row of dots in the text's font standing for the rows left out: code
    (the dots are of neither kind), not a table."""
    lines = [
        ([(113, "15.15"), (152, "7.47644e-07")], True),
        ([(113, ". . ."), (152, ". . .")], False),
        ([(113, "47.85"), (152, "1.65944e-06")], True),
        ([(113, "47.95"), (152, "1.46712e-06")], True),
    ]
    stream = [_row(600 - 13 * k, cells, mono) for k, (cells, mono) in enumerate(lines)]
    assert _aligned_rows(stream, 0, {}, set(), set(), {}) == []


def test_a_word_hyphenated_at_a_justified_cells_end_is_no_column_of_its_own() -> None:
    """The last column justified: `grob-interface,      break-` spreads its line to the column's edge, and the word
    left standing apart, hyphenated, is that cell's; the rows under it go on in the same table."""
    rows = [
        [(72, "Object type"), (234, "Naming convention"), (384, "Examples")],
        [(72, "Contexts"), (234, "Aaaa or AaaaAaaa"), (384, "Staff, GrandStaff")],
        [(72, "Interfaces"), (234, "aaa-aaa-interface"), (384, "grob-interface,"), (491, "break\ufffe")],
        [(384, "aligned-interface")],
        [(72, "Properties"), (234, "aaa or aaaAaaa"), (384, "direction, thickness")],
    ]
    stream = [_row(600 - 13 * k, cells) for k, cells in enumerate(rows)]
    assert _aligned_rows(stream, 0, {}, set(), set(), {}) == [0, 1, 2, 3, 4]
