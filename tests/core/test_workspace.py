"""Workspace settings: read from normcli.toml, kept beside the index until the file changes."""

from __future__ import annotations

import json
import os
from pathlib import Path

from normcli.workspace import SETTINGS_KEPT, index_folder, read_settings


def test_settings_are_read_then_kept_until_the_file_changes(tmp_path: Path) -> None:
    toml = tmp_path / "normcli.toml"
    assert read_settings(tmp_path).name == tmp_path.name
    toml.write_text('name = "Bureau"\nlanguage = "DE"\n[methodology]\nextra = "Immer zitieren."\n', encoding="utf-8")
    first = read_settings(tmp_path)
    assert (first.name, first.language, first.methodology_extra, first.problems) == ("Bureau", "de", "Immer zitieren.", ())
    kept = Path(index_folder(tmp_path)) / SETTINGS_KEPT
    assert json.loads(kept.read_text(encoding="utf-8"))["settings"]["language"] == "de"
    assert read_settings(tmp_path) == first
    toml.write_text('name = "Bureau"\nlanguage = "fr"\n', encoding="utf-8")
    os.utime(toml, ns=(1, 1))
    assert read_settings(tmp_path).language == "fr"
    kept.write_text("{not json", encoding="utf-8")
    assert read_settings(tmp_path).language == "fr"
    toml.write_text("language = [unclosed\n", encoding="utf-8")
    broken = read_settings(tmp_path)
    assert broken.name == tmp_path.name and broken.problems and broken.problems[0].startswith("normcli.toml:")
    assert read_settings(tmp_path) == broken


def test_the_kept_settings_are_used_and_name_the_folder_they_are_in_now(tmp_path: Path) -> None:
    first = tmp_path / "bureau-a"
    first.mkdir()
    (first / "normcli.toml").write_text('language = "de"\n', encoding="utf-8")
    assert read_settings(first).name == "bureau-a"
    kept = Path(index_folder(first)) / SETTINGS_KEPT
    saved = json.loads(kept.read_text(encoding="utf-8"))
    saved["settings"]["language"] = "it"  # what a read from the kept copy, not from the file, would give
    kept.write_text(json.dumps(saved), encoding="utf-8")
    assert read_settings(first).language == "it"
    moved = first.rename(tmp_path / "bureau-b")
    settings = read_settings(moved)
    assert (settings.name, settings.language) == ("bureau-b", "it")


def test_a_folder_whose_name_is_not_utf8_is_indexed_like_any_other(tmp_path: Path) -> None:
    from normcli.service import Service

    folder = os.path.join(os.fsencode(tmp_path), b"norms", b"bad\xff", b"2020")
    os.makedirs(folder)
    with open(os.path.join(folder, b"norm.md"), "w", encoding="utf-8") as bundle:
        bundle.write('---\ncode: BAD 1\nedition: "2020"\ntitle: Nom de dossier\nlanguage: fr\n---\n# 1 Objet\nLa charge de neige.\n')
    service = Service.open(tmp_path)
    assert [norm.code for norm in service.norms().norms] == ["BAD 1"]
    assert service.search("BAD 1", "neige").hits[0].path == "1"
    assert [bundle.file for bundle in service.check().bundles] == ["norms/bad\\xff/2020/norm.md"]


def test_bundle_file_names_are_norm_md_or_one_language_version() -> None:
    import re

    from normcli.workspace import is_bundle_file, language_of

    # The names are matched without `re` (start-up): the pattern of SPEC §2 is the oracle, except a
    # trailing newline, which `$` let through and which names another file.
    pattern = re.compile(r"norm(?:\.(?P<lang>[a-z]{2}))?\.md")
    names = ["norm.md", "norm.de.md", "norm.fr.md", "norm.DE.md", "norm.d.md", "norm.dex.md", "xnorm.md", "norm.md.bak", "norm.é1.md"]
    names += ["norm..md", "norm.abmd", "Norm.md", "norm.md\n", "norm.de.md\n", "norm.1a.md", "norm.zz.md", "norm.ab.mdx", ""]
    for name in names:
        match = pattern.fullmatch(name)
        assert is_bundle_file(name) == (match is not None), repr(name)
        assert language_of(Path(name or "x")) == (match.group("lang") if match else None), repr(name)
