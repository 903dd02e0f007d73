"""How fast `normcli ingest` reads PDFs: seconds per 100 pages, on one core and on two.

Each PDF (every PDF of ../shared/corpus, or those given, or every PDF under `--extra DIR`) is imported
`--repeat` times each way, the ways alternated so that a change in the machine's load touches both:
with the page-reading helper process (the default on a machine with a free second core; started here
whatever the load) and without it (one process). Beside each, PDFium's plain text extraction of the same PDF is timed in the same run, and the
import is also given as a multiple of it: that ratio holds when the machine is busy, the seconds do not.
CPU seconds count the helper process too. The load average is printed before and after.
With `--fresh`, each timed import runs in a new Python process (its modules loaded before the clock
starts), so no import finds the caches an earlier one filled: the figures of a first import.

    .venv/bin/python bench/import_speed.py                      # the corpus
    .venv/bin/python bench/import_speed.py a.pdf b.pdf --repeat 5
    .venv/bin/python bench/import_speed.py --extra ~/pdfs --json
    .venv/bin/python bench/import_speed.py --fresh              # every import in a new process
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from import_accuracy import extraction_seconds  # noqa: E402  (bench/ is the script's own folder)

from normcli.importers import pdf_pages  # noqa: E402
from normcli.importers.pdf import import_pdf  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"


def _cpu() -> float:
    """CPU seconds of this process and of its children that ended (the page-reading helper)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed_import(pdf: Path, helper: bool) -> tuple[float, float, int]:
    """Wall and CPU seconds of one import (with or without the helper process) and the page count."""
    saved, load = pdf_pages.PARALLEL_FROM, os.getloadavg
    pdf_pages.PARALLEL_FROM = saved if helper else sys.maxsize
    if helper:  # the importer starts no helper while the load says no core is free: here it is measured anyway
        os.getloadavg = lambda: (0.0, 0.0, 0.0)
    try:
        cpu = _cpu()
        started = time.perf_counter()
        draft = import_pdf(pdf)
        return time.perf_counter() - started, _cpu() - cpu, draft.pages
    finally:
        pdf_pages.PARALLEL_FROM, os.getloadavg = saved, load


def fresh_import(pdf: Path, helper: bool) -> tuple[float, float, int]:
    """`timed_import` in a new Python process: no cache of an earlier import in this one can flatter it."""
    way = "two" if helper else "one"
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--child", way, str(pdf)], capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        lines = (done.stderr.strip() or f"exit code {done.returncode}").splitlines()
        raise RuntimeError(f"the import process failed: {lines[-1]}")
    wall, cpu, pages = json.loads(done.stdout.strip().splitlines()[-1])
    return float(wall), float(cpu), int(pages)


def measure(pdf: Path, repeat: int, fresh: bool = False) -> dict:
    """The speed row of one PDF: medians of `repeat` runs each way (each in a new process with `fresh`)."""
    runs: dict[str, list[tuple[float, float, int]]] = {"one": [], "two": []}
    baseline = []
    timed = fresh_import if fresh else timed_import
    for _ in range(max(1, repeat)):
        baseline.append(extraction_seconds(pdf))
        for way in ("one", "two"):
            runs[way].append(timed(pdf, helper=way == "two"))
    pages = max(runs["one"][0][2], 1)
    plain = statistics.median(baseline)
    row: dict = {"document": pdf.name, "pages": runs["one"][0][2], "plainSecondsPer100Pages": round(100 * plain / pages, 3)}
    for way, label in (("one", "oneProcess"), ("two", "twoProcesses")):
        wall = statistics.median(run[0] for run in runs[way])
        cpu = statistics.median(run[1] for run in runs[way])
        row[label] = {
            "secondsPer100Pages": round(100 * wall / pages, 2),
            "cpuSecondsPer100Pages": round(100 * cpu / pages, 2),
            "timesPlainExtraction": round(wall / max(plain, 1e-6), 1),
        }
    return row


def main(argv: list[str] | None = None) -> int:
    """Print the speed table (Markdown) or, with --json, one JSON document."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path, help="PDFs (default: every PDF of ../shared/corpus)")
    parser.add_argument("--extra", type=Path, action="append", default=[], help="also every PDF under this folder")
    parser.add_argument("--repeat", type=int, default=3, help="imports each way (median)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    parser.add_argument(
        "--fresh", action="store_true", help="run each timed import in a new Python process, so no import reuses an earlier one's caches"
    )
    parser.add_argument("--child", choices=("one", "two"), help=argparse.SUPPRESS)  # one timed import for --fresh
    args = parser.parse_args(argv)
    if args.child:  # the modules are loaded above, before the clock starts; the caches are empty
        print(json.dumps(timed_import(args.pdfs[0], helper=args.child == "two")))
        return 0
    extra = [pdf for folder in args.extra for pdf in sorted(folder.rglob("*.pdf"))]
    pdfs = [*(args.pdfs or ([] if args.extra else sorted(CORPUS.glob("*/*.pdf")))), *extra]
    if not pdfs:
        print("no PDF found (is ../shared/corpus there?)", file=sys.stderr)
        return 1
    load_before = os.getloadavg()
    if not args.fresh:
        import_pdf(pdfs[0])  # the first import loads the modules: not counted
    rows = []
    for pdf in pdfs:
        try:
            rows.append(measure(pdf, args.repeat, args.fresh))
        except Exception as exc:  # a PDF that fails is reported in its row
            rows.append({"document": pdf.name, "error": f"{type(exc).__name__}: {exc}"})
    load = {"before": [round(value, 2) for value in load_before], "after": [round(value, 2) for value in os.getloadavg()]}
    if args.json:
        print(json.dumps({"cores": os.cpu_count(), "load": load, "fresh": args.fresh, "rows": rows}, indent=2))
        return 0
    mode = "each import in a new process" if args.fresh else "imports repeated in one process"
    print(f"cores: {os.cpu_count()}, load average (1, 5, 15 min) before {load['before']}, after {load['after']}; {mode}")
    print()
    print(
        "| document | pages | s / 100 pages, 2 processes | × plain extraction | s / 100 pages, 1 process | × plain extraction | CPU s / 100 pages (2 / 1) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        if "error" in row:
            print(f"| {row['document']} | error: {row['error']} |")
            continue
        two, one = row["twoProcesses"], row["oneProcess"]
        print(
            f"| {row['document']} | {row['pages']} | {two['secondsPer100Pages']} | {two['timesPlainExtraction']} | "
            f"{one['secondsPer100Pages']} | {one['timesPlainExtraction']} | {two['cpuSecondsPer100Pages']} / {one['cpuSecondsPer100Pages']} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
