"""Eight processes read while two re-index after bundles change: every read answers correctly, old or new."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from normcli.store.refresh import refresh
from tests.reliability.support import PROJECT, child_env
from tests.reliability.workers import CEILING, MIN_READS, MIN_REINDEXES, make_workspace

SECONDS = 8.0


@pytest.mark.slow
def test_eight_readers_and_two_reindexers_never_see_an_error_or_a_wrong_answer(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    make_workspace(root)
    refresh(root)
    stop = tmp_path / "writers-done"
    command = [sys.executable, "-m", "tests.reliability.workers"]
    readers = [
        subprocess.Popen([*command, "reader", str(root), str(SECONDS), str(stop)], stdout=subprocess.PIPE, env=child_env(), cwd=PROJECT)
        for _ in range(8)
    ]
    writers = [
        subprocess.Popen([*command, "writer", str(root), str(SECONDS), str(seed)], stdout=subprocess.PIPE, env=child_env(), cwd=PROJECT)
        for seed in (1, 2)
    ]
    # Readers go on until every writer is done, so each re-index happens while they read.
    writes = [json.loads(process.communicate(timeout=CEILING + 60)[0]) for process in writers]
    stop.touch()
    reads = [json.loads(process.communicate(timeout=CEILING + 60)[0]) for process in readers]
    total = sum(read["reads"] for read in reads)
    changes = sum(write["changes"] + write["rebuilds"] for write in writes)
    print(
        f"\n{total} reads by 8 processes while 2 processes made {changes} re-indexes; slowest read {max(r['max_ms'] for r in reads):.0f} ms"
    )
    assert not [write["messages"] for write in writes if write["errors"]]
    assert not [read["messages"] for read in reads if read["errors"] or read["wrong"]]
    assert total >= 8 * MIN_READS and changes >= 2 * MIN_REINDEXES, (total, changes)
