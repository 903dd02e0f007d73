"""What the main screens look like at 80×24 and 160×48, dark and light (pytest-textual-snapshot).

After a deliberate change of the look (or of the sample workspace), review and refresh them with
`.venv/bin/python -m pytest tests/tui/test_snapshots.py --snapshot-update`.
"""

from __future__ import annotations

import pytest

SMALL = (80, 24)
LARGE = (160, 48)


@pytest.fixture
def ready(settle):  # type: ignore[no-untyped-def]
    """A `run_before` that waits for the workers and the paint, so no snapshot catches a half-drawn screen."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)

    return run_before


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_reader_dark(snap_compare, make_app, ready, size) -> None:
    assert snap_compare(make_app("SIA 261", "4.2.1"), terminal_size=size, run_before=ready)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_reader_light(snap_compare, make_app, ready, size) -> None:
    assert snap_compare(make_app("SIA 261", "4.2.1", theme="textual-light"), terminal_size=size, run_before=ready)


def test_welcome(snap_compare, make_app, ready) -> None:
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=ready)


def test_second_window_of_a_long_clause(snap_compare, make_app, settle) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        reader = pilot.app.screen
        while reader.reading.section.offset == 0:
            await pilot.press("pagedown")
            await settle(pilot)

    assert snap_compare(make_app("SIA 261", "4.2.1", window_chars=2000), terminal_size=LARGE, run_before=run_before)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_corpus_search(snap_compare, make_app, settle, size) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("s", *"neige")
        await settle(pilot)

    assert snap_compare(make_app("SIA 261", "1"), terminal_size=size, run_before=run_before)


def test_keys(snap_compare, make_app, settle) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("question_mark")
        await settle(pilot)

    assert snap_compare(make_app("SIA 261", "4.2.1"), terminal_size=LARGE, run_before=run_before)


def test_figure_without_graphics(snap_compare, make_app, settle) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)

    assert snap_compare(make_app("SIA 261", "4.2.1"), terminal_size=SMALL, run_before=run_before)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_find_in_clause(snap_compare, make_app, settle, size) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("f", *"neige", "enter")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)

    assert snap_compare(make_app("SIA 261", "4.2.1"), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_table_viewer(snap_compare, make_app, settle, size) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)

    assert snap_compare(make_app("SIA 261", "4.2.1"), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_norm_contents_page(snap_compare, make_app, settle, size) -> None:
    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        tree = pilot.app.screen.query_one("#tree")
        tree.move_cursor(next(node for node in tree.root.children if node.data.code == "SIA 260"))
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", [SMALL, LARGE], ids=["80x24", "160x48"])
def test_endpoint_page(snap_compare, make_app, settle, size) -> None:
    """The API specs in the tree (a → meteo → Places → sites) and an endpoint's page in place of the text."""

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        tree = pilot.app.screen.query_one("#tree")
        node = tree.apis
        for name in ("meteo", "Places", "sites", "GET /regions/{regionId}"):
            node = next(child for child in node.children if child.label.plain.startswith(name))
            node.expand()
            await settle(pilot)
        tree.move_cursor(node)
        await pilot.press("enter")
        await settle(pilot)

    assert snap_compare(make_app(), terminal_size=size, run_before=run_before)
