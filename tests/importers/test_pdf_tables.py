"""PDF tables read from their rules and on their captions, on small PDFs made by the tests: grids whose text
runs into the next cell, booktabs tables with a centred first cell, side-by-side tables, `name = value`
tables, tables cut by a page break, and code listings that are not tables."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import PdfBuilder, norm_text, read_back

from normcli.importers import ingest
from normcli.importers.common import TABLE_CAPTION
from normcli.importers.pdf_pages import _cells, rules_of


def _grid(builder: PdfBuilder, columns: list[float], rows: list[list[str]], height: float = 16) -> None:
    """A ruled grid: a rule over and under every row and between the columns; the text set flush against
    the rule on its left, so that a cell and its neighbour are only a space apart."""
    pdf = builder.pdf
    top = builder.y + 6
    right = columns[-1]
    pdf.set_line_width(0.5)
    for k in range(len(rows) + 1):
        pdf.line(columns[0], top + k * height, right, top + k * height)
    for x in columns:
        pdf.line(x, top, x, top + len(rows) * height)
    for k, cells in enumerate(rows):
        pdf.set_font("Helvetica", "B" if k == 0 else "", 10)
        for x, text in zip(columns, cells, strict=False):
            pdf.text(x + 1.5, top + k * height + 11, text)
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
