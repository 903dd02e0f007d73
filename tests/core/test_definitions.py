"""Definitions found at index time: terminology chapters, definition lists and symbol tables."""

from __future__ import annotations

import re
from pathlib import Path

from normcli.bundle import parse_bundle
from normcli.definitions import find, rank, stem_key, symbol_key, term_key
from normcli.model import Node

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace" / "norms"


def node(path: str, title: str, text: str, parent: str | None = None, children: list[str] | None = None) -> Node:
    return Node(
        path=path,
        title=title,
        depth=path.count(".") + 1,
        line=1,
        page_start=1,
        page_end=1,
        text=text,
        parent_path=parent,
        children=children or [],
    )


def test_the_four_languages_terminology_chapters_and_forms() -> None:
    nodes = [
        node("2", "Termes et définitions", "", children=["2.1", "2.2"]),
        node("2.1", "charge utile", "Action variable due à l'utilisation prévue de l'ouvrage.\n\nNote 1 : …", parent="2"),
        node("2.2", "Weitere", "Lichtraum : der freizuhaltende Raum.\n\n- **Nutzlast** — Last aus der Nutzung.", parent="2"),
        node("3", "Definizioni", "**carico utile**: azione variabile dovuta all'uso."),
        node("4", "Symbols", "$s_k$ characteristic snow load ; $\\mu_i$, $\\mu_2$ shape coefficients."),
        node("5", "Snow", "**snow load**: the weight of snow.\n\nPlain text: not a definition outside a terminology chapter."),
    ]
    found = {(d.term, d.kind, d.node_path) for d in find(nodes)}
    assert found == {
        ("charge utile", "term", "2.1"),
        ("Lichtraum", "term", "2.2"),
        ("Nutzlast", "term", "2.2"),
        ("carico utile", "term", "3"),
        ("s_k", "symbol", "4"),
        ("\\mu_i", "symbol", "4"),
        ("\\mu_2", "symbol", "4"),
        ("snow load", "term", "5"),
    }


def test_symbol_tables_anywhere_give_one_definition_per_symbol() -> None:
    table = "| Formelzeichen | Bedeutung | Einheit |\n|---|---|---|\n| $s_k$ | Schneelast auf dem Boden | kN/m² |\n| $c_{pe}$, $c_{pi}$ | Druckbeiwerte | – |\n"
    found = find([node("7.1", "Schnee", "Die Werte:\n\n" + table)])
    assert [(d.term, d.definition) for d in found] == [
        ("s_k", "Schneelast auf dem Boden – kN/m²"),
        ("c_{pe}", "Druckbeiwerte"),
        ("c_{pi}", "Druckbeiwerte"),
    ]


def test_keys_fold_case_accents_latex_and_greek() -> None:
    assert term_key("Charge  Utile") == term_key("charge utile") == "charge utile"
    assert symbol_key("$c_{pe}$") == symbol_key("c_pe") == "c_pe"
    assert symbol_key("\\mu_i") == symbol_key("μ_i") == "mu_i"
    assert stem_key("charges utiles") == stem_key("charge utile")


def test_ranking_exact_then_inflected_then_mentions() -> None:
    assert rank("charge utile", "Charge utile", "…") == 0
    assert rank("charges utiles", "charge utile", "…") == 1
    assert rank("charge utile", "Catégorie de charge utile", "…") == 2
    assert rank("charge utile", "Action", "selon la charge utile prévue") == 2
    assert rank("neige", "Action", "force imposée") is None
    assert rank("s_k", "s_k", "snow") == 0
    # One letter: only a symbol or term of that very letter.
    assert rank("A", "A", "surface") == 0
    assert rank("a", "Action", "a load") is None


def test_every_bold_entry_of_the_sample_terminology_is_found() -> None:
    for file in sorted(SAMPLE.glob("*/*/norm*.md")):
        text = file.read_text(encoding="utf-8")
        expected = {match.strip() for match in re.findall(r"^\*\*([^*]+)\*\*\s*:", text, flags=re.M)}
        found = {d.term for d in find(parse_bundle(file, file.name).nodes)}
        # an entry `**Long name (ABBR)**` is found as its name and its abbreviation
        expected = {re.sub(r"\s*\([^)]*\)$", "", term) for term in expected}
        assert expected <= found, (file, expected - found)
