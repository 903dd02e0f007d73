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
    kept = index_folder(tmp_path) / SETTINGS_KEPT
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
