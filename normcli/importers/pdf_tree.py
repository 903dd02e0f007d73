"""The clause tree of a PDF: from its bookmark outline (numbers read from the page), or from numbered
headings found by layout (size, weight, centring) and kept only in numbering order."""

from __future__ import annotations

import functools
import re
from bisect import bisect_right
from collections import Counter
from dataclasses import dataclass, field
from itertools import pairwise
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

from normcli.bundle import letter_run
from normcli.importers.common import (
    DATE_VERSION,
    FIGURE_CAPTION,
    LINE_END_HYPHEN,
    MONTHS,
    TABLE_CAPTION,
    VERSION_DATE,
    Draft,
    Number,
    Sequencer,
    clean_inline,
    is_toc_line,
    parse_number,
    roman_value,
    spelled_number,
    title_key,
    wrapped,
)
from normcli.importers.pdf_contents import (
    CONTENTS_TITLE,
    INDEX_TITLE,
    LETTERED_ANNEX,
    ContentsEntry,
    contents_positions,
    heading_text,
    heading_title_lines,
    locate_entries,
    marked,
    run_in_rest,
    same_letters,
)
from normcli.importers.pdf_pages import CHAPTER_WORD, Line, Page, bold_face, outline_title
from normcli.importers.pdf_signatures import signature_headings
from normcli.labels import ANNEX_HEADING_LABEL, CHAPTER_LABEL, DIVISION_LABEL, FIGURE_LABEL, TABLE_LABEL

_SPECIAL_HEADINGS = re.compile(
    r"^(?:index|references|bibliography|bibliographie|literatur|foreword|preface|avant-propos|vorwort|premessa|"
    r"glossary|glossaire|acknowledge?ments?|remerciements|colophon|abstract|résumé|zusammenfassung|contents|"
    r"table of contents|table des matières|inhaltsverzeichnis|sommaire|license|licence|introduction|einleitung)$",
    re.I,
)


@dataclass
class Heading:
    """A clause heading to write: its number (None when unnumbered), title and depth."""

    number: Number | None
    title: str
    depth: int
    body: str = ""
    then: list[Heading] = field(default_factory=list)  # headings that open at the same place, in order
    keep_line: bool = False  # the line is not the heading itself: it stays as text below the headings
    division: str | None = None  # the designator of the part it lies in (`II` of `Part II`), None outside any
    explicit: str | None = None  # the path written as `{#path}` when it is not the printed number (`II.1`, `2.5 (2)`)
    # the page its clause opens on when that is before its line's page: a bookmark whose page prints no line of it (the
    # text layer lacks the heading, or the anchor lies under the page's last line and the next page does not print it)
    page: int | None = None


# A bookmark or heading naming a division above the chapters: `Part II`, `Teil 2`, `Book I` (annexes are not divisions)
_DIVISION = re.compile(rf"^(?P<word>{DIVISION_LABEL})\s+(?P<value>[IVXLC]+|\d{{1,3}})\b\.?(?:\s*[:.–—-]?\s*(?P<title>.*))?$")
# a month and a year after a day (`3 juillet 2022`, `12. März 2021`, `1 de enero de 2020`): a date, not a clause's title
_DATE = re.compile(rf"^(?:de\s+)?(?:{MONTHS})\.?,?\s+(?:de\s+)?\d{{4}}\.?$", re.I)
_ENDS_IN_PAGE = re.compile(r"(?:\d|\b[ivxlcdm]+)\s*$", re.I)
_BULLET_ITEM = re.compile(r"^\s*[•\u2022\u25cf\u25aa\u2013*·–—-]\s")  # a bullet list item, no heading's first line
# the titles of an index's letter groups
_INDEX_GROUP = re.compile(r"^(?:[A-ZÀ-Ý]|Symbols|Numbers|Numerals|Digits|Symboles|Chiffres|Symbole|Zahlen)$")
# a word and a number or a capital letter alone on a line above a title (`Capítulo 1`, `Глава 2`, `Apéndice A`)
_DESIGNATION = re.compile(r"^(?P<word>[^\W\d_][^\W\d_’'-]{2,19})\s+(?P<value>\d{1,3}|[A-Z])\.?$")
_NOT_DESIGNATION = re.compile(rf"^(?:{DIVISION_LABEL}|{FIGURE_LABEL}|{TABLE_LABEL}|version|release|step|schritt|étape|page|seite)$", re.I)
# an appendix or division word set in capitals (`APPENDIX B. MULTILINGUAL SUPPORT`), as a page prints it before a designator
_CAPITAL_DIVISION = rf"(?=(?:{ANNEX_HEADING_LABEL}|{DIVISION_LABEL})\b)[A-Z]+"
# a bookmark title led by a roman numeral or a letter that the page prints after a word (`I Getting started` under `Part I`)
_DESIGNATED = re.compile(r"^(?P<value>[IVXLC]+|[A-Z])\.?\s+(?P<title>\S.*)$")


# -- the tree from the outline ------------------------------------------------------------------


@dataclass
class OutlineEntry:
    """One bookmark: its level (0 = top), title, target page index and target height on the page."""

    level: int
    title: str
    page: int | None
    top: float | None


# The outline levels read: deeper than any numbered clause goes (an outline that drifts a level down at each chapter, its
# bookmarks nested twelve deep, still names the document's headings), and a bound on an outline that nests without end
OUTLINE_LEVELS = 15


def read_outline(document) -> list[OutlineEntry]:
    """The bookmark outline in reading order; a broken one counts as none. A bookmark that repeats an earlier one, the
    same title to the same place, is the same heading listed twice (an outline written out a second time after its
    end, a label's bookmark beside its section's): it is read once; but right under the one it repeats, one level
    down, it is a section opening its chapter under the same title (`Tools` and its first section `Tools`)."""
    entries = []
    seen: set[tuple[str, int | None, float | None]] = set()
    previous: tuple[str, int | None, float | None, int] | None = None  # the bookmark read before: title, place, level
    try:
        for bookmark in document.get_toc(max_depth=OUTLINE_LEVELS):
            destination = bookmark.get_dest()
            page = top = None
            if destination is not None:
                page = destination.get_index()
                page = page if page is not None and 0 <= page < len(document) else None  # a bookmark to a missing page
                try:
                    mode, view = destination.get_view()
                    top = float(view[0]) if mode in (2, 3) and view else (float(view[1]) if mode == 1 and len(view) > 1 else None)
                except Exception:  # a destination without a view still gives the page
                    top = None
            title = clean_inline(outline_title(bookmark.get_title() or ""))
            under_itself = previous == (title, page, top, bookmark.level - 1)
            previous = (title, page, top, bookmark.level)
            if (title, page, top) in seen and not under_itself:
                continue
            seen.add((title, page, top))
            entries.append(OutlineEntry(bookmark.level, title, page, top))
    except Exception:  # a broken outline is treated as no outline
        return []
    return [entry for entry in entries if entry.title]


def outline_headings(
    outline: list[OutlineEntry],
    pages: list[Page],
    stream: list[Line],
    draft: Draft,
    body_size: float | None = None,
    contents: ListedHeadings | None = None,
) -> dict[int, Heading]:
    """Place every bookmark on its page's heading line and read the clause number printed there.

    `contents`: the printed contents, which check the outline: a bookmark that lands on its own contents entry is
    placed on the heading the contents lead to. Bookmarks to pages after the last line of text are under the key
    `len(stream)`: their clauses close the body."""
    by_page: dict[int, list[int]] = {}
    for position, line in enumerate(stream):
        by_page.setdefault(line.page, []).append(position)
    with_lines = sorted(by_page)

    def first_after(page: int) -> int | None:
        """The first line of the first page after `page` that has lines."""
        later = bisect_right(with_lines, page)
        return by_page[with_lines[later]][0] if later < len(with_lines) else None

    headings: dict[int, Heading] = {}
    taken: set[int] = set()
    anchored: set[int] = set()  # lines taken only as where a bookmark without a heading line starts its clause
    pending: dict[int, list[Heading]] = {}
    parents: list[tuple[int, str | None]] = []
    division: tuple[int, str] | None = None  # the open part: its outline level and designator
    titles_before: set[str] = set()  # the title keys of the bookmarks before
    for index, entry in enumerate(outline):
        if index:
            titles_before.add(title_key(outline[index - 1].title))
        number = _dashed_number(entry.title) or parse_number(entry.title) or _zero_number(entry.title)
        title = number.title if number and number.title else entry.title
        path = number.path if number and number.title else None
        kind = number.kind if number and number.title else None
        candidates = by_page.get(entry.page, []) if entry.page is not None else []
        if division is not None and entry.level <= division[0]:
            division = None
        found = None
        retaken = False
        named = _DIVISION.match(entry.title) if path is None else None
        designated = _DESIGNATED.match(entry.title) if path is None and not named else None
        if named:  # `Part II General font selection`
            path, kind = f"{named.group('word').capitalize()} {named.group('value')}", "division"
            title = named.group("title") or path
        elif designated:  # `I Getting started`, the page printing `Part I` above it; `A Grammar` under `Appendix A`
            located = _find_heading_line(stream, candidates, designated.group("title"), entry.top, taken)
            relocated = False
            if located is None and anchored:  # its line taken as where an earlier bookmark's clause starts (see below)
                located = _find_heading_line(stream, [p for p in candidates if p in anchored], designated.group("title"), entry.top, set())
                relocated = located is not None
            word = _division_word(stream, located, designated.group("value"), headings) if located is not None else None
            if located is not None and not word and _letter_above(stream, located, designated.group("value"), headings):
                # an appendix printed as its letter alone over its title (`A` / `Packages and macros`): path `A` (SPEC §1)
                value, title, found, retaken = designated.group("value"), designated.group("title"), located, relocated
                path, kind = value, "annex"
            elif word:
                value, title, found, retaken = designated.group("value"), designated.group("title"), located, relocated
                annex = parse_number(f"{word} {value}")
                path, kind = (annex.path, "annex") if annex and annex.kind == "annex" else (f"{word.capitalize()} {value}", "division")
        if found is None and entry.page is not None and pages[entry.page].toc:
            found = _contents_title_before(stream, pages, by_page, entry.page, title, taken)
        if found is None:
            found = _find_heading_line(stream, candidates, title, entry.top, taken)
        if contents is not None and entry.page is not None and (found is None or found in contents.toc):
            # a destination on the printed contents, at the bookmark's own entry (`2.2 Author/article metadata 2`): the
            # heading is where the contents lead, not the entry nor the top of the contents page
            found = contents.heading(by_page.get(entry.page, []), title, path, found, taken) or found
        if found is None and anchored:
            # the heading's own line, taken as the start of an earlier bookmark's clause that has no heading line (an
            # index entry anchored just above it): the heading is printed there, after that clause's start
            own = [p for p in candidates if p in anchored and _line_keys(stream[p].text)[2] == title_key(title)]
            found, retaken = (own[0], True) if own else (None, False)
        # an anchor set at the foot of its page, under its last line (the heading went over to the next page): the
        # heading is among the next page's first lines, or opens that page printing its title (a height of 0 is a
        # destination without one). A page without a line (its text layer lacks the body) counts as one
        overleaf: int | None = None
        if entry.page is not None and entry.top and entry.page + 1 < len(pages):
            overleaf = entry.page + 1 if all(stream[p].top > entry.top + 2 for p in candidates) else None
        if found is None and overleaf is not None:
            found = _find_heading_line(stream, by_page.get(overleaf, [])[:3], title, None, taken)
        if found is None and entry.page is not None:
            found = _opening_next_page(stream, by_page, entry.page, title, taken)
        if found is not None and path is None:
            shown = parse_number(heading_text(stream[found]))
            shown_title = shown.title if shown and shown.title else heading_text(stream[found])
            bookmark_key, shown_key = title_key(title), title_key(shown_title)
            if _residue(bookmark_key, shown_key) and not bookmark_key.startswith(shown_key):
                # as the page prints it: the bookmark holds a command written as code inside its title; a run at its end
                # is the bookmark's own (a function's arity, `flush_trace_port/0` printed `flush_trace_port()`)
                title = shown_title
        if found is not None and path is not None and kind == "clause" and path.isdecimal():
            printed_division = _printed_division(stream, found, path, headings)
            if printed_division:  # `1 lwarp.sty` printed `File 1 lwarp.sty`
                path, kind = f"{printed_division.capitalize()} {path}", "division"
        if found is not None and path is None:
            parent = next((above for level, above in reversed(parents) if level < entry.level), None)
            printed = _split_number(stream[found], title, parent) or _printed_number(stream, found, title, body_size)
            if printed and _running_header_over(stream, found, titles_before):
                printed = None  # `Download 44` over `GPL`: the chapter bookmarked before and the page's number
            if printed is None and (zero := _zero_number(heading_text(stream[found]))) and title_key(zero.title) == title_key(title):
                printed = zero  # `0.1 Title` printed on the bookmark's own line: a clause numbered from zero
            if printed:
                path, kind = printed.path, printed.kind
                _number_lines_above(stream, found, headings, taken)
            elif letter := _letter_before(stream[found], title):
                path, kind = letter, "annex"  # `A Layout of diagrams` for the bookmark `Layout of diagrams`: the appendix A
            elif part := _division_alone_above(stream, found, headings):
                path, kind = part, "division"  # `Part I` alone over `System Overview`
        rest = _after_title(stream[found], title) if found is not None else ""
        while parents and parents[-1][0] >= entry.level:
            parents.pop()
        depth = Number(path, title, kind or "clause").depth if path is not None else entry.level + 1
        parents.append((entry.level, path))
        heading = Heading(Number(path, title, kind or "clause") if path else None, title, depth, rest)
        if kind == "division" and path:
            heading.explicit = path
            division = (entry.level, path.split()[-1])
        elif division is not None:
            heading.division = division[1]
        if found is None and entry.page is not None and entry.top is not None:
            places = [p for p in by_page.get(entry.page, []) if stream[p].top <= entry.top + 2]
            if overleaf is not None and _moves_over(outline, index, stream, by_page.get(overleaf, [])[:3]):
                places = by_page.get(overleaf, [])[:1]
            elif overleaf is not None:
                # nothing on the next page confirms a move: the clause opens on its own page, after that page's last
                # line (a page whose text layer lacks the body prints no heading, and the next page none either)
                after = first_after(entry.page)
                places = [len(stream) if after is None else after]  # past the last line: the clause closes the body
                heading.page = entry.page
            below = [p for p in places if p not in headings]
            if below:
                found = below[0]
                heading.keep_line = True
                anchored.add(found)
            elif places:
                # the line under the anchor already opens another bookmark's clause (two bookmarks to one place): this
                # clause follows it there, not at the top of the page before the clauses above the anchor
                found = places[0]
        if found is not None and found < len(stream) and not rest and not heading.keep_line:  # no line past the last one
            for extra in _title_lines(stream, found, title):  # the rest of a title wrapped over lines is no body text
                taken.add(extra)
                headings.setdefault(extra, Heading(None, "", 0))
        if found is not None:
            taken.add(found)
            if found in headings:
                headings[found].then.append(heading)
                headings[found].keep_line = (headings[found].keep_line or heading.keep_line) and not retaken
                if retaken:
                    anchored.discard(found)  # the line is a heading now, no text of the clause before it
            else:
                headings[found] = heading
        elif entry.page is not None and entry.page < len(pages):
            pending.setdefault(entry.page, []).append(heading)
        else:
            draft.warnings.append(f"outline entry '{entry.title}' points to no page; it was left out")
    # bookmarks whose heading line was not found open at the top of their page; on a page without a line, on that page
    # still, before the next page's first line
    for page_index in sorted(pending):
        items = pending[page_index]
        positions = by_page.get(page_index)
        anchor = positions[0] if positions else first_after(page_index)
        if anchor is None:
            anchor = len(stream)  # pages after the last line of text: the clauses close the body
        if not positions:
            for item in items:
                item.page = page_index
        existing = headings.get(anchor)
        chain = items + ([existing, *existing.then] if existing else [])
        anchor_page = stream[anchor].page if anchor < len(stream) else len(pages)
        chain.sort(key=lambda item: anchor_page if item.page is None else item.page)  # their pages in order
        headings[anchor] = chain[0]
        chain[0].then = chain[1:]
        chain[0].keep_line = existing.keep_line if existing else True
    unique_paths([item for position in sorted(headings) for item in (headings[position], *headings[position].then)])
    return headings


class ListedHeadings:
    """The printed contents against which the outline is checked: its lines, and the body heading each of its entries
    leads to (located once, the first time a bookmark needs it)."""

    def __init__(self, entries: list[ContentsEntry], stream: list[Line], pages: list[Page], body_size: float, toc: set[int]) -> None:
        self.toc = toc
        self._entries, self._stream, self._pages, self._body_size = entries, stream, pages, body_size
        self._located: dict[int, ContentsEntry] | None = None

    def heading(self, on_page: list[int], title: str, path: str | None, found: int | None, taken: set[int]) -> int | None:
        """The body heading of the entry titled `title` (numbered `path` when the bookmark gives it), when a contents
        line among `on_page` (the bookmark's target page) is that entry and the bookmark found no other line there
        (`found` is None or that entry); else None."""
        key = title_key(title)
        if not key or not self._entries:
            return None
        own = [p for p in on_page if p in self.toc and self._lists(p, key)]
        if not own or (found is not None and found not in own):
            return None  # a title printed on the contents page as a line of its own (the document's) stays there
        if self._located is None:
            self._located = locate_entries(self._entries, self._stream, self._pages, self._body_size, self.toc)
        for position in sorted(self._located):
            listed = self._located[position]
            numbered = path is None or listed.number is None or listed.number.path == path
            if position not in taken and numbered and title_key(listed.title) == key:
                return position
        return None

    def _lists(self, position: int, key: str) -> bool:
        """Whether the contents line at `position` is an entry of the title `key`: its words without their number,
        leaders and page (`2.2 Author/article metadata 2`, `3.1 Scope . . . 10`)."""
        line = clean_inline(self._stream[position].text)
        text = re.sub(r"(?:[\s.·…]*\s(?:\d{1,4}|[ivxlcdm]{1,7}))\s*$", "", line, flags=re.I)
        number = parse_number(text)
        return text != line and title_key(number.title if number and number.title else text) == key  # an entry ends in its page


_SPLIT_NUMBER = re.compile(r"^(?P<head>\d{1,3}(?:\.\d{1,3})*)\s?\.\s(?P<tail>\d{1,3})\.?\s+(?P<title>\S.*)$")


def _next_number(path: str) -> str:
    """The number after `path` at its level (`2` after `1`, `3.2` after `3.1`)."""
    head, _, last = path.rpartition(".")
    if not last.isdecimal():
        return path
    return f"{head}.{int(last) + 1}" if head else str(int(last) + 1)


def _split_number(line: Line, title: str, parent: str | None) -> Number | None:
    """A clause number set with a space after its stop (`2. 1 Création d'une grille`, or around it as right-to-left
    text comes out, `۵ . ١`) under the bookmark of the clause it continues (`2`): the section 2.1, not a line number `2.`
    before a clause `1`."""
    split = _SPLIT_NUMBER.match(heading_text(line)) if parent else None
    if split and split.group("head") == parent and title_key(split.group("title")) == title_key(title):
        return Number(f"{parent}.{split.group('tail')}", split.group("title"), "clause")
    return None


_ZERO_NUMBER = re.compile(r"^(?P<path>0(?:\.\d{1,3})+)\.?\s+(?P<title>\S.*)$")
_DASHED_NUMBER = re.compile(r"^(?P<path>[1-9]\d{0,2}(?:\.\d{1,3})*)\s?[-–]\s+(?P<title>\S.*)$")


def _zero_number(title: str) -> Number | None:
    """A bookmark numbered from zero (`0.1 Core feature`, a chapter 0 the document's class counts from): in a bookmark the
    number is the clause's, though in running text `0.5 mm` never starts a heading."""
    match = _ZERO_NUMBER.match(title)
    return Number(match.group("path"), match.group("title"), "clause") if match else None


def _dashed_number(title: str) -> Number | None:
    """A bookmark whose number is set off by a dash (`1.1- Title`, `2 – Title`, as Arabic and French documents number
    their sections): the number is the clause's and the title follows the dash, as after `1.1 `."""
    match = _DASHED_NUMBER.match(title)
    return Number(match.group("path"), match.group("title"), "clause") if match else None


def _contents_title_before(
    stream: list[Line], pages: list[Page], by_page: dict[int, list[int]], page: int, title: str, taken: set[int]
) -> int | None:
    """A bookmark to a page of the printed contents past its first (`Inhaltsverzeichnis` anchored on the list's second
    page, which prints the title only as its running header): the contents title where the run of contents pages starts."""
    if not CONTENTS_TITLE.match(title.rstrip(":.")):
        return None
    first = page
    while first > 0 and pages[first - 1].toc:
        first -= 1
    for index in range(first, len(pages)):
        if not pages[index].toc:
            break
        found = [p for p in by_page.get(index, []) if p not in taken and title_key(stream[p].text) == title_key(title)]
        if found:
            return found[0]
    return None


def _title_lines(stream: list[Line], position: int, title: str) -> list[int]:
    """The lines after a heading's line that hold the rest of its title (wrapped over up to eight lines: a question set as a heading), when
    together they spell the whole title; else none."""
    key = title_key(title)
    printed = parse_number(clean_inline(stream[position].text))
    have = title_key(printed.title if printed and printed.title else stream[position].text)
    before = _piece_before(stream, position)
    if before is not None and have != key and have + title_key(stream[before].text) == key:
        return [before]  # the title's end, given before its line (see `_piece_before`)
    lines: list[int] = []
    following = position + 1
    while len(have) < len(key) and following < min(len(stream), position + 8) and stream[following].page == stream[position].page:
        more = have + title_key(stream[following].text)
        if not key.startswith(more):
            return []
        have = more
        lines.append(following)
        following += 1
    return lines if have == key else []


def _piece_before(stream: list[Line], position: int) -> int | None:
    """The line before `position` when it is a piece of the same printed line, on the same baseline, that the text layer
    gave first: right-to-left text cut in two at a joiner (`gements` before `2 Acknowled`, the heading `2 Acknowledgements`)."""
    before = position - 1
    if before < 0 or stream[before].page != stream[position].page:
        return None
    return before if abs(stream[before].top - stream[position].top) <= 0.5 * stream[position].size else None


def _division_word(stream: list[Line], position: int, value: str, headings: dict[int, Heading]) -> str | None:
    """The word the page prints before a division's designator: on the title's line (`Appendix A Grammar`) or
    alone on the line above it (`Part I` over `Getting started`, which then belongs to the heading)."""
    same = re.match(rf"^(?P<word>[A-Z][a-z]+|{_CAPITAL_DIVISION})\s+{value}\b", clean_inline(stream[position].text))
    if same:
        return same.group("word")
    return _word_alone_above(stream, position, headings, lambda text: re.fullmatch(rf"(?P<word>[A-Z][a-z]+)\s+{value}\.?", text))


def _letter_above(stream: list[Line], position: int, value: str, headings: dict[int, Heading]) -> bool:
    """Whether the line above `position` on its page is the letter `value` alone (an appendix's `A` over its title);
    that line then belongs to the heading below."""
    if len(value) != 1 or not value.isalpha():
        return False
    return bool(_word_alone_above(stream, position, headings, lambda text: re.fullmatch(rf"(?P<word>{value})", text)))


def _printed_division(stream: list[Line], position: int, value: str, headings: dict[int, Heading]) -> str | None:
    """The division word (`File`, `Part`) the page prints before a bookmark's number, on its line or alone above it."""
    same = _DIVISION.match(clean_inline(stream[position].text))
    if same and same.group("value") == value:
        return same.group("word")

    def alone(text: str) -> re.Match[str] | None:
        found = _DIVISION.match(text)
        return found if found and found.group("value") == value and not found.group("title") else None

    return _word_alone_above(stream, position, headings, alone)


def _letter_before(line: Line, title: str) -> str | None:
    """The capital letter a heading line prints before the whole title of a bookmark that lacks it (`A Layout of
    diagrams` for `Layout of diagrams`): an appendix's letter."""
    match = re.match(r"^(?P<letter>[A-Z])\.?\s+(?P<title>\S.*)$", heading_text(line))
    key = title_key(title)
    if match and key and title_key(match.group("title")) == key:
        return match.group("letter")
    return None


def _division_alone_above(stream: list[Line], position: int, headings: dict[int, Heading]) -> str | None:
    """The division (`Part I`) printed alone on the line above a bookmark's heading line: its path."""

    def alone(text: str) -> re.Match[str] | None:
        found = _DIVISION.match(text)
        return found if found and not found.group("title") else None

    match = _DIVISION.match(clean_inline(stream[position - 1].text)) if position > 0 else None
    word = _word_alone_above(stream, position, headings, alone)
    return f"{word.capitalize()} {match.group('value')}" if word and match else None


def _word_alone_above(
    stream: list[Line], position: int, headings: dict[int, Heading], alone: Callable[[str], re.Match[str] | None]
) -> str | None:
    """The division word of the line above `position` on the same page, when `alone` matches that line as a word
    and designator by themselves (`Part I` over its title): that line then belongs to the heading below."""
    above = position - 1
    if above >= 0 and stream[above].page == stream[position].page and above not in headings:
        found = alone(clean_inline(stream[above].text))
        if found:
            headings[above] = Heading(None, "", 0)  # part of the heading below
            return found.group("word")
    return None


def unique_paths(ordered: list[Heading]) -> None:
    """Make every numbered path unique, in reading order, as the bundle needs (SPEC §1: one node per path).

    When the numbering restarts in a part (`Part I` … `1 Introduction`, `Part II` … `1 Main commands`),
    every numbered clause inside a part is qualified by the part's designator (`I.1`, `II.1`, `II.2.1`) and
    sits one level deeper, under its part. A path that still repeats (a change log numbered by version
    under a chapter) becomes `2.5 (2)`, `2.5 (3)`, the rule of repeated unnumbered titles, so that citations
    stay stable across imports. Unnumbered titles are made unique where they are written."""
    owners: dict[str, set[str | None]] = {}
    for heading in ordered:
        if heading.number is not None and heading.depth and heading.number.kind in ("clause", "annex_clause"):
            owners.setdefault(heading.number.path, set()).add(heading.division)
    restart = any(len(parts) > 1 and parts != {None} for parts in owners.values())  # a number met again in another part
    seen: dict[str, int] = {}
    for heading in ordered:
        if heading.number is None or heading.depth == 0:
            continue
        path = heading.explicit or heading.number.path
        if restart and heading.division and heading.number.kind in ("clause", "annex_clause"):
            path = f"{heading.division}.{path}"
            heading.depth += 1
        folded = path.lower()
        seen[folded] = seen.get(folded, 0) + 1
        if seen[folded] > 1:
            path = f"{path} ({seen[folded]})"
        if path != heading.number.path or bare_annex(heading.number):
            heading.explicit = path


def bare_annex(number: Number) -> bool:
    """An annex printed as its letter alone (`A` over `Packages and macros`), or after a word the bundle does not know
    for an annex (`Apéndice A`, `Приложение A`): its path is written `{#A}`, since a heading `# A Packages and
    macros` would read as an unnumbered title."""
    if number.kind != "annex":
        return False
    read = parse_number(number.path)
    return " " not in number.path or read is None or read.kind != "annex"


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
            if line.text.rstrip().endswith(LINE_END_HYPHEN):  # the line ends in a word broken at its hyphen: it goes on below
                rest += LINE_END_HYPHEN
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
        text_key, bare_key, rest_key = _line_keys(line.text)
        if bare_key is not None and bare_key != key:  # `Appendix A` above the title `Appendix`
            continue
        whole = rest_key == key or text_key == key or same_letters(rest_key, key)
        if not whole and top and line.bottom > top + 2 * line.size:
            continue  # a line holding the title among other words, two lines or more above the view the bookmark opens
        before = _piece_before(stream, position)
        if (
            whole
            or (before is not None and rest_key + _line_keys(stream[before].text)[0] == key)
            or _residue(key, rest_key)
            or text_key.endswith(key)
            or rest_key.startswith(key)
            or (key in text_key and len(text_key) <= len(key) + 12)
            or (
                len(rest_key) >= 6
                and key.startswith(rest_key)
                and (
                    rest_key + "".join(_line_keys(stream[k].text)[0] for k in range(position + 1, min(position + 8, len(stream))))
                ).startswith(key)
                and not _BULLET_ITEM.match(line.text)
            )
        ):
            # the line that holds the whole title first (not two bullet items that spell it together), then the nearest
            rank = (0 if whole else 1, abs(line.top - top) if top is not None else 0.0)
            if best is None or rank < best[0]:
                best = (rank, position)
    return best[1] if best else None


def _moves_over(outline: list[OutlineEntry], index: int, stream: list[Line], opening: list[int]) -> bool:
    """Whether the first lines of the next page (`opening`) confirm that the bookmark `index`, anchored under its page's
    last line, went over to that page: one of them holds its title as half its letters or more, or the title of a
    bookmark after it set at the same place (`<` and `6. Mittelwertsatz` under a page's last line, the next page opening with `Listing 6.
    Mittelwertsatz [2, p. 17]`)."""
    entry = outline[index]
    keys = [_line_keys(stream[position].text)[0] for position in opening]
    for later in outline[index:]:
        if (later.page, later.top) != (entry.page, entry.top):
            break
        number = parse_number(later.title)
        wanted = title_key(number.title if number and number.title else later.title)
        if len(wanted) >= 4 and any(wanted in key and 2 * len(wanted) >= len(key) for key in keys):
            return True
    return False


def _opening_next_page(stream: list[Line], by_page: dict[int, list[int]], page: int, title: str, taken: set[int]) -> int | None:
    """The line that opens the page after a bookmark's target page and prints the whole title, when the target page
    prints it nowhere: an anchor set before the page break (`Bibliography` anchored under the last section of the
    chapter before, on the page before the one its heading opens). The page's top line, wherever the reading order put it
    (an index's title over its two columns)."""
    following = by_page.get(page + 1)
    wanted = title_key(title)
    if not following or any(wanted in _line_keys(stream[position].text)[::2] for position in by_page.get(page, [])):
        return None  # the target page prints the title (a line an earlier bookmark of the same title took)
    top = max(following, key=lambda position: stream[position].top)
    if top in taken:
        return None
    text_key, _, rest_key = _line_keys(stream[top].text)
    return top if wanted in (text_key, rest_key) else None


@functools.lru_cache(maxsize=1 << 12)
def _line_keys(text: str) -> tuple[str, str | None, str]:
    """A line's title key, the key of its printed number when the number stands alone, and the key of the title after
    the number (else the whole line's): each line is compared with every bookmark of its page, read once."""
    text_key = title_key(text)
    printed = parse_number(clean_inline(text))
    bare_key = title_key(printed.path) if printed and not printed.title else None
    return text_key, bare_key, title_key(printed.title) if printed and printed.title else text_key


def _residue(bookmark: str, printed: str) -> bool:
    """A bookmark's title key that is a printed title's with a short run holding digits inside it: a command the outline
    wrote as code (`No me funciona "026E30F subsubsubsection.` for the printed `No me funciona \\subsubsubsection.`)."""
    extra = len(bookmark) - len(printed)
    if not 0 < extra <= 8 or len(printed) < 12:
        return False
    common = 0
    while common < len(printed) and bookmark[common] == printed[common]:
        common += 1
    # the run may begin with the letter that follows it (`s026e30fsub` for `sub`): try each place up to the first change
    return any(
        bookmark[start + extra :] == printed[start:] and any(char.isdigit() for char in bookmark[start : start + extra])
        for start in range(4, common + 1)
    )


def _printed_number(stream: list[Line], position: int, title: str, body_size: float | None = None) -> Number | None:
    """The clause number printed with a heading: on its line, or on the lines just above (`Chapter 2` / `CHAPTER` `TWO`).
    With `body_size`, a bare number alone on the line above counts only when set larger than the body text or bold,
    as a chapter's number is: in an index, `… 474` above the letter group `Z` is an entry's page."""
    line = heading_text(stream[position])
    lettered = LETTERED_ANNEX.match(line)
    if lettered and lettered.group("letter") not in "IVX" and title_key(lettered.group("title")) == title_key(title):
        return Number(lettered.group("letter"), lettered.group("title"), "annex")  # `A. Packages`: the appendix A
    number = parse_number(line)
    if number and number.title:
        inner = parse_number(number.title) if "." not in number.path else None
        wanted = title_key(title)[:20]
        if inner and inner.title and ("." in inner.path or (wanted and title_key(inner.title).startswith(wanted))):
            # `24 1.2 Title`, `1 8 Title`: a line number left in the margin, then the clause's
            return inner
        chapter = _chapter_over_line_number(stream, position, number)
        return Number(chapter.path, number.title, "clause") if chapter else number
    if number and number.kind == "annex" and " " in number.path:
        return number  # `Appendix A` printed over the title the contents name (`A Appendix`): the path as printed
    page, size = stream[position].page, stream[position].size
    # a number set above a title is its chapter's when it is nearly as large (`Chapter 1` at 20.7 pt over a 24.9 pt
    # title); a label of a drawing above the heading, in text size, is not
    above = [
        text
        for k in range(max(0, position - 2), position)
        if stream[k].page == page and ((text := _unraised(stream[k].text)) and (stream[k].size >= 0.75 * size or CHAPTER_WORD.match(text)))
    ]
    if body_size is not None and position > 0 and stream[position - 1].page == page:
        line_above = stream[position - 1]
        text_above = clean_inline(line_above.text)
        bare = re.fullmatch(r"\d{1,4}(?:\.\d{1,3})*\.?", text_above)
        # bold throughout, counted strictly: `marked` forgives one character, which would make any lone digit bold
        bold = line_above.bold_prefix > 0 and line_above.bold_prefix >= len(line_above.text.rstrip()) - 1
        if bare and not (line_above.size >= body_size + 0.8 or bold):
            # an index entry's page `474` above the letter group `Z`, a drawing's label `1` above a heading: set as the
            # body, no chapter's number
            return None
    if above:
        chapter = _chapter_lines(above)
        if chapter:
            return chapter
    return None


def _running_header_over(stream: list[Line], position: int, named: set[str]) -> bool:
    """Whether the line over a heading is a running header, a word and a number whose word is the title of a bookmark
    before (`Download 44` over `GPL`, under the chapter `Download`: the page's number, no designation of the heading).
    A chapter's designation names no bookmark (`Capítulo 1` over `Introducción`)."""
    above = position - 1
    if above < 0 or stream[above].page != stream[position].page:
        return False
    match = _DESIGNATION.match(_unraised(stream[above].text))
    return match is not None and title_key(match.group("word")) in named


def _number_lines_above(stream: list[Line], position: int, headings: dict[int, Heading], taken: set[int]) -> None:
    """The lines above a heading that print its number alone (`Chapter 2`, `Capítulo 1`, `CHAPTER` / `TWO`) belong to
    the heading, not to the text of the clause before it; a heading whose own line is numbered has none."""
    own = parse_number(heading_text(stream[position]))
    if own and own.title and not _chapter_over_line_number(stream, position, own):
        return
    for above in range(position - 1, max(-1, position - 3), -1):
        if stream[above].page != stream[position].page or above in headings or above in taken:
            return
        text = _unraised(stream[above].text)
        number = parse_number(text)
        if not ((number and not number.title) or CHAPTER_WORD.match(text) or spelled_number(text) or _designation(text)):
            return
        headings[above] = Heading(None, "", 0)  # part of the heading below
        taken.add(above)


def _unraised(text: str) -> str:
    """A line as its words read, a word set small and high beside a large numeral (`Hoofdstuk` over the foot of a
    71 pt `1`, which the text layer marks as raised, `^{Hoofdstuk} 1`) read as a word: a chapter's designation."""
    return clean_inline(re.sub(r"\^\{([^\W\d_][^{}]*)\}", r"\1", text))


def _chapter_over_line_number(stream: list[Line], position: int, number: Number) -> Number | None:
    """The chapter designation printed alone over a heading line whose own leading number is another one (`Capítulo 3`
    over `99 Nullam cursus`): that number is a line number the margin put before the title (every third line numbered,
    too few for the page's margin numbers to be dropped), and the chapter's number is the designation's."""
    above = position - 1
    if "." in number.path or above < 0 or stream[above].page != stream[position].page:
        return None
    chapter = _designation(clean_inline(stream[above].text))
    # set as large as the title, as a chapter's designation is (a contents entry `Index 41` above the first heading is not)
    if chapter is None or chapter.kind != "clause" or chapter.path == number.path or stream[above].size < 0.9 * stream[position].size:
        return None
    return chapter


def _chapter_lines(above: list[str]) -> Number | None:
    joined = " ".join(above[-2:])
    number = parse_number(above[-1]) or parse_number(joined)
    if number and not number.title:
        return number
    designation = _designation(above[-1])
    if designation:
        return designation
    if len(above) >= 2 and CHAPTER_WORD.match(above[-2]):
        value = int(above[-1]) if above[-1].isdecimal() else spelled_number(above[-1])
        if value:
            return Number(str(value), "", "clause")
    return None


def _designation(text: str) -> Number | None:
    """A chapter's or an appendix's designation in any language, a word and a number or a letter alone on a line
    (`Capítulo 1`, `Глава 2`, `Apéndice A`): the chapter `1`, or the appendix `Apéndice A` named as printed. A
    division (`Part 2`), a figure or a table is none."""
    match = _DESIGNATION.match(text)
    word = match.group("word") if match else ""
    if not match or not word[0].isupper() or word.isupper() or _NOT_DESIGNATION.match(word):
        return None  # in capitals throughout it is a running header and its page (`INHALTSVERZEICHNIS 2`)
    value = match.group("value")
    return Number(str(int(value)), "", "clause") if value.isdecimal() else Number(f"{match.group('word')} {value}", "", "annex")


# -- the tree from the text -------------------------------------------------------------------


def text_headings(
    stream: list[Line],
    body_size: float,
    furniture: list[str],
    pages: list[Page],
    anchors: dict[int, ContentsEntry] | None = None,
    toc_lines: set[int] | None = None,
) -> dict[int, Heading]:
    """Numbered headings found by layout (size, weight, centring) and kept only in numbering order.

    `anchors` are the headings the printed contents located: they are clauses whatever their layout,
    and the numbering order continues from them. `toc_lines`: the contents' positions when the caller has them already."""
    toc_lines = contents_positions(stream, pages) if toc_lines is None else toc_lines
    proper_titles = _proper_titles(furniture)
    sequencer = Sequencer()
    headings: dict[int, Heading] = {}
    consumed: set[int] = set()
    anchors = anchors or {}
    # the numbers the contents placed, per part (`3` of Part II does not hide `3` of Part VIII when each part restarts)
    part_starts = [
        position
        for position, line in enumerate(stream)
        if position not in toc_lines and _DIVISION.match(clean_inline(line.text)) and _set_apart(line, body_size)
    ]
    anchored_paths = {(bisect_right(part_starts, p), entry.number.path) for p, entry in anchors.items() if entry.number}
    by_size = sum(
        1 for line in stream if line.size >= body_size + 0.8 and (number := parse_number(clean_inline(line.text))) and number.title
    )
    pitch = _pitch(stream, body_size)
    edges = column_edges(stream, body_size)

    @functools.cache
    def dated() -> set[str]:
        """The numbers of the lines that read as a number and a date (`2 February 2015`): read once, when a date is met
        before any clause."""
        return {found.path for line in stream if (found := parse_number(clean_inline(line.text))) and _DATE.match(found.title)}

    body_font = _body_font(stream, body_size)
    size_only = by_size >= 5  # headings set in a larger font: bold or centred body-size lines are lists, not clauses
    lettered = _lettered_headings(stream, body_size, toc_lines | set(anchors))
    restart = False  # a part has just opened: its numbering may start again at 1
    for position, line in enumerate(stream):
        if position in consumed or position in toc_lines:
            continue
        if position in anchors:
            _anchor_heading(stream, position, anchors[position], headings, consumed, sequencer, body_size)
            restart = False
            continue
        if position in lettered:  # an appendix `A Implementation`: its clauses `A.1` follow (its heading comes below)
            sequencer.accept(Number(lettered[position][:1], "", "annex"))
            continue
        text = heading_text(line)
        if not text or (is_toc_line(line.text) and _ENDS_IN_PAGE.search(text)):
            continue  # a contents entry (a title ending in an ellipsis, `OCG-color, . . .`, has no page number)
        strong = line.size >= body_size + 0.8
        division = _DIVISION.match(text)
        if division and _set_apart(line, body_size):
            _division_heading(stream, position, division, body_size, headings, consumed)
            restart = True
            continue
        number = parse_number(text)
        if number and line.mono and line.size < body_size + 2 and line.bold_prefix < len(line.text.rstrip()) - 1:
            continue  # `1 int A[51];`: a numbered line of a listing set in a fixed pitch, no clause (a title in a bold
            # typewriter face throughout, `5.4.1 mydocclass`, is one); a typewriter face is often scaled a step up to
            # match the prose (`6 \nvarhookswarrow` at 11 pt beside 10 pt text, a symbol list's row), and that is no heading's size
        inner = parse_number(number.title) if number and number.title and "." not in number.path else None
        if inner and inner.title and "." in inner.path:
            number = inner  # `13 5.1 Basic code`: a line number left in the margin, then the clause's number
        body = ""
        used = [position]
        if CHAPTER_WORD.match(text) and position + 2 < len(stream):
            spelled = clean_inline(stream[position + 1].text)
            value = int(spelled) if spelled.isdecimal() else spelled_number(spelled)
            if value:
                title = clean_inline(stream[position + 2].text)
                used = [position, position + 1, position + 2]
                nxt = position + 3
                while nxt < len(stream) and _continues_title(stream[nxt], stream[nxt - 1]):
                    title = wrapped(title, stream[nxt - 1].text, stream[nxt].text)
                    used.append(nxt)
                    nxt += 1
                number = Number(str(value), proper_titles.get(title_key(title), title), "clause")
                strong = True
        elif number and not number.title and position + 1 < len(stream) and position + 1 not in anchors:
            # (a heading the contents located is its own: a drawing's label `4` above it is no number of it)
            following = stream[position + 1]
            if following.size >= body_size + 0.8 and following.page == line.page and not parse_number(clean_inline(following.text)):
                title = clean_inline(following.text)
                used = [position, position + 1]
                nxt = position + 2
                while nxt < len(stream) and _continues_title(stream[nxt], stream[nxt - 1]):
                    title = wrapped(title, stream[nxt - 1].text, stream[nxt].text)
                    used.append(nxt)
                    nxt += 1
                number = Number(number.path, title, number.kind)
                strong = True
        if number is None or not number.title:
            continue
        if _DATE.match(number.title) and (
            not sequencer.fits(number) or (not sequencer.current and _next_number(number.path) not in dated())
        ):
            continue  # `3 juillet 2022` under a title, `1 December 2022` over a revision note, before any clause, or a
            # date out of the clauses' order: a date, no clause (`2 February 2015` right after `1 Long-term values` is a
            # diary's chapter, and so is a first dated chapter that the next number, dated too, follows)
        # a title needs a word, or a letter in a line set bold throughout (`2.5.2 T1`, an encoding's name)
        if not re.search(r"[^\W\d_]{2,}", number.title) and not (
            re.search(r"[^\W\d_]", number.title) and line.bold_prefix >= len(line.text.rstrip()) - 1
        ):
            continue
        if strong and len(used) == 1:
            nxt = position + 1
            title = number.title
            while nxt < len(stream) and _continues_title(stream[nxt], stream[nxt - 1]):
                title = wrapped(title, stream[nxt - 1].text, stream[nxt].text)
                used.append(nxt)
                nxt += 1
            number = Number(number.path, title, number.kind)
        elif len(used) == 1 and position + 1 < len(stream) and _hangs_under(stream[position + 1], line):
            used.append(position + 1)  # a bold title in the body size wrapped onto a line set in under it
            number = Number(number.path, wrapped(number.title, line.text, stream[position + 1].text), number.kind)
        # bold from its number on; or its number bold and most of the line in a bold face, a word of the title set in
        # another font (a logo: `2 METAPOST compilation`)
        bold_heading = line.bold_prefix >= len(number.path) + 3 or (
            line.bold_prefix >= len(number.path) and bold_face(line.font) and len(number.title) >= 8  # not a drawing's `12 ab`
        )
        run_in = False
        # a bold title run into its paragraph (`1.1. Driving Factors. There are …`): the line's face is the prose's; a
        # line mostly in a bold face is a title whose bold run a word in another font breaks (`4.1 The draw command`)
        if not strong and bold_heading and line.bold_prefix < len(line.text.rstrip()) - 2 and len(used) == 1 and not bold_face(line.font):
            bold_text = clean_inline(line.text[: line.bold_prefix])
            bold_number = parse_number(bold_text)
            if bold_number and bold_number.title and bold_number.path == number.path:
                run_in = True
                body = clean_inline(line.text[line.bold_prefix :]) + (
                    LINE_END_HYPHEN if line.text.rstrip().endswith(LINE_END_HYPHEN) else ""
                )
                number = Number(number.path, bold_number.title.rstrip(". "), number.kind)
        # centred in its column, or a title in capitals centred between the edges of the page's prose (`1. INTRODUCTION`
        # in small capitals, as amsart sets its sections, where a wider block stretches the column the line is read in)
        capitals = number.title.isupper() and len(re.findall(r"[^\W\d_]", number.title)) >= 4
        weak = (centred(line) or (capitals and _centred_between(line, edges.get(line.page)))) and len(number.title) < 90
        whole_bold = line.bold_prefix >= len(line.text.rstrip()) - 1
        deep_bold = (whole_bold or run_in) and number.depth >= 3  # (a deep clause's bold title that runs into its text too)
        # a subclause number (`2.2.1.`) on a short line of its own with space above and below, in the body face
        spaced = number.depth >= 2 and len(used) == 1 and len(number.title) <= 80 and _spaced(stream, position, pitch)
        # a subclause number on a short line of its own set in a face not the prose's (italic `3.1 Citations in Text`)
        spaced = spaced or (
            number.depth >= 2
            and len(used) == 1
            and len(number.title) <= 80
            and not line.mono
            and bool(line.font)
            and line.font != body_font
            and abs(line.size - body_size) < 0.3
            and _stands_alone(stream, position, pitch, body_size)
        )
        if not (strong or bold_heading or weak or spaced) or (size_only and not strong and not deep_bold and not spaced):
            continue
        if len(number.title) > (300 if strong else 160) or (
            not run_in and not strong and number.title.endswith((".", ",", ";")) and len(number.title) > 60
        ):
            continue
        if not re.match(r"[A-Z0-9ÀÂÄÉÈÊÎÔÖÜÇ/\"'“(]", number.title) and not (strong or bold_heading or spaced):
            continue
        if (bisect_right(part_starts, position), number.path) in anchored_paths:
            continue
        if not sequencer.fits(number, skip=2 if strong else (1 if spaced else 0)):
            if not (restart and Sequencer().fits(number, skip=2 if strong else 0)):
                continue
            sequencer = Sequencer()  # the numbering starts again in this part
        restart = False
        sequencer.accept(number)
        title = number.title
        if title.isupper() and title_key(title) in proper_titles:
            title = proper_titles[title_key(title)]
        headings[position] = Heading(number, title, number.depth, body)
        consumed.update(used[1:])
        for extra in used[1:]:
            headings[extra] = Heading(None, "", 0)  # swallowed: part of the heading above
    if not anchors and not any(h.number is not None and h.number.kind in ("clause", "annex_clause") for h in headings.values()):
        _designated_headings(stream, body_size, headings, toc_lines)  # `I - Titre`, `a. Titre`: no arabic clause numbers
    chapter_size = _chapter_size(stream, headings, body_size)
    # the first clause, numbered or located by the printed contents: large lines before it are front matter
    first = min((p for p, h in headings.items() if h.depth and (h.number is None or h.number.kind != "division")), default=len(stream))
    styles = _heading_styles(stream, headings, body_size, set(anchors))
    # a first page without a heading of its own is a title page: its largest line names it, the rest is its text
    cover = [p for p in range(min(len(stream), 200)) if stream[p].page == stream[0].page]
    title_page = not any(p in headings for p in cover)
    title_line = largest_line(stream, cover)
    prose_cover = title_page and _prose_lines(stream, cover, body_size) >= PROSE_COVER
    in_index = False  # inside an index, whose letter groups (`A`, `B`, `Symbols`) are its sub-clauses
    signatures = signature_headings(stream, body_size, pitch, toc_lines | set(headings))
    margin = _margin_headings(stream, body_size, toc_lines | set(headings) | set(signatures), {page.index: page for page in pages})
    versions = _version_headings(stream, body_size, toc_lines | set(headings))
    depths = {  # an appendix set as a chapter: the depth of the numbered headings of its size (1 when none)
        position: Counter(
            h.depth for p, h in headings.items() if h.number is not None and h.depth and abs(stream[p].size - stream[position].size) < 0.3
        ).most_common(1)
        for position in lettered
    }
    depth_here = 1  # the depth of the last heading met: a heading in the margin sits one level below it
    large: list[int] = []  # the large unnumbered lines taken for headings before the first clause
    block_lines: set[int] = set()  # the lines under a large line turned down as a block of text, not a title
    for position, line in enumerate(stream):
        existing = headings.get(position)
        if existing is not None:
            in_index = bool(INDEX_TITLE.match(existing.title)) if existing.depth else in_index
            depth_here = existing.depth or depth_here
            continue
        if position in margin and position > first and not in_index:
            headings[position] = Heading(None, margin[position], depth_here + 1, keep_line=True)  # the synopsis stays text
            continue
        if position in lettered:  # an appendix set as a chapter, its letter before the title (`A Implementation`)
            depth_here = depths[position][0][0] if depths[position] else 1
            headings[position] = Heading(None, lettered[position], depth_here)  # titled with its letter, as bookmarked
            in_index = False
            continue
        if position in signatures and not in_index:  # a function's signature in a reference, named `name/arity`
            headings[position] = Heading(None, signatures[position][0], depth_here + 1, keep_line=True)  # the signature stays text
            continue
        if position in versions:  # a change log's entry, one level below the heading of the log
            number, title = versions[position]
            headings[position] = Heading(number, title, depth_here + 1)
            continue
        if position in toc_lines:
            continue
        text = clean_inline(line.text)
        group, rest = _index_group(line, stream[position + 1] if position + 1 < len(stream) else None) if in_index else ("", "")
        if group:  # a group set bold beside its first entry (`A` in the margin, then `activate . . . 5`; `Options`)
            headings[position] = Heading(None, group, 2, body=rest)
            continue
        if not text or parse_number(text):
            continue
        # (in a document with no clause found so far, its one level of large bold titles opens clauses from the start)
        opens = position > first or (
            first == len(stream) and line.size >= body_size + 0.8 and _depth_of_style(line, styles, body_size) is not None
        )
        depth = _styled_depth(stream, position, styles, text, body_size, pitch) if opens else None
        if depth is not None:  # set as the numbered headings of one level are, without a number (`\section*`)
            title, used = _wrapped_title(stream, position, text, body_size if line.size < body_size + 0.8 else None)
            headings[position] = Heading(None, title, depth or depth_here + 1)  # 0: one level below the heading above
            depth_here = depth or depth_here
            for extra in used:
                headings[extra] = Heading(None, "", 0)  # the rest of the wrapped title
            in_index = bool(INDEX_TITLE.match(title))
            continue
        if position in block_lines:
            continue  # a line of a block of large lines turned down below: no title's head of its own
        if len(text) > 60 and not (
            line.size >= body_size + 2 and position + 1 < len(stream) and _continues_title(stream[position + 1], line)
        ):
            continue  # (a large title's first line may be long when the title wraps on: a question set as a heading)
        marked = line.size >= body_size + 0.8 or line.bold_prefix >= len(text) - 1 or centred(line)
        if in_index and _INDEX_GROUP.match(text) and marked:
            headings[position] = Heading(None, text, 2)
            continue
        special = _SPECIAL_HEADINGS.match(text.rstrip(":.")) or INDEX_TITLE.match(text)
        big = line.size >= chapter_size - 0.5 and line.size >= body_size + 2
        if special and (big or marked):
            headings[position] = Heading(None, proper_titles.get(title_key(text), text.title() if text.isupper() else text), 1)
            in_index = bool(INDEX_TITLE.match(text))
        elif (
            big
            and position < first
            and len(text) > 2
            and (
                position == title_line
                or not title_page
                or line.page != stream[0].page
                or (prose_cover and _heads_prose(stream, position, body_size))
            )
        ):
            title, used = _wrapped_title(stream, position, text)  # on the first page, only its largest line
            if len(title) > (150 if line.page == stream[0].page else 300) or text.endswith((",", ";")):
                block_lines.update(used)  # (nor are the lines it wraps onto)
                continue  # a block of large text (a title page's authors), no heading; past the first page a title
                # may be a long question over up to four lines (a FAQ's)
            headings[position] = Heading(None, title.title() if title.isupper() else title, 1)
            large.append(position)
            for extra in used:
                headings[extra] = Heading(None, "", 0)
            in_index = False
    for position in _specimens(stream, large, body_size):
        del headings[position]
    _drop_repeated_titles(stream, headings, first)
    _drop_unlisted_twins(headings, anchors)
    _divisions_of(headings)
    unique_paths([headings[position] for position in sorted(headings)])
    return headings


SPECIMEN_RUN = 4  # this many large one-word lines in a row, no running text between them, show a font


def _specimens(stream: list[Line], large: list[int], body_size: float) -> list[int]:
    """Of the large lines taken for headings (`large`, in order), those that show a font rather than head a clause: a run
    of `SPECIMEN_RUN` or more, each one or two words not followed by running text, with none between one and the next
    (a glyph chart's `A₀₀₄₁`, a type specimen's `hamburgefonty` repeated in each face). A heading opens text; a
    specimen's lines follow one another with only labels (code points, sizes, face names) between them."""

    def prose(line: Line) -> bool:
        return abs(line.size - body_size) < 0.3 and len(clean_inline(line.text).split()) >= 4

    def shown(position: int) -> bool:  # one or two words that open no text (no running text on the two lines below)
        below = [line for line in stream[position + 1 : position + 3] if line.page == stream[position].page]
        return len(clean_inline(stream[position].text).split()) <= 2 and not any(prose(line) for line in below)

    found: list[int] = []
    run: list[int] = []
    for position in [*large, -1]:
        is_shown = position >= 0 and shown(position)  # (read once: a line that breaks the run may start the next)
        if is_shown and (not run or not any(prose(line) for line in stream[run[-1] + 1 : position])):
            run.append(position)
            continue
        if len(run) >= SPECIMEN_RUN:
            found.extend(run)
        run = [position] if is_shown else []
    return found


# a heading designated by a roman numeral or a letter and a stop, a bracket or a dash (`I - Titre`, `IV. Titre`, `a. Titre`,
# `A) Titre`), the numbering of documents without clause numbers (French school and course documents)
_DESIGNATED_HEADING = re.compile(r"^(?P<value>[IVXLC]{1,7}|[A-Za-z])(?:[.)]|\s[-–—])\s+(?P<title>\S.{0,118})$")


def _designators(value: str) -> list[tuple[str, int]]:
    """The schemes a designator may belong to, with its rank in each: `I` is roman 1 or the capital letter 9, `c` a letter."""
    readings = []
    if value.isupper() and (number := roman_value(value)):
        readings.append(("roman", number))
    if len(value) == 1:
        readings.append(("upper" if value.isupper() else "lower", ord(value.lower()) - ord("a") + 1))
    return readings


def _designated_headings(stream: list[Line], body_size: float, headings: dict[int, Heading], toc_lines: set[int]) -> None:
    """Headings numbered by roman numerals and letters instead of clause numbers (`I - Ça sert à quoi ?`, then `a.
    Changements …`, `b. Professor.sty` under it): each scheme a level, in the order the document first uses them, its
    designators in sequence (a level restarts at 1 under each heading of the level above), every heading of a level
    in one style and set apart from the text (larger, or bold on a line of its own). The bookmarks of such documents
    name the titles alone, so the heading is the title, unnumbered, at its level's depth, as it is with the outline."""
    pitch = _pitch(stream, body_size)
    levels: list[tuple[str, Style]] = []  # (scheme, style) of each level, the outermost first
    last: list[int] = []  # the last rank met at each level
    found: list[tuple[int, str, int, list[int]]] = []
    for position, line in enumerate(stream):
        if position in headings or position in toc_lines:
            continue
        text = clean_inline(line.text)
        match = _DESIGNATED_HEADING.match(text)
        title = match.group("title").strip() if match else ""
        if not match or not re.search(r"[^\W\d_]{2,}", title) or title.endswith((",", ";", ":")):
            continue
        wraps = _designated_wraps(stream, position, body_size)
        if not (
            line.size >= body_size + 0.8 or (_style(line, body_size)[1] and _designated_apart(stream, position, wraps, pitch, body_size))
        ):
            continue
        for line_below in wraps:
            title = wrapped(title, stream[line_below - 1].text, stream[line_below].text)
        for scheme, rank in _designators(match.group("value")):
            level = next((k for k, (known, _) in enumerate(levels) if known == scheme), None)
            if level is None:
                fits = rank == 1 and (not levels or len(last) == len(levels))  # a new level opens at its first designator
                level = len(levels)
            else:
                fits = _style(line, body_size) == levels[level][1] and (rank == 1 if len(last) <= level else rank == last[level] + 1)
                fits = fits and len(last) >= level  # under a heading of every level above
            if not fits:
                continue
            if level == len(levels):
                levels.append((scheme, _style(line, body_size)))
            del last[level:]
            last.append(rank)
            found.append((position, title, level + 1, wraps))
            break
    if sum(1 for _, _, depth, _ in found if depth == 1) < 2:
        return  # one designated line alone is a list item or a note, not the document's numbering
    for position, title, depth, wraps in found:
        headings[position] = Heading(None, title, depth)
        for line_below in wraps:
            headings[line_below] = Heading(None, "", 0)  # the rest of the wrapped title


def _designated_wraps(stream: list[Line], position: int, body_size: float) -> list[int]:
    """The lines a designated heading's title wraps onto (`III. THE LAMMPS IMPLEMENTATION OF` / `OXDNA`): right below,
    in its style, no designator of their own; at most two."""
    style = _style(stream[position], body_size)
    below: list[int] = []
    following = position + 1
    while (
        following < len(stream)
        and len(below) < 2
        and _continues_title(stream[following], stream[following - 1])
        and _style(stream[following], body_size) == style
        and not _DESIGNATED_HEADING.match(clean_inline(stream[following].text))
    ):
        below.append(following)
        following += 1
    return below


def _designated_apart(stream: list[Line], position: int, wraps: list[int], pitch: float, body_size: float) -> bool:
    """A designated heading in the body size (or smaller) on lines of its own, as `_stands_alone` reads a line: one cell,
    or two when the first is the designator alone (`I.` set a quad before `INTRODUCTION`, a gap wide enough to cut
    the line), with more space above than between a paragraph's lines (or at the head of a column) and no line of its
    style above or below it (past the lines its title wraps onto) but another designated heading (a section's
    heading right over its first subsection's)."""
    line = stream[position]
    end = wraps[-1] if wraps else position
    designator_cell = len(line.cells) == 2 and bool(re.fullmatch(r"(?:[IVXLC]{1,7}|[A-Za-z])[.)]?", line.cells[0].strip()))
    if line.mono or (len(line.cells) > 1 and not designator_cell) or not line.text.strip():
        return False
    above = stream[position - 1] if position > 0 else None
    below = stream[end + 1] if end + 1 < len(stream) else None
    style = _style(line, body_size)

    def designated(at: int) -> bool:  # a designated heading's line, or the wrapped end of one (a section right above)
        return any(_DESIGNATED_HEADING.match(clean_inline(stream[k].text)) for k in range(max(0, at - 2), at + 1))

    if (
        below is not None
        and below.page == stream[end].page
        and _style(below, body_size) == style
        and not _DESIGNATED_HEADING.match(clean_inline(below.text))
    ):
        return False
    if above is None or above.page != line.page:
        return True
    under_heading = _style(above, body_size) == style and designated(position - 1)
    if _style(above, body_size) == style and not under_heading:
        return False
    # (a line higher on its page than the line before it opens a column)
    return under_heading or above.top - line.top > 1.3 * pitch or above.top < line.top


# the name a synopsis line set out in the margin opens with: an environment (`\begin{displayquote}[⟨cite⟩]`, its
# `\end{displayquote}` below), a command (`\newrobustcmd{⟨command⟩}…`, `\@enablequotes`), an option before its values
# (`strict=true, false`) or a term before the words that describe it (`article An article in a journal …`)
_MARGIN_NAME = re.compile(
    r"^(?:(?P<begin>\\(?P<edge>begin|end)\{)(?P<environment>[^{}\s]+)\}|(?P<command>\\(?:[^\W\d_]|@)[\w@:]*)"
    r"|(?P<option>[^\W\d_][\w@:.-]+)(?:(?==)|\s*$)|(?P<term>[^\W\d_][\w@:.-]+)\s)"
)
MARGIN_RUN = 8  # more lines than this in a row out in the margin are a wide block (a listing, a table), no headings


def _margin_headings(stream: list[Line], body_size: float, skip: set[int], pages: dict[int, Page]) -> dict[int, str]:
    """Headings set out in the left margin, left of the text column, in the body size: a command, an environment, an
    option or a term named at the head of its synopsis line, the name set against the column's edge and the rest
    running on into the column (`\\newrobustcmd{⟨command⟩}[⟨arguments⟩]`, `strict=true, false`), its description
    below at the column's edge. Each is `position: title` (the line stays text of its clause). A line that names the
    command of the line right above again (its starred form) or ends an environment is that entry's; more than
    `MARGIN_RUN` lines in a row are a wide block, and a document with fewer than three has no such headings. A line
    between two rules that run across it is a table's row (a name and its meaning), whatever column it starts in."""
    edges = column_edges(stream, body_size)
    found: dict[int, str] = {}
    run: list[int] = []
    last_name = ""

    def close_run() -> None:
        # a synopsis is followed by its description at the column's edge (or on the next page); more than
        # `MARGIN_RUN` lines, or a line elsewhere after them, make a block set out of the text (a listing, a drawing)
        after = run[-1] + 1 if run else len(stream)
        if run and after < len(stream) and stream[after].page == stream[run[-1]].page:
            left = edges[stream[after].page][0]
            described = left - 2 <= stream[after].x0 <= left + 1.5 * stream[after].size
        else:
            described = True
        if len(run) > MARGIN_RUN or not described:
            for member in run:
                found.pop(member, None)
        run.clear()

    for position, line in enumerate(stream):
        edge = edges.get(line.page)
        if edge is None or position in skip or not (line.x0 < edge[0] - max(1.5 * line.size, 12.0) and line.x1 <= edge[1] + 2):
            close_run()
            continue
        if _ruled_across(line, pages.get(line.page)):
            close_run()
            continue
        if run and run[-1] != position - 1:
            close_run()
        run.append(position)
        text = clean_inline(line.text)
        named = _MARGIN_NAME.match(text)
        if abs(line.size - body_size) > 1.5 or not named or named.group("edge") == "end":
            continue  # `\end{displayquote}` under `\begin{displayquote}`
        # a label wholly in the margin, unless a command alone set against the column in the prose's size
        # (`\doublevolsdelim`); the smaller names a documented source stacks in the margin over each definition
        # (`\rrU`, `\RubikU`, `\textRubikU`) are markers of its code, no headings
        alone = named.group("command") and len(named.group(0)) >= len(text) - 1 and abs(line.size - body_size) < 0.3
        if line.x1 <= edge[0] + 2 and not alone:
            continue
        # the name is set against the column's edge (where it ends is estimated from the width of the line's first
        # piece and its letters): a listing set wider than the text starts its lines at one x, whatever they hold
        piece, start, end = line.spans[0] if line.spans else (line.text, line.x0, line.x1)
        ends = start + (end - start) * len(named.group("begin") or named.group(0)) / max(len(piece.strip()), 1)
        if not edge[0] - 2.5 * line.size <= ends <= edge[0] + 0.6 * line.size:
            continue
        below = stream[position + 1] if position + 1 < len(stream) else None
        # a term before its description (`article An article in a journal …`), which goes on at the edge, or the next
        # term of a list out in the margin (fields described together, or each on its own line): the run's end checks
        # that a description at the edge follows
        if named.group("term") and (
            below is None
            or below.page != line.page
            or not (abs(below.x0 - edge[0]) <= 2 or below.x0 < edge[0] - max(1.5 * below.size, 12.0))
        ):
            continue
        title = named.group("environment") or named.group("command") or named.group("option") or named.group("term")
        if len(run) > 1 and title_key(title) == last_name:
            continue  # `\newrobustcmd*{…}` under `\newrobustcmd{…}`: the same command's other form
        last_name = title_key(title)
        found[position] = title
    close_run()
    return found if len(found) >= 3 else {}


VERSION_RUN = 3  # a change log has this many entries or more, set alike


def _version_headings(stream: list[Line], body_size: float, skip: set[int]) -> dict[int, tuple[Number | None, str]]:
    """The entries of a change log: lines that name a version and its date and nothing else (`2.5k 2020-10-05`,
    `1.22 08-05-2021`, or the date first, `[2015/06/01 v0.1]`), set apart as headings are (bold throughout, or larger
    than the prose), at least `VERSION_RUN` of them in one style; and a date alone in that style between them (a
    release that names no version, `[2018/12/01]`; a date elsewhere is no entry). A version that is a plain number
    (`2.5 2017-11-22`) is the entry's number, its date the title (the path is made unique where a clause has that
    number); another (`2.5k`, `bltx-v1.2-5`) is part of the title. Each is `position: (number or None, title)`."""
    found: dict[Style, dict[int, tuple[Number | None, str]]] = {}
    dated: dict[Style, dict[int, tuple[Number | None, str]]] = {}  # a date alone: an entry only in a log of versions
    for position, line in enumerate(stream):
        if position in skip:
            continue
        text = clean_inline(line.text)
        match = VERSION_DATE.match(text) or DATE_VERSION.match(text)
        if not match or not (line.size >= body_size + 0.8 or line.bold_prefix >= len(line.text.rstrip()) - 1):
            continue
        version, date = match.group("version"), match.group("date")
        if version is None:
            dated.setdefault(_style(line, body_size), {})[position] = (None, text)
            continue
        numbered = re.fullmatch(r"\d+(?:\.\d+)*", version)
        found.setdefault(_style(line, body_size), {})[position] = (Number(version, date, "clause"), date) if numbered else (None, text)
    logs: dict[int, tuple[Number | None, str]] = {}
    for style, entries in found.items():
        if len(entries) >= VERSION_RUN:
            logs.update(entries)
            logs.update({p: entry for p, entry in dated.get(style, {}).items() if min(entries) < p < max(entries)})
    return logs


# a heading led by a capital letter alone, an appendix's (`A Implementation`, `B Biblatex datamodel file`)
_LETTER_LED = re.compile(r"^(?P<letter>[A-Z])\.?\s+(?P<title>[^\W\d_].{1,80})$")


def _lettered_headings(stream: list[Line], body_size: float, skip: set[int]) -> dict[int, str]:
    """Appendices set as chapters are, their letter before the title and no word for it (`A Implementation`,
    `A. Symbology`): lines led by a capital letter alone, larger than the prose and bold or larger still, whose letters
    run A, B, C … in reading order in one size; two of them at least, or `A` alone when a clause `A.1` follows it.
    Where they are set less apart (in the prose's size and bold throughout, or a little larger without bold, as journal
    templates set `A RESEARCH METHODS`), only when `A.1` follows `A`. Each is `position: title`, the letter leading
    the title without its stop."""
    candidates = []
    for position, line in enumerate(stream):
        if position in skip:
            continue
        whole_bold = line.bold_prefix >= len(line.text.rstrip()) - 1
        if line.size < body_size + 0.8 and not (whole_bold and abs(line.size - body_size) < 0.3):
            continue
        match = _LETTER_LED.match(clean_inline(line.text))
        if not match or match.group("title").endswith((".", ",", ";", ":")):
            continue
        bold = line.bold_prefix >= 2 or bold_face(line.font)
        weak = line.size < body_size + 0.8 or not (bold or line.size >= body_size + 2)
        if weak and not (whole_bold or match.group("title").isupper() or line.size >= body_size + 0.8):
            continue
        if match.group(0)[1] == "." and not bold:
            continue  # `A. Author` under a title: an initial, not an appendix (whose heading is bold)
        candidates.append((position, match.group("letter"), f"{match.group('letter')} {match.group('title')}", round(line.size, 1), weak))
    found: dict[int, str] = {}
    titles = {position: (title, weak) for position, _, title, _, weak in candidates}
    for size in {size for _, _, _, size, _ in candidates}:
        run = letter_run([(position, letter) for position, letter, _, at, _ in candidates if at == size])
        kept = [(position, titles[position][0]) for position in run]
        weak_kept = any(titles[position][1] for position in run)
        if len(kept) == 1 or (kept and weak_kept):
            after = (parse_number(clean_inline(line.text)) for line in stream[kept[0][0] + 1 :])
            kept = kept if any(n is not None and n.kind == "annex_clause" and n.path == "A.1" for n in after) else []
        found.update(kept)
    return found


def _ruled_across(line: Line, page: Page | None) -> bool:
    """Whether rules run across the whole of a line both above and below it: the line is inside a ruled table (a
    table wider than the text starts its rows left of the column, where synopsis lines start)."""
    if page is None:
        return False
    across = [y for x0, x1, y in page.hrules if x0 <= line.x0 + 2 and x1 >= line.x1 - 2]
    return any(y > line.top for y in across) and any(y < line.bottom for y in across)


def column_edges(stream: list[Line], body_size: float) -> dict[int, tuple[float, float]]:
    """The left and right edges of each page's text column, from its lines of prose in the body size: the left, the
    leftmost x that three lines or more and a quarter of them start at (per page: a two-sided document sets its left
    margin wider on one side; a list indented on the page does not move it); the right, where three lines or more of
    those end alike (justified text shares its edge: a long address that runs into the margin does not move it), else
    the furthest any of them ends. A page with too little prose to tell has none."""
    starts: dict[int, list[Line]] = {}
    for line in stream:
        if abs(line.size - body_size) < 0.5 and len(line.text) >= 30 and not line.mono and len(line.cells) == 1:
            starts.setdefault(line.page, []).append(line)
    edges: dict[int, tuple[float, float]] = {}
    for page, lines in starts.items():
        aligned_at = [x for x in (line.x0 for line in lines) if _starting_at(lines, x) >= max(3, 0.25 * len(lines))]
        if aligned_at:
            aligned = [line for line in lines if abs(line.x0 - min(aligned_at)) <= 1.5]
            right, shared = Counter(round(line.x1) for line in aligned).most_common(1)[0]
            edges[page] = (min(line.x0 for line in aligned), float(right) if shared >= 3 else max(line.x1 for line in aligned))
    return edges


def _starting_at(lines: list[Line], x: float) -> int:
    """How many of the lines start within 1.5 pt of `x`."""
    return sum(1 for line in lines if abs(line.x0 - x) <= 1.5)


def _drop_unlisted_twins(headings: dict[int, Heading], anchors: dict[int, ContentsEntry]) -> None:
    """A chapter-level title the printed contents list once, unnumbered, and that they located: a line elsewhere set
    as a chapter's with the same title (`Bibliography` typeset large as an example in the text) is no second chapter
    of that name; its line stays text. The contents list every chapter, so that line is none of them."""
    listed = Counter(title_key(entry.title) for entry in anchors.values() if entry.number is None)
    for position in [p for p, heading in headings.items() if p not in anchors and heading.depth == 1 and heading.number is None]:
        if listed.get(title_key(headings[position].title)) == 1:
            del headings[position]
            following = position + 1
            while following in headings and not headings[following].depth:  # the rest of its wrapped title is text again
                del headings[following]
                following += 1


def _drop_repeated_titles(stream: list[Line], headings: dict[int, Heading], first: int) -> None:
    """A large unnumbered title before the first clause that a later page prints again as a heading (a title page,
    then the same title over the first page of the text) is no clause of its own: the later heading is the one, so
    the title is not made `Title (2)` there; the title page's lines stay text."""
    by_title: dict[str, list[int]] = {}
    for position in sorted(headings):
        heading = headings[position]
        if heading.depth and heading.number is None and title_key(heading.title):
            by_title.setdefault(title_key(heading.title), []).append(position)
    for positions in by_title.values():
        last = positions[-1]
        for position in positions[:-1]:
            if position < first and stream[position].page != stream[last].page and not _SPECIAL_HEADINGS.match(headings[position].title):
                del headings[position]
                following = position + 1
                while following in headings and not headings[following].depth:  # the rest of its wrapped title is text again
                    del headings[following]
                    following += 1


def _index_group(line: Line, following: Line | None) -> tuple[str, str]:
    """A letter group or a named group of an index set bold at the start of the line of its first entry and out
    in the margin left of the entries (`A` apart, then `activate . . . 5`; `Commands \\DeclareCharacterInheritance
    . . . 19`): its title and the entry; else empty."""
    text = line.text.rstrip()
    hanging = following is not None and following.page == line.page and line.x0 < following.x0 - 5
    if len(line.spans) >= 2 and line.bold_prefix >= len(line.spans[0][0].rstrip()):
        head, rest = line.spans[0][0], " ".join(span[0] for span in line.spans[1:])  # set apart by a gap
    elif 0 < line.bold_prefix < len(text) and hanging:
        head, rest = text[: line.bold_prefix], text[line.bold_prefix :]
    else:
        return "", ""
    head, rest = clean_inline(head), clean_inline(rest)
    named = hanging and re.fullmatch(r"[^\W\d_]+(?: [^\W\d_]+){0,2}", head) and not rest.startswith(".") and _ENDS_IN_PAGE.search(rest)
    return (head, rest) if _INDEX_GROUP.match(head) or named else ("", "")


Style = tuple[float, bool, str]  # a heading's font size, whether it is bold throughout, and its font in the body size


PROSE_COVER = 8  # a first page with this many lines of running text is a page of the document, not a title page


def _prose_lines(stream: list[Line], positions: list[int], body_size: float) -> int:
    """How many of `positions` are lines of running text: in the body size, not code, across most of their column."""
    return sum(
        1
        for p in positions
        if abs(stream[p].size - body_size) < 0.3
        and not stream[p].mono
        and stream[p].x1 - stream[p].x0 >= 0.6 * (stream[p].column[1] - stream[p].column[0])
    )


def _heads_prose(stream: list[Line], position: int, body_size: float) -> bool:
    """A large line that opens running text: the next two lines below it on its page are in the body size (a short
    note's first page, set with a title and then its sections, has its sections' titles so; a title page's subtitle,
    authors or date are set large or alone)."""
    below = [line for line in stream[position + 1 : position + 3] if line.page == stream[position].page]
    return len(below) == 2 and all(abs(line.size - body_size) < 0.3 and not line.mono for line in below)


def _style(line: Line, body_size: float) -> Style:
    """A line's style. In the body size the font counts too: a heading's face (`NimbusSanL-Bold`, `SFBX1200`) is
    told from the prose's at one size by its name; a larger size sets a line apart by itself. A line in the body size
    is bold when it is bold throughout; a larger one when it starts bold, its first word at least (a title set bold
    with a name in a typewriter face, `5 Generic Code (tracklang.tex)`, is in its level's bold style)."""
    text = line.text.rstrip()
    if line.size < body_size + 0.8:
        return (round(line.size, 1), line.bold_prefix >= len(text) - 1, line.font)
    return (round(line.size, 1), line.bold_prefix >= min(len(text) - 1, 4), "")


def _pitch(stream: list[Line], body_size: float) -> float:
    """The usual distance from one line of body text to the next (the leading), to tell a line set apart by space."""
    steps = [
        previous.top - line.top
        for previous, line in pairwise(stream)
        if line.page == previous.page
        and abs(line.size - body_size) < 0.3
        and abs(previous.size - body_size) < 0.3
        and 0 < previous.top - line.top < 3 * body_size
    ]
    return sorted(steps)[len(steps) // 2] if steps else 1.2 * body_size


def _stands_alone(stream: list[Line], position: int, pitch: float, body_size: float) -> bool:
    """A line in the body size that is a heading's by its place: a short line of one cell, not code, with more space
    above it than between the lines of a paragraph, and no bold line of its own size right above or below (a block of
    bold lines is a table's head or a list of terms, a bold word inside a paragraph is no line of its own)."""
    line = stream[position]
    text = line.text.rstrip()
    if line.mono or len(line.cells) > 1 or len(text) > 80 or not text:
        return False
    above = stream[position - 1] if position > 0 else None
    below = stream[position + 1] if position + 1 < len(stream) else None
    for near in (above, below):
        if near is not None and near.page == line.page and _style(near, body_size) == _style(line, body_size):
            return False
    return above is None or above.page != line.page or above.top - line.top > 1.3 * pitch


def _spaced(stream: list[Line], position: int, pitch: float) -> bool:
    """A line set apart by space above and below it (more than between the lines of a paragraph), as a heading in
    the body face is; a line of a list or of a paragraph has the usual leading on one side at least."""
    line = stream[position]
    above = stream[position - 1] if position > 0 else None
    below = stream[position + 1] if position + 1 < len(stream) else None
    if below is None or below.page != line.page or line.mono or len(line.cells) > 1:
        return False
    apart_above = above is None or above.page != line.page or above.top - line.top > 1.3 * pitch
    return apart_above and line.top - below.top > 1.3 * pitch


def _heading_styles(stream: list[Line], headings: dict[int, Heading], body_size: float, confirmed: set[int]) -> dict[Style, int]:
    """The styles (size, weight, font in the body size) of the headings the document confirms, with the depth most of
    them have: the numbered headings kept in numbering order and the headings its printed contents located
    (`confirmed`). Only styles that set a heading apart from the prose count: larger than the body text, or bold or in a
    face of its own (not the prose's) in the body size on a line that stands alone (see `_stands_alone`); a style must be shared by three headings or more,
    mostly of one depth, and used by few other lines (a style the prose, a list or a table head is set in is no
    heading's). A bold style in the body size that no confirmed heading has (the level below the numbered ones,
    `\\subsubsection*`, `\\paragraph`) is a heading style too when three lines or more in it stand alone, read as
    titles, and nearly every line set in it does: its depth is then 0, one level below the heading above each line."""
    pitch = _pitch(stream, body_size)
    body_font = _body_font(stream, body_size)

    def marked(style: Style) -> bool:  # set apart from the prose in the body size: bold, or a face of its own
        return style[1] or (bool(style[2]) and style[2] != body_font)

    depths: dict[Style, Counter[int]] = {}
    for position, heading in headings.items():
        numbered = heading.number is not None and heading.number.kind in ("clause", "annex_clause")
        if not heading.depth or not (numbered or position in confirmed):
            continue
        line = stream[position]
        wraps = position + 1 in headings and not headings[position + 1].depth  # its title goes on below
        style = _style(line, body_size)
        apart = line.size >= body_size + 0.8 or (
            marked(style) and line.size > body_size - 0.3 and _stands_alone(stream, position, pitch, body_size)
        )
        if apart and not wraps:
            depths.setdefault(style, Counter())[heading.depth] += 1
    used = Counter(style for line in stream if marked(style := _style(line, body_size)) or line.size >= body_size + 0.8)
    styles = {}
    for style, counts in depths.items():
        depth, count = counts.most_common(1)[0]
        if count >= 3 and count >= 0.8 * sum(counts.values()) and used[style] <= 3 * sum(counts.values()):
            styles[style] = depth
    faces = {stream[p].font for p, h in headings.items() if h.depth and styles.get(_style(stream[p], body_size)) == h.depth}
    alone: Counter[Style] = Counter()
    for position, line in enumerate(stream):
        # bold throughout, or in the face of the confirmed headings when the prose has another (a sans face)
        own_face = line.font in faces and line.font != body_font and not line.mono
        if position in headings or abs(line.size - body_size) >= 0.3 or (line.bold_prefix < len(line.text.rstrip()) - 1 and not own_face):
            continue
        style = _style(line, body_size)
        if style not in styles and _titled(clean_inline(line.text)) and _stands_alone(stream, position, pitch, body_size):
            alone[style] += 1
    for style, count in alone.items():
        if count >= 3 and count >= 0.8 * used[style]:
            styles[style] = 0
    styles.update(_unconfirmed_styles(stream, body_size, pitch, styles, used, faces, body_font))
    return styles


def _unconfirmed_styles(
    stream: list[Line], body_size: float, pitch: float, styles: dict[Style, int], used: Counter[Style], faces: set[str], body_font: str
) -> dict[Style, int]:
    """Larger bold styles no confirmed heading has, that set short titles apart: the levels below the levels a printed
    contents lists (a DocBook section three deep, a step smaller than the smallest confirmed heading and in the face of
    the confirmed ones, `faces`), or the one level of a document without numbers or contents (a short note's bold
    sections, two points above the body). A style counts, in one face, when three lines or more in it (two below
    confirmed headings, in their face) read as titles on a line of their own with space above, and nearly every line set
    in it does (a caption or a table's head set as large is no title; nor, below confirmed headings, is an admonition's
    title set as large in another face). The styles returned name that face (a large line's own style names none, see
    `_depth_of_style`). Below confirmed headings each is one level deeper than the next larger; in a document without
    any, its depth is 1, or 0 (one below the heading above) under chapters set larger still (see `text_headings`)."""
    larger = {style[0]: depth for style, depth in styles.items() if style[0] >= body_size + 0.8 and depth}
    if faces and not larger:
        return {}
    ceiling = min(larger) - 0.3 if larger else body_size + 3.5  # (a size from body + 4 up is a chapter's already)
    titles: Counter[tuple[Style, str]] = Counter()  # per style and face: a style's titles are set in one face
    set_in: Counter[tuple[Style, str]] = Counter()
    wraps: set[int] = set()  # the second lines of titles wrapped over two lines: one title with the line above
    for position, line in enumerate(stream):
        style = _style(line, body_size)
        # bold, or (below confirmed headings) in their face when that is not the prose's: a sans face the headings
        # have to themselves marks them as weight does
        marked = style[1] or (line.font in faces and line.font != body_font)
        if not body_size + 0.8 <= line.size < ceiling or not marked or position in wraps:
            continue
        set_in[style, line.font] += 1
        if line.mono or len(line.cells) > 1:
            continue
        if faces and line.font not in faces:
            continue
        above = stream[position - 1] if position > 0 else None
        below = stream[position + 1] if position + 1 < len(stream) else None
        text = clean_inline(line.text)
        if below is not None and below.page == line.page and _style(below, body_size) == style:
            if not _wraps_once(stream, position, body_size):
                continue  # a block of large lines (a title page's, a table's head)
            wraps.add(position + 1)
            text = wrapped(text, line.text, below.text)
        if _titled(text, 90) and (above is None or above.page != line.page or above.top - line.top > 1.3 * pitch):
            titles[style, line.font] += 1
    # below confirmed headings, the lines of their face (a caption set as large in another is no heading's); without
    # any, a style set in one face nearly throughout
    share = {key: set_in[key] if faces else used[key[0]] - sum(_style(stream[p], body_size) == key[0] for p in wraps) for key in titles}
    found = sorted(
        (style[0], style[1], face)
        for (style, face), count in titles.items()
        if count >= (2 if faces else 3) and count >= 0.8 * share[style, face]
    )[::-1]
    if larger:
        return {style: larger[min(larger)] + rank for rank, style in enumerate(found, 1)}
    chapters = any(line.size >= body_size + 3.5 for line in stream if line.page != stream[0].page)
    return {style: 0 if chapters else 1 for style in found[:1]}


def _depth_of_style(line: Line, styles: dict[Style, int], body_size: float) -> int | None:
    """The depth `styles` give a line's style; a large line's face counts where a style names one (see `_unconfirmed_styles`)."""
    style = _style(line, body_size)
    depth = styles.get(style)
    return depth if depth is not None or style[2] else styles.get((style[0], style[1], line.font))


def _body_font(stream: list[Line], body_size: float) -> str:
    """The font most of the prose is set in: of the lines in the body size not set in a fixed pitch, the most text."""
    faces: Counter[str] = Counter()
    for line in stream:
        if abs(line.size - body_size) < 0.3 and not line.mono:
            faces[line.font] += len(line.text)
    return faces.most_common(1)[0][0] if faces else ""


def _wraps_once(stream: list[Line], position: int, body_size: float) -> bool:
    """Whether a large line goes on onto the one line below it, in its style and face, and no further (a question set
    as a title over two lines; three lines or more alike are a block: a title page's, a table's head)."""
    line, below = stream[position], stream[position + 1]
    after = stream[position + 2] if position + 2 < len(stream) else None
    return (
        _continues_title(below, line)
        and below.font == line.font
        and (after is None or after.page != line.page or _style(after, body_size) != _style(line, body_size))
    )


def _titled(text: str, longest: int = 60) -> bool:
    """Whether a short line reads as a title: a capital first, no sentence end, not a caption; at most `longest`
    characters."""
    return (
        2 < len(text) <= longest
        and text[0].isupper()
        and not text.endswith((".", ",", ";", ":"))
        and not (FIGURE_CAPTION.match(text) or TABLE_CAPTION.match(text))
    )


def _styled_depth(stream: list[Line], position: int, styles: dict[Style, int], text: str, body_size: float, pitch: float) -> int | None:
    """The depth of an unnumbered line set exactly in the style of one level of confirmed headings: a short line of
    its own that reads as a title (no sentence end, not the wrapped rest of the line above); in the body size, only
    a line that stands alone."""
    line = stream[position]
    depth = _depth_of_style(line, styles, body_size)
    if depth is None or len(text) > 90 or text.endswith((".", ",", ";", ":")) or not re.match(r"[\w\[(\"'“]", text):
        return None
    if line.size < body_size + 0.8 and not _stands_alone(stream, position, pitch, body_size):
        return None
    above = stream[position - 1] if position > 0 else None
    if (above is not None and _continues_title(line, above) and _style(above, body_size) == _style(line, body_size)) or (
        FIGURE_CAPTION.match(text) or TABLE_CAPTION.match(text)
    ):
        return None  # the second line of a title above; a caption
    return depth


def _wrapped_title(stream: list[Line], position: int, text: str, body_size: float | None = None) -> tuple[str, list[int]]:
    """A large title and the lines it wraps onto (same size, right below): the whole title and those lines. With
    `body_size` (a title in the body size), only lines in the title's style go on with it: the paragraph below is none."""
    title = text
    used: list[int] = []
    following = position + 1
    style = _style(stream[position], body_size) if body_size is not None else None
    while (
        following < len(stream)
        and _continues_title(stream[following], stream[following - 1])
        and len(used) < 3
        and (body_size is None or _style(stream[following], body_size) == style)
    ):
        title = wrapped(title, stream[following - 1].text, stream[following].text)
        used.append(following)
        following += 1
    return title, used


def _division_heading(
    stream: list[Line], position: int, division: re.Match[str], body_size: float, headings: dict[int, Heading], consumed: set[int]
) -> None:
    """A part's heading (`Part II General font selection`, or `Part II` with its title on the large lines below)."""
    path = f"{division.group('word').capitalize()} {division.group('value')}"
    title = division.group("title") or ""
    nxt = position + 1
    below = nxt < len(stream) and stream[nxt].page == stream[position].page and stream[nxt].size >= body_size + 0.8
    if not title and below and not parse_number(clean_inline(stream[nxt].text)):
        title = clean_inline(stream[nxt].text)
        consumed.add(nxt)
        headings[nxt] = Heading(None, "", 0)
        while nxt + 1 < len(stream) and _continues_title(stream[nxt + 1], stream[nxt]):
            nxt += 1
            title = wrapped(title, stream[nxt - 1].text, stream[nxt].text)
            consumed.add(nxt)
            headings[nxt] = Heading(None, "", 0)
    headings[position] = Heading(Number(path, title or path, "division"), title or path, 1, explicit=path)


def _divisions_of(headings: dict[int, Heading]) -> None:
    """Each numbered clause learns the part it lies in (until the next part or annex)."""
    current = None
    for position in sorted(headings):
        heading = headings[position]
        if heading.number is None:
            continue
        if heading.number.kind == "division":
            current = heading.number.path.split()[-1]
        elif heading.number.kind == "annex":
            current = None
        else:
            heading.division = current


def _anchor_heading(
    stream: list[Line],
    position: int,
    entry: ContentsEntry,
    headings: dict[int, Heading],
    consumed: set[int],
    sequencer: Sequencer,
    body_size: float,
) -> None:
    """A heading the printed contents located: its number as the page prints it (else as the contents does), the contents'
    title. A bare number right above it in the body size, not bold, is no chapter's (the last line number of a listing
    that ends above the heading, `100`, see `_printed_number`)."""
    printed = _printed_number(stream, position, entry.title, body_size) if entry.designator is None else None  # `a.` is its own
    number = (
        Number(printed.path, entry.title, printed.kind)
        if printed
        else (Number(entry.number.path, entry.title, entry.number.kind) if entry.number else None)
    )
    if number is not None:
        sequencer.accept(number)
        headings[position] = Heading(number, entry.title, number.depth)
        line_number = parse_number(clean_inline(stream[position].text))
        if not (line_number and line_number.title):  # the number printed on the lines above (`Chapter 2`) is part of the heading
            for above in range(position - 1, max(-1, position - 3), -1):
                if stream[above].page != stream[position].page or above in headings:
                    break
                text = clean_inline(stream[above].text)
                letter = number.kind == "annex" and text == number.path.split()[-1]  # `C` alone over `Sniplets`
                if parse_number(text) or CHAPTER_WORD.match(text) or spelled_number(text) or letter:
                    headings[above] = Heading(None, "", 0)
                else:
                    break
    else:
        headings[position] = Heading(None, entry.title, entry.depth)
    rest = run_in_rest(stream[position], entry)
    if rest:  # a run-in title: the text after it on its line is the clause's first words
        headings[position].body = rest
        return
    for extra in heading_title_lines(stream, position, entry)[1:]:
        consumed.add(extra)
        headings[extra] = Heading(None, "", 0)


def _hangs_under(line: Line, heading: Line) -> bool:
    """A numbered heading's title, bold throughout in the body size, wrapped onto `line`: bold throughout too, at its
    size, right below, set in under the title rather than at the number (`3.6.1 Wörtliche` / `Annotations`)."""
    bold = heading.bold_prefix >= len(heading.text.rstrip()) - 1 and line.bold_prefix >= len(line.text.rstrip()) - 1
    return (
        bold
        and line.page == heading.page
        and abs(line.size - heading.size) < 0.3
        and 0 < heading.top - line.top < 1.6 * heading.size
        and heading.x0 + heading.size < line.x0 < heading.x1
        and len(line.text) < 60
        and not parse_number(clean_inline(line.text))
    )


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
        match = re.search(rf"(?:{CHAPTER_LABEL}|{ANNEX_HEADING_LABEL})\s+\w+\.?\s+(?P<title>.+?)(?:\s+\d+)?$", clean_inline(text))
        if match:
            title = match.group("title").strip()
            titles[title_key(title)] = title
    return titles


def _chapter_size(stream: list[Line], headings: dict[int, Heading], body_size: float) -> float:
    sizes = [stream[p].size for p, h in headings.items() if h.number and h.depth == 1 and h.number.kind != "division"]
    return sorted(sizes)[len(sizes) // 2] if sizes else body_size + 4


def centred(line: Line) -> bool:
    """A short line centred in its column (headings of the Yellow Paper)."""
    left, right = line.column
    width = right - left
    if width <= 0:
        return False
    return abs((line.x0 - left) - (right - line.x1)) < 0.1 * width and (line.x1 - line.x0) < 0.7 * width


def _centred_between(line: Line, edges: tuple[float, float] | None) -> bool:
    """A short line centred between the left and right edges of its page's prose (see `column_edges`)."""
    if edges is None or edges[1] - edges[0] <= 0:
        return False
    width = edges[1] - edges[0]
    return abs((line.x0 - edges[0]) - (edges[1] - line.x1)) < 0.05 * width and line.x1 - line.x0 < 0.7 * width


def _set_apart(line: Line, body_size: float) -> bool:
    """A division's heading line: larger than the body text, bold throughout, or centred."""
    return marked(line, body_size) or centred(line)


def largest_line(stream: list[Line], positions: list[int]) -> int | None:
    """The title line among `positions`: the largest, unless that is one word and a line of several words is set at
    least four fifths as large (a logo's word, `symptote` beside a drawn `A`, is not the title)."""
    if not positions:
        return None
    biggest = max(positions, key=lambda p: (stream[p].size, -p))
    if len(clean_inline(stream[biggest].text).split()) == 1:
        worded = [p for p in positions if len(clean_inline(stream[p].text).split()) >= 2 and stream[p].size >= 0.8 * stream[biggest].size]
        if worded:
            return max(worded, key=lambda p: (stream[p].size, -p))
    return biggest


def _cover_title(stream: list[Line], body_size: float, headings: set[int]) -> tuple[str, list[int]]:
    first_page = [position for position in range(min(60, len(stream))) if stream[position].page == stream[0].page]
    position = largest_line(stream, first_page)
    if position is None or stream[position].size <= body_size or position in headings:
        return "", []
    return _wrapped_title(stream, position, clean_inline(stream[position].text))


def first_title(stream: list[Line], body_size: float, headings: set[int]) -> str:
    """The title line of the first page (see `largest_line`, with the lines its title wraps onto), unless it is a
    clause heading (then the code names the norm)."""
    return _cover_title(stream, body_size, headings)[0]


def title_wraps(stream: list[Line], body_size: float, headings: set[int]) -> list[int]:
    """The lines the first page's title wraps onto (`Faktor-Ringe, -Gruppen,` / `-Räume`): part of the title, no
    headings of their own."""
    return _cover_title(stream, body_size, headings)[1]
