"""The reader's text: a section window made ready for Textual's Markdown widget, and its header and status lines."""

from __future__ import annotations

import re

from normcli import results as r
from normcli.render import formulas_to_unicode, pages

_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)\s]*)[^)]*\)")
# Spans the linker must leave alone: links, inline code, formulas, HTML comments.
_PROTECTED = re.compile(r"\[[^\]]*\]\([^)]*\)|`[^`]*`|\$\$.+?\$\$|\$[^$\n]+\$|<!--.*?-->", re.S)


def figure_href(figure: r.FigureRef) -> str:
    """The link target of a figure in the text."""
    return f"fig:{figure.id}"


def reader_markdown(section: r.SectionResult) -> str:
    """The window's Markdown with figures as links, references as links, and formulas as Unicode."""
    text = section.content
    text = _IMAGE.sub(lambda match: _figure_link(match.group(1), section.figures), text)
    text = _link_refs(text, section.cross_refs)
    text = formulas_to_unicode(text).strip()
    if not text and section.offset == 0:
        if not section.children:
            return "*(no text)*"
        lines = ["*No text of its own. Its clauses:*", ""]
        lines += [
            f"- [{child.path}](#{child.path})" + (f" {child.title}" if child.title != child.path else "") for child in section.children
        ]
        return "\n".join(lines)
    return text


def _figure_link(alt: str, figures: tuple[r.FigureRef, ...]) -> str:
    caption = alt.strip() or "Figure"
    figure = next((item for item in figures if item.caption.strip() == caption), None)
    if figure is None:
        number = re.search(r"\d+(?:[.-]\d+)*", caption)
        figure = next((item for item in figures if number and item.figure_number == number.group(0)), None)
    label = caption.replace("[", "(").replace("]", ")")
    return f"\n\n> 🖼 [{label}]({figure_href(figure)})\n\n" if figure else f"\n\n> 🖼 {label}\n\n"


def _link_refs(text: str, refs: tuple[r.ResolvedRef, ...]) -> str:
    """Turn every implicit reference's text into a `ref:N` link (N: its place in `refs`)."""
    first: dict[str, int] = {}
    for number, ref in enumerate(refs):
        if ref.type != "explicit" and ref.text.strip():
            first.setdefault(ref.text, number)
    if not first:
        return text
    alternatives = "|".join(re.escape(words) for words in sorted(first, key=len, reverse=True))
    pattern = re.compile(rf"(?<![\w.])(?:{alternatives})(?![\w]|\.\d)")

    def link(piece: str) -> str:
        return pattern.sub(lambda match: f"[{match.group(0)}](ref:{first[match.group(0)]})", piece)

    out: list[str] = []
    position = 0
    for match in _PROTECTED.finditer(text):
        out.append(_link_lines(text[position : match.start()], link))
        out.append(match.group(0))
        position = match.end()
    out.append(_link_lines(text[position:], link))
    return "".join(out)


def _link_lines(piece: str, link) -> str:  # type: ignore[no-untyped-def]
    # Headings stay as they are: a link in a heading reads badly.
    return "".join(line if line.lstrip().startswith("#") else link(line) for line in piece.splitlines(keepends=True))


def header_line(section: r.SectionResult, published: bool = True) -> str:
    """`SIA 261:2020 (fr) · 4.2.1 Charge de neige sur le sol · pp. 17–21`."""
    edition = section.edition
    language = f" ({edition.language})" if edition.language else ""
    draft = " draft" if not published else ""
    title = f" {formulas_to_unicode(section.title)}" if section.title and section.title != section.path else ""
    return f"{edition.code}:{edition.edition}{draft}{language} · {section.path}{title} · {pages(section.page_start, section.page_end)}"


def window_status(section: r.SectionResult) -> str:
    """`chars 12,000–24,000 of 61,532` for a section read in windows, else its length."""
    end = section.offset + len(section.content)
    if section.offset == 0 and section.next_offset is None:
        return f"{section.total_chars:,} chars"
    more = " · PgDn at the end: next window" if section.next_offset is not None else " · end"
    return f"chars {section.offset:,}–{end:,} of {section.total_chars:,}{more}"


def ref_label(ref: r.ResolvedRef) -> str:
    """How a reference reads in the side list: its text, where it leads, or that it leads nowhere."""
    where = " ".join(part for part in ((ref.target_code if not ref.internal else ""), ref.target_path or "") if part) or (
        ref.target_code or ""
    )
    if ref.target_kind in ("figure", "table") and ref.target_title:
        where = ref.target_title
    elif ref.target_title:
        where = f"{where} {ref.target_title}"
    if ref.resolvable:
        return f"{ref.text} → {where}"
    return f"{ref.text} ✗ not found in this norm" if ref.internal else f"{ref.text} ✗ not in this workspace"
