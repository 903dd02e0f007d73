"""Very deep and very large bundles: indexed, read and printed without recursion errors or a stall.

The full-size cases of the issue (a 10,000-level heading chain, a 50 MB bundle) take minutes, so they
run with `make fuzz` (NORMCLI_STRESS=1); `make test` runs the same stories at a size that still
breaks a recursive implementation (1,500 levels) or a quadratic one (5 MB).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from normcli.service import Service
from normcli.trees import MAX_TREE_LEVELS
from tests.reliability.support import normcli, write_file

STRESS = os.environ.get("NORMCLI_STRESS") == "1"


def _chain(root: Path, levels: int) -> None:
    lines = ['---\ncode: DEEP 1\nedition: "2020"\nlanguage: fr\n---\n']
    path = "1"
    for level in range(levels):
        lines.append(f"# {path} Niveau {level}\nTexte du niveau {level} sur la neige.\n")
        path += ".1"
    write_file(root, "deep-1", "2020", "".join(lines))


def _deep_story(root: Path, levels: int) -> None:
    _chain(root, levels)
    with Service.open(root) as service:
        assert service.toc("DEEP 1", 6).tree[0].path == "1"
        subtree = service.subtree("DEEP 1", "1", max_nodes=2000)
        data = subtree.to_json()
        assert (
            json.loads(json.dumps(data)) == data
        )  # nests at most MAX_TREE_LEVELS levels (JSON encoders recurse), then says it is truncated
        assert subtree.tree[0].truncated
        node, nesting = subtree.tree[0], 1
        while node.children:
            node, nesting = node.children[0], nesting + 1
        assert nesting == MAX_TREE_LEVELS + 1
        deeper = service.subtree("DEEP 1", node.path, max_nodes=2000)
        assert deeper.tree[0].path == node.path and deeper.tree[0].children  # the rest is reached from there
        assert service.section("DEEP 1", ".".join(["1"] * 100)).content.startswith("Texte du niveau 99")
        assert len(service.search("DEEP 1", "neige", limit=50).hits) == 50
        assert service.check().bundles[0].readable
    done = normcli("--workspace", str(root), "subtree", "DEEP 1", "1", "--max-nodes", "2000")
    assert done.returncode == 0 and "Niveau 0" in done.stdout, done.stderr[-300:]
    done = normcli("--workspace", str(root), "subtree", "DEEP 1", "1", "--max-nodes", "2000", "--json")
    assert done.returncode == 0 and json.loads(done.stdout)["tree"][0]["truncated"]


def _big_story(root: Path, megabytes: int) -> float:
    paragraph = "La charge de neige s_k sur le sol vaut 0,4 kN/m2 selon 4.2.1 et la figure 3. " * 12 + "\n\n"
    chunks, size, chapter = ['---\ncode: BIG 1\nedition: "2020"\nlanguage: fr\n---\n'], 0, 0
    while size < megabytes * 1_000_000:
        chapter += 1
        block = f"# {chapter} Chapitre {chapter}\n" + paragraph * 40
        chunks.append(block)
        size += len(block)
    chunks.append("# 9999 Fin\nLe mot zyklopenmauerwerk est à la fin.\n")
    write_file(root, "big-1", "2020", "".join(chunks))
    write_file(root, "small-1", "2020", '---\ncode: SMALL 1\nedition: "2020"\nlanguage: fr\n---\n# 1 Objet\nneige\n')
    started = time.perf_counter()
    with Service.open(root) as service:
        assert service.toc("SMALL 1").tree
        elapsed = time.perf_counter() - started
        assert [hit.path for hit in service.search("BIG 1", "zyklopenmauerwerk").hits] == ["9999"]
        first = service.section("BIG 1", "1", max_chars=20000)
        assert first.total_chars > 30_000 and first.next_offset
    return elapsed


def test_a_deep_heading_chain_is_read_without_recursion(tmp_path: Path) -> None:
    _deep_story(tmp_path / "ws", 1500)


def test_a_five_megabyte_bundle_is_indexed_and_read(tmp_path: Path) -> None:
    # The story asserts what is read back; how long it takes is measured in bench/, not bounded here.
    _big_story(tmp_path / "ws", 5)


@pytest.mark.slow
@pytest.mark.skipif(not STRESS, reason="full size: NORMCLI_STRESS=1 (make fuzz)")
def test_a_ten_thousand_level_heading_chain(tmp_path: Path) -> None:
    _deep_story(tmp_path / "ws", 10_000)


@pytest.mark.slow
@pytest.mark.skipif(not STRESS, reason="full size: NORMCLI_STRESS=1 (make fuzz)")
def test_a_fifty_megabyte_bundle(tmp_path: Path) -> None:
    print(f"\n50 MB bundle indexed in {_big_story(tmp_path / 'ws', 50):.1f} s")
