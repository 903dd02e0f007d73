"""An agent walks the specs with the MCP SDK's client: spec_list → spec_by_id → collection_by_id →
tag_by_id → endpoint_by_tag → endpoint_by_id, over a real `normcli mcp` process on the sample."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import anyio
import pytest

from tests.conftest import SAMPLE
from tests.mcp.mcp_support import stdio_session


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("mcp-specs") / "workspace"
    shutil.copytree(SAMPLE, target, ignore=shutil.ignore_patterns(".normcli"))
    return target


def test_an_agent_walks_from_the_spec_list_to_one_endpoint(workspace: Path) -> None:
    seen: dict[str, object] = {}

    async def agent() -> None:
        async with stdio_session(workspace) as session:
            seen["instructions"] = session.initialized.instructions
            tools = {tool.name: tool for tool in (await session.list_tools()).tools}
            seen["tools"] = tools
            specs = await session.call_tool("spec_list", {})
            meteo = next(spec for spec in specs.structured_content["specs"] if spec["domain"] == "meteo")
            spec = await session.call_tool("spec_by_id", {"id": meteo["id"]})
            loads = next(c for c in spec.structured_content["collections"] if c["title"] == "Loads")
            collection = await session.call_tool("collection_by_id", {"id": loads["id"]})
            snow = next(t for t in collection.structured_content["tags"] if t["title"] == "snow")
            tag = await session.call_tool("tag_by_id", {"id": snow["id"]})
            methods = await session.call_tool("endpoint_by_tag", {"tagId": snow["id"]})
            load = next(m for m in methods.structured_content["methods"] if m["path"] == "/snow-load/{siteId}")
            endpoint = await session.call_tool("endpoint_by_id", {"id": load["id"]})
            region = await session.call_tool("endpoint_by_id", {"id": hashlib.md5(b"method|meteo|GET|/regions/{regionId}").hexdigest()})
            short = await session.call_tool("spec_by_id", {"id": meteo["id"][:31]})
            unknown = await session.call_tool("tag_by_id", {"id": "0" * 32})
            seen.update(specs=specs, spec=spec, collection=collection, tag=tag, methods=methods, endpoint=endpoint, region=region)
            seen.update(short=short, unknown=unknown)

    anyio.run(agent)

    tools = seen["tools"]
    for name in ("spec_list", "spec_by_id", "collection_by_spec", "collection_by_id", "tag_by_spec", "tag_by_collection", "tag_by_id"):
        assert name in tools and tools[name].annotations.read_only_hint  # type: ignore[index, union-attr]
    assert {"endpoint_by_tag", "endpoint_by_id", "search_specs"} <= set(tools)  # type: ignore[arg-type]
    assert "spec_list" in seen["instructions"]

    specs = seen["specs"].structured_content["specs"]  # type: ignore[union-attr]
    assert {spec["domain"] for spec in specs} == {"meteo", "dadjoke"}
    assert all(spec["id"] == hashlib.md5(f"spec|{spec['domain']}".encode()).hexdigest() for spec in specs)
    for name in ("specs", "spec", "collection", "tag", "methods", "endpoint"):
        result = seen[name]
        assert not result.is_error  # type: ignore[union-attr]
        assert json.loads(result.content[0].text) == result.structured_content or result.content[0].text  # type: ignore[union-attr]
    spec = seen["spec"].structured_content  # type: ignore[union-attr]
    loads = next(c for c in spec["collections"] if c["title"] == "Loads")
    assert loads["countTags"] == 2 and loads["countMethods"] == 4 and loads["llmTitle"]
    assert seen["tag"].structured_content["tag"]["countMethods"] == 2  # type: ignore[union-attr]
    method = seen["endpoint"].structured_content["method"]  # type: ignore[union-attr]
    assert method["operationId"] == "getSnowLoad"
    assert [p["name"] for p in method["parameters"]] == ["siteId", "altitude", "norm"]
    schema = method["responses"]["200"]["content"]["application/json"]["schema"]
    assert "sk" in schema["properties"], "the schema in the other file is resolved"
    assert method["codeSamples"][0]["lang"] == "Shell"
    region = seen["region"].structured_content["method"]["responses"]["200"]["content"]["application/json"]["schema"]  # type: ignore[union-attr]
    assert region["properties"]["subRegions"]["items"]["circular"] is True
    assert "circular" in seen["region"].structured_content["markdown"]  # type: ignore[union-attr]
    assert seen["short"].is_error and "32 lowercase hex" in seen["short"].content[0].text  # type: ignore[union-attr]
    assert "spec_list" in seen["short"].content[0].text and "normcli" not in seen["short"].content[0].text  # type: ignore[union-attr]
    assert seen["unknown"].is_error and "no tag has the id" in seen["unknown"].content[0].text  # type: ignore[union-attr]


def test_an_agent_told_a_spec_is_unreadable_is_pointed_to_the_others(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".normcli"))
    (root / "specs" / "broken").mkdir()
    (root / "specs" / "broken" / "openapi.yaml").write_text("openapi: 3.0.0\npaths: {/x: [unclosed\n", encoding="utf-8")
    seen: dict[str, object] = {}

    async def agent() -> None:
        async with stdio_session(root) as session:
            seen["broken"] = await session.call_tool("spec_by_id", {"id": hashlib.md5(b"spec|broken").hexdigest()})
            seen["capitals"] = await session.call_tool("endpoint_by_id", {"id": "A" * 32})
            seen["meteo"] = await session.call_tool("tag_by_spec", {"specId": hashlib.md5(b"spec|meteo").hexdigest()})

    anyio.run(agent)
    broken = seen["broken"]
    assert broken.is_error  # type: ignore[union-attr]
    assert broken.structured_content["error"]["code"] == "workspace_error"  # type: ignore[union-attr]
    said = "\n".join(block.text for block in broken.content)  # type: ignore[union-attr]
    assert "specs/broken/openapi.yaml:3: invalid YAML" in said and "use the others from spec_list" in said
    capitals = seen["capitals"]
    assert capitals.is_error and capitals.structured_content["error"]["code"] == "invalid_argument"  # type: ignore[union-attr]
    assert not seen["meteo"].is_error  # type: ignore[union-attr]
