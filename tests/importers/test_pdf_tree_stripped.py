"""Headings found without an outline in PDFs of kinds met on documents not tuned to: a contents list whose last
entries are chapters set a step larger, an appendix word printed with its accent as a glyph of its own (TeX's
`Ap´endice`), and long questions set as large titles over several lines (a FAQ). Every PDF is generated here."""

from __future__ import annotations

from pathlib import Path

import pypdfium2 as pdfium
from importer_helpers import read_back

from normcli.importers import ingest
from normcli.importers.common import Draft, clean_inline
from normcli.importers.pdf_contents import contents_positions, joined_accents, mark_contents
from normcli.importers.pdf_pages import read_pages

BODY = "The text of this clause goes on over a full line of words like the body of a manual."


def _entry(builder, text: str, page: int, size: float = 10) -> None:
    builder.line(f"{text} {'. ' * (40 - len(text) // 2)} {page}", size=size)


def test_contents_ending_in_chapter_entries_set_larger_keep_them(pdf_builder, tmp_path: Path) -> None:
    """Texinfo sets a chapter's contents entry a step larger than its sections': the list may end in three chapter or
    appendix entries in a row (`2 Interfaces . . . 4`). Lines with dot leaders are entries whatever their size, so the
    contents keeps them (three larger lines without leaders end the list: a heading under it, on its page)."""
    builder = pdf_builder().page().line("The Manual", size=24).page()
    builder.line("Contents", size=16, bold=True).gap()
    _entry(builder, "1 Programmers", 2, size=13)
    for number in range(1, 9):
        _entry(builder, f"1.{number} Section {number}", 2)
    _entry(builder, "2 Interfaces", 4, size=13)
    _entry(builder, "Appendix A Tutorial", 5, size=13)
    _entry(builder, "Appendix B License", 6, size=13)
    builder.page().heading("1 Programmers").line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "contents.pdf")
    document = pdfium.PdfDocument(str(pdf))
    try:
        pages = read_pages(document, Draft(), False, "en", None)
    finally:
        document.close()
    mark_contents(pages)
    stream = [line for page in pages for line in page.lines]
    listed = {clean_inline(stream[position].text).split(" .")[0] for position in contents_positions(stream, pages)}
    assert {"2 Interfaces", "Appendix A Tutorial", "Appendix B License"} <= listed


def test_an_accent_set_apart_before_its_letter_is_joined_to_it() -> None:
    """`Ap´endice`, `cap´ıtulo`, `A˜nadir`: the accent glyph TeX sets before its letter is that letter's accent; an
    accent before no letter (`´00x`, a font chart's code) stays."""
    assert joined_accents("Ap´endice B ´Indice") == "Apéndice B Índice"
    assert joined_accents("cap´ıtulo A˜nadir") == "capítulo Añadir"
    assert joined_accents("´00x ´") == "´00x ´"


def test_an_appendix_word_with_its_accent_apart_names_the_appendix(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A Spanish manual's `Ap´endice B Licencia` (the accent a glyph of its own) is the appendix B, path `Apéndice B`,
    titled `Licencia`, as `Apéndice B Licencia` would be."""
    builder = pdf_builder().page()
    builder.heading("1 Uso").line(BODY).line(BODY).heading("2 Ejemplos").line(BODY).line(BODY)
    builder.page().heading("Ap\u00b4endice A Licencia").line(BODY).line(BODY)
    builder.heading("A.1 Condiciones", level=1).line(BODY)
    pdf = builder.save(tmp_path / "apendice.pdf")
    report = ingest(pdf, "TEST 1502", "1", workspace=workspace, language="en", use_outline=False)
    nodes = read_back(workspace, report).nodes
    assert ("Apéndice A", "Licencia") in [(node.path, node.title) for node in nodes]


def test_cork_ligatures_read_as_their_letters() -> None:
    """A TeX font in the Cork encoding without a Unicode map gives its ligatures as the codes 0x1B-0x1F, which PDFium
    passes on as control characters: they are `ff`, `fi`, `fl`, `ffi`, `ffl`, never dropped (`e cient`)."""
    assert clean_inline("the most e\x1ecient way to import the \x1cles") == "the most efficient way to import the files"
    assert clean_inline("di\x1berent \x1dow and ba\x1fe") == "different flow and baffle"


def test_long_questions_set_as_large_titles_are_whole_headings(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A FAQ without numbers sets each question as a large title, some over three or four lines, the first line long
    (more than 60 characters). Each question is one heading from its first line, however long, and a line of a title
    is never a heading of its own."""
    builder = pdf_builder().page()
    builder.line("Frequently asked questions", size=20).gap(20)
    builder.line("Authors and maintainers of the package", size=12).gap(20)
    builder.page()
    questions = [
        ["What is this package?"],
        [
            "I have multiple files of series that I need to load in one single",
            "object. What is the most efficient way to import",
            "the files?",
        ],
        ["How do I install it?"],
        [
            "I have an object with varying numbers of observations per day",
            "(e.g., one day might contain 10 observations, while another day",
            "contains 20 observations). How can I apply a function to all",
            "observations for each day?",
        ],
    ]
    for question in questions:
        builder.gap(10)
        for line in question:
            builder.line(line, size=14.3)
        builder.gap(6).line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "faq.pdf")
    report = ingest(pdf, "TEST 1503", "1", workspace=workspace, language="en", use_outline=False)
    titles = [node.title for node in read_back(workspace, report).nodes]
    for question in questions:
        assert " ".join(question) in titles
    assert not any(title.startswith(("object.", "(e.g.", "contains 20", "observations for")) for title in titles)


def _designated(builder, designator: str, lines: list[str], gap: bool = True) -> None:
    """A heading bold in a size below the body's, its designator set a quad before the title (two text objects, a gap
    wide enough to cut the line in two cells), the title wrapped over `lines`."""
    if gap:
        builder.gap(14)
    for k, text in enumerate(lines):
        builder.y += 11
        builder.pdf.set_font("Helvetica", "B", 9)
        if k == 0:
            builder.pdf.text(72, builder.y, designator)
        builder.pdf.text(72 + 9 * len(designator) + 12, builder.y, text)
    builder.gap(6)


def test_designated_headings_with_their_designator_apart_and_wrapped_titles(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A physics paper's sections (`I.  INTRODUCTION`, `A.  Input File`): bold, a point below the body size, the
    designator set apart from the title by a quad, a section's title wrapped over two lines and its first subsection's
    heading right under it, a subsection at the head of a column. Each is a heading, named by its whole title."""
    builder = pdf_builder().page().line("Simulation of Long Molecules", size=16).gap(20)
    _designated(builder, "I.", ["INTRODUCTION"])
    for _ in range(4):
        builder.line(BODY)
    _designated(builder, "II.", ["THE MODEL"])
    for _ in range(4):
        builder.line(BODY)
    _designated(builder, "III.", ["THE IMPLEMENTATION OF", "THE MODEL"])
    _designated(builder, "A.", ["Code Distribution and Compilation"], gap=False)
    for _ in range(4):
        builder.line(BODY)
    builder.page()
    _designated(builder, "B.", ["Force and Torque Calculation"], gap=False)
    for _ in range(4):
        builder.line(BODY)
    _designated(builder, "IV.", ["PERFORMANCE"])
    builder.line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "paper.pdf")
    report = ingest(pdf, "TEST 1504", "1", workspace=workspace, language="en", use_outline=False)
    found = [(node.title, node.depth) for node in read_back(workspace, report).nodes]
    for heading in [
        ("INTRODUCTION", 1),
        ("THE MODEL", 1),
        ("THE IMPLEMENTATION OF THE MODEL", 1),
        ("Code Distribution and Compilation", 2),
        ("Force and Torque Calculation", 2),
        ("PERFORMANCE", 1),
    ]:
        assert heading in found


def test_a_contents_entry_finds_its_heading_wrapped_over_three_lines(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A reference manual's section titled by the list of predicates it documents wraps over three lines in the body
    (`2.1.2 write/2, writeq/2, …` then two lines set in under it), as in its contents: the contents entry finds its
    heading from the first line, so the section is found."""
    title = [
        "2.1.2 write_term/3, write_term/2, write/2, write/1, writeq/2, writeq/1,",
        "write_canonical/2, write_canonical/1, display/2, display/1, print/2,",
        "print/1",
    ]
    builder = pdf_builder().page().line("Reference Manual", size=24).page()
    builder.line("Contents", size=16, bold=True).gap()
    for text, page in [("1 Introduction", 3), ("2 Built-in predicates", 3), ("2.1 Term output", 3), ("2.1.1 nl/1, nl/0", 3)]:
        _entry(builder, text, page)
    builder.line(title[0].split(" ", 1)[0] + " " + title[0].split(" ", 1)[1])
    builder.line(title[1], x=100)
    _entry(builder, title[2], 4)
    builder.page().heading("1 Introduction").line(BODY).line(BODY)
    builder.heading("2 Built-in predicates").line(BODY).heading("2.1 Term output", level=1).line(BODY)
    builder.gap().line("2.1.1 nl/1, nl/0").gap().line(BODY).line(BODY)
    builder.page().gap().line(title[0]).line(title[1], x=100).line(title[2], x=100).gap().line(BODY).line(BODY)
    pdf = builder.save(tmp_path / "reference.pdf")
    report = ingest(pdf, "TEST 1505", "1", workspace=workspace, language="en", use_outline=False)
    nodes = {node.path: node for node in read_back(workspace, report).nodes}
    assert "2.1.2" in nodes and nodes["2.1.2"].page_start == 4
    assert nodes["2.1.2"].title.endswith("print/2, print/1")
