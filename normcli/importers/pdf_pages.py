"""Reading a PDF's pages with pypdfium2: lines with their box, font size and weight, printed page numbers,
running headers and footers removed, two columns put in reading order, contents pages recognised, OCR."""

from __future__ import annotations

import contextlib
import ctypes
import functools
import itertools
import operator
import re
import shutil
import subprocess
import tempfile
import unicodedata
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

from normcli.importers.common import LINE_END_HYPHEN, VERSION_DATE, Draft, clean_inline, is_toc_line, parse_number, roman_value, title_key
from normcli.importers.png import encode_png
from normcli.labels import ANNEX_HEADING_LABEL, CHAPTER_LABEL, DIVISION_LABEL, FIGURE_CAPTION_LABEL, TABLE_CAPTION_LABEL

SCANNED_CHARS = 20
# bold by name, also in the names TeX gives the bold faces of Computer Modern and its EC and cm-super versions (`CMBX12`,
# `SFBX1200`, `CMSSBX10`, `ECBI1000`, `CMB10`), which say nothing of weight to PDFium
_BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi|(?:^|\+)(?:CM|EC|SF|TC)(?:BX|B|BI|BL|SX|XC|SSBX|SSDC)(?:TI|SL)?\d{2,4}$", re.I)
_REGULAR_NAME = re.compile(
    r"(?:^|[-,+_ ])(?:roman|regular|book|light|medium|normal)\b|(?:^|\+)(?:helvetica|courier|arial|symbol)(?:-(?:oblique|italic))?$", re.I
)
CHAPTER_WORD = re.compile(rf"^{CHAPTER_LABEL}$")


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
    mono: bool = False  # set in a fixed-pitch font (code, console output)
    listing: bool = False  # mono by its font's evidence from the middle to the end: a listing's line, not a formula's
    pictures: float = 0.0  # the share of its characters that are pictures, not text (notes of a music font, `_pictures`)
    font: str = ""  # the font most of the line is set in, without its subset tag (`CMBX12`, `Helvetica-Oblique`)


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
    hrules: list[tuple[float, float, float]] = field(default_factory=list)  # x0, x1, y of thin horizontal paths (table rules)
    vrules: list[tuple[float, float, float]] = field(default_factory=list)  # x, y0, y1 of thin vertical paths
    # on a page with a horizontal rule, the paths that are no rule: left, bottom, right, top and what they paint
    # (`curve`, `line`, `fill` or `frame`, `_shape_kind`)
    shapes: list[tuple[float, float, float, float, str]] = field(default_factory=list)


# -- reading pages ---------------------------------------------------------------------------


PARALLEL_FROM = 12  # pages: below this, starting a second process costs more than it saves


def read_pages(document, draft: Draft, ocr: bool, language: str, progress, source: Path | None = None) -> list[Page]:
    """Every page read into lines, with printed page numbers and image boxes; scanned pages counted (and OCRed).
    With `source` (the document's file) and a second core, a forked helper process reads pages too."""
    with collection_paused():
        return _read_all(document, draft, ocr, language, progress, source)


@contextlib.contextmanager
def collection_paused():
    """Python's cycle collector off while pages are read, and on again after (if it was on). Reading makes tuples for
    every character, and every 700 new objects start a collection, some of which walk all that the earlier pages
    left: 5-8 % of an import's CPU time (1-2 % with the pause), to free a few hundred objects in cycles a whole document
    makes, which the first collection after the pause frees. `import_pdf` keeps it paused to its end: the first
    collections after the reading would walk every line of the document again, once the import returns they are freed
    by their reference counts."""
    import gc

    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _read_all(document, draft: Draft, ocr: bool, language: str, progress, source: Path | None) -> list[Page]:
    """`read_pages` with the cycle collector paused (a forked helper inherits the pause)."""
    labels = _labels(document)
    total = len(document)
    read: dict[int, tuple[Page, list[str], bool]] = {}
    scratch = Draft()  # this process's warnings, merged below in page order with the helper's
    helper = _Helper.start(source, labels, ocr, language) if source is not None and total >= PARALLEL_FROM else None
    try:
        for index in helper.claims(total) if helper else range(total):
            read[index] = _read_page(document, index, labels[index], ocr, language, scratch)
            if helper:
                helper.collect()
            if progress:
                progress(helper.claimed(total) if helper else index + 1, total)
        if helper:
            read.update(helper.finish())
    finally:
        if helper:
            helper.stop()
    pages: list[Page] = []
    for index in range(total):
        if index not in read:  # the helper failed on its pages: they are read here
            read[index] = _read_page(document, index, labels[index], ocr, language, scratch)
        page, warnings, scanned = read[index]
        pages.append(page)
        draft.scanned_pages += scanned
        draft.warnings.extend(warning for warning in warnings if warning not in draft.warnings)
    if progress and helper:
        progress(total, total)
    if not any(labels):
        _printed_from_text(pages)
    return pages


def _read_page(document, index: int, label: str, ocr: bool, language: str, draft: Draft) -> tuple[Page, list[str], bool]:
    """One page read: its lines, image boxes and rules, the warnings it raised and whether it is scanned.
    `draft` gathers the warnings of one process (a warning given once is not repeated)."""
    before = len(draft.warnings)
    try:
        page = document[index]
        width, height = page.get_size()
        textpage = page.get_textpage()
    except Exception as exc:  # a damaged page is left out, the rest of the document is still imported
        draft.warnings.append(f"page {index + 1} could not be read ({exc}); it was left out")
        return Page(index, 595.0, 842.0, [], index + 1, label, 0, []), draft.warnings[before:], False
    images, _, shapes, (hrules, vrules) = _drawn_objects(page.raw)
    lines, chars = _page_lines(textpage, index, vrules)
    scanned = chars < SCANNED_CHARS and bool(images)  # a page with an image and no text (a blank page is just blank)
    if scanned and ocr:
        lines = _ocr_page(page, index, language, draft, width, height)
    printed = int(label) if label.isdecimal() else (roman_value(label) or index + 1)
    textpage.close()
    page.close()
    return (
        Page(index, width, height, lines, printed, label, chars, images, hrules=hrules, vrules=vrules, shapes=shapes),
        draft.warnings[before:],
        scanned,
    )


class _Helper:
    """A forked process reading pages beside this one: each process claims the next unread page from a shared
    counter, so the work splits evenly whatever the pages cost; the helper sends each page back as soon as it
    is read, and this process takes them between its own pages, so neither waits on the other at the end.
    Used only where fork is safe (a POSIX system other than macOS, no other thread running) and a second core
    is free (the load average is below the cores less one half)."""

    def __init__(self, process, counter, connection) -> None:
        self.process, self.counter, self.connection = process, counter, connection
        self.received: dict[int, tuple[Page, list[str], bool]] = {}
        self.done = False  # the helper said it has sent all it read (or the pipe closed)

    @classmethod
    def start(cls, source: Path, labels: list[str], ocr: bool, language: str) -> _Helper | None:
        """The helper running, or None where it would not help or would not be safe."""
        import multiprocessing
        import os
        import sys
        import threading

        cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
        if cores < 2 or threading.active_count() > 1 or sys.platform == "darwin" or "fork" not in multiprocessing.get_all_start_methods():
            return None  # macOS: its system libraries are not safe to use in a forked child
        if hasattr(os, "getloadavg") and os.getloadavg()[0] > cores - 0.5:
            return None  # no core is free: the helper would only share this one's time and cost its own start
        try:
            context = multiprocessing.get_context("fork")
            counter = context.Value("i", 0)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_help, args=(source, labels, ocr, language, counter, sender), daemon=True)
            process.start()
            sender.close()
        except (OSError, ValueError):  # no fork, no semaphores (some sandboxes): read alone
            return None
        return cls(process, counter, receiver)

    def claims(self, total: int):
        """The pages this process reads: the next unclaimed one, until none is left."""
        return _claims(self.counter, total)

    def claimed(self, total: int) -> int:
        """How many pages are read or being read, for the progress report."""
        return min(self.counter.value, total)

    def collect(self) -> None:
        """Take the pages the helper has sent so far, without waiting for more."""
        try:
            while not self.done and self.connection.poll():
                self._take(self.connection.recv())
        except (EOFError, OSError):
            self.done = True

    def finish(self) -> dict[int, tuple[Page, list[str], bool]]:
        """The helper's pages, once it has sent them all (the pages it failed on, or did not send, are read here)."""
        try:
            while not self.done:
                self._take(self.connection.recv())
        except (EOFError, OSError):
            self.done = True
        return self.received

    def _take(self, message) -> None:
        """One message of the helper: a page read, `(index, (page, warnings, scanned))`, or None at the end."""
        if message is None:
            self.done = True
        elif isinstance(message, tuple) and len(message) == 2:
            self.received[message[0]] = message[1]

    def stop(self) -> None:
        """The helper ended: at once when this process stopped early (an error, Ctrl-C), so none is left behind."""
        self.connection.close()
        if self.process.is_alive():
            self.process.join(timeout=1.0)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join()


def _claims(counter, total: int):
    while True:
        with counter.get_lock():
            index = counter.value
            counter.value = index + 1
        if index >= total:
            return
        yield index


def _help(source: Path, labels: list[str], ocr: bool, language: str, counter, connection) -> None:
    """The helper process: reads the pages it claims with its own handle on the file (a forked PDFium handle shares
    the parent's file offset) and sends each back as it is read, then None. A thread sends them, so reading never
    waits for the parent to take a page off a full pipe. After a failure it reads no more: the parent reads what
    is missing."""
    import queue
    import threading

    outbox: queue.SimpleQueue = queue.SimpleQueue()
    gone = threading.Event()  # the parent stopped listening (it stopped early): no page is read for it any more

    def send() -> None:
        try:
            while (message := outbox.get()) is not None:
                connection.send(message)
            connection.send(None)
        except (OSError, ValueError):
            gone.set()
        finally:
            connection.close()

    sender = threading.Thread(target=send, daemon=True)
    sender.start()
    try:
        import pypdfium2 as pdfium

        document = pdfium.PdfDocument(str(source))
        draft = Draft()
        for index in _claims(counter, len(labels)):
            if gone.is_set():
                break
            outbox.put((index, _read_page(document, index, labels[index], ocr, language, draft)))
        document.close()
    except Exception:  # whatever went wrong, the main process reads the pages that are missing
        pass
    outbox.put(None)
    sender.join()


_SHAPES_READ = 400  # paths whose segments are read on a page: past them the page is a drawing, its paths all draw


def _drawn_objects(
    page,
) -> tuple[
    list[tuple[float, float, float, float]],
    list[tuple[float, float, float, float]],
    list[tuple[float, float, float, float, str]],
    tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]],
]:
    """The boxes (left, bottom, right, top) of a page's images, its own and those of the forms it draws, and of
    its top-level paths (a form's inner paths are in the form's own coordinates); on a page with a horizontal
    rule, the paths that are no rule, each with what it paints (`_shape_kind`); and the page's rules (`rules_of`), which
    tell whether it has one. Read with PDFium's raw calls: pypdfium2's object wrappers cost
    more than the reading on pages drawn with thousands of paths."""
    import pypdfium2.raw as raw

    images: list[tuple[float, float, float, float]] = []
    paths: list[tuple[float, float, float, float]] = []
    shapes: list[tuple[float, float, float, float, str]] = []
    drawn: list[tuple[tuple[float, float, float, float], object]] = []  # the paths that are no rule, read once the page has a rule
    left, bottom, right, top = ctypes.c_float(), ctypes.c_float(), ctypes.c_float(), ctypes.c_float()
    edges = (ctypes.byref(left), ctypes.byref(bottom), ctypes.byref(right), ctypes.byref(top))
    calls = _text_calls()
    kind_of, bounds_of, object_at = calls.object_kind, calls.bounds, calls.object
    for number in range(raw.FPDFPage_CountObjects(page)):
        obj = object_at(page, number)
        if not obj:
            continue
        kind = kind_of(obj)
        if kind == raw.FPDF_PAGEOBJ_FORM:
            for inner in range(raw.FPDFFormObj_CountObjects(obj)):
                part = raw.FPDFFormObj_GetObject(obj, inner)
                if part and kind_of(part) == raw.FPDF_PAGEOBJ_IMAGE and bounds_of(part, *edges):
                    box = (left.value, bottom.value, right.value, top.value)
                    if (box[2] - box[0]) * (box[3] - box[1]) > 400:
                        images.append(box)
        elif kind in (raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_IMAGE) and bounds_of(obj, *edges):
            box = (left.value, bottom.value, right.value, top.value)
            if kind == raw.FPDF_PAGEOBJ_PATH or min(box[2] - box[0], box[3] - box[1]) <= 1.5:
                paths.append(box)  # an image as thin as a line is drawn as a rule (some DVI drivers set rules so)
                if kind == raw.FPDF_PAGEOBJ_PATH and not _thin(box):
                    drawn.append((box, obj))
            elif (box[2] - box[0]) * (box[3] - box[1]) > 400:
                images.append(box)
    rules = rules_of(paths)
    # a rule long enough to frame a table's row (its pieces joined)
    ruled = bool(drawn) and any(right - left >= TABLE_RULE for left, right, _ in rules[0])
    if ruled:  # the shapes tell a ruled region's picture from its table: without a rule no region needs them
        shapes = [(*box, "curve" if number >= _SHAPES_READ else _shape_kind(obj, raw)) for number, (box, obj) in enumerate(drawn)]
    return images, paths, shapes, rules


def _thin(box: tuple[float, float, float, float]) -> bool:
    """Whether a path's box is a rule's (a line along one axis, `rules_of`), or a dot too small to tell."""
    return (
        _flat_rule(box)
        or _upright_rule(box)
        or (min(box[2] - box[0], box[3] - box[1]) <= 3.0 and max(box[2] - box[0], box[3] - box[1]) < 6.0)
    )


TABLE_RULE = 15.0  # the shortest horizontal rule that rules a table (shorter ones underline a word or mark a tick)


def _flat_rule(box: tuple[float, float, float, float]) -> bool:
    """A horizontal rule's box: up to 3 pt thick (a heavy rule under a header row: asciidoctor-pdf draws it 2.5 pt)."""
    return box[3] - box[1] <= 3.0 and box[2] - box[0] >= 6.0


def _upright_rule(box: tuple[float, float, float, float]) -> bool:
    """A vertical rule's box: up to 2 pt thick."""
    return box[2] - box[0] <= 2.0 and box[3] - box[1] >= 6.0


def _shape_kind(obj, raw) -> str:
    """What a path that is no rule paints: `curve` (a segment is a curve or a slanted line: a picture's strokes, a
    plotted point), `line` (one slanted line alone: the diagonal of a table's corner cell), `fill` (a filled area along the axes, or a line drawn so wide that it is a bar: a shaded
    cell, a swatch) or `frame` (the outline of a box)."""
    x, y = ctypes.c_float(), ctypes.c_float()
    to_x, to_y = ctypes.byref(x), ctypes.byref(y)
    calls = _text_calls()
    last: tuple[float, float] | None = None
    low_x = low_y = float("inf")
    high_x = high_y = float("-inf")
    count = raw.FPDFPath_CountSegments(obj)
    for number in range(count):
        segment = calls.segment(obj, number)
        kind = calls.segment_kind(segment)
        if kind == raw.FPDF_SEGMENT_BEZIERTO:
            return "curve"
        if not calls.point(segment, to_x, to_y):
            continue
        point = (x.value, y.value)
        if kind == raw.FPDF_SEGMENT_LINETO and last is not None and abs(point[0] - last[0]) > 0.5 and abs(point[1] - last[1]) > 0.5:
            return "line" if count == 2 else "curve"  # one slanted line alone (a header cell's diagonal) paints no region
        last = point
        low_x, high_x, low_y, high_y = min(low_x, point[0]), max(high_x, point[0]), min(low_y, point[1]), max(high_y, point[1])
    fill, stroke = ctypes.c_int(), ctypes.c_int()
    if raw.FPDFPath_GetDrawMode(obj, fill, stroke) and fill.value:
        return "fill"
    # the points lie on one line (in the path's own units) and the stroke's width makes the box: a bar
    return "fill" if min(high_x - low_x, high_y - low_y) <= 0.02 * max(high_x - low_x, high_y - low_y) else "frame"


def _labels(document) -> list[str]:
    labels = []
    for index in range(len(document)):
        try:
            labels.append(document.get_page_label(index) or "")
        except Exception:  # a broken /PageLabels tree is not worth failing over
            labels.append("")
    return labels


@dataclass
class _Segment:
    """One line as PDFium cuts the text: its characters with their boxes, sizes and baselines."""

    start: int
    chars: list[str]
    boxes: list[tuple[float, float, float, float] | None]
    glyphs: list[tuple[float, float] | None]  # font size and baseline height of each visible character
    _real: list[tuple[float, float, float, float]] | None = None
    _baseline: tuple[float, float] | None = None
    text: tuple[float, float] | None = None  # the size and baseline of the text a script piece was joined to
    origins: list[float | None] | None = None  # the x of each visible character's origin (where its advance starts)
    indices: list[int] | None = None  # PDFium's index of each character (-1: a space put between two joined pieces)
    _flat: bool = False  # found by `baseline`: every character at the main size and on one baseline (`flat`)

    def real(self) -> list[tuple[float, float, float, float]]:
        """The boxes of the visible characters."""
        if self._real is None:
            self._real = [box for box in filter(None, self.boxes) if box[1] > box[0]]  # a box is a 4-tuple or None
        return self._real

    def baseline(self) -> tuple[float, float]:
        """The main font size and baseline height (of the full-size characters)."""
        if self.text is not None:  # `a` + `3,t`: the scripts may outnumber their letter, the size is the letter's
            return self.text
        if self._baseline is None:
            glyphs = list(filter(None, self.glyphs))  # a glyph is a pair or None
            each_size, each_height = zip(*glyphs, strict=True)
            sizes = sorted(each_size)
            size, largest = sizes[len(glyphs) // 2], sizes[-1]
            if largest * 0.85 > size:  # most characters smaller: scripts of the larger ones (`a₃,ₜ`) or the text?
                bases = sorted(glyph[1] for glyph in glyphs if glyph[0] >= 0.9 * largest)
                base = bases[len(bases) // 2]
                if all(abs(glyph[1] - base) >= 0.1 * largest for glyph in glyphs if glyph[0] < 0.85 * largest):
                    size = largest  # every smaller character is off the larger ones' baseline: they are its scripts
            if sizes[0] >= 0.9 * size:  # one size (most lines): every character's baseline counts
                heights = sorted(each_height)
                self._flat = heights[-1] - heights[0] < 0.25 * size
            else:
                heights = sorted([glyph[1] for glyph in glyphs if glyph[0] >= 0.9 * size]) or [glyphs[0][1]]
                self._flat = False
            self._baseline = (size, heights[len(heights) // 2])
        return self._baseline

    def flat(self) -> bool:
        """Whether the line has one size and one baseline, as `script_pieces` first asks (sizes within a tenth of the main
        size, baselines within a quarter of it): it has no script to look for (most lines), and `baseline` knows it."""
        return self.text is None and bool(self.baseline()) and self._flat


def rules_of(paths: list[tuple[float, float, float, float]]) -> tuple[list[tuple[float, float, float]], list[tuple[float, float, float]]]:
    """The thin path objects of a page (table rules, drawn as lines or as thin filled rectangles), pieces on
    one line joined: horizontal ones as (x0, x1, y), vertical ones as (x, y0, y1)."""
    flat = [(left, right, (bottom + top) / 2) for left, bottom, right, top in paths if _flat_rule((left, bottom, right, top))]
    upright = [(bottom, top, (left + right) / 2) for left, bottom, right, top in paths if _upright_rule((left, bottom, right, top))]
    return _joined(flat), [(position, start, end) for start, end, position in _joined(upright)]


def _joined(rules: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    """(start, end, position) pieces on one line that touch become one rule: a grid draws each cell's border apart."""
    joined: list[list[float]] = []
    for start, end, position in sorted(rules, key=lambda rule: (round(rule[2]), rule[0])):
        last = joined[-1] if joined else None
        if last is not None and abs(last[2] - position) <= 1.0 and start <= last[1] + 2.0:
            last[1] = max(last[1], end)
        else:
            joined.append([start, end, position])
    return [(start, end, position) for start, end, position in joined]


_SURROGATES = re.compile("[\ud800-\udbff][\udc00-\udfff]")
_HALF = re.compile("[\ud800-\udfff]")
# the old-style figures some fonts map into the Private Use Area (Adobe's `uniF730`…`uniF739`): the digits they print
_OLDSTYLE = re.compile("[\uf730-\uf739]")
OLDSTYLE_DIGITS = {0xF730 + value: str(value) for value in range(10)}
_LINE_BREAK = re.compile(f"\r\n|\n|\r|{LINE_END_HYPHEN}(?=\\S)")  # PDFium's line ends, and its hyphen mark before the next line's text
_SECOND_HALF = "\uffff"  # a noncharacter, not text: marks the place of a joined pair's second half


def joined_pairs(text: str) -> str:
    """A character beyond U+FFFF (math letters 𝑥, 𝜀, 𝒢) is two entries of PDFium's character list, each with
    half of a UTF-16 surrogate pair: the pair becomes the character, and the second half's place is kept,
    marked, so that the text's indices still match PDFium's (else both halves end up as spaces)."""
    if not _SURROGATES.search(text):
        return text
    return _SURROGATES.sub(lambda pair: pair.group(0).encode("utf-16-le", "surrogatepass").decode("utf-16-le") + _SECOND_HALF, text)


@functools.cache
def _text_calls() -> SimpleNamespace:
    """PDFium's per-character text calls, the per-object calls of `_drawn_objects` and `_shape_kind` (a page drawn
    with thousands of paths makes three or more per path) and the font calls of `_pitch_of`, as bare function
    pointers. pypdfium2 declares each argument's type, and ctypes then converts every argument of every call;
    without the declarations a call costs a third as much, and an import makes several per character. Callers pass
    each argument in its exact C type: Python ints only where the C parameter is an `int` (character and object
    indices; a character code), ctypes objects (by value, or by reference) elsewhere. A call that returns a handle
    returns pypdfium2's pointer type, which the next call takes as it is."""
    import pypdfium2.raw as raw

    def bare(function, result):
        return ctypes.CFUNCTYPE(result)(ctypes.cast(function, ctypes.c_void_p).value)

    functions = dict(
        box=raw.FPDFText_GetCharBox, origin=raw.FPDFText_GetCharOrigin, size=raw.FPDFText_GetFontSize, unicode=raw.FPDFText_GetUnicode,
        weight=raw.FPDFText_GetFontWeight, font_info=raw.FPDFText_GetFontInfo, matrix=raw.FPDFText_GetMatrix,
        object=raw.FPDFPage_GetObject, object_kind=raw.FPDFPageObj_GetType, bounds=raw.FPDFPageObj_GetBounds,
        segment=raw.FPDFPath_GetPathSegment, segment_kind=raw.FPDFPathSegment_GetType, point=raw.FPDFPathSegment_GetPoint,
        text_object=raw.FPDFText_GetTextObject, font=raw.FPDFTextObj_GetFont, glyph_width=raw.FPDFFont_GetGlyphWidth,
    )  # fmt: skip
    results = {"size": ctypes.c_double, "unicode": ctypes.c_uint, "font_info": ctypes.c_ulong}  # the others: c_int, or a handle
    results |= {"object": raw.FPDF_PAGEOBJECT, "segment": raw.FPDF_PATHSEGMENT, "text_object": raw.FPDF_PAGEOBJECT, "font": raw.FPDF_FONT}
    return SimpleNamespace(**{name: bare(function, results.get(name, ctypes.c_int)) for name, function in functions.items()})


class _FontName:
    """The font names of a page's characters, each read from PDFium once (`_text_calls`) and kept by index: a line's
    font, bold run and pictures ask for the same characters. It answers like one name buffer reused from read to
    read: `fresh()` empties it, and a read that fails leaves the name (and flags) of the read before."""

    _UNSET = -(2**31)  # no font's flags: marks a read that wrote none
    _ROOM = 128  # the name buffer's size

    def __init__(self) -> None:
        self._buffer = ctypes.create_string_buffer(self._ROOM)
        self._flags = ctypes.c_int()
        self._arguments = (self._buffer, ctypes.c_ulong(self._ROOM), ctypes.byref(self._flags))
        self._names: dict[bytes, str] = {}  # each name decoded once: a page has a few fonts, read hundreds of times
        self._call = _text_calls().font_info
        self._known: dict[int, tuple[str | None, int | None]] = {}  # by index: the name and flags a read wrote (None: not written)
        self.name = ""
        self.flags = 0
        self._pitch: dict[str, bool | None] = {}  # font name: fixed pitch (None: its widths cannot tell)
        # the page's characters, their origins and (size, baseline), for the pitch of a font without a name
        self._page: tuple[str, Sequence[float | None], Sequence[tuple[float, float] | None]] | None = None
        self._faces: dict[int, bool] | None = None  # an unnamed font's handle: its letters advance by one width
        self._widths: dict[int, bool | None] = {}  # an unnamed font's handle: fixed pitch by its widths (`_pitch_of`)

    def fresh(self) -> _FontName:
        """The buffer emptied, as if new."""
        self.name, self.flags = "", 0
        return self

    def read(self, handle, index: int) -> str:
        """The font name of the character at `index` (its flags are left in `flags`)."""
        known = self._known.get(index)
        if known is None:
            self._flags.value = self._UNSET
            length = self._call(handle, index, *self._arguments)
            # PDFium writes the name only when it fits (with its NUL), and the flags whenever it finds the font
            name = None
            if 0 < length <= self._ROOM:
                raw = self._buffer.value
                name = self._names.get(raw)
                if name is None:
                    name = self._names[raw] = raw.decode("latin-1", "replace")
            flags = self._flags.value
            known = self._known[index] = (name, flags if flags != self._UNSET else None)
        if known[0] is not None:
            self.name = known[0]
        if known[1] is not None:
            self.flags = known[1]
        return self.name

    def on_page(self, text: str, origins: Sequence[float | None], glyphs: Sequence[tuple[float, float] | None]) -> None:
        """The page's characters with their origins and (size, baseline) (`_char_geometry`), which tell the pitch of
        a font without a name."""
        self._page = (text, origins, glyphs)

    def fixed(self, handle, index: int, name: str) -> bool:
        """Whether the font of the character at `index`, named `name` (just read: its flags are in `flags`), is a
        fixed-pitch one: its glyphs' widths say so when they can (`_pitch_of`, once per font and page), else the
        fixed-pitch flag or the font's name. A font without a name (dvips's Type 3 bitmap fonts: every face of the
        page is named "" and flagged alike, and PDFium gives no widths) is told by its face's advances on the page
        (`_unnamed_fixed`)."""
        if not name and self._page is not None:
            return self._unnamed_fixed(handle, index)
        if name not in self._pitch:
            self._pitch[name] = _pitch_of(handle, index)
        pitch = self._pitch[name]
        return pitch if pitch is not None else bool(self.flags & 1) or _fixed_name(name)

    def _unnamed_fixed(self, handle, index: int) -> bool:
        """Whether the unnamed font of the character at `index` is a fixed-pitch one, from its letters' advances on
        the page (`_face_pitches`, once per page); its widths first, when PDFium has them."""
        if self._faces is None:
            self._faces = _face_pitches(handle, *self._page) if self._page is not None else {}
        calls = _text_calls()
        face = calls.font(calls.text_object(handle, index))
        key = ctypes.cast(face, ctypes.c_void_p).value if face else None
        if key is None:
            return bool(self.flags & 1)
        if key not in self._widths:
            self._widths[key] = _pitch_of(handle, index)
        pitch = self._widths[key]
        return pitch if pitch is not None else self._faces.get(key, False) or bool(self.flags & 1)


# characters narrow and wide in a proportional font, whose widths tell a fixed-pitch font from the others
_NARROW, _WIDE = "il.,:;!|'", "mwMW%@"
_UNMAPPED = 0xE000  # a private-use character no font maps unless it defines it: a width for it is a lookup's fallback


def _pitch_of(handle, index: int) -> bool | None:
    """Whether the font of the character at `index` is fixed-pitch, from the widths it gives its narrow and wide
    characters (`i` and `m` alike): a typewriter font whose name and flags do not say so (TeX's `CMSLTT10`,
    `NimbusMonL-Regu`, `SFTT1000` all leave the flag unset). PDFium looks a width up by the character's code;
    a font that maps no code for a character gives a fallback width (a symbol font gives its first glyph's for
    every letter), so the width it gives a character it cannot have is left out of the comparison. None when
    fewer than a narrow and a wide character are left (a subset of a few glyphs): the caller decides otherwise."""
    calls = _text_calls()  # bare calls (a font's widths are asked for a dozen times): the size passed as the C float it is
    font = calls.font(calls.text_object(handle, index))
    if not font:
        return None
    width = ctypes.c_float()
    size, to_width, glyph_width = ctypes.c_float(10.0), ctypes.byref(width), calls.glyph_width

    def width_of(char: int) -> float:
        width.value = 0.0
        return round(width.value, 2) if glyph_width(font, char, size, to_width) else 0.0

    fallback = width_of(_UNMAPPED)
    narrow = {width_of(ord(char)) for char in _NARROW} - {0.0, fallback}
    wide = {width_of(ord(char)) for char in _WIDE} - {0.0, fallback}
    if not narrow or not wide:
        return None
    widths = narrow | wide
    return max(widths) <= 1.02 * min(widths)


def _face_pitches(handle, text: str, origins: Sequence[float | None], glyphs: Sequence[tuple[float, float] | None]) -> dict[int, bool]:
    """For each font of the page (by PDFium's handle), whether its letters advance by one width (`even_faces`)."""
    calls = _text_calls()
    text_object, font_of = calls.text_object, calls.font
    faces: list[int | None] = [None] * len(text)
    for k in itertools.compress(itertools.count(), map(operator.not_, map(str.isspace, text))):
        face = font_of(text_object(handle, k))
        faces[k] = ctypes.cast(face, ctypes.c_void_p).value if face else None
    return even_faces(text, faces, origins, glyphs)


def even_faces(
    text: str, faces: Sequence[int | None], origins: Sequence[float | None], glyphs: Sequence[tuple[float, float] | None]
) -> dict[int, bool]:
    """For each face among the characters' `faces`, whether its letters advance by one width: the advance from a
    letter to the next character of its face, at one size and on one baseline, taken as the letter's width; a
    fixed-pitch face when six different letters or more have a width, all within 3 % of each other (at every size
    it is set in). A proportional face gives `i` a third of `m`'s width; digits, which most faces set at one
    width, are left out."""
    widths: dict[tuple[int, float], dict[str, float]] = {}
    for k in range(1, len(text)):
        key = faces[k]
        if key is None or faces[k - 1] != key or not text[k - 1].isalpha() or text[k].isspace():
            continue
        before, here, at, last = glyphs[k - 1], glyphs[k], origins[k], origins[k - 1]
        if before and here and at is not None and last is not None and before == here and 0 < at - last < 1.5 * here[0]:
            widths.setdefault((key, round(here[0], 1)), {}).setdefault(text[k - 1], at - last)
    pitches: dict[int, bool] = {}
    for (key, _), letters in widths.items():
        if len(letters) >= 6:
            pitches[key] = pitches.get(key, True) and max(letters.values()) <= 1.03 * min(letters.values())
    return pitches


def _indexed_text(handle, count: int) -> str:
    """The page's characters one per PDFium index, as FPDFText_GetUnicode gives them (a character beyond U+FFFF as
    its two surrogate halves, no code as a space). PDFium's text buffer, read in one call, holds them in order but
    leaves out control characters and characters without a code: those few are found by bisection over the map from
    character to text index and asked for one by one, instead of a call for each character of the page."""
    import pypdfium2.raw as raw

    buffer = (ctypes.c_ushort * (2 * count + 2))()  # room for every character as a pair, and the terminating NUL
    units = buffer[: max(raw.FPDFText_GetText(handle, 0, count, buffer) - 1, 0)]
    unicode_of = _text_calls().unicode
    whole = "".join(map(chr, units))
    if _HALF.search(whole):  # surrogate halves: one unit per index only if none is left out
        if len(units) != count:
            return "".join([chr(unicode_of(handle, k) or 32) for k in range(count)])
        return whole.replace("\x00", " ")
    left_out = _left_out(lambda k: raw.FPDFText_GetTextIndexFromCharIndex(handle, k), count, len(units))
    if left_out is None:  # the text is not the characters in order with some left out: ask for each
        return "".join([chr(unicode_of(handle, k) or 32) for k in range(count)])
    chars = []
    at = after = 0  # the next unit of the text, the character after the last one left out
    for k in sorted(left_out):  # the text up to a character left out, then that one as GetUnicode gives it
        chars.append("".join(map(chr, units[at : at + k - after])))
        at += k - after
        chars.append(chr(unicode_of(handle, k) or 32))
        after = k + 1
    chars.append("".join(map(chr, units[at:])))
    # a character without a code is a space; PDFium's text has U+FFFE where GetUnicode gives 2 for a hyphen at a line
    # end, which the caller writes as U+FFFE either way
    return "".join(chars).replace("\x00", " ")


def _left_out(text_index, count: int, length: int) -> set[int] | None:
    """The indices of the characters PDFium's text leaves out, given `text_index` (-1 for a character left out) and
    the text's length; None when the map is not the characters in order with some left out."""
    found: set[int] = set()

    def between(low: int, high: int, before_low: int, before_high: int) -> bool:
        # the characters left out strictly between `low` and `high`, `before_*` counting those up to each end
        missing = before_high - before_low
        if missing == 0:
            return True
        if missing < 0 or missing > high - low - 1:
            return False
        if missing == high - low - 1:
            found.update(range(low + 1, high))
            return True
        middle = (low + high) // 2
        kept = middle
        while kept < high and (at := text_index(kept)) < 0:
            kept += 1
        if kept == high:  # from the middle on, all left out
            found.update(range(middle, high))
            return between(low, middle, before_low, before_high - (high - middle))
        found.update(range(middle, kept))
        before = kept - at  # left out before `kept`
        if not before_low + (kept - middle) <= before <= before_high:
            return False
        return between(low, middle, before_low, before - (kept - middle)) and between(kept, high, before, before_high)

    if not between(-1, count, 0, count - length) or len(found) != count - length:
        return None
    return found


_LATIN1_LETTERS = re.compile("[\u00c0-\u00ff]")
_CP1251 = {code: bytes([code]).decode("cp1251") for code in [*range(0xC0, 0x100), 0xA8, 0xB8]}


def _cyrillic_misread(text: str) -> str:
    """A page whose Cyrillic text comes out as the Latin-1 letters at the same codes (`Èñõîäíûå ôàéëû` for `Исходные
    файлы`: fonts in the Windows-1251 encoding embedded without a map to Unicode, read as Latin-1) in Cyrillic again.
    Told by how many of its letters are accented Latin ones: a quarter or more, where French or Portuguese prose has
    a twentieth; each of those (and `¨`, `¸` for `Ё`, `ё`) is read back at its code, one character for one."""
    accented = len(_LATIN1_LETTERS.findall(text))
    if accented < 20 or accented < 0.25 * sum(1 for char in text if char.isalpha()):
        return text
    return text.translate(_CP1251)


# TeX's math symbol fonts in the OMS encoding (Computer Modern's `cmsy`, Latin Modern's, the tx/px and Kp fonts'),
# whose angle brackets sit at the codes of `h` and `i`: embedded without a map to Unicode, `⟨command⟩` reads `hcommandi`
_OMS_FONT = re.compile(r"^(?:CMB?SY\d|LMMathSymbols\d|[tp]xsys?c?$|Kp-+M-Sy-)", re.I)
_OMS_BRACKETS = {"h": "⟨", "i": "⟩"}


def _oms_brackets(handle, text: str, font: _FontName) -> str:
    """The page's text with the angle brackets of an OMS font read back (`\\undef⟨command⟩`, not `\\undefhcommandi`):
    each `h` or `i` set in such a font, told by its name (see `_OMS_FONT`), is the bracket at its code. A page on which
    no `h` is set in one costs a font read per `h`; the `i`s are read only on the pages where one is. `font`: the
    page's reader, whose reads the line readers use again."""
    aitches = itertools.compress(itertools.count(), map("h".__eq__, text))  # found in C
    opening = [k for k in aitches if _OMS_FONT.match(base_font(font.fresh().read(handle, k)))]
    if not opening:
        return text
    chars = list(text)
    for k in opening:
        chars[k] = _OMS_BRACKETS["h"]
    for k in itertools.compress(itertools.count(), map("i".__eq__, text)):
        if _OMS_FONT.match(base_font(font.fresh().read(handle, k))):
            chars[k] = _OMS_BRACKETS["i"]
    return "".join(chars)


def _char_geometry(
    handle, text: str
) -> tuple[list[tuple[float, float, float, float] | None], list[tuple[float, float] | None], list[float | None]]:
    """Each visible character's box and (font size, baseline height); None for white space. One tight loop
    over the page: the calls into PDFium, three per character, are most of the time an import takes."""
    import pypdfium2.raw as raw

    count = len(text)
    boxes: list[tuple[float, float, float, float] | None] = [None] * count
    glyphs: list[tuple[float, float] | None] = [None] * count
    origins: list[float | None] = [None] * count
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    origin_x, origin_y = ctypes.c_double(), ctypes.c_double()
    to_left, to_right, to_bottom, to_top = ctypes.byref(left), ctypes.byref(right), ctypes.byref(bottom), ctypes.byref(top)
    to_x, to_y = ctypes.byref(origin_x), ctypes.byref(origin_y)
    calls = _text_calls()
    get_box, get_origin, get_size, get_matrix = calls.box, calls.origin, calls.size, calls.matrix
    matrix = raw.FS_MATRIX()
    to_matrix = ctypes.byref(matrix)
    last_size, printed = -1.0, 1.0
    for k in itertools.compress(itertools.count(), map(operator.not_, map(str.isspace, text))):  # the visible characters
        get_box(handle, k, to_left, to_right, to_bottom, to_top)
        get_origin(handle, k, to_x, to_y)
        boxes[k] = (left.value, right.value, bottom.value, top.value)
        size = get_size(handle, k)
        # PDFium gives the font size of the text object, before the text matrix and the page's transformation
        # scale it: a 1 pt font scaled up (dvips, Distiller, Ghostscript), a page drawn at 0.75 (WeasyPrint) or
        # 0.576 (Qt, wkhtmltopdf). The printed size is what every rule compares with boxes and baselines. The
        # matrix is read again where the size changes (a fourth call per character would cost a quarter more),
        # and for every character of a font under 2 pt, which only a matrix makes readable.
        if size != last_size or size < 2.0:
            get_matrix(handle, k, to_matrix)
            # the height of the text space's unit: a font widened or narrowed line by line (microtype's expansion,
            # `Tz`) keeps its size
            scale = (matrix.c * matrix.c + matrix.d * matrix.d) ** 0.5 or 1.0
            last_size, printed = size, size * scale  # one float for the run of characters at one size
        glyphs[k] = (printed, origin_y.value)
        origins[k] = origin_x.value
    return boxes, glyphs, origins


def _page_lines(textpage, index: int, vrules: list[tuple[float, float, float]] | None = None) -> tuple[list[Line], int]:
    """The lines PDFium finds on a page, with their box, font size, bold prefix, scripts and table cells
    (cut at wide gaps and at vertical rules, so a cell's text never runs into the next one)."""
    count = textpage.count_chars()
    if count <= 0:
        return [], 0
    handle = textpage.raw  # the raw handle: pypdfium2's wrapper converts itself on every call, thousands per page
    text = textpage.get_text_range(0, count)
    if len(text) != count:  # surrogate pairs, or PDFium's text left out or added characters: one per index, as PDFium counts
        text = joined_pairs(_indexed_text(handle, count))
    text = text.replace("\x02", LINE_END_HYPHEN)  # PDFium's code for a hyphen at a line end, as FPDFText_GetUnicode gives it
    if _OLDSTYLE.search(text):  # one character for one: the indices still match the character boxes
        text = text.translate(OLDSTYLE_DIGITS)
    font = _FontName()  # each character's font read once for the page
    text = _oms_brackets(handle, _cyrillic_misread(text), font)
    boxes, glyphs, origins = _char_geometry(handle, text)
    font.on_page(text, origins, glyphs)
    segments: list[_Segment] = []
    pairs = _SECOND_HALF in text
    start = 0
    # PDFium ends a line broken after a hyphen with its hyphen mark and no newline: the next printed line starts there
    # (the break after a hyphen mark is found at the mark, then put after it: a pattern that starts with a character
    # is searched for much faster than an empty match after one, tried at every position of the page)
    breaks = ((m.start(), len(m.group())) if m.group() != LINE_END_HYPHEN else (m.end(), 0) for m in _LINE_BREAK.finditer(text))
    for end, skip in [*breaks, (count, 1)]:
        if start >= count:
            break
        if text[start:end].strip():
            segment = _Segment(
                start,
                list(text[start:end]),
                boxes[start:end],
                glyphs[start:end],
                origins=origins[start:end],
                indices=list(range(start, end)),
            )
            if pairs and _SECOND_HALF in segment.chars:  # the place of a pair's second half, kept until now so the indices match
                keep = [k for k, char in enumerate(segment.chars) if char != _SECOND_HALF]
                segment = _Segment(
                    start,
                    [segment.chars[k] for k in keep],
                    [segment.boxes[k] for k in keep],
                    [segment.glyphs[k] for k in keep],
                    origins=[origins[start + k] for k in keep],
                    indices=[start + k for k in keep],
                )
            if segment.real() and segments:
                head = _tail_of_line_above(segments[-1], segment)
                if head:  # the end of the line above (a script) that PDFium put at the start of this one
                    _extend(segments[-1], _piece(segment, 0, head))
                    segment = _piece(segment, head, len(segment.chars))
            if segment.real():
                if segments and _same_line(segments[-1], segment):
                    _extend(segments[-1], segment)
                else:
                    segments.append(segment)
        start = end + skip
    segments = _without_line_numbers(segments)
    lines: list[Line] = []
    visible = 0
    reread: list[tuple[Line, _Segment, list[int]]] = []  # the lines whose pictures were sampled, not read in full
    for segment in segments:
        real = segment.real()
        visible += len(real)
        # the characters that are not white space: those with a box (`_char_geometry`, `_extend`)
        shown = list(itertools.compress(range(len(segment.boxes)), segment.boxes))
        size = segment.baseline()[0]
        plain = "".join(segment.chars)
        pieces = list(plain) if segment.flat() else script_pieces(plain, segment.glyphs, size)
        for k in _unspaced_gaps(segment, size):
            pieces[k - 1] += " "
        lefts, rights, bottoms, tops = zip(*real, strict=True)  # one pass over the boxes, the four extremes in C
        line = Line(
            page=index, text="".join(pieces), x0=min(lefts), x1=max(rights), top=max(tops), bottom=min(bottoms), size=round(size, 1)
        )
        # each character's font is read at its own index: a line joined from pieces has other indices than its first one's on
        at = segment.indices if segment.indices is not None else segment.start
        line.bold_prefix = _bold_prefix(handle, at, plain, font)
        line.spans = _cells(pieces, segment.boxes, size, vrules, real, (lefts, rights))
        line.cells = [span[0] for span in line.spans]
        # the font and its pitch: code listings are no tables, and no body text (two calls per line); the font's
        # name tells a heading's face from the body's at one size
        line.font, line.mono, line.listing = _font_of(handle, at, plain, origins, font, shown)
        line.pictures = _pictures(handle, segment, font, visible=shown)
        if len(shown) > 12:  # `_pictures` read only three of its characters
            reread.append((line, segment, shown))
        lines.append(line)
    if any(line.pictures for line in lines):  # a page that draws with a font: every character looked at
        for line, segment, shown in reread:
            line.pictures = _pictures(handle, segment, font, every=True, visible=shown)
    resolve_footnotes(lines)
    return lines, visible


_DIGITS = frozenset("0123456789")


def _margin_number(segment: _Segment) -> tuple[int, float, float, int, int] | None:
    """The number standing apart at the left of a line (value, x0, x1, first and last character), wherever
    PDFium put it in the line's characters (a producer may write it after the text of its line)."""
    visible = [k for k, box in enumerate(segment.boxes) if box is not None and box[1] > box[0]]
    if len(visible) < 2:
        return None
    left = min(visible, key=lambda k: segment.boxes[k][0])  # type: ignore[index]
    if segment.chars[left] not in _DIGITS:
        return None
    first = last = left
    while first > 0 and segment.chars[first - 1] in _DIGITS:
        first -= 1
    while last + 1 < len(segment.chars) and segment.chars[last + 1] in _DIGITS:
        last += 1
    if last - first > 4:
        return None
    x0, x1 = segment.boxes[first][0], segment.boxes[last][1]  # type: ignore[index]
    size = segment.baseline()[0]
    rest = [segment.boxes[k][0] for k in visible if not first <= k <= last]  # type: ignore[index]
    if not rest or min(rest) < x1 + 0.3 * size:
        return None  # the number runs on into the text: a numbered heading or list item, not a margin number
    return int("".join(segment.chars[first : last + 1])), x0, x1, first, last


def _without_line_numbers(segments: list[_Segment]) -> list[_Segment]:
    """Line numbers printed in the margin (drafts for review, the lineno package) are not text: when most lines
    of a page have a number standing apart at their left, one more than the line above's, set at one x,
    those numbers are dropped."""
    if len(segments) < 8:
        return segments

    def digit_at_an_end(segment: _Segment) -> bool:  # cheap: a margin number is among a line's first or last characters
        text = "".join(segment.chars).strip()
        return bool(text) and (text[0] in _DIGITS or text[-1] in _DIGITS)

    ends = [k for k, segment in enumerate(segments) if digit_at_an_end(segment)]
    if len(ends) < max(8, 0.5 * len(segments)):
        return segments
    candidates = [(k, found) for k in ends if (found := _margin_number(segments[k]))]
    if len(candidates) < max(8, 0.5 * len(segments)):
        return segments
    for edge in (2, 1):  # right-aligned numbers share their right edge, left-aligned ones their left edge
        groups: dict[int, list[tuple[int, tuple[int, float, float, int, int]]]] = {}
        for candidate in candidates:
            groups.setdefault(round(candidate[1][edge] / 3), []).append(candidate)
        column = max(groups.values(), key=len)
        column.sort(key=lambda c: -max(box[3] for box in segments[c[0]].real()))
        steps = sum(1 for a, b in itertools.pairwise(column) if 0 < b[1][0] - a[1][0] <= 3)  # a few lines may lack theirs
        numbers = {k for k, _ in column}
        text_left = min(
            (
                min(box[0] for box in segment.real())
                for k, segment in enumerate(segments)
                if k not in numbers and "".join(segment.chars).strip()[:1] not in _DIGITS  # lines opening with a number may be numbered too
            ),
            default=float("inf"),
        )
        rest_left = min(
            (
                min(box[0] for n, box in enumerate(segment.boxes) if box is not None and not found[3] <= n <= found[4])
                for k, found in column
                for segment in [segments[k]]
            ),
            default=float("inf"),
        )
        in_margin = max(found[2] for _, found in column) < min(text_left, rest_left) - 2  # left of every line's text
        if in_margin and len(column) >= max(8, 0.5 * len(segments)) and steps >= 0.8 * (len(column) - 1):
            # a member that does not continue the count on either side (a chapter number `8` standing apart
            # above a numbered listing that starts at 1) is not a line number
            fits = [
                (n > 0 and 0 < column[n][1][0] - column[n - 1][1][0] <= 3)
                or (n + 1 < len(column) and 0 < column[n + 1][1][0] - column[n][1][0] <= 3)
                for n in range(len(column))
            ]
            column = [member for member, fit in zip(column, fits, strict=True) if fit]
            cut = {k: (found[3], found[4]) for k, found in column}
            heights = [max(box[3] for box in segments[k].real()) for k, _ in column]  # top to bottom
            for k, segment in enumerate(segments):  # a number alone on its line at the same place (a blank line's)
                text = "".join(segment.chars).strip()
                real = segment.real()
                edge_x = real[-1][1] if edge == 2 else real[0][0]
                if k in cut or not text or not set(text) <= _DIGITS or abs(edge_x - column[0][1][edge]) > 3:
                    continue
                top = max(box[3] for box in real)
                above = [found[0] for (_, found), height in zip(column, heights, strict=True) if height > top]
                below = [found[0] for (_, found), height in zip(column, heights, strict=True) if height < top]
                if above and below and above[-1] < int(text) < below[0]:  # it fits the count between its neighbours
                    cut[k] = (0, len(segment.chars) - 1)
            result = []
            for k, segment in enumerate(segments):
                if k in cut:
                    first, last = cut[k]
                    while last + 1 < len(segment.chars) and segment.chars[last + 1].isspace():
                        last += 1
                    while first > 0 and segment.chars[first - 1].isspace():
                        first -= 1
                    keep = [n for n in range(len(segment.chars)) if not first <= n <= last]
                    start = segment.start + (last + 1 if first == 0 else 0)
                    indices = [segment.indices[n] for n in keep] if segment.indices is not None else None
                    segment = _Segment(
                        start,
                        [segment.chars[n] for n in keep],
                        [segment.boxes[n] for n in keep],
                        [segment.glyphs[n] for n in keep],
                        indices=indices,
                    )
                    if not segment.real():
                        continue
                result.append(segment)
            return result
    return segments


def _piece(segment: _Segment, start: int, end: int) -> _Segment:
    """The characters `start:end` of a segment as a segment of their own."""
    origins = segment.origins[start:end] if segment.origins is not None else None
    indices = segment.indices[start:end] if segment.indices is not None else None
    return _Segment(
        segment.start + start,
        segment.chars[start:end],
        segment.boxes[start:end],
        segment.glyphs[start:end],
        origins=origins,
        indices=indices,
    )


def _tail_of_line_above(previous: _Segment, segment: _Segment) -> int:
    """How many leading characters of a PDFium line belong to the line above: a run right of that line's end, near
    its baseline, after which the text jumps back to the left margin (a subscript at the end of a line, `E` +
    lowered `0,mean`, that PDFium counted to the next line); 0 when there is none."""
    boxes = segment.boxes
    first = visible[0] if (visible := segment.real()) else None
    right = max(box[1] for box in previous.real()[-3:])
    size, base = previous.baseline()
    if first is None or not -1.0 <= first[0] - right <= size:  # the line does not start right of the line above's end
        return 0
    real = [k for k, box in enumerate(boxes) if box is not None and box[1] > box[0]]
    if len(real) < 2:
        return 0
    jump = next((n for n in range(1, len(real)) if boxes[real[n]][0] < boxes[real[n - 1]][0] - 2 * size), 0)  # type: ignore[index]
    if not jump or jump > 12:
        return 0
    head = real[:jump]
    left = min(boxes[k][0] for k in head)  # type: ignore[index]
    heights = [segment.glyphs[k][1] for k in head if segment.glyphs[k] is not None]  # type: ignore[index]
    rest = [segment.glyphs[k][1] for k in real[jump:] if segment.glyphs[k] is not None]  # type: ignore[index]
    if not heights or not rest or not -1.0 <= left - right <= size:
        return 0
    height = sorted(heights)[len(heights) // 2]
    below = sorted(rest)[len(rest) // 2]
    if abs(height - base) < 0.6 * size and abs(height - base) < abs(height - below):
        return real[jump]
    return 0


def _unspaced_gaps(segment: _Segment, size: float) -> list[int]:
    """Where a word space is printed without a space character: the next character's advance starts more than
    0.28 em after the ink of the one before (inside a word the side bearings leave under 0.2 em). Ghostscript's
    PDFs of groff's PostScript have such spaces after a change of font (`γ = 9,8`, `A_ef darf`), where PDFium,
    measuring with the other font, adds none."""
    origins = segment.origins
    if not origins or size <= 0:
        return []
    boxes, glyphs = segment.boxes, segment.glyphs
    wide = 0.28 * size
    # after a character with an origin and a box, its ink's right edge; after a space (no origin), no gap counts
    return [
        k
        for k, origin, previous, box in zip(itertools.count(1), origins[1:], origins, boxes, strict=False)
        if origin is not None
        and previous is not None
        and box is not None
        and origin - box[1] > wide
        and (glyph := glyphs[k])
        and (before := glyphs[k - 1])
        and abs(glyph[1] - before[1]) < 0.6 * size
        and origin > box[0]  # on the line
    ]


def _same_line(previous: _Segment, following: _Segment) -> bool:
    """Whether PDFium cut one printed line in two: the next piece goes on to the right on the same baseline
    (a word set as its own text object), or is a smaller raised or lowered piece right after it (`m` `2`)."""
    right = max(box[1] for box in previous.real()[-3:])  # the line's last characters
    left = min(box[0] for box in following.real()[:3])
    size, base = previous.baseline()
    next_size, next_base = following.baseline()
    # a script may be tucked under or over the last letter's box (groff kerns `γ` + lowered `M`): it still follows it
    tucked = next_size < 0.85 * size and previous.real()[-1][0] < left and -0.4 * size <= left - right
    if not (-1.0 <= left - right <= 12.0 or tucked):
        return False
    if abs(next_base - base) < 0.15 * size:  # on the same baseline: a word space as wide as justification makes it (not a gutter)
        return left - right <= 0.8 * max(size, next_size)
    if left - right > max(size, next_size) * 0.6:
        return False
    lift = 0.25 * next_size if size >= 0.85 * next_size else 0.0  # a mark at the text's size must be clearly raised
    if size <= next_size + 0.1 and len(previous.real()) <= 3 and lift < base - next_base < next_size:
        return True  # a raised mark set apart before its text (a footnote's own number, FOP's list label)
    # the baseline of the letter it follows: the cells of a table row that PDFium joins may sit on baselines of their own
    letter = next((glyph for glyph in reversed(previous.glyphs) if glyph is not None), None)
    own = letter[1] if letter is not None and letter[0] >= 0.9 * size and next_size < 0.95 * size else base  # a script set smaller
    if len(following.real()) <= 6 and left - right < 0.3 * size and any(0.25 * size < abs(next_base - b) < 0.6 * size for b in {base, own}):
        return True  # a script at the text's size, only moved off the baseline (WeasyPrint)
    return next_size < 0.85 * size and -size < next_base - base < size  # a script run, or text after one


def _extend(segment: _Segment, following: _Segment) -> None:
    """Join two pieces of one printed line (a space between them when the gap is one)."""
    right = max(box[1] for box in segment.real()[-3:])
    left = min(box[0] for box in following.real()[:3])
    size, base = segment.baseline()
    if following.baseline()[0] < 0.85 * size and abs(following.baseline()[1] - base) >= 0.1 * size:
        segment.text = (size, base)  # a script joined to its text
    last = next((glyph for glyph in reversed(segment.glyphs) if glyph is not None), None)
    # a script's box is narrower than its advance (a digit's side bearings): after one, only a wider gap is a space
    space = 0.25 * size if last is not None and last[0] < 0.85 * size else 0.15 * size
    if left - right > space and following.chars[0] not in " .,)]" and segment.chars[-1] != " ":  # no space before closing marks
        segment.chars.append(" ")
        segment.boxes.append(None)
        segment.glyphs.append(None)
        if segment.origins is not None:
            segment.origins.append(None)
        if segment.indices is not None:
            segment.indices.append(-1)
    segment.chars.extend(following.chars)
    segment.boxes.extend(following.boxes)
    segment.glyphs.extend(following.glyphs)
    if segment.origins is not None:
        segment.origins.extend(following.origins or [None] * len(following.chars))
    if segment.indices is not None:
        segment.indices.extend(following.indices or [-1] * len(following.chars))
    segment._real = segment._baseline = None


# -- superscripts, subscripts, footnote marks --------------------------------------------------

_SUPERSCRIPT = dict(zip("0123456789+-−=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ", strict=True))
_SUBSCRIPT = dict(zip("0123456789+-−=()aeoxhklmnpstiruvj", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₒₓₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ", strict=True))
_MARK_SYMBOLS = "*†‡§¶"
_PRIMES = {"′": "′", "″": "″", "‴": "‴", "'": "′", "’": "′"}
FOOTNOTE_REF = re.compile("\ue000([^\ue001]+)\ue001")  # a raised mark after a word: a footnote when its note is on the page
FOOTNOTE_DEF = re.compile("^\\s*\ue002([^\ue001]+)\ue001\\s*")  # a raised mark opening a line: the note itself
# a raised number after a word of three letters (`fee⁴`): a footnote only when a note of its number that no other mark
# cites is on its page, or on the page before or after it (a sentence run over the page); else a superscript (`sin²`)
WEAK_REF = re.compile("\ue003([^\ue001]+)\ue001")
_WEAK_GAP = re.compile(" ?" + WEAK_REF.pattern)  # with the gap left before it: no space of the text when it is a note's
_MODIFIERS = ("Sk", "Lm")  # the Unicode categories of spacing accents and modifier letters


def script_pieces(segment: str, glyphs: list[tuple[float, float] | None], size: float) -> list[str]:
    """The line's characters, with raised and lowered runs of smaller characters written as such:
    `10⁹`, `m²`, `x₁` where Unicode has the characters, else `^{…}` / `_{…}`. A raised number after a
    word or at the start of a line is left as a footnote mark for `resolve_footnotes` to decide."""
    pieces = list(segment)
    if size <= 0:
        return pieces
    present = list(filter(None, glyphs))  # a glyph is a pair or None
    if not present:
        return pieces
    full, quarter = 0.9 * size, 0.25 * size
    sizes, heights = zip(*present, strict=True)
    if min(sizes) >= full:  # one size: the scripts, if any, are only moved
        if max(heights) - min(heights) < quarter:
            return pieces  # one size on one baseline: no script (most lines)
        baselines = sorted(heights)
    else:
        baselines = sorted([glyph[1] for glyph in present if glyph[0] >= full])
        if not baselines:
            return pieces
    baseline = baselines[len(baselines) // 2]
    shifts = _shifts(segment, glyphs, baseline, size, _moved_runs(segment, glyphs, present, baseline, size))
    if shifts:
        _write_scripts(segment, pieces, shifts)
    return pieces


def _moved_runs(
    segment: str, glyphs: list[tuple[float, float] | None], present: list[tuple[float, float]], baseline: float, size: float
) -> dict[int, float]:
    """The characters of short runs set at the text's size but off its baseline (scripts a producer only moves),
    each with the baseline it is measured from; `present`: the glyphs that are not None."""
    full, big, quarter = 0.9 * size, 0.85 * size, 0.25 * size
    count = len(segment)
    # runs of at most six characters at the text's size but off the baseline of the character before them (or
    # opening the line): scripts that a producer moves without making them smaller; each with the baseline it
    # leaves (a cell of a table row may sit a little higher than the next)
    short: dict[int, float] = {}
    level = [glyph[1] for glyph in present if glyph[0] >= big]
    # all characters at the text's size within a quarter em of each other (most lines with scripts): each is on the
    # baseline and on the one of the letter before it, so none is moved
    k = count if not level or max(level) - min(level) < quarter else 0
    while k < count:
        glyph = glyphs[k]
        if glyph is None or glyph[0] < big:  # a smaller character is a script of another kind (below), never a moved one
            k += 1
            continue
        at = k - 1
        if at > 0 and glyphs[at] is None and segment[at] == " ":
            at -= 1  # a space PDFium adds for the gap before a moved script (WeasyPrint's `<sup>`)
        previous = glyphs[at] if at >= 0 else None
        if abs(glyph[1] - baseline) < quarter and (previous is None or previous[0] < full or abs(glyph[1] - previous[1]) < quarter):
            k += 1  # on the baseline, and on the one of a letter before it if there is one: not moved, accent or not
            continue
        # the baseline of a letter at the text's size right before it, if there is one (a spacing accent, `ˆ`
        # set over the next letter, sits where that letter's accent goes: no baseline, and no script either)
        letter = (
            previous[1] if previous is not None and previous[0] >= full and unicodedata.category(segment[at]) not in _MODIFIERS else None
        )
        height = glyph[1]
        if letter is None:
            reference = baseline
            on_level = abs(height - baseline) < quarter
        else:
            reference = letter if abs(letter - baseline) < quarter else baseline
            on_level = abs(height - reference) < quarter and abs(height - letter) < quarter
        if on_level or unicodedata.category(segment[k]) in _MODIFIERS:  # on its letter's baseline (most characters), or an accent
            k += 1
            continue
        end = k
        while end + 1 < count and (following := glyphs[end + 1]) is not None and abs(following[1] - glyph[1]) < 0.05 * size:
            end += 1
        after = next((other for other in glyphs[end + 1 :] if other is not None), None)
        if letter is not None and after is not None and after[0] >= full and abs(after[1] - letter) < 0.05 * size:
            reference = letter  # the text goes on on its letter's baseline after it: a cell of a row on a baseline of its own
        if abs(glyph[1] - reference) < quarter:
            k += 1
            continue
        opening = not segment[:k].strip() and glyph[1] > reference  # a raised mark opening the line (a note's number)
        # the text goes back to the baseline after a script (or ends, or a script the other way follows): a run that
        # leads on to text elsewhere is a cell of its own
        returns = (
            after is None
            or after[0] < big  # a smaller script follows (`L` + `e` over a lowered `T`)
            or abs(after[1] - reference) < 0.1 * size
            or ((after[1] - reference) * (glyph[1] - reference) < 0 and abs(after[1] - reference) >= quarter)
        )
        if end - k < 6 and returns and ((previous is not None and abs(previous[1] - reference) < 0.1 * size) or opening):
            short.update(dict.fromkeys(range(k, end + 1), reference))
        k = end + 1
    return short


def _shifts(
    segment: str, glyphs: list[tuple[float, float] | None], baseline: float, size: float, short: dict[int, float]
) -> dict[int, int]:
    """Each scripted character's shift: the moved ones of `short` and the smaller ones, by how far they leave the baseline."""
    big, quarter = 0.85 * size, 0.25 * size
    count = len(segment)
    # each character's shift, where it has one: 1 raised, 2 barely raised (a superscript in a short run only), -1 lowered
    shifts: dict[int, int] = {}
    for k, reference in short.items():
        glyph = glyphs[k]
        if glyph is None or glyph[0] < big:  # a smaller character the run took in is read as one (below)
            continue
        # a script set at the text's size and only moved by a third of an em (WeasyPrint's `<sup>`, `<sub>`)
        rise = glyph[1] - reference
        shift = 1 if quarter < rise < 0.6 * size else (-1 if -0.6 * size < rise < -quarter else 0)
        if shift:
            shifts[k] = shift
    for k, small in [(k, glyph) for k, glyph in enumerate(glyphs[:count]) if glyph is not None and glyph[0] < big]:
        rise = small[1] - baseline
        # a run set much smaller (an office suite's script font, 58 %) is a subscript when lowered at all (LibreOffice
        # lowers it by a twelfth); a run barely smaller (small capitals) must drop clearly below the baseline
        if 0.2 * size < rise < size:
            shifts[k] = 1
        # raised less than a fifth of an em, it is still a superscript when its top clears the top of the line's
        # letters (a cap height of 0.7 em: Qt raises a `<sup>` one size smaller by only 0.16 em), for a short run
        # only (below); small capitals and a smaller cell beside a larger one stay on, or near, the baseline
        elif max(0.1 * size, 0.7 * (size - small[0])) < rise < size:
            shifts[k] = 2
        elif -size < rise < (-0.05 * size if small[0] < 0.7 * size else -0.1 * size):
            shifts[k] = -1
    return shifts


def _write_scripts(segment: str, pieces: list[str], shifts: dict[int, int]) -> None:
    """Write each run of `shifts` into `pieces`: a prime on its letter, a footnote mark (or a mark the page's notes
    decide) in its private-use brackets, else the script in Unicode or as `^{…}` / `_{…}`."""
    kinds = {k: min(shift, 1) for k, shift in shifts.items()}

    k = 0
    for start in sorted(kinds):
        if start < k:
            continue  # inside the run written last
        k = end = start
        kind = kinds[k]
        while kinds.get(end + 1) == kind:
            end += 1
        if kind == 1 and end - k >= 6 and all(shifts[j] == 2 for j in range(k, end + 1)):
            k = end + 1  # a long run barely raised is a piece of smaller text on its own baseline, not a script
            continue
        run = segment[k : end + 1]
        before = segment[:k].rstrip(" ") if kind == 1 else segment[:k]
        word = re.search(r"[^\W\d_]+$", before)
        core = run[1:-1] if re.fullmatch(r"\[\d{1,3}\]", run) else run  # `[1]`: a mark in brackets (asciidoctor-pdf)
        numbered = note_number(core) is not None  # `5`, or `iv` (Word and LibreOffice number endnotes so)
        if kind == 1 and all(c in _PRIMES for c in run):  # Y′: a prime belongs to its letter, raised or not
            pieces[k] = "".join(_PRIMES[c] for c in run)
            back = k - 1
            while back >= 0 and segment[back] == " ":
                pieces[back] = ""
                back -= 1
        elif kind == 1 and (numbered or run in _MARK_SYMBOLS) and not before:
            pieces[k] = f"\ue002{run}\ue001"
        elif (
            kind == 1
            and (numbered or run in _MARK_SYMBOLS)
            and (before == segment[:k] or (word and len(word.group(0)) >= 4 and len(segment[:k]) - len(before) == 1))
            # after a word of four letters, after punctuation, or after the tail of a word broken at the line above (`se³`)
            and ((word and (len(word.group(0)) >= 4 or (word.start() == 0 and len(word.group(0)) >= 2))) or before[-1:] in ".,;:)”’\"'")
        ):
            pieces[k] = f"\ue000{run}\ue001"
            if before != segment[:k]:  # a gap the producer left before the mark (LibreOffice) is no space of the text
                pieces[k - 1] = ""
        elif (
            kind == 1
            and run.isdecimal()
            and len(run) <= 3
            and (
                (word and len(word.group(0)) in (2, 3) and before == segment[:k])
                or (
                    len(segment[:k]) - len(before) <= 1
                    and (before[-1:] in ".,;:)]}”’" or "".join(pieces[:k]).rstrip(" ").endswith("\ue001"))
                )
            )
        ):
            # `fee⁴` or `sin²`, `Ghost. ¹²` (a gap before the mark, kept unless it is a note's), `{}³`, a second mark
            # after a first: the page's notes decide (`resolve_footnotes`)
            pieces[k] = f"\ue003{run}\ue001"
        elif kind == -1 and not before.strip():
            k = end + 1  # a lowered run opening the line has no letter to hang from: text set low (`2.1` before a title)
            continue
        else:
            table = _SUPERSCRIPT if kind == 1 else _SUBSCRIPT
            mark = "^" if kind == 1 else "_"
            pieces[k] = "".join(table[c] for c in run) if all(c in table for c in run) else f"{mark}{{{run}}}"
        for rest in range(k + 1, end + 1):
            pieces[rest] = ""
        k = end + 1


def _raised(mark: str) -> str:
    return "".join(_SUPERSCRIPT[c] for c in mark) if all(c in _SUPERSCRIPT for c in mark) else f"^{{{mark}}}"


def note_number(label: str) -> int | None:
    """The number of a note's label: `5`, or a small lower-case roman numeral (`iv`), else None."""
    if label.isdecimal() and len(label) <= 3:
        return int(label)
    return roman_value(label) if label.islower() and len(label) <= 5 else None


def _label(mark: str) -> str:
    """A mark's footnote label: `[1]` is note 1."""
    return mark[1:-1] if mark.startswith("[") and mark.endswith("]") else mark


def _notes_on(lines: list[Line]) -> dict[str, Line]:
    """The lines that open with a raised mark (a note's own line), by the mark's label."""
    return {_label(match.group(1)): line for line in lines if (match := FOOTNOTE_DEF.match(line.text))}


_SPACE_AFTER_MARK = re.compile(r"(\[\^[^\]\s]+\]) (?=[.,)])")
_PLAIN_NOTE = re.compile(r"^(\d{1,3})[.)]?(\s+)(?=\S)")  # `1 Note`, `1. Note` (babel-french), `1) Note`
_ENDNOTE = re.compile(r"^\[?(\d{1,3}|[ivx]{1,5})(?:\]|[.)])?(\s+)(?=\S)")  # also `[1] Note` (asciidoctor-pdf), `iv Note` (Word)


def _plain_notes(lines: list[Line], referenced: set[str]) -> None:
    """A note whose number is not raised (LibreOffice sets it at the note's own size): a line at the foot of the
    page, smaller than the text that cites it and below it, opening with a number cited as a raised mark on
    the page, with only lines as small under it. Its number is marked as a raised one for the rule below."""
    raised = set(_notes_on(lines))
    wanted = referenced - raised
    if not wanted:
        return
    citing = [(line, {_label(mark) for mark in FOOTNOTE_REF.findall(line.text)}) for line in lines if "\ue000" in line.text]
    for line in lines:
        match = _PLAIN_NOTE.match(line.text)
        if not match or match.group(1) not in wanted:
            continue
        cites = [other for other, marks in citing if match.group(1) in marks and other.top > line.top and other.size > line.size + 0.5]
        below = [other for other in lines if other.top < line.top]
        if cites and all(other.size <= line.size + 0.3 for other in below):
            _as_note(line, match.group(1), match.end())
            wanted.discard(match.group(1))


def _as_note(line: Line, label: str, cut: int) -> None:
    """Mark the line as note `label`, its number (the first `cut` characters) replaced by a raised mark."""
    line.text = f"\ue002{label}\ue001 " + line.text[cut:]
    if line.spans:
        first = line.spans[0]
        match = _ENDNOTE.match(first[0])
        text = f"\ue002{label}\ue001 " + first[0][match.end() :] if match else f"\ue002{first[0]}\ue001"
        line.spans[0] = (text, first[1], first[2])


def resolve_footnotes(lines: list[Line]) -> None:
    """Footnote marks become Markdown footnotes (`word[^5]`, and `[^5]: …` for the note) when the page
    has both the mark and its note; the others are left for `resolve_endnotes` to decide."""
    if not any("\ue000" in line.text or "\ue002" in line.text for line in lines):
        return  # no mark on the page (most pages): nothing to resolve
    referenced = {_label(mark) for line in lines for mark in FOOTNOTE_REF.findall(line.text)}
    _plain_notes(lines, referenced)
    notes = _notes_on(lines)
    cites = _weak_cites(lines, notes, referenced)
    weak_notes = {id(notes[label]) for _, label in cites}
    defined = set(notes)
    _settle(
        lines,
        lambda line, mark: _label(mark) in referenced & defined or id(line) in weak_notes,
        final=False,
        weak=lambda line, mark: (id(line), mark) in cites,
    )


def _weak_cites(lines: list[Line], notes: dict[str, Line], cited: set[str]) -> set[tuple[int, str]]:
    """The weak marks (`WEAK_REF`) of `lines` that cite one of `notes` (label: the note's line) that no mark in `cited`
    does: the only weak mark of its number there, on a line set larger than the note; as (id of the citing line, label)."""
    found: dict[str, list[Line]] = {}
    for line in lines:
        for mark in WEAK_REF.findall(line.text):
            found.setdefault(mark, []).append(line)
    return {
        (id(citing[0]), label)
        for label, citing in found.items()
        if label in notes and label not in cited and len(citing) == 1 and citing[0].size > notes[label].size + 0.5
    }


def _settle(lines: list[Line], resolved, final: bool, weak=None) -> None:
    """Write the marks `resolved(line, mark)` accepts as Markdown footnotes, and the weak ones `weak` accepts (by
    default `resolved`); with `final`, the others as superscripts (else they stay marks, for the document's endnotes)."""
    weak = weak or resolved

    def fix(line: Line, text: str) -> str:
        if "\ue000" not in text and "\ue002" not in text and "\ue003" not in text:
            return text

        def write(match: re.Match, note: bool, accept=resolved) -> str:
            mark = match.group(1)
            if accept(line, mark):
                return f"[^{_label(mark)}]: " if note else f"[^{_label(mark)}]"
            return _raised(mark) if final else match.group(0)

        text = FOOTNOTE_DEF.sub(lambda m: write(m, True), text)
        text = FOOTNOTE_REF.sub(lambda m: write(m, False), text)

        def weak_mark(match: re.Match) -> str:
            gap, mark = match.group(0)[: match.start(1) - match.start(0) - 1], match.group(1)
            return gap + _raised(mark) if final and not weak(line, mark) else write(match, False, weak)

        text = _WEAK_GAP.sub(weak_mark, text)
        return _SPACE_AFTER_MARK.sub(r"\1", text)  # `werden[^1] .`: the gap a producer leaves after its mark is no space

    for line in lines:
        if "\ue000" not in line.text and "\ue002" not in line.text and "\ue003" not in line.text:
            continue
        line.text = fix(line, line.text)
        line.spans = [(fix(line, span[0]), span[1], span[2]) for span in line.spans]
        line.cells = [span[0] for span in line.spans]


def _over_the_page(pages: list[Page]) -> set[tuple[int, str]]:
    """Notes at the foot of a page whose mark is on the page before or after it (LaTeX sets a note where the line
    that cites it was when the page was cut; a sentence may run over the break): each note whose number no mark of
    its page cites, paired with the one mark of that number on the pages beside it; as (id of the line, label)."""

    def marks(page: Page) -> dict[str, list[Line]]:
        found: dict[str, list[Line]] = {}
        for line in page.lines:
            for mark in [*FOOTNOTE_REF.findall(line.text), *WEAK_REF.findall(line.text)]:
                found.setdefault(_label(mark), []).append(line)
        return found

    cites = [marks(page) for page in pages]
    taken: set[tuple[int, str]] = set()
    for at, page in enumerate(pages):
        notes = _notes_on(page.lines)
        for label, note in notes.items():
            if label in cites[at]:
                continue
            beside = [line for near in (at - 1, at + 1) if 0 <= near < len(pages) for line in cites[near].get(label, [])]
            if len(beside) == 1 and beside[0].size > note.size + 0.5:
                taken.update({(id(note), label), (id(beside[0]), label)})
    return taken


def resolve_endnotes(pages: list[Page], body_size: float) -> None:
    """Marks whose note is not on their page are endnotes when a later line opens with their number, raised or
    set smaller than the text (`[3] Valid for …` at the end of the document or chapter, as asciidoctor-pdf, Word
    and LibreOffice print endnotes): such a note is the first mark still waiting, a first note or the one
    after the last note taken, so a numbered list further on is no note. A note whose mark is on the page before
    or after it is a footnote still. The other marks are written as superscripts."""
    lines = [line for page in pages for line in page.lines]
    taken = _over_the_page(pages)  # (id of the citing or note line, label)
    waiting: list[tuple[Line, str]] = []  # marks met so far whose note is not found yet, in reading order
    last: int | None = None
    for line in lines:
        raised = FOOTNOTE_DEF.match(line.text)
        plain = None if raised else _ENDNOTE.match(line.text)
        label = _label(raised.group(1)) if raised else plain.group(1) if plain and line.size < body_size - 0.5 else None
        if label is not None and (id(line), label) in taken:
            label = None  # a footnote over the page (above)
        number = note_number(label) if label is not None else None
        # the next note: the first mark waiting, the one after the last note taken, or a first note (notes
        # numbered again from 1 in each chapter; a mark that never found its note waits before it)
        in_turn = bool(waiting) and (label == waiting[0][1] or number == 1 or (last is not None and number == last + 1))
        citing = next((item for item in waiting if item[1] == label), None) if in_turn else None
        if citing is not None and (raised or citing[0].size > line.size + 0.5):
            waiting.remove(citing)
            taken.update({(id(citing[0]), citing[1]), (id(line), citing[1])})
            if plain:
                _as_note(line, citing[1], plain.end())
            last = number
        waiting.extend((line, mark) for mark in map(_label, FOOTNOTE_REF.findall(line.text)) if (id(line), mark) not in taken)
    _settle(lines, lambda line, mark: (id(line), _label(mark)) in taken, final=True)


def _indices(start: int | Sequence[int], segment: str) -> Sequence[int]:
    """PDFium's index of each character of a line: `start` on, or as given (`_Segment.indices`: a line joined from
    pieces skips the line breaks between them and has spaces of its own, -1)."""
    return range(start, start + len(segment)) if isinstance(start, int) else start


def _bold_prefix(handle, start: int | Sequence[int], segment: str, font: _FontName | None = None) -> int:
    """Where the line's leading bold run ends (0: none); the run may follow a plain clause number (`1.1. **Title.**`).
    `start`: the index of the line's first character, or of each character (`_indices`)."""
    indices = _indices(start, segment)
    font = font.fresh() if font is not None else _FontName()
    weight_of = _text_calls().weight
    end = 0
    in_run = False
    for offset, char in enumerate(segment[:160]):
        if char.isspace():
            continue
        name = font.read(handle, indices[offset])
        # the weight is asked for only where it can change the answer (most fonts' names decide: `Helvetica`, `CMBX12`)
        bold = _bold_font(name, _weighed(name) and weight_of(handle, indices[offset]) >= 540)
        if bold:
            in_run = True
            end = offset + 1
        elif in_run or not (char.isdigit() or char == "." or (offset == 0 and char.isupper())) or offset > 16:
            break
    return end


@functools.lru_cache(maxsize=512)
def _weighed(name: str) -> bool:
    """Whether PDFium's weight of a font can change whether `_bold_font` calls it bold (its name alone decides most)."""
    return _bold_font(name, True) != _bold_font(name, False)


def bold_face(font: str) -> bool:
    """Whether a font's name says it is a bold face (`Line.font`: `NimbusSanL-Bold`, `CMBX10`)."""
    return _bold_font(font, False)


@functools.lru_cache(maxsize=512)
def _bold_font(name: str, heavy: bool) -> bool:
    """Whether a font is bold, from its name and whether PDFium reads its weight as heavy (a document has few fonts)."""
    if heavy:  # a font named for a regular weight is regular whatever weight PDFium reads (Ghostscript's Times-Roman: 695)
        return not _REGULAR_NAME.search(name) or bool(_BOLD_NAME.search(name))
    return bool(_BOLD_NAME.search(name))  # weights are not always set (FreeMonoBold says 500): the font name decides


def _pictures(handle, segment: _Segment, font: _FontName, every: bool = False, visible: list[int] | None = None) -> float:
    """The share of a line's characters that are pictures, not text: glyphs of a font made to draw music notation
    or diagrams (`_PICTURE_NAME`), whose notes and pieces PDFium reads as the letters and digits of their codes
    (`G` for a clef, `r` for a chord diagram's dot). Every character of a short line is looked at (one call each),
    the first, middle and last of a longer one unless `every` (the page has pictures: a text line with one picture
    in it is not a third pictures). Control codes are no sign: math fonts' large brackets read as them. `visible`: the
    offsets of the characters that are not white space, when the caller has them."""
    indices = segment.indices
    if indices is None:
        return 0.0
    if visible is None:
        visible = [k for k, char in enumerate(segment.chars) if not char.isspace()]
    if -1 in indices:  # spaces put between joined pieces: no character of PDFium's
        visible = [k for k in visible if indices[k] >= 0]
    if not visible:
        return 0.0
    sample = visible if every or len(visible) <= 12 else [visible[0], visible[len(visible) // 2], visible[-1]]
    font.fresh()
    return sum(1 for k in sample if _picture_font(font.read(handle, indices[k]))) / len(sample)


# fonts that draw: music notation (MusiXTeX and its slurs, LilyPond's Emmentaler and Feta, the SMuFL fonts and
# MuseScore's, Gregorian neumes) and the pieces of diagrams (LaTeX's picture-mode circles and lines, XY-pic's tips)
_PICTURE_NAME = re.compile(
    r"musix|texxsl|(?:^|\+)(?:xsl[a-z]*|xgreg)\d|emmentaler|(?:^|\+)(?:feta|parmesan)(?:\d|-)|lilyjazz|bravura|petaluma|leland|sebastian|"
    r"gonville|gootville|musejazz|mscore|pmw-music|maestro|sonata|petrucci|greciliae|gregall|grelaon|gresgmodern|granapadano|"
    r"(?:^|\+)(?:lcirclew?|linew?)\d|(?:^|\+)xy[a-z]{3,5}\d",
    re.I,
)


@functools.lru_cache(maxsize=512)
def _picture_font(name: str) -> bool:
    """Whether a font draws pictures (music, diagram pieces) rather than sets text, from its name (a document has few fonts)."""
    return bool(_PICTURE_NAME.search(name))


_FIXED_NAME = re.compile(r"mono|courier|typewriter|consol|cmtt|code|fixed", re.I)


def _font_of(
    handle,
    start: int | Sequence[int],
    segment: str,
    origins: list[float | None],
    font: _FontName | None = None,
    visible: list[int] | None = None,
) -> tuple[str, bool, bool]:
    """The font most of a line is set in, without the subset tag (of three characters read, at a sixth, the middle and
    five sixths of the line, the middle one's unless the other two agree: a command named in a sentence does not
    make the sentence code); whether the line is set in a fixed-pitch font: its middle and last letters are (widths,
    flag or name; a line number or a bullet before it may be in another font), or its letters advance evenly; and
    whether its font says so at five sixths too (`Line.listing`: a formula naming a typewriter identifier is not).
    `start`: the index of the line's first character, or of each character (`_indices`); `visible`: the offsets of
    the characters that are not white space, when the caller has them."""
    if visible is None:
        visible = [offset for offset, char in enumerate(segment) if not char.isspace()]
    if not visible:
        return "", False, False
    indices = _indices(start, segment)
    middle = visible[len(visible) // 2]
    font = font.fresh() if font is not None else _FontName()
    name = font.read(handle, indices[middle])
    typed = font.fixed(handle, indices[middle], name)
    last = visible[-1]
    if typed and last != middle:
        other = font.fresh().read(handle, indices[last])
        typed = font.fixed(handle, indices[last], other)
    fixed = typed or _even_advances(handle, indices, segment, origins)
    if len(visible) >= 6:
        early = font.fresh().read(handle, indices[visible[len(visible) // 6]])
        if early != name or typed:
            late = font.fresh().read(handle, indices[visible[len(visible) * 5 // 6]])
            typed = typed and font.fixed(handle, indices[visible[len(visible) * 5 // 6]], late)
            name = early if early != name and early == late else name
    return base_font(name), fixed, typed


def base_font(name: str) -> str:
    """A font's name without the six-letter subset tag a producer puts before it (`ABCDEF+CMR10`: `CMR10`), so the
    subsets of one font embedded on different pages have one name."""
    return name[7:] if len(name) > 7 and name[6] == "+" and name[:6].isupper() and name[:6].isalpha() else name


@functools.lru_cache(maxsize=512)
def _fixed_name(name: str) -> bool:
    """Whether a font's name says it is a fixed-pitch one (a document has few fonts)."""
    return bool(_FIXED_NAME.search(name))


def _even_advances(handle, start: int | Sequence[int], segment: str, origins: Sequence[float | None] = ()) -> bool:
    """Whether the letters of a line advance by one width, whatever the font calls itself (a typewriter font
    named `SFTT0900` without the fixed-pitch flag): eight pairs of letters or more, of five different letters,
    their origins as far apart within 3 %. The origins come from the page's geometry (`origins`, by PDFium's
    index), read once for every character, so this check costs no call into PDFium. `start`: the index of the line's
    first character, or of each character (`_indices`)."""
    indices = _indices(start, segment)
    known = len(origins)
    last_x = 0.0  # the x PDFium gave last (a failed call leaves its buffer as it was)
    count = 0
    low, high = float("inf"), 0.0
    letters: set[str] = set()
    previous: float | None = None
    for offset, char in enumerate(segment):
        if not char.isalpha():
            previous = None
            continue
        index = indices[offset]
        at = origins[index] if 0 <= index < known else None
        if at is None:  # not read with the page's geometry (white space there): ask PDFium (a failed call keeps x)
            import pypdfium2.raw as raw

            x, y = ctypes.c_double(last_x), ctypes.c_double()
            raw.FPDFText_GetCharOrigin(handle, index, x, y)
            at = x.value
        last_x = at
        if previous is not None and at > previous:
            step = at - previous
            low, high = min(low, step), max(high, step)
            if high > 1.03 * low:
                return False  # uneven once is uneven for good: most lines stop after a few letters
            count += 1
            letters.add(segment[offset - 1])
        previous = at
    return count >= 8 and len(letters) >= 5


def _cells(
    segment: str | list[str],
    boxes: list[tuple[float, float, float, float] | None],
    size: float,
    vrules: list[tuple[float, float, float]] | None = None,
    real: list[tuple[float, float, float, float]] | None = None,
    edges: tuple[Sequence[float], Sequence[float]] | None = None,
) -> list[tuple[str, float, float]]:
    """The line cut where the gap between two characters is wider than the font size (table cells, or two
    columns), or where a vertical rule runs between them (a ruled table whose text leaves no gap). `real`:
    the visible boxes among `boxes`, and `edges` their left and right edges, when the caller has them already."""
    cells: list[tuple[str, float, float]] = []
    current: list[str] = []
    start: float | None = None
    end: float | None = None
    gap = max(size, 4.0) * 1.2
    walls: list[float] = []  # the x of the vertical rules crossing this line, left to right
    if vrules and real is None:  # without rules on the page no line needs its visible boxes here
        real = [box for box in boxes if box is not None and box[1] > box[0]]
    if vrules and real:
        middle = sorted((box[2] + box[3]) / 2 for box in real)[len(real) // 2]
        walls = sorted(x for x, y0, y1 in vrules if y0 - 1 <= middle <= y1 + 1)
    if not walls:  # most lines: no rule to cross, so only a wide gap or a step back left of the cell's start cuts
        if real and len(segment) == len(boxes):
            lefts, rights = edges if edges is not None else list(zip(*real, strict=True))[:2]
            if min(rights) >= lefts[0] and max(map(operator.sub, lefts[1:], rights[:-1]), default=0.0) <= gap:
                text = "".join(segment[: len(boxes)]).strip()  # no cut (most lines): one cell, computed in C
                return [(text, lefts[0], rights[-1])] if text else []
        begin = 0  # where the current cell's text starts in `segment`
        for k, box in enumerate(boxes[: len(segment)]):
            if box is None or box[1] <= box[0]:
                continue
            if (
                start is not None
                and end is not None
                and (box[0] - end > gap or box[1] < start)
                and (text := "".join(segment[begin:k]).strip())
            ):
                cells.append((text, start, end))
                begin, start = k, None
            start = box[0] if start is None else start
            end = box[1]
        text = "".join(segment[begin : len(boxes)]).strip()
        return [*cells, (text, start, end)] if text and start is not None and end is not None else cells
    wall = 0
    previous_middle = float("-inf")
    ruled = False  # a rule was crossed since the last cut: cut at the next space (text that overflows its cell ends its word)
    for char, box in zip(segment, boxes, strict=False):
        if box is not None and box[1] > box[0]:
            centre = (box[0] + box[1]) / 2
            while wall < len(walls) and walls[wall] <= centre:  # a rule between the last character's centre and this one's
                ruled = ruled or (walls[wall] > previous_middle and start is not None)  # not a frame left of the first character
                wall += 1
            previous_middle = centre
            spaced = end is not None and (box[0] - end > 0.25 * size or not current or current[-1].isspace())
            back = start is not None and box[1] < start  # PDFium put text further left on this line: a cell of its own
            if start is not None and end is not None and (box[0] - end > gap or (ruled and spaced) or back) and "".join(current).strip():
                cells.append(("".join(current).strip(), start, end))
                current = []
                start = None
                ruled = False
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
    """Printed page numbers from the number-only lines at the page edges, when the PDF has no page labels; failing
    those, from a number ending or opening a running header or footer (`Introduction 3`, `12 Chapter title`)."""
    offsets: Counter[int] = Counter()
    carried: Counter[int] = Counter()  # the offsets of the numbers at the ends of edge lines that hold text too
    for page in pages:
        edges = _edge_lines(page)
        outermost = (
            {id(line) for line in (max(edges, key=lambda line: line.top), min(edges, key=lambda line: line.top))} if edges else set()
        )
        for line in edges:
            text = line.text.strip()
            if text.isdecimal():  # not isdigit(): `10¹` at a page edge is a digit to it, not to int()
                offsets[int(text) - page.index] += 1
                continue
            # the number set apart from the header's words by a wide gap, a cell of its own (a clause's number is not)
            cells = [cell.strip() for cell in line.cells]
            ends = {cells[0], cells[-1]} if len(cells) > 1 and id(line) in outermost else set()
            for token in {token for token in ends if token.isdecimal() and len(token) <= 4}:
                carried[int(token) - page.index] += 1
    # (a number opening the first line of a page may agree with the page now and then: more pages must agree)
    for votes_of, least in ((offsets, 2), (carried, 3)):
        if votes_of:
            offset, votes = votes_of.most_common(1)[0]
            if votes >= max(least, len(pages) // 3):
                for page in pages:
                    page.printed = page.index + offset
                    page.label = str(page.printed)
                return


_ROFF_GLYPH = re.compile(r"\\?\[u([0-9A-F]{4,6})\]")


# PDFDocEncoding's characters for the bytes 0x80–0x9E (the rest of its upper half is Latin-1's)
_PDFDOC_UPPER = "•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž"
_PDFDOC_BYTE = {char: 0x80 + offset for offset, char in enumerate(_PDFDOC_UPPER)}
_UTF8_LEAD = re.compile("[\u00c2-\u00f4]")
# one Latin-1 letter's two UTF-8 bytes read as two characters (`Ã©` for `é`, `Ã›` for `É` through PDFDocEncoding's
# 0x89, `Â«` for `«`): a title that mixes them with characters no byte reads as (`«\u00a0` typed as such) is decoded
# run by run; only these two lead bytes, since `É` before a no-break space would read as a letter of another script
_LATIN1_RUN = re.compile(f"Ã[\u0080-\u00bf{_PDFDOC_UPPER}]|Â[\u00a0-\u00bf]")


def utf8_misread(text: str) -> str:
    """A bookmark written in UTF-8 but stored as PDFDocEncoding, each byte read as a character (`Â« trees Â»`,
    `RÃ©sumÃ©`): the text its bytes spell. Text that does not decode as UTF-8 is left as it is."""
    if not _UTF8_LEAD.search(text):
        return text
    raw = bytearray()
    for char in text:
        code = ord(char)
        if code < 0x80 or 0xA0 <= code <= 0xFF:
            raw.append(code)
        elif char in _PDFDOC_BYTE:
            raw.append(_PDFDOC_BYTE[char])
        else:
            return _LATIN1_RUN.sub(_latin1_letter, text)  # a character no byte reads as: decode the misread letters alone
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    # the byte 0x9F, which PDFDocEncoding leaves undefined, is read as a space: after a two-byte lead (`Ð ` for `П`,
    # `Ã ` for `ß`) in a title that holds other misread pairs (`Ð¾`), the space is that byte; a letter before a real
    # space (`Ö och hav`) stays
    spaced = re.sub(rb"([\xc2-\xdf]) ", b"\\1\x9f", bytes(raw))
    try:
        if spaced == raw or not re.search(rb"[\xc2-\xdf][\x80-\xbf]", bytes(raw)):
            return _LATIN1_RUN.sub(_latin1_letter, text)
        return spaced.decode("utf-8")
    except UnicodeDecodeError:
        return _LATIN1_RUN.sub(_latin1_letter, text)


def _latin1_letter(match: re.Match[str]) -> str:
    """The letter two misread UTF-8 bytes spell (`Ã©` → `é`)."""
    return bytes(_PDFDOC_BYTE.get(char, ord(char)) for char in match.group(0)).decode("utf-8")


def outline_title(text: str) -> str:
    """A bookmark's title with each glyph left in roff's escape notation read as its character: groff's pdfmark
    macros write `R[u00E9]f[u00E9]rences` for `Références` (preconv's escape of every non-ASCII character), and
    `F[C]pdfmarkF[]` for a change of font, which is dropped; and a title whose UTF-8 bytes were read as
    PDFDocEncoding, decoded."""
    text = utf8_misread(text)
    if "F[]" in text or "f[]" in text:  # font changes left in the same notation (`The F[C]pdfmarkF[] Operator`), no text
        text = re.sub(r"[Ff]\[[A-Za-z0-9]{0,4}\]", "", text)
    if "[u" not in text:
        return text
    return _ROFF_GLYPH.sub(lambda match: chr(int(match.group(1), 16)) if int(match.group(1), 16) <= 0x10FFFF else match.group(0), text)


def metadata_title(document) -> str:
    """The title in the PDF metadata, unless it is empty or a file name."""
    try:
        title = document.get_metadata_dict().get("Title", "")
    except Exception:  # metadata is optional
        return ""
    title = clean_inline(title or "")
    return title if len(title) > 3 and not title.lower().endswith((".dvi", ".tex", ".doc", ".docx")) else ""


def body_size_of(pages: list[Page]) -> float:
    """The font size of most of the prose: code listings (a fixed-pitch font) and index or contents entries (dot
    leaders, page numbers), which fill half of some package manuals in a smaller size, count only when there
    is nothing else; nor do lines of fewer than four words."""
    sizes: Counter[float] = Counter()
    other: Counter[float] = Counter()
    total: Counter[float] = Counter()
    fixed: Counter[float] = Counter()
    for page in pages:
        for line in page.lines:
            prose = not line.mono and len(line.text.split()) >= 4 and not is_toc_line(line.text)
            (sizes if prose else other)[line.size] += len(line.text)
            total[line.size] += len(line.text)
            fixed[line.size] += len(line.text) if line.mono else 0
    # a size that sets much of its text in a fixed-pitch font is the listings' size (numbered code lines, whose
    # font the flag misses on some lines, would otherwise outweigh the prose), when another size holds prose too
    code = {size for size in total if fixed[size] >= 0.4 * total[size]}
    rest = Counter({size: count for size, count in sizes.items() if size not in code})
    if rest and max(rest.values()) >= 0.1 * sum(sizes.values()):
        sizes = rest
    sizes = sizes or other
    return sizes.most_common(1)[0][0] if sizes else 10.0


# -- running headers, footers, page numbers --------------------------------------------------


def _bookmarked(line: Line, bookmarks: list[tuple[str, float]]) -> bool:
    """Whether a line prints a bookmark's title, led or not by its number, where the bookmark points: from half a line
    below the target height to six lines under it (a chapter's anchor sits over its `Chapter 2` line). A running
    header lies above the target of a heading that opens its page."""
    if not bookmarks:
        return False
    text = title_key(line.text)
    for title, top in bookmarks:
        number = text[: len(text) - len(title)]
        if title and text.endswith(title) and (not number or number.isdigit()) and -0.5 * line.size <= top - line.top <= 6 * line.size:
            return True
    return False


def _edge_lines(page: Page) -> list[Line]:
    if not page.lines:
        return []
    ordered = sorted(page.lines, key=lambda line: -line.top)
    return [*ordered[:2], *ordered[-2:]] if len(ordered) > 4 else ordered


def _signature(text: str) -> str:
    return re.sub(r"\d+|\b[ivxlc]+\b", "#", text.lower()).strip()


def _without_folio(text: str) -> str:
    """An edge line's text without a page number at its start or end (`9 HISTORIA 36` → `HISTORIA`): what a running
    header repeats from page to page."""
    tokens = text.split()
    if len(tokens) > 1 and tokens[-1].isdecimal():
        tokens = tokens[:-1]
    if len(tokens) > 1 and tokens[0].isdecimal():
        tokens = tokens[1:]
    return " ".join(tokens)


def _in_the_flow(page: Page, body_size: float) -> set[int]:
    """The page's edge lines that run on from the text at its line pitch: set at the text's size, as far from the next
    line inward as the page's lines most often are from each other (and that line at the text's size too, and in the
    flow itself if it is an edge line). Body lines that merely repeat in shape from page to page (`Text of clause 2,
    line 1: …`) are so; a running header or footer is set apart from the text by more than a line's pitch."""
    if len(page.lines) <= 4:
        return set()
    ordered = sorted(page.lines, key=lambda line: -line.top)
    steps = Counter(
        round(upper.top - lower.top, 1)
        for upper, lower in itertools.pairwise(ordered)
        if abs(upper.size - body_size) <= 0.6 and abs(lower.size - body_size) <= 0.6 and upper.top - lower.top > 0.5 * body_size
    )
    if not steps or steps.most_common(1)[0][1] < 3:
        return set()  # no pitch the page's text keeps
    pitch = steps.most_common(1)[0][0]
    flow: set[int] = set()
    for side in (ordered, ordered[::-1]):  # from the top edge down, from the bottom edge up
        for at in (1, 0):  # the inner edge line first: the outer one runs on from it
            line, inner = side[at], side[at + 1]
            if (
                abs(line.size - body_size) <= 0.6
                and abs(inner.size - body_size) <= 0.6
                and abs(abs(line.top - inner.top) - pitch) <= 0.1 * body_size
                and (at == 1 or id(inner) in flow)
            ):
                flow.add(id(line))
    return flow


def _subclause_heading(line: Line) -> bool:
    """A subclause's heading, bold throughout (`9.1.8. Wydanie 2011`), or a change log's entry (`0.7 07-12-2012`): at
    the top of a page its pattern repeats from page to page like a running header's (`#.#.#. wydanie #`), but its
    words, said once, do not."""
    text = clean_inline(line.text)
    number = parse_number(text)
    bold = line.bold_prefix >= len(line.text.rstrip()) - 1
    return bool(((number and number.title and "." in number.path) or VERSION_DATE.match(text)) and bold)


def _under_the_edge(line: Line, edges: list[Line]) -> bool:
    """Whether another of the page's edge lines lies further out than `line` on its side of the page (a running header
    above it, a folio below it): `line` is then not the page's outermost line, where a running header stands."""
    middle = sorted(edge.top for edge in edges)[len(edges) // 2]
    if line.top >= middle:
        return any(edge.top > line.top + 0.5 * line.size for edge in edges)
    return any(edge.top < line.top - 0.5 * line.size for edge in edges)


def _clause_heading(line: Line) -> bool:
    """A numbered clause heading set bold throughout (`2 TEMPLATE OVERVIEW`, `3.1 Scope`)."""
    number = parse_number(clean_inline(line.text))
    return bool(number and number.title and line.bold_prefix >= len(line.text.rstrip()) - 1)


_CAPTION_LABEL = re.compile(rf"^(?:{TABLE_CAPTION_LABEL}|{FIGURE_CAPTION_LABEL})\s*(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*\s*[:.–—]")


def remove_furniture(pages: list[Page], body_size: float, bookmarks: dict[int, list[tuple[str, float]]] | None = None) -> list[str]:
    """Drop running headers, footers and page numbers; return the dropped lines (they hold proper-case chapter titles).

    `bookmarks`: per page index, the title keys and target heights of the bookmarks that point there; a line at the top
    or bottom of the page that prints one of those titles where its bookmark points is that heading, though the
    headings of a change log (`9.1.8. Wydanie 2011`) open page after page in the same place."""
    counts: Counter[str] = Counter()
    texts: Counter[str] = Counter()  # the edge lines' own words, a folio at either end set aside
    for page in pages:
        for signature in {_signature(line.text) for line in _edge_lines(page)}:
            counts[signature] += 1
        for text in {_without_folio(line.text) for line in _edge_lines(page)}:
            texts[text] += 1
    threshold = 2 if len(pages) <= 6 else max(3, len(pages) // 10)
    titles = _heading_titles(pages, body_size)
    drops: list[set[int]] = []
    numbers: set[int] = set()  # the lines that are a page number alone
    for page in pages:
        edges = _edge_lines(page)
        heads = _ruled_heads(page, body_size, titles)
        flow = _in_the_flow(page, body_size)
        drop = set()
        for line in edges:
            text = line.text.strip()
            tokens = text.split()
            is_number = bool(re.fullmatch(r"[-–—\s]*(\d{1,4}|[ivxlcdm]{1,7})[-–—\s]*", text, re.I)) or _page_of_pages(text, len(pages))
            if is_number and len(text) == 1 and text.isupper() and (line.size > body_size + 2 or line.bold_prefix):
                is_number = False  # an appendix's `C` set large over its title, an index's bold group `D`: no roman folio
            carries_page = bool(tokens) and page.label and (tokens[0] == page.label or tokens[-1] == page.label) and len(tokens) > 1
            if carries_page and texts[_without_folio(text)] == 1 and _under_the_edge(line, edges) and _clause_heading(line):
                carries_page = False  # `2 OVERVIEW` under the running header of page 2: clause 2's heading, no header
            repeated = (
                counts[_signature(text)] >= threshold
                and not CHAPTER_WORD.match(text)
                and line.size <= body_size + 0.6
                and not _framed(line, page)
                and not text.startswith("[^")  # a footnote whose mark the page cites, even if its text recurs
                and not _CAPTION_LABEL.match(text)  # `Table 2:` alone in the margin by every table: captions, not furniture
                and not (texts[_without_folio(text)] == 1 and _subclause_heading(line))
                and id(line) not in flow  # a body line repeating only in shape
            )
            if is_number or (
                ((carries_page and line.size <= body_size + 0.6) or repeated or id(line) in heads)
                and not _bookmarked(line, (bookmarks or {}).get(page.index, []))
            ):
                drop.add(id(line))
            if is_number:
                numbers.add(id(line))
        drops.append(drop)
    if not any(
        id(line) not in drop and line.size <= body_size + 0.6 and re.search(r"[^\W\d_]", line.text)
        for page, drop in zip(pages, drops, strict=True)
        for line in page.lines
    ):  # nothing but headings would be left to read (a placeholder repeating one line on every page, a page of one
        # line under an occasional heading): the lines that repeat are the body
        drops = [drop & numbers for drop in drops]
    removed: list[str] = []
    for page, drop in zip(pages, drops, strict=True):
        if drop:
            removed.extend(line.text for line in page.lines if id(line) in drop)
            page.lines = [line for line in page.lines if id(line) not in drop]
    return removed


_PAGE_OF_PAGES = re.compile(r"^(?:(?:page|seite|p\.)\s*)?(\d{1,4})\s*(?:of|von|de|sur|di|/)\s*(\d{1,4})$", re.I)


def _page_of_pages(text: str, pages: int) -> bool:
    """Whether an edge line is a folio that counts the pages (`2 of 5`, `Page 2 of 5`, `Seite 2 von 5`): its second
    number is the document's number of pages, so it is no heading (`2 of5` was clause 2), whatever its size."""
    match = _PAGE_OF_PAGES.match(text)
    return match is not None and int(match.group(2)) == pages and 1 <= int(match.group(1)) <= pages


_DESIGNATOR = re.compile(
    rf"^(?:(?:{CHAPTER_LABEL}|{DIVISION_LABEL}|{ANNEX_HEADING_LABEL})\s+)?(?:\d+|[A-Z]|[IVXLC]+)(?:\.\d+)*\.?\s+",
    re.I,
)


def _title_of(text: str) -> str:
    """A heading's or running head's title without its number or designator (`Kapitel 2. Baustoffe` → `baustoffe`)."""
    return " ".join(_DESIGNATOR.sub("", text.strip()).lower().split())


def _heading_titles(pages: list[Page], body_size: float) -> dict[str, int]:
    """The titles of the lines set larger than the text (headings), with the first page each is on."""
    titles: dict[str, int] = {}
    for page in pages:
        for line in page.lines:
            if line.size >= body_size + 1.5 and len(line.text) <= 120:
                titles.setdefault(_title_of(line.text), page.index)
    titles.pop("", None)
    return titles


def _ruled_heads(page: Page, body_size: float, titles: dict[str, int]) -> set[int]:
    """A running head or foot that repeats a heading printed on an earlier page (the chapter's title, as DocBook's
    stylesheets set it) and is set apart from the text by a rule across the text: the page's first line with a
    rule under it, or its last line with a rule over it. Its text varies from chapter to chapter, so it does
    not repeat often enough to be found as furniture."""
    if len(page.lines) < 3 or not page.hrules:
        return set()
    ordered = sorted(page.lines, key=lambda line: -line.top)
    left, right = min(line.x0 for line in page.lines), max(line.x1 for line in page.lines)
    wide = [y for x0, x1, y in page.hrules if x1 - x0 >= 0.6 * (right - left)]
    heads = set()
    for line, neighbour, below in ((ordered[0], ordered[1], True), (ordered[-1], ordered[-2], False)):
        if line.size > body_size + 0.6 or titles.get(_title_of(line.text), page.index) >= page.index:
            continue
        low, high = (neighbour.top, line.bottom) if below else (line.top, neighbour.bottom)
        if any(low < y < high for y in wide):
            heads.add(id(line))
    return heads


def _framed(line: Line, page: Page) -> bool:
    """Whether rules run close above and below a line: the header row of a ruled table at the top of a page,
    repeated on every page of a long table, is not a running header."""
    reach = 3 * max(line.size, 6.0)
    over = [y for x0, x1, y in page.hrules if x0 < line.x1 and line.x0 < x1]
    return any(0 <= y - line.top < reach for y in over) and any(0 <= line.bottom - y < reach for y in over)


def reading_order(page: Page) -> list[Line]:
    """Lines in reading order: on a two-column page, the left column before the right one between full-width parts."""
    middle = page.width / 2
    lines = _split_columns(page.lines, middle)
    left = [line for line in lines if line.x1 <= middle + 4]
    right = [line for line in lines if line.x0 >= middle - 4]
    total = sum(len(line.text) for line in lines) or 1
    thin = min(sum(len(line.text) for line in left), sum(len(line.text) for line in right)) < 0.2 * total  # equation numbers, margins
    if len(left) < 4 or len(right) < 4 or len(right) < 0.15 * len(lines) or thin:
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
        """Put the gathered left column, then the right one, in reading order."""
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


_ROW_CELLS = 3  # pieces on both sides of the gutter from which a line is a table's row across the page, not two lines


def _split_columns(lines: list[Line], middle: float) -> list[Line]:
    """Cut lines that PDFium joined across the gutter of a two-column page (left and right text on one baseline). A
    line cut into three pieces or more on both sides is a row of a table across the page (a report's, a console's
    columns): it is not cut, nor counted."""
    if not lines:
        return lines
    margin_left = min(line.x0 for line in lines)
    margin_right = max(line.x1 for line in lines)
    cuts: dict[int, int] = {}
    for number, line in enumerate(lines):
        for k in range(len(line.spans) - 1):
            left_end, right_start = line.spans[k][2], line.spans[k + 1][1]
            if left_end <= middle + 4 and right_start >= middle - 4:
                if min(k + 1, len(line.spans) - k - 1) >= _ROW_CELLS:
                    break
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
                Line(
                    line.page,
                    text,
                    spans[0][1],
                    spans[-1][2],
                    line.top,
                    line.bottom,
                    line.size,
                    0,
                    [span[0] for span in spans],
                    spans,
                    font=line.font,
                    mono=line.mono,  # a console's columns cut at the gutter are still code on both sides
                    listing=line.listing,
                    pictures=line.pictures,  # the share of the whole line (its halves are not read again)
                )
            )
    return result


def is_toc_page(page: Page) -> bool:
    """A page of the printed table of contents: most lines end in dot leaders or page numbers."""
    if len(page.lines) < 4:
        return False
    needed = max(4, 0.4 * len(page.lines))
    entries = 0
    for position, line in enumerate(page.lines):
        if entries + len(page.lines) - position < needed:
            return False  # too few lines left to make a contents page (most pages: stop early)
        text = line.text.strip()
        # cheap tests first: a contents line has a dot, a middle dot or bullet, or ends in a digit
        ends_in_digit = text[-1:].isdigit()
        if not (ends_in_digit or "." in text or "·" in text or "•" in text):
            continue
        if is_toc_line(text) or (
            ends_in_digit and (number := parse_number(text)) and number.title and re.search(r"[^\W\d_]\W*\s\d{1,4}$", text)
        ):
            entries += 1
            if entries >= needed:
                return True
    return False
