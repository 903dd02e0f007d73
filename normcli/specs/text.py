"""Small text helpers for specs: identifiers as words, text safe to print."""

from __future__ import annotations

_WORD = r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+"  # compiled by `re`'s cache when a spec is indexed


def identifier_words(name: str) -> str:
    """`getPetById` → `get Pet By Id`, `snow_load-zone` → `snow load zone`: found by search word by word."""
    import re

    return " ".join(re.findall(_WORD, name))


# C0 and C1 controls but tab and newline, and bidirectional overrides: a spec is text from anyone, and
# none of these belongs in a title or a description, where they could move a terminal's cursor.
# A set rather than a pattern: an endpoint's page shows many texts, and `re` (with `enum`) would be a tenth
# of the call's start-up.
_CONTROLS = frozenset([*map(chr, range(0x00, 0x09)), *map(chr, range(0x0B, 0x20)), *map(chr, range(0x7F, 0xA0))]) | frozenset(
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def plain(text: str) -> str:
    """`text` with control characters written as escapes (`\\x1b`): what people and agents are shown."""
    if _CONTROLS.isdisjoint(text):
        return text
    return "".join(repr(char)[1:-1] if char in _CONTROLS else char for char in text)
