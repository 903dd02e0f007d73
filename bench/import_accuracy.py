"""How faithfully `normcli ingest` reads PDFs: the clause tree, tables, figures and superscripts.

Every PDF of ../shared/corpus (or the PDFs given as arguments) is imported three ways into a
scratch workspace: as it is (with its bookmark outline, when it has one), ignoring the outline
(`use_outline=False`), and from a real copy with the outline stripped (the pages copied into a new
PDF with pypdfium2, which also drops page labels and links). Each import is scored against
references read independently of the importer:

- **tree**: the outline itself (title, target page; the path is the number in the title, else the
  number printed with the title on the target page, read here with the bench's own small rules);
  for a PDF without an outline, the numbered headings of a text edition beside it (`x.txt` for
  `x.pdf`, path and title only: the text has no pages). Recall = share of reference entries found
  as a clause with the same path and title (case, accents, punctuation ignored) on the same PDF page
  (an unnumbered clause's path is its title and is compared as one, as is a path that starts with a version and goes
  on, `1.11a (28-01-2017)`; a Latin letter with a stroke keys as the letter, `Đ` as `D`; titles that differ only in the order of a few
  letters of one short span, a logo such as XeTeX printed `X TEEX`, are the same, see `alike`).
  Beside it, the same recall over the entries **printed on their page** as a heading is (`shown_on_page`,
  read here from PDFium's characters: the title alone on a piece of a line, led or not by its number, or
  wrapped, or run in before a sentence in a font of its own; never a line that the neighbouring pages
  repeat in their top or bottom band). A bookmark the page does not print (`Cover:`, a slide's section
  shown only in the navigation bar, a command bookmarked beside its arguments) cannot be found in the
  text without the outline: the second figure says what is missed for a reason the importer controls.
- **tree precision**: of the clauses an import writes, the share that match a bookmark (same page, same title or
  path), leaving aside those the outline cannot judge: under a bookmark it lists nothing under (*below*) and the
  frame before the first bookmark (see `tree_precision`); the invented clauses are listed with `--misses`.
- **tables / figures**: the captions printed in the page text (`Table 2.1:` / `Figure 2.1:`)
  against the bundle's tables and figures with those numbers (less the table captions the truth lists
  as set over no table: a manual's examples of its caption command); uncaptioned tables found are shown
  apart (on a document whose tables are all captioned they are false tables).
- **superscripts**: up to 60 raised, smaller runs of characters sampled from the PDF's character
  boxes (`10` + raised `9`); one is kept when the bundle has it as `10⁹`, `10^{9}` or a footnote
  `[^9]`, not as `109`.
- **table precision**: on a fixed sample of pages of each corpus PDF (every 12th page from page 6),
  hand-labelled in `bench/table_truth.json` (the number of real tables that start on each page, with
  a note on what they are), the tables the bundle writes on those pages are counted against the
  truth: found tables beyond the real ones are *not real* (false tables), real ones beyond those found
  are *missed*. PDFs from elsewhere (not in the repository) have their truth in
  `bench/table_truth_unseen.json`, keyed by the PDF's SHA-256, with a first, a held-out, a third, a fourth, a fifth, a sixth, a seventh, an eighth, a ninth, a tenth, an eleventh and a real-world sample (PDFs of producers other than TeX; each chosen by the rule written in the file before the output was looked at).
- **s / 100 pages**: import time of the run with the outline (median of `--repeat` runs), and the same
  time as a multiple of PDFium's plain text extraction of the same PDF measured in the same run (the
  ratio holds when the machine is busy).

    .venv/bin/python bench/import_accuracy.py                 # the corpus
    .venv/bin/python bench/import_accuracy.py a.pdf --json
    .venv/bin/python bench/import_accuracy.py --extra ~/pdfs    # also every PDF under a folder of your own
    .venv/bin/python bench/import_accuracy.py --tables-only --extra ~/pdfs   # one import per PDF, tables and figures

A PDF that fails to import is reported in its row (`error`), never stops the run.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from normcli.bundle import parse_bundle  # noqa: E402
from normcli.importers import build_draft  # noqa: E402
from normcli.importers.writer import write_bundle  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus"
OUTLINE_LEVELS = 15  # the bookmark levels read, as deep as the importer reads them
TRUTH = Path(__file__).resolve().with_name("table_truth.json")
# the hand-labelled samples: the key in the truth files, the key in a row, the name in the printed table
SAMPLES = (
    ("documents", "precision", "first"),
    ("heldOut", "precisionHeldOut", "held out"),
    ("third", "precisionThird", "third"),
    ("fourth", "precisionFourth", "fourth"),
    ("fifth", "precisionFifth", "fifth"),
    ("sixth", "precisionSixth", "sixth"),
    ("seventh", "precisionSeventh", "seventh"),
    ("eighth", "precisionEighth", "eighth"),
    ("ninth", "precisionNinth", "ninth"),
    ("tenth", "precisionTenth", "tenth"),
    ("eleventh", "precisionEleventh", "eleventh"),
    ("realworld", "precisionRealworld", "real-world"),
)
TRUTH_UNSEEN = Path(__file__).resolve().with_name("table_truth_unseen.json")  # PDFs not in the repository, by SHA-256
_TABLE_RULE = re.compile(r"^\|(?:\s*:?-{3,}:?\s*\|)+\s*$")
_MARKER = re.compile(r"^<!--\s*page\s+\S+\s+pdf=(\d+)")
# the bench's own reading of clause numbers, kept apart from the importer's on purpose
# (or set off by a dash, `1.1- Title`, `2 – Title`, as Arabic and French documents number their sections)
_LEADING_NUMBER = re.compile(r"^(?P<path>\d{1,3}(?:\.\d{1,3})*|[A-Z](?:\.\d{1,3})+)(?:\.|\s?[-–])?\s+(?P<title>\S.*)$")
_WORD_NUMBER = re.compile(
    r"^(?P<word>chapter|chapitre|kapitel|capitolo|cap[ií]tulo|appendix|appendice|annexe|anhang|annex|allegato|ap[eé]ndice|anexo)\s+(?P<value>[A-Z]|\d{1,3})\b\.?\s*(?P<title>.*)$",
    re.I,
)
# a number set with a space after its stop (`2. 1 Title`, or around it in right-to-left text, `۵ . ١`): the head and the
# tail of one clause number
_SPLIT_NUMBER = re.compile(r"^(?P<head>\d{1,3}(?:\.\d{1,3})*)\s?\.\s(?P<tail>\d{1,3})\.?\s+(?P<title>\S.*)$")
# a clause number that the text layer runs into the title (`3TEXtopo user commands`)
_GLUED_NUMBER = re.compile(r"^(?P<path>\d{1,3}(?:\.\d{1,3})*)\.?(?=[^\W\d_])")
_DIVISION_WORDS = r"part|partie|teil|parte|book|livre|buch|libro|volume|band|tome|file|fichier|datei"
# a division's or an appendix's word set in capitals before its designator (`APPENDIX B. MULTILINGUAL SUPPORT`)
_CAPITAL_WORD = rf"(?=(?i:{_DIVISION_WORDS}|appendix|appendice|annexe?|anhang|allegato)\b)[A-Z]+"
# an appendix printed as its letter and a stop before its title (`A. Packages`); not `I.`, `V.`, `X.` (roman chapters)
_LETTERED = re.compile(r"^(?P<letter>[A-Z])\.\s+(?P<title>\S.*)$")
# any other word with a number or a capital letter alone on a line above a title: a chapter or an appendix in a
# language the list above lacks (`Глава 2`, `Hoofdstuk 3`, `Apêndice A`); never a division, figure or table
_OTHER_WORD_NUMBER = re.compile(r"^(?P<word>[^\W\d_][^\W\d_'’-]{2,19})\s+(?P<value>\d{1,3}|[A-Z])\.?$")
_NOT_CHAPTER_WORDS = rf"{_DIVISION_WORDS}|figure|fig|table|tableau|tabelle|abbildung|version|release|step|schritt|étape|page|seite"
_SPELLED = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
# the caption words, the bench's own list (it does not read the importer's): French, German, Italian, English, Spanish,
# Portuguese, Dutch, Danish, Czech, Slovak, Turkish, Russian, Polish
_TABLE_WORDS = "table|tableau|tabelle|tabella|tabela|tabla|cuadro|tabel|tabulka|tabuľka|tablo|таблица"
_FIGURE_WORDS = "figure|fig\\.|abbildung|bild|figura|figuur|figur|obrázek|obrázok|şekil|рисунок|rysunek"
_CAPTION = {
    kind: re.compile(rf"^(?:{words})\s+(?P<num>[A-Z]?\d+(?:[.\-]\d+)*)\s*(?:[:–—]|\.(?!\d))", re.I)
    for kind, words in (("table", _TABLE_WORDS), ("figure", _FIGURE_WORDS))
}
# the digits a font with old-style figures may map into the Private Use Area (Adobe's `uniF730`…`uniF739`, `zero.oldstyle`…)
OLDSTYLE_DIGITS = {0xF730 + value: str(value) for value in range(10)}
# Windows-1251 Cyrillic read as the Latin-1 letters at its codes (a font embedded without a map to Unicode): a page
# whose letters are a quarter accented Latin ones or more is read back at those codes (`Èñõîäíûå` is `Исходные`)
_WIN1251 = {code: bytes([code]).decode("cp1251") for code in [*range(0xC0, 0x100), 0xA8, 0xB8]}


def cyrillic_text(text: str) -> str:
    """The page's text with Cyrillic misread as Latin-1 read back (see `_WIN1251`); other text as it is."""
    accented = sum(1 for char in text if "\u00c0" <= char <= "\u00ff")
    letters = sum(1 for char in text if char.isalpha())
    return text.translate(_WIN1251) if accented >= 20 and accented >= 0.25 * letters else text


_DOTLESS = {"ı": "i", "ȷ": "j"}  # an accented i or j set as the accent over a dotless letter is that letter
# Latin letters with a stroke, which Unicode does not decompose: a title keys as it is typed without the stroke, as it
# is without its accents (`Đánh số` is `danhso`); `ð` too, which PDFDocEncoding bookmarks use for `đ` (they lack it)
_STROKED = {"đ": "d", "ð": "d", "ħ": "h", "ł": "l", "ø": "o", "ŧ": "t"}
# ligatures that a title typed in ASCII spells with two letters (`choeur` in a bookmark for the printed `chœur`); `ß`
# (`Grosse` for `Große`) keys as it is, a stand-in for a letter of another script (see `_same_title`), and is `ss` to `alike`
_TWO_LETTERS = {"œ": "oe", "æ": "ae"}
_SUPERSCRIPTS = str.maketrans("0123456789+-−=()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿ")


def key(text: str) -> str:
    """A title reduced for comparison: case, punctuation and spacing ignored, and the accents of Latin letters;
    the letters and digits of every script are kept (`起源`, `Начало`), so a title in Japanese or Russian is not
    reduced to nothing (or to the Latin words it holds, `Debian の発音` to `debian`)."""
    text = unicodedata.normalize("NFKC", text.replace("\ufffe", "").replace("\x02", "").translate(OLDSTYLE_DIGITS))
    if text.isascii():
        return re.sub(r"[^a-z0-9]+", "", text.lower())
    return "".join(_key_letters(char) for char in text.lower())


def _key_letters(char: str) -> str:
    """One character's part of a title key: a Latin letter without its accents, another letter, digit or mark as it
    is (a Greek, Cyrillic or CJK letter; a kana keeps its voicing mark: `が` is not `か`), nothing for the rest."""
    if char in _STROKED:
        return _STROKED[char]
    if char in _TWO_LETTERS:
        return _TWO_LETTERS[char]
    if char in _DOTLESS:
        return _DOTLESS[char]  # TeX's `\'{\i}` comes out of the text layer as `´ı`: the accent apart, the dotless i
    if "LATIN" in unicodedata.name(char, ""):
        return "".join(c for c in unicodedata.normalize("NFKD", char) if c.isalnum())
    if "\u02c6" <= char <= "\u02d1":
        return ""  # a spacing accent apart from its letter (`Thˆe´ Th`anh`, a double accent built by TeX) is no letter
    # a mark of another script is part of its word (a Devanagari vowel sign or virama); a Latin accent left apart is not,
    # nor an arrow or a bar over a symbol (`A⃗`, U+20D0-U+20FF)
    if unicodedata.category(char)[0] == "M":
        return "" if "\u0300" <= char <= "\u036f" or "\u20d0" <= char <= "\u20ff" else char
    return char if char.isalnum() else ""


def path_fold(path: str) -> str:
    """A path as the bundle matches paths (SPEC §1, one node per path): case, accents, spaces, hyphens, underscores and
    slashes ignored, so `Data-file` after `Datafile` repeats it and is `Data-file (2)`; `Origin=` and `Origin` differ."""
    decomposed = unicodedata.normalize("NFKD", path)
    return re.sub(r"[\s\-_/]+", "", "".join(c for c in decomposed if not unicodedata.combining(c)).lower())


def roff_text(title: str) -> str:
    """A bookmark title as printed where groff's pdfmark left roff escapes in it (without their backslash): `[u00E9]`
    is `é`, and `F[C]` … `F[]`, a change of font, is no text."""
    if "F[]" in title or "f[]" in title:
        title = re.sub(r"[Ff]\[[A-Za-z0-9]{0,4}\]", "", title)
    return re.sub(r"\[u([0-9A-Fa-f]{4,6})\]", lambda match: chr(int(match.group(1), 16)), title)


def alike(first: str, second: str) -> bool:
    """Two title keys that are the same title: equal, or equal but for the order of a few letters within one short span
    (a logo set with lowered or mirrored letters, XeTeX, comes out of the text layer as `X TEEX`, key `xteex`)."""
    if first == second:
        return True
    if "ß" in first + second and first.replace("ß", "ss") == second.replace("ß", "ss"):
        return True  # `Grosse` typed for `Große`
    if len(first) != len(second) or len(first) < 6 or sorted(first) != sorted(second):
        return False
    differ = [k for k, (a, b) in enumerate(zip(first, second, strict=True)) if a != b]
    return differ[-1] - differ[0] < 5


def spelled(word: str) -> int | None:
    """`TWENTYONE` → 21 (chapter numbers spelled out by Sphinx's LaTeX)."""
    word = re.sub(r"[^a-z]", "", word.lower())
    if word in _SPELLED:
        return _SPELLED.index(word)
    for tens, value in (("twenty", 20), ("thirty", 30), ("forty", 40)):
        if word.startswith(tens):
            rest = word[len(tens) :]
            if not rest:
                return value
            if rest in _SPELLED[1:10]:
                return value + _SPELLED.index(rest)
    return None


@dataclass
class Entry:
    """A reference clause: path, title key and PDF page (1-based; None when the reference has no pages)."""

    path: str
    title: str
    page: int | None
    printed: str = ""  # the title as the page prints it, when it differs from the bookmark's (`About etoolbox` for `About`)
    shown: bool = True  # the title is printed on its page as a heading would be (see `shown_on_page`)
    level: int = 0  # its depth in the reference (a bookmark's level; a text heading's count of numbers)
    leaf: bool = True  # the reference lists nothing under it: what the import finds below it is not judged


# -- references -----------------------------------------------------------------------------------


def page_lines(document, index: int, cache: dict[int, list[str]]) -> list[str]:
    """The text lines of one page, as PDFium extracts them."""
    if index not in cache:
        page = document[index]
        textpage = page.get_textpage()
        text = cyrillic_text(textpage.get_text_range().replace("\ufffe", "").translate(OLDSTYLE_DIGITS))
        cache[index] = [line.strip() for line in text.splitlines() if line.strip()]
        textpage.close()
        page.close()
    return cache[index]


def _repeats(line: str, other: str) -> bool:
    """Whether two lines at the same place of neighbouring pages are one running header or footer: the same text, with
    at most one number changed, by one or two (the page number: `Capítulo 12. Medidas e Contadores 86` over `… 87`);
    two headings opening their pages (`22.3 Version 4.6.1`, `22.6 Version 4.5.0`) differ in more of their numbers."""
    mine, theirs = key(line), key(other)
    if re.sub(r"\d+", "#", mine) != re.sub(r"\d+", "#", theirs) or not re.search(r"[^\W\d_]", mine):
        return False
    if _OTHER_WORD_NUMBER.match(line.strip()):
        return False  # `Chapter 2` over `Chapter 3` on the next page: two chapters of a page each open their pages
    changed = [(a, b) for a, b in zip(re.findall(r"\d+", mine), re.findall(r"\d+", theirs), strict=True) if a != b]
    return len(changed) <= 1 and all(abs(int(a) - int(b)) <= 2 for a, b in changed)


def _running_lines(document, index: int, cache: dict[int, list[str]]) -> set[int]:
    """The positions of a page's running header and footer lines: page numbers alone among its first or last two
    lines, and its first and last line of text that the page before or after prints at the same place but for its
    page number (see `_repeats`; `Capítulo 7` over a chapter's title is not the running header `Capítulo 7. … 47`)."""

    def edges(lines: list[str]) -> tuple[set[int], int | None, int | None]:
        count = len(lines)
        numbers = {p for p in (0, 1, count - 2, count - 1) if 0 <= p < count and re.fullmatch(r"\d{1,4}", lines[p].strip())}
        text = [p for p in range(count) if p not in numbers]
        return numbers, (text[0] if text else None), (text[-1] if text else None)

    lines = page_lines(document, index, cache)
    numbers, top, bottom = edges(lines)
    others = [(other, edges(other)) for other in (page_lines(document, k, cache) for k in (index - 1, index + 1) if 0 <= k < len(document))]
    running = set(numbers)
    for side, position in ((1, top), (2, bottom)):
        if position is None:
            continue
        repeated = any(ends[side] is not None and _repeats(lines[position], other[ends[side]]) for other, ends in others)
        if repeated or _counts_pages(document, index, side, lines[position], cache, edges):
            running.add(position)
    return running


def _counts_pages(document, index: int, side: int, line: str, cache: dict[int, list[str]], edges) -> bool:
    """Whether a word and a number at a page's edge (`Bibliography 94`) is a running header with its page number: three
    pages in a row print the word there with the number counting up page by page (`Bibliography 95`, `96`), and no page
    number of their own. Pages of one-page chapters (`Kapitel 1`, `Kapitel 2`, `Kapitel 3`) print their numbers apart."""
    match = _OTHER_WORD_NUMBER.match(line.strip())
    if not match or not match.group("value").isdecimal():
        return False
    word, value = match.group("word"), int(match.group("value"))
    for start in (index - 2, index - 1, index):
        if start < 0 or start + 2 >= len(document):
            continue
        counted = True
        for other in range(start, start + 3):
            lines = page_lines(document, other, cache)
            numbers, *ends = edges(lines)
            at = ends[side - 1]
            found = _OTHER_WORD_NUMBER.match(lines[at].strip()) if at is not None and not numbers else None
            # a page that prints its number alone besides (`Kapitel 1` over a one-page chapter, `1` at its foot) has
            # its page number there: its `Kapitel 1` is the chapter's
            if not found or found.group("word") != word or found.group("value") != str(value + other - index):
                counted = False
                break
        if counted:
            return True
    return False


def _opens_page(document, index: int, title: str, cache: dict[int, list[str]]) -> bool:
    """Whether a page's first line, taken for a running header because the next page prints it at the same place, is
    the title itself opening a chapter (`1. Introduction`, which the chapter's next pages repeat as their header): the
    page before does not print it there."""
    lines = page_lines(document, index, cache)
    letter = _LETTERED.match(lines[0]) if lines else None  # `A. Region and Script Mappings`: an appendix
    printed = {_printed_title(lines[0]), key(letter.group("title")) if letter else ""} if lines else set()
    if key(title) not in printed or 0 not in _running_lines(document, index, cache):
        return False
    before = page_lines(document, index - 1, cache) if index > 0 else []
    return not any(_repeats(lines[0], line) for line in before[:2])


def body_lines(document, index: int, cache: dict[int, list[str]]) -> list[str]:
    """A page's lines without its running header and footer (see `_running_lines`): `Capítulo 12. Medidas e
    Contadores 86` over a page of chapter 12 is no heading of a section `Medidas` on that page."""
    running = _running_lines(document, index, cache)
    return [line for position, line in enumerate(page_lines(document, index, cache)) if position not in running]


def _lowest_text(document, index: int, cache: dict[int, float], lines_cache: dict[int, list[str]]) -> float:
    """How low a page's text reaches above its bottom band (8 %), page numbers alone on their line aside, and a running
    footer ending in the page number (`Basics 34`, see `_running_lines`): the lowest baseline of its characters, raised by a quarter of
    their size (the page's height when it holds no text there). A bookmark anchored under it was set at the foot of the
    page, after its last line."""
    import ctypes

    import pypdfium2.raw as raw

    if index not in cache:
        page_text = page_lines(document, index, lines_cache)
        # a running line that ends in its page number (`Basics 34`); a slide's title repeated over its overlays is text
        running = {
            key(text) for position in _running_lines(document, index, lines_cache) if re.search(r"\D\s*\d+$", text := page_text[position])
        }
        if page_text and _counting_foot(document, index, lines_cache):
            running.add(key(page_text[-1]))  # `File babel-foo.def 27`: the section's title changes, the count goes on
        page = document[index]
        height = page.get_height()
        textpage = page.get_textpage()
        x, y = ctypes.c_double(), ctypes.c_double()
        rows: dict[float, list[tuple[str, float]]] = {}  # the characters on each baseline, with their sizes
        for k in range(raw.FPDFText_CountChars(textpage.raw)):
            char = chr(raw.FPDFText_GetUnicode(textpage.raw, k) or 32)
            if char.isspace():
                continue
            raw.FPDFText_GetCharOrigin(textpage.raw, k, x, y)
            if y.value > 0.08 * height:
                rows.setdefault(round(y.value, 1), []).append((char, raw.FPDFText_GetFontSize(textpage.raw, k)))
        textpage.close()
        page.close()
        # a page number alone on its line, set higher than the bottom band, is no text of the page either
        lines = [
            (base, row) for base, row in rows.items() if not page_number(text := "".join(c for c, _ in row)) and key(text) not in running
        ]
        cache[index] = min((base + 0.25 * max(size for _, size in row) for base, row in lines), default=height)
    return cache[index]


def _counting_foot(document, index: int, cache: dict[int, list[str]]) -> bool:
    """Whether a page's last line ends in a number that the last line of the page before or after ends in, one less or
    one more: a footer with the page number, whatever its words (the current section's title)."""

    def folio(page: int) -> int | None:
        lines = page_lines(document, page, cache) if 0 <= page < len(document) else []
        match = re.search(r"\D\s*(\d{1,4})$", lines[-1]) if lines else None
        return int(match.group(1)) if match else None

    own = folio(index)
    return own is not None and (folio(index - 1) == own - 1 or folio(index + 1) == own + 1)


def page_number(text: str) -> bool:
    """Whether a line's text is a page number alone: digits (old-style ones in the Private Use Area too, `\uf731\uf734`
    for 14) or a small roman numeral."""
    return bool(re.fullmatch(r"\d{1,4}|[ivxlc]{1,6}", text.translate(OLDSTYLE_DIGITS), re.I))


def _target_top(destination) -> float | None:
    """The height a bookmark's destination shows at the top of the window (XYZ or FitH), if it names one."""
    try:
        mode, view = destination.get_view()
    except Exception:  # a destination without a view: the page alone
        return None
    if mode == 1 and len(view) > 1 and view[1]:
        return float(view[1])
    return float(view[0]) if mode in (2, 3) and view and view[0] else None


def _heading_page(document, index: int, title: str, cache: dict[int, list[str]]) -> int:
    """The page a bookmark's heading is printed on: its target page, or, when that page prints the title only as its
    running header (a contents bookmark anchored on the list's last page), the page before it that prints the title
    under that same header, up to two pages back."""
    wanted = key(title)
    lines = page_lines(document, index, cache)
    running = _running_lines(document, index, cache)
    if not any(re.sub(r"\d+", "", key(lines[position])) == wanted for position in running):
        return index
    if any(_printed_title(line) == wanted for line in body_lines(document, index, cache)):
        return index
    for earlier in (index - 1, index - 2):
        if earlier >= 0 and any(_printed_title(line) == wanted for line in body_lines(document, earlier, cache)):
            return earlier
    return index


def _opens_next_page(document, index: int, title: str, cache: dict[int, list[str]]) -> bool:
    """Whether a bookmark's heading opens the page after its target page, which does not print the title at all, not
    even wrapped over lines (`List of Figures` and `List of Tables` both anchored at the top of the first list's page)."""
    if index + 1 >= len(document):
        return False
    numbered = _LEADING_NUMBER.match(title)  # `6.1 Font features`: the title after its number
    bare = key(numbered.group("title")) if numbered else key(title)
    following = body_lines(document, index + 1, cache)
    if not following or bare not in (_printed_title(following[0]), key(following[0])):
        return False
    return bare not in key(" ".join(page_lines(document, index, cache)))


def _past_contents(document, index: int, title: str, cache: dict[int, list[str]]) -> int:
    """The page a bookmark's heading is printed on when its target page lists the title only as an entry of the printed
    contents (`2.2 Author/article metadata 2`) and prints no line of its own for it: an outline whose destinations all
    point at the contents page. The heading is then on the first page after it that prints the title as a line of its
    own (up to 60 pages on); failing that, the target page stays. (`_prints` would take the contents entry itself
    for a heading: `printed_path` reads its number.)"""
    wanted = key(title)
    lines = body_lines(document, index, cache)
    entries = [re.sub(r"[\s.·…]*\d+\s*$", "", line) for line in lines if re.search(r"\D\s*\d+\s*$", line)]
    listed = any(key(entry) == wanted or _printed_title(entry) == wanted for entry in entries)
    if not listed or _alone(lines, wanted):
        return index
    for later in range(index + 1, min(len(document), index + 61)):
        if _alone(body_lines(document, later, cache), wanted):
            return later
    return index


def _alone(lines: list[str], wanted: str) -> bool:
    """Whether a page prints a title (its key) as a line of its own, led or not by its number."""
    return any(_printed_title(line) == wanted or key(line) == wanted for line in lines)


@dataclass
class Piece:
    """A piece of a printed line: PDFium's text runs on one baseline joined across word gaps, cut at wide gaps.

    `first` is the line's first run (a run-in title set in its own font: `Column` before `The column(x) …`)
    and `after` the text that follows it on the piece; `edge` marks a piece in the top or bottom 8 % of the page."""

    text: str
    first: str
    after: str
    edge: bool


def page_pieces(document, index: int, cache: dict[int, list[Piece]]) -> list[Piece]:
    """The pieces of the printed lines of one page, read character by character from PDFium (text, box, size, font):
    a line is cut where the gap between two characters is wider than 1.2 times the font size."""
    import ctypes

    import pypdfium2.raw as raw

    if index in cache:
        return cache[index]
    page = document[index]
    textpage = page.get_textpage()
    height = page.get_height()
    handle = textpage.raw
    left, right, bottom, top = ctypes.c_double(), ctypes.c_double(), ctypes.c_double(), ctypes.c_double()
    name = ctypes.create_string_buffer(128)
    flags = ctypes.c_int()
    pieces: list[Piece] = []
    current: list[tuple[str, float, float, float, float, float, bytes]] = []  # char, left, right, bottom, top, size, font

    def close() -> None:
        visible = [item for item in current if item[0] != " "]
        if visible:
            text = " ".join("".join(item[0] for item in current).split())
            font = visible[0][6]
            first_end = next((k for k, item in enumerate(current) if item[0] != " " and item[6] != font), len(current))
            first = " ".join("".join(item[0] for item in current[:first_end]).split())
            after = " ".join("".join(item[0] for item in current[first_end:]).split())
            high, low = max(item[4] for item in visible), min(item[3] for item in visible)
            pieces.append(Piece(text, first, after, high > 0.92 * height or low < 0.08 * height))
        current.clear()

    for k in range(raw.FPDFText_CountChars(handle)):
        code = raw.FPDFText_GetUnicode(handle, k)
        char = (chr(code) if code else " ").translate(OLDSTYLE_DIGITS)
        if char in "\r\n":
            close()
            continue
        if char in "\x02\ufffe":  # PDFium's mark for a hyphen at a line end
            continue
        if char.isspace():
            if current:
                current.append((" ", 0.0, 0.0, 0.0, 0.0, 0.0, b""))
            continue
        raw.FPDFText_GetCharBox(handle, k, left, right, bottom, top)
        size = raw.FPDFText_GetFontSize(handle, k)
        size = size if size >= 2.0 else max(top.value - bottom.value, 1.0)  # a 1 pt font scaled by the text matrix
        raw.FPDFText_GetFontInfo(handle, k, name, 128, flags)
        font = name.value + bytes([raw.FPDFText_GetFontWeight(handle, k) >= 540])
        previous = next((item for item in reversed(current) if item[0] != " "), None)
        if previous is not None and (left.value - previous[2] > 1.2 * max(size, previous[5]) or left.value < previous[1] - 1):
            close()
        current.append((char, left.value, right.value, bottom.value, top.value, size, font))
    close()
    textpage.close()
    page.close()
    if cyrillic_text(" ".join(piece.text for piece in pieces)) != " ".join(piece.text for piece in pieces):
        pieces = [Piece(cyrillic_text(p.text), cyrillic_text(p.first), cyrillic_text(p.after), p.edge) for p in pieces]
    cache[index] = pieces
    return pieces


_DESIGNATOR = re.compile(
    rf"^(?:{_DIVISION_WORDS}|chapter|chapitre|kapitel|appendix|annexe|anhang|annex)\s+(?:[IVXLC]+|[A-Z]|\d{{1,3}})\b\.?\s*(?P<title>.*)$",
    re.I,
)


def _rests(text: str) -> list[tuple[str, bool]]:
    """What a piece may hold as a title: its whole text, or what follows its clause number or designator
    (`2.1 Typesetting`, `Chapter 2 Title`, `Part I Title`, `24 1.2 Title`), each with whether a number led it."""
    rests = [(key(text), False)]
    for match in (_numbered(text), _DESIGNATOR.match(text), _SPLIT_NUMBER.match(text)):
        if match and match.group("title"):
            rests.append((key(match.group("title")), True))
    return rests


def shown_on_page(document, index: int, wanted: list[str], cache: dict[int, list[Piece]]) -> bool:
    """Whether a title is printed on its page as a heading is: a piece of a line reads as the title alone, led or not
    by its number or a designator (`2 Introduction`, `Part I`, a letter group `A` set apart from the entries beside
    it), or wrapped over the next two pieces; a numbered title running on into text (`1.1. Scope. This …`); or a
    line's first run, in a font of its own, followed by a sentence (`Column The column(x) function …`). A piece in
    the top or bottom band that the page before or after prints there too is a running header or a navigation bar,
    not a heading (slide titles repeated on every slide of a section); a table or figure caption is no heading."""
    wanted = [title for title in wanted if title]
    if not wanted:
        return False
    pieces = page_pieces(document, index, cache)
    repeated = {
        key(piece.text)
        for other in (index - 1, index + 1)
        if 0 <= other < len(document)
        for piece in page_pieces(document, other, cache)
        if piece.edge
    }
    for position, piece in enumerate(pieces):
        if (piece.edge and key(piece.text) in repeated) or any(caption.match(piece.text) for caption in _CAPTION.values()):
            continue  # a running header, a navigation bar; a caption (`Table 1. Font layout`) is no heading
        following = "".join(key(other.text) for other in pieces[position + 1 : position + 3])
        for rest, numbered in _rests(piece.text):
            for title in wanted:
                if alike(rest, title) or (numbered and len(title) >= 4 and rest.startswith(title)) or _residue(title, rest):
                    return True
                short = len(rest) >= 4 or len(piece.text.split()) == 1  # a designator alone above its title (`A` / `Packages`)
                if rest and short and title.startswith(rest) and (rest + following).startswith(title):
                    return True
        after = piece.after.lstrip(" .:–—")
        if piece.after and key(piece.first) in wanted and after[:1].isupper():
            return True
    return False


def _words(text: str) -> list[str]:
    return [word for word in (key(part) for part in text.split()) if word]


def _numbered(line: str) -> re.Match[str] | None:
    """A line led by a clause number; a line number printed in the margin before it (`24 1.2 Title`), or a version
    mark (`v1.2.0 6.5 bengali`), is passed over."""
    number = _LEADING_NUMBER.match(line)
    if number and re.fullmatch(r"\d{1,4}", line.split()[0]):
        inner = _LEADING_NUMBER.match(number.group("title"))
        if inner:
            return inner
    head, _, rest = line.partition(" ")
    if not number and len(head) <= 12 and re.fullmatch(r"[^\d\s]\S*\d\S*", head):
        return _LEADING_NUMBER.match(rest)  # a version mark in the margin before the number (`v1.2.0 6.5 bengali`)
    return number


def _printed_title(line: str) -> str:
    """The key of a printed line's title: without its number (`2.1`) or its word and number (`Chapter 2`)."""
    number = _numbered(line)
    word = _WORD_NUMBER.match(line)
    return key(number.group("title")) if number else (key(word.group("title")) if word and word.group("title") else key(line))


def _take_numbered_line(lines: list[str], path: str, title: str, taken: set[int]) -> None:
    """Mark the line that prints a numbered bookmark's number and title (`14 ACKNOWLEDGMENTS` for `14 Acknowledgments`)
    as taken: an unnumbered bookmark of the same title on the page (`Acknowledgments`, an ACM paper's closing section
    after its numbered one) is the other line, never that number again."""
    wanted = key(title)
    for position, line in enumerate(lines):
        numbered = _numbered(line)
        if position not in taken and numbered and numbered.group("path") == path and key(numbered.group("title")) == wanted:
            taken.add(position)
            return


def printed_path(
    lines: list[str], title: str, taken: set[int] | None = None, before: Sequence[Entry] = (), parent: str | None = None
) -> str | None:
    """The number printed with a title on its page: on the same line, or on the line(s) just above.

    A title may wrap over several lines (up to four): a line matches when the title starts with its text (a logo's
    letters given out of order count, `X TEEX`: see `alike`). A numbered
    line whose title holds the bookmark's words at its start or end (`1.1 About etoolbox` for `About`)
    counts when no line matches exactly. `before`: the reference entries before this one, whose titles a
    running header over the title repeats with its page (`Index 47` over the index's letter group `U`). `parent`:
    the path of the bookmark's parent, whose number a number set with a space after its stop continues (`2. 1`)."""
    wanted = key(title)
    if not wanted:
        return None
    taken = set() if taken is None else taken  # lines an earlier bookmark of the page took (two `Options` on one page)

    # a line that prints the whole title first (`2.1 The LHC` before `2 The LHCb experiment`, which starts with it),
    # and of those one that prints it word for word (`C.1.7. Affidavit` before a listing's `5 % A f f i d a v i t`),
    # then one whose number goes on from its parent's (`1.2.1 Introduction` under `1.2`, before the running header
    # `1.1 Introduction`; `1.1 cover` under `1`, before a list's term `cover`)
    within = re.escape(parent) + r"\." if parent and re.fullmatch(r"\d+(?:\.\d+)*", parent) else None

    def rank(position: int) -> tuple[bool, bool, bool]:
        line = lines[position]
        number = _numbered(line) if within else None
        return (
            _printed_title(line) != wanted,
            _printed_words(line) != _plain_words(title),
            within is not None and not (number and re.match(within, number.group("path"))),
        )

    for position in sorted(range(len(lines)), key=rank):
        if position in taken or _BULLET.match(lines[position]):
            continue  # a list item (`• Sorting.`) is no heading, even when it reads as the title
        line = lines[position]
        letter = _LETTERED.match(line)
        if letter and key(letter.group("title")) == wanted and letter.group("letter") not in "IVX":
            taken.add(position)
            return letter.group("letter")  # `A. Packages`: the appendix A, its path the letter as printed (SPEC §1)
        number = _numbered(line)
        if number and re.match(r"\\[A-Za-z]+\{", number.group("title")):
            continue  # a listing's numbered line, a command and its argument (`2 \textcolor{red}{…}`): no heading
        word = _WORD_NUMBER.match(line)
        rest = _printed_title(line)
        following = key(" ".join(lines[position + 1 : position + 5]))
        wrapped = len(rest) >= 6 and wanted.startswith(rest) and (rest + following).startswith(wanted)
        if not rest or not (alike(rest, wanted) or (len(wanted) >= 6 and rest.startswith(wanted)) or wrapped or _residue(wanted, rest)):
            continue
        chapter = _WORD_NUMBER.match(lines[position - 1]) if position else None
        if number and chapter and not chapter.group("title") and number.group("path").isdecimal():
            # `Chapter 2` over `15 chapter`: the 15 is a line number in the margin (line-numbered editions), not the chapter's
            taken.add(position)
            return _word_path(chapter)
        if number:
            taken.add(position)
            return number.group("path")
        if word and word.group("title"):
            taken.add(position)
            return _word_path(word)
        above = lines[max(0, position - 2) : position]
        if above:
            match = _WORD_NUMBER.match(above[-1])
            if match and not match.group("title"):
                taken.add(position)
                return _word_path(match)
            other = _OTHER_WORD_NUMBER.match(above[-1])
            # in capitals throughout it is a running header and its page (`INHALTSVERZEICHNIS 2`)
            word = other.group("word") if other else ""
            # and it opens the page, as a chapter does (mid-page, `Index 64` is a contents entry over the next title),
            # and names no section: `Index 47` over the title `Index` or its letter group `U` is the running header
            if (
                other
                and position - 1 <= 2
                and word[0].isupper()
                and not word.isupper()
                and not re.fullmatch(_NOT_CHAPTER_WORDS, word, re.I)
                and key(word) != wanted
                and all(entry.title != key(word) for entry in before)  # last: the one check that walks the outline
            ):
                taken.add(position)  # `Глава 2`, `Apêndice A` alone over the title: a chapter, an appendix in another language
                value = other.group("value")
                return str(int(value)) if value.isdecimal() else f"{other.group('word')} {value}"
            if len(above) == 2 and re.fullmatch(r"(?i)chapter|appendix", above[0]):
                value = spelled(above[1]) if not above[1].isdecimal() else int(above[1])
                if value is not None:
                    taken.add(position)
                    return str(value)
        if rest == wanted and not number and not word and not _sentence_tail(line):
            return None  # the title printed alone, unnumbered (`Format`): a later `7 format from …` is a list item
    for position, line in enumerate(lines):
        split = _SPLIT_NUMBER.match(line)
        if position not in taken and parent and split and split.group("head") == parent and key(split.group("title")) == wanted:
            taken.add(position)  # `2. 1 Création d'une grille` under the bookmark of `2`: the section 2.1
            return f"{parent}.{split.group('tail')}"
        glued = _GLUED_NUMBER.match(line)
        if position not in taken and glued and key(line[glued.end() :]) == wanted:
            taken.add(position)  # `3TEXtopo user commands`: the text layer lost the space the page leaves after the number
            return glued.group("path")
    loose = loosely_printed(lines, title)
    if loose:
        return loose[0]
    for position, line in enumerate(lines):
        number = _numbered(line)
        if position in taken or not number or len(wanted) < 12:
            continue
        rest = key(number.group("title"))
        following = key(lines[position + 1]) if position + 1 < len(lines) else ""
        # a short title of a longer one printed (`Fontes no XeLaTeX/LuaLaTeX` for `18.2 Mais sobre básicos das fontes no
        # XeLaTeX/LuaLaTeX`), its end perhaps wrapped to the next line
        if rest.endswith(wanted) or any(rest.endswith(wanted[:k]) and following == wanted[k:] for k in range(4, len(wanted))):
            taken.add(position)
            return number.group("path")
    # a short title, the last words of one numbered line of the page alone (`pict2e` for `7.3.1 Open access symbols with
    # pict2e`, a heading's short form for the contents): that line's number
    title_words = _words(title)
    count = len(title_words)
    ending = [
        (position, number)
        for position, line in enumerate(lines)
        if position not in taken
        and (number := _numbered(line))
        and len(words := _words(number.group("title"))) > count
        and words[-count:] == title_words
    ]
    if count and len(ending) == 1:
        taken.add(ending[0][0])
        return ending[0][1].group("path")
    return None


_BULLET = re.compile(r"^[•◦▪▸‣∙·*–—-]\s")  # a list item's bullet and its space (an em dash too: `— bounds section;`)


def _once(bookmarks: list) -> list:
    """The bookmarks less those that repeat an earlier one, the same title to the same place: one heading listed twice
    (the whole outline written a second time after its end, a label's bookmark beside its section's) is one entry. A
    repeat right under the bookmark it repeats, one level down, is a section opening its chapter under its title."""
    seen: set[tuple[str, int | None, float | None]] = set()
    kept = []
    previous: tuple | None = None
    for bookmark in bookmarks:
        listed = (" ".join((bookmark.get_title() or "").split()), *_place(bookmark))
        under_itself = previous == (*listed, bookmark.level - 1)
        previous = (*listed, bookmark.level)
        if listed not in seen or under_itself:
            seen.add(listed)
            kept.append(bookmark)
    return kept


def _place(bookmark) -> tuple[int | None, float | None]:
    """Where a bookmark points: its page's index and the height its destination shows at the top."""
    destination = bookmark.get_dest()
    if destination is None:
        return None, None
    return destination.get_index(), _target_top(destination)


def _same_place(bookmarks: list, places: list[tuple[int | None, float | None]], order: int) -> list[str]:
    """The titles of the bookmark `order` and of those right after it that point where it points."""
    titles = []
    for bookmark, place in zip(bookmarks[order:], places[order:], strict=True):
        if place != places[order]:
            break
        titles.append(" ".join((bookmark.get_title() or "").split()))
    return titles


def _opens(lines: list[str], title: str) -> bool:
    """Whether a page prints a title (see `_prints`), or one of its first three lines holds it, its number aside, as
    half its letters or more (`Listing 6. Mittelwertsatz [2, p. 17]` for `6. Mittelwertsatz`)."""
    numbered = _LEADING_NUMBER.match(title)
    wanted = key(numbered.group("title")) if numbered else key(title)
    return _prints(lines, title) or (
        len(wanted) >= 4 and any(wanted in key(line) and 2 * len(wanted) >= len(key(line)) for line in lines[:3])
    )


def _prints(lines: list[str], title: str) -> bool:
    """Whether a page prints a title as a line of its own, led or not by its number, or as a heading read by
    `printed_path`."""
    wanted = key(title)
    return any(_printed_title(line) == wanted or key(line) == wanted for line in lines) or printed_path(lines, title) is not None


def _residue(bookmark: str, printed: str) -> bool:
    """A bookmark's title key that is the printed one with a short run of code left inside it, digits among them (a
    command escaped for the outline: `No me funciona "026E30F subsubsubsection.` for `No me funciona \\subsubsubsection.`),
    the printed title at least twelve letters long."""
    extra = len(bookmark) - len(printed)
    if not 0 < extra <= 8 or len(printed) < 12:
        return False
    same = next((k for k, (a, b) in enumerate(zip(bookmark, printed, strict=False)) if a != b), len(printed))
    return any(
        bookmark[start + extra :] == printed[start:] and any(c.isdigit() for c in bookmark[start : start + extra])
        for start in range(4, same + 1)  # the run may begin with the letter that follows it (`s026e30fsub`)
    )


def _plain_words(text: str) -> str:
    """A text as its words in lower case, punctuation dropped: how a title reads word for word."""
    return " ".join(re.sub(r"[^\w]+", " ", text).split()).lower()


def _printed_words(line: str) -> str:
    """A printed line's title without its number, as words (see `_printed_title`)."""
    number = _numbered(line)
    word = _WORD_NUMBER.match(line)
    return _plain_words(number.group("title") if number else (word.group("title") if word and word.group("title") else line))


def _sentence_tail(line: str) -> bool:
    """A line that ends a sentence begun above it (`experimental.` before the heading `4.6.4.3 Experimental`): in
    lower case, ending in a stop; no heading."""
    return line[:1].islower() and line.rstrip().endswith((".", ",", ";"))


def loosely_printed(lines: list[str], title: str) -> tuple[str, str] | None:
    """A numbered line whose title holds the bookmark's words at its start or end, two words longer at most
    (`1.1 About etoolbox` for `About`), else anywhere in it (`3 Die jurabook Klasse` for `jurabook`): its number and
    its printed title."""
    title_words = _words(title)
    count = len(title_words)
    numbered = [(number, _words(number.group("title"))) for line in lines if (number := _numbered(line)) and title_words]
    numbered = [(number, words) for number, words in numbered if len(words) - count <= 2]  # never a longer title alike
    for number, words in numbered:
        if words[:count] == title_words or words[-count:] == title_words:
            return number.group("path"), number.group("title")
    for number, words in numbered:
        if any(words[k : k + count] == title_words for k in range(1, len(words) - count)):
            return number.group("path"), number.group("title")
    return None


def printed_division(lines: list[str], title: str) -> tuple[str, str] | None:
    """A bookmark `I Getting started` or `A External Code Interface` whose page prints the designator after a
    word (`Part I`, `File I`, `Appendix A`) with the title: that division's path and the title without it. A letter
    printed alone over the title (`A` / `Packages and macros`) is an appendix whose path is the letter."""
    match = re.match(r"^(?P<value>[IVXLC]+|[A-Z])\.?\s+(?P<title>\S.*)$", title)
    if not match:
        return None
    value, rest = match.group("value"), match.group("title")
    for position, line in enumerate(lines):
        same = re.match(rf"^(?P<word>[A-Z][a-z]+|{_CAPITAL_WORD})\s+{value}\b\.?\s*(?P<title>.*)$", line)
        printed = key(same.group("title")) if same else ""
        following = key(" ".join(lines[position + 1 : position + 5]))  # a title may wrap over up to four lines
        wanted = key(rest)
        if printed and (alike(printed, wanted) or (wanted.startswith(printed) and (printed + following).startswith(wanted))):
            return _division_path(same.group("word"), value), rest
        if same and not same.group("title") and alike(following[: len(wanted)], wanted):
            return _division_path(same.group("word"), value), rest
        if len(value) == 1 and line == value and key(" ".join(lines[position + 1 : position + 3])).startswith(key(rest)):
            return value, rest  # an appendix printed as its letter alone over its title: its path is the letter (SPEC §1)
    return None


def division_over_title(lines: list[str], title: str) -> tuple[str, str] | None:
    """A division printed alone over the title of a bookmark that names none (`Part I` over `MonTeX: System Overview`,
    the title on one line or wrapped over two): that division's path and the title."""
    wanted = key(title)
    for position in range(1, len(lines)):
        above = re.fullmatch(rf"(?P<word>{_DIVISION_WORDS})\s+(?P<value>[IVXLC]+|\d{{1,3}})\.?", lines[position - 1].strip(), re.I)
        if above and wanted and (key(lines[position]) == wanted or key(" ".join(lines[position : position + 2])) == wanted):
            return _division_path(above.group("word"), above.group("value")), title
    return None


def printed_letter(lines: list[str], title: str) -> str | None:
    """The capital letter a line prints before the whole title of a bookmark that lacks it (`A Layout of diagrams` for
    `Layout of diagrams`): the appendix's letter, its path (SPEC §1). None when a line prints the title with a number
    (`7.8.3 Magnetostatic 3D …` over the sentence `A magnetostatic 3D …` that opens its text)."""
    wanted = key(title)
    if any((number := _numbered(line)) and key(number.group("title")) == wanted for line in lines):
        return None
    for line in lines:
        match = re.match(r"^(?P<letter>[A-Z])\.?\s+(?P<title>\S.*)$", line.strip())
        if match and wanted and key(match.group("title")) == wanted:
            return match.group("letter")
    return None


def printed_numbered_division(lines: list[str], value: str, title: str) -> tuple[str, str] | None:
    """A bookmark `1 lwarp.sty` whose page prints `File 1 lwarp.sty` (or `Part 2` above the title): that division."""
    for position, line in enumerate(lines):
        match = re.match(rf"^(?P<word>{_DIVISION_WORDS})\s+{value}\b\.?\s*(?P<title>.*)$", line, re.I)
        if match and (
            alike(key(match.group("title")), key(title))
            or (not match.group("title") and key(" ".join(lines[position + 1 : position + 3])).startswith(key(title)))
        ):
            return f"{match.group('word').capitalize()} {value}", title
    return None


def _division_path(word: str, value: str) -> str:
    return f"{word.capitalize()} {value}"


def _word_path(match: re.Match[str]) -> str:
    word = match.group("word").lower()
    value = match.group("value")
    if word in ("chapter", "chapitre", "kapitel", "capitolo", "capitulo", "capítulo"):
        return str(int(value)) if value.isdecimal() else value
    return f"{match.group('word').capitalize()} {value}"


# PDFDocEncoding's own characters for the bytes 0x80-0x9E (PDF 1.7, annex D), which a misread UTF-8 sequence may hold
_PDFDOC = dict(zip("•†‡…—–ƒ⁄‹›−‰„“”‘’‚™ﬁﬂŁŒŠŸŽıłœšž", range(0x80, 0x9F), strict=True))
_LATIN_PAIR = re.compile("[\u00c2\u00c3][\u0080-\u00bf" + "".join(_PDFDOC) + "]")


def utf8_text(title: str) -> str:
    """A bookmark title as printed where its UTF-8 bytes were stored one per character (`Â« trees Â»`, `RÃ©sumÃ©`,
    `Ã›lÃ©ments` through PDFDocEncoding's `›` for 0x89): the bench reads back each two-byte sequence of a Latin-1
    letter or sign, also in a title that holds characters typed as such beside them (`calculÃ©e avec «\u00a0…`); a
    whole title of misread Cyrillic (`Ð£Ð²Ð¾Ð´`, `Увод`) through PDFDocEncoding's own characters and the byte 0x9F
    it leaves undefined, read as a space (`Ð Ð¾Ð´Ñ•Ð¶Ð°Ð½Ð¸`, `Подржани`); a three-byte sign through PDFDocEncoding's
    characters (`â•ﬁ`, the bytes E2 80 93: `–`)."""
    if not re.search("[\u00c2-\u00f4][\u0080-\u00bf" + "".join(_PDFDOC) + "]", title):  # a two-, three- or four-byte lead
        return title
    if all(ord(char) <= 0xFF or char in _PDFDOC for char in title):
        raw = bytes(_PDFDOC.get(char, ord(char)) for char in title)  # `ž` is PDFDocEncoding's 0x9E (`Ð¾`: `о`)
        # and 0x9F, which it leaves undefined, comes out as a space: after a lead byte, where the rest decodes, the space is
        # that byte (`Ð ` for `П`, `Ã ` for `ß`)
        for candidate in (raw, re.sub(rb"([\xc2-\xdf]) ", b"\\1\x9f", raw)):
            try:
                return candidate.decode("utf-8")
            except UnicodeDecodeError:
                continue

    def letter(match: re.Match[str]) -> str:
        pair = bytes(_PDFDOC.get(char, ord(char)) for char in match.group(0))
        try:
            text = pair.decode("utf-8")
        except UnicodeDecodeError:
            return match.group(0)
        return text if text.isprintable() else match.group(0)

    return _LATIN_PAIR.sub(letter, title)


def outline_reference(pdf: Path) -> list[Entry]:
    """The PDF's outline as reference entries (read here with pypdfium2, not through the importer).

    Paths follow the bundle's rules for uniqueness: when clause numbers restart in a division
    (`Part I` … `1 Introduction`, `Part II` … `1 Main commands`), every numbered clause inside a division
    is qualified by its designator (`I.1`, `II.1`); a path that still repeats (a numbered change log
    under a chapter, a second `Examples`) is written `path (2)`, `path (3)` in reading order."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    cache: dict[int, list[str]] = {}
    taken: dict[int, set[int]] = {}
    entries: list[Entry] = []
    divisions: list[str | None] = []  # the division designator each entry lies in (None: outside any)
    numbered: list[bool] = []
    open_division: tuple[int, str] | None = None  # (level, designator)
    parents: list[tuple[int, str]] = []  # the open bookmarks above this one: (level, path)
    lowest: dict[int, float] = {}  # per page, the height of its lowest text
    try:
        bookmarks = _once(list(document.get_toc(max_depth=OUTLINE_LEVELS)))
        places = [_place(bookmark) for bookmark in bookmarks]
        for order, bookmark in enumerate(bookmarks):
            title = roff_text(utf8_text(" ".join((bookmark.get_title() or "").split())))
            destination = bookmark.get_dest()
            index = destination.get_index() if destination is not None else None
            if not title or index is None or not 0 <= index < len(document):
                continue
            while parents and parents[-1][0] >= bookmark.level:
                parents.pop()
            top = _target_top(destination)
            moved = _past_contents(document, index, title, cache)
            if moved != index:
                index, top = moved, None  # the destination's height belongs to the contents page
            # a bookmark whose page prints its title only as the running header (a contents bookmark anchored under the
            # list's last entry) is the heading of an earlier page (`_heading_page`), not one at the foot of its own
            walks_back = _heading_page(document, index, title, cache) != index
            if not walks_back and _opens_next_page(document, index, title, cache):
                index, top = index + 1, None
            if top is not None and index + 1 < len(document) and not walks_back and _lowest_text(document, index, lowest, cache) > top:
                # anchored at the foot of its page, under its last line: unless the page prints the title (as its last
                # line: Texinfo sets the anchor under the heading), the heading opens the next page, when that page prints
                # it (or a bookmark set at the same place after it: `<` and `6. Mittelwertsatz`). A page whose text layer
                # lacks the body (its heading drawn, not written) is under no last line, and a next page that does not
                # print the title confirms no move: the target page is the truth
                here, overleaf = body_lines(document, index, cache), body_lines(document, index + 1, cache)
                same_place = _same_place(bookmarks, places, order)
                index += 1 if not _prints(here, title) and any(_opens(overleaf, later) for later in same_place) else 0
            parent = parents[-1][1] if parents else None
            if open_division is not None and bookmark.level <= open_division[0]:
                open_division = None
            match = _LEADING_NUMBER.match(title) or _WORD_NUMBER.match(title)
            division = None
            printed = ""
            if match and match.re is _LEADING_NUMBER:
                path, title = match.group("path"), match.group("title")
                _take_numbered_line(body_lines(document, index, cache), path, title, taken.setdefault(index, set()))
                if path.isdecimal():
                    division = printed_numbered_division(page_lines(document, index, cache), path, title)
                    path = division[0] if division else path
            elif match and match.group("title"):
                path, title = _word_path(match), match.group("title")
            else:
                lines = page_lines(document, index, cache)
                division = printed_division(lines, title) or division_over_title(lines, title)
                lettered = printed_letter(lines, title) if not division else None
                if division:
                    path, title = division
                elif lettered:
                    path = lettered
                else:
                    index = _heading_page(document, index, title, cache)
                    lines = body_lines(document, index, cache)
                    path = printed_path(lines, title, taken.setdefault(index, set()), entries, parent) or title
                    if path == title and _opens_page(document, index, title, cache):
                        path = printed_path(page_lines(document, index, cache), title, taken[index], entries, parent) or title
                    if parent is not None and path_fold(path) == path_fold(parent):
                        path = title  # its parent's number, printed over it (`5.4 Commands \begtt` for `\begtt`): none of its own
                    loose = loosely_printed(lines, title) if path != title else None
                    printed = key(loose[1]) if loose and loose[0] == path else ""
            divisions.append(open_division[1] if open_division else None)
            numbered.append(bool(re.fullmatch(r"\d+(?:\.\d+)*|[A-Z](?:\.\d+)+", path)))
            if division and not re.match(r"(?i)(?:appendix|appendice|annexe?|anhang|allegato)\b", path) and len(path) > 1:
                open_division = (bookmark.level, path.split()[-1])
            entries.append(Entry(path, key(title), index + 1, printed, level=bookmark.level))
            parents.append((bookmark.level, path))
        pieces: dict[int, list[Piece]] = {}
        for entry in entries:
            entry.shown = shown_on_page(document, entry.page - 1, [entry.title, entry.printed], pieces)
    finally:
        document.close()
    seen: dict[str, set[str | None]] = {}
    for entry, division, is_numbered in zip(entries, divisions, numbered, strict=True):
        if is_numbered:
            seen.setdefault(entry.path, set()).add(division)
    restart = any(len(owners) > 1 and owners != {None} for owners in seen.values())
    counts: dict[str, int] = {}
    for entry, division, is_numbered in zip(entries, divisions, numbered, strict=True):
        if restart and is_numbered and division is not None:
            entry.path = f"{division}.{entry.path}"
        folded = path_fold(entry.path)
        counts[folded] = counts.get(folded, 0) + 1
        if counts[folded] > 1:
            entry.path = f"{entry.path} ({counts[folded]})"
    mark_leaves(entries)
    return entries


def text_reference(text_file: Path) -> list[Entry]:
    """The numbered headings of a text edition (flush left, `3.4.1. Title` or `Chapter 3. Title`): paths and titles."""
    entries = []
    for line in text_file.read_text(encoding="utf-8", errors="replace").splitlines():
        match = re.match(r"^Chapter (\d+)\. (\S.*)$", line) or re.match(r"^(\d+(?:\.\d+)+)\. (\S.*)$", line)
        if match:
            entries.append(Entry(match.group(1), key(match.group(2)), None, level=match.group(1).count(".")))
    mark_leaves(entries)
    return entries


def mark_leaves(entries: list[Entry]) -> None:
    """Mark each entry that has no entry under it (the next one is not deeper) as a leaf of the reference."""
    for position, entry in enumerate(entries):
        following = entries[position + 1] if position + 1 < len(entries) else None
        entry.leaf = following is None or following.level <= entry.level


def captions(pdf: Path) -> dict[str, set[str]]:
    """The table and figure numbers printed as captions at the start of a line of the page text."""
    import pypdfium2 as pdfium

    found: dict[str, set[str]] = {"table": set(), "figure": set()}
    document = pdfium.PdfDocument(str(pdf))
    cache: dict[int, list[str]] = {}
    try:
        for index in range(len(document)):
            for line in page_lines(document, index, cache):
                for kind, pattern in _CAPTION.items():
                    match = pattern.match(line)
                    if match and not re.search(r"(?:\.\s?){4,}\s*\d+$", line):  # not a list-of-tables entry
                        found[kind].add(match.group("num"))
    finally:
        document.close()
    return found


def superscript_samples(pdf: Path, limit: int = 60) -> list[tuple[str, str]]:
    """(base, raised) pairs: a run of smaller characters whose baseline sits clearly above the base character's."""
    import ctypes

    import pypdfium2 as pdfium
    import pypdfium2.raw as raw

    document = pdfium.PdfDocument(str(pdf))
    samples: list[tuple[str, str]] = []
    x, y = ctypes.c_double(), ctypes.c_double()
    try:
        for index in range(len(document)):
            page = document[index]
            textpage = page.get_textpage()
            count = textpage.count_chars()
            text = textpage.get_text_range(0, count) if count > 0 else ""
            glyphs: list[tuple[float, float, float] | None] = []  # baseline x, y and font size
            for k in range(len(text)):
                if text[k].isspace() or not text[k].isprintable():
                    glyphs.append(None)
                    continue
                raw.FPDFText_GetCharOrigin(textpage, k, x, y)
                glyphs.append((x.value, y.value, raw.FPDFText_GetFontSize(textpage, k)))
            k = 1
            while k < len(text):
                base, glyph = glyphs[k - 1], glyphs[k]
                if base is None or glyph is None or not text[k - 1].isalnum() or not text[k].isalnum():
                    k += 1
                    continue
                raised = 0.2 * base[2] < glyph[1] - base[1] < base[2] and glyph[2] < 0.85 * base[2]
                if not raised:
                    k += 1
                    continue
                end = k
                while (
                    end + 1 < len(text)
                    and glyphs[end + 1] is not None
                    and abs(glyphs[end + 1][1] - glyph[1]) < 0.5
                    and text[end + 1].isalnum()
                ):
                    end += 1
                start = k - 1
                while (
                    start > 0 and glyphs[start - 1] is not None and text[start - 1].isalnum() and abs(glyphs[start - 1][1] - base[1]) < 0.5
                ):
                    start -= 1
                samples.append((text[start:k], text[k : end + 1]))
                k = end + 1
            textpage.close()
            page.close()
    finally:
        document.close()
    step = max(1, len(samples) / limit)
    return [samples[int(k * step)] for k in range(min(limit, len(samples)))]  # spread over the document


def superscripts_kept(samples: list[tuple[str, str]], text: str) -> int:
    """How many samples the bundle writes raised (`10⁹`, `10^{9}`, `word[^9]`) rather than flattened."""
    flat = text.replace("\n", " ")
    kept = 0
    for base, raised in samples:
        forms = [base + raised.translate(_SUPERSCRIPTS), f"{base}^{{{raised}}}", f"{base}^{raised}", f"{base}[^{raised}]"]
        if any(form in flat for form in forms):
            kept += 1
    return kept


# -- imports --------------------------------------------------------------------------------------


@dataclass
class Run:
    """One import of one PDF: its clauses (path, title key, PDF page), tables, figures, text and time."""

    nodes: list[tuple[str, str, int]]
    table_numbers: list[str]
    uncaptioned_tables: int
    figure_numbers: list[str]
    text: str
    seconds: float
    pages: int
    parents: dict[str, str | None] = field(default_factory=dict)  # each clause's parent clause (None: at the top)


def stripped_copy(pdf: Path, folder: Path) -> Path:
    """A real copy of the PDF without its outline (pages copied into a new document)."""
    import pypdfium2 as pdfium

    source = pdfium.PdfDocument(str(pdf))
    copy = pdfium.PdfDocument.new()
    try:
        copy.import_pages(source)
        target = folder / f"{pdf.stem}-stripped.pdf"
        copy.save(str(target))
    finally:
        copy.close()
        source.close()
    return target


def _unrepeated(path: str, title: str, paths: set[str]) -> str:
    """A title without the `(2)` its path carries where the title repeated (`Introduction (2)` after `Introduction`, or
    after `\\Asbuk`: the bundle compares paths without case, `paths` holds them folded by `path_fold`); a title that ends
    in a number of its own (`Gegenwart (2022)`) keeps it."""
    repeat = re.search(r"\s\(\d+\)$", path)
    if repeat and title.endswith(repeat.group(0)) and path_fold(path[: repeat.start()]) in paths:
        return title[: -len(repeat.group(0))]
    return title


def import_once(pdf: Path, workspace: Path, name: str, use_outline: bool = True) -> Run:
    """Import `pdf` into `workspace` and read back every clause with the PDF page it starts on."""
    started = time.perf_counter()
    draft = build_draft(pdf, "pdf", use_outline=use_outline)
    seconds = time.perf_counter() - started
    code = f"BENCH {name}"
    written = write_bundle(workspace, draft, code, "1", "en", code, force=True)
    bundle = parse_bundle(written)
    text = written.read_text(encoding="utf-8")
    pdf_page_of_line: dict[int, int] = {}
    page = 1
    for number, line in enumerate(text.split("\n"), start=1):
        match = _MARKER.match(line)
        if match:
            page = int(match.group(1))
        pdf_page_of_line[number] = page
    paths = {path_fold(node.path) for node in bundle.nodes}
    nodes = [(node.path, key(_unrepeated(node.path, node.title, paths)), pdf_page_of_line.get(node.line, 1)) for node in bundle.nodes]
    table_numbers = [str(table.number) for table in bundle.tables if getattr(table, "number", None)]
    uncaptioned = sum(1 for table in bundle.tables if not getattr(table, "number", None))
    figure_numbers = [str(figure.number) for figure in bundle.figures if getattr(figure, "number", None)]
    parents = {node.path: node.parent_path for node in bundle.nodes}
    return Run(nodes, table_numbers, uncaptioned, figure_numbers, text, seconds, draft.pages, parents)


def tables_per_page(text: str) -> dict[int, int]:
    """How many pipe tables the bundle writes on each PDF page (a table belongs to the page it starts on)."""
    counts: dict[int, int] = {}
    page = 1
    for line in text.split("\n"):
        match = _MARKER.match(line)
        if match:
            page = int(match.group(1))
        elif _TABLE_RULE.match(line):
            counts[page] = counts.get(page, 0) + 1
    return counts


def table_truth(pdf: Path, sample: str = "documents") -> dict[int, int] | None:
    """The hand-labelled number of real tables on the sampled pages of a PDF (None: not labelled); `sample`
    is the first sample (`documents`), the held-out one (`heldOut`), or the third to eleventh (`third`,
    `fourth`, `fifth`, `sixth`, `seventh`, `eighth`, `ninth`, `tenth`, `eleventh`) or `realworld`: unseen PDFs only. A corpus PDF is found by its name in `table_truth.json`; a PDF from
    elsewhere by its SHA-256 in `table_truth_unseen.json` (the PDFs are not in the repository, and a hash cannot
    match another file of the same name)."""
    pages = None
    if TRUTH.exists():
        truth = json.loads(TRUTH.read_text(encoding="utf-8"))
        documents = truth["documents"] if sample == "documents" else truth.get(sample, {}).get("documents", {})
        pages = documents.get(pdf.name) if pdf.resolve().parent.parent == CORPUS.resolve() else None
    if pages is None and TRUTH_UNSEEN.exists():
        entry = json.loads(TRUTH_UNSEEN.read_text(encoding="utf-8"))["documents"].get(_sha256(pdf))
        pages = entry.get(sample) if entry else None
    return {int(page): value["tables"] for page, value in pages.items()} if pages else None


def captions_without_table(pdf: Path) -> set[str]:
    """The table numbers a PDF prints as captions over no table (a manual showing what its caption command
    prints), from the hand-labelled truth: they are not captioned tables to find."""
    if not TRUTH_UNSEEN.exists():
        return set()
    entry = json.loads(TRUTH_UNSEEN.read_text(encoding="utf-8"))["documents"].get(_sha256(pdf))
    return set(entry.get("captionsWithoutTable", {})) if entry else set()


def _sha256(pdf: Path) -> str:
    import hashlib

    return hashlib.sha256(pdf.read_bytes()).hexdigest()


def precision(truth: dict[int, int], text: str) -> dict:
    """Found tables on the labelled pages against the real ones: how many are not real, how many are missed."""
    found = tables_per_page(text)
    on_pages = sum(found.get(page, 0) for page in truth)
    false = sum(max(0, found.get(page, 0) - real) for page, real in truth.items())
    missed = sum(max(0, real - found.get(page, 0)) for page, real in truth.items())
    return {
        "truthPages": len(truth),
        "realTables": sum(truth.values()),
        "tablesFoundOnTruthPages": on_pages,
        "falseTables": false,
        "missedTables": missed,
        "falseShare": round(100 * false / on_pages, 1) if on_pages else 0.0,
    }


# a path that is a title: it starts with a word, not a number, perhaps after punctuation (`...DocBy.TeX...`, `\\begtt`); an
# elided article (`L'option`, `D’après`) is a word's start; a word of two letters before another word is one too (`La
# instrucción \override`, `El prefijo`; a roman numeral, `IV Usage`, is not)
# an appendix's bookmark, its letter before the title (`A Implementation`)
_LETTER_LED = re.compile(r"^(?P<letter>[A-Z]) (?P<title>[^\W\d_].*)$")
_UNNUMBERED_PATH = re.compile(
    r"^[^\w\s]*(?:[^\W\d_]['’][^\W\d_]{2,}|(?![IVXLC\d]+\b|[A-Z]\b)[^\W\d_]{3,}|(?![IVXLC]+\b)[^\W\d_]{2}\s+[^\W\d_]{2,})"
)
# or a path that starts with a version and goes on (`1.11a (28-01-2017)`, `v2.0 beta`): a change log's entry, no clause
# number; `2.5 (2)`, a repeated number, stays a path
_VERSION_PATH = re.compile(r"^v?\d+(?:\.\d+)*(?:[a-z]\b|\s+(?!\(\d+\)$)\S)")


def _title_path(path: str) -> bool:
    """Whether a reference path is a title, compared as titles are (case, punctuation and spacing ignored)."""
    return bool(_UNNUMBERED_PATH.match(path) or _VERSION_PATH.match(path))


def _same_title(expected: str, found: str) -> bool:
    if alike(expected, found) or (min(len(expected), len(found)) >= 12 and (expected.startswith(found) or found.startswith(expected))):
        return True
    if _residue(expected, found):
        return True  # the title as printed, for a bookmark holding a command written as code (`"026E30F`)
    # a bookmark whose tail is mojibake in another script (`(using 硤攀昀` for `(using \xdef)`, its bytes misread): the
    # title the page prints, in the scripts it uses, starts the same way
    # (or a letter of another script standing in for one the bookmark could not encode: `ß` for the `β` printed)
    in_found = {_script(char) for char in found if not char.isascii()}
    in_expected = {_script(char) for char in expected if not char.isascii()}
    kept = "".join(char for char in expected if char.isascii() or _script(char) in in_found)
    kept_found = "".join(char for char in found if char.isascii() or _script(char) in in_expected)
    changed = kept != expected or kept_found != found
    return changed and len(kept) >= 12 and kept_found.startswith(kept)


def _script(char: str) -> str:
    """The script a character belongs to, as the first word of its Unicode name (`LATIN`, `GREEK`, `CJK`)."""
    return unicodedata.name(char, "?").split()[0]


def recall(reference: list[Entry], run: Run) -> tuple[float, list[Entry]]:
    """Share of reference entries found with the same path, title and (when known) PDF page; and the misses."""
    by_path: dict[str, list[tuple[str, int]]] = {}
    by_title_path: dict[str, list[tuple[str, int]]] = {}
    for path, title, page in run.nodes:
        by_path.setdefault(" ".join(path.split()).lower(), []).append((title, page))  # a no-break space (`«\u00a0mot`) is a space
        by_title_path.setdefault(key(path), []).append((title, page))
    missed = []
    for entry in reference:
        candidates = by_path.get(" ".join(entry.path.split()).lower(), [])
        if not candidates and _is_title_path(entry):
            # an unnumbered clause's path is its title, compared as titles are (`Cage - Chance` is `Cage — Chance`)
            candidates = by_title_path.get(key(entry.path), [])
            if not candidates:  # a bookmark holding code (`I set =2``` digits.sec=3`): the path is the title printed
                candidates = [pair for path, pairs in by_title_path.items() if _residue(key(entry.path), path) for pair in pairs]
        titles = [entry.title, entry.printed] if entry.printed else [entry.title]
        lettered = _LETTER_LED.match(entry.path)
        if not candidates and re.fullmatch(r"[A-Z]|[IVXLC]{1,7}", entry.path):
            # a heading designated by a letter or a roman numeral the page prints (`B. Force and Torque`, `IV. Results`)
            # in a document without clause numbers: the bundle names it by its title, as the outline does
            candidates = by_title_path.get(entry.title, [])
        if not candidates and lettered:  # an appendix printed `A Implementation`: the bundle reads its path `A` (SPEC §1)
            candidates = by_path.get(lettered.group("letter").lower(), [])
            # or printed `Apéndice A Implementation`, its word before the letter the bookmark leaves out: path `Apéndice A`
            letter = lettered.group("letter").lower()
            candidates = candidates or [clause for path, clauses in by_path.items() if _annex_letter(path) == letter for clause in clauses]
            titles.append(key(lettered.group("title")))
        if not any(
            any(_same_title(wanted, title) for wanted in titles) and (entry.page is None or entry.page == page)
            for title, page in candidates
        ):
            missed.append(entry)
    share = 1 - len(missed) / len(reference) if reference else 1.0
    return share, missed


_ANNEX_PATH = re.compile(r"^(?:appendix|appendice|annexe|anhang|annex|allegato|ap[eé]ndice|anexo)\s+(?P<letter>[a-z])$", re.I)


def _annex_letter(path: str) -> str | None:
    """The letter of an appendix's path that prints its word (`Apéndice B` → `b`, as `recall` keys paths: lower case)."""
    match = _ANNEX_PATH.match(path)
    return match.group("letter").lower() if match else None


def _same_path(entry: Entry, path: str) -> bool:
    """A clause's path is the entry's, as `recall` compares paths (an unnumbered path as a title)."""
    if " ".join(entry.path.split()).lower() == " ".join(path.split()).lower():
        return True
    lettered = _LETTER_LED.match(entry.path)
    if lettered and (lettered.group("letter") == path or _annex_letter(path) == lettered.group("letter").lower()):
        return True  # `A Implementation`, the appendix whose path is its letter (or its word and letter, `Apéndice A`)
    return _is_title_path(entry) and key(entry.path) == key(path)


def _is_title_path(entry: Entry) -> bool:
    """Whether an entry's path is its title: read as one (see `_title_path`), or the reference found no number for it,
    whatever its first word (`I have two time-series …`, which `_title_path` reads as led by the numeral `I`)."""
    return _title_path(entry.path) or key(entry.path) == entry.title


def tree_precision(reference: list[Entry], run: Run) -> dict | None:
    """How many of the clauses an import writes are headings the reference has, and how many it invents.

    A clause *matches* an entry when they are on the same PDF page (any page for a reference without pages) and
    have the same title (as `recall` compares titles) or the same path; each entry is matched once (a heading written
    twice is one invention). A clause that matches none is *invented*, except when the reference does not judge it:
    *below* the reference (its nearest matched ancestor is an entry the reference lists nothing under: a
    subsection of a chapter whose bookmarks stop at chapters is a heading the outline just does not go down to), or
    *before* it (on a page before the first entry's, or on that page ahead of every matched clause: a title page, a
    printed contents, the importer's `Front matter`). Precision = matched /
    (matched + invented): the clauses the reference can judge that are right. None without a reference."""
    if not reference:
        return None
    first = min((entry.page for entry in reference if entry.page is not None), default=None)
    taken: set[int] = set()
    matched: dict[str, Entry] = {}
    for strict in (True, False):  # a clause with the entry's title and path first, then one with either
        for path, title, page in run.nodes:
            if path in matched:
                continue
            for position, entry in enumerate(reference):
                if position in taken or (entry.page is not None and entry.page != page):
                    continue
                same_title = any(_same_title(wanted, title) for wanted in (entry.title, entry.printed) if wanted)
                same_path = _same_path(entry, path)
                if (same_title and same_path) if strict else (same_title or same_path):
                    taken.add(position)
                    matched[path] = entry
                    break
    invented: list[str] = []
    below: list[str] = []
    before = 0
    opening = next((k for k, (path, _, _) in enumerate(run.nodes) if path in matched), len(run.nodes))
    for position, (path, title, page) in enumerate(run.nodes):
        if path in matched:
            continue
        ancestor = run.parents.get(path)
        seen = {path}
        while ancestor is not None and ancestor not in matched and ancestor not in seen:
            seen.add(ancestor)
            ancestor = run.parents.get(ancestor)
        if ancestor is not None and ancestor in matched and matched[ancestor].leaf:
            below.append(f"{path} {title} p{page}")
        elif first is not None and (page < first or (position < opening and page == first)):
            before += 1  # a title page, a printed contents: the frame written before the first bookmark's clause
        else:
            invented.append(f"{path} {title} p{page}")
    judged = len(matched) + len(invented)
    return {
        "nodes": len(run.nodes),
        "matched": len(matched),
        "invented": len(invented),
        "below": len(below),
        "before": before,
        "share": round(100 * len(matched) / judged, 1) if judged else 100.0,
        "inventedNodes": invented,
        "belowNodes": below,
    }


def precision_cell(precision: dict | None) -> str:
    """A run's tree precision for the Markdown table: the share, the clauses invented and those below the reference."""
    if precision is None:
        return "–"
    return f"{precision['share']} % ({precision['invented']} invented; {precision['below']} below, of {precision['nodes']})"


def measure(pdf: Path, repeat: int, tree_only: bool = False, tables_only: bool = False) -> dict:
    """The accuracy row of one PDF (with `tree_only`, the tree recall alone: no tables, figures, superscripts or timing baseline;
    with `tables_only`, one import as it is, scored for tables and figures only)."""
    import pypdfium2 as pdfium

    document = pdfium.PdfDocument(str(pdf))
    has_outline = next(iter(document.get_toc(max_depth=OUTLINE_LEVELS)), None) is not None
    document.close()
    text_edition = pdf.with_suffix(".txt")
    reference = outline_reference(pdf) if has_outline else (text_reference(text_edition) if text_edition.exists() else [])
    source = "outline" if has_outline else (text_edition.name if reference else "none")
    found = {"table": set(), "figure": set()} if tree_only else captions(pdf)
    found["table"] -= captions_without_table(pdf)
    samples = [] if tree_only or tables_only else superscript_samples(pdf)
    with tempfile.TemporaryDirectory() as folder:
        workspace = Path(folder)
        runs = [import_once(pdf, workspace, f"{pdf.stem} as is") for _ in range(max(1, repeat))]
        baseline = 0.0 if tree_only or tables_only else statistics.median(extraction_seconds(pdf) for _ in range(max(1, repeat)))
        as_is = runs[0]
        again = has_outline and not tables_only
        ignored = import_once(pdf, workspace, f"{pdf.stem} no outline", use_outline=False) if again else as_is
        stripped = import_once(stripped_copy(pdf, workspace), workspace, f"{pdf.stem} stripped") if again else as_is
    pages = max(as_is.pages, 1)
    row: dict = {
        "document": pdf.name,
        "pages": as_is.pages,
        "reference": source,
        "entries": len(reference),
    }
    misses: dict[str, list[str]] = {}
    shown = [entry for entry in reference if entry.shown]
    row["shownEntries"] = len(shown)
    for label, run in (("asIs", as_is), ("outlineIgnored", ignored), ("stripped", stripped)):
        share, missed = recall(reference, run)
        row[label] = round(100 * share, 1)
        misses[label] = [f"{entry.path} {entry.title} p{entry.page}" for entry in missed]
        lost = sum(1 for entry in missed if entry.shown)
        row[f"{label}Shown"] = round(100 * (1 - lost / len(shown)), 1) if shown else 100.0
        judged = tree_precision(reference, run)
        if judged is not None:
            misses[f"{label}Invented"] = judged.pop("inventedNodes")
            row[f"{label}Below"] = judged.pop("belowNodes")
        row[f"{label}Precision"] = judged
    row["notShown"] = [f"{entry.path} {entry.title} p{entry.page}" for entry in reference if not entry.shown]
    tables_found = {number for number in as_is.table_numbers if number in found["table"]}
    figures_found = {number for number in as_is.figure_numbers if number in found["figure"]}
    row.update(
        {
            "captionedTables": len(found["table"]),
            "captionedTablesFound": len(tables_found),
            "uncaptionedTablesFound": as_is.uncaptioned_tables,
            "captionedFigures": len(found["figure"]),
            "captionedFiguresFound": len(figures_found),
            "figuresFound": len(as_is.figure_numbers),
            "superscriptSamples": len(samples),
            "superscriptsKept": superscripts_kept(samples, as_is.text),
            "tablesFound": len(as_is.table_numbers) + as_is.uncaptioned_tables,
            "secondsPer100Pages": round(100 * statistics.median(run.seconds for run in runs) / pages, 2),
            "timesPlainExtraction": round(statistics.median(run.seconds for run in runs) / baseline, 1) if baseline else "–",
            "misses": misses,
        }
    )
    row["tablesPerPage"] = tables_per_page(as_is.text)
    for sample, label, _ in SAMPLES:
        truth = table_truth(pdf, sample)
        if truth is not None:
            row[label] = precision(truth, as_is.text)
    return row


def measure_safely(pdf: Path, repeat: int, tree_only: bool = False, tables_only: bool = False) -> dict:
    """`measure`, with a PDF that cannot be imported reported in its row instead of stopping the run."""
    try:
        return measure(pdf, repeat, tree_only, tables_only)
    except Exception as exc:  # the bench reports every failure; it is what it is there to find
        return {"document": pdf.name, "error": f"{type(exc).__name__}: {exc}"}


def extraction_seconds(pdf: Path) -> float:
    """The baseline measured in the same run: PDFium's plain text of every page, nothing else."""
    import pypdfium2 as pdfium

    started = time.perf_counter()
    document = pdfium.PdfDocument(str(pdf))
    for index in range(len(document)):
        page = document[index]
        textpage = page.get_textpage()
        textpage.get_text_range()
        textpage.close()
        page.close()
    document.close()
    return time.perf_counter() - started


def corpus_pdfs() -> list[Path]:
    """Every PDF of the corpus."""
    return sorted(CORPUS.glob("*/*.pdf"))


def sample_table(rows: list[dict], corpus_names: set[str]) -> list[str]:
    """The Markdown lines of the table-truth scores: one row per labelled sample of each PDF, a PDF labelled in a
    later sample only (third to ninth) included."""
    lines = []
    for row in rows:
        for _, label, name in SAMPLES:
            if row["document"] in corpus_names:
                name += " (every 12th from 6)" if label == "precision" else " (every 24th from 12)"
            p = row.get(label)
            if p:
                lines.append(
                    f"| {row['document']} | {name} | {p['truthPages']} | {p['realTables']} | {p['tablesFoundOnTruthPages']} | "
                    f"{p['falseTables']} ({p['falseShare']} %) | {p['missedTables']} |"
                )
    if not lines:
        return []
    return [
        "| document | sample | labelled pages | real tables | tables found there | not real | missed |",
        "|---|---|---:|---:|---:|---:|---:|",
        *lines,
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the accuracy table (Markdown) or, with --json, one JSON document."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("pdfs", nargs="*", type=Path, help="PDFs (default: every PDF of ../shared/corpus)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a Markdown table")
    parser.add_argument("--repeat", type=int, default=1, help="imports with the outline to time (median)")
    parser.add_argument("--misses", action="store_true", help="also list the first reference entries not recovered")
    parser.add_argument("--extra", type=Path, action="append", default=[], help="also every PDF under this folder (PDFs not tuned to)")
    parser.add_argument("--tree-only", action="store_true", help="measure the tree recall alone (faster, for many PDFs)")
    parser.add_argument("--tables-only", action="store_true", help="one import per PDF, scored for tables and figures only (faster)")
    parser.add_argument("--jobs", type=int, default=1, help="PDFs measured in parallel processes (timings are then not comparable)")
    args = parser.parse_args(argv)
    extra = [pdf for folder in args.extra for pdf in sorted(folder.rglob("*.pdf"))]
    pdfs = [*(args.pdfs or ([] if args.extra else corpus_pdfs())), *extra]
    if not pdfs:
        print("no PDF found (is ../shared/corpus there?)", file=sys.stderr)
        return 1
    if args.jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(args.jobs) as pool:
            rows = list(
                pool.map(measure_safely, pdfs, [args.repeat] * len(pdfs), [args.tree_only] * len(pdfs), [args.tables_only] * len(pdfs))
            )
    else:
        rows = [measure_safely(pdf, args.repeat, args.tree_only, args.tables_only) for pdf in pdfs]
    if args.json:
        print(json.dumps({"rows": rows}, indent=2, ensure_ascii=False))
        return 0
    print(
        "| document | pages | reference | entries | tree: as is | outline ignored | outline stripped "
        "| printed on their page | ignored / stripped, of those printed | tree precision, stripped "
        "| captioned tables found | uncaptioned tables | captioned figures found | superscripts kept | s / 100 pages | × plain extraction |"
    )
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        if "error" in row:
            print(f"| {row['document']} | error: {row['error']} |")
            continue
        if row["reference"] == "none":
            row["asIs"] = row["outlineIgnored"] = row["stripped"] = "–"  # type: ignore[assignment]
            row["outlineIgnoredShown"] = row["strippedShown"] = "–"  # type: ignore[assignment]
        print(
            f"| {row['document']} | {row['pages']} | {row['reference']} | {row['entries']} | {row['asIs']} % | "
            f"{row['outlineIgnored']} % | {row['stripped']} % | {row['shownEntries']} | "
            f"{row['outlineIgnoredShown']} / {row['strippedShown']} % | {precision_cell(row['strippedPrecision'])} | "
            f"{row['captionedTablesFound']} / {row['captionedTables']} | "
            f"{row['uncaptionedTablesFound']} | {row['captionedFiguresFound']} / {row['captionedFigures']} | "
            f"{row['superscriptsKept']} / {row['superscriptSamples']} | {row['secondsPer100Pages']} | {row['timesPlainExtraction']} |"
        )
    table = sample_table(rows, {pdf.name for pdf in corpus_pdfs()})
    if table:
        print()
        print("\n".join(table))
    if args.misses:
        for row in rows:
            if "misses" not in row:
                continue
            for label, missed in row["misses"].items():
                if missed:
                    print(f"{row['document']} {label}: " + "; ".join(missed[:8]), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
