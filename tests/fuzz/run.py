"""Run the fuzz targets for a bounded time: `python -m tests.fuzz.run --seconds 60`.

With atheris installed (`pip install atheris`), each target runs under libFuzzer in a child process
for the given time (coverage-guided, instrumented normcli); otherwise hypothesis feeds it bundle- and
query-shaped bytes until the time is up. A failing input is printed and saved under
`$TMPDIR/normcli-fuzz/`; add it to `tests/fuzz/test_targets.py` as a regression before fixing.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

OUT = Path(tempfile.gettempdir()) / "normcli-fuzz"


def run_hypothesis(name: str, seconds: float) -> tuple[int, str | None]:
    """Feed the target hypothesis examples until `seconds` pass; (examples run, failure or None)."""
    from hypothesis import HealthCheck, given, settings

    from tests.fuzz.strategies import STRATEGIES
    from tests.fuzz.targets import TARGETS

    target = TARGETS[name]
    count = 0

    @settings(max_examples=500, deadline=None, database=None, suppress_health_check=list(HealthCheck), derandomize=False)
    @given(STRATEGIES[name])
    def batch(data: bytes) -> None:
        nonlocal count
        count += 1
        try:
            target(data)
        except Exception:
            OUT.mkdir(parents=True, exist_ok=True)
            (OUT / f"{name}-failure-{time.strftime('%Y%m%dT%H%M%S')}.bin").write_bytes(data)
            raise

    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            batch()
        except Exception as exc:  # hypothesis has shrunk it and printed the falsifying example
            return count, f"{type(exc).__name__}: {exc}"
    return count, None


def run_atheris(name: str, seconds: float) -> int:
    """One libFuzzer run of the target in a child process; its exit status."""
    corpus = OUT / f"corpus-{name}"
    corpus.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "tests.fuzz.run", "--atheris-child", name, f"-max_total_time={int(seconds)}"]
    command += [f"-artifact_prefix={OUT}/{name}-", "-rss_limit_mb=4096", "-print_final_stats=1", str(corpus)]
    return subprocess.call(command)


def _atheris_child(name: str, argv: list[str]) -> None:
    import atheris

    with atheris.instrument_imports(include=["normcli"]):
        import normcli.cli.fast
        import normcli.operations
        import normcli.service  # noqa: F401 (imported here to be instrumented; the targets import it lazily)
        from tests.fuzz.targets import TARGETS
    atheris.Setup([sys.argv[0], *argv], TARGETS[name])
    atheris.Fuzz()


def main() -> int:
    """Fuzz each target for `--seconds`; exit 1 when one failed."""
    if len(sys.argv) > 2 and sys.argv[1] == "--atheris-child":
        _atheris_child(sys.argv[2], sys.argv[3:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", 60)), help="per target")
    parser.add_argument("--engine", choices=("auto", "atheris", "hypothesis"), default="auto")
    parser.add_argument("targets", nargs="*", default=["bundle", "query"])
    options = parser.parse_args()
    import warnings

    warnings.filterwarnings("ignore", message="Surrogate character", category=RuntimeWarning)  # unidecode on lone surrogates
    engine = options.engine
    if engine == "auto":
        engine = "atheris" if importlib.util.find_spec("atheris") else "hypothesis"
    failed = False
    for name in options.targets:
        started = time.monotonic()
        if engine == "atheris":
            status = run_atheris(name, options.seconds)
            failed |= status != 0
            print(f"fuzz {name}: atheris {time.monotonic() - started:.0f} s, {'FAILED' if status else 'no failure'}", flush=True)
        else:
            count, failure = run_hypothesis(name, options.seconds)
            failed |= failure is not None
            print(f"fuzz {name}: hypothesis {time.monotonic() - started:.0f} s, {count} inputs, {failure or 'no failure'}", flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
