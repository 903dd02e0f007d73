"""Edition alignment and the word-level diff, on small made-up clauses and on the sample's SIA 261 editions."""

from __future__ import annotations

import re
from pathlib import Path

from normcli.bundle import parse_bundle
from normcli.diff import Clause, Segment, align, counts, tokens, word_diff
from normcli.fold import fold

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace" / "norms" / "sia-261"


def clauses(file: Path) -> list[Clause]:
    return [Clause(node.path, node.title, node.text) for node in parse_bundle(file, file.name).nodes]


def headings(file: Path) -> dict[str, str]:
    """path → title, read from the Markdown headings with a regex of the test's own."""
    found = {}
    for line in file.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^#+\s+((?:Annexe\s+[A-Z])|[A-Z]?\d*(?:\.\d+)*)\s+(.*)$", line)
        if match and match.group(1):
            found[match.group(1)] = match.group(2).strip()
    return found


def test_a_changed_value_is_one_token_and_stands_out() -> None:
    old = [Clause("4.2.1", "Charge de neige", "La valeur vaut s_k = 0,4 kN/m² en plaine, selon le tableau 2.")]
    new = [Clause("4.2.1", "Charge de neige", "La valeur vaut s_k = 0,5 kN/m² en plaine, selon le tableau 2.")]
    [change] = align(old, new)
    assert change.kind == "changed" and change.from_path == change.to_path == "4.2.1"
    changed = [segment for segment in change.diff if segment.op != "equal"]
    assert changed == [Segment("delete", "0,4"), Segment("insert", "0,5")]
    assert "s_k =" in change.diff[0].text and "kN" in change.diff[-1].text


def test_formulas_and_table_cells_are_whole_tokens() -> None:
    found = tokens("Il vaut $q_k = \\mu \\cdot s_k$ ici.\n\n| Zone | s_k |\n|---|---|\n| plaine basse | 0,90 |\n")
    assert "$q_k = \\mu \\cdot s_k$" in found
    assert "plaine basse" in found and "0,90" in found and "---" not in "".join(found)


def test_same_edition_twice_has_no_changes() -> None:
    both = clauses(SAMPLE / "2020" / "norm.fr.md")
    assert align(both, both) == []


def test_renumbered_clause_is_one_change_not_a_removal_and_an_addition() -> None:
    old = [Clause("4.2.5", "Coefficient thermique", "Le coefficient thermique C_t vaut 1,0 pour les toitures usuelles.")]
    new = [
        Clause("4.2.5", "Neige en surplomb", "Les arrêts de neige retiennent la neige au bord du toit."),
        Clause("4.2.6", "Coefficient thermique", "Le coefficient thermique C_t vaut 0,9 pour les toitures usuelles."),
    ]
    found = align(old, new)
    assert [(change.kind, change.from_path, change.to_path) for change in found] == [
        ("added", None, "4.2.5"),
        ("renumbered", "4.2.5", "4.2.6"),
    ]
    assert ("delete", "1,0") in [(segment.op, segment.text) for segment in found[1].diff]


def test_sample_editions_show_every_kind_of_change() -> None:
    old_file, new_file = SAMPLE / "2014" / "norm.md", SAMPLE / "2020" / "norm.fr.md"
    found = align(clauses(old_file), clauses(new_file))
    kinds = counts(found)
    assert all(kinds[kind] > 0 for kind in ("added", "removed", "renumbered", "changed")), kinds
    # Expected independently: a title of two words or more that stands at another number in the
    # new edition (and at no number of the old one) was renumbered.
    old, new = headings(old_file), headings(new_file)
    old_by_title = {fold(title): path for path, title in old.items()}
    moved = {
        (old_by_title[fold(title)], path)
        for path, title in new.items()
        if fold(title) in old_by_title and old_by_title[fold(title)] != path and len(title.split()) >= 2
    }
    assert len(moved) >= 2
    renumbered = {(change.from_path, change.to_path) for change in found if change.kind == "renumbered"}
    assert moved <= renumbered, (moved, renumbered)
    # Every new path is accounted for exactly once, and so is every old path.
    assert sorted(c.to_path for c in found if c.to_path) == sorted({c.to_path for c in found if c.to_path})
    new_only = set(new) - set(old)
    assert {c.to_path for c in found if c.kind == "added"} <= set(new)
    assert new_only - {c.to_path for c in found} == set()


def test_editions_in_two_languages_compare_their_values_by_path() -> None:
    french, german = clauses(SAMPLE / "2020" / "norm.fr.md"), clauses(SAMPLE / "2020" / "norm.de.md")
    found = align(french, german, same_language=False)
    assert {change.kind for change in found} <= {"added", "removed", "changed"}
    shared = {clause.path for clause in french} & {clause.path for clause in german}
    assert "4.2.1" in shared
    assert not [change for change in found if change.kind in ("added", "removed") and (change.from_path or change.to_path) in shared]
    old = [Clause("4.1", "Bases", "La période de retour vaut 50 ans.")]
    new = [Clause("4.1", "Grundlagen", "Die Wiederkehrperiode beträgt 30 Jahre.")]
    [change] = align(old, new, same_language=False)
    assert change.kind == "changed" and [(s.op, s.text) for s in change.diff] == [("delete", "50"), ("insert", "30")]


def test_word_diff_elides_long_unchanged_runs() -> None:
    before = [f"w{n}" for n in range(40)]
    after = [*before[:20], "new", *before[20:]]
    segments = word_diff(before, after)
    assert [segment.op for segment in segments] == ["equal", "insert", "equal"]
    assert segments[0].text.startswith("…") and segments[-1].text.endswith("…")
    assert word_diff(before, before) == ()
