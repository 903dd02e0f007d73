"""Write the index: a whole new file swapped in with `os.replace`, or one transaction that
replaces the rows of the bundles that changed. Called by `store.refresh` under its writer lock."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from normcli.bundle import UnreadableBundle, parse_bundle, summary_of
from normcli.fold import code_key, fold, path_key
from normcli.latex import searchable
from normcli.model import Bundle, Problem, node_id
from normcli.store import schema
from normcli.workspace import BundleFile, list_bundle_files
from normcli.xrefs import generic_code

if TYPE_CHECKING:
    from sqlite_utils import Database

Parsed = tuple[BundleFile, Bundle | None, list[Problem]]  # a bundle file, what it holds (None: unreadable), its problems


def _connect_writer(path: Path) -> Database:
    import sqlite_utils

    connection = sqlite3.connect(path, timeout=60, isolation_level=None)
    connection.execute("PRAGMA journal_mode = DELETE")
    connection.execute("PRAGMA synchronous = NORMAL")
    return sqlite_utils.Database(connection)


def fold_version() -> str:
    """The version of the folding that the contentless FTS rows were written with."""
    from importlib.metadata import version

    return f"unidecode {version('unidecode')}; formulas without command words"


def build_new(path: Path, root: Path, files: list[BundleFile]) -> None:
    temporary = path.with_name(f"{path.name}.tmp-{os.getpid()}")
    for stale in path.parent.glob(f"{path.name}.tmp-*"):  # a killed builder's leftovers; we hold the writer lock
        stale.unlink(missing_ok=True)
    try:
        db = _connect_writer(temporary)
        try:
            with db.atomic():
                schema.create(db)
                _write_meta(db)
                _insert(db, root, files, first_id=1, packer=None)
        finally:
            db.close()
        for sidecar in ("-journal", "-wal", "-shm"):
            Path(f"{path}{sidecar}").unlink(missing_ok=True)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def _write_meta(db: Database) -> None:
    db.table("meta").upsert_all(
        [
            {"key": schema.FOLD_VERSION_KEY, "value": fold_version()},
            {"key": schema.BUILT_AT_KEY, "value": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())},
        ],
        pk="key",
    )


def update(path: Path, root: Path, changed: list[BundleFile], removed: list[str]) -> None:
    if _other_codes_change(path, changed, removed):
        # A norm whose code no publisher grammar knows joined or left: every bundle's references
        # are read again, since any of them may cite it.
        build_new(path, root, list_bundle_files(root))
        return
    db = _connect_writer(path)
    try:
        with db.atomic():
            packer = _stored_packer(db)
            for name in [*removed, *(file.relative for file in changed)]:
                _delete_bundle(db, name, packer)
            first_id = (db.execute("SELECT max(id) FROM nodes").fetchone()[0] or 0) + 1
            # With no clause left (a workspace indexed empty, then filled), no text is packed: the
            # dictionary is chosen again from the bundles that arrive.
            _insert(db, root, changed, first_id, packer if first_id > 1 else None)
            _write_meta(db)
    finally:
        db.close()


_LONG_WORD = re.compile(rf"[a-z0-9]{{{schema.INFIX_MIN + 1},}}")


def _add_terms(db: Database, folded: list[tuple[int, str, str]]) -> None:
    """Put the long words of these texts not seen before into `terms` and its trigram index.

    A removed bundle's words stay: a word no clause holds any more only widens a query for nothing.
    """
    long_words = {word for _, title, body in folded for text in (title, body) for word in _LONG_WORD.findall(text)}
    if not long_words:
        return
    before = db.execute("SELECT coalesce(max(id), 0) FROM terms").fetchone()[0]
    db.conn.executemany("INSERT OR IGNORE INTO terms(term) VALUES (?)", ((word,) for word in long_words))
    db.execute(f"INSERT INTO {schema.TERMS_FTS}(rowid, term) SELECT id, term FROM terms WHERE id > ?", (before,))


def _stored_packer(db: Database) -> schema.TextPacker:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (schema.TEXT_DICTIONARY_KEY,)).fetchone()
    return schema.TextPacker(row[0] if row else b"")


def _delete_bundle(db: Database, relative: str, packer: schema.TextPacker) -> None:
    row = db.execute("SELECT id FROM bundles WHERE file = ?", (relative,)).fetchone()
    if row is None:
        return
    bundle_id = row[0]
    # A contentless FTS5 table forgets a row only when given the same values it indexed.
    rows = db.execute("SELECT id, title, text FROM nodes WHERE bundle_id = ?", (bundle_id,)).fetchall()
    db.conn.executemany(
        f"INSERT INTO {schema.FTS_TABLE}({schema.FTS_TABLE}, rowid, title, body) VALUES('delete', ?, ?, ?)",
        [(node, fold(title), fold(searchable(packer.unpack(text)))) for node, title, text in rows],
    )
    db.conn.executemany(
        f"INSERT INTO {schema.TITLES_TABLE}({schema.TITLES_TABLE}, rowid, title) VALUES('delete', ?, ?)",
        [(node, fold(title)) for node, title, _ in rows],
    )
    for table in ("nodes", "figures", "norm_tables", "formulas", "xrefs"):
        db.execute(f"DELETE FROM {table} WHERE bundle_id = ?", (bundle_id,))
    db.execute("DELETE FROM bundles WHERE id = ?", (bundle_id,))


def _insert_rows(db: Database, table: str, rows: list[dict]) -> None:
    """Insert many rows of one shape with a single executemany: sqlite-utils' insert_all checks and
    converts every value in Python, which was a third of a full build's time."""
    if not rows:
        return
    columns = list(rows[0])
    sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    db.conn.executemany(sql, [tuple(row[column] for column in columns) for row in rows])


def _year(edition: str) -> int:
    match = re.search(r"(?<!\d)(\d{4})(?!\d)", edition)
    return int(match.group(1)) if match else 0


def _parse(file: BundleFile, codes: tuple[str, ...] = ()) -> tuple[Bundle | None, list[Problem]]:
    try:
        bundle = parse_bundle(file.path, file.relative, codes)
        return bundle, bundle.problems
    except UnreadableBundle as unreadable:
        return None, unreadable.problems
    except OSError as exc:
        return None, [Problem(file.relative, 0, "error", "unreadable", f"cannot read the file: {exc.strerror}")]
    except Exception as exc:  # a parser bug must not hide the rest of the workspace
        return None, [
            Problem(file.relative, 0, "error", "internal", f"normcli could not parse this file ({type(exc).__name__}); please report it")
        ]


OTHER_CODES_KEY = "other_codes"  # the workspace's codes that only the workspace's own list makes references
_CODE_LINE = re.compile(r"(?m)^code:[ \t]*[\"']?(.*?)[\"']?[ \t]*$")


def _declared_code(file: BundleFile) -> str | None:
    """The code a bundle's front matter declares, read from its first lines only."""
    try:
        with open(file.path, encoding="utf-8", errors="replace") as handle:
            head = handle.read(4096)
    except OSError:
        return None
    front = head.split("\n---", 1)[0] if head.startswith("---") else ""
    match = _CODE_LINE.search(front)
    return match.group(1).strip() or None if match else None


def _workspace_codes(
    db: Database | sqlite3.Connection, files: list[BundleFile], leaving: set[str] | frozenset[str] = frozenset()
) -> tuple[str, ...]:
    """The codes of the norms the index holds (less the bundles `leaving`) and of `files`."""
    query = "SELECT DISTINCT code FROM bundles WHERE code IS NOT NULL AND file NOT IN (SELECT value FROM json_each(?))"
    held = {row[0] for row in db.execute(query, (json.dumps(sorted(leaving)),))}
    held |= {code for code in map(_declared_code, files) if code}
    return tuple(sorted(held))


def _other_codes(codes: tuple[str, ...]) -> str:
    """The codes among `codes` that the publisher grammar does not recognise, as stored in meta."""
    return json.dumps(sorted(code for code in codes if not generic_code(code)), ensure_ascii=False)


def _other_codes_change(path: Path, changed: list[BundleFile], removed: list[str]) -> bool:
    """Whether changing these bundles changes the workspace's codes that only its own list recognises."""
    connection = sqlite3.connect(path)
    try:
        stored = connection.execute("SELECT value FROM meta WHERE key = ?", (OTHER_CODES_KEY,)).fetchone()
        codes = _workspace_codes(connection, changed, {*removed, *(file.relative for file in changed)})
        return (stored[0] if stored else "[]") != _other_codes(codes)
    finally:
        connection.close()


def _insert(db: Database, root: Path, files: list[BundleFile], first_id: int, packer: schema.TextPacker | None) -> None:
    """Parse and write `files`; with no packer (a new index), first sample the dictionary of one."""
    codes = _workspace_codes(db, files, {file.relative for file in files})
    db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (OTHER_CODES_KEY, _other_codes(codes)))
    if packer is None:
        packer = schema.TextPacker(_sample_prose(files))
        db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (schema.TEXT_DICTIONARY_KEY, packer.dictionary))
    folders: dict[str, list[BundleFile]] = {}
    for file in files:
        folders.setdefault(file.relative.rsplit("/", 1)[0], []).append(file)  # by edition folder
    next_id = first_id
    for parsed in _parsed_folders([(folder, codes) for folder in folders.values()]):
        for file, bundle, problems in parsed:
            next_id = _insert_bundle(db, file, bundle, problems, next_id, packer)


SAMPLED_FILES = 16


def _sample_prose(files: list[BundleFile]) -> bytes:
    """Whole lines from the middle of bundles spread over the workspace, every language and kind of
    norm it holds: the texts of all its clauses will be packed with them as their dictionary."""
    chosen = files[:: max(1, len(files) // SAMPLED_FILES)][:SAMPLED_FILES]
    share = schema.DICTIONARY_BYTES // max(1, len(chosen))
    pieces: list[bytes] = []
    for file in chosen:
        try:
            with open(file.path, "rb") as handle:
                handle.seek(max(0, file.size // 2 - share))
                piece = handle.read(share + 1024)
        except OSError:
            continue
        lines = piece.split(b"\n")[1:-1]  # the first and last may be cut
        pieces.append(b"\n".join(lines)[:share])
    return b"\n".join(pieces)[-schema.DICTIONARY_BYTES :]


def _parse_folder(work: tuple[list[BundleFile], tuple[str, ...]]) -> list[Parsed]:
    files, codes = work
    return [(file, *_parse(file, codes)) for file in files]


def _parsed_folders(folders: list[tuple[list[BundleFile], tuple[str, ...]]]) -> Iterator[list[Parsed]]:
    """Parse edition folders in order; with many of them, on every core (parsing is most of a build)."""
    workers = min(os.cpu_count() or 1, 4)
    if workers < 2 or len(folders) < 4:
        yield from map(_parse_folder, folders)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    with ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_die_with, initargs=(os.getpid(),)) as pool:
        try:
            with _ctrl_c_after():
                results = pool.map(_parse_folder, folders, chunksize=2)  # the workers fork here
            yield from results
        except BaseException:  # Ctrl-C or a failure: drop the folders not started, do not parse them all first
            pool.shutdown(wait=False, cancel_futures=True)
            raise


@contextlib.contextmanager
def _ctrl_c_after() -> Iterator[None]:
    """Hold Ctrl-C while the parser workers fork, then raise it in the builder: a worker (or the
    fork itself) must never print a KeyboardInterrupt traceback or swallow the interruption."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda number, _frame: caught.append(number))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _die_with(builder: int) -> None:
    """Parser worker start-up: end when the builder ends. A forked worker holds the writer lock and the
    builder's stdout; one that outlived a killed builder would block every later build for ever.
    Ctrl-C is the builder's to handle: the workers ignore it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG (Linux)
    except (OSError, AttributeError):
        pass
    if os.getppid() != builder:  # the builder died before the line above
        os._exit(1)


def _insert_bundle(
    db: Database,
    file: BundleFile,
    bundle: Bundle | None,
    problems: list[Problem],
    next_id: int,
    packer: schema.TextPacker,
) -> int:
    row = {
        "file": file.relative,
        "mtime_ns": file.mtime_ns,
        "size": file.size,
        "readable": int(bundle is not None),
        "problems": json.dumps([problem.to_json() for problem in problems], ensure_ascii=False),
    }
    if bundle is None:
        db.table("bundles").insert(row)
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
        pages=max((node.page_end or 0 for node in bundle.nodes), default=0),
        sections=len(bundle.nodes),
    )
    bundle_id = db.table("bundles").insert(row).last_pk
    nodes: list[dict[str, Any]] = []
    for ord_, node in enumerate(bundle.nodes):
        nodes.append(
            {
                "id": next_id + ord_,
                "bundle_id": bundle_id,
                "ord": ord_,
                "node_id": node_id(bundle.code, bundle.edition, node.path),
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
                "text": packer.pack(node.text),
            }
        )
    _insert_rows(db, "nodes", nodes)
    folded_titles = [(row["id"], fold(row["title"])) for row in nodes]
    folded = [(node_row, title, fold(searchable(node.text))) for (node_row, title), node in zip(folded_titles, bundle.nodes, strict=True)]
    db.conn.executemany(f"INSERT INTO {schema.FTS_TABLE}(rowid, title, body) VALUES (?, ?, ?)", folded)
    _add_terms(db, folded)
    db.conn.executemany(f"INSERT INTO {schema.TITLES_TABLE}(rowid, title) VALUES (?, ?)", folded_titles)
    next_id += len(nodes)
    row_of = {row["path"]: row["id"] for row in nodes}
    _insert_rows(
        db,
        "figures",
        [
            {"bundle_id": bundle_id, "fig_id": f.id, "number": f.number, "caption": f.caption, "file": f.file, "node_path": f.node_path}
            for f in bundle.figures
        ],
    )
    _insert_rows(
        db,
        "norm_tables",
        [
            {
                "bundle_id": bundle_id,
                "table_id": t.id,
                "number": t.number,
                "caption": t.caption,
                "markdown": t.markdown,
                "node_path": t.node_path,
                "page": t.page,
            }
            for t in bundle.tables
        ],
    )
    _insert_rows(
        db, "formulas", [{"bundle_id": bundle_id, "number": f.number, "latex": f.latex, "node_path": f.node_path} for f in bundle.formulas]
    )
    _insert_rows(
        db,
        "xrefs",
        [
            {
                "bundle_id": bundle_id,
                "node_row": row_of[x.node_path],
                "ord": ord_,
                "position": x.position,
                "line": x.line,
                "text": x.text,
                "type": x.type,
                "target_code": x.target_code,
                "target_path": x.target_path,
                "target_kind": x.target_kind,
                # Only where `mentions` looks: a clause or annex of the same norm.
                "target_key": path_key(x.target_path)
                if x.target_path and x.target_code is None and x.target_kind in ("clause", "annex")
                else None,
            }
            for ord_, x in enumerate(bundle.xrefs)
        ],
    )
    return next_id
