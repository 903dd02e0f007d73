"""What every importer shares: the draft it produces, clause numbers, their order, and safe Markdown lines."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path

from normcli.bundle import CODE_FENCE as CODE_FENCE  # the importers' name for the bundle's one definition
from normcli.fold import path_key
from normcli.labels import ANNEX_HEADING_LABEL, CHAPTER_LABEL, FIGURE_CAPTION_LABEL, TABLE_CAPTION_LABEL

# PDFium's mark for the hyphen of a word broken at a line's end (FPDFText gives it as \x02): the
# importers keep it until the document's own words say whether the hyphen stays (`architecture-independent`)
LINE_END_HYPHEN = "\ufffe"
_NUMBER = re.compile(r"^(?P<path>\d{1,3}(?:\.\d{1,3})*)(?P<dot>\.?)(?:[ \t\u00a0]+(?P<title>\S.*))?$")
_ANNEX = re.compile(
    rf"^(?P<word>{ANNEX_HEADING_LABEL})[ \t\u00a0]+(?P<letter>[A-Z]|\d{{1,2}})\b\.?"
    r"(?:[ \t\u00a0]*[:–—\-.]?[ \t\u00a0]*(?P<title>.*))?$"
)
_ANNEX_CLAUSE = re.compile(r"^(?P<path>[A-Z](?:\.\d{1,3})+)(?P<dot>\.?)(?:[ \t\u00a0]+(?P<title>\S.*))?$")
_CHAPTER = re.compile(rf"^{CHAPTER_LABEL}[ \t\u00a0]+(?P<number>\d{{1,3}})\b\.?(?:[ \t\u00a0]*[:–—\-.]?[ \t\u00a0]*(?P<title>.*))?$")
# ASCII only: with case ignored, a dotless `ı` would match `i`
_ROMAN = re.compile(r"^(?=[ivxlcdm]+$)m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})$", re.I | re.A)
_ROMAN_DIGITS = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100, "d": 500, "m": 1000}
_LIGATURE = re.compile("[\ufb00-\ufb06]")
_UNSAFE_START = re.compile(r"^( {0,3})(?=#{1,6}(?:[ \t]|$))|^(\s*)(?=\$\$|<!--|```|~~~)")
_SPELLED = {
    "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17,
    "eighteen": 18, "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40,
}  # fmt: skip
FIGURE_CAPTION = re.compile(
    rf"^(?P<label>{FIGURE_CAPTION_LABEL})[ \t\u00a0]*(?P<num>(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*[a-z]?)"  # 3, 2.1, A.1
    r"[ \t\u00a0]*(?P<sep>[:–—]|\.(?!\d)|-(?=\s))[ \t\u00a0]*(?P<caption>\S.*)$"
)
TABLE_CAPTION = re.compile(
    rf"^(?P<label>{TABLE_CAPTION_LABEL})[ \t\u00a0]*(?P<num>(?:[A-Z][.\-]?)?\d+(?:[.\-]\d+)*)"
    r"[ \t\u00a0]*(?P<sep>[:–—]|\.(?!\d)|-(?=\s))[ \t\u00a0]*(?P<caption>\S.*)$"
)

# the months (English, French, German, Italian, Spanish, Portuguese, and the usual abbreviations)
MONTHS = (
    "january|february|march|april|may|june|july|august|september|october|november|december|"
    "janvier|f[ée]vrier|mars|avril|mai|juin|juillet|ao[uû]t|septembre|octobre|novembre|d[ée]cembre|"
    "januar|j[aä]nner|februar|m[aä]rz|juni|juli|oktober|dezember|"
    "gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|agosto|settembre|ottobre|dicembre|"
    "enero|febrero|abril|mayo|junio|julio|septiembre|setiembre|octubre|noviembre|diciembre|"
    "janeiro|fevereiro|mar[cç]o|maio|junho|julho|setembro|outubro|novembro|dezembro|"
    "jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec"
)
_VERSION = r"(?P<version>(?:[^\W\d_][\w.]*-)?v?\d+(?:\.\d+)*[a-z]?(?:-\d+)?)"
_RELEASED = (
    rf"(?P<date>\d{{4}}[-/.]\d{{1,2}}[-/.]\d{{1,2}}|\d{{1,2}}[-/.]\d{{1,2}}[-/.]\d{{4}}|\d{{1,2}}\.?\s+(?:{MONTHS})\.?\s+\d{{4}}"
    rf"|(?:{MONTHS})\.?\s+(?:\d{{1,2}},?\s+)?\d{{4}})"
)
# a change log's entry: a version (`2.5k`, `1.22`, `bltx-v1.2-5`, `v3.0`) and the date it was released (`2020-10-05`,
# `(28-01-2017)`, `2022/08/02`, `12 March 2021`), and nothing else
VERSION_DATE = re.compile(rf"^(?:(?:version|release|v\.)\s*)?{_VERSION}[,:]?\s+[(\[]?{_RELEASED}[)\]]?$", re.I)
# the same with the date first, the pair often bracketed as a package's date and version are (`[2015/06/01 v0.1]`); the
# version may be missing (`[2018/12/01]`, a release that changed no version)
DATE_VERSION = re.compile(rf"^[(\[]?{_RELEASED}(?:[,:]?\s+(?:version\s*)?{_VERSION})?[)\]]?$", re.I)


@dataclass
class Draft:
    """What an importer hands to the bundle writer: the Markdown body and the files it links to."""

    title: str = ""
    body: list[str] = field(default_factory=list)
    files: dict[str, bytes | Path] = field(default_factory=dict)
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    scanned_pages: int = 0
    outline_used: bool = False

    def add_file(self, name: str, content: bytes | Path) -> str:
        """Register a file for `figures/`, renaming on a clash; returns its path relative to the bundle."""
        stem, dot, suffix = name.rpartition(".")
        if not dot:
            stem, suffix = name, "bin"
        candidate = f"figures/{safe_file_name(stem)}.{suffix.lower()}"
        counter = 2
        while candidate in self.files:
            candidate = f"figures/{safe_file_name(stem)}-{counter}.{suffix.lower()}"
            counter += 1
        self.files[candidate] = content
        return candidate


@dataclass(frozen=True)
class Number:
    """A clause number as printed: its path and the title that follows it on the heading line."""

    path: str
    title: str
    kind: str  # "clause" (4.2.1), "annex" (Annexe A), "annex_clause" (A.1), "chapter" (Chapter 3)

    @property
    def depth(self) -> int:
        """Depth as SPEC §2 counts it: number of components; an annex is a chapter."""
        if self.kind == "annex":
            return 1
        return self.path.count(".") + 1


def parse_number(text: str) -> Number | None:
    """The clause number a heading line starts with, or None (`3.2.1 Title`, `Annexe A Title`, `A.1`, `Chapter 4. Title`)."""
    text = text.strip()
    match = _CHAPTER.match(text)
    if match:
        return Number(str(int(match.group("number"))), (match.group("title") or "").strip(), "clause")
    match = _ANNEX.match(text)
    if match:
        word = match.group("word")
        return Number(f"{word[0].upper()}{word[1:]} {match.group('letter')}", (match.group("title") or "").strip(), "annex")
    match = _ANNEX_CLAUSE.match(text)
    if match:
        return Number(match.group("path"), (match.group("title") or "").strip(), "annex_clause")
    match = _NUMBER.match(text)
    if match:
        path = match.group("path")
        if path.split(".")[0] == "0" and path != "0":
            return None
        return Number(path, (match.group("title") or "").strip(), "clause")
    return None


def spelled_number(word: str) -> int | None:
    """`TWENTYONE`, `twenty-one`, `Thirteen` → the number; None if it is not a spelled-out number."""
    cleaned = re.sub(r"[\s\-]", "", word.lower())
    if not cleaned.isalpha():
        return None
    if cleaned in _SPELLED:
        return _SPELLED[cleaned]
    for tens in ("twenty", "thirty", "forty"):
        rest = cleaned.removeprefix(tens)
        if rest != cleaned and rest in _SPELLED and _SPELLED[rest] < 10:
            return _SPELLED[tens] + _SPELLED[rest]
    return None


class Sequencer:
    """Accepts clause numbers only in reading order (4.1 → 4.2 or 4.1.1 or 5, never 2.3), so lists and TOCs are not headings."""

    def __init__(self) -> None:
        self.current: list[int] = []
        self.annex: str | None = None  # the current annex letter, None while in the numbered clauses
        self.annex_current: list[int] = []
        self.last_annex: str | None = None

    def fits(self, number: Number, skip: int = 0) -> bool:
        """Whether `number` may come next; `skip` tolerates that many missed siblings (for strong layout signals)."""
        if number.kind == "annex":
            letter = number.path.split()[-1]
            if letter.isdigit():
                expected = int(self.last_annex) + 1 if self.last_annex and self.last_annex.isdecimal() else 1
                return expected <= int(letter) <= expected + skip
            expected_ord = ord(self.last_annex) + 1 if self.last_annex and self.last_annex.isalpha() else ord("A")
            return expected_ord <= ord(letter) <= expected_ord + skip
        if number.kind == "annex_clause":
            letter, *rest = number.path.split(".")
            if letter != self.last_annex and not (self.last_annex is None and letter == "A"):
                # an annex clause may also open its annex when the annex heading itself was not found
                opening = chr(ord(self.last_annex) + 1) if self.last_annex and self.last_annex.isalpha() else "A"
                return letter == opening and [int(part) for part in rest] == [1] * len(rest) and len(rest) == 1
            return _follows([int(part) for part in rest], self.annex_current if self.annex == letter else [], skip)
        if self.annex is not None:
            return False
        return _follows([int(part) for part in number.path.split(".")], self.current, skip)

    def accept(self, number: Number) -> None:
        """Record `number` as the clause we are now in."""
        if number.kind == "annex":
            self.annex = self.last_annex = number.path.split()[-1]
            self.annex_current = []
        elif number.kind == "annex_clause":
            letter, *rest = number.path.split(".")
            if self.annex != letter:
                self.annex = self.last_annex = letter
            self.annex_current = [int(part) for part in rest]
        else:
            self.current = [int(part) for part in number.path.split(".")]


def _follows(parts: list[int], current: list[int], skip: int) -> bool:
    """Whether the clause numbered `parts` may come after `current`: its first subclause, or the next sibling of it or
    of one of its parents (up to `skip` siblings missed); the first clause is 1 (or 0)."""
    if not current:
        return len(parts) == 1 and parts[0] in range(0, 2 + skip)
    if len(parts) == len(current) + 1 and parts[:-1] == current:
        return 1 <= parts[-1] <= 1 + skip
    if len(parts) > len(current):
        return False
    prefix = current[: len(parts) - 1]
    return parts[:-1] == prefix and current[len(parts) - 1] + 1 <= parts[-1] <= current[len(parts) - 1] + 1 + skip


class UniqueTitles:
    """Titles of unnumbered headings made unique: a repeated one becomes `Title (2)`, `Title (3)` (its path is its title)."""

    def __init__(self) -> None:
        self._seen: dict[str, int] = {}

    def __call__(self, title: str) -> str:
        """`title` the first time, then `title (2)`, `title (3)` … when the bundle would read it as the same path (case,
        accents, spaces, hyphens, underscores and slashes ignored: `Data-file` after `Datafile`; `Origin=` after
        `Origin` is another path)."""
        count = self.taken(title)
        return title if count == 1 else f"{title} ({count})"

    def taken(self, path: str) -> int:
        """Record a path (also a numbered heading's, so that an unnumbered title equal to it, an index's letter group
        `A` after the appendix `A`, is counted after it: `A (2)`); how many times it is taken now."""
        key = path_key(path)
        self._seen[key] = self._seen.get(key, 0) + 1
        return self._seen[key]


def heading_line(path: str | None, title: str, depth: int) -> str:
    """One Markdown heading as SPEC §2 reads it: `### 4.2.1 Title` (or `## Title` without a number)."""
    hashes = "#" * max(1, min(depth, 6))
    title = clean_inline(title)
    if path is None or path == title:
        return f"{hashes} {title}"
    return f"{hashes} {path} {title}".rstrip() if title and title != path else f"{hashes} {path}"


def clean_inline(text: str) -> str:
    """A single line of text with control characters and extraction artefacts removed."""
    if text.isascii() and text.isprintable():
        return " ".join(text.split())
    # a PDF import cleans each line several times (contents, figures, tree, Markdown): lines are remembered
    return _clean_line(text) if len(text) <= 400 else _clean_unicode(text)


@functools.lru_cache(maxsize=1 << 14)
def _clean_line(text: str) -> str:
    """`_clean_unicode`, remembered for a line's length of text."""
    return _clean_unicode(text)


def _clean_unicode(text: str) -> str:
    """`clean_inline` for text that is not plain printable ASCII."""
    text = text.replace(LINE_END_HYPHEN, "").replace("\u00ad", "").replace("\ufeff", "")
    if not text.isprintable():
        text = text.translate(_CORK_LIGATURES)
        text = "".join(ch if ch in "\t" or unicodedata.category(ch)[0] != "C" else " " for ch in text)
    if _LIGATURE.search(text):
        text = _LIGATURE.sub(lambda match: unicodedata.normalize("NFKC", match.group(0)), text)  # ﬁ → fi: searchable words
    # each pattern runs only on text it can change (a run of blanks, a no-break space, a guillemet): most lines have none,
    # and the searches with their lookarounds made this four times slower on the Yellow Paper's lines
    if "  " in text or "\t" in text:
        text = _BLANKS.sub(" ", text)
    # a no-break space stays where typography wants one (French `libre\u00a0;`, `«\u00a0mot\u00a0»`), elsewhere it is a space
    if not _NO_BREAK_OR_GUILLEMET.isdisjoint(text):
        text = _KEPT_NO_BREAK.sub(lambda m: m.group(1) or "\u00a0", text)
    if "\u00a0" in text:  # with single blanks, only a no-break space makes a loose space
        text = _LOOSE_SPACES.sub(" ", text)
    return text.strip()


# the ligatures of TeX's Cork (T1) encoding, codes 0x1B-0x1F, which PDFium gives as those control characters when the
# font maps no Unicode to them (`e\x1ecient` is `efficient`): no text has control characters there
_CORK_LIGATURES = {0x1B: "ff", 0x1C: "fi", 0x1D: "fl", 0x1E: "ffi", 0x1F: "ffl"}
_BLANKS = re.compile(r"[ \t]+")
_NO_BREAK_OR_GUILLEMET = frozenset("\u00a0\u202f«‹")  # what `_KEPT_NO_BREAK` needs to match at all
_KEPT_NO_BREAK = re.compile(r"[ \u00a0\u202f]*([\u00a0\u202f])[ \u00a0\u202f]*(?=[:;!?»›])|(?<=[«‹])[ \u00a0\u202f]+")
_LOOSE_SPACES = re.compile(r"(?<![«‹])(?:[ \u00a0]{2,}|\u00a0(?![:;!?»›]))")


def wrapped(text: str, previous: str, following: str) -> str:
    """A title or caption that goes on on the next printed line: joined with a space, or without one when the
    line ended in a word broken at its hyphen (PDFium marks that hyphen U+FFFE)."""
    glue = "" if previous.rstrip().endswith((LINE_END_HYPHEN, "\u00ad")) else " "
    return text + glue + clean_inline(following)


def safe_text_line(line: str) -> str:
    """A line of body text that the bundle parser cannot mistake for a heading, page marker, fence or formula."""
    match = _UNSAFE_START.match(line)
    if match:
        indent = match.group(1) or match.group(2) or ""
        return f"{indent}\\{line[len(indent) :]}"
    return line


def safe_file_name(stem: str) -> str:
    """A file name stem of letters, digits, inner dots and hyphens (`fig-2.1`), never `..` or a hidden name."""
    cleaned = re.sub(r"[^A-Za-z0-9.]+", "-", stem).lower()
    cleaned = re.sub(r"\.{2,}", ".", cleaned).strip("-.")
    return cleaned[:60].strip("-.") or "file"


def slug(code: str) -> str:
    """The folder name of a code: `SIA 261` → `sia-261`, `EN 1991-1-3` → `en-1991-1-3`."""
    from unidecode import unidecode

    cleaned = re.sub(r"[^a-z0-9]+", "-", unidecode(code).lower()).strip("-")
    return cleaned[:80].strip("-") or "norm"  # a folder name must fit the file system (255 bytes)


def figure_name(number: str) -> str:
    """The file stem of a numbered figure, which is also its id in the bundle: `3` → `fig-3`, `2.1` → `fig-2.1`."""
    return "fig-" + safe_file_name(number)


def is_toc_line(text: str) -> bool:
    """A table-of-contents entry: dot leaders (or a middle dot) or a page number after the title."""
    return bool(re.search(r"(?:\.\s?){4,}\s*[\divxlc]+\s*$|\s{3,}\d{1,4}\s*$|\s\.\s\.\s|\s[·•]\s+[\divxlc]+\s*$", text))


@functools.lru_cache(maxsize=1 << 14)  # matching an outline compares each entry with every line of its page
def title_key(text: str) -> str:
    """A title reduced for comparison: case, punctuation and spacing ignored, and the accents of Latin letters
    (`Übersicht` is `ubersicht`); the letters, digits and marks of other scripts are kept as they are (`起源`,
    `начало`), never transliterated: two kanji read alike are two titles, and a half-width `ﾌﾟ` is `プ`."""
    text = text.replace(LINE_END_HYPHEN, "")
    if text.isascii():
        return re.sub(r"[^a-z0-9]+", "", text.lower())
    return "".join(_key_part(char) for char in unicodedata.normalize("NFKC", text).lower())


@functools.lru_cache(maxsize=1 << 12)
def _key_part(char: str) -> str:
    """One character's part of a title key (see `title_key`)."""
    if char.isascii():
        return char if char.isalnum() else ""
    if "LATIN" in unicodedata.name(char, ""):
        from unidecode import unidecode

        return re.sub(r"[^a-z0-9]+", "", unidecode(char).lower())  # `ß` is `ss`, `ø` is `o`, as the words are typed
    if "\u02c6" <= char <= "\u02d1":
        return ""  # a spacing accent set apart from its letter (`Thˆe´`, TeX's double accent): a modifier letter, no letter
    # a mark of another script belongs to its word (a Devanagari vowel sign); a Latin accent left apart is none, nor an
    # arrow or a bar over a symbol (`A⃗`, U+20D0-U+20FF)
    if unicodedata.category(char)[0] == "M":
        return "" if "\u0300" <= char <= "\u036f" or "\u20d0" <= char <= "\u20ff" else char
    return char if char.isalnum() else ""


def ascii_figure_svg(lines: list[str]) -> bytes:
    """An SVG picture of an ASCII-art figure (RFC diagrams), so that it can be a numbered figure of the bundle."""
    from xml.sax.saxutils import escape

    rows = [line.rstrip() for line in lines]
    indent = min((len(row) - len(row.lstrip()) for row in rows if row.strip()), default=0)
    rows = [row[indent:] for row in rows]
    width = max((len(row) for row in rows), default=1) * 7.2 + 16
    height = len(rows) * 14 + 16
    texts = "".join(
        f'<text x="8" y="{22 + 14 * number}" xml:space="preserve">{escape(row)}</text>' for number, row in enumerate(rows) if row.strip()
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height}" viewBox="0 0 {width:.0f} {height}">'
        f'<rect width="100%" height="100%" fill="white"/><g font-family="monospace" font-size="12" fill="black">{texts}</g></svg>\n'
    ).encode()


def roman_value(text: str) -> int | None:
    """The value of a well-formed roman numeral in either case (`xiv` → 14, `II` → 2), None for anything else."""
    if not text or not _ROMAN.match(text):
        return None
    digits = [_ROMAN_DIGITS[char] for char in text.lower()]
    return sum(-value if value < following else value for value, following in zip(digits, [*digits[1:], 0], strict=True))
