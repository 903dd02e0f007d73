"""Processes for the concurrency test: readers that check every answer, and re-indexers that change bundles.

`python -m tests.reliability.workers reader ROOT SECONDS STOP` prints one JSON line of counts;
`python -m tests.reliability.workers writer ROOT SECONDS SEED` does the same for a re-indexer.
Each runs for at least SECONDS and until it has done its share (readers: MIN_READS, and until the file STOP
exists, which the test creates once every writer is done; writers: MIN_REINDEXES), so a slow or loaded machine
makes the test longer, not vacuous. CEILING bounds both.
"""

from __future__ import annotations

import json
import os
import random
import sys
import time
from pathlib import Path

NORMS = 4
CHAPTERS = 12
MIN_REINDEXES = 5
MIN_READS = 20
CEILING = 120.0


def bundle_text(number: int, version: int) -> str:
    """Norm `C {number}` at `version`: every chapter's text names the version, so a reader can tell old from new."""
    head = f'---\ncode: C {number}\nedition: "2020"\nlanguage: fr\n---\n'
    body = "".join(
        f"# {chapter} Chapitre {chapter}\nversion {version} de la norme {number}, neige et vent, chapitre {chapter}.\n"
        + "Texte de remplissage sur la charge de neige. " * 20
        + "\n"
        for chapter in range(1, CHAPTERS + 1)
    )
    return head + body


def write_atomically(file: Path, text: str) -> None:
    """Replace a bundle the way an editor or a script that saves safely does."""
    temporary = file.with_name(f".{file.name}.{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, file)


def make_workspace(root: Path) -> None:
    """The workspace of the test: NORMS norms at version 0."""
    for number in range(NORMS):
        folder = root / "norms" / f"c-{number}" / "2020"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "norm.md").write_text(bundle_text(number, 0), encoding="utf-8")


def _version_of(text: str, number: int) -> int:
    marker = "version "
    start = text.index(marker) + len(marker)
    version = int(text[start : text.index(" ", start)])
    assert f"de la norme {number}," in text
    return version


def reader(root: Path, seconds: float, stop: Path) -> dict:
    """Read for `seconds` and until `stop` exists: toc, section, search and corpus, each answer checked against what some writer wrote."""
    from normcli.service import Service

    with Service.open(root) as service:
        counts = {"reads": 0, "errors": 0, "wrong": 0, "max_ms": 0.0, "messages": []}
        rng = random.Random(os.getpid())
        started_at = time.monotonic()
        while _keep_going(started_at, seconds, done=stop.exists() and counts["reads"] >= MIN_READS):
            number = rng.randrange(NORMS)
            kind = rng.choice(["toc", "section", "search", "corpus"])
            started = time.perf_counter()
            try:
                if kind == "toc":
                    tree = service.toc(f"C {number}").tree
                    ok = [node.path for node in tree] == [str(chapter) for chapter in range(1, CHAPTERS + 1)]
                elif kind == "section":
                    chapter = rng.randrange(1, CHAPTERS + 1)
                    section = service.section(f"C {number}", str(chapter))
                    version = _version_of(section.content, number)
                    ok = f"chapitre {chapter}." in section.content and (version == 0 or version // 100_000 in (1, 2))
                elif kind == "search":
                    hits = service.search(f"C {number}", "neige vent", limit=50).hits
                    ok = len(hits) == CHAPTERS
                else:
                    norms = service.corpus("neige", limit=40).norms
                    ok = {norm.code for norm in norms} <= {f"C {n}" for n in range(NORMS)} and len(norms) >= 1
            except Exception as exc:  # every failure is counted, never hidden
                counts["errors"] += 1
                if len(counts["messages"]) < 5:
                    counts["messages"].append(f"{kind}: {type(exc).__name__}: {exc}")
                continue
            finally:
                counts["max_ms"] = max(counts["max_ms"], (time.perf_counter() - started) * 1000)
            counts["reads"] += 1
            if not ok:
                counts["wrong"] += 1
                if len(counts["messages"]) < 5:
                    counts["messages"].append(f"wrong {kind} answer for C {number}")
    return counts


def writer(root: Path, seconds: float, seed: int) -> dict:
    """Change a bundle, re-index (a refresh, or now and then a full rebuild), and again, for `seconds` and MIN_REINDEXES times at least."""
    from normcli.store.refresh import refresh

    rng = random.Random(seed)
    counts = {"changes": 0, "rebuilds": 0, "errors": 0, "messages": []}
    started_at = time.monotonic()
    version = seed * 100_000
    while _keep_going(started_at, seconds, done=counts["changes"] + counts["rebuilds"] >= MIN_REINDEXES):
        number = rng.randrange(NORMS)
        version += 1
        write_atomically(root / "norms" / f"c-{number}" / "2020" / "norm.md", bundle_text(number, version))
        try:
            rebuild = rng.random() < 0.2
            refresh(root, rebuild=rebuild)
            counts["rebuilds" if rebuild else "changes"] += 1
        except Exception as exc:
            counts["errors"] += 1
            counts["messages"].append(f"{type(exc).__name__}: {exc}")
        time.sleep(rng.uniform(0.0, 0.05))
    return counts


def _keep_going(started_at: float, seconds: float, *, done: bool) -> bool:
    """Before `seconds`, always; after, until the worker's share is `done`; never past CEILING."""
    elapsed = time.monotonic() - started_at
    return elapsed < seconds or (not done and elapsed < CEILING)


if __name__ == "__main__":
    role, folder, duration = sys.argv[1], Path(sys.argv[2]), float(sys.argv[3])
    result = reader(folder, duration, Path(sys.argv[4])) if role == "reader" else writer(folder, duration, int(sys.argv[4]))
    print(json.dumps(result), flush=True)
