"""One workspace's index as the norm read operations use it (opened once, checked for fresh bundles
once per operation, rebuilt once if it turns out damaged: `snapshot.ReadSession`), with the catalogue
of norms and the resolver of cross-references made from it, kept until the index changes."""

from __future__ import annotations

import time

from normcli import results as r
from normcli.catalogue import Catalogue, Version, version_of
from normcli.snapshot import ReadSession
from normcli.store.queries import Index
from normcli.store.refresh import refresh
from normcli.workspace import Located, Settings, read_settings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import sqlite3

    from normcli.resolve import References
    from normcli.store.connection import IndexConnection


class IndexSession(ReadSession):
    """The index of one workspace and what is derived from it, for the operations of `Service`
    (the freshness check and the snapshots are `ReadSession`'s)."""

    def __init__(self, located: Located) -> None:
        super().__init__(located)
        self.settings: Settings = read_settings(self.folder)
        self._bundles: list[sqlite3.Row] = []
        self._catalogue: Catalogue | None = None
        # The resolved references of the last clauses read: every window of a clause lists them all (SPEC §6),
        # and a reader paging through a long clause should resolve them once, not once per window.
        self._clause_refs: dict[tuple[int, int], tuple[r.ResolvedRef, ...]] = {}

    # -- the index and what it holds -------------------------------------------------------

    index_type = Index

    def index(self) -> Index:
        """The index with the norm reads' questions, refreshed for every bundle and spec that changed."""
        return super().index()  # type: ignore[return-value]  # opened as `index_type`

    def _known_bundles(self) -> dict[str, tuple[int, int]]:
        return {row["file"]: (row["mtime_ns"], row["size"]) for row in self._bundles}

    def _data_changed(self, index: IndexConnection) -> None:
        self._bundles = index.bundles()
        self._catalogue = None
        self._clause_refs = {}

    def catalogue(self) -> Catalogue:
        """The norms, editions and language versions of the fresh index (made again when it changes)."""
        self.index()
        if self._catalogue is None:
            self._catalogue = Catalogue(self._bundles, self.settings.language)
        return self._catalogue

    def references(self) -> References:
        """The resolver of stored cross-references against this workspace."""
        from normcli.resolve import References

        return References(self.index(), self.catalogue())

    def forget_texts(self) -> None:
        """Drop the clause texts kept between calls (a benchmark measures a first read with it)."""
        if isinstance(self._index, Index):
            self._index.forget_texts()

    def rebuild(self, force: bool = True) -> r.IndexResult:
        """`index`: refresh the index, or rebuild it from scratch with `force`."""
        started = time.perf_counter()
        self.close()
        done = refresh(self.folder, rebuild=force)
        return r.IndexResult(done.location, done.indexed, done.removed, done.rebuilt, time.perf_counter() - started)

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
