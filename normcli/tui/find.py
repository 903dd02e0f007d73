"""Find in a clause: where a word occurs in the whole text, which window holds each match, and where it is on screen."""

from __future__ import annotations

import unicodedata
from bisect import bisect_right
from dataclasses import dataclass


def fold_chars(text: str) -> str:
    """`text` lowercased and without accents, one character for one, so positions stay those of `text`."""
    out = []
    for char in text:
        if char.isascii():
            out.append(char.lower())
            continue
        base = unicodedata.normalize("NFD", char)[0]
        lower = base.lower()
        out.append(lower if len(lower) == 1 else base)
    return "".join(out)


def find_all(text: str, term: str) -> tuple[int, ...]:
    """Where `term` starts in `text` (case and accents ignored), without overlaps."""
    wanted = fold_chars(term.strip())
    if not wanted:
        return ()
    haystack = fold_chars(text)
    found = []
    position = haystack.find(wanted)
    while position != -1:
        found.append(position)
        position = haystack.find(wanted, position + len(wanted))
    return tuple(found)


def window_of(starts: tuple[int, ...], position: int) -> int:
    """The start of the window (one of `starts`, ascending from 0) that holds character `position`."""
    return starts[max(0, bisect_right(starts, position) - 1)]


@dataclass(frozen=True)
class Find:
    """A find in one clause: the term, every match (offsets in the clause text), the current one, the window starts."""

    term: str
    matches: tuple[int, ...]
    current: int
    starts: tuple[int, ...]

    @property
    def window(self) -> int:
        """The offset of the window holding the current match."""
        return window_of(self.starts, self.matches[self.current]) if self.matches else 0

    def rank_in_window(self) -> int:
        """How many matches of the current window come before the current one."""
        start = self.window
        return sum(1 for position in self.matches[: self.current] if position >= start)

    def step(self, by: int) -> Find:
        """The next (1) or previous (-1) match, wrapping around the clause."""
        if not self.matches:
            return self
        return Find(self.term, self.matches, (self.current + by) % len(self.matches), self.starts)

    def first_from(self, offset: int) -> Find:
        """The first match at or after `offset` (else the first of the clause) as the current one."""
        current = next((number for number, position in enumerate(self.matches) if position >= offset), 0)
        return Find(self.term, self.matches, current, self.starts)

    def describe(self) -> str:
        """`match 3 of 17 “snow”` for the status line."""
        if not self.matches:
            return f"no match for “{self.term}”"
        return f"match {self.current + 1} of {len(self.matches)} “{self.term}” (n / N)"
