"""Citation checks on their own: what counts as a citation, and why each one passes or fails."""

from __future__ import annotations

import pytest

from normcli.agent.citations import SectionRead, find_citations, verify_draft

READ = [
    SectionRead("SIA 261", "2020", "4.2.1", 17, 21),
    SectionRead("SIA 261", "2020", "4.2.1", 17, 21, requested_path="4.2.1.3"),
    SectionRead("RFC 9110", "2022", "8.3", None, None),
]


def found(text: str) -> list[tuple]:
    return [(c.code, c.edition, c.path, c.page_start, c.page_end) for c in find_citations(text)]


def test_citations_are_found_in_every_form_spec_writes() -> None:
    text = (
        "Voir [SIA 261:2020, 4.2.1, p. 17] et [SIA 260, 4.4.3, pp. 12–13; SIA 261:2026 (draft), 4.2.1, p. 7], "
        "puis [RFC 9110:2022, 8.3] et [EN 1991-1-3:2021, Annex A, p. 19]."
    )
    assert found(text) == [
        ("SIA 261", "2020", "4.2.1", 17, 17),
        ("SIA 260", None, "4.4.3", 12, 13),
        ("SIA 261", "2026", "4.2.1", 7, 7),
        ("RFC 9110", "2022", "8.3", None, None),
        ("EN 1991-1-3", "2021", "Annex A", 19, 19),
    ]


@pytest.mark.parametrize("text", ["[1]", "[see above]", "[Note, see, p. 3]", "[the link](https://example.org)", "[a, b]", "[SIA 261]"])
def test_brackets_that_are_not_citations_are_left_alone(text: str) -> None:
    assert find_citations(text) == []


CASES = [
    ("[SIA 261:2020, 4.2.1, p. 17]", True, ""),
    ("[SIA 261:2020, 4.2.1, p. 21]", True, ""),
    ("[sia261:2020, 4.2.1, pp. 18-20]", True, ""),  # codes match forgivingly, a range inside the section passes
    ("[SIA 261, 4.2.1, p. 17]", True, ""),  # no edition: the one read
    ("[SIA 261:2020, 4.2.1.3, p. 19]", True, ""),  # the path asked for, resolved to the heading above
    ("[RFC 9110:2022, 8.3]", True, ""),  # no printed pages, no page
    ("[SIA 261:2020, 4.2.1, p. 22]", False, "is on pp. 17–21, not p. 22"),
    ("[SIA 261:2020, 4.2.1, pp. 20–23]", False, "not p. 20–23"),
    ("[SIA 261:2020, 4.2.2, p. 22]", False, "was not read with get_section in this turn"),
    ("[SIA 261:2014, 4.2.1, p. 17]", False, "SIA 261:2014 was not read"),
    ("[SIA 260:2013, 4.4.3, p. 12]", False, "no section of SIA 260 was read"),
    ("[RFC 9110:2022, 8.3, p. 1]", False, "has no printed pages"),
    ("[SIA 261:2020 (draft), 4.2.1, p. 17]", True, ""),
]


@pytest.mark.parametrize(("citation", "ok", "reason"), CASES)
def test_each_citation_is_checked_against_the_sections_read(citation: str, ok: bool, reason: str) -> None:
    answer = verify_draft(f"La charge {citation}.", READ)
    assert answer["verified"] is ok
    [checked] = answer["citations"]
    assert checked["verified"] is ok
    if not ok:
        assert reason in checked["reason"] and answer["problems"] == [f"{citation}: {checked['reason']}"]


def test_an_edition_must_be_named_when_several_were_read() -> None:
    reads = [*READ, SectionRead("SIA 261", "2014", "4.2.1", 15, 16)]
    answer = verify_draft("[SIA 261, 4.2.1, p. 17]", reads)
    assert not answer["verified"] and "name the edition" in answer["citations"][0]["reason"]
    assert verify_draft("[SIA 261:2014, 4.2.1, p. 15]", reads)["verified"]


def test_a_draft_without_citations_verifies_with_a_note() -> None:
    answer = verify_draft("Les normes de cet espace de travail ne traitent pas la question.", READ)
    assert answer["verified"] and answer["citations"] == [] and "cites nothing" in answer["note"]


def test_each_citation_names_the_command_that_opens_it() -> None:
    [checked] = verify_draft("[SIA 261:2020, Annexe A, p. 50]", [SectionRead("SIA 261", "2020", "Annexe A", 50, 52)])["citations"]
    assert checked["command"] == 'normcli section "SIA 261:2020" "Annexe A"'


def test_a_section_answer_is_what_a_read_records(service) -> None:
    data = service.section("SIA 261", "4.2.1").to_json()
    read = SectionRead.from_json(data)
    assert (read.code, read.edition, read.path) == (data["section"]["code"], data["section"]["edition"], "4.2.1")
    assert (read.page_start, read.page_end) == (data["section"]["pageStart"], data["section"]["pageEnd"])


def _paths(nodes: list[dict]) -> list[str]:
    return [path for node in nodes for path in (node["path"], *_paths(node["children"]))]


def test_the_citation_every_section_answer_carries_verifies(service) -> None:
    checked = 0
    for norm in service.norms().to_json()["norms"]:
        for edition in norm["editions"]:
            for language in edition["languages"]:
                tree = service.toc(norm["code"], 6, edition["edition"], language).to_json()["tree"]
                for path in _paths(tree):
                    data = service.section(norm["code"], path, 500, 0, edition["edition"], language).to_json()
                    citation = data["section"]["citation"]
                    answer = verify_draft(f"Voir {citation}.", [SectionRead.from_json(data)])
                    assert answer["verified"] and len(answer["citations"]) == 1, (citation, answer["problems"])
                    checked += 1
    assert checked >= 100


def test_a_document_without_printed_pages_is_cited_and_verified_without_a_page(tmp_path, make_bundle) -> None:
    from normcli.service import Service

    make_bundle(
        tmp_path,
        "rfc-9999",
        "2024",
        """
        ---
        code: RFC 9999
        edition: "2024"
        title: A protocol without pages
        language: en
        ---
        # 1 Introduction
        Text of the introduction.
        ## 1.1 Terms
        Text of the terms.
        """,
    )
    with Service.open(tmp_path) as service:
        data = service.section("RFC 9999", "1.1").to_json()
    citation = data["section"]["citation"]
    assert data["section"]["pageStart"] is None and "p." not in citation
    assert verify_draft(f"See {citation}.", [SectionRead.from_json(data)])["verified"]
    assert not verify_draft("See [RFC 9999:2024, 1.1, p. 1].", [SectionRead.from_json(data)])["verified"], "never a made-up p. 1"


def test_a_path_holding_brackets_is_cited_and_verified(tmp_path, make_bundle) -> None:
    """An unnumbered heading's path is its title; a title in brackets (a dated change-log entry) still cites."""
    from normcli.service import Service

    make_bundle(
        tmp_path,
        "doc-11",
        "1",
        """
        ---
        code: DOC 11
        edition: "1"
        title: A package manual with a dated history
        language: en
        ---
        <!-- page 46 -->
        # 5 History
        The changes, newest last.
        # [2005/02/23 v2.0]
        New options draft and final.
        """,
    )
    with Service.open(tmp_path) as service:
        data = service.section("DOC 11", "[2005/02/23 v2.0]").to_json()
    citation = data["section"]["citation"]
    assert citation == "[DOC 11:1, [2005/02/23 v2.0], p. 46]"
    answer = verify_draft(f"The options came in {citation}.", [SectionRead.from_json(data)])
    assert answer["verified"] and [c["path"] for c in answer["citations"]] == ["[2005/02/23 v2.0]"], answer


def test_a_citation_inside_brackets_is_still_found() -> None:
    assert found("(see [also [SIA 261:2020, 4.2.1, p. 17]])") == [("SIA 261", "2020", "4.2.1", 17, 17)]
    assert found("[SIA 261:2020, [draft] 4.2.1, p. 17] and [1]") == [("SIA 261", "2020", "[draft] 4.2.1", 17, 17)]
