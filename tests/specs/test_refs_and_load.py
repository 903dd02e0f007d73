"""`$ref`s made canonical or refused, JSON pointers followed, and the safe loader's choices."""

from __future__ import annotations

import pytest

from normcli.specs.load import UnreadableFile, line_of, load_text
from normcli.specs.refs import RefusedRef, canonical, follow, name_of


@pytest.mark.parametrize(
    ("ref", "base", "key"),
    [
        ("#/components/schemas/Pet", "openapi.yaml", "openapi.yaml#/components/schemas/Pet"),
        ("models/pet.yml", "openapi.yaml", "models/pet.yml#"),
        ("../../shared/error.yml#/Error", "resources/pets/list.yml", "shared/error.yml#/Error"),
        ("./a%20b.yaml#/x~1y", "specs.yaml", "a b.yaml#/x~1y"),
        ("#/paths/~1pets~1%7BpetId%7D", "openapi.yaml", "openapi.yaml#/paths/~1pets~1{petId}"),
    ],
)
def test_refs_become_one_key_relative_to_the_spec_folder(ref: str, base: str, key: str) -> None:
    assert canonical(ref, base) == key


@pytest.mark.parametrize(
    ("ref", "kind"),
    [
        ("https://example.com/pet.yaml", "ref_url"),
        ("http://example.com/pet.yaml#/Pet", "ref_url"),
        ("file:///etc/passwd", "ref_url"),
        ("//example.com/pet.yaml", "ref_url"),
        ("../../etc/passwd", "ref_outside"),
        ("../outside.yaml#/X", "ref_outside"),
        ("/etc/passwd", "ref_outside"),
        ("#Pet", "bad_ref"),
        (12, "bad_ref"),
    ],
)
def test_refs_to_urls_or_out_of_the_folder_are_refused(ref: object, kind: str) -> None:
    with pytest.raises(RefusedRef) as refused:
        canonical(ref, "openapi.yaml")
    assert refused.value.kind == kind


def test_json_pointers_unescape_and_index_lists() -> None:
    document = {"paths": {"/pets/{id}": {"get": {"parameters": [{"name": "id"}]}}}, "a~b": 1}
    assert follow(document, "/paths/~1pets~1{id}/get/parameters/0/name") == "id"
    assert follow(document, "/a~0b") == 1
    with pytest.raises(KeyError):
        follow(document, "/paths/missing")
    with pytest.raises(KeyError):
        follow(document, "/paths/~1pets~1{id}/get/parameters/3")
    assert name_of("openapi.yaml#/components/schemas/Pet") == "Pet" and name_of("models/droplet.yml#") == "droplet"


def test_the_loader_keeps_lines_dates_as_text_and_status_keys_as_strings() -> None:
    data = load_text(
        "openapi: 3.0.0\ninfo:\n  title: T\n  version: 2024-01-01\npaths:\n  /a:\n    get:\n      responses:\n        200: {description: ok}\n",
        False,
    )
    assert data["info"]["version"] == "2024-01-01"
    assert list(data["paths"]["/a"]["get"]["responses"]) == ["200"]
    assert line_of(data["paths"]["/a"]) == 7 and line_of(data["info"]) == 3


def test_the_loader_builds_no_python_objects() -> None:
    with pytest.raises(UnreadableFile, match="invalid YAML"):
        load_text("a: !!python/object/apply:os.system ['echo hacked']\n", False)
