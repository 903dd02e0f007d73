"""Small text helpers for specs: identifiers as words, one-line summaries."""

from __future__ import annotations

import re

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|\d+")


def identifier_words(name: str) -> str:
    """`getPetById` → `get Pet By Id`, `snow_load-zone` → `snow load zone`: found by search word by word."""
    return " ".join(_WORD.findall(name))
