"""Keep the index in step with the bundles: a stat per bundle when nothing changed, a
transaction per refresh when some did, and a whole new file swapped in for a first build,
a `--rebuild`, or an index that is corrupt or not ours.

Writers take a file lock so that two processes never build at once; readers never wait on it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from normcli.bundle import UnreadableBundle, parse_bundle, summary_of
from normcli.errors import WorkspaceError
from normcli.fold import code_key, fold, path_key
from normcli.model import Bundle, Problem, node_id
from normcli.store import schema
from normcli.workspace import BundleFile, index_folder, list_bundle_files

FOLD_VERSION_KEY = "fold_version"
BUILT_AT_KEY = "built_at"


@dataclass(frozen=True)
class Refresh:
    """What a freshness check did: where the index is and how many bundles it (re)indexed."""

    path: Path
    indexed: int
    removed: int
    rebuilt: bool


def _fold_version() -> str:
    from importlib.metadata import version

    return f"unidecode {version('unidecode')}"


def _stored(path: Path) -> dict[str, tuple[int, int]] | None:
    """The fingerprints the index holds, or None when there is no usable index."""
    if not path.is_file():
        return None
    try:
        connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
        try:
            if not schema.is_ours(connection):
                return None
            rows = connection.execute("SELECT file, mtime_ns, size FROM bundles").fetchall()
        finally:
            connection.close()
    except sqlite3.DatabaseError:
        return None
    return {file: (mtime, size) for file, mtime, size in rows}


def _changes(stored: dict[str, tuple[int, int]], files: list[BundleFile]) -> tuple[list[BundleFile], list[str]]:
    """Files to (re)index and files to forget. The language versions of an edition share node
    ids, so when one file of an edition folder changes, the whole folder is indexed again."""
    on_disk = {file.relative for file in files}
    removed = [name for name in stored if name not in on_disk]
    touched = {_folder(file.relative) for file in files if stored.get(file.relative) != (file.mtime_ns, file.size)}
    touched |= {_folder(name) for name in removed}
    changed = [file for file in files if _folder(file.relative) in touched]
    return changed, removed


def _folder(relative: str) -> str:
    return relative.rsplit("/", 1)[0]


@contextlib.contextmanager
def _writer_lock(folder: Path) -> Iterator[None]:
    try:
        import fcntl
    except ImportError:  # Windows: builds are not serialised across processes there
        yield
        return
    with open(folder / "index.lock", "a+") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def refresh(root: Path, rebuild: bool = False) -> Refresh:
    """Bring the index of `root` up to date with its bundles and return where it is."""
    folder = index_folder(root)
    path = folder / schema.INDEX_FILE
    files = list_bundle_files(root)
    stored = _stored(path)
    if stored is not None and not rebuild:
        changed, removed = _changes(stored, files)
        if not changed and not removed:
            return Refresh(path, 0, 0, False)
    try:
        with _writer_lock(folder):
            files = list_bundle_files(root)
            stored = _stored(path)
            if stored is None or rebuild or _meta(path, FOLD_VERSION_KEY) != _fold_version():
                _build_new(path, root, files)
                return Refresh(path, len(files), 0, True)
            changed, removed = _changes(stored, files)
            if changed or removed:
                _update(path, root, changed, removed)
            return Refresh(path, len(changed), len(removed), False)
    except OSError as exc:
        raise WorkspaceError(f"cannot write the index in {folder}: {exc.strerror}", "check free disk space and permissions") from exc


def _meta(path: Path, key: str) -> str | None:
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        row = connection.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None
    finally:
        connection.close()


def _connect_writer(path: Path):
    import sqlite_utils

    connection = sqlite3.connect(path, timeout=60, isolation_level=None)
    connection.execute("PRAGMA journal_mode = DELETE")
    connection.execute("PRAGMA synchronous = NORMAL")
    return sqlite_utils.Database(connection)


def _build_new(path: Path, root: Path, files: list[BundleFile]) -> None:
    temporary = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    temporary.unlink(missing_ok=True)
    try:
        db = _connect_writer(temporary)
        try:
            with db.atomic():
                schema.create(db)
                _write_meta(db)
                _insert(db, root, files, first_id=1)
        finally:
            db.close()
        for sidecar in ("-journal", "-wal", "-shm"):
            Path(f"{path}{sidecar}").unlink(missing_ok=True)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _write_meta(db) -> None:
    db["meta"].upsert_all(
        [
            {"key": FOLD_VERSION_KEY, "value": _fold_version()},
            {"key": BUILT_AT_KEY, "value": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        ],
        pk="key",
    )


def _update(path: Path, root: Path, changed: list[BundleFile], removed: list[str]) -> None:
    db = _connect_writer(path)
    try:
        with db.atomic():
            for name in [*removed, *(file.relative for file in changed)]:
                _delete_bundle(db, name)
            first_id = (db.execute("SELECT max(id) FROM nodes").fetchone()[0] or 0) + 1
            _insert(db, root, changed, first_id)
            _write_meta(db)
    finally:
        db.close()


def _delete_bundle(db, relative: str) -> None:
    row = db.execute("SELECT id FROM bundles WHERE file = ?", (relative,)).fetchone()
    if row is None:
        return
    bundle_id = row[0]
    # A contentless FTS5 table forgets a row only when given the same values it indexed.
    rows = db.execute("SELECT id, title, text FROM nodes WHERE bundle_id = ?", (bundle_id,)).fetchall()
    db.conn.executemany(
        f"INSERT INTO {schema.FTS_TABLE}({schema.FTS_TABLE}, rowid, title, body) VALUES('delete', ?, ?, ?)",
        [(node, fold(title), fold(text)) for node, title, text in rows],
    )
    for table in ("nodes", "figures", "norm_tables", "formulas", "xrefs"):
        db.execute(f"DELETE FROM {table} WHERE bundle_id = ?", (bundle_id,))
    db.execute("DELETE FROM bundles WHERE id = ?", (bundle_id,))


def _year(edition: str) -> int:
    match = re.search(r"(?<!\d)(\d{4})(?!\d)", edition)
    return int(match.group(1)) if match else 0


def _parse(file: BundleFile) -> tuple[Bundle | None, list[Problem]]:
    try:
        bundle = parse_bundle(file.path, file.relative)
        return bundle, bundle.problems
    except UnreadableBundle as unreadable:
        return None, unreadable.problems
    except OSError as exc:
        return None, [Problem(file.relative, 0, "error", "unreadable", f"cannot read the file: {exc.strerror}")]
    except Exception as exc:  # a parser bug must not hide the rest of the workspace
        return None, [
            Problem(file.relative, 0, "error", "internal", f"normcli could not parse this file ({type(exc).__name__}); please report it")
        ]


def _canonical_paths(parsed: list[tuple[BundleFile, Bundle | None, list[Problem]]]) -> dict[str, str]:
    """Folded path → the path printed in the edition's first language version (by file name).

    `Anhang A` in norm.de.md and `Annexe A` in norm.fr.md are one clause: both get the node id
    of the first file's spelling, so a reader can switch language and stay on the clause.
    """
    canonical: dict[str, str] = {}
    for _, bundle, _ in parsed:
        if bundle is not None:
            for node in bundle.nodes:
                canonical.setdefault(path_key(node.path), node.path)
    return canonical


def _insert(db, root: Path, files: list[BundleFile], first_id: int) -> None:
    next_id = first_id
    folders: dict[str, list[BundleFile]] = {}
    for file in files:
        folders.setdefault(_folder(file.relative), []).append(file)
    for folder_files in folders.values():
        parsed = [(file, *_parse(file)) for file in folder_files]
        canonical = _canonical_paths(parsed)
        for file, bundle, problems in parsed:
            next_id = _insert_bundle(db, file, bundle, problems, canonical, next_id)


def _insert_bundle(db, file: BundleFile, bundle: Bundle | None, problems: list[Problem], canonical: dict[str, str], next_id: int) -> int:
    row = {
        "file": file.relative,
        "mtime_ns": file.mtime_ns,
        "size": file.size,
        "readable": int(bundle is not None),
        "problems": json.dumps([problem.to_json() for problem in problems], ensure_ascii=False),
    }
    if bundle is None:
        db["bundles"].insert(row)
        return next_id
    row.update(
        code=bundle.code,
        code_key=code_key(bundle.code),
        edition=bundle.edition,
        year=_year(bundle.edition),
        language=bundle.language,
        title=bundle.title,
        scope=bundle.scope,
        published=int(bundle.published),
        demo=int(bundle.demo),
        requires=json.dumps(bundle.requires, ensure_ascii=False),
        pages=max((node.page_end for node in bundle.nodes), default=0),
        sections=len(bundle.nodes),
    )
    bundle_id = db["bundles"].insert(row).last_pk
    nodes = []
    for ord_, node in enumerate(bundle.nodes):
        nodes.append(
            {
                "id": next_id + ord_,
                "bundle_id": bundle_id,
                "ord": ord_,
                "node_id": node_id(bundle.code, bundle.edition, canonical.get(path_key(node.path), node.path)),
                "path": node.path,
                "path_key": path_key(node.path),
                "title": node.title,
                "depth": node.depth,
                "line": node.line,
                "parent_path": node.parent_path,
                "child_count": len(node.children),
                "page_start": node.page_start,
                "page_end": node.page_end,
                "summary": summary_of(node.text),
                "text": node.text,
            }
        )
    db["nodes"].insert_all(nodes, batch_size=500)
    db.conn.executemany(
        f"INSERT INTO {schema.FTS_TABLE}(rowid, title, body) VALUES (?, ?, ?)",
        [(row["id"], fold(row["title"]), fold(row["text"])) for row in nodes],
    )
    next_id += len(nodes)
    db["figures"].insert_all(
        {"bundle_id": bundle_id, "fig_id": f.id, "number": f.number, "caption": f.caption, "file": f.file, "node_path": f.node_path}
        for f in bundle.figures
    )
    db["norm_tables"].insert_all(
        {
            "bundle_id": bundle_id,
            "table_id": t.id,
            "number": t.number,
            "caption": t.caption,
            "markdown": t.markdown,
            "node_path": t.node_path,
        }
        for t in bundle.tables
    )
    db["formulas"].insert_all(
        {"bundle_id": bundle_id, "number": f.number, "latex": f.latex, "node_path": f.node_path} for f in bundle.formulas
    )
    db["xrefs"].insert_all(
        {
            "bundle_id": bundle_id,
            "node_path": x.node_path,
            "ord": ord_,
            "text": x.text,
            "type": x.type,
            "target_code": x.target_code,
            "target_path": x.target_path,
            "target_kind": x.target_kind,
        }
        for ord_, x in enumerate(bundle.xrefs)
    )
    return next_id
