"""PDF into a draft with pypdfium2 (Apache-2.0/BSD; PDFium's text keeps inter-word spaces where pypdf drops them).

`pdf_pages` reads the pages into lines (running headers, footers and page numbers dropped, two
columns in reading order), `pdf_tree` finds the clause tree (the bookmark outline when there is
one, else numbered headings in numbering order); this module writes the Markdown: paragraphs with
hyphenation undone, page markers with printed and PDF page numbers, figures and tables.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import logging
import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from normcli.errors import InvalidArgument
from normcli.importers.common import (
    CODE_FENCE,
    FIGURE_CAPTION,
    LINE_END_HYPHEN,
    Draft,
    UniqueTitles,
    clean_inline,
    figure_name,
    heading_line,
    parse_number,
    safe_text_line,
    title_key,
    wrapped,
)
from normcli.importers.pdf_contents import (
    contents_entries,
    contents_headings,
    contents_positions,
    locate_entries,
    mark_contents,
    missing_from_outline,
)
from normcli.importers.pdf_pages import (
    Line,
    Page,
    body_size_of,
    collection_paused,
    metadata_title,
    read_pages,
    reading_order,
    remove_furniture,
    resolve_endnotes,
)
from normcli.importers.pdf_tables import Table, find_tables, pipe_table
from normcli.importers.pdf_tree import (
    Heading,
    ListedHeadings,
    bare_annex,
    first_title,
    outline_headings,
    read_outline,
    text_headings,
    title_wraps,
)
from normcli.importers.png import PngQueue, RawImage
from normcli.latex import escape_text

_BULLET = re.compile(r"^(?:[•\u2022\u25cf\u25aa\u2013\-*·\x88]|\(?\d{1,2}[.)]|\(?[a-z][.)])\s")


# What PDFium's load error codes mean for a person (FPDF_ERR_*): 4 and 5 are encryption, the others a damaged file
_ENCRYPTED = {4: "encrypted with a password", 5: "encrypted with a security handler PDFium cannot read"}
_UNREADABLE = {
    0: "PDFium found no page tree it can read: the file has no pages, or its page tree is damaged",
    1: "PDFium could not load it for an unknown reason",
    2: "the file cannot be opened",
    3: "its structure is damaged, or it is not a PDF",
    6: "a page or its content cannot be found",
}

_EXPORT_AGAIN = "check the file, or export it again as PDF"  # the advice for a file that is no readable PDF


@collection_paused()  # the cycle collector waits for the end: the collections it would make walk every line read
def import_pdf(source: Path, *, use_outline: bool = True, ocr: bool = False, language: str = "en", progress=None) -> Draft:
    """Read a PDF into a draft: outline or numbered headings, pages, figures, tables."""
    document = _open_document(source)
    draft = Draft()
    try:
        draft.pages = len(document)
        pages = read_pages(document, draft, ocr, language, progress, source)
        draft.title = metadata_title(document)
        with _outline_damage(draft):
            outline = read_outline(document) if use_outline else []
        if outline and all(entry.page is None for entry in outline):
            # a damaged outline whose every bookmark points to a page the file does not have gives no tree at
            # all: the headings are found in the text, as without an outline
            draft.warnings.append(
                f"none of the outline's {len(outline)} bookmarks points to a page of this PDF; the clause tree was found in the text instead"
            )
            outline = []
        body_size = body_size_of(pages)
        resolve_endnotes(pages, body_size)
        marks: dict[int, list[tuple[str, float]]] = {}  # where the bookmarks point: their headings are no page furniture
        for entry in outline:
            if entry.page is not None and entry.top is not None:
                marks.setdefault(entry.page, []).append((title_key(entry.title), entry.top))
        furniture = remove_furniture(pages, body_size, marks)
        for page in pages:
            page.lines = reading_order(page)
        mark_contents(pages)
        stream = [line for page in pages for line in page.lines]
        toc = contents_positions(stream, pages)  # the printed contents' lines: the stream does not change from here on
        entries = contents_entries(stream, pages, toc)
        closing: Heading | None = None
        if outline:
            headings = outline_headings(outline, pages, stream, draft, body_size, ListedHeadings(entries, stream, pages, body_size, toc))
            closing = headings.pop(len(stream), None)
            draft.outline_used = True
            missing = missing_from_outline(entries, [entry.title for entry in outline])
            if missing:
                draft.warnings.append(
                    f"the printed contents lists {len(missing)} of {len(entries)} entries that the outline lacks: "
                    + "; ".join(
                        f"{entry.number.path + ' ' if entry.number else ''}{entry.title} (p. {entry.page})" for entry in missing[:5]
                    )
                )
        else:
            located = locate_entries(entries, stream, pages, body_size, toc)
            if entries and len(located) < len(entries):
                draft.warnings.append(
                    f"{len(entries) - len(located)} of {len(entries)} printed contents entries were not found in the body"
                )
            headings = text_headings(stream, body_size, furniture, pages, located, toc)
            for position in title_wraps(stream, body_size, set(headings)):
                headings.pop(position, None)  # the title's second line, set as large as a heading
            if not any(h.number for h in headings.values()):
                draft.warnings.append("no numbered headings were found in the text; check the tree with `normcli toc`")
        _contents_nodes(stream, pages, headings, body_size, toc)
        if not draft.title:
            draft.title = first_title(stream, body_size, set(headings))
        _MarkdownWriter(document, pages, stream, headings, body_size, draft, toc).write(closing)
    finally:
        document.close()
    return draft


def _open_document(source: Path):
    """The PDF opened by PDFium; a file it cannot load is refused with what it is (encrypted, empty, no PDF, cut
    short, damaged) and what to do, as one `InvalidArgument`."""
    import pypdfium2 as pdfium

    try:
        document = pdfium.PdfDocument(str(source))
    except pdfium.PdfiumError as exc:
        given = getattr(exc, "err_code", None)
        code = given if isinstance(given, int) else -1  # -1: no code given
        if (code in _ENCRYPTED or "password" in str(exc).lower()) and b"/Encrypt" not in source.read_bytes():
            # PDFium's last error is left from an earlier load when this one sets none (a file without a page
            # tree): in a long-running process that may be an old password error for a file that is not encrypted
            code = 0
        elif "password" in str(exc).lower():
            code = 4
        if code in _ENCRYPTED:
            raise InvalidArgument(
                f"'{source.name}' is {_ENCRYPTED[code]}",
                "save a copy without the password (e.g. qpdf --decrypt --password=… in.pdf out.pdf) and import that",
            ) from exc
        said = _not_a_pdf(source)
        if said:
            raise InvalidArgument(f"'{source.name}' {said[0]}", said[1]) from exc
        why = _UNREADABLE.get(code, str(exc))
        raise InvalidArgument(f"'{source.name}' is not a readable PDF ({why})", _EXPORT_AGAIN) from exc
    return document


def _not_a_pdf(source: Path) -> tuple[str, str] | None:
    """What a file PDFium cannot load is, when its bytes say it (empty, no PDF, cut short), and what to do; None
    when they do not (then PDFium's own reason is given)."""
    with source.open("rb") as file:
        head = file.read(1024)
        file.seek(max(0, source.stat().st_size - 1024))
        tail = file.read()
    if not head:
        return "is empty (0 bytes)", _EXPORT_AGAIN
    if b"%PDF-" not in head:
        return "is not a PDF: it does not begin with %PDF", _EXPORT_AGAIN
    if b"%%EOF" not in tail:
        return "is cut short: it does not end with %%EOF", "copy or download it again"
    return None


# What PDFium's binding logs while it reads a damaged outline (it stops there), worded as an import warning
_OUTLINE_DAMAGE = {
    "circular": "the outline loops back on itself: its bookmarks were read up to the loop (--no-outline finds the tree in the text instead)",
    "depth": "the outline is nested deeper than the importer reads: its deepest bookmarks were left out",
}


@contextmanager
def _outline_damage(draft: Draft) -> Iterator[None]:
    """Turn what pypdfium2 logs while reading the outline into the draft's warnings: its own lines would reach
    stderr unformatted, once per loop, beside the report (a person could not tell what they mean for the import)."""

    class Collect(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            said = record.getMessage().lower()
            for key, warning in _OUTLINE_DAMAGE.items():
                if key in said and warning not in draft.warnings:
                    draft.warnings.append(warning)

    logger = logging.getLogger("pypdfium2")
    handler, propagated = Collect(logging.WARNING), logger.propagate
    logger.addHandler(handler)
    logger.propagate = False
    try:
        yield
    finally:
        logger.removeHandler(handler)
        logger.propagate = propagated


def _contents_nodes(stream: list[Line], pages: list[Page], headings: dict[int, Heading], body_size: float, toc: set[int]) -> None:
    """The printed contents (`toc`, their positions) as nodes of their own, and a heading for what follows them when none opens it."""
    for position, title in contents_headings(stream, pages, toc).items():
        if position not in headings:
            headings[position] = Heading(None, title, 1)
    for position in range(1, len(stream)):
        if position - 1 in toc and position not in toc and position not in headings:
            line = stream[position]
            text = clean_inline(line.text)
            titled = len(text) < 60 and not text.endswith((".", ",", ";", ":")) and not parse_number(text)
            # a title page after the contents whose title a later page prints again as a heading: that one is the clause
            titled = titled and not any(
                title_key(heading.title) == title_key(text) and stream[later].page != line.page
                for later, heading in headings.items()
                if later > position and heading.depth
            )
            headings[position] = Heading(None, text if titled else "Front matter", 1, keep_line=not titled)


# -- writing the Markdown ---------------------------------------------------------------------


class _MarkdownWriter:
    """Writes a draft's body from the stream of lines (`write`): headings, paragraphs with their page markers, figures
    (their PNGs queued for compression), tables, listings, numbered formulas, and each footnote at the end of the
    clause citing it. Its steps share what a line may leave open for the next: the paragraph gathered so far, what waits
    to be written after it, the page whose marker was written last."""

    def __init__(
        self,
        document,
        pages: list[Page],
        stream: list[Line],
        headings: dict[int, Heading],
        body_size: float,
        draft: Draft,
        toc_lines: set[int],
    ) -> None:
        self.document, self.stream, self.headings, self.toc_lines = document, stream, headings, toc_lines
        self.body_size, self.draft = body_size, draft
        self.body = draft.body
        self.vocabulary = _vocabulary(stream)
        self.french = _french_spacing(stream)
        self.current_page: int | None = None
        self.paragraph: list[Line] = []
        # what comes after the paragraph gathered so far when its sentence runs on over a page break or a figure: the
        # page's marker and the figure, written once the paragraph ends
        self.after: list[str] = []
        self.notes: list[tuple[int, str]] = []
        self.started = False
        self.unique = UniqueTitles()
        self.figure_numbers: Counter = Counter()
        self.page_by_index = {page.index: page for page in pages}
        self.equations: list[str] = []  # the equation numbers met so far, to accept only the next one
        self.regions, self.figure_text = _figure_regions(document, self.page_by_index, stream, headings)
        self.pngs = PngQueue()
        chunks = _program_chunks(stream, {*headings, *self.figure_text, *toc_lines})
        in_chunks = {p for chunk in chunks.values() for p in chunk}
        self.tables = find_tables(
            stream, self.page_by_index, headings, self.figure_text | in_chunks, self.regions
        )  # a chunk's code is no table
        self.in_tables = {
            p
            for found in self.tables.values()
            for table in found
            for p in [*table.positions, table.caption, *table.caption_more]
            if p is not None
        }
        self.listings = _listings(stream, {*headings, *self.in_tables, *self.figure_text, *toc_lines, *in_chunks}, body_size) | chunks
        self.in_listings = {p for block in self.listings.values() for p in block}
        self.code = {start: _code_text([stream[p] for p in block]) for start, block in self.listings.items()}
        # a document that numbers its listings' lines (three listings, each line opening with a number, counting up;
        # the page reading has dropped the numbers of pages made mostly of code): a listing of one or two lines that
        # opens each with a number is numbered too
        self.numbered = sum(1 for lines in self.code.values() if _line_numbered(lines, 1)) >= 3

    def write(self, closing: Heading | None) -> None:
        """Write every line in reading order, then the `closing` headings (bookmarks to pages without text at the end,
        each on its page), the footnotes and the figures' PNGs."""
        stream, headings, paragraph = self.stream, self.headings, self.paragraph
        skip_until = -1  # the last line of a figure's caption: the lines it takes are written with it
        for position, line in enumerate(stream):
            if position <= skip_until:
                continue
            heading = headings.get(position)
            if heading is not None and heading.depth:
                self.write_heading(heading, line.page)
                for extra in heading.then:
                    self.write_heading(extra, line.page)
            self.open_page(line.page)
            if heading is not None and (not heading.keep_line or heading.depth == 0):
                continue
            if not self.started:
                self.open_front_matter(line)
            if position in self.figure_text:
                continue  # a label inside a figure: it is in the picture, not the text
            text = clean_inline(line.text)
            figure = FIGURE_CAPTION.match(text)
            if figure and position not in self.toc_lines:
                skip_until = self.write_figure(position, figure, text)
                continue
            if position in self.tables:
                self.flush()
                self.body.extend(_tables_markdown(self.tables[position], stream, self.vocabulary, self.french))
                continue
            if position in self.in_tables:
                continue  # a row or caption of a table written where the table starts
            if position in self.listings:
                self.flush()
                self.body.extend(_fenced(_listing_without_line_numbers(self.code[position], 1 if self.numbered else 3)))
                self.body.append("")
                continue
            if position in self.in_listings:
                continue  # a line of a listing written where the listing starts
            if self.write_formula(line, text):
                continue
            contents_line = position in self.toc_lines and not (paragraph and paragraph[-1].text.rstrip().endswith(LINE_END_HYPHEN))
            goes_on = bool(self.after and paragraph) and _goes_on(paragraph[-1], line)  # over a page break or a figure
            if paragraph and ((_breaks(paragraph[-1], line, self.body_size) and not goes_on) or contents_line):  # a contents entry: a line
                self.flush()
            paragraph.append(line)
        for heading in (closing, *closing.then) if closing else ():
            self.write_heading(heading, heading.page if heading.page is not None else self.current_page or 0)
        self.flush()
        self.draft.files.update(self.pngs.done())
        _place_notes(self.body, self.notes)
        while self.body and not self.body[-1].strip():
            self.body.pop()

    def flush(self) -> None:
        """Write the paragraph gathered so far, then what waited after it."""
        paragraph = self.paragraph
        if paragraph:
            if len(paragraph) > 1 and paragraph[0].text.strip().isdigit() and paragraph[0].size < self.body_size - 0.5:
                paragraph[0] = Line(paragraph[0].page, f"[{paragraph[0].text.strip()}]", 0, 0, 0, 0, paragraph[0].size)
            text = _join(paragraph, self.vocabulary)
            if self.french:
                text = _SPACE_BEFORE_SIGN.sub("\u00a0", text)
            if _NOTE.match(text):
                self.notes.append((len(self.body), text))  # placed at the end of the clause that cites it, once all is written
            elif text:
                self.body.append(safe_text_line(text))
                self.body.append("")
            paragraph.clear()
        self.body.extend(self.after)
        self.after.clear()

    def interruption_target(self) -> list[str]:
        """Where a page marker or a figure met inside the paragraph goes: `after` it while the paragraph runs on past
        it (written when the paragraph ends), else the body, once the paragraph is written."""
        if self.paragraph and _runs_on(self.paragraph[-1]):
            return self.after
        self.flush()
        return self.body

    def open_page(self, index: int) -> None:
        """Start a page: end the paragraph and write its page marker."""
        if index == self.current_page:
            return
        out = self.interruption_target()
        self.current_page = index
        page = self.page_by_index[index]
        label = f" label={page.label}" if page.label and not page.label.isdigit() else ""
        out.append(f"<!-- page {page.printed} pdf={index + 1}{label} -->")

    def write_heading(self, heading: Heading, page: int) -> None:
        """Write a heading, on `page` unless it opens on an earlier page of its own; repeated unnumbered titles get ` (2)`."""
        if heading.page is None or self.current_page is None or heading.page > self.current_page:
            self.open_page(page if heading.page is None else heading.page)
        self.started = True
        self.flush()
        path = heading.number.path if heading.number else None
        title = heading.title
        if path is None:
            title = self.unique(title)
        elif heading.number is not None and bare_annex(heading.number):
            self.unique.taken(heading.explicit or path)  # the letter `A` as a path: a letter group `A` after it is `A (2)`
        if heading.explicit:  # a part (`Part II`), a clause qualified by its part (`II.1`) or a repeated number (`2.5 (2)`)
            printed = None if heading.number is None or heading.number.kind == "division" or bare_annex(heading.number) else path
            self.body.append(f"{heading_line(printed, title, heading.depth)} {{#{heading.explicit}}}")
        else:
            self.body.append(heading_line(path, title, heading.depth))
        self.body.append("")
        if heading.body:
            self.paragraph.append(Line(-1, heading.body, 0, 0, 0, 0, 0))

    def open_front_matter(self, line: Line) -> None:
        """Open the norm on text before any heading: a title page's node is named by its largest line, as without an
        outline, else `Front matter`."""
        self.started = True
        stream = self.stream
        cover = first_title(stream, self.body_size, set(self.headings)) if line.page == stream[0].page else ""
        if cover and title_key(cover) in {title_key(heading.title) for heading in self.headings.values() if heading.depth}:
            cover = ""  # the title is printed again over the text: that heading is the clause of that name
        self.body.append(heading_line(None, self.unique(cover if 2 < len(cover) <= 150 else "Front matter"), 1))
        self.body.append("")

    def write_figure(self, position: int, figure: re.Match[str], text: str) -> int:
        """Write the figure whose caption opens line `position` (`figure`: the caption matched on its text): its picture
        as a PNG linked with the whole caption, or the caption as text when no picture is found. Returns the position of
        the caption's last line."""
        line = self.stream[position]
        out = self.interruption_target()
        number = figure.group("num")
        self.figure_numbers[number] += 1
        stem = figure_name(number) + (f"-{self.figure_numbers[number]}" if self.figure_numbers[number] > 1 else "")
        image = _figure_image(self.document, self.page_by_index[line.page], line, self.regions.get(position))
        label = figure.group("label")  # the document's own word (`Figura`, `Abb.`): the bundle reads each
        caption, last = _whole_caption(self.stream, position, self.headings, figure.group("caption"))
        if image is not None:
            relative = self.draft.add_file(f"{stem}.png", b"")  # the name now, the PNG once compressed
            self.pngs.put(relative, image)
            out.append(f"![{label} {number} – {_alt(caption)}]({relative})")
        else:
            out.append(safe_text_line(text))
        out.append("")
        return last

    def write_formula(self, line: Line, text: str) -> bool:
        """Write a displayed formula whose equation number is the next one (`$$ … \\qquad (4.1) $$`): the number alone at
        the right margin of the line (the formula being the paragraph above it), or on a line of its own; whether the
        line was one. A number set apart at the right margin joins its formula line to the paragraph above first."""
        paragraph = self.paragraph
        if len(line.spans) >= 2 and _EQUATION_ALONE.match(line.spans[-1][0].strip()):
            head = " ".join(span[0] for span in line.spans[:-1])
            if paragraph and _breaks(paragraph[-1], line, self.body_size):
                self.flush()
            paragraph.append(Line(line.page, head, line.x0, line.spans[-2][2], line.top, line.bottom, line.size))
            text = line.spans[-1][0].strip()
        alone = _EQUATION_ALONE.match(text)
        if (
            alone
            and paragraph
            and _MATH.search(" ".join(item.text for item in paragraph))
            and _next_equation(alone.group("num"), self.equations[-1] if self.equations else None)
        ):
            self.equations.append(alone.group("num"))
            latex = _formula_latex(_join(paragraph, self.vocabulary))
            paragraph.clear()
            self.body.append(f"$$ {latex} \\qquad ({alone.group('num')}) $$")
            self.body.append("")
            return True
        equation = _equation(text, self.equations)
        if equation is not None:
            self.flush()
            latex, number = equation
            self.body.append(f"$$ {latex} \\qquad ({number}) $$")
            self.body.append("")
            return True
        return False


def _whole_caption(stream: list[Line], position: int, headings: dict[int, Heading], caption: str) -> tuple[str, int]:
    """A figure's caption (`caption`, the text after its number on line `position`) joined with the lines below
    that go on with it on its page, and the position of the last line it takes."""
    line = stream[position]
    following = position + 1
    while (
        following < len(stream)
        and stream[following].page == line.page
        and following not in headings
        and _continues_caption(stream[following], line)
    ):
        caption = wrapped(caption, stream[following - 1].text, stream[following].text)
        following += 1
    return caption, following - 1


def _tables_markdown(tables: list[Table], stream: list[Line], vocabulary: set[str], french: bool) -> list[str]:
    """The tables that start on one line, each as its caption on one line (when it has one), its pipe rows and a blank line."""
    written: list[str] = []
    for table in tables:
        if table.caption is not None:
            caption = clean_inline(stream[table.caption].text)
            for previous, following in itertools.pairwise([table.caption, *table.caption_more]):
                caption = wrapped(caption, stream[previous].text, stream[following].text)
            written.append(safe_text_line(caption))
        rows = [[_cell_text(cell, vocabulary, french) for cell in row] for row in table.rows]
        written.extend(pipe_table(rows, table.header))
        written.append("")
    return written


def _place_notes(body: list[str], notes: list[tuple[int, str]]) -> None:
    """Each footnote (`[^5]: …`, met at the foot of its page) at the end of the clause that cites it."""
    insertions = []
    # the lines that can cite a note (a label opens with `[^`) and the headings, found once: a document with hundreds of
    # notes would otherwise read its whole body again for each
    marked = [k for k, line in enumerate(body) if "[^" in line] if notes else []
    headings = [k for k, line in enumerate(body) if line.startswith("#")] if notes else []
    for order, (position, text) in enumerate(notes):
        label = text[: text.index("]:") + 1]
        cites = [k for k in marked if label in body[k] and not body[k].startswith(label + ":")]
        # the last citation before the note; else the first after it (a note set at the foot of the page before the
        # one whose line cites it)
        cited = next((k for k in reversed(cites) if k < position), next((k for k in cites if k >= position), None))
        cited = max(0, position - 1) if cited is None else cited
        following = bisect.bisect_right(headings, cited)  # the first heading after the citing line ends its clause
        end = headings[following] if following < len(headings) else len(body)
        while end > cited + 1 and (not body[end - 1].strip() or body[end - 1].startswith("<!--")):
            end -= 1
        insertions.append((end, order, text))
    for end, _, text in sorted(insertions, reverse=True):
        body[end:end] = ["", text]


_SCRIPT = re.compile(r"([_^])\{([^{}]*)\}")


def _formula_latex(text: str) -> str:
    """A formula's extracted text as LaTeX: escaped as printed, except the scripts read from the glyphs (`P_{b}`, `E^{γ}`)."""
    parts = []
    last = 0
    for match in _SCRIPT.finditer(text):
        parts.append(escape_text(text[last : match.start()]))
        parts.append(f"{match.group(1)}{{{escape_text(match.group(2))}}}")
        last = match.end()
    parts.append(escape_text(text[last:]))
    return "".join(parts)


_NOTE = re.compile(r"^\[\^[^\]\s]+\]: \S")
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
    return _formula_latex(match.group("formula")), number


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


Box = tuple[float, float, float, float]  # left, bottom, right, top in PDF points
FIGURE_DPI = 200
_FIGURE_GAP = 24.0  # points of empty space that end a drawing


def _figure_regions(document, pages: dict[int, Page], stream: list[Line], headings: dict[int, Heading]) -> tuple[dict[int, Box], set[int]]:
    """For each figure caption, the region of its drawing above it (vector paths and images, with the text
    labels among them), and the stream positions of those labels, which belong to the picture."""
    import pypdfium2.raw as raw

    regions: dict[int, Box] = {}
    labels: set[int] = set()
    objects: dict[int, list[Box]] = {}
    by_page: dict[int, list[int]] | None = None  # the stream positions of each page's lines, made at the first caption
    for position, line in enumerate(stream):
        page = pages.get(line.page)
        if page is None or page.toc or not FIGURE_CAPTION.match(clean_inline(line.text)):
            continue
        if line.page not in objects:
            try:
                pdf_page = document[line.page]
                # top-level objects only: the bounds of a form's inner objects are in the form's own coordinates;
                # a form is a drawing (a figure included as a PDF) unless it wraps most of the page
                kinds = [raw.FPDF_PAGEOBJ_PATH, raw.FPDF_PAGEOBJ_IMAGE, raw.FPDF_PAGEOBJ_SHADING, raw.FPDF_PAGEOBJ_FORM]
                boxes = [obj.get_bounds() for obj in pdf_page.get_objects(filter=kinds, max_depth=1)]
                objects[line.page] = [box for box in boxes if (box[3] - box[1]) < 0.8 * page.height]
                pdf_page.close()
            except Exception:  # no drawing found: the caption falls back to the older rules
                objects[line.page] = []
        if by_page is None:
            by_page = {}
            for p, other in enumerate(stream):
                by_page.setdefault(other.page, []).append(p)
        on_page = [(p, stream[p]) for p in by_page[line.page] if p != position and p not in headings]
        region = _nearest_drawing(page, line, objects[line.page], [other for _, other in on_page])
        if region is None:
            continue
        regions[position] = region
        for p, other in on_page:
            if region[0] - 2 <= other.x0 and other.x1 <= region[2] + 2 and region[1] - 2 <= other.bottom and other.top <= region[3] + 2:
                labels.add(p)
    return regions, labels


def _nearest_drawing(page: Page, caption: Line, drawn: list[Box], lines: list[Line]) -> Box | None:
    """The drawing a caption names: the one right above it, or right below it where the document sets its
    captions over the figures (DocBook's stylesheets do); of both, the one closer to the caption."""
    above = _drawing_region(page, caption, drawn, lines)
    height = page.height
    flipped = _drawing_region(
        page,
        dataclasses.replace(caption, top=height - caption.bottom, bottom=height - caption.top),
        [(box[0], height - box[3], box[2], height - box[1]) for box in drawn],
        [dataclasses.replace(line, top=height - line.bottom, bottom=height - line.top) for line in lines],
    )
    below = (flipped[0], height - flipped[3], flipped[2], height - flipped[1]) if flipped else None
    if above is None or below is None:
        return above or below
    return above if above[1] - caption.top <= caption.bottom - below[3] else below


def _drawing_region(page: Page, caption: Line, drawn: list[Box], lines: list[Line]) -> Box | None:
    """The drawing right above a caption: paths, images and short text lines touching one another, grown
    upwards until an empty band or a line of prose; None when no path or image is part of it."""
    left, right = caption.column if caption.column != (0.0, 0.0) else (0.0, page.width)
    items: list[tuple[Box, bool]] = []  # (box, is a drawing)
    for box in drawn:
        if box[1] >= caption.top - 1 and box[2] > left - 6 and box[0] < right + 6 and (box[2] - box[0]) < page.width * 0.98:
            items.append((box, True))
    spans: dict[Box, list[tuple[float, float]]] = {}
    labels: set[Box] = set()  # short lines set in from the margin, no sentence: the free labels of a drawing
    for line in lines:
        if line.bottom >= caption.top - 1 and line.x1 > left and line.x0 < right:
            box = (line.x0, line.bottom, line.x1, line.top)
            items.append((box, False))
            spans[box] = [(span[1], span[2]) for span in line.spans]
            texts = [span[0] for span in line.spans] or [line.text]
            if (
                line.x0 > left + 4
                and all(len(text.strip()) <= 30 for text in texts)
                and not line.text.rstrip().endswith(".")
                and line.size <= caption.size + 1.5
            ):
                labels.add(box)
    items.sort(key=lambda item: item[0][1])
    ceiling = caption.top
    chosen: list[Box] = []
    drawing = False
    for box, is_drawing in items:
        # a caption sits a little apart from its figure; blank lines may lie between (nothing but a drawing above)
        if box[1] - ceiling > (_FIGURE_GAP if chosen else (4 if is_drawing else 2) * _FIGURE_GAP):
            break
        if not is_drawing:
            extents = spans.get(box) or [(box[0], box[2])]  # labels of several shapes PDFium put on one line
            inside = all(
                any(d[0] - 6 <= x0 and x1 <= d[2] + 6 and d[1] - 6 <= box[1] and box[3] <= d[3] + 6 for d, k in items if k)
                for x0, x1 in extents
            )
            if not inside and box not in labels:
                break  # text outside every drawn object: the text (or a table) above the figure
        chosen.append(box)
        # horizontal rules alone (a running head's rule in pieces, a table's) are no drawing
        drawing = drawing or (is_drawing and box[3] - box[1] > 2.5)
        ceiling = max(ceiling, box[3])
    if not drawing or not chosen:
        return None
    return (min(b[0] for b in chosen), min(b[1] for b in chosen), max(b[2] for b in chosen), max(b[3] for b in chosen))


def _figure_image(document, page: Page, caption: Line, region: Box | None = None) -> RawImage | None:
    """The figure above (or below) its caption: its drawing's region, else the nearest image, else the band
    above the caption; the whole page when unsure. Rendered at 200 dpi (its pixels: PNG compression is left
    to a background thread)."""
    pdf_page = document[page.index]
    try:
        if region is not None:
            return _rendered(pdf_page, page, region, 4.0)
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
        return _rendered(pdf_page, page, box, margin)
    except Exception:  # a figure that cannot be rendered is reported as text, never fatal
        return None
    finally:
        pdf_page.close()


def _rendered(pdf_page, page: Page, box: Box | None, margin: float) -> RawImage:
    """The page at FIGURE_DPI, cropped to `box` grown by `margin` points on each side (within the page); the whole
    page without a box."""
    scale = FIGURE_DPI / 72
    if box is None:
        return RawImage.of(pdf_page.render(scale=scale, rev_byteorder=True))
    left, bottom = max(0.0, box[0] - margin), max(0.0, box[1] - margin)
    right, top = min(page.width, box[2] + margin), min(page.height, box[3] + margin)
    return RawImage.of(pdf_page.render(scale=scale, crop=(left, bottom, page.width - right, page.height - top), rev_byteorder=True))


def _drawing_box(page: Page, caption: Line) -> tuple[float, float, float, float] | None:
    """The empty band above a caption where a vector drawing sits: up to the nearest text paragraph."""
    left, right = caption.column if caption.column != (0.0, 0.0) else (0.0, page.width)
    above = [line for line in page.lines if line.bottom > caption.top + 1 and line.x1 > left and line.x0 < right]
    prose = [line for line in above if len(line.text) > 60 or line.size > caption.size + 2]
    ceiling = min((line.bottom for line in prose), default=page.height - 0.06 * page.height)
    if ceiling - caption.top < 40:
        return None
    return (max(0.0, left - 6), caption.top + 2, min(page.width, right + 6), ceiling - 2)


def _listings(stream: list[Line], taken: set[int], body_size: float) -> dict[int, list[int]]:
    """The code listings, each by the position of its first line: runs of lines set in a fixed-pitch font
    (`_code_line`) on one page and in one column. Up to two lines that lie between a run's lines or against its
    ends as they do (`_tight`: a docstrip guard `<*driver>` set in a sans font, a code line ending in a wrap
    mark of another font) belong to it. A run that prose runs into or out of (`_in_prose`: a URL, a command named in a sentence)
    is not a listing. `taken`: lines written otherwise (headings, tables, figures, printed contents)."""
    runs: list[list[int]] = []
    run: list[int] = []
    between: list[int] = []  # lines in another font after the run's last line, that may lie between two of its lines
    for position, line in enumerate(stream):
        if position not in taken and _code_line(line):
            if run and not _listing_breaks(stream[run[-1]], line):
                run.extend([*between, position])
            else:
                runs.append(run)
                run = [position]
            between = []
        elif run and position not in taken and len(between) < 2 and _tight(stream[(between or run)[-1]], line, stream[run[-1]]):
            between.append(position)
        else:
            runs.append(run)
            run, between = [], []
    runs.append(run)
    runs = [part for found in runs for part in _without_margin_notes(stream, found)]
    listings: dict[int, list[int]] = {}
    claimed = set(taken)
    for found in runs:
        if found and not _in_prose(stream, found, taken, body_size):
            found = _with_neighbours(stream, found, claimed)
            claimed.update(found)
            listings[found[0]] = found
    return listings


def _without_margin_notes(stream: list[Line], run: list[int]) -> list[list[int]]:
    """A run cut at the names a documented source sets in the left margin beside its code (`\\othercites` by
    `1542 \\newcommand{\\othercites}`): lines that end left of where most of the run's lines start and start
    left of all of those. They are no code: each is written as a line of text before the part it names."""
    if len(run) < 2:
        return [run]
    starts = sorted(stream[position].x0 for position in run)
    middle = starts[len(starts) // 2]
    body = [stream[position].x0 for position in run if stream[position].x1 >= middle - 1]
    left = min(body, default=middle)
    notes = {position for position in run if stream[position].x1 < middle - 1 and stream[position].x0 < left - stream[position].size}
    if not notes or len(notes) > 0.25 * len(run):
        return [run]  # names are a few beside much code; as many lines left as right are columns of a list
    parts: list[list[int]] = [[]]
    for position in run:
        if position in notes:
            parts.append([])
        else:
            parts[-1].append(position)
    return [part for part in parts if part]


# mathematical operators: a displayed formula naming a typewriter identifier (`secp256k1n`) is no code
_MATH_SIGN = re.compile(r"[\u2200-\u22ff\u2a00-\u2aff]")
_TYPESET_BULLET = re.compile(r"^\s*[•\u25cf\u25aa\u25e6\u2023\u2043·–—]\s")


def _code_line(line: Line) -> bool:
    """A line of a listing: set in a fixed-pitch font by the font's own evidence (`Line.listing`), with no
    mathematical operator and no equation number set apart at either end (a formula), not a list item's
    (a typeset bullet before a file name) nor a footnote's (a URL as its text)."""
    if not line.listing or _MATH_SIGN.search(line.text) or _TYPESET_BULLET.match(line.text) or _NOTE.match(line.text):
        return False
    spans = line.spans
    return not (len(spans) >= 2 and (_EQUATION_ALONE.match(spans[0][0].strip()) or _EQUATION_ALONE.match(spans[-1][0].strip())))


# the head of a literate program's chunk: its name in angle brackets, then the sign that defines it or adds to it
# (WEB, CWEB `⟨name 12⟩ +≡`, noweb `⟨name⟩≡`), a section number after it at the margin
_CHUNK_HEAD = re.compile(r"⟨[^⟨⟩]{1,80}⟩\s*\+?≡(?:\s*\(?\d{1,4}\)?)?$")


def _program_chunks(stream: list[Line], taken: set[int]) -> dict[int, list[int]]:
    """The code chunks of a literate program, each by the position of its head (`_CHUNK_HEAD`): the head and the
    lines under it down to a wider step than code lines take (the prose of the next section), the next head, the
    end of the page or a line written otherwise (`taken`). Their code is pretty-printed in the text's fonts, so
    no fixed pitch tells it: the head does."""
    chunks: dict[int, list[int]] = {}
    position = 0
    while position < len(stream):
        line = stream[position]
        if position in taken or "≡" not in line.text or not _CHUNK_HEAD.search(clean_inline(line.text)):
            position += 1
            continue
        chunk = [position]
        following = position + 1
        while following < len(stream) and following not in taken:
            above, below = stream[following - 1], stream[following]
            if below.page != above.page or below.top > above.top + 2 or above.top - below.top > 1.7 * max(above.size, below.size):
                break
            if "≡" in below.text and _CHUNK_HEAD.search(clean_inline(below.text)):
                break
            chunk.append(following)
            following += 1
        if len(chunk) > 1:
            chunks[position] = chunk
        position = following
    return chunks


def _listing_breaks(previous: Line, line: Line) -> bool:
    """Whether `line` cannot go on a listing after `previous`: another page, another size, another column (back up)."""
    if previous.page != line.page or abs(previous.size - line.size) > 1.0:
        return True
    return line.top > previous.top + 2


def _tight(previous: Line, line: Line, code: Line) -> bool:
    """Whether `line`, in another font than the listing's line `code`, lies against `previous` (above or below it)
    as the listing's lines do: on its page, in its size, a leading away, from its left edge or right of it, and
    short (a guard, a label), not a sentence, unless it is set in a fixed-pitch font too (a long line whose end
    is a wrap mark in another font, `root=UUID=fe3e… ←`)."""
    text = line.text.strip()
    if line.page != code.page or previous.page != line.page or (abs(line.size - code.size) > 0.5 and not text[:1].isdigit()):
        return False  # a line number, set smaller, may give its line its size (`1548 }`, or alone for an empty line)
    return (
        0 < abs(previous.top - line.top) <= 1.5 * code.size
        and line.x0 >= code.x0 - 0.5 * code.size
        and (line.mono or (len(text) <= 24 and not text.endswith((".", ":", ","))))
    )


def _with_neighbours(stream: list[Line], run: list[int], taken: set[int]) -> list[int]:
    """`run` with up to two lines in another font that lie tight against its first or last line (`_tight`)."""
    before: list[int] = []
    while len(before) < 2 and (position := run[0] - 1 - len(before)) >= 0:
        line = stream[position]
        if position in taken or line.mono or not _tight(stream[position + 1], line, stream[run[0]]):
            break
        before.insert(0, position)
    after: list[int] = []
    while len(after) < 2 and (position := run[-1] + 1 + len(after)) < len(stream):
        line = stream[position]
        if position in taken or line.mono or not _tight(stream[position - 1], line, stream[run[-1]]):
            break
        after.append(position)
    return [*before, *run, *after]


def _in_prose(stream: list[Line], run: list[int], taken: set[int], body_size: float) -> bool:
    """Whether a run of fixed-pitch lines belongs to a paragraph: the line above goes on into its first line (no
    paragraph break, no colon announcing a display) or its last goes on into the line below, and the run is one
    or two lines, or runs across the column as prose does (a URL or commands named in a sentence)."""
    first, last = run[0], run[-1]
    steps = sorted(stream[a].top - stream[b].top for a, b in itertools.pairwise(run) if stream[a].page == stream[b].page)
    leading = 1.2 * steps[len(steps) // 2] if steps else 1.3 * stream[first].size

    def goes_on(previous: Line, line: Line) -> bool:  # a line of the same paragraph: no break, no wider step than the listing's
        return (
            not previous.text.rstrip().endswith(":")
            and not _breaks(previous, line, body_size)
            and previous.top - line.top <= max(leading, 1.3 * max(previous.size, line.size))
        )

    into = first > 0 and first - 1 not in taken and not _code_line(stream[first - 1]) and goes_on(stream[first - 1], stream[first])
    out = last + 1 < len(stream) and last + 1 not in taken and not _code_line(stream[last + 1]) and goes_on(stream[last], stream[last + 1])
    above = stream[first - 1] if first > 0 else None
    if above is not None and above.page == stream[first].page and _NOTE.match(above.text) and len(run) <= 2:
        return True  # a command shown in a footnote: the note's text (a listing would stay in the clause, the note move)
    if not (into or out):
        return False
    lines = [stream[position] for position in run if _code_line(stream[position])]
    return len(lines) <= 2 or sum(1 for line in lines[:-1] if _runs_full(line)) >= 0.5 * (len(lines) - 1)


def _code_text(lines: list[Line]) -> list[str]:
    """A listing's lines as text, a line for each printed line: each piece of a line set at the column of its
    fixed-pitch grid, so indentation and aligned comments are kept, and lines side by side on one baseline (a
    list set in columns, read row by row) on one row; a step down wider than the listing's leading as an empty line."""
    pitch = _pitch(lines)
    left = min(line.x0 for line in lines)
    steps = sorted(above.top - below.top for above, below in itertools.pairwise(lines) if above.top - below.top >= 2)
    leading = steps[len(steps) // 2] if steps else 0.0
    out: list[str] = []
    previous: Line | None = None
    for line in lines:
        beside = previous is not None and abs(previous.top - line.top) < 2 and line.x0 > previous.x1
        if previous is not None and previous.top - line.top > 1.4 * leading:
            out.append("")
        text = out.pop() if beside else ""  # a line on the row of the one before (columns of a list): one row
        for piece, x0, _ in line.spans or [(line.text, line.x0, line.x1)]:
            piece = piece.strip().replace(LINE_END_HYPHEN, "-").replace("\u00ad", "-")
            column = round((x0 - left) / pitch) if pitch else 0
            text += " " * (column - len(text)) if column > len(text) else " " if text else ""
            text += piece
        out.append(text.rstrip())
        previous = line
    return out


def _fenced(lines: list[str]) -> list[str]:
    """A fenced code block of `lines`, without empty lines at either end; the lines as text if one of them would
    close the fence."""
    start, end = 0, len(lines)
    while start < end and not lines[start]:
        start += 1
    while end > start and not lines[end - 1]:
        end -= 1
    lines = lines[start:end]
    if any(CODE_FENCE.match(text) for text in lines):
        return [safe_text_line(text) for text in lines if text]
    return ["```", *lines, "```"]


_LINE_NUMBER = re.compile(r"^\s*(\d{1,5})(?=\s|$)")


def _line_numbered(lines: list[str], least: int) -> bool:
    """Whether every line of a listing (`least` of them at least) opens with a number, counting up by one."""
    numbers = [int(match.group(1)) for text in lines if (match := _LINE_NUMBER.match(text))]
    if len(numbers) < least or len(numbers) < sum(1 for text in lines if text.strip()):
        return False
    return sum(1 for a, b in itertools.pairwise(numbers) if b - a == 1) >= 0.8 * (len(numbers) - 1)


def _listing_without_line_numbers(lines: list[str], least: int = 3) -> list[str]:
    """A listing's lines without the numbers a documented source prints before each (`531 \\optdef…`, a number
    alone for an empty line) when they are its line numbers (`_line_numbered`), not its code: they are dropped, as
    the page reading drops them on pages made mostly of such lines. The code keeps its indentation relative to
    its least indented line."""
    if not _line_numbered(lines, least):
        return lines
    rest = [text[match.end() :] if (match := _LINE_NUMBER.match(text)) else text for text in lines]
    indent = min((len(text) - len(text.lstrip()) for text in rest if text.strip()), default=0)
    return [text[indent:].rstrip() for text in rest]


def _pitch(lines: list[Line]) -> float:
    """The advance of a listing's fixed-pitch grid: the median width per character of its longer pieces."""
    widths = sorted((x1 - x0) / len(piece.strip()) for line in lines for piece, x0, x1 in line.spans if len(piece.strip()) >= 4)
    return widths[len(widths) // 2] if widths else 0.0


def _breaks(previous: Line, line: Line, body_size: float) -> bool:
    """Whether `line` starts a new paragraph after `previous`."""
    if previous.page != line.page or previous.page < 0:
        return previous.page >= 0
    if previous.text.strip().isdigit() and previous.size < body_size - 0.5 and line.size < body_size:
        return False  # a footnote number on its own line, then the footnote
    if _NOTE.match(line.text):
        return True  # each note is a paragraph of its own (endnotes follow one another in one size)
    gap = previous.bottom - line.top
    if gap > max(previous.size, line.size, body_size) * 0.9:
        return True
    if line.top > previous.top + 2:  # a jump back up: the other column (the paragraph may go on there) or a new block
        return not (_runs_full(previous) and line.x0 > previous.x1 - 40 and not previous.text.rstrip().endswith((".", ":", "!", "?")))
    bullet = _BULLET.match(line.text.strip())
    if bullet:
        mark = bullet.group(0)[0]
        if not (mark.isalnum() or mark == "(") or not _runs_full(previous) or previous.text.rstrip().endswith((".", ":", ";", "!", "?")):
            return True  # `m. Well-graded …` after a full line that runs on is the sentence going on, not a list item
    if abs(line.size - previous.size) > 1.0:
        return True
    left, right = previous.column
    width = right - left
    return width > 0 and previous.x1 < right - 0.2 * width and previous.text.rstrip().endswith((".", ":", "!", "?"))


def _runs_on(line: Line) -> bool:
    """Whether a paragraph's last line so far leaves its sentence open: it runs to the column's edge without a stop."""
    return line.page >= 0 and _runs_full(line) and not line.text.rstrip().endswith((".", ":", "!", "?", ";"))


def _goes_on(previous: Line, line: Line) -> bool:
    """Whether `line`, after a page break or a figure, goes on with the sentence `previous` left open: set in its size
    and opening with a small letter."""
    return _runs_on(previous) and abs(line.size - previous.size) <= 1.0 and line.text.lstrip()[:1].islower()


def _runs_full(line: Line) -> bool:
    """Whether `line` reaches the right edge of its column (a paragraph's line that goes on, not its last)."""
    left, right = line.column
    return right > left and line.x1 >= right - 0.08 * (right - left)


_SPACE_BEFORE_SIGN = re.compile(r"(?<=[^\W_]) (?=[:;!?](?:\s|$))")
_UNSPACED_SIGN = re.compile(r"[^\W\d_][:;](?:\s|$)")


def _cell_text(cell: str, vocabulary: set[str], french: bool) -> str:
    """A table cell as written: a word broken at a line end inside the cell decided by the document's words."""
    if LINE_END_HYPHEN in cell:
        cell = _rejoined(cell, vocabulary).replace(LINE_END_HYPHEN, "")
    return _SPACE_BEFORE_SIGN.sub("\u00a0", cell) if french else cell


def _french_spacing(stream: list[Line]) -> bool:
    """Whether the document spaces its colons and semicolons as French typography does (`valeur : 3`): then
    that space is a no-break space, which PDF producers write as a plain one (the glyph is a space)."""
    spaced = unspaced = 0
    for line in stream:
        text = line.text
        if not line.mono and (":" in text or ";" in text or "!" in text or "?" in text):  # most lines have none of the signs
            spaced += len(_SPACE_BEFORE_SIGN.findall(line.text))
            unspaced += len(_UNSPACED_SIGN.findall(line.text))
    return spaced >= 3 and spaced >= 2 * unspaced


_BROKEN_WORD = re.compile(rf"[^\W\d_]*{LINE_END_HYPHEN}[^\W\d_]*")
_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)*")


def _vocabulary(stream: list[Line]) -> set[str]:
    """The document's own words (and hyphenated compounds), without the halves of words broken at a line end."""
    words: set[str] = set()
    broken = False
    for line in stream:
        marked = line.text.rstrip().endswith(LINE_END_HYPHEN)  # `verifi\ufffe`: the line ends in a broken word's head
        text = line.text
        if LINE_END_HYPHEN in text:  # `verifi\ufffecation`: a word broken at a line end PDFium joined
            text = _BROKEN_WORD.sub(" ", text)
        text = text.rstrip()
        printed = _WORD.findall(text)
        found = " ".join(printed).lower().split(" ") if printed else []  # one call (no word holds a space, nor gains one)
        ends_broken = text.endswith(("-", "\u00ad"))
        if found and (broken or (printed[0].islower() and len(printed[0]) <= 4)):
            # a short first word may be the tail of a word broken on a line elsewhere in reading order (`ing`,
            # `tion`): a real word is also met inside a line somewhere
            found = found[1:]
        if ends_broken and found:
            found = found[:-1]
        words.update(found)
        for compound in found:  # `porte-à-faux` also vouches for `porte-à` and `à-faux`, met broken at a line end
            if "-" in compound:
                parts = compound.split("-")
                words.update(f"{a}-{b}" for a, b in itertools.pairwise(parts))
        broken = ends_broken or marked  # the next line opens with the broken word's tail (`ing`, `erful`)
    return words


def _join(lines: list[Line], vocabulary: set[str]) -> str:
    """One paragraph from its lines, undoing end-of-line hyphenation."""
    text = ""
    for line in lines:
        part = line.text.strip()
        if not text:
            text = part
            continue
        if text.endswith((LINE_END_HYPHEN, "\u00ad")):
            if part[:1].isdigit():  # a hyphen before a digit is the word's own (`ISO-` + `9001`)
                text = text[:-1] + "-" + part
                continue
            if not part[:1].isalpha():
                text = text[:-1] + part
                continue
            text = text[:-1] + "-"  # the document's words decide below (a capital keeps it: `Stoß-an-Stoß-` + `Verbindung`)
        if text.endswith("-") and part[:1].isalpha() and re.search(r"[^\W\d_]-$", text):
            head = re.search(r"([^\W\d_]+)-$", text)
            tail = re.match(r"[^\W\d_]+", part)
            text = (
                text + part if _keeps_hyphen(head.group(1) if head else "", tail.group(0) if tail else "", vocabulary) else text[:-1] + part
            )
        else:
            text = f"{text} {part}"
    if LINE_END_HYPHEN in text:
        text = _rejoined(text, vocabulary)
    return clean_inline(text)


_JOINED_AT_LINE_END = re.compile(rf"([^\W\d_]+){LINE_END_HYPHEN}([^\W\d_]+)")  # `verifi\ufffecation`: PDFium joined a broken word


def _keeps_hyphen(head: str, tail: str, vocabulary: set[str]) -> bool:
    """A hard hyphen at a line end, decided by the document's own words: kept when the document writes the
    compound with a hyphen elsewhere, or never writes it joined while both halves are words of their own
    (`architecture-` + `independent`); dropped when it writes the word joined (`verifi-` + `cation`)."""
    joined = (head + tail).lower()
    if f"{head}-{tail}".lower() in vocabulary:
        return joined not in vocabulary
    if joined in vocabulary:
        return False  # `state-` + `Root`: the document writes `stateRoot`
    if tail[:1].isupper() and not (head.isupper() and tail.isupper()):
        return True  # a word broken at a line end goes on in lower case: `Holz-` + `Beton` is a compound
    return len(head) >= 3 and len(tail) >= 3 and head.lower() in vocabulary and tail.lower() in vocabulary


def _rejoined(text: str, vocabulary: set[str]) -> str:
    """`text` with each word PDFium joined across a line end (its hyphen marked between head and tail) written
    joined, or with its hyphen when the document's own words say so (`well-known`, see `_keeps_hyphen`)."""
    return _JOINED_AT_LINE_END.sub(
        lambda match: match.group(1) + ("-" if _keeps_hyphen(match.group(1), match.group(2), vocabulary) else "") + match.group(2), text
    )
