"""Keep the spec tables of the index in step with `specs/<domain>/`, the way bundles are kept: a
directory listing per domain and a `stat` per file the last read used when nothing changed.

On every call's path, so it imports nothing heavy; `store.spec_build` reads and writes when a
domain changed, in one transaction under the builder's lock, so that a reader sees the old spec or
the new one.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager

from normcli.specs.files import DomainFolder, fingerprint, list_domains
from normcli.store import schema
from normcli.store.spec_schema import SPEC_SCHEMA, SPEC_SCHEMA_KEY

# What `_stored` last read, by index file, with that file's (inode, mtime, size): a long-running reader
# (the MCP server, batch, the TUI) checks the specs at every call and need not read them back each time.
# A stale entry costs no missed change: the files on disk are what is compared with it.
_LAST: dict[str, tuple[tuple[int, int, int], dict[str, tuple[str, str]]]] = {}


def _stored(path: str) -> dict[str, tuple[str, str]] | None:
    """domain → (top-level files, fingerprint) as indexed; None when the spec tables are missing or old."""
    try:
        stat = os.stat(path)
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
    except OSError:
        return None
    last = _LAST.get(path)
    if last is not None and last[0] == key:
        return last[1]
    found = _read_stored(path)
    if found is not None:
        _LAST[path] = (key, found)
    return found


def _read_stored(path: str) -> dict[str, tuple[str, str]] | None:
    try:
        connection = sqlite3.connect(schema.read_only_uri(path), uri=True, timeout=30)
        try:
            row = connection.execute("SELECT value FROM meta WHERE key = ?", (SPEC_SCHEMA_KEY,)).fetchone()
            if row is None or row[0] != SPEC_SCHEMA:
                return None
            rows = connection.execute("SELECT domain, top, fingerprint FROM spec_domains").fetchall()
            files = {domain: files for domain, files in connection.execute("SELECT domain, files FROM spec_domains")}
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        return None
    return {domain: (top, f"{fingerprint_}\n{files[domain]}") for domain, top, fingerprint_ in rows}


def _stale(stored: dict[str, tuple[str, str]], domains: list[DomainFolder]) -> tuple[list[DomainFolder], list[str]]:
    """Domains to read again, and domains to forget."""
    on_disk = {domain.domain for domain in domains}
    removed = [name for name in stored if name not in on_disk]
    changed = []
    for domain in domains:
        known = stored.get(domain.domain)
        if known is None or known[0] != "\n".join(domain.top):
            changed.append(domain)
            continue
        digest, _, files = known[1].partition("\n")
        if fingerprint(domain.location, files.split("\n") if files else []) != digest:
            changed.append(domain)
    return changed, removed


def refresh_specs(root: str, path: str, writer_lock: Callable[[str], AbstractContextManager[None]]) -> int:
    """Bring the spec tables of the index at `path` in step with `root/specs`; the number of domains
    (re)read or removed. Costs a directory listing per domain and a `stat` per file when nothing changed;
    writes under `writer_lock`."""
    domains = list_domains(root)
    stored = _stored(path)
    if stored is not None:
        changed, removed = _stale(stored, domains)
        if not changed and not removed:
            return 0
    elif not domains and not os.path.isfile(path):
        return 0
    with writer_lock(os.path.dirname(path)):  # the norms' builder lock (`store.refresh`): one writer at a time
        domains = list_domains(root)
        stored = _stored(path)
        fresh = stored is None
        changed, removed = _stale(stored or {}, domains)
        if not changed and not removed and not fresh:
            return 0
        from pathlib import Path  # the builder works on Paths; it is loaded only when there is something to write

        from normcli.store.spec_build import write_domains

        write_domains(Path(root), Path(path), changed, removed, fresh)
        return len(changed) + len(removed)
