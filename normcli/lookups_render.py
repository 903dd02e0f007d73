"""The answers of `diff`, `xrefs --incoming`, `define` and `cite` as Markdown, for agents (MCP) and the TUI.

Plain strings, no frontend library: the CLI colours the same records its own way (`cli/lookups_output.py`).
"""

from __future__ import annotations

from collections.abc import Sequence

from normcli.results import Change, CiteResult, DefineResult, DiffResult, Segment, XrefsResult

KIND_WORDS = {"added": "added", "removed": "removed", "renumbered": "renumbered", "changed": "changed"}


SHOWN_WORDS = 40  # a longer added or removed run is shown cut, with the count of the rest


def shortened(text: str, words: int = SHOWN_WORDS) -> str:
    """A long run of a word diff cut for a person: its first words and how many more there are."""
    parts = text.split(" ")
    if len(parts) <= words + 10:
        return text
    return " ".join(parts[:words]) + f" … (+{len(parts) - words} words)"


def joined(parts: Sequence[str]) -> str:
    """Runs of a diff side by side: a space between them, none before closing punctuation."""
    out = ""
    for part in parts:
        if not part:
            continue
        if out and not part.startswith((",", ".", ";", ":", ")", "]", "%")):
            out += " "
        out += part
    return out


def inline_diff(segments: Sequence[Segment]) -> str:
    """A word diff on one line: `s_k = ~~0,4~~ → **0,5** kN/m²` (a replaced value reads old → new)."""
    parts: list[str] = []
    index = 0
    while index < len(segments):
        segment = segments[index]
        following = segments[index + 1] if index + 1 < len(segments) else None
        if segment.op == "delete" and following is not None and following.op == "insert":
            parts.append(f"~~{shortened(segment.text)}~~ → **{shortened(following.text)}**")
            index += 2
            continue
        if segment.op == "delete":
            parts.append(f"~~{shortened(segment.text)}~~")
        elif segment.op == "insert":
            parts.append(f"**{shortened(segment.text)}**")
        else:
            parts.append(segment.text)
        index += 1
    return joined(parts)


def change_heading(change: Change) -> str:
    """`renumbered 4.2.5 → 4.2.6 Coefficient thermique (similarity 0.93)`."""
    if change.kind == "added":
        where = f"{change.to_path}"
    elif change.kind == "removed":
        where = f"{change.from_path}"
    elif change.from_path != change.to_path:
        where = f"{change.from_path} → {change.to_path}"
    else:
        where = f"{change.to_path}"
    title = f" {change.title}" if change.title and change.title != where else ""
    renamed = f" (was “{change.from_title}”)" if change.from_title and change.from_title != change.title else ""
    return f"{KIND_WORDS[change.kind]} {where}{title}{renamed}"


def diff_markdown(result: DiffResult) -> str:
    """The comparison: a count per kind, then one line per change with its word diff."""
    counts = result.counts
    scope = f", {result.path}" if result.path else ""
    lines = [
        f"# {result.from_.code}:{result.from_.edition} ({result.from_.language}) → {result.to.code}:{result.to.edition} "
        f"({result.to.language}){scope}",
        "",
        ", ".join(f"{counts[kind]} {kind}" for kind in KIND_WORDS),
        "",
    ]
    lines += [f"*{note}*" for note in result.notes or ()]
    if result.notes:
        lines.append("")
    for change in result.changes:
        lines.append(f"- **{change_heading(change)}**" + (f": {inline_diff(change.diff)}" if change.diff else ""))
    if not result.changes:
        lines.append("No clause differs.")
    return "\n".join(lines)


def incoming_markdown(result: XrefsResult) -> str:
    """Who cites the clause, one line each with the citation to read it."""
    lines = [f"Clauses that refer to {result.edition.code}:{result.edition.edition}, {result.path}", ""]
    for ref in result.incoming:
        lines.append(f"- {ref.citation} {ref.source_title} — “{ref.text}”")
    if not result.incoming:
        lines.append("No clause in this workspace refers to it.")
    return "\n".join(lines)


def define_markdown(result: DefineResult) -> str:
    """Each definition with its term, how it matched and its citation."""
    lines = [f"Definitions of “{result.term}”", ""]
    for found in result.definitions:
        lines.append(f"- **{found.term}** ({found.match}, {found.language}) {found.citation}: {found.definition}")
    lines += [f"*{note}*" for note in result.notes or ()]
    return "\n".join(lines)


def cite_markdown(result: CiteResult) -> str:
    """The reference as printed, in a code block when it is a machine format."""
    if result.format == "text":
        return result.reference.rstrip("\n")
    fence = {"bibtex": "bibtex", "csl-json": "json", "ris": "text"}[result.format]
    return f"```{fence}\n{result.reference.rstrip()}\n```"


RENDERERS = {DiffResult: diff_markdown, DefineResult: define_markdown, CiteResult: cite_markdown}
