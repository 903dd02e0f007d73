"""The sample's two specs through the service and the command line, and how the index follows the files."""

from __future__ import annotations

import hashlib
import os
import shutil
import time
from pathlib import Path

import pytest

from tests.conftest import SAMPLE
from tests.specs.conftest import plain_load, plain_operations


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".normcli"))
    return root


def test_meteo_collections_follow_its_tag_groups_and_untagged_operations_are_under_default(workspace: Path) -> None:
    from normcli.service import Service

    document = plain_load(workspace / "specs/meteo/openapi.yaml")
    operations = plain_operations(document)
    service = Service.open(workspace)
    spec = service.spec_by_id(md5("spec|meteo"))
    groups = [group["name"] for group in document["x-tagGroups"]]
    assert [c.title for c in spec.collections] == [*groups, "Other"]
    assert spec.collections[0].llm_title == document["x-tagGroups"][0]["x-llm-title"]
    other = service.collection_by_id(md5("collection|meteo|Other"))
    assert [(t.title, t.count_methods) for t in other.tags] == [("default", sum(1 for *_, tags in operations if tags == ["default"]))]
    listed = {(m.method, m.path) for tag in service.tag_by_spec(spec.spec.id).tags for m in service.endpoint_by_tag(tag.id).methods}
    assert listed == {(verb, path) for verb, path, _ in operations}
    assert ("POST", "snowWarning") in listed, "a webhook is a method of its tag"


def test_the_endpoint_page_resolves_across_files_marks_the_cycle_once_and_keeps_samples(workspace: Path) -> None:
    from normcli.service import Service

    service = Service.open(workspace)
    region = service.endpoint_named("meteo", "GET /regions/{regionId}")
    schema = region.method["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema["x-ref"] == "#/components/schemas/Region"
    assert schema["properties"]["subRegions"]["items"] == {"$ref": "#/components/schemas/Region", "circular": True, "title": "Region"}
    assert region.markdown.count("circular") == 1
    load = service.endpoint_named("meteo", "get /snow-load/{siteId}")
    assert load.method["responses"]["200"]["content"]["application/json"]["schema"]["x-ref"] == "schemas/loads.yaml#/SnowLoad"
    assert [sample["label"] for sample in load.method["codeSamples"]] == ["curl", "Python (httpx)"]
    assert "davos" in load.markdown and "```python" in load.markdown
    joke = service.endpoint_named("dadjoke", "POST /jokes")
    assert joke.method["requestBody"]["required"] is True
    assert joke.method["servers"] == [{"url": "https://dadjoke.example/api"}]


def test_the_cli_walks_the_sample_by_domain_and_by_id(workspace: Path, cli) -> None:
    specs = cli("api", "specs", "--json", workspace=workspace).json()["specs"]
    assert {spec["domain"] for spec in specs} == {"meteo", "dadjoke"}
    tags = cli("api", "tags", "meteo", "--json", workspace=workspace).json()["tags"]
    snow = next(tag for tag in tags if tag["title"] == "snow")
    endpoints = cli("api", "endpoints", snow["id"], "--json", workspace=workspace).json()
    assert [m["operationId"] for m in endpoints["methods"]] == ["getSnowLoad", "listSnowZones"]
    person = cli("api", "endpoint", "meteo", "GET /snow-load/{siteId}", workspace=workspace)
    assert person.code == 0 and "Parameters" in person.stdout and "curl" in person.stdout
    missing = cli("api", "endpoint", "meteo", "GET /snow-loads", workspace=workspace)
    assert missing.code == 1 and "/snow-load/" in missing.stderr, "the error names the paths that come close"
    batch = cli("batch", workspace=workspace, stdin=f'{{"op": "tag_by_id", "id": "{snow["id"]}"}}\n{{"op": "spec_list", "id": 7}}\n')
    first, second = (line for line in batch.stdout.splitlines())
    assert '"countMethods": 2' in first and second.startswith('{"id": 7, "specs"')


def test_the_index_follows_edits_new_and_removed_specs(workspace: Path) -> None:
    from normcli.service import Service

    service = Service.open(workspace)
    assert len(service.spec_list().specs) == 2
    loads = workspace / "specs/meteo/schemas/loads.yaml"
    text = loads.read_text(encoding="utf-8").replace("Characteristic snow load on the ground s_k", "Ground snow load s_k (edited)")
    loads.write_text(text, encoding="utf-8")
    stat = loads.stat()
    os.utime(loads, ns=(stat.st_atime_ns, stat.st_mtime_ns + 1_000_000_000))  # a file edited in place, in the same second
    load = service.endpoint_named("meteo", "GET /snow-load/{siteId}")
    assert "(edited)" in str(load.method), "a file reached by a $ref is watched too"
    shutil.rmtree(workspace / "specs/dadjoke")
    (workspace / "specs/pets").mkdir()
    shutil.copy(workspace / "specs/meteo/openapi.yaml", workspace / "specs/pets/openapi.yaml")
    time.sleep(0.01)
    assert {spec.domain for spec in service.spec_list().specs} == {"meteo", "pets"}
    pets = service.spec_by_id(md5("spec|pets"))
    assert pets.collections and service.check().specs[1].problems[0]["kind"] == "bad_ref", "pets has no schemas/loads.yaml"


@pytest.mark.parametrize(
    "args",
    [
        ["api", "specs"],
        ["api", "spec", "meteo"],
        ["api", "collections", md5("spec|dadjoke")],
        ["api", "tags", "meteo"],
        ["api", "tags", "--collection", md5("collection|meteo|Loads")],
        ["api", "tag", md5("tag|meteo|wind")],
        ["api", "endpoints", md5("tag|meteo|wind")],
        ["api", "endpoint", "meteo", "GET /wind/{siteId}"],
        ["api", "endpoint", md5("method|dadjoke|GET|/jokes/random")],
        ["api", "search", "wind", "--limit", "2"],
        ["api", "tag", "0" * 32],
        ["api", "spec", "A" * 32],
    ],
)
def test_the_lean_and_the_full_command_line_answer_alike(workspace: Path, cli, args: list[str]) -> None:
    lean = cli(*args, "--json", workspace=workspace)
    full = cli("--debug", *args, "--json", workspace=workspace)  # --debug always takes the full (Typer) path
    assert (lean.code, lean.json()) == (full.code, full.json())


def test_ingest_copies_a_spec_with_the_files_it_references_and_never_overwrites_silently(tmp_path: Path, cli) -> None:
    root = tmp_path / "project"
    (root / "norms").mkdir(parents=True)
    source = SAMPLE / "specs/meteo/openapi.yaml"
    done = cli("ingest", str(source), "--domain", "weather", "--json", workspace=root)
    assert done.code == 0, done.stderr
    report = done.json()
    assert report["files"] == ["openapi.yaml", "schemas/loads.yaml"] and report["specId"] == md5("spec|weather")
    assert (root / "specs/weather/schemas/loads.yaml").read_bytes() == (SAMPLE / "specs/meteo/schemas/loads.yaml").read_bytes()
    assert not [p for p in (root / "specs").iterdir() if p.name.startswith(".")], "no staging folder is left behind"
    other = cli("ingest", str(SAMPLE / "specs/dadjoke/swagger.json"), "--domain", "weather", workspace=root)
    assert other.code == 2 and "--force" in other.stderr
    assert (root / "specs/weather/openapi.yaml").is_file() and not (root / "specs/weather/swagger.json").exists()
    forced = cli("ingest", str(SAMPLE / "specs/dadjoke/swagger.json"), "--domain", "weather", "--force", workspace=root)
    assert forced.code == 0 and sorted(p.name for p in (root / "specs/weather").iterdir()) == ["swagger.json"]
    assert cli("api", "spec", "weather", "--json", workspace=root).json()["collections"][0]["countMethods"] == 3
    bad = cli("ingest", str(SAMPLE / "normcli.toml"), "--domain", "x", workspace=root)
    assert bad.code == 2 and not (root / "specs/x").exists()


def test_the_api_group_has_a_command_for_each_declared_operation_each_with_help_and_an_example(cli) -> None:
    from normcli.cli.commands.api import group
    from normcli.operations import OPERATIONS

    commands = {command.name for command in group.registered_commands}
    assert commands == {op.command for op in OPERATIONS.values() if op.group == "api"}
    for command in sorted(commands):
        ran = cli("api", command, "--help")
        assert ran.code == 0 and "Example" in ran.stdout, command
