"""PDF into a draft with pypdfium2 (Apache-2.0/BSD; PDFium's text keeps inter-word spaces where pypdf drops them).

`pdf_pages` reads the pages into lines (running headers, footers and page numbers dropped, two
columns in reading order), `pdf_tree` finds the clause tree (the bookmark outline when there is
one, else numbered headings in numbering order); this module writes the Markdown: paragraphs with
hyphenation undone, page markers with printed and PDF page numbers, figures and tables.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from normcli.errors import InvalidArgument
from normcli.importers.common import (
    FIGURE_CAPTION,
    TABLE_CAPTION,
    Draft,
    clean_inline,
    figure_name,
    heading_line,
    safe_text_line,
    title_key,
)
from normcli.importers.pdf_pages import Line, Page, body_size_of, is_toc_page, metadata_title, read_pages, reading_order, remove_furniture
from normcli.importers.pdf_tree import Heading, first_title, outline_headings, read_outline, text_headings
from normcli.importers.png import encode_png
from normcli.latex import escape_text

_BULLET = re.compile(r"^(?:[•\u2022\u25cf\u25aa\u2013\-*·\x88]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s")


def import_pdf(source: Path, *, use_outline: bool = True, ocr: bool = False, language: str = "en", progress=None) -> Draft:
    """Read a PDF into a draft: outline or numbered headings, pages, figures, tables."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(str(source))
    except pdfium.PdfiumError as exc:
        raise InvalidArgument(f"'{source.name}' is not a readable PDF ({exc})", "check the file, or export it again as PDF") from exc
    draft = Draft()
    try:
        draft.pages = len(document)
        pages = read_pages(document, draft, ocr, language, progress)
        draft.title = metadata_title(document)
        outline = read_outline(document) if use_outline else []
        body_size = body_size_of(pages)
        furniture = remove_furniture(pages, body_size)
        for page in pages:
            page.lines = reading_order(page)
            page.toc = is_toc_page(page)
        stream = [line for page in pages for line in page.lines]
        if outline:
            headings = outline_headings(outline, pages, stream, draft)
            draft.outline_used = True
        else:
            headings = text_headings(stream, body_size, furniture, pages)
            if not any(h.number for h in headings.values()):
                draft.warnings.append("no numbered headings were found in the text; check the tree with `normcli toc`")
        if not draft.title:
            draft.title = first_title(stream, body_size, set(headings))
        _emit(document, pages, stream, headings, body_size, draft)
    finally:
        document.close()
    return draft


# -- writing the Markdown ---------------------------------------------------------------------


def _emit(document, pages: list[Page], stream: list[Line], headings: dict[int, Heading], body_size: float, draft: Draft) -> None:
    body = draft.body
    vocabulary = _vocabulary(stream)
    current_page = None
    paragraph: list[Line] = []
    started = False
    seen_titles: Counter = Counter()
    figure_numbers: Counter = Counter()
    page_by_index = {page.index: page for page in pages}
    equations: list[str] = []  # the equation numbers met so far, to accept only the next one
    tables = _find_tables(stream, headings, {page.index for page in pages if page.toc})

    def flush() -> None:
        """Write the paragraph gathered so far."""
        if paragraph:
            if len(paragraph) > 1 and paragraph[0].text.strip().isdigit() and paragraph[0].size < body_size - 0.5:
                paragraph[0] = Line(paragraph[0].page, f"[{paragraph[0].text.strip()}]", 0, 0, 0, 0, paragraph[0].size)
            text = _join(paragraph, vocabulary)
            if text:
                body.append(safe_text_line(text))
                body.append("")
            paragraph.clear()

    def open_page(index: int) -> None:
        """Start a page: end the paragraph and write its page marker."""
        nonlocal current_page
        if index == current_page:
            return
        flush()
        current_page = index
        page = page_by_index[index]
        label = f" label={page.label}" if page.label and not page.label.isdigit() else ""
        body.append(f"<!-- page {page.printed} pdf={index + 1}{label} -->")

    def write_heading(heading: Heading) -> None:
        """Write a heading; repeated unnumbered titles get ` (2)`."""
        nonlocal started
        started = True
        flush()
        path = heading.number.path if heading.number else None
        title = heading.title
        if path is None:
            seen_titles[title_key(title)] += 1
            if seen_titles[title_key(title)] > 1:
                title = f"{title} ({seen_titles[title_key(title)]})"
        body.append(heading_line(path, title, heading.depth))
        body.append("")
        if heading.body:
            paragraph.append(Line(-1, heading.body, 0, 0, 0, 0, 0))

    skip_until = -1
    for position, line in enumerate(stream):
        if position <= skip_until:
            continue
        open_page(line.page)
        heading = headings.get(position)
        if heading is not None:
            if heading.depth == 0:
                continue
            write_heading(heading)
            for extra in heading.then:
                write_heading(extra)
            if not heading.keep_line:
                continue
        if not started:
            started = True
            body.append(heading_line(None, "Front matter", 1))
            body.append("")
        text = clean_inline(line.text)
        figure = FIGURE_CAPTION.match(text)
        if figure and not page_by_index[line.page].toc:
            flush()
            number = figure.group("num")
            figure_numbers[number] += 1
            stem = figure_name(number) + (f"-{figure_numbers[number]}" if figure_numbers[number] > 1 else "")
            image = _figure_image(document, page_by_index[line.page], line)
            label = figure.group("label")
            label = "Figure" if label.lower().startswith("fig") else label
            caption = figure.group("caption")
            following = position + 1
            while (
                following < len(stream)
                and stream[following].page == line.page
                and following not in headings
                and _continues_caption(stream[following], line)
            ):
                caption += " " + clean_inline(stream[following].text)
                following += 1
            skip_until = following - 1
            if image is not None:
                relative = draft.add_file(f"{stem}.png", image)
                body.append(f"![{label} {number} – {_alt(caption)}]({relative})")
            else:
                body.append(safe_text_line(text))
            body.append("")
            continue
        if position in tables:
            caption_position, rows = tables[position]
            flush()
            if caption_position is not None:
                body.append(safe_text_line(clean_inline(stream[caption_position].text)))
            body.extend(_pipe_table(_table_cells([stream[k] for k in rows])))
            body.append("")
            skip_until = max(rows[-1], caption_position if caption_position is not None else -1)
            continue
        alone = _EQUATION_ALONE.match(text)
        if (
            alone
            and paragraph
            and _MATH.search(" ".join(item.text for item in paragraph))
            and _next_equation(alone.group("num"), equations[-1] if equations else None)
        ):
            equations.append(alone.group("num"))
            latex = escape_text(_join(paragraph, vocabulary))
            paragraph.clear()
            body.append(f"$$ {latex} \\qquad ({alone.group('num')}) $$")
            body.append("")
            continue
        equation = _equation(text, equations)
        if equation is not None:
            flush()
            latex, number = equation
            body.append(f"$$ {latex} \\qquad ({number}) $$")
            body.append("")
            continue
        if paragraph and (_breaks(paragraph[-1], line, body_size) or page_by_index[line.page].toc):
            flush()
        paragraph.append(line)
    flush()
    while body and not body[-1].strip():
        body.pop()


_EQUATION_FIRST = re.compile(r"^\((?P<num>\d{1,3}(?:\.\d{1,2})?)\)\s+(?P<formula>\S.*)$")
_EQUATION_LAST = re.compile(r"^(?P<formula>\S.*?)\s+\((?P<num>\d{1,3}(?:\.\d{1,2})?)\)$")
_EQUATION_ALONE = re.compile(r"^\((?P<num>\d{1,3}(?:\.\d{1,2})?)\)$")
_MATH = re.compile(r"[=≡∈∉∀∃≤≥×÷∑∏√→←↦⊕∧∨≠≈∞±·′−+<>]")


def _equation(text: str, seen: list[str]) -> tuple[str, str] | None:
    """A displayed formula with its number (`(199) RLP(i) ≡ …` or `… = … (4.1)`), when the number is the next one."""
    match = _EQUATION_FIRST.match(text) or _EQUATION_LAST.match(text)
    if not match or not _MATH.search(match.group("formula")):
        return None
    number = match.group("num")
    if not _next_equation(number, seen[-1] if seen else None):
        return None
    seen.append(number)
    return escape_text(match.group("formula")), number


def _next_equation(number: str, last: str | None) -> bool:
    """Equation numbers run 1, 2, 3 … or 4.1, 4.2 … 5.1 (per chapter)."""
    head, _, tail = number.partition(".")
    if last is None:
        return (not tail and head in ("1", "2")) or tail in ("1", "2")
    last_head, _, last_tail = last.partition(".")
    if not tail:  # a few missed equations (split over lines, inside tables) are tolerated
        return not last_tail and int(last_head) < int(head) <= int(last_head) + 5
    if not last_tail:
        return False
    return (head == last_head and int(last_tail) < int(tail) <= int(last_tail) + 3) or (int(head) > int(last_head) and tail in ("1", "2"))


def _alt(caption: str) -> str:
    return clean_inline(caption).replace("[", "(").replace("]", ")")


def _continues_caption(line: Line, caption: Line) -> bool:
    return (
        abs(line.top - caption.bottom) < caption.size * 1.6
        and abs(line.size - caption.size) < 0.5
        and not FIGURE_CAPTION.match(line.text.strip())
    )


def _find_tables(stream: list[Line], headings: dict[int, Heading], toc_pages: set[int]) -> dict[int, tuple[int | None, list[int]]]:
    """Captioned tables: first row position → (caption position, row positions); rows after the caption, else before it."""
    found: dict[int, tuple[int | None, list[int]]] = {}
    used: set[int] = set()
    for position, line in enumerate(stream):
        if line.page in toc_pages or not TABLE_CAPTION.match(clean_inline(line.text)):
            continue
        rows = _rows(stream, position, 1, headings, used)
        if len(rows) < 2:
            rows = sorted(_rows(stream, position, -1, headings, used))
        if len(rows) >= 2:
            used.update(rows)
            used.add(position)
            found[min(rows[0], position)] = (position, rows)
    position = 0
    while position < len(stream):
        rows = _aligned_rows(stream, position, headings, used, toc_pages)
        if len(rows) >= 3:
            used.update(rows)
            found[rows[0]] = (None, rows)
            position = rows[-1] + 1
        else:
            position += 1
    return found


def _aligned_rows(stream: list[Line], start: int, headings: dict[int, Heading], used: set[int], toc_pages: set[int]) -> list[int]:
    """An uncaptioned table: consecutive lines cut into the same columns, each column starting at the same x."""
    first = stream[start]
    if start in used or start in headings or first.page in toc_pages or len(first.spans) < 2:
        return []
    starts = [span[1] for span in first.spans]
    rows = [start]
    position = start + 1
    while position < len(stream) and position not in used and position not in headings:
        line = stream[position]
        if line.page != first.page or abs(stream[rows[-1]].top - line.top) > 3 * max(line.size, 6.0):
            break
        spans = line.spans
        if len(spans) < 2:
            if len(line.text.strip()) < 30 and abs(line.x0 - starts[0]) > 3:  # a wrapped cell of the last row
                rows.append(position)
                position += 1
                continue
            break
        if any(all(abs(span[1] - column) > 3 for column in starts) for span in spans):
            break
        rows.append(position)
        position += 1
    while rows and len(stream[rows[-1]].spans) < 2:
        rows.pop()
    return rows


def _rows(stream: list[Line], caption: int, step: int, headings: dict[int, Heading], used: set[int]) -> list[int]:
    """The lines of a table next to its caption, while they split into cells (short single cells may sit in between)."""
    rows: list[int] = []
    position = caption + step
    previous = stream[caption]
    while 0 <= position < len(stream) and len(rows) < 200:
        line = stream[position]
        if position in headings or position in used or line.page != stream[caption].page:
            break
        if FIGURE_CAPTION.match(line.text.strip()) or TABLE_CAPTION.match(line.text.strip()):
            break
        if abs(previous.top - line.top) > 4 * max(line.size, 6.0):
            break
        if len(line.cells) < 2 and len(line.text.strip()) > 24:
            break
        rows.append(position)
        previous = line
        position += step
    while rows and len(stream[rows[-1]].cells) < 2:
        rows.pop()
    return rows


def _table_cells(lines: list[Line]) -> list[list[str]]:
    """Rows of cells, each cell in the column whose start is nearest; a one-piece line continues the row above."""
    widest = max(lines, key=lambda line: len(line.spans))
    starts = [span[1] for span in widest.spans] or [widest.x0]
    rows: list[list[str]] = []
    for line in lines:
        spans = line.spans or [(clean_inline(line.text), line.x0, line.x1)]
        if len(spans) < 2 and rows:
            column = min(range(len(starts)), key=lambda k: abs(starts[k] - spans[0][1]))
            rows[-1][column] = f"{rows[-1][column]} {clean_inline(spans[0][0])}".strip()
            continue
        row = [""] * len(starts)
        for text, x0, _ in spans:
            column = min(range(len(starts)), key=lambda k: abs(starts[k] - x0))
            row[column] = f"{row[column]} {clean_inline(text)}".strip()
        rows.append(row)
    return rows


def _pipe_table(rows: list[list[str]]) -> list[str]:
    width = max(len(cells) for cells in rows)
    lines = []
    for number, cells in enumerate(rows):
        padded = [cell.replace("|", "\\|") for cell in cells] + [""] * (width - len(cells))
        lines.append("| " + " | ".join(padded) + " |")
        if number == 0:
            lines.append("|" + "---|" * width)
    return lines


def _figure_image(document, page: Page, caption: Line) -> bytes | None:
    """The figure above (or below) its caption, cropped to the image or drawing; the whole page when unsure."""
    pdf_page = document[page.index]
    try:
        box = None
        above = [img for img in page.images if img[1] >= caption.top - 4]
        below = [img for img in page.images if img[3] <= caption.bottom + 4]
        if above:
            box = min(above, key=lambda img: img[1] - caption.top)
        elif below:
            box = max(below, key=lambda img: img[3])
        margin = 4.0
        if box is None:
            box = _drawing_box(page, caption)
            margin = 0.0
        if box is None:
            bitmap = pdf_page.render(scale=1.5, rev_byteorder=True)
        else:
            left, bottom = max(0.0, box[0] - margin), max(0.0, box[1] - margin)
            right, top = min(page.width, box[2] + margin), min(page.height, box[3] + margin)
            bitmap = pdf_page.render(scale=2, crop=(left, bottom, page.width - right, page.height - top), rev_byteorder=True)
        return encode_png(bitmap)
    except Exception:  # a figure that cannot be rendered is reported as text, never fatal
        return None
    finally:
        pdf_page.close()


def _drawing_box(page: Page, caption: Line) -> tuple[float, float, float, float] | None:
    """The empty band above a caption where a vector drawing sits: up to the nearest text paragraph."""
    left, right = caption.column if caption.column != (0.0, 0.0) else (0.0, page.width)
    above = [line for line in page.lines if line.bottom > caption.top + 1 and line.x1 > left and line.x0 < right]
    prose = [line for line in above if len(line.text) > 60 or line.size > caption.size + 2]
    ceiling = min((line.bottom for line in prose), default=page.height - 0.06 * page.height)
    if ceiling - caption.top < 40:
        return None
    return (max(0.0, left - 6), caption.top + 2, min(page.width, right + 6), ceiling - 2)


def _breaks(previous: Line, line: Line, body_size: float) -> bool:
    """Whether `line` starts a new paragraph after `previous`."""
    if previous.page != line.page or previous.page < 0:
        return previous.page >= 0
    if previous.text.strip().isdigit() and previous.size < body_size - 0.5 and line.size < body_size:
        return False  # a footnote number on its own line, then the footnote
    gap = previous.bottom - line.top
    if gap > max(previous.size, line.size, body_size) * 0.9:
        return True
    if line.top > previous.top + 2:  # a jump back up: the other column (the paragraph may go on there) or a new block
        left, right = previous.column
        full = right > left and previous.x1 >= right - 0.08 * (right - left)
        return not (full and line.x0 > previous.x1 - 40 and not previous.text.rstrip().endswith((".", ":", "!", "?")))
    if _BULLET.match(line.text.strip()):
        return True
    if abs(line.size - previous.size) > 1.0:
        return True
    left, right = previous.column
    width = right - left
    return width > 0 and previous.x1 < right - 0.2 * width and previous.text.rstrip().endswith((".", ":", "!", "?"))


def _vocabulary(stream: list[Line]) -> set[str]:
    words: set[str] = set()
    for line in stream:
        text = line.text.replace("\ufffe", " ")
        words.update(word.lower() for word in re.findall(r"[^\W\d_]+(?:-[^\W\d_]+)*", text))
    return words


def _join(lines: list[Line], vocabulary: set[str]) -> str:
    """One paragraph from its lines, undoing end-of-line hyphenation."""
    text = ""
    for line in lines:
        part = line.text.strip()
        if not text:
            text = part
            continue
        if text.endswith(("\ufffe", "\u00ad")):  # PDFium's mark for a hyphen at a line end
            if not part[:1].islower():
                text = text[:-1] + part
                continue
            text = text[:-1] + "-"
        if text.endswith("-") and part[:1].islower() and re.search(r"[^\W\d_]-$", text):
            head = re.search(r"([^\W\d_]+)-$", text)
            tail = re.match(r"[^\W\d_]+", part)
            joined = (head.group(1) + tail.group(0)).lower() if head and tail else ""
            hyphenated = f"{head.group(1)}-{tail.group(0)}".lower() if head and tail else ""
            text = text + part if hyphenated in vocabulary and joined not in vocabulary else text[:-1] + part
        else:
            text = f"{text} {part}"
    if "\ufffe" in text:
        text = _SOFT_HYPHEN.sub(lambda match: _rejoin(match.group(1), match.group(2), vocabulary), text)
    return clean_inline(text)


_SOFT_HYPHEN = re.compile(r"([^\W\d_]+)\ufffe([^\W\d_]+)")


def _rejoin(head: str, tail: str, vocabulary: set[str]) -> str:
    """A word split by a line-end hyphen: joined, unless the text writes it with a hyphen elsewhere (`well-known`)."""
    hyphenated = f"{head}-{tail}"
    return hyphenated if hyphenated.lower() in vocabulary and (head + tail).lower() not in vocabulary else head + tail
