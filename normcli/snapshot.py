"""How every read operation runs, for the norm service and the light spec session alike: the index
is checked for fresh bundles and specs once per call (not once per query inside it), the call reads
one snapshot of it, and an index that turns out to be damaged is rebuilt once and the call run again.

`ReadSession` holds the index of one workspace and its freshness check; `in_snapshot` wraps each read
operation of a session. Both run at every call's start-up: paths are plain strings here (a `Path` is
made only when a caller asks for `root`).
"""

from __future__ import annotations

import functools
import os
import time

from normcli.errors import WorkspaceError
from normcli.store.connection import IndexConnection
from normcli.store.refresh import index_location, refresh
from normcli.store.sqlite import DatabaseError
from normcli.workspace import Located, locate

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from pathlib import Path
    from typing import Any, Self, TypeVar

    from normcli.workspace import StrPath

    T = TypeVar("T")


class ReadSession:
    """The index of one workspace as read operations use it: opened once, checked once per operation
    for changed bundles and specs (`index()`), read in one snapshot per operation (`in_snapshot`)."""

    # What `index()` opens: the bare connection for the spec reads; the norm session's `Index` asks its questions.
    index_type: type[IndexConnection] = IndexConnection

    def __init__(self, located: Located) -> None:
        self.folder = located.folder
        self.is_sample = located.is_sample
        self._index: IndexConnection | None = None
        self._in_operation = False
        self._checked = False
        self._checked_at = 0.0
        # Seconds during which a long-running reader (batch) trusts its last freshness check.
        self.recheck_after = 0.0
        self._data_version = -1
        # Which spec files this operation checks: all, or only those its answer can be made of (a discovery
        # operation says so: `listings` or `search`; an endpoint's page then checks its own: `check_method_files`).
        self.spec_files = "all"

    @classmethod
    def open(cls, workspace: StrPath | None = None) -> Self:
        """The session for `--workspace`, $NORMCLI_WORKSPACE, the folder we are in, or the sample."""
        return cls(locate(workspace))

    @property
    def root(self) -> Path:
        """The workspace folder as a Path (made when asked: the read path works on `folder`)."""
        from pathlib import Path

        return Path(self.folder)

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        """Release the index connection."""
        self._checked = False
        if self._index is not None:
            self._index.close()
            self._index = None

    def index(self) -> IndexConnection:
        """The index, refreshed for every bundle and spec that changed since the last operation."""
        if self._checked and self._index is not None:
            return self._index
        try:
            if self._index is None or time.monotonic() - self._checked_at >= self.recheck_after:
                if self._index is None:
                    known = self._open_existing()
                    # Just opened, so the very file: it also reads what the index recorded of the specs (no second
                    # connection). A session's older connection may hold a file another process has since replaced.
                    just_opened = self._index.connection if self._index is not None else None
                else:
                    known, just_opened = self._known_bundles(), None
                done = refresh(self.folder, known=known, open_index=just_opened, spec_files=self.spec_files)
                self._checked_at = time.monotonic()
                if self._index is not None and (done.indexed or done.removed or done.rebuilt or self._replaced(done.location)):
                    self.close()
                if self._index is None:
                    self._index = self.index_type(done.location)
                    self._data_version = -1
            # Another process may have refreshed the index in place: what a session keeps of it is read
            # again when the data changed, inside the snapshot the whole operation reads.
            data_version = self._index.snapshot() if self._in_operation else self._index.data_version()
            if data_version != self._data_version:
                self._data_version = data_version
                self._data_changed(self._index)
            self._checked = self._in_operation
        except DatabaseError as exc:
            raise WorkspaceError(f"the index cannot be read: {exc}", part="index") from exc
        return self._index

    def _open_existing(self) -> dict[str, tuple[int, int]] | None:
        """Open the index that is there when it is ours, and return its bundles' fingerprints: the freshness
        check compares the files with them, and a call that finds nothing changed opens no second
        connection (each costs a parse of the schema). None when there is no index to trust: `refresh`
        then reads, builds or rebuilds as it must."""
        location = index_location(self.folder)
        if not os.path.isfile(location) or os.path.islink(location):  # a link could lead out of the workspace
            return None
        index = None
        try:
            index = self.index_type(location)
            if not index.is_ours():
                index.close()
                return None
            known = index.fingerprints()
        except DatabaseError:
            if index is not None:
                index.close()
            return None
        self._index, self._data_version = index, -1
        return known

    def _replaced(self, location: str) -> bool:
        """Whether the index file is no longer the one open (a rebuild swaps a new file in)."""
        try:
            return self._index is not None and os.stat(location).st_ino != self._index.inode
        except OSError:
            return True

    def _known_bundles(self) -> dict[str, tuple[int, int]]:
        """The bundle fingerprints of the open index, to compare with the files."""
        assert self._index is not None
        return self._index.fingerprints()

    def _data_changed(self, index: IndexConnection) -> None:
        """Called inside the snapshot when the index's data changed: drop what was derived from it."""

    def _restart(self, spec_files: str) -> None:
        """Start the running operation again: a new freshness check (of the spec files named) and a new snapshot."""
        if self._index is not None:
            self._index.end_snapshot()
        self._checked, self._checked_at = False, 0.0
        self.spec_files = spec_files

    def check_method_files(self, domain: str, lists: tuple[str, str, str, str], positions: str) -> None:
        """After a check of the listings' files only: make sure the other files an endpoint's page is made of
        (`positions` in its domain's search and more files, `lists` with their stamps) are as the index read
        them, else run the operation again after a check of every file (`SpecFilesChanged`, caught by `in_snapshot`)."""
        if self.spec_files == "all":
            return
        from normcli.store.spec_refresh import method_files_changed

        if method_files_changed(self.folder, domain, lists, positions):
            raise SpecFilesChanged


def spec_scope(spec_files: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Declare which spec files a read operation's answer can be made of, so that its freshness check stats
    only those: `none` (an answer of the norms alone), `listings`, `search` or `all` (docs/specs.md)."""

    def mark(operation: Callable[..., T]) -> Callable[..., T]:
        operation.spec_files = spec_files  # type: ignore[attr-defined]  # read by `in_snapshot`
        return operation

    return mark


class SpecFilesChanged(Exception):
    """A file an endpoint's page is made of changed: its operation runs again after a check of every spec file."""


def in_snapshot(operation: Callable[..., T]) -> Callable[..., T]:
    """Wrap a read operation of a `ReadSession`: one freshness check, one snapshot, a damaged index rebuilt once,
    and an operation that found a file of its answer changed past the first check run again after a full one."""

    # An operation checks only the spec files its answer can be made of (`spec_scope`; undeclared, all of them). A
    # reader that trusts its last check for a while (batch) checks all: the next operation may need the others.
    scope = getattr(operation, "spec_files", "all")

    @functools.wraps(operation)
    def run(self: Any, *args: Any, **kwargs: Any) -> T:
        if self._in_operation:
            return operation(self, *args, **kwargs)
        self._in_operation, self._checked = True, False
        self.spec_files = "all" if self.recheck_after > 0 else scope
        try:
            try:
                try:
                    return operation(self, *args, **kwargs)
                except SpecFilesChanged:
                    self._restart("all")
                    return operation(self, *args, **kwargs)
            except DatabaseError:
                self.close()
                refresh(self.folder, rebuild=True)
                self.spec_files = "all"  # everything was just read: nothing for an endpoint to find changed
                return operation(self, *args, **kwargs)
        finally:
            self._in_operation = False
            self.spec_files = "all"
            if self._index is not None:
                self._index.end_snapshot()

    return run
