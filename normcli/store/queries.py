"""Every read the service makes of the index, on the C module under `sqlite3` (`store.sqlite`: cheap to import)."""

from __future__ import annotations

import os

from normcli.store import sqlite
from normcli.store.connection import IndexConnection
from normcli.store.schema import FTS_TABLE, TERMS_FTS, TEXT_DICTIONARY_KEY, TITLES_TABLE, TextPacker

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Iterable

# bm25 with a title match worth eight in the text. Called directly: through FTS5's configured
# `rank` column the same ordering costs half as much again per matching row.
RANK = f"bm25({FTS_TABLE}, 8.0, 1.0)"
RANK_AT_MOST = 5000
LONG_TEXT = 100_000
NODE_COLUMNS = "id, bundle_id, ord, node_id, path, path_key, title, depth, line, parent_path, child_count, page_start, page_end, summary"


class Index(IndexConnection):
    """A read-only connection to the index with one method per question the service asks."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        super().__init__(path)
        self._packer: TextPacker | None = None
        self._long_text: tuple[int, int, str] | None = None  # (data version, node row, text) of the last long clause read

    @property
    def packer(self) -> TextPacker:
        """What unpacks the stored clause texts (its dictionary is read once, at the first text)."""
        if self._packer is None:
            row = self._one("SELECT value FROM meta WHERE key = ?", (TEXT_DICTIONARY_KEY,))
            self._packer = TextPacker(row[0] if row else b"")
        return self._packer

    def _all(self, sql: str, params: Iterable = ()) -> list[sqlite.Row]:
        return self.connection.execute(sql, tuple(params)).fetchall()

    def _one(self, sql: str, params: Iterable = ()) -> sqlite.Row | None:
        return self.connection.execute(sql, tuple(params)).fetchone()

    def _row(self, sql: str, params: Iterable = ()) -> sqlite.Row:
        """The single row of an aggregate query, which always has one."""
        row = self.connection.execute(sql, tuple(params)).fetchone()
        assert row is not None
        return row

    def meta(self, key: str) -> str | None:
        """A value of the meta table (build time, fold version)."""
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    def counts(self) -> sqlite.Row:
        """How many clauses and figures the index holds."""
        return self._row("SELECT (SELECT count(*) FROM nodes) AS sections, (SELECT count(*) FROM figures) AS figures")

    def nodes_by_keys(self, bundle_id: int, keys: list[str]) -> dict[str, sqlite.Row]:
        """The clauses of a bundle whose folded paths are among `keys`, by key (first in reading order)."""
        found: dict[str, sqlite.Row] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND path_key IN ({marks})"
            for row in sorted(self._all(sql, (bundle_id, *chunk)), key=lambda row: row["ord"]):  # see nodes_in_bundles
                found.setdefault(row["path_key"], row)
        return found

    def node_by_node_id(self, bundle_id: int, node_id: str) -> sqlite.Row | None:
        """The clause of a bundle with the stable `nodeId` (MD5 of code|edition|path), if any."""
        return self._row(f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND node_id = ?", (bundle_id, node_id))

    def nodes_in_bundles(self, keys: list[str], bundle_ids: list[int]) -> list[sqlite.Row]:
        """The clauses whose folded path is one of `keys`, in any of the bundles, in bundle order."""
        if not keys or not bundle_ids:
            return []
        sql = (
            f"SELECT {NODE_COLUMNS} FROM nodes WHERE path_key IN ({','.join('?' * len(keys))}) "
            f"AND bundle_id IN ({','.join('?' * len(bundle_ids))})"
        )
        # Sorted here: asked to ORDER BY, SQLite walks every clause of the bundles in the (bundle, ord)
        # index instead of looking the keys up (47 ms instead of 1 ms over 200 bundles).
        return sorted(self._all(sql, (*keys, *bundle_ids)), key=lambda row: (row["bundle_id"], row["ord"]))

    def node_text(self, node_row_id: int) -> str:
        """The own text of a clause. The last long one is kept: a reader pages through it window by
        window, and unpacking a clause of a million characters takes 5 ms each time."""
        version = self.data_version()
        if self._long_text is not None and self._long_text[:2] == (version, node_row_id):
            return self._long_text[2]
        row = self._one("SELECT text FROM nodes WHERE id = ?", (node_row_id,))
        text = self.packer.unpack(row[0]) if row else ""
        if len(text) > LONG_TEXT:
            self._long_text = (version, node_row_id, text)
        return text

    def forget_texts(self) -> None:
        """Drop the long clause kept by `node_text`, so that the next read of it unpacks it again."""
        self._long_text = None

    def nodes_by_ids(self, ids: list[int]) -> dict[int, sqlite.Row]:
        """Clauses by row id."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        rows = self._all(f"SELECT {NODE_COLUMNS} FROM nodes WHERE id IN ({marks})", ids)
        return {row["id"]: row for row in rows}

    def texts(self, ids: list[int]) -> dict[int, str]:
        """The own text of clauses, by row id."""
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        return {row[0]: self.packer.unpack(row[1]) for row in self._all(f"SELECT id, text FROM nodes WHERE id IN ({marks})", ids)}

    def outline(self, bundle_id: int, max_depth: int | None = None) -> list[sqlite.Row]:
        """A bundle's clauses in reading order, down to `max_depth` when given."""
        if max_depth is None:
            return self._all(f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? ORDER BY ord", (bundle_id,))
        return self._all(f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND depth <= ? ORDER BY ord", (bundle_id, max_depth))

    def descendants(self, bundle_id: int, root: sqlite.Row, max_depth: int | None) -> list[sqlite.Row]:
        """The clause `root` and every clause below it, in reading order."""
        end = self._row(
            "SELECT min(ord) FROM nodes WHERE bundle_id = ? AND ord > ? AND depth <= ?",
            (bundle_id, root["ord"], root["depth"]),
        )[0]
        limit_depth = root["depth"] + max_depth if max_depth is not None else 1 << 30
        return self._all(
            f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND ord >= ? AND ord < ? AND depth <= ? ORDER BY ord",
            (bundle_id, root["ord"], end if end is not None else 1 << 62, limit_depth),
        )

    def mentions(self, keys: list[str], bundle_ids: list[int], limit: int) -> list[int]:
        """Clause row ids, in reading order, of the allowed bundles whose text refers to their own clause
        with one of the folded paths `keys`."""
        sql = (
            f"SELECT DISTINCT node_row FROM xrefs WHERE target_key IN ({','.join('?' * len(keys))}) AND target_code IS NULL "
            f"AND target_kind IN ('clause', 'annex') AND bundle_id IN ({','.join('?' * len(bundle_ids))}) ORDER BY node_row LIMIT ?"
        )
        return [row[0] for row in self._all(sql, (*keys, *bundle_ids, limit))]

    def children(self, bundle_id: int, node: sqlite.Row) -> list[sqlite.Row]:
        """The direct children of a clause, in order: read from the clauses after it up to the next
        one at its level or above, so that a leaf costs one row, not a scan of its norm."""
        rows = self.connection.execute(
            "SELECT path, title, depth, parent_path FROM nodes WHERE bundle_id = ? AND ord > ? ORDER BY ord", (bundle_id, node["ord"])
        )
        try:
            children = []
            for row in rows:
                if row["depth"] <= node["depth"]:
                    break
                if row["parent_path"] == node["path"]:
                    children.append(row)
            return children
        finally:
            rows.close()

    def neighbour(self, bundle_id: int, ord_: int, step: int) -> sqlite.Row | None:
        """The clause before (`step` -1) or after (+1) in reading order."""
        if step > 0:
            sql = f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND ord > ? ORDER BY ord LIMIT 1"
        else:
            sql = f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND ord < ? ORDER BY ord DESC LIMIT 1"
        return self._one(sql, (bundle_id, ord_))

    def figures(self, bundle_id: int, node_path: str | None = None) -> list[sqlite.Row]:
        """The figures of a bundle, or of one clause."""
        if node_path is None:
            return self._all("SELECT * FROM figures WHERE bundle_id = ? ORDER BY rowid", (bundle_id,))
        return self._all("SELECT * FROM figures WHERE bundle_id = ? AND node_path = ? ORDER BY rowid", (bundle_id, node_path))

    def tables(self, bundle_id: int, node_path: str | None = None) -> list[sqlite.Row]:
        """The tables of a bundle, or of one clause."""
        if node_path is None:
            return self._all("SELECT * FROM norm_tables WHERE bundle_id = ? ORDER BY rowid", (bundle_id,))
        return self._all("SELECT * FROM norm_tables WHERE bundle_id = ? AND node_path = ? ORDER BY rowid", (bundle_id, node_path))

    def formulas(self, bundle_id: int, node_path: str) -> list[sqlite.Row]:
        """The display formulas of one clause."""
        return self._all("SELECT * FROM formulas WHERE bundle_id = ? AND node_path = ? ORDER BY rowid", (bundle_id, node_path))

    def xrefs(self, node_row: int, span: tuple[int, int] | None = None) -> list[sqlite.Row]:
        """The cross-references found in one clause, within `span` of its text when given."""
        if span is None:
            return self._all("SELECT * FROM xrefs WHERE node_row = ? ORDER BY ord", (node_row,))
        return self._all("SELECT * FROM xrefs WHERE node_row = ? AND position >= ? AND position < ? ORDER BY ord", (node_row, *span))

    def bundle_xrefs(self, bundle_id: int) -> list[sqlite.Row]:
        """Every cross-reference of a bundle, in order."""
        return self._all("SELECT * FROM xrefs WHERE bundle_id = ? ORDER BY rowid", (bundle_id,))

    def id_range(self, bundle_id: int) -> tuple[int, int]:
        """The first and last clause row id of a bundle (they are contiguous)."""
        row = self._row("SELECT min(id), max(id) FROM nodes WHERE bundle_id = ?", (bundle_id,))
        return (row[0] or 0, row[1] or -1)

    def match(self, query: str, limit: int, id_range: tuple[int, int] | None = None, titles: bool = False) -> list[int]:
        """Clause row ids matching an FTS5 query in their title and text (a title match weighted), or
        in their `titles` only, best first (bm25)."""
        table, rank = (TITLES_TABLE, f"bm25({TITLES_TABLE})") if titles else (FTS_TABLE, RANK)
        if id_range is None:
            sql = f"SELECT rowid FROM {table} WHERE {table} MATCH ? ORDER BY {rank} LIMIT ?"
            return [row[0] for row in self._all(sql, (query, limit))]
        sql = f"SELECT rowid FROM {table} WHERE {table} MATCH ? AND rowid BETWEEN ? AND ? ORDER BY {rank} LIMIT ?"
        return [row[0] for row in self._all(sql, (query, id_range[0], id_range[1], limit))]

    def words_containing(self, word: str, limit: int) -> list[str]:
        """Indexed words that hold `word` inside them but do not start with it (a prefix query finds
        those): `gefalle` → `langsgefalle`, shortest first."""
        rows = self._all(f"SELECT term FROM {TERMS_FTS} WHERE {TERMS_FTS} MATCH ? LIMIT ?", (f'"{word}"', 4 * limit))
        return sorted((row[0] for row in rows if not row[0].startswith(word)), key=len)[:limit]

    def match_sampled(self, query: str, limit: int) -> list[int]:
        """Like `match` over the whole library, but a query that matches more than RANK_AT_MOST clauses
        is ranked among about that many of them: every n-th clause by row id, so every norm has its
        share. FTS5 scores every match before it sorts (about 1 µs each: 60 ms for a word in 84,000
        of 200,000 clauses); the best of an even sample that large serves a reader as well."""
        # The first matches in row order, which FTS5 yields without scoring them: if there are few,
        # all are ranked; else how densely they lie tells how many there are in all.
        first = self._all(f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ? LIMIT ?", (query, RANK_AT_MOST + 1))
        if len(first) <= RANK_AT_MOST:
            return self.match(query, limit)
        low, last = first[0][0], first[-1][0]
        high = self._row("SELECT max(id) FROM nodes")[0]
        every = max(2, round((high - low + 1) / (last - low + 1)))
        sql = f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ? AND rowid % ? = 0 ORDER BY {RANK} LIMIT ?"
        sampled = [row[0] for row in self._all(sql, (query, every, limit))]
        # The first matches may lie denser than the rest (one norm full of the word): a sample too
        # small for the page gives way to ranking them all.
        return sampled if len(sampled) >= limit else self.match(query, limit)

    def incoming(self, norm_key: str, keys: list[str], paragraphs_of: str | None = None) -> list[sqlite.Row]:
        """The references, in every bundle, to a clause of the norm `norm_key` whose folded path is one of
        `keys` (or, with `paragraphs_of`, a numbered paragraph below that path), with the clause that
        makes each: an index lookup on (target_norm, target_ref), not a scan."""
        if not keys:
            return []
        wanted = f"x.target_ref IN ({','.join('?' * len(keys))})"
        params: list[object] = [norm_key, *keys]
        if paragraphs_of:
            # '/' sorts right after '.', so this range is every key that starts with `paragraphs_of.`
            wanted = f"({wanted} OR (x.target_ref > ? AND x.target_ref < ?))"
            params += [f"{paragraphs_of}.", f"{paragraphs_of}/"]
        sql = (
            "SELECT x.bundle_id, x.node_row, x.ord, x.text, x.target_code, x.target_path, n.path, n.title, n.page_start, n.ord AS node_ord "
            f"FROM xrefs x JOIN nodes n ON n.id = x.node_row WHERE x.target_norm = ? AND {wanted} AND x.target_ref IS NOT NULL"
        )
        return sorted(self._all(sql, params), key=lambda row: (row["bundle_id"], row["node_ord"], row["ord"]))

    def definitions(self, keys: list[str], stems: list[str], pattern: str | None, limit: int) -> list[sqlite.Row]:
        """Definitions whose term is one of `keys` or `stems` (index lookups), then, with `pattern` (a
        LIKE pattern over folded words), up to `limit` more whose term or definition holds it."""
        columns = "d.bundle_id, d.node_row, d.term, d.kind, d.term_key, d.definition, n.path, n.title, n.page_start"
        found: dict[tuple[int, int], sqlite.Row] = {}
        for column, values in (("term_key", keys), ("stem_key", stems)):
            if values:
                sql = f"SELECT d.rowid AS rid, {columns} FROM definitions d JOIN nodes n ON n.id = d.node_row WHERE d.{column} IN ({','.join('?' * len(values))})"
                for row in self._all(sql, values):
                    found.setdefault((row["bundle_id"], row["rid"]), row)
        if pattern:
            sql = (
                f"SELECT d.rowid AS rid, {columns} FROM definitions d JOIN nodes n ON n.id = d.node_row "
                "WHERE d.term_key LIKE ? OR d.definition_key LIKE ? LIMIT ?"
            )
            for row in self._all(sql, (pattern, pattern, limit)):
                found.setdefault((row["bundle_id"], row["rid"]), row)
        return list(found.values())

    def defined_terms(self, bundle_id: int) -> list[sqlite.Row]:
        """Every definition of a bundle, in reading order (for exports)."""
        return self._all(
            "SELECT d.term, d.kind, d.definition, n.path FROM definitions d JOIN nodes n ON n.id = d.node_row WHERE d.bundle_id = ? ORDER BY d.ord",
            (bundle_id,),
        )
