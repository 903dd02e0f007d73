"""What a read spec holds: its collections, tags and methods, the targets of its `$ref`s, its problems."""

from __future__ import annotations

from typing import Any

from normcli.model import Problem
from normcli.record import record

DEFAULT_TAG = "default"
OTHER_COLLECTION = "Other"  # tag groups in use, and tags with methods that no group names


@record
class SpecMethod:
    """One operation (or webhook): `GET /pets/{petId}`, normalised to OpenAPI 3's shape.

    `body` is the operation as `endpoint_by_id` shows it before schemas are resolved: parameters,
    requestBody, responses, security, servers, code samples; its `$ref`s are canonical keys."""

    verb: str
    path: str
    summary: str
    description: str
    operation_id: str
    deprecated: bool
    webhook: bool
    tags: tuple[str, ...]
    file: str
    line: int
    body: dict[str, Any]
    search_names: tuple[str, ...]  # parameter and schema names, for search
    files: tuple[str, ...] = ()  # the files its page is made of beyond the spec's `structure` (its `searched` ones too)


@record
class SpecTag:
    """A tag as the spec declares or uses it."""

    name: str
    description: str


@record
class SpecCollection:
    """A tag group (`x-tagGroups`), or the whole spec under its title."""

    title: str
    llm_title: str | None
    tags: tuple[str, ...]


@record
class Spec:
    """One domain's spec, read from its root file and the files its `$ref`s reach."""

    domain: str
    root: str  # the root file, relative to the workspace
    title: str
    version: str
    format: str  # "openapi 3.1.0", "swagger 2.0"
    collections: tuple[SpecCollection, ...]
    tags: tuple[SpecTag, ...]
    methods: tuple[SpecMethod, ...]
    targets: dict[str, Any]  # canonical key → the target with its own $refs canonical
    files: tuple[str, ...]  # every file read, relative to the spec's folder
    stamps: dict[str, tuple[str, int]]  # file → (stamp, size) taken before it was read (`specs.files`)
    problems: tuple[Problem, ...]
    structure: tuple[str, ...] = ()  # the files the listings are made of (the root and the files the listing walk read)
    searched: tuple[str, ...] = ()  # the other files search is made of (read for parameters, bodies, responses, descriptions)
