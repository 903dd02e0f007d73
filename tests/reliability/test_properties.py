"""Property tests over random bundles: windows reassemble a clause, toc + subtrees give the whole tree,
node ids survive a rebuild, and search ignores case and accents."""

from __future__ import annotations

import shutil
import tempfile
import unicodedata
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from normcli.bundle import parse_bundle
from normcli.service import Service
from tests.reliability.support import write_file

SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

LETTERS = "abcdefghijklmnopqrstuvwxyzàâäçéèêëîïôöùûüÿßæœ"
word = st.text(alphabet=LETTERS, min_size=1, max_size=12)
# text for a paragraph: words, digits, punctuation and the odd odd character, never a heading or a fence
line = st.lists(
    st.one_of(word, st.sampled_from(["4.2.1", "$q_k$", "|", "—", "…", "(12)", "SIA 260", "«x»", "\t", "e\u0301"])), min_size=1, max_size=25
).map(" ".join)
paragraph = st.lists(line, min_size=1, max_size=6).map("\n".join)


@st.composite
def bundles(draw) -> tuple[str, list[str]]:
    """A random bundle text and its clause paths, in reading order."""
    paths: list[str] = []
    chunks = ['---\ncode: PROP 1\nedition: "2020"\nlanguage: fr\n---\n']
    counters: list[int] = []
    for _ in range(draw(st.integers(1, 14))):
        depth = draw(st.integers(1, min(len(counters) + 1, 5)))
        counters = counters[:depth]
        if len(counters) < depth:
            counters.append(0)
        counters[-1] += 1
        path = ".".join(map(str, counters))
        paths.append(path)
        title = draw(word)
        chunks.append(f"{'#' * min(depth, 6)} {path} {title}\n")
        if draw(st.booleans()) and path != "1":
            chunks.append(f"<!-- page {draw(st.integers(1, 500))} -->\n")
        chunks.append("\n\n".join(draw(st.lists(paragraph, min_size=0, max_size=8))) + "\n")
    return "".join(chunks), paths


def _service(text: str) -> tuple[Service, Path]:
    root = Path(tempfile.mkdtemp(prefix="prop-"))
    write_file(root, "prop-1", "2020", text)
    return Service.open(root), root


@SETTINGS
@given(bundles(), st.integers(500, 2000))
def test_the_windows_of_every_clause_reassemble_its_text(case: tuple[str, list[str]], max_chars: int) -> None:
    text, paths = case
    service, root = _service(text)
    try:
        parsed = {node.path: node.text for node in parse_bundle(root / "norms" / "prop-1" / "2020" / "norm.md").nodes}
        for path in paths:
            pieces, offset = [], 0
            while offset is not None:
                window = service.section("PROP 1", path, max_chars=max_chars, offset=offset)
                assert len(window.content) <= max_chars
                pieces.append(window.content)
                assert window.next_offset is None or window.next_offset > offset
                offset = window.next_offset
            assert "".join(pieces) == parsed[path]
    finally:
        service.close()
        shutil.rmtree(root)


@SETTINGS
@given(bundles())
def test_toc_at_depth_one_and_the_subtree_of_each_chapter_give_the_whole_tree(case: tuple[str, list[str]]) -> None:
    text, paths = case
    service, root = _service(text)
    try:
        chapters = service.toc("PROP 1", 1).tree
        found: list[str] = []
        for chapter in chapters:
            stack = list(service.subtree("PROP 1", chapter.path, max_nodes=2000).tree)
            while stack:
                node = stack.pop(0)
                found.append(node.path)
                stack[:0] = node.children
        assert found == paths
        whole = []
        stack = list(service.toc("PROP 1", 6).tree)
        while stack:
            node = stack.pop(0)
            whole.append(node.path)
            stack[:0] = node.children
        assert whole == paths
    finally:
        service.close()
        shutil.rmtree(root)


@SETTINGS
@given(bundles())
def test_every_node_id_is_stable_across_a_rebuild(case: tuple[str, list[str]]) -> None:
    text, _ = case
    service, root = _service(text)
    try:

        def ids() -> list[tuple[str, str]]:
            stack, out = list(service.toc("PROP 1", 6).tree), []
            while stack:
                node = stack.pop(0)
                out.append((node.path, node.node_id))
                stack[:0] = node.children
            return out

        before = ids()
        service.rebuild(force=True)
        assert ids() == before
        (root / ".normcli" / "index.sqlite").unlink()
        assert ids() == before
    finally:
        service.close()
        shutil.rmtree(root)


def _strip_accents(text: str) -> str:
    return "".join(char for char in unicodedata.normalize("NFD", text) if not unicodedata.combining(char))


@SETTINGS
@given(st.text(alphabet=LETTERS, min_size=3, max_size=14), st.sampled_from(["upper", "strip", "title", "nfd", "same"]))
def test_search_ignores_case_and_accents_for_random_words(target: str, variant: str) -> None:
    text = '---\ncode: FOLD 1\nedition: "2020"\nlanguage: fr\n---\n# 1 Objet\nrien ici\n# 2 Mot\n' + f"Le mot {target} est ici.\n"
    service, root = _service(text)
    try:
        query = {
            "upper": target.upper(),
            "strip": _strip_accents(target),
            "title": target.title(),
            "nfd": unicodedata.normalize("NFD", target),
            "same": target,
        }[variant]
        assert [hit.path for hit in service.search("FOLD 1", query).hits] == ["2"], (target, query)
        assert [hit.path for norm in service.corpus(query).norms for hit in norm.hits] == ["2"]
    finally:
        service.close()
        shutil.rmtree(root)
