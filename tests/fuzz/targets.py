"""Fuzz targets: each takes bytes and raises only when it finds a bug.

`bundle_target` feeds the bytes to the bundle parser as a `norm.md`; `query_target` turns them into
an operation with hostile arguments (and a command line for the lean `--json` parser) and runs it
against the sample workspace. Run them with `make fuzz` (tests/fuzz/run.py), atheris when it is
installed, else hypothesis; `tests/fuzz/test_targets.py` replays the seeds and past findings.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import tempfile
from functools import cache
from pathlib import Path

from normcli.bundle import UnreadableBundle, parse_bundle, summary_of
from normcli.errors import NormcliError
from normcli.fold import code_key, path_key, words

LEAKS = ("sqlite", "fts5", "syntax error", "traceback", "malformed", "no such table", "no such column")
OPERATIONS = ("toc", "subtree", "section", "search", "corpus", "xrefs", "figure", "info", "norms", "get_toc", "search_in_norm")
PARAMETERS = ("code", "path", "keyword", "figureId", "edition", "language", "maxDepth", "maxNodes", "maxChars", "offset", "limit", "norm")
CODES = ("SIA 261", "sia261", "SIA 261:2014", "SIA 260", "VSS 640 100", "SIA-261")


class Bytes:
    """A small reader of fuzz bytes (like atheris' FuzzedDataProvider, without needing atheris)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            return 0
        self.at += 1
        return self.data[self.at - 1]

    def text(self) -> str:
        """Bytes up to the next NUL, decoded leniently (lone surrogates and bad bytes included)."""
        end = self.data.find(b"\0", self.at)
        end = len(self.data) if end == -1 else end
        chunk = self.data[self.at : end]
        self.at = end + 1
        return chunk.decode("utf-8", errors="surrogateescape")

    def integer(self) -> int:
        kind = self.byte() % 4
        raw = int.from_bytes(bytes(self.byte() for _ in range(8)), "little", signed=True)
        return (raw, raw % 3000, -(raw % 100), raw % 50_000)[kind]


@cache
def _workspace() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="normcli-fuzz-"))
    sample = Path(__file__).resolve().parents[2] / "sample_workspace"
    shutil.copytree(sample, folder / "ws", ignore=shutil.ignore_patterns(".normcli"))
    return folder / "ws"


@cache
def _service():
    from normcli.service import Service

    return Service.open(_workspace())


@cache
def _fts() -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.execute("CREATE VIRTUAL TABLE t USING fts5(title, body, tokenize='unicode61 remove_diacritics 2')")
    connection.execute("INSERT INTO t VALUES ('charge de neige', 'la neige 4 2 1')")
    return connection


def _bundle_file() -> Path:
    folder = _workspace().parent / "bundle" / "norms" / "fuzz-1" / "2020"
    folder.mkdir(parents=True, exist_ok=True)
    return folder / "norm.md"


def bundle_target(data: bytes) -> None:
    """The parser never raises on content but `UnreadableBundle`, and what it returns is well formed."""
    file = _bundle_file()
    file.write_bytes(data)
    lines = data.count(b"\n") + data.count(b"\r") + 2
    try:
        bundle = parse_bundle(file, "norms/fuzz-1/2020/norm.md")
    except UnreadableBundle as unreadable:
        assert unreadable.problems, "an unreadable bundle must say why"
        problems = unreadable.problems
        bundle = None
    else:
        problems = bundle.problems
    for problem in problems:
        assert problem.file == "norms/fuzz-1/2020/norm.md" and problem.reason
        assert 0 <= problem.line <= lines, (problem.line, lines)
        assert problem.severity in ("error", "warning")
    if bundle is None:
        return
    assert bundle.code.strip()
    paths = [node.path for node in bundle.nodes]
    assert len(set(map(path_key, paths))) == len(paths), "paths must be unique after folding"
    known = set(paths)
    for node in bundle.nodes:
        assert node.depth >= 1
        # a bundle without page markers has no pages (SPEC §6: cited without one); else a range in order
        assert (node.page_start is None) == (node.page_end is None)
        assert node.page_start is None or node.page_start <= node.page_end
        assert node.parent_path is None or node.parent_path in known
        summary_of(node.text)
    for figure in bundle.figures:
        if figure.file is not None:
            assert (file.parent / figure.file).resolve().is_relative_to(file.parent.resolve())
    json.dumps([problem.to_json() for problem in problems])


def _check_error(error: NormcliError) -> None:
    assert error.code in ("invalid_argument", "not_found"), error.code
    message = error.one_line()
    assert not any(word in message.lower() for word in LEAKS), message
    assert not any(ord(char) < 32 for char in message), message


def query_target(data: bytes) -> None:
    """An operation with arbitrary arguments is an answer or a clean error; any keyword is a valid FTS5 query."""
    from normcli.catalogue import split_code
    from normcli.cli.fast import parse
    from normcli.operations import run
    from normcli.search import Words, fts_phrase, fts_query, keyword_tokens, spellings

    source = Bytes(data)
    op = OPERATIONS[source.byte() % len(OPERATIONS)]
    params: dict[str, object] = {}
    for _ in range(source.byte() % 5):
        name = PARAMETERS[source.byte() % len(PARAMETERS)]
        choice = source.byte() % 4
        params[name] = source.integer() if choice == 0 else CODES[source.byte() % len(CODES)] if choice == 1 else source.text()
    if source.byte() % 2 and "code" not in params:
        params["code"] = CODES[source.byte() % len(CODES)]
    try:
        answer = run(_service(), op, params)
    except NormcliError as error:
        _check_error(error)
    else:
        json.dumps(answer.to_json())
    keyword = source.text()
    try:
        tokens = keyword_tokens(keyword)
    except NormcliError as error:
        _check_error(error)
    else:
        found = Words(tokens, spellings(keyword, tokens), {token: [token + "x"] for token in tokens})
        for query in (fts_query(found), fts_query(found, prefixes=False), fts_query(found, inside=True), fts_phrase(tokens)):
            if tokens:
                _fts().execute("SELECT rowid FROM t WHERE t MATCH ?", (query,)).fetchall()
    try:
        split_code(keyword, None)
    except NormcliError as error:
        _check_error(error)
    code_key(keyword), path_key(keyword), words(keyword)
    argv = [source.text() for _ in range(source.byte() % 8)]
    parsed = parse(argv)
    assert parsed is None or isinstance(parsed[2], dict)


TARGETS = {"bundle": bundle_target, "query": query_target}
