"""Plain-text imports: RFC pages and headings, underlined headings, numbering that restarts."""

from __future__ import annotations

import textwrap
from pathlib import Path

from importer_helpers import norm_text, read_back

from normcli.importers import ingest

RFC = textwrap.dedent(
    """\

    Network Working Group                                          A. Author
    Request for Comments: 9999                                   Example Inc.
    Category: Informational                                     January 2025


                        An Example Specification for Tests

    Status of This Memo

       This memo provides information for the Internet community.

    Table of Contents

       1. Introduction ................................................ 1
       2. Format ...................................................... 2
          2.1. Overall conventions ...................................... 2

    1. Introduction

       This document specifies a format. See Section 2.1 for the layout.
       The list below is not a set of clauses:

       1. first item of a list
       3. third item of a list

    Author                        Informational                     [Page 1]
    \f
    RFC 9999                  Example Specification             January 2025


    2. Format

       The format has a header and a body, described in the subsections.

       2.1. Overall conventions In the diagrams below, a box like this
       represents one byte.

    Author's Address

       A. Author

    Author                        Informational                     [Page 2]
    """
)


def test_an_rfc_with_pages_headings_and_footers(workspace: Path, tmp_path: Path) -> None:
    source = tmp_path / "rfc9999.txt"
    source.write_text(RFC, encoding="utf-8")
    report = ingest(source, "RFC 9999", "2025", workspace=workspace)
    bundle = read_back(workspace, report)
    paths = [node.path for node in bundle.nodes]
    assert paths[-4:] == ["1", "2", "2.1", "Author's Address"]
    assert "Status of This Memo" in paths
    assert report.title == "An Example Specification for Tests"
    assert report.language == "en" and report.pages == 2
    text = norm_text(workspace, report)
    assert "[Page" not in text and "RFC 9999                  Example" not in text
    assert "<!-- page 2 -->" in text
    nodes = {node.path: node for node in bundle.nodes}
    assert nodes["2.1"].title == "Overall conventions"
    assert nodes["2.1"].text.startswith("In the diagrams below")
    assert nodes["2"].page_start == 2 and nodes["1"].page_start == 1
    assert "1. first item of a list" in nodes["1"].text


def test_underlined_headings_and_a_second_numbering_sequence(workspace: Path, tmp_path: Path) -> None:
    source = tmp_path / "manual.txt"
    source.write_text(
        textwrap.dedent(
            """\
            Manual
            ******

            1. Scope
            ========

            Text of the scope.

            1.1. Details
            ------------

            Details text.

            2. Rules
            ========

            Rules text.

            1. First appendix
            =================

            Appendix text.

            1.1. Appendix details
            ---------------------

            More appendix text.
            """
        ),
        encoding="utf-8",
    )
    report = ingest(source, "MAN 1", "1", workspace=workspace, language="en")
    paths = [node.path for node in read_back(workspace, report).nodes]
    assert paths == ["Manual", "1", "1.1", "2", "3", "3.1"]
    assert any("restarts at 1" in warning for warning in report.warnings)


def test_text_without_numbers_keeps_titles_as_paths(workspace: Path, tmp_path: Path) -> None:
    source = tmp_path / "pep.rst"
    source.write_text("Intro\n=====\n\nSome text.\n\nDetails\n-------\n\nMore.\n\nOther\n=====\n\nEnd.\n", encoding="utf-8")
    report = ingest(source, "PEP 1", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [(node.path, node.depth) for node in bundle.nodes] == [("Intro", 1), ("Details", 2), ("Other", 1)]
    assert any("no numbered clause headings" in warning for warning in report.warnings)


def test_body_lines_that_look_like_markdown_are_escaped(workspace: Path, tmp_path: Path) -> None:
    source = tmp_path / "code.txt"
    source.write_text("1. Code\n\n# not a heading\n<!-- page 9 -->\n```\n$$ x $$\n", encoding="utf-8")
    report = ingest(source, "CODE 1", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [node.path for node in bundle.nodes] == ["1"]
    assert bundle.nodes[0].page_start is None and not bundle.formulas  # no page breaks: no pages (SPEC §6)


def test_rfc_ascii_art_figures_become_numbered_svg_figures(workspace: Path, tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    source = tmp_path / "rfc9998.txt"
    source.write_text(
        "1.  Packets\n\n   Figure 1 shows a packet:\n\n   Packet {\n     Type (8),\n     Length (i),\n   }\n\n"
        "                          Figure 1: Example Packet\n\n   After the figure, the text goes on about Figure 1.\n",
        encoding="utf-8",
    )
    report = ingest(source, "RFC 9998", "1", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    figure = bundle.figures[0]
    assert (figure.id, figure.number) == ("fig-1", "1") and "Example Packet" in figure.caption
    svg = workspace / Path(report.file).parent / figure.file
    assert ET.parse(svg).getroot().tag.endswith("svg")
    assert "Type (8)," in bundle.nodes[0].text  # the art stays readable as text
    assert not [problem for problem in report.problems if problem["kind"] == "unresolved_reference"]


def test_a_line_wrapped_after_a_compound_words_hyphen_joins_without_a_space() -> None:
    from normcli.importers.text import reflow

    wrapped = [
        "   The host part of the authority is given in its dotted-",
        "   decimal form here, and the scheme of the whole URI is case-",
        "   insensitive; a dash - between two words keeps both its spaces -",
        "   as here, and implementations of the client- and of the server-",
        "   and proxy-side software keep a suspended hyphen apart.",
    ]
    assert reflow(wrapped) == [
        "   The host part of the authority is given in its dotted-decimal form here, and the scheme of the whole URI is"
        " case-insensitive; a dash - between two words keeps both its spaces - as here, and implementations of the"
        " client- and of the server- and proxy-side software keep a suspended hyphen apart."
    ]
