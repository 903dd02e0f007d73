"""The part of the `sqlite3` API that the read path uses, without the `sqlite3` package's start-up.

`import sqlite3` runs `sqlite3.dbapi2`, which registers adapters and converters for `datetime`
values and so imports `datetime`, `time` and `collections.abc`: about 1.5 ms of every call's
start-up, a tenth of what a `--json` read costs above the interpreter's own. The read path binds
and reads only str, int, float, bytes and None and never sets `detect_types`, so it needs none of
them (nor the only other thing dbapi2 does, registering `Row` as a `collections.abc.Sequence`:
nothing here asks). `_sqlite3` is the extension module that `sqlite3` re-exports: `connect`, `Row`
and the exception classes are the very same objects, so `except sqlite3.DatabaseError` elsewhere
still catches what a connection made here raises. An interpreter without it falls back to `sqlite3`.

Writers (`store.build`, `store.spec_build`) use `sqlite3` itself: they run only when there is
something to write, and bind whatever the importers hand them.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from sqlite3 import Connection, DatabaseError, OperationalError, Row, connect
else:
    try:
        from _sqlite3 import Connection, DatabaseError, OperationalError, Row, connect
    except ImportError:  # pragma: no cover - an interpreter whose sqlite3 is not built on _sqlite3
        from sqlite3 import Connection, DatabaseError, OperationalError, Row, connect

__all__ = ["Connection", "DatabaseError", "OperationalError", "Row", "connect"]
