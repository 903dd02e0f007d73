"""Helpers shared by the reliability tests: small workspaces, a good neighbour bundle, mounts."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

PROJECT = Path(__file__).resolve().parents[2]
SAMPLE = PROJECT / "sample_workspace"

GOOD = """\
---
code: GOOD 1
edition: "2020"
title: Une norme en bon état
language: fr
---
<!-- page 3 -->
# 1 Objet
La charge de neige sur le sol est traitée ici, voir 2.1.
# 2 Actions
## 2.1 Neige
La valeur caractéristique de la charge de neige vaut $s_k$.
## 2.2 Vent
La pression du vent est donnée par la figure 1.
"""


def write_file(root: Path, slug: str, edition: str, content: str | bytes, name: str = "norm.md") -> Path:
    """Write one bundle file as given (text without dedent, or raw bytes)."""
    folder = root / "norms" / slug / edition
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / name
    if isinstance(content, bytes):
        file.write_bytes(content)
    else:
        file.write_text(content, encoding="utf-8")
    return file


def good_workspace(root: Path) -> Path:
    """A workspace holding the one good bundle `GOOD 1`."""
    write_file(root, "good-1", "2020", GOOD)
    return root


def copy_sample(target: Path) -> Path:
    """A private copy of the sample workspace without its index."""
    shutil.copytree(SAMPLE, target, ignore=shutil.ignore_patterns(".normcli"))
    return target


def child_env(**extra: str) -> dict[str, str]:
    """The environment for a `python -m normcli` child: this checkout importable, no workspace from outside."""
    env = {key: value for key, value in os.environ.items() if key != "NORMCLI_WORKSPACE"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT), env.get("PYTHONPATH", "")]))
    env.update(extra)
    return env


def sigint_default() -> None:
    """Run in a child before it starts (`preexec_fn`): Ctrl-C reaches it as at a terminal. A test run started as a
    shell's background job ignores SIGINT, and a child inherits that, so Python would install no handler for it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def normcli(*args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    """Run `python -m normcli ARGS` as a child process."""
    return subprocess.run(
        [sys.executable, "-m", "normcli", *args], capture_output=True, text=True, env=env or child_env(), timeout=timeout, cwd=PROJECT
    )


def mount(*args: str) -> bool:
    """Run `mount ARGS`; False when this machine does not let us (not root, no mount, a container)."""
    if shutil.which("mount") is None:
        return False
    done = subprocess.run(["mount", *args], capture_output=True, text=True)
    return done.returncode == 0


def unmount(target: Path) -> None:
    """Undo a mount made by a test (lazily, so that an open file never keeps it)."""
    subprocess.run(["umount", "-l", str(target)], capture_output=True)


LEAKS = ("sqlite", "fts5", "syntax error", "traceback", "malformed", "no such table", "no such column", "database")


def leaks(text: str) -> list[str]:
    """The words of an SQL or Python failure that an answer shows (none is the goal)."""
    lowered = text.lower()
    return [word for word in LEAKS if word in lowered]


def index_state(path: Path) -> tuple[int, ...] | None:
    """The index's content fingerprint (bundle sizes, clause count), or None without one; fails on a half-written index."""
    import sqlite3

    from normcli.store import schema

    if not path.exists():
        return None
    # A writer killed inside its transaction leaves a hot journal; the first read-write connection
    # rolls it back (a read-only one refuses to read), which is what any later writer does too.
    hot = Path(f"{path}-journal").exists()
    connection = sqlite3.connect(path) if hot else sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert schema.is_ours(connection)
        sizes = tuple(size for (size,) in connection.execute("SELECT size FROM bundles ORDER BY file"))
        nodes = connection.execute("SELECT count(*) FROM nodes").fetchone()[0]
        fts = connection.execute(f"SELECT count(*) FROM {schema.FTS_TABLE}").fetchone()[0]
        assert fts == nodes, "the search index and the clauses disagree"
        return (*sizes, nodes)
    finally:
        connection.close()


PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)
