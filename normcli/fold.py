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
    if not new:
        return
    # Imported here: unidecode brings `typing` (3 ms), which an ASCII-only call never needs.
    from unidecode import unidecode

    for char in new:
        code = ord(char)
        # A lone surrogate (undecodable bytes of an argument) has no letters; unidecode would warn.
        _TRANSLITERATION[code] = "" if 0xD800 <= code <= 0xDFFF else unidecode(char)


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
