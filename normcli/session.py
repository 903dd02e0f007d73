"""One workspace's index as the read operations use it: opened once, checked for fresh bundles
once per operation, rebuilt once if it turns out damaged; with the catalogue of norms and the
resolver of cross-references made from it, kept until the index changes."""

from __future__ import annotations

import sqlite3
import time
from pathlib import Path

from normcli import results as r
from normcli.catalogue import Catalogue, Version, version_of
from normcli.errors import WorkspaceError
from normcli.resolve import References
from normcli.store.queries import Index
from normcli.store.refresh import refresh
from normcli.workspace import Located, Settings, locate, read_settings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")
    S = TypeVar("S", bound="IndexSession")


class IndexSession:
    """The index of one workspace and what is derived from it, for the operations of `Service`."""

    def __init__(self, located: Located) -> None:
        self.root = located.root
        self.is_sample = located.is_sample
        self.settings: Settings = read_settings(self.root)
        self._index: Index | None = None
        self._bundles: list[sqlite3.Row] = []
        self._catalogue: Catalogue | None = None
        # The resolved references of the last clauses read: every window of a clause lists them all (SPEC §6),
        # and a reader paging through a long clause should resolve them once, not once per window.
        self._clause_refs: dict[tuple[int, int], tuple[r.ResolvedRef, ...]] = {}
        self._in_operation = False
        self._checked = False
        self._checked_at = 0.0
        # Seconds during which a long-running reader (batch) trusts its last freshness check.
        self.recheck_after = 0.0
        self._data_version = -1

    @classmethod
    def open(cls: type[S], workspace: str | Path | None = None) -> S:
        """The session for `--workspace`, $NORMCLI_WORKSPACE, the folder we are in, or the sample."""
        return cls(locate(workspace))

    def close(self) -> None:
        """Release the index connection."""
        self._checked = False
        if self._index is not None:
            self._index.close()
            self._index = None

    # -- the index and what it holds -------------------------------------------------------

    def index(self) -> Index:
        """The index, refreshed for every bundle that changed since the last operation."""
        if self._checked and self._index is not None:
            return self._index
        try:
            if self._index is None or time.monotonic() - self._checked_at >= self.recheck_after:
                known = {row["file"]: (row["mtime_ns"], row["size"]) for row in self._bundles} if self._index is not None else None
                done = refresh(self.root, known=known)
                self._checked_at = time.monotonic()
                if self._index is not None and (done.indexed or done.removed or done.rebuilt or self._stale(done.path)):
                    self.close()
                if self._index is None:
                    self._index = Index(done.path)
                    self._data_version = -1
            # Another process may have refreshed the index in place: the bundle rows (and their ids)
            # are read again when the data changed, inside the snapshot the whole operation reads.
            data_version = self._index.snapshot() if self._in_operation else self._index.data_version()
            if data_version != self._data_version:
                self._bundles, self._data_version = self._index.bundles(), data_version
                self._catalogue = None
                self._clause_refs = {}
            self._checked = self._in_operation
        except sqlite3.DatabaseError as exc:
            raise WorkspaceError(f"the index cannot be read: {exc}", part="index") from exc
        return self._index

    def _stale(self, path: Path) -> bool:
        try:
            return self._index is not None and path.stat().st_ino != self._index.inode
        except OSError:
            return True

    def catalogue(self) -> Catalogue:
        """The norms, editions and language versions of the fresh index (made again when it changes)."""
        self.index()
        if self._catalogue is None:
            self._catalogue = Catalogue(self._bundles, self.settings.language)
        return self._catalogue

    def references(self) -> References:
        """The resolver of stored cross-references against this workspace."""
        return References(self.index(), self.catalogue())

    def forget_texts(self) -> None:
        """Drop the clause texts kept between calls (a benchmark measures a first read with it)."""
        if self._index is not None:
            self._index.forget_texts()

    def rebuild(self, force: bool = True) -> r.IndexResult:
        """`index`: refresh the index, or rebuild it from scratch with `force`."""
        started = time.perf_counter()
        self.close()
        done = refresh(self.root, rebuild=force)
        return r.IndexResult(str(done.path), done.indexed, done.removed, done.rebuilt, time.perf_counter() - started)

    def unreadable_bundles(self) -> list[str]:
        """The bundle files that could not be read (`check` says why), in file order."""
        return self.catalogue().unreadable()

    def hidden_bundles(self) -> dict[str, str]:
        """Bundles not read because another declares the same norm, edition and language: file → the file read."""
        return dict(self.catalogue().hidden)

    def version(self, code: str, edition: str | None = None, language: str | None = None) -> Version:
        """The bundle a per-norm read uses: newest published edition and preferred language by default."""
        return self.catalogue().version(code, edition, language)

    def version_of(self, bundle: sqlite3.Row, rows: list[sqlite3.Row]) -> Version:
        """The `Version` of one bundle row, given the rows of all languages of its edition."""
        return version_of(bundle, rows)

    def resolve_refs(self, version: Version, rows: list[sqlite3.Row]) -> tuple[r.ResolvedRef, ...]:
        """Where each stored reference of `version` leads in this workspace, the resolvable ones first."""
        return self.references().resolve(version, rows)

    def clause_refs(self, version: Version, node_row: int) -> tuple[r.ResolvedRef, ...]:
        """The resolved references of a whole clause, kept for the few clauses read last."""
        key = (version.bundle_id, node_row)
        refs = self._clause_refs.get(key)
        if refs is None:
            refs = self.resolve_refs(version, self.index().xrefs(node_row))
            if len(self._clause_refs) >= 8:
                self._clause_refs.pop(next(iter(self._clause_refs)))
            self._clause_refs[key] = refs
        return refs

    def resolve_each(self, version: Version, rows: list[sqlite3.Row]) -> list[r.ResolvedRef]:
        """Where each stored reference of `version` leads, in the order of `rows`."""
        return self.references().resolve_each(version, rows)
