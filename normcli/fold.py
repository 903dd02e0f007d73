"""Text folding for search and forgiving matching: lowercase ASCII transliteration."""

from __future__ import annotations

from normcli.labels import ANNEX_FOLDED

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import re

# The patterns of words() and fold_with_offsets(), compiled at their first use: `re` (with the `enum` it
# imports) is a tenth of a `--json` read's start-up, and a toc or a discovery call matches no pattern.
_PATTERNS: dict[str, re.Pattern[str]] = {}
# What a key drops: white space, hyphens and dashes, underscores, slashes. It is applied to folded
# text, which is ASCII (dashes are hyphens by then), so a translation table does it; compiling the
# equivalent pattern cost a quarter of a millisecond of every call's start-up.
_KEY_DROP = str.maketrans("", "", " \t\n\r\x0b\x0c\x1c\x1d\x1e\x1f-_/")
_LETTERS_AND_DIGITS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


_TRANSLITERATION: dict[int, str] = {}


def _pattern(source: str) -> re.Pattern[str]:
    found = _PATTERNS.get(source)
    if found is None:
        import re

        found = _PATTERNS[source] = re.compile(source)
    return found


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
    # letters without a decomposition, and the signs of units and tolerances (m², ±, ≤, µm, 5 ‰, 10⁻³)
    "ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L",
    "ı": "i", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "µ": "u", "€": "EUR", "§": "SS", "±": "+-", "≤": "<=", "≥": ">=",
    "′": "'", "″": "''", "‰": "%0", "−": "-", "→": "-", "←": "-", "‚": ",", "„": ",,", "‹": "<", "›": ">", "⁺": "+", "⁻": "-",
    # the Greek letters of engineering formulas set as text
    "α": "a", "β": "b", "γ": "g", "δ": "d", "ε": "e", "η": "e", "θ": "th", "λ": "l", "μ": "m", "ν": "n", "π": "p",
    "ρ": "r", "σ": "s", "τ": "t", "φ": "ph", "ψ": "ps", "ω": "o", "Δ": "D", "Σ": "S", "Ω": "O",
}  # fmt: skip
_COMMON.update(zip("⁰¹²³⁴⁵⁶⁷⁸⁹₀₁₂₃₄₅₆₇₈₉", "01234567890123456789", strict=True))


def _latin_letter(char: str) -> str | None:
    """An accented Latin letter's base letter (`é` → `e`, `Ů` → `U`), or None for anything else: below
    U+0250 that is what unidecode gives, checked for each letter by tests/core/test_fold.py."""
    if ord(char) >= 0x250:
        return None
    import unicodedata

    parts = unicodedata.normalize("NFD", char)
    base = "".join(part for part in parts if not unicodedata.combining(part))
    return base if len(parts) > 1 and base and base.isascii() else None


# `[a-z0-9]+` over folded text, which is ASCII: every other ASCII character becomes a space, then the
# text is split; a keyword's words are found so without `re` (a spec search that finds nothing loads none).
_WORD_GAPS = str.maketrans({code: " " for code in range(128) if chr(code) not in _LETTERS_AND_DIGITS})


def words(text: str) -> list[str]:
    """The folded words of a text, as the search index sees them."""
    folded = fold(text).translate(_WORD_GAPS)
    if not folded.isascii():  # not made by `fold` today; kept exact should a transliteration leave one
        return _pattern(r"[a-z0-9]+").findall(folded)
    return folded.split()


def code_key(code: str) -> str:
    """A norm code reduced so that `sia261`, `SIA-261` and `SIA 261` compare equal."""
    return fold(code).translate(_KEY_DROP).replace(".", "")


def path_key(path: str) -> str:
    """A clause path reduced for matching: case, accents, spaces, hyphens and the annex word ignored."""
    key = fold(path).translate(_KEY_DROP).rstrip(".")
    # `^(annexe|annex|anhang|…)(?=[a-z0-9])` → `annex`, the words tried in order as the pattern would.
    for word in ANNEX_FOLDED:
        if key.startswith(word) and key[len(word) : len(word) + 1] in _LETTERS_AND_DIGITS:
            return "annex" + key[len(word) :]
    return key


def fold_with_offsets(text: str) -> tuple[str, list[int]]:
    """Fold `text` and return, for every folded character, the index of the original character."""
    if text.isascii():
        return text.lower(), list(range(len(text)))
    _learn(text)
    folded: list[str] = []
    offsets: list[int] = []
    position = 0
    for match in _pattern(r"[^\x00-\x7f]").finditer(text):
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
