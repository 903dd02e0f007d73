"""Lists that stand in aligned columns without being tables, on small PDFs made by the tests: an index whose long
lists of numbers wrap onto justified lines, references under their citation keys, a printed contents with an
unnumbered entry among numbered ones, examples beside what they print; and the tables beside them that stay."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import PdfBuilder, norm_text, pipe_rows, read_back

from normcli.importers import ingest
from normcli.importers.pdf_pages import Line
from normcli.importers.pdf_tables import _line_starts, _on_columns, _running_locators, _source_and_result

_TERMS = ["\\setbeam", "\\setload", "\\showspan", "\\slabcnt", "\\splitbay", "\\support"]


def _index_column(start: int) -> list[list[str]]:
    """One column of an index: each term over dot leaders, then its long list of line numbers, two to a line."""
    lines: list[list[str]] = []
    for k, term in enumerate(_TERMS):
        numbers = [f"{start + 97 * k + 6 * n}," for n in range(11)] + [str(start + 97 * k + 70)]
        numbers[4] = f"{start + 97 * k + 24}-"  # a range broken at its dash
        lines.append([f"{term} . . . . {numbers[0]}"])
        lines.extend(numbers[i : i + 2] for i in range(1, len(numbers), 2))
    return lines


def _index_page(builder: PdfBuilder) -> None:
    """An index in three columns, written row by row (as producers that set columns side by side write them), each
    wrapped line of numbers justified across its column: its two numbers stand apart like two cells."""
    builder.heading("Index").line("Numbers refer to the code lines where the entry is used.")
    columns = [_index_column(start) for start in (1100, 1700, 2300)]
    top = builder.y + 14
    builder.pdf.set_font("Times", "", 9)
    for row in range(max(len(column) for column in columns)):
        for column, x in zip(columns, (72, 230, 388), strict=True):
            if row >= len(column):
                continue
            pieces = column[row]
            if len(pieces) == 1:
                builder.pdf.text(x, top + 11 * row, pieces[0])
            else:  # justified: the first number at the indent, the second flush with the column's right edge
                builder.pdf.text(x + 18, top + 11 * row, pieces[0])
                builder.pdf.text(x + 130 - builder.pdf.get_string_width(pieces[1]), top + 11 * row, pieces[1])
    builder.y = top + 11 * max(len(column) for column in columns)


def test_an_index_whose_numbers_wrap_onto_justified_lines_is_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page()
    _index_page(builder)
    builder.gap(20).line("The text goes on after the index with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "index.pdf"), "TEST 430", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert "1106," in text and "1124-" in text and "\\support . . . . 2785," in text  # kept as text


def test_numbers_that_end_their_cells_are_data_and_lists_that_go_on_are_not() -> None:
    assert _running_locators([["1115,", "1119–"], ["1121,", "1124,"], ["1133,", "1134,"]])
    assert _running_locators([["2143, 363, 369, 375,", "2155,"], ["2167, 381, 387, 393, 398", "2179,"], ["2191,", "2203,"]])
    # numbers as data: no cell goes on to the next line
    assert not _running_locators([["Year", "Copies"], ["1998", "1,200"], ["1999", "2,400"], ["2000", "3,100"]])
    assert not _running_locators([["Bolts", "12"], ["Nuts", "40"], ["Washers", "8"]])


def test_references_under_their_keys_are_a_list_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("References").gap(4)
    for key, lines in (
        ("[Bal07]", ["Anna Balmer. The slab package. March 2007. (Available from", "the archive in macros/latex/contrib/slab)"]),
        ("[Kor98]", ["Ivo Korner. Loads on timber beams in TeX. 1998.", "(Available from the archive in macros/generic/beams.tex)"]),
        ("[LW03]", ["Lena Lind and Paul Weber. The Structural Handbook.", "Second edition. Northfield Press, 2003."]),
        ("[SPAN]", ["Span Tables Online: Home of the span tables. http://spans.example.org"]),
    ):
        builder.gap(4).line(key, x=72)
        builder.pdf.text(160, builder.y, lines[0])
        for more in lines[1:]:
            builder.line(more, x=160)
    builder.gap(20).heading("Index").line("The text goes on after the references with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "references.pdf"), "TEST 431", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "Ivo Korner. Loads on timber beams" in norm_text(workspace, report)


def test_contents_with_one_unnumbered_entry_among_numbered_ones_is_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder(first_page_number=1).page().line("A language module", x=230, size=16).gap(10)
    # the contents' last entries, on a page of their own under its title: chapters only, bold, no leaders
    for title, page in (
        ("9. Plain TeX", "2"),
        ("10. Compatibility with older versions", "3"),
        ("References", "3"),
        ("11. The Spanish language", "4"),
    ):
        builder.gap(6).line(title, x=72, bold=True)
        builder.pdf.text(520 - builder.pdf.get_string_width(page), builder.y, page)
    builder.gap(20).line("The text goes on after the contents with more words in it than any cell holds.")
    for title in ("9. Plain TeX", "10. Compatibility with older versions", "11. The Spanish language"):
        builder.page().heading(title).line("The text of the chapter, long enough to be a paragraph of its own.")
    report = ingest(builder.save(tmp_path / "contents.pdf"), "TEST 432", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "Compatibility with older versions" in norm_text(workspace, report)


def test_examples_beside_what_they_print_are_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("4.1 Decimal comma").line("A point in math mode before a digit is a decimal mark:")
    builder.gap(6)
    for source, result in (
        ("$1\\,234.567\\,890$", "1 234,567 890"),
        ("$f(1,2)=12.34.$", "f(1,2) = 12,34."),
        ("$1{.}000$", "1.000, but"),
        ("1.000", "1.000, not in math mode."),
    ):
        builder.gap(2)
        builder.pdf.set_font("Courier", "", 9)
        builder.y += 11
        builder.pdf.text(110, builder.y, source)
        builder.pdf.set_font("Times", "", 10)
        builder.pdf.text(240, builder.y, result)
    builder.gap(20).line("The text goes on after the examples with more words in it than any cell holds.")
    builder.gap(10).line("The units of the results are given in this table:").gap(6)
    for unit, name in (("Unit", "Quantity"), ("kN", "force"), ("kN/m", "line load"), ("kN/m2", "area load")):
        builder.line(unit, x=110, bold=unit == "Unit").pdf.text(240, builder.y, name)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    builder.gap(10).line("The short forms are shown in the table below:").gap(4)
    pdf = builder.pdf
    for source, result in (("Input", "Output"), ("<some text>", "some text"), ("'some text'", "'some text'"), ('"some text"', "some text")):
        if source in ("Input", "<some text>"):  # booktabs: a rule over the table, one under its header row
            builder.y += 4
            pdf.set_line_width(0.6)
            pdf.line(105, builder.y, 330, builder.y)
        builder.line(source, x=110, bold=source == "Input").pdf.text(240, builder.y, result)
    builder.y += 4
    pdf.line(105, builder.y, 330, builder.y)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "examples.pdf"), "TEST 433", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    # ruled off under a header, examples beside their results are a table the document sets as one
    assert [pipe_rows(table.markdown)[0] for table in tables] == [["Unit", "Quantity"], ["Input", "Output"]]
    assert "$f(1,2)=12.34.$" in norm_text(workspace, report)


def test_a_table_whose_second_column_repeats_the_first_word_for_word_stays() -> None:
    examples = [["$1\\,234$", "1 234"], ["$f(1,2)$", "f(1,2)"], ["\\textbf{bold}", "bold"], ["1.000", "1.000, as it is"]]
    assert _source_and_result(examples)
    # option names whose descriptions start with the name: written the same, no markup printed away
    options = [["draft", "draft mode, no images"], ["final", "final version"], ["screen", "screen colours"]]
    assert not _source_and_result(options)


def _chord(builder: PdfBuilder, left: float, top: float, name: str, dots: list[tuple[int, int]]) -> None:
    """A chord diagram: six strings over four frets, 6 pt apart, its fingers as letters between them."""
    pdf = builder.pdf
    pdf.set_line_width(0.4)
    for fret in range(5):
        pdf.line(left, top + 6 * fret, left + 30, top + 6 * fret)
    for string in range(6):
        pdf.line(left + 6 * string, top, left + 6 * string, top + 24)
    pdf.set_font("Helvetica", "", 10)
    pdf.text(left + 8, top - 4, name)
    pdf.set_font("Helvetica", "", 6)
    for string, fret in dots:
        pdf.text(left + 6 * string - 1.5, top + 6 * fret - 1, "r")


def test_staves_and_chord_diagrams_are_no_ruled_tables(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("Amazing Grace").line("The chords of the song, then its first bar:")
    top = builder.y + 20
    for k, (name, dots) in enumerate((("G", [(0, 3), (4, 3), (5, 2)]), ("C", [(1, 3), (2, 2), (4, 1)]), ("D", [(3, 2), (4, 3), (5, 2)]))):
        _chord(builder, 150 + 50 * k, top, name, dots)
    pdf, staff = builder.pdf, top + 60
    for line in range(5):  # a staff: five lines 5 pt apart, bar lines across it, the notes' stems beside them
        pdf.line(110, staff + 5 * line, 300, staff + 5 * line)
    for x in (110, 200, 300):
        pdf.line(x, staff, x, staff + 20)
    pdf.set_font("Helvetica", "", 9)
    for k, x in enumerate((130, 150, 170, 220, 240, 260)):
        pdf.line(x + 5, staff + 3 + 2.5 * (k % 3) - 15, x + 5, staff + 3 + 2.5 * (k % 3))
        pdf.text(x, staff + 4 + 2.5 * (k % 3), "h")
    builder.y = staff + 40
    builder.line("A-maz-ing grace, how sweet the sound", x=110)
    builder.gap(20).line("The text goes on after the music with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "song.pdf"), "TEST 434", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "how sweet the sound" in norm_text(workspace, report)


def test_a_list_of_commands_and_what_they_do_is_no_table_from_any_of_its_rows(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The first description is a sentence too long for a header; the second is short enough to pass for one, yet a
    table does not start there: the list is one list in all its parts."""
    builder = pdf_builder().page().heading("B.1 Invoking the tools").line("The tools are run as commands of their own:").gap(6)
    for command, description in (
        ("Extract", "Extract the code from a report or from another document written in the same way"),
        ("Weave", "Process a report and write its output"),
        ("compare", "Compare two outputs ignoring their headers"),
        ("config", "Obtain configuration information"),
        ("install", "Install add-on packages"),
    ):
        builder.line(command, x=110).pdf.text(200, builder.y, description)
    builder.gap(20).line("The text goes on after the list with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "commands.pdf"), "TEST 435", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "Compare two outputs ignoring their headers" in norm_text(workspace, report)


def test_command_names_in_code_under_labels_are_a_table_and_a_justified_cell_stays_one(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Two columns of command names set in code under a header row in the text's font: a table, not console output.
    Cells wrapped over lines are justified: a line's last word stands apart at the column's right edge."""
    builder = pdf_builder().page().heading("1.9 Migration").line("Many of the old commands have been replaced:").gap(6)
    pdf = builder.pdf
    builder.line("Old command", x=110).pdf.text(260, builder.y, "Replaced with")
    rows = [
        ["\\addfootins", "\\newseries"],
        ["\\critext", "\\edtext"],
        ["\\setparstuff", "\\Xsetparstuff", "or"],
        ["", "\\setparstuffX"],
        ["\\notefontsetup", "\\Xnotefontsize,"],
        ["", "\\Xendnotefontsize", "and"],
        ["", "\\notefontsizeX"],
        ["\\sidenotesep", "\\setsidenotsep"],
        ["\\symplinenum", "\\Xsymlinenum"],
    ]
    for cells in rows:
        builder.y += 12
        pdf.set_font("Courier", "", 9)
        if cells[0]:
            pdf.text(110, builder.y, cells[0])
        pdf.text(260, builder.y, cells[1])
        if len(cells) > 2:
            pdf.text(420 - pdf.get_string_width(cells[2]), builder.y, cells[2])
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "commands.pdf"), "TEST 436", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1
    table = pipe_rows(tables[0].markdown)
    assert table[0] == ["Old command", "Replaced with"] and table[-1] == ["\\symplinenum", "\\Xsymlinenum"]
    assert ["\\notefontsetup", "\\Xnotefontsize, \\Xendnotefontsize and \\notefontsizeX"] in table
    assert ["\\setparstuff", "\\Xsetparstuff or \\setparstuffX"] in table


def test_only_words_after_the_last_column_start_are_a_justified_cell() -> None:
    starts = [132.0, 303.0]
    assert _on_columns([("\\Xendnotefontsize", 303.2, 380.0), ("and", 440.0, 461.0)], starts)
    assert _on_columns([("\\setparstuff", 132.1, 200.0), ("\\Xsetparstuff", 303.0, 380.0), ("or", 450.0, 461.0)], starts)
    # an index's numbers set right (`9, 2032` where the line above had `. 2457`) start no cell of the last column
    assert not _on_columns([("drawnormalDD (r)", 132.0, 210.0), ("9, 2032", 350.0, 386.0)], starts)
    assert not _on_columns([("word", 132.0, 160.0), ("apart", 220.0, 250.0)], starts)  # before the last column
    # names listed in columns (`centerlastline,  changelayout,  changepage,`): items of a list, not a justified cell
    assert not _on_columns([("centerlastline,", 132.0, 200.0), ("changelayout,", 303.0, 360.0), ("changepage,", 420.0, 470.0)], starts)
    assert not _on_columns([("\\Xendnotefontsize", 303.2, 380.0), ("and", 420.0, 436.0), ("so", 450.0, 461.0)], starts)


def test_a_header_over_the_first_rule_heads_its_table_and_the_rows_under_it_stay_rows(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """No rule over the header row: one under it, then one under each group of four rows. The header is the table's
    first row, and the rows of the first group are rows, not one header cell each."""
    builder = pdf_builder().page().heading("1.9.5 Changed names").line("The commands have been renamed as follows:").gap(6)
    pdf = builder.pdf
    builder.line("Old command", x=110).pdf.text(280, builder.y, "New command")
    groups = [[f"\\foot{name}", f"\\Xarrange{name}"] for name in ("para", "normal", "twocol", "threecol")]
    groups += [[f"\\foot{name}X", f"\\arrange{name}X"] for name in ("para", "normal", "twocol", "threecol")]
    for k, (old, new) in enumerate(groups):
        if k % 4 == 0:
            builder.y += 3
            pdf.set_line_width(0.4)
            pdf.line(100, builder.y, 420, builder.y)
        builder.y += 12
        pdf.set_font("Courier", "", 9)
        pdf.text(110, builder.y, old)
        pdf.text(280, builder.y, new)
    builder.y += 3
    pdf.line(100, builder.y, 420, builder.y)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "renamed.pdf"), "TEST 437", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1
    assert pipe_rows(tables[0].markdown) == [["Old command", "New command"], *groups]


def _cut(*pieces: tuple[str, float]) -> Line:
    """A line cut into pieces, each (text, x where it starts), 40 pt wide."""
    spans = [(text, x, x + 40) for text, x in pieces]
    return Line(0, " ".join(text for text, _ in pieces), spans[0][1], spans[-1][2], 700, 690, 10, spans=spans)


def test_columns_start_where_lines_are_cut_but_a_justified_cells_last_word() -> None:
    justified = [_cut(("\\critext", 132), ("\\edtext", 303)), _cut(("\\setparstuff", 132), ("\\Xsetparstuff", 303), ("or", 450))]
    assert _line_starts(justified) == (132, 303)
    # a piece without letters that no other line is cut at is kept (an operator of aligned formulas)
    formulas = [_cut(("B", 132), ("= a", 200)), _cut(("H", 132), ("= b", 200), ("+", 300))]
    assert _line_starts(formulas) == (132, 200, 300)
    # a centred last column is cut at another x on every line: kept, the table keeps its two columns
    centred = [_cut(("Bolts", 132), ("twelve", 310)), _cut(("Nuts", 132), ("forty", 314))]
    assert _line_starts(centred) == (132, 310)


def test_a_title_pages_fields_are_no_table_and_the_same_lines_further_on_stay_one(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A title page lists the document's fields, each name closed by a colon before its value: data about the
    document, not a table. The same lines on a later page may be a parameter table, and stay one."""
    fields = [("Date:", "2022-10-03"), ("Copyright:", "GPL v2.0"), ("Version:", "3.23"), ("Manual section:", "5")]

    def field_lines(builder: PdfBuilder) -> None:
        top = builder.y + 14
        builder.pdf.set_font("Helvetica", "", 10)
        for k, (name, value) in enumerate(fields):
            builder.pdf.text(150, top + 14 * k, name)
            builder.pdf.text(260, top + 14 * k, value)
        builder.y = top + 14 * len(fields)

    builder = pdf_builder().page().heading("Configuration file")
    field_lines(builder)
    builder.gap(10).line("The text goes on after the fields with more words in it than any cell holds.")
    builder.page().heading("2 Settings").line("The settings read at start are these:")
    field_lines(builder)
    builder.gap(10).line("The text goes on after the settings with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "fields.pdf"), "TEST 470", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert len(tables) == 1
    assert text.count("| Version: | 3.23 |") == 1 and text.count("Version:") == 2


def _marked(builder: PdfBuilder, items: list[str], mark: str, font: str) -> float:
    """Items in bold, each after a mark set 17 pt apart from it, as a word processor's tab sets it; the bottom."""
    top = builder.y
    for k, item in enumerate(items):
        builder.pdf.set_font(font, "", 11)
        builder.pdf.text(100, top + 14 + 12.5 * k, mark)
        builder.pdf.set_font("Helvetica", "B", 11)
        builder.pdf.text(117, top + 14 + 12.5 * k, item)
    builder.y = top + 14 + 12.5 * len(items)
    return builder.y


def test_items_hanging_from_a_dash_set_apart_are_a_list_boxed_or_not(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A word processor sets a list's marks apart from the items (a tab after `-` or `•`): one column of one mark beside
    a column of items is a bulleted list, whether a form's answer box frames it or not, even set in bold as a header
    row would be; a table beside it stays."""
    items = [
        "The schedule of prices",
        "Compliance with specifications/Technical assessment",
        "Plan for Pedestrian & Traffic Management",
        "Work health and safety",
    ]
    builder = pdf_builder().page().heading("9 Method of tendering").line("Tender evaluation criteria included:").gap(6)
    top = builder.y
    bottom = _marked(builder, items, "-", "Helvetica") + 6
    builder.pdf.set_line_width(0.6)
    builder.pdf.rect(92, top, 360, bottom - top)  # boxed, as a form's answer
    builder.gap(16).line("Other points the panel weighed were these ones:").gap(4)
    _marked(builder, items, "\xb7", "Symbol")  # the bullet in the Symbol font's encoding
    builder.gap(10).line("The prices were these:").gap(4)
    top = builder.y
    builder.pdf.set_font("Helvetica", "", 10)
    for k, (name, value) in enumerate([("Weekly", "40.40"), ("Monthly", "175.00"), ("Quarterly", "525.00"), ("Annually", "2,100.00")]):
        builder.pdf.text(100, top + 14 + 13 * k, name)
        builder.pdf.text(260, top + 14 + 13 * k, value)
    builder.y = top + 14 + 13 * 4
    builder.gap(10).line("The text goes on after the lists with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "marked.pdf"), "TEST 471", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert len(tables) == 1 and "| Annually | 2,100.00 |" in text, text
    assert text.count("The schedule of prices") == 2 and "| - |" not in text and "| • |" not in text
