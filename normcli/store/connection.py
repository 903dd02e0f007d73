"""The index file as every read session holds it: one read-only connection, its snapshots, and what the
freshness check compares with the files. The norm reads' questions (`store.queries.Index`) extend it;
a spec call (`discovery.session`) reads through it and the spec queries without loading those."""

from __future__ import annotations

import os

from normcli.store import sqlite
from normcli.store.schema import is_ours, read_only_uri


class IndexConnection:
    """A read-only connection to the index, with the snapshots and the bundle fingerprints every session uses."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self.connection = sqlite.connect(read_only_uri(path), uri=True, timeout=30, check_same_thread=False)
        self.connection.row_factory = sqlite.Row
        self.inode = os.stat(path).st_ino

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

    def is_ours(self) -> bool:
        """Whether the file is a normcli index of this schema version (raises on a non-database)."""
        return is_ours(self.connection)

    def fingerprints(self) -> dict[str, tuple[int, int]]:
        """Each bundle file's (mtime_ns, size) as indexed: what the freshness check compares with the files."""
        return {file: (mtime, size) for file, mtime, size in self.connection.execute("SELECT file, mtime_ns, size FROM bundles")}

    def bundles(self) -> list[sqlite.Row]:
        """Every bundle file, readable or not, in file order."""
        return self.connection.execute("SELECT * FROM bundles ORDER BY file").fetchall()
