"""Tables are addressable; search reads every language version and every spelling of a word."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from normcli.errors import NotFound
from normcli.fold import fold
from normcli.service import Service

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"


def _table_in_source(file: Path, number: str) -> tuple[str, str, list[list[str]], int]:
    """Caption, clause, cells and page of table `number`, read straight from a bundle file."""
    lines = file.read_text(encoding="utf-8").splitlines()
    clause, page = "", 0
    for index, line in enumerate(lines):
        if heading := re.match(r"^#+\s+(\S+)", line):
            clause = heading.group(1)
        if marker := re.match(r"<!--\s*page\s+(\d+)", line):
            page = int(marker.group(1))
        if re.match(rf"^(?:Tableau|Tabelle|Table)\s+{number}\b", line.strip()):
            rows = []
            for row in lines[index + 1 :]:
                if not row.strip():
                    if rows:
                        break
                    continue
                if not row.strip().startswith("|"):
                    break
                if not re.fullmatch(r"[|:\-\s]+", row.strip()):
                    rows.append([cell.strip() for cell in row.strip().strip("|").split("|")])
            return line.strip(), clause, rows, page
    raise AssertionError(f"no table {number} in {file}")


def test_a_table_is_read_by_its_id_with_its_rows_clause_and_page(service: Service) -> None:
    caption, clause, rows, page = _table_in_source(SAMPLE / "norms/sia-261/2020/norm.fr.md", "3")
    table = service.table("SIA 261", "tab-3")
    assert (table.caption, table.path, table.page_start) == (caption, clause, page)
    assert [list(row) for row in table.rows] == rows
    assert table.to_json()["table"]["rows"][0] == rows[0]
    assert service.table("SIA 261", "3").id == service.table("SIA 261", "Tableau 3").id == "tab-3"


def test_an_unknown_table_is_not_found_and_names_the_tables_there_are(service: Service) -> None:
    with pytest.raises(NotFound) as raised:
        service.table("SIA 261", "tab-99")
    assert "tab-3" in raised.value.hint


def test_section_opens_the_clause_that_holds_a_table_and_says_so(service: Service) -> None:
    _, clause, _, _ = _table_in_source(SAMPLE / "norms/sia-261/2020/norm.fr.md", "3")
    section = service.section("SIA 261", "tab-3")
    assert (section.path, section.requested_path) == (clause, "tab-3")
    assert "tab-3" in [table.id for table in section.tables]


def test_searching_a_table_by_its_label_gives_its_clause_first(service: Service) -> None:
    _, clause, _, _ = _table_in_source(SAMPLE / "norms/sia-261/2020/norm.fr.md", "3")
    assert service.search("SIA 261", "tableau 3").hits[0].path == clause


def test_search_reads_every_language_version_and_each_hit_names_its_language(service: Service) -> None:
    german = (SAMPLE / "norms/sia-261/2020/norm.de.md").read_text(encoding="utf-8")
    assert "Schneelast" in german
    hits = service.search("SIA 261", "Schneelast").hits
    assert hits and {hit.language for hit in hits} == {"de"}
    assert service.search("SIA 261", "Schneelast", language="fr").hits == ()
    both = service.search("SIA 261", "4.2.1").hits
    assert both[0].language == "fr"  # the default language comes first


@pytest.mark.parametrize("spelling", ["Gefälle", "Gefaelle", "GEFAELLE"])
def test_an_umlaut_is_found_in_either_spelling(service: Service, spelling: str) -> None:
    norms = service.corpus(spelling).norms
    found = {hit.path for norm in norms for hit in norm.hits}
    source = (SAMPLE / "norms/vss-640-100/2019/norm.md").read_text(encoding="utf-8")
    assert "Gefälle" in source and found


def test_a_long_word_is_found_inside_compounds(service: Service) -> None:
    source = (SAMPLE / "norms/vss-640-100/2019/norm.md").read_text(encoding="utf-8")
    compounds = {word for word in re.findall(r"\w+", source) if "gefälle" in word.lower() and not word.lower().startswith("gefälle")}
    assert compounds, "the sample writes compounds such as Längsgefälle"
    hits = [hit for norm in service.corpus("Gefälle", limit=40).norms for hit in norm.hits]
    assert any(any(fold(word) in fold(hit.snippet) for word in compounds) for hit in hits)


def test_latex_commands_are_not_search_words(service: Service) -> None:
    source = "".join(file.read_text(encoding="utf-8") for file in SAMPLE.glob("norms/*/*/norm*.md"))
    assert "\\frac" in source and not re.search(r"(?<!\\)\bfrac\b", source)
    assert service.corpus("frac").norms == ()
