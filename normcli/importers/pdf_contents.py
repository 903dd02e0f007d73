"""The printed table of contents of a PDF: which pages it fills, its entries (number, title, printed
page), and where each entry's heading is in the body.

The contents pages become nodes of their own (`Contents`, `List of Tables` …) so their lines never
land in a clause's text. Without an outline, the entries anchor the tree: a heading the layout alone
would miss (no larger font, no bold) is still found on the page the contents names. With an
outline, the entries check it: those the outline lacks are reported.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass

from normcli.importers.common import LINE_END_HYPHEN, Number, clean_inline, is_toc_line, parse_number, title_key
from normcli.importers.pdf_pages import CHAPTER_WORD, Line, Page, is_toc_page
from normcli.labels import DIVISION_LABEL

CONTENTS_TITLE = re.compile(
    r"^(?:table of contents|contents|list of (?:figures|tables|illustrations)|table des mati[eè]res|sommaire|"
    r"liste des (?:figures|tableaux|illustrations)|inhalt|inhaltsverzeichnis|abbildungsverzeichnis|tabellenverzeichnis|"
    r"[ií]ndice(?: general)?|sommario|elenco delle (?:figure|tabelle)|conte[uú]do|"
    # other languages' words for the contents (Spanish, Portuguese, Dutch, Scandinavian, Slavic, Greek, Turkish, CJK)
    r"contenido|sum[aá]rio|inhoud(?:sopgave)?|indholdsfortegnelse|inneh[aå]ll(?:sf[oö]rteckning)?|innhold|sis[aä]llys(?:luettelo)?|"
    r"spis tre[sś]ci|obsah|tartalom(?:jegyz[eé]k)?|cuprins|[iİ][cç]indekiler|περιεχόμενα|"
    r"оглавление|содержание|зміст|目次|目录|目錄|목차|차례)$",
    re.I,
)
# dot leaders before an entry's printed page (or before the end of a line whose page number went to the next one)
_LEADERS = re.compile(r"(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlcdm]{1,7})?\s*$", re.I)
# an entry: its text, then dot leaders, a middle dot or a gap, then its printed page (arabic or roman)
_ENTRY = re.compile(r"^(?P<text>.*?\S)(?:\s*(?:\.\s?){2,}\s*|\s+[·•|]\s+|\s+)(?P<page>\d{1,4}|[ivxlcdm]{1,7})$", re.I)
_GLUED_NUMBER = re.compile(r"^(\d{1,3}(?:\.\d{1,3})+)(?=[^\W\d_])")  # `11.10Liste` (a wide number set in a narrow box)
_LIST_TITLE = re.compile(r"^(?:list of|liste des|elenco delle|abbildungsverzeichnis|tabellenverzeichnis)", re.I)
_RUNNING_CONTENTS = re.compile(r"\b(?:contents|table des mati[eè]res|inhaltsverzeichnis|sommaire|indice)\b", re.I)
_BULLET = re.compile(r"^(?:[•\u2022\u25cf\u25aa\u2013\-*·–—]|\(?[a-z0-9][.)])\s")
_NOTE_MARK = re.compile(r"\[\^[^\]\s]{1,8}\]")  # a footnote mark as the pages are read (`[^7]`)
_LETTER = re.compile(r"^(?P<letter>[A-Z])\.?\s+(?P<title>\S.*)$")
# a title designated by a roman numeral or a letter and a stop, a bracket or a dash instead of a number (`I - Titre`,
# `IV. Titre`, `a. Titre`, `ii) Titre`, `A) Titre`), as documents without clause numbers print them
DESIGNATED = re.compile(r"^(?P<value>[IVXLC]{1,7}|[ivxlc]{1,7}|[A-Za-z])(?:[.)]|\s[-–—])\s+(?P<title>\S.*)$")
# an appendix printed as its letter and a stop before its title (`A. Packages`)
LETTERED_ANNEX = re.compile(r"^(?P<letter>[A-Z])\.\s+(?P<title>\S.*)$")
# the title of an index (`Index`, `General Index`, `Index of Objects`): its entries end in page numbers too
INDEX_TITLE = re.compile(r"^(?:[^\W\d_][\w-]* ){0,2}index$|^index of [^\W\d_].{0,40}$|^(?:index|register|stichwortverzeichnis)$", re.I)
# an index entry: a term, a comma, then its pages (`\\author, 41, 100`, `multline, 63–65`); a contents entry never puts a
# comma between its title and its page
_INDEX_ENTRY = re.compile(
    r"^\S.*?,\s*(?P<pages>(?:\d{1,4}(?:\s?[–-]\s?\d{1,4})?|[ivxlc]{1,7})(?:,\s*(?:\d{1,4}(?:\s?[–-]\s?\d{1,4})?|[ivxlc]{1,7}))*)$"
)

# what `_ENTRY` and `_INDEX_ENTRY` both end in: a page number's last digit or numeral (just before `$`)
_PAGE_AT_END = re.compile(r"[\divxlcdm]\n?\Z", re.I)


@dataclass
class ContentsEntry:
    """One entry of the printed contents: its number (None when unnumbered), title and printed page."""

    number: Number | None
    title: str
    page: str
    indent: float = 0.0  # how far its first line is set in from the page's leftmost entry
    depth: int = 1  # its number's depth; for an unnumbered entry, the depth its indent gives (see `_indent_depths`)
    designator: str | None = None  # a roman numeral or a letter printed before the title in place of a number (`IV`, `a`)


def mark_contents(pages: list[Page]) -> None:
    """Flag the pages of the printed contents (`page.toc`): runs of contents-like pages that start at
    a contents title or lie in the front third; blank pages inside a run and pages that hold nearly
    only entries (the tail of the list, or entries printed without leaders) belong to it. A lone table
    of numbers further on is not contents, nor an index (its title above its entries)."""
    indexes = [index_page(page) for page in pages]
    candidates = [
        not indexes[k] and (is_toc_page(page) or (_contents_title(page) is not None and _tail_of_contents(page)))
        for k, page in enumerate(pages)
    ]
    front = max(3, len(pages) // 3)
    index = 0
    while index < len(pages):
        if not candidates[index]:
            index += 1
            continue
        run = [index]
        following = index + 1
        while following < len(pages):
            if indexes[following]:
                break  # the back-of-book index after the contents (a short document): a list of terms, no contents
            if candidates[following]:
                run.append(following)
            elif pages[following].lines and _opens_with_entries(pages[following]):
                run.append(following)  # the list's end above the start of the text (`contents_positions` cuts it there)
                following += 1
                break
            elif pages[following].lines and not _tail_of_contents(pages[following]):
                break
            elif pages[following].lines:
                run.append(following)  # a page of entries without leaders (sections listed without them)
            following += 1
        if _index_opens(pages[run[0]]):
            # an index: its entries end in page numbers too, but it is no contents; a list titled after it
            # (`List of Figures` printed after the index) starts its own run
            titled_at = next((position for position, k in enumerate(run) if _contents_title(pages[k]) is not None), None)
            if titled_at is None:
                index = following
                continue
            run = run[titled_at:]
        titled = any(_contents_title(page) is not None for page in (pages[k] for k in run))
        if titled or run[0] < front:
            for k in run:
                pages[k].toc = True
        index = following


def index_page(page: Page) -> bool:
    """Whether the page is one of a back-of-book index, whatever its title (`Índice` names the contents in one
    language and the index in another): of six entry lines or more (a text, then a page number), half or more
    put a comma between a term and its pages (`\\author, 41, 100`), or the entries go in alphabetical order while
    their pages go down at every third step or more, as no contents' pages do."""
    entries: list[tuple[str, str]] = []
    commas = 0
    for line in page.lines:
        text = clean_inline(line.text)
        if not _PAGE_AT_END.search(text, len(text) - 2):
            continue  # neither pattern can match: both end in a page number (tried at every start, they cost 4 times more)
        if _INDEX_ENTRY.match(text):
            commas += 1
        if match := _ENTRY.match(text):
            entries.append((title_key(match.group("text")), match.group("page")))
    if len(entries) < 6:
        return False
    if commas >= 0.5 * len(entries):
        return True
    pages = [int(page_) for _, page_ in entries if page_.isdecimal()]
    descents = sum(later < earlier for earlier, later in itertools.pairwise(pages))
    ordered = sum(earlier <= later for (earlier, _), (later, _) in itertools.pairwise(entries))
    return len(pages) >= 6 and descents >= 0.3 * (len(pages) - 1) and ordered >= 0.75 * (len(entries) - 1)


def _opens_with_entries(page: Page) -> bool:
    """Whether the page opens with three contents entries or more in a row (dot leaders or a page number after a
    numbered title): the end of a list from the page before, the text starting under it."""
    lines = page.lines[:3]
    return len(lines) == 3 and all(is_toc_line(line.text) for line in lines)


def _index_opens(page: Page) -> bool:
    """Whether an index title (`Index`, `General Index`) stands on the page above its first entry line."""
    for line in page.lines:
        text = clean_inline(line.text)
        if INDEX_TITLE.match(text.rstrip(":.")) or ((number := parse_number(text)) and INDEX_TITLE.match(number.title)):
            return True
        if _ENTRY.match(text) or is_toc_line(line.text):
            return False
    return False


def contents_positions(stream: list[Line], pages: list[Page]) -> set[int]:
    """The stream positions of the printed contents: the lines of its pages, except where the body starts on
    the last page of a run (a short document: the contents, then `1 Introduction` on the same page). The list
    ends at the first three lines in a row that are no contents entry (a wrapped entry is one line short)."""
    toc = {page.index for page in pages if page.toc}
    positions: set[int] = set()
    by_page: dict[int, list[int]] = {}
    page_of = {page.index: page for page in pages}
    for position, line in enumerate(stream):
        if line.page in toc:
            by_page.setdefault(line.page, []).append(position)
        elif (
            CONTENTS_TITLE.match(clean_inline(line.text).rstrip(":."))
            and not index_page(page_of[line.page])  # `Índice` over an index's terms
            and _short_contents(stream, position)
        ):
            positions.update(_short_contents(stream, position))
    for index, on_page in by_page.items():
        positions.update(on_page)
        if index + 1 in toc:
            continue
        titled = [k for k, p in enumerate(on_page) if CONTENTS_TITLE.match(clean_inline(stream[p].text).rstrip(":."))]
        start = titled[-1] + 1 if titled else 0
        sizes = sorted(stream[p].size for p in on_page[start:])
        entry_size = sizes[len(sizes) // 2] if sizes else 0.0
        plain = 0
        for k in range(start, len(on_page)):
            line = stream[on_page[k]]
            beside = k > start and page_beside(stream[on_page[k - 1]], line)
            following = stream[on_page[k + 1]] if k + 1 < len(on_page) else None
            paired = following is not None and page_beside(line, following)
            listed = (beside or paired or _ENTRY.match(clean_inline(line.text)) or is_toc_line(line.text)) and (
                line.size < entry_size + 0.8 or bool(_LEADERS.search(line.text))
            )
            # a heading set larger (`1 Introduction to version 2`) is no entry; a larger line with dot leaders is one (a
            # chapter's entry set a step up, as Texinfo sets them: the list may end in three of them)
            plain = 0 if listed else plain + 1
            if plain == 3:
                positions.difference_update(on_page[k - 2 :])
                break
    return positions


# an entry for a part, designated by a roman numeral or a division word (`IV La calculatrice`, `Part II Usage`)
_PART_ENTRY = re.compile(rf"^(?:{DIVISION_LABEL}\s+)?[IVXLC]{{1,6}}\.?\s+\S")


def _short_contents(stream: list[Line], position: int) -> list[int]:
    """A contents title on a page that is mostly something else (a title block, an abstract) and the entries
    under it, down to the first line that is none: when two of them or more are numbered (`1 Scope 2`), or when
    three or more unnumbered entries list pages that never go down (`About . . . 1`, `Usage 2`, as classes without
    section numbers print them). Such a list may run on over the next pages, and a list of figures or tables
    under it is part of it."""
    covered = [position]
    seen: set[str] = set()  # a list names each clause once: `1 Introduction to version 2` again is its heading
    titles: set[str] = set()
    pages: list[int] = []  # the pages the unnumbered entries list, in order
    for k in range(position + 1, min(len(stream), position + 400)):
        text = clean_inline(stream[k].text)
        entry = _ENTRY.match(text)
        if CONTENTS_TITLE.match(text.rstrip(":.")) and (seen or len(pages) >= 3):
            covered.append(k)  # `List of Figures` under the contents
            continue
        if not (entry or is_toc_line(stream[k].text)):
            break
        if stream[k].page != stream[position].page and not (seen or len(pages) >= 3):
            break  # only a list already made runs on over a page break
        number = parse_number(entry.group("text")) if entry else None
        if number and number.path in seen:
            break
        if number:
            seen.add(number.path)
        elif entry:
            key = title_key(entry.group("text"))
            if key in titles:
                break
            titles.add(key)
            if _PART_ENTRY.match(entry.group("text")):
                seen = set()  # a part (`II Créer des menus 6`): its chapters may number from 1 again
            if entry.group("page").isdecimal():
                pages.append(int(entry.group("page")))
        covered.append(k)
    if len(seen) >= 2:
        return covered
    return covered if len(pages) >= 3 and pages == sorted(pages) else []


def _tail_of_contents(page: Page) -> bool:
    """A page whose lines are nearly all contents entries (the end of the list spilling over); an entry whose page number
    is set apart at the right margin, without leaders, is read with it (see `page_beside`)."""
    lines = [line for line in page.lines if not CONTENTS_TITLE.match(clean_inline(line.text).rstrip(":."))]
    entries = 0
    for position, line in enumerate(lines):
        if position > 0 and page_beside(lines[position - 1], line):
            entries += 2  # an entry and its page number, read as two lines
        elif _ENTRY.match(clean_inline(line.text)) or is_toc_line(line.text):
            entries += 1
    return entries >= max(1, 0.6 * len(lines))


def page_beside(line: Line, following: Line) -> bool:
    """Whether `following` is only a page number set on `line`'s baseline far to its right: a contents entry whose
    number is right-aligned without dot leaders (`1.1 Terms` … `12`), read as two lines."""
    if following.page != line.page or abs(following.top - line.top) > 0.4 * max(line.size, 1.0):
        return False
    text = following.text.strip()
    return following.x0 > line.x1 + 2 * line.size and bool(re.fullmatch(r"\d{1,4}|[ivxlcdm]{1,7}", text, re.I))


def _contents_title(page: Page) -> int | None:
    """The position on the page of a contents title (`Table of Contents`, `List of Tables`), if any."""
    for number, line in enumerate(page.lines[:3]):
        if CONTENTS_TITLE.match(clean_inline(line.text).rstrip(":.")):
            return number
    return None


def contents_headings(stream: list[Line], pages: list[Page], toc: set[int] | None = None) -> dict[int, str]:
    """Where each contents node starts (stream position → title): at a contents title, else at the first line of a run.
    `toc`: the contents' positions when the caller has them already."""
    toc = contents_positions(stream, pages) if toc is None else toc
    starts: dict[int, str] = {}
    previous_page: int | None = None
    for position, line in enumerate(stream):
        if position not in toc:
            previous_page = None
            continue
        text = clean_inline(line.text).rstrip(":.")
        if CONTENTS_TITLE.match(text):
            above = stream[position - 1] if position - 1 in toc else None
            header = above is not None and above.page == line.page and clean_inline(above.text).rstrip(":.") == text
            # the title under a running header that repeats it (the node starts at the header), or a running header that
            # repeats the list's title on its next pages: no node of its own
            repeated = previous_page is not None and line.page > previous_page and starts and list(starts.values())[-1] == text
            if not header and not repeated:
                starts[position] = text
        elif previous_page is None and not _run_has_title(stream, position, toc):
            starts[position] = "Contents"
        previous_page = line.page
    return starts


def _run_has_title(stream: list[Line], position: int, toc: set[int]) -> bool:
    """Whether the first page of this run of contents pages holds a contents title (under a title block, too)."""
    page = stream[position].page
    for at, line in enumerate(stream[position : position + 400], start=position):
        if line.page != page or at not in toc:
            break
        if CONTENTS_TITLE.match(clean_inline(line.text).rstrip(":.")):
            return True
    return False


def contents_entries(stream: list[Line], pages: list[Page], toc: set[int] | None = None) -> list[ContentsEntry]:
    """The clause entries of the printed contents (lists of figures and tables left out), wrapped titles joined.
    `toc`: the contents' positions when the caller has them already."""
    toc = contents_positions(stream, pages) if toc is None else toc
    entries: list[ContentsEntry] = []
    pending = ""
    pending_x: float | None = None  # where the first line of a wrapped entry starts
    pending_size = 0.0  # the largest size among the pending lines
    listing = True  # inside the table of contents proper, not a list of figures or tables
    page = -1
    margin: dict[int, float] = {}
    seen_pages: set[int] = set()  # the pages on which an entry was read
    in_list = False  # the lines of a list of figures or tables: set against another margin, they set no entry's indent
    for position in sorted(toc):
        text = clean_inline(stream[position].text).rstrip(":.")
        if CONTENTS_TITLE.match(text):
            in_list = bool(_LIST_TITLE.match(text))
        elif not in_list:
            margin[stream[position].page] = min(margin.get(stream[position].page, stream[position].x0), stream[position].x0)
    joined: set[int] = set()  # page numbers read with the entry on their left
    for position, line in enumerate(stream):
        if position not in toc or position in joined:
            continue
        if line.page != page:
            pending = ""  # an entry's title wraps on its page; what is left over at a page's foot is no title's head
            page = line.page
        text = joined_accents(clean_inline(line.text))
        if position + 1 in toc and page_beside(line, stream[position + 1]):
            joined.add(position + 1)
            text = f"{text} {stream[position + 1].text.strip()}"
        title = CONTENTS_TITLE.match(text.rstrip(":."))
        if title:
            listing = not _LIST_TITLE.match(text)
            pending = ""
            continue
        if not listing:
            continue
        match = _ENTRY.match(text)
        if not match and _RUNNING_CONTENTS.search(text) and re.search(r"^\d{1,4}\s|\s\d{1,4}$", text):
            pending = ""  # a running header with its page number left on a contents page (`6 gnuplot 5.4 CONTENTS`)
            continue
        if not match:
            pending_x = line.x0 if not pending else pending_x
            run_on = re.search(r"\s\d{1,4},(?:\s|$)", pending)  # clauses run together over lines (`… 370,` / `21.2.4 …`)
            pending = f"{pending} {text}".strip() if len(pending) < (2000 if run_on else 200) else text
            pending_size = max(pending_size, line.size)
            continue
        if pending and pending_size > line.size + 3:
            pending = ""  # a title set far larger over the list (a contents title in a language not listed): no entry's head
        pending_size = 0.0
        indent = (pending_x if pending and pending_x is not None else line.x0) - margin.get(line.page, line.x0)
        body = f"{pending} {match.group('text')}".strip()
        first_of_page = not pending and line.page not in seen_pages
        pending = ""
        seen_pages.add(line.page)
        body = re.sub(r"(?:\s*\.){2,}$", "", body).strip()
        for text_, page_ in _run_together(body, match.group("page"), first_of_page):
            text_ = _GLUED_NUMBER.sub(r"\1 ", text_)
            number = parse_number(text_)
            if number and number.title:
                entries.append(ContentsEntry(number, number.title, page_, indent, number.depth))
            elif not number:
                entries.append(ContentsEntry(None, text_, page_, indent))
    _letter_annexes(entries)
    _designated_entries(entries)
    _indent_depths(entries)
    return entries


def _run_together(text: str, page: str, first_of_page: bool) -> list[tuple[str, str]]:
    """An entry line that lists several clauses run together, each with its page (`2.4.1 Typeblock 13, 2.4.2 Size 16`,
    as memoir sets its subsections; `A Limerick 273, Fleas 274`): each clause and its page. The pieces' pages must
    not go down, and numbered pieces follow a numbered first one; else the text is one entry. A first piece in lower
    case at the top of a page is the tail of an entry the page before began: it is left out."""
    parts = re.split(r"(?<=\S) (\d{1,4}),\s+(?=\S)", text)
    if len(parts) < 3:
        return [(text, page)]
    pieces = [(parts[k].strip(), parts[k + 1]) for k in range(0, len(parts) - 1, 2)] + [(parts[-1].strip(), page)]
    arabic = [int(value) for _, value in pieces[:-1]] + ([int(page)] if page.isdecimal() else [])
    numbered = [parse_number(piece) is not None for piece, _ in pieces]
    if arabic != sorted(arabic) or (numbered[0] and not all(numbered[1:])) or any(not piece for piece, _ in pieces):
        return [(text, page)]
    if first_of_page and pieces[0][0][:1].islower():
        pieces = pieces[1:]
    return pieces


def _letter_annexes(entries: list[ContentsEntry]) -> None:
    """A single capital letter before a title is an annex (`A Packages and macros`, the path `A` as printed) when its
    clauses follow (`A.1 …`) or when it goes on from the annex of the letter before (`C Sniplets` after `B`)."""
    last: str | None = None
    for position, entry in enumerate(entries):
        letter = _LETTER.match(entry.title) if entry.number is None else None
        if entry.number is not None and entry.number.kind == "annex":
            last = entry.number.path.split()[-1]
        if not letter:
            continue
        value = letter.group("letter")
        following = entries[position + 1].number if position + 1 < len(entries) else None
        opens = following is not None and following.path.startswith(value + ".")
        goes_on = last is not None and len(last) == 1 and ord(value) == ord(last) + 1
        if opens or goes_on:
            entry.number = Number(value, letter.group("title"), "annex")
            entry.title = letter.group("title")
            entry.depth = 1
            last = value
    # a run of two letter entries or more in sequence from `A` at one indent, nothing between (`A. Symbology`,
    # `B. Revision History`): appendices without clauses of their own, titled with their letter as the layout rule
    # titles an appendix set as a chapter (`A Symbology`, see `pdf_tree._lettered_headings`)
    position = 0
    while position < len(entries):
        run = [position]
        while (
            run[-1] + 1 < len(entries)
            and entries[run[-1] + 1].number is None
            and (letter := _LETTER.match(entries[run[-1] + 1].title))
            and ord(letter.group("letter")) == ord("A") + len(run)
            and abs(entries[run[-1] + 1].indent - entries[position].indent) <= 3
        ):
            run.append(run[-1] + 1)
        first = _LETTER.match(entries[position].title) if entries[position].number is None else None
        if first and first.group("letter") == "A" and len(run) >= 2:
            for k in run:
                letter = _LETTER.match(entries[k].title)
                if letter:
                    entries[k].title = f"{letter.group('letter')} {letter.group('title')}"
        position = run[-1] + 1
    # the letters before an annex so found, in sequence from `A` (`A. Packages`, `B. Macros`, then `C.` with its `C.1`)
    for position in range(len(entries) - 1, 0, -1):
        later, entry = entries[position].number, entries[position - 1]
        letter = _LETTER.match(entry.title) if entry.number is None else None
        bare = later is not None and later.kind == "annex" and len(later.path) == 1
        follows = bare and letter and later is not None and ord(letter.group("letter")) == ord(later.path) - 1
        if follows and letter and _sequence_from_a(entries, position - 1):
            entry.number = Number(letter.group("letter"), letter.group("title"), "annex")
            entry.title = letter.group("title")
            entry.depth = 1


def _designated_entries(entries: list[ContentsEntry]) -> None:
    """Contents without clause numbers whose entries are designated by roman numerals and letters (`I - Ça sert à quoi ?`,
    `a. Changements …`, `ii. Sans valeur interdite`): each entry's title is the text after its designator, which is kept
    apart to find the heading, as the document's bookmarks name such headings by their titles alone. Only when no entry
    is numbered and two or more are designated, so that one `A. Packages` among numbered chapters stays as it is."""
    if any(entry.number is not None for entry in entries):
        return
    designated = [(entry, match) for entry in entries if (match := DESIGNATED.match(entry.title))]
    if len(designated) < 2:
        return
    for entry, match in designated:
        entry.designator, entry.title = match.group("value"), match.group("title").strip()


def strip_designator(text: str, designator: str) -> str | None:
    """A heading line's title after the designator `designator` (`a. Préambule` → `Préambule`), None when the line is not
    led by that designator."""
    match = DESIGNATED.match(text)
    return match.group("title").strip() if match and match.group("value") == designator else None


def _sequence_from_a(entries: list[ContentsEntry], position: int) -> bool:
    """Whether the letter entries up to `position` run back to an `A` entry, one letter apart, with nothing between."""
    while position >= 0:
        letter = _LETTER.match(entries[position].title) if entries[position].number is None else None
        if not letter:
            return False
        if letter.group("letter") == "A":
            return True
        before = _LETTER.match(entries[position - 1].title) if position > 0 and entries[position - 1].number is None else None
        if not before or ord(before.group("letter")) != ord(letter.group("letter")) - 1:
            return False
        position -= 1
    return False


def _indent_depths(entries: list[ContentsEntry]) -> None:
    """An unnumbered entry's depth from its indent: as deep as the last entry set at the same indent, one deeper
    than the last entry set further left, else a chapter. Numbered entries keep their number's depth and so
    anchor the levels (`Column`, set in under the unnumbered `Functions`, is its sub-clause)."""
    levels: list[tuple[float, int]] = []  # (indent, depth) of the entries met, innermost last
    for entry in entries:
        while levels and levels[-1][0] > entry.indent + 3:
            levels.pop()
        if entry.number is None:
            if levels and abs(levels[-1][0] - entry.indent) <= 3:
                entry.depth = levels[-1][1]
            elif levels:
                entry.depth = levels[-1][1] + 1
        if levels and abs(levels[-1][0] - entry.indent) <= 3:
            levels[-1] = (entry.indent, entry.depth)
        else:
            levels.append((entry.indent, entry.depth))


def locate_entries(
    entries: list[ContentsEntry], stream: list[Line], pages: list[Page], body_size: float, toc: set[int] | None = None
) -> dict[int, ContentsEntry]:
    """Each entry's heading line in the body (stream position → entry): on the page the contents names
    (or the next one), else the first matching line after the previous entry's heading.

    Once entries were found on the pages their printed numbers name (page labels, or the numbers printed at
    the page edges), those pages are trusted: a heading not found there is looked for only a page before to
    three pages after, so one line that merely repeats a title further on (`Columnheaders` for `Columnhead`)
    never moves the search away. When the printed pages do not map to PDF pages, the offset is learnt from
    the entries found elsewhere, once two of them agree on it. An entry naming a contents list on a contents
    page (`List of Figures`) is that list's own node. `toc`: the contents' positions when the caller has them already."""
    toc = contents_positions(stream, pages) if toc is None else toc
    toc_pages = {page.index for page in pages if page.toc}
    index_of: dict[str, int] = {}
    for page in pages:
        index_of.setdefault(page.label.lower(), page.index)
    for page in pages:  # a roman front page counts by value (`iv` is 4) only where no page is labelled `4`
        index_of.setdefault(str(page.printed), page.index)
    by_page: dict[int, list[int]] = {}
    for index, line in enumerate(stream):
        if index not in toc:
            by_page.setdefault(line.page, []).append(index)
    body = [k for positions in by_page.values() for k in positions]
    found: dict[int, ContentsEntry] = {}
    last = -1
    offset: int | None = None  # PDF page index minus printed page, once the labels proved wrong
    proven = 0  # entries found on the page the current mapping names
    votes: Counter[int] = Counter()  # offsets shown by entries found elsewhere
    previous: int | None = None  # the last arabic page number the list printed
    for entry in entries:
        if entry.page.isdecimal():
            if previous is not None and int(entry.page) < previous:
                offset, proven = None, 0  # the page numbers start again (a collection of documents each numbered from 1)
                votes.clear()
            previous = int(entry.page)
        expected = index_of.get(entry.page.lower())
        if offset is not None and entry.page.isdecimal():
            expected = int(entry.page) + offset
        if expected in toc_pages and CONTENTS_TITLE.match(entry.title):
            continue  # the contents list themselves (`List of Figures`): their node is the contents'
        if expected is not None and last >= 0 and expected < stream[last].page:
            last = -1  # a second list starts over (a short contents, then the full one): search from the start again
        position: int | None = None
        for target in (expected, expected + 1) if expected is not None else ():
            matching = [p for p in by_page.get(target, []) if p > last and _matches(stream, p, entry, body_size)]
            if matching:  # the heading rather than a running header that repeats its title in small print
                position = max(matching, key=lambda p: (marked(stream[p], body_size), -p))
                break
        if position is not None:
            proven += 1
        else:
            window = [p for p in body if p > last]
            if expected is not None and proven:
                window = [p for p in window if expected - 1 <= stream[p].page <= expected + 3]
            position = next((p for p in window[:4000] if _matches(stream, p, entry, body_size, loose=False)), None)
            if position is not None and entry.page.isdecimal():
                delta = stream[position].page - int(entry.page)
                votes[delta] += 1
                if delta != offset and votes[delta] >= 2 and votes[delta] > proven:
                    offset, proven = delta, 0
        if position is not None:
            position = _past_title_page(stream, by_page, position, entry, body_size)
            found[position] = entry
            last = position
    return found


def _past_title_page(stream: list[Line], by_page: dict[int, list[int]], position: int, entry: ContentsEntry, body_size: float) -> int:
    """The heading on the next page when the line found is on a title page (a handful of lines, no text) and the next
    page opens with the same heading over the text (a chapter's or an article's title page, then its first page)."""
    here = by_page.get(stream[position].page, [])
    if len(here) > 10 or any(len(stream[p].text) > 80 for p in here):
        return position
    following = by_page.get(stream[position].page + 1, [])[:4]
    return next((p for p in following if _matches(stream, p, entry, body_size, loose=False)), position)


def _matches(stream: list[Line], position: int, entry: ContentsEntry, body_size: float, loose: bool = True) -> bool:
    """Whether the line at `position` is the heading of `entry` (number and title, the title possibly wrapped).

    A title without its number on the line must look like a heading (larger or bold) or sit under
    its printed number, so that a list item repeating the title is not taken for it. A bold title that
    runs on into its text (`Column The column(x) function …`) is a heading too. `loose` also accepts a line
    that starts with the title (on the page the contents names, not further away)."""
    line = stream[position]
    text = _NOTE_MARK.sub("", heading_text(line))  # `… LuaLaTeX[^7]`: the heading's footnote mark is no part of its title
    if entry.designator is not None:
        text = strip_designator(text, entry.designator) or ""  # `a. Préambule` for the entry `Préambule` designated `a`
        if not text:
            return False
    number = parse_number(_GLUED_NUMBER.sub(r"\1 ", text))
    if _BULLET.match(text) and not (entry.number is not None and number is not None and number.path == entry.number.path):
        return False  # a list item repeating the title; `1. Part One` for the entry numbered 1 is its heading
    want = title_key(entry.title)
    if not want:
        return False
    if run_in_rest(line, entry) is not None:
        return True
    if len(text) > 2 * len(entry.title) + 40:
        return False
    lettered = LETTERED_ANNEX.match(text)
    if lettered and entry.number is not None and entry.number.kind == "annex" and entry.number.path == lettered.group("letter"):
        text = lettered.group("title")  # `A. Packages` for the appendix A: the title after its letter
    own = title_key(number.title) if number and number.title else title_key(text)
    following = stream[position + 1] if position + 1 < len(stream) else None
    joined = own + (title_key(following.text) if following is not None and following.page == stream[position].page else "")
    same_title = (
        own == want
        or same_letters(own, want)
        or (len(own) >= 6 and want.startswith(own) and _wrapped_onto(stream, position, own, want))
        or (loose and len(want) >= 8 and own.startswith(want) and not _running_header(stream, position, own[len(want) :]))
        or (len(own) >= 6 and want.startswith(joined) and 2 * len(joined) >= len(want) and _designated_above(stream, position, entry))
    )
    if not same_title:
        return False
    if entry.number is None:
        return number is None or not number.title
    if number and number.title:
        return number.path == entry.number.path
    above = clean_inline(stream[position - 1].text) if position > 0 and stream[position - 1].page == line.page else ""
    above_number = parse_number(above)
    numbered_above = bool(above_number and not above_number.title) or bool(CHAPTER_WORD.match(above.split(" ")[0] if above else ""))
    return numbered_above or marked(line, body_size)


def _wrapped_onto(stream: list[Line], position: int, own: str, want: str) -> bool:
    """Whether a title that starts on the line at `position` (its key `own`) ends on one of the next three lines of the
    page: a long title wrapped over up to four lines (`8.14.6 write_term/3, write_term/2, …` over three lines, a
    reference's list of the predicates a section documents)."""
    joined = own
    for line in stream[position + 1 : position + 4]:
        if line.page != stream[position].page:
            return False
        joined += title_key(line.text)
        if joined.startswith(want):
            return True
        if not want.startswith(joined):
            return False
    return False


def _running_header(stream: list[Line], position: int, tail: str) -> bool:
    """Whether a line that prints an entry's title and then `tail` (the rest of its key) is a running header: the first
    or last line of its page, the title followed by nothing but a number, its page's (`3. ¿Qué documentación …? 11`
    over each page of chapter 3, where the heading is on the page before)."""
    line = stream[position]
    first = position == 0 or stream[position - 1].page != line.page
    last = position + 1 == len(stream) or stream[position + 1].page != line.page
    return tail.isdecimal() and (first or last)


def _designated_above(stream: list[Line], position: int, entry: ContentsEntry) -> bool:
    """Whether the line above `position` on its page designates the entry's number alone, a word and its value
    (`Dodatek B`, `Chapter 3`, `Capítulo 2`): the heading below is that entry's even where its title stops short of
    the one the contents print (`GNU General Public License` / `LICENSE` for `…License, version 2`)."""
    if entry.number is None or position == 0 or stream[position - 1].page != stream[position].page:
        return False
    value = entry.number.path.split()[-1]
    above = clean_inline(stream[position - 1].text)
    return bool(re.fullmatch(rf"[^\W\d_][^\W\d_’'-]{{2,19}}\s+{re.escape(value)}\.?", above))


def same_letters(first: str, second: str) -> bool:
    """Two title keys that differ only in the order of a few letters within one short span: a logo set with lowered or
    mirrored letters (XeTeX) comes out of the text layer as `X TEEX`, and differently on the heading and in the contents."""
    if len(first) != len(second) or len(first) < 6 or first == second or sorted(first) != sorted(second):
        return False
    differ = [k for k, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
    return differ[-1] - differ[0] < 5


# a spacing accent that TeX sets as a glyph of its own before its letter (`Ap´endice`, `A˜nadir`), and the combining
# accent it stands for; a grave is left alone (an ASCII backquote opens quotes and code)
_SPACING_ACCENTS = {
    "\u00b4": "\u0301", "\u02c6": "\u0302", "\u02dc": "\u0303", "\u00a8": "\u0308", "\u02dd": "\u030b",
    "\u02da": "\u030a", "\u02c7": "\u030c", "\u02d8": "\u0306", "\u00af": "\u0304", "\u02d9": "\u0307",
}  # fmt: skip
_LOOSE_ACCENT = re.compile(f"([{''.join(_SPACING_ACCENTS)}])([^\\W\\d_])")


def joined_accents(text: str) -> str:
    """`Ap´endice` read as `Apéndice`: a spacing accent right before a letter is that letter's accent, when the accented
    letter exists as one character (a dotless `ı` under it is an `i`: `cap´ıtulo`), so that a heading's words are the
    words the reader types and the labels the importer knows (`Apéndice B`)."""
    if text.isascii() or not _LOOSE_ACCENT.search(text):
        return text

    def join(match: re.Match[str]) -> str:
        letter = {"ı": "i", "ȷ": "j"}.get(match.group(2), match.group(2))
        accented = unicodedata.normalize("NFC", letter + _SPACING_ACCENTS[match.group(1)])
        return accented if len(accented) == 1 else match.group(0)

    return _LOOSE_ACCENT.sub(join, text)


def heading_text(line: Line) -> str:
    """A line's text for reading a heading: without a short note set apart in the margin before a clause number
    (`v1.2.0` beside `6.5 bengali`, a version or change mark), which the line's first span holds alone; accents set
    apart from their letters joined to them (see `joined_accents`)."""
    text = joined_accents(clean_inline(line.text))
    if len(line.spans) < 2 or parse_number(text):
        return text
    (note, _, note_end), (_, start, _) = line.spans[0], line.spans[1]
    rest = joined_accents(clean_inline(" ".join(span[0] for span in line.spans[1:])))
    number = parse_number(rest)
    if len(note.split()) == 1 and len(clean_inline(note)) <= 12 and start - note_end > 4 * line.size and number and number.title:
        return rest
    return text


def marked(line: Line, body_size: float) -> bool:
    """Set larger than the body text, or bold throughout."""
    return line.size >= body_size + 0.8 or line.bold_prefix >= len(line.text.rstrip()) - 1


def run_in_rest(line: Line, entry: ContentsEntry) -> str | None:
    """The text after an entry's title set bold at the start of a line that runs on (`Column The column(x) …`,
    `2.1 Scope. This …`), or None when the line does not open with the entry's title in bold."""
    if not line.bold_prefix or line.bold_prefix >= len(line.text.rstrip()) - 1:
        return None
    bold = clean_inline(line.text[: line.bold_prefix]).rstrip(" .:–—")
    number = parse_number(bold)
    if entry.number is not None:
        if not (number and number.title and number.path == entry.number.path):
            return None
        bold = number.title
    elif number and number.title:
        return None
    if title_key(bold) != title_key(entry.title):
        return None
    rest = clean_inline(line.text[line.bold_prefix :]).lstrip(" .:–—")
    if not rest[:1].isupper() and not rest[:1].isdigit():
        return None  # a sentence follows a run-in title; a bold word inside a sentence is no heading
    if rest.isdecimal():
        return None  # a page number after the title: a running header (`7. ¿Qué es…? 34`) or a contents entry
    return rest + (LINE_END_HYPHEN if line.text.rstrip().endswith(LINE_END_HYPHEN) else "")


def heading_title_lines(stream: list[Line], position: int, entry: ContentsEntry) -> list[int]:
    """The lines a located heading's title covers (a title wrapped over two or three lines)."""
    want = title_key(entry.title)
    text = clean_inline(stream[position].text)
    number = parse_number(_GLUED_NUMBER.sub(r"\1 ", text))
    # a number alone on its line (`Appendix A` over `Appendix`): the title is on the lines below it
    have = title_key(number.title) if number and number.title else ("" if number else title_key(text))
    used = [position]
    following = position + 1
    while len(have) < len(want) and following < len(stream) and following < position + 3:
        if stream[following].page != stream[position].page:
            break
        have += title_key(stream[following].text)
        if not want.startswith(have[: len(want)]):
            break
        used.append(following)
        following += 1
    return used


def missing_from_outline(entries: list[ContentsEntry], outline_titles: list[str]) -> list[ContentsEntry]:
    """The printed contents entries that no bookmark names (the check of an outline against the printed contents)."""
    keys = {title_key(title) for title in outline_titles}
    keys |= {title_key(number.title) for title in outline_titles if (number := parse_number(title)) and number.title}
    return [entry for entry in entries if title_key(entry.title) not in keys]
