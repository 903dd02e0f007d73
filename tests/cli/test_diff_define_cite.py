"""The command line of issue 17: diff, xrefs --incoming, define, cite and export docset, with their bad input."""

from __future__ import annotations

import json
from pathlib import Path


def test_diff_answers_and_refuses_two_different_norms(cli, sample_copy: Path) -> None:
    ran = cli("diff", "SIA 261:2014", "SIA 261:2020", "--json", workspace=sample_copy)
    assert ran.code == 0 and set(ran.json()) >= {"from", "to", "changes", "counts"}
    refused = cli("diff", "SIA 261", "SIA 260", "--json", workspace=sample_copy)
    assert refused.code == 2 and refused.json()["error"]["code"] == "invalid_argument"
    assert refused.stderr.startswith("normcli: SIA 261 and SIA 260 are different norms") and "--force" in refused.stderr
    assert cli("diff", "SIA 261", "SIA 260", "--force", "--json", workspace=sample_copy).code == 0
    person = cli("diff", "SIA 261:2014", "SIA 261:2020", "6", workspace=sample_copy, env={"COLUMNS": "200"})
    assert person.code == 0 and "renumbered 6.2 → 6.2.1 Chocs de véhicules" in person.stdout and "[-" in person.stdout
    languages = cli("diff", "SIA 261:2020", "SIA 261:2020", "--to-language", "de", workspace=sample_copy)
    assert languages.code == 0 and "aligned by path" in languages.stderr
    assert cli("diff", "SIA 261:2014", "SIA 261:1999", workspace=sample_copy).code == 1


def test_incoming_references_in_json_and_through_batch(cli, sample_copy: Path) -> None:
    ran = cli("xrefs", "SIA 261", "4.2.1", "--incoming", "--json", workspace=sample_copy)
    data = ran.json()
    assert ran.code == 0 and data["direction"] == "incoming" and data["crossRefs"]
    request = json.dumps({"op": "get_cross_refs", "norm": "SIA 261", "path": "4.2.1", "direction": "incoming", "id": 1})
    batch = cli("batch", workspace=sample_copy, stdin=request + "\n")
    answer = json.loads(batch.stdout.splitlines()[0])
    assert answer["crossRefs"] == data["crossRefs"] and answer["id"] == 1
    wrong = cli("xrefs", "SIA 261", "4.2.1", "--direction", "sideways", workspace=sample_copy)
    assert wrong.code == 2 and "outgoing, incoming" in wrong.stderr


def test_define_one_letter_is_an_answer_and_empty_is_a_usage_error(cli, sample_copy: Path) -> None:
    one = cli("define", "q", "--json", workspace=sample_copy)
    assert one.code == 0 and one.json()["definitions"] == [] and "one character" in one.json()["notes"][0]
    assert cli("define", " ", workspace=sample_copy).code == 2
    found = cli("define", "Nutzlast", workspace=sample_copy, env={"COLUMNS": "200"})
    assert found.code == 0 and "[SIA 261:2020, 2.1, p. 9] (de)" in found.stdout


def test_cite_prints_the_reference_itself(cli, sample_copy: Path) -> None:
    ran = cli("cite", "SIA 261:2020", "4.2.1", "--format", "ris", workspace=sample_copy)
    assert ran.code == 0 and ran.stdout.startswith("TY  - STAND\n") and ran.stdout.rstrip().endswith("ER  -")
    assert cli("cite", "SIA 261", "4.2.1", "--format", "mla", workspace=sample_copy).code == 2
    assert cli("cite", "SIA 261", "9.9.9", workspace=sample_copy).code == 1


def test_export_refuses_a_folder_that_is_not_empty(cli, sample_copy: Path, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine", encoding="utf-8")
    refused = cli("export", "docset", str(folder), "--json", workspace=sample_copy)
    assert refused.code == 2 and refused.json()["error"]["code"] == "invalid_argument" and "not empty" in refused.stderr
    done = cli("export", "docset", str(folder), "--force", "--json", workspace=sample_copy)
    assert done.code == 0 and Path(done.json()["path"]).is_dir() and (folder / "keep.txt").read_text(encoding="utf-8") == "mine"
