"""What each entry point loads: heavy and frontend libraries only where they are used.

Each case runs a fresh interpreter, does what a user's call does, and lists the forbidden modules
it finds in `sys.modules` (a module or any of its submodules). The import-linter contracts in
pyproject.toml check the same layering statically; this checks it at run time, lazy imports included.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT = Path(__file__).resolve().parents[1]
PACKAGE = PROJECT / "normcli"
FRONTENDS = ("cli", "tui", "mcp")
UI_LIBRARIES = ("typer", "click", "rich", "textual", "textual_image", "mcp")
# What the lean path reaches through the C modules below them (`_json`, `_sqlite3`): the json package
# (its decoder imports `re`), the sqlite3 package (its dbapi2 registers datetime adapters), datetime.
LEAN_STDLIB = ("json", "sqlite3", "datetime")
SNOW_LOAD = hashlib.md5(b"method|meteo|GET|/snow-load/{siteId}").hexdigest()  # SPEC §7's id of a sample endpoint


def core_modules() -> list[str]:
    """Every module of the package outside the frontends, found on disk (a new module is covered at once)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[0] in FRONTENDS or parts[-1] == "__main__":
            continue
        found.append(".".join(("normcli", *(part for part in parts if part != "__init__"))))
    return found


CASES = {
    "the core": ("\n".join(f"import {module}" for module in core_modules()), (*UI_LIBRARIES, "normcli.cli", "normcli.tui", "normcli.mcp")),
    "the declarations every --json call reads": ("import normcli.operations", ("dataclasses", "typing", "inspect")),
    "a --json read on the lean path": (
        "from normcli.cli.fast import answer\nassert answer(['--workspace', WORKSPACE, 'section', 'SIA 261', '4.2.1', '--json']) == 0",
        # pathlib (with urllib.parse and ipaddress), typing and dataclasses: each a tenth of such a call's start-up;
        # the json and sqlite3 packages (normcli.lean_json, normcli.store.sqlite use the C modules below them);
        # re and enum: a numbered clause is found, windowed and printed without a pattern; windows: a
        # clause read whole from its start is not cut
        (
            "re",
            "enum",
            "normcli.windows",
            "typer",
            "click",
            "rich",
            "textual",
            "pydantic",
            "sqlite_utils",
            "mcp",
            "pathlib",
            "urllib",
            "typing",
            "dataclasses",
            *LEAN_STDLIB,
        ),
    ),
    "a toc on the lean path, which matches no pattern": (
        "from normcli.cli.fast import answer\nassert answer(['--workspace', WORKSPACE, 'toc', 'SIA 261', '--json']) == 0\n"
        "assert answer(['--workspace', WORKSPACE, 'info', '--json']) == 0",
        # `re` and the `enum` it imports: a tenth of a toc's start-up; contextlib, which the console script
        # would otherwise pay for (`python -m` loads it anyway); the spec freshness check: a toc is made of the
        # norms alone, so it stats no spec file of the workspace (the sample holds two specs)
        ("typer", "rich", "pathlib", "typing", "dataclasses", "re", "enum", "contextlib", "normcli.store.spec_refresh", *LEAN_STDLIB),
    ),
    "an api --json read on the lean path": (
        "from normcli.cli.fast import answer\nassert answer(['--workspace', WORKSPACE, 'api', 'specs', '--json']) == 0\n"
        "assert answer(['--workspace', WORKSPACE, 'api', 'spec', 'meteo', '--json']) == 0",
        (
            "typer",
            "rich",
            "yaml",
            "normcli.service",
            "normcli.catalogue",
            # the norm reads' questions: a spec session reads through the bare index connection
            "normcli.store.queries",
            # the spec reader and the builder: the freshness check compares stamps and loads neither
            "normcli.specs.read",
            "normcli.specs.graph",
            "normcli.store.spec_build",
            "pathlib",
            "urllib",
            "typing",
            "dataclasses",
            "re",
            "enum",
            *LEAN_STDLIB,
        ),
    ),
    "an endpoint named by its method and path on the lean path": (
        "from normcli.cli.fast import answer\n"
        "assert answer(['--workspace', WORKSPACE, 'api', 'endpoint', 'meteo', 'GET /snow-load/{siteId}', '--json']) == 0",
        # hashlib loads OpenSSL: the index already holds every method's id
        (
            "typer",
            "rich",
            "yaml",
            "normcli.service",
            "normcli.store.queries",
            "pathlib",
            "urllib",
            "typing",
            "dataclasses",
            "hashlib",
            "unidecode",
            *LEAN_STDLIB,
        ),
    ),
    "an endpoint read by its id on the lean path": (
        f"from normcli.cli.fast import answer\nassert answer(['--workspace', WORKSPACE, 'api', 'endpoint', {SNOW_LOAD!r}, '--json']) == 0",
        # its page writes the spec's examples (normcli.lean_json) and escapes controls without a pattern; the check
        # of its own files compares stamps (neither the spec reader nor the builder)
        (
            "typer",
            "rich",
            "yaml",
            "normcli.specs.read",
            "normcli.specs.graph",
            "normcli.store.spec_build",
            "normcli.service",
            "normcli.store.queries",
            "pathlib",
            "urllib",
            "typing",
            "hashlib",
            "unidecode",
            "re",
            "enum",
            *LEAN_STDLIB,
        ),
    ),
    "a search of the specs on the lean path": (
        "from normcli.cli.fast import answer\nassert answer(['--workspace', WORKSPACE, 'api', 'search', 'snow load', '--json']) == 0",
        # the hits' texts hold m², ≤ and ß: folded without unidecode, which brings typing; its parameters
        # are checked from normcli.params, without every operation's declaration; its snippets (which carry
        # no highlights) are cut without a pattern
        (
            "typer",
            "rich",
            "yaml",
            "normcli.service",
            "normcli.operations",
            "normcli.store.queries",
            "re",
            "enum",
            "pathlib",
            "urllib",
            "typing",
            "dataclasses",
            "hashlib",
            "unidecode",
            *LEAN_STDLIB,
        ),
    ),
    "a search of the specs that finds nothing": (
        "from normcli.cli.fast import answer\nassert answer(['--workspace', WORKSPACE, 'api', 'search', 'zyxwvut qqq', '--json']) == 0",
        # a keyword's words are found without a pattern
        ("re", "enum", "normcli.operations", "normcli.service", "normcli.store.queries", "typing", "dataclasses", *LEAN_STDLIB),
    ),
    "a --json read through the full command line": (
        "from normcli.cli.app import run_cli\nassert run_cli(['--workspace', WORKSPACE, 'toc', 'SIA 261', '--json']) == 0",
        ("textual", "rich.markdown", "pypdfium2", "mcp", "sqlite_utils", "normcli.tui", "normcli.mcp"),
    ),
    "the command line's help": (
        "from normcli.cli.app import run_cli\nassert run_cli(['--help']) == 0",
        ("textual", "textual_image", "normcli.tui", "mcp", "normcli.mcp.server", "pypdfium2"),
    ),
}


@pytest.mark.parametrize("case", list(CASES))
def test_an_entry_point_loads_only_what_it_uses(case: str, sample_copy: Path) -> None:
    code, forbidden = CASES[case]
    from normcli.service import Service

    Service.open(sample_copy).check()  # the index is built, specs included: a read answers from it, as every call but the first
    script = (
        f"import sys\nWORKSPACE = {str(sample_copy)!r}\n{code}\n"
        f"forbidden = {forbidden!r}\n"
        "loaded = sorted(name for name in sys.modules if any(name == f or name.startswith(f + '.') for f in forbidden))\n"
        "sys.stderr.write('LOADED:' + ','.join(loaded))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=PROJECT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("LOADED:"), done.stderr[-2000:]


def test_the_core_list_is_found_on_disk() -> None:
    modules = core_modules()
    assert {"normcli.service", "normcli.operations", "normcli.store.queries", "normcli.importers"} <= set(modules)
    assert not any(module.startswith(("normcli.cli", "normcli.tui", "normcli.mcp")) for module in modules)


def test_the_import_contracts_hold() -> None:
    lint_imports = shutil.which("lint-imports", path=str(Path(sys.executable).parent))
    if lint_imports is None:
        pytest.skip("import-linter is not installed (pip install -e '.[dev]')")
    done = subprocess.run([lint_imports, "--no-cache"], capture_output=True, text=True, cwd=PROJECT, timeout=300)
    assert done.returncode == 0 and "BROKEN" not in done.stdout, done.stdout[-3000:]
    assert done.stdout.count(" KEPT") >= 5
