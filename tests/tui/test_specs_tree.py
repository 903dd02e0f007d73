"""API specs in the library tree, beside the norms: spec → collection → tag → endpoint, each level read when it
opens, and the endpoint page in place of the text (tables, a foldable schema with its cycle marked once, examples,
code samples). Expected names and counts come from the sample's spec files, read here with PyYAML."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from textual.widgets import DataTable, Markdown, Static

from normcli.tui.widgets.endpoint_view import EndpointView
from normcli.tui.widgets.norm_tree import APIS_LABEL, NormTree
from normcli.tui.widgets.schema_tree import SchemaTree
from normcli.tui.widgets.section_view import TextScroll

pytestmark = pytest.mark.anyio
VERBS = ("get", "put", "post", "delete", "patch", "options", "head", "trace")


def spec_file(sample: Path, domain: str) -> dict:
    (path,) = [p for p in (sample / "specs" / domain).iterdir() if p.suffix in (".yaml", ".yml", ".json")]
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def labels(node) -> list[str]:  # type: ignore[no-untyped-def]
    return [child.label.plain for child in node.children]


async def open_child(pilot, settle, node, starts: str):  # type: ignore[no-untyped-def]
    child = next(child for child in node.children if child.label.plain.startswith(starts))
    child.expand()
    await settle(pilot)
    return child


def flat(tree) -> list[str]:  # type: ignore[no-untyped-def]
    found, stack = [], [tree.root]
    while stack:
        node = stack.pop()
        found.append(node.label.plain)
        stack.extend(node.children)
    return found


async def test_the_tree_walks_from_a_spec_to_an_endpoint_page_and_back(make_app, settle, sample_copy) -> None:
    meteo = spec_file(sample_copy, "meteo")
    groups = meteo["x-tagGroups"]
    items = [*meteo["paths"].items(), *meteo.get("webhooks", {}).items()]
    operations = [(verb.upper(), path, op) for path, item in items for verb, op in item.items() if verb in VERBS]
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(NormTree)
        assert tree.apis is not None and tree.root.children[-1] is tree.apis and not tree.apis.is_expanded
        assert tree.apis.label.plain.startswith(APIS_LABEL)
        assert not tree.apis.children[0].children, "nothing of a spec is read before it opens"
        await pilot.press("a")
        await settle(pilot)
        assert app.focused is tree and tree.cursor_node is tree.apis and tree.apis.is_expanded
        specs = sorted(p.name for p in (sample_copy / "specs").iterdir() if p.is_dir())
        assert [label.split(" — ")[0] for label in labels(tree.apis)] == specs
        spec = await open_child(pilot, settle, tree.apis, "meteo")
        count = lambda tags: sum(1 for _, _, op in operations if set(op.get("tags") or ()) & set(tags))  # noqa: E731
        grouped = {tag for group in groups for tag in group["tags"]}
        ungrouped = [op for _, _, op in operations if not set(op.get("tags") or ()) & grouped]
        assert labels(spec)[: len(groups)] == [f"{group['name']} ({count(group['tags'])})" for group in groups]
        assert labels(spec)[len(groups) :] == ([labels(spec)[-1]] if ungrouped else [])  # one more for the rest, if any
        assert not ungrouped or labels(spec)[-1].endswith(f" ({len(ungrouped)})")
        collection = await open_child(pilot, settle, spec, next(g["name"] for g in groups if "sites" in g["tags"]))
        sites = await open_child(pilot, settle, collection, "sites")
        expected = [f"{verb} {path}" for verb, path, op in operations if "sites" in (op.get("tags") or ())]
        assert [" ".join(label.split(" ")[:2]) for label in labels(sites)] == expected
        region = next(child for child in sites.children if child.label.plain.startswith("GET /regions/{regionId}"))
        tree.move_cursor(region)
        await pilot.press("enter")
        await settle(pilot)
        view = app.screen.query_one(EndpointView)
        assert app.focused is view and not app.screen.query_one("#section").display
        assert str(view.query_one("#endpoint-title", Static).render()) == "GET /regions/{regionId}"
        parameters = view.query_one("#parameters", DataTable)
        assert parameters.row_count == 1 and parameters.get_row_at(0)[:4] == ["regionId", "path", "string", "yes"]
        (schema,) = view.query(SchemaTree)
        subregions = next(node for node in schema.root.children if node.label.plain.startswith("subRegions"))
        subregions.expand()  # a property's parts are added when it opens
        await settle(pilot)
        assert sum("↻" in label for label in flat(schema)) == 1, "the cycle is shown once, marked"
        await pilot.press("backspace")  # back to the clause being read
        await settle(pilot)
        assert not view.display and app.screen.query_one("#section").display
        assert app.focused is app.screen.query_one(TextScroll)


async def test_an_endpoint_page_shows_responses_examples_and_code_samples(make_app, settle, sample_copy) -> None:
    meteo = spec_file(sample_copy, "meteo")
    (path, verb) = next((p, v) for p, item in meteo["paths"].items() for v, op in item.items() if op.get("x-codeSamples"))
    operation = meteo["paths"][path][verb]
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(NormTree)
        tree.apis.expand()
        spec = await open_child(pilot, settle, tree.apis, "meteo")
        for collection in list(spec.children):
            collection.expand()
            await settle(pilot)
            for tag in list(collection.children):
                tag.expand()
        await settle(pilot)
        endpoint = next(
            n for c in spec.children for t in c.children for n in t.children if n.label.plain.startswith(f"{verb.upper()} {path} ")
        )
        tree.select_node(endpoint)
        await settle(pilot)
        view = app.screen.query_one(EndpointView)
        assert view.query_one("#responses", DataTable).row_count == len(operation["responses"])
        texts = [widget.source for widget in view.query(Markdown)]
        for sample in operation["x-codeSamples"]:
            assert any(sample["source"].strip().splitlines()[0] in text for text in texts), sample["lang"]


async def test_a_workspace_without_specs_has_no_api_node(tmp_path, make_bundle, settle) -> None:
    from normcli.tui.app import NormcliApp

    make_bundle(
        tmp_path, "x-1", "2024", '---\ncode: X 1\nedition: "2024"\ntitle: X\nlanguage: en\npublished: true\n---\n# 1 One\n\nText.\n'
    )
    app = NormcliApp(tmp_path, None, theme="textual-dark")
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.screen.query_one(NormTree).apis is None
        await pilot.press("a")
        await settle(pilot)
        assert "no API specs" in " ".join(str(n.message) for n in app._notifications)
