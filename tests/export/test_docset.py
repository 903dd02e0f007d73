"""`export docset`: the layout Dash documents, a search entry for every clause, table, figure and term."""

from __future__ import annotations

import plistlib
import re
import sqlite3
from pathlib import Path

import pytest

from normcli.errors import InvalidArgument
from normcli.export.docset import write_docset
from normcli.service import Service

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"


def count_in_bundles(pattern: str) -> int:
    """How often `pattern` starts a line of the sample's bundles, outside fenced code and math blocks."""
    total = 0
    for file in SAMPLE.glob("norms/*/*/norm*.md"):
        fenced = False
        body = file.read_text(encoding="utf-8").split("---", 2)[2]
        previous = ""
        for line in body.splitlines():
            if line.startswith("```"):
                fenced = not fenced
            elif not fenced and re.match(pattern, line) and not (pattern.startswith(r"\|") and previous.startswith("|")):
                total += 1
            previous = line
    return total


def test_the_docset_has_dash_layout_and_every_entry_opens(service: Service, tmp_path: Path) -> None:
    result = write_docset(service, tmp_path / "out")
    docset = Path(result.path)
    assert docset.name.endswith(".docset") and docset.parent == tmp_path / "out"
    info = plistlib.loads((docset / "Contents" / "Info.plist").read_bytes())
    assert info["isDashDocset"] is True and info["dashIndexFilePath"] == "index.html" and info["CFBundleIdentifier"]
    documents = docset / "Contents" / "Resources" / "Documents"
    assert (documents / "index.html").is_file()
    with sqlite3.connect(docset / "Contents" / "Resources" / "docSet.dsidx") as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(searchIndex)")]
        rows = db.execute("SELECT name, type, path FROM searchIndex").fetchall()
    assert columns == ["id", "name", "type", "path"]
    by_type: dict[str, int] = {}
    for _, kind, path in rows:
        by_type[kind] = by_type.get(kind, 0) + 1
        page, _, anchor = path.partition("#")
        file = documents / page
        assert file.is_file(), path
        if anchor:
            assert f'id="{anchor}"' in file.read_text(encoding="utf-8"), path
    # Expected from the bundles themselves: one Section per heading, one Value per pipe table,
    # one Diagram per figure image.
    assert by_type["Section"] == count_in_bundles(r"#{1,6}\s")
    assert by_type["Value"] == count_in_bundles(r"\|")
    assert by_type["Diagram"] == count_in_bundles(r"!\[(?:Figure|Fig\.|Abbildung|Bild|Figur|Figura)\s")
    assert by_type["Word"] > 0 and by_type["Notation"] > 0
    names = {name for name, _, _ in rows}
    assert "Charge utile (SIA 261:2020 (fr), 2.1)" in names
    page = documents / next(
        path for name, kind, path in rows if kind == "Section" and name == "SIA 261:2020 (fr) 4.2.1 Charge de neige sur le sol"
    )
    text = page.read_text(encoding="utf-8")
    assert "<table>" in text and "[SIA 261:2020, 4.2.1, p. 17]" in text and "<script" not in text


def test_a_folder_that_is_not_empty_is_refused_without_force(service: Service, tmp_path: Path) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InvalidArgument, match="not empty"):
        write_docset(service, folder)
    first = write_docset(service, folder, force=True)
    again = write_docset(service, folder, force=True)
    assert first.path == again.path and (folder / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert sorted(item.name for item in folder.iterdir()) == sorted(["notes.txt", Path(first.path).name])
    with pytest.raises(InvalidArgument, match="is a file"):
        write_docset(service, folder / "notes.txt", force=True)
