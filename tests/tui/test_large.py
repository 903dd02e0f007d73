"""Large documents: a 56,000-character clause read window by window, and a norm of ~2,000 clauses."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Markdown, Static

from normcli.tui.app import NormcliApp
from normcli.tui.library import Location
from normcli.tui.widgets.norm_tree import NormTree

pytestmark = pytest.mark.anyio


def long_norm(root: Path, make_bundle) -> None:  # type: ignore[no-untyped-def]
    """One clause of ~56,000 characters (paragraphs, tables, formulas), then 10 chapters of 14 × 13 clauses."""
    paragraph = "The characteristic value of the snow load on the ground depends on the zone and the altitude. " * 8
    body = ["# 1 Long clause", ""]
    for number in range(1, 70):
        body += [f"{paragraph} See 2.{number % 14 + 1}.1 and $q_k = \\gamma_Q \\cdot s_k$.", ""]
        if number % 7 == 0:
            body += (
                [f"Table {number} – Values", "", "| a | b | c |", "|---|---|---|"]
                + [f"| {i} | {2 * i} | {3 * i} |" for i in range(6)]
                + [""]
            )
            body += [f"$$ s_k = 0.35 \\cdot Z_s \\qquad ({number}) $$", ""]
    body += ["A last paragraph on zebra crossings, found only here.", ""]
    for chapter in range(2, 12):
        body += [f"# {chapter} Chapter {chapter}", "", "Intro.", ""]
        for section in range(1, 15):
            body += [f"## {chapter}.{section} Section {chapter}.{section}", "", "Text.", ""]
            for clause in range(1, 14):
                body += [f"### {chapter}.{section}.{clause} Clause {chapter}.{section}.{clause}", "", "Clause text.", ""]
    front = '---\ncode: BIG 1\nedition: "2024"\ntitle: A long norm\nlanguage: en\npublished: true\n---\n<!-- page 1 -->\n'
    make_bundle(root, "big-1", "2024", front + "\n".join(body))


async def test_a_long_clause_is_read_one_window_at_a_time(tmp_path, make_bundle, settle) -> None:
    long_norm(tmp_path, make_bundle)
    app = NormcliApp(tmp_path, Location("BIG 1", "1"), theme="textual-dark")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        statuses = [str(app.screen.query_one("#section-status", Static).render())]
        while not statuses[-1].endswith("· end"):
            await pilot.press("pagedown")
            await settle(pilot)
            assert len(app.screen.query_one("#markdown", Markdown).source) <= app.window_chars + 500
            status = str(app.screen.query_one("#section-status", Static).render())
            if status != statuses[-1]:
                statuses.append(status)
        assert statuses[0].startswith("chars 0–") and " of 56," in statuses[0]
        assert statuses[1].startswith("chars 5,") or statuses[1].startswith("chars 4,")
        assert len(statuses) >= 8 and len(app.paint_times) >= 8


async def test_a_norm_of_two_thousand_clauses_opens_at_once(tmp_path, make_bundle, settle) -> None:
    long_norm(tmp_path, make_bundle)
    app = NormcliApp(tmp_path, None, theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(NormTree)
        norm = tree.root.children[0]
        norm.expand()
        await pilot.pause()
        edition = norm.children[0]
        edition.expand()
        await settle(pilot)
        assert len(edition.children) == 11
        chapter = edition.children[1]
        chapter.expand()
        await settle(pilot)  # how fast is measured in bench/tui.py, not here
        assert [child.data.path for child in chapter.children][:2] == ["2.1", "2.2"]
        assert all(child.allow_expand for child in chapter.children)


async def test_a_search_hit_opens_the_window_that_holds_it(tmp_path, make_bundle, settle) -> None:
    long_norm(tmp_path, make_bundle)
    app = NormcliApp(tmp_path, Location("BIG 1", "2"), theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"zebra")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        status = str(app.screen.query_one("#section-status", Static).render())
        assert status.startswith("chars 5") and "· end · match 1 of 1 “zebra”" in status
        assert "zebra crossings" in app.screen.query_one("#markdown", Markdown).source
