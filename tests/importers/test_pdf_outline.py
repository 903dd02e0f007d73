"""Bookmarks placed on their page: headings that open page after page in the same place, numbers set oddly on the
heading's line, bookmark titles that hold code, anchors left at the foot of the page before the heading."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import PdfBuilder, norm_text, read_back

from normcli.importers import ingest
from normcli.importers.pdf_pages import utf8_misread

BODY = "The text of this clause goes on over a full line of words like the body of a manual."


def _nodes(pdf: Path, workspace: Path, language: str = "en") -> list[tuple[str, str, int]]:
    report = ingest(pdf, "TEST 170", "1", workspace=workspace, language=language)
    return [(node.path, node.title, node.page_start) for node in read_back(workspace, report).nodes]


def test_headings_that_open_page_after_page_in_the_same_place_are_no_running_header(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A change log whose entries (`9.1.2. Release 2004`, in the body size) each open a page under the running header:
    the same line, numbers aside, at the top of every page, as a running header would be; the bookmarks pointing
    there make them headings."""
    builder: PdfBuilder = pdf_builder()
    builder.page().bookmarked(["9 History"], "History", 0).line(BODY).line(BODY)
    builder.bookmarked(["9.1.1. Release 2003"], "Release 2003", 1, size=10).line(BODY)
    for number in range(2, 6):
        builder.page()
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72, 40, f"9 HISTORY {number + 30}")  # the running header, page furniture
        builder.y = 50.0
        builder.bookmarked([f"9.1.{number}. Release {2001 + number}"], f"Release {2001 + number}", 1, size=10)
        for _ in range(4):
            builder.line(BODY)
    nodes = _nodes(builder.save(tmp_path / "log.pdf"), workspace)
    assert [(path, title) for path, title, _ in nodes] == [
        ("9", "History"),
        ("9.1.1", "Release 2003"),
        *[(f"9.1.{number}", f"Release {2001 + number}") for number in range(2, 6)],
    ]
    assert [page for *_, page in nodes] == [1, 1, 2, 3, 4, 5]
    assert "HISTORY" not in norm_text(workspace, ingest(tmp_path / "log.pdf", "TEST 171", "1", workspace=workspace, language="en"))


def test_a_number_set_with_a_space_after_its_stop_continues_its_parents(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`2. 1 Création d'une grille` under the bookmark of `2 Les commandes` is the section 2.1 (not a clause 1 after a
    line number `2.`); `0.1 Scope`, a section numbered from a chapter 0, keeps the number its line prints."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["2 Les commandes"], "Les commandes", 0).line(BODY)
    builder.bookmarked(["2. 1 Création d'une grille"], "Création d'une grille", 1, size=13).line(BODY)
    builder.bookmarked(["2. 2 Création d'une case"], "Création d'une case", 1, size=13).line(BODY)
    builder.bookmarked(["3 Exemples"], "Exemples", 0).line(BODY)
    builder.bookmarked(["0.1 Ius nonumy ceteros"], "Ius nonumy ceteros", 1, size=13).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "split.pdf"), workspace, "fr")
    assert [path for path, *_ in nodes] == ["2", "2.1", "2.2", "3", "0.1"]


def test_a_bookmark_holding_a_command_as_code_is_the_heading_printed_with_the_command(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The bookmark `No me funciona "026E30F subsubsubsection.` (a backslash the outline wrote as code) is the heading
    `8.2.7. No me funciona \\subsubsubsection.`: its number, and its title as printed; a bookmark `Setting default
    values` is not the line `8.2.8. Setting values`."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["8.2.7. No me funciona \\subsubsubsection."], 'No me funciona "026E30F subsubsubsection.', 0).line(BODY)
    builder.bookmarked(["8.2.8. Setting values"], "Setting default values", 0).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "code.pdf"), workspace)
    assert [(path, title) for path, title, _ in nodes] == [
        ("8.2.7", "No me funciona \\subsubsubsection."),
        ("Setting default values", "Setting default values"),
    ]


def test_an_anchor_at_the_foot_of_a_page_opens_its_clause_on_the_next_page(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A bookmark anchored under the last line of its page (the heading went over to the next page): the clause is the
    heading that opens the next page (`2.2`); when that page does not print the title, nothing confirms a move and the
    clause opens on its own page after that page's last line; never at the top of the bookmark's own page, before the
    clauses above it."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["2 Commands"], "Commands", 0).line(BODY)
    builder.bookmarked(["2.1 Grids"], "Grids", 1, size=13)
    for _ in range(3):
        builder.line(BODY)
    builder.pdf.set_y(builder.y + 20)
    builder.pdf.start_section("Black squares", level=1)  # at the foot, under the last line
    builder.page().bookmarked(["2.2 Black squares"], "Ignored", 2, size=13)
    builder.line("More text about the black squares of a grid.")
    builder.pdf.set_y(builder.y + 20)
    builder.pdf.start_section("Styles", level=0)
    builder.page().line("The grid is drawn in a picture whose styles can be changed.").line(BODY)
    nodes = _nodes(builder.save(tmp_path / "foot.pdf"), workspace)
    assert [(path, title, page) for path, title, page in nodes if title != "Ignored"] == [
        ("2", "Commands", 1),
        ("2.1", "Grids", 1),
        ("2.2", "Black squares", 2),
        ("Styles", "Styles", 2),
    ]
    text = norm_text(workspace, ingest(tmp_path / "foot.pdf", "TEST 171", "1", workspace=workspace))
    assert text.index("More text about the black squares") < text.index("Styles") < text.index("The grid is drawn")


def test_a_title_with_some_letters_misread_as_utf8_bytes_is_decoded_letter_by_letter() -> None:
    """`Position calculÃ©e avec «\u00a0calc »` mixes misread bytes with characters typed as such; `Ã›lÃ©ments` reads
    PDFDocEncoding's `›` for the byte 0x89: both decode to the printed letters; genuine `NÃO` and `É\u00a0»` stay."""
    assert utf8_misread("Position calculÃ©e avec «\u00a0calc »") == "Position calculée avec «\u00a0calc »"
    assert utf8_misread("Ã›lÃ©ments optiques") == "Éléments optiques"
    assert utf8_misread("NÃO É\u00a0» ‰") == "NÃO É\u00a0» ‰"


def test_a_line_holding_the_title_among_other_words_above_the_anchor_is_not_its_heading(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """A bookmark `Index` anchored under a listing whose line `35 \\index{#1s:\\levelchar#2}` holds the word: the listing
    line lies wholly above the view the bookmark opens, so it is no heading numbered 35; the page prints no `Index`
    there, and the clause starts where the anchor points. A heading printed a little above its anchor still counts."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1 Code"], "Code", 0)
    for number in range(30, 36):
        builder.line(f"{number} \\index{{#1s:\\levelchar#2\\actualchar{{\\string\\ttfamily}}}}")
    builder.gap(30)
    builder.pdf.set_y(builder.y)
    builder.pdf.start_section("Index", level=0)
    builder.line("The entries that the listing above writes are sorted and printed by the index processor.")
    builder.line(BODY)
    builder.pdf.set_y(builder.y + 30)
    builder.pdf.start_section("Change History", level=0)  # anchored a line under its heading
    builder.line("2 Change History", bold=True).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "listing.pdf"), workspace)
    assert [(path, title) for path, title, _ in nodes] == [("1", "Code"), ("Index", "Index"), ("2", "Change History")]


def test_a_second_bookmark_to_the_place_of_another_follows_it_there(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Two bookmarks anchored at one place under the last line of a page (`<` and `6. Mean value theorem`, a listing's
    caption that opens the next page): the second clause follows the first on the next page, never at the top of the
    bookmarks' own page, before the clause above them."""
    builder: PdfBuilder = pdf_builder().page()
    builder.line("Some words before the first clause of the listings.")
    builder.bookmarked(["1 Listings"], "Listings", 0).line(BODY).line(BODY)
    builder.pdf.set_y(builder.y + 20)
    builder.pdf.start_section("<", level=1)
    builder.pdf.start_section("6. Mean value theorem", level=1)
    builder.page().line("Listing 6. Mean value theorem [2, p. 17.3]").line("\\begingroup").line("\\endgroup")
    nodes = _nodes(builder.save(tmp_path / "listings.pdf"), workspace)
    assert [(path, page) for path, _, page in nodes if path not in ("Front matter",)][-3:] == [("1", 1), ("<", 2), ("6", 2)]


def test_a_heading_line_taken_as_the_start_of_an_index_entrys_clause_is_still_its_heading(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """DocBy.TeX bookmarks each documented word where it is declared: `\\iidlh`, anchored just above `2.10 Name spaces`
    with no line of its own, starts its clause on that heading's line; the bookmark `Name spaces`, anchored under it,
    still finds its heading there, numbered 2.10, after the entry's clause (the line is no text of that clause)."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["2.9 Declaration"], "Declaration", 0).line(BODY).line(BODY)
    builder.pdf.set_y(builder.y + 2)
    builder.pdf.start_section("\\iidlh", level=1)
    builder.line("2.10 Name spaces", bold=True)
    builder.pdf.set_y(builder.y + 4)
    builder.pdf.start_section("Name spaces", level=0)
    builder.line(BODY).line(BODY)
    report = ingest(builder.save(tmp_path / "entries.pdf"), "TEST 171", "1", workspace=workspace, language="en")
    nodes = [(node.path, node.title) for node in read_back(workspace, report).nodes]
    assert nodes[-3:] == [("2.9", "Declaration"), ("\\iidlh", "\\iidlh"), ("2.10", "Name spaces")]
    assert norm_text(workspace, report).count("Name spaces") == 1


def test_a_misread_title_whose_undefined_byte_came_out_as_a_space_is_decoded() -> None:
    """texlive-sr's bookmarks are UTF-8 read as PDFDocEncoding, whose undefined 0x9F PDFium gives as a space: `Ð Ð¾Ð´Ñ•Ð¶Ð°Ð½Ð¸`
    is `Подржани`, as p. 3 prints it (`П` is D0 9F, a byte PDFDocEncoding leaves undefined); a real letter before a real space, in a title with no misread pair, stays."""
    assert utf8_misread("Ð Ð¾Ð´Ñ•Ð¶Ð°Ð½Ð¸ Ð¾Ð¿ÐµÑ•Ð°Ñ‡Ð¸Ð²Ð½Ð¸ Ñ†Ð¸Ñ†Ñ‡ÐµÐ¼Ð¸") == "Подржани оперативни системи"
    assert utf8_misread("GrÃ¶Ã e Ã¼ber") == "Größe über"
    assert utf8_misread("Ö och hav") == "Ö och hav" and utf8_misread("Ð and more") == "Ð and more"


def test_a_bookmark_on_its_own_contents_entry_opens_the_clause_the_contents_lead_to(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """An outline whose bookmarks all point at the printed contents page, each at its own entry (`2 Requirements ….. 3`):
    each clause is the heading the contents lead to, on its page, not the entry nor the contents page."""
    builder: PdfBuilder = pdf_builder()
    builder.page().line("An Example Class", size=20).line("A title page with a line of text under the title of the class.")
    builder.page().line("Contents", size=16, bold=True).gap()
    listed = (
        ("1 Scope", "Scope", 0, 3),
        ("1.1 Terms", "Terms", 1, 3),
        ("2 Requirements", "Requirements", 0, 4),
        ("2.1 General", "General", 1, 5),
    )
    for entry, title, level, page in listed:
        builder.pdf.set_y(builder.y + 4)
        builder.pdf.start_section(title, level=level)  # the destination: this very entry on the contents page
        builder.line(f"{entry} {'.' * 60} {page}")
    builder.page().heading("1 Scope").line(BODY).line(BODY)
    builder.heading("1.1 Terms", level=1).line(BODY).line(BODY)
    builder.page().heading("2 Requirements").line(BODY).line(BODY)
    builder.page().line(BODY).line(BODY).heading("2.1 General", level=1).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "contents.pdf"), workspace)
    assert [node for node in nodes if node[0][0].isdigit()] == [
        ("1", "Scope", 3),
        ("1.1", "Terms", 3),
        ("2", "Requirements", 4),
        ("2.1", "General", 5),
    ]


def test_an_appendix_word_in_capitals_before_the_bookmarks_letter_makes_it_that_appendix(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Bookmarks `A The vector product` and `B Multilingual support` whose page prints `APPENDIX A. THE VECTOR PRODUCT`
    (the line an `APPENDICES` bookmark just above it opens at) and `APPENDIX B. MULTILINGUAL SUPPORT`: the appendices
    A and B, titled without their letter."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1 Introduction"], "Introduction", 0).line(BODY).line(BODY)
    builder.pdf.set_y(builder.y + 2)
    builder.pdf.start_section("APPENDICES", level=0)  # an anchor without a heading line of its own
    builder.bookmarked(["APPENDIX A. THE VECTOR PRODUCT"], "A The vector product", 1, size=10).line(BODY).line(BODY)
    builder.bookmarked(["APPENDIX B. MULTILINGUAL SUPPORT"], "B Multilingual support", 1, size=10).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "appendices.pdf"), workspace)
    assert [(path.lower(), title) for path, title, _ in nodes if path.lower().startswith("appendix")] == [
        ("appendix a", "The vector product"),
        ("appendix b", "Multilingual support"),
    ]


def test_a_line_number_before_a_chapter_title_gives_way_to_the_chapter_printed_above(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Every third line numbered in the margin (too few for the page's margin numbers to be dropped): `Capítulo 3` over
    `99 Nullam cursus`, the title's line starting with its line number. The clause is chapter 3, and its designation
    no text of the clause before it."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["Capítulo 2", "Nam lacus libero"], "Nam lacus libero", 0, size=20).line(BODY).line(BODY)
    builder.line("Nam dui ligula, fringilla a, euismod sodales, sollicitudin vel, wisi.")
    builder.page().line("Capítulo 3", size=20, bold=True)
    builder.bookmarked(["99 Nullam cursus"], "Nullam cursus", 0, size=20)
    builder.line("Auctor lorem non justo. Nam lacus libero, pretium at, lobortis vitae, ultricies et, tellus.")
    report = ingest(builder.save(tmp_path / "lineno.pdf"), "TEST 172", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [("2", "Nam lacus libero"), ("3", "Nullam cursus")]
    assert "Capítulo" not in norm_text(workspace, report)


def test_a_bookmark_whose_title_wraps_over_five_lines_is_the_heading_that_prints_it(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Questions set as numbered headings, wrapped over five lines, two of them opening with the same words: each
    bookmark is the heading whose lines spell its whole title, its number read there, its lines no body text."""
    first = [
        "2. Whether the senior applicants or the main participants of",
        "the project applied in the same year for projects of the fund",
        "under another employer; if so, name the people involved, the",
        "types and the titles of those projects, the employers' names",
        "and whether each of them is the applicant or a participant.",
    ]
    second = [
        "3. Whether the senior applicants or the main participants of",
        "the project now carry projects of the fund under another",
        "employer; if so, name the people involved and the projects.",
    ]
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1. Other projects of the applicant"], "Other projects of the applicant", 0, size=11).line(BODY)
    for lines in (first, second):
        builder.bookmarked(lines, " ".join(lines).split(" ", 1)[1], 0, size=11)
        builder.line("Nam dui ligula, fringilla a, euismod sodales, sollicitudin vel, wisi." if lines is first else BODY)
    report = ingest(builder.save(tmp_path / "questions.pdf"), "TEST 173", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [node.path for node in nodes] == ["1", "2", "3"]
    assert "applicant or a participant" not in norm_text(workspace, report).split("# 2")[1].split("\n", 1)[1]


def test_a_part_printed_over_a_bookmark_and_a_letter_before_its_title_are_its_path(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Bookmarks that name no number: `System overview` under `Part I` printed alone above it is the part; `Layout of
    diagrams` printed `A Layout of diagrams` is the appendix A (its section `A.1` under it)."""
    builder: PdfBuilder = pdf_builder().page()
    builder.line("Part I", size=20, bold=True)
    builder.bookmarked(["System overview"], "System overview", 0, size=20).line(BODY)
    builder.bookmarked(["1 Features"], "Features", 1, size=16).line("Nam dui ligula, fringilla a, euismod sodales, wisi.")
    builder.page().bookmarked(["A Layout of diagrams"], "Layout of diagrams", 0, size=16)
    builder.line("The board diagrams drawn with the package are contained inside a picture box.")
    builder.bookmarked(["A.1 Code for the examples"], "Code for the examples", 1, size=13).line(BODY)
    report = ingest(builder.save(tmp_path / "parts.pdf"), "TEST 174", "1", workspace=workspace, language="en")
    nodes = [(node.path, node.title) for node in read_back(workspace, report).nodes]
    assert nodes == [
        ("Part I", "System overview"),
        ("1", "Features"),
        ("A", "Layout of diagrams"),
        ("A.1", "Code for the examples"),
    ]
    assert "\nPart I\n" not in norm_text(workspace, report)  # the line is part of the heading, no text


def test_a_contents_entry_over_the_first_heading_is_no_chapter_designation(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A short contents whose last entry (`Index 41`, in the entries' size) stands right above `1 Available commands`:
    the clause is 1, not the entry's page 41."""
    builder: PdfBuilder = pdf_builder().page().line("Contents", size=14, bold=True)
    builder.line("1 Available commands 1", size=11).line("2 Examples 1", size=11).line("Index 41", size=11)
    builder.bookmarked(["1 Available commands"], "Available commands", 0, size=14).line(BODY)
    builder.bookmarked(["2 Examples"], "Examples", 0, size=14).line("Nam dui ligula, fringilla a, euismod sodales, wisi.")
    report = ingest(builder.save(tmp_path / "short.pdf"), "TEST 175", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes if node.path != "Contents"] == ["1", "2"]


def test_a_chapter_word_set_small_beside_a_large_numeral_numbers_the_chapter(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A chapter style that sets `Hoofdstuk` small and high beside a 70 pt `1` (the text layer reads the word as raised,
    `^{Hoofdstuk} 1`) over the bookmarked title: the chapter is 1, and that line belongs to its heading."""
    builder: PdfBuilder = pdf_builder()
    texts = ("Let us suppose that the noumena have nothing to do with necessity.", "Our faculties have lying before them.")
    for number, title in ((1, "Smaken en smaakpapillen"), (2, "Experimentele setup")):
        builder.page()
        builder.pdf.set_font("Helvetica", "", 14)
        builder.pdf.text(400, 120, "Hoofdstuk")
        builder.pdf.set_font("Helvetica", "", 70)
        builder.pdf.text(480, 160, str(number))
        builder.y = 180
        builder.bookmarked([title], title, 0, size=20)
        builder.line(texts[number - 1])
    report = ingest(builder.save(tmp_path / "hoofdstuk.pdf"), "TEST 176", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Smaken en smaakpapillen"),
        ("2", "Experimentele setup"),
    ]
    assert "Hoofdstuk" not in norm_text(workspace, report)


def test_a_title_printed_on_the_contents_page_stays_its_bookmarks_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The document's title set on the contents page over the list (bookmark `Grids`), and an entry of the list with the
    same words (`2 Grids …… 3`): the title's own line is the bookmark's heading, not the chapter the entry leads to;
    the bookmark `Scope` at its entry still goes to its heading."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["Grids"], "Grids", 0, size=20)
    builder.line("Contents", size=16, bold=True).gap()
    builder.pdf.set_y(builder.y + 4)
    builder.pdf.start_section("Scope", level=0)
    builder.line(f"1 Scope {'.' * 60} 2").line(f"2 Grids {'.' * 60} 3")
    builder.page().heading("1 Scope").line(BODY).line(BODY)
    builder.page().heading("2 Grids").line("Nam dui ligula, fringilla a, euismod sodales, sollicitudin vel, wisi.")
    nodes = _nodes(builder.save(tmp_path / "titled.pdf"), workspace)
    assert [(path, page) for path, _, page in nodes if path != "Contents"][:2] == [("Grids", 1), ("1", 2)]


def test_a_bookmark_whose_page_prints_no_title_is_the_heading_opening_the_next_page(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A bookmark anchored above the last lines of a page that prints its title nowhere (set before the page break)
    is the heading that opens the next page, not a line of the page it points to."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1 Versions"], "Versions", 0).line(BODY)
    builder.pdf.set_y(builder.y + 4)
    builder.pdf.start_section("Bibliography", level=0)  # the anchor, over the page's last two lines
    builder.line(BODY).line("First released in July.")
    builder.page().line("Bibliography", size=16, bold=True).line("[1] A book about grids, 2003.").line(BODY)
    nodes = _nodes(builder.save(tmp_path / "next.pdf"), workspace)
    assert nodes == [("1", "Versions", 1), ("Bibliography", "Bibliography", 2)]
    assert "First released in July." in norm_text(workspace, ingest(tmp_path / "next.pdf", "TEST 172", "1", workspace=workspace))


def test_a_bookmark_numbered_with_a_dash_is_that_numbered_clause(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`1- Definitions` and `1.1- Limits` (a number set off by a dash, as Arabic and French documents number their
    sections) are the clauses 1 and 1.1 titled `Definitions` and `Limits`."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1 Definitions"], "1- Definitions", 0).line(BODY)
    builder.bookmarked(["1.1 Limits"], "1.1- Limits", 1, size=13).line(BODY)
    builder.bookmarked(["2 Examples"], "2 - Examples", 0).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "dash.pdf"), workspace)
    assert [(path, title) for path, title, _ in nodes] == [("1", "Definitions"), ("1.1", "Limits"), ("2", "Examples")]


def test_a_number_with_spaces_around_its_stop_continues_its_parents(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`5 . 1 Examples` (a section number as right-to-left text comes out of the text layer, a space each side of its
    stop) under the bookmark of `5` is the section 5.1, not a second clause 5."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["5 Using natbib"], "Using natbib", 0).line(BODY)
    builder.bookmarked(["5 . 1 Examples"], "Examples", 1, size=13).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "spaced.pdf"), workspace)
    assert [(path, title) for path, title, _ in nodes] == [("5", "Using natbib"), ("5.1", "Examples")]


def test_a_heading_line_given_in_two_pieces_end_first_is_one_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A heading whose printed line the text layer gives in two pieces on one baseline, its end first (right-to-left
    text cut at a joiner): the bookmark `Acknowledgements` is the heading `2 Acknowled` + `gements`, numbered 2, and
    neither piece stays in the text."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1 Usage"], "Usage", 0).line(BODY)
    builder.y += 30
    builder.pdf.start_section("Acknowledgements", level=0)
    builder.pdf.set_font("Helvetica", "B", 16)
    builder.pdf.text(250, builder.y, "gements")  # the end of the line, drawn first
    builder.pdf.text(72, builder.y, "2 Acknowled")
    builder.line("Thanks to the authors of the packages this one builds on.").line(BODY)
    nodes = _nodes(builder.save(tmp_path / "pieces.pdf"), workspace)
    assert [(path, title) for path, title, _ in nodes] == [("1", "Usage"), ("2", "Acknowledgements")]
    text = norm_text(workspace, ingest(tmp_path / "pieces.pdf", "TEST 173", "1", workspace=workspace))
    assert "gements\n" not in text.split("# 2 Acknowledgements", 1)[1]


def test_two_bookmarks_of_one_title_on_a_page_that_prints_it_stay_on_that_page(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A chapter and its first section bookmarked with one title (`Tools`, `Tools`) on a page that prints it once: the
    page prints the title, so the second bookmark is no anchor set before a page break, and the line opening the next
    page with the same word (a running head, a box's title) is not its heading."""
    builder: PdfBuilder = pdf_builder().page()
    builder.line("Versions", size=16, bold=True).line(BODY)
    builder.pdf.set_y(builder.y + 4)
    builder.pdf.start_section("Versions", level=0)
    builder.bookmarked(["Tools"], "Tools", 0)
    builder.pdf.start_section("Tools", level=1)
    builder.line(BODY).line(BODY).line("Search for a word and replace it.")
    builder.page().line("Tools", bold=True).line(BODY).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "same-title.pdf"), workspace)
    assert [(path, page) for path, _, page in nodes if path.startswith("Tools")] == [("Tools", 1), ("Tools (2)", 1)]


def test_a_bookmark_to_a_page_whose_text_layer_lacks_its_heading_opens_its_clause_on_that_page(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Pages whose headings and body are drawn but not written to the text layer (only a link's URL, or nothing): each
    bookmark to such a page opens its clause there, in outline order, however far the next line of text is; nothing on
    the next page prints the title, so nothing moves it over."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1 About"], "About", 0).line(BODY).line(BODY)
    builder.page()  # no text at all
    for title, height in (("1.1 Scope", 120), ("1.2 Terms", 300)):
        builder.pdf.set_y(height)
        builder.pdf.start_section(title, level=1)
    builder.page()
    builder.pdf.set_y(200)
    builder.pdf.start_section("1.3 Authors", level=1)
    builder.page().line("https://lists.example.org/project/")  # a URL above the anchors, the rest not in the text layer
    for title, height in (("1.4 Contact", 300), ("1.5 Sources", 500)):
        builder.pdf.set_y(height)
        builder.pdf.start_section(title, level=1)
    builder.page().line(BODY).line(BODY)
    builder.bookmarked(["2 Usage"], "Usage", 0).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "drawn.pdf"), workspace)
    assert [(path, page) for path, _, page in nodes] == [
        ("1", 1),
        ("1.1", 2),
        ("1.2", 2),
        ("1.3", 3),
        ("1.4", 4),
        ("1.5", 4),
        ("2", 5),
    ]


def test_a_bookmark_ending_in_a_functions_arity_keeps_its_title(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A reference manual's bookmark `flush_trace_port/0` over the printed synopsis `flush_trace_port()`: the line is
    its heading, and the title stays the bookmark's (the run at its end is no code escaped for the outline)."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["1 Exports"], "Exports", 0).line(BODY)
    builder.pdf.set_y(builder.y + 4)
    builder.pdf.start_section("flush_trace_port/0", level=1)
    builder.line("flush_trace_port()", bold=True).line("Equivalent to flush_trace_port(node()).").line(BODY)
    builder.pdf.set_y(builder.y + 4)
    builder.pdf.start_section("flush_trace_port/1", level=1)
    builder.line("flush_trace_port(Nodename) -> ok | {error, Reason}", bold=True).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "arity.pdf"), workspace)
    assert [(path, title) for path, title, _ in nodes] == [
        ("1", "Exports"),
        ("flush_trace_port/0", "flush_trace_port/0"),
        ("flush_trace_port/1", "flush_trace_port/1"),
    ]


def _chapters(builder: PdfBuilder, levels: int = 2) -> PdfBuilder:
    """Two chapters on two pages, each with sections nested `levels` deep, one bookmark a heading."""
    for chapter in (1, 2):
        builder.page()
        for level in range(levels):
            number = ".".join([str(chapter)] + ["1"] * level)
            builder.heading(f"{number} Heading {chapter} at level {level + 1}", level=level, size=max(16 - level, 10.5)).line(BODY)
    return builder


def test_an_outline_written_twice_gives_each_clause_once(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """An outline that lists all its bookmarks a second time after its end (the same titles to the same places, the
    copy nested each under the one before) names each heading once: no clause `1 (2)` opening where `1` does."""
    from fpdf.outline import OutlineSection

    builder = _chapters(pdf_builder(outline=True))
    outline = builder.pdf._outline
    copies = [
        OutlineSection(section.name, min(k, 1) + section.level, section.page_number, section.dest) for k, section in enumerate(outline)
    ]
    builder.pdf._outline = outline + copies  # fpdf2 writes the outline in this list's order
    nodes = _nodes(builder.save(tmp_path / "twice.pdf"), workspace)
    assert [(path, page) for path, _, page in nodes] == [("1", 1), ("1.1", 1), ("2", 2), ("2.1", 2)]


def test_bookmarks_nested_past_eight_levels_are_read(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Sections eleven levels deep, each bookmarked: the deepest are clauses of the tree too, each on its heading."""
    builder = _chapters(pdf_builder(outline=True), levels=11)
    nodes = _nodes(builder.save(tmp_path / "deep.pdf"), workspace)
    deepest = [(path, page) for path, _, page in nodes if path.count(".") >= 8]
    assert deepest == [(str(chapter) + ".1" * level, chapter) for chapter in (1, 2) for level in (8, 9, 10)]


def test_a_running_header_over_a_section_gives_it_no_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Texinfo's running header `Download 44` (the chapter's title and the page's number, nearly the heading's size)
    over a section that opens its page: the word is the title of the chapter bookmarked before, so the line is no
    designation `Chapter 44` of the section, which stays the unnumbered `GPL`."""
    builder: PdfBuilder = pdf_builder().page()
    builder.bookmarked(["Download"], "Download", 0, size=20).line(BODY).line(BODY)
    builder.page()
    builder.pdf.set_font("Helvetica", "", 10.9)
    builder.pdf.text(72, 52, "Download 44")
    builder.y = 60.0
    builder.bookmarked(["GPL"], "GPL", 1, size=14.3).line(BODY).line(BODY)
    nodes = _nodes(builder.save(tmp_path / "header.pdf"), workspace)
    assert nodes == [("Download", "Download", 1), ("GPL", "GPL", 2)]


def test_two_bookmarks_under_the_last_line_of_text_close_the_body(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Two bookmarks anchored under the last line of the last page with text, a blank page after it: both clauses close
    the body on their own page (the second one followed the first past the last line, where the importer looked for
    the rest of its title on a line that is not there)."""
    builder: PdfBuilder = pdf_builder(outline=True).page()
    builder.heading("1 Scope").line(BODY).line(BODY)
    builder.pdf.set_y(780)
    builder.pdf.start_section("Glossary", level=0)
    builder.pdf.start_section("Index", level=0)
    builder.page()
    nodes = _nodes(builder.save(tmp_path / "closing.pdf"), workspace)
    assert nodes == [("1", "Scope", 1), ("Glossary", "Glossary", 1), ("Index", "Index", 1)]
