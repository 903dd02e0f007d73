"""Spec workspaces for the tests, and an independent plain reading of spec files to check counts against.

The expected numbers come from `plain_*` below, which read the files with PyYAML and `json` directly
and walk them by hand: never from the importer under test.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import SHARED_CORPUS
from tests.tui.conftest import anyio_backend, data_dir, make_app, settle  # noqa: F401 - the TUI tests' fixtures, for the API browser

OPENAPI = SHARED_CORPUS / "openapi"
VERBS = {"get", "put", "post", "delete", "options", "head", "patch", "trace"}
needs_corpus = pytest.mark.skipif(not OPENAPI.is_dir(), reason="../shared/corpus/openapi is not there")


def plain_load(path: Path) -> object:
    """A spec file as plain data, read without normcli."""
    import yaml

    text = path.read_text(encoding="utf-8")
    return json.loads(text) if path.suffix == ".json" else yaml.safe_load(text)


def plain_local(document: dict, value: object) -> object:
    """`value`, or what its `$ref` names inside the same document (`#/components/pathItems/x`)."""
    while isinstance(value, dict) and str(value.get("$ref", "")).startswith("#/"):
        target: object = document
        for part in value["$ref"][2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]  # type: ignore[index]
        value = target
    return value


def plain_operations(document: dict, sections: tuple[str, ...] = ("paths", "webhooks", "x-webhooks")) -> list[tuple[str, str, list[str]]]:
    """(verb, path, tags) of every operation under `paths`, `webhooks` and `x-webhooks` (refs within the file followed)."""
    found = []
    for section in sections:
        for path, item in (document.get(section) or {}).items():
            for verb, operation in plain_local(document, item).items():
                if verb in VERBS:
                    operation = plain_local(document, operation)
                    found.append((verb.upper(), path, list(operation.get("tags") or ["default"])))
    return found


def copy_spec(root: Path, domain: str, source: Path) -> None:
    """Put one spec under `root/specs/<domain>/`: a file, or a folder with its files."""
    target = root / "specs" / domain
    if source.is_dir():
        shutil.copytree(source, target)
    else:
        target.mkdir(parents=True)
        shutil.copy2(source, target / source.name)


@pytest.fixture(scope="session")
def corpus_workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Every spec of ../shared/corpus/openapi in one workspace, indexed once: each Twilio file its own domain."""
    if not OPENAPI.is_dir():
        pytest.skip("../shared/corpus/openapi is not there")
    from normcli.store.refresh import refresh

    root = tmp_path_factory.mktemp("specs") / "ws"
    (root / "norms").mkdir(parents=True)
    copy_spec(root, "redoc", OPENAPI / "redoc-demo" / "openapi.yaml")
    copy_spec(root, "redoc31", OPENAPI / "redoc-demo" / "openapi-3-1.yaml")
    copy_spec(root, "redocswagger", OPENAPI / "redoc-demo" / "swagger.yaml")
    copy_spec(root, "petstore", OPENAPI / "oai-examples" / "petstore.yaml")
    copy_spec(root, "digitalocean", OPENAPI / "digitalocean" / "specification")
    for file in sorted((OPENAPI / "twilio").glob("*.json")):
        copy_spec(root, file.stem, file)
    refresh(root)
    yield root


@pytest.fixture
def spec_service(corpus_workspace: Path):
    """A service over the corpus workspace."""
    from normcli.service import Service

    opened = Service.open(corpus_workspace)
    yield opened
    opened.close()
