"""`normcli ingest` as a user runs it: the report, the JSON, exit codes and one-line errors."""

from __future__ import annotations

from pathlib import Path


def _note(tmp_path: Path) -> Path:
    source = tmp_path / "notes.md"
    source.write_text("# 1 Scope\n\nThe scope of this house norm is given here in words.\n\n# 2 Rules\n\nRules.\n", encoding="utf-8")
    return source


def test_ingest_prints_what_it_wrote_and_the_quality_report(cli, workspace: Path, tmp_path: Path) -> None:
    ran = cli("ingest", str(_note(tmp_path)), "--code", "HAUS 1", "--edition", "2025", workspace=workspace)
    assert ran.code == 0, ran.stderr
    assert "imported" in ran.stdout and "norms/haus-1/2025/norm.md" in ran.stdout
    assert "quality:" in ran.stdout and "(sparse_text)" in ran.stdout
    toc = cli("toc", "HAUS 1", "--json", workspace=workspace)
    assert [node["path"] for node in toc.json()["tree"]] == ["1", "2"]


def test_ingest_json_is_one_document(cli, workspace: Path, tmp_path: Path) -> None:
    ran = cli("ingest", str(_note(tmp_path)), "--code", "HAUS 1", "--edition", "2025", "--json", workspace=workspace)
    report = ran.json()
    assert report["sections"] == 2 and report["sectionsByDepth"] == {"1": 2}
    assert report["quality"]["problems"]


def test_errors_are_one_line_with_the_documented_exit_codes(cli, workspace: Path, tmp_path: Path) -> None:
    missing = cli("ingest", str(tmp_path / "nope.pdf"), "--code", "X 1", "--edition", "1", workspace=workspace)
    assert missing.code == 1 and missing.stderr.count("\n") == 1 and "Traceback" not in missing.stderr
    source = _note(tmp_path)
    assert cli("ingest", str(source), "--code", "X 1", "--edition", "1", workspace=workspace).code == 0
    again = cli("ingest", str(source), "--code", "X 1", "--edition", "1", "--json", workspace=workspace)
    assert again.code == 2 and again.json()["error"]["code"] == "invalid_argument" and "--force" in again.stderr
    assert cli("ingest", str(source), "--code", "X 1", "--edition", "1", "--force", workspace=workspace).code == 0
    bad = cli("ingest", str(source), "--code", "X 1", "--edition", "../up", workspace=workspace)
    assert bad.code == 2 and "Traceback" not in bad.stderr


def test_a_second_language_joins_the_edition(cli, workspace: Path, tmp_path: Path) -> None:
    french = tmp_path / "fr.md"
    french.write_text("# 1 Domaine d'application\n\nLa présente norme s'applique aux structures et pour les charges.\n", encoding="utf-8")
    german = tmp_path / "de.md"
    german.write_text("# 1 Geltungsbereich\n\nDie Norm gilt für die Tragwerke und für die Lasten.\n", encoding="utf-8")
    assert cli("ingest", str(french), "--code", "SIA 261", "--edition", "2020", workspace=workspace).code == 0
    assert cli("ingest", str(german), "--code", "SIA 261", "--edition", "2020", workspace=workspace).code == 0
    folder = workspace / "norms" / "sia-261" / "2020"
    assert sorted(file.name for file in folder.glob("norm*.md")) == ["norm.de.md", "norm.fr.md"]
    german_toc = cli("toc", "SIA 261", "--language", "de", "--json", workspace=workspace).json()
    assert german_toc["tree"][0]["title"] == "Geltungsbereich"


def test_a_code_written_another_way_is_the_same_norm_and_a_colon_is_refused(cli, workspace: Path, tmp_path: Path) -> None:
    source = _note(tmp_path)
    assert cli("ingest", str(source), "--code", "X 1", "--edition", "1", workspace=workspace).code == 0
    again = cli("ingest", str(source), "--code", "x1", "--edition", "1", workspace=workspace)
    assert again.code == 2 and "already exists" in again.stderr
    assert [folder.name for folder in (workspace / "norms").iterdir()] == ["x-1"]
    (workspace / "norms" / "x1" / "2").mkdir(parents=True)  # a second folder of the same code, holding edition 2
    (workspace / "norms" / "x1" / "2" / "norm.md").write_bytes((workspace / "norms" / "x-1" / "1" / "norm.md").read_bytes())
    twice = cli("ingest", str(source), "--code", "X 1", "--edition", "2", workspace=workspace)
    assert twice.code == 2 and "x1/2" in twice.stderr  # found in the folder that holds that edition
    colon = cli("ingest", str(source), "--code", "X 2:2017", "--edition", "2017", workspace=workspace)
    assert colon.code == 2 and "cannot contain ':'" in colon.stderr and "Traceback" not in colon.stderr
