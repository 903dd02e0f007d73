"""The layering of STYLE.md: only `store/` holds SQL (which modules load what is in tests/test_import_hygiene.py)."""

from __future__ import annotations

import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "normcli"
SQL = re.compile(r"\b(SELECT|INSERT INTO|DELETE FROM|CREATE TABLE|UPDATE \w+ SET)\b")
ABOVE_THE_STORE = ["service.py", "catalogue.py", "search.py", "resolve.py", "windows.py", "trees.py", "operations.py", "quality.py"]


def test_frontends_and_the_service_write_no_sql() -> None:
    checked = [
        *PACKAGE.glob("cli/**/*.py"),
        *PACKAGE.glob("tui/**/*.py"),
        *PACKAGE.glob("mcp/**/*.py"),
        *(PACKAGE / name for name in ABOVE_THE_STORE),
    ]
    assert len(checked) > len(ABOVE_THE_STORE) + 20  # the globs found the frontends
    offenders = [str(path.relative_to(PACKAGE)) for path in checked if SQL.search(path.read_text(encoding="utf-8"))]
    assert offenders == []


def test_the_store_is_where_the_sql_is() -> None:
    assert SQL.search((PACKAGE / "store" / "queries.py").read_text(encoding="utf-8"))
