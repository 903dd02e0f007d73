"""`check`: the problems found while reading each bundle and a quality score per bundle."""

from __future__ import annotations

import bisect
import json
import math
from typing import TYPE_CHECKING

from normcli.catalogue import version_of
from normcli.results import BundleCheck, CheckResult

if TYPE_CHECKING:
    from pathlib import Path

    from normcli.catalogue import Catalogue
    from normcli.store.queries import Index

SPARSE_CHARS = 40


def check_workspace(root: Path, index: Index, catalogue: Catalogue, settings_problems: tuple[str, ...] | list[str]) -> CheckResult:
    """Every bundle's parse problems plus what the index shows: empty and sparse leaves, unresolved internal references."""
    from normcli.resolve import References

    references = References(index, catalogue)
    hidden = catalogue.hidden
    checks = []
    for row in index.bundles():
        problems = json.loads(row["problems"] or "[]")
        if row["file"] in hidden:
            problems.append(
                _problem(
                    row["file"],
                    0,
                    "duplicate_bundle",
                    f"{row['code']}:{row['edition']} ({row['language']}) is also declared by {hidden[row['file']]}, which is read instead",
                )
            )
        sections = row["sections"] or 0
        heading_lines: list[int] = []
        if row["readable"]:
            version = version_of(row, [row])
            outline = index.outline(row["id"])
            heading_lines = sorted(node["line"] for node in outline)
            for node in outline:
                if node["child_count"]:
                    continue
                length = len(index.node_text(node["id"]).strip())
                if length == 0:
                    problems.append(
                        _problem(row["file"], node["line"], "empty_leaf", f"clause '{node['path']}' has no text and no subclauses")
                    )
                elif length < SPARSE_CHARS:
                    problems.append(
                        _problem(row["file"], node["line"], "sparse_text", f"clause '{node['path']}' has only {length} characters of text")
                    )
            xrefs = index.bundle_xrefs(row["id"])
            for xref, ref in zip(xrefs, references.resolve_each(version, xrefs), strict=True):
                if ref.internal and not ref.resolvable:
                    problems.append(
                        _problem(
                            row["file"],
                            xref["line"],
                            "unresolved_reference",
                            f"'{ref.text}' refers to {ref.target_kind} '{ref.target_path}', which this norm does not have",
                        )
                    )
        score = _score(problems, heading_lines, sections) if row["readable"] else 0
        checks.append(
            BundleCheck(row["file"], row["code"], row["edition"], row["language"], bool(row["readable"]), sections, score, tuple(problems))
        )
    return CheckResult(str(root), tuple(checks), tuple(settings_problems))


def check_folder(root: Path) -> CheckResult:
    """`check` of a workspace folder without a `Service` (an import checks the edition it just wrote this way)."""
    from normcli.catalogue import Catalogue
    from normcli.store.queries import Index
    from normcli.store.refresh import refresh
    from normcli.workspace import read_settings

    settings = read_settings(root)
    index = Index(refresh(root).path)
    try:
        return check_workspace(root, index, Catalogue(index.bundles(), settings.language), settings.problems)
    finally:
        index.close()


def _score(problems: list[dict], heading_lines: list[int], sections: int) -> int:
    """The share of clauses without a warning, in percent: a warning belongs to the clause whose
    lines hold it (several in one clause count once); one about the whole file counts as a clause."""
    marked = {bisect.bisect_right(heading_lines, problem["line"]) for problem in problems if problem["severity"] == "warning"}
    return math.floor(100 * (1 - min(1.0, len(marked) / max(sections, 1))))


def _problem(file: str, line: int, kind: str, reason: str) -> dict:
    return {"file": file, "line": line, "severity": "warning", "kind": kind, "reason": reason}
