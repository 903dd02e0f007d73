"""Every read the service makes of the index, on the standard `sqlite3` module (cheap to import)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from pathlib import Path

from normcli.store.schema import FTS_TABLE, TEXT_DICTIONARY_KEY, TextPacker, read_only_uri

NODE_COLUMNS = "id, bundle_id, ord, node_id, path, path_key, title, depth, line, parent_path, child_count, page_start, page_end, summary"


class Index:
    """A read-only connection to the index with one method per question the service asks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connection = sqlite3.connect(read_only_uri(path), uri=True, timeout=30, check_same_thread=False)
        self.connection.row_factory = sqlite3.Row
        self.inode = path.stat().st_ino
        self._packer: TextPacker | None = None

    @property
    def packer(self) -> TextPacker:
        """What unpacks the stored clause texts (its dictionary is read once, at the first text)."""
        if self._packer is None:
            row = self._one("SELECT value FROM meta WHERE key = ?", (TEXT_DICTIONARY_KEY,))
            self._packer = TextPacker(row[0] if row else b"")
        return self._packer

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()

    def snapshot(self) -> int:
        """Start a read transaction, so that every query of one operation sees the same index even while
        another process commits; return SQLite's data version, which changes with each such commit."""
        if not self.connection.in_transaction:
            self.connection.execute("BEGIN")
            self.connection.execute("PRAGMA schema_version").fetchone()  # takes the read lock now
        return self.data_version()

    def data_version(self) -> int:
        """SQLite's data version for this connection: it changes when another connection commits."""
        return self.connection.execute("PRAGMA data_version").fetchone()[0]

    def end_snapshot(self) -> None:
        """End the read transaction of `snapshot`, letting writers commit."""
        if self.connection.in_transaction:
            self.connection.rollback()

    def _all(self, sql: str, params: Iterable = ()) -> list[sqlite3.Row]:
        return self.connection.execute(sql, tuple(params)).fetchall()

    def _one(self, sql: str, params: Iterable = ()) -> sqlite3.Row | None:
        return self.connection.execute(sql, tuple(params)).fetchone()

    def _row(self, sql: str, params: Iterable = ()) -> sqlite3.Row:
        """The single row of an aggregate query, which always has one."""
        row = self.connection.execute(sql, tuple(params)).fetchone()
        assert row is not None
        return row

    def meta(self, key: str) -> str | None:
        """A value of the meta table (build time, fold version)."""
        row = self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return row[0] if row else None

    def bundles(self) -> list[sqlite3.Row]:
        """Every bundle file, readable or not, in file order."""
        return self._all("SELECT * FROM bundles ORDER BY file")

    def counts(self) -> sqlite3.Row:
        """How many clauses and figures the index holds."""
        return self._row("SELECT (SELECT count(*) FROM nodes) AS sections, (SELECT count(*) FROM figures) AS figures")

    def nodes_by_keys(self, bundle_id: int, keys: list[str]) -> dict[str, sqlite3.Row]:
        """The clauses of a bundle whose folded paths are among `keys`, by key (first in reading order)."""
        found: dict[str, sqlite3.Row] = {}
        for start in range(0, len(keys), 500):
            chunk = keys[start : start + 500]
            marks = ",".join("?" * len(chunk))
            sql = f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND path_key IN ({marks}) ORDER BY ord"
            for row in self._all(sql, (bundle_id, *chunk)):
                found.setdefault(row["path_key"], row)
        return found

    def nodes_in_bundles(self, keys: list[str], bundle_ids: list[int]) -> list[sqlite3.Row]:
        """The clauses whose folded path is one of `keys`, in any of the bundles, in bundle order."""
        if not keys or not bundle_ids:
            return []
        sql = (
            f"SELECT {NODE_COLUMNS} FROM nodes WHERE path_key IN ({','.join('?' * len(keys))}) "
            f"AND bundle_id IN ({','.join('?' * len(bundle_ids))}) ORDER BY bundle_id, ord"
        )
        return self._all(sql, (*keys, *bundle_ids))

    def node_text(self, node_row_id: int) -> str:
        """The own text of a clause."""
        row = self._one("SELECT text FROM nodes WHERE id = ?", (node_row_id,))
        return self.packer.unpack(row[0]) if row else ""

    def nodes_by_ids(self, ids: list[int]) -> dict[int, sqlite3.Row]:
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

    def outline(self, bundle_id: int, max_depth: int | None = None) -> list[sqlite3.Row]:
        """A bundle's clauses in reading order, down to `max_depth` when given."""
        if max_depth is None:
            return self._all(f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? ORDER BY ord", (bundle_id,))
        return self._all(f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND depth <= ? ORDER BY ord", (bundle_id, max_depth))

    def descendants(self, bundle_id: int, root: sqlite3.Row, max_depth: int | None) -> list[sqlite3.Row]:
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

    def mentions(self, key: str, bundle_ids: list[int], limit: int) -> list[int]:
        """Clause row ids, in reading order, of the allowed bundles whose text refers to their own clause `key`."""
        marks = ",".join("?" * len(bundle_ids))
        sql = (
            "SELECT DISTINCT node_row FROM xrefs WHERE target_key = ? AND target_code IS NULL "
            f"AND target_kind IN ('clause', 'annex') AND bundle_id IN ({marks}) ORDER BY node_row LIMIT ?"
        )
        return [row[0] for row in self._all(sql, (key, *bundle_ids, limit))]

    def children(self, bundle_id: int, path: str) -> list[sqlite3.Row]:
        """The direct children of a clause, in order."""
        return self._all("SELECT path, title FROM nodes WHERE bundle_id = ? AND parent_path = ? ORDER BY ord", (bundle_id, path))

    def neighbour(self, bundle_id: int, ord_: int, step: int) -> sqlite3.Row | None:
        """The clause before (`step` -1) or after (+1) in reading order."""
        if step > 0:
            sql = f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND ord > ? ORDER BY ord LIMIT 1"
        else:
            sql = f"SELECT {NODE_COLUMNS} FROM nodes WHERE bundle_id = ? AND ord < ? ORDER BY ord DESC LIMIT 1"
        return self._one(sql, (bundle_id, ord_))

    def figures(self, bundle_id: int, node_path: str | None = None) -> list[sqlite3.Row]:
        """The figures of a bundle, or of one clause."""
        if node_path is None:
            return self._all("SELECT * FROM figures WHERE bundle_id = ? ORDER BY rowid", (bundle_id,))
        return self._all("SELECT * FROM figures WHERE bundle_id = ? AND node_path = ? ORDER BY rowid", (bundle_id, node_path))

    def tables(self, bundle_id: int, node_path: str | None = None) -> list[sqlite3.Row]:
        """The tables of a bundle, or of one clause."""
        if node_path is None:
            return self._all("SELECT * FROM norm_tables WHERE bundle_id = ? ORDER BY rowid", (bundle_id,))
        return self._all("SELECT * FROM norm_tables WHERE bundle_id = ? AND node_path = ? ORDER BY rowid", (bundle_id, node_path))

    def formulas(self, bundle_id: int, node_path: str) -> list[sqlite3.Row]:
        """The display formulas of one clause."""
        return self._all("SELECT * FROM formulas WHERE bundle_id = ? AND node_path = ? ORDER BY rowid", (bundle_id, node_path))

    def xrefs(self, node_row: int, span: tuple[int, int] | None = None) -> list[sqlite3.Row]:
        """The cross-references found in one clause, within `span` of its text when given."""
        if span is None:
            return self._all("SELECT * FROM xrefs WHERE node_row = ? ORDER BY ord", (node_row,))
        return self._all("SELECT * FROM xrefs WHERE node_row = ? AND position >= ? AND position < ? ORDER BY ord", (node_row, *span))

    def bundle_xrefs(self, bundle_id: int) -> list[sqlite3.Row]:
        """Every cross-reference of a bundle, in order."""
        return self._all("SELECT * FROM xrefs WHERE bundle_id = ? ORDER BY rowid", (bundle_id,))

    def id_range(self, bundle_id: int) -> tuple[int, int]:
        """The first and last clause row id of a bundle (they are contiguous)."""
        row = self._row("SELECT min(id), max(id) FROM nodes WHERE bundle_id = ?", (bundle_id,))
        return (row[0] or 0, row[1] or -1)

    def match(self, query: str, limit: int, id_range: tuple[int, int] | None = None) -> list[int]:
        """Clause row ids matching an FTS5 query, best first (bm25, titles weighted)."""
        if id_range is None:
            sql = f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ? ORDER BY rank LIMIT ?"
            return [row[0] for row in self._all(sql, (query, limit))]
        sql = f"SELECT rowid FROM {FTS_TABLE} WHERE {FTS_TABLE} MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank LIMIT ?"
        return [row[0] for row in self._all(sql, (query, id_range[0], id_range[1], limit))]
