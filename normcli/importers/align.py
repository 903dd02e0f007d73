"""A new language version aligned to the clause tree of the languages an edition already has.

The same clause has the same path in every language, so that its `nodeId` is the same (SPEC §1).
Numbered headings align by number (an annex by its letter: `Annexe A` is `Appendix A`; a part by its
designator: `Partie II` is `Part II` and `Teil 2`; a clause numbered again inside a part by its qualified
path, `II.3.1`); unnumbered ones by their order between two numbered headings. A heading whose path differs from its
counterpart's is written with that path explicitly (`## Préface {#Preface}`); what finds no
counterpart is reported, never guessed.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from normcli.bundle import parse_bundle
from normcli.importers.common import Draft, roman_value
from normcli.importers.writer import front_matter
from normcli.labels import ANNEX_FOLDED, DIVISION_LABEL
from normcli.model import Node

_ANNEX_PATH = re.compile(r"^(?P<word>[^\W\d_]+) (?P<letter>[A-Z]|\d{1,2})$")
_DIVISION_PATH = re.compile(rf"^{DIVISION_LABEL} (?P<value>[IVXLC]+|\d{{1,3}})$")
# a clause of a part that numbers its clauses again, qualified by the part (`II.3.1`), or an annex clause (`A.1`)
_EXPLICIT = re.compile(r"\s*\{#[^{}]*\}\s*$")
_QUALIFIED = re.compile(r"^(?:[A-Z]|[IVXLC]+)(?:\.\d+)+$")


@dataclass
class Alignment:
    """How a language version lines up with the existing one: clauses aligned and those left over on each side."""

    against: str  # the language aligned to
    aligned: int = 0
    renamed: int = 0  # headings given their counterpart's path explicitly
    unmatched_new: list[str] = field(default_factory=list)
    unmatched_existing: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        """The alignment part of the ingest report."""
        return {
            "against": self.against,
            "aligned": self.aligned,
            "renamed": self.renamed,
            "unmatchedNew": self.unmatched_new,
            "unmatchedExisting": self.unmatched_existing,
        }

    def warning(self) -> str | None:
        """One line for the report when some clauses could not be aligned."""
        if not self.unmatched_new and not self.unmatched_existing:
            return None
        parts = []
        if self.unmatched_new:
            parts.append(f"{len(self.unmatched_new)} clause(s) of this version have no counterpart ({', '.join(self.unmatched_new[:5])})")
        if self.unmatched_existing:
            parts.append(
                f"{len(self.unmatched_existing)} clause(s) of the '{self.against}' version are missing here "
                f"({', '.join(self.unmatched_existing[:5])})"
            )
        return f"language version not fully aligned with '{self.against}': " + "; ".join(parts)


def _key(path: str) -> tuple[str, str] | None:
    """The alignment key of a numbered path (`4.2.1`, `A.1`, `II.3`, an annex by its letter, a part by its
    designator's value), None when unnumbered."""
    if path[:1].isdigit() or _QUALIFIED.match(path):
        return ("clause", path)
    division = _DIVISION_PATH.match(path)
    if division:
        value = division.group("value")
        return ("division", str(int(value) if value.isdecimal() else roman_value(value) or value))
    match = _ANNEX_PATH.match(path)
    if match and match.group("word").lower() in ANNEX_FOLDED:
        return ("annex", match.group("letter"))
    return None


def _slots(nodes: list[Node]) -> tuple[dict[tuple[str, str], Node], dict[tuple[str, str] | None, list[Node]]]:
    """Numbered nodes by key, and unnumbered ones grouped by the numbered node they follow."""
    numbered: dict[tuple[str, str], Node] = {}
    slots: dict[tuple[str, str] | None, list[Node]] = {}
    anchor: tuple[str, str] | None = None
    for node in nodes:
        key = _key(node.path)
        if key is not None:
            numbered.setdefault(key, node)
            anchor = key
        else:
            slots.setdefault(anchor, []).append(node)
    return numbered, slots


def align_language(draft: Draft, existing: Path, code: str, edition: str, language: str, against: str) -> Alignment:
    """Give the draft's headings the paths of their counterparts in `existing` (another language of the edition)."""
    old_nodes = parse_bundle(existing).nodes
    header = front_matter(code, edition, code, language)
    with tempfile.TemporaryDirectory(prefix="normcli-align-") as folder:
        scratch = Path(folder) / f"norm.{language}.md"
        scratch.write_text("\n".join([*header, *draft.body]) + "\n", encoding="utf-8")
        new_nodes = parse_bundle(scratch).nodes
    old_numbered, old_slots = _slots(old_nodes)
    new_numbered, new_slots = _slots(new_nodes)
    result = Alignment(against)
    pairs = []
    for key, node in new_numbered.items():
        if key in old_numbered:
            pairs.append((node, old_numbered[key]))
        else:
            result.unmatched_new.append(node.path)
    result.unmatched_existing.extend(node.path for key, node in old_numbered.items() if key not in new_numbered)
    for anchor, nodes in new_slots.items():
        counterparts = old_slots.get(anchor, [])
        pairs.extend(zip(nodes, counterparts, strict=False))
        result.unmatched_new.extend(node.path for node in nodes[len(counterparts) :])
    for anchor, nodes in old_slots.items():
        result.unmatched_existing.extend(node.path for node in nodes[len(new_slots.get(anchor, [])) :])
    for new, old in pairs:
        result.aligned += 1
        if new.path != old.path:
            index = new.line - len(header) - 1
            line = draft.body[index]
            if line.lstrip().startswith("#"):
                written = _EXPLICIT.search(line)  # a path the importer wrote already (`{#Teil II}`) gives way
                draft.body[index] = f"{line[: written.start()] if written else line.rstrip()} {{#{old.path}}}"
                result.renamed += 1
    return result
