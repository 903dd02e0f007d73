"""The clause tree of a PDF with an outline whose numbering is not one plain sequence: parts that restart it,
numbers met again (a change log numbered by version), divisions named by a designator the page prints."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from importer_helpers import BODY as BODY_SIZE
from importer_helpers import PdfBuilder, norm_text, read_back

from normcli.importers import ingest

BODY = "The text of this clause goes on over a full line of words like the body of a manual."


def _bookmarked(builder: PdfBuilder, lines: list[str], bookmark: str, level: int, size: float = 16) -> PdfBuilder:
    """Heading lines in a large bold font, with one bookmark titled `bookmark` on the first of them, then two lines of text."""
    return builder.bookmarked(lines, bookmark, level, size).line(BODY).line(BODY)


def _parts(builder: PdfBuilder) -> PdfBuilder:
    """Two parts, each numbering its chapters from 1, the part printed `Part I` above its title."""
    builder.page()
    _bookmarked(builder, ["Part I", "Getting started"], "I Getting started", 0, size=20)
    _bookmarked(builder, ["1 History"], "1 History", 1)
    _bookmarked(builder, ["2 Introduction"], "2 Introduction", 1)
    _bookmarked(builder, ["2.1 Acknowledgements"], "2.1 Acknowledgements", 2, size=13)
    builder.page()
    _bookmarked(builder, ["Part II", "Font selection"], "II Font selection", 0, size=20)
    _bookmarked(builder, ["1 Main commands"], "1 Main commands", 1)
    _bookmarked(builder, ["2 By file name"], "2 By file name", 1)
    return builder


def test_numbering_that_restarts_in_each_part_is_qualified_by_the_part(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`1 Introduction` under Part I and `1 Main commands` under Part II are `I.1` and `II.1`: unique, and one level under their part."""
    pdf = _parts(pdf_builder()).save(tmp_path / "parts.pdf")
    report = ingest(pdf, "TEST 140", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.title, node.depth) for node in bundle.nodes] == [
        ("Part I", "Getting started", 1),
        ("I.1", "History", 2),
        ("I.2", "Introduction", 2),
        ("I.2.1", "Acknowledgements", 3),
        ("Part II", "Font selection", 1),
        ("II.1", "Main commands", 2),
        ("II.2", "By file name", 2),
    ]
    assert {node.path: node.parent_path for node in bundle.nodes}["II.1"] == "Part II"
    assert not [problem for problem in bundle.problems if problem.kind == "duplicate_path"]
    text = norm_text(workspace, report)
    assert "\nPart I\n" not in text and "\nPart II\n" not in text  # the `Part I` line is the heading's, not body text


def test_a_number_met_again_in_one_sequence_is_counted_not_made_up(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A change log numbered by version (`1.1 2020-05-01` under `2 Revision history`) repeats clause numbers of the
    document: the repeat is `1.1 (2)`, the rule of repeated unnumbered titles, never a path made of a line number."""
    builder = pdf_builder().page()
    _bookmarked(builder, ["1 Scope"], "1 Scope", 0)
    _bookmarked(builder, ["1.1 Terms"], "1.1 Terms", 1, size=13)
    _bookmarked(builder, ["2 Revision history"], "2 Revision history", 0)
    _bookmarked(builder, ["1.1 2020-05-01"], "1.1 2020-05-01", 1, size=13)
    _bookmarked(builder, ["1.0 2019-01-02"], "1.0 2019-01-02", 1, size=13)
    pdf = builder.save(tmp_path / "changelog.pdf")
    report = ingest(pdf, "TEST 141", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.title) for node in bundle.nodes] == [
        ("1", "Scope"),
        ("1.1", "Terms"),
        ("2", "Revision history"),
        ("1.1 (2)", "2020-05-01"),
        ("1.0", "2019-01-02"),
    ]
    assert not [problem for problem in bundle.problems if problem.kind == "duplicate_path"]


def test_a_bookmark_led_by_the_designator_the_page_prints_after_a_word(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Bookmarks `A Worked examples` and `I Implementation` whose pages print `Appendix A Worked examples` and
    `File I` above `Implementation`: the paths are `Appendix A` and `File I`, the titles without the designator."""
    builder = pdf_builder().page()
    _bookmarked(builder, ["1 Scope"], "1 Scope", 0)
    _bookmarked(builder, ["Appendix A Worked examples"], "A Worked examples", 0)
    builder.page()
    _bookmarked(builder, ["File I", "Implementation"], "I Implementation", 0, size=20)
    _bookmarked(builder, ["1 Declarations"], "1 Declarations", 1)
    _bookmarked(builder, ["A note on the options"], "A note on the options", 1)
    pdf = builder.save(tmp_path / "designators.pdf")
    report = ingest(pdf, "TEST 142", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.title) for node in bundle.nodes] == [
        ("1", "Scope"),
        ("Appendix A", "Worked examples"),
        ("File I", "Implementation"),
        ("I.1", "Declarations"),  # 1 is met again in File I: qualified
        ("A note on the options", "A note on the options"),  # `A` here is a word, not a designator
    ]


def test_without_an_outline_a_part_heading_lets_the_numbering_start_again(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The same parts, no bookmarks: `Part II` over a large title is a part, after which `1 Main commands` may
    follow `2.1`; the paths are qualified as with the outline."""
    builder = pdf_builder().page()
    builder.line("Part I", size=20, bold=True).line("Getting started", size=20, bold=True).gap()
    builder.heading("1 History").line(BODY).line(BODY)
    builder.heading("2 Introduction").line(BODY).heading("2.1 Acknowledgements", level=1).line(BODY).line(BODY)
    builder.page().line("Part II", size=20, bold=True).line("Font selection", size=20, bold=True).gap()
    builder.heading("1 Main commands").line(BODY).line(BODY).heading("2 By file name").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "parts-no-outline.pdf")
    report = ingest(pdf, "TEST 143", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.title) for node in bundle.nodes] == [
        ("Part I", "Getting started"),
        ("I.1", "History"),
        ("I.2", "Introduction"),
        ("I.2.1", "Acknowledgements"),
        ("Part II", "Font selection"),
        ("II.1", "Main commands"),
        ("II.2", "By file name"),
    ]


def test_without_an_outline_the_letter_groups_of_an_index_are_its_clauses(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`A`, `B`, `Symbols` set bold on lines of their own inside an index are its sub-clauses; a capital letter
    in the body text, or a letter group outside an index, is not."""
    builder = pdf_builder().page()
    builder.heading("1 Scope").line(BODY).line("A", x=72).line(BODY)
    for number in range(2, 6):
        builder.page().heading(f"{number} Chapter {number}").line(BODY).line(BODY)
    builder.page().line("Index", size=16, bold=True).gap()
    builder.line("Symbols", x=150, bold=True).line("\\alpha . . . . . 3", x=72)
    builder.line("A", x=150, bold=True).line("apples . . . . . 3", x=72).line("axes . . . . . 4", x=72)
    builder.line("B", x=150, bold=True).line("beams . . . . . 5", x=72)
    pdf = builder.save(tmp_path / "index.pdf")
    report = ingest(pdf, "TEST 144", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.depth) for node in bundle.nodes][5:] == [("Index", 1), ("Symbols", 2), ("A", 2), ("B", 2)]
    assert {node.path: node.parent_path for node in bundle.nodes}["B"] == "Index"


def test_the_body_may_start_on_the_last_page_of_the_contents(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A short document prints its contents, then `1 Scope` on the same page: the contents lines stay in the
    Contents node, the clauses below them are found (they were swallowed with the page before)."""
    chapters = ["Scope", "Loads", "Actions", "Resistance", "Durability", "Execution"]
    builder = pdf_builder().page().line("Contents", size=16, bold=True)
    for number, title in enumerate(chapters, start=1):
        builder.line(f"{number} {title} {number}").line(f"{number}.1 Terms of {title.lower()} {'. ' * 30} {number}")
    builder.gap(20).heading("1 Scope").line(BODY).line(BODY).heading("1.1 Terms of scope", level=1).line(BODY).line(BODY)
    for number, title in enumerate(chapters[1:], start=2):
        builder.page().heading(f"{number} {title}").line(BODY).line(BODY)
        builder.heading(f"{number}.1 Terms of {title.lower()}", level=1).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "contents-then-body.pdf")
    report = ingest(pdf, "TEST 145", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [node.path for node in bundle.nodes][:5] == ["Contents", "1", "1.1", "2", "2.1"]
    text = norm_text(workspace, report)
    assert "6 Execution 6" in text[: text.index("# 1 Scope")]  # the contents line is in the Contents node


def test_a_short_contents_under_a_title_block_is_contents_not_clauses(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A package note: title, abstract and a four-line contents (`1 Scope 2` in bold, no leaders) on its first page.
    The entries are not headings (`1 Scope 2`), the clauses are found on their pages."""
    builder = pdf_builder().page().line("The example package", size=20, bold=True).line("A. Author", size=12)
    builder.line("Abstract", size=12, bold=True)
    for _ in range(8):
        builder.line(BODY)  # the page is mostly title block and abstract: no page of contents
    builder.gap(10).line("Contents", size=14, bold=True)
    builder.line("1 Scope 2", bold=True).line("2 Loads 2", bold=True).line("2.1 Snow 3").line("3 Actions 3", bold=True)
    builder.gap(20).line(BODY)  # LaTeX sets a section's contents entry in bold
    builder.page().heading("1 Scope").line(BODY).line(BODY).heading("2 Loads").line(BODY)
    builder.page().heading("2.1 Snow", level=1).line(BODY).heading("3 Actions").line(BODY)
    pdf = builder.save(tmp_path / "short-contents.pdf")
    report = ingest(pdf, "TEST 146", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    numbered = [(node.path, node.title, node.page_start) for node in bundle.nodes if node.path[0].isdigit()]
    assert numbered == [("1", "Scope", 2), ("2", "Loads", 2), ("2.1", "Snow", 3), ("3", "Actions", 3)]
    assert "Contents" in [node.path for node in bundle.nodes]


def test_a_superscript_digit_under_a_chapter_word_is_no_chapter_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`Chapter` above `10²` (a formula's power, which str.isdigit() calls a digit) is read as text, never int('10²')."""
    builder = pdf_builder().page().heading("1 Scope").line(BODY).line("Chapter", size=16, bold=True).line("10²", size=16)
    builder.line("Powers of ten", size=16).line(BODY).heading("2 Loads").line(BODY)
    pdf = builder.save(tmp_path / "power.pdf")
    for use_outline in (True, False):
        report = ingest(pdf, f"TEST 147{use_outline}", "1", workspace=workspace, language="en", use_outline=use_outline)
        assert [node.path for node in read_back(workspace, report).nodes] == ["1", "2"]


def test_a_part_heading_does_not_count_as_the_first_numbered_clause(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A manual with parts and only unnumbered headings: its large headings after `Part I` stay headings
    (a part's size is not a chapter's, and a part is not the first numbered clause)."""
    builder = pdf_builder().page().line("Part I", size=20, bold=True).line("Gnu manual", size=20, bold=True).gap()
    builder.line("Operators", size=16, bold=True).line(BODY).line(BODY).line("Constants", size=16, bold=True).line(BODY)
    builder.page().line("Part II", size=20, bold=True).line("Commands", size=20, bold=True).gap()
    builder.line("Plot", size=16, bold=True).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "unnumbered-parts.pdf")
    report = ingest(pdf, "TEST 148", "1", workspace=workspace, language="en")
    paths = [node.path for node in read_back(workspace, report).nodes]
    assert paths == ["Part I", "Operators", "Constants", "Part II", "Plot"], paths


def test_a_power_of_ten_alone_at_a_page_edge_is_no_page_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`10¹` alone at the foot of a page of a PDF without page labels is read as text, never int('10¹')."""
    builder = pdf_builder(first_page_number=1)
    for number in (1, 2, 3):
        builder.page().heading(f"{number} Clause {number}").line(BODY).line(BODY)
    builder.pdf.set_font("Helvetica", "", 9)
    builder.pdf.text(300, 820, "10¹")
    pdf = builder.save(tmp_path / "power-at-edge.pdf")
    report = ingest(pdf, "TEST 149", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes] == ["1", "2", "3"]


def _contents_page(builder: PdfBuilder, entries: list[tuple[str, int]], x: float = 72) -> PdfBuilder:
    """A page `Contents` listing `(title, printed page)` with dot leaders."""
    builder.line("Contents", size=16, bold=True).gap()
    for title, page in entries:
        builder.line(f"{title} {'. ' * 30} {page}", x=x)
    return builder


def test_run_in_titles_of_the_printed_contents_are_found_and_keep_their_text(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Unnumbered contents entries whose titles the body sets bold at the start of a paragraph (`Column The column(x)
    function …`) are clauses; the sentence after the title stays their text. A title the body does not set as a
    heading, met again on a later page at the start of a longer word in bold (`Columnheaders`), moves nothing:
    the entries after it are still found on their pages."""
    builder = pdf_builder(first_page_number=1).page()
    _contents_page(builder, [("Functions", 2), ("Column", 2), ("Stringcolumn", 2), ("Columnhead", 3), ("Operators", 3), ("Unary", 4)])
    builder.page().line("Functions", size=13, bold=True).line(BODY).line(BODY)
    builder.pdf.set_font("Helvetica", "B", 10)
    for title in ("Column", "Stringcolumn"):
        builder.y += 13
        builder.pdf.text(72, builder.y, title)
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72 + builder.pdf.get_string_width(title + " "), builder.y, f"The {title.lower()}(x) function returns a field.")
        builder.pdf.set_font("Helvetica", "B", 10)
        builder.line(BODY)
    builder.page().line("The columnhead(x) function is described with the others above.").line(BODY)
    builder.line("Operators", size=13, bold=True).line(BODY).line(BODY)
    builder.page().line("Unary", size=13, bold=True).line(BODY).line(BODY)
    builder.page().line("Columnheaders", bold=True).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "run-in.pdf")
    report = ingest(pdf, "TEST 150", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    pages = {node.path: node.page_start for node in bundle.nodes}
    assert {path: pages.get(path) for path in ("Functions", "Column", "Stringcolumn", "Operators", "Unary")} == {
        "Functions": 2,
        "Column": 2,
        "Stringcolumn": 2,
        "Operators": 3,
        "Unary": 4,
    }
    assert "Columnhead" not in pages
    text = norm_text(workspace, report)
    assert "# Column\n\nThe column(x) function returns a field." in text


def test_printed_pages_named_by_page_labels_win_over_roman_front_pages_of_the_same_value(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Front matter labelled i–iv, the body from 1: the contents entry `2 Loads . . . 2` names the page labelled 2,
    not the front page ii (worth 2 too) whose preface lists the chapters with their numbers."""
    builder = pdf_builder()
    builder.pdf.add_page(label_style="r")
    builder.y = 90.0
    builder.line("Preface", size=16, bold=True).line(BODY).line("The chapters are:")
    builder.line("1 Scope", x=90).line("2 Loads", x=90).line("3 Actions", x=90).line(BODY)
    builder.pdf.add_page(label_style="r")
    builder.y = 90.0
    _contents_page(builder, [("1 Scope", 1), ("2 Loads", 2), ("3 Actions", 3)])
    for number, title in enumerate(["Scope", "Loads", "Actions"], start=1):
        builder.pdf.add_page(label_style="D", label_start=1) if number == 1 else builder.pdf.add_page()
        builder.y = 90.0
        builder.line(f"{number} {title}", size=12).line(BODY).line(BODY)  # set at nearly body size: the contents find it
    pdf = builder.save(tmp_path / "labels.pdf")
    report = ingest(pdf, "TEST 151", "1", workspace=workspace, language="en")
    nodes = {node.path: node for node in read_back(workspace, report).nodes}
    assert [(path, nodes[path].page_start) for path in ("1", "2", "3")] == [("1", 1), ("2", 2), ("3", 3)]
    assert "2 Loads" in norm_text(workspace, report).split("# Contents")[0]  # the preface keeps its list


def test_the_body_size_is_the_prose_not_the_code_listings(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A package manual mostly made of code listings in a smaller fixed-pitch font: its prose size is the body size,
    so numbered prose lines (a list of steps) are not clauses and the running header is furniture."""
    builder = pdf_builder()
    for number in (1, 2, 3):
        builder.page().line(f"manual {number}", size=10)  # the running header, with the page number
        builder.line(f"{number} Chapter {number}", size=14, bold=True).line(BODY)
        builder.line("1 Install the package in the tree of the system.").line("2 Run the tests of the package here.")
        for row in range(30):
            builder.pdf.set_font("Courier", "", 9)
            builder.y += 11
            builder.pdf.text(72, builder.y, f"\\def\\macro{row}{{\\relax}} % a line of the code listing number {row}")
    pdf = builder.save(tmp_path / "code.pdf")
    report = ingest(pdf, "TEST 152", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes] == ["1", "2", "3"]


def test_a_numbered_index_keeps_its_letter_groups_and_is_no_contents(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A short package note: `3 Index` ends it, its entries end in page numbers behind dot leaders, its letter
    groups are set bold at the body size. The index pages are no printed contents (the headings above them are
    kept), and the letter groups are the index's sub-clauses."""
    builder = pdf_builder().page()
    builder.heading("1 Introduction").line(BODY).line(BODY).heading("2 Implementation").line(BODY)
    builder.heading("2.1 Interrupt hooks", level=1).line(BODY).line(BODY)
    builder.heading("3 Index").line(BODY)
    for letter, words in (("A", ["\\AddToHook", "\\advance"]), ("D", ["\\def", "\\dimen", "\\dp"]), ("E", ["\\ExplSyntaxOn"])):
        builder.line(letter, x=250, bold=True)
        for word in words:
            builder.line(f"{word} {'. ' * 25} 37, 48", x=72)
    pdf = builder.save(tmp_path / "index-numbered.pdf")
    report = ingest(pdf, "TEST 153", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.depth) for node in nodes] == [
        ("1", 1),
        ("2", 1),
        ("2.1", 2),
        ("3", 1),
        ("A", 2),
        ("D", 2),
        ("E", 2),
    ]
    assert {node.path: node.parent_path for node in nodes}["D"] == "3"


def test_unnumbered_contents_entries_take_their_depth_from_their_indent(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A manual whose contents list unnumbered titles, set in by level (and without leaders for the chapters,
    so a whole contents page may have none): each clause's depth is its entry's, and the running header of a
    contents page (`4 manual CONTENTS`) is no entry's first line."""
    chapters = [("Expressions", ["Functions", "Operators"]), ("Plotting", ["Styles", "Axes"]), ("Terminals", ["Canvas", "Printer"])]
    builder = pdf_builder().page().line("Contents", size=16, bold=True).gap()
    page = 3  # the chapters start on the third page, after two pages of contents
    for chapter, sections in chapters[:2]:
        builder.line(f"{chapter} {page}", bold=True)
        for section in sections:
            builder.line(f"{section} {'. ' * 30} {page}", x=87)
        page += 1
    builder.page().line("4 manual CONTENTS")  # a running header left on the contents page
    for chapter, sections in chapters[2:]:
        builder.line(f"{chapter} {page}", bold=True)
        for section in sections:
            builder.line(f"{section} {page}", x=87)
    for chapter, sections in chapters:
        builder.page().line(chapter, size=16, bold=True).line(BODY).line(BODY)
        for section in sections:
            builder.line(section, size=13, bold=True).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "indented.pdf")
    report = ingest(pdf, "TEST 154", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    clauses = [(node.path, node.depth, node.parent_path) for node in nodes if node.path not in ("Contents", "Contents (2)")]
    assert clauses == [
        (title, depth, parent)
        for chapter, sections in chapters
        for title, depth, parent in [(chapter, 1, None), *((section, 2, chapter) for section in sections)]
    ]


def test_unnumbered_headings_set_like_numbered_ones_are_clauses(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A change history whose entries (`[2016/05/14 v0.11]`) are set exactly as the numbered sections are (13 pt bold)
    and listed nowhere: they are clauses of that depth under their chapter. A bold line at the body size, a
    caption and a sentence in that size stay text."""
    builder = pdf_builder().page().heading("1 Documentation").line(BODY)
    for number in range(1, 4):
        builder.heading(f"1.{number} Usage {number}", level=1).line(BODY).line(BODY)
    builder.page().heading("2 History").line(BODY)
    for version in ("[2016/05/14 v0.11]", "[2019/12/05 v0.12]"):
        builder.line(version, size=13, bold=True).line(BODY).line(BODY, bold=True)
    builder.line("Table 1: Versions of the package.", size=13, bold=True).line(BODY)
    builder.line("The last version is the one described in this manual.", size=13, bold=True).line(BODY)
    pdf = builder.save(tmp_path / "history.pdf")
    report = ingest(pdf, "TEST 155", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.depth) for node in nodes][4:] == [("2", 1), ("[2016/05/14 v0.11]", 2), ("[2019/12/05 v0.12]", 2)]
    assert {node.path: node.parent_path for node in nodes}["[2019/12/05 v0.12]"] == "2"


def test_a_title_page_is_one_node_named_by_its_largest_line(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A title page of large lines (title, subtitle, a list of authors): one node named by the title, the rest its
    text; a large unnumbered title wrapped over two lines before the first chapter is one heading."""
    builder = pdf_builder().page().line("gnuplot 5.4", size=24, bold=True).line("An Interactive Plotting Program", size=18)
    builder.line("Thomas Williams, Colin Kelley,", size=16).line("and many others", size=16)
    builder.page().line("A note on the history of this", size=16, bold=True).line("plotting program", size=16, bold=True)
    builder.line(BODY).line(BODY)
    builder.page().heading("1 Introduction").line(BODY).heading("2 Plotting").line(BODY)
    pdf = builder.save(tmp_path / "title-page.pdf")
    report = ingest(pdf, "TEST 156", "1", workspace=workspace, language="en")
    assert [node.title for node in read_back(workspace, report).nodes] == [
        "gnuplot 5.4",
        "A note on the history of this plotting program",
        "Introduction",
        "Plotting",
    ]


def test_a_title_ending_in_an_ellipsis_and_a_number_after_a_margin_line_number_are_headings(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """`7 Link decorations: border, color, . . .` has no page number: no contents entry but a heading; `13 5.1 Basic
    code` is clause 5.1 with a line number left in the margin before it."""
    builder = pdf_builder().page()
    for number in range(1, 5):
        builder.heading(f"{number} Chapter {number}").line(BODY)
    builder.heading("5 Link decorations: border, color, . . .").line(BODY).line(BODY)
    builder.heading("13 5.1 Basic code", level=1).line(BODY).heading("6 Options").line(BODY)
    pdf = builder.save(tmp_path / "ellipsis.pdf")
    report = ingest(pdf, "TEST 157", "1", workspace=workspace, language="en")
    nodes = {node.path: node.title for node in read_back(workspace, report).nodes}
    assert nodes["5"] == "Link decorations: border, color, . . ." and nodes["5.1"] == "Basic code" and "6" in nodes


def test_index_groups_set_beside_their_first_entry_are_the_index_clauses(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """An index whose letters (`A`) and named groups (`Commands`) are set bold in the margin on the line of their
    first entry: they are its sub-clauses, the entry stays text; a bold entry of the index is no group."""
    builder = pdf_builder().page().heading("1 Scope").line(BODY).heading("2 Index").line(BODY)
    for head, entries in (("Commands", ["\\microtypesetup", "\\textls"]), ("A", ["activate", "auto"]), ("B", ["babel", "beamer"])):
        for number, entry in enumerate(entries):
            y = builder.y = builder.y + 13
            if number == 0:
                builder.pdf.set_font("Helvetica", "B", 10)
                builder.pdf.text(60 if len(head) > 1 else 80, y, head)
            builder.pdf.set_font("Helvetica", "B" if entry == "auto" else "", 10)
            builder.pdf.text(110, y, f"{entry} {'. ' * 20} 5")
    pdf = builder.save(tmp_path / "index-groups.pdf")
    report = ingest(pdf, "TEST 158", "1", workspace=workspace, language="en")
    assert [(node.path, node.depth) for node in read_back(workspace, report).nodes][2:] == [("Commands", 2), ("A", 2), ("B", 2)]
    text = norm_text(workspace, report)
    assert "## A\n\nactivate" in text and "auto" in text


def test_a_part_title_wrapped_at_a_hyphen_is_joined_like_every_title(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`Part II` over a title broken at its hyphen (`Selecting font fea-` / `tures and scripts`): one word again."""
    builder = pdf_builder().page().heading("1 Scope").line(BODY).line("The scope ends here.")
    builder.page().line("Part II", size=20, bold=True).line("Selecting font fea-", size=20, bold=True)
    builder.line("tures and scripts", size=20, bold=True).gap().heading("1 Main commands").line(BODY).line("The commands.")
    pdf = builder.save(tmp_path / "part-hyphen.pdf")
    report = ingest(pdf, "TEST 159", "1", workspace=workspace, language="en")
    titles = {node.path: node.title for node in read_back(workspace, report).nodes}
    assert titles["Part II"] == "Selecting font features and scripts"


def _appendix_document(builder: PdfBuilder, outline: bool) -> PdfBuilder:
    """A manual whose contents run its sections together on one line (`1.1 Terms 2, 1.2 Symbols 2, 1.3 Units 3`) and list
    appendices `A`, `B`, `C` each printed as its letter alone over its title; an index with a letter group `A` ends it."""
    builder.page().line("Contents", size=16, bold=True).gap()
    builder.line(f"1 Scope {'. ' * 30} 2").line("1.1 Terms 2, 1.2 Symbols 2, 1.3 Units 3", x=87)
    builder.line(f"2 Loads {'. ' * 30} 4").line("2.1 Dead loads 4, 2.2 Live loads 4", x=87)
    builder.line(f"A Worked examples {'. ' * 25} 5").line(f"A.1 Beams {'. ' * 28} 5", x=87)
    builder.line(f"B Tables {'. ' * 30} 6").line(f"C Notation {'. ' * 29} 7").line(f"Index {'. ' * 32} 8")
    for number, title, sections in (("1", "Scope", [("1.1", "Terms"), ("1.2", "Symbols")]), ("2", "Loads", [])):
        builder.page()
        _bookmarked(builder, [f"{number} {title}"], f"{number} {title}", 0) if outline else builder.heading(f"{number} {title}")
        builder.line(BODY).line(BODY)
        for path, section in sections:  # set as plain text: only the contents tell they are clauses
            builder.line(f"{path} {section}").line(BODY).line(BODY)
        if number == "1":
            builder.page().line("1.3 Units").line(BODY).line(BODY)
        else:
            builder.line("2.1 Dead loads").line(BODY).line("2.2 Live loads").line(BODY)
    for letter, title in (("A", "Worked examples"), ("B", "Tables"), ("C", "Notation")):
        builder.page()
        if outline:
            builder.bookmarked([letter, title], f"{letter} {title}", 0, size=22)
        else:
            builder.line(letter, size=24, bold=True).line(title, size=22, bold=True)
        builder.line(BODY).line(BODY)
        if letter == "A":
            builder.heading("A.1 Beams", level=1).line(BODY).line(BODY)
    builder.page()
    _bookmarked(builder, ["Index"], "Index", 0) if outline else builder.heading("Index")
    builder.line("A", bold=True)
    for word in ("anchorage", "axial force", "arch"):
        builder.line(f"{word}, 3, 5", x=90)
    return builder


def test_run_together_contents_entries_and_appendices_printed_as_their_letter(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Without an outline: each section of a run-together contents line is a clause on its page; an appendix printed as
    its letter alone over its title has the letter as its path (SPEC §1: the path as printed), `A` with its clause
    `A.1`, then `B` and `C` that go on from it (`C`, set large at the top of its page, is no roman page number); the
    index's letter group `A` comes after the appendix `A`, so it is `A (2)`."""
    pdf = _appendix_document(pdf_builder(), outline=False).save(tmp_path / "appendices.pdf")
    report = ingest(pdf, "TEST 160", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title) for node in nodes] == [
        ("Contents", "Contents"),
        ("1", "Scope"),
        ("1.1", "Terms"),
        ("1.2", "Symbols"),
        ("1.3", "Units"),
        ("2", "Loads"),
        ("2.1", "Dead loads"),
        ("2.2", "Live loads"),
        ("A", "Worked examples"),
        ("A.1", "Beams"),
        ("B", "Tables"),
        ("C", "Notation"),
        ("Index", "Index"),
        ("A (2)", "A (2)"),  # a repeated unnumbered title is numbered, as `Examples (2)` is
    ]
    assert {node.path: node.parent_path for node in nodes}["A.1"] == "A"


def test_with_an_outline_an_appendix_bookmark_printed_as_its_letter_alone(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Bookmarks `A Worked examples`, `B Tables`, `C Notation` whose pages print the letter alone over the title: the
    paths are `A`, `B`, `C` and the titles are without the letter, as without the outline."""
    pdf = _appendix_document(pdf_builder(), outline=True).save(tmp_path / "appendices-outline.pdf")
    report = ingest(pdf, "TEST 161", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    appendices = [(node.path, node.title) for node in nodes if node.path in ("A", "B", "C")]
    assert appendices == [("A", "Worked examples"), ("B", "Tables"), ("C", "Notation")]


def test_contents_whose_page_numbers_start_again_and_entries_numbered_with_a_dot(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A collection of two reports, each numbered from page 1, under one contents: `1. Part One 1` is found where the
    page prints `1. PART ONE` (a number with a dot is no list item when it is the entry's), and the second report's
    entries are looked for after the first report, wherever its pages start again."""
    builder = pdf_builder().page().line("Contents", size=16, bold=True).gap()
    builder.line(f"1. Part One {'. ' * 30} 1").line(f"1.1. Chapter 1 {'. ' * 28} 1", x=87).line(f"2. Part Two {'. ' * 30} 2")
    builder.line(f"Second report {'. ' * 28} 1").line(f"Methods {'. ' * 30} 1", x=87).line(f"Results {'. ' * 30} 2", x=87)
    builder.page().line("1. PART ONE", size=14, bold=True).line(BODY).line(BODY)
    builder.line("1.1. Chapter 1", size=13, bold=True).line(BODY).line(BODY)
    builder.page().line("2. PART TWO", size=14, bold=True)
    for _ in range(6):  # a long second part: the second report starts far from where the first one's pages pointed
        builder.line(BODY).line(BODY).page()
    builder.line("SECOND REPORT", size=16, bold=True).line(BODY).line("Methods", bold=True).line(BODY).line(BODY)
    builder.page().line("Results", bold=True).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "collection.pdf")
    report = ingest(pdf, "TEST 162", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title, node.page_start) for node in nodes if node.path != "Contents"] == [
        ("1", "Part One", 2),
        ("1.1", "Chapter 1", 2),
        ("2", "Part Two", 3),
        ("Second report", "Second report", 9),
        ("Methods", "Methods", 9),
        ("Results", "Results", 10),
    ]


def test_a_page_number_of_an_index_entry_above_a_letter_group_is_no_clause_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """With an outline: an index entry wrapped so that its page `474` stands alone on the line above the bookmarked letter
    group `Z` (bold at the body size) does not number it; a chapter's number set large above its title still does."""
    builder = pdf_builder().page().line(BODY).line(BODY).line(BODY)  # (a number alone at the top of a page is its folio)
    builder.line("3", size=24, bold=True)
    _bookmarked(builder, ["Loads"], "Loads", 0)
    builder.page()
    _bookmarked(builder, ["Index"], "Index", 0)
    builder.line("You have used an option that needs a file, see", x=90).line("474", x=110)
    builder.bookmarked(["Z"], "Z", 1, size=10).line("zero-sized picture, 124", x=90)
    pdf = builder.save(tmp_path / "index-z.pdf")
    report = ingest(pdf, "TEST 163", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("Front matter", "Front matter"),
        ("3", "Loads"),
        ("Index", "Index"),
        ("Z", "Z"),
    ]


def test_font_changes_left_in_roff_notation_in_a_bookmark_are_no_text(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """groff's pdfmark writes `The F[C]pdfmarkF[] Operator` for a title whose word `pdfmark` is set in another font:
    the clause's title is `The pdfmark Operator`, as printed."""
    builder = pdf_builder().page()
    _bookmarked(builder, ["2.1 The pdfmark Operator"], "2.1. The F[C]pdfmarkF[] Operator", 0)
    pdf = builder.save(tmp_path / "roff-font.pdf")
    report = ingest(pdf, "TEST 164", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [("2.1", "The pdfmark Operator")]


def test_a_number_the_contents_placed_in_one_part_is_found_again_in_another(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Without an outline: parts that each number their sections from 1, the contents listing only the first part's; the
    second part's `2 Graphite`, set as the first part's headings are, is its clause `II.2` (the `2` placed by the
    contents in Part I does not hide it)."""
    builder = pdf_builder().page().line("Contents", size=16, bold=True).gap()
    builder.line(f"Part I Basics {'. ' * 30} 2").line(f"1 Loading {'. ' * 30} 2", x=87).line(f"2 Scaling {'. ' * 30} 2", x=87)
    builder.page().line("Part I", size=20, bold=True).line("Basics", size=20, bold=True)
    for title in ("1 Loading", "2 Scaling"):
        builder.heading(title).line(BODY).line(BODY)
    builder.page().line("Part II", size=20, bold=True).line("Renderers", size=20, bold=True)
    for title in ("1 Mapping", "2 Graphite"):
        builder.heading(title).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "parts-contents.pdf")
    report = ingest(pdf, "TEST 165", "1", workspace=workspace, language="en")
    paths = [node.path for node in read_back(workspace, report).nodes]
    assert paths[-3:] == ["Part II", "II.1", "II.2"]


def test_repeated_unnumbered_titles_are_counted_as_the_bundle_reads_paths(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`Data-file` after `Datafile` is the same path to the bundle (hyphens ignored), so it is `Data-file (2)`; `Origin`
    after `Origin=` is another path and keeps its title as printed."""
    builder = pdf_builder().page()
    for title in ("Datafile", "Origin=", "Data-file", "Origin"):
        _bookmarked(builder, [title], title, 0, size=13)
    pdf = builder.save(tmp_path / "repeated.pdf")
    report = ingest(pdf, "TEST 166", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [node.path for node in bundle.nodes] == ["Datafile", "Origin=", "Data-file (2)", "Origin"]
    assert not [problem for problem in bundle.problems if problem.kind == "duplicate_path"]


def test_a_bookmark_is_placed_on_the_line_that_holds_its_whole_title_not_on_bullet_items() -> None:
    """A bookmark `Latin Modern Roman/New Computer Modern` without a target height, on a page that lists the fonts as
    bullet items (`• Latin Modern Roman`, `• New Computer Modern`) above the heading `3.1.1 Latin Modern Roman/New
    Computer Modern`: the heading line is the one found, not the first bullet item."""
    from normcli.importers.pdf_pages import Line
    from normcli.importers.pdf_tree import _find_heading_line

    texts = ["• Latin Modern Roman", "• New Computer Modern", "The settings follow.", "3.1.1 Latin Modern Roman/New Computer Modern"]
    stream = [Line(0, text, 72, 400, 700 - 20 * k, 690 - 20 * k, 10) for k, text in enumerate(texts)]
    assert _find_heading_line(stream, list(range(len(stream))), "Latin Modern Roman/New Computer Modern", None, set()) == 3


def _noted_heading(builder: PdfBuilder, note: str, text: str, bookmark: str | None = None) -> PdfBuilder:
    """A 13 pt bold heading with a version mark set apart in the left margin on its baseline (`v1.2.0`, 8 pt)."""
    builder.y += 16
    if bookmark:
        builder.pdf.set_y(builder.y - 13)
        builder.pdf.start_section(bookmark, level=1)
    builder.pdf.set_font("Helvetica", "", 8)
    builder.pdf.text(20, builder.y, note)
    builder.pdf.set_font("Helvetica", "B", 13)
    builder.pdf.text(110, builder.y, text)
    builder.y += 10
    return builder.line(BODY, x=110).line(BODY, x=110)


def test_a_version_mark_in_the_margin_before_a_clause_number_is_passed_over(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`v1.2.0` set in the margin on the line of `1.2 bengali` (a package manual marks the sections a version added):
    the heading is clause 1.2, found by layout without an outline and numbered from the page with one."""
    for outline in (False, True):
        builder = pdf_builder().page()
        _bookmarked(builder, ["1 Languages"], "1 Languages", 0) if outline else builder.heading("1 Languages")
        builder.line(BODY, x=110).line(BODY, x=110)
        _noted_heading(builder, "v1.0", "1.1 afrikaans", "afrikaans" if outline else None)
        _noted_heading(builder, "v1.2.0", "1.2 bengali", "bengali" if outline else None)
        _noted_heading(builder, "v1.3", "1.3 chinese", "chinese" if outline else None)
        pdf = builder.save(tmp_path / f"noted-{outline}.pdf")
        report = ingest(pdf, f"TEST 17{int(outline)}", "1", workspace=workspace, language="en")
        nodes = read_back(workspace, report).nodes
        assert [(node.path, node.title) for node in nodes] == [
            ("1", "Languages"),
            ("1.1", "afrikaans"),
            ("1.2", "bengali"),
            ("1.3", "chinese"),
        ], outline


def test_a_title_page_before_the_same_title_over_the_text_is_no_clause_of_its_own(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A title page (`Field Notes`, `by`, its author), then the contents, then the same title over the first page of the
    text: the clause `Field Notes` is the one over the text, not a `Field Notes (2)` beside the title page's. And a
    contents entry naming a title page (`Second Study`, its authors) is the heading over the next page's text."""
    builder = pdf_builder().page().gap(200).line("Field Notes", size=16, bold=True).line("by", size=12).line("A. Author", size=12)
    builder.page().line("Contents", size=16, bold=True).gap()
    builder.line(f"1. Overview {'. ' * 30} 3").line(f"2. Details {'. ' * 30} 3").line(f"Second Study {'. ' * 30} 4")
    builder.page().line("Field Notes", size=16, bold=True).line(BODY).line(BODY)
    builder.line("1. Overview", size=13, bold=True).line(BODY).line(BODY).line("2. Details", size=13, bold=True).line(BODY)
    builder.page().gap(200).line("SECOND STUDY", size=15, bold=True).line("by", size=12).line("B. Writer and C. Author", size=12)
    builder.page().line("SECOND STUDY", size=15, bold=True).line(BODY).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "title-pages.pdf")
    report = ingest(pdf, "TEST 172", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.page_start) for node in nodes] == [
        ("Front matter", 1),
        ("Contents", 2),
        ("Field Notes", 3),
        ("1", 3),
        ("2", 3),
        ("Second Study", 5),
    ]


def test_with_an_outline_a_title_page_is_named_by_its_title_as_without_one(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A manual with bookmarks only from chapter 1 on: its title page is the node `Policy Manual` (its largest line), the
    contents are `Contents`, the abstract after them `Front matter`, never `Front matter (2)`; the same without the outline."""
    for outline in (True, False):
        builder = pdf_builder().page().gap(200).line("Policy Manual", size=20, bold=True).line("Version 4.6, 2026", size=12)
        builder.page().line("Contents", size=16, bold=True).gap()
        builder.line(f"1 About this manual {'. ' * 25} 4").line(f"1.1 Scope {'. ' * 30} 4", x=87)
        builder.page()
        for words in ("the policy requirements", "the archive's structure", "the design of the system", "each package's duties"):
            builder.line(f"This manual describes {words} of the distribution, over a full line of prose.")
        builder.page()
        _bookmarked(builder, ["1 About this manual"], "1 About this manual", 0) if outline else builder.heading("1 About this manual")
        builder.line(BODY).line(BODY)
        _bookmarked(builder, ["1.1 Scope"], "1.1 Scope", 1, size=13) if outline else builder.heading("1.1 Scope", level=1)
        builder.line(BODY).line(BODY)
        pdf = builder.save(tmp_path / f"title-page-{outline}.pdf")
        report = ingest(pdf, f"TEST 18{int(outline)}", "1", workspace=workspace, language="en")
        nodes = read_back(workspace, report).nodes
        assert [node.path for node in nodes] == ["Policy Manual", "Contents", "Front matter", "1", "1.1"], outline


def test_a_logo_word_set_larger_than_the_title_does_not_name_the_norm(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A title page whose title (`Sketchbook: the Vector Graphics` / `Language`, 20 pt) sits above a logo whose word is set
    larger (`ketchbook`, 25 pt, beside a drawn letter): the norm's title is the title, wrapped lines joined, not the
    logo's word (the title page is the node named by it)."""
    builder = pdf_builder().page().gap(100)
    builder.line("Sketchbook: the Vector Graphics", size=20, bold=True).line("Language", size=20, bold=True).gap(40)
    builder.line("ketchbook", size=25, x=260)
    builder.page().heading("1 Scope").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "logo.pdf")
    report = ingest(pdf, "TEST 190", "1", workspace=workspace, language="en")
    assert read_back(workspace, report).nodes[0].title == "Sketchbook: the Vector Graphics Language"


CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
needs_corpus = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/corpus is not there")


@needs_corpus
def test_policy_with_its_outline_names_its_title_page_and_its_front_matter_once(workspace: Path) -> None:
    """Debian Policy's bookmarks start at chapter 1: its title page is the node `Debian Policy Manual` (its largest line,
    as without the outline) and the abstract after the printed contents is `Front matter`, not `Front matter (2)`."""
    report = ingest(CORPUS / "debian-policy" / "policy.pdf", "TEST 200", "1", workspace=workspace, language="en")
    paths = [node.path for node in read_back(workspace, report).nodes]
    assert paths[:4] == ["Debian Policy Manual", "CONTENTS", "Front matter", "1"]
    assert not [path for path in paths if path.startswith("Front matter (")]


@needs_corpus
def test_debian_reference_without_its_outline_keeps_the_appendix_path_its_page_prints(workspace: Path) -> None:
    """The contents list `A Appendix 232` and page 232 prints `Appendix A` over `Appendix`: without the outline the clause
    is `Appendix A` (the path as printed), its sections `A.1` … under it."""
    source = CORPUS / "debian-reference" / "debian-reference.en.pdf"
    report = ingest(source, "TEST 201", "1", workspace=workspace, language="en", use_outline=False)
    nodes = {node.path: node for node in read_back(workspace, report).nodes}
    assert nodes["Appendix A"].title == "Appendix" and nodes["A.1"].parent_path == "Appendix A"


def test_an_index_letter_group_at_the_top_of_a_page_is_no_roman_page_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """An index whose second page opens with the bold letter group `D` (also the roman numeral 500): it is the index's
    sub-clause `D`, not a page number dropped with the page's furniture."""
    builder = pdf_builder().page().heading("1 Scope").line(BODY).line(BODY).heading("2 Index").line("A", x=250, bold=True)
    for word in ("anchorage", "axial force", "arch", "area"):
        builder.line(f"{word}, 3, 5", x=90)
    builder.page().line("D", x=250, bold=True)
    for word in ("dead load", "deflection", "design value"):
        builder.line(f"{word}, 4", x=90)
    pdf = builder.save(tmp_path / "index-d.pdf")
    report = ingest(pdf, "TEST 191", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes] == ["1", "2", "A", "D"]


def test_a_bookmark_finds_its_title_printed_with_a_logo_whose_letters_come_out_of_order(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """The bookmark `VII Fonts and features with XeTeX` over a page printing `Part VII` and the title with the XeTeX logo,
    whose lowered and mirrored letters the text layer gives as `X TEEX`: the heading is found, so it is the part `Part VII`."""
    builder = pdf_builder().page()
    _bookmarked(builder, ["Part VII", "Fonts and features with X TEEX"], "VII Fonts and features with XeTeX", 0, size=20)
    _bookmarked(builder, ["1 Mapping"], "1 Mapping", 1, size=13)
    pdf = builder.save(tmp_path / "logo-part.pdf")
    report = ingest(pdf, "TEST 192", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes][:2] == ["Part VII", "1"]


def test_an_index_followed_by_a_list_of_figures_stays_the_index(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """An index near the end of a manual, its entries behind dot leaders, and after it a `List of Figures` on the
    next page: the list is printed contents, the index is not (its entries stay under the `Index` clause)."""
    builder = pdf_builder()
    for chapter in range(1, 7):
        builder.page().heading(f"{chapter} Chapter number {chapter}").line(BODY).line(BODY)
    builder.page().line("Index", size=16, bold=True).gap()
    entries = [f"command{letter}{row} {'. ' * 25} {10 + row}" for letter in "abcd" for row in range(6)]
    for entry in entries:
        builder.line(entry)
    builder.page().line("List of Figures", size=16, bold=True).gap()
    for figure in range(1, 9):
        builder.line(f"{figure} A figure of chapter {figure % 6 + 1} {'. ' * 25} {figure + 1}")
    pdf = builder.save(tmp_path / "index-then-figures.pdf")
    report = ingest(pdf, "TEST 160", "1", workspace=workspace, language="en")
    paths = [node.path for node in read_back(workspace, report).nodes]
    assert paths[:6] == ["1", "2", "3", "4", "5", "6"] and "Index" in paths[6:]
    text = norm_text(workspace, report)
    index_clause = text[text.index("# Index") :]
    assert all(entry.split()[0] in index_clause for entry in entries)


def test_a_bookmark_written_in_utf8_but_stored_as_pdfdocencoding_reads_as_printed(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A producer that writes a bookmark's UTF-8 bytes into a PDFDocEncoding string (`RÃ©sumÃ©` for `Résumé`):
    the clause's title is the one the page prints, not the misread bytes."""
    builder = pdf_builder().page()
    builder.bookmarked(["1 Résumé des charges"], "1 " + "Résumé des charges".encode().decode("latin-1"), 0).line(BODY)
    builder.bookmarked(["2 Sécurité structurale"], "2 Sécurité structurale", 0).line(BODY)  # stored right: kept
    pdf = builder.save(tmp_path / "misread.pdf")
    report = ingest(pdf, "TEST 161", "1", workspace=workspace, language="fr")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Résumé des charges"),
        ("2", "Sécurité structurale"),
    ]


def test_a_drawing_label_above_a_heading_is_not_its_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A plot's axis label `4` in text size just above an unnumbered heading is no chapter number; `Chapter 2` set
    a size smaller than its title above it still is."""
    builder = pdf_builder().page()
    builder.bookmarked(["Chapter 1", "Tableaux en couleur"], "Tableaux en couleur", 0, size=20).line(BODY).line(BODY)
    builder.line("0", x=200).line("4", x=120)  # the labels of a drawing, in the body size
    builder.bookmarked(["Nom des fonctions"], "Nom des fonctions", 0, size=17).line(BODY)
    builder.page().line("Chapter 2", size=20, bold=True)
    builder.bookmarked(["Variations"], "Variations", 0, size=25).line(BODY)
    pdf = builder.save(tmp_path / "labels.pdf")
    report = ingest(pdf, "TEST 162", "1", workspace=workspace, language="fr")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes][-3:] == [
        ("1", "Tableaux en couleur"),
        ("Nom des fonctions", "Nom des fonctions"),
        ("2", "Variations"),
    ]


def test_a_title_wrapped_onto_a_second_line_is_one_title_and_no_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Without an outline, a cover title set large over two lines (the second starting `-Räume`) names the first
    node; its second line is no clause of its own."""
    builder = pdf_builder().page()
    builder.line("Das Lastpaket - Schnee-Lasten, Wind-,", size=20).line("-Erdbebenlasten", size=20)
    builder.gap(20).line("Eine fiktive Norm").gap(30)
    builder.heading("1 Einleitung").line(BODY).line(BODY).heading("2 Anwendung").line(BODY)
    pdf = builder.save(tmp_path / "wrapped-title.pdf")
    report = ingest(pdf, "TEST 163", "1", workspace=workspace, language="de")
    nodes = read_back(workspace, report).nodes
    assert [node.title for node in nodes] == ["Das Lastpaket - Schnee-Lasten, Wind-, -Erdbebenlasten", "Einleitung", "Anwendung"]


def test_an_unnumbered_line_set_bold_in_the_body_size_like_numbered_headings_is_one_when_it_stands_alone(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Sub-subsections set bold in the body size (`1.1.2 Term 2`) teach that style: an unnumbered line in it with space
    above (`Worked example`) is a heading of their depth. A bold line run on in a paragraph (no space above) and a
    block of bold lines (a table's head) stay text."""
    builder = pdf_builder().page().heading("1 Scope").line(BODY).heading("1.1 Terms", level=1).line(BODY)
    for number in range(1, 4):
        builder.gap(12).line(f"1.1.{number} Term {number}", bold=True).line(BODY).line(BODY)
    builder.gap(12).line("Worked example", bold=True).line(BODY).line(BODY)
    builder.line("A bold remark", bold=True).line(BODY).line(BODY)
    builder.gap(12).line("Name", bold=True).line("Value", bold=True).line(BODY)
    builder.heading("2 Use").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "bold-body.pdf")
    report = ingest(pdf, "TEST 164", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.depth) for node in nodes] == [
        ("1", 1),
        ("1.1", 2),
        ("1.1.1", 3),
        ("1.1.2", 3),
        ("1.1.3", 3),
        ("Worked example", 3),
        ("2", 1),
    ]
    assert {node.path: node.parent_path for node in nodes}["Worked example"] == "1.1"


def test_a_subclause_number_on_a_line_set_apart_by_space_is_a_heading_in_the_body_face(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Subclauses set in the body face, neither bold nor larger, on a line of their own with space above and below
    (`1.1.1 Loads`), are headings when their numbers follow the clauses; a number in sequence at the start of a line
    of a paragraph (`1.2 kN per metre …`) stays text."""
    builder = pdf_builder().page().heading("1 Scope").line(BODY).heading("1.1 Terms", level=1).line(BODY)
    builder.gap(12).line("1.1.1 Loads").gap(12).line(BODY).line(BODY)
    builder.line("The load on the deck is taken as").line("1.2 kN per metre of the width of the deck").line(BODY)
    builder.gap(12).line("1.1.2 Actions").gap(12).line(BODY).line(BODY)
    builder.heading("2 Use").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "spaced.pdf")
    report = ingest(pdf, "TEST 165", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title) for node in nodes] == [
        ("1", "Scope"),
        ("1.1", "Terms"),
        ("1.1.1", "Loads"),
        ("1.1.2", "Actions"),
        ("2", "Use"),
    ]


def _unicode_pdf(pages: list[list[tuple[str | None, int, str, float]]], path: Path) -> Path:
    """Pages of lines (bookmark or None, bookmark level, text, size) set in DejaVu Sans, bold when larger than the
    body, so that Cyrillic prints; each page ends in body text."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    fonts = Path("/usr/share/fonts/truetype/dejavu")
    if not (fonts / "DejaVuSans.ttf").exists() or not (fonts / "DejaVuSans-Bold.ttf").exists():
        pytest.skip("DejaVu Sans is not installed")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.add_font("DejaVu", "", str(fonts / "DejaVuSans.ttf"))
    pdf.add_font("DejaVu", "B", str(fonts / "DejaVuSans-Bold.ttf"))
    for number, lines in enumerate(pages, start=1):
        pdf.add_page()
        y = 90.0
        words = BODY.split()
        shifted = " ".join(words[number:] + words[:number])  # each page its own text: lines every page repeats are furniture
        text_lines = [(None, 0, shifted, 10), (None, 0, BODY, 10)]
        for bookmark, level, text, size in [*lines, *text_lines]:
            y += size * 1.4
            if bookmark:
                pdf.set_y(y - size)
                pdf.start_section(bookmark, level=level)
            pdf.set_font("DejaVu", "B" if size > 10 else "", size)
            pdf.text(72, y, text)
    pdf.output(str(path))
    return path


def test_a_chapter_word_and_number_above_a_bookmark_in_any_language(workspace: Path, tmp_path: Path) -> None:
    """`Глава 2` over the bookmarked title `Лидерство`, `Capítulo 1` over `Introducción`, `Приложение A` over
    `Манифест`: the chapters 1 and 2 and the appendix `Приложение A` (named as printed), their designation lines part
    of the heading, not text of the clause before; a Cyrillic title matched on its page keeps its printed number."""
    pdf = _unicode_pdf(
        [
            [(None, 0, "Capítulo 1", 20), ("Introducción", 0, "Introducción", 24), ("Начало", 1, "1.1 Начало", 13)],
            [(None, 0, "Глава 2", 20), ("Лидерство", 0, "Лидерство", 24)],
            [(None, 0, "Приложение A", 20), ("Манифест Debian", 0, "Манифест Debian", 24)],
        ],
        tmp_path / "chapters.pdf",
    )
    report = ingest(pdf, "TEST 160", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.title) for node in bundle.nodes] == [
        ("1", "Introducción"),
        ("1.1", "Начало"),
        ("2", "Лидерство"),
        ("Приложение A", "Манифест Debian"),
    ]
    text = norm_text(workspace, report)
    assert "\nГлава 2\n" not in text and "\nCapítulo 1\n" not in text and "\nПриложение A\n" not in text


def _contents_over_two_pages(builder: PdfBuilder) -> PdfBuilder:
    """`Contents` under a running header `Contents` and two entries, then a second contents page whose running header repeats `Contents` (the bookmark
    `Contents` anchored there, as a macro package may set it), then the chapters."""
    builder.page()
    builder.pdf.set_font("Helvetica", "", 10)
    builder.pdf.text(280, 60, "Contents")  # the running header over the title itself
    builder.line("Contents", size=16)
    for entry in ("1 Scope", "2 Loads"):
        builder.line(f"{entry} {'.' * 60} 3")
    builder.page()
    builder.pdf.set_font("Helvetica", "", 10)
    builder.pdf.text(280, 60, "Contents")
    builder.pdf.start_section("Contents", level=0)
    chapters = ["Actions", "Materials", "Design", "Testing", "Tables"]
    for number, title in enumerate(chapters, start=3):
        builder.line(f"{number} {title} {'.' * 60} {number + 1}")
    builder.page()
    _bookmarked(builder, ["1 Scope"], "1 Scope", 0)
    _bookmarked(builder, ["2 Loads"], "2 Loads", 0)
    for number, title in enumerate(chapters, start=3):  # a page each: the running header is no furniture of every page
        _bookmarked(builder.page(), [f"{number} {title}"], f"{number} {title}", 0)
    return builder


@pytest.mark.parametrize("use_outline", [True, False])
def test_contents_whose_next_page_repeats_its_title_are_one_node(pdf_builder, workspace: Path, tmp_path: Path, use_outline: bool) -> None:
    """The second page of the contents repeats `Contents` as its running header, and the bookmark `Contents` points
    there: one `Contents` node from the first contents page (no `Contents (2)`), with or without the outline."""
    pdf = _contents_over_two_pages(pdf_builder()).save(tmp_path / "contents.pdf")
    report = ingest(pdf, "TEST 161", "1", workspace=workspace, language="en", use_outline=use_outline)
    bundle = read_back(workspace, report)
    paths = [("Contents", 1), ("1", 3), ("2", 3), ("3", 4), ("4", 5), ("5", 6), ("6", 7), ("7", 8)]
    assert [(node.path, node.page_start) for node in bundle.nodes] == paths


def test_the_size_of_listings_half_in_a_fixed_pitch_font_is_not_the_body_size(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Numbered listings set small, every other line in a fixed-pitch font and the rest in a face the flag misses,
    outweigh the prose: the size that sets much of its text fixed-pitch is the listings', so the body size is the
    prose's and a subclause set bold barely larger than it (`1.1 Expansion`) keeps its title, not the line below."""
    builder = pdf_builder()
    for number in (1, 2):
        builder.page().line(f"{number} Chapter {number}", size=14, bold=True).line(BODY)
        builder.line(f"{number}.1 Expansion", size=10.2, bold=True).line("Set up the expansion of the fonts.", size=10)
        builder.line(BODY).line(BODY)
        for row in range(24):
            builder.y += 10
            if row % 2:
                builder.pdf.set_font("Courier", "", 8)
                builder.pdf.text(72, builder.y, f"\\def\\macro{row}{{\\relax}} % a line of the code listing {row}")
            else:
                builder.pdf.set_font("Helvetica", "", 8)
                builder.pdf.text(72, builder.y, f"{2000 + row} the comment of this numbered code line")
    pdf = builder.save(tmp_path / "listings.pdf")
    report = ingest(pdf, "TEST 166", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Chapter 1"),
        ("1.1", "Expansion"),
        ("2", "Chapter 2"),
        ("2.1", "Expansion"),
    ]


def test_a_bold_heading_titled_by_one_letter_and_a_digit_is_a_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`1.2 T1` (an encoding's name) set bold as its siblings is a heading; a numbered line of digits and one letter in
    the body face (`2 3 x`) stays text."""
    builder = pdf_builder().page().heading("1 Encodings").line(BODY)
    for number, title in enumerate(("OT1", "T1", "LY1"), start=1):
        builder.heading(f"1.{number} {title}", level=1).line(BODY).line(BODY)
    builder.line("2 3 x").line(BODY)
    pdf = builder.save(tmp_path / "encodings.pdf")
    report = ingest(pdf, "TEST 167", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Encodings"),
        ("1.1", "OT1"),
        ("1.2", "T1"),
        ("1.3", "LY1"),
    ]


def test_bookmarks_numbered_from_zero_keep_their_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`0.1 Core feature` under `Part I` (a class that counts chapters from 0) is the clause 0.1, qualified by its part
    as the numbering that restarts in Parts II and III is (`I.0.1`, `II.1`, `III.1`), never a title that merely starts
    with a number."""
    builder = pdf_builder().page()
    _bookmarked(builder, ["Part I", "Usage"], "I Usage", 0, size=20)
    _bookmarked(builder, ["0.1 Core feature"], "0.1 Core feature", 1, size=13)
    _bookmarked(builder, ["0.2 Head"], "0.2 Head", 1, size=13)
    builder.page()
    _bookmarked(builder, ["Part II", "Other"], "II Other", 0, size=20)
    _bookmarked(builder, ["1 Bibliography"], "1 Bibliography", 1)
    _bookmarked(builder, ["2 To do"], "2 To do", 1)
    builder.page()
    _bookmarked(builder, ["Part III", "Examples"], "III Examples", 0, size=20)
    _bookmarked(builder, ["1 Letters"], "1 Letters", 1)
    pdf = builder.save(tmp_path / "zero.pdf")
    report = ingest(pdf, "TEST 162", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("Part I", "Usage"),
        ("I.0.1", "Core feature"),
        ("I.0.2", "Head"),
        ("Part II", "Other"),
        ("II.1", "Bibliography"),
        ("II.2", "To do"),
        ("Part III", "Examples"),
        ("III.1", "Letters"),
    ]


def test_a_drawing_label_above_a_bookmarked_title_is_no_chapter_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The labels `0` and `1` of a drawing's axis, in text size, right above the bookmarked heading `Parametric curves`
    are no chapter number: the clause is unnumbered (a lone regular digit is not `bold throughout`)."""
    builder = pdf_builder().page()
    _bookmarked(builder, ["Variation tables"], "Variation tables", 0)
    builder.line("0", x=340).line("1", x=400)
    _bookmarked(builder, ["Parametric curves"], "Parametric curves", 1, size=12)
    pdf = builder.save(tmp_path / "labels.pdf")
    report = ingest(pdf, "TEST 163", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("Variation tables", "Variation tables"),
        ("Parametric curves", "Parametric curves"),
    ]


def test_printed_contents_with_page_numbers_at_the_right_margin_and_no_leaders(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A contents page whose page numbers stand alone at the right margin, without dot leaders (read as lines of their
    own): it is the contents node, and its entries anchor `2 Requirements`, a heading set as plain text."""
    builder = pdf_builder()
    builder.page().line("ACME Example Standard", size=20).line("Edition 2030, an example for importers to read.")
    builder.page().line("Contents", size=16).gap(30)
    for entry, page in (("1 Scope", 1), ("1.1 Terms", 1), ("2 Requirements", 2), ("2.1 General", 2), ("Bibliography", 3)):
        builder.line(entry)
        builder.pdf.text(500, builder.y, str(page))
    builder.page().heading("1 Scope").line("This standard applies to the design of small examples for importers.")
    builder.heading("1.1 Terms", level=1).line("A term is defined here with enough words to be a real paragraph of text.")
    builder.page().line("2 Requirements").line("The requirements of this standard are given in the clauses below here.")
    builder.heading("2.1 General", level=1).line("General requirements apply to every example that is imported by a tool.")
    builder.page().line("Bibliography", size=13, bold=True).line("[1] An example reference, with its title and its year of 2030.")
    pdf = builder.save(tmp_path / "contents-right.pdf")
    report = ingest(pdf, "TEST 164", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [node.path for node in bundle.nodes][1:] == ["Contents", "1", "1.1", "2", "2.1", "Bibliography"]
    assert next(node for node in bundle.nodes if node.path == "2").page_start == 4
    text = norm_text(workspace, report)
    assert "Requirements" not in text[text.index("# 1 Scope") : text.index("# 2 Requirements")]


def test_old_style_figures_in_the_private_use_area_are_digits(workspace: Path, tmp_path: Path) -> None:
    """A font that maps its old-style figures to the Private Use Area (U+F730…U+F739, Adobe's `zero.oldstyle` …) prints
    `1 Scope` and `2 Loads`: the headings are numbered 1 and 2 and the text keeps its digits."""
    import re

    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    font = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
    if not font.exists():
        pytest.skip("DejaVu Sans is not installed")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_compression(False)
    pdf.add_font("DejaVu", "", str(font))
    pdf.add_page()
    y = 100.0
    for text, size in [("1 Scope", 16), (BODY, 10), ("It applies from 2030 on.", 10), ("2 Loads", 16), (BODY, 10)]:
        pdf.set_font("DejaVu", "", size)
        pdf.text(72, y, text)
        y += size * 2
    path = tmp_path / "oldstyle.pdf"
    pdf.output(str(path))
    # the font's ToUnicode map says U+F731 where it printed `1`: as a font with old-style figures does
    data = re.sub(rb"(<[0-9A-F]{4}> )<003([0-9])>", rb"\1<F73\2>", path.read_bytes())
    path.write_bytes(data)
    report = ingest(path, "TEST 165", "1", workspace=workspace, language="en")
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [("1", "Scope"), ("2", "Loads")]
    assert "from 2030 on" in norm_text(workspace, report)


@pytest.mark.parametrize("use_outline", [True, False])
def test_appendices_printed_as_a_letter_and_a_stop(pdf_builder, workspace: Path, tmp_path: Path, use_outline: bool) -> None:
    """Pages print `A. Packages`, `B. Macros`, `C. Teachers` and `C.1. Design setup` (bookmarks without the letters,
    contents listing them): the appendices A, B and C, their paths the letters as printed, with or without the outline."""
    builder = pdf_builder().page().line("Contents", size=16)
    listed = [("1 Scope", 2), ("A. Packages", 3), ("B. Macros", 4), ("C. Teachers", 5), ("C.1. Design setup", 5)]
    for entry, page in listed:
        builder.line(f"{entry} {'.' * 60} {page}")
    _bookmarked(builder.page(), ["1 Scope"], "1 Scope", 0)
    _bookmarked(builder.page(), ["A. Packages"], "Packages", 0)
    _bookmarked(builder.page(), ["B. Macros"], "Macros", 0)
    _bookmarked(builder.page(), ["C. Teachers"], "Teachers", 0)
    _bookmarked(builder, ["C.1. Design setup"], "Design setup", 1, size=13)
    pdf = builder.save(tmp_path / "lettered.pdf")
    report = ingest(pdf, "TEST 166", "1", workspace=workspace, language="en", use_outline=use_outline)
    nodes = [(node.path, node.title) for node in read_back(workspace, report).nodes]
    assert nodes[-5:] == [("1", "Scope"), ("A", "Packages"), ("B", "Macros"), ("C", "Teachers"), ("C.1", "Design setup")]


@pytest.mark.parametrize(("heading", "node"), [("Índice general", "Índice general"), ("Sisukord", "Contents")])
def test_a_contents_title_in_another_language_is_no_part_of_the_first_entry(
    pdf_builder, workspace: Path, tmp_path: Path, heading: str, node: str
) -> None:
    """`Índice general` names the contents node; `Sisukord` (a language the importer has no word for), set far larger
    than the entries, is no head of the first entry: every entry anchors its heading, `1 Scope` and `2 Requirements`
    set as plain text too."""
    builder = pdf_builder()
    builder.page().line("ACME Example Standard", size=20).line("Edition 2030, an example for importers to read.")
    builder.page().line(heading, size=20).gap(20)
    for entry, page in (("1 Scope", 1), ("1.1 Terms", 1), ("2 Requirements", 2), ("2.1 General", 2)):
        builder.line(f"{entry} {'.' * 60} {page}")
    builder.page().line("1 Scope").line("This standard applies to the design of small examples for importers.")
    builder.heading("1.1 Terms", level=1).line("A term is defined here with enough words to be a real paragraph of text.")
    builder.page().line("2 Requirements").line("The requirements of this standard are given in the clauses below here.")
    builder.heading("2.1 General", level=1).line("General requirements apply to every example that is imported by a tool.")
    pdf = builder.save(tmp_path / "contents-title.pdf")
    report = ingest(pdf, "TEST 167", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes][1:] == [node, "1", "1.1", "2", "2.1"]


def test_a_word_in_capitals_with_a_number_above_a_bookmark_is_no_chapter(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`SUMMARY 3` over the bookmarked title `Summary` (a running header and its page, set large) is no chapter 3,
    while `Capítulo 2` over `Loads` is chapter 2."""
    builder = pdf_builder().page()
    builder.line("SUMMARY 3", size=20, bold=True).bookmarked(["Summary"], "Summary", 0, size=24)
    builder.line("The summary of this standard is given over a full line of words here.").line(BODY)
    builder.page().line("Capítulo 2", size=20, bold=True).bookmarked(["Loads"], "Loads", 0, size=24)
    builder.line("Loads are given here with enough words to be a real paragraph of text.").line(BODY)
    pdf = builder.save(tmp_path / "capitals.pdf")
    report = ingest(pdf, "TEST 169", "1", workspace=workspace, language="en")
    nodes = [(node.path, node.title) for node in read_back(workspace, report).nodes]
    assert nodes[-2:] == [("Summary", "Summary"), ("2", "Loads")] and "3" not in [path for path, _ in nodes]


PROSE = "The text column starts here and this line of prose runs on to its right edge."


def _synopses(builder: PdfBuilder, entries: list[list[str]], margin: float | None = None) -> PdfBuilder:
    """A page under `1 Commands` whose text column starts at 128 pt: each entry's lines set out in the margin, the name
    they open with ending just left of the column (or every line from `margin`), running on into the column, then two
    lines of prose at the column's edge."""
    builder.page().line("1 Commands", x=128, size=14, bold=True).line(PROSE, x=128).line(PROSE, x=128)
    for lines in entries:
        builder.gap(6)
        for text in lines:
            builder.y += 13
            builder.pdf.set_font("Courier", "", 10)
            head = re.match(r"\\(?:begin|end)\{|\\\w+|\w+", text)
            assert head is not None
            x = margin if margin is not None else 124 - builder.pdf.get_string_width(head.group(0))
            builder.pdf.text(x, builder.y, text)
        builder.gap(6).line(PROSE, x=128).line(PROSE, x=128)
    return builder


def test_commands_set_out_in_the_margin_are_headings_named_by_the_command(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Synopsis lines that start in the left margin and run on into the text column (a package manual's commands,
    environments, options and terms) are headings one level under the clause, titled by the name they open with; the
    starred form on the line below and an environment's `\\end` line are the same entry's, and every synopsis line
    stays text of its clause."""
    entries = [
        ["\\newrobustcmd{<command>}[<arguments>]{<text>}", "\\newrobustcmd*{<command>}[<arguments>]{<text>}"],
        ["\\begin{displayquote}[<cite>][<punct>]", "\\end{displayquote}"],
        ["strict=true, false"],
        ["\\university{<name>}", "\\school{<name>}"],
        ["article An article in a journal"],
    ]
    pdf = _synopses(pdf_builder(), entries).save(tmp_path / "synopses.pdf")
    report = ingest(pdf, "TEST 170", "1", workspace=workspace, language="en", use_outline=False)
    names = ["\\newrobustcmd", "displayquote", "strict", "\\university", "\\school", "article"]
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes][1:] == [(name, name, 2) for name in names]
    text = norm_text(workspace, report)
    for lines in entries:
        for line in lines:
            assert line.split("{")[0].split("[")[0] in text  # the synopsis is still there, below its heading


def test_a_wide_listing_that_starts_in_the_margin_makes_no_headings(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A block of lines all starting at one x left of the text column (a listing set wider than the text), and a
    document with fewer than three synopsis lines out in the margin: no headings come of them."""
    listing = [f"\\define{letter}{{value}} % line {row} of a wide listing" for row, letter in enumerate("abcdefghij")]
    pdf = _synopses(pdf_builder(), [listing], margin=60).save(tmp_path / "listing.pdf")
    report = ingest(pdf, "TEST 171", "1", workspace=workspace, language="en", use_outline=False)
    assert [node.path for node in read_back(workspace, report).nodes] == ["1"]
    pdf = _synopses(pdf_builder(), [["\\first{<a>}"], ["\\second{<b>}"]]).save(tmp_path / "two.pdf")
    report = ingest(pdf, "TEST 172", "1", workspace=workspace, language="en", use_outline=False)
    assert [node.path for node in read_back(workspace, report).nodes] == ["1"]


def test_terms_listed_one_under_another_in_the_margin_are_each_a_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Terms set out in the margin one right under another (fields described together below them, or entry types each
    described on its own line, running on into the column): each is a heading, as a term over its description is."""
    entries = [
        ["afterword list (name)", "annotator list (name)", "foreword list (name)"],
        ["booklet A book-like work without a formal publisher.", "classictext A custom type for the classic texts."],
    ]
    pdf = _synopses(pdf_builder(), entries).save(tmp_path / "terms.pdf")
    report = ingest(pdf, "TEST 202", "1", workspace=workspace, language="en", use_outline=False)
    names = ["afterword", "annotator", "foreword", "booklet", "classictext"]
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes][1:] == [(name, name, 2) for name in names]


def test_a_command_alone_in_the_margin_against_the_column_is_a_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A command set alone in the margin, ending against the text column, its description below at the column's edge
    (`\\doublevolsdelim`): a heading named by it; a word alone there (a margin note, `New`) is none."""
    entries = [["\\doublevolsdelim"], ["New"], ["\\specialitydelim"], ["\\subtitlepunct"]]
    pdf = _synopses(pdf_builder(), entries).save(tmp_path / "alone.pdf")
    report = ingest(pdf, "TEST 206", "1", workspace=workspace, language="en", use_outline=False)
    names = ["\\doublevolsdelim", "\\specialitydelim", "\\subtitlepunct"]
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes][1:] == [(name, name, 2) for name in names]
    # names a documented source stacks smaller in the margin over each definition of its code: markers, no headings
    builder = _synopses(pdf_builder(), [["\\first{<a>}"], ["\\second{<b>}"], ["\\third{<c>}"]])
    for group in (["\\rrU", "\\RubikU", "\\textRubikU"], ["\\rrD", "\\RubikD", "\\textRubikD"]):
        builder.gap(6)
        for name in group:
            builder.y += 11
            builder.pdf.set_font("Courier", "", 9)
            builder.pdf.text(124 - builder.pdf.get_string_width(name), builder.y, name)
        builder.line(PROSE, x=128).line(PROSE, x=128)
    report = ingest(builder.save(tmp_path / "stacked.pdf"), "TEST 208", "1", workspace=workspace, language="en", use_outline=False)
    assert [node.title for node in read_back(workspace, report).nodes][1:] == ["\\first", "\\second", "\\third"]


def test_a_row_of_a_ruled_table_that_starts_in_the_margin_is_no_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A ruled table set wider than the text, its rows naming a switch left of the column and its meaning running on
    into it (as a synopsis line does), between a rule above and one below that run across them: the rows are the
    table's, no headings, while the synopsis lines elsewhere on the page still are."""
    entries = [["\\first{<a>}"], ["\\second{<b>}"], ["\\third{<c>}"]]
    builder = _synopses(pdf_builder(), entries)
    pdf = builder.pdf
    builder.gap(10)
    pdf.line(40, builder.y, 560, builder.y)
    for name in ("\\ifsd@top", "\\ifsd@toplayer"):
        builder.y += 13
        pdf.set_font("Courier", "", 10)
        pdf.text(124 - pdf.get_string_width(name), builder.y, name)
        pdf.set_font("Helvetica", "", 10)
        pdf.text(128, builder.y, "We are typesetting the top layer of a stack, with its rules.")
        builder.line("This is used to decide where the vertical rules go.", x=128)
    builder.gap(4)
    pdf.line(40, builder.y, 560, builder.y)
    builder.gap(10).line(PROSE, x=128).line(PROSE, x=128)
    path = builder.save(tmp_path / "ruled.pdf")
    report = ingest(path, "TEST 199", "1", workspace=workspace, language="en", use_outline=False)
    assert [node.title for node in read_back(workspace, report).nodes][1:] == ["\\first", "\\second", "\\third"]
    assert "\\ifsd@toplayer" in norm_text(workspace, report)


def test_angle_brackets_of_a_tex_math_symbol_font_without_a_unicode_map_are_brackets(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`\\undef⟨command⟩` whose brackets are set in TeX's math symbol font (`CMSY10`, OMS encoding) embedded without a
    map to Unicode, so its text layer reads `h` and `i` at their codes: the brackets come back, the synopsis line is a
    heading titled `\\undef` (not `\\undefhcommandi`), and the `h` and `i` of every other font stay letters."""
    builder = pdf_builder().page().line("1 Commands", x=128, size=14, bold=True).line(PROSE, x=128).line(PROSE, x=128)
    pdf = builder.pdf
    for name, argument in (("\\undef", "command"), ("\\gundef", "command"), ("\\csundef{", "csname")):
        builder.gap(6)
        builder.y += 13
        pdf.set_font("Courier", "", 10)
        x = 124 - pdf.get_string_width(name.rstrip("{"))
        for family, text in (
            ("Courier", name),
            ("Symbol", "h"),
            ("Times", argument),
            ("Symbol", "i"),
            ("Courier", "}" * name.endswith("{")),
        ):
            pdf.set_font(family, "I" if family == "Times" else "", 10)
            pdf.text(x, builder.y, text)
            x += pdf.get_string_width(text)
        builder.gap(6).line("This command is robust, and which it changes is said here in this line.", x=128).line(PROSE, x=128)
    path = builder.save(tmp_path / "oms.pdf")
    # the font named as TeX's symbol font: same length, so the cross-reference offsets still hold
    path.write_bytes(path.read_bytes().replace(b"/BaseFont /Symbol", b"/BaseFont /CMSY10"))
    report = ingest(path, "TEST 200", "1", workspace=workspace, language="en", use_outline=False)
    assert [node.title for node in read_back(workspace, report).nodes] == ["Commands", "\\undef", "\\gundef", "\\csundef"]
    text = norm_text(workspace, report)
    assert "\\undef⟨command⟩" in text
    assert "\\csundef{⟨csname⟩}" in text
    assert "which it changes is said here in this line" in text


def test_the_entries_of_a_change_log_are_headings_under_it(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A revision history whose entries are a version and a date set bold in the body size, each over what changed
    (`1.1a 2020-10-05`): each is a heading one level under the log. A version that is a clause number (`1.1
    2019-09-21`) numbers it, made unique where a clause has that number; one that opens a page is no running header,
    though the pattern repeats at the top of each page."""
    builder = pdf_builder().page().heading("1 Introduction").line(BODY).heading("1.1 Scope", level=1).line(BODY)
    builder.heading("2 Revision history").line(BODY).line(BODY)
    entries = [("1.1b 2021-03-02", "1.1a 2020-10-05"), ("1.1 2019-09-21", "v1.0 (12-02-2018)"), ("0.9 2017-01-08", "0.8 2016-05-30")]
    for number, (first, second) in enumerate(entries):
        if number:
            builder.page()
            builder.y = 60.0  # the entry opens the page, where a running header would be
        builder.line(first, bold=True).gap(6).line("Fixed the handling of empty lists in the parser.").line(BODY).gap(10)
        builder.line(second, bold=True).gap(6).line("Added an option for the separators of a list.").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "changes.pdf")
    report = ingest(pdf, "TEST 201", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes] == [
        ("1", "Introduction", 1),
        ("1.1", "Scope", 2),
        ("2", "Revision history", 1),
        ("1.1b 2021-03-02", "1.1b 2021-03-02", 2),
        ("1.1a 2020-10-05", "1.1a 2020-10-05", 2),
        ("1.1 (2)", "2019-09-21", 2),
        ("v1.0 (12-02-2018)", "v1.0 (12-02-2018)", 2),
        ("0.9", "2017-01-08", 2),
        ("0.8", "2016-05-30", 2),
    ]


def test_appendices_set_as_chapters_with_their_letter_before_the_title(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Appendices set in the chapters' style, a letter alone before the title and no word for it (`A Implementation`,
    `B Test`), after numbered chapters: each is a heading at the chapters' depth that the bundle reads as the annex
    its letter names (path `A`, SPEC §1), and its clauses `A.1` follow it in the numbering; a line in that style led by a letter out of
    sequence (`C` before `A`) is none."""
    builder = pdf_builder().page().heading("1 Introduction").line(BODY).line(BODY)
    builder.heading("C Programming language notes").line(BODY).heading("2 Usage").line(BODY).line(BODY)
    builder.heading("A Implementation").line(BODY).heading("A.1 Sourcemap", level=1).line(BODY).line(BODY)
    builder.heading("B Test").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "appendices.pdf")
    report = ingest(pdf, "TEST 203", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes] == [
        ("1", "Introduction", 1),
        ("2", "Usage", 1),
        ("A", "Implementation", 1),
        ("A.1", "Sourcemap", 2),
        ("B", "Test", 1),
    ]


def test_an_unnumbered_title_in_the_bold_style_of_chapters_some_holding_code_is_a_chapter(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Chapter titles set large and bold, two of them naming a file in a typewriter face (`3 Generic code
    (tracklang.tex)`): they are one style, so an unnumbered title set large and bold after them (`Change History`) is
    a chapter too; a large line that does not start bold (a display) is none."""
    builder = pdf_builder().page()

    def chapter(parts: list[tuple[str, str]]) -> None:
        builder.y += 30
        x = 72.0
        for family, text in parts:
            builder.pdf.set_font(family, "B" if family == "Helvetica" else "", 16)
            builder.pdf.text(x, builder.y, text)
            x += builder.pdf.get_string_width(text)
        builder.pdf.set_font("Times", "", 10)
        for _ in range(4):
            builder.y += 13
            builder.pdf.text(72, builder.y, BODY)

    chapter([("Helvetica", "1 Introduction")])
    chapter([("Helvetica", "2 Main code "), ("Courier", "(tracklang.sty)")])
    chapter([("Helvetica", "3 Generic code "), ("Courier", "(tracklang.tex)")])
    chapter([("Helvetica", "4 Resources")])
    chapter([("Courier", "\\TrackLang "), ("Helvetica", "the display")])
    chapter([("Helvetica", "Change History")])
    pdf = builder.save(tmp_path / "chapters.pdf")
    report = ingest(pdf, "TEST 204", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes] == [
        ("1", "Introduction", 1),
        ("2", "Main code (tracklang.sty)", 1),
        ("3", "Generic code (tracklang.tex)", 1),
        ("4", "Resources", 1),
        ("Change History", "Change History", 1),
    ]


def test_cyrillic_that_the_text_layer_gives_as_latin1_letters_is_read_back(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Russian set in fonts in the Windows-1251 encoding embedded without a map to Unicode comes out of the text layer
    as the Latin-1 letters at the same codes (`1 Èñõîäíûå ôàéëû`): those pages are read back in Cyrillic, so the
    headings are found and titled as printed; a French page keeps its accented letters."""
    prose = [
        "Неважно, вставляете ли вы один или несколько пробелов между словами.",
        "Пустая строчка начинает новый абзац, а несколько пустых строк равны одной.",
        "Исходные файлы набираются в любом текстовом редакторе и сохраняются на диске.",
        "Пробелы в начале строки не учитываются, а конец строки считается пробелом.",
        "Так набирают тексты давно, и читатель этого не замечает вовсе никогда.",
        "Два пробела подряд печатаются как один, как бы их ни набирали в тексте.",
    ]
    builder = pdf_builder()
    for heading, lines in (("1 Исходные файлы", prose[:3]), ("2 Пробелы", prose[3:])):
        builder.page().heading(heading.encode("cp1251").decode("latin-1"))
        for text in lines:
            builder.line(text.encode("cp1251").decode("latin-1"))
    french = "Les règles de l'été à Genève, où l'on écrit « élève » et « à côté » sans faute."
    builder.page().heading("3 Règles").line(french).line("Une seconde ligne, écrite à Genève, suit la première.")
    pdf = builder.save(tmp_path / "cp1251.pdf")
    report = ingest(pdf, "TEST 205", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Исходные файлы"),
        ("2", "Пробелы"),
        ("3", "Règles"),
    ]
    text = norm_text(workspace, report)
    assert [line for line in prose if line not in text] == []
    assert "Les règles de l'été à Genève" in text


def test_numbered_subclause_titles_in_an_italic_face_at_the_body_size_are_headings(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Subclause titles set in italic at the size of the roman prose, on a line of their own with space above (`3.1
    Citations in Text`): headings, though neither bold nor larger; an italic numbered line inside a paragraph is none."""
    builder = pdf_builder().page().heading("1 Citations")

    def prose(lines: int = 3) -> None:
        builder.pdf.set_font("Times", "", 10)
        for _ in range(lines):
            builder.y += 13
            builder.pdf.text(72, builder.y, BODY)

    prose()
    for title in ("1.1 Citations in text", "1.2 Citations in parenthesis", "1.3 List of references"):
        builder.y += 22
        builder.pdf.set_font("Times", "I", 10)
        builder.pdf.text(72, builder.y, title)
        builder.y += 2  # little more than the leading below it
        prose()
    builder.y += 13
    builder.pdf.set_font("Times", "I", 10)
    builder.pdf.text(72, builder.y, "1.4 Quotations in the text")  # no space above: a line of the paragraph
    prose(2)
    pdf = builder.save(tmp_path / "italic.pdf")
    report = ingest(pdf, "TEST 207", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Citations"),
        ("1.1", "Citations in text"),
        ("1.2", "Citations in parenthesis"),
        ("1.3", "List of references"),
    ]


def _units(builder: PdfBuilder, titles: list[str]) -> PdfBuilder:
    """`1 Process units` and `1.1 Storage`, then each title bold in the body size on a line of its own, space above it,
    over a paragraph; a bold line run into a paragraph on the way."""
    builder.page().heading("1 Process units").line(BODY).heading("1.1 Storage", level=1).line(BODY)
    for number, title in enumerate(titles):
        builder.gap(10).line(title, bold=True).line(BODY).line(BODY)
        if number == 0:
            builder.line("Important", bold=True).line(BODY)  # no space above: part of the paragraph
    return builder


@pytest.mark.parametrize("titles", [["Tank", "Cone Roof Tank", "Silos", "Drum", "Hopper"], ["Tank", "Silos"]])
def test_bold_titles_in_the_body_size_below_the_numbered_levels_are_headings(
    pdf_builder, workspace: Path, tmp_path: Path, titles: list[str]
) -> None:
    """Three lines or more set bold in the body size, each on its own with space above (the unnumbered level below
    the numbered ones), are headings one level under the clause above them; a bold line run into its paragraph is not,
    nor are two such lines alone (too few to make a style)."""
    pdf = _units(pdf_builder(), titles).save(tmp_path / "units.pdf")
    report = ingest(pdf, "TEST 173", "1", workspace=workspace, language="en", use_outline=False)
    expected = [("1", "Process units", 1), ("1.1", "Storage", 2)]
    if len(titles) >= 3:
        expected += [(title, title, 3) for title in titles]
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes] == expected


def test_an_unnumbered_title_in_the_face_of_numbered_ones_at_the_body_size_is_a_heading(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Subclause titles set in a sans face of their own at the size of the serif prose, not bold (`1.1 Scope`): an
    unnumbered line in that face, on its own with space above, is a heading of their level; a line of the prose's
    face set apart the same way stays text."""
    builder = pdf_builder().page().heading("1 General")

    def prose(lines: int = 4) -> None:
        builder.pdf.set_font("Times", "", 10)
        for _ in range(lines):
            builder.y += 13
            builder.pdf.text(72, builder.y, BODY)

    prose()
    for title in ("1.1 Scope", "1.2 Terms", "1.3 Units", "Further reading", "1.4 Loads"):
        builder.y += 24
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72, builder.y, title)
        builder.y += 6
        prose()
    builder.y += 24
    builder.pdf.set_font("Times", "", 10)
    builder.pdf.text(72, builder.y, "An aside in the prose")
    builder.y += 6
    prose()
    pdf = builder.save(tmp_path / "faces.pdf")
    report = ingest(pdf, "TEST 174", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title, node.depth) for node in read_back(workspace, report).nodes] == [
        ("1", "General", 1),
        ("1.1", "Scope", 2),
        ("1.2", "Terms", 2),
        ("1.3", "Units", 2),
        ("Further reading", "Further reading", 2),
        ("1.4", "Loads", 2),
    ]


def test_a_bold_numbered_title_with_a_word_in_another_font_is_one_title(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Numbered headings in bold at the body size, a word of the title set in a typewriter or logo font (`2 The draw
    command`, `3 METAPOST compilation`): the bold run stops at that word, yet the line is a heading with its whole
    title, not a title `The` run into a paragraph `draw command`."""
    builder = pdf_builder().page()

    def pieces(parts: list[tuple[str, str, str]]) -> None:
        builder.y += 26
        x = 72.0
        for family, style, text in parts:
            builder.pdf.set_font(family, style, 10)
            builder.pdf.text(x, builder.y, text)
            x += builder.pdf.get_string_width(text)
        builder.pdf.set_font("Times", "", 10)
        for _ in range(4):
            builder.y += 13
            builder.pdf.text(72, builder.y, BODY)

    pieces([("Helvetica", "B", "1 Introduction")])
    pieces([("Helvetica", "B", "2 The "), ("Courier", "", "draw"), ("Helvetica", "B", " command and its options")])
    pieces([("Helvetica", "B", "3 "), ("Times", "", "METAPOST"), ("Helvetica", "B", " compilation of the figures")])
    pieces([("Helvetica", "B", "4 Data types")])
    pdf = builder.save(tmp_path / "logo.pdf")
    report = ingest(pdf, "TEST 175", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        ("1", "Introduction"),
        ("2", "The draw command and its options"),
        ("3", "METAPOST compilation of the figures"),
        ("4", "Data types"),
    ]


PROSE = "Text of the clause that runs on over the whole width of the column, as the lines of a paragraph do."


def test_a_numbered_heading_under_the_running_header_of_the_page_it_names_is_kept(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`2 OVERVIEW` set bold in the body size as the first line of page 2, under the running header: its number is the
    page's, as a running header's folio would be, but it is a heading said once, and it stays one (as does `3 USAGE`
    opening page 3); the header itself is furniture."""
    builder = pdf_builder(header="Conference acronym 2024, Woodstock, NY", first_page_number=1).page()
    builder.line("1 INTRODUCTION", bold=True).gap()
    for _ in range(6):
        builder.line(PROSE)
    builder.page().line("2 OVERVIEW", bold=True).gap()
    for _ in range(4):
        builder.line(PROSE)
    builder.gap().line("2.1 Template styles", bold=True).gap()
    for _ in range(4):
        builder.line(PROSE)
    builder.page().line("3 USAGE", bold=True).gap()
    for _ in range(6):
        builder.line(PROSE)
    pdf = builder.save(tmp_path / "header.pdf")
    report = ingest(pdf, "TEST 240", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes if node.path[0].isdigit()] == [
        ("1", "INTRODUCTION"),
        ("2", "OVERVIEW"),
        ("2.1", "Template styles"),
        ("3", "USAGE"),
    ]
    assert "Conference acronym" not in norm_text(workspace, report)


def test_contents_under_a_title_block_without_numbers_or_leaders_anchor_the_tree(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A contents list under the title and abstract of page 1, its entries unnumbered and without dot leaders (`Usage 2`),
    running on to page 2: its entries are the clauses, found on the pages they name though the headings are set
    plainly; the list is a `Contents` node, not the first clause's text. Appendices listed as `A. Symbology`,
    `B. Revision history` are titled with their letter, as an appendix set as a chapter is (`A Symbology`)."""
    builder = pdf_builder(first_page_number=1).page()
    builder.line("The ornaments package", size=20).gap(20)
    for _ in range(3):
        builder.line(PROSE, size=9)
    builder.gap(20).line("Contents", size=11).gap()
    entries = [("How to install the package", 3), ("How to use the package", 3), ("The main macro", 4)]
    entries += [("Options of the macro", 4), ("A. Symbology", 5), ("B. Revision history", 5)]
    for title, page in entries[:2]:
        builder.line(f"{title} {page}", x=90, size=12)
    builder.y = 780.0
    builder.line(f"{entries[2][0]} {entries[2][1]}", x=90, size=12)
    builder.page()
    for title, page in entries[3:]:
        builder.line(f"{title} {page}", x=90, size=12)
    for page_titles in ([entries[0][0], entries[1][0]], [entries[2][0], entries[3][0]], [entries[4][0], entries[5][0]]):
        builder.page()
        for title in page_titles:
            builder.gap(12).line(title, size=11).gap()
            for _ in range(4):
                builder.line(PROSE)
    pdf = builder.save(tmp_path / "contents.pdf")
    report = ingest(pdf, "TEST 241", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [node.title for node in nodes if node.title != "Contents" and node.depth == 1][-6:] == [
        "How to install the package",
        "How to use the package",
        "The main macro",
        "Options of the macro",
        "Symbology",
        "Revision history",
    ]
    assert [node.path for node in nodes if node.depth == 1][-2:] == ["A", "B"]  # lettered annexes, read back as such
    assert any(node.title == "Contents" for node in nodes)
    text = norm_text(workspace, report)
    clauses = text[text.index("How to install the package\n") :]  # from the first clause's heading on
    assert "The main macro 4" not in clauses and "B. Revision history 5" not in clauses  # the list is not in a clause


def test_appendices_in_the_bold_body_style_of_the_sections_when_their_clauses_follow(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A journal template sets its sections and appendices in bold capitals at the body size (`3 MODIFICATIONS`,
    `A RESEARCH METHODS`): an appendix so set, its clause `A.1` after it, is a heading titled with its letter, and so is
    the next letter in sequence (`B ONLINE RESOURCES`)."""
    builder = pdf_builder().page()
    for heading in ("1 INTRODUCTION", "2 USAGE"):
        builder.gap().line(heading, bold=True).gap()
        builder.line(PROSE).line(PROSE)
    builder.gap().line("A RESEARCH METHODS", bold=True).gap()
    builder.line(PROSE)
    builder.gap().line("A.1 Part One", bold=True).gap()
    builder.line(PROSE).line(PROSE)
    builder.gap().line("B ONLINE RESOURCES", bold=True).gap()
    builder.line(PROSE).line(PROSE)
    pdf = builder.save(tmp_path / "journal.pdf")
    report = ingest(pdf, "TEST 242", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.depth) for node in nodes] == [("1", 1), ("2", 1), ("A", 1), ("A.1", 2), ("B", 1)]
    assert [node.title for node in nodes if node.path in ("A", "B")] == ["RESEARCH METHODS", "ONLINE RESOURCES"]


def test_numbered_lines_of_a_listing_in_a_fixed_pitch_are_no_clauses(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A listing whose lines are numbered in the margin, its keywords bold (`3 while (i <= 50) {`), under unnumbered
    headings (`Problem 1`): the lines are code, never clauses 1, 2, 3; the headings are the clauses."""
    builder = pdf_builder().page().heading("Problem 1").line(PROSE).gap()
    for number, keyword, rest in [(1, "int", " A[51];"), (2, "int", " i = 1;"), (3, "while", " (i <= 50) {"), (4, "", "  A[i] = i;")]:
        builder.y += 12
        builder.pdf.set_font("Courier", "B", BODY_SIZE)
        builder.pdf.text(90, builder.y, f"{number} {keyword}")
        builder.pdf.set_font("Courier", "", BODY_SIZE)
        builder.pdf.text(90 + 0.6 * BODY_SIZE * (len(f"{number} {keyword}")), builder.y, rest)
    builder.gap().line(PROSE).line(PROSE)
    builder.page().heading("Problem 2").line(PROSE).line(PROSE)
    pdf = builder.save(tmp_path / "listing.pdf")
    report = ingest(pdf, "TEST 243", "1", workspace=workspace, language="en", use_outline=False)
    assert [node.title for node in read_back(workspace, report).nodes] == ["Problem 1", "Problem 2"]


def test_contents_on_the_page_the_text_starts_whose_parts_number_their_chapters_again(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A contents list above the first chapter on its page, whose parts (`II Menus 2`) each number their chapters from 1
    again: the whole list is contents (the second `1 Basics` is an entry, not the text's heading), and each entry is
    found on the page it names."""
    builder = pdf_builder(first_page_number=1).page().line("Contents", size=14, bold=True).gap()
    listed = [("1 Drawing a key", 1), ("2 Framing a key", 1), ("II Menus", 2), ("1 Basics", 2), ("2 Screens", 2)]
    for title, page in listed:
        builder.line(f"{title} {'. ' * 30} {page}", x=72 if title[0] == "I" else 86)
    builder.gap(20).line("I Keys", size=14, bold=True).gap()
    builder.heading("1 Drawing a key", level=1)
    for _ in range(14):  # the page is mostly text: no contents page by itself
        builder.line(PROSE)
    builder.heading("2 Framing a key", level=1).line(PROSE)
    builder.page().line("II Menus", size=14, bold=True).gap()
    builder.heading("1 Basics", level=1).line(PROSE).line(PROSE).heading("2 Screens", level=1).line(PROSE)
    pdf = builder.save(tmp_path / "parts.pdf")
    report = ingest(pdf, "TEST 244", "1", workspace=workspace, language="en", use_outline=False)
    nodes = [(node.title, node.page_start) for node in read_back(workspace, report).nodes]
    assert nodes[-4:] == [("Framing a key", 1), ("II Menus", 2), ("Basics", 2), ("Screens", 2)]
    text = norm_text(workspace, report)
    assert text.count("Basics") == 2  # its contents entry and its heading, once each
    contents = text[text.index("# Contents") : text.index("# I Keys")]
    assert "Screens" in contents and "Menus" in contents  # the list's second part is in the contents node


def test_page_numbers_printed_in_running_headers_name_the_pages(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """No page labels and no page number on a line of its own: each page's number ends its running header, beside
    the title of the chapter it is in (`Terms 4`). The numbers name the pages, so the headers, each repeated on fewer
    pages than a running header usually is, are furniture and not text or headings."""
    builder = pdf_builder()
    chapters = ["Scope", "Terms", "Design", "Testing", "Delivery"]
    for number, chapter in enumerate(chapters, start=1):
        for half in range(2):
            builder.page()
            builder.pdf.set_font("Helvetica", "", 9)
            builder.pdf.text(72, 40, chapter)
            builder.pdf.text(500, 40, str(builder.pages))
            if half == 0:
                builder.heading(f"{number} {chapter}")
            for _ in range(12):
                builder.line(PROSE)
    pdf = builder.save(tmp_path / "headers.pdf")
    report = ingest(pdf, "TEST 245", "1", workspace=workspace, language="en", use_outline=False)
    assert [(node.path, node.title) for node in read_back(workspace, report).nodes] == [
        (str(number), chapter) for number, chapter in enumerate(chapters, start=1)
    ]
    text = norm_text(workspace, report)
    assert not re.search(r"^(?:Scope|Terms|Design|Testing|Delivery) \d+$", text, re.M)


def test_the_end_of_the_contents_above_the_start_of_the_text_is_contents(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The contents fill a page and end at the top of the next, where the text starts under them (`1 Introduction`
    and a page of prose): the entries on that page are contents too, not a `Front matter` before the first clause,
    and the chapters they list are found."""
    words = ["Loads", "Actions", "Materials", "Timber", "Steel", "Concrete", "Masonry", "Glass", "Testing", "Fire"]
    entries = [
        (f"{chapter}.{section} {words[section]} of {words[chapter]}", 2 + chapter) for chapter in (1, 2, 3, 4) for section in range(6)
    ]
    builder = pdf_builder(first_page_number=1).page().line("Contents", size=16, bold=True).gap()
    for number, title in enumerate(words[1:5], start=1):
        entries.insert([e[1] for e in entries].index(2 + number), (f"{number} {title}", 2 + number))
    for entry, page in entries[:-4]:
        builder.line(f"{entry} {'. ' * 30} {page}", x=86)
    builder.page()
    for entry, page in entries[-4:]:
        builder.line(f"{entry} {'. ' * 30} {page}", x=86)
    builder.gap(20)
    for number, title in enumerate(words[1:5], start=1):
        builder = builder if number == 1 else builder.page()
        builder.heading(f"{number} {title}")
        for _ in range(24):
            builder.line(PROSE)
    pdf = builder.save(tmp_path / "contents-end.pdf")
    report = ingest(pdf, "TEST 246", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [node.path for node in nodes if "." not in node.path] == ["Contents", "1", "2", "3", "4"]
    text = norm_text(workspace, report)
    assert entries[-1][0] in text[text.index("# Contents") : text.index("# 1 Actions")]  # `4.5 Fire of Steel`


def test_a_note_without_numbers_or_contents_has_its_bold_sections_two_points_above_the_body(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """A short package note: its title in the body size, then sections titled in 12 pt bold (the body is 10 pt), with
    no number, no printed contents and no outline. The titles are its clauses, in order, at one depth."""
    sections = ["Metapost instances", "Running tex from within", "Partial paths", "Lua interface"]
    builder = pdf_builder().page().line("somepackage version 2022/1.1").line(BODY).line(BODY)
    for number, title in enumerate(sections):
        if number == 2:
            builder.page()
        builder.gap(12).line(title, size=12, bold=True).gap(4).line(BODY).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "note.pdf")
    report = ingest(pdf, "TEST 247", "1", workspace=workspace, language="en")
    nodes = [node for node in read_back(workspace, report).nodes if node.title in sections]
    assert [node.title for node in nodes] == sections
    assert len({node.depth for node in nodes}) == 1


def test_the_level_below_the_printed_contents_is_found_in_the_face_of_the_listed_headings(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """A DocBook-like manual whose printed contents lists two levels of unnumbered headings (16 and 14 pt bold) while
    the body has a third level, 12 pt in the same bold face, that the contents do not list: those headings are
    clauses under the heading above them. An admonition's title set as large in another face (`Warning` in a bold
    serif) is no clause."""
    builder = pdf_builder(first_page_number=1).page()
    chapters = [("Introduction", "Prior work"), ("Installing fonts", "Configuring"), ("Font names", "Fields")]
    _contents_page(builder, [(title, page) for page, pair in enumerate(chapters, start=2) for title in pair])
    below = {"Prior work": ["Security extension", "Trusted extensions"], "Configuring": ["Fonts in Xft", "Fine-tuning"]}
    for chapter, section in chapters:
        builder.page().line(chapter, size=16, bold=True).gap(6).line(BODY).line(BODY)
        builder.gap(10).line(section, size=14, bold=True).gap(6).line(BODY).line(BODY)
        for title in below.get(section, []):
            builder.gap(10).line(title, size=12, bold=True).gap(6).line(BODY).line(BODY)
            builder.gap(10)
            builder.pdf.set_font("Times", "B", 12)
            builder.y += 15.6
            builder.pdf.text(110, builder.y, "Warning")
            builder.gap(6).line(BODY, x=110)
    pdf = builder.save(tmp_path / "docbook.pdf")
    report = ingest(pdf, "TEST 248", "1", workspace=workspace, language="en")
    nodes = {node.path: node for node in read_back(workspace, report).nodes}
    for section, titles in below.items():
        for title in titles:
            assert nodes[title].parent_path == section
            assert nodes[title].depth == nodes[section].depth + 1
    assert not [path for path in nodes if path.startswith("Warning")]


def test_a_change_log_that_puts_the_date_before_the_version_is_one_clause_per_release(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`[2015/06/01 v0.1]` set bold under `2 History`, as a package's date and version are printed: each release is a
    clause under the history, a release with a date alone among them (`[2015/06/02]`) too; a bold date elsewhere (the
    title page's `[2016/01/01]`) is none."""
    releases = ["[2015/06/01 v0.1]", "[2015/06/02]", "[2015/06/04 v0.4]", "[2015/06/24 v0.5]"]
    builder = pdf_builder().page().line("A package", size=20, bold=True).gap().line("[2016/01/01]", size=12, bold=True)
    builder.gap(12).heading("1 Introduction").line(BODY).line(BODY)
    builder.page().heading("2 History").line(BODY)
    for release in releases:
        builder.gap(10).line(release, size=12, bold=True).gap(4).line(f"Added {release[1:5]} features.", x=90).line(BODY, x=90)
    pdf = builder.save(tmp_path / "history.pdf")
    report = ingest(pdf, "TEST 249", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [node.title for node in nodes if node.parent_path == "2"] == releases
    assert not [node for node in nodes if "2016" in node.title]


def test_a_listing_line_number_right_above_a_listed_heading_is_not_its_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A documented source whose listing numbers its lines, the last (`100`, small and not bold) right above the next
    heading the printed contents lists (`Extended code`): the heading keeps the contents' title as its path, it is
    no chapter 100."""
    builder = pdf_builder(first_page_number=1).page()
    _contents_page(builder, [("Basic code", 2), ("Extended code", 2), ("Packaging", 3)])
    builder.page().line("Basic code", size=12, bold=True).line(BODY)
    for number in range(95, 100):
        builder.line(f"{number} local function f{number}() return {number} end", size=9)
    builder.line("100", size=9)  # the listing's last line, empty but for its number
    builder.line("Extended code", size=12, bold=True).line(BODY).line(BODY)
    builder.page().line("Packaging", size=12, bold=True).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "listing.pdf")
    report = ingest(pdf, "TEST 252", "1", workspace=workspace, language="en", use_outline=False)
    nodes = {node.path: node.page_start for node in read_back(workspace, report).nodes}
    assert {path: nodes.get(path) for path in ("Basic code", "Extended code", "Packaging")} == {
        "Basic code": 2,
        "Extended code": 2,
        "Packaging": 3,
    }
    assert "100" not in nodes


@pytest.mark.parametrize("comma", [True, False])
def test_a_back_of_book_index_titled_like_the_contents_is_no_contents(pdf_builder, workspace: Path, tmp_path: Path, comma: bool) -> None:
    """A manual without an outline whose contents and index are both titled `Índice` (as Portuguese names both): the
    index, set in two columns of terms in alphabetical order whose pages go up and down (`babel, 5, 3`, or without
    the comma), is no printed contents: its terms are no entries to look for in the body. The clauses are the
    contents' chapters; no index term becomes a clause, and the terms stay in the text."""
    chapters = [f"{number} Chapter about topic {number}" for number in range(1, 7)]
    builder = pdf_builder(first_page_number=1).page().line("Índice", size=16, bold=True).gap()
    for page, chapter in enumerate(chapters, start=2):
        builder.line(f"{chapter} {'. ' * 25} {page}")
    for number, chapter in enumerate(chapters, start=1):
        builder.page().heading(chapter)
        for row in range(6):
            builder.line(f"Line {row} of chapter {number}: {BODY.lower()}")
    terms = [f"{letter}term{row}" for letter in "abcdefgh" for row in range(8)]
    pages = [random.Random(k).randint(2, 7) for k in range(len(terms))]  # up and down, as an alphabetical list of terms has them
    half = len(terms) // 2
    builder.page().line("Índice", size=16, bold=True).gap()
    for row in range(half):
        builder.line(f"{terms[row]}{',' if comma else ''} {pages[row]}")
        builder.pdf.text(320, builder.y, f"{terms[half + row]}{',' if comma else ''} {pages[half + row]}")
    pdf = builder.save(tmp_path / "index-titled-as-contents.pdf")
    report = ingest(pdf, "TEST 193", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [node.path for node in nodes if node.path[:1].isdigit()] == [chapter.split(" ")[0] for chapter in chapters]
    assert not {node.title for node in nodes} & set(terms)
    # the index's terms were never read as contents entries to look for in the body
    assert not [warning for warning in report.warnings if "printed contents entries" in str(warning)], report.warnings
    text = norm_text(workspace, report)
    assert all(term in text for term in terms)


def test_a_short_note_whose_first_page_holds_its_sections_is_no_title_page(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A two-page note with no numbers, contents or outline: a 22 pt title, then sections titled in 16 pt bold on the
    first page itself, each over running text. The first page is a page of the note, not a title page: each section
    is a clause (before, only the title was, and the sections' text ran together under it)."""
    sections = ["About this project", "Future plans", "Announcement list", "Supporting the project"]
    builder = pdf_builder().page().line("Sample Font - About", size=22, bold=True)
    for title in sections:
        builder.gap(10).line(title, size=16, bold=True).gap(4).line(BODY).line(BODY).line(BODY)
    builder.page().line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "about.pdf")
    report = ingest(pdf, "TEST 301", "1", workspace=workspace, language="en")
    assert [node.title for node in read_back(workspace, report).nodes] == ["Sample Font - About", *sections]


def test_a_title_page_with_a_short_abstract_keeps_its_large_lines_as_its_text(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A title page whose subtitle and authors are set large over a few lines of running text (an abstract) is still a
    title page: its large lines do not each open a clause."""
    builder = pdf_builder().page().line("Sample Font Manual", size=24, bold=True).line("A Type Family", size=16)
    builder.line("Somebody Someone", size=16).gap(10).line(BODY).line(BODY).line(BODY)
    builder.page().heading("1 Introduction").line(BODY).heading("2 Usage").line(BODY)
    pdf = builder.save(tmp_path / "cover.pdf")
    report = ingest(pdf, "TEST 302", "1", workspace=workspace, language="en")
    assert [node.title for node in read_back(workspace, report).nodes] == ["Sample Font Manual", "Introduction", "Usage"]


def test_glyphs_shown_in_large_type_one_after_another_are_a_specimen_not_headings(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A glyph chart: after a note in running text, each glyph set at 20 pt with its code point under it in 5 pt, one
    after another with no running text between them. The glyphs show the font; they are not clauses (before, each
    glyph became one: 404 in a 66-page chart)."""
    builder = pdf_builder().page().line("Charts for Sample Font", size=18, bold=True).line(BODY).line(BODY)
    builder.page()
    for code in range(0x41, 0x41 + 12):
        builder.line(chr(code) + chr(code + 32), size=20).line(f"{code:04X}", size=5)
    builder.page().gap(30).line("Sample section", size=18, bold=True).line("Its own text, which is not the note's.").line(BODY)
    pdf = builder.save(tmp_path / "chart.pdf")
    report = ingest(pdf, "TEST 303", "1", workspace=workspace, language="en")
    assert [node.title for node in read_back(workspace, report).nodes] == ["Charts for Sample Font", "Sample section"]


def test_questions_set_as_titles_some_wrapped_over_two_lines_are_the_clauses_of_a_faq(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A note of questions and answers with no numbers, contents or outline: each question in 12 pt bold (the body is
    10 pt) over its answer, two of them long enough to wrap onto a second line. A wrapped question is one title, and
    counts as one: the style is a heading's (before, the two wrapped ones made it look like a block of large text,
    and no question was a clause)."""
    questions = [
        "How do you pronounce the name of this font family?",
        "What is the alternative version of the family, and where is it to be found these days",
        "Which weights are there?",
        "Will you be extending the font to cover other scripts and the languages that are written in them",
        "Is there a sans-serif companion?",
    ]
    builder = pdf_builder().page().line("Sample - Frequently Asked Questions", size=22, bold=True).gap(10).line(BODY)
    for question in questions:
        builder.gap(10)
        if len(question) > 60:
            head, tail = question.rsplit(" ", 4)[0], " ".join(question.rsplit(" ", 4)[1:])
            builder.line(head, size=12, bold=True).line(tail, size=12, bold=True)
        else:
            builder.line(question, size=12, bold=True)
        builder.gap(2).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "faq.pdf")
    report = ingest(pdf, "TEST 304", "1", workspace=workspace, language="en")
    assert [node.title for node in read_back(workspace, report).nodes][1:] == questions


def test_numbered_rows_of_a_symbol_list_in_a_typewriter_face_a_step_larger_are_no_clauses(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """A symbol list whose rows are set in a typewriter face scaled a step above the prose (11 pt beside 10 pt), some
    starting with a digit (`2 \\nvarhookswarrow`, a glyph drawn as a digit): a row is no clause, so the sections after it
    keep their numbers in order (before, the rows took the places of chapters 2 to 4, and 1.2 and 2 were lost)."""
    builder = pdf_builder().page().heading("1 Symbols").line(BODY).heading("1.1 Relations", level=1).line(BODY)
    for row in ["2 \\nvarhookswarrow", "3 \\nhooksearrow, \\nhksearrow", "4 \\nvarhookrightarrow", "\\leftarrow"]:
        builder.y += 14
        builder.pdf.set_font("Courier", "", 11)
        builder.pdf.text(72, builder.y, row)
    builder.gap(10).heading("1.2 Punctuation symbols", level=1).line(BODY).heading("2 Implementation").line(BODY)
    pdf = builder.save(tmp_path / "symbols.pdf")
    report = ingest(pdf, "TEST 305", "1", workspace=workspace, language="en")
    assert [node.path for node in read_back(workspace, report).nodes if node.path[0].isdigit()] == ["1", "1.1", "1.2", "2"]
