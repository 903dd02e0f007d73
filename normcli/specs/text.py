"""Small text helpers for specs: identifiers as words, text safe to print."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def identifier_words(name: str) -> str:
    """`getPetById` → `get Pet By Id`, `snow_load-zone` → `snow load zone`: found by search word by word."""
    return " ".join(_WORD.findall(name))


# C0 and C1 controls but tab and newline, and bidirectional overrides: a spec is text from anyone, and
# none of these belongs in a title or a description, where they could move a terminal's cursor.
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def plain(text: str) -> str:
    """`text` with control characters written as escapes (`\\x1b`): what people and agents are shown."""
    return _CONTROLS.sub(lambda match: repr(match.group())[1:-1], text) if _CONTROLS.search(text) else text
