"""The TUI benchmark: first paint of `normcli browse` and the paint of each window of a long clause.

    python bench/tui.py                 # 5 start-ups per case, 60 windows per clause
    python bench/tui.py --runs 3 --windows 20

Everything is measured through `NORMCLI_TUI_TIMING` (the marks the app writes as it goes):
- first paint: a fresh `python` process per run, from the moment it is spawned to the first frame
  (`first screen`) and to the first clause painted, on the sample workspace;
- window paint: in one headless app (160×48), a key that crosses into another window of a clause
  of 50,000 characters and one of 1 MB, until that window is on screen (`key→paint`), and the
  Markdown widget's share of it (`widget`). Forward through the clause, then back.

Progress goes to stderr; stdout carries only the table. The goals are those of issue 16
(first paint ≤ 0.5 s, every window ≤ 200 ms at p90).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_workspace"
COLLECTED = re.compile(r"^[\d.]+s [\d.]+ collected \d+ objects in (?P<ms>\d+) ms")
PAINTED = re.compile(r"^(?P<at>[\d.]+)s (?P<wall>[\d.]+) painted (?P<code>.+?) (?P<path>\S+) @(?P<offset>\d+) in (?P<ms>\d+) ms")

_CHILD = """
import os, sys, time
spawned = float(sys.argv[1])
from normcli.tui.app import NormcliApp
from normcli.tui.library import Location
start = Location(sys.argv[3], sys.argv[4]) if len(sys.argv) > 4 else None
app = NormcliApp(sys.argv[2], start, theme="textual-dark", entered=time.perf_counter() - (time.time() - spawned))

async def until_painted(pilot):
    wanted = "painted" if start else "tree filled"
    for _ in range(400):
        if any(wanted in event for event, _ in app.timings):
            break
        await pilot.pause(0.01)
    await pilot.pause(0.05)
    app.exit()

app.run(headless=True, size=(120, 40), auto_pilot=until_painted)
"""


def log(message: str) -> None:
    """Progress on stderr."""
    print(f"[tui bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def percentile(values: list[float], share: float) -> float:
    """The `share` percentile (nearest rank) of `values`."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered) + 0.5) - 1))]


# -- generated long clauses --------------------------------------------------------------------

WORDS = tuple(
    [
        "the",
        "characteristic",
        "value",
        "of",
        "the",
        "snow",
        "load",
        "on",
        "the",
        "ground",
        "depends",
        "on",
        "the",
        "zone",
        "altitude",
        "and",
        "exposure",
        "of",
        "the",
        "site",
        "load",
        "combination",
        "design",
        "situation",
        "partial",
        "factor",
        "resistance",
        "serviceability",
        "ultimate",
        "limit",
        "state",
        "roof",
        "shape",
        "coefficient",
        "drift",
        "accumulation",
        "thermal",
        "wind",
        "local",
        "effects",
        "accidental",
        "action",
        "structural",
        "member",
        "verification",
    ]
)


def long_clause_text(chars: int, seed: int = 16) -> str:
    """About `chars` characters of norm-like Markdown: paragraphs with references and formulas, tables, display formulas."""
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    number = 0
    while size < chars:
        number += 1
        words = [rng.choice(WORDS) for _ in range(rng.randint(40, 140))]
        if rng.random() < 0.5:
            words.insert(rng.randint(0, len(words)), f"see 2.{rng.randint(1, 9)}.{rng.randint(1, 9)}")
        if rng.random() < 0.4:
            words.insert(rng.randint(0, len(words)), "$q_k = \\mu_i \\cdot C_e \\cdot s_k$")
        paragraph = f"({number}) " + " ".join(words).capitalize() + "."
        if number % 9 == 0:
            rows = [f"| {i} | {rng.randint(1, 900) / 100:.2f} | {rng.choice(WORDS)} | {rng.randint(1, 90)} |" for i in range(12)]
            paragraph += f"\n\nTable {number} – Values\n\n| zone | s_k | note | h |\n|---|---|---|---|\n" + "\n".join(rows)
        if number % 13 == 0:
            paragraph += (
                f"\n\n$$ s_k = 0.35 \\cdot Z_s \\cdot \\left[ 1 + \\left( \\frac{{h_0}}{{400}} \\right)^2 \\right] \\qquad ({number}) $$"
            )
        parts.append(paragraph)
        size += len(paragraph) + 2
    return "\n\n".join(parts)


def long_workspace(root: Path, sizes: dict[str, int]) -> Path:
    """A workspace holding one norm whose chapters are clauses of the given sizes."""
    body = ['---\ncode: LONG 1\nedition: "2026"\ntitle: Long clauses\nlanguage: en\npublished: true\n---\n<!-- page 1 -->']
    for number, (title, chars) in enumerate(sizes.items(), start=1):
        body += [f"# {number} {title}", "", long_clause_text(chars, seed=number), ""]
    body += [f"# {len(sizes) + 1} Neighbour", "", "Short text.", ""]
    folder = root / "norms" / "long-1" / "2026"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "norm.md").write_text("\n".join(body), encoding="utf-8")
    return root


# -- first paint ---------------------------------------------------------------------------------


def first_paint(workspace: Path, runs: int, target: tuple[str, str] | None) -> tuple[list[float], list[float]]:
    """Seconds from spawning `python` to the first frame and to the first clause painted (or the tree filled)."""
    screens: list[float] = []
    contents: list[float] = []
    for _ in range(runs):
        with tempfile.NamedTemporaryFile("r", suffix=".log", delete=False) as marks:
            name = marks.name
        env = {**os.environ, "NORMCLI_TUI_TIMING": name, "NORMCLI_DATA_DIR": str(Path(name).with_suffix(".data")), "NORMCLI_IMAGES": "0"}
        spawned = time.time()
        arguments = [sys.executable, "-c", _CHILD, f"{spawned:.6f}", str(workspace), *(target or ())]
        subprocess.run(arguments, env=env, cwd=REPO, check=True, capture_output=True, timeout=120)
        lines = Path(name).read_text(encoding="utf-8").splitlines()
        Path(name).unlink()

        def wall(event: str, lines: list[str] = lines, spawned: float = spawned) -> float:
            for line in lines:
                _, stamp, what = line.split(" ", 2)
                if what.startswith(event):
                    return float(stamp) - spawned
            raise RuntimeError(f"no '{event}' mark in {lines}")

        screens.append(wall("first screen"))
        contents.append(wall("painted" if target else "tree filled"))
    return screens, contents


# -- window paints -------------------------------------------------------------------------------


async def window_paints(
    workspace: Path, path: str, windows: int, window_chars: int | None = None
) -> tuple[list[float], list[float], list[float], int]:
    """Page forward through `windows` windows of clause `path`, then back; key→paint, widget and collection seconds.

    The app collects the garbage of the window it replaced right after the new one is on screen (while the
    reader reads, see normcli/tui/memory.py); that collection is reported on its own row."""
    from normcli.tui.app import NormcliApp
    from normcli.tui.library import Location

    with tempfile.NamedTemporaryFile("r", suffix=".log", delete=False) as marks:
        name = marks.name
    os.environ["NORMCLI_TUI_TIMING"] = name
    options = {"window_chars": window_chars} if window_chars else {}
    app = NormcliApp(workspace, Location("LONG 1", path), theme="textual-dark", **options)
    keyed: list[tuple[float, int]] = []  # (wall time of the key, offset shown before it)
    async with app.run_test(size=(160, 48)) as pilot:

        async def settle() -> None:
            for _ in range(3):
                await app.workers.wait_for_complete()
                await pilot.pause()

        def offset() -> int:
            reading = app.screen.reading  # type: ignore[attr-defined]
            return reading.section.offset if reading else -1

        await settle()
        for key, count in (("pagedown", windows), ("pageup", windows)):
            crossed = 0
            idle = 0  # presses since the last crossing: many in a row mean the end of the clause
            while crossed < count and idle < 40:
                before = offset()
                stamp = time.time()
                await pilot.press(key)
                idle += 1
                await settle()
                if offset() != before:
                    keyed.append((stamp, before))
                    crossed += 1
                    idle = 0
    del os.environ["NORMCLI_TUI_TIMING"]
    lines = Path(name).read_text(encoding="utf-8").splitlines()
    Path(name).unlink()
    paints = [match for line in lines if (match := PAINTED.match(line))]
    latency: list[float] = []
    widget: list[float] = []
    for stamp, _ in keyed:
        after = next((match for match in paints if float(match["wall"]) >= stamp), None)
        if after is not None:
            latency.append(float(after["wall"]) - stamp)
            widget.append(int(after["ms"]) / 1000)
    collections = [int(match["ms"]) / 1000 for line in lines if (match := COLLECTED.match(line))][1:]  # [0]: start-up's
    return latency, widget, collections, len(keyed)


def main() -> None:
    """Run every case and print one table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="start-ups per first-paint case")
    parser.add_argument("--windows", type=int, default=60, help="windows crossed each way per long clause")
    parser.add_argument("--window-chars", type=int, default=None, help="the reader's window size (default: the app's)")
    parser.add_argument("--only", choices=("start", "windows"), default=None, help="run one half only")
    args = parser.parse_args()
    rows: list[tuple[str, str, str, str]] = []
    with tempfile.TemporaryDirectory() as folder:
        sample = Path(folder) / "sample"
        shutil.copytree(SAMPLE, sample, ignore=shutil.ignore_patterns(".normcli"))
        log("indexing the sample copy once")
        first_paint(sample, 1, None)
        starts = (("sample, browse", None), ("sample, browse SIA 261 4.2.1", ("SIA 261", "4.2.1")))
        for label, target in starts if args.only != "windows" else ():
            log(f"first paint: {label}")
            screens, contents = first_paint(sample, args.runs, target)
            rows.append((f"first frame ({label})", f"{statistics.median(screens):.3f} s", f"{percentile(screens, 0.9):.3f} s", "≤ 0.5 s"))
            what = "first clause painted" if target else "tree filled"
            rows.append((f"{what} ({label})", f"{statistics.median(contents):.3f} s", f"{percentile(contents, 0.9):.3f} s", "≤ 0.5 s"))
        log("generating clauses of 50,000 characters and of 1 MB")
        long = long_workspace(Path(folder) / "long", {"Fifty thousand": 50_000, "One megabyte": 1_000_000})
        from normcli.service import Service

        Service.open(long).close()  # index once, outside the measurement
        for label, path in (("50,000 chars", "1"), ("1 MB", "2")) if args.only != "start" else ():
            log(f"window paints: {label}")
            latency, widget, collections, count = asyncio.run(window_paints(long, path, args.windows, args.window_chars))
            if not latency:
                rows.append((f"window, {label}", "—", "—", "≤ 0.2 s p90"))
                continue
            rows.append(
                (
                    f"window key→paint, {label} ({count} crossings)",
                    f"{statistics.median(latency):.3f} s",
                    f"{percentile(latency, 0.9):.3f} s",
                    "≤ 0.2 s p90",
                )
            )
            rows.append(
                (f"window paint as the app timed it, {label}", f"{statistics.median(widget):.3f} s", f"{percentile(widget, 0.9):.3f} s", "")
            )
            if collections:
                rows.append(
                    (
                        f"garbage collection after the paint, {label}",
                        f"{statistics.median(collections):.3f} s",
                        f"{percentile(collections, 0.9):.3f} s",
                        "",
                    )
                )
    print("| measure | p50 | p90 | goal |")
    print("|---|---:|---:|---|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (a loaded machine paints slower)")


if __name__ == "__main__":
    main()
