"""Text for people, shared by every frontend: the printable section document and LaTeX as Unicode."""

from __future__ import annotations

from normcli.labels import FIGURE_LABEL, TABLE_LABEL

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (3 ms) on every `section --json`
if TYPE_CHECKING:
    import re
    import sqlite3
    from collections.abc import Sequence

    from normcli.catalogue import Version
    from normcli.results import ChildRef, FigureRef, ResolvedRef, SectionResult

# The patterns are compiled by `re`'s cache where text is made for people: a `section --json` (which needs
# only `section_markdown` and `citation`) then loads no `re`, a tenth of its start-up with `enum`.
_DISPLAY = r"(?s)\$\$(.+?)\$\$"
_INLINE = r"(?<![\\$])\$([^$\n]+?)\$"
# What is left of a formula that a snippet or window cut in two: `$` with no partner, then commands.
_OPEN_END = r"(?<![\\$])\$(?!\$)([^$\n]*\\[A-Za-z][^$\n]*)$"
_OPEN_START = r"^([^$\n]*\\[A-Za-z][^$\n]*?)(?<!\\)\$(?!\$)"


def formulas_to_unicode(markdown: str) -> str:
    """Markdown with every `$$…$$` and `$…$` formula turned into readable Unicode, blocks kept apart.

    A formula cut by the edge of a snippet keeps its readable part: the command words of the piece
    are shown as their symbols, its braces dropped.
    """
    import re

    from normcli.latex import fragment_to_unicode, to_unicode

    markdown = re.sub(_DISPLAY, lambda m: f"`{to_unicode(m.group(1))}`", separate_blocks(markdown))
    markdown = re.sub(_INLINE, lambda m: to_unicode(m.group(1)), markdown)
    markdown = re.sub(_OPEN_END, lambda m: fragment_to_unicode(m.group(1)), markdown)
    return re.sub(_OPEN_START, lambda m: fragment_to_unicode(m.group(1)), markdown)


def _block_kind(line: str) -> str:
    stripped = line.strip()
    if stripped.startswith("|"):
        return "table"
    if stripped.startswith(("![", "$$", "#")) or _caption().match(stripped):
        return f"block{id(line)}"
    return "text"


def _caption() -> re.Pattern[str]:
    """A table's or a figure's caption line (compiled once, by `re`'s cache)."""
    import re

    return re.compile(rf"^\**(?:{TABLE_LABEL}|{FIGURE_LABEL})\s*[A-Z]?\d")


def separate_blocks(markdown: str) -> str:
    """Put a blank line between a table, an image, a caption or a formula and the text around it.

    Bundles often write them on consecutive lines, which Markdown would fold into one paragraph.
    """
    out: list[str] = []
    previous = None
    for line in markdown.split("\n"):
        if not line.strip():
            previous = None
            out.append(line)
            continue
        kind = _block_kind(line)
        if previous is not None and (kind != previous or kind.startswith("block")):
            out.append("")
        out.append(line)
        previous = kind
    return "\n".join(out)


def pages(start: int | None, end: int | None) -> str:
    """`p. 22` or `pp. 22–24`; nothing for a document without printed pages."""
    if start is None:
        return ""
    return f"p. {start}" if start == end or end is None else f"pp. {start}–{end}"


def citation(code: str, edition: str, path: str, page: int | None, published: bool = True) -> str:
    """The citation engineers put in a report, with the edition read: `[SIA 261:2020, 4.2.1, p. 22]`.

    A draft says so (`[SIA 261:2026 (draft), 4.2.1, p. 7]`); a document without printed pages cites
    none rather than a made-up page.
    """
    parts = [f"{code}:{edition}" + ("" if published else " (draft)"), path]
    if page is not None:
        parts.append(f"p. {page}")
    return f"[{', '.join(parts)}]"


def section_citation(section: SectionResult) -> str:
    """The citation of a `section` answer."""
    edition = section.edition
    return citation(edition.code, edition.edition, section.path, section.page_start, edition.published)


def section_markdown(
    version: Version,
    node: sqlite3.Row,
    content: str,
    offset: int,
    next_offset: int | None,
    total: int,
    figures: Sequence[FigureRef],
    refs: Sequence[ResolvedRef],
    children: Sequence[ChildRef],
    cite: str,
) -> str:
    """The printable document of one section window: header, text, then figures, references,
    subclauses, and last the citation."""
    draft = "" if version.published else " (draft)"
    header = [f"{version.code}:{version.edition}{draft} ({version.language})", node["path"], pages(node["page_start"], node["page_end"])]
    if offset or next_offset is not None:
        header.append(f"characters {offset:,}–{total if next_offset is None else next_offset:,} of {total:,}")
    lines = [
        f"# {node['path']} {node['title']}" if node["title"] != node["path"] else f"# {node['path']}",
        "",
        "*" + " · ".join(part for part in header if part) + "*",
        "",
        content.strip() or "*(no text of its own; see the subclauses)*",
    ]
    if next_offset is not None:
        lines += ["", f"*… continued: next window at offset {next_offset:,} of {total:,} characters.*"]
    if figures:
        lines += ["", "**Figures**", ""] + [f"- `{figure.id}` {figure.caption}" for figure in figures]
    if refs:
        lines += ["", "**Cross-references**", ""]
        for ref in refs:
            where = ref.target_path or ""
            target = " ".join(part for part in (ref.target_code if not ref.internal else "", where) if part)
            status = (
                f"→ {target}" + (f" ({ref.target_title})" if ref.target_title else "")
                if ref.resolvable
                else f"→ {target} (not in this workspace)"
            )
            lines.append(f"- {ref.text} {status}")
    if children:
        lines += ["", "**Subclauses**", ""] + [
            f"- {child.path} {child.title}" if child.title != child.path else f"- {child.path}" for child in children
        ]
    lines += ["", f"Cite as {cite}"]
    return "\n".join(lines) + "\n"
