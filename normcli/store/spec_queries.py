"""Every read of the spec tables, on an open index connection (see `store.specs` for what they hold)."""

from __future__ import annotations

from normcli.store import sqlite
from normcli.store.spec_schema import FTS as _FTS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Iterable

# A domain's columns that answers show: not the file lists and stamps the freshness check compares
# (tens of kilobytes for a spec of thousands of files), which `domain_files` reads for an endpoint.
_DOMAIN = "id, domain, spec_id, root, title, version, format, readable, problems, methods"

# bm25 weights for path, summary and the rest (description, operationId, parameter and schema names).
RANK = f"bm25({_FTS}, 6.0, 4.0, 1.0)"


class SpecQueries:
    """The questions the discovery operations ask of the spec tables, one method each."""

    def __init__(self, connection: sqlite.Connection) -> None:
        self.connection = connection

    def _all(self, sql: str, params: Iterable = ()) -> list[sqlite.Row]:
        try:
            return self.connection.execute(sql, tuple(params)).fetchall()
        except sqlite.OperationalError as exc:
            if "no such table" in str(exc):  # an index written before specs existed: it holds none
                return []
            raise

    def _one(self, sql: str, params: Iterable = ()) -> sqlite.Row | None:
        rows = self._all(sql, params)
        return rows[0] if rows else None

    def domains(self) -> list[sqlite.Row]:
        """Every spec folder, readable or not, by domain."""
        return self._all(f"SELECT {_DOMAIN} FROM spec_domains ORDER BY domain")

    def domain_by_spec_id(self, spec_id: str) -> sqlite.Row | None:
        """The domain with this spec id."""
        return self._one(f"SELECT {_DOMAIN} FROM spec_domains WHERE spec_id = ?", (spec_id,))

    def domain_by_row(self, domain_row: int) -> sqlite.Row | None:
        """The domain of a row id."""
        return self._one(f"SELECT {_DOMAIN} FROM spec_domains WHERE id = ?", (domain_row,))

    def domain_files(self, domain_row: int) -> sqlite.Row | None:
        """The files of a domain beyond those of its listings, with their stamps (`spec_schema`)."""
        return self._one(
            "SELECT domain, search_files, search_fingerprint, more_files, more_fingerprint FROM spec_domains WHERE id = ?", (domain_row,)
        )

    def collections(self, domain_row: int) -> list[sqlite.Row]:
        """A spec's collections in the spec's order."""
        return self._all("SELECT * FROM spec_collections WHERE domain_row = ? ORDER BY ord", (domain_row,))

    def collection(self, collection_id: str) -> sqlite.Row | None:
        """The collection with this id."""
        return self._one("SELECT * FROM spec_collections WHERE collection_id = ?", (collection_id,))

    def collection_tags(self, collection_id: str) -> list[sqlite.Row]:
        """The tags of a collection in its order."""
        return self._all(
            "SELECT t.* FROM spec_collection_tags AS ct JOIN spec_tags AS t ON t.tag_id = ct.tag_id AND t.domain_row = ct.domain_row"
            " WHERE ct.collection_id = ? ORDER BY ct.ord",
            (collection_id,),
        )

    def tags(self, domain_row: int) -> list[sqlite.Row]:
        """Every tag of a spec in the spec's order."""
        return self._all("SELECT * FROM spec_tags WHERE domain_row = ? ORDER BY ord", (domain_row,))

    def tag(self, tag_id: str) -> sqlite.Row | None:
        """The tag with this id."""
        return self._one("SELECT * FROM spec_tags WHERE tag_id = ?", (tag_id,))

    def tag_methods(self, tag_id: str) -> list[sqlite.Row]:
        """The methods of a tag in the spec's order."""
        return self._all(
            "SELECT m.id, m.domain_row, m.method_id, m.verb, m.path, m.summary, m.operation_id, m.deprecated, m.webhook"
            " FROM spec_method_tags AS mt JOIN spec_methods AS m ON m.id = mt.method_row WHERE mt.tag_id = ? ORDER BY mt.ord",
            (tag_id,),
        )

    def method(self, method_id: str) -> sqlite.Row | None:
        """The method with this id, with its stored body."""
        return self._one("SELECT * FROM spec_methods WHERE method_id = ?", (method_id,))

    def methods_at(self, domain_row: int, path: str) -> list[sqlite.Row]:
        """The methods of a spec on one path (for naming an endpoint by `GET /path`)."""
        return self._all(
            "SELECT verb, path, method_id FROM spec_methods WHERE domain_row = ? AND path = ? ORDER BY ord", (domain_row, path)
        )

    def method_paths(self, domain_row: int) -> list[sqlite.Row]:
        """Verb and path of every method of a spec."""
        return self._all("SELECT verb, path FROM spec_methods WHERE domain_row = ? ORDER BY ord", (domain_row,))

    def refs(self, domain_row: int, keys: list[str]) -> dict[str, str]:
        """The stored JSON of `$ref` targets by canonical key."""
        found: dict[str, str] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            sql = f"SELECT key, body FROM spec_refs WHERE domain_row = ? AND key IN ({','.join('?' * len(chunk))})"
            found.update((row["key"], row["body"]) for row in self._all(sql, (domain_row, *chunk)))
        return found

    def search(self, query: str, limit: int) -> list[sqlite.Row]:
        """Methods matching an FTS5 query, best first."""
        return self._all(
            f"SELECT m.id, m.domain_row, m.method_id, m.verb, m.path, m.summary, m.description, m.operation_id"
            f" FROM (SELECT rowid, {RANK} AS score FROM {_FTS} WHERE {_FTS} MATCH ? ORDER BY score LIMIT ?) AS hit"
            f" JOIN spec_methods AS m ON m.id = hit.rowid ORDER BY hit.score",
            (query, limit),
        )
