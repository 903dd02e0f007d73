"""Numbered headings without an outline: numbering schemes, headings at the edge of a page, and the printed
contents matched to the headings of the body. Every PDF is generated here with fpdf2."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import read_back

from normcli.importers import ingest
from normcli.importers.common import title_key

BODY = "The text of this clause goes on over a full line of words like the body of a manual."


def test_subclause_headings_opening_pages_are_no_running_headers(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`2.1.3. Release 2013`, bold in the body size at the top of its page: its pattern (`#.#.#. release #`) opens page
    after page as a running header's would, but its words are printed once, so it is a heading, not furniture. The
    running header (`Manual`, on every page) is still dropped."""
    builder = pdf_builder(header="Manual", first_page_number=1).page()
    builder.heading("1 Scope").line(BODY).line(BODY).heading("2 History").line(BODY)
    builder.heading("2.1 Releases", level=1).line(BODY).line(BODY)
    for release in range(1, 7):
        builder.page().line(f"2.1.{release}. Release {2010 + release}", bold=True).gap(6)
        for _ in range(8):
            builder.line(BODY)
    pdf = builder.save(tmp_path / "releases.pdf")
    report = ingest(pdf, "TEST 201", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title) for node in nodes if node.path[0].isdigit()] == [
        ("1", "Scope"),
        ("2", "History"),
        ("2.1", "Releases"),
        *[(f"2.1.{release}", f"Release {2010 + release}") for release in range(1, 7)],
    ]
    assert [node.page_start for node in nodes if node.path.startswith("2.1.")] == list(range(2, 8))
    assert not any("Manual" in node.title for node in nodes)


def _contents(builder, entries: list[tuple[str, int]]) -> None:
    """A contents page: each entry, dot leaders and its printed page."""
    builder.page().line("Contents", size=16, bold=True).gap()
    for entry, page in entries:
        builder.line(f"{entry} {'. ' * (45 - len(entry) // 2)} {page}")


def test_a_running_header_that_repeats_a_chapter_title_and_its_page_is_not_its_heading(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """Chapters that open at the foot of a page, under contents that name the next page (as a producer may when the
    heading's mark is shipped with the next page): that page opens with a running header in the body size, the
    chapter's number and title, bold, then its page (`3. What documentation is there? 4`, `4. Uses? 5`). The header is
    no heading, with a long title or a short one: the heading at the foot of the page before is, and the sections
    under it are found."""
    builder = pdf_builder()  # no page number of its own at the foot: the header's is the only one
    _contents(
        builder,
        [("1. Scope", 2), ("2. Terms", 3), ("3. What documentation is there?", 4), ("3.1. Books", 4), ("4. Uses?", 5), ("4.1. Tools", 5)],
    )
    builder.page().heading("1. Scope").line(BODY).line(BODY)
    builder.page().heading("2. Terms").line(BODY).line(BODY)
    builder.gap(420).heading("3. What documentation is there?")
    for chapter, title, section, last in ((3, "What documentation is there?", "Books", False), (4, "Uses?", "Tools", True)):
        builder.page()
        builder.pdf.set_font("Helvetica", "B", 10)
        builder.pdf.text(72, 60, f"{chapter}. {title}")
        builder.pdf.set_font("Helvetica", "", 10)
        builder.pdf.text(72 + builder.pdf.get_string_width(f"{chapter}. {title} ") + 4, 60, str(builder.pages))
        builder.line(BODY).line(BODY).heading(f"{chapter}.1. {section}", level=1).line(BODY).line(BODY)
        if not last:
            builder.gap(420).heading("4. Uses?")
    pdf = builder.save(tmp_path / "headers.pdf")
    report = ingest(pdf, "TEST 202", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title, node.page_start) for node in nodes if node.path[0].isdigit()] == [
        ("1", "Scope", 2),
        ("2", "Terms", 3),
        ("3", "What documentation is there?", 3),
        ("3.1", "Books", 4),
        ("4", "Uses?", 4),
        ("4.1", "Tools", 5),
    ]


def test_a_heading_printed_with_a_logo_and_a_footnote_mark_is_the_contents_entry(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """The contents read a logo's letters in another order than its heading does (`XLEATEX` for `XELATEX`, a letter
    lowered or mirrored), and the heading carries a footnote mark (`[^1]`): the entry still finds its heading, set as
    plain text, so the contents anchor it as a clause; the note stays the clause's."""
    builder = pdf_builder()
    _contents(builder, [("1 Scope", 2), ("2 Working with XLEATEX", 2), ("3 Fonts", 3)])
    builder.page().line("1 Scope").line(BODY).line(BODY).line("2 Working with XELATEX")
    builder.pdf.set_font("Helvetica", "", 6)
    builder.pdf.text(72 + builder.pdf.get_string_width("2 Working with XELATEX") * 10 / 6 + 1, builder.y - 4, "1")
    builder.line(BODY).line(BODY)
    builder.pdf.set_font("Helvetica", "", 6)
    builder.pdf.text(72, 780, "1")  # the note at the foot of the page, under its mark
    builder.pdf.set_font("Helvetica", "", 8)
    builder.pdf.text(78, 782, "The engine reads OpenType fonts.")
    builder.page().line("3 Fonts").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "logo.pdf")
    report = ingest(pdf, "TEST 203", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.page_start) for node in nodes if node.path[0].isdigit()] == [("1", 2), ("2", 2), ("3", 3)]
    second = next(node for node in nodes if node.path == "2")
    assert "OpenType" in second.text


def _manual_with_appendices(builder):
    """A manual whose contents list `1 Scope`, the appendices `A` and `B` and a `Bibliography`; each appendix is printed
    as a word and its letter over its title (`Dodatek B`, a language's word for appendix); appendix B's title runs over
    three lines in two sizes and stops short of the contents' (`GNU GENERAL PUBLIC` / `LICENSE` / `Version 2, June
    1991` for `GNU General Public License, version 2`); chapter 1 shows a bibliography as it is typeset, its title as
    large as the real one's."""
    _contents(
        builder,
        [
            ("1 Scope", 2),
            ("A Installation", 3),
            ("A.1 What to install", 3),
            ("B GNU General Public License, version 2", 4),
            ("Bibliography", 5),
        ],
    )
    builder.page().heading("1 Scope").line(BODY).line(BODY).line("A bibliography is typeset like this:")
    builder.line("Bibliography", size=24, bold=True).line("[1] A. Author, A book, 2020.").line(BODY)
    builder.page().line("Dodatek A", size=20, bold=True).line("Installation", size=24, bold=True).line(BODY).line(BODY)
    builder.heading("A.1 What to install", level=1).line(BODY).line(BODY)
    builder.page().line("Dodatek B", size=20, bold=True).line("GNU GENERAL PUBLIC", size=24, bold=True).line("LICENSE", size=24, bold=True)
    builder.line("Version 2, June 1991", size=14, bold=True).line(BODY).line(BODY)
    builder.page().line("Bibliography", size=24, bold=True).line("[1] L. Lamport, LaTeX, 1994.").line("[2] D. Knuth, The TeXbook, 1984.")
    return builder


def test_an_appendix_under_its_designation_whose_title_stops_short_of_the_contents(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`Dodatek B` alone over `GNU GENERAL PUBLIC` / `LICENSE`: the word and the entry's letter on the line above make
    the heading the appendix B of the contents although its lines spell only the start of the contents' title."""
    pdf = _manual_with_appendices(pdf_builder()).save(tmp_path / "appendices.pdf")
    report = ingest(pdf, "TEST 204", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    appendices = [(node.path, node.title, node.page_start) for node in nodes if node.path.startswith("Dodatek")]
    assert appendices == [("Dodatek A", "Installation", 3), ("Dodatek B", "GNU General Public License, version 2", 4)]


def test_a_chapter_title_the_contents_list_once_is_not_taken_twice(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`Bibliography`, listed once in the contents and found on its page, is one clause: the same title set as large
    in chapter 1's example is text of chapter 1, not a chapter `Bibliography` that makes the real one `Bibliography (2)`."""
    pdf = _manual_with_appendices(pdf_builder()).save(tmp_path / "twins.pdf")
    report = ingest(pdf, "TEST 205", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.page_start) for node in nodes if node.path.startswith("Bibliography")] == [("Bibliography", 5)]
    assert "[1] A. Author" in next(node for node in nodes if node.path == "1").text


def test_a_spacing_accent_set_apart_from_its_letter_is_no_letter_of_a_title_key() -> None:
    """`Thˆe´` (TeX's double accent, the accents set apart as spacing modifier letters) keys as `Thế`, so the heading
    the page prints matches the title a bookmark or the contents give."""
    assert title_key("2.11.6 H`an Thˆe´ Th`anh") == title_key("2.11.6 Hàn Thế Thành") == "2116hanthethanh"
    assert title_key("ˇ目次") == "目次"


def _designated_body(builder, label: bool = False) -> None:
    """Headings numbered by roman numerals and letters instead of clause numbers (`I - Purpose`, then `a. Changes`,
    `b. Plugins` under `II - News`), larger than the text and not bold; a list in the text is lettered too (`a. one`).
    With `label`, a drawing's label `1` stands alone above `III - How it works`."""
    builder.page().line("I - Purpose", size=17).line(BODY).line(BODY).line("II - News", size=17)
    builder.line("a. Changes since version 3.00", size=12).line(BODY).line("Two options:").line("a. the first option").line(
        "b. the second option"
    )
    builder.page().line("b. Plugins", size=12).line(BODY).line(BODY)
    if label:
        builder.line("1", x=300)
    builder.line("III - How it works", size=17).line(BODY)
    builder.line("a. Principle", size=12).line(BODY).line(BODY)


def _designated_tree(nodes) -> list[tuple[str, str, int]]:
    return [(node.path, node.title, node.depth) for node in nodes if node.path != "Contents"]


_DESIGNATED_TREE = [
    ("Purpose", "Purpose", 1),
    ("News", "News", 1),
    ("Changes since version 3.00", "Changes since version 3.00", 2),
    ("Plugins", "Plugins", 2),
    ("How it works", "How it works", 1),
    ("Principle", "Principle", 2),
]


def test_headings_designated_by_roman_numerals_and_letters(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Without contents: each scheme is a level in the order the document uses it (roman numerals, then letters that
    start again at `a` under each), its designators in sequence and its headings in one style; the title is the
    heading, as the document's bookmarks name it. The lettered list in the text, in the body size, stays text."""
    builder = pdf_builder()
    _designated_body(builder)
    pdf = builder.save(tmp_path / "designated.pdf")
    report = ingest(pdf, "TEST 206", "1", workspace=workspace, language="fr", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert _designated_tree(nodes) == _DESIGNATED_TREE
    assert "a. the first option" in next(node for node in nodes if node.path == "Changes since version 3.00").text


def test_contents_entries_designated_by_roman_numerals_and_letters(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Printed contents that list `I - Purpose`, `a. Changes …` (set in by level): each entry finds its heading though
    `a.` looks like a list item's mark, and the clause is the title after the designator, at the contents' level. A
    drawing's label `1` alone above a located heading is no number of it."""
    builder = pdf_builder()
    builder.page().line("Table des matières", size=16, bold=True).gap()
    for entry, page, x in (
        ("I - Purpose", 2, 72),
        ("II - News", 2, 72),
        ("a. Changes since version 3.00", 2, 90),
        ("b. Plugins", 3, 90),
        ("III - How it works", 3, 72),
        ("a. Principle", 3, 90),
    ):
        builder.line(f"{entry} {'. ' * (40 - len(entry) // 2)} {page}", x=x)
    _designated_body(builder, label=True)
    pdf = builder.save(tmp_path / "designated-contents.pdf")
    report = ingest(pdf, "TEST 207", "1", workspace=workspace, language="fr", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert _designated_tree(nodes)[-len(_DESIGNATED_TREE) :] == _DESIGNATED_TREE
    assert [node.page_start for node in nodes][-len(_DESIGNATED_TREE) :] == [2, 2, 2, 3, 3, 3]


def test_a_numbered_title_in_capitals_centred_over_the_prose_is_a_heading(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`1. INTRODUCTION`, in the body size and face, centred between the edges of the justified prose (amsart sets its
    sections so): a heading, though one long line runs into the margin; its subsections run in, bold (`1.1. Scope.`).
    A numbered line in capitals set flush left in the text (`2. NOTE …`) stays text."""
    builder = pdf_builder().page()
    pdf = builder.pdf
    pdf.set_font("Helvetica", "", 10)
    right = 72 + pdf.get_string_width(BODY)

    def centred(text: str) -> None:
        builder.gap(10)
        builder.line(text, x=(72 + right - pdf.get_string_width(text)) / 2)
        builder.gap(4)

    for chapter, title in ((1, "INTRODUCTION"), (2, "USAGE")):
        centred(f"{chapter}. {title}")
        builder.line(BODY).line(BODY).line(BODY + " https://example.org/a/long/address/that/runs/on")
        builder.line(f"{chapter}. NOTE THAT THIS LINE IS IN CAPITALS")
        builder.line(BODY).line(BODY).gap(6)
        builder.line(f"{chapter}.1. Scope.", bold=True)
        pdf.set_font("Helvetica", "", 10)
        pdf.text(72 + pdf.get_string_width(f"{chapter}.1. Scope. ") + 6, builder.y, "The scope of this part is given here.")
        builder.line(BODY).line(BODY)
    saved = builder.save(tmp_path / "amsart.pdf")
    report = ingest(saved, "TEST 208", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title) for node in nodes] == [("1", "INTRODUCTION"), ("1.1", "Scope"), ("2", "USAGE"), ("2.1", "Scope")]


def test_deep_clauses_run_in_or_wrapped_in_bold_at_the_body_size(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Where the chapters and sections are set larger, a deep clause may be set in the body size: its bold title runs
    into its text (`2.2.1.1 Self weight The weight …`), or wraps onto a second bold line set in under the title
    (`2.2.2 Imposed` / `loads`). Both are clauses, with their whole titles."""
    builder = pdf_builder().page()
    builder.heading("1 Scope").line(BODY).heading("1.1 Terms", level=1).line(BODY).heading("2 Loads").line(BODY)
    builder.heading("2.1 General", level=1).line(BODY).heading("2.2 Actions", level=1).line(BODY)
    builder.gap(6).line("2.2.1 Dead loads", bold=True).line(BODY).gap(6)
    builder.line("2.2.1.1 Self weight", bold=True)
    pdf = builder.pdf
    pdf.set_font("Helvetica", "", 10)
    pdf.text(72 + pdf.get_string_width("2.2.1.1 Self weight ") + 8, builder.y, "The weight of the structure itself.")
    builder.line(BODY).gap(6).line("2.2.2 Imposed", bold=True)
    pdf.set_font("Helvetica", "B", 10)
    builder.line("loads", x=72 + pdf.get_string_width("2.2.2 "), bold=True).line(BODY).line(BODY)
    builder.heading("3 Use").line(BODY)
    saved = builder.save(tmp_path / "deep.pdf")
    report = ingest(saved, "TEST 209", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title) for node in nodes if node.path.startswith("2.2.")] == [
        ("2.2.1", "Dead loads"),
        ("2.2.1.1", "Self weight"),
        ("2.2.2", "Imposed loads"),
    ]
    assert "The weight of the structure itself." in next(node for node in nodes if node.path == "2.2.1.1").text


def test_a_date_on_the_title_page_is_no_clause(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`3 juillet 2022` set large under the title, before any clause, reads like clause 3; it is a date (a day, a
    month, a year), so the clauses `1`, `2` and `3` that follow are found in their order. A chapter titled by a
    month after them (`4 août 2022`, a diary's) is a chapter."""
    builder = pdf_builder().page().line("Simples matrices", size=24).line("3 juillet 2022", size=14).gap(20)
    for number, title in ((1, "Introduction"), (2, "Les options"), (3, "Exemples"), (4, "août 2022")):
        builder.heading(f"{number} {title}").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "dated.pdf")
    report = ingest(pdf, "TEST 210", "1", workspace=workspace, language="fr", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert [(node.path, node.title) for node in nodes if node.path[0].isdigit()] == [
        ("1", "Introduction"),
        ("2", "Les options"),
        ("3", "Exemples"),
        ("4", "août 2022"),
    ]


def test_a_bold_date_before_the_first_clause_or_out_of_order_is_no_clause(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`1 December 2022` set bold over a revision note on the second page, before any clause, reads like clause 1, and
    `7 March 2023` set bold under clause 2 like a clause after it; both are dates (no other dated number follows them),
    so the clauses `1` to `3` are found in their order. A diary whose chapters are dated in order keeps them."""

    def clauses(builder, name: str, code: str) -> list[str]:
        report = ingest(builder.save(tmp_path / name), code, "1", workspace=workspace, language="en", use_outline=False)
        return [f"{node.path} {node.title}" for node in read_back(workspace, report).nodes if node.path[0].isdigit()]

    builder = pdf_builder().page().line("Simple matrices", size=24).line(BODY)
    builder.page().line("1 December 2022", size=14, bold=True).line("This revision adds the examples.").gap(20)
    for number, title in ((1, "Introduction"), (2, "Options"), (3, "Examples")):
        builder.heading(f"{number} {title}").line(BODY).line(BODY)
        if number == 2:
            builder.gap(10).line("7 March 2023", size=14, bold=True).line(BODY)
    assert clauses(builder, "dated.pdf", "TEST 250") == ["1 Introduction", "2 Options", "3 Examples"]
    days = ["1 January 2015", "2 January 2015", "3 February 2015"]
    builder = pdf_builder().page().line("A diary", size=24).line(BODY)
    for day in days:
        builder.heading(day).line(BODY).line(BODY)
    assert clauses(builder, "diary.pdf", "TEST 251") == days
