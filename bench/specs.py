"""Benchmark of the API specs (issue 14): import all of ../shared/corpus/openapi, then discovery calls.

    python bench/specs.py                   # 5 runs of each process, 200 searches in process
    python bench/specs.py --runs 9          # more runs
    python bench/specs.py --corpus DIR      # another folder laid out like ../shared/corpus/openapi

The corpus becomes one workspace: DigitalOcean's spec (its ~2,900 files), each Twilio file its own
domain, and every file of redoc-demo and oai-examples its own domain. The import is a cold index
build of those specs (`normcli index --rebuild`, whole process), reported in MB of spec files per
second. Each discovery call runs as a whole process (`normcli api … --json`) against a baseline of
`python -c pass` measured in the same run; `api search` is also timed in process over many keywords.
The calls run in rounds (each once per round, the baseline too), and each is timed as wall time and as
CPU time (user + system), which the load of other processes inflates far less. Progress goes to
stderr; stdout carries the table only.

Goals (issue 14): import ≥ 2 MB/s; each discovery call ≤ 3× `python -c pass`; search p95 ≤ 20 ms in process.
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
CORPUS = REPO.parent / "shared" / "corpus" / "openapi"
KEYWORDS = (
    "droplet",
    "snapshot",
    "firewall rules",
    "kubernetes cluster",
    "load balancer",
    "message",
    "verification check",
    "conversation participant",
    "webhook",
    "pet",
    "order",
    "user login",
    "invoice",
    "domain records",
    "database replica",
    "phone number",
    "sim",
    "token",
    "list",
    "delete",
)


def log(message: str) -> None:
    """Progress on stderr."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def build_workspace(corpus: Path, target: Path) -> int:
    """Lay the corpus out as a workspace under `target`; the bytes of spec files copied."""
    specs = target / "specs"
    (target / "norms").mkdir(parents=True)
    specs.mkdir()
    shutil.copytree(corpus / "digitalocean" / "specification", specs / "digitalocean")
    for file in sorted((corpus / "twilio").glob("*.json")):
        (specs / file.stem).mkdir()
        shutil.copy2(file, specs / file.stem / file.name)
    for folder in ("redoc-demo", "oai-examples"):
        for file in sorted((corpus / folder).glob("*.yaml")):
            domain = f"{folder}-{file.stem}"
            (specs / domain).mkdir()
            shutil.copy2(file, specs / domain / file.name)
    return sum(path.stat().st_size for path in specs.rglob("*") if path.is_file() and path.suffix in (".json", ".yaml", ".yml"))


def timed(command: list[str], env: dict[str, str]) -> float:
    """Seconds one process takes; it must succeed."""
    return measured(command, env)[0]


def measured(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds: user + system) of one process, which must succeed; its output is discarded."""
    null = os.open(os.devnull, os.O_RDWR)
    with tempfile.TemporaryFile() as errors:
        actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, errors.fileno(), 2)]
        started = time.perf_counter()
        pid = os.posix_spawn(command[0], command, env, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        elapsed = time.perf_counter() - started
        os.close(null)
        if os.waitstatus_to_exitcode(status) != 0:
            errors.seek(0)
            raise SystemExit(f"{' '.join(command)} failed ({os.waitstatus_to_exitcode(status)}): {errors.read().decode()[-400:]}")
    return elapsed, usage.ru_utime + usage.ru_stime


def rounds(commands: list[list[str]], env: dict[str, str], runs: int) -> list[list[tuple[float, float]]]:
    """(wall, CPU) samples of each command over `runs` rounds, each command once per round after one
    warm-up run: on a shared machine every command then meets the same load as the baseline."""
    for command in commands:
        measured(command, env)
    samples: list[list[tuple[float, float]]] = [[] for _ in commands]
    for _ in range(runs):
        for index, command in enumerate(commands):
            samples[index].append(measured(command, env))
    return samples


def md5(text: str) -> str:
    """An id as SPEC §7 makes it."""
    return hashlib.md5(text.encode()).hexdigest()


def main() -> None:
    """Run the benchmark and print its table."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--searches", type=int, default=200)
    args = parser.parse_args()
    if not args.corpus.is_dir():
        raise SystemExit(f"no corpus at {args.corpus}")
    load_start = os.getloadavg()[0]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    env.pop("NORMCLI_WORKSPACE", None)
    python = sys.executable
    rows: list[tuple[str, str, str, str]] = []
    # As `make install` and a wheel's installer do: no measured call compiles a module (PYTHONDONTWRITEBYTECODE may be set).
    subprocess.run([python, "-m", "compileall", "-q", str(REPO / "normcli")], capture_output=True, check=False)
    with tempfile.TemporaryDirectory(prefix="normcli-specs-bench-") as scratch:
        root = Path(scratch) / "ws"
        spec_bytes = build_workspace(args.corpus, root)
        domains = len(list((root / "specs").iterdir()))
        log(f"workspace of {domains} specs, {spec_bytes / 1e6:.1f} MB of spec files")

        normcli = [python, "-m", "normcli", "--workspace", str(root)]
        imports = []
        for _ in range(max(1, min(args.runs, 3))):
            imports.append(timed([*normcli, "index", "--rebuild", "--json"], env))
        import_seconds = statistics.median(imports)
        rate = spec_bytes / 1e6 / import_seconds
        rows.append(
            (
                f"import {domains} specs ({spec_bytes / 1e6:.1f} MB, index --rebuild)",
                f"{import_seconds:.2f} s ({min(imports):.2f}–{max(imports):.2f})",
                f"{rate:.1f} MB/s",
                "✓" if rate >= 2 else "✗ (goal ≥ 2 MB/s)",
            )
        )

        sys.path.insert(0, str(REPO))
        from normcli.service import Service

        service = Service.open(root)
        do_spec = md5("spec|digitalocean")
        collection = service.spec_by_id(do_spec).collections[0].id
        tag = service.collection_by_id(collection).tags[1].id
        method = service.endpoint_by_tag(tag).methods[0].id
        calls = [
            ("api specs", ["api", "specs"]),
            ("api spec (DigitalOcean)", ["api", "spec", do_spec]),
            ("api collection", ["api", "collection", collection]),
            ("api tags (DigitalOcean)", ["api", "tags", do_spec]),
            ("api tag", ["api", "tag", tag]),
            ("api endpoints", ["api", "endpoints", tag]),
            ("api endpoint (schemas resolved)", ["api", "endpoint", method]),
            ("api search droplet", ["api", "search", "droplet"]),
        ]
        log(f"python -c pass and {len(calls)} discovery calls, {args.runs} rounds")
        samples = rounds([[python, "-c", "pass"], *([*normcli, *words, "--json"] for _, words in calls)], env, args.runs)
        base, base_cpu = (statistics.median(sample[part] for sample in samples[0]) for part in (0, 1))
        walls = [sample[0] for sample in samples[0]]
        rows.append(
            (
                "baseline `python -c pass`",
                f"{base * 1000:.1f} ms ({min(walls) * 1000:.1f}–{max(walls) * 1000:.1f}), CPU {base_cpu * 1000:.1f} ms",
                "1.00×",
                "",
            )
        )
        for (label, _), sampled in zip(calls, samples[1:], strict=True):
            walls = [sample[0] for sample in sampled]
            median, cpu = statistics.median(walls), statistics.median(sample[1] for sample in sampled)
            ratio = median / base
            rows.append(
                (
                    f"`{label}` --json, whole process",
                    f"{median * 1000:.1f} ms ({min(walls) * 1000:.1f}–{max(walls) * 1000:.1f}), CPU {cpu * 1000:.1f} ms",
                    f"{ratio:.2f}× (CPU {cpu / base_cpu:.2f}×)",
                    "✓" if ratio <= 3 else "✗ (goal ≤ 3×)",
                )
            )

        for label, recheck in (
            ("each call checks the files search is made of (a stat each)", 0.0),
            ("files checked once a second, as batch does", 1.0),
        ):
            log(f"{args.searches} searches in process, {label}")
            service.recheck_after = recheck
            service.search_specs("warm up", limit=20)
            samples = []
            for number in range(args.searches):
                keyword = KEYWORDS[number % len(KEYWORDS)]
                started = time.perf_counter()
                service.search_specs(keyword, limit=20)
                samples.append(time.perf_counter() - started)
            samples.sort()
            p50 = samples[len(samples) // 2]
            p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
            rows.append(
                (
                    f"`api search` in process, {args.searches} keywords, limit 20; {label}",
                    f"p50 {p50 * 1000:.2f} ms, p95 {p95 * 1000:.2f} ms",
                    "",
                    "✓" if p95 <= 0.020 else "✗ (goal p95 ≤ 20 ms)",
                )
            )
        service.recheck_after = 0.0
        started = time.perf_counter()
        for _ in range(20):
            service.endpoint_by_id(method)
        rows.append(("`endpoint_by_id` in process (DigitalOcean)", f"{(time.perf_counter() - started) / 20 * 1000:.2f} ms", "", ""))
        service.close()

    print(
        f"normcli specs benchmark — Python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {args.runs} runs, "
        f"1-min load {load_start:.1f} at start, {os.getloadavg()[0]:.1f} at end\n"
    )
    print("| measure | time | rate / ratio | goal |")
    print("|---|---:|---:|---|")
    for row in rows:
        print(f"| {' | '.join(row)} |")


if __name__ == "__main__":
    main()
