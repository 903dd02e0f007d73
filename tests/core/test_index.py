"""The index: refreshed per changed bundle, rebuilt when corrupt, safe with two builders and read-only folders."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from normcli.service import Service
from normcli.store.refresh import refresh
from tests.conftest import write_bundle

GOOD = """\
---
code: T 1
edition: "2020"
title: Bonne norme
language: fr
---
# 1 Objet
La charge de neige est traitée ici.
## 1.1 Détail
Texte du détail.
"""


def test_nothing_changed_means_no_write(sample_fresh: Path) -> None:
    first = refresh(sample_fresh)
    assert first.rebuilt
    stamp = first.path.stat().st_mtime_ns
    again = refresh(sample_fresh)
    assert (again.indexed, again.removed, again.rebuilt) == (0, 0, False)
    assert first.path.stat().st_mtime_ns == stamp


def test_a_changed_bundle_is_reindexed_alone(sample_fresh: Path) -> None:
    service = Service.open(sample_fresh)
    assert not service.corpus("Zyklopenmauerwerk").norms
    file = sample_fresh / "norms" / "sia-260" / "2013" / "norm.md"
    file.write_text(file.read_text(encoding="utf-8") + "\n# 9 Neu\nZyklopenmauerwerk ist erlaubt.\n", encoding="utf-8")
    os.utime(file, ns=(time.time_ns(), time.time_ns()))
    result = service.corpus("Zyklopenmauerwerk")
    assert [norm.code for norm in result.norms] == ["SIA 260"]
    done = refresh(sample_fresh)
    assert done.indexed == 0


def test_a_removed_bundle_disappears(sample_fresh: Path) -> None:
    service = Service.open(sample_fresh)
    assert any(norm.code == "VSS 640 100" for norm in service.norms().norms)
    (sample_fresh / "norms" / "vss-640-100" / "2019" / "norm.md").unlink()
    assert not any(norm.code == "VSS 640 100" for norm in service.norms().norms)
    assert not service.corpus("Fahrbahn").norms


def test_a_broken_bundle_never_hides_the_others(tmp_path: Path) -> None:
    write_bundle(tmp_path, "t-1", "2020", GOOD)
    write_bundle(tmp_path, "broken", "2020", "# 1 Pas de front matter\n")
    (tmp_path / "norms" / "bad-utf8" / "2020").mkdir(parents=True)
    (tmp_path / "norms" / "bad-utf8" / "2020" / "norm.md").write_bytes(GOOD.replace("T 1", "T 2").encode() + b"\xff\xfe bad\n")
    service = Service.open(tmp_path)
    assert {norm.code for norm in service.norms().norms} == {"T 1", "T 2"}
    check = service.check()
    broken = next(bundle for bundle in check.bundles if "broken" in bundle.file)
    assert not broken.readable and broken.problems[0]["line"] == 1 and "front matter" in broken.problems[0]["reason"]
    bad = next(bundle for bundle in check.bundles if "bad-utf8" in bundle.file)
    assert bad.readable and any(problem["kind"] == "encoding" for problem in bad.problems)


def test_a_corrupt_or_foreign_index_is_rebuilt(tmp_path: Path) -> None:
    write_bundle(tmp_path, "t-1", "2020", GOOD)
    path = refresh(tmp_path).path
    path.write_bytes(b"this is not a database at all" * 100)
    assert Service.open(tmp_path).toc("T 1").tree[0].path == "1"
    path.unlink()
    foreign = sqlite3.connect(path)
    foreign.execute("CREATE TABLE bundles (file TEXT, mtime_ns INT, size INT)")
    foreign.commit()
    foreign.close()
    assert Service.open(tmp_path).toc("T 1").tree[0].path == "1"
    with open(path, "r+b") as handle:
        handle.truncate(path.stat().st_size // 3)
    assert Service.open(tmp_path).search("T 1", "neige").hits


def test_rebuild_replaces_the_file_atomically(tmp_path: Path) -> None:
    write_bundle(tmp_path, "t-1", "2020", GOOD)
    service = Service.open(tmp_path)
    old = service.info().index.path
    reader = sqlite3.connect(old)
    before = reader.execute("SELECT count(*) FROM nodes").fetchone()[0]
    result = service.rebuild(force=True)
    assert result.rebuilt and result.path == old
    assert reader.execute("SELECT count(*) FROM nodes").fetchone()[0] == before
    assert not [name for name in os.listdir(Path(old).parent) if ".tmp-" in name]


def test_two_processes_building_at_once_agree(tmp_path: Path) -> None:
    for number in range(12):
        write_bundle(tmp_path, f"t-{number}", "2020", GOOD.replace("T 1", f"T {number}"))
    script = "import sys; from normcli.service import Service; print(len(Service.open(sys.argv[1]).norms().norms))"
    runs = [
        subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for _ in range(2)
    ]
    outputs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outputs
    assert [out.strip() for out, _ in outputs] == ["12", "12"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders anyway")
def test_a_read_only_workspace_keeps_its_index_in_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _read_only_case(tmp_path, monkeypatch)


def test_a_workspace_that_cannot_be_written_uses_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import normcli.workspace as workspace

    real_access = os.access
    monkeypatch.setattr(
        workspace.os,
        "access",
        lambda path, mode: False if mode == os.W_OK and str(path).startswith(str(tmp_path / "ws")) else real_access(path, mode),
    )
    _read_only_case(tmp_path, monkeypatch)


def _read_only_case(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "ws"
    write_bundle(root, "t-1", "2020", GOOD)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    os.chmod(root, 0o555)
    try:
        info = Service.open(root).info()
        assert info.index.path.startswith(str(tmp_path / "cache")) and info.sections == 2
        assert not (root / ".normcli").exists()
    finally:
        os.chmod(root, 0o755)


def test_damaged_pages_inside_a_valid_header_are_repaired(tmp_path: Path) -> None:
    write_bundle(tmp_path, "t-1", "2020", GOOD + ("\n## 1.9 Long\n" + "Texte de remplissage. " * 4000))
    path = refresh(tmp_path).path
    size = path.stat().st_size
    with open(path, "r+b") as handle:
        handle.seek(size // 2)
        handle.write(os.urandom(size // 4))
    assert Service.open(tmp_path).search("T 1", "remplissage").hits


def test_clause_texts_are_packed_with_prose_sampled_from_the_bundles(sample_fresh: Path) -> None:
    import zlib

    from normcli.bundle import parse_bundle
    from normcli.store.schema import TEXT_DICTIONARY_KEY, TextPacker

    index = refresh(sample_fresh).path
    connection = sqlite3.connect(index)
    dictionary = connection.execute("SELECT value FROM meta WHERE key = ?", (TEXT_DICTIONARY_KEY,)).fetchone()[0]
    bundles = b"".join(file.read_bytes() for file in sorted((sample_fresh / "norms").rglob("norm*.md")))
    assert 4000 < len(dictionary) <= 16 * 1024
    assert all(line in bundles for line in dictionary.split(b"\n"))
    stored = dict(connection.execute("SELECT b.file || '#' || n.path, n.text FROM nodes n JOIN bundles b ON b.id = n.bundle_id"))
    packer = TextPacker(dictionary)
    packed = plain = 0
    for file in sorted((sample_fresh / "norms").rglob("norm*.md")):
        relative = file.relative_to(sample_fresh).as_posix()
        for node in parse_bundle(file, relative).nodes:
            value = stored[f"{relative}#{node.path}"]
            assert packer.unpack(value) == node.text
            if isinstance(value, bytes):
                packed += len(value)
                plain += len(zlib.compress(node.text.encode(), 6))
    assert packed < 0.8 * plain


def test_a_long_clause_read_again_after_its_bundle_changed_is_the_new_text(tmp_path: Path) -> None:
    long_text = " ".join(f"Mot{number}" for number in range(30_000))  # over the length the index keeps unpacked
    bundle = write_bundle(tmp_path, "t-1", "2020", GOOD.replace("Texte du détail.", long_text))
    service = Service.open(tmp_path)
    first = service.section("T 1", "1.1", max_chars=40_000, offset=20_000)
    assert first.total_chars == len(long_text) and first.content.startswith(long_text[20_000:20_100])
    assert service.section("T 1", "1.1", max_chars=40_000, offset=20_000).content == first.content
    changed = long_text.replace("Mot", "Wort")
    bundle.write_text(bundle.read_text(encoding="utf-8").replace(long_text, changed), encoding="utf-8")
    Service.open(tmp_path).index()  # another reader updates the index in place; its clause rows get the same ids
    again = service.section("T 1", "1.1", max_chars=40_000, offset=20_000)
    assert again.total_chars == len(changed) and again.content.startswith(changed[20_000:20_100])


def test_a_workspace_indexed_empty_gets_its_dictionary_when_bundles_arrive(tmp_path: Path) -> None:
    from normcli.store.schema import TEXT_DICTIONARY_KEY

    (tmp_path / "norms").mkdir()
    index = refresh(tmp_path).path
    write_bundle(tmp_path, "t-1", "2020", GOOD)
    assert refresh(tmp_path).indexed == 1
    dictionary = sqlite3.connect(index).execute("SELECT value FROM meta WHERE key = ?", (TEXT_DICTIONARY_KEY,)).fetchone()[0]
    assert b"charge de neige" in dictionary
    assert Service.open(tmp_path).section("T 1", "1").content.startswith("La charge de neige")


def test_a_long_lived_service_lists_a_norm_added_or_removed_since_its_last_answer(tmp_path: Path) -> None:
    write_bundle(tmp_path, "t-1", "2020", GOOD)
    service = Service.open(tmp_path)
    assert [norm.code for norm in service.norms().norms] == ["T 1"]
    added = write_bundle(tmp_path, "t-2", "2021", GOOD.replace("code: T 1", "code: T 2").replace('"2020"', '"2021"'))
    assert [norm.code for norm in service.norms().norms] == ["T 1", "T 2"]
    assert [hit.path for norm in service.corpus("neige").norms for hit in norm.hits if norm.code == "T 2"]
    added.unlink()
    assert [norm.code for norm in service.norms().norms] == ["T 1"]


def test_adding_a_language_version_changes_no_node_id(tmp_path: Path) -> None:
    french = GOOD + "# Annexe A Exemples\nUn exemple.\n"
    write_bundle(tmp_path, "t-1", "2020", french, name="norm.fr.md")
    before = {node.path: node.node_id for node in Service.open(tmp_path).toc("T 1", 6).tree}
    german = french.replace("language: fr", "language: de").replace("# Annexe A Exemples", "# Anhang A Beispiele")
    write_bundle(tmp_path, "t-1", "2020", german, name="norm.de.md")
    after = {node.path: node.node_id for node in Service.open(tmp_path).toc("T 1", 6, language="fr").tree}
    assert after == before and len(before) == 2


def test_a_stray_bundle_declaring_a_held_norm_hides_nothing_and_is_reported(sample_fresh: Path) -> None:
    stray = GOOD.replace("code: T 1", "code: SIA 261").replace("Bonne norme", "Impostor")
    write_bundle(sample_fresh, "aaa-copy", "1", stray, name="norm.fr.md")  # listed before norms/sia-261/
    service = Service.open(sample_fresh)
    assert service.toc("SIA 261", language="fr").edition.title != "Impostor"
    assert service.section("SIA 261", "4.2.1", language="fr").title == "Charge de neige sur le sol"
    norm = next(norm for norm in service.norms().norms if norm.code == "SIA 261")
    assert next(edition for edition in norm.editions if edition.edition == "2020").languages == ("de", "fr")
    warned = {bundle.file: bundle.problems for bundle in service.check().bundles}["norms/aaa-copy/1/norm.fr.md"]
    duplicate = [problem for problem in warned if problem["kind"] == "duplicate_bundle"]
    assert len(duplicate) == 1 and "norms/sia-261/2020/norm.fr.md" in duplicate[0]["reason"]
    write_bundle(sample_fresh, "aab-copy", "1", stray, name="norm.fr.md")  # a third: each names the one read
    service = Service.open(sample_fresh)
    assert set(service.hidden_bundles().values()) == {"norms/sia-261/2020/norm.fr.md"} and len(service.hidden_bundles()) == 2
    assert service.info().sections == Service.open(sample_fresh).info().sections == 267


def test_editions_are_newest_first_with_their_numbers_read_as_numbers(tmp_path: Path) -> None:
    for edition in ("9", "10", "2.5", "²"):
        write_bundle(tmp_path, "ed-1", edition, GOOD.replace("code: T 1", "code: ED 1").replace('edition: "2020"', f'edition: "{edition}"'))
    service = Service.open(tmp_path)
    assert [edition.edition for edition in service.norms().norms[0].editions] == ["10", "9", "2.5", "²"]  # '²' is no number
    assert service.toc("ED 1").edition.edition == "10"


def test_a_pipe_in_a_title_does_not_break_the_methodology_table(tmp_path: Path) -> None:
    write_bundle(tmp_path, "t-1", "2020", GOOD.replace("title: Bonne norme", "title: Murs | cloisons"))
    row = next(line for line in Service.open(tmp_path).methodology().text.splitlines() if line.startswith("| T 1 |"))
    assert row.count("|") == 7 and "Murs / cloisons" in row


def test_check_scores_the_share_of_clauses_without_a_warning_and_puts_each_reference_on_its_line(tmp_path: Path) -> None:
    body = GOOD.replace(
        "Texte du détail.", "Texte du détail assez long pour ne pas être maigre.\n\nSelon le chiffre 9.1, le chiffre 9.2 et le chiffre 9.3."
    )
    body += "## 1.2 Autre\nUn texte assez long pour ne pas être compté comme maigre ici.\n"
    body += "## 1.3 Encore\nUn autre texte assez long pour ne pas être compté comme maigre.\n"
    file = write_bundle(tmp_path, "t-1", "2020", body)
    report = Service.open(tmp_path).check().bundles[0]
    unresolved = [problem for problem in report.problems if problem["kind"] == "unresolved_reference"]
    assert len(unresolved) == 3 and report.sections == 4
    line = file.read_text(encoding="utf-8").splitlines().index("Selon le chiffre 9.1, le chiffre 9.2 et le chiffre 9.3.") + 1
    assert {problem["line"] for problem in unresolved} == {line}
    assert report.score == 75  # one clause of four holds the three warnings


def test_a_reference_after_page_markers_is_reported_on_its_own_line_and_a_table_range_reads_its_first(tmp_path: Path) -> None:
    body = GOOD.replace(
        "Texte du détail.",
        "\nTexte du détail.\n<!-- page 2 -->\n<!-- page 3 -->\nSelon le chiffre 9.9, voir les tableaux 1-2.\n\n"
        "Tableau 1 – Valeurs\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
    )
    file = write_bundle(tmp_path, "t-1", "2020", body)
    report = Service.open(tmp_path).check().bundles[0]
    line = next(number for number, text in enumerate(file.read_text(encoding="utf-8").splitlines(), 1) if "9.9" in text)
    assert [problem["line"] for problem in report.problems if problem["kind"] == "unresolved_reference"] == [line]
    table = next(ref for ref in Service.open(tmp_path).xrefs("T 1", "1.1").cross_refs if ref.target_kind == "table")
    assert (table.text, table.target_path, table.resolvable) == ("tableaux 1-2", "tab-1", True)
