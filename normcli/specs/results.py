"""The answers of the spec discovery operations (SPEC §7): frozen records with one `to_json()` each.

Some records carry a little more than their JSON (a spec's title, a tag's description), for the
people-facing renderers; the JSON stays SPEC's shape. As in `normcli.results` (which hands these out
by name), `_json_omit` and `_json_optional` say so, and the MCP output schemas are made from that.
"""

from __future__ import annotations

from normcli.record import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from typing import Any


@record
class SpecRef:
    """A spec as every answer names it: its id and domain (title and counts for people)."""

    _json_omit = ("title", "count_methods", "readable")

    id: str
    domain: str
    title: str = ""
    count_methods: int = 0
    readable: bool = True

    def to_json(self) -> dict:
        return {"id": self.id, "domain": self.domain}


@record
class SpecListResult:
    """`api specs` / `spec_list`."""

    specs: tuple[SpecRef, ...]

    def to_json(self) -> dict:
        return {"specs": [spec.to_json() for spec in self.specs]}


@record
class CollectionInfo:
    """A collection with its counts."""

    _json_optional = ("llm_title",)

    id: str
    title: str
    llm_title: str | None
    count_tags: int
    count_methods: int

    def to_json(self) -> dict:
        answer: dict[str, Any] = {"id": self.id, "title": self.title}
        if self.llm_title:
            answer["llmTitle"] = self.llm_title
        answer.update(countTags=self.count_tags, countMethods=self.count_methods)
        return answer


@record
class SpecResult:
    """`api spec` / `spec_by_id`, and `collection_by_spec`: a spec and its collections."""

    spec: SpecRef
    collections: tuple[CollectionInfo, ...]

    def to_json(self) -> dict:
        return {"spec": self.spec.to_json(), "collections": [collection.to_json() for collection in self.collections]}


@record
class TagInfo:
    """A tag with the number of methods under it."""

    _json_omit = ("description",)

    id: str
    title: str
    count_methods: int
    description: str = ""

    def to_json(self) -> dict:
        return {"id": self.id, "title": self.title, "countMethods": self.count_methods}


@record
class CollectionHead:
    """The collection block of `collection_by_id`."""

    id: str
    title: str
    count_methods: int

    def to_json(self) -> dict:
        return {"id": self.id, "title": self.title, "countMethods": self.count_methods}


@record
class CollectionResult:
    """`api collection` / `collection_by_id`, and `tag_by_collection`."""

    spec: SpecRef
    collection: CollectionHead
    tags: tuple[TagInfo, ...]

    def to_json(self) -> dict:
        return {"spec": self.spec.to_json(), "collection": self.collection.to_json(), "tags": [tag.to_json() for tag in self.tags]}


@record
class TagsResult:
    """`api tags SPEC` / `tag_by_spec`: every tag of a spec once."""

    _json_omit = ("spec",)

    spec: SpecRef
    tags: tuple[TagInfo, ...]

    def to_json(self) -> dict:
        return {"tags": [tag.to_json() for tag in self.tags]}


@record
class TagResult:
    """`api tag` / `tag_by_id`."""

    _json_omit = ("spec",)

    spec: SpecRef
    tag: TagInfo

    def to_json(self) -> dict:
        return {"tag": self.tag.to_json()}


@record
class MethodInfo:
    """A method in a tag's listing."""

    id: str
    method: str
    path: str
    summary: str
    operation_id: str
    deprecated: bool

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "method": self.method,
            "path": self.path,
            "summary": self.summary,
            "operationId": self.operation_id,
            "deprecated": self.deprecated,
        }


@record
class EndpointsResult:
    """`api endpoints` / `endpoint_by_tag`."""

    _json_omit = ("spec",)

    spec: SpecRef
    tag: TagInfo
    methods: tuple[MethodInfo, ...]

    def to_json(self) -> dict:
        return {"tag": self.tag.to_json(), "methods": [method.to_json() for method in self.methods]}


@record
class EndpointResult:
    """`api endpoint` / `endpoint_by_id`: one method whole, schemas resolved, and as Markdown.

    `method` is already the JSON object of SPEC §7 (parameters, requestBody, responses … as the spec
    writes them, with `$ref`s replaced by their targets)."""

    spec: SpecRef
    method: dict
    markdown: str

    def to_json(self) -> dict:
        return {"spec": self.spec.to_json(), "method": self.method, "markdown": self.markdown}


@record
class SpecHit:
    """A method found by `search_specs`."""

    spec_id: str
    domain: str
    method_id: str
    method: str
    path: str
    summary: str
    snippet: str

    def to_json(self) -> dict:
        return {
            "specId": self.spec_id,
            "domain": self.domain,
            "methodId": self.method_id,
            "method": self.method,
            "path": self.path,
            "summary": self.summary,
            "snippet": self.snippet,
        }


@record
class SpecSearchResult:
    """`api search` / `search_specs`."""

    keyword: str
    hits: tuple[SpecHit, ...]

    def to_json(self) -> dict:
        return {"keyword": self.keyword, "hits": [hit.to_json() for hit in self.hits]}


@record
class SpecCheck:
    """The verdict of `check` on one spec folder: whether it reads, how many methods, its problems."""

    domain: str
    root: str | None
    readable: bool
    methods: int
    problems: tuple[dict, ...]

    def to_json(self) -> dict:
        return {
            "domain": self.domain,
            "root": self.root,
            "readable": self.readable,
            "methods": self.methods,
            "problems": list(self.problems),
        }
