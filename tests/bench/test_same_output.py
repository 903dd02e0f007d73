"""The same-output check finds every file that differs, is missing on one side, and takes each PDF once."""

from __future__ import annotations

from pathlib import Path

import bench_modules

bench = bench_modules.load("same_output")


def _tree(root: Path, files: dict[str, bytes]) -> Path:
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_a_changed_byte_and_a_missing_file_are_reported_and_equal_files_are_not(tmp_path: Path) -> None:
    same = {"000-a-outline/norms/a/1/norm.md": b"# 1 Scope\n\nText\n", "000-a-outline/norms/a/1/figures/fig-1.png": b"\x89PNG\x00\x01"}
    a = _tree(tmp_path / "A", {**same, "000-a-outline/report.json": b'{"sections": 3}', "only-a.txt": b"x"})
    b = _tree(tmp_path / "B", {**same, "000-a-outline/report.json": b'{"sections": 4}'})
    found = bench.differences(a, b)
    assert len(found) == 2
    assert found[0] == "only in A: only-a.txt"
    assert found[1].startswith("differs: 000-a-outline/report.json")
    assert '{"sections": 4}' in found[1]  # the first differing line, B's side
    assert bench.differences(a, a) == []


def test_each_pdf_is_taken_once_and_the_sample_takes_every_nth_by_name(tmp_path: Path) -> None:
    folder = tmp_path / "more"
    names = [f"doc{number:02d}.pdf" for number in range(10)]
    _tree(folder, {name: b"%PDF-1.4\n" for name in names})
    extra = tmp_path / "extra"
    extra.mkdir()
    (extra / "doc03.pdf").symlink_to(folder / "doc03.pdf")  # the same file under another folder counts once
    chosen = bench.chosen_pdfs([extra], [folder], 4)
    ours = [pdf for pdf in chosen if folder in pdf.parents]
    assert [pdf.name for pdf in ours] == ["doc03.pdf", "doc00.pdf", "doc04.pdf", "doc08.pdf"]
