"""Output that pipes cleanly (no padding, whole clauses, plain Markdown) and `normcli init`."""

from __future__ import annotations

import re
from pathlib import Path


def test_no_line_ends_in_spaces_when_stdout_is_a_pipe(cli, sample_copy: Path) -> None:
    for args in (("norms",), ("toc", "SIA 261", "--depth", "2"), ("section", "SIA 261", "4.2.1"), ("search", "SIA 261", "neige")):
        ran = cli(*args, workspace=sample_copy)
        assert ran.code == 0, ran.stderr
        padded = [line for line in ran.stdout.splitlines() if line != line.rstrip()]
        assert not padded, (args, padded[:3])


def test_section_all_prints_every_window_of_a_long_clause(cli, sample_copy: Path) -> None:
    windowed = cli("section", "SIA 261", "4.2.1", "--max-chars", "1000", "--json", workspace=sample_copy).json()["section"]
    assert windowed["truncated"], "the clause is longer than one window"
    whole = cli("section", "SIA 261", "4.2.1", "--max-chars", "1000", "--all", "--format", "markdown", workspace=sample_copy)
    source = (sample_copy / "norms/sia-261/2020/norm.fr.md").read_text(encoding="utf-8")
    body = source.split("## 4.2.1 ", 1)[1].split("\n", 1)[1].split("\n### ", 1)[0].split("\n## ", 1)[0]
    text = re.sub(r"<!--\s*page[^>]*-->\n?", "", body).strip()
    assert whole.code == 0 and text[:200] in whole.stdout and text[-200:] in whole.stdout
    assert "more follows" not in whole.stderr
    assert whole.stdout.rstrip().endswith("Cite as [SIA 261:2020, 4.2.1, p. 17]")


def test_format_markdown_prints_the_markdown_itself(cli, sample_copy: Path) -> None:
    ran = cli("section", "SIA 261", "4.2.2", "--format", "markdown", workspace=sample_copy)
    as_json = cli("section", "SIA 261", "4.2.2", "--json", workspace=sample_copy).json()["section"]
    assert ran.stdout.strip() == as_json["markdown"].strip()
    wrong = cli("section", "SIA 261", "4.2.2", "--format", "html", workspace=sample_copy)
    assert wrong.code == 2 and "html" in wrong.stderr


def test_init_makes_a_workspace_and_keeps_what_exists(cli, tmp_path: Path) -> None:
    target = tmp_path / "office" / "norms-lib"
    ran = cli("init", str(target), "--name", "Bureau Muster", "--language", "fr", "--json")
    assert ran.code == 0 and (target / "norms").is_dir()
    assert set(ran.json()["created"]) == {str(target), str(target / "norms"), str(target / "normcli.toml")}
    settings = (target / "normcli.toml").read_text(encoding="utf-8")
    assert 'name = "Bureau Muster"' in settings and 'language = "fr"' in settings
    (target / "normcli.toml").write_text('name = "kept"\n', encoding="utf-8")
    again = cli("init", str(target), "--json")
    assert again.code == 0 and again.json()["created"] == []
    assert (target / "normcli.toml").read_text(encoding="utf-8") == 'name = "kept"\n'
    info = cli("info", "--json", workspace=target).json()
    assert info["name"] == "kept" and info["norms"] == 0


def test_init_refuses_a_file_and_a_bad_language(cli, tmp_path: Path) -> None:
    file = tmp_path / "file.txt"
    file.write_text("x", encoding="utf-8")
    assert cli("init", str(file)).code == 3
    assert cli("init", str(tmp_path / "w"), "--language", "xx").code == 2
    assert not (tmp_path / "w").exists()


def test_a_missing_workspace_says_how_to_create_one(cli, tmp_path: Path) -> None:
    ran = cli("norms", workspace=tmp_path / "missing")
    assert ran.code == 3 and "init" in ran.stderr
