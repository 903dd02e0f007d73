"""The normcli benchmark: one Markdown table of medians (with min–max), each against a baseline of the same run.

    python bench/run.py                     # small (20 norms × 500 clauses), 3 runs
    python bench/run.py --size large        # 200 norms × 1,000 clauses = 200,000 clauses
    python bench/run.py --quick             # CI-sized: tiny corpus, 2 runs
    python bench/run.py --workspace DIR     # reuse a workspace made by bench/gen_corpus.py

Generated workspaces are cached (see --cache) so that a rerun starts at once. Progress goes to
stderr; stdout carries only the table and its notes. Each row names the goal of issue 6 it answers
and whether this run meets it; goals stated for `large` are checked on whatever size ran, as a hint.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOURCE = REPO  # the normcli source tree measured: this checkout, or --source (e.g. an export of one commit)
sys.path.insert(0, str(REPO / "bench"))

import gen_corpus  # noqa: E402 - bench/ is not a package

MB = 1024 * 1024
KINDS = ("common", "rare", "accented", "clause", "phrase", "symbol")


def log(message: str) -> None:
    """Progress on stderr, so that stdout stays one table."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


# -- numbers ------------------------------------------------------------------------------------


@dataclass
class Stat:
    """A median with the smallest and largest sample."""

    median: float
    low: float
    high: float
    samples: list[float] = field(default_factory=list)

    wanted: int = 0

    @classmethod
    def of(cls, samples: Iterable[float], wanted: int = 0) -> Stat:
        """The median, min and max of samples; `wanted` runs were asked for (fewer when over the time budget)."""
        values = sorted(samples)
        return cls(statistics.median(values), values[0], values[-1], values, wanted)


def percentile(values: list[float], share: float) -> float:
    """Nearest-rank percentile (p95 of 50 values is the 48th smallest)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def fmt_seconds(value: float) -> str:
    """`0.43 ms`, `12.3 ms`, `4.71 s`."""
    if value >= 1:
        return f"{value:.2f} s"
    ms = value * 1000
    return f"{ms:.2f} ms" if ms < 10 else f"{ms:.1f} ms"


def fmt_mb(value: float) -> str:
    """Bytes as MiB."""
    return f"{value / MB:.1f} MiB"


@dataclass
class Row:
    """One line of the table."""

    measure: str
    value: str
    spread: str
    baseline: str
    ratio: str
    goal: str = "—"
    met: bool | None = None

    def cells(self) -> list[str]:
        mark = "" if self.met is None else ("✓" if self.met else "✗")
        return [self.measure, self.value, self.spread, self.baseline, self.ratio, self.goal, mark]


def time_row(
    measure: str, stat: Stat, baseline: tuple[str, float] | None, goal: str = "—", met: bool | None = None, extra: str = ""
) -> Row:
    """A row for a duration, with its ratio to a baseline duration."""
    base_text, ratio = "—", "—"
    if baseline is not None:
        label, base = baseline
        base_text = f"{label}: {fmt_seconds(base)}"
        ratio = f"{stat.median / base:.2f}×" if base > 0 else "—"
    value = fmt_seconds(stat.median) + (f" ({extra})" if extra else "")
    spread = f"{fmt_seconds(stat.low)} – {fmt_seconds(stat.high)}"
    if stat.wanted and len(stat.samples) < stat.wanted:
        spread += f" (n={len(stat.samples)}, time budget)"
    return Row(measure, value, spread, base_text, ratio, goal, met)


# -- processes ----------------------------------------------------------------------------------


@dataclass
class Finished:
    """A whole process: wall time, peak resident memory, exit code, what it printed, and its CPU time
    (user + system: what other processes' load inflates far less than the wall time)."""

    seconds: float
    max_rss: int
    code: int
    stdout: bytes
    stderr: bytes
    cpu: float = 0.0


# A small launcher starts each measured process: a child's peak RSS (`ru_maxrss`) also counts the
# memory of the process that forked it, so forking from this (large) process would inflate it.
_LAUNCHER = """
import os, sys, time
report, argv = sys.argv[1], sys.argv[2:]
started = time.perf_counter()
pid = os.posix_spawnp(argv[0], argv, os.environ)
_, status, usage = os.wait4(pid, 0)
with open(report, "w") as handle:
    handle.write(f"{time.perf_counter() - started} {usage.ru_maxrss} {os.waitstatus_to_exitcode(status)} {usage.ru_utime + usage.ru_stime}")
"""


def run_process(command: list[str], stdin_file: Path | None = None, cwd: Path | None = None) -> Finished:
    """Run a command to its end through the launcher: its own wall time, peak RSS, exit code and output."""
    with (
        tempfile.TemporaryFile() as errors,
        tempfile.NamedTemporaryFile("r", suffix=".txt") as report,
        open(stdin_file, "rb") if stdin_file else open(os.devnull, "rb") as stdin,
    ):
        done = subprocess.run(
            [sys.executable, "-S", "-c", _LAUNCHER, report.name, *command], stdin=stdin, stdout=subprocess.PIPE, stderr=errors, cwd=cwd
        )
        seconds, rss, code, cpu = report.read().split()
        errors.seek(0)
        if done.returncode != 0:
            raise SystemExit(f"the launcher failed: {errors.read().decode(errors='replace')[-400:]}")
        return Finished(float(seconds), int(rss) * 1024, int(code), done.stdout, errors.read(), float(cpu))


def normcli_command(workspace: Path, *args: str) -> list[str]:
    """`python -m normcli --workspace W ARGS…` with the interpreter running this script."""
    return [sys.executable, "-m", "normcli", "--workspace", str(workspace), *args]


BUDGET = 15.0  # seconds one measure may take before it stops adding runs (it always makes at least one)


def repeat_process(
    command: list[str], runs: int, warm: int = 1, check: bool = True, stdin_file: Path | None = None, cwd: Path | None = None
) -> tuple[Stat, Finished]:
    """Median wall time of up to `runs` runs after `warm` unmeasured ones (within BUDGET); also the last run's output."""
    last = None
    begun = time.perf_counter()
    for _ in range(warm):
        last = run_process(command, stdin_file, cwd=cwd or SOURCE)
    samples: list[float] = []
    while len(samples) < runs and not (samples and time.perf_counter() - begun > BUDGET):
        last = run_process(command, stdin_file, cwd=cwd or SOURCE)
        if check and last.code != 0:
            raise SystemExit(f"{' '.join(command)} exited {last.code}: {last.stderr.decode(errors='replace')[-400:]}")
        samples.append(last.seconds)
    assert last is not None
    return Stat.of(samples, runs), last


def repeat_call(call: Callable[[], object], runs: int, warm: int = 1) -> Stat:
    """Median in-process time of up to `runs` calls after `warm` unmeasured ones (within BUDGET)."""
    begun = time.perf_counter()
    for _ in range(warm):
        call()
    samples: list[float] = []
    while len(samples) < runs and not (samples and time.perf_counter() - begun > BUDGET):
        started = time.perf_counter()
        call()
        samples.append(time.perf_counter() - started)
    return Stat.of(samples, runs)


# -- the workspace ------------------------------------------------------------------------------


def cache_root(option: str | None) -> Path:
    """Where generated workspaces are kept between runs."""
    return Path(option or os.environ.get("NORMCLI_BENCH_CACHE") or Path(tempfile.gettempdir()) / "normcli-bench")


def ensure_workspace(args: argparse.Namespace) -> tuple[Path, dict]:
    """The workspace to measure: `--workspace`, else a cached generated one (made when missing or outdated)."""
    if args.workspace:
        root = Path(args.workspace).resolve()
        manifest = gen_corpus.read_manifest(root)
        if manifest is None:
            raise SystemExit(f"{root} has no {gen_corpus.MANIFEST}: make it with bench/gen_corpus.py")
        return root, manifest
    norms, sections = gen_corpus.SIZES[args.size]
    norms = args.norms or norms
    sections = args.sections or sections
    label = args.size if not (args.norms or args.sections) else f"{norms}x{sections}"
    root = cache_root(args.cache) / f"{label}-seed{args.seed}-v{gen_corpus.GENERATOR_VERSION}"
    manifest = gen_corpus.read_manifest(root)
    wanted = {"generatorVersion": gen_corpus.GENERATOR_VERSION, "norms": norms, "sectionsPerNorm": sections, "seed": args.seed}
    if manifest is None or any(manifest.get(key) != value for key, value in wanted.items()):
        log(f"generating {label} ({norms} norms × {sections} clauses) in {root}")
        manifest = gen_corpus.generate(root, norms, sections, args.seed, label=label)
        log(f"generated {manifest['totalSections']:,} clauses, {manifest['bundleBytes'] / 1e6:.1f} MB in {manifest['seconds']} s")
    else:
        log(f"reusing {root}")
    return root, manifest


def all_keywords(manifest: dict) -> list[tuple[str, str]]:
    """The 50 (kind, keyword) pairs of the manifest."""
    return [(kind, word) for kind in KINDS for word in manifest["keywords"].get(kind, [])]


def batch_requests(manifest: dict, count: int, seed: int) -> list[dict]:
    """`count` mixed operations over the corpus, the same for a seed."""
    rng = random.Random(f"batch:{seed}")
    bundles = manifest["bundles"]
    words = [word for _, word in all_keywords(manifest)]
    big = manifest.get("bigSection")
    requests: list[dict] = []
    for number in range(count):
        bundle = rng.choice(bundles)
        code, path = bundle["code"], rng.choice(bundle["paths"])
        roll = rng.random()
        if roll < 0.30:
            request = {"op": "section", "code": code, "path": path}
        elif roll < 0.31 and big:
            request = {"op": "section", "code": big["code"], "path": big["path"], "maxChars": 4000, "offset": rng.randrange(0, 900_000)}
        elif roll < 0.50:
            request = {"op": "search", "code": code, "keyword": rng.choice(words), "limit": 10}
        elif roll < 0.65:
            request = {"op": "corpus", "keyword": rng.choice(words), "limit": 10}
        elif roll < 0.77:
            request = {"op": "toc", "code": code, "maxDepth": 2}
        elif roll < 0.87:
            request = {"op": "subtree", "code": code, "path": path, "maxNodes": 100}
        elif roll < 0.97:
            request = {"op": "xrefs", "code": code, "path": path}
        else:
            request = {"op": rng.choice(["info", "norms"])}
        request["id"] = number
        requests.append(request)
    return requests


# -- the measures -------------------------------------------------------------------------------


class Bench:
    """Runs every measure on one workspace and collects the rows."""

    def __init__(self, root: Path, manifest: dict, runs: int, quick: bool) -> None:
        self.root = root
        self.manifest = manifest
        self.runs = runs
        self.quick = quick
        self.rows: list[Row] = []
        self.notes: list[str] = []
        self.results: dict[str, object] = {}
        self.rg = shutil.which("rg")
        self.sections = manifest["totalSections"]

    def add(self, row: Row) -> None:
        self.rows.append(row)
        log(" | ".join(row.cells()))

    def section_rows(self, title: str) -> None:
        self.rows.append(Row(f"**{title}**", "", "", "", "", "", None))

    # start-up ----------------------------------------------------------------------------

    def startup(self) -> None:
        self.section_rows("Start-up (whole process: wall, and CPU = user + system)")
        runs = max(self.runs, 7) if not self.quick else self.runs
        # pip compiles a wheel's modules as it installs them; a checkout run under PYTHONDONTWRITEBYTECODE
        # (as on these machines) would otherwise compile every module again on every call it measures.
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(SOURCE / "normcli")], check=True, stdout=subprocess.DEVNULL)
        tree = self.manifest["treeNorm"]["code"]
        plain = self.manifest["bundles"][-1]
        # Issue 11 asks a --json read's start-up for ≤ 2.5× (issue 6 asked ≤ 6×); a 2,000-node answer is
        # more than start-up, and keeps issue 6's bound.
        start_up, big = (2.5, "≤ 2.5× `python -c pass` (issue 11)"), (6.0, "≤ 6× `python -c pass`")
        commands: list[tuple[str, list[str], tuple[float, str] | None]] = [
            ("`python -c pass`", [sys.executable, "-c", "pass"], None),
            ("`normcli info --json`", normcli_command(self.root, "info", "--json"), start_up),
            (f"`normcli toc {plain['code']} --json`", normcli_command(self.root, "toc", plain["code"], "--json"), start_up),
            (
                f"`normcli toc {tree} --depth 6 --json` (2,000 nodes)",
                normcli_command(self.root, "toc", tree, "--depth", "6", "--json"),
                big,
            ),
            (
                f"`normcli section {plain['code']} {plain['paths'][3]} --json`",
                normcli_command(self.root, "section", plain["code"], plain["paths"][3], "--json"),
                start_up,
            ),
        ]
        # In rounds, each command once per round: on a shared machine every command then meets the same
        # load as the baseline it is divided by.
        for _, argv, _ in commands:
            run_process(argv, cwd=SOURCE)
        walls: dict[str, list[float]] = {label: [] for label, _, _ in commands}
        cpus: dict[str, list[float]] = {label: [] for label, _, _ in commands}
        for _ in range(runs):
            for label, argv, _ in commands:
                done = run_process(argv, cwd=SOURCE)
                if done.code != 0:
                    raise SystemExit(f"{' '.join(argv)} exited {done.code}: {done.stderr.decode(errors='replace')[-400:]}")
                walls[label].append(done.seconds)
                cpus[label].append(done.cpu)
        bare, bare_cpu = Stat.of(walls["`python -c pass`"], runs), statistics.median(cpus["`python -c pass`"])
        self.bare = bare.median
        info = Stat.of(walls["`normcli info --json`"], runs)
        self.info = info.median
        for label, _, bound in commands:
            stat, cpu = Stat.of(walls[label], runs), statistics.median(cpus[label])
            if bound is None:
                row = time_row(label, stat, None)
            else:
                row = time_row(label, stat, ("pass", bare.median), bound[1], stat.median <= bound[0] * bare.median)
                row.ratio += f" (CPU {cpu / bare_cpu:.2f}×)" + (
                    f" · {stat.median / info.median:.2f}× info" if label != "`normcli info --json`" else ""
                )
            row.value += f", CPU {fmt_seconds(cpu)}"
            self.add(row)

    # queries -----------------------------------------------------------------------------

    def queries(self) -> None:
        from normcli.service import Service

        service = Service.open(self.root)
        service.info()
        keywords = all_keywords(self.manifest)
        self.section_rows(f"Queries in-process ({self.sections:,} clauses, {len(keywords)} keywords × {self.runs} runs)")
        bundles = self.manifest["bundles"]
        corpus_times: dict[str, list[float]] = {}
        by_word: dict[str, float] = {}
        search_times: list[float] = []
        hits: dict[str, int] = {}
        for number, (kind, word) in enumerate(keywords):
            stat = repeat_call(lambda word=word: service.corpus(word, limit=20), self.runs)
            corpus_times.setdefault(kind, []).append(stat.median)
            by_word[word] = stat.median
            hits[word] = sum(len(norm.hits) for norm in service.corpus(word, limit=20).norms)
            code = bundles[number % len(bundles)]["code"]
            search_times.append(repeat_call(lambda word=word, code=code: service.search(code, word), self.runs).median)
        every = [value for values in corpus_times.values() for value in values]
        rg = self.rg_times(keywords)
        rg_p50 = statistics.median(rg) if rg else None
        base = ("rg -i p50", rg_p50) if rg_p50 else None
        p50, p95 = percentile(every, 0.5), percentile(every, 0.95)
        spread = Stat(p50, min(every), max(every))
        self.add(time_row("corpus p50 (limit 20)", spread, base, "—"))
        self.add(time_row("corpus p95", Stat(p95, min(every), max(every)), base, "p95 ≤ 50 ms (large)", p95 <= 0.050))
        for kind in KINDS:
            values = corpus_times.get(kind, [])
            if values:
                kind_p95 = percentile(values, 0.95)
                row = time_row(f"corpus p95 — {kind} ({len(values)})", Stat(kind_p95, min(values), max(values)), base)
                if kind in ("common", "rare"):
                    row.goal, row.met = "p95 ≤ 50 ms (large)", kind_p95 <= 0.050
                self.add(row)
        s50, s95 = percentile(search_times, 0.5), percentile(search_times, 0.95)
        self.add(time_row("search in one norm p50", Stat(s50, min(search_times), max(search_times)), base))
        self.add(time_row("search in one norm p95", Stat(s95, min(search_times), max(search_times)), base))
        slowest = sorted(by_word.items(), key=lambda item: -item[1])[:6]
        self.notes.append(
            "slowest corpus keywords (in-process median): " + ", ".join(f"`{word}` {fmt_seconds(value)}" for word, value in slowest) + "."
        )
        self.results["corpus"] = {
            "byWord": by_word,
            "p50": p50,
            "p95": p95,
            "byKind": corpus_times,
            "search": search_times,
            "rg": rg,
            "hits": hits,
        }
        if rg:
            self.notes.append(
                f"rg -i over the {self.manifest['bundleBytes'] / 1e6:.0f} MB of bundles: p50 {fmt_seconds(percentile(rg, 0.5))}, "
                f"p95 {fmt_seconds(percentile(rg, 0.95))} per keyword (whole process, plain line matches: no ranking, no grouping, "
                f"no accent folding — `Strasse` finds {self.rg_count('Strasse')} lines with rg, {hits.get('Strasse', 0)} ranked clauses with normcli)."
            )
        self.sections_windows(service)
        self.trees(service)
        service.close()

    def rg_times(self, keywords: list[tuple[str, str]]) -> list[float]:
        if not self.rg:
            self.notes.append("ripgrep is not installed (`apt-get install ripgrep`): no rg baseline.")
            return []
        times = []
        for _, word in keywords:
            stat, _ = repeat_process([self.rg, "-i", "-F", "--", word, "norms"], self.runs, check=False, cwd=self.root)
            times.append(stat.median)
        return times

    def rg_count(self, word: str) -> int:
        if not self.rg:
            return 0
        done = subprocess.run(
            [self.rg, "-i", "-F", "-c", "--no-filename", "--", word, str(self.root / "norms")], capture_output=True, text=True
        )
        return sum(int(line) for line in done.stdout.split() if line.isdigit())

    def sections_windows(self, service) -> None:
        big = self.manifest.get("bigSection")
        if not big:
            return
        total = service.section(big["code"], big["path"], max_chars=12000).total_chars
        self.section_rows(f"`section` windows of 12,000 chars in the {total / 1e6:.2f} M-char clause {big['code']} {big['path']}")
        offsets = [0, total // 4, total // 2, 3 * total // 4, max(0, total - 12000)]

        def first_read(offset: int) -> object:
            # The index keeps the last long clause it unpacked: measure without it (and without the
            # freshness check that service.index() would add outside an operation).
            forget = getattr(service, "forget_texts", None)  # absent from sources older than issue 11 (--source)
            if forget is not None:
                forget()
            return service.section(big["code"], big["path"], max_chars=12000, offset=offset)

        first = None
        for offset in offsets:
            stat = repeat_call(lambda offset=offset: first_read(offset), max(self.runs, 5))
            if first is None:
                first = stat.median
                self.add(time_row(f"offset {offset:,} (first window read)", stat, None, "same time at any offset"))
            else:
                label = f"offset {offset:,} (first window read)"
                self.add(time_row(label, stat, ("offset 0", first), "≤ 1.5× offset 0", stat.median <= 1.5 * first))
        paging = repeat_call(lambda: service.section(big["code"], big["path"], max_chars=12000, offset=total // 2), max(self.runs, 5))
        self.add(time_row(f"offset {total // 2:,}, paging on (clause already unpacked)", paging, ("first read", first), "—"))

    def trees(self, service) -> None:
        tree = self.manifest["treeNorm"]
        code = tree["code"]
        self.section_rows(f"Trees of {code} ({tree['sections']:,} nodes)")
        runs = max(self.runs, 5)
        toc1 = repeat_call(lambda: service.toc(code, max_depth=1), runs)
        self.add(time_row("toc depth 1", toc1, None))
        toc6 = repeat_call(lambda: service.toc(code, max_depth=6), runs)
        self.add(time_row("toc depth 6 (every node)", toc6, ("toc depth 1", toc1.median)))
        chapter = tree["chapter"]
        sub = repeat_call(lambda: service.subtree(code, chapter, max_nodes=2000), runs)
        self.add(time_row(f"subtree {chapter} ({tree['chapterNodes']:,} nodes, maxNodes 2000)", sub, ("toc depth 1", toc1.median)))
        encode = repeat_call(lambda: json.dumps(service.toc(code, max_depth=6).to_json(), ensure_ascii=False), runs)
        self.add(time_row("toc depth 6 + to_json + json.dumps", encode, ("toc depth 1", toc1.median)))

    # whole-process search ------------------------------------------------------------------

    def corpus_process(self) -> None:
        self.section_rows("Corpus search as a whole process")
        words = [self.manifest["keywords"][kind][0] for kind in KINDS]
        samples = []
        last = None
        for word in words:
            stat, last = repeat_process(normcli_command(self.root, "corpus", word, "--json"), self.runs)
            samples.append(stat.median)
        stat = Stat.of(samples)
        goal = "≤ `info` + 25 ms"
        self.add(
            time_row(
                f"`normcli corpus KW --json` ({len(words)} kinds, median)",
                stat,
                ("info", self.info),
                goal,
                stat.median <= self.info + 0.025,
                extra=f"+{(stat.median - self.info) * 1000:.0f} ms",
            )
        )
        if self.rg:
            rg_samples = [
                repeat_process([self.rg, "-i", "-F", "--", word, "norms"], self.runs, check=False, cwd=self.root)[0].median
                for word in words
            ]
            rg_stat = Stat.of(rg_samples)
            self.add(time_row("`rg -i KW norms/` (same keywords)", rg_stat, None))
            row = time_row("corpus ÷ rg (whole process)", stat, ("rg", rg_stat.median), "report at 200k and 1M")
            self.add(row)
        if last is not None:
            self.peak_corpus = last.max_rss

    # batch -----------------------------------------------------------------------------------

    def batch(self, count: int) -> None:
        from normcli.cli.batch import BATCH_RECHECK_SECONDS
        from normcli.operations import run
        from normcli.service import Service

        self.section_rows(f"`normcli batch`: {count:,} mixed queries (JSON Lines)")
        requests = batch_requests(self.manifest, count, 6)
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as handle:
            handle.write("".join(json.dumps(request, ensure_ascii=False) + "\n" for request in requests))
            source = Path(handle.name)
        try:
            service = Service.open(self.root)
            service.recheck_after = BATCH_RECHECK_SECONDS  # as `normcli batch` does

            per_op: dict[str, list[float]] = {}

            def in_process() -> None:
                per_op.clear()
                for request in requests:
                    params = {key: value for key, value in request.items() if key not in ("op", "id")}
                    kind = request["op"] + (" (1 MB clause)" if "offset" in request else "")
                    started = time.perf_counter()
                    with contextlib.suppress(Exception):  # an error is an answer in a batch too
                        json.dumps(run(service, request["op"], params).to_json(), ensure_ascii=False)
                    per_op.setdefault(kind, []).append(time.perf_counter() - started)

            inside = repeat_call(in_process, 1, warm=0)
            parts = sorted(per_op.items(), key=lambda item: -sum(item[1]))
            self.notes.append(
                "batch, in-process time by operation (count, median, share of the total): "
                + "; ".join(
                    f"{op} ×{len(times)} {fmt_seconds(statistics.median(times))} {sum(times) / inside.median:.0%}" for op, times in parts
                )
                + "."
            )
            service.close()
            stat, last = repeat_process(normcli_command(self.root, "batch"), min(self.runs, 3), warm=0, stdin_file=source)
            lines = last.stdout.decode().splitlines()
            errors = sum(1 for line in lines if '"error"' in line[:40])
            goal_seconds = 2.0 * count / 1000
            self.add(
                time_row(
                    f"`normcli batch` < {count:,} requests",
                    stat,
                    ("same ops in-process", inside.median),
                    f"≤ {goal_seconds:g} s (large)",
                    stat.median <= goal_seconds,
                    extra=f"{stat.median / count * 1000:.2f} ms/query",
                )
            )
            self.peak_batch = last.max_rss
            self.notes.append(f"batch answered {len(lines)} lines for {count} requests ({errors} error answers).")
        finally:
            source.unlink(missing_ok=True)

    # index -----------------------------------------------------------------------------------

    def index(self) -> None:
        self.section_rows("Index")
        big = self.sections > 50_000
        runs = min(self.runs, 2) if big else max(1, min(self.runs, 3))
        build_script = (
            "import json, sys; from normcli.service import Service; "
            "r = Service.open(sys.argv[1]).rebuild(force=True); print(json.dumps({'seconds': r.seconds}))"
        )
        parse_script = (
            "import sys, time; from pathlib import Path; from normcli.bundle import parse_bundle; "
            "from normcli.workspace import list_bundle_files; t = time.perf_counter(); "
            "n = sum(len(parse_bundle(f.path).nodes) for f in list_bundle_files(Path(sys.argv[1]))); print(time.perf_counter() - t)"
        )
        parse = run_process([sys.executable, "-c", parse_script, str(self.root)], cwd=SOURCE)
        parse_seconds = float(parse.stdout.decode().strip() or "nan")
        seconds, rss = [], []
        for number in range(runs):
            log(f"full build {number + 1}/{runs} of {self.sections:,} clauses")
            done = run_process([sys.executable, "-c", build_script, str(self.root)], cwd=SOURCE)
            if done.code != 0:
                raise SystemExit(f"index build failed: {done.stderr.decode(errors='replace')[-400:]}")
            seconds.append(json.loads(done.stdout)["seconds"])
            rss.append(done.max_rss)
        build = Stat.of(seconds)
        rate = self.sections / build.median
        goal_rate = 200_000 / 60
        self.add(
            time_row(
                f"full build ({self.sections:,} clauses)",
                build,
                ("parse only", parse_seconds),
                "≥ 3,333 clauses/s (200k ≤ 60 s)",
                rate >= goal_rate,
                extra=f"{rate:,.0f} clauses/s",
            )
        )
        self.peak_build = max(rss)
        self.build_seconds = build.median
        self.refresh_rows(build.median)

    def refresh_rows(self, build_seconds: float) -> None:
        refresh = refresh_function()

        bundles = self.manifest["bundles"]
        target = self.root / bundles[min(2, len(bundles) - 1)]["file"]
        original = target.read_bytes()
        refresh(self.root)
        samples = []
        try:
            for number in range(self.runs):
                target.write_bytes(original + f"\nGegebenenfalls ist ein Zusatz {number} vorzusehen.\n".encode())
                started = time.perf_counter()
                done = refresh(self.root)
                samples.append(time.perf_counter() - started)
                assert done.indexed == 1, done
        finally:
            target.write_bytes(original)
            refresh(self.root)
        stat = Stat.of(samples)
        self.add(
            time_row(
                f"refresh after one bundle changed ({len(bundles)} bundles)",
                stat,
                ("full build", build_seconds),
                "≤ 1 s",
                stat.median <= 1.0,
            )
        )
        files = [self.root / bundle["file"] for bundle in bundles]
        stat_only = repeat_call(lambda: [os.stat(file) for file in files], max(self.runs, 20))
        check = repeat_call(lambda: refresh(self.root), max(self.runs, 20))
        self.add(
            time_row(
                "no-change check (`refresh`, in-process)",
                check,
                (f"{len(files)} × os.stat", stat_only.median),
                "≤ 10 ms",
                check.median <= 0.010,
            )
        )

    # memory and size -------------------------------------------------------------------------

    def memory(self) -> None:
        self.section_rows("Memory (peak RSS) and size")
        bare = run_process([sys.executable, "-c", "pass"]).max_rss
        rows = [
            ("corpus query process (`normcli corpus beton --json`)", getattr(self, "peak_corpus", None), "≤ 100 MB", 100 * MB),
            ("`normcli batch` process", getattr(self, "peak_batch", None), "≤ 100 MB (a query)", 100 * MB),
            ("index build process", getattr(self, "peak_build", None), "—", None),
        ]
        for label, value, goal, limit in rows:
            if value is None:
                continue
            met = None if limit is None else value <= limit
            self.add(Row(label, fmt_mb(value), "", f"`python -c pass`: {fmt_mb(bare)}", f"{value / bare:.1f}×", goal, met))
        index_file = self.root / ".normcli" / "index.sqlite"
        size = index_file.stat().st_size
        bundles = sum((self.root / bundle["file"]).stat().st_size for bundle in self.manifest["bundles"])
        free = self.free_pages(index_file)
        label = "index size" + (f" ({free / size:.0%} free pages after the refresh rows)" if free else "")
        self.add(
            Row(
                label,
                fmt_mb(size),
                "",
                f"bundles (norm*.md): {fmt_mb(bundles)}",
                f"{size / bundles:.2f}×",
                "≤ 2× bundles",
                size <= 2 * bundles,
            )
        )

    @staticmethod
    def free_pages(index_file: Path) -> int:
        """Bytes in the index's free pages (left by incremental updates until a VACUUM)."""
        import sqlite3

        from normcli.store.schema import read_only_uri

        try:
            connection = sqlite3.connect(read_only_uri(index_file), uri=True)
            try:
                free = connection.execute("PRAGMA freelist_count").fetchone()[0]
                page = connection.execute("PRAGMA page_size").fetchone()[0]
            finally:
                connection.close()
        except sqlite3.Error:
            return 0
        return free * page

    # output ------------------------------------------------------------------------------------

    def table(self) -> str:
        header = ["Measure", "Median", "min – max", "Baseline (same run)", "Ratio", "Goal (issue 6 unless named)", "Met"]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        lines.extend("| " + " | ".join(row.cells()) + " |" for row in self.rows)
        return "\n".join(lines)


def source_label() -> str:
    """Which normcli was measured: the commit, and whether its core had uncommitted changes."""
    stamp = SOURCE / ".bench-commit"
    if stamp.is_file():
        return f"normcli {stamp.read_text().strip()[:10]} (exported)"
    try:
        head = subprocess.run(
            ["git", "-C", str(SOURCE), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(SOURCE), "status", "--porcelain", "--", "normcli"], capture_output=True, text=True
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return f"normcli from {SOURCE}"
    return f"normcli {head}" + (" + uncommitted core changes" if dirty else "")


def refresh_function() -> Callable[..., object]:
    """`refresh(root)` of the measured normcli (it moved from store.build to store.refresh)."""
    try:
        from normcli.store.refresh import refresh
    except ImportError:
        from normcli.store.build import refresh  # type: ignore[no-redef]
    return refresh


def machine(load_at_start: float) -> str:
    """One line naming the machine: cores, memory, Python, SQLite."""
    import sqlite3

    try:
        memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1024**3
        memory_text = f"{memory:.0f} GiB RAM"
    except (ValueError, OSError, AttributeError):
        memory_text = "RAM unknown"
    try:
        load = f"1-min load {load_at_start:.1f} at start, {os.getloadavg()[0]:.1f} at end"
    except OSError:
        load = "load unknown"
    return f"{os.cpu_count()} cores, {memory_text}, {load}, Python {platform.python_version()}, SQLite {sqlite3.sqlite_version}, {platform.system()} {platform.release()}"


def main(argv: list[str] | None = None) -> int:
    """Parse the options, make or reuse the workspace, measure, print the table."""
    global BUDGET, SOURCE
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", choices=sorted(gen_corpus.SIZES), help="corpus size (default: small; tiny with --quick)")
    parser.add_argument("--norms", type=int, help="a custom number of norms")
    parser.add_argument("--sections", type=int, help="a custom number of clauses per norm")
    parser.add_argument("--runs", type=int, help="runs per measure (default 3; 2 with --quick)")
    parser.add_argument("--workspace", help="measure this generated workspace instead of a cached one")
    parser.add_argument("--quick", action="store_true", help="CI-sized: tiny corpus, 2 runs, 200 batch requests")
    parser.add_argument("--seed", type=int, default=gen_corpus.DEFAULT_SEED)
    parser.add_argument("--cache", help="where generated workspaces are kept (default: $NORMCLI_BENCH_CACHE or <tmp>/normcli-bench)")
    parser.add_argument("--batch", type=int, help="batch requests (default 1,000; 200 with --quick)")
    parser.add_argument("--json", dest="json_out", type=Path, help="also write every number to this JSON file")
    parser.add_argument("--only", help="comma-separated parts to run: startup,queries,process,batch,index,memory (default: all)")
    parser.add_argument("--budget", type=float, default=BUDGET, help="seconds a measure may take before it stops adding runs (default 15)")
    parser.add_argument("--source", type=Path, help="the normcli source tree to measure (default: this checkout)")
    args = parser.parse_args(argv)
    SOURCE = (args.source or REPO).resolve()
    sys.path.insert(0, str(SOURCE))
    args.size = args.size or ("tiny" if args.quick else "small")
    runs = args.runs or (2 if args.quick else 3)
    started = time.perf_counter()
    load_at_start = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    root, manifest = ensure_workspace(args)
    refresh = refresh_function()
    log("bringing the index up to date (a build when there is none)")
    refresh(root)
    bench = Bench(root, manifest, runs, args.quick)
    BUDGET = args.budget
    parts = set((args.only or "startup,queries,process,batch,index,memory").split(","))
    if "process" in parts:
        parts.add("startup")  # the whole-process corpus row is measured against `info`
    for part, measure in (
        ("startup", bench.startup),
        ("queries", bench.queries),
        ("process", bench.corpus_process),
        ("batch", lambda: bench.batch(args.batch or (200 if args.quick else 1000))),
        ("index", bench.index),
        ("memory", bench.memory),
    ):
        if part in parts:
            measure()
    elapsed = time.perf_counter() - started
    print(
        f"normcli benchmark — {manifest['label']}: {manifest['norms']} norms, {manifest['totalSections']:,} clauses, "
        f"{manifest['bundleBytes'] / 1e6:.1f} MB of bundles (seed {manifest['seed']}); median of {runs} runs; {source_label()}; {machine(load_at_start)}; "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; took {elapsed:.0f} s\n"
    )
    print(bench.table())
    if bench.notes:
        print()
        for note in bench.notes:
            print(f"- {note}")
    if args.json_out:
        rows = [row.__dict__ for row in bench.rows]
        args.json_out.write_text(
            json.dumps(
                {"manifest": {k: v for k, v in manifest.items() if k != "bundles"}, "rows": rows, "raw": bench.results},
                indent=1,
                ensure_ascii=False,
                default=str,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
