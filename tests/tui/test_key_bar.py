"""The bottom line of keys follows the focus, and a click on a key presses it."""

from __future__ import annotations

import pytest

from normcli.tui.widgets.key_bar import KeyBar
from normcli.tui.widgets.norm_tree import NormTree
from normcli.tui.widgets.section_view import TextScroll

pytestmark = pytest.mark.anyio


async def test_the_key_bar_shows_the_keys_of_what_has_the_keyboard(make_app, settle) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(KeyBar)
        assert app.focused is app.screen.query_one(NormTree)
        assert bar.text.startswith(" ← Close  → Open  ⏎ Read ") and " ? Keys " in bar.text  # the tree's keys first
        assert bar.text.rstrip().endswith("Palette")
        app.screen.query_one(TextScroll).focus()
        await settle(pilot)
        assert bar.text.startswith(" pgdn Page ") and "Read" not in bar.text, bar.text
        start = bar.text.index(" g Go to")  # a click on "Go to" asks for a clause, as the key does
        await pilot.click(KeyBar, offset=(start + 3, 0))
        await settle(pilot)
        assert type(app.screen).__name__ == "GotoScreen"


async def test_a_key_shows_its_tooltip_on_hover(make_app, settle) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(KeyBar)
        start = bar.text.index(" / Search")
        await pilot.hover(KeyBar, offset=(start + 2, 0))
        assert bar.tooltip is not None and bar.tooltip.startswith("search in this norm")
