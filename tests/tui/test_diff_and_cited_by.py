"""In the reader: `d` shows what changed in a clause since the previous edition, `I` who cites it."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown

from normcli.tui.widgets.cited_by import CitedBy

pytestmark = pytest.mark.anyio


def header(app) -> str:  # type: ignore[no-untyped-def]
    return str(app.screen.query_one("#section-header").render())


async def test_d_shows_the_diff_against_the_previous_edition(make_app, settle) -> None:
    app = make_app("SIA 261", "6")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        shown = app.screen.query_one("#compare-text", Markdown).source
        assert "SIA 261:2014 (fr) → SIA 261:2020 (fr), 6" in shown
        assert "renumbered 6.2 → 6.2.1 Chocs de véhicules" in shown and "~~" in shown
        await pilot.press("escape")
        await settle(pilot)
        assert "6 " in header(app)


async def test_d_on_the_oldest_edition_says_there_is_none(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1", edition="2014")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("d")
        await settle(pilot)
        assert "no edition older than 2014" in app.screen.query_one("#compare-text", Markdown).source


async def test_shift_i_lists_who_cites_the_clause_beside_the_references_and_enter_opens_one(make_app, service, settle) -> None:
    expected = service.xrefs("SIA 261", "4.2.1", direction="incoming").cross_refs
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        cited = app.screen.query_one(CitedBy)
        assert not cited.display
        await pilot.press("I")
        await settle(pilot)
        assert cited.display
        labels = [str(option.prompt) for option in cited.options]
        assert labels[0] == f"Cited by ({len(expected)})"
        assert [label.split("]")[0] + "]" for label in labels[1:]] == [ref.citation for ref in expected]
        cited.focus()
        cited.highlighted = next(n for n, ref in enumerate(expected, start=1) if ref.source_code == "SIA 260")
        await pilot.press("enter")
        await settle(pilot)
        assert header(app).startswith("SIA 260:2013 (fr) · ")
        # Still shown, now for the clause opened.
        assert str(cited.options[0].prompt).startswith("Cited by (")
