"""The API browser in the TUI, driven by keys on the sample: a opens it, the tree walks spec → collection →
tag → endpoint, and the endpoint page shows tables, a foldable schema with its cycle marked once, and code samples."""

from __future__ import annotations

import pytest
from textual.widgets import DataTable, Markdown, Static

from normcli.tui.screens.specs import SpecsScreen, SpecTree
from normcli.tui.widgets.endpoint_view import EndpointView
from normcli.tui.widgets.schema_tree import SchemaTree

pytestmark = pytest.mark.anyio


def labels(node) -> list[str]:  # type: ignore[no-untyped-def]
    return [str(child.label) for child in node.children]


async def open_child(pilot, settle, node, starts: str):  # type: ignore[no-untyped-def]
    child = next(child for child in node.children if str(child.label).startswith(starts))
    child.expand()
    await settle(pilot)
    return child


async def test_the_api_browser_walks_to_an_endpoint_page(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        await pilot.press("a")
        await settle(pilot)
        assert isinstance(app.screen, SpecsScreen)
        tree = app.screen.query_one(SpecTree)
        assert [label.split(" — ")[0] for label in labels(tree.root)] == ["dadjoke", "meteo"]
        meteo = await open_child(pilot, settle, tree.root, "meteo")
        assert labels(meteo)[:3] == ["Loads (4)", "Places (2)", "Notifications (1)"]
        places = await open_child(pilot, settle, meteo, "Places")
        sites = await open_child(pilot, settle, places, "sites")
        assert "GET /regions/{regionId}" in labels(sites)
        region = next(child for child in sites.children if str(child.label) == "GET /regions/{regionId}")
        tree.select_node(region)
        await settle(pilot)
        view = app.screen.query_one(EndpointView)
        assert str(view.query_one("#endpoint-title", Static).render()) == "GET /regions/{regionId}"
        parameters = view.query_one("#parameters", DataTable)
        assert parameters.row_count == 1 and parameters.get_row_at(0)[:4] == ["regionId", "path", "string", "yes"]
        (schema,) = view.query(SchemaTree)
        flat = []
        stack = [schema.root]
        while stack:
            node = stack.pop()
            flat.append(str(node.label))
            stack.extend(node.children)
        assert sum("↻" in label for label in flat) == 1, "the cycle is shown once, marked"
        assert any(label.startswith("subRegions") for label in flat)

        loads = await open_child(pilot, settle, meteo, "Loads")
        snow = await open_child(pilot, settle, loads, "snow")
        load = next(child for child in snow.children if str(child.label) == "GET /snow-load/{siteId}")
        tree.select_node(load)
        await settle(pilot)
        texts = [widget.source for widget in view.query(Markdown)]
        assert any("```shell" in text and "curl" in text for text in texts), "the code samples are shown"
        assert any("CH-DAV" in text for text in texts), "the examples are shown"
        assert view.query_one("#responses", DataTable).row_count == 2
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, SpecsScreen)
