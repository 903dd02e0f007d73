"""How every read operation runs, for the norm service and the light spec session alike: the index
is checked for fresh bundles once per call (not once per query inside it), the call reads one
snapshot of it, and an index that turns out to be damaged is rebuilt once and the call run again."""

from __future__ import annotations

import functools
import sqlite3

from normcli.store.refresh import refresh

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")


def in_snapshot(operation: Callable[..., T]) -> Callable[..., T]:
    """Wrap a read operation of an object with `root`, `_index`, `_in_operation`, `_checked` and `close()`."""

    @functools.wraps(operation)
    def run(self: Any, *args: Any, **kwargs: Any) -> T:
        if self._in_operation:
            return operation(self, *args, **kwargs)
        self._in_operation, self._checked = True, False
        try:
            try:
                return operation(self, *args, **kwargs)
            except sqlite3.DatabaseError:
                self.close()
                refresh(self.root, rebuild=True)
                return operation(self, *args, **kwargs)
        finally:
            self._in_operation = False
            if self._index is not None:
                self._index.end_snapshot()

    return run
