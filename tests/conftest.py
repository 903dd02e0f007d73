"""Shared fixtures: a private copy of the sample workspace, small hand-made workspaces, and CLI runners."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
SAMPLE = PROJECT / "sample_workspace"
SHARED_CORPUS = PROJECT.parent / "shared" / "corpus"

# Tests never write into the checkout: hypothesis keeps its examples and caches in the temp folder, not `.hypothesis/`.
try:
    import tempfile

    from hypothesis.configuration import set_hypothesis_home_dir

    set_hypothesis_home_dir(Path(tempfile.gettempdir()) / "normcli-hypothesis")
except ImportError:  # hypothesis is a dev dependency; the tests that use it import it themselves
    pass


@pytest.fixture(scope="session")
def sample_copy(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample workspace copied once per test session, so tests never write into the checkout."""
    target = tmp_path_factory.mktemp("sample") / "workspace"
    shutil.copytree(SAMPLE, target, ignore=shutil.ignore_patterns(".normcli"))
    return target


@pytest.fixture
def sample_fresh(tmp_path: Path) -> Path:
    """A copy of the sample that a test may change."""
    target = tmp_path / "workspace"
    shutil.copytree(SAMPLE, target, ignore=shutil.ignore_patterns(".normcli"))
    return target


@pytest.fixture
def service(sample_copy: Path):
    """A service over the shared sample copy."""
    from normcli.service import Service

    opened = Service.open(sample_copy)
    yield opened
    opened.close()


def write_bundle(root: Path, slug: str, edition: str, body: str, name: str = "norm.md") -> Path:
    """Write one bundle file (dedented) and return its path."""
    folder = root / "norms" / slug / edition
    folder.mkdir(parents=True, exist_ok=True)
    file = folder / name
    file.write_text(textwrap.dedent(body).lstrip("\n"), encoding="utf-8")
    return file


@pytest.fixture
def make_bundle() -> Callable[..., Path]:
    """Write a bundle into a workspace: make_bundle(root, slug, edition, body, name='norm.md')."""
    return write_bundle


@dataclass
class Ran:
    """What a command did: its exit code and its two streams."""

    code: int
    stdout: str
    stderr: str

    def json(self) -> dict:
        """stdout parsed as exactly one JSON document."""
        return json.loads(self.stdout)


@pytest.fixture
def cli() -> Callable[..., Ran]:
    """Run `normcli ARGS` as a real process (no terminal, NO_COLOR unset)."""

    def run(*args: str, workspace: Path | None = None, stdin: str | None = None, env: dict | None = None) -> Ran:
        command = [sys.executable, "-m", "normcli"]
        if workspace is not None:
            command += ["--workspace", str(workspace)]
        environment = {**os.environ, **(env or {})}
        environment.pop("NORMCLI_WORKSPACE", None)
        done = subprocess.run([*command, *args], capture_output=True, text=True, input=stdin, env=environment, timeout=120)
        return Ran(done.returncode, done.stdout, done.stderr)

    return run
