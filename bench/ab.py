"""Interleaved A/B start-up benchmark: the same whole-process reads on two normcli source trees.

    python bench/ab.py --a /path/to/main --b .              # 20 rounds
    python bench/ab.py --a OLD --b NEW --rounds 40 --only info,toc,api-specs

On a shared machine a benchmark run after another measures the load as much as the code: here every
round runs each command once on A and once on B (in an order that alternates), so both see the same
load. Each run is a whole process (`python -m normcli … --json`, spawned and reaped with `os.wait4`),
timed as wall time and as CPU time (user + system, which other processes' load inflates far less).
`python -c pass` is measured the same way in every round; each ratio is a median over that baseline's median.

The norm reads run on the generated `small` workspace (`bench/gen_corpus.py`), the discovery calls on
`../shared/corpus/openapi` laid out as `bench/specs.py` does; each source tree gets its own copy of both
(the index format may differ between them). Progress goes to stderr; stdout carries the table.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "bench"))

import gen_corpus  # noqa: E402
import specs as spec_bench  # noqa: E402


def log(message: str) -> None:
    """Progress on stderr."""
    print(f"[ab {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def run(argv: list[str], cwd: Path) -> tuple[float, float, int]:
    """(wall seconds, CPU seconds, exit code) of one whole process, its output discarded."""
    null = os.open(os.devnull, os.O_RDWR)
    actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
    previous = os.getcwd()
    os.chdir(cwd)  # `python -m normcli` reads the package of the folder it starts in
    try:
        started = time.perf_counter()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
    finally:
        os.chdir(previous)
        os.close(null)
    return wall, usage.ru_utime + usage.ru_stime, os.waitstatus_to_exitcode(status)


def md5(text: str) -> str:
    """An id as SPEC §7 makes it."""
    return hashlib.md5(text.encode()).hexdigest()


def prepare(source: Path, scratch: Path, norms: Path, corpus: Path | None) -> Path:
    """A copy of the norm workspace (and the spec workspace) for one source tree, indexed by it."""
    python = sys.executable
    subprocess.run([python, "-m", "compileall", "-q", str(source / "normcli")], check=True, stdout=subprocess.DEVNULL)
    target = scratch / source.name
    shutil.copytree(norms, target / "norms-ws", ignore=shutil.ignore_patterns(".normcli"))
    subprocess.run(
        [python, "-m", "normcli", "--workspace", str(target / "norms-ws"), "info", "--json"], cwd=source, check=True, capture_output=True
    )
    if corpus is not None:
        spec_bench.build_workspace(corpus, target / "specs-ws")
        subprocess.run(
            [python, "-m", "normcli", "--workspace", str(target / "specs-ws"), "api", "specs", "--json"],
            cwd=source,
            check=True,
            capture_output=True,
        )
    return target


# As the `normcli` console script starts (no runpy, which `python -m` loads with contextlib and functools).
SCRIPT = "import sys; from normcli.__main__ import main; sys.exit(main())"


def commands(norms: Path, manifest: dict, corpus: Path | None, source: Path, target: Path, entry: str) -> dict[str, list[str]]:
    """Each measured command line for one source tree (its own workspaces)."""
    python = sys.executable
    normcli = [python, "-m", "normcli"] if entry == "module" else [python, "-c", SCRIPT]
    plain = manifest["bundles"][-1]
    ws = ["--workspace", str(target / "norms-ws")]
    found = {
        "pass": [python, "-c", "pass"],
        "info": [*normcli, *ws, "info", "--json"],
        "toc": [*normcli, *ws, "toc", plain["code"], "--json"],
        "toc-2000": [*normcli, *ws, "toc", manifest["treeNorm"]["code"], "--depth", "6", "--json"],
        "section": [*normcli, *ws, "section", plain["code"], plain["paths"][3], "--json"],
    }
    if corpus is None:
        return found
    spec_ws = ["--workspace", str(target / "specs-ws")]
    do_spec = md5("spec|digitalocean")
    ids = subprocess.run(
        [
            python,
            "-c",
            "import sys; from normcli.service import Service; s = Service.open(sys.argv[1]); "
            "c = s.spec_by_id(sys.argv[2]).collections[0].id; t = s.collection_by_id(c).tags[1].id; "
            "m = s.endpoint_by_tag(t).methods[0].id; print(c, t, m)",
            str(target / "specs-ws"),
            do_spec,
        ],
        cwd=source,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    collection, tag, method = ids
    for name, words in (
        ("api-specs", ["specs"]),
        ("api-spec", ["spec", do_spec]),
        ("api-collection", ["collection", collection]),
        ("api-tags", ["tags", do_spec]),
        ("api-tag", ["tag", tag]),
        ("api-endpoints", ["endpoints", tag]),
        ("api-endpoint", ["endpoint", method]),
        ("api-search", ["search", "droplet"]),
    ):
        found[name] = [*normcli, *spec_ws, "api", *words, "--json"]
    return found


def main() -> None:
    """Prepare both trees, run the rounds, print the table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--a", type=Path, required=True, help="the source tree measured first (the baseline, e.g. main)")
    parser.add_argument("--b", type=Path, required=True, help="the source tree compared with it")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--only", help="comma-separated commands (pass is always measured)")
    parser.add_argument("--corpus", type=Path, default=spec_bench.CORPUS, help="the openapi corpus (skipped when absent)")
    parser.add_argument("--cache", help="where generated workspaces are kept (as bench/run.py)")
    parser.add_argument(
        "--entry",
        choices=("module", "script"),
        default="module",
        help="`python -m normcli` (as bench/run.py) or as the console script starts",
    )
    args = parser.parse_args()
    cache = Path(args.cache or os.environ.get("NORMCLI_BENCH_CACHE") or Path(tempfile.gettempdir()) / "normcli-bench")
    norms = cache / f"small-seed{gen_corpus.DEFAULT_SEED}-v{gen_corpus.GENERATOR_VERSION}"
    manifest = gen_corpus.read_manifest(norms)
    if not manifest:
        log("generating the small workspace")
        manifest = gen_corpus.generate(norms, *gen_corpus.SIZES["small"], gen_corpus.DEFAULT_SEED, label="small")
    corpus = args.corpus if args.corpus.is_dir() else None
    sources = {"A": args.a.resolve(), "B": args.b.resolve()}
    load_start = os.getloadavg()[0]
    with tempfile.TemporaryDirectory(prefix="normcli-ab-") as scratch:
        lines: dict[str, dict[str, list[str]]] = {}
        for key, source in sources.items():
            log(f"preparing {key}: {source}")
            target = prepare(source, Path(scratch) / key, norms, corpus)
            lines[key] = commands(norms, manifest, corpus, source, target, args.entry)
        names = list(lines["A"])
        if args.only:
            wanted = set(args.only.split(",")) | {"pass"}
            names = [name for name in names if name in wanted]
        samples: dict[tuple[str, str], list[tuple[float, float]]] = {(key, name): [] for key in sources for name in names}
        for number in range(args.rounds):
            order = ("A", "B") if number % 2 == 0 else ("B", "A")
            for name in names:
                for key in order:
                    wall, cpu, code = run(lines[key][name], sources[key])
                    if code != 0:
                        raise SystemExit(f"{key} {name} exited {code}: {' '.join(lines[key][name])}")
                    samples[key, name].append((wall, cpu))
            if number % 5 == 4:
                log(f"round {number + 1}/{args.rounds}, load {os.getloadavg()[0]:.1f}")
    load_end = os.getloadavg()[0]

    def medians(key: str, name: str) -> tuple[float, float]:
        values = samples[key, name]
        return statistics.median(w for w, _ in values), statistics.median(c for _, c in values)

    print(
        f"interleaved A/B, {args.rounds} rounds, entry {args.entry}, {os.cpu_count()} cores, 1-min load {load_start:.1f} at start, {load_end:.1f} at end\n"
        f"A = {sources['A']}\nB = {sources['B']}\n"
    )
    print("| command | A wall | B wall | A CPU | B CPU | A wall/pass | B wall/pass | A CPU/pass | B CPU/pass |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    # One baseline for both columns: `python -c pass` is the same command on A and B, and pooling its
    # samples keeps its noise out of the comparison.
    pooled = samples["A", "pass"] + samples["B", "pass"]
    both = (statistics.median(w for w, _ in pooled), statistics.median(c for _, c in pooled))
    base = {"A": both, "B": both}
    for name in names:
        (a_wall, a_cpu), (b_wall, b_cpu) = medians("A", name), medians("B", name)
        print(
            f"| {name} | {a_wall * 1000:.1f} ms | {b_wall * 1000:.1f} ms | {a_cpu * 1000:.1f} ms | {b_cpu * 1000:.1f} ms | "
            f"{a_wall / base['A'][0]:.2f}× | {b_wall / base['B'][0]:.2f}× | {a_cpu / base['A'][1]:.2f}× | {b_cpu / base['B'][1]:.2f}× |"
        )


if __name__ == "__main__":
    main()
