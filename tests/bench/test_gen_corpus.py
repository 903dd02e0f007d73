"""The benchmark corpus generator: the same seed gives the same bytes, and normcli reads what it writes."""

from __future__ import annotations

import hashlib
from pathlib import Path

import bench_modules
import pytest

from normcli.bundle import parse_bundle

gen = bench_modules.load("gen_corpus")
NORMS, SECTIONS, TREE, BIG = 3, 40, 120, 20_000


def _digest(root: Path) -> str:
    """One hash over every file below `norms/`, names and bytes."""
    digest = hashlib.sha256()
    for file in sorted((root / "norms").rglob("*")):
        if file.is_file():
            digest.update(file.relative_to(root).as_posix().encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    root = tmp_path_factory.mktemp("bench") / "ws"
    return root, gen.generate(root, NORMS, SECTIONS, seed=11, tree_nodes=TREE, big_chars=BIG, label="test")


def test_same_seed_same_bytes_other_seed_other_bytes(workspace: tuple[Path, dict], tmp_path: Path) -> None:
    root, _ = workspace
    gen.generate(tmp_path / "again", NORMS, SECTIONS, seed=11, tree_nodes=TREE, big_chars=BIG, label="test")
    gen.generate(tmp_path / "other", NORMS, SECTIONS, seed=12, tree_nodes=TREE, big_chars=BIG, label="test")
    assert _digest(tmp_path / "again") == _digest(root)
    assert _digest(tmp_path / "other") != _digest(root)


def test_bundles_parse_cleanly_with_the_requested_counts(workspace: tuple[Path, dict]) -> None:
    root, manifest = workspace
    bundles = manifest["bundles"]
    assert len(bundles) == NORMS
    assert [b["sections"] for b in bundles] == [TREE, SECTIONS, SECTIONS]
    assert manifest["totalSections"] == TREE + (NORMS - 1) * SECTIONS
    languages = set()
    for entry in bundles:
        bundle = parse_bundle(root / entry["file"], entry["file"])
        assert bundle.code == entry["code"]
        assert len(bundle.nodes) == entry["sections"]
        assert bundle.problems == [], bundle.problems[:3]
        languages.add(bundle.language)
    assert languages == {"fr", "de"}


def test_the_special_places_exist(workspace: tuple[Path, dict]) -> None:
    root, manifest = workspace
    big = manifest["bigSection"]
    entry = next(b for b in manifest["bundles"] if b["code"] == big["code"])
    bundle = parse_bundle(root / entry["file"])
    node = next(n for n in bundle.nodes if n.path == big["path"])
    assert len(node.text) >= BIG
    text = "\n".join(n.text for n in bundle.nodes)
    assert "$$" in text and "|---|" in text
    assert bundle.figures and bundle.xrefs
    assert all((root / entry["file"]).parent.joinpath(f.file).is_file() for f in bundle.figures)
    assert sum(len(words) for words in manifest["keywords"].values()) == 50
