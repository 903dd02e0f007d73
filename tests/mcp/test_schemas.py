"""The MCP output schemas are generated from the result records, and every answer fits its schema exactly."""

from __future__ import annotations

import copy
import hashlib
from pathlib import Path

import jsonschema
import pytest
from pydantic import TypeAdapter

from normcli import results
from normcli.mcp.schemas import output_type
from normcli.operations import OPERATIONS
from normcli.service import Service


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


# One call per operation on the sample, covering the optional keys (a requested path, a truncated tree).
CALLS = {
    "methodology": [()],
    "info": [()],
    "norms": [()],
    "toc": [("SIA 261", 6)],
    "subtree": [("SIA 261", "4", None, 20), ("SIA 261", "4.2.1.7")],
    "section": [("SIA 261", "4.2.1", 2000), ("SIA 261", "4.2.1.7")],
    "search": [("SIA 261", "charge de neige")],
    "corpus": [("neige",), ("4.2.1",)],
    "xrefs": [("SIA 261", "4.2.3"), ("SIA 261", "4.2.1.7")],
    "figure": [("SIA 261", "fig-1")],
    "table": [("SIA 261", "tab-3"), ("SIA 261", "2")],
    # SPEC §7, on the sample's specs (ids are MD5 of spec|DOMAIN, collection|DOMAIN|TITLE, tag|…, method|…)
    "spec_list": [()],
    "spec_by_id": [(md5("spec|meteo"),)],
    "collection_by_spec": [(md5("spec|dadjoke"),)],
    "collection_by_id": [(md5("collection|meteo|Loads"),)],
    "tag_by_spec": [(md5("spec|meteo"),)],
    "tag_by_collection": [(md5("collection|meteo|Other"),)],
    "tag_by_id": [(md5("tag|meteo|snow"),)],
    "endpoint_by_tag": [(md5("tag|meteo|snow"),)],
    "endpoint_by_id": [(md5("method|meteo|GET|/regions/{regionId}"),), (md5("method|dadjoke|POST|/jokes"),)],
    "search_specs": [("snow load",)],
}


def closed(schema: dict) -> dict:
    """The schema with no key allowed beyond those declared, so that a key missing from the records fails too."""
    schema = copy.deepcopy(schema)

    def close(node: object) -> None:
        if isinstance(node, dict):
            if node.get("type") == "object" and "properties" in node:
                node["additionalProperties"] = False
            for value in node.values():
                close(value)
        elif isinstance(node, list):
            for value in node:
                close(value)

    close(schema)
    return schema


def test_every_operation_declares_a_result_record() -> None:
    assert set(CALLS) == set(OPERATIONS)
    for op in OPERATIONS.values():
        assert hasattr(getattr(results, op.result), "__record_fields__"), op.name


@pytest.mark.parametrize("name", sorted(CALLS))
def test_every_answer_fits_the_schema_made_from_its_record(sample_copy: Path, name: str) -> None:
    op = OPERATIONS[name]
    omit = ("data",) if name == "figure" else ()
    schema = closed(TypeAdapter(output_type(getattr(results, op.result), omit)).json_schema())
    service = Service.open(sample_copy)
    for args in CALLS[name]:
        data = getattr(service, name)(*args).to_json()
        data = {key: value for key, value in data.items() if key not in omit}
        jsonschema.validate(data, schema)


def test_optional_keys_are_declared_as_such_and_present_when_set(sample_copy: Path) -> None:
    schema = TypeAdapter(output_type(results.SectionResult)).json_schema()
    body = schema["$defs"]["SectionBodyJson"]
    assert "requestedPath" in body["properties"] and "requestedPath" not in body["required"]
    assert {"citation", "pageStart", "crossRefs", "truncated"} <= set(body["required"])
    assert {"type": "null"} in body["properties"]["pageStart"]["anyOf"]  # a document without printed pages
    section = Service.open(sample_copy).section("SIA 261", "4.2.1.7").to_json()["section"]
    assert section["requestedPath"] == "4.2.1.7"


def test_a_schema_fails_an_answer_that_does_not_fit() -> None:
    schema = closed(TypeAdapter(output_type(results.TocResult)).json_schema())
    good = {"code": "X", "edition": "1", "language": "en", "languages": ["en"], "tree": []}
    jsonschema.validate(good, schema)
    for bad in ({**good, "extra": 1}, {key: value for key, value in good.items() if key != "tree"}, {**good, "languages": "en"}):
        with pytest.raises(jsonschema.ValidationError):
            jsonschema.validate(bad, schema)
