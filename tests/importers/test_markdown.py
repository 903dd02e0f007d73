"""Markdown imports: heading styles, clause depth from numbers, anchors, images copied or refused."""

from __future__ import annotations

import textwrap
from pathlib import Path

from importer_helpers import png_bytes, read_back

from normcli.importers import ingest


def _source(tmp_path: Path, body: str) -> Path:
    folder = tmp_path / "src"
    (folder / "media").mkdir(parents=True)
    (folder / "media" / "model.png").write_bytes(png_bytes())
    (tmp_path / "outside.png").write_bytes(png_bytes())
    source = folder / "notes.md"
    source.write_text(textwrap.dedent(body), encoding="utf-8")
    return source


def test_heading_depth_follows_the_clause_number_not_the_hash_count(workspace: Path, tmp_path: Path) -> None:
    source = _source(
        tmp_path,
        """\
        # House rules

        Intro text.

        ## 1 <a name="sec1"></a>Scope

        See [the terms](#terms) and [Section 1](#sec1).

        #### 1.1 Terms <a name="terms"></a>

        Terms text.

        #### 1.1.1 More terms

        Text.

        Annex A Examples
        ================

        Annex text.

        # A.1 First example

        Example text.
        """,
    )
    report = ingest(source, "HAUS 1", "2025", workspace=workspace)
    bundle = read_back(workspace, report)
    assert [(node.path, node.depth) for node in bundle.nodes] == [
        ("House rules", 1),
        ("1", 1),
        ("1.1", 2),
        ("1.1.1", 3),
        ("Annex A", 1),
        ("A.1", 2),
    ]
    assert bundle.nodes[1].title == "Scope"
    assert "[the terms](#1.1)" in bundle.nodes[1].text and "[Section 1](#1)" in bundle.nodes[1].text


def test_images_are_copied_and_images_outside_the_folder_refused(workspace: Path, tmp_path: Path) -> None:
    source = _source(
        tmp_path,
        """\
        # 1 Model

        **Figure 4-1 Digital identity model**

        ![](media/model.png)

        ![secret](../outside.png)

        ![gone](media/missing.png)
        """,
    )
    report = ingest(source, "HAUS 2", "2025", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert report.figures == 1
    figure = bundle.figures[0]
    assert figure.number == "4-1" and figure.file and figure.file.startswith("figures/")
    assert (workspace / Path(report.file).parent / figure.file).is_file()
    assert any("outside the source folder" in warning for warning in report.warnings)
    assert any("missing" in warning for warning in report.warnings)
    assert not [problem for problem in bundle.problems if problem.kind == "figure"]


def test_repeated_unnumbered_titles_get_unique_paths(workspace: Path, tmp_path: Path) -> None:
    source = _source(tmp_path, "# Guide\n\ntext\n\n# Guide\n\nmore\n\n```\n# not a heading\n```\n")
    report = ingest(source, "HAUS 3", "2025", workspace=workspace, language="en")
    bundle = read_back(workspace, report)
    assert [node.path for node in bundle.nodes] == ["Guide", "Guide (2)"]
    assert not [problem for problem in bundle.problems if problem.kind == "duplicate_path"]
