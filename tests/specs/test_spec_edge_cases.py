"""Specs as real producers write them, in small fixtures written for these tests: tag groups naming
tags that do not exist, tags declared and never used, operations with several tags, path-level
parameters, `$ref` siblings, non-ASCII paths, 3.1 webhooks, a `#/` ref to a whole file, and
Swagger 2.0's global parameters, form data and hosts. Expected counts come from a plain walk of the
fixture's YAML in the test, never from the importer."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
import yaml

from tests.specs.conftest import plain_operations

EDGE = """\
openapi: 3.1.0
info:
  title: Building sensors (test fixture)
  version: "1"
tags:
  - name: rooms
    description: Rooms of a building
  - name: archive
    description: Declared, used by no operation
x-tagGroups:
  - name: Building
    tags: [rooms, ghosts]
  - name: Monitoring
    tags: [sensors, rooms]
paths:
  /räume/{raumId}:
    parameters:
      - $ref: "#/components/parameters/RaumId"
      - name: lang
        in: query
        description: path-level, overridden below
        schema: {type: string}
    get:
      tags: [rooms, sensors]
      summary: Ein Raum
      parameters:
        - name: lang
          in: query
          description: the operation's own
          schema: {type: string, enum: [de, fr]}
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema:
                $ref: "#/components/schemas/Room"
                description: The room, said beside its $ref
    delete:
      responses:
        "204":
          description: gone
  /sensors:
    $ref: "paths/sensors.yaml#/"
webhooks:
  roomChanged:
    post:
      tags: [rooms]
      requestBody:
        content:
          application/json:
            schema:
              $ref: "#/components/schemas/Room"
      responses:
        "200":
          description: received
components:
  parameters:
    RaumId:
      name: raumId
      in: path
      required: true
      schema: {type: string}
  schemas:
    Room:
      type: object
      description: A room
      properties:
        name: {type: string}
        neighbours:
          type: array
          items:
            $ref: "#/components/schemas/Room"
"""

SENSORS = """\
get:
  tags: [sensors]
  operationId: listSensors
  summary: Every sensor of the building
  description: Lists the devices mounted in each room, with their calibration dates and firmware versions.
  responses:
    "200":
      description: the sensors
post:
  tags: [sensors]
  operationId: addSensor
  responses:
    "201":
      description: added
"""

SWAGGER = """\
swagger: "2.0"
info:
  title: Old upload service (test fixture)
  version: "0.9"
host: files.example
basePath: /v1
schemes: [https, http]
consumes: [application/json]
parameters:
  Folder:
    name: folder
    in: path
    required: true
    type: string
paths:
  /folders/{folder}/files:
    parameters:
      - $ref: "#/parameters/Folder"
    post:
      tags: [files]
      consumes: [multipart/form-data]
      parameters:
        - name: upload
          in: formData
          type: file
          required: true
        - name: note
          in: formData
          type: string
      responses:
        "201":
          description: stored
          schema:
            $ref: "#/definitions/File"
    get:
      tags: [files]
      parameters:
        - name: limit
          in: query
          type: integer
          maximum: 100
      responses:
        "200":
          description: the files
          schema:
            type: array
            items:
              $ref: "#/definitions/File"
definitions:
  File:
    type: object
    properties:
      name: {type: string}
"""


def md5(text: str) -> str:
    return hashlib.md5(text.encode("utf-8")).hexdigest()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    edge = root / "specs" / "edge"
    (edge / "paths").mkdir(parents=True)
    (edge / "openapi.yaml").write_text(EDGE, encoding="utf-8")
    (edge / "paths" / "sensors.yaml").write_text(SENSORS, encoding="utf-8")
    (root / "specs" / "upload").mkdir()
    (root / "specs" / "upload" / "swagger.yaml").write_text(SWAGGER, encoding="utf-8")
    return root


def plain_edge() -> tuple[dict, list[tuple[str, str, list[str]]]]:
    """The edge fixture's operations, its `/sensors` path item read from its own file by hand."""
    document = yaml.safe_load(EDGE)
    operations = [op for op in plain_operations({**document, "paths": {k: v for k, v in document["paths"].items() if k != "/sensors"}})]
    for verb, operation in yaml.safe_load(SENSORS).items():
        operations.append((verb.upper(), "/sensors", operation["tags"]))
    return document, operations


def test_tag_groups_hold_only_tags_that_exist_and_count_what_they_list(workspace: Path) -> None:
    from normcli.service import Service

    document, operations = plain_edge()
    declared = [tag["name"] for tag in document["tags"]]
    used = {tag for *_, tags in operations for tag in tags}
    service = Service.open(workspace)
    spec = service.spec_by_id(md5("spec|edge"))
    grouped = {name for group in document["x-tagGroups"] for name in group["tags"]}
    left = sorted(name for name in used if name not in grouped)
    assert left == ["default"], "the untagged DELETE is under `default`, which no group names"
    groups = [*document["x-tagGroups"], {"name": "Other", "tags": left}]  # docs/specs.md: tags with methods outside every group
    assert [c.title for c in spec.collections] == [group["name"] for group in groups]
    for group, collection in zip(groups, spec.collections, strict=True):
        existing = [name for name in group["tags"] if name in declared or name in used]
        detail = service.collection_by_id(collection.id)
        assert [tag.title for tag in detail.tags] == existing
        assert collection.count_tags == len(detail.tags) == len(existing)
        methods = {(verb, path) for verb, path, tags in operations if set(tags) & set(existing)}
        assert collection.count_methods == detail.collection.count_methods == len(methods)
    problems = service.check().specs[0].problems
    ghost = next(problem for problem in problems if problem["kind"] == "unknown_tag")
    line = EDGE.splitlines().index("  - name: Building") + 1
    assert ghost["line"] == line and "ghosts" in ghost["reason"] and ghost["file"] == "specs/edge/openapi.yaml"


def test_every_tag_counts_each_of_its_operations_once_and_an_unused_tag_counts_none(workspace: Path) -> None:
    from normcli.service import Service

    document, operations = plain_edge()
    service = Service.open(workspace)
    tags = {tag.title: tag for tag in service.tag_by_spec(md5("spec|edge")).tags}
    expected = {name: sorted((v, p) for v, p, t in operations if name in t) for name in {n for *_, t in operations for n in t}}
    unused = [tag["name"] for tag in document["tags"] if tag["name"] not in expected]
    assert unused == ["archive"]
    expected.update((name, []) for name in unused)
    assert set(tags) == set(expected)
    for name, methods in expected.items():
        assert tags[name].id == md5(f"tag|edge|{name}")
        listed = service.endpoint_by_tag(tags[name].id).methods
        assert sorted((m.method, m.path) for m in listed) == methods
        assert tags[name].count_methods == len(methods)
    assert ("POST", "roomChanged") in expected["rooms"], "a 3.1 webhook is a method of its tag"
    assert ("DELETE", "/räume/{raumId}") in expected["default"]


def test_a_path_item_in_another_file_named_by_a_ref_to_its_whole_file(workspace: Path) -> None:
    from normcli.service import Service

    service = Service.open(workspace)
    add = service.endpoint_by_id(md5("method|edge|POST|/sensors"))
    assert add.method["operationId"] == "addSensor"
    assert not [problem for problem in service.check().specs[0].problems if problem["kind"] == "bad_ref"]


def test_path_parameters_are_merged_refs_siblings_win_and_a_cycle_is_marked(workspace: Path) -> None:
    from normcli.service import Service

    service = Service.open(workspace)
    room = service.endpoint_by_id(md5("method|edge|GET|/räume/{raumId}")).method
    parameters = {(p["name"], p["in"]): p for p in room["parameters"]}
    assert set(parameters) == {("raumId", "path"), ("lang", "query")}
    assert parameters[("lang", "query")]["description"] == "the operation's own"
    schema = room["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["description"] == "The room, said beside its $ref"
    assert schema["properties"]["neighbours"]["items"]["circular"] is True
    deleted = service.endpoint_by_id(md5("method|edge|DELETE|/räume/{raumId}")).method
    assert [p["name"] for p in deleted["parameters"]] == ["raumId", "lang"], "path-level parameters apply to every verb"


def test_a_non_ascii_path_is_named_read_and_found(workspace: Path, cli) -> None:
    shown = cli("api", "endpoint", "edge", "GET /räume/{raumId}", "--json", workspace=workspace)
    assert shown.code == 0 and shown.json()["method"]["id"] == md5("method|edge|GET|/räume/{raumId}")
    person = cli("api", "endpoint", "edge", "get /räume/{raumId}", workspace=workspace)
    assert person.code == 0 and "/räume/{raumId}" in person.stdout
    hits = cli("api", "search", "raume", "--json", workspace=workspace).json()["hits"]
    assert {hit["path"] for hit in hits} == {"/räume/{raumId}"}, "transliterated words find the path"


def test_swagger_2_global_parameters_form_data_and_hosts(workspace: Path) -> None:
    from normcli.service import Service

    document = yaml.safe_load(SWAGGER)
    operations = plain_operations(document)
    service = Service.open(workspace)
    spec = service.spec_by_id(md5("spec|upload"))
    assert [(c.title, c.count_methods) for c in spec.collections] == [(document["info"]["title"], len(operations))]
    upload = service.endpoint_by_id(md5("method|upload|POST|/folders/{folder}/files")).method
    assert [(p["name"], p["in"]) for p in upload["parameters"]] == [("folder", "path")]
    form = upload["requestBody"]["content"]["multipart/form-data"]["schema"]
    assert form["properties"]["upload"] == {"type": "string", "format": "binary"} and form["required"] == ["upload"]
    assert [s["url"] for s in upload["servers"]] == [f"{scheme}://files.example/v1" for scheme in document["schemes"]]
    listing = service.endpoint_by_id(md5("method|upload|GET|/folders/{folder}/files")).method
    limit = next(p for p in listing["parameters"] if p["name"] == "limit")
    assert limit["schema"] == {"type": "integer", "maximum": 100}
    items = listing["responses"]["200"]["content"]["application/json"]["schema"]["items"]
    assert items["properties"] == {"name": {"type": "string"}}


def test_a_search_hit_shows_the_text_that_holds_the_keyword(workspace: Path) -> None:
    from normcli.service import Service

    operation = yaml.safe_load(SENSORS)["get"]
    assert "sensor" not in operation["description"].lower() and "sensor" in operation["summary"].lower()
    hits = Service.open(workspace).search_specs("every sensor", limit=5).hits
    hit = next(hit for hit in hits if hit.method_id == md5("method|edge|GET|/sensors"))
    assert "Every sensor" in hit.snippet, "cut from the summary that says it, not from the description that does not"


def test_a_webhook_declared_twice_is_one_method_and_a_lone_tag_string_is_a_tag(tmp_path: Path) -> None:
    from normcli.service import Service

    text = """\
openapi: 3.1.0
info: {title: Twice (test fixture), version: "1"}
paths:
  /doors:
    get:
      tags: doors
      responses: {"200": {description: ok}}
webhooks:
  doorOpened:
    post:
      tags: [doors]
      summary: the standard place
      responses: {"200": {description: ok}}
x-webhooks:
  doorOpened:
    post:
      tags: [doors]
      summary: the Redoc place
      responses: {"200": {description: ok}}
"""
    root = tmp_path / "ws"
    (root / "specs" / "twice").mkdir(parents=True)
    (root / "specs" / "twice" / "openapi.yaml").write_text(text, encoding="utf-8")
    document = yaml.safe_load(text)
    names = [(verb.upper(), name) for section in ("webhooks", "x-webhooks") for name, item in document[section].items() for verb in item]
    assert len(names) == 2 and len(set(names)) == 1
    service = Service.open(root)
    (tag,) = service.tag_by_spec(md5("spec|twice")).tags
    assert (tag.title, tag.count_methods) == ("doors", 1 + len(set(names)))
    webhook = service.endpoint_by_id(md5("method|twice|POST|doorOpened")).method
    assert webhook["summary"] == document["webhooks"]["doorOpened"]["post"]["summary"], "the first declared is read"
    (problem,) = service.check().specs[0].problems
    assert (
        problem["kind"] == "duplicate_method" and problem["line"] == text.splitlines().index("x-webhooks:") + 4
    )  # the operation's first line


def test_a_schema_in_a_file_of_its_own_is_named_by_the_file_stem(tmp_path: Path) -> None:
    from normcli.service import Service

    root = tmp_path / "ws"
    spec = root / "specs" / "snow"
    (spec / "models").mkdir(parents=True)
    (root / "norms").mkdir()
    (spec / "openapi.yaml").write_text(
        """\
openapi: 3.0.3
info: {title: Snow reports (test fixture), version: "1"}
paths:
  /reports:
    get:
      responses:
        "200":
          description: the latest report
          content:
            application/json:
              schema: {$ref: models/snow_report.yaml}
""",
        encoding="utf-8",
    )
    (spec / "models" / "snow_report.yaml").write_text("type: object\nproperties:\n  depth: {type: number}\n", encoding="utf-8")
    document = yaml.safe_load((spec / "openapi.yaml").read_text(encoding="utf-8"))
    ref = document["paths"]["/reports"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    stem = Path(ref).stem
    with Service.open(root) as service:
        page = service.endpoint_by_id(md5("method|snow|GET|/reports")).markdown
    assert stem in page and Path(ref).name not in page, "a reader sees the schema's name, not its file name"


def test_plain_escapes_exactly_the_controls_and_overrides_the_pattern_names() -> None:
    import re

    from normcli.specs.text import identifier_words, plain

    # plain() finds them with a set, not `re` (start-up): the pattern is the oracle, over the first planes.
    pattern = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
    every = "".join(map(chr, range(0x3000))) + "\ud800 end"
    assert plain(every) == pattern.sub(lambda match: repr(match.group())[1:-1], every)
    assert plain("tab\tand\nnewline stay") == "tab\tand\nnewline stay"
    assert plain("\x1b[2J\u202eevil") == "\\x1b[2J\\u202eevil"
    assert identifier_words("getPetByID snow_load-zone2") == "get Pet By ID snow load zone 2"
