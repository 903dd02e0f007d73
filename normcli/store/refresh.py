"""Keep the index in step with the bundles: a stat per bundle when nothing changed, a
transaction per refresh when some did, and a whole new file swapped in for a first build,
a `--rebuild`, or an index that is corrupt or not ours.

This module is on every call's path and imports nothing heavy; the builder is loaded only
when there is something to write. Writers take a file lock so that two processes never build
at once; readers never wait on it, and a writer waits on a stopped builder only to say so.
"""

from __future__ import annotations

import os
import time

from normcli.errors import WorkspaceError
from normcli.record import record
from normcli.store import schema
from normcli.store.sqlite import DatabaseError, connect
from normcli.workspace import SPECS_DIR, BundleFile, index_folder, list_bundle_files

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Iterator
    from contextlib import AbstractContextManager
    from pathlib import Path
    from sqlite3 import Connection

    from normcli.workspace import StrPath


@record
class Refresh:
    """What a freshness check did: where the index is and how many bundles it (re)indexed."""

    location: str  # the index file (a plain string: this runs at every call's start-up)
    indexed: int
    removed: int
    rebuilt: bool
    as_known: bool = False  # the bundles are exactly as the caller last saw them: its index is current

    @property
    def path(self) -> Path:
        """The index file as a Path (made when asked)."""
        from pathlib import Path

        return Path(self.location)


def index_location(root: StrPath) -> str:
    """Where the index file of `root` is (or is to be)."""
    return os.path.join(index_folder(root), schema.INDEX_FILE)


def _stored(path: str) -> dict[str, tuple[int, int]] | None:
    """The fingerprints the index holds, or None when there is no usable index (a symlink, which could
    lead out of the workspace, is not one: it is replaced by a real file)."""
    if not os.path.isfile(path) or os.path.islink(path):
        return None
    try:
        connection = connect(schema.read_only_uri(path), uri=True, timeout=30)
        try:
            if not schema.is_ours(connection):
                return None
            rows = connection.execute("SELECT file, mtime_ns, size FROM bundles").fetchall()
        finally:
            connection.close()
    except DatabaseError:
        return None
    return {file: (mtime, size) for file, mtime, size in rows}


def _changes(stored: dict[str, tuple[int, int]], files: list[BundleFile]) -> tuple[list[BundleFile], list[str]]:
    """Files to (re)index, and files to forget."""
    on_disk = {file.relative for file in files}
    removed = [name for name in stored if name not in on_disk]
    changed = [file for file in files if stored.get(file.relative) != (file.mtime_ns, file.size)]
    return changed, removed


def _writer_lock(folder: StrPath) -> AbstractContextManager[None]:
    """The builders' lock on the index folder, held while one process writes (a context)."""
    import contextlib  # only when there is something to write: a read loads no contextlib (the console script pays for none)

    return contextlib.contextmanager(_hold_writer_lock)(folder)


def _hold_writer_lock(folder: StrPath) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: builds are not serialised across processes there
        yield
        return
    lock = os.path.join(folder, "index.lock")
    if os.path.islink(lock):  # opening it would create or touch a file wherever it points
        os.unlink(lock)
    with open(lock, "a+") as handle:
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                _fail_if_stopped(handle.fileno())
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _fail_if_stopped(lock_fd: int) -> None:
    """Waiting for another builder is right while it works; a builder stopped with Ctrl-Z would keep
    every later call waiting for ever, so that case is said at once. Linux lists who holds a lock
    in /proc/locks (`1: FLOCK ADVISORY WRITE 618 fd:01:1234 0 EOF`); elsewhere the call just waits."""
    try:
        inode = os.fstat(lock_fd).st_ino
        with open("/proc/locks", encoding="ascii", errors="replace") as table:
            holders = [
                fields[4]
                for fields in map(str.split, table)
                if len(fields) >= 6 and fields[1] == "FLOCK" and fields[5].endswith(f":{inode}")
            ]
        for holder in holders:
            with open(f"/proc/{holder}/stat", encoding="ascii", errors="replace") as stat:
                state = stat.read().rpartition(")")[2].split()[0]
            if state in ("T", "t"):
                raise WorkspaceError(
                    f"the normcli process {holder} that is updating the index is stopped", "resume it (fg) or end it, then try again"
                )
    except (OSError, IndexError):
        return


def refresh(
    root: StrPath,
    rebuild: bool = False,
    known: dict[str, tuple[int, int]] | None = None,
    open_index: Connection | None = None,
    spec_files: str = "all",
) -> Refresh:
    """Bring the index of `root` up to date with its bundles and its API specs (`store.spec_refresh`), and return where it is.

    `open_index` is a read-only connection the caller holds to the index: what the index recorded of
    the specs is read through it rather than through a connection of its own (each costs an open and
    a parse of the whole schema). `spec_files` says which spec files to check: `all`, or only those the
    call's answer can be made of, `listings`, `search`, or `none` for a read of the norms alone
    (`store.spec_refresh`, docs/specs.md)."""
    root = os.fspath(root)
    done = _refresh_bundles(root, rebuild, known)
    if not done.as_known:
        open_index = None  # the caller's bundles were not the index's: it may hold another file
    if spec_files == "none":
        return done  # an answer of the norms alone: no spec file to check
    if open_index is not None and not os.path.isdir(os.path.join(root, SPECS_DIR)) and _holds_no_specs(open_index):
        return done  # no spec folder and no spec indexed: nothing to check, nor the spec modules to load
    from normcli.store.spec_refresh import refresh_specs

    with _write_failures_reported(os.path.dirname(done.location)):
        try:
            refresh_specs(root, done.location, _writer_lock, open_index, spec_files)
        except DatabaseError as exc:
            if _write_failure(exc) is not None:
                raise
            done = _refresh_bundles(root, rebuild=True)  # the file is damaged where the specs are: build it anew
            refresh_specs(root, done.location, _writer_lock)
    return done


def _holds_no_specs(connection: Connection) -> bool:
    """Whether the index has the spec tables of this version, with no spec in them."""
    from normcli.store.spec_schema import SPEC_SCHEMA, SPEC_SCHEMA_KEY

    try:
        row = connection.execute(
            "SELECT (SELECT value FROM meta WHERE key = ?) = ? AND NOT EXISTS (SELECT 1 FROM spec_domains)", (SPEC_SCHEMA_KEY, SPEC_SCHEMA)
        ).fetchone()
    except DatabaseError:  # no spec tables yet: refresh_specs makes them
        return False
    return bool(row[0])


def _refresh_bundles(root: str, rebuild: bool = False, known: dict[str, tuple[int, int]] | None = None) -> Refresh:
    """Bring the index of `root` up to date with its bundles and return where it is.

    `known` is what a caller holding the index open last saw of the bundles: when the files
    still match it, nothing else is read (a long-running reader pays a stat per bundle).
    """
    path = index_location(root)
    folder = os.path.dirname(path)
    files = list_bundle_files(root)
    if known is not None and not rebuild and os.path.isfile(path):
        changed, removed = _changes(known, files)
        if not changed and not removed:
            return Refresh(path, 0, 0, False, as_known=True)
    stored = _stored(path)
    if stored is not None and not rebuild:
        changed, removed = _changes(stored, files)
        if not changed and not removed:
            return Refresh(path, 0, 0, False)
    with _write_failures_reported(folder), _writer_lock(folder):
        files = list_bundle_files(root)
        stored = _stored(path)
        from pathlib import Path  # the builder works on Paths; it is loaded only when there is something to write

        from normcli.store import build

        if stored is None or rebuild or _meta(path, schema.FOLD_VERSION_KEY) != build.fold_version():
            build.build_new(Path(path), Path(root), files)
            return Refresh(path, len(files), 0, True)
        changed, removed = _changes(stored, files)
        if changed or removed:
            build.update(Path(path), Path(root), changed, removed)
        return Refresh(path, len(changed), len(removed), False)


class _write_failures_reported:  # lowercase: it is used as a function, `with _write_failures_reported(folder):`
    """A write the disk or the permissions refused, reported plainly: SQLite's own write failures say
    nothing about the index's health. Anything else (a damaged old index) goes up to the caller, which rebuilds.

    A class rather than a `contextlib.contextmanager`: every call enters it, and contextlib would
    then be loaded by every read (`python -m` loads it anyway; the console script need not)."""

    def __init__(self, folder: str) -> None:
        self.folder = folder

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, traceback: object) -> None:
        if isinstance(exc, OSError):
            raise WorkspaceError(
                f"cannot write the index in {self.folder}: {exc.strerror}", "check free disk space and permissions"
            ) from exc
        if isinstance(exc, DatabaseError):
            reason = _write_failure(exc)
            if reason is not None:
                raise WorkspaceError(f"cannot write the index in {self.folder}: {reason}", "check free disk space and permissions") from exc
        # anything else goes up as it is (None: nothing is swallowed)


def _write_failure(exc: DatabaseError) -> str | None:
    """What refused a write, when SQLite's error is one of the disk's or the permissions' refusals."""
    return _WRITE_FAILURES.get(exc.sqlite_errorcode & 0xFF) if isinstance(exc.sqlite_errorcode, int) else None


# SQLite primary result codes of a write that the disk or the permissions refused.
_WRITE_FAILURES = {
    3: "permission denied",
    8: "the file is read-only",
    10: "a disk I/O error",
    13: "the disk is full",
    14: "the file cannot be opened",
}


def _meta(path: str, key: str) -> str | None:
    connection = connect(schema.read_only_uri(path), uri=True, timeout=30)
    try:
        row = connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None
    finally:
        connection.close()
