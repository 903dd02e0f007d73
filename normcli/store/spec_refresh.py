"""Keep the spec tables of the index in step with `specs/<domain>/`, the way bundles are kept: when
nothing changed, a `stat` of the `specs/` folder, of each domain's folder and of each file the last
read of that domain used (see `specs.files` for why each file, and why that is enough).

A discovery call checks only the files its answer can be made of: a listing those of the listings, a
search those of search too, an endpoint's page those of the listings and then its own
(`method_files_changed`); `check` and every other call check all of them (docs/specs.md gives the argument).

A folder whose stamp is the one recorded when it was last listed has the same entries, so it is not
listed again; a changed one is listed, and its domain read again only when its spec files changed.

On every call's path, so it imports nothing heavy; `store.spec_build` reads and writes when a
domain changed, in one transaction under the builder's lock, so that a reader sees the old spec or
the new one.
"""

from __future__ import annotations

import os

from normcli.record import record
from normcli.specs.files import SPECS_DIR, DomainFolder, domain_names, fingerprint, list_domains, stamp_before_read, stamp_of, top_files
from normcli.store import schema
from normcli.store.spec_schema import SPEC_FOLDER_KEY, SPEC_SCHEMA, SPEC_SCHEMA_KEY
from normcli.store.sqlite import DatabaseError, connect

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager
    from sqlite3 import Connection


@record
class StoredDomain:
    """What the index recorded of one domain: its folder's stamp when listed, its top files, and the files a
    check compares (those of its listings, of search, or all of them) with their stamps."""

    folder: str
    top: tuple[str, ...]
    files: list[str]
    fingerprint: str


@record
class StoredSpecs:
    """What the index recorded of `specs/`: its stamp when listed, and each domain."""

    folder: str
    domains: dict[str, StoredDomain]


# Which of a domain's files a check compares: those its listings are made of, those search is made of
# too, or every file (`spec_schema` keeps them in three lists, in this order).
LISTINGS, SEARCH, ALL = "listings", "search", "all"
_LISTS = {LISTINGS: 1, SEARCH: 2, ALL: 3}

# Paths are plain strings here (pathlib is a tenth of a --json call's start-up).
# What `_stored` last read, by index file and scope, with that file's (inode, mtime, size): a long-running
# reader (the MCP server, batch, the TUI) checks the specs at every call and need not read them back each time.
# A stale entry costs no missed change: the files on disk are what is compared with it.
_LAST: dict[tuple[str, str], tuple[tuple[int, int, int], StoredSpecs]] = {}


def _stored(path: str, open_index: Connection | None = None, scope: str = ALL) -> StoredSpecs | None:
    """What the index holds of the specs, with the files of each domain that `scope` names; None when the
    spec tables are missing or old. Read through `open_index` when the caller holds a connection to that file."""
    try:
        stat = os.stat(path)
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    except OSError:
        return None
    last = _LAST.get((path, scope))
    if last is not None and last[0] == key:
        return last[1]
    found = _read_stored(path, open_index, scope)
    if found is not None:
        _LAST[path, scope] = (key, found)
    return found


_META = "SELECT key, value FROM meta WHERE key IN (?, ?)"
_COLUMNS = ("files, fingerprint", "search_files, search_fingerprint", "more_files, more_fingerprint")


def _read_stored(path: str, open_index: Connection | None = None, scope: str = ALL) -> StoredSpecs | None:
    lists = _LISTS[scope]
    try:
        connection = open_index or connect(schema.read_only_uri(path), uri=True, timeout=30)
        try:
            meta = {key: value for key, value in connection.execute(_META, (SPEC_SCHEMA_KEY, SPEC_FOLDER_KEY))}
            if meta.get(SPEC_SCHEMA_KEY) != SPEC_SCHEMA:
                return None
            rows = connection.execute(f"SELECT domain, folder, top, {', '.join(_COLUMNS[:lists])} FROM spec_domains").fetchall()
        finally:
            if connection is not open_index:
                connection.close()
    except DatabaseError:
        return None
    domains = {}
    for row in rows:
        names = [name for part in row[3::2] if part for name in part.split("\n")]
        stamps = " ".join(part for part in row[4::2] if part)
        domains[row[0]] = StoredDomain(row[1], tuple(row[2].split("\n")) if row[2] else (), names, stamps)
    return StoredSpecs(meta.get(SPEC_FOLDER_KEY, ""), domains)


def _stale(root: str, stored: StoredSpecs) -> tuple[list[str], list[str]]:
    """The domains to read again, and the domains to forget: listing only the folders whose stamps moved."""
    specs = os.path.join(root, SPECS_DIR)
    names = list(stored.domains) if stamp_of(specs) == stored.folder else domain_names(specs)
    on_disk = set(names)
    removed = [name for name in stored.domains if name not in on_disk]
    changed = []
    for name in names:
        known = stored.domains.get(name)
        folder = os.path.join(specs, name)
        if (
            known is None
            or (stamp_of(folder) != known.folder and top_files(folder) != known.top)
            or fingerprint(folder, known.files) != known.fingerprint
        ):
            changed.append(name)
    return changed, removed


def method_files_changed(root: str, domain: str, lists: tuple[str, str, str, str], positions: str) -> bool:
    """Whether any of the files an endpoint's page is made of beyond its domain's listings has changed since
    the index read it: `positions` in the domain's search and more files (`lists`: those two with their
    stamps, as the index records them)."""
    if not positions:
        return False
    search_files, search_stamps, more_files, more_stamps = lists
    names = [name for part in (search_files, more_files) if part for name in part.split("\n")]
    stamps = [stamp for part in (search_stamps, more_stamps) if part for stamp in part.split(" ")]
    wanted = [int(position) for position in positions.split(" ")]
    return fingerprint(os.path.join(root, SPECS_DIR, domain), [names[index] for index in wanted]) != " ".join(
        stamps[index] for index in wanted
    )


def refresh_specs(
    root: str,
    path: str,
    writer_lock: Callable[[str], AbstractContextManager[None]],
    open_index: Connection | None = None,
    scope: str = ALL,
) -> int:
    """Bring the spec tables of the index at `path` in step with `root/specs`; the number of domains
    (re)read or removed. Costs a `stat` per folder and per file `scope` names (`LISTINGS`: those the
    listings are made of; `SEARCH`: and those of search; `ALL`) when nothing changed; writes under
    `writer_lock`. `open_index`, a read-only connection to `path` the caller holds, is used for the
    first look (under the lock, the index is read afresh)."""
    stored = _stored(path, open_index, scope)
    if stored is not None:
        changed, removed = _stale(root, stored)
        if not changed and not removed:
            return 0
    elif not os.path.isdir(os.path.join(root, SPECS_DIR)) and not os.path.isfile(path):
        return 0
    with writer_lock(os.path.dirname(path)):  # the norms' builder lock (`store.refresh`): one writer at a time
        specs_stamp, _ = stamp_before_read(os.path.join(root, SPECS_DIR))  # before the listing, like every stamp
        domains = list_domains(root)
        stored = _stored(path, scope=scope)
        fresh = stored is None
        if stored is None:
            changed, removed = [domain.domain for domain in domains], []
        else:
            changed, removed = _stale(root, stored)
        if not changed and not removed and not fresh:
            return 0
        from pathlib import Path  # the builder works on Paths; it is loaded only when there is something to write

        from normcli.store.spec_build import write_domains

        to_read: list[DomainFolder] = [domain for domain in domains if domain.domain in set(changed)]
        write_domains(Path(root), Path(path), to_read, removed, fresh, listed=domains, specs_stamp=specs_stamp)
        return len(to_read) + len(removed)
