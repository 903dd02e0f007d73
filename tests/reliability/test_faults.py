"""Faults: a corrupt index of every kind, SIGKILL in the middle of a build, an update or an import,
a read-only workspace and a full disk. The old index or nothing, never half of one, and the next call repairs."""

from __future__ import annotations

import json
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from normcli.cli.diagnostics import exit_code_for
from normcli.errors import WorkspaceError
from normcli.service import Service
from normcli.store import schema
from normcli.store.refresh import refresh
from tests.reliability.support import child_env, good_workspace, index_state, leaks, mount, unmount, write_file

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082"
)

OPERATIONS: dict[str, Callable[[Service], object]] = {
    "info": lambda s: s.info().sections,
    "norms": lambda s: s.norms().to_json(),
    "methodology": lambda s: s.methodology().text,
    "toc": lambda s: s.toc("GOOD 1", 6).to_json(),
    "subtree": lambda s: s.subtree("GOOD 1", "2").to_json(),
    "section": lambda s: s.section("GOOD 1", "2.2").to_json(),
    "search": lambda s: s.search("GOOD 1", "neige").to_json(),
    "corpus": lambda s: s.corpus("neige").to_json(),
    "xrefs": lambda s: s.xrefs("GOOD 1", "1").to_json(),
    "figure": lambda s: s.figure("GOOD 1", "fig-1").data,
    "check": lambda s: [bundle.problems for bundle in s.check().bundles],
}


def _truncate(path: Path) -> None:
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size // 3)


def _noise(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(path.stat().st_size))


def _empty(path: Path) -> None:
    path.write_bytes(b"")


def _damaged_pages(path: Path) -> None:
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.seek(4096)  # keep the header page, so the file still opens as ours
        handle.write(random.Random(3).randbytes(size - 4096))


def _foreign(path: Path) -> None:
    path.unlink()
    other = sqlite3.connect(path)
    other.execute("CREATE TABLE bundles (file TEXT, mtime_ns INT, size INT)")
    other.commit()
    other.close()


def _table_dropped(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute("DROP TABLE nodes")
    connection.commit()
    connection.close()


def _old_schema(path: Path) -> None:
    connection = sqlite3.connect(path)
    connection.execute(f"PRAGMA user_version = {schema.SCHEMA_VERSION - 1}")
    connection.commit()
    connection.close()


def _a_folder(path: Path) -> None:
    path.unlink()
    path.mkdir()


def _hot_journal(path: Path) -> None:
    """What a writer killed inside its transaction leaves: a journal next to a changed file."""
    Path(f"{path}-journal").write_bytes(random.Random(5).randbytes(4096))


CORRUPTIONS = {
    "truncated": _truncate,
    "random bytes": _noise,
    "empty file": _empty,
    "damaged pages behind a valid header": _damaged_pages,
    "foreign SQLite file": _foreign,
    "a table dropped": _table_dropped,
    "older schema version": _old_schema,
    "garbage journal beside it": _hot_journal,
}


def small_workspace(root: Path) -> Path:
    """GOOD 1 with a figure, and a second norm that refers to it."""
    file = write_file(
        root, "good-1", "2020", (good_workspace(root) / "norms/good-1/2020/norm.md").read_text() + "![Figure 1 – Vent](figures/f1.png)\n"
    )
    (file.parent / "figures").mkdir()
    (file.parent / "figures" / "f1.png").write_bytes(PNG)
    write_file(
        root,
        "other-1",
        "2021",
        '---\ncode: OTHER 1\nedition: "2021"\nlanguage: de\n---\n# 1 Zweck\nSiehe GOOD 1, 2.1 für Schnee (neige).\n',
    )
    return root


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    with Service.open(small_workspace(tmp_path_factory.mktemp("expected") / "ws")) as service:
        answers = {name: operation(service) for name, operation in OPERATIONS.items()}
    return answers


@pytest.mark.parametrize("corruption", CORRUPTIONS, ids=list(CORRUPTIONS))
def test_every_operation_answers_correctly_over_a_corrupt_index(tmp_path: Path, corruption: str, expected: dict) -> None:
    root = small_workspace(tmp_path / "ws")
    for name, operation in OPERATIONS.items():
        path = refresh(root, rebuild=True).path
        CORRUPTIONS[corruption](path)
        with Service.open(root) as service:
            assert operation(service) == expected[name], name
        assert schema.is_ours(sqlite3.connect(f"file:{path}?mode=ro", uri=True)), name


@pytest.mark.parametrize("corruption", ["damaged pages behind a valid header", "a table dropped", "older schema version"])
def test_an_open_service_repairs_an_index_damaged_under_it(tmp_path: Path, corruption: str, expected: dict) -> None:
    root = small_workspace(tmp_path / "ws")
    with Service.open(root) as service:
        for name, operation in OPERATIONS.items():
            assert operation(service) == expected[name], name
            CORRUPTIONS[corruption](Path(service.info().index.path))
            assert operation(service) == expected[name], name


def test_a_corrupt_index_through_the_command_line_is_repaired_without_a_word_of_sql(tmp_path: Path) -> None:
    root = small_workspace(tmp_path / "ws")
    path = refresh(root).path
    for corruption in CORRUPTIONS.values():
        refresh(root, rebuild=True)
        corruption(path)
        done = subprocess.run(
            [sys.executable, "-m", "normcli", "--workspace", str(root), "section", "GOOD 1", "2.1", "--json"],
            capture_output=True,
            text=True,
            env=child_env(),
            timeout=60,
        )
        assert done.returncode == 0, done.stderr
        assert json.loads(done.stdout)["section"]["path"] == "2.1" and not leaks(done.stderr)


# -- read-only workspace and full disk ----------------------------------------------------------


@pytest.mark.parametrize("name", ["Projekt #12", "what?", "50% done", "a%3Fb", "é ü 漢字", "semi;colon&amp"])
def test_a_workspace_folder_name_that_means_something_in_a_uri_is_read(tmp_path: Path, name: str, expected: dict) -> None:
    root = small_workspace(tmp_path / name)
    with Service.open(root) as service:
        assert OPERATIONS["section"](service) == expected["section"]
        file = root / "norms" / "good-1" / "2020" / "norm.md"
        with open(file, "a", encoding="utf-8") as handle:
            handle.write("# 9 Ajout\nzyklop\n")
        assert service.search("GOOD 1", "zyklop").hits  # refreshed in place
    assert Path(Service.open(root).info().index.path).parent == root / ".normcli"


def test_symlinks_in_the_index_folder_never_lead_out_of_the_workspace(tmp_path: Path) -> None:
    other = small_workspace(tmp_path / "other")
    foreign_index = refresh(other).path  # a valid normcli index of another workspace
    stamp = foreign_index.stat().st_mtime_ns
    root = tmp_path / "ws"
    write_file(root, "mine-1", "2020", '---\ncode: MINE 1\nedition: "2020"\nlanguage: fr\n---\n# 1 A\nneige\n')
    (root / ".normcli").mkdir()
    (root / ".normcli" / "index.sqlite").symlink_to(foreign_index)
    (root / ".normcli" / "index.lock").symlink_to(tmp_path / "created-outside")
    with Service.open(root) as service:
        assert [norm.code for norm in service.norms().norms] == ["MINE 1"]
    assert not (tmp_path / "created-outside").exists()
    assert foreign_index.stat().st_mtime_ns == stamp
    assert not (root / ".normcli" / "index.sqlite").is_symlink()


def test_a_folder_in_place_of_the_index_is_a_clean_workspace_error(tmp_path: Path) -> None:
    root = small_workspace(tmp_path / "ws")
    path = refresh(root).path
    _a_folder(path)
    with pytest.raises(WorkspaceError, match="cannot write the index") as raised:
        Service.open(root).toc("GOOD 1")
    assert not leaks(raised.value.one_line())
    path.rmdir()
    assert Service.open(root).toc("GOOD 1").tree


def test_a_truly_read_only_workspace_keeps_its_index_in_the_user_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = small_workspace(tmp_path / "source")
    target = tmp_path / "ro"
    target.mkdir()
    if not mount("--bind", str(source), str(target)):
        pytest.skip("cannot bind-mount here")
    try:
        if not mount("-o", "remount,bind,ro", str(target)):
            pytest.skip("cannot remount read-only here")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
        with pytest.raises(OSError):
            (target / "probe").write_text("x")
        with Service.open(target) as service:
            info = service.info()
            assert info.index.path.startswith(str(tmp_path / "cache")) and info.sections == 5
            assert service.section("GOOD 1", "2.1").content.startswith("La valeur")
            assert service.figure("GOOD 1", "fig-1").data == PNG
            assert not (target / ".normcli").exists()
        done = subprocess.run(
            [sys.executable, "-m", "normcli", "--workspace", str(target), "search", "GOOD 1", "neige", "--json"],
            capture_output=True,
            text=True,
            env=child_env(XDG_CACHE_HOME=str(tmp_path / "cache")),
            timeout=60,
        )
        assert done.returncode == 0 and json.loads(done.stdout)["hits"]
    finally:
        unmount(target)


def test_a_read_only_workspace_without_a_usable_cache_is_a_workspace_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = small_workspace(tmp_path / "source")
    target = tmp_path / "ro"
    target.mkdir()
    if not (mount("--bind", str(source), str(target)) and mount("-o", "remount,bind,ro", str(target))):
        unmount(target)
        pytest.skip("cannot mount read-only here")
    try:
        (tmp_path / "not-a-folder").write_text("x")
        monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "not-a-folder"))
        with pytest.raises(WorkspaceError, match="read-only and the cache folder") as raised:
            Service.open(target).toc("GOOD 1")
        assert exit_code_for(raised.value) == 3
        done = subprocess.run(
            [sys.executable, "-m", "normcli", "--workspace", str(target), "toc", "GOOD 1", "--json"],
            capture_output=True,
            text=True,
            env=child_env(XDG_CACHE_HOME=str(tmp_path / "not-a-folder")),
            timeout=60,
        )
        assert done.returncode == 3 and json.loads(done.stdout)["error"]["code"] == "workspace_error"
    finally:
        unmount(target)


def test_a_full_disk_during_a_build_leaves_the_old_index(tmp_path: Path) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    if not mount("-t", "tmpfs", "-o", "size=2m", "tmpfs", str(disk)):
        pytest.skip("cannot mount a tmpfs here")
    try:
        root = small_workspace(disk / "ws")
        with Service.open(root) as service:
            assert service.search("GOOD 1", "neige").hits
            path = Path(service.info().index.path)
            before = index_state(path)
            file = root / "norms" / "good-1" / "2020" / "norm.md"
            with open(file, "a", encoding="utf-8") as handle:
                handle.write("\n# 9 Ajout\n" + "zyklop und neige " * 3000 + "\n")
            filler = disk / "filler"
            with open(filler, "wb", buffering=0) as handle:  # fill the disk to the last block
                try:
                    while True:
                        handle.write(b"\0" * 65536)

                except OSError:
                    pass
                try:
                    while True:
                        handle.write(b"\0" * 512)

                except OSError:
                    pass
            for attempt in ("refresh", "rebuild"):
                with pytest.raises(WorkspaceError) as raised:
                    service.rebuild(force=attempt == "rebuild")
                assert "disk" in raised.value.one_line() and not leaks(raised.value.one_line().replace("disk space", ""))
                assert index_state(path) == before, attempt
                assert not [name for name in os.listdir(path.parent) if ".tmp-" in name]
            filler.unlink()
            assert service.search("GOOD 1", "zyklop").hits  # space again: the next call repairs
    finally:
        unmount(disk)


TAKE_THE_LOCK = "import sys, time; from pathlib import Path; from normcli.store.refresh import _writer_lock; "
TAKE_THE_LOCK += "held = _writer_lock(Path(sys.argv[1])); held.__enter__(); "


def _started(script: str, folder: Path, ready: str) -> subprocess.Popen:
    """A Python child running `script` on the index folder, once it has printed `ready`."""
    child = subprocess.Popen([sys.executable, "-c", script, str(folder)], stdout=subprocess.PIPE, env=child_env(), text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == ready
    return child


def _add_a_line(root: Path) -> None:
    bundle = root / "norms" / "good-1" / "2020" / "norm.md"
    bundle.write_text(bundle.read_text(encoding="utf-8") + "\nUn ajout.\n", encoding="utf-8")


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="lock holders are seen through /proc")
def test_a_builder_stopped_with_ctrl_z_is_reported_not_waited_for(tmp_path: Path) -> None:
    root = good_workspace(tmp_path / "ws")
    builder = _started(TAKE_THE_LOCK + "print('holding', flush=True); time.sleep(60)", refresh(root).path.parent, "holding")
    try:
        _add_a_line(root)
        waited = time.monotonic()
        command = [sys.executable, "-m", "normcli", "--workspace", str(root), "info", "--json"]
        refreshing = subprocess.Popen(command, env=child_env(), stdout=subprocess.PIPE, text=True)
        time.sleep(0.5)
        assert refreshing.poll() is None  # a working builder is waited for
        os.kill(builder.pid, signal.SIGSTOP)
        out, _ = refreshing.communicate(timeout=10)
        assert refreshing.returncode == 3 and time.monotonic() - waited < 10
        assert json.loads(out)["error"]["code"] == "workspace_error" and "stopped" in json.loads(out)["error"]["message"]
    finally:
        os.kill(builder.pid, signal.SIGCONT)
        builder.kill()
        builder.wait()
    assert Service.open(root).info().sections > 0  # the lock is free again: the next call refreshes


@pytest.mark.skipif(not Path("/proc/locks").exists(), reason="lock holders are seen through /proc/locks")
def test_a_stopped_process_that_no_longer_holds_the_lock_is_not_blamed(tmp_path: Path) -> None:
    root = good_workspace(tmp_path / "ws")
    folder = refresh(root).path.parent
    earlier = _started(TAKE_THE_LOCK + "held.__exit__(None, None, None); print('done', flush=True); time.sleep(60)", folder, "done")
    try:
        os.kill(earlier.pid, signal.SIGSTOP)
        holds_a_while = "import fcntl, sys, time; handle = open(sys.argv[1] + '/index.lock', 'a+'); fcntl.flock(handle, fcntl.LOCK_EX); "
        working = _started(holds_a_while + "print('holding', flush=True); time.sleep(1.5)", folder, "holding")
        _add_a_line(root)
        started = time.monotonic()
        done = refresh(root)  # waits for the working holder, and is not misled by the stopped one
        assert done.indexed == 1 and time.monotonic() - started >= 0.5
        working.wait(timeout=10)
    finally:
        os.kill(earlier.pid, signal.SIGCONT)
        earlier.kill()
        earlier.wait()
