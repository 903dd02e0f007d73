"""The spec modules keep the layering: no frontend library in the core, SQL only in `store/`, and
YAML loaded only when a spec file is read (never by a read of the index)."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import PROJECT, SAMPLE

SPEC_CORE = [
    "specs.ids",
    "specs.load",
    "specs.refs",
    "specs.read",
    "specs.files",
    "discovery.operations",
    "discovery.reads",
    "discovery.session",
    "specs.resolve",
    "specs.render",
    "specs.ingest",
    "store.spec_refresh",
    "store.spec_build",
    "store.spec_queries",
]


def test_the_spec_core_imports_no_frontend_library() -> None:
    script = "import sys\n" + "".join(f"import normcli.{module}\n" for module in SPEC_CORE)
    script += "print(sorted(name for name in ('typer', 'click', 'rich', 'textual', 'mcp') if name in sys.modules))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_only_the_store_writes_spec_sql() -> None:
    sql = re.compile(r"\b(SELECT|INSERT INTO|DELETE FROM|CREATE TABLE)\b")
    modules = [*(PROJECT / "normcli/specs").glob("*.py"), *(PROJECT / "normcli/tui").glob("**/spec*.py")]
    assert [path.name for path in modules if sql.search(path.read_text(encoding="utf-8"))] == []


def test_reads_of_a_fresh_index_never_load_yaml(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    shutil.copytree(SAMPLE, root, ignore=shutil.ignore_patterns(".normcli"))
    subprocess.run([sys.executable, "-m", "normcli", "--workspace", str(root), "index"], check=True, capture_output=True, cwd=PROJECT)
    for argv in (["toc", "SIA 261"], ["api", "specs"], ["api", "endpoint", "meteo", "GET /wind/{siteId}"]):
        script = (
            "import sys\nfrom normcli.cli.fast import answer\n"
            f"code = answer(['--workspace', {str(root)!r}, *{argv!r}, '--json'])\n"
            "sys.stderr.write(repr((code, 'yaml' in sys.modules)))"
        )
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=PROJECT, timeout=60)
        assert done.stderr.strip().endswith("(0, False)"), (argv, done.stderr[-300:])
