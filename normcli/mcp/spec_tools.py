"""What the MCP server needs for the spec discovery tools of SPEC §7: their descriptions for agents
and the Markdown block that follows each answer. The tools and their input and output schemas are
generated from `normcli.operations` and the result records like every other's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from normcli.specs import results as sr

TOOLS = frozenset(
    (
        "spec_list",
        "spec_by_id",
        "collection_by_spec",
        "collection_by_id",
        "tag_by_spec",
        "tag_by_collection",
        "tag_by_id",
        "endpoint_by_tag",
        "endpoint_by_id",
        "search_specs",
    )
)

# -- descriptions for agents ------------------------------------------------------------------

_WALK = "Walk: spec_list → spec_by_id → collection_by_id → endpoint_by_tag → endpoint_by_id; every id is 32 hex characters from an earlier answer."
DESCRIPTIONS = {
    "spec_list": "The API specifications (OpenAPI/Swagger) of this workspace as [{id, domain}], [] when there are none. Start here for any "
    "question about an API, then call spec_by_id with a spec's id. " + _WALK,
    "spec_by_id": "An API spec's collections (its tag groups, or the whole spec under its title) with countTags, countMethods and, where "
    "the spec gives one, llmTitle. Pick the collection that fits the question and call collection_by_id with its id.",
    "collection_by_spec": "The collections of an API spec, the same answer as spec_by_id: each with countTags and countMethods. "
    "Pick one and call collection_by_id with its id.",
    "collection_by_id": "A collection of an API spec with its tags, each with countMethods and an id. Pick the tag that fits the question "
    "and call endpoint_by_tag with its id to see the endpoints under it.",
    "tag_by_spec": "Every tag of an API spec once, over all its collections, each with countMethods and an id; operations without a tag "
    "are under 'default'. Call endpoint_by_tag with a tag's id for its endpoints.",
    "tag_by_collection": "The tags of one collection of an API spec (the same answer as collection_by_id), each with countMethods and an id. "
    "Call endpoint_by_tag with a tag's id for its endpoints.",
    "tag_by_id": "One tag of an API spec: its title and countMethods. Call endpoint_by_tag with the same id to list its endpoints "
    "(method, path, summary) and their ids.",
    "endpoint_by_tag": "The endpoints (operations) under one tag of an API spec: method, path, summary, operationId, deprecated, and each "
    "one's id. Call endpoint_by_id with an id to read the endpoint whole before you describe or call it.",
    "endpoint_by_id": "One endpoint whole: method and path, parameters, requestBody and responses with their schemas resolved ($ref "
    "cycles shown once and marked circular), examples, security, servers and code samples; the same as Markdown. Read it before "
    "you describe the endpoint or write a call to it.",
    "search_specs": "Find endpoints in every API spec of the workspace by words in their paths, summaries, descriptions, parameter and "
    "schema names, best first (limit 1–50). Each hit has the methodId to pass to endpoint_by_id, and the specId.",
}
INSTRUCTIONS = (
    "The workspace also holds API specifications: start with spec_list (or search_specs) and walk "
    "spec_by_id → collection_by_id → endpoint_by_tag → endpoint_by_id by id; read an endpoint before you describe or call it."
)
HINT = (
    "Call spec_list for the specs, then walk spec_by_id → collection_by_id → endpoint_by_tag with the ids they return, or use search_specs"
)

# -- Markdown ---------------------------------------------------------------------------------


def _specs(result: sr.SpecListResult) -> str:
    if not result.specs:
        return "This workspace holds no API specifications."
    return "\n".join(
        ["API specs:", *(f"- {spec.domain} — {spec.title} ({spec.count_methods} methods) `{spec.id}`" for spec in result.specs)]
    )


def _spec(result: sr.SpecResult) -> str:
    lines = [f"Collections of {result.spec.domain} ({result.spec.title}):"]
    for c in result.collections:
        title = c.title + (f" ({c.llm_title})" if c.llm_title else "")
        lines.append(f"- {title}: {c.count_tags} tags, {c.count_methods} methods `{c.id}`")
    return "\n".join(lines)


def _tags(tags: tuple[sr.TagInfo, ...]) -> list[str]:
    return [f"- {tag.title}: {tag.count_methods} methods `{tag.id}`" for tag in tags]


def _collection(result: sr.CollectionResult) -> str:
    return "\n".join([f"Tags of {result.spec.domain} › {result.collection.title}:", *_tags(result.tags)])


def _all_tags(result: sr.TagsResult) -> str:
    return "\n".join([f"Tags of {result.spec.domain}:", *_tags(result.tags)])


def _tag(result: sr.TagResult) -> str:
    return f"Tag {result.tag.title} of {result.spec.domain}: {result.tag.count_methods} methods `{result.tag.id}`"


def _endpoints(result: sr.EndpointsResult) -> str:
    lines = [f"Endpoints of {result.spec.domain} › {result.tag.title}:"]
    for m in result.methods:
        lines.append(f"- {m.method} {m.path} — {m.summary}{' (deprecated)' if m.deprecated else ''} `{m.id}`")
    return "\n".join(lines)


def _endpoint(result: sr.EndpointResult) -> str:
    return result.markdown


def _search(result: sr.SpecSearchResult) -> str:
    if not result.hits:
        return f"No endpoint matches '{result.keyword}'."
    lines = [f"Endpoints matching '{result.keyword}':"]
    lines += [f"- {hit.domain}: {hit.method} {hit.path} — {hit.summary or hit.snippet} `{hit.method_id}`" for hit in result.hits]
    return "\n".join(lines)


MARKDOWN: dict[type, Callable[[Any], str]] = {
    sr.SpecListResult: _specs,
    sr.SpecResult: _spec,
    sr.CollectionResult: _collection,
    sr.TagsResult: _all_tags,
    sr.TagResult: _tag,
    sr.EndpointsResult: _endpoints,
    sr.EndpointResult: _endpoint,
    sr.SpecSearchResult: _search,
}
