"""Plain text into a draft: RFC style (form feeds, `[Page N]` footers, numbered headings) and underlined headings (Sphinx, reST).

Headings are numbered lines in reading order (a `Sequencer` drops lists and tables of contents),
or, when the text marks its headings with underlines, the underlined lines. Page headers and
footers are removed and every page gets its `<!-- page N -->` marker.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from normcli.importers.common import (
    LINE_END_HYPHEN,
    TABLE_CAPTION,
    Draft,
    Number,
    Sequencer,
    UniqueTitles,
    ascii_figure_svg,
    clean_inline,
    figure_name,
    heading_line,
    is_toc_line,
    parse_number,
    safe_text_line,
    title_key,
)

_FOOTER = re.compile(r"\[Page (?P<page>\d+)\]\s*$")
_UNDERLINE = re.compile(r"^([=\-~*^\"#+`'_.:])\1{2,}\s*$")
_TOC_TITLE = re.compile(r"^\s*(?:table of contents|contents|inhaltsverzeichnis|table des matières|sommaire|indice)\s*$", re.I)
_FIELD = re.compile(r"^Title:\s*(?P<title>.+)$")
FRONT_MATTER = "Front matter"
_BACK_MATTER = re.compile(
    r"^(?:acknowledge?ments?|contributors|authors?'? addresse?s?|author's address|index|(?:normative |informative )?references|"
    r"bibliography|full copyright statement|intellectual property(?: statement)?|copyright notice|change ?log|glossary)$",
    re.I,
)


@dataclass
class _Line:
    """A line of the text, with the page it is printed on (None in a text without pages)."""

    text: str
    page: int | None


@dataclass
class _Heading:
    """A heading found in the text: its number (None when unnumbered), title, depth, and text after it on its line."""

    number: Number | None
    title: str
    depth: int
    body: str = ""  # text that shared the heading's line


def read_pages(raw: str) -> tuple[list[_Line], int]:
    """The lines of a text with page furniture removed, each with its page; and the number of pages (0 if unpaginated)."""
    raw = raw.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    chunks = raw.split("\f")
    if len(chunks) < 2 and not _FOOTER.search(raw):
        return [_Line(line.rstrip(), None) for line in raw.split("\n")], 0
    lines: list[_Line] = []
    for index, chunk in enumerate(chunks):
        page_lines = chunk.split("\n")
        page = index + 1
        for position in range(len(page_lines) - 1, max(-1, len(page_lines) - 6), -1):
            match = _FOOTER.search(page_lines[position])
            if match:
                page = int(match.group("page"))
                del page_lines[position]
                break
        if index > 0:
            for position, line in enumerate(page_lines[:4]):
                if line.strip():
                    if re.search(r"\S\s{3,}\S", line) and not line.startswith(" "):
                        del page_lines[position]
                    break
        if not "".join(page_lines).strip():
            continue
        lines.extend(_Line(line.rstrip(), page) for line in page_lines)
    pages = sum(1 for chunk in chunks if chunk.strip())
    return _collapse_blank_runs(lines), pages


def _collapse_blank_runs(lines: list[_Line]) -> list[_Line]:
    """The lines with each run of blank lines cut to one (a page's removed furniture leaves several)."""
    kept: list[_Line] = []
    for line in lines:
        if not line.text.strip() and kept and not kept[-1].text.strip():
            continue
        kept.append(line)
    return kept


def import_text(source: Path) -> Draft:
    """Read a text file into a draft; never raises on odd content."""
    raw = source.read_text(encoding="utf-8", errors="replace")
    lines, pages = read_pages(raw)
    draft = Draft(pages=pages)
    draft.title = _title(lines)
    underlined = _underlined(lines)
    headings = _underline_headings(lines, underlined, draft) if len(underlined) >= 3 else _numbered_headings(lines, draft)
    _write_markdown(lines, headings, draft, paginated=pages > 0)
    draft.body = reflow(draft.body)
    if not any(heading.number for heading in headings.values()):
        draft.warnings.append("no numbered clause headings were found; clauses are named by their titles")
    return draft


def _title(lines: list[_Line]) -> str:
    """The document's title: a `Title:` field near the top, else a first line flush left, else a centred line (an RFC's
    title, with its second line), else the first line of text."""
    for line in lines[:60]:
        match = _FIELD.match(line.text)
        if match:
            return clean_inline(match.group("title"))
    content = [line for line in lines[:80] if line.text.strip()]
    if content and not content[0].text.startswith(" ") and not re.search(r"\S\s{3,}\S", content[0].text):
        return clean_inline(content[0].text)
    for index, line in enumerate(lines[:80]):
        text = line.text
        indent = len(text) - len(text.lstrip())
        centered = abs(indent - (72 - len(text.rstrip()))) <= 12
        if indent >= 5 and centered and not re.search(r"\S\s{3,}\S", text.strip()) and len(text.strip()) > 8:
            following = lines[index + 1].text if index + 1 < len(lines) else ""
            title = text.strip()
            if following.startswith(" " * 8) and following.strip() and not re.search(r"\S\s{3,}\S", following.strip()):
                title += " " + following.strip()
            return clean_inline(title)
    for line in lines:
        if line.text.strip():
            return clean_inline(line.text)[:120]
    return ""


def _underlined(lines: list[_Line]) -> dict[int, tuple[str, bool]]:
    """Line index → (underline character, overlined) for every heading marked by an underline."""
    found: dict[int, tuple[str, bool]] = {}
    for index in range(len(lines) - 1):
        text = lines[index].text
        under = lines[index + 1].text
        if not text.strip() or _UNDERLINE.match(text) or not _UNDERLINE.match(under):
            continue
        if len(under.strip()) < len(text.strip()) - 1 or len(text.strip()) > 400:
            continue
        overlined = index > 0 and _UNDERLINE.match(lines[index - 1].text) is not None
        found[index] = (under.strip()[0], overlined)
    return found


def _underline_headings(lines: list[_Line], underlined: dict[int, tuple[str, bool]], draft: Draft) -> dict[int, _Heading]:
    """Headings marked by underlines (reStructuredText): each underline style a depth in the order met; a number that
    fits the numbering order gives the path (a numbering that restarts at 1 is shifted on, with a warning). The underline
    and overline lines are blanked."""
    styles: list[tuple[str, bool]] = []
    headings: dict[int, _Heading] = {}
    sequencer = Sequencer()
    offset = 0  # added to a top-level numbering that restarts at 1 (appendices numbered anew)
    last_top = 0
    for index, style in underlined.items():
        if style not in styles:
            styles.append(style)
        level = styles.index(style) + 1
        text = clean_inline(lines[index].text)
        number = parse_number(text)
        if number and number.title and number.kind == "clause":
            shifted = _shift(number, offset)
            if not sequencer.fits(shifted, skip=3) and number.path == "1" and last_top > 1:
                offset = last_top
                shifted = _shift(number, offset)
                draft.warnings.append(
                    f"numbering restarts at 1 after chapter {last_top} (line {index + 1}): the second sequence is numbered "
                    f"{last_top + 1}, {last_top + 2}, … to keep clause paths unique"
                )
            if sequencer.fits(shifted, skip=3):
                sequencer.accept(shifted)
                if shifted.depth == 1:
                    last_top = int(shifted.path)
                headings[index] = _Heading(shifted, shifted.title, shifted.depth)
                continue
        elif number and number.title and sequencer.fits(number, skip=3):
            sequencer.accept(number)
            headings[index] = _Heading(number, number.title, number.depth)
            continue
        headings[index] = _Heading(None, text, level)
    for index in list(headings):
        lines[index + 1] = _Line("", lines[index + 1].page)
        if underlined[index][1]:
            lines[index - 1] = _Line("", lines[index - 1].page)
    return headings


def _shift(number: Number, offset: int) -> Number:
    """`number` with its top-level number moved on by `offset` (`1.2` by 5 is `6.2`)."""
    if not offset:
        return number
    first, _, rest = number.path.partition(".")
    path = str(int(first) + offset) + (f".{rest}" if rest else "")
    return Number(path, number.title, number.kind)


def _toc_titles(lines: list[_Line]) -> dict[str, str]:
    """Clause number → title as the table of contents prints it (to split a heading from body text on its line)."""
    titles: dict[str, str] = {}
    for line in lines:
        if not is_toc_line(line.text):
            continue
        text = re.sub(r"(?:\s?\.){2,}\s*\d+\s*$|\s{3,}\d+\s*$", "", line.text).strip()
        number = parse_number(text)
        if number and number.title:
            titles[number.path] = number.title
    return titles


def _numbered_headings(lines: list[_Line], draft: Draft) -> dict[int, _Heading]:
    """Numbered headings in numbering order, flush left (or indented by depth when too few deeper ones are flush left),
    outside the table of contents; a title wrapped onto a short second line joins it; in a text set mostly indented,
    the plain headings flush left before the first number, and the back matter's, are headings too."""
    toc_titles = _toc_titles(lines)
    skip = _toc_block(lines)
    candidates: list[tuple[int, int, Number]] = []
    for index, line in enumerate(lines):
        if index in skip or not line.text.strip() or is_toc_line(line.text):
            continue
        indent = len(line.text) - len(line.text.lstrip(" "))
        if indent > 16:
            continue
        number = parse_number(line.text.strip())
        if not number or not number.title or len(number.title) > 200:
            continue
        if not re.match(r"[A-Z0-9\"'/(\[.`_]", number.title) or number.title.endswith((",", ";")):
            continue
        candidates.append((index, indent, number))
    flush = _accepted(candidates, lambda indent, depth: indent == 0)
    deep_flush = sum(1 for _, number in flush if number.depth >= 2)
    if deep_flush >= 2:
        accepted = flush
    else:
        accepted = _accepted(candidates, lambda indent, depth: indent == 0 if depth == 1 else 1 <= indent <= 4 * (depth - 1))
    headings: dict[int, _Heading] = {}
    accepted_lines = {index for index, _ in accepted}
    for index, number in accepted:
        title, body = _split_title(number, toc_titles)
        following = lines[index + 1].text if index + 1 < len(lines) else ""
        after = lines[index + 2].text if index + 2 < len(lines) else ""
        if (
            following.strip()
            and not following.startswith((" ", "\t"))
            and len(following) < 60
            and not after.strip()
            and index + 1 not in accepted_lines
        ):
            title = f"{title} {clean_inline(following)}"  # a title wrapped onto a second line (FHS `(optional)`)
            lines[index + 1] = _Line("", lines[index + 1].page)
        headings[index] = _Heading(number, title, number.depth, body)
    if _mostly_indented(lines):
        first_numbered = min(headings, default=len(lines))
        for index, line in enumerate(lines):
            if index in headings or index in skip or not _is_plain_heading(lines, index):
                continue
            title = clean_inline(line.text)
            if index < first_numbered or _BACK_MATTER.match(title):
                headings[index] = _Heading(None, title, 1)
    return headings


def _accepted(candidates: list[tuple[int, int, Number]], indent_ok) -> list[tuple[int, Number]]:
    """The candidates (line, indent, number) whose indent `indent_ok` allows at their depth and that follow the
    numbering order, as (line, number)."""
    sequencer = Sequencer()
    accepted = []
    for index, indent, number in candidates:
        if not indent_ok(indent, number.depth):
            continue
        if sequencer.fits(number):
            sequencer.accept(number)
            accepted.append((index, number))
    return accepted


def _split_title(number: Number, toc_titles: dict[str, str]) -> tuple[str, str]:
    """A heading's title, and the body text that shares its line (RFC 1951 `3.1. Overall conventions In the …`)."""
    title = clean_inline(number.title)
    known = toc_titles.get(number.path)
    if known:
        known = clean_inline(known)
        if title_key(title).startswith(title_key(known)) and len(title) > len(known) + 1 and title[: len(known)].lower() == known.lower():
            return title[: len(known)].strip(), title[len(known) :].strip()
    return title, ""


def _toc_block(lines: list[_Line]) -> set[int]:
    """Indices of the lines of an unpaginated table of contents (from its title to the next line at column 0)."""
    skip: set[int] = set()
    index = 0
    while index < len(lines):
        if _TOC_TITLE.match(lines[index].text) and lines[index].text == lines[index].text.lstrip():
            index += 1
            while index < len(lines) and (not lines[index].text.strip() or lines[index].text.startswith(" ")):
                skip.add(index)
                index += 1
            continue
        index += 1
    return skip


def _mostly_indented(lines: list[_Line]) -> bool:
    """Whether at least 60 % of the lines of text are indented (a text whose headings are the lines flush left)."""
    content = [line.text for line in lines if line.text.strip()]
    return bool(content) and sum(1 for text in content if text.startswith(" ")) >= 0.6 * len(content)


def _is_plain_heading(lines: list[_Line], index: int) -> bool:
    """An unnumbered heading of an RFC-like text: a short line at column 0 between blank lines."""
    text = lines[index].text
    if not text.strip() or text.startswith((" ", "\t")) or len(text) > 60 or text.rstrip().endswith((".", ",", ";", ":")):
        return False
    if re.search(r"\S\s{3,}\S", text) or not re.match(r"[A-Z]", text):
        return False
    before = lines[index - 1].text if index > 0 else ""
    after = lines[index + 1].text if index + 1 < len(lines) else ""
    return not before.strip() and (not after.strip() or after.startswith(" "))


def _write_markdown(lines: list[_Line], headings: dict[int, _Heading], draft: Draft, paginated: bool) -> None:
    """The draft's body from the text's lines: headings, the lines (`reflow` joins them into paragraphs), ASCII figures
    and grid tables as blocks, and with `paginated` a page marker where each page starts."""
    body = draft.body
    page: int | None = None
    unique = UniqueTitles()
    started = False
    tables = grid_tables([line.text for line in lines], set(headings))
    figures = ascii_figures([line.text for line in lines], set(headings) | set(tables))
    skip_until = -1
    for index, line in enumerate(lines):
        if index <= skip_until:
            continue
        if index in figures and started:
            end, number, caption, art = figures[index]
            if body and body[-1].strip():
                body.append("")
            body.append("```")
            body.extend(art)
            body.append("```")
            relative = draft.add_file(f"{figure_name(number)}.svg", ascii_figure_svg(art))
            body.append(f"![Figure {number} – {caption.replace('[', '(').replace(']', ')')}]({relative})")
            body.append("")
            skip_until = end
            continue
        if index in tables and started:
            end, markdown = tables[index]
            if body and body[-1].strip():
                body.append("")
            body.extend(markdown)
            body.append("")
            skip_until = end
            continue
        if paginated and line.page is not None and line.page != page and (line.text.strip() or index in headings):
            page = line.page
            body.append(f"<!-- page {page} -->")
        heading = headings.get(index)
        if heading is not None:
            started = True
            title = heading.title
            path = heading.number.path if heading.number else None
            if path is None:
                title = unique(title)
            if body and body[-1].strip() and not body[-1].startswith("<!--"):
                body.append("")
            body.append(heading_line(path, title, heading.depth))
            body.append("")
            if heading.body:
                body.append(safe_text_line(heading.body))
            continue
        if not started:
            if not line.text.strip():
                continue
            started = True
            body.append(heading_line(None, FRONT_MATTER, 1))
            body.append("")
        body.append(safe_text_line(line.text.replace(LINE_END_HYPHEN, "")))
    while body and not body[-1].strip():
        body.pop()


_GRID_RULE = re.compile(r"^\s*\+[-=+]+\+\s*$")
_GRID_ROW = re.compile(r"^\s*\|.*\|\s*$")


def grid_tables(texts: list[str], headings: set[int]) -> dict[int, tuple[int, list[str]]]:
    """ASCII grid tables (`+----+----+` rules, `| a | b |` rows) → first line → (last line used, caption + pipe table)."""
    found: dict[int, tuple[int, list[str]]] = {}
    index = 0
    while index < len(texts):
        if not _GRID_RULE.match(texts[index]) or index in headings:
            index += 1
            continue
        start = index
        rows: list[list[str]] = []
        current: list[str] | None = None
        while index < len(texts) and (_GRID_RULE.match(texts[index]) or _GRID_ROW.match(texts[index])):
            text = texts[index].strip()
            if _GRID_RULE.match(text):
                if current is not None:
                    rows.append(current)
                current = None
            else:
                cells = [cell.strip() for cell in text.strip("|").split("|")]
                if current is None or len(cells) != len(current):
                    if current is not None:
                        rows.append(current)
                    current = cells
                else:
                    current = [f"{old} {new}".strip() for old, new in zip(current, cells, strict=True)]
            index += 1
        if current is not None:
            rows.append(current)
        end = index - 1
        if len(rows) < 2 or len({len(row) for row in rows}) != 1:
            continue
        caption = None
        for following in range(index, min(index + 4, len(texts))):
            match = TABLE_CAPTION.match(texts[following].strip())
            if match:
                caption, end = texts[following].strip(), following
                break
            if texts[following].strip():
                break
        width = len(rows[0])
        markdown = [caption] if caption else []
        for number, row in enumerate(rows):
            markdown.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
            if number == 0:
                markdown.append("|" + "---|" * width)
        found[start] = (end, markdown)
    return found


_ART_CAPTION = re.compile(r"^\s{2,}Figure (?P<num>\d+(?:\.\d+)*): (?P<caption>\S.*)$")


def ascii_figures(texts: list[str], taken: set[int]) -> dict[int, tuple[int, str, str, list[str]]]:
    """RFC figures: an indented block of ASCII art above a centred `Figure N: caption` line.

    First line of the art → (caption line, number, caption, art lines).
    """
    found: dict[int, tuple[int, str, str, list[str]]] = {}
    for index, text in enumerate(texts):
        match = _ART_CAPTION.match(text)
        if not match:
            continue
        caption = match.group("caption").strip()
        end = index
        while end + 1 < len(texts) and texts[end + 1].strip() and len(texts[end + 1]) - len(texts[end + 1].lstrip()) >= 8:
            caption += " " + texts[end + 1].strip()  # a caption wrapped onto a second centred line
            end += 1
        start = index - 1
        while start >= 0 and not texts[start].strip():
            start -= 1
        first = start
        while first - 1 >= 0 and texts[first - 1].strip() and first - 1 not in taken:  # the block just above, whatever its indent
            first -= 1
        while True:  # earlier blocks too while they look like art (deeper indent), across blank lines
            above = first - 1
            while above >= 0 and not texts[above].strip():
                above -= 1
            if above < 0 or above in taken or len(texts[above]) - len(texts[above].lstrip()) < 5 or _ART_CAPTION.match(texts[above]):
                break
            first = above
            while first - 1 >= 0 and texts[first - 1].strip() and first - 1 not in taken:
                first -= 1
        if first > start or any(k in taken for k in range(first, end + 1)):
            continue
        found[first] = (end, match.group("num"), caption, texts[first : start + 1])
    return found


_STRUCTURE = re.compile(r"^(?:#{1,6} |<!--|!\[|\||```)")
_ART = re.compile(r"[+|]-|-[+|]|\|\s*$|^\s*[|+]|[{}]\s*$|\.{4,}")


def _joined(lines: list[str]) -> str:
    """The wrapped lines of one paragraph as one line. Plain-text documents wrap at spaces and at the
    hyphens of compound words (`dotted-` / `decimal`), which stay: after a word's hyphen, no space."""
    joined = ""
    for line in (line.strip() for line in lines):
        suspended = re.match(r"(?i)(?:and|or|nor|und|oder|bzw\.|sowie|et|ou|e|o)\b", line)  # `client- and server-side`
        if joined and (suspended or not (joined[-1] == "-" and joined[-2:-1].isalpha())):
            joined += " "
        joined += line
    return joined


def reflow(body: list[str]) -> list[str]:
    """Join the wrapped lines of prose paragraphs (same indent, full lines) into one line each; art, code and lists stay."""
    result: list[str] = []
    block: list[str] = []
    in_fence = False

    def flush() -> None:
        if _is_prose(block):
            indent = block[0][: len(block[0]) - len(block[0].lstrip())]
            result.append(indent + _joined(block))
        else:
            result.extend(block)
        block.clear()

    for line in body:
        if line.startswith("```"):
            flush()
            in_fence = not in_fence
            result.append(line)
            continue
        if in_fence or not line.strip() or _STRUCTURE.match(line):
            flush()
            result.append(line)
            continue
        block.append(line)
    flush()
    return result


def _is_prose(block: list[str]) -> bool:
    if len(block) < 2:
        return False
    indents = {len(line) - len(line.lstrip()) for line in block}
    if len(indents) != 1 or any(_ART.search(line) for line in block):
        return False
    return all(len(line.strip()) >= 45 for line in block[:-1]) and not re.match(r"^\s*(?:[-*o•]|\d+\.|\[\d+\])\s", block[1])
