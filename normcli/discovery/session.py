"""The spec reads on their own, for `normcli api … --json`: the index kept fresh and read in one
snapshot per operation, without the norm service (its modules are a sixth of such a call's time).

A `SpecSession` offers the same discovery methods as `Service` (both mix in `SpecReads`) and runs
them the same way: one freshness check per operation, one read snapshot, a damaged index rebuilt
once and the operation run again.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from normcli.discovery.reads import SpecReads
from normcli.errors import WorkspaceError
from normcli.snapshot import in_snapshot
from normcli.store.queries import Index
from normcli.store.refresh import refresh
from normcli.workspace import locate

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")


class SpecSession(SpecReads):
    """The discovery operations of SPEC §7 over one workspace, without the norm reads."""

    _wrap_read = staticmethod(in_snapshot)

    def __init__(self, root: Path) -> None:
        self.root = root
        self._index: Index | None = None
        self._in_operation = False
        self._checked = False

    @classmethod
    def open(cls, workspace: str | Path | None = None) -> SpecSession:
        """The session for `--workspace`, $NORMCLI_WORKSPACE, the folder we are in, or the sample."""
        return cls(locate(workspace).root)

    def close(self) -> None:
        """Release the index connection."""
        self._checked = False
        if self._index is not None:
            self._index.close()
            self._index = None

    def index(self) -> Index:
        """The index, checked once per operation for changed bundles and specs."""
        if self._checked and self._index is not None:
            return self._index
        try:
            done = refresh(self.root)
            if self._index is not None and done.path.stat().st_ino != self._index.inode:
                self.close()
            if self._index is None:
                self._index = Index(done.path)
            if self._in_operation:
                self._index.snapshot()
            self._checked = self._in_operation
        except sqlite3.DatabaseError as exc:
            raise WorkspaceError(f"the index cannot be read: {exc}", "run `normcli index --rebuild`") from exc
        return self._index
