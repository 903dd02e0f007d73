"""Hostile and broken specs: each is reported with file and line (or refused), and the rest of the
workspace, norms and the other specs, is still served."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import SAMPLE

GOOD = """\
openapi: 3.0.3
info: {title: Good, version: "1"}
paths:
  /ping:
    get:
      tags: [health]
      responses:
        "200": {description: pong}
"""


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """The sample (norms and its two specs) plus a good spec of our own."""
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".normcli"))
    write(root, "good/openapi.yaml", GOOD)
    return root


def write(root: Path, relative: str, text: str) -> Path:
    path = root / "specs" / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def served(root: Path) -> dict:
    """What the workspace still answers: the norms, the good spec, and the specs' check findings by domain."""
    from normcli.service import Service

    with Service.open(root) as service:
        assert service.toc("SIA 261").tree, "the norms are still read"
        good = service.spec_by_id(md5("spec|good"))
        assert good.collections[0].count_methods == 1
        assert service.spec_by_id(md5("spec|meteo")).collections
        return {check.domain: check for check in service.check().specs}


def test_invalid_yaml_is_reported_with_its_line(workspace: Path) -> None:
    write(workspace, "broken/openapi.yaml", "openapi: 3.0.0\ninfo:\n  title: Broken\n  version: '1'\npaths:\n  /x: [unclosed\n")
    check = served(workspace)["broken"]
    assert not check.readable
    (problem,) = check.problems
    assert problem["file"] == "specs/broken/openapi.yaml" and problem["severity"] == "error"
    assert problem["line"] in (6, 7) and "invalid YAML" in problem["reason"]


def test_invalid_json_is_reported_with_its_line(workspace: Path) -> None:
    write(workspace, "broken/openapi.json", '{\n  "openapi": "3.0.0",\n  "info": {"title": "x", "version": "1"},\n  "paths": {,}\n}\n')
    (problem,) = served(workspace)["broken"].problems
    assert problem["line"] == 4 and "invalid JSON" in problem["reason"]


def test_a_yaml_alias_bomb_is_refused(workspace: Path) -> None:
    lines = [
        "openapi: 3.0.0",
        "info: {title: Bomb, version: '1'}",
        "paths: {}",
        'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    ]
    for level in "bcdefghi":
        previous = chr(ord(level) - 1)
        lines.append(f"{level}: &{level} [{', '.join([f'*{previous}'] * 9)}]")
    lines.append("x-bomb: *i")
    write(workspace, "bomb/openapi.yaml", "\n".join(lines) + "\n")
    (problem,) = served(workspace)["bomb"].problems
    assert "alias" in problem["reason"] and problem["severity"] == "error"


def test_a_yaml_anchor_that_contains_itself_is_refused(workspace: Path) -> None:
    write(workspace, "loop/openapi.yaml", "openapi: 3.0.0\ninfo: {title: Loop, version: '1'}\npaths: {}\nx-self: &s {me: *s}\n")
    (problem,) = served(workspace)["loop"].problems
    assert "contains an alias of itself" in problem["reason"]


def test_a_ref_loop_is_read_and_a_ref_to_nothing_is_reported(workspace: Path) -> None:
    write(
        workspace,
        "cycle/openapi.yaml",
        """\
openapi: 3.0.0
info: {title: Cycle, version: "1"}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {$ref: "#/components/schemas/A"}
components:
  schemas:
    A: {$ref: "#/components/schemas/B"}
    B: {$ref: "#/components/schemas/A"}
    C: {$ref: "#/components/schemas/Missing"}
""",
    )
    check = served(workspace)["cycle"]
    assert check.readable
    assert [(p["line"], p["kind"]) for p in check.problems] == [(14, "ref_loop"), (16, "bad_ref")]
    assert "schemas/A → " in check.problems[0]["reason"] and "schemas/B" in check.problems[0]["reason"]
    from normcli.service import Service

    answer = Service.open(workspace).endpoint_by_id(md5("method|cycle|GET|/a"))
    schema = answer.method["responses"]["200"]["content"]["application/json"]["schema"]
    assert schema == {"$ref": "#/components/schemas/A", "unresolved": "a loop of $refs that names no schema"}
    assert "circular" not in answer.markdown, "a loop of bare refs names no schema to have been shown above"


def test_a_path_item_that_names_itself_is_reported_and_costs_nothing_else(workspace: Path) -> None:
    write(workspace, "selfish/openapi.yaml", GOOD + '  /self:\n    $ref: "#/paths/~1self"\n')
    check = served(workspace)["selfish"]
    assert check.readable and check.methods == 1
    assert [(p["line"], p["kind"]) for p in check.problems] == [(len(GOOD.splitlines()) + 2, "ref_loop")]


def test_refs_out_of_the_folder_or_to_urls_are_refused_and_never_read(workspace: Path, tmp_path: Path) -> None:
    secret = tmp_path / "secret.yaml"
    secret.write_text("Secret: {type: string, description: TOPSECRET}\n", encoding="utf-8")
    write(
        workspace,
        "escape/openapi.yaml",
        f"""\
openapi: 3.0.0
info: {{title: Escape, version: "1"}}
paths:
  /a:
    get:
      responses:
        "200":
          description: ok
          content:
            application/json:
              schema: {{$ref: "../../etc/passwd"}}
        "201":
          description: ok
          content:
            application/json:
              schema: {{$ref: "https://example.com/schemas.yaml#/Pet"}}
        "202":
          description: ok
          content:
            application/json:
              schema: {{$ref: "{secret}#/Secret"}}
""",
    )
    check = served(workspace)["escape"]
    found = {(p["line"], p["kind"]) for p in check.problems}
    assert found == {(11, "ref_outside"), (16, "ref_url"), (21, "ref_outside")}
    from normcli.service import Service

    endpoint = Service.open(workspace).endpoint_by_id(md5("method|escape|GET|/a"))
    text = json.dumps(endpoint.to_json())
    assert "TOPSECRET" not in text and "root:" not in text
    assert text.count('"unresolved"') == 3


def test_duplicate_operation_ids_and_operations_without_responses_are_reported_in_json_too(workspace: Path) -> None:
    spec = {
        "openapi": "3.0.0",
        "info": {"title": "Dup", "version": "1"},
        "paths": {
            "/a": {"get": {"operationId": "same", "responses": {"200": {"description": "ok"}}}},
            "/b": {"get": {"operationId": "same"}},
        },
    }
    write(workspace, "dup/openapi.json", json.dumps(spec, indent=2))
    problems = served(workspace)["dup"].problems
    lines = (workspace / "specs/dup/openapi.json").read_text().splitlines()
    kinds = {p["kind"]: p["line"] for p in problems}
    assert set(kinds) == {"duplicate_operation_id", "no_responses"}
    assert '"same"' in lines[kinds["duplicate_operation_id"] - 1] and kinds["duplicate_operation_id"] > 10


@pytest.mark.slow
def test_a_50_mb_spec_is_read_and_the_workspace_still_answers(workspace: Path) -> None:
    paths = {}
    filler = "Snow load on a flat roof, per square metre of horizontal projection. " * 150
    for number in range(5000):
        paths[f"/items/{number}"] = {
            "get": {
                "tags": [f"t{number % 20}"],
                "summary": f"item {number}",
                "description": filler,
                "responses": {"200": {"description": "ok"}},
            }
        }
    text = json.dumps({"openapi": "3.0.0", "info": {"title": "Big", "version": "1"}, "paths": paths})
    assert len(text) > 50_000_000
    write(workspace, "big/openapi.json", text)
    check = served(workspace)["big"]
    assert check.readable and check.methods == 5000
    from normcli.service import Service

    hits = Service.open(workspace).search_specs("item 4321", limit=3).hits
    assert hits and hits[0].path == "/items/4321"


# A wrong character inside, a newline at the end, full-width digits: an id is matched without `re`, so each edge is tried.
@pytest.mark.parametrize(
    "bad", ["0" * 31, "0" * 33, "A" * 32, "g" * 32, "", "spec|meteo", "0" * 15 + "x" + "0" * 16, "a" * 31 + "\n", "０" * 32, " " + "0" * 31]
)
def test_ids_not_of_32_lowercase_hex_are_invalid_arguments(workspace: Path, bad: str) -> None:
    from normcli.errors import InvalidArgument
    from normcli.service import Service

    service = Service.open(workspace)
    for read in (service.spec_by_id, service.collection_by_id, service.tag_by_id, service.endpoint_by_tag, service.endpoint_by_id):
        with pytest.raises(InvalidArgument, match="32 lowercase hex"):
            read(bad)


def test_the_command_line_says_not_found_with_exit_1_and_invalid_with_exit_2(workspace: Path, cli) -> None:
    unknown = cli("api", "tag", "f" * 32, "--json", workspace=workspace)
    assert unknown.code == 1 and unknown.json()["error"]["code"] == "not_found"
    assert "no tag has the id" in unknown.stderr and "Traceback" not in unknown.stderr
    short = cli("api", "spec", "0" * 31, "--json", workspace=workspace)
    assert short.code == 2 and short.json()["error"]["code"] == "invalid_argument"
    capitals = cli("api", "endpoint", "A" * 32, workspace=workspace)
    assert capitals.code == 2 and capitals.stdout == "" and len(capitals.stderr.strip().splitlines()) == 1
    # a person is told the command that lists ids, never an MCP tool's name
    assert "normcli api specs" in capitals.stderr and "spec_list" not in capitals.stderr
    tag = cli("api", "endpoints", "xyz", workspace=workspace)
    assert tag.code == 2 and "normcli api tags" in tag.stderr and "spec_by_id" not in tag.stderr
    domain = cli("api", "spec", "meteo", "--json", workspace=workspace)
    assert domain.code == 0 and domain.json()["spec"]["id"] == md5("spec|meteo")
    no_such = cli("api", "spec", "nosuchdomain", workspace=workspace)
    assert no_such.code == 1 and "meteo" in no_such.stderr


def test_links_out_of_the_folder_or_the_workspace_are_never_read(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "openapi.yaml").write_text(GOOD.replace("Good", "TOPSECRET"), encoding="utf-8")
    (outside / "pet.yaml").write_text("Pet: {type: object, description: TOPSECRET}\n", encoding="utf-8")
    (workspace / "specs/linked").symlink_to(outside, target_is_directory=True)
    folder = workspace / "specs/inner"
    write(
        workspace,
        "inner/openapi.yaml",
        GOOD.replace(
            '"200": {description: pong}', '"200": {description: pong, content: {application/json: {schema: {$ref: "pet.yaml#/Pet"}}}}'
        ),
    )
    (folder / "pet.yaml").symlink_to(outside / "pet.yaml")
    checks = served(workspace)
    assert not checks["linked"].readable and "link out of the workspace" in checks["linked"].problems[0]["reason"]
    assert [p["kind"] for p in checks["inner"].problems] == ["ref_outside"]
    from normcli.service import Service

    service = Service.open(workspace)
    assert "TOPSECRET" not in json.dumps(service.endpoint_by_id(md5("method|inner|GET|/ping")).to_json())
    assert "TOPSECRET" not in json.dumps([spec.to_json() for spec in service.spec_list().specs])


def test_reading_an_unreadable_spec_says_why_in_one_line_and_the_rest_is_served(workspace: Path, cli) -> None:
    write(workspace, "broken/openapi.json", '{\n  "openapi": "3.0.0",\n  "info": {"title": "x", "version": "1"},\n  "paths": {,}\n}\n')
    from normcli.errors import WorkspaceError
    from normcli.service import Service

    service = Service.open(workspace)
    assert "broken" in {spec.domain for spec in service.spec_list().specs}, "listed, so that it is not silently missing"
    for read in (service.spec_by_id, service.collection_by_spec, service.tag_by_spec):
        with pytest.raises(WorkspaceError, match=r"specs/broken/openapi.json:4: invalid JSON"):
            read(md5("spec|broken"))
    person = cli("api", "tags", "broken", workspace=workspace)
    assert person.code == 3 and person.stdout == "" and person.stderr.count("\n") == 1 and "openapi.json:4" in person.stderr
    machine = cli("api", "spec", md5("spec|broken"), "--json", workspace=workspace)
    assert machine.code == 3 and machine.json()["error"]["code"] == "workspace_error"
    assert cli("api", "spec", "good", "--json", workspace=workspace).code == 0
    checked = cli("check", workspace=workspace)
    assert "specs/broken/openapi.json:4: error: invalid JSON" in checked.stdout


def test_a_problem_of_the_whole_file_is_listed_without_a_line(workspace: Path, cli) -> None:
    write(workspace, "bomb/openapi.yaml", "openapi: 3.0.0\ninfo: {title: B, version: '1'}\npaths: {}\nx-self: &s {me: *s}\n")
    checked = cli("check", workspace=workspace)
    assert checked.code == 3
    assert "specs/bomb/openapi.yaml: error: a YAML anchor contains an alias of itself" in checked.stdout


@pytest.mark.parametrize(
    ("text", "hint"),
    [
        ("openapi: 3.0.0\npaths: {/x: [unclosed\n", "nothing was copied"),
        ('{"title": "not a spec"}', "give the root file of an OpenAPI 3 or Swagger 2.0 spec"),
    ],
)
def test_ingest_refuses_a_broken_file_in_one_line_and_copies_nothing(tmp_path: Path, cli, text: str, hint: str) -> None:
    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    source = tmp_path / "in" / "api.yaml"
    source.parent.mkdir()
    source.write_text(text, encoding="utf-8")
    ran = cli("ingest", str(source), "--domain", "api", workspace=root)
    assert ran.code == 2 and ran.stderr.count("\n") == 1 and hint in ran.stderr and "Traceback" not in ran.stderr
    assert not (root / "specs" / "api").exists()
    missing = cli("ingest", str(tmp_path / "nowhere.yaml"), "--domain", "api", workspace=root)
    assert missing.code == 1 and missing.stderr.count("\n") == 1 and "OpenAPI" in missing.stderr


def test_control_characters_in_a_spec_never_reach_the_terminal(workspace: Path, cli) -> None:
    write(
        workspace,
        "noisy/openapi.json",
        json.dumps(
            {
                "openapi": "3.0.3",
                "info": {"title": "Noisy \u001b[2J", "version": "1"},
                "paths": {
                    "/x": {
                        "get": {
                            "tags": ["t\u001b[31m"],
                            "summary": "clears \u001b[2J the screen",
                            "description": "a link \u001b]8;;http://example.invalid\u0007 and \u202eright-to-left",
                            "responses": {"200": {"description": "ok \u001b[5m"}},
                        }
                    }
                },
            }
        ),
    )
    for args in (["api", "spec", "noisy"], ["api", "tags", "noisy"], ["api", "endpoint", "noisy", "GET /x"], ["api", "search", "clears"]):
        shown = cli(*args, workspace=workspace)
        assert shown.code == 0 and "\u001b" not in shown.stdout and "\u202e" not in shown.stdout, args
    machine = cli("api", "endpoint", "noisy", "GET /x", "--json", workspace=workspace).json()
    assert "\u001b" not in json.dumps(machine, ensure_ascii=False) and "\\x1b[2J" in machine["method"]["summary"]
