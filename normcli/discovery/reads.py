"""The spec discovery operations of SPEC §7 as methods of the `Service` and of `SpecSession` (a mixin).

Each is a read operation like the norms' (one freshness check, one snapshot, a damaged index rebuilt
once); the work is done in `operations`, imported at the first spec read rather than at every call's
start-up.
"""

from __future__ import annotations

import functools

from normcli.snapshot import spec_scope

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    from normcli.discovery.operations import Discovery
    from normcli.specs import results as sr

    T = TypeVar("T")


def _read(operation: Callable[..., T]) -> Callable[..., T]:
    """Run `operation` as the class it is called on runs its reads (`_wrap_read`), checking only the spec
    files the listings are made of (an endpoint's page checks its own after: `Discovery.endpoint_by_id`)."""
    return _checking("listings")(operation)


def _checking(spec_files: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Run an operation as the class runs its reads (`_wrap_read`), checking the spec files named: `listings`,
    `search` (and those search is made of) or `all` (docs/specs.md, which files each answer depends on)."""

    def wrap(operation: Callable[..., T]) -> Callable[..., T]:
        return _run(spec_scope(spec_files)(operation))

    return wrap


def _run(operation: Callable[..., T]) -> Callable[..., T]:
    @functools.wraps(operation)
    def run(self: Any, *args: Any, **kwargs: Any) -> T:
        return self._wrap_read(operation)(self, *args, **kwargs)

    return run


class SpecReads:
    """The spec discovery operations (SPEC §7), mixed into `Service` (and `SpecSession`)."""

    # How the class runs a read operation (one freshness check, one snapshot, a damaged index rebuilt
    # once): `Service` and `SpecSession` each give theirs, so that this module imports neither.
    _wrap_read: Callable[[Callable[..., Any]], Callable[..., Any]]

    def _discovery(self) -> Discovery:
        from normcli.discovery.operations import Discovery

        return Discovery(self)  # type: ignore[arg-type]  # the class it is mixed into has index()

    @_checking("all")  # the problems of every file
    def spec_checks(self) -> list[sr.SpecCheck]:
        """Each spec folder's problems as `check` reports them (file, line, reason)."""
        return self._discovery().spec_checks()

    @_read
    def spec_list(self) -> sr.SpecListResult:
        """`api specs` / `spec_list`: every spec of the workspace (unreadable ones too: `check` says why)."""
        return self._discovery().spec_list()

    @_read
    def spec_by_id(self, id: str) -> sr.SpecResult:
        """`api spec ID` / `spec_by_id`: a spec and its collections with their counts."""
        return self._discovery().spec_by_id(id)

    @_read
    def collection_by_spec(self, spec_id: str) -> sr.SpecResult:
        """`api collections SPEC_ID` / `collection_by_spec`: the same answer as `spec_by_id`."""
        return self._discovery().spec_by_id(spec_id, "specId")

    @_read
    def collection_by_id(self, id: str) -> sr.CollectionResult:
        """`api collection ID` / `collection_by_id`: a collection, its spec and its tags with their counts."""
        return self._discovery().collection_by_id(id)

    @_read
    def tag_by_collection(self, collection_id: str) -> sr.CollectionResult:
        """`api tags --collection ID` / `tag_by_collection`: the same answer as `collection_by_id`."""
        return self._discovery().collection_by_id(collection_id, "collectionId")

    @_read
    def tag_by_spec(self, spec_id: str) -> sr.TagsResult:
        """`api tags SPEC_ID` / `tag_by_spec`: every tag of a spec once, over all its collections."""
        return self._discovery().tag_by_spec(spec_id)

    @_read
    def tag_by_id(self, id: str) -> sr.TagResult:
        """`api tag ID` / `tag_by_id`: a tag and the number of its methods."""
        return self._discovery().tag_by_id(id)

    @_read
    def endpoint_by_tag(self, tag_id: str) -> sr.EndpointsResult:
        """`api endpoints TAG_ID` / `endpoint_by_tag`: a tag's methods, in the spec's order."""
        return self._discovery().endpoint_by_tag(tag_id)

    @_read
    def endpoint_by_id(self, id: str) -> sr.EndpointResult:
        """`api endpoint ID` / `endpoint_by_id`: one method whole, its schemas resolved, and as Markdown."""
        return self._discovery().endpoint_by_id(id)

    @_read
    def spec_named(self, value: str) -> str:
        """The spec id that `value` names, an id or a domain (`meteo`): the command line's forgiving name."""
        return self._discovery().spec_named(value)

    @_read
    def endpoint_named(self, domain: str, name: str) -> sr.EndpointResult:
        """`api endpoint DOMAIN "GET /pets/{petId}"`: a method named by its verb and path."""
        return self._discovery().endpoint_named(domain, name)

    @_checking("search")
    def search_specs(self, keyword: str, limit: int = 20) -> sr.SpecSearchResult:
        """`api search KEYWORD` / `search_specs`: methods by path, summary, description, parameter and schema
        names over every spec, best first."""
        return self._discovery().search_specs(keyword, limit)
