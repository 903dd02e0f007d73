"""A language version of a norm whose parts number their chapters again: every clause finds its
counterpart by its part and number, not by its place in the document."""

from __future__ import annotations

from pathlib import Path

from importer_helpers import PdfBuilder, read_back

from normcli.bundle import parse_bundle
from normcli.importers import ingest
from normcli.model import node_id

BODY = {
    "en": "The text of this clause goes on over a full line of words like the body of a manual.",
    "de": "Der Text dieser Ziffer geht über eine ganze Zeile weiter wie der Haupttext eines Handbuchs.",
}


def _bookmarked(builder: PdfBuilder, lines: list[str], bookmark: str, level: int, language: str, size: float = 16) -> None:
    """Heading lines in a large bold font with one bookmark on the first, then two lines of body text."""
    builder.bookmarked(lines, bookmark, level, size).line(BODY[language]).line(BODY[language])


def _two_parts(builder: PdfBuilder, language: str, part_word: str, titles: list[str], acknowledgements: bool) -> PdfBuilder:
    """Part I (chapters 1 and 2, with 2.1 when `acknowledgements`), then Part II numbering its chapters from 1."""
    builder.page()
    _bookmarked(builder, [f"{part_word} I", titles[0]], f"I {titles[0]}", 0, language, size=20)
    _bookmarked(builder, [f"1 {titles[1]}"], f"1 {titles[1]}", 1, language)
    _bookmarked(builder, [f"2 {titles[2]}"], f"2 {titles[2]}", 1, language)
    if acknowledgements:
        _bookmarked(builder, [f"2.1 {titles[3]}"], f"2.1 {titles[3]}", 2, language, size=13)
    builder.page()
    _bookmarked(builder, [f"{part_word} II", titles[4]], f"II {titles[4]}", 0, language, size=20)
    _bookmarked(builder, [f"1 {titles[5]}"], f"1 {titles[5]}", 1, language)
    _bookmarked(builder, [f"2 {titles[6]}"], f"2 {titles[6]}", 1, language)
    return builder


ENGLISH = ["Getting started", "History", "Introduction", "Acknowledgements", "Font selection", "Main commands", "By file name"]
GERMAN = ["Erste Schritte", "Geschichte", "Einführung", "Dank", "Schriftwahl", "Hauptbefehle", "Nach Dateiname"]


def test_parts_and_their_clauses_align_by_designator_and_number(pdf_builder, workspace: Path, tmp_path: Path) -> None:
    """`Teil II` is `Part II` and its `1` is `II.1`, even when the German version lacks a clause of Part I: only
    that clause is reported, and no clause after it is paired with the wrong counterpart."""
    english = _two_parts(pdf_builder(), "en", "Part", ENGLISH, acknowledgements=True).save(tmp_path / "en.pdf")
    german = _two_parts(pdf_builder(), "de", "Teil", GERMAN, acknowledgements=False).save(tmp_path / "de.pdf")
    ingest(english, "TEST 150", "1", workspace=workspace, language="en")
    report = ingest(german, "TEST 150", "1", workspace=workspace, language="de")
    german_nodes = {node.path: node.title for node in read_back(workspace, report).nodes}
    english_nodes = {node.path: node.title for node in parse_bundle(workspace / Path(report.file).parent / "norm.en.md").nodes}
    assert german_nodes == {
        "Part I": "Erste Schritte",
        "I.1": "Geschichte",
        "I.2": "Einführung",
        "Part II": "Schriftwahl",
        "II.1": "Hauptbefehle",
        "II.2": "Nach Dateiname",
    }
    assert set(german_nodes) == set(english_nodes) - {"I.2.1"}
    assert {node_id("TEST 150", "1", path) for path in german_nodes} <= {node_id("TEST 150", "1", path) for path in english_nodes}
    assert report.alignment is not None
    assert report.alignment["aligned"] == len(german_nodes)
    assert report.alignment["unmatchedNew"] == [] and report.alignment["unmatchedExisting"] == ["I.2.1"]
