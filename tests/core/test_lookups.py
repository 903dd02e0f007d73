"""diff, incoming references, define and cite over the sample workspace, as every frontend sees them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from normcli.errors import InvalidArgument, NotFound
from normcli.service import Service

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace" / "norms"


def clauses_mentioning(file: Path, pattern: str) -> set[str]:
    """The clause paths (read from the headings with the test's own regex) whose text matches `pattern`."""
    found, path = set(), None
    body = file.read_text(encoding="utf-8").split("---", 2)[2]
    for line in body.splitlines():
        heading = re.match(r"^#+\s+(Annexe\s+[A-Z]|[A-Z](?:\.\d+)+|\d+(?:\.\d+)*|\S.*)", line)
        if heading:
            first = heading.group(1)
            path = first if re.match(r"Annexe|[A-Z]\.|\d", first) else line.lstrip("# ").strip()
            continue
        if path and re.search(pattern, line):
            found.add(path)
    return found


def test_incoming_lists_every_clause_that_cites_the_clause_with_its_citation(service: Service) -> None:
    answer = service.xrefs("SIA 261", "4.2.1", direction="incoming")
    got = {(ref.source_code, ref.source_path) for ref in answer.cross_refs}
    own = clauses_mentioning(SAMPLE / "sia-261" / "2020" / "norm.fr.md", r"(?<![\d.])4\.2\.1(?![\d.]\d)") - {"4.2.1"}
    others = {
        ("SIA 260", path)
        for path in clauses_mentioning(SAMPLE / "sia-260" / "2013" / "norm.md", r"SIA 261,\s*(?:chiffre\s+)?4\.2\.1(?!\.\d)")
    } | {("EN 1991-1-3", path) for path in clauses_mentioning(SAMPLE / "en-1991-1-3" / "2021" / "norm.md", r"SIA 261,\s*4\.2\.1(?!\.\d)")}
    assert others and own
    assert got == {("SIA 261", path) for path in own} | others
    data = answer.to_json()
    assert data["direction"] == "incoming" and data["path"] == "4.2.1" and data["edition"] == "2020"
    first = data["crossRefs"][0]
    assert set(first) >= {"sourceCode", "sourceEdition", "sourcePath", "sourceTitle", "text", "citation"}
    assert re.fullmatch(
        rf"\[{re.escape(first['sourceCode'])}:{first['sourceEdition']}, {re.escape(first['sourcePath'])}, p\. \d+\]", first["citation"]
    )


def test_incoming_of_an_older_edition_lists_only_its_own_clauses(service: Service) -> None:
    answer = service.xrefs("SIA 261:2014", "4.2.1", direction="incoming")
    assert {ref.source_code for ref in answer.cross_refs} <= {"SIA 261"}
    assert {ref.source_edition for ref in answer.cross_refs} <= {"2014"}
    assert ("A.2" in {ref.source_path for ref in answer.cross_refs}) is True


def test_diff_of_the_sample_editions_names_each_kind(service: Service) -> None:
    answer = service.diff("SIA 261:2014", "SIA 261:2020").to_json()
    assert answer["from"]["edition"] == "2014" and answer["to"]["edition"] == "2020" and answer["sameLanguage"]
    assert all(answer["counts"][kind] > 0 for kind in ("added", "removed", "renumbered", "changed"))
    moved = {(c["fromPath"], c["toPath"]) for c in answer["changes"] if c["kind"] == "renumbered"}
    assert ("3.2", "4.1.4") in moved  # Charges utiles moved into chapter 4
    assert set(answer["changes"][0]) >= {"kind", "fromPath", "toPath", "title", "similarity", "diff"}


def test_diff_bad_input(service: Service) -> None:
    same = service.diff("SIA 261:2020", "SIA 261:2020")
    assert same.changes == () and "nothing changed" in same.notes[0]
    with pytest.raises(InvalidArgument, match="different norms"):
        service.diff("SIA 261", "SIA 260")
    assert service.diff("SIA 261", "SIA 260", force=True).notes
    languages = service.diff("SIA 261:2020", "SIA 261:2020", to_language="de")
    assert not languages.same_language and "aligned by path" in languages.notes[-1]
    with pytest.raises(NotFound):
        service.diff("SIA 261:2014", "SIA 261:2020", "9.9.9")
    scoped = service.diff("SIA 261:2014", "SIA 261:2020", "4.2")
    assert scoped.changes and all((c.to_path or c.from_path or "").startswith("4.2") for c in scoped.changes)


def test_define_finds_terms_and_symbols_exact_first(service: Service) -> None:
    answer = service.define("charge utile")
    first = answer.definitions[0]
    assert (first.code, first.edition, first.path, first.match) == ("SIA 261", "2020", "2.1", "exact")
    assert first.citation == "[SIA 261:2020, 2.1, p. 9]"
    assert service.define("Charges utiles").definitions[0].match == "inflected"
    symbol = service.define("s_k")
    assert {(d.code, d.language) for d in symbol.definitions} >= {("SIA 261", "fr"), ("SIA 261", "de"), ("EN 1991-1-3", "en")}
    assert all(d.kind == "symbol" and d.match == "exact" for d in symbol.definitions)
    matches = [d.match for d in service.define("neige", limit=50).definitions]
    assert matches == sorted(matches, key=["exact", "inflected", "mention"].index)


def test_define_one_letter_and_empty_terms(service: Service) -> None:
    answer = service.define("q")
    assert answer.definitions == () and "one character" in answer.notes[0]
    assert {d.term for d in service.define("A").definitions} == {"A"}
    with pytest.raises(InvalidArgument):
        service.define("  ")
    with pytest.raises(InvalidArgument):
        service.define("--")


def test_cite_in_every_format(service: Service) -> None:
    assert service.cite("SIA 261:2020", "4.2.1").citation == "[SIA 261:2020, 4.2.1, p. 17]"
    assert service.cite("SIA 261:2026", "4.2.1").citation.startswith("[SIA 261:2026 (draft), 4.2.1, p. ")
    for style in ("bibtex", "csl-json", "ris", "text"):
        assert "4.2.1" in service.cite("SIA 261", "4.2.1", style).reference
    with pytest.raises(InvalidArgument, match="format must be one of text, bibtex, csl-json, ris"):
        service.cite("SIA 261", "4.2.1", "mla")
