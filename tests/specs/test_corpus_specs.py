"""The real specs of ../shared/corpus/openapi: counts checked against a plain walk of the files."""

from __future__ import annotations

import hashlib
import posixpath
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.specs.conftest import OPENAPI, needs_corpus, plain_load, plain_operations

pytestmark = [pytest.mark.corpus, needs_corpus]


def md5(text: str) -> str:
    return hashlib.md5(text.encode()).hexdigest()


def spec_of(service, domain: str):
    return service.spec_by_id(md5(f"spec|{domain}"))


def test_redoc_tag_groups_are_three_collections_with_their_tags_and_methods(spec_service) -> None:
    document = plain_load(OPENAPI / "redoc-demo" / "openapi.yaml")
    operations = plain_operations(document)
    groups = document["x-tagGroups"]
    answer = spec_of(spec_service, "redoc")
    assert [c.title for c in answer.collections] == [g["name"] for g in groups]
    assert len(answer.collections) == 3
    for group, collection in zip(groups, answer.collections, strict=True):
        assert collection.id == md5(f"collection|redoc|{group['name']}")
        detail = spec_service.collection_by_id(collection.id)
        assert [tag.title for tag in detail.tags] == group["tags"]
        assert collection.count_tags == len(group["tags"])
        in_group = {(verb, path) for verb, path, tags in operations if set(tags) & set(group["tags"])}
        assert collection.count_methods == detail.collection.count_methods == len(in_group)
        for tag in detail.tags:
            expected = sorted((verb, path) for verb, path, tags in operations if tag.title in tags)
            assert tag.id == md5(f"tag|redoc|{tag.title}")
            listed = spec_service.endpoint_by_tag(tag.id).methods
            assert sorted((m.method, m.path) for m in listed) == expected
            assert tag.count_methods == len(expected)
            for method in listed:
                assert method.id == md5(f"method|redoc|{method.method}|{method.path}")
    models = spec_service.collection_by_id(answer.collections[2].id)
    assert models.collection.count_methods == 0 and [t.count_methods for t in models.tags] == [0, 0]


def test_petstore_without_tags_declared_is_one_collection_with_tag_pets(spec_service) -> None:
    document = plain_load(OPENAPI / "oai-examples" / "petstore.yaml")
    assert "tags" not in document
    answer = spec_of(spec_service, "petstore")
    assert [(c.title, c.count_tags, c.count_methods) for c in answer.collections] == [(document["info"]["title"], 1, 3)]
    tags = spec_service.tag_by_spec(answer.spec.id).tags
    assert [(t.title, t.count_methods) for t in tags] == [("pets", 3)]
    methods = spec_service.endpoint_by_tag(tags[0].id).methods
    assert sorted((m.method, m.path) for m in methods) == sorted((v, p) for v, p, _ in plain_operations(document))


def test_openapi_3_1_webhooks_count_as_methods_of_their_tags(spec_service) -> None:
    document = plain_load(OPENAPI / "redoc-demo" / "openapi-3-1.yaml")
    webhooks = [(verb, name) for verb, name, _ in plain_operations(document, ("webhooks",))]
    assert len({name for _, name in webhooks}) == 2  # two webhooks, one of them with two operations
    total = len(plain_operations(document))
    tags = spec_service.tag_by_spec(md5("spec|redoc31")).tags
    listed = {(m.method, m.path) for tag in tags for m in spec_service.endpoint_by_tag(tag.id).methods}
    assert len(listed) == total
    assert set(webhooks) <= listed


def test_swagger_2_is_read_into_the_same_model(spec_service) -> None:
    document = plain_load(OPENAPI / "redoc-demo" / "swagger.yaml")
    operations = plain_operations(document)
    answer = spec_of(spec_service, "redocswagger")
    assert sum(c.count_methods for c in answer.collections) >= len({(v, p) for v, p, _ in operations})
    verb, path, _ = next(
        (v, p, t) for v, p, t in operations if any(x.get("in") == "body" for x in document["paths"][p][v.lower()].get("parameters", []))
    )
    endpoint = spec_service.endpoint_by_id(md5(f"method|redocswagger|{verb}|{path}")).method
    assert endpoint["requestBody"]["content"], "a Swagger body parameter becomes an OpenAPI 3 request body"
    assert all(parameter.get("in") != "body" for parameter in endpoint["parameters"])
    verb, path, _ = next(
        (v, p, t) for v, p, t in operations if any("schema" in r for r in document["paths"][p][v.lower()]["responses"].values())
    )
    responses = spec_service.endpoint_by_id(md5(f"method|redocswagger|{verb}|{path}")).method["responses"]
    plain = document["paths"][path][verb.lower()]["responses"]
    for status, response in plain.items():
        if "schema" in response:
            assert all("schema" in entry for entry in responses[str(status)]["content"].values()), "a response schema moves into content"


@pytest.mark.parametrize("file", sorted((OPENAPI / "twilio").glob("*.json")) if OPENAPI.is_dir() else [], ids=lambda f: f.stem)
def test_every_twilio_spec_has_its_number_of_operations(spec_service, file: Path) -> None:
    document = plain_load(file)
    expected = {(verb, path) for verb, path, _ in plain_operations(document)}
    answer = spec_of(spec_service, file.stem)
    assert len(answer.collections) == 1 and answer.collections[0].title == document["info"]["title"]
    assert answer.collections[0].count_methods == len(expected)
    listed = {
        (m.method, m.path) for tag in spec_service.tag_by_spec(answer.spec.id).tags for m in spec_service.endpoint_by_tag(tag.id).methods
    }
    assert listed == expected


def _plain_refs(folder: Path, root: str) -> tuple[int, list[str]]:
    """Follow every $ref from the root file by hand: (refs seen, refs that resolve nowhere)."""
    documents: dict[str, object] = {}
    seen: set[tuple[str, str]] = set()
    broken: list[str] = []
    todo = [(root, "")]
    count = 0
    while todo:
        file, pointer = todo.pop()
        if (file, pointer) in seen:
            continue
        seen.add((file, pointer))
        if file not in documents:
            path = folder / file
            if not path.is_file():
                broken.append(f"{file}#{pointer}")
                continue
            documents[file] = plain_load(path)
        value = documents[file]
        try:
            for part in filter(None, pointer.split("/")):
                part = part.replace("~1", "/").replace("~0", "~")
                value = value[int(part)] if isinstance(value, list) else value[part]
        except (KeyError, IndexError, TypeError, ValueError):
            broken.append(f"{file}#{pointer}")
            continue
        stack = [value]
        while stack:
            item = stack.pop()
            if isinstance(item, dict):
                ref = item.get("$ref")
                if isinstance(ref, str):
                    count += 1
                    location, _, fragment = ref.partition("#")
                    target = posixpath.normpath(posixpath.join(posixpath.dirname(file), unquote(location))) if location else file
                    todo.append((target, unquote(fragment)))
                stack.extend(v for k, v in item.items() if k != "$ref")
            elif isinstance(item, list):
                stack.extend(item)
    return count, broken


def test_digitalocean_every_ref_across_its_files_is_resolved(spec_service, corpus_workspace: Path) -> None:
    folder = OPENAPI / "digitalocean" / "specification"
    count, broken = _plain_refs(folder, "DigitalOcean-public.v2.yaml")
    assert count > 5000 and broken == []
    check = {spec.domain: spec for spec in spec_service.spec_checks()}
    assert [p for p in check["digitalocean"].problems if "ref" in p["kind"]] == []
    document = plain_load(folder / "DigitalOcean-public.v2.yaml")
    expected = {
        (verb.upper(), path)
        for path, item in document["paths"].items()
        for verb in item
        if verb in {"get", "put", "post", "delete", "patch", "head"}
    }
    answer = spec_of(spec_service, "digitalocean")
    assert [c.title for c in answer.collections] == [g["name"] for g in document["x-tagGroups"]]
    tags = spec_service.tag_by_spec(answer.spec.id).tags
    listed = {(m.method, m.path): m.id for tag in tags for m in spec_service.endpoint_by_tag(tag.id).methods}
    assert set(listed) == expected
    unresolved = []
    for key, method_id in sorted(listed.items()):
        endpoint = spec_service.endpoint_by_id(method_id)
        if '"unresolved"' in str(endpoint.method):
            unresolved.append(key)
        assert endpoint.method["responses"], key
    assert unresolved == []
    samples = [spec_service.endpoint_by_id(method_id).method["codeSamples"] for method_id in list(listed.values())[:20]]
    assert any(sample and sample[0]["source"] for sample in samples)


def test_search_finds_methods_across_the_corpus(spec_service) -> None:
    hits = spec_service.search_specs("droplet snapshots", limit=5).hits
    assert hits and hits[0].domain == "digitalocean" and "snapshot" in hits[0].path
    hits = spec_service.search_specs("verification check", limit=10).hits
    assert any(hit.domain.startswith("twilio_verify") for hit in hits)


def test_digitalocean_listings_check_the_operation_files_and_only_an_endpoint_its_code_samples(corpus_workspace: Path) -> None:
    """The files each call checks (docs/specs.md), against a plain walk of the root and the operation files."""
    import sqlite3

    from tests.specs.conftest import VERBS

    folder = OPENAPI / "digitalocean" / "specification"
    document = plain_load(folder / "DigitalOcean-public.v2.yaml")
    operation_files: set[str] = set()
    samples_of: dict[tuple[str, str], set[str]] = {}
    for path, item in document["paths"].items():
        for verb, operation in item.items():
            if verb not in VERBS or "$ref" not in operation:
                continue
            file = posixpath.normpath(operation["$ref"])
            operation_files.add(file)
            samples = plain_load(folder / file).get("x-codeSamples") or []
            samples_of[verb.upper(), path] = {
                posixpath.normpath(posixpath.join(posixpath.dirname(file), sample["$ref"])) for sample in samples if "$ref" in sample
            }
    every_sample = set().union(*samples_of.values())
    assert len(operation_files) > 500 and len(every_sample) > 1000
    with sqlite3.connect(corpus_workspace / ".normcli" / "index.sqlite") as index:
        row, files, search, more = index.execute(
            "SELECT id, files, search_files, more_files FROM spec_domains WHERE domain = 'digitalocean'"
        ).fetchone()
        methods = index.execute("SELECT verb, path, files FROM spec_methods WHERE domain_row = ?", (row,)).fetchall()
    listings, searched, rest = (set(text.split("\n")) for text in (files, search, more))
    assert operation_files <= listings, "every listing is made of the operation files"
    assert not every_sample & (listings | searched), "a code sample changes only its endpoint's page"
    assert every_sample <= rest
    beyond = [*search.split("\n"), *more.split("\n")]
    own = {(verb, path): {beyond[int(position)] for position in positions.split()} for verb, path, positions in methods}
    for key, samples in samples_of.items():
        assert samples <= own[key], key
