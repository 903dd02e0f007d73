"""PDF into a draft with pypdfium2 (Apache-2.0/BSD; PDFium's text keeps inter-word spaces where pypdf drops them).

The pages are read once into lines with their position, font size and weight. Running headers,
footers and page numbers are dropped, two-column pages are put back in reading order, and the
clause tree comes from the bookmark outline when there is one (titles from the outline, numbers
from the page), else from numbered headings in the text, kept only in numbering order.
"""

from __future__ import annotations

import ctypes
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from normcli.errors import InvalidArgument
from normcli.importers.common import (
    FIGURE_LABEL,
    TABLE_LABEL,
    Draft,
    Number,
    Sequencer,
    clean_inline,
    figure_name,
    heading_line,
    is_toc_line,
    parse_number,
    safe_text_line,
    spelled_number,
    title_key,
)
from normcli.importers.png import encode_png

SCANNED_CHARS = 20
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.I)
_CHAPTER_WORD = re.compile(r"^(?:chapter|chapitre|kapitel|capitolo)$", re.I)
_BULLET = re.compile(r"^(?:[•\u2022\u25cf\u25aa\u2013\-*·\x88]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s")
_ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.I)
_SPECIAL_HEADINGS = re.compile(
    r"^(?:index|references|bibliography|bibliographie|literatur|foreword|preface|avant-propos|vorwort|premessa|"
    r"glossary|glossaire|acknowledge?ments?|remerciements|colophon|abstract|résumé|zusammenfassung|contents|"
    r"table of contents|table des matières|inhaltsverzeichnis|sommaire|license|licence|introduction|einleitung)$",
    re.I,
)


@dataclass
class Line:
    """One line of text on a page, with what its layout says about it."""

    page: int  # PDF page index (0-based)
    text: str
    x0: float
    x1: float
    top: float
    bottom: float
    size: float
    bold_prefix: int = 0  # how many leading characters are bold
    cells: list[str] = field(default_factory=list)  # the line cut at wide gaps (table cells)
    spans: list[tuple[str, float, float]] = field(default_factory=list)  # the same cuts with their x range
    column: tuple[float, float] = (0.0, 0.0)


@dataclass
class Page:
    """A page's lines in reading order and the printed page number."""

    index: int
    width: float
    height: float
    lines: list[Line]
    printed: int
    label: str
    chars: int = 0
    images: list[tuple[float, float, float, float]] = field(default_factory=list)
    toc: bool = False


@dataclass
class _Heading:
    number: Number | None
    title: str
    depth: int
    body: str = ""
    then: list[_Heading] = field(default_factory=list)  # headings that open at the same place, in order
    keep_line: bool = False  # the line is not the heading itself: it stays as text below the headings


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
        pages = _read_pages(document, draft, ocr, language, progress)
        draft.title = _metadata_title(document)
        outline = _outline(document) if use_outline else []
        body_size = _body_size(pages)
        furniture = _remove_furniture(pages, body_size)
        for page in pages:
            page.lines = _reading_order(page)
            page.toc = _is_toc_page(page)
        stream = [line for page in pages for line in page.lines]
        if outline:
            headings = _outline_headings(outline, pages, stream, draft)
            draft.outline_used = True
        else:
            headings = _text_headings(stream, body_size, furniture, pages)
            if not any(h.number for h in headings.values()):
                draft.warnings.append("no numbered headings were found in the text; check the tree with `normcli toc`")
        if not draft.title:
            draft.title = _first_title(stream, body_size, set(headings))
        _emit(document, pages, stream, headings, body_size, draft)
    finally:
        document.close()
    return draft


# -- reading pages ---------------------------------------------------------------------------


def _read_pages(document, draft: Draft, ocr: bool, language: str, progress) -> list[Page]:
    import pypdfium2.raw as raw

    labels = _labels(document)
    pages: list[Page] = []
    total = len(document)
    for index in range(total):
        page = document[index]
        width, height = page.get_size()
        textpage = page.get_textpage()
        lines, chars = _page_lines(textpage, index)
        images = []
        for obj in page.get_objects(filter=[raw.FPDF_PAGEOBJ_IMAGE], max_depth=2):
            left, bottom, right, top = obj.get_bounds()
            if (right - left) * (top - bottom) > 400:
                images.append((left, bottom, right, top))
        if chars < SCANNED_CHARS and images:  # a page with an image and no text: scanned (a blank page is just blank)
            draft.scanned_pages += 1
            if ocr:
                lines = _ocr_page(page, index, language, draft, width, height)
        label = labels[index]
        printed = int(label) if label.isdigit() else (_roman_value(label) if label and _ROMAN.match(label) else index + 1)
        pages.append(Page(index, width, height, lines, printed, label, chars, images))
        textpage.close()
        page.close()
        if progress:
            progress(index + 1, total)
    if not any(labels):
        _printed_from_text(pages)
    return pages


def _labels(document) -> list[str]:
    labels = []
    for index in range(len(document)):
        try:
            labels.append(document.get_page_label(index) or "")
        except Exception:  # a broken /PageLabels tree is not worth failing over
            labels.append("")
    return labels


def _roman_value(text: str) -> int:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
    total = 0
    text = text.lower()
    for position, char in enumerate(text):
        value = values[char]
        total += -value if position + 1 < len(text) and values[text[position + 1]] > value else value
    return total


def _page_lines(textpage, index: int) -> tuple[list[Line], int]:
    """The lines PDFium finds on a page, with their box, font size, bold prefix and table cells."""
    import pypdfium2.raw as raw

    count = textpage.count_chars()
    if count <= 0:
        return [], 0
    text = textpage.get_text_range(0, count)
    if len(text) != count:
        text = "".join(chr(raw.FPDFText_GetUnicode(textpage, k) or 32) for k in range(count))
    text = text.replace("\x02", "\ufffe")  # PDFium's code for a hyphen at a line end, as FPDFText_GetUnicode gives it
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    get_box = raw.FPDFText_GetCharBox
    get_size = raw.FPDFText_GetFontSize
    lines: list[Line] = []
    visible = 0
    start = 0
    for end in [*(m.start() for m in re.finditer(r"\r\n|\n|\r", text)), count]:
        if start >= count:
            break
        segment = text[start:end]
        if segment.strip():
            boxes: list[tuple[float, float, float, float] | None] = []
            sizes: list[float] = []
            for k in range(start, end):
                char = text[k]
                if char.isspace():
                    boxes.append(None)
                    continue
                get_box(textpage, k, left, right, bottom, top)
                boxes.append((left.value, right.value, bottom.value, top.value))
                sizes.append(get_size(textpage, k))
            real = [box for box in boxes if box is not None and box[1] > box[0]]
            if real:
                visible += len(real)
                size = sorted(sizes)[len(sizes) // 2] if sizes else 0.0
                line = Line(
                    page=index,
                    text=segment,
                    x0=min(box[0] for box in real),
                    x1=max(box[1] for box in real),
                    top=max(box[3] for box in real),
                    bottom=min(box[2] for box in real),
                    size=round(size, 1),
                )
                line.bold_prefix = _bold_prefix(textpage, start, segment)
                line.spans = _cells(segment, boxes, size)
                line.cells = [span[0] for span in line.spans]
                lines.append(line)
        start = end + (2 if text[end : end + 2] == "\r\n" else 1)
    return lines, visible


def _bold_prefix(textpage, start: int, segment: str) -> int:
    """Where the line's leading bold run ends (0: none); the run may follow a plain clause number (`1.1. **Title.**`)."""
    import pypdfium2.raw as raw

    buffer = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    end = 0
    in_run = False
    for offset, char in enumerate(segment[:160]):
        if char.isspace():
            continue
        weight = raw.FPDFText_GetFontWeight(textpage, start + offset)
        bold = weight >= 540
        if not bold:  # weights are not always set (FreeMonoBold says 500): the font name decides
            raw.FPDFText_GetFontInfo(textpage, start + offset, buffer, 128, flags)
            bold = bool(_BOLD_NAME.search(buffer.value.decode("latin-1", "replace")))
        if bold:
            in_run = True
            end = offset + 1
        elif in_run or not (char.isdigit() or char == "." or (offset == 0 and char.isupper())) or offset > 16:
            break
    return end


def _cells(segment: str, boxes: list[tuple[float, float, float, float] | None], size: float) -> list[tuple[str, float, float]]:
    """The line cut where the gap between two characters is wider than the font size (table cells, or two columns)."""
    cells: list[tuple[str, float, float]] = []
    current: list[str] = []
    start: float | None = None
    end: float | None = None
    gap = max(size, 4.0) * 1.2
    for char, box in zip(segment, boxes, strict=False):
        if box is not None and box[1] > box[0]:
            if start is not None and end is not None and box[0] - end > gap and "".join(current).strip():
                cells.append(("".join(current).strip(), start, end))
                current = []
                start = None
            start = box[0] if start is None else start
            end = box[1]
        current.append(char)
    if "".join(current).strip() and start is not None and end is not None:
        cells.append(("".join(current).strip(), start, end))
    return cells


def _ocr_page(page, index: int, language: str, draft: Draft, width: float, height: float) -> list[Line]:
    """Text for a page without a text layer, from tesseract when it is installed."""
    binary = shutil.which("tesseract")
    if binary is None:
        if not any("tesseract" in warning for warning in draft.warnings):
            draft.warnings.append(
                "--ocr: tesseract is not installed, so scanned pages stay without text (install tesseract-ocr and import again)"
            )
        return []
    codes = {"fr": "fra", "de": "deu", "it": "ita", "en": "eng"}
    with tempfile.TemporaryDirectory() as folder:
        image = Path(folder) / "page.png"
        bitmap = page.render(scale=300 / 72, rev_byteorder=True)
        image.write_bytes(encode_png(bitmap))
        try:
            done = subprocess.run(
                [binary, str(image), "stdout", "-l", codes.get(language, "eng")], capture_output=True, text=True, timeout=120, check=False
            )
            if done.returncode != 0:
                done = subprocess.run([binary, str(image), "stdout"], capture_output=True, text=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            draft.warnings.append(f"--ocr: tesseract failed on page {index + 1} ({exc})")
            return []
    lines = []
    rows = [row for row in done.stdout.splitlines() if row.strip()]
    step = height / (len(rows) + 2) if rows else height
    for number, row in enumerate(rows):
        top = height - step * (number + 1)
        lines.append(Line(index, row, 0.1 * width, 0.9 * width, top, top - step * 0.8, 0.0))
    if lines:
        draft.warnings.append(f"page {index + 1}: text from OCR (tesseract); check it against the page")
    return lines


def _printed_from_text(pages: list[Page]) -> None:
    """Printed page numbers from the number-only lines at the page edges, when the PDF has no page labels."""
    offsets: Counter[int] = Counter()
    for page in pages:
        for line in _edge_lines(page):
            if line.text.strip().isdigit():
                offsets[int(line.text.strip()) - page.index] += 1
    if offsets:
        offset, votes = offsets.most_common(1)[0]
        if votes >= max(2, len(pages) // 3):
            for page in pages:
                page.printed = page.index + offset
                page.label = str(page.printed)


def _metadata_title(document) -> str:
    try:
        title = document.get_metadata_dict().get("Title", "")
    except Exception:  # metadata is optional
        return ""
    title = clean_inline(title or "")
    return title if len(title) > 3 and not title.lower().endswith((".dvi", ".tex", ".doc", ".docx")) else ""


def _body_size(pages: list[Page]) -> float:
    sizes: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            sizes[line.size] += len(line.text)
    return sizes.most_common(1)[0][0] if sizes else 10.0


# -- running headers, footers, page numbers --------------------------------------------------


def _edge_lines(page: Page) -> list[Line]:
    if not page.lines:
        return []
    ordered = sorted(page.lines, key=lambda line: -line.top)
    return [*ordered[:2], *ordered[-2:]] if len(ordered) > 4 else ordered


def _signature(text: str) -> str:
    return re.sub(r"\d+|\b[ivxlc]+\b", "#", text.lower()).strip()


def _remove_furniture(pages: list[Page], body_size: float) -> list[str]:
    """Drop running headers, footers and page numbers; return the dropped lines (they hold proper-case chapter titles)."""
    counts: Counter[str] = Counter()
    for page in pages:
        for signature in {_signature(line.text) for line in _edge_lines(page)}:
            counts[signature] += 1
    threshold = 2 if len(pages) <= 6 else max(3, len(pages) // 10)
    removed: list[str] = []
    for page in pages:
        edges = _edge_lines(page)
        drop = set()
        for line in edges:
            text = line.text.strip()
            tokens = text.split()
            is_number = bool(re.fullmatch(r"[-–—\s]*(\d{1,4}|[ivxlcdm]{1,7})[-–—\s]*", text, re.I))
            carries_page = bool(tokens) and page.label and (tokens[0] == page.label or tokens[-1] == page.label) and len(tokens) > 1
            repeated = counts[_signature(text)] >= threshold and not _CHAPTER_WORD.match(text) and line.size <= body_size + 0.6
            if is_number or (carries_page and line.size <= body_size + 0.6) or repeated:
                drop.add(id(line))
        if drop:
            removed.extend(line.text for line in page.lines if id(line) in drop)
            page.lines = [line for line in page.lines if id(line) not in drop]
    return removed


def _reading_order(page: Page) -> list[Line]:
    """Lines in reading order: on a two-column page, the left column before the right one between full-width parts."""
    middle = page.width / 2
    lines = _split_columns(page.lines, middle)
    left = [line for line in lines if line.x1 <= middle + 4]
    right = [line for line in lines if line.x0 >= middle - 4]
    if len(left) < 4 or len(right) < 4 or len(right) < 0.15 * len(lines):
        if lines:
            bounds = (min(line.x0 for line in lines), max(line.x1 for line in lines))
            for line in lines:
                line.column = bounds
        return lines
    left_bounds = (min(line.x0 for line in left), max(line.x1 for line in left))
    right_bounds = (min(line.x0 for line in right), max(line.x1 for line in right))
    position = {id(line): number for number, line in enumerate(lines)}
    ordered = sorted(lines, key=lambda line: (-round(line.top / 2), position[id(line)]))
    result: list[Line] = []
    segment_left: list[Line] = []
    segment_right: list[Line] = []

    def flush() -> None:
        result.extend(sorted(segment_left, key=lambda line: (-round(line.top / 2), position[id(line)])))
        result.extend(sorted(segment_right, key=lambda line: (-round(line.top / 2), position[id(line)])))
        segment_left.clear()
        segment_right.clear()

    for line in ordered:
        if line.x1 <= middle + 4:
            line.column = left_bounds
            segment_left.append(line)
        elif line.x0 >= middle - 4:
            line.column = right_bounds
            segment_right.append(line)
        else:
            flush()
            line.column = (left_bounds[0], right_bounds[1])
            result.append(line)
    flush()
    return result


def _split_columns(lines: list[Line], middle: float) -> list[Line]:
    """Cut lines that PDFium joined across the gutter of a two-column page (left and right text on one baseline)."""
    if not lines:
        return lines
    margin_left = min(line.x0 for line in lines)
    margin_right = max(line.x1 for line in lines)
    cuts: dict[int, int] = {}
    for number, line in enumerate(lines):
        for k in range(len(line.spans) - 1):
            left_end, right_start = line.spans[k][2], line.spans[k + 1][1]
            if left_end <= middle + 4 and right_start >= middle - 4:
                if left_end - line.x0 >= 0.6 * (middle - margin_left) and line.x1 - right_start >= 0.6 * (margin_right - middle):
                    cuts[number] = k + 1
                break
    if len(cuts) < max(3, 0.3 * len(lines)):
        return lines
    result: list[Line] = []
    for number, line in enumerate(lines):
        cut = cuts.get(number)
        if cut is None:
            result.append(line)
            continue
        for spans in (line.spans[:cut], line.spans[cut:]):
            text = "   ".join(span[0] for span in spans)
            result.append(
                Line(line.page, text, spans[0][1], spans[-1][2], line.top, line.bottom, line.size, 0, [span[0] for span in spans], spans)
            )
    return result


def _is_toc_page(page: Page) -> bool:
    entries = 0
    for line in page.lines:
        text = line.text.strip()
        number = parse_number(text)
        if is_toc_line(text) or (number and number.title and re.search(r"[^\W\d_]\W*\s\d{1,4}$", text)):
            entries += 1
    return len(page.lines) >= 4 and entries >= max(4, 0.4 * len(page.lines))


# -- the tree from the outline ------------------------------------------------------------------


@dataclass
class OutlineEntry:
    """One bookmark: its level (0 = top), title, target page index and target height on the page."""

    level: int
    title: str
    page: int | None
    top: float | None


def _outline(document) -> list[OutlineEntry]:
    entries = []
    try:
        for bookmark in document.get_toc(max_depth=8):
            destination = bookmark.get_dest()
            page = top = None
            if destination is not None:
                page = destination.get_index()
                try:
                    mode, view = destination.get_view()
                    top = float(view[0]) if mode in (2, 3) and view else (float(view[1]) if mode == 1 and len(view) > 1 else None)
                except Exception:  # a destination without a view still gives the page
                    top = None
            entries.append(OutlineEntry(bookmark.level, clean_inline(bookmark.get_title() or ""), page, top))
    except Exception:  # a broken outline is treated as no outline
        return []
    return [entry for entry in entries if entry.title]


def outline_entries(source: Path) -> list[OutlineEntry]:
    """The bookmark outline of a PDF (for the accuracy bench)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(source))
    try:
        return _outline(document)
    finally:
        document.close()


def _outline_headings(outline: list[OutlineEntry], pages: list[Page], stream: list[Line], draft: Draft) -> dict[int, _Heading]:
    """Place every bookmark on its page's heading line and read the clause number printed there."""
    by_page: dict[int, list[int]] = {}
    for position, line in enumerate(stream):
        by_page.setdefault(line.page, []).append(position)
    headings: dict[int, _Heading] = {}
    taken: set[int] = set()
    pending: dict[int, list[_Heading]] = {}
    parents: list[tuple[int, str | None]] = []
    for entry in outline:
        number = parse_number(entry.title)
        title = number.title if number and number.title else entry.title
        path = number.path if number and number.title else None
        kind = number.kind if number and number.title else None
        candidates = by_page.get(entry.page, []) if entry.page is not None else []
        found = _find_heading_line(stream, candidates, title, entry.top, taken)
        if found is not None and path is None:
            printed = _printed_number(stream, found, title)
            if printed:
                path, kind = printed.path, printed.kind
        rest = _after_title(stream[found], title) if found is not None else ""
        while parents and parents[-1][0] >= entry.level:
            parents.pop()
        depth = Number(path, title, kind or "clause").depth if path is not None else entry.level + 1
        parents.append((entry.level, path))
        heading = _Heading(Number(path, title, kind or "clause") if path else None, title, depth, rest)
        if found is None and entry.page is not None and entry.top is not None:
            below = [p for p in by_page.get(entry.page, []) if stream[p].top <= entry.top + 2 and p not in headings]
            if below:
                found = below[0]
                heading.keep_line = True
        if found is not None:
            taken.add(found)
            if found in headings:
                headings[found].then.append(heading)
                headings[found].keep_line = headings[found].keep_line or heading.keep_line
            else:
                headings[found] = heading
        elif entry.page is not None and entry.page < len(pages):
            pending.setdefault(entry.page, []).append(heading)
        else:
            draft.warnings.append(f"outline entry '{entry.title}' points to no page; it was left out")
    # bookmarks whose heading line was not found open at the top of their page
    for page_index, items in pending.items():
        positions = by_page.get(page_index)
        anchor = positions[0] if positions else None
        if anchor is None:
            following = [position for page, positions_ in by_page.items() if page > page_index for position in positions_[:1]]
            anchor = min(following) if following else None
        if anchor is None:
            continue
        existing = headings.get(anchor)
        chain = items + ([existing, *existing.then] if existing else [])
        headings[anchor] = chain[0]
        chain[0].then = chain[1:]
        chain[0].keep_line = existing.keep_line if existing else True
    return headings


def _after_title(line: Line, title: str) -> str:
    """The body text that follows a run-in heading on its line (`1.1. Driving Factors. There are …`)."""
    text = clean_inline(line.text)
    key = title_key(title)
    if not key or title_key(text).endswith(key):
        return ""
    consumed = ""
    for position, char in enumerate(text):
        consumed += char
        if title_key(consumed).endswith(key):
            rest = text[position + 1 :].lstrip(" .:–—")
            return rest if len(title_key(rest)) > 2 else ""
    return ""


def _find_heading_line(stream: list[Line], candidates: list[int], title: str, top: float | None, taken: set[int]) -> int | None:
    key = title_key(title)
    if not key:
        return None
    best = None
    for position in candidates:
        if position in taken:
            continue
        line = stream[position]
        text_key = title_key(line.text)
        printed = parse_number(clean_inline(line.text))
        rest_key = title_key(printed.title) if printed and printed.title else text_key
        joined = rest_key + "".join(title_key(stream[k].text) for k in range(position + 1, min(position + 3, len(stream))))
        if (
            text_key.endswith(key)
            or rest_key.startswith(key)
            or (key in text_key and len(text_key) <= len(key) + 12)
            or (len(rest_key) >= 6 and key.startswith(rest_key) and joined.startswith(key))
        ):
            distance = abs(line.top - top) if top is not None else 0.0
            if best is None or distance < best[0]:
                best = (distance, position)
    return best[1] if best else None


def _printed_number(stream: list[Line], position: int, title: str) -> Number | None:
    """The clause number printed with a heading: on its line, or on the lines just above (`Chapter 2` / `CHAPTER` `TWO`)."""
    line = clean_inline(stream[position].text)
    number = parse_number(line)
    if number and number.title:
        return number
    page = stream[position].page
    above = [clean_inline(stream[k].text) for k in range(max(0, position - 2), position) if stream[k].page == page]
    if above:
        chapter = _chapter_lines(above)
        if chapter:
            return chapter
    return None


def _chapter_lines(above: list[str]) -> Number | None:
    joined = " ".join(above[-2:])
    number = parse_number(above[-1]) or parse_number(joined)
    if number and not number.title:
        return number
    if len(above) >= 2 and _CHAPTER_WORD.match(above[-2]):
        value = int(above[-1]) if above[-1].isdigit() else spelled_number(above[-1])
        if value:
            return Number(str(value), "", "clause")
    return None


# -- the tree from the text -------------------------------------------------------------------


def _text_headings(stream: list[Line], body_size: float, furniture: list[str], pages: list[Page]) -> dict[int, _Heading]:
    """Numbered headings found by layout (size, weight, centring) and kept only in numbering order."""
    toc_pages = {page.index for page in pages if page.toc}
    proper_titles = _proper_titles(furniture)
    sequencer = Sequencer()
    headings: dict[int, _Heading] = {}
    consumed: set[int] = set()
    by_size = sum(
        1 for line in stream if line.size >= body_size + 0.8 and (number := parse_number(clean_inline(line.text))) and number.title
    )
    size_only = by_size >= 5  # headings set in a larger font: bold or centred body-size lines are lists, not clauses
    for position, line in enumerate(stream):
        if position in consumed or line.page in toc_pages:
            continue
        text = clean_inline(line.text)
        if not text or is_toc_line(line.text):
            continue
        strong = line.size >= body_size + 0.8
        number = parse_number(text)
        body = ""
        used = [position]
        if _CHAPTER_WORD.match(text) and position + 2 < len(stream):
            spelled = clean_inline(stream[position + 1].text)
            value = int(spelled) if spelled.isdigit() else spelled_number(spelled)
            if value:
                title = clean_inline(stream[position + 2].text)
                used = [position, position + 1, position + 2]
                nxt = position + 3
                while nxt < len(stream) and _continues_title(stream[nxt], stream[nxt - 1]):
                    title += " " + clean_inline(stream[nxt].text)
                    used.append(nxt)
                    nxt += 1
                number = Number(str(value), proper_titles.get(title_key(title), title), "clause")
                strong = True
        elif number and not number.title and position + 1 < len(stream):
            following = stream[position + 1]
            if following.size >= body_size + 0.8 and following.page == line.page and not parse_number(clean_inline(following.text)):
                title = clean_inline(following.text)
                used = [position, position + 1]
                nxt = position + 2
                while nxt < len(stream) and _continues_title(stream[nxt], stream[nxt - 1]):
                    title += " " + clean_inline(stream[nxt].text)
                    used.append(nxt)
                    nxt += 1
                number = Number(number.path, title, number.kind)
                strong = True
        if number is None or not number.title or not re.search(r"[^\W\d_]{2,}", number.title):
            continue
        if strong and len(used) == 1:
            nxt = position + 1
            title = number.title
            while nxt < len(stream) and _continues_title(stream[nxt], stream[nxt - 1]):
                title += " " + clean_inline(stream[nxt].text)
                used.append(nxt)
                nxt += 1
            number = Number(number.path, title, number.kind)
        bold_heading = line.bold_prefix >= len(number.path) + 3
        run_in = False
        if not strong and bold_heading and line.bold_prefix < len(line.text.rstrip()) - 2 and len(used) == 1:
            bold_text = clean_inline(line.text[: line.bold_prefix])
            bold_number = parse_number(bold_text)
            if bold_number and bold_number.title and bold_number.path == number.path:
                run_in = True
                body = clean_inline(line.text[line.bold_prefix :])
                number = Number(number.path, bold_number.title.rstrip(". "), number.kind)
        weak = _centred(line) and len(number.title) < 90
        whole_bold = line.bold_prefix >= len(line.text.rstrip()) - 1
        deep_bold = whole_bold and number.depth >= 3
        if not (strong or bold_heading or weak) or (size_only and not strong and not deep_bold):
            continue
        if len(number.title) > (300 if strong else 160) or (
            not run_in and not strong and number.title.endswith((".", ",", ";")) and len(number.title) > 60
        ):
            continue
        if not re.match(r"[A-Z0-9ÀÂÄÉÈÊÎÔÖÜÇ/\"'“(]", number.title) and not (strong or bold_heading):
            continue
        if not sequencer.fits(number, skip=2 if strong else 0):
            continue
        sequencer.accept(number)
        title = number.title
        if title.isupper() and title_key(title) in proper_titles:
            title = proper_titles[title_key(title)]
        headings[position] = _Heading(number, title, number.depth, body)
        consumed.update(used[1:])
        for extra in used[1:]:
            headings[extra] = _Heading(None, "", 0)  # swallowed: part of the heading above
    chapter_size = _chapter_size(stream, headings, body_size)
    first = min((p for p, h in headings.items() if h.number), default=len(stream))
    for position, line in enumerate(stream):
        if position in headings or line.page in toc_pages:
            continue
        text = clean_inline(line.text)
        if not text or len(text) > 60 or parse_number(text):
            continue
        special = _SPECIAL_HEADINGS.match(text.rstrip(":."))
        big = line.size >= chapter_size - 0.5 and line.size >= body_size + 2
        if special and (big or line.size >= body_size + 0.8 or line.bold_prefix >= len(text) - 1 or _centred(line)):
            headings[position] = _Heading(None, proper_titles.get(title_key(text), text.title() if text.isupper() else text), 1)
        elif big and position < first and len(text) > 2:
            headings[position] = _Heading(None, text.title() if text.isupper() else text, 1)
    return headings


def _continues_title(line: Line, previous: Line) -> bool:
    """A big-font title wrapped onto a second line."""
    return (
        line.page == previous.page
        and abs(line.size - previous.size) < 0.3
        and 0 <= previous.bottom - line.top < previous.size * 2.0
        and not parse_number(clean_inline(line.text))
        and len(line.text) < 80
    )


def _proper_titles(furniture: list[str]) -> dict[str, str]:
    """Chapter titles as the running headers print them (`Chapter 2. The Debian Archive`), keyed for comparison."""
    titles = {}
    for text in furniture:
        match = re.search(r"(?i:chapter|chapitre|kapitel|appendix|annexe|anhang)\s+\w+\.?\s+(?P<title>.+?)(?:\s+\d+)?$", clean_inline(text))
        if match:
            title = match.group("title").strip()
            titles[title_key(title)] = title
    return titles


def _chapter_size(stream: list[Line], headings: dict[int, _Heading], body_size: float) -> float:
    sizes = [stream[p].size for p, h in headings.items() if h.number and h.depth == 1]
    return sorted(sizes)[len(sizes) // 2] if sizes else body_size + 4


def _centred(line: Line) -> bool:
    left, right = line.column
    width = right - left
    if width <= 0:
        return False
    return abs((line.x0 - left) - (right - line.x1)) < 0.1 * width and (line.x1 - line.x0) < 0.7 * width


def _first_title(stream: list[Line], body_size: float, headings: set[int]) -> str:
    """The largest line of the first page, unless it is a clause heading (then the code names the norm)."""
    first_page = [(position, line) for position, line in enumerate(stream[:60]) if line.page == stream[0].page] if stream else []
    if not first_page:
        return ""
    position, biggest = max(first_page, key=lambda item: item[1].size)
    return clean_inline(biggest.text) if biggest.size > body_size and position not in headings else ""


# -- writing the Markdown ---------------------------------------------------------------------


def _emit(document, pages: list[Page], stream: list[Line], headings: dict[int, _Heading], body_size: float, draft: Draft) -> None:
    body = draft.body
    vocabulary = _vocabulary(stream)
    current_page = None
    paragraph: list[Line] = []
    started = False
    seen_titles: Counter = Counter()
    figure_numbers: Counter = Counter()
    page_by_index = {page.index: page for page in pages}
    tables = _find_tables(stream, headings, {page.index for page in pages if page.toc})

    def flush() -> None:
        if paragraph:
            if len(paragraph) > 1 and paragraph[0].text.strip().isdigit() and paragraph[0].size < body_size - 0.5:
                paragraph[0] = Line(paragraph[0].page, f"[{paragraph[0].text.strip()}]", 0, 0, 0, 0, paragraph[0].size)
            text = _join(paragraph, vocabulary)
            if text:
                body.append(safe_text_line(text))
                body.append("")
            paragraph.clear()

    def open_page(index: int) -> None:
        nonlocal current_page
        if index == current_page:
            return
        flush()
        current_page = index
        page = page_by_index[index]
        label = f" label={page.label}" if page.label and not page.label.isdigit() else ""
        body.append(f"<!-- page {page.printed} pdf={index + 1}{label} -->")

    def write_heading(heading: _Heading) -> None:
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
        figure = FIGURE_LABEL.match(text)
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
        if paragraph and (_breaks(paragraph[-1], line, body_size) or page_by_index[line.page].toc):
            flush()
        paragraph.append(line)
    flush()
    while body and not body[-1].strip():
        body.pop()


def _alt(caption: str) -> str:
    return clean_inline(caption).replace("[", "(").replace("]", ")")


def _continues_caption(line: Line, caption: Line) -> bool:
    return (
        abs(line.top - caption.bottom) < caption.size * 1.6
        and abs(line.size - caption.size) < 0.5
        and not FIGURE_LABEL.match(line.text.strip())
    )


def _find_tables(stream: list[Line], headings: dict[int, _Heading], toc_pages: set[int]) -> dict[int, tuple[int | None, list[int]]]:
    """Captioned tables: first row position → (caption position, row positions); rows after the caption, else before it."""
    found: dict[int, tuple[int | None, list[int]]] = {}
    used: set[int] = set()
    for position, line in enumerate(stream):
        if line.page in toc_pages or not TABLE_LABEL.match(clean_inline(line.text)):
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


def _aligned_rows(stream: list[Line], start: int, headings: dict[int, _Heading], used: set[int], toc_pages: set[int]) -> list[int]:
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


def _rows(stream: list[Line], caption: int, step: int, headings: dict[int, _Heading], used: set[int]) -> list[int]:
    """The lines of a table next to its caption, while they split into cells (short single cells may sit in between)."""
    rows: list[int] = []
    position = caption + step
    previous = stream[caption]
    while 0 <= position < len(stream) and len(rows) < 200:
        line = stream[position]
        if position in headings or position in used or line.page != stream[caption].page:
            break
        if FIGURE_LABEL.match(line.text.strip()) or TABLE_LABEL.match(line.text.strip()):
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
    if line.top > previous.top + 2:  # a jump back up: the other column or a new block
        return True
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
