"""The lean `--json` path answers exactly like the full command line, without loading Typer or rich."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from normcli.cli import fast

CASES = [
    ["toc", "SIA 261", "--depth", "3"],
    ["toc", "SIA 261:2014"],
    ["subtree", "SIA 261", "4", "--max-nodes", "20", "-e", "2020"],
    ["section", "SIA 261", "4.2.1", "--max-chars=2000", "--offset", "2000"],
    ["section", "SIA 261", "Anhang A", "--language", "de"],
    ["search", "SIA 261", "charge de neige", "-n", "3"],
    ["corpus", "Straße", "--limit", "5"],
    ["corpus", "4.2.1"],
    ["xrefs", "SIA 261", "4.2.1"],
    ["norms"],
    ["section", "SIA 261", "99"],
    ["toc", "SIA 261", "--depth", "9"],
    ["diff", "SIA 261:2014", "SIA 261:2020", "4.2"],
    ["diff", "SIA 261", "SIA 260", "--force"],
    ["diff", "SIA 261", "SIA 260"],
    ["diff", "SIA 261:2020", "SIA 261:2020", "--to-language", "de"],
    ["xrefs", "SIA 261", "4.2.1", "--incoming"],
    ["xrefs", "SIA 261", "4.2.1", "--direction", "incoming"],
    ["define", "charge utile", "-n", "3"],
    ["define", "q"],
    ["cite", "SIA 261:2020", "4.2.1", "--format", "bibtex"],
    ["cite", "SIA 261", "4.2.1", "-f", "mla"],
]


def test_fast_commands_match_the_typer_app() -> None:
    from typer.main import get_command

    from normcli.cli.app import app

    group = get_command(app)
    for name, (positionals, options) in fast.grammar().commands.items():
        command = group.commands[name]
        arguments = [param for param in command.params if param.param_type_name == "argument"]
        assert len(arguments) == len(positionals), name
        typer_options = {
            opt
            for param in command.params
            if param.param_type_name == "option" and not getattr(param, "is_flag", False)
            for opt in param.opts
        }
        # Every declared option is the Typer command's; the Typer command may add options for people
        # only (`section --format`), which the lean path does not know and so leaves to Typer.
        assert set(options) <= typer_options, name
        for extra in typer_options - set(options):
            assert fast.parse([name, *["x"] * len(positionals), extra, "markdown", "--json"]) is None, (name, extra)
        # Yes/no flags and switches (`--force`, `--incoming`) are the Typer command's flags.
        typer_flags = {
            opt
            for param in command.params
            if param.param_type_name == "option" and getattr(param, "is_flag", False)
            for opt in param.opts
            if opt not in ("--json", "--help", "-h")
        }
        assert set(fast.grammar().flags[name]) <= typer_flags, name


@pytest.mark.parametrize("args", CASES, ids=lambda args: " ".join(args))
def test_fast_and_full_paths_print_the_same(sample_copy: Path, args: list[str]) -> None:
    assert fast.parse(["--workspace", str(sample_copy), *args, "--json"]) is not None
    base = [sys.executable, "-m", "normcli", "--workspace", str(sample_copy)]
    quick = subprocess.run([*base, *args, "--json"], capture_output=True, text=True, timeout=60)
    full = subprocess.run([*base, "--debug", *args, "--json"], capture_output=True, text=True, timeout=60)
    assert quick.returncode == full.returncode
    assert json.loads(quick.stdout) == json.loads(full.stdout)


@pytest.mark.parametrize(
    "argv",
    [
        ["toc", "SIA 261"],  # no --json: rich output for people
        ["toc", "--help", "--json"],
        ["toc", "SIA 261", "--depth", "deep", "--json"],
        ["toc", "--json"],
        ["toc", "SIA 261", "--bogus", "--json"],
        ["figure", "SIA 261", "fig-3", "--json"],
        ["check", "--json"],
    ],
)
def test_anything_else_goes_to_the_full_command_line(argv: list[str]) -> None:
    assert fast.parse(argv) is None
