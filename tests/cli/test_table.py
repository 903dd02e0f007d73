"""`normcli table`: a norm's table for a person (a table with its header, formulas in Unicode, the
citation) and for a script (`--json`), with the exit codes of SPEC §4."""

from __future__ import annotations

from pathlib import Path


def test_a_table_is_printed_with_its_caption_cells_and_citation(cli, sample_copy: Path) -> None:
    ran = cli("table", "SIA 261", "tab-3", workspace=sample_copy)
    assert ran.code == 0, ran.stderr
    assert "Tableau 3" in ran.stdout and "μ_1" in ran.stdout
    assert "\\alpha" not in ran.stdout and "α" in ran.stdout
    assert ran.stdout.rstrip().splitlines()[-1].startswith("[SIA 261:2020, 4.2.3, p. ")


def test_a_table_as_json_and_an_unknown_one(cli, sample_copy: Path) -> None:
    ran = cli("table", "SIA 261", "Tableau 3", "--json", workspace=sample_copy)
    assert ran.code == 0 and ran.json()["table"]["id"] == "tab-3"
    missing = cli("table", "SIA 261", "tab-99", "--json", workspace=sample_copy)
    assert missing.code == 1 and missing.json()["error"]["code"] == "not_found"
    assert "tab-3" in missing.stderr
