"""The bundle parser: SPEC §2 read line by line, with every problem located."""

from __future__ import annotations

from pathlib import Path

import pytest

from normcli.bundle import UnreadableBundle, parse_bundle
from normcli.model import node_id
from tests.conftest import write_bundle

HEADER = """\
---
code: SIA 999
edition: "2020"
title: Norme d'essai
language: fr
requires: [SIA 260, EN 1990]
demo: true
---
"""


def parse(tmp_path: Path, body: str, name: str = "norm.md"):
    return parse_bundle(write_bundle(tmp_path, "sia-999", "2020", HEADER + body, name))


def test_front_matter_fields_are_read(tmp_path: Path) -> None:
    bundle = parse(tmp_path, "# 1 Objet\nTexte.\n")
    assert (bundle.code, bundle.edition, bundle.language, bundle.title) == ("SIA 999", "2020", "fr", "Norme d'essai")
    assert bundle.requires == ["SIA 260", "EN 1990"]
    assert bundle.demo is True and bundle.published is True


def test_headings_give_paths_depths_and_parents(tmp_path: Path) -> None:
    body = """\
# Avant-propos
Préface.
# 4 Actions
## 4.2 Neige
### 4.2.1 Charge de neige sur le sol
#### 4.2.1.1 Un
##### 4.2.1.1.1 Deux
###### 4.2.1.1.1.1 Trois
###### 4.2.1.1.1.1.1 Quatre
# Annexe A Indications (informative)
## A.1 Détail
### A.1.2 Plus bas
"""
    bundle = parse(tmp_path, body)
    nodes = {node.path: node for node in bundle.nodes}
    assert list(nodes) == [
        "Avant-propos",
        "4",
        "4.2",
        "4.2.1",
        "4.2.1.1",
        "4.2.1.1.1",
        "4.2.1.1.1.1",
        "4.2.1.1.1.1.1",
        "Annexe A",
        "A.1",
        "A.1.2",
    ]
    assert nodes["4.2.1"].title == "Charge de neige sur le sol"
    assert nodes["4.2.1.1.1.1.1"].depth == 7 and nodes["4.2.1.1.1.1.1"].parent_path == "4.2.1.1.1.1"
    assert nodes["Annexe A"].depth == 1 and nodes["Annexe A"].title == "Indications (informative)"
    assert nodes["A.1.2"].parent_path == "A.1" and nodes["A.1"].parent_path == "Annexe A"
    assert nodes["Avant-propos"].depth == 1 and nodes["Avant-propos"].parent_path is None


@pytest.mark.parametrize("word", ["Annexe", "Anhang", "Annex", "Allegato"])
def test_annex_words_in_four_languages(tmp_path: Path, word: str) -> None:
    bundle = parse(tmp_path, f"# 1 Objet\nTexte.\n# {word} B Tabellen\n## B.1 Werte\nText.\n")
    assert [node.path for node in bundle.nodes] == ["1", f"{word} B", "B.1"]


def test_page_markers_set_ranges_that_cover_descendants(tmp_path: Path) -> None:
    body = """\
<!-- page 7 -->
# 4 Actions
Intro.
## 4.1 Bases
Texte.
<!-- page 8 -->
Suite.
<!-- page 9 -->
## 4.2 Neige
Texte.
<!-- page 12 -->
# 5 Séisme
"""
    nodes = {node.path: node for node in parse(tmp_path, body).nodes}
    assert (nodes["4"].page_start, nodes["4"].page_end) == (7, 9)
    assert (nodes["4.1"].page_start, nodes["4.1"].page_end) == (7, 8)
    assert (nodes["4.2"].page_start, nodes["4.2"].page_end) == (9, 9)
    assert nodes["5"].page_start == 12


def test_figures_tables_and_formulas(tmp_path: Path) -> None:
    folder = tmp_path / "norms" / "sia-999" / "2020" / "figures"
    folder.mkdir(parents=True)
    (folder / "fig-3.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    body = """\
# 4 Neige
![Figure 3 – Coefficient de forme μ](figures/fig-3.png)

Tableau 2 – Valeurs de s_k
| Altitude | s_k |
|---|---|
| 400 | 0,9 |

$$ q_k = \\mu_i \\, C_e \\, s_k \\qquad (12) $$

$$
s = 1
\\tag{13}
$$
"""
    bundle = parse(tmp_path, body)
    assert [(f.id, f.number, f.file) for f in bundle.figures] == [("fig-3", "3", "figures/fig-3.png")]
    assert [(t.id, t.number, t.caption) for t in bundle.tables] == [("tab-2", "2", "Tableau 2 – Valeurs de s_k")]
    assert "| 400 | 0,9 |" in bundle.tables[0].markdown
    assert [(f.number, f.latex) for f in bundle.formulas] == [("12", "q_k = \\mu_i \\, C_e \\, s_k"), ("13", "s = 1")]


def test_cross_references_are_attached_to_their_clause(tmp_path: Path) -> None:
    body = "# 4 Neige\n## 4.2 A\nvoir 4.3 et [la suite](#4.3); SIA 260, 4.4.3.\n## 4.3 B\nRien.\n"
    refs = [(x.node_path, x.type, x.target_code, x.target_path) for x in parse(tmp_path, body).xrefs]
    assert ("4.2", "implicit", None, "4.3") in refs
    assert ("4.2", "explicit", None, "4.3") in refs
    assert ("4.2", "implicit", "SIA 260", "4.4.3") in refs


def test_a_reference_inside_a_part_that_numbers_again_names_the_parts_clause(tmp_path: Path) -> None:
    # Parts that restart their numbering are imported as `II.5` under `Part II`: "section 5" written
    # in Part II is that part's 5, a clause the norm has nowhere else; one the norm has stays as written.
    body = (
        "# Premiers pas {#Part I}\n## 1 Historique {#I.1}\nVoir la section 5 et la section 2.\n## 2 Installation {#I.2}\nTexte.\n"
        "# Choix {#Part II}\n## 1 Commandes {#II.1}\nVoir la section 5, la section 2 et 4.2.\n## 5 Détails {#II.5}\nTexte.\n"
        "# 4 Neige\n## 4.2 Charge\nVoir la section 5.\n"
    )
    refs = {(x.node_path, x.text, x.target_path) for x in parse(tmp_path, body).xrefs if x.target_kind == "clause"}
    assert ("II.1", "section 5", "II.5") in refs  # the part's own 5
    assert ("II.1", "section 2", "2") in refs  # Part II has no 2 and the norm no 2: left as written, unresolved
    assert ("II.1", "4.2", "4.2") in refs  # a clause the norm has keeps its path
    assert ("I.1", "section 2", "I.2") in refs
    assert ("I.1", "section 5", "5") in refs  # Part I has no 5
    assert ("4.2", "section 5", "5") in refs  # numbered clauses are in no part


def test_duplicate_path_is_reported_and_kept_apart(tmp_path: Path) -> None:
    bundle = parse(tmp_path, "# 1 Objet\nA.\n# 1 Objet encore\nB.\n")
    assert [node.path for node in bundle.nodes] == ["1", "1 (11)"]
    problem = next(p for p in bundle.problems if p.kind == "duplicate_path")
    assert problem.line == 11 and "duplicate path '1'" in problem.reason


def test_no_front_matter_makes_the_bundle_unreadable(tmp_path: Path) -> None:
    file = write_bundle(tmp_path, "x", "2020", "# 1 Objet\n")
    with pytest.raises(UnreadableBundle) as caught:
        parse_bundle(file)
    assert caught.value.problems[0].line == 1 and "front matter" in caught.value.problems[0].reason


def test_bom_crlf_and_invalid_utf8_are_read(tmp_path: Path) -> None:
    file = tmp_path / "norm.md"
    file.write_bytes(
        b"\xef\xbb\xbf" + (HEADER + "# 1 Objet\r\nTexte \xff ici.\r\n").encode("utf-8", "surrogateescape").replace(b"\\xff", b"\xff")
    )
    raw = file.read_bytes().replace("Texte \xff".encode(), b"Texte \xff")
    file.write_bytes(raw)
    bundle = parse_bundle(file)
    assert bundle.code == "SIA 999" and bundle.nodes[0].path == "1"
    assert any(problem.kind == "encoding" for problem in bundle.problems)
    assert "\r" not in bundle.nodes[0].text


@pytest.mark.parametrize(
    ("link", "reason"),
    [
        ("../../../secret.png", "outside the bundle folder"),
        ("/etc/passwd", "absolute path"),
        ("https://example.org/a.png", "is a URL"),
        ("figures/missing.png", "missing"),
    ],
)
def test_unsafe_or_missing_figure_links_are_never_kept(tmp_path: Path, link: str, reason: str) -> None:
    (tmp_path / "secret.png").write_bytes(b"secret")
    bundle = parse(tmp_path, f"# 1 Objet\n![Figure 1 – x]({link})\n")
    assert bundle.figures[0].file is None
    assert any(reason in problem.reason for problem in bundle.problems)


def test_a_symlink_out_of_the_bundle_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "outside.png"
    outside.write_bytes(b"\x89PNG")
    folder = tmp_path / "norms" / "sia-999" / "2020" / "figures"
    folder.mkdir(parents=True)
    (folder / "link.png").symlink_to(outside)
    bundle = parse(tmp_path, "# 1 Objet\n![Figure 1 – x](figures/link.png)\n")
    assert bundle.figures[0].file is None


def test_node_ids_are_md5_of_code_edition_path() -> None:
    import hashlib

    assert node_id("SIA 261", "2020", "4.2.1") == hashlib.md5(b"SIA 261|2020|4.2.1").hexdigest()


def test_ten_thousand_levels_do_not_recurse(tmp_path: Path) -> None:
    body = "".join(f"###### {'.'.join(['1'] * (level + 1))} T\n" for level in range(3000))
    bundle = parse(tmp_path, body)
    assert len(bundle.nodes) == 3000 and bundle.nodes[-1].depth == 3000


def test_a_summary_drops_emphasis_but_keeps_inline_formulas_whole() -> None:
    from normcli.bundle import summary_of

    text = "La **charge** de neige $s_k$ vaut _au moins_ $q_{k,min}$ ; la suite vient après."
    assert summary_of(text) == "La charge de neige $s_k$ vaut au moins $q_{k,min}$ ;"


def test_annexes_printed_as_their_letter_before_the_title_are_lettered_paths(tmp_path: Path) -> None:
    """LaTeX sets appendices as chapters led by their letter alone (`# A Implementation`): when the letters run A, B …
    at one level, or `A` is followed by its clause `A.1`, each path is the letter (SPEC §1: `A`, as `A.1` is its
    clause's) and the title what follows; a lone `A Note …` and a letter out of sequence stay unnumbered titles."""
    body = """\
# 1 Introduction
# C Notes on C
# 2 Usage
# A Implementation
## A.1 Sourcemap
# B Test
```
# A Code comment
```
"""
    nodes = [(node.path, node.title, node.depth, node.parent_path) for node in parse(tmp_path, body).nodes]
    assert nodes == [
        ("1", "Introduction", 1, None),
        ("C Notes on C", "C Notes on C", 1, None),
        ("2", "Usage", 1, None),
        ("A", "Implementation", 1, None),
        ("A.1", "Sourcemap", 2, "A"),
        ("B", "Test", 1, None),
    ]
    alone = [(node.path, node.title) for node in parse(tmp_path / "alone", "# 1 Scope\n# A Note on units\nText.\n").nodes]
    assert alone == [("1", "Scope"), ("A Note on units", "A Note on units")]
    with_clause = parse(tmp_path / "clause", "# 1 Scope\n# A Worked example\n## A.1 Loads\n")
    assert [node.path for node in with_clause.nodes] == ["1", "A", "A.1"]
