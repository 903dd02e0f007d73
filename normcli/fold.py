"""Text folding for search and forgiving matching: lowercase ASCII transliteration."""

from __future__ import annotations

import re

from normcli.labels import ANNEX_FOLDED

_WORD = re.compile(r"[a-z0-9]+")
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# What a key drops: white space, hyphens and dashes, underscores, slashes. It is applied to folded
# text, which is ASCII (dashes are hyphens by then), so a translation table does it; compiling the
# equivalent pattern cost a quarter of a millisecond of every call's start-up.
_KEY_DROP = str.maketrans("", "", " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f-_/")
_ANNEX_WORD = re.compile(rf"^({'|'.join(ANNEX_FOLDED)})(?=[a-z0-9])")


_TRANSLITERATION: dict[int, str] = {}


def fold(text: str) -> str:
    """Lowercase transliteration: `Straße` → `strasse`, `Résistance` → `resistance`."""
    if text.isascii():
        return text.lower()
    _learn(text)
    return text.translate(_TRANSLITERATION).lower()


def _learn(text: str) -> None:
    """Put every character of `text` that is not ASCII in the transliteration table.

    unidecode walks a text character by character in Python; norms are mostly ASCII, so only
    the distinct other characters are looked up, once per process, and str.translate does the rest.
    """
    new = [char for char in set(text) if ord(char) > 0x7F and ord(char) not in _TRANSLITERATION]
    rest = []
    for char in new:
        code = ord(char)
        # A lone surrogate (undecodable bytes of an argument) has no letters; unidecode would warn.
        known = "" if 0xD800 <= code <= 0xDFFF else _COMMON.get(char) or _latin_letter(char)
        if known is None:
            rest.append(char)
        else:
            _TRANSLITERATION[code] = known
    if not rest:
        return
    # Imported here: unidecode brings `typing` (3 ms), which most texts never need: their accented
    # Latin letters and typographic punctuation are known without it (the same as unidecode gives).
    from unidecode import unidecode

    for char in rest:
        _TRANSLITERATION[ord(char)] = unidecode(char)


# Typographic punctuation as unidecode writes it (tests/core/test_fold.py compares them).
_COMMON = {
    "\u00a0": " ", "\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"', "\u2013": "-", "\u2014": "--",
    "\u2026": "...", "\u2022": "*", "\u00b7": "*", "\u00d7": "x", "\u00b0": "deg", "\u00ab": "<<", "\u00bb": ">>",
}  # fmt: skip


def _latin_letter(char: str) -> str | None:
    """An accented Latin letter's base letter (`é` → `e`, `Ů` → `U`), or None for anything else: below
    U+0250 that is what unidecode gives, checked for each letter by tests/core/test_fold.py."""
    if ord(char) >= 0x250:
        return None
    import unicodedata

    parts = unicodedata.normalize("NFD", char)
    base = "".join(part for part in parts if not unicodedata.combining(part))
    return base if len(parts) > 1 and base and base.isascii() else None


def words(text: str) -> list[str]:
    """The folded words of a text, as the search index sees them."""
    return _WORD.findall(fold(text))


def code_key(code: str) -> str:
    """A norm code reduced so that `sia261`, `SIA-261` and `SIA 261` compare equal."""
    return fold(code).translate(_KEY_DROP).replace(".", "")


def path_key(path: str) -> str:
    """A clause path reduced for matching: case, accents, spaces, hyphens and the annex word ignored."""
    key = fold(path).translate(_KEY_DROP).rstrip(".")
    return _ANNEX_WORD.sub("annex", key)


def fold_with_offsets(text: str) -> tuple[str, list[int]]:
    """Fold `text` and return, for every folded character, the index of the original character."""
    if text.isascii():
        return text.lower(), list(range(len(text)))
    _learn(text)
    folded: list[str] = []
    offsets: list[int] = []
    position = 0
    for match in _NON_ASCII.finditer(text):
        start = match.start()
        if start > position:
            folded.append(text[position:start].lower())
            offsets.extend(range(position, start))
        replacement = _TRANSLITERATION[ord(match.group())].lower()
        folded.append(replacement)
        offsets.extend([start] * len(replacement))
        position = start + 1
    folded.append(text[position:].lower())
    offsets.extend(range(position, len(text)))
    return "".join(folded), offsets
