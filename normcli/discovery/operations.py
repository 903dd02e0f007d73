"""The spec discovery operations of SPEC §7 (spec_list … search_specs), as `Service` runs them (`reads`).

Each answer comes from the spec tables of the index; only `endpoint_by_id` reads more than a few
rows, the targets of the endpoint's `$ref`s, which it puts in place (`resolve`). Ids are checked
before anything is read: malformed is `invalid_argument`, well-formed but unknown is `not_found`.
"""

from __future__ import annotations

from normcli.errors import InvalidArgument, NotFound, WorkspaceError
from normcli.lean_json import loads
from normcli.specs import ids
from normcli.specs import results as sr
from normcli.store.spec_queries import SpecQueries

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    import sqlite3
    from typing import Any, Protocol

    from normcli.store.connection import IndexConnection

    class Reader(Protocol):
        """What the discovery operations need of a `Service` or a `SpecSession`: the fresh index."""

        def index(self) -> IndexConnection: ...

        def check_method_files(self, domain: str, lists: tuple[str, str, str, str], positions: str) -> None: ...


SNIPPET_CHARS = 180
_ENDPOINT_NAME = r"^\s*([A-Za-z]+)\s+(\S.*?)\s*$"


def _not_found(what: str, value: str) -> NotFound:
    """A well-formed id that names no spec, collection, tag or method (`what` stays `id`, as SPEC §8 lists it)."""
    return NotFound("id", value, message=f"no {what} has the id {value}")


class Discovery:
    """The discovery operations over the specs of one service's workspace."""

    def __init__(self, service: Reader) -> None:
        self.service = service

    def _spec_queries(self) -> SpecQueries:
        return SpecQueries(self.service.index().connection)

    @staticmethod
    def _spec_ref(row: sqlite3.Row) -> sr.SpecRef:
        return sr.SpecRef(row["spec_id"], row["domain"], row["title"] or row["domain"], row["methods"] or 0, bool(row["readable"]))

    def _domain_row(self, queries: SpecQueries, spec_id: object, name: str = "id") -> sqlite3.Row:
        value = ids.check_id(spec_id, name)
        row = queries.domain_by_spec_id(value)
        if row is None:
            raise _not_found("spec", value)
        if not row["readable"]:
            # Listed by spec_list so that it is not silently missing, but it has nothing to walk.
            problems = [problem for problem in loads(row["problems"] or "[]") if problem.get("severity") == "error"]
            first = problems[0] if problems else {"file": f"specs/{row['domain']}", "line": 0, "reason": "unreadable"}
            where = f"{first['file']}:{first['line']}" if first.get("line") else first["file"]
            raise WorkspaceError(
                f"the spec '{row['domain']}' cannot be read: {where}: {first['reason']}",
                "fix the file: the next call reads it again",
                part="spec",
            )
        return row

    def spec_checks(self) -> list[sr.SpecCheck]:
        """What `check` reports of each spec folder, from what the index recorded when it read it."""
        return [
            sr.SpecCheck(row["domain"], row["root"], bool(row["readable"]), row["methods"] or 0, tuple(loads(row["problems"] or "[]")))
            for row in self._spec_queries().domains()
        ]

    def spec_list(self) -> sr.SpecListResult:
        """`api specs` / `spec_list`: every spec of the workspace (unreadable ones too: `check` says why)."""
        return sr.SpecListResult(tuple(self._spec_ref(row) for row in self._spec_queries().domains()))

    def spec_by_id(self, spec_id: str, name: str = "id") -> sr.SpecResult:
        """A spec and its collections with their counts; `name` is the parameter named in errors."""
        queries = self._spec_queries()
        row = self._domain_row(queries, spec_id, name)
        collections = tuple(
            sr.CollectionInfo(c["collection_id"], c["title"], c["llm_title"], c["count_tags"], c["count_methods"])
            for c in queries.collections(row["id"])
        )
        return sr.SpecResult(self._spec_ref(row), collections)

    def collection_by_id(self, collection_id: str, name: str = "id") -> sr.CollectionResult:
        """A collection, its spec and its tags with their counts; `name` is the parameter named in errors."""
        queries = self._spec_queries()
        value = ids.check_id(collection_id, name)
        row = queries.collection(value)
        if row is None:
            raise _not_found("collection", value)
        domain = queries.domain_by_row(row["domain_row"])
        assert domain is not None
        tags = tuple(self._tag_info(tag) for tag in queries.collection_tags(value))
        head = sr.CollectionHead(row["collection_id"], row["title"], row["count_methods"])
        return sr.CollectionResult(self._spec_ref(domain), head, tags)

    @staticmethod
    def _tag_info(row: sqlite3.Row) -> sr.TagInfo:
        return sr.TagInfo(row["tag_id"], row["name"], row["count_methods"], row["description"] or "")

    def tag_by_spec(self, spec_id: str) -> sr.TagsResult:
        """`api tags SPEC_ID` / `tag_by_spec`: every tag of a spec once, over all its collections."""
        queries = self._spec_queries()
        row = self._domain_row(queries, spec_id, "specId")
        return sr.TagsResult(self._spec_ref(row), tuple(self._tag_info(tag) for tag in queries.tags(row["id"])))

    def _tag_row(self, queries: SpecQueries, tag_id: object, name: str = "id") -> sqlite3.Row:
        value = ids.check_id(tag_id, name)
        row = queries.tag(value)
        if row is None:
            raise _not_found("tag", value)
        return row

    def tag_by_id(self, tag_id: str) -> sr.TagResult:
        """`api tag ID` / `tag_by_id`: a tag and the number of its methods."""
        queries = self._spec_queries()
        row = self._tag_row(queries, tag_id)
        domain = queries.domain_by_row(row["domain_row"])
        assert domain is not None
        return sr.TagResult(self._spec_ref(domain), self._tag_info(row))

    def endpoint_by_tag(self, tag_id: str) -> sr.EndpointsResult:
        """`api endpoints TAG_ID` / `endpoint_by_tag`: a tag's methods, in the spec's order."""
        queries = self._spec_queries()
        row = self._tag_row(queries, tag_id, "tagId")
        domain = queries.domain_by_row(row["domain_row"])
        assert domain is not None
        methods = tuple(
            sr.MethodInfo(m["method_id"], m["verb"], m["path"], m["summary"] or "", m["operation_id"] or "", bool(m["deprecated"]))
            for m in queries.tag_methods(row["tag_id"])
        )
        return sr.EndpointsResult(self._spec_ref(domain), self._tag_info(row), methods)

    def endpoint_by_id(self, method_id: str) -> sr.EndpointResult:
        """`api endpoint ID` / `endpoint_by_id`: one method whole, its schemas resolved, and as Markdown."""
        from normcli.specs.render import endpoint_markdown
        from normcli.specs.resolve import Resolver, load_targets

        queries = self._spec_queries()
        value = ids.check_id(method_id)
        row = queries.method(value)
        if row is None:
            raise _not_found("method", value)
        domain = queries.domain_by_row(row["domain_row"])
        assert domain is not None
        if row["files"]:  # the files this page shows beyond the listings': the check so far may have left them out
            files = queries.domain_files(row["domain_row"])
            assert files is not None
            lists = (files["search_files"], files["search_fingerprint"], files["more_files"], files["more_fingerprint"])
            self.service.check_method_files(files["domain"], lists, row["files"])
        body = loads(row["body"])
        targets = load_targets(body, lambda keys: queries.refs(row["domain_row"], keys))
        root_file = (domain["root"] or "").removeprefix(f"specs/{domain['domain']}/")
        resolver = Resolver(targets, root_file)
        try:
            resolved = resolver.resolve(body)
        except RecursionError:  # a schema nested past Python's limit: shown unresolved rather than not at all
            resolved = body
        method: dict[str, Any] = {
            "id": row["method_id"],
            "method": row["verb"],
            "path": row["path"],
            "summary": row["summary"] or "",
            "description": row["description"] or "",
            "operationId": row["operation_id"] or "",
            "deprecated": bool(row["deprecated"]),
            "tags": loads(row["tags"]),
            "parameters": resolved.get("parameters", []),
            "requestBody": resolved.get("requestBody"),
            "responses": resolved.get("responses", {}),
            "security": resolved.get("security"),
            "servers": resolved.get("servers", []),
            "codeSamples": resolved.get("codeSamples", []),
        }
        if row["webhook"]:
            method["webhook"] = True
        return sr.EndpointResult(self._spec_ref(domain), method, endpoint_markdown(domain["domain"], method))

    # -- the command line's forgiving names --------------------------------------------------

    def spec_named(self, value: str) -> str:
        """The spec id that `value` names: an id, or a domain (`meteo`); for the command line."""
        if ids.is_id(value):
            return value
        if not isinstance(value, str) or not value.strip():
            raise InvalidArgument("a spec id or domain is required", param="specId")
        rows = self._spec_queries().domains()
        for row in rows:
            if row["domain"] == value.strip() or row["domain"].lower() == value.strip().lower():
                return row["spec_id"]
        import re  # only when the name is no domain

        if re.fullmatch(r"[0-9a-fA-F]{20,64}", value.strip()):
            ids.check_id(value)  # raises: an id written wrong, not a domain
        domains = [row["domain"] for row in rows]
        raise NotFound("spec", value, domains, message=f"no spec has the domain or id '{value}'")

    def endpoint_named(self, domain: str, name: str) -> sr.EndpointResult:
        """`api endpoint DOMAIN "GET /pets/{petId}"`: a method named by its verb and path."""
        import re

        spec_id = self.spec_named(domain)
        match = re.match(_ENDPOINT_NAME, name or "")
        if match is None:
            raise InvalidArgument(f"'{name}' is not a method and a path", 'write it as "GET /pets/{petId}"')
        verb, path = match.group(1).upper(), match.group(2)
        queries = self._spec_queries()
        row = queries.domain_by_spec_id(spec_id)
        assert row is not None
        # Looked up by verb and path rather than by computing the MD5 id: hashlib would load OpenSSL
        # (about 2 ms) on a call that only needs a row the index already holds.
        at_path = queries.methods_at(row["id"], path)
        method_id = next((m["method_id"] for m in at_path if m["verb"] == verb), None)
        if method_id is None:
            known = [f"{m['verb']} {m['path']}" for m in at_path]
            if not known:
                import difflib

                every = [f"{m['verb']} {m['path']}" for m in queries.method_paths(row["id"])]
                known = difflib.get_close_matches(f"{verb} {path}", every, n=5, cutoff=0.6)
            raise NotFound("method", f"{verb} {path}", known, norm=row["domain"], message=f"{row['domain']} has no method {verb} {path}")
        return self.endpoint_by_id(method_id)

    # -- search ------------------------------------------------------------------------------

    def search_specs(self, keyword: str, limit: int = 20) -> sr.SpecSearchResult:
        """Methods by path, summary, description, parameter and schema names over every spec, best first."""
        from normcli.params import SPEC_LIMIT
        from normcli.snippets import excerpt_for, keyword_tokens

        tokens = keyword_tokens(keyword)
        SPEC_LIMIT.check(limit)
        if not tokens:
            return sr.SpecSearchResult(keyword, ())
        queries = self._spec_queries()
        # Best first by tier, bm25 within each: the words as a phrase (`snow load` in a path or a
        # summary beats a webhook that says "snow depth … design load"), then all the words, then words
        # as prefixes. Each tier only fills what the one before left.
        tiers = [" ".join(f'"{token}"' for token in tokens)]
        if len(tokens) > 1:
            tiers.insert(0, '"' + " ".join(tokens) + '"')
        if any(len(token) >= 3 for token in tokens):
            tiers.append(" ".join(f'"{token}"*' if len(token) >= 3 else f'"{token}"' for token in tokens))
        rows: list[sqlite3.Row] = []
        seen: set[int] = set()
        for tier in tiers:
            if len(rows) >= limit:
                break
            fresh = [row for row in queries.search(tier, limit) if row["id"] not in seen][: limit - len(rows)]
            rows += fresh
            seen.update(row["id"] for row in fresh)
        domains = {row["id"]: row for row in queries.domains()}
        hits = []
        for row in rows:
            domain = domains[row["domain_row"]]
            snippet = excerpt_for(_matching_text(row, tokens), tokens, SNIPPET_CHARS)
            hits.append(
                sr.SpecHit(domain["spec_id"], domain["domain"], row["method_id"], row["verb"], row["path"], row["summary"] or "", snippet)
            )
        return sr.SpecSearchResult(keyword, tuple(hits))


def _matching_text(row: sqlite3.Row, tokens: list[str]) -> str:
    """The text a hit's snippet is cut from: of description, summary, operationId and path, the first
    that holds the most words of the keyword (a hit found by its path shows its path, not the start of
    a description that never says it)."""
    from normcli.fold import fold

    texts = [text for text in (row["description"], row["summary"], row["operation_id"], row["path"]) if text]
    if not texts:
        return ""
    matched = [sum(token in fold(text) for token in tokens) for text in texts]
    return texts[matched.index(max(matched))]
