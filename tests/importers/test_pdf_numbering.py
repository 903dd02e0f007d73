"""Numbered headings without an outline: numbering schemes, headings at the edge of a page, and the printed
contents matched to the headings of the body. Every PDF is generated here with fpdf2."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import read_back

from normcli.importers import ingest

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
