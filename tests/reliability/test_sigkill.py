"""SIGKILL at random points of an index build, an index update and an import: afterwards the old index
(or bundle) or nothing, never half of one, and the next call repairs."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from normcli.service import Service
from normcli.store import schema
from normcli.store.refresh import refresh
from tests.reliability.support import PROJECT, child_env, index_state, sigint_default, write_file

BUILDER = """
import sys
from pathlib import Path
from normcli.store.refresh import refresh
print("ready", flush=True)
refresh(Path(sys.argv[1]), rebuild=sys.argv[2] == "rebuild")
print("done", flush=True)
"""


def _workspace(root: Path, bundles: int = 12) -> None:
    for number in range(bundles):
        body = "".join(
            f"# {chapter} Chapitre {chapter}\n" + f"La charge de neige numéro {number}.{chapter} vaut 4.2.1 kN.\n" * 30
            for chapter in range(1, 40)
        )
        write_file(root, f"n-{number}", "2020", f'---\ncode: N {number}\nedition: "2020"\nlanguage: fr\n---\n' + body)


def _killed(root: Path, mode: str, delay: float, at_bytes: int | None = None) -> bool:
    """Run a builder and SIGKILL it `delay` seconds after it is ready, or once its new index file has
    `at_bytes` (a point inside a full build, whatever the machine's load); whether it was killed first."""
    child = subprocess.Popen([sys.executable, "-c", BUILDER, str(root), mode], env=child_env(), stdout=subprocess.PIPE, cwd=PROJECT)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == b"ready"
    if at_bytes is None:
        time.sleep(delay)
    else:
        deadline = time.monotonic() + 60
        while child.poll() is None and time.monotonic() < deadline:
            written = sum(file.stat().st_size for file in (root / ".normcli").glob("index.sqlite.tmp-*") if file.exists())
            if written >= at_bytes:
                break
            time.sleep(0.002)
    child.send_signal(signal.SIGKILL)
    try:  # EOF only once every process that holds the builder's stdout is gone: no worker outlives it
        rest, _ = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("a process of the killed builder is still running")
    return b"done" not in rest


def _child_build_seconds(root: Path) -> float:
    """How long a builder child takes from ready to done for a full rebuild."""
    child = subprocess.Popen([sys.executable, "-c", BUILDER, str(root), "rebuild"], env=child_env(), stdout=subprocess.PIPE, cwd=PROJECT)
    assert child.stdout is not None and child.stdout.readline().strip() == b"ready"
    started = time.perf_counter()
    assert child.stdout.readline().strip() == b"done"
    child.wait(timeout=30)
    return time.perf_counter() - started


@pytest.mark.slow
def test_sigkill_at_random_points_of_a_build_and_an_update_leaves_the_old_index_or_none(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    _workspace(root)
    path = root / ".normcli" / schema.INDEX_FILE
    refresh(root, rebuild=True)
    span = _child_build_seconds(root)
    rng = random.Random(2026)
    killed = 0
    for round_ in range(10):
        before = index_state(path)
        mode = "refresh" if round_ % 2 else "rebuild"
        if mode == "refresh":  # an update: one bundle changed
            file = root / "norms" / f"n-{round_}" / "2020" / "norm.md"
            with open(file, "a", encoding="utf-8") as handle:
                handle.write(f"# 99 Neu {round_}\nneige neu {round_}\n")
        if mode == "rebuild":
            was_killed = _killed(root, mode, 0, at_bytes=rng.randrange(1, path.stat().st_size * 3 // 4))
        else:
            was_killed = _killed(root, mode, rng.uniform(0, span * 0.3))
        killed += was_killed
        after = index_state(path)  # raises on a half-written index
        if was_killed and mode == "rebuild":
            assert after == before, "a killed rebuild changed the index"
        assert after is not None
        service = Service.open(root)  # the next call repairs
        assert service.search(f"N {round_}", "neige").hits
        if mode == "refresh":
            assert service.section(f"N {round_}", "99").content == f"neige neu {round_}"
        service.close()
    refresh(root, rebuild=True)
    assert not [name for name in os.listdir(path.parent) if ".tmp-" in name], "a killed builder's temporary files were never removed"
    assert killed >= 4, f"only {killed} of 10 builders were killed before they finished"


@pytest.mark.slow
def test_sigkill_during_an_import_leaves_no_half_bundle(tmp_path: Path) -> None:
    probe = subprocess.run([sys.executable, "-m", "normcli", "ingest", "--help"], capture_output=True, env=child_env(), cwd=PROJECT)
    if probe.returncode != 0:
        pytest.skip("normcli ingest is not available")
    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    source = tmp_path / "big.md"
    source.write_text(
        "".join(f"# {n} Chapitre {n}\n\n" + f"La charge de neige {n} vaut 4.2.1 kN par mètre carré.\n\n" * 40 for n in range(1, 120)),
        encoding="utf-8",
    )
    command = [sys.executable, "-m", "normcli", "--workspace", str(root), "ingest", str(source)]
    command += ["--code", "IMP 1", "--edition", "2024", "--language", "fr", "--force", "--json"]
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, env=child_env(), cwd=PROJECT, check=True, timeout=120)
    span = time.perf_counter() - started
    bundles = sorted((root / "norms").rglob("norm*.md"))
    assert len(bundles) == 1
    complete = bundles[0].read_bytes()
    rng = random.Random(11)
    for round_ in range(5):
        bundles[0].write_bytes(complete.replace(b"Chapitre 1\n", f"Chapitre {round_}-bis\n".encode()))
        previous = bundles[0].read_bytes()
        child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=child_env(), cwd=PROJECT)
        time.sleep(rng.uniform(span * 0.3, span))
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
        assert sorted((root / "norms").rglob("norm*.md")) == bundles, "a killed import left another bundle file"
        assert bundles[0].read_bytes() in (previous, complete), "a killed import left a half-written bundle"
        with Service.open(root) as service:
            assert service.toc("IMP 1").tree and all(bundle.readable for bundle in service.check().bundles)


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.01, 0.03, 0.2])
def test_ctrl_c_during_a_build_exits_130_with_one_line_and_no_worker_left(tmp_path: Path, delay: float) -> None:
    root = tmp_path / "ws"
    _workspace(root, bundles=40)
    child = subprocess.Popen(
        [sys.executable, "-m", "normcli", "--workspace", str(root), "index", "--rebuild"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
        cwd=PROJECT,
        start_new_session=True,
        preexec_fn=sigint_default,
    )
    deadline = time.monotonic() + 30
    while not list((root / ".normcli").glob("index.sqlite.tmp-*")) and time.monotonic() < deadline:
        time.sleep(0.005)  # until the build has started: early delays hit the workers as they fork
    time.sleep(delay)
    os.killpg(child.pid, signal.SIGINT)  # what a terminal sends on Ctrl-C: the builder and its workers
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(child.pid, signal.SIGKILL)
        pytest.fail("a process of the interrupted build is still running")
    assert (child.returncode, err.decode().strip(), out) == (130, "normcli: interrupted", b"")
    with Service.open(root) as service:
        assert service.toc("N 3").tree
