"""The reader's text and the go-to box, without a screen: links, formulas, figures, clause targets."""

from __future__ import annotations

from normcli import results as r
from normcli.tui.history import History
from normcli.tui.library import Location
from normcli.tui.screens.goto import parse_target
from normcli.tui.text import reader_markdown, ref_label, window_status


def section(content: str, refs: tuple[r.ResolvedRef, ...] = (), figures: tuple[r.FigureRef, ...] = (), **fields) -> r.SectionResult:  # type: ignore[no-untyped-def]
    """A section result around `content`."""
    values = {
        "edition": r.Edition("SIA 261", "2020", "fr", ("fr", "de"), "Actions"),
        "node_id": "0" * 32,
        "path": "4.2.1",
        "requested_path": None,
        "title": "Charge de neige",
        "markdown": "",
        "content": content,
        "page_start": 17,
        "page_end": 21,
        "parent_path": "4.2",
        "children": (),
        "offset": 0,
        "next_offset": None,
        "total_chars": len(content),
        "figures": figures,
        "tables": (),
        "formulas": (),
        "cross_refs": refs,
    }
    values.update(fields)
    return r.SectionResult(**values)  # type: ignore[arg-type]


def ref(
    text: str, path: str | None, code: str = "SIA 261", resolvable: bool = True, internal: bool = True, kind: str = "clause"
) -> r.ResolvedRef:
    """A resolved reference."""
    return r.ResolvedRef(text, "implicit", code, path, kind, internal, resolvable, "Title" if resolvable else None, "2020")


def test_references_become_links_outside_formulas_code_and_headings() -> None:
    text = "### voir 4.2.3\n\nselon le chiffre 4.2.3 et $x = 4.2.3$ et `4.2.3` ; SIA 260, 4.4.3 s'applique.\n"
    out = reader_markdown(
        section(text, (ref("chiffre 4.2.3", "4.2.3"), ref("4.2.3", "4.2.3"), ref("SIA 260, 4.4.3", "4.4.3", "SIA 260", internal=False)))
    )
    assert "### voir 4.2.3" in out
    assert "[chiffre 4.2.3](ref:0)" in out
    assert "[SIA 260, 4.4.3](ref:2)" in out
    assert "`4.2.3`" in out and "x = 4.2.3" in out
    assert out.count("](ref:") == 2


def test_a_number_inside_a_longer_number_is_not_a_link() -> None:
    out = reader_markdown(section("voir 4.2.31 et 14.2.3 et 4.2.3.", (ref("4.2.3", "4.2.3"),)))
    assert out.count("](ref:0)") == 1 and out.endswith("[4.2.3](ref:0).")


def test_images_become_figure_links_and_formulas_unicode() -> None:
    figure = r.FigureRef("fig-1", "1", "Figure 1 – Zones")
    out = reader_markdown(
        section("![Figure 1 – Zones](figures/fig-1.png)\n\n$$ q_d = \\gamma_Q \\cdot q_k \\qquad (3) $$", figures=(figure,))
    )
    assert "[Figure 1 – Zones](fig:fig-1)" in out
    assert "q_d = γ_Q · q_k" in out and "(3)" in out and "$" not in out


def test_a_clause_without_text_lists_its_subclauses_as_links() -> None:
    out = reader_markdown(section("", children=(r.ChildRef("4.2.1", "Sol"), r.ChildRef("4.2.2", "Toitures"))))
    assert "- [4.2.1](#4.2.1) Sol" in out and "- [4.2.2](#4.2.2) Toitures" in out


def test_window_status_and_reference_labels() -> None:
    assert window_status(section("x" * 100, offset=12000, next_offset=24000, total_chars=61532)).startswith("chars 12,000–12,100 of 61,532")
    assert window_status(section("abc")) == "3 chars"
    assert (
        ref_label(ref("DIN 1055-5", None, "DIN 1055-5", resolvable=False, internal=False, kind="norm"))
        == "DIN 1055-5 ✗ not in this workspace"
    )
    assert ref_label(ref("1.0.0", "1.0.0", resolvable=False)) == "1.0.0 ✗ not found in this norm"


def test_go_to_reads_a_clause_number_or_a_norm_and_a_clause() -> None:
    here = Location("SIA 261", "4.2.1", "2020", "fr")
    assert parse_target("4.2.3", here) == Location("SIA 261", "4.2.3", "2020", "fr")
    assert parse_target("Annexe A", here) == Location("SIA 261", "Annexe A", "2020", "fr")
    assert parse_target("SIA 260 4.4.3", here) == Location("SIA 260", "4.4.3")
    assert parse_target("SIA 260, 4.4.3", here) == Location("SIA 260", "4.4.3")
    assert parse_target("SIA 261:2014 4.2", here) == Location("SIA 261", "4.2", "2014")
    assert parse_target("EN 1991-1-3 4.2", here) == Location("EN 1991-1-3", "4.2")
    assert parse_target("SIA 261 Annexe A", here) == Location("SIA 261", "Annexe A")
    assert parse_target("  ", here) is None


def test_history_goes_back_and_forward_and_a_visit_cuts_the_forward_part() -> None:
    history = History()
    places = [Location("SIA 261", path) for path in ("1", "2", "3")]
    for place in places:
        history.visit(place)
    assert history.back() == places[1] and history.back() == places[0] and history.back() is None
    assert history.forward() == places[1]
    history.visit(Location("SIA 261", "9"))
    assert history.forward() is None and not history.can_go_forward
    history.visit(Location("SIA 261", "9", offset=12000))
    assert history.current == Location("SIA 261", "9", offset=12000) and history.back() == places[1]
