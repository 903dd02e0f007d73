"""The cross-reference grammar: what counts as a reference in French, German, Italian and English."""

from __future__ import annotations

import pytest

from normcli.xrefs import find_references


def refs(text: str, held: set[str] = frozenset()) -> list[tuple[str, str | None, str | None, str]]:
    return [(ref.type, ref.target_code, ref.target_path, ref.target_kind) for ref in find_references(text, lambda path: path in held)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("selon le chiffre 4.2.1", ("implicit", None, "4.2.1", "clause")),
        ("gemäss Ziffer 4.2.1", ("implicit", None, "4.2.1", "clause")),
        ("secondo la cifra 4.2.1", ("implicit", None, "4.2.1", "clause")),
        ("see clause 4.2.1", ("implicit", None, "4.2.1", "clause")),
        ("see section 4.2.1", ("implicit", None, "4.2.1", "clause")),
        ("voir l'annexe A", ("implicit", None, "annexe A", "annex")),
        ("siehe Anhang B", ("implicit", None, "Anhang B", "annex")),
        ("vedi allegato C", ("implicit", None, "allegato C", "annex")),
        ("shown in figure 3", ("implicit", None, "3", "figure")),
        ("siehe Abbildung 3", ("implicit", None, "3", "figure")),
        ("donné au tableau 2", ("implicit", None, "2", "table")),
        ("nach Tabelle 2", ("implicit", None, "2", "table")),
        ("les coefficients de SIA 260, 4.4.3 s'appliquent", ("implicit", "SIA 260", "4.4.3", "clause")),
        ("conformément à EN 1990", ("implicit", "EN 1990", None, "norm")),
        ("as RFC 3986 defines", ("implicit", "RFC 3986", None, "norm")),
        ("nach VSS 640 100", ("implicit", "VSS 640 100", None, "norm")),
        ("[la suite](#4.2.3)", ("explicit", None, "4.2.3", "clause")),
        ("[SIA 260](norm:SIA%20260#4.4.3)", ("explicit", "SIA 260", "4.4.3", "clause")),
        ("described in Section 6 of [QUIC-RECOVERY].", ("implicit", "[QUIC-RECOVERY]", "6", "clause")),
        ("see Section 3.2 of RFC 3986", ("implicit", "RFC 3986", "3.2", "clause")),
    ],
)
def test_reference_forms(text: str, expected: tuple) -> None:
    assert expected in refs(text)


@pytest.mark.parametrize(
    ("text", "code", "path"),
    [
        ("les exigences de ASTRA 12 001, 3.2 s'appliquent", "ASTRA 12 001", "3.2"),
        ("gemäss SN 640 312a, 4.1", "SN 640 312a", "4.1"),
        ("nach ÖNORM B 1991-1-3, 4.2", "ÖNORM B 1991-1-3", "4.2"),
        ("selon NBN EN 1990, 6.4.3", "NBN EN 1990", "6.4.3"),
        ("secondo UNI 9502, 5.1", "UNI 9502", "5.1"),
        ("to AS/NZS 1170.2, 3.4", "AS/NZS 1170.2", "3.4"),
        ("per ETAG 001, 5.2.3", "ETAG 001", "5.2.3"),
        ("nach DIN EN ISO 6946, 6.7.2", "DIN EN ISO 6946", "6.7.2"),
        ("as in ITU-T X.509, 4.1", "ITU-T X.509", "4.1"),
        ("see ECMA-262, 7.2", "ECMA-262", "7.2"),
        ("per ETSI EN 300 328, 4.3.2", "ETSI EN 300 328", "4.3.2"),
        ("see clause 4.3.2 of ETSI EN 300 328", "ETSI EN 300 328", "4.3.2"),
        ("described in section 6.2 of ITU-T X.509", "ITU-T X.509", "6.2"),
        ("voir le chiffre 3.2 de ASTRA 12 001", "ASTRA 12 001", "3.2"),
    ],
)
def test_codes_of_any_publisher_in_both_forms(text: str, code: str, path: str) -> None:
    assert ("implicit", code, path, "clause") in refs(text)


@pytest.mark.parametrize(
    "text",
    [
        "γ = 1.5 et ψ = 0.7",  # decimals
        "le 12.03.2020",  # a date
        "version 1.0.1 of the library",  # a version
        "the address 10.0.0.1",  # an address
        "$$ a = 4.2.1 $$",  # inside a formula
        "![Figure 3 – Schéma](figures/fig-3.png)",  # a figure's own caption
    ],
)
def test_numbers_that_are_not_references(text: str) -> None:
    assert refs(text) == []


def test_bare_numbers_count_when_held_announced_or_listed() -> None:
    assert ("implicit", None, "4.2", "clause") in refs("voir 4.2 ci-dessus", held={"4.2"})
    assert refs("voir 4.2 ci-dessus") == []  # two parts and not held: probably a decimal
    assert ("implicit", None, "4.2.6", "clause") in refs("(voir 4.2.6 de l'édition 2020)")
    listed = refs("chiffres 4.2.1 et 4.5.6, 4.9.9")
    assert [path for _, _, path, _ in listed] == ["4.2.1", "4.5.6", "4.9.9"]


def test_each_target_once_per_clause_with_its_position() -> None:
    text = "voir 4.2.3. Plus loin, encore 4.2.3 et [ici](#4.2.3)."
    found = find_references(text, lambda path: path == "4.2.3")
    assert [(ref.type, ref.position) for ref in found] == [("implicit", 5), ("explicit", 39)]


def test_a_hyphenated_table_number_is_one_reference_to_that_table(tmp_path) -> None:
    from normcli.service import Service
    from tests.conftest import write_bundle

    write_bundle(
        tmp_path,
        "t-1",
        "1",
        '---\ncode: T 1\nedition: "1"\ntitle: T\nlanguage: en\n---\n# 1 Scope\nSee Table 7-1 for the values.\n\n'
        "Table 7-1 – Values\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    )
    refs = Service.open(tmp_path).xrefs("T 1", "1").cross_refs
    assert [(ref.text, ref.target_path, ref.resolvable) for ref in refs] == [("Table 7-1", "tab-7-1", True)]


@pytest.mark.parametrize(
    "text",
    [
        "The layouts are described in the Appendix\n\nA new paragraph starts here.",
        "The example at the end of tab.\n\n914 lines were read.",
        "See the figure\n\n3 reasons follow.",
        "Siehe Anhang\n  \nB ist leer.",
    ],
)
def test_a_reference_never_spans_a_paragraph_break(text: str) -> None:
    """A label ending one paragraph and a number or letter starting the next are no reference (seen in manuals)."""
    assert find_references(text) == []


def test_a_reference_across_a_line_break_is_still_found_at_its_place() -> None:
    text = "First paragraph.\n\nThe rules of Appendix\nA and of Table\n3 apply."
    found = [(ref.target_kind, ref.target_path, ref.position) for ref in find_references(text)]
    assert found == [("annex", "Appendix A", text.index("Appendix")), ("table", "3", text.index("Table"))]
