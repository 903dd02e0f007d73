"""The Markdown block that goes with each tool result, for clients that show the model text only.

It carries what an agent needs to act (paths, pages, where to go next); the structured content
carries the full JSON. Nothing here imports the MCP SDK.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from normcli import results as r
from normcli.render import pages

# Image types that model APIs take as images; any other figure (SVG, TIFF …) travels as an embedded file.
IMAGE_BLOCK_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})


def _edition_line(edition: r.Edition) -> str:
    languages = f" · languages: {', '.join(edition.languages)}" if len(edition.languages) > 1 else ""
    return f"*{edition.code}:{edition.edition} ({edition.language}){languages}*"


def _tree_lines(nodes: tuple[r.TreeNode, ...], indent: int = 0) -> list[str]:
    lines: list[str] = []
    stack = [(node, indent) for node in reversed(nodes)]
    while stack:
        node, level = stack.pop()
        title = f" {node.title}" if node.title != node.path else ""
        more = (
            f" — {node.child_count} subclauses, {len(node.children)} shown (raise maxNodes or read a smaller subtree)"
            if node.truncated and node.child_count is not None
            else ""
        )
        lines.append(f"{'  ' * level}- {node.path}{title} ({pages(node.page_start, node.page_end)}){more}")
        stack.extend((child, level + 1) for child in reversed(node.children))
    return lines


def _methodology(result: r.MethodologyResult) -> str:
    return result.text


def _info(result: r.InfoResult) -> str:
    sample = " (the sample workspace shipped with normcli)" if result.is_sample else ""
    return (
        f"Workspace **{result.name}** at `{result.workspace}`{sample}: {result.norms} norms, {result.editions} editions, "
        f"{result.sections} sections, {result.figures} figures. Index built {result.index.built_at}."
    )


def _norms(result: r.NormsResult) -> str:
    unreadable = [f"- `{problem['file']}` line {problem['line']}: {problem['reason']}" for problem in result.unreadable]
    if unreadable:
        unreadable = ["", f"{len(unreadable)} bundle file(s) cannot be read, so their norms are missing above:", *unreadable]
        unreadable.append("Tell the user to run `normcli check` in a terminal for every reason.")
    if not result.norms:
        return "\n".join(["This workspace holds no norms yet.", *unreadable])
    lines = ["| code | editions (newest first) | languages | title |", "|---|---|---|---|"]
    for norm in result.norms:
        editions = ", ".join(edition.edition + ("" if edition.published else " (draft)") for edition in norm.editions)
        languages = "/".join(norm.editions[0].languages) if norm.editions else norm.language
        demo = " — fictional sample, never to be applied" if norm.demo else ""
        lines.append(f"| {norm.code} | {editions} | {languages} | {norm.title}{demo} |")
    lines += [
        *unreadable,
        "",
        "Next: `get_toc` with a `code` to see a norm's chapters, or `search_corpus` to find a subject in all of them.",
    ]
    return "\n".join(lines)


def _toc(result: r.TocResult) -> str:
    lines = [f"# {result.edition.code}:{result.edition.edition} — {result.edition.title}", _edition_line(result.edition), ""]
    lines += _tree_lines(result.tree) or ["(no clauses)"]
    lines += ["", "Next: `get_subtree` for the clauses under a chapter, `get_section` to read one."]
    return "\n".join(lines)


def _subtree(result: r.SubtreeResult) -> str:
    lines = [f"# {result.edition.code}:{result.edition.edition}, {result.path}", _edition_line(result.edition)]
    if result.requested_path is not None:
        lines.append(f"({result.requested_path} is not a heading of its own; this is the clause that holds it.)")
    lines += ["", *_tree_lines(result.tree)]
    return "\n".join(lines)


def _section(result: r.SectionResult) -> str:
    # The document itself is the JSON's `markdown` (the first block): repeating it here would make an
    # agent pay for the clause three times. This block says what to do with it.
    lines = [f"{result.edition.code}:{result.edition.edition} ({result.edition.language}), {result.path} {result.title}".rstrip()]
    if result.requested_path is not None:
        lines += ["", f"({result.requested_path} is not a heading of its own; this is the clause that holds it.)"]
    if result.next_offset is not None:
        lines += ["", f"More text follows: call `get_section` again with offset={result.next_offset} to read on."]
    lines += ["", f"Cite as {result.citation}."]
    return "\n".join(lines)


def clause_document(result: r.SectionResult, text: str) -> str:
    """A whole clause as Markdown, for a section resource: header, all its text, then its figures,
    tables, references and subclauses, and how to cite it."""
    edition = result.edition
    lines = [
        f"# {result.path} {result.title}".rstrip() if result.title != result.path else f"# {result.path}",
        "",
        f"*{edition.code}:{edition.edition} ({edition.language}) · {result.path} · {pages(result.page_start, result.page_end)}*",
        "",
        text.strip() or "*(no text of its own; see the subclauses)*",
    ]
    if result.figures:
        lines += ["", "**Figures**", ""] + [f"- `{figure.id}` {figure.caption}" for figure in result.figures]
    if result.tables:
        lines += ["", "**Tables**", ""] + [f"- `{table.id}` {table.caption}" for table in result.tables]
    if result.cross_refs:
        lines += ["", "**Cross-references**", ""]
        for ref in result.cross_refs:
            target = " ".join(part for part in ((ref.target_code or "") if not ref.internal else "", ref.target_path or "") if part)
            lines.append(
                f"- {', '.join(ref.texts or (ref.text,))} → {target or ref.text}" + ("" if ref.resolvable else " (not in this workspace)")
            )
    if result.children:
        lines += ["", "**Subclauses**", ""] + [f"- {child.path} {child.title}".rstrip() for child in result.children]
    lines += ["", f"Cite as {result.citation}."]
    return "\n".join(lines) + "\n"


def _hit_line(hit: r.Hit) -> str:
    title = f" {hit.title}" if hit.title != hit.path else ""
    return f"- **{hit.path}**{title} (p. {hit.page_start}, {hit.kind}): {hit.snippet}"


def _search(result: r.SearchResult) -> str:
    lines = [f"Search for “{result.keyword}” in {result.edition.code}:{result.edition.edition} ({result.edition.language})", ""]
    lines += [_hit_line(hit) for hit in result.hits] or ["No hits. Try other words, another language version, or `search_corpus`."]
    if result.hits:
        lines += ["", "Snippets are not citable: read the clause with `get_section` before you rely on it."]
    return "\n".join(lines)


def _corpus(result: r.CorpusResult) -> str:
    lines = [f"Search for “{result.keyword}” in every norm", ""]
    for norm in result.norms:
        lines.append(f"## {norm.code}:{norm.edition} — {norm.title}")
        lines += [_hit_line(hit) for hit in norm.hits]
        lines.append("")
    if not result.norms:
        lines.append("No hits in any norm. Try other words or fewer of them.")
    else:
        lines.append("Snippets are not citable: read the clause with `get_section` (code and path above) before you rely on it.")
    return "\n".join(lines)


def _xrefs(result: r.XrefsResult) -> str:
    if result.direction == "incoming":
        from normcli.lookups_render import incoming_markdown

        return incoming_markdown(result)
    lines = [f"References made by {result.edition.code}:{result.edition.edition}, {result.path}", ""]
    for ref in result.outgoing:
        target = " ".join(part for part in ((ref.target_code or "") if not ref.internal else "", ref.target_path or "") if part) or ref.text
        title = f" ({ref.target_title})" if ref.target_title else ""
        where = f"→ {target}{title}" if ref.resolvable else f"→ {target}: not in this workspace"
        lines.append(f"- “{ref.text}” [{ref.target_kind}, {ref.type}] {where}")
    if not result.outgoing:
        lines.append("This clause makes no references.")
    else:
        lines += ["", "Follow the resolvable ones you rely on with `get_section` (figures with `get_figure`); name the others as missing."]
    return "\n".join(lines)


def _figure(result: r.FigureResult) -> str:
    number = f"Figure {result.figure_number}" if result.figure_number else result.figure_id
    text = (
        f"{number} of {result.edition.code}:{result.edition.edition} ({result.edition.language}), id `{result.figure_id}`: {result.caption}"
        f"\nFile: {result.url}"
    )
    if result.mime_type not in IMAGE_BLOCK_TYPES:
        text += (
            f"\n\nThe figure is a {result.mime_type} file, attached as an embedded file rather than an image; "
            "if you cannot see it, work from the caption and the clause text."
        )
    return text


def _table(result: r.TableResult) -> str:
    edition = result.edition
    number = f"Table {result.number}" if result.number else result.id
    page = f", p. {result.page_start}" if result.page_start is not None else ""
    lines = [
        f"{number} of {edition.code}:{edition.edition} ({edition.language}), id `{result.id}`, in clause {result.path}{page}: {result.caption}",
        "",
        result.markdown.strip(),
        "",
        f"To cite it, read its clause: `get_section` with path='{result.path}'.",
    ]
    return "\n".join(lines)


_RENDERERS: dict[type, Callable[[Any], str]] = {
    r.MethodologyResult: _methodology,
    r.InfoResult: _info,
    r.NormsResult: _norms,
    r.TocResult: _toc,
    r.SubtreeResult: _subtree,
    r.SectionResult: _section,
    r.SearchResult: _search,
    r.CorpusResult: _corpus,
    r.XrefsResult: _xrefs,
    r.FigureResult: _figure,
    r.TableResult: _table,
}


def to_markdown(result: Any) -> str:
    """The Markdown text block for a result of the read operations."""
    renderer = _RENDERERS.get(type(result))
    if renderer is None:
        from normcli.lookups_render import RENDERERS as LOOKUPS

        if type(result) in LOOKUPS:  # diff, define, cite (issue 17)
            return LOOKUPS[type(result)](result)  # type: ignore[operator]
        from normcli.mcp.spec_tools import MARKDOWN  # the spec discovery answers

        renderer = MARKDOWN[type(result)]
    return renderer(result)
