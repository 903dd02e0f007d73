"""diff, incoming references, define, cite and export on a real document: Debian Policy's text and
PDF imported as two "editions" of one norm."""

from __future__ import annotations

import itertools
import re
import sqlite3
import statistics
from pathlib import Path

import pytest

from normcli.export.docset import write_docset
from normcli.importers import ingest
from normcli.service import Service

CORPUS = Path(__file__).resolve().parents[2].parent / "shared" / "corpus"
POLICY = CORPUS / "debian-policy"
pytestmark = [pytest.mark.corpus, pytest.mark.skipif(not POLICY.is_dir(), reason="../shared/corpus is not there")]


@pytest.fixture(scope="module")
def policy(tmp_path_factory: pytest.TempPathFactory) -> Service:
    """Debian Policy as text (edition 2024) and as PDF (edition 2025), and RFC 3986, in one scratch workspace."""
    root = tmp_path_factory.mktemp("policy") / "ws"
    (root / "norms").mkdir(parents=True)
    ingest(POLICY / "policy.txt", "Debian Policy", "2024", workspace=root, language="en", force=True)
    ingest(POLICY / "policy.pdf", "Debian Policy", "2025", workspace=root, language="en", force=True)
    ingest(CORPUS / "rfc3986-uri" / "rfc3986.txt", "RFC 3986", "2005", workspace=root, language="en", force=True)
    with Service.open(root) as service:
        yield service


def text_headings() -> list[tuple[int, str, str]]:
    """(line, number, title) of the numbered, underlined headings of policy.txt, read with the test's own regex."""
    lines = (POLICY / "policy.txt").read_text(encoding="utf-8").splitlines()
    found = []
    for number, (line, rule) in enumerate(itertools.pairwise(lines)):
        match = re.match(r"^(\d+(?:\.\d+)*)\.\s+(\S.*)$", line)
        if match and re.fullmatch(r"[*=\-~^\"]{3,}", rule) and len(rule) == len(line):
            found.append((number, match.group(1), match.group(2)))
    return found


def test_an_edition_diffed_with_itself_has_no_changes(policy: Service) -> None:
    assert policy.diff("Debian Policy:2024", "Debian Policy:2024").changes == ()


def test_text_and_pdf_align_clause_by_clause(policy: Service) -> None:
    answer = policy.diff("Debian Policy:2024", "Debian Policy:2025")
    counts = answer.to_json()["counts"]
    headings = text_headings()
    assert len(headings) > 250
    # The same document twice: nearly every clause pairs with its twin; what differs is wording the
    # two formats render differently (hyphenation, quotes), so paired clauses stay very alike.
    assert counts["added"] + counts["removed"] + counts["renumbered"] <= len(headings) // 20, counts
    changed = [change.similarity for change in answer.changes if change.kind == "changed"]
    assert statistics.median(changed) >= 0.9


def test_incoming_references_match_the_mentions_in_the_text(policy: Service) -> None:
    """RFC 3986 names its sections by number (`Section 3.3`): for the subsection named by the most
    clauses, every clause whose text names it is listed as citing it, with its page."""
    lines = (CORPUS / "rfc3986-uri" / "rfc3986.txt").read_text(encoding="utf-8").splitlines()
    mentions: dict[str, set[str]] = {}
    current = None
    for line in lines:
        heading = re.match(r"^(\d+(?:\.\d+)*)\.\s{2}\S", line)
        if heading:
            current = heading.group(1)
            continue
        # `Section 2.1 of [RFC1123]` names another document's section: not counted.
        for named in re.findall(r"\bSections?\s+(\d+\.\d+(?:\.\d+)*)(?![.\d]*\d)(?!,?\s+(?:of|in)\b)", line):
            if current is not None and named != current:
                mentions.setdefault(named, set()).add(current)
    target = max(sorted(mentions), key=lambda named: len(mentions[named]))
    answer = policy.xrefs("RFC 3986", target, direction="incoming")
    got = {ref.source_path for ref in answer.cross_refs}
    assert len(mentions[target]) >= 2 and mentions[target] <= got, (target, mentions[target], got)
    assert all(re.fullmatch(rf"\[RFC 3986:2005, {re.escape(ref.source_path)}, p\. \d+\]", ref.citation) for ref in answer.cross_refs)


def test_define_reads_the_definitions_chapter_of_the_text(policy: Service) -> None:
    """The terms of `1.5. Definitions`: a line of its own followed by an indented definition."""
    lines = (POLICY / "policy.txt").read_text(encoding="utf-8").splitlines()
    start = next(line for line, number, _ in text_headings() if number == "1.5")
    end = next(line for line, number, _ in text_headings() if line > start)
    terms = [
        line.strip()
        for line, following in zip(lines[start + 2 : end], lines[start + 3 : end], strict=False)
        if line.strip() and not line[0].isspace() and re.match(r"^\s{2,}\S", following)
    ]
    assert len(terms) >= 2
    for term in terms:
        first = policy.define(term).definitions[0]
        assert (first.edition, first.path, first.match) == ("2024", "1.5", "exact"), term


def test_cite_gives_a_page_only_where_the_document_has_pages(policy: Service) -> None:
    assert policy.cite("Debian Policy:2024", "4.9").citation == "[Debian Policy:2024, 4.9]"
    assert re.fullmatch(r"\[Debian Policy:2025, 4\.9, p\. \d+\]", policy.cite("Debian Policy:2025", "4.9").citation)


def test_docset_of_the_two_editions(policy: Service, tmp_path: Path) -> None:
    result = write_docset(policy, tmp_path / "docs")
    with sqlite3.connect(Path(result.path) / "Contents" / "Resources" / "docSet.dsidx") as db:
        sections = db.execute("SELECT count(*) FROM searchIndex WHERE type = 'Section'").fetchone()[0]
        paths = [row[0] for row in db.execute("SELECT path FROM searchIndex")]
    assert sections == policy.info().sections
    documents = Path(result.path) / "Contents" / "Resources" / "Documents"
    assert all((documents / path.partition("#")[0]).is_file() for path in paths)
