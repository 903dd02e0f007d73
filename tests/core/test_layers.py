"""The layering of STYLE.md, checked: the core never loads a frontend library, and only `store/` holds SQL."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "normcli"
CORE = [
    "workspace",
    "bundle",
    "model",
    "results",
    "errors",
    "fold",
    "xrefs",
    "service",
    "operations",
    "methodology",
    "quality",
    "render",
    "store.refresh",
    "store.build",
    "store.queries",
    "store.schema",
]
FRONTEND_LIBRARIES = ("typer", "click", "rich", "textual", "mcp")


def test_the_core_imports_no_frontend_library() -> None:
    script = "import sys\n" + "".join(f"import normcli.{module}\n" for module in CORE)
    script += f"print(sorted(name for name in {FRONTEND_LIBRARIES!r} if name in sys.modules))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_frontends_write_no_sql() -> None:
    sql = re.compile(r"\b(SELECT|INSERT INTO|DELETE FROM|CREATE TABLE|UPDATE \w+ SET)\b")
    frontends = [*PACKAGE.glob("cli/*.py"), *PACKAGE.glob("tui/**/*.py"), *PACKAGE.glob("mcp/*.py"), PACKAGE / "service.py"]
    offenders = [str(path.relative_to(PACKAGE)) for path in frontends if sql.search(path.read_text(encoding="utf-8"))]
    assert offenders == []
