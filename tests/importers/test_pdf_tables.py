"""PDF tables read from their rules and on their captions, on small PDFs made by the tests: grids whose text
runs into the next cell, booktabs tables with a centred first cell or no rules between rows, side-by-side
tables, `name = value` tables, tables cut by a page break, captions over two lines or beside their table;
and code listings, numbered listings, glyph charts and framed examples that are not tables."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import PdfBuilder, assert_table_matches, norm_text, pipe_rows, png_bytes, read_back

from normcli.importers import ingest
from normcli.importers.common import TABLE_CAPTION
from normcli.importers.pdf_pages import Line, Page, _cells, _even_advances, rules_of
from normcli.importers.pdf_tables import Table, _contents_entries, _join_page_breaks, _printed_rows, _spread_prose


def _grid(builder: PdfBuilder, columns: list[float], rows: list[list[str]], height: float = 16, rule_image: Path | None = None) -> None:
    """A ruled grid: a rule over and under every row and between the columns; the text set flush against
    the rule on its left, so that a cell and its neighbour are only a space apart. With `rule_image`, the
    rules are that image drawn thin, as some DVI drivers set TeX's rules (the text then 3 pt in)."""
    pdf = builder.pdf
    top = builder.y + 6
    right = columns[-1]
    pdf.set_line_width(0.5)
    for k in range(len(rows) + 1):
        if rule_image:
            pdf.image(str(rule_image), x=columns[0], y=top + k * height - 0.25, w=right - columns[0], h=0.5)
        else:
            pdf.line(columns[0], top + k * height, right, top + k * height)
    for x in columns:
        if rule_image:
            pdf.image(str(rule_image), x=x - 0.25, y=top, w=0.5, h=len(rows) * height)
        else:
            pdf.line(x, top, x, top + len(rows) * height)
    for k, cells in enumerate(rows):
        pdf.set_font("Helvetica", "B" if k == 0 else "", 10)
        for x, text in zip(columns, cells, strict=False):
            pdf.text(x + (3 if rule_image else 1.5), top + k * height + 11, text)
    builder.y = top + len(rows) * height + 4


def test_a_ruled_grid_is_cut_at_its_rules_even_where_the_text_leaves_no_gap(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("2 Archives").line("The archive sites are listed in Table 2.2 with their suites.")
    # column 2 is 40 pt wide: "stable-proposed-updates" runs over the rule into column 3
    rows = [
        ["URL", "suite", "purpose"],
        ["deb.debian.org", "stable-proposed-updates", "next point release"],
        ["security", "stable", "updates"],
    ]
    _grid(builder, [72, 160, 200, 400], rows)
    builder.gap(6).line("Table 2.2 - List of Debian archive sites", x=150)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "grid.pdf")
    report = ingest(pdf, "TEST 120", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "Table 2.2 - List of Debian archive sites\n| URL | suite | purpose |\n|---|---|---|\n" in text
    assert "| security | stable | updates |" in text
    row = next(line for line in text.splitlines() if line.startswith("| deb.debian.org"))
    cells = [cell.strip() for cell in row.strip("|").split("|")]
    assert len(cells) == 3 and cells[0] == "deb.debian.org"
    assert cells[1].startswith("stable-proposed-up") and cells[2].endswith("next point release")  # the overflow ends its word
    assert [table.number for table in read_back(workspace, report).tables] == ["2.2"]


def _rule(builder: PdfBuilder, x0: float, x1: float, width: float = 0.6) -> None:
    builder.y += 4
    builder.pdf.set_line_width(width)
    builder.pdf.line(x0, builder.y, x1, builder.y)


def test_a_booktabs_table_takes_its_centred_first_cell_and_wrapped_cells_into_one_row(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    pdf_builder_ = pdf_builder().page().heading("6 Headers").line("The number of super blocks is given by Table 6.5 for each format.")
    builder = pdf_builder_
    _rule(builder, 150, 420)
    builder.line("PF", x=160, bold=True).pdf.text(300, builder.y, "NSBS")
    _rule(builder, 150, 420, 0.4)
    builder.line("((FMBW + 1)//2) * ((FMBH + 1)//2)", x=230)
    builder.y += 6
    builder.pdf.set_font("Helvetica", "", 10)
    builder.pdf.text(162, builder.y, "0")  # centred between the two lines of its row
    builder.line("+ 2 * ((FMBW + 3)//4) * ((FMBH + 3)//4)", x=230)
    _rule(builder, 150, 420, 0.4)
    builder.line("3", x=162).pdf.text(230, builder.y, "3 * ((FMBW + 1)//2) * ((FMBH + 1)//2)")
    _rule(builder, 150, 420)
    builder.gap(14).line("Table 6.5: Number of Super Blocks for each Pixel Format", x=170)
    builder.gap(20).line("22. Assign NBS a value according to PF, as given by the table above.")
    pdf = builder.save(tmp_path / "booktabs.pdf")
    report = ingest(pdf, "TEST 121", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "Table 6.5: Number of Super Blocks for each Pixel Format\n| PF | NSBS |\n|---|---|\n" in text
    assert "| 0 | ((FMBW + 1)//2) * ((FMBH + 1)//2) + 2 * ((FMBW + 3)//4) * ((FMBH + 3)//4) |\n| 3 | 3 * " in text


def test_tables_side_by_side_stay_two_tables(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("B VP3").line("The Huffman tables of VP3 are listed on the pages of this appendix.")
    codes = [("b000", "20", "b000", "20"), ("b001", "19", "b0010", "11"), ("b01000", "7", "b0100", "12"), ("b0101", "13", "b011", "3")]
    top = builder.y
    for left in (72, 300):
        builder.y = top
        _rule(builder, left, left + 200)
        builder.line("Huffman Code", x=left + 4).pdf.text(left + 130, builder.y, "Token Value")
        _rule(builder, left, left + 200, 0.4)
        for row in codes:
            code, value = row[:2] if left == 72 else row[2:]
            builder.line(code, x=left + 4).pdf.text(left + 180, builder.y, value)
        _rule(builder, left, left + 200)
    builder.gap(30).line("The text goes on after both tables with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "side-by-side.pdf")
    report = ingest(pdf, "TEST 122", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert text.count("| Huffman Code | Token Value |\n|---|---|") == 2
    assert "| b000 | 20 |\n| b001 | 19 |\n| b01000 | 7 |\n| b0101 | 13 |" in text
    assert "| b000 | 20 |\n| b0010 | 11 |\n| b0100 | 12 |\n| b011 | 3 |" in text


def test_a_captioned_table_of_name_value_lines_becomes_two_columns(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("4 Color spaces").line("The parameters for the color transformations are given in Table 4.1.")
    builder.gap(20)
    for name, value in (("Kr", "0.299"), ("Kb", "0.114"), ("gamma", "2.2"), ("(Illuminant C) xw, yw", "0.310, 0.316")):
        builder.line(f"{name} = {value}", x=260 - 5.5 * len(name))
    builder.gap(20).line("Table 4.1: Rec. 470M Parameters", x=200)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "parameters.pdf")
    report = ingest(pdf, "TEST 123", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "Table 4.1: Rec. 470M Parameters\n|  |  |\n|---|---|\n| Kr | 0.299 |\n| Kb | 0.114 |" in text
    assert "| (Illuminant C) xw, yw | 0.310, 0.316 |" in text


def test_a_code_listing_in_columns_is_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("9 Disks").line("The volumes are listed by the lvscan command as follows.")
    builder.gap(6)
    for row in (("inactive", "'/dev/vg/root'", "[13.52 GiB]", "inherit"), ("ACTIVE", "'/dev/vg/swap'", "[640 MiB]", "inherit")):
        builder.y += 12
        builder.pdf.set_font("Courier", "", 9)
        for x, cell in zip((80, 160, 300, 400), row, strict=True):
            builder.pdf.text(x, builder.y, cell)
    builder.y += 12
    builder.pdf.text(80, builder.y, "ACTIVE")
    builder.pdf.text(160, builder.y, "'/dev/vg/home'")
    builder.pdf.text(300, builder.y, "[9.70 GiB]")
    builder.pdf.text(400, builder.y, "inherit")
    builder.gap(20).line("The text goes on after the listing with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "listing.pdf")
    report = ingest(pdf, "TEST 124", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "'/dev/vg/home'" in norm_text(workspace, report)  # kept as text


def test_a_long_ruled_table_goes_on_over_the_page_break_as_one_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # names without digits: a row repeated at the foot of every page would read as a running footer
    words = [a + b for a in ("KA", "LO", "MI", "NU", "PE", "RO", "SU") for b in ("BA", "DE", "FI", "GO", "HU", "JA", "KE")][:45]
    builder = pdf_builder().page().heading("7 Decode").line("Variables used:")
    for page, names in ((1, words[:39]), (2, words[39:])):
        if page == 2:
            builder.page()
        _rule(builder, 72, 500)
        builder.line("Name", x=80).pdf.text(200, builder.y, "Type")
        builder.pdf.text(300, builder.y, "Description")
        _rule(builder, 72, 500, 0.4)
        for name in names:
            builder.line(name, x=80).pdf.text(200, builder.y, "Integer")
            builder.pdf.text(300, builder.y, f"The value of {name.lower()}.")
        if page == 2:
            _rule(builder, 72, 500)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "long.pdf")
    report = ingest(pdf, "TEST 125", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert len(tables) == 1 and text.count("| Name | Type | Description |") == 1  # the repeated header is dropped
    assert (
        f"| {words[38]} | Integer | The value of {words[38].lower()}. |\n| {words[39]} | Integer | The value of {words[39].lower()}. |"
        in text
    )


def test_a_caption_number_is_never_cut_out_of_a_longer_number() -> None:
    assert TABLE_CAPTION.match("Table 7.46: Token values")
    assert not TABLE_CAPTION.match("Table 7.46 corresponding to MBMODES[mbi].")  # not `Table 7.` + `46 …`
    assert not TABLE_CAPTION.match("Tableau 11.2).")
    assert TABLE_CAPTION.match("Table 3. Huffman codes").group("num") == "3"


def test_rules_are_joined_and_cut_the_line_between_characters() -> None:
    # three pieces of one horizontal rule (a grid draws each cell's border) and one vertical rule
    flat, upright = rules_of([(72, 100, 160, 100.5), (160, 100, 200, 100.5), (200.5, 100, 400, 100.5), (159.8, 90, 160.3, 120)])
    assert [(round(x0), round(x1)) for x0, x1, _ in flat] == [(72, 400)]
    assert [round(x) for x, _, _ in upright] == [160]
    # "ab|cd ef": the rule at x=160 falls inside the word "abcd": the cut waits for the space
    boxes = [
        (150, 154, 100, 108),
        (154, 158, 100, 108),
        (158, 162, 100, 108),
        (162, 166, 100, 108),
        None,
        (170, 174, 100, 108),
        (174, 178, 100, 108),
    ]
    assert [cell[0] for cell in _cells("abcd ef", boxes, 10.0, upright)] == ["abcd", "ef"]
    assert [cell[0] for cell in _cells("abcd ef", boxes, 10.0, [])] == ["abcd ef"]


def _booktabs(builder: PdfBuilder, x0: float, x1: float, header: list[tuple[float, str]], rows: list[list[tuple[float, str]]]) -> None:
    """A booktabs table: top rule, header, middle rule, the rows with no rule between them, bottom rule."""
    _rule(builder, x0, x1)
    for x, text in header:
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(x, builder.y + 12, text)
    builder.y += 12
    _rule(builder, x0, x1, 0.4)
    for cells in rows:
        builder.y += 13
        builder.pdf.set_font("Helvetica", "", 10)
        for x, text in cells:
            builder.pdf.text(x, builder.y, text)
    _rule(builder, x0, x1)


def test_a_booktabs_table_without_rules_between_rows_keeps_sub_rows_wrapped_cells_and_its_header(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    builder = pdf_builder().page().heading("3 Features").line("The options of each feature are listed in Table 6.")
    builder.gap(10).line("Table 6: Options for the feature Contextuals", x=150)
    _booktabs(
        builder,
        140,
        470,
        [(145, "Feature"), (260, "Option"), (340, "Description")],
        [
            [(145, "Contextuals"), (260, "Swash"), (340, "swash forms at the start and")],
            [(340, "at the end of words")],  # a wrapped cell: the line above ran to the column's edge
            [(260, "Alternate"), (340, "alternate forms")],  # a sub-row under the spanning first cell
            [(260, "Inner"), (340, "medial forms")],
            [(145, "Kerning"), (260, "On"), (340, "kerning on")],
        ],
    )
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "booktabs-rows.pdf")
    report = ingest(pdf, "TEST 126", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "Table 6: Options for the feature Contextuals\n| Feature | Option | Description |\n|---|---|---|\n" in text
    assert "| Contextuals | Swash | swash forms at the start and at the end of words |\n" in text
    assert "|  | Alternate | alternate forms |\n|  | Inner | medial forms |\n| Kerning | On | kerning on |" in text


def test_a_caption_over_two_lines_is_one_caption_over_its_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("6 Latin").line("The spelling differs between the variants.")
    builder.gap(10).line("Table 4. Spelling differences between the Latin language variants.", x=110)
    builder.line("The capitalization of month names may be affected by an option.", x=130)
    builder.gap(6)
    _booktabs(
        builder,
        150,
        450,
        [(155, "classic"), (230, "medieval"), (305, "modern"), (380, "ecclesiastic")],
        [
            [(155, "Ianuarii"), (230, "Ianuarii"), (305, "Ianuarii"), (380, "ianuarii")],
            [(155, "Iulius"), (230, "IVLIVS"), (305, "Iulius"), (380, "iulius")],
        ],
    )
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "caption-lines.pdf")
    report = ingest(pdf, "TEST 127", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    caption = (
        "Table 4. Spelling differences between the Latin language variants. The capitalization of month names may be affected by an option."
    )
    assert (
        f"{caption}\n| classic | medieval | modern | ecclesiastic |\n|---|---|---|---|\n| Ianuarii | Ianuarii | Ianuarii | ianuarii |"
        in text
    )
    assert [table.number for table in read_back(workspace, report).tables] == ["4"]


def test_a_caption_beside_its_table_and_a_table_of_one_line(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("9 Lists").line("The file extensions are in Table 9.2, the arguments in Table 10.6.")
    builder.gap(10).line("Table 9.2: Values for X in the macros", x=180)
    _rule(builder, 220, 380)
    builder.line("toc lof lot", x=250)  # one line between two rules: a table because its caption says so
    _rule(builder, 220, 380)
    builder.gap(30)
    top = builder.y
    _booktabs(builder, 250, 480, [(255, "margin"), (360, "override")], [[(255, "left"), (360, "left")], [(255, "right"), (360, "right")]])
    builder.pdf.set_font("Helvetica", "", 10)
    builder.pdf.text(80, top + 14, "Table 10.6: Permitted")  # a side caption, level with the table's top
    builder.pdf.text(80, top + 27, "arguments")
    builder.gap(20).line("The text goes on after the tables with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "side.pdf")
    report = ingest(pdf, "TEST 128", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert sorted(table.number for table in read_back(workspace, report).tables) == ["10.6", "9.2"]
    assert "Table 9.2: Values for X in the macros\n|  |\n|---|\n| toc lof lot |" in text
    assert "Table 10.6: Permitted arguments\n| margin | override |\n|---|---|\n| left | left |\n| right | right |" in text


def test_a_glyph_chart_and_a_numbered_listing_are_not_tables(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("8 Font charts").line("The glyphs of the font are shown below.")
    hexes = "01234567"
    glyphs = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef"
    chart = [["", *hexes], *[[row, *glyphs[k * 8 : k * 8 + 8]] for k, row in enumerate(hexes[:4])]]
    _grid(builder, [80 + 30 * k for k in range(10)], chart)  # a ruled grid, one glyph a cell
    builder.gap(20).line("The macro is defined by the following code.")
    for number, code in (
        (461, "}%"),
        (462, "\\def\\tab@right{%"),
        (463, "    \\egroup%"),
        (464, "    \\m@th\\@arrayright$\\egroup%"),
        (465, "    \\spewnotes%"),
    ):
        builder.y += 11
        builder.pdf.set_font("Helvetica", "", 7)
        builder.pdf.text(80, builder.y, str(number))
        builder.pdf.set_font("Courier" if number % 2 else "Times", "", 9)  # the listing's font need not be named fixed-pitch
        builder.pdf.text(110 + (20 if code.startswith(" ") else 0), builder.y, code.strip())
    builder.gap(20).line("The text goes on after the listing with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "chart.pdf")
    report = ingest(pdf, "TEST 129", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "\\spewnotes%" in norm_text(workspace, report)  # kept as text


def test_an_example_framed_between_rules_is_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("6 Transformations").line("Example 17 shows the fake bold and slant.")
    _rule(builder, 140, 480)
    builder.line("Example 17: Artificial font transformations.", x=220)
    _rule(builder, 140, 480, 0.4)
    for left, code in (
        ("ABCxyz     ABCxyz", "\\fontspec{Quattrocento}[FakeSlant=0.2]"),
        ("ABCxyz     ABCxyz", "\\fontspec{Quattrocento}[FakeBold=1.5]"),
    ):
        builder.line(left, x=150).pdf.set_font("Courier", "", 9)
        builder.pdf.text(290, builder.y, code)
    builder.line("ABCxyz     ABCxyz", x=150)
    _rule(builder, 140, 480)
    builder.gap(20).line("The text goes on after the example with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "example.pdf")
    report = ingest(pdf, "TEST 130", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables


def test_side_by_side_lines_are_one_printed_row_and_a_justified_line_is_prose() -> None:
    def line(text: str, x0: float, x1: float, top: float, spans: list[tuple[str, float, float]] | None = None) -> Line:
        return Line(0, text, x0, x1, top, top - 8, 8.0, spans=spans or [(text, x0, x1)])

    rows = _printed_rows([line("Adlam", 145, 163, 435), line("Georgian", 244, 269, 435), line("Ahom", 145, 162, 427)])
    assert [[piece[0] for piece in row] for row in rows] == [["Adlam", "Georgian"], ["Ahom"]]
    words = ["the", "base", "package", "contains", "an", "authoritative", "list", "of", "the", "user", "and", "the", "group"]
    justified = [(word, 66 + 40 * k, 96 + 40 * k) for k, word in enumerate(words)]
    assert _spread_prose(justified)
    assert not _spread_prose(
        [(word, 66 + 40 * k, 96 + 40 * k) for k, word in enumerate(["\\Colonsim", "≐", "\\doteq", "⊸", "\\multimap"] * 2)]
    )


def test_a_line_whose_letters_advance_evenly_is_fixed_pitch(pdf_builder, tmp_path: Path) -> None:
    import pypdfium2 as pdfium

    builder = pdf_builder().page()
    builder.pdf.set_font("Courier", "", 10)
    builder.pdf.text(72, 100, "\\global\\tab@endheight\\z@%")
    builder.pdf.set_font("Helvetica", "", 10)
    builder.pdf.text(72, 130, "The standard positioning things, we just do")
    pdf = builder.save(tmp_path / "pitch.pdf")
    document = pdfium.PdfDocument(str(pdf))
    textpage = document[0].get_textpage()
    text = textpage.get_text_range()
    first, second = text.splitlines()[:2]
    assert _even_advances(textpage.raw, 0, first)
    assert not _even_advances(textpage.raw, text.index(second), second)
    document.close()


def test_terms_and_their_descriptions_in_two_columns_are_a_list_unless_a_header_labels_them(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    entries = [
        ("help", "view the manual of the program;"),
        ("erase", "erase the current picture and start again;"),
        ("quit", "exit the interactive mode of the program."),
    ]
    builder = pdf_builder().page().heading("10 Interactive mode").line("The following commands are supported:")
    builder.gap(6)
    for term, description in entries:
        builder.line(term, x=80).pdf.text(180, builder.y, description)
    builder.gap(14).line("And the same commands as a table:")
    builder.gap(6).line("Command", x=80).pdf.text(180, builder.y, "Description")
    for term, description in entries:
        builder.line(term, x=80).pdf.text(180, builder.y, description)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "terms.pdf")
    report = ingest(pdf, "TEST 131", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert len(read_back(workspace, report).tables) == 1
    assert "| Command | Description |\n|---|---|\n| help | view the manual of the program; |" in text


def test_a_long_table_that_repeats_its_header_on_the_next_page_is_one_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("5 Dimensions").line("The font dimensions are listed below.")
    for page, numbers in ((1, range(10, 16)), (2, range(16, 20))):
        if page == 2:
            builder.page()
        # a long table: every page has its top rule, the header again, and a bottom rule
        _booktabs(builder, 100, 450, [(105, "Number"), (200, "Name")], [[(105, str(n)), (200, f"Dimension{chr(65 + n)}")] for n in numbers])
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "longtable.pdf")
    report = ingest(pdf, "TEST 132", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert len(read_back(workspace, report).tables) == 1 and text.count("| Number | Name |") == 1
    assert "| 15 | DimensionP |\n| 16 | DimensionQ |" in text


def test_a_long_table_set_smaller_than_its_header_goes_on_under_the_header_repeated_with_other_widths(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    # page 1: no closing rule, the rows (8 pt, smaller than the 10 pt header) run to the foot of the page and
    # some descriptions wrap under their column; page 2: the header again word for word, its columns set
    # apart otherwise and its rules longer (each page's column widths fit its own cells), then the closing rule
    builder = pdf_builder().page().heading("1 Opening symbols").line("The symbols of this class are listed below.")
    pdf = builder.pdf
    number = 0
    for page, columns, last, right in ((1, (75, 150, 210, 320), 52, 480), (2, (75, 135, 230, 350), 60, 500)):
        if page == 2:
            builder.page()
        _rule(builder, 70, right)
        pdf.set_font("Helvetica", "", 10)
        for x, text in zip(columns, ("Code", "Glyph", "Macro", "Description"), strict=True):
            pdf.text(x, builder.y + 12, text)
        builder.y += 12
        _rule(builder, 70, right, 0.4)
        while number < last:
            number += 1
            builder.y += 12
            pdf.set_font("Helvetica", "", 8)
            for x, text in zip(
                columns, (f"u+{10000 + number}", "x", f"\\sym{chr(97 + number % 26)}", f"symbol number {number}"), strict=True
            ):
                pdf.text(x, builder.y, text)
            if number % 4 == 0:  # a description wrapped under its column
                builder.y += 9
                pdf.text(columns[3], builder.y, "bracket section")
    _rule(builder, 70, 500)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "symbols.pdf"), "TEST 152", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert len(read_back(workspace, report).tables) == 1 and text.count("Description |") == 1
    assert "symbol number 1 |" in text and "symbol number 60 |" in text


def test_a_row_of_glyphs_is_cells_not_a_justified_line_of_words() -> None:
    glyphs = [(glyph, 112 + 18 * k, 117 + 18 * k) for k, glyph in enumerate("𝛾𝛾𝛾𝛾𝛾𝛾𝛾")]
    assert not _spread_prose([("u+1d6fe", 68, 98), *glyphs, ("\\mitgamma", 236, 274), ("mathematical italic small", 305, 382)])
    assert not _spread_prose([(glyph, 60 + 20 * k, 66 + 20 * k) for k, glyph in enumerate("αβγδεζηθ")])


def test_ruled_grids_of_letters_through_the_alphabet_are_a_diagram_not_tables(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # a cipher's key: the letters A to I, then J. to R., in ruled three-by-three grids with no header of their own;
    # a grid of letter codes beside names (a legend) is still a table
    builder = pdf_builder().page().heading("1 The cipher").line("A grid is filled with the letters A to I and J to R.")
    builder.gap(10)
    _grid(builder, [100, 130, 160, 190], [["A", "B", "C"], ["D", "E", "F"], ["G", "H", "I"]])
    builder.gap(10)
    _grid(builder, [100, 130, 160, 190], [["J.", "K.", "L."], ["M.", "N.", "O."], ["P.", "Q.", "R."]])
    builder.gap(10).line("The letters are replaced by the edges of their box within the grid.")
    builder.gap(10)
    _grid(builder, [100, 160, 300], [["Code", "Meaning"], ["A", "accepted"], ["R", "rejected"]])
    builder.gap(20).line("The text goes on after the grids with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "cipher.pdf"), "TEST 153", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1 and "| Code | Meaning |" in tables[0].markdown


def test_a_booktabs_header_of_long_command_names_in_one_piece_heads_its_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # the header row is one run of fixed-pitch names a space apart, longer than a line of a cell is (60
    # characters), but five words: no sentence; the rows under the middle rule are cut into cells
    builder = pdf_builder().page().heading("3 Integrals").line("The upright variants of the integral signs are these.")
    builder.gap(10)
    _rule(builder, 80, 520)
    builder.pdf.set_font("Courier", "", 9)
    builder.pdf.text(82, builder.y + 12, "Command \\intclockwise \\awint \\varointclockwise \\ointctrclockwise")
    builder.y += 14
    _rule(builder, 80, 520, 0.4)
    for label in ("Default", "Upright"):
        builder.y += 16
        builder.pdf.set_font("Helvetica", "", 10)
        for x, text in zip((82, 190, 260, 360, 470), (label, "f1", "f2", "f3", "f4"), strict=True):
            builder.pdf.text(x, builder.y, text)
    builder.y += 4
    _rule(builder, 80, 520)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "integrals.pdf"), "TEST 154", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1 and "\\ointctrclockwise" in tables[0].markdown and "| Upright | f1 | f2 | f3 | f4 |" in tables[0].markdown


def test_a_font_chart_led_by_its_rows_code_labels_is_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # octal row labels (`´00x` … `´04x`) before six glyphs each with its code beside it (`A100`), hex labels
    # (`"0x`) at the right: a picture of a font; a register table whose first cells are hex numbers stays a table
    builder = pdf_builder().page().heading("A Font tables").line("The layout of the symbol font is shown here.")
    builder.gap(10)
    glyphs = "ABCDEFGHIJKLMNOPQRSTUVWXYZ!#$%&*+<=>?@[]"
    for row in range(5):
        builder.line(f"´0{row}x", x=80)
        for column in range(6):
            builder.pdf.text(115 + 32 * column, builder.y, f"{glyphs[6 * row + column]}{6 * row + column + 100}")
        builder.pdf.text(320, builder.y, f'"{row // 2}x')
    builder.gap(20).line("The registers of the device are set as follows, each at its address.")
    builder.gap(6)
    for address, name, value in (
        ("Address", "Register", "Reset"),
        ("0x10", "control", "0"),
        ("0x14", "status", "1"),
        ("0x18", "data", "0"),
    ):
        builder.line(address, x=80).pdf.text(200, builder.y, name)
        builder.pdf.text(330, builder.y, value)
    builder.gap(20).line("The text goes on after the tables with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "chart.pdf"), "TEST 155", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1 and "| 0x14 | status | 1 |" in tables[0].markdown


def test_entries_over_dot_leaders_are_a_list_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("B Command summary").line("The commands of the class, with the page that describes them.")
    builder.gap(6)
    for command, what, page in (
        ("\\booknumfont", "Font for the book number", "81"),
        ("\\chapnamefont", "Font for the chapter name", "86"),
        ("\\midbookskip", "Spacing in a book title", "81"),
    ):
        builder.line(command, x=80).pdf.text(160, builder.y, what + " . . . . . . . . . . . . . . . . . . . . .")
        builder.pdf.text(460, builder.y, page)
    builder.gap(20).line("The text goes on after the list with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "summary.pdf")
    report = ingest(pdf, "TEST 133", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables


def test_rules_under_every_row_make_each_band_one_row_however_its_cells_wrap(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # groff's `allbox` without the vertical rules: a rule over and under every row; the middle cell of the
    # last row wraps onto a second line wider than the first, which no column-edge test would join
    builder = pdf_builder().page().heading("5 Spacing").line("The minimum distances are given in Table 5 for each direction.")
    builder.gap(10).line("Table 5: Minimum distances of the fasteners", x=150)
    rows = [
        [(110, "Distance"), (200, "Direction to the grain"), (420, "Minimum")],
        [(110, "a1"), (200, "parallel"), (420, "5 d")],
        [(110, "a2"), (200, "perpendicular"), (420, "3 d")],
    ]
    for cells in rows:
        _rule(builder, 105, 500, 0.4)
        builder.y += 11
        builder.pdf.set_font("Helvetica", "", 10)
        for x, cell in cells:
            builder.pdf.text(x, builder.y, cell)
    _rule(builder, 105, 500, 0.4)
    builder.y += 11
    for x, cell in [(110, "a3"), (200, "loaded"), (420, "7 d")]:
        builder.pdf.text(x, builder.y, cell)
    builder.y += 12
    builder.pdf.text(200, builder.y, "end grain, also at tension joints outside")
    _rule(builder, 105, 500, 0.4)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "allbox.pdf")
    report = ingest(pdf, "TEST 131", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "Table 5: Minimum distances of the fasteners\n| Distance | Direction to the grain | Minimum |\n|---|---|---|\n" in text
    assert "| a2 | perpendicular | 3 d |\n| a3 | loaded end grain, also at tension joints outside | 7 d |\n" in text


def test_a_wrapped_first_cell_of_a_booktabs_row_stays_in_its_row(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # the first column is as wide as its widest cell; "Expansion anchor" would not fit on one line there
    builder = pdf_builder().page().heading("4 Anchors").line("The partial factors of each anchor are given in Table 4.")
    builder.gap(10).line("Table 4: Partial factors of the anchors", x=150)
    _booktabs(
        builder,
        140,
        470,
        [(145, "Anchor"), (260, "Steel"), (340, "Concrete")],
        [
            [(145, "Expansion"), (260, "1,25"), (340, "1,50")],
            [(145, "anchor")],  # the rest of the first cell: the next word did not fit after "Expansion"
            [(145, "Welded bracket"), (260, "1,10"), (340, "1,80")],
            [(145, "Bolt"), (260, "1,20"), (340, "1,60")],
            [(145, "Rivet")],  # one word, then a capitalised one alone: two entries
        ],
    )
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "booktabs-first.pdf")
    report = ingest(pdf, "TEST 132", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "| Anchor | Steel | Concrete |\n|---|---|---|\n| Expansion anchor | 1,25 | 1,50 |\n| Welded bracket | 1,10 | 1,80 |\n" in text
    assert "| Bolt | 1,20 | 1,60 |\n| Rivet |  |  |" in text


def test_a_wrapped_cell_goes_on_where_its_next_word_would_not_have_fitted(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # "angle, with" ends well short of the column's widest line, but "neighbouring" would not have fitted after it
    builder = pdf_builder().page().heading("7 Edges").line("The edge distances are given in Table 7 for each place.")
    builder.gap(10).line("Table 7: Edge distances of the anchors", x=150)
    _booktabs(
        builder,
        140,
        470,
        [(145, "Distance"), (260, "Place"), (400, "Minimum")],
        [
            [(145, "c1"), (260, "vertical edge"), (400, "5 d")],
            [(145, "c3"), (260, "angle, with"), (400, "10 d")],
            [(260, "neighbouring windows")],
            [(260, "and the door frames")],
            [(145, "c4"), (260, "corner"), (400, "8 d")],
        ],
    )
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "booktabs-wrap.pdf")
    report = ingest(pdf, "TEST 133", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "| c3 | angle, with neighbouring windows and the door frames | 10 d |\n| c4 | corner | 8 d |" in text


def test_a_heavy_rule_under_the_header_row_keeps_the_header_apart_from_the_first_row(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # asciidoctor-pdf's ruled tables: thin rules between rows and columns, a 2.5 pt bar under the header row
    builder = pdf_builder().page().heading("3 Classes").line("The strength classes are listed in Table 3 with their use.")
    builder.gap(10).line("Table 3: Strength classes", x=150).gap(6)
    pdf = builder.pdf
    columns, top, height = [72, 160, 250, 500], builder.y, 20
    rows = [
        ["Class", "Strength", "Use"],
        ["C16", "16", "secondary members"],
        ["C24", "24", "visible members"],
        ["C30", "30", "graded members"],
    ]
    pdf.set_line_width(0.5)
    pdf.set_font("Helvetica", "", 10)
    builder.grid(rows, columns, height=height, baseline=13, over=[0, *range(2, len(rows) + 1)]).gap(4)
    pdf.set_fill_color(0, 0, 0)
    pdf.rect(columns[0], top + height - 1.25, columns[-1] - columns[0], 2.5, style="F")  # the bar over the first row
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "heavy.pdf"), "TEST 134", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "Table 3: Strength classes\n| Class | Strength | Use |\n|---|---|---|\n| C16 | 16 | secondary members |\n" in text


def test_a_table_set_in_two_halves_under_one_caption_is_one_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # one table folded once: the same header over both halves, rows on one grid of baselines, some rows in one half only
    left = [["symup", "mathup"], ["symit", "mathit"], [], [], ["symbb", "mathbb"]]
    right = [[], [], ["symbfup", "mathbfup"], ["symbfit", "mathbfit"], ["symbfbb", "mathbfbb"]]
    builder = pdf_builder().page().heading("3 Commands").line("The new commands are listed in Table 1.")
    builder.gap(10).line("Table 1: New commands and the older commands they stand for, set in two halves side by side.", x=110)
    top = builder.y
    for x0, x1, rows in ((110, 280, left), (300, 470, right)):
        builder.y = top
        _booktabs(
            builder,
            x0,
            x1,
            [(x0 + 5, "Command"), (x0 + 90, "Synonym")],
            [[(x0 + 5, row[0]), (x0 + 90, row[1])] if row else [] for row in rows],
        )
    builder.page().heading("4 Sizes").line("The sizes of both kinds are listed in Tables 2 and 3.")
    top = builder.y + 10
    for x0, number in ((110, 2), (300, 3)):
        builder.y = top
        builder.line(f"Table {number}: Sizes of kind {number}", x=x0 + 10)
        _booktabs(
            builder, x0, x0 + 170, [(x0 + 5, "Name"), (x0 + 90, "Size")], [[(x0 + 5, f"n{number}{k}"), (x0 + 90, str(k))] for k in range(3)]
        )
    builder.gap(20).line("The text goes on after the tables with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "halves.pdf")
    report = ingest(pdf, "TEST 140", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [table.number for table in bundle.tables] == ["1", "2", "3"]
    text = norm_text(workspace, report)
    start = text.index("| Command |")
    expected = {
        "header": ["Command", "Synonym", "Command", "Synonym"],
        "rows": [[*a, *b] if a and b else [*a, "", ""] if a else ["", "", *b] for a, b in zip(left, right, strict=True)],
    }
    assert_table_matches(text[start : text.index("\n\n", start)], expected)
    for number in (2, 3):
        start = text.index(f"Table {number}:")
        assert_table_matches(
            text[text.index("| Name", start) : text.index("\n\n", text.index("| Name", start))],
            {"header": ["Name", "Size"], "rows": [[f"n{number}{k}", str(k)] for k in range(3)]},
        )


def test_an_example_caption_in_the_running_text_takes_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # a manual shows what its command prints: a caption alone, in prose with a margin note and a code line with a
    # wide gap in it (two lines cut into cells, but not into the same columns)
    builder = pdf_builder().page().heading("3 Captions outside floats")
    # the margin note and its paragraph's first line set a space apart (one line), then a margin note set apart
    builder.line("\\captionof Sometimes you want to typeset a caption outside a floating environment,", x=90)
    builder.line("\\captionof*", x=60).pdf.text(150, builder.y, "putting a figure within a minipage. For this the package offers the")
    builder.line("command", x=150)
    builder.gap(4).line("\\captionof{float type}{heading}", x=170).pdf.text(400, builder.y, ".")
    builder.gap(4).line("Note that the first argument is mandatory here, because the command needs to know", x=150)
    builder.line("which name to put into the caption label. An example:", x=150)
    builder.gap(4).line("\\captionof{table}{A table}", x=170)
    builder.gap(4).line("typesets captions like this:", x=150)
    builder.gap(4).line("Table 1: A table", x=280)
    builder.gap(8).line("The star variant has the same behaviour as the starred caption command.", x=150)
    pdf = builder.save(tmp_path / "example-caption.pdf")
    report = ingest(pdf, "TEST 141", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert "Table 1: A table" in text and "|" not in text


def test_rules_drawn_as_thin_images_rule_a_table_and_a_glyph_chart_in_blocks_is_none(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    png = tmp_path / "black.png"
    png.write_bytes(png_bytes(4, 4))
    builder = pdf_builder().page().heading("2 Column types").line("The column types are listed in Table 1.")
    # the second column is narrow: `stable-proposed` runs up to the next rule, only the rule tells the cells apart
    rows = [["Name", "Suite", "Meaning"], ["l", "stable-proposed", "Left aligned text"], ["c", "stable", "Centred text"]]
    _grid(builder, [150, 230, 306, 420], rows, rule_image=png)
    builder.gap(6).line("Table 1: Column types", x=230)
    # a font's chart ruled in blocks of four code points: the cells hold four glyphs each
    builder.gap(30).line("The glyphs of the font are shown below.")
    chart = [["", "0 1 2 3", "4 5 6 7", "8 9 A B", "C D E F", ""]]
    glyphs = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
    for k, label in enumerate(("0", "1", "2", "3")):
        used = 2 if k == 2 else 4  # a row of code points the font mostly leaves empty
        chart.append([label, *(" ".join(glyphs[(16 * k + 4 * b + j) % len(glyphs)] for j in range(used)) for b in range(4)), label])
    _grid(builder, [100, 120, 200, 280, 360, 440, 460], chart, rule_image=png)
    builder.gap(20).line("The text goes on after the chart with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "image-rules.pdf")
    report = ingest(pdf, "TEST 142", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert [table.number for table in tables] == ["1"]
    assert_table_matches(tables[0].markdown, {"header": rows[0], "rows": rows[1:]})


def test_a_caption_in_the_margin_at_the_head_of_each_page_is_a_caption_not_a_running_header(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    # `Table N:` alone in the margin, its title under it, level with the table's top: the first line of every page
    builder = pdf_builder()
    for number in (1, 2, 3):
        builder.page()
        builder.y = 60
        top = builder.y
        builder.line(f"Table {number}:", x=30, size=8)
        builder.gap(6).line(f"Font sets of kind {number}", x=30, size=8)
        builder.y = top - 10
        _booktabs(builder, 150, 450, [(155, "Set name"), (300, "Encoding")], [[(155, f"set{number}{k}"), (300, f"T{k}")] for k in range(3)])
        builder.gap(30).heading(f"{number} Section {number}")
        builder.line("The text of the section goes on with more words in it than any cell of the table holds.")
    pdf = builder.save(tmp_path / "margin-captions.pdf")
    report = ingest(pdf, "TEST 143", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert [table.number for table in tables] == ["1", "2", "3"]
    for number, table in enumerate(tables, start=1):
        assert_table_matches(table.markdown, {"header": ["Set name", "Encoding"], "rows": [[f"set{number}{k}", f"T{k}"] for k in range(3)]})


def test_a_table_going_on_over_the_page_without_its_header_is_joined_where_its_columns_start_again(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    # page 1 ends with the table; page 2 opens with its rows ruled anew (narrower rules, no header): same columns
    builder = pdf_builder(header="Opcodes of the machine").page().heading("9 Instructions").line("The instructions are listed below.")
    # names without digits: rows alike at the foot and head of the pages would read as running headers and footers
    names = [a + b for a in ("KA", "LO", "MI", "NU", "PE", "RO", "SU", "TA") for b in ("BA", "DE", "FI", "GO", "HU", "JA", "KE", "LI")][:60]
    rows = [[name, str(k % 3), f"Operation {name.lower()} of the machine."] for k, name in enumerate(names)]
    first, second = rows[:40], rows[40:]
    columns = [80, 200, 260]
    _booktabs(
        builder, 70, 520, [(80, "Mnemonic"), (200, "Args"), (260, "Description")], [list(zip(columns, row, strict=True)) for row in first]
    )
    builder.page()
    builder.y = 50
    _rule(builder, 70, 480)
    for row in second:
        builder.line(row[0], x=80).pdf.text(200, builder.y, row[1])
        builder.pdf.text(260, builder.y, row[2])
    _rule(builder, 70, 480)
    # then a table of its own: a header of words over columns of numbers, set where the rows above were
    builder.gap(30).line("The sizes follow.")
    _booktabs(
        builder, 70, 480, [(80, "Name"), (200, "Size"), (260, "Kind")], [[(80, f"n{k}"), (200, str(k)), (260, "word")] for k in range(3)]
    )
    builder.gap(20).line("The text goes on after the tables with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "continued.pdf")
    report = ingest(pdf, "TEST 144", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 2
    assert_table_matches(tables[0].markdown, {"header": ["Mnemonic", "Args", "Description"], "rows": rows})
    assert_table_matches(tables[1].markdown, {"header": ["Name", "Size", "Kind"], "rows": [[f"n{k}", str(k), "word"] for k in range(3)]})
    # a table of its own opening the next page, where the rows would go on: its first row is a header, not data
    builder = pdf_builder(header="Opcodes of the machine").page().heading("9 Instructions").line("The instructions are listed below.")
    _booktabs(
        builder, 70, 520, [(80, "Mnemonic"), (200, "Args"), (260, "Description")], [list(zip(columns, row, strict=True)) for row in first]
    )
    builder.page()
    builder.y = 50
    _booktabs(
        builder, 70, 480, [(80, "Name"), (200, "Size"), (260, "Kind")], [[(80, f"n{k}"), (200, str(k)), (260, "word")] for k in range(3)]
    )
    builder.gap(20).line("The text goes on after the tables with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "two.pdf"), "TEST 145", "1", workspace=workspace, language="en")
    assert len(read_back(workspace, report).tables) == 2


def test_header_cells_set_closer_than_a_gap_are_cut_where_the_columns_below_start(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # pandoc's LaTeX tables: `Festigkeitsklasse` and `fm,k in N/mm2` printed as one run of text over two columns
    builder = pdf_builder().page().heading("3 Baustoffe").line("Die Festigkeitsklassen stehen in Tabelle 1.")
    builder.gap(10).line("Tabelle 1: Festigkeitskennwerte von Vollholz", x=200)
    pdf = builder.pdf
    pdf.set_font("Helvetica", "", 10)
    second = 75 + pdf.get_string_width("Festigkeitsklasse ")
    third = second + pdf.get_string_width("fm,k in N/mm2") + 14
    fourth = third + pdf.get_string_width("rho in kg/m3") + 20
    _rule(builder, 70, 520)
    builder.pdf.text(75, builder.y + 12, "Festigkeitsklasse fm,k in N/mm2")
    builder.pdf.text(third, builder.y + 12, "rho in kg/m3")
    builder.pdf.text(fourth, builder.y + 12, "Bemerkung")
    builder.y += 12
    _rule(builder, 70, 520, 0.4)
    rows = [["C16", "16", "310", "untergeordnete Bauteile"], ["C24", "24", "350", "Hochbau"], ["C30", "30", "380", "sortiert"]]
    for row in rows:
        builder.y += 13
        for x, text in zip((75, second, third, fourth), row, strict=True):
            builder.pdf.text(x, builder.y, text)
    _rule(builder, 70, 520)
    builder.gap(20).line("Der Text geht nach der Tabelle weiter, mit mehr Wörtern als eine Zelle enthält.")
    report = ingest(builder.save(tmp_path / "pandoc-header.pdf"), "TEST 146", "1", workspace=workspace, language="de")
    tables = read_back(workspace, report).tables
    assert [table.number for table in tables] == ["1"]
    assert_table_matches(tables[0].markdown, {"header": ["Festigkeitsklasse", "fm,k in N/mm2", "rho in kg/m3", "Bemerkung"], "rows": rows})


def test_a_caption_over_sub_tables_takes_the_first_of_them(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # subfig: `Table 6: …` centred over two tables, each under a sub-caption `(a) …`, `(b) …` of its own
    builder = pdf_builder().page().heading("4 Results").line("The results are shown in Table 6.")
    builder.gap(10).line("Table 6: Results in two tables.", x=230)
    builder.gap(4)
    top = builder.y
    for x0, label in ((80, "(a) First table of results."), (310, "(b) Second table of results, with a long")):
        builder.y = top
        builder.line(label, x=x0 + 10, size=8)
        if x0 == 310:
            builder.line("caption over two lines.", x=x0 + 10, size=8)
        builder.y = top + 40
        _booktabs(
            builder,
            x0,
            x0 + 200,
            [(x0 + 5, "Result type"), (x0 + 120, "Value")],
            [[(x0 + 5, f"type {k}"), (x0 + 120, f"{k}.5")] for k in range(3)],
        )
    builder.gap(20).line("The text goes on after the tables with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "subtables.pdf"), "TEST 147", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert [table.number for table in tables] == ["6", None]
    for table in tables:
        assert_table_matches(table.markdown, {"header": ["Result type", "Value"], "rows": [[f"type {k}", f"{k}.5"] for k in range(3)]})


def test_assignments_aligned_inside_a_listing_are_code_not_a_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # the listing's font is told only on some lines: code around the aligned lines says what they are
    builder = pdf_builder().page().heading("4 Font sets").line("A font set is declared as follows:")
    listing = [
        ("Courier", 80, "\\DeclareMicrotypeSet{basictext}", None),
        ("Courier", 90, "{ encoding = {OT1,T1,T2A,LY1},", None),
        ("Times", 100, "family", "= {rm*,sf*},"),
        ("Times", 100, "series", "= {md*},"),
        ("Courier", 100, "size", "= {normalsize,footnotesize,small},"),
        ("Times", 90, "}", None),
    ]
    for font, x, text, value in listing:
        builder.y += 11
        builder.pdf.set_font(font, "", 9)
        builder.pdf.text(x, builder.y, text)
        if value:
            builder.pdf.text(150, builder.y, value)
    builder.gap(12).line("The text goes on after the listing with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "listing.pdf"), "TEST 148", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "= {md*}," in norm_text(workspace, report)


def test_prose_numbered_in_the_right_margin_and_definition_lines_are_not_tables(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("5 Line numbers")
    # lineno: every line of the paragraph carries its number at the right margin
    for number, text in enumerate(
        [
            "Give a number only to lines which are multiples of the number given.",
            "If the number is not specified, the current value of the counter is kept;",
            "a value of one turns this off without changing the counter at all. The",
            "counter starts at five, so that every fifth line gets its number printed.",
        ],
        start=4,
    ):
        builder.line(text, x=72).pdf.text(500, builder.y, str(number))
    builder.gap(20)
    # Texinfo: each entry's signature, its category in brackets at the right margin
    for signature, category in (
        ("Array2<T> (int n, int m)", "[Constructor]"),
        ("Array2<T> (int n, int m, const T &val)", "[Constructor]"),
        ("Array2<T> (const Array2<T> &a)", "[Constructor]"),
        ("void resize (int n, int m)", "[Method on Array2<T>]"),
    ):
        builder.line(signature, x=90).pdf.text(420, builder.y, category)
    builder.gap(12).line("The text goes on after the entries with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "numbered.pdf"), "TEST 149", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables


def test_a_table_ruling_off_its_title_and_header_keeps_its_unruled_body_rows_apart(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # gnuplot's function tables: a rule under the title, one under the header, none between the body rows
    builder = pdf_builder().page().heading("3 Functions").line("The string functions are listed below.")
    _rule(builder, 90, 500)
    builder.line("String functions", x=220)
    _rule(builder, 90, 500, 0.4)
    builder.line("Function", x=100).pdf.text(240, builder.y, "Arguments")
    builder.pdf.text(330, builder.y, "Returns")
    _rule(builder, 90, 500, 0.4)
    rows = [
        ["strlen(s)", "string", "number of characters"],
        ["substr(s,b,e)", "multiple", "the part of s from b to e"],
        ["trim(s)", "string", "s without spaces"],
    ]
    for row in rows:
        builder.line(row[0], x=100).pdf.text(240, builder.y, row[1])
        builder.pdf.text(330, builder.y, row[2])
    _rule(builder, 90, 500)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "functions.pdf"), "TEST 150", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1
    assert pipe_rows(tables[0].markdown)[-3:] == rows


def test_printed_contents_without_leaders_is_no_table_even_in_two_columns(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder(first_page_number=1).page().line("The columns package", x=230, size=16).gap(10)
    for text in (
        "This package sets the table of contents, the list of figures and the list of tables in two",
        "or more columns. The number of columns can be configured with commands, and the contents",
        "set in columns can be chosen with package options when the package is loaded.",
    ):
        builder.line(text, x=90, size=9)
    builder.gap(10).line("Contents", x=72, size=14, bold=True).gap(4)
    top = builder.y
    # two columns of entries, each title with its page at the column's right edge, no leaders
    for left, right, entries in (
        (72, 280, [("1 Introduction", "1"), ("2 Parameters", "2"), ("3 Options", "2"), ("4 Required packages", "3")]),
        (310, 520, [("5 The Implementation", "3"), ("5.1 The parameters", "3"), ("5.2 Initial code", "4"), ("5.3 The options", "5")]),
    ):
        builder.y = top
        for title, page in entries:
            if left == 72:
                builder.line(title, x=left, bold="." not in title.split()[0])
            else:  # the number set in a box of its own, the title after a gap
                number, words = title.split(" ", 1)
                builder.line(number, x=left).pdf.text(left + 40, builder.y, words)
            builder.pdf.text(right - builder.pdf.get_string_width(page), builder.y, page)
    builder.gap(20).heading("1 Introduction")
    for text in (
        "When you want to set only the table of contents of a document in two or more columns, there",
        "is one known way: add the command that opens the columns to the contents file before the",
        "contents are read, and the command that closes them after it, by hand in every document.",
        "That works, but it must be done again in every document and it cannot be switched off",
        "without editing the document; the lists of figures and tables need the same treatment,",
        "and the number of columns is fixed where the command is written, not where it is used.",
        "This package does it once for all of them: the contents, the list of figures and the list",
        "of tables are each set in as many columns as the options ask for, and in one column when",
        "no option asks for more, so that a document can be switched back and forth at will.",
    ):
        builder.line(text)
    builder.page().heading("2 Parameters").line("The widths of the three kinds of column rules are given in points, one a line:")
    builder.gap(6)
    for size, bits in (("Rule", "Width"), ("Thin rule", "16"), ("Medium rule", "32"), ("Thick rule", "64"), ("Heavy rule", "128")):
        builder.line(size, x=100, bold=size == "Rule")
        builder.pdf.text(300, builder.y, bits)
    builder.gap(12).line("The text goes on after the table with more words in it than any cell holds.")
    for number, title in ((3, "Required packages"), (4, "Initial code"), (5, "The options")):
        builder.page().heading(f"{number} {title}").line("The text of the section, long enough to be a paragraph of its own.")
    report = ingest(builder.save(tmp_path / "contents.pdf"), "TEST 151", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    # the widths run past the document's last page: a table of data, the only one
    assert [pipe_rows(table.markdown)[-1] for table in tables] == [["Heavy rule", "128"]]
    assert "The parameters" in norm_text(workspace, report)


def _subscripted(builder: PdfBuilder, x: float, base: str, script: str) -> None:
    """A letter with its subscript, set as a typesetter sets it: smaller and lowered."""
    builder.pdf.set_font("Times", "I", 10)
    builder.pdf.text(x, builder.y, base)
    builder.pdf.set_font("Times", "", 7)
    builder.pdf.text(x + builder.pdf.get_string_width(base) + 1.5, builder.y + 2, script)


def test_a_typeset_math_array_and_aligned_equations_are_not_tables(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("6 Arrays").line("An array with labelled rows is typeset like this:").gap(6)
    for row in range(2, 6):
        builder.line(f"row {row}", x=150)
        for column, x in ((2, 230), (3, 300), (4, 370)):
            _subscripted(builder, x, "a", f"{row}{column}")
    builder.gap(14).line("and a system of equations aligned on its signs:").gap(6)
    for row in range(1, 4):
        builder.line("", x=150)
        _subscripted(builder, 200, "x", f"{row}1")
        builder.pdf.set_font("Times", "", 10)
        builder.pdf.text(220, builder.y, "+")
        _subscripted(builder, 260, "x", f"{row}2")
        builder.pdf.set_font("Times", "", 10)
        builder.pdf.text(300, builder.y, "=")
        _subscripted(builder, 340, "b", f"{row}")
    builder.gap(20).line("The text goes on after the formulas with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "arrays.pdf"), "TEST 152", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    text = norm_text(workspace, report)
    assert "a₃₄" in text and "x₂₂" in text  # kept as text, scripts and all


def test_a_boxed_list_with_its_marked_item_hanging_its_bullet_is_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("6 A form").line("The form asks which reports to search:").gap(10)
    pdf, top, items = builder.pdf, builder.y, ["AMS LaTeX", "Babel", "Graphics and colour", "LaTeX", "Metafont fonts", "Tools"]
    bottom = top + 16 + 12 * len(items) + 4
    pdf.set_line_width(0.5)
    for y in (top, top + 16, bottom):  # a select list: framed, its title ruled off
        pdf.line(160, y, 270, y)
    for x in (160, 270):
        pdf.line(x, top, x, bottom)
    pdf.set_font("Times", "", 10)
    pdf.text(166, top + 12, "category")
    for k, item in enumerate(items):
        pdf.text(174, top + 28 + 12 * k, item)
        if item == "Metafont fonts":  # the selected item: its bullet hangs out before it
            pdf.set_font("Symbol", "", 10)
            pdf.text(166, top + 28 + 12 * k, "\xb7")  # the bullet in the Symbol font's encoding
            pdf.set_font("Times", "", 10)
    builder.y = bottom + 4
    builder.gap(20).line("The text goes on after the form with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "form.pdf"), "TEST 153", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "Graphics and colour" in norm_text(workspace, report)


def test_option_values_with_prose_descriptions_and_a_margin_note_are_a_list(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("2 Options").line("There are two standard caption formats:", x=145).gap(6)
    builder.line("plain", x=155).pdf.text(231, builder.y, "Typesets the captions as a normal paragraph.")
    builder.pdf.set_font("Helvetica", "", 8)
    builder.pdf.text(80, builder.y, "New description")  # a margin note beside the entry
    builder.pdf.text(116, builder.y + 10, "v3.0h")
    builder.gap(6).line("hang", x=155).pdf.text(231, builder.y, "Indents the caption text, so it will hang under the first line of the")
    builder.line("text.", x=231)
    builder.gap(6).line("...", x=155).pdf.text(231, builder.y, "Own formats can be defined using the declaration command.")
    builder.gap(12).line("An example: specifying the option yields captions like the figures below show.", x=145)
    report = ingest(builder.save(tmp_path / "options.pdf"), "TEST 154", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "Typesets the captions as a normal paragraph." in norm_text(workspace, report)


def test_unnumbered_contents_entries_are_no_table_but_numbers_beside_names_are(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder(first_page_number=1).page().line("A short guide", x=240, size=16).gap(10)
    for text in (
        "This guide shows how to write a first document, how to set its tables and figures, and how",
        "to find what it names again. It is short on purpose: each part can be read on its own, and",
        "the parts refer to one another only where the reader needs to look something up.",
    ):
        builder.line(text, x=90, size=9)
    builder.gap(10)
    for title, page in (
        ("Getting started", "2"),
        ("Writing the first page", "2"),
        ("Tables and figures", "4"),
        ("Finding things again", "6"),
    ):
        builder.line(title, x=72)
        builder.pdf.text(520 - builder.pdf.get_string_width(page), builder.y, page)
    builder.gap(20).heading("Getting started")
    for text in (
        "A document starts with its class and the packages it loads, then its text. The class sets the",
        "sizes of the text and of the headings, and the packages add what the class lacks; the text",
        "comes last, in the order it is read, with its headings, paragraphs, lists and tables.",
        "The guide keeps every example short, so that it fits on the page beside its explanation and",
        "can be copied into a file of its own and tried there, one step at a time, as the parts go.",
    ):
        builder.line(text)
    builder.page().heading("Writing the first page").line("The commands used in the examples take these numbers of options:").gap(6)
    for command, value in (("Command", "Options"), ("ls", "2"), ("cp", "3"), ("mv", "5"), ("rm", "6")):
        builder.line(command, x=100, bold=command == "Command")
        builder.pdf.text(300, builder.y, value)
    builder.gap(12).line("The text goes on after the table with more words in it than any cell holds.")
    for title in ("More on pages", "Tables and figures", "More on floats", "Finding things again"):
        builder.page().heading(title).line("The text of the part, long enough to be a paragraph of its own.")
    report = ingest(builder.save(tmp_path / "guide.pdf"), "TEST 155", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    # numbers in the document's range beside names that are no titles: data, the only table
    assert [pipe_rows(table.markdown)[-1] for table in tables] == [["rm", "6"]]
    assert "Finding things again" in norm_text(workspace, report)


def test_the_last_entries_of_a_contents_with_an_unnumbered_part_among_them_are_no_table() -> None:
    """The end of a printed contents on the page after its title (so not a contents page): numbered chapters and
    one part without a number (`References`) between them, with their pages, rising."""
    page = Page(index=1, width=595, height=842, lines=[], printed=2, label="2")
    entries = [
        ["9. Plain TeX", "16"],
        ["10. Compatibility with older versions", "17"],
        ["References", "17"],
        ["11. The Spanish language", "18"],
    ]
    assert _contents_entries(entries, page, 22)
    # two entries without a number among four: a list of named items and their pages, left a table
    assert not _contents_entries(
        [["9. Plain TeX", "16"], ["Bolts and nuts", "17"], ["References", "17"], ["11. The Spanish language", "18"]], page, 22
    )


def test_a_page_of_rules_without_text_is_no_table_and_no_failure(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A first page that draws an empty ruled grid (a form, or a title page whose words are outlines) has rules
    but no line of text: the tables are looked for on it without failing, and none is found there."""
    builder = pdf_builder().page()
    _grid(builder, [72, 200, 330, 460], [["", "", ""], ["", "", ""], ["", "", ""]])
    builder.page().heading("1 Scope").line("The rules apply to the whole building.")
    report = ingest(builder.save(tmp_path / "empty-grid.pdf"), "TEST 420", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert "The rules apply to the whole building." in text and "|---|" not in text


def test_code_whose_wide_spaces_fall_inside_brackets_is_no_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("9 Protrusion settings").line("The settings of the letters, font by font:").gap(6)
    for guard, code, close in (
        ("<cmr>", "R = {50,", "},"),
        ("<ebg>", "S = {20,", "},"),
        ("<pmn>", "T = {70,", "},"),
        ("<ppl>", "U = {100,50},", ""),
    ):
        # a documented source set in a proportional font: the space kept inside the braces is a wide gap
        builder.line(guard, x=100, size=8).pdf.text(150, builder.y, code)
        builder.pdf.text(200, builder.y, close)
    builder.gap(14).line("The text goes on after the code with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "code.pdf"), "TEST 156", "1", workspace=workspace, language="en")
    assert not read_back(workspace, report).tables
    assert "R = {50," in norm_text(workspace, report)


def test_a_note_between_a_caption_and_its_rows_stays_text_and_the_rows_are_its_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("3 Symbols").line("Some symbols are printed in text as well as in formulas.")
    builder.gap(16).line("Table 3.10: Symbols outside mathematics.", x=200)
    builder.gap(10).line("These symbols can be used in text mode too.", x=110)
    builder.gap(6)
    rows = [("section", "§", "pilcrow", "¶"), ("pound", "£", "copyright", "©"), ("degree", "°", "micro", "µ")]
    for row in rows:
        builder.y += 15
        builder.pdf.set_font("Helvetica", "", 10)
        for x, cell in zip((130, 220, 300, 390), row, strict=True):
            builder.pdf.text(x, builder.y, cell)
    builder.gap(24).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "caption-note.pdf")
    report = ingest(pdf, "TEST 941", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert [table.number for table in tables] == ["3.10"]
    text = norm_text(workspace, report)
    for row in rows:
        assert "| " + " | ".join(row) + " |" in text
    assert "These symbols can be used in text mode too." in text
    assert "| These symbols" not in text


def test_a_caption_over_one_line_cut_into_cells_takes_it_as_a_table_of_one_row(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    builder = pdf_builder().page().heading("3 Symbols").line("The last symbols of the list are few enough to fit on one row.")
    builder.gap(16).line("Table 3.12: Letters with a command of their own.", x=200)
    builder.gap(6)
    row = ("ß", "\\ss", "æ", "\\ae", "ø", "\\o")
    builder.y += 15
    builder.pdf.set_font("Helvetica", "", 10)
    for x, cell in zip((110, 140, 220, 250, 330, 360), row, strict=True):
        builder.pdf.text(x, builder.y, cell)
    builder.gap(24).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "caption-one-row.pdf")
    report = ingest(pdf, "TEST 942", "1", workspace=workspace, language="en")
    assert [table.number for table in read_back(workspace, report).tables] == ["3.12"]
    assert "| " + " | ".join(row) + " |" in norm_text(workspace, report)


def test_a_captioned_list_of_terms_between_two_rules_is_a_table_of_terms_and_descriptions(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    builder = pdf_builder().page().heading("1 Classes").line("The classes of documents are listed in Table 1.1.")
    builder.gap(16).line("Table 1.1: Document classes.", x=200)
    builder.gap(4)
    _rule(builder, 72, 460)
    builder.gap(2)
    entries = [
        ("doc", ["Lets you write the documentation of a program", "next to its code."]),
        ("exscale", ["Scales the mathematics extension font."]),
        (
            "makeidx",
            ["Gives the commands to print an index, as the", "chapter on indexes tells, with all the words", "the reader looks up."],
        ),
    ]
    for term, lines in entries:
        builder.line(f"{term} {lines[0]}")
        for more in lines[1:]:
            builder.line(more, x=100)
        builder.gap(4)
    _rule(builder, 72, 460)
    builder.gap(24).line("The text goes on after the table with more words in it than any cell holds.")
    pdf = builder.save(tmp_path / "caption-terms.pdf")
    report = ingest(pdf, "TEST 943", "1", workspace=workspace, language="en")
    assert [table.number for table in read_back(workspace, report).tables] == ["1.1"]
    text = norm_text(workspace, report)
    for term, lines in entries:
        assert f"| {term} | {' '.join(lines)} |" in text


def test_a_grid_closed_on_each_page_under_its_repeated_header_is_one_table_whatever_its_widths(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    # a long grid set page by page: each page's part is boxed (a rule at its foot), its header row again word for
    # word, and its columns as wide as that page's cells need, so its inner rules stand elsewhere on each page
    names = [a + b for a in ("KA", "LO", "MI", "NU", "PE", "RO") for b in ("BA", "DE", "FI", "GO", "HU", "JA", "KE")]
    builder = pdf_builder().page().heading("4 Groups").line("The groups and their generators are listed below.")
    for page, columns, part in ((1, [100, 160, 260, 420], names[:20]), (2, [100, 175, 240, 380], names[20:])):
        if page == 2:
            builder.page()
        rows = [["Number", "Symbol", "Generators"], *[[str(k + 1), name, f"{name.lower()} gen"] for k, name in enumerate(part)]]
        _grid(builder, columns, rows)
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "groups.pdf"), "TEST 160", "1", workspace=workspace, language="en")
    text = norm_text(workspace, report)
    assert len(read_back(workspace, report).tables) == 1 and text.count("| Number | Symbol | Generators |") == 1
    assert f"| {names[19]} | {names[19].lower()} gen |" in text and f"| {names[20]} | {names[20].lower()} gen |" in text


def test_a_grid_going_on_under_a_label_row_of_its_own_is_one_table() -> None:
    # the grid of page 1 goes on at the top of page 2 inside its frame, under the label of its next group of rows
    # (`Imports`, spanning the columns): the label is the table's own, not text between two tables
    def line(page: int, y: float, cells: list[tuple[float, str]]) -> Line:
        spans = [(text, x, x + 6 * len(text)) for x, text in cells]
        return Line(
            page, " ".join(text for _, text in cells), spans[0][1], spans[-1][2], y + 9, y, 10.0, 0, [c for c, _, _ in spans], spans
        )

    stream = [line(0, 700 - 14 * k, [(89, f"name{k}"), (203, f"Tools for the data of {k}")]) for k in range(3)]
    stream += [line(1, 722, [(89, "Imports")])]
    stream += [line(1, 708 - 14 * k, [(89, f"name{k + 3}"), (203, f"Tools for the data of {k + 3}")]) for k in range(3)]
    rows = [[line.cells[0], line.cells[1]] for line in stream if len(line.cells) == 2]
    first = Table(None, [0, 1, 2], rows[:3], False, 82, 521, ruled=True, walls=(114.4,), starts=(197.0,), extent=(640.0, 733.0))
    then = Table(None, [4, 5, 6], rows[3:], False, 82, 521, ruled=True, walls=(114.4,), starts=(197.0,), extent=(650.0, 733.0))
    joined = _join_page_breaks([first, then], stream, {0: [0, 1, 2], 1: [3, 4, 5, 6]}, {0, 1, 2, 4, 5, 6})
    assert len(joined) == 1 and len(joined[0].rows) == 6
    outside = Table(None, [4, 5, 6], rows[3:], False, 82, 521, ruled=True, walls=(114.4,), starts=(197.0,), extent=(650.0, 719.0))
    assert len(_join_page_breaks([first, outside], stream, {0: [0, 1, 2], 1: [3, 4, 5, 6]}, {0, 1, 2, 4, 5, 6})) == 2  # text above it


def test_a_ruled_row_whose_cells_are_set_close_stays_in_its_table(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    # a rule under every row, no vertical rule; one row's name is so long that its description follows it closer
    # than a gap, the row in one piece: still a row of the table, which goes on under it
    builder = pdf_builder().page().heading("4 Return codes").line("Each function returns one of these codes:")
    pdf = builder.pdf
    top = builder.y + 10
    codes = [
        ("0 LU_OK", "The function was successfully executed."),
        ("-1 LU_OUT_OF_MEMORY", "out of memory"),
        ("-2 LU_SINGULAR", "The input matrix is exactly singular."),
        ("-3 LU_INCORRECT_INPUT_VALUE", "One or more input arguments are incorrect."),
        ("-4 LU_INCORRECT", "The solution is incorrect."),
        ("-5 LU_PANIC", "LU environment error"),
    ]
    pdf.set_line_width(0.5)
    for k in range(len(codes) + 1):
        pdf.line(109, top + 15 * k, 503, top + 15 * k)
    for k, (name, description) in enumerate(codes):
        pdf.set_font("Courier", "", 9)
        pdf.text(116, top + 15 * k + 11, name)
        pdf.set_font("Helvetica", "", 9)
        pdf.text(116 + 5.4 * len(name) + 7 if k == 3 else 273, top + 15 * k + 11, description)
    builder.y = top + 15 * len(codes) + 10
    builder.gap(20).line("The text goes on after the table with more words in it than any cell holds.")
    report = ingest(builder.save(tmp_path / "codes.pdf"), "TEST 163", "1", workspace=workspace, language="en")
    tables = read_back(workspace, report).tables
    assert len(tables) == 1 and "-5 LU_PANIC" in tables[0].markdown and "-1 LU_OUT_OF_MEMORY" in tables[0].markdown
