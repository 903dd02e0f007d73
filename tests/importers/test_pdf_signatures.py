"""PDFs without an outline whose reference part heads each function with its signature (`name(Args) -> Result`)."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import PdfBuilder, norm_text, read_back

from normcli.importers import ingest

BODY = "The text of this clause goes on over a full line of words like the body of a manual."


def _signature(builder: PdfBuilder, lines: list[str], size: float = 10, gap: float = 14) -> PdfBuilder:
    """A signature in a typewriter face in the prose's size, with space above it; its wrapped lines indented."""
    builder.gap(gap)
    for index, text in enumerate(lines):
        builder.y += size * 1.3
        builder.pdf.set_font("Courier", "", size)
        builder.pdf.text(72 + (40 if index else 0), builder.y, text)
    return builder


def _reference(pdf_builder, signatures: list[list[str]], size: float = 10) -> PdfBuilder:
    builder = pdf_builder().page().heading("1 Introduction").line(BODY).line(BODY).heading("2 Reference").line(BODY)
    builder.line("Exports", size=13).line(BODY)
    for lines in signatures:
        _signature(builder, lines, size)
        if lines[0].startswith("close("):  # a second clause of the function right under the first, described with it
            _signature(builder, ["close(Handle, Timeout) -> ok"], size, gap=0)
        builder.line("Types:").line(BODY).line(BODY)
    return builder


SIGNATURES = [
    ["open([Host]) -> {ok, Handle} | {error, Reason}"],
    ["open([Host], [Option]) -> {ok, Handle} | {error, Reason}"],
    ["'and'([Filter]) -> filter()"],
    ["Module:handle_event(Event, {State, Data},", "Extra) -> ok"],
    ["close(Handle) -> ok"],
]


def test_signatures_that_head_a_reference_are_its_functions_named_by_arity(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A reference part without outline: each function headed by its signature on a line of its own in a typewriter
    face (its arguments wrapped onto a second, indented line once; two clauses of one function one right under the
    other), then its types and description. Each signature is
    a clause named as such a reference names its functions, `name/arity` (before, none was a clause and the
    descriptions ran on in the chapter's text); the signature itself stays text of its clause."""
    pdf = _reference(pdf_builder, SIGNATURES).save(tmp_path / "reference.pdf")
    report = ingest(pdf, "TEST 401", "1", workspace=workspace, language="en")
    titles = [node.title for node in read_back(workspace, report).nodes]
    assert titles[-6:] == ["open/1", "open/2", "'and'/1", "Module:handle_event/3", "close/1", "close/2"]
    assert "open([Host], [Option]) -> {ok, Handle}" in norm_text(workspace, report)


def test_signatures_in_a_listing_smaller_than_the_prose_or_too_few_are_no_headings(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """Function clauses of a listing set smaller than the prose, and two signatures in the prose's size (examples in
    a text, not a reference) open no clause."""
    for name, signatures, size in (("listing", SIGNATURES, 8), ("two", SIGNATURES[:2], 10)):
        pdf = _reference(pdf_builder, signatures, size).save(tmp_path / f"{name}.pdf")
        report = ingest(pdf, "TEST 402", name, workspace=workspace, language="en")
        assert [node.title for node in read_back(workspace, report).nodes] == ["Introduction", "Reference"]


def test_unnumbered_titles_in_the_sans_face_of_the_numbered_headings_a_step_smaller_are_headings(
    pdf_builder, workspace: Path, tmp_path: Path
) -> None:
    """A user's guide set as FOP sets it: the prose in a serif face, numbered headings in a sans face, not bold (15 pt
    and 13 pt), and below them unnumbered titles in that sans face at 11.7 pt, not bold either. Those titles are the
    level below the numbered headings (before, only a bold style could be one: none was a clause)."""
    builder = pdf_builder().page()

    def sans(text: str, size: float) -> None:
        builder.gap(12)
        builder.y += size * 1.3
        builder.pdf.set_font("Helvetica", "", size)
        builder.pdf.text(72, builder.y, text)

    def prose() -> None:
        for _ in range(2):
            builder.y += 13
            builder.pdf.set_font("Times", "", 10)
            builder.pdf.text(72, builder.y, BODY)

    expected = []
    for chapter in (1, 2, 3):
        sans(f"{chapter} Chapter {chapter}", 15)
        prose()
        for section in (1, 2):
            sans(f"{chapter}.{section} Section {chapter}.{section}", 13)
            prose()
            sans(f"Topic {chapter}.{section}", 11.7)
            prose()
            expected += [f"Section {chapter}.{section}", f"Topic {chapter}.{section}"]
        builder.page()
    pdf = builder.save(tmp_path / "guide.pdf")
    report = ingest(pdf, "TEST 403", "1", workspace=workspace, language="en")
    nodes = read_back(workspace, report).nodes
    assert [node.title for node in nodes if not node.title.startswith("Chapter")] == expected
    assert {node.path for node in nodes if node.title.startswith("Topic")} == {f"Topic {c}.{s}" for c in (1, 2, 3) for s in (1, 2)}


def test_c_prototypes_that_head_a_reference_are_its_functions_named_with_parentheses(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """A C library's reference: each function headed by its prototype in a typewriter face, its description indented
    below (so the prototype stands out left of the text). Each is a clause named `name()`, as C references name
    functions (before, the first was a clause titled by its result type, `int`, and the others none)."""
    prototypes = [
        ["int ei_cmp_pids(erlang_pid *a, erlang_pid *b)"],
        ["const char *ei_thisnodename(const ei_cnode *ec)"],
        ["struct hostent *ei_gethostbyname_r(const char *name,", "struct hostent *hostp, char *buffer, int buflen)"],
    ]
    builder = pdf_builder().page().heading("1 Reference").line(BODY)
    for lines in prototypes:
        _signature(builder, lines)
        builder.line(BODY, x=92).line(BODY, x=92)
    pdf = builder.save(tmp_path / "prototypes.pdf")
    report = ingest(pdf, "TEST 404", "1", workspace=workspace, language="en")
    titles = [node.title for node in read_back(workspace, report).nodes]
    assert titles == ["Reference", "ei_cmp_pids()", "ei_thisnodename()", "ei_gethostbyname_r()"]
