"""Formulas are shown to people as clean Unicode: no backslash command and no grouping brace left."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from normcli.bundle import parse_bundle
from normcli.latex import escape_text, problem, searchable, shape_problem, to_unicode
from normcli.render import formulas_to_unicode

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"
COMMAND = re.compile(r"\\[A-Za-z]+")


def _balanced(text: str) -> bool:
    depth = 0
    for char in text:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


@pytest.mark.parametrize(
    ("latex", "shown"),
    [
        (r"E_d = E\{\gamma_G \cdot G_k ; \gamma_{Q,1} \cdot Q_{k,1} ; \ldots\} \qquad (3)", "E_d = E{γ_G · G_k ; γ_Q,1 · Q_k,1 ; …}  (3)"),
        (r"q_k = \mu_i \, C_e \, C_t \, s_k", "q_k = μ_i C_e C_t s_k"),
        (r"\bar{s} + \bar\alpha", "s̄ + ᾱ"),
        (r"\frac{a+b}{2}", "(a+b)/2"),
        (r"\dfrac{N_{Ed}}{A_c}", "N_Ed/A_c"),
        (r"\sqrt{1 + x^2}", "√(1 + x²)"),
        (r"\sqrt[3]{V}", "∛V"),
        (r"10^{-3} \text{ kN/m}^3", "10⁻³ kN/m³"),
        (r"\sum_{i=1}^{n} x_i", "∑_(i=1)ⁿ x_i"),
        (r"\max\{a; b\}", "max {a; b}"),
        (r"\left( \frac{h}{b} \right)^{0,5}", "( h/b )^(0,5)"),
        (r"\left. x \right|", "x |"),
        (r"\begin{cases} 0,8 & \text{si } h \le 500 \\ 1,0 & \text{sinon} \end{cases}", "{ 0,8 si h ≤ 500; 1,0 sinon }"),
        (r"\begin{pmatrix} 1 & 0 \\ 0 & 1 \end{pmatrix}", "(1 0; 0 1)"),
        (r"\mathbb{R}^n", "ℝⁿ"),
        (r"\operatorname{cov}(X, Y)", "cov(X, Y)"),
        (r"f'(x) \geq 0", "f′(x) ≥ 0"),
        (r"\Delta T \approx 20\%", "ΔT ≈ 20%"),
    ],
)
def test_a_formula_reads_as_unicode(latex: str, shown: str) -> None:
    assert to_unicode(latex) == shown


@pytest.mark.parametrize("latex", [r"\frac{", r"\left( x", "{" * 10_000 + "x" + "}" * 10_000, r"a}", r"\begin{cases} a"])
def test_a_malformed_formula_is_shown_as_its_source_and_says_why(latex: str) -> None:
    assert to_unicode(latex) == latex.strip()
    assert problem(latex) and shape_problem(latex)


def test_check_reports_a_malformed_formula_with_its_line(tmp_path: Path) -> None:
    file = tmp_path / "norm.md"
    file.write_text(
        "---\ncode: X 1\nedition: '1'\ntitle: T\nlanguage: en\n---\n# 1 One\nText.\n$$ \\frac{a}{ \\qquad (1) $$\n", encoding="utf-8"
    )
    problems = [p for p in parse_bundle(file).problems if p.kind == "malformed_formula"]
    assert [(p.line, p.severity) for p in problems] == [(9, "warning")]
    assert "unclosed brace" in problems[0].reason


def _sample_formulas() -> list[str]:
    """Every display and inline formula written in the sample's bundles, read straight from the files."""
    found = []
    for file in sorted(SAMPLE.glob("norms/*/*/norm*.md")):
        text = file.read_text(encoding="utf-8")
        found += re.findall(r"\$\$(.+?)\$\$", text, re.S)
        found += re.findall(r"(?<![\\$])\$([^$\n]+?)\$", re.sub(r"\$\$.+?\$\$", "", text, flags=re.S))
    return found


def test_every_formula_of_the_sample_reads_cleanly() -> None:
    formulas = _sample_formulas()
    assert len(formulas) > 50
    for latex in formulas:
        assert problem(latex) is None, latex
        shown = to_unicode(latex)
        assert not COMMAND.search(shown), (latex, shown)
        assert _balanced(shown), (latex, shown)


def test_a_snippet_that_cuts_a_formula_in_two_shows_no_command() -> None:
    cut_end = "…la charge vaut $q_k = \\mu_i \\cdot C_e \\cdot"
    cut_start = "\\gamma_Q \\cdot q_k$ avec le coefficient…"
    assert formulas_to_unicode(cut_end) == "…la charge vaut q_k = μ_i · C_e ·"
    assert formulas_to_unicode(cut_start).startswith("γ_Q · q_k avec")


def test_command_words_are_not_search_words() -> None:
    indexed = searchable("Texte $$ \\frac{a}{b} \\qquad (1) $$ et $\\gamma_Q$; le mot frac reste.")
    assert "\\frac" not in indexed and "qquad" not in indexed
    assert indexed.count("frac") == 1 and "γ" in indexed


# Generated formulas: a small grammar of what norms write.
_ATOMS = st.sampled_from(["x", "s_k", "q_{k,1}", r"\gamma", r"\alpha", "2", "10", r"\infty", r"\ldots", "E", r"\%"])


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        st.tuples(children, children).map(lambda p: rf"\frac{{{p[0]}}}{{{p[1]}}}"),
        children.map(lambda c: rf"\sqrt{{{c}}}"),
        st.tuples(children, children).map(lambda p: f"{{{p[0]}}}^{{{p[1]}}}"),
        st.tuples(children, children).map(lambda p: f"{{{p[0]}}}_{{{p[1]}}}"),
        children.map(lambda c: rf"\left( {c} \right)"),
        children.map(lambda c: rf"\text{{{c}}}"),
        children.map(lambda c: rf"\bar{{{c}}}"),
        st.tuples(children, children).map(lambda p: rf"\begin{{cases}} {p[0]} & {p[1]} \\ {p[1]} & {p[0]} \end{{cases}}"),
        st.tuples(children, st.sampled_from([r" \cdot ", " + ", r" \le ", " = ", r" \times "]), children).map("".join),
    )


@settings(max_examples=300, deadline=None)
@given(st.recursive(_ATOMS, _combine, max_leaves=12))
def test_generated_formulas_leave_no_command_and_no_brace(latex: str) -> None:
    shown = to_unicode(latex)
    assert problem(latex) is None
    assert not COMMAND.search(shown), (latex, shown)
    grouping_left = shown.replace("{ ", "").replace(" }", "")  # `cases` prints its brace as `{ …; … }`
    assert "{" not in grouping_left and "}" not in grouping_left, (latex, shown)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_any_text_renders_without_an_error(text: str) -> None:
    assert isinstance(to_unicode(text), str)
    assert isinstance(formulas_to_unicode(text), str)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab1 =(){}[]_^$%#&~\\σ≡∅′", max_size=40))
def test_text_read_off_a_page_shows_as_itself(text: str) -> None:
    assert to_unicode(escape_text(text)) == " ".join(text.split())
