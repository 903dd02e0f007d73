"""The README and docs are executable truth: every `$ normcli …` example prints what they show."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.doc_examples import DOCUMENTS, PROJECT, Example, all_examples, prepare, run, words

EXAMPLES = all_examples()


@pytest.fixture(scope="module")
def places(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One copy of the sample workspace and the commands the examples call."""
    return prepare(tmp_path_factory.mktemp("docs"))


def test_the_docs_have_examples() -> None:
    assert len(EXAMPLES) >= 10
    assert {example.file.name for example in EXAMPLES} >= {"README.md"}


@pytest.mark.parametrize("example", EXAMPLES, ids=[f"{e.file.name}:{e.line}" for e in EXAMPLES])
def test_an_example_prints_what_the_docs_show(example: Example, places: tuple[Path, Path]) -> None:
    workspace, bin_dir = places
    actual = run(example, workspace, bin_dir)
    shown = words(example.expected)
    assert words(actual)[: len(shown)] == shown, (
        f"{example.file.relative_to(PROJECT)}:{example.line} `{example.command}` prints otherwise; "
        "if the change is meant, run `python -m tests.doc_examples --write`"
    )


@pytest.mark.parametrize("document", DOCUMENTS, ids=[d.name for d in DOCUMENTS])
def test_the_docs_link_nothing_outside_the_repository(document: Path) -> None:
    import re

    prose = re.sub(r"```.*?```|`[^`\n]*`", "", document.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", prose):
        if target.startswith(("#", "mailto:")):
            continue
        assert "://" not in target, f"{document.name} links outside the repository: {target}"
        resolved = (document.parent / target.split("#")[0]).resolve()
        assert resolved.is_relative_to(PROJECT), f"{document.name} links outside the repository: {target}"
        assert resolved.exists(), f"{document.name} links to a missing file: {target}"
