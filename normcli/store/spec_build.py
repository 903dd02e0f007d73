"""Write the spec tables of the index, beside the norms' tables in the same SQLite file.

Called by `store.spec_refresh` under the builder's lock with the domains that changed: they are read
first (parsing is the slow part, and readers go on meanwhile), then their rows are replaced in one
transaction. The tables are made on first use, and made anew when `SPEC_SCHEMA` changes, whatever
the norms' schema version.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path

from normcli.fold import fold
from normcli.specs.files import DomainFolder, stamp_before_read
from normcli.specs.read import choose_root
from normcli.store.spec_schema import CREATE, FTS, SPEC_FOLDER_KEY, SPEC_SCHEMA, SPEC_SCHEMA_KEY, TABLES


def write_domains(
    root: Path, path: Path, changed: list[DomainFolder], removed: list[str], fresh: bool, listed: list[DomainFolder], specs_stamp: str
) -> None:
    """Read the `changed` domains and replace their rows, forget the `removed` ones; with `fresh`,
    make the spec tables first. `listed` is every domain as just listed and `specs_stamp` the stamp
    of `specs/` taken before: an unchanged domain whose folder moved (an editor's swap file came and
    went) keeps its rows and gets the new folder stamp, so that the next checks need not list it."""
    read = _read_all(root, changed)
    connection = sqlite3.connect(path, timeout=60, isolation_level=None)
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            if fresh:
                _create(connection)
            for name in [*removed, *(domain.domain for domain in changed)]:
                _delete_domain(connection, name)
            for row in read:
                _insert_domain(connection, row)
            reread = {domain.domain for domain in changed}
            connection.executemany(
                "UPDATE spec_domains SET folder = ? WHERE domain = ? AND top = ?",
                [(domain.stamp, domain.domain, "\n".join(domain.top)) for domain in listed if domain.domain not in reread],
            )
            connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (SPEC_FOLDER_KEY, specs_stamp))
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    finally:
        connection.close()


def _read_one(root: Path, domain: DomainFolder) -> dict:
    return _with_fingerprint(_read_domain(root, domain))


def _read_all(root: Path, domains: list[DomainFolder]) -> list[dict]:
    """Read the domains one after the other. (Reading them on several cores was measured slower on
    2 cores: the parsed specs travel back to the builder pickled, which costs about what parsing saves.)"""
    return [_read_one(root, domain) for domain in domains]


def _create(connection: sqlite3.Connection) -> None:
    for table in TABLES:
        connection.execute(f"DROP TABLE IF EXISTS {table}")
    for statement in filter(str.strip, CREATE.split(";")):
        connection.execute(statement)
    connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (SPEC_SCHEMA_KEY, SPEC_SCHEMA))


def _delete_domain(connection: sqlite3.Connection, domain: str) -> None:
    row = connection.execute("SELECT id FROM spec_domains WHERE domain = ?", (domain,)).fetchone()
    if row is None:
        return
    (domain_row,) = row
    connection.execute(f"DELETE FROM {FTS} WHERE rowid IN (SELECT id FROM spec_methods WHERE domain_row = ?)", (domain_row,))
    for table in ("spec_collections", "spec_tags", "spec_collection_tags", "spec_methods", "spec_method_tags", "spec_refs"):
        connection.execute(f"DELETE FROM {table} WHERE domain_row = ?", (domain_row,))
    connection.execute("DELETE FROM spec_domains WHERE id = ?", (domain_row,))


def _read_domain(root: Path, domain: DomainFolder) -> dict:
    """Everything the index keeps of one domain, read from its files (parsing is the slow part), with
    the stamps and sizes of the files it used, each taken before that file was read."""
    from normcli.model import Problem
    from normcli.specs.read import UnreadableSpec, read_spec

    prefix = f"specs/{domain.domain}"
    base = {"domain": domain.domain, "folder": domain.stamp, "top": "\n".join(domain.top)}
    if not os.path.realpath(domain.path).startswith(os.path.realpath(root) + os.sep):
        problem = Problem(prefix, 0, "error", "outside", "the folder is a link out of the workspace; normcli does not read it")
        return {**base, "spec": None, "problems": [problem], "stamps": {}}
    # The top files are stamped before `choose_root` reads their first bytes.
    stamps = {name: stamp_before_read(domain.path / name) for name in domain.top}
    chosen, others = choose_root(domain)
    if chosen is None:
        problem = Problem(prefix, 0, "error", "no_root", "no file here declares 'openapi' or 'swagger': the folder holds no spec")
        return {**base, "spec": None, "problems": [problem], "stamps": stamps}
    problems = [
        Problem(f"{prefix}/{other}", 1, "warning", "second_root", f"a second spec in one domain; {chosen} is read (one spec per domain)")
        for other in others
    ]
    try:
        spec = read_spec(domain.path, domain.domain, chosen, prefix)
    except UnreadableSpec as unreadable:
        return {**base, "spec": None, "problems": [*unreadable.problems, *problems], "stamps": {**unreadable.stamps, **stamps}}
    except Exception as exc:  # a reader bug must not hide the rest of the workspace
        problem = Problem(
            f"{prefix}/{chosen}", 0, "error", "internal", f"normcli could not read this spec ({type(exc).__name__}); please report it"
        )
        return {**base, "spec": None, "problems": [problem], "stamps": stamps}
    return {**base, "spec": spec, "problems": [*spec.problems, *problems], "stamps": {**spec.stamps, **stamps}}


def _with_fingerprint(read: dict) -> dict:
    """`read` with the files it used in three lists, each with its fingerprint (their stamps in order), each
    method's files as positions in the last two, and the files' total size. The first list holds the files
    every answer about the domain depends on (the top files, and those the listing walk read: all of them
    for a spec that could not be read); the second, the others that search depends on; the third, the
    files only some endpoint pages show."""
    stamps: dict[str, tuple[str, int]] = read.pop("stamps")
    spec = read["spec"]
    listed = set(stamps) if spec is None else {*spec.structure, *read["top"].split("\n")}
    structure = listed & set(stamps)
    searched = set(spec.searched if spec else ()) & set(stamps) - structure
    files = sorted(structure)
    search = sorted(searched)
    more = sorted(set(stamps) - structure - searched)
    position = {name: index for index, name in enumerate([*search, *more])}
    method_files = [" ".join(str(position[name]) for name in method.files if name in position) for method in (spec.methods if spec else ())]
    return {
        **read,
        "files": files,
        "fingerprint": " ".join(stamps[name][0] for name in files),
        "search_files": search,
        "search_fingerprint": " ".join(stamps[name][0] for name in search),
        "more_files": more,
        "more_fingerprint": " ".join(stamps[name][0] for name in more),
        "method_files": method_files,
        "bytes": sum(size for _, size in stamps.values()),
    }


def _insert_domain(connection: sqlite3.Connection, read: dict) -> None:
    from normcli.specs import ids

    domain = read["domain"]
    spec = read["spec"]
    files: list[str] = read["files"]
    problems = json.dumps([problem.to_json() for problem in read["problems"]], ensure_ascii=False)
    row = {
        "domain": domain,
        "spec_id": ids.spec_id(domain),
        "root": spec.root if spec else None,
        "title": spec.title if spec else domain,
        "version": spec.version if spec else "",
        "format": spec.format if spec else "",
        "readable": int(spec is not None),
        "problems": problems,
        "folder": read["folder"],
        "top": read["top"],
        "files": "\n".join(files),
        "fingerprint": read["fingerprint"],
        "search_files": "\n".join(read["search_files"]),
        "search_fingerprint": read["search_fingerprint"],
        "more_files": "\n".join(read["more_files"]),
        "more_fingerprint": read["more_fingerprint"],
        "bytes": read["bytes"],
        "methods": len(spec.methods) if spec else 0,
    }
    cursor = connection.execute(f"INSERT INTO spec_domains ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})", tuple(row.values()))
    domain_row = cursor.lastrowid
    if spec is None:
        return
    tag_methods: dict[str, list[int]] = {tag.name: [] for tag in spec.tags}
    for ord_, method in enumerate(spec.methods):
        for name in method.tags:
            tag_methods.setdefault(name, []).append(ord_)
    first_method = (connection.execute("SELECT max(id) FROM spec_methods").fetchone()[0] or 0) + 1
    connection.executemany(
        "INSERT INTO spec_methods (id, domain_row, ord, method_id, verb, path, summary, description, operation_id, deprecated, webhook, tags,"
        " file, line, body, files) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (
                first_method + ord_,
                domain_row,
                ord_,
                ids.method_id(domain, method.verb, method.path),
                method.verb,
                method.path,
                method.summary,
                method.description,
                method.operation_id,
                int(method.deprecated),
                int(method.webhook),
                json.dumps(list(method.tags), ensure_ascii=False),
                f"specs/{domain}/{method.file}",
                method.line,
                json.dumps(method.body, ensure_ascii=False, default=str),
                read["method_files"][ord_],
            )
            for ord_, method in enumerate(spec.methods)
        ],
    )
    connection.executemany(
        f"INSERT INTO {FTS} (rowid, path, summary, body) VALUES (?, ?, ?, ?)",
        [
            (first_method + ord_, fold(f"{method.verb} {method.path}"), fold(method.summary), fold(_search_text(method)))
            for ord_, method in enumerate(spec.methods)
        ],
    )
    tag_rows = []
    link_rows: list[tuple[int | None, str, int, int]] = []
    for ord_, tag in enumerate(spec.tags):
        members = tag_methods.get(tag.name, [])
        tag_id = ids.tag_id(domain, tag.name)
        tag_rows.append((domain_row, ord_, tag_id, tag.name, tag.description, len(members)))
        link_rows.extend((domain_row, tag_id, first_method + member, position) for position, member in enumerate(members))
    connection.executemany("INSERT INTO spec_tags VALUES (?, ?, ?, ?, ?, ?)", tag_rows)
    connection.executemany("INSERT INTO spec_method_tags VALUES (?, ?, ?, ?)", link_rows)
    for ord_, collection in enumerate(spec.collections):
        collection_id = ids.collection_id(domain, collection.title)
        in_collection = {member for name in collection.tags for member in tag_methods.get(name, [])}
        connection.execute(
            "INSERT INTO spec_collections VALUES (?, ?, ?, ?, ?, ?, ?)",
            (domain_row, ord_, collection_id, collection.title, collection.llm_title, len(collection.tags), len(in_collection)),
        )
        connection.executemany(
            "INSERT INTO spec_collection_tags VALUES (?, ?, ?, ?)",
            [(domain_row, collection_id, ids.tag_id(domain, name), position) for position, name in enumerate(collection.tags)],
        )
    root_key = f"{spec.root.removeprefix(f'specs/{domain}/')}#"
    connection.executemany(
        "INSERT INTO spec_refs VALUES (?, ?, ?)",
        [
            (domain_row, key, json.dumps(value, ensure_ascii=False, default=str))
            for key, value in spec.targets.items()
            if key != root_key  # the whole root is never a schema; its parts are stored under their own keys
        ],
    )


def _search_text(method) -> str:
    """What search reads besides path and summary: the description, the operationId and the parameter
    and schema names, each also split into words (`getPetById` is found by `pet`)."""
    from normcli.specs.text import identifier_words

    names = [method.operation_id, *method.search_names]
    return "\n".join([method.description, *names, *(identifier_words(name) for name in names if name)])
