"""The Markdown block that goes with each tool result, for clients that show the model text only.

It carries what an agent needs to act (paths, pages, where to go next); the structured content
carries the full JSON. Nothing here imports the MCP SDK.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from normcli import results as r
from normcli.render import formulas_to_unicode, pages

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
        more = " — deeper levels left out (raise maxNodes or read a smaller subtree)" if node.truncated else ""
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
    if not result.norms:
        return "This workspace holds no norms yet."
    lines = ["| code | editions (newest first) | languages | title |", "|---|---|---|---|"]
    for norm in result.norms:
        editions = ", ".join(edition.edition + ("" if edition.published else " (draft)") for edition in norm.editions)
        languages = "/".join(norm.editions[0].languages) if norm.editions else norm.language
        demo = " — fictional sample, never to be applied" if norm.demo else ""
        lines.append(f"| {norm.code} | {editions} | {languages} | {norm.title}{demo} |")
    lines += ["", "Next: `get_toc` with a `code` to see a norm's chapters, or `search_corpus` to find a subject in all of them."]
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
    lines = [formulas_to_unicode(result.markdown).rstrip()]
    if result.requested_path is not None:
        lines += ["", f"({result.requested_path} is not a heading of its own; this is the clause that holds it.)"]
    if result.next_offset is not None:
        lines += ["", f"More text follows: call `get_section` again with offset={result.next_offset} to read on."]
    return "\n".join(lines)


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
    lines = [f"References made by {result.edition.code}:{result.edition.edition}, {result.path}", ""]
    for ref in result.cross_refs:
        target = " ".join(part for part in ((ref.target_code or "") if not ref.internal else "", ref.target_path or "") if part) or ref.text
        title = f" ({ref.target_title})" if ref.target_title else ""
        where = f"→ {target}{title}" if ref.resolvable else f"→ {target}: not in this workspace"
        lines.append(f"- “{ref.text}” [{ref.target_kind}, {ref.type}] {where}")
    if not result.cross_refs:
        lines.append("This clause makes no references.")
    else:
        lines += ["", "Follow the resolvable ones you rely on with `get_section` (figures with `get_figure`); name the others as missing."]
    return "\n".join(lines)


def _figure(result: r.FigureResult) -> str:
    number = f"Figure {result.figure_number}" if result.figure_number else result.figure_id
    text = (
        f"{number} of {result.edition.code}:{result.edition.edition} ({result.edition.language}), id `{result.figure_id}`: {result.caption}"
    )
    if result.mime_type not in IMAGE_BLOCK_TYPES:
        text += (
            f"\n\nThe figure is a {result.mime_type} file, attached as an embedded file rather than an image; "
            "if you cannot see it, work from the caption and the clause text."
        )
    return text


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
}


def to_markdown(result: Any) -> str:
    """The Markdown text block for a result of the read operations."""
    renderer = _RENDERERS.get(type(result))
    if renderer is None:  # the spec discovery answers
        from normcli.mcp.spec_tools import MARKDOWN

        renderer = MARKDOWN[type(result)]
    return renderer(result)
