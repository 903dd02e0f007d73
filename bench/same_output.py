"""Whether two normcli source trees import PDFs to the same bytes: the check a change made for speed must pass.

    .venv/bin/python bench/same_output.py --a /tmp/main-checkout --b .
    .venv/bin/python bench/same_output.py --a OLD --b . --extra /tmp/pdfs --sample /tmp/more --every 9 --out /tmp/same

Each PDF (every PDF of ../shared/corpus and the producers' fixtures of tests/fixtures/producers, plus every PDF
under each `--extra DIR`, plus every `--every`-th PDF by name under each `--sample DIR`) is ingested by each
tree, with its outline and with the outline ignored, into a workspace of its own; each tree runs in its own
process (its folder on PYTHONPATH), the two at once. Then the workspaces are compared byte for byte: the
bundle (norm file, figures), and the import report without its timing. A failed import is compared by its
error. With `--out DIR` the imports are kept there, and tree A's are reused by the next run while A's code
(commit and uncommitted diff) and the PDFs are the same, so a change can be checked again in half the time.
Prints each difference and a summary line; exits 1 when anything differs.
"""

from __future__ import annotations

import argparse
import filecmp
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
FIXTURES = ROOT / "tests" / "fixtures" / "producers"

# Run in each tree's own process: imports every PDF of argv[2:] into workspaces under argv[1].
WORKER = """
import json, sys, traceback
from pathlib import Path
from normcli.importers import ingest
out = Path(sys.argv[1])
for number, pdf in enumerate(sys.argv[2:]):
    for use_outline in (True, False):
        workspace = out / f"{number:03d}-{Path(pdf).stem}-{'outline' if use_outline else 'no-outline'}"
        (workspace / "norms").mkdir(parents=True)
        try:
            report = ingest(pdf, f"SAME {number}", "1", workspace=workspace, use_outline=use_outline).to_json()
            report.pop("seconds", None)
            text = json.dumps(report, indent=1, ensure_ascii=False, sort_keys=True)
        except Exception as exc:
            text = f"{type(exc).__name__}: {exc}"
        (workspace / "report.json").write_text(text, encoding="utf-8")
"""


def log(message: str) -> None:
    """Progress on stderr."""
    print(f"[same {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def chosen_pdfs(extra: list[Path], sample: list[Path], every: int) -> list[Path]:
    """The PDFs to import: the corpus, the producers' fixtures, the --extra ones and the --sample picks (once each)."""
    pdfs = [*sorted(CORPUS.glob("*/*.pdf")), *sorted(FIXTURES.glob("*.pdf"))]
    pdfs += [pdf for folder in extra for pdf in sorted(folder.rglob("*.pdf"))]
    pdfs += [pdf for folder in sample for pdf in sorted(folder.rglob("*.pdf"), key=lambda p: p.name)[:: max(1, every)]]
    seen: set[Path] = set()
    unique = []
    for pdf in pdfs:
        real = pdf.resolve()
        if real not in seen:
            seen.add(real)
            unique.append(real)
    return unique


def code_stamp(tree: Path) -> str:
    """The code a tree runs: its commit and a digest of its uncommitted changes to normcli/."""
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=tree, capture_output=True, text=True).stdout.strip()
    diff = subprocess.run(["git", "diff", "HEAD", "--", "normcli"], cwd=tree, capture_output=True).stdout
    return f"{commit}+{hashlib.sha256(diff).hexdigest()[:16]}"


def start(tree: Path, out: Path, pdfs: list[Path]) -> subprocess.Popen:
    """A tree's imports, running."""
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    environment = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.Popen([sys.executable, "-c", WORKER, str(out), *map(str, pdfs)], cwd=tree, env=environment)


def differences(a: Path, b: Path) -> list[str]:
    """Every file that is not the same in both folders (missing on one side, or other bytes)."""
    found = []
    names_a = {path.relative_to(a) for path in a.rglob("*") if path.is_file()}
    names_b = {path.relative_to(b) for path in b.rglob("*") if path.is_file()}
    for name in sorted(names_a ^ names_b):
        found.append(f"only in {'A' if name in names_a else 'B'}: {name}")
    for name in sorted(names_a & names_b):
        if not filecmp.cmp(a / name, b / name, shallow=False):
            found.append(f"differs: {name}{first_difference(a / name, b / name)}")
    return found


def first_difference(a: Path, b: Path) -> str:
    """The first line that differs, for a text file."""
    try:
        lines_a = a.read_text(encoding="utf-8").splitlines()
        lines_b = b.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        return " (binary)"
    for number, (line_a, line_b) in enumerate(zip(lines_a, lines_b, strict=False), start=1):
        if line_a != line_b:
            return f"\n    line {number}\n    A: {line_a[:200]}\n    B: {line_b[:200]}"
    return f" (A has {len(lines_a)} lines, B {len(lines_b)})"


def main(argv: list[str] | None = None) -> int:
    """Import with both trees, compare, print what differs; 0 when nothing does."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--a", type=Path, required=True, help="the reference source tree (e.g. a checkout of main)")
    parser.add_argument("--b", type=Path, default=ROOT, help="the source tree checked against it (default: this one)")
    parser.add_argument("--extra", type=Path, action="append", default=[], help="also every PDF under this folder")
    parser.add_argument("--sample", type=Path, action="append", default=[], help="also every --every-th PDF under this folder")
    parser.add_argument("--every", type=int, default=9, help="the step of --sample, by file name (default 9)")
    parser.add_argument("--out", type=Path, help="keep the imports here (and reuse A's while A's code and the PDFs are unchanged)")
    args = parser.parse_args(argv)
    pdfs = chosen_pdfs(args.extra, args.sample, args.every)
    trees = {"A": args.a.resolve(), "B": args.b.resolve()}
    scratch = None if args.out else tempfile.TemporaryDirectory(prefix="normcli-same-")
    out = args.out.resolve() if args.out else Path(scratch.name)  # type: ignore[union-attr]
    stamp = {"code": code_stamp(trees["A"]), "pdfs": [str(pdf) for pdf in pdfs]}
    manifest = out / "A.json"
    reuse = manifest.is_file() and json.loads(manifest.read_text(encoding="utf-8")) == stamp
    log(
        f"{len(pdfs)} PDFs, each with and without its outline; A = {trees['A']}{' (kept from the last run)' if reuse else ''}, B = {trees['B']}"
    )
    started = time.perf_counter()
    running = {key: start(tree, out / key, pdfs) for key, tree in trees.items() if not (key == "A" and reuse)}
    failed = [key for key, process in running.items() if process.wait() != 0]
    if failed:
        print(f"the imports of {', '.join(failed)} stopped with an error", file=sys.stderr)
        return 2
    if args.out and not reuse:
        manifest.write_text(json.dumps(stamp), encoding="utf-8")
    found = differences(out / "A", out / "B")
    for line in found:
        print(line)
    files = sum(1 for path in (out / "A").rglob("*") if path.is_file())
    verdict = "the same bytes" if not found else f"{len(found)} files differ"
    print(f"{len(pdfs)} PDFs × 2 (outline, no outline), {files} files: {verdict} ({time.perf_counter() - started:.0f} s)")
    if scratch is not None:
        scratch.cleanup()
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
