"""A browser-like history of the places read: back and forward."""

from __future__ import annotations

from normcli.tui.library import Location


class History:
    """Places visited, with a cursor: `back` and `forward` move it, `visit` cuts the forward part."""

    def __init__(self, limit: int = 500) -> None:
        self._places: list[Location] = []
        self._cursor = -1
        self._limit = limit

    @property
    def current(self) -> Location | None:
        """Where the reader is, or None before the first visit."""
        return self._places[self._cursor] if self._places else None

    def visit(self, location: Location) -> None:
        """Record a new place; a visit to the current clause only updates its window offset."""
        if location.same_clause(self.current):
            self._places[self._cursor] = location
            return
        del self._places[self._cursor + 1 :]
        self._places.append(location)
        if len(self._places) > self._limit:
            del self._places[0]
        self._cursor = len(self._places) - 1

    def back(self) -> Location | None:
        """The previous place, or None at the start."""
        if self._cursor <= 0:
            return None
        self._cursor -= 1
        return self._places[self._cursor]

    def forward(self) -> Location | None:
        """The next place, or None at the end."""
        if self._cursor >= len(self._places) - 1:
            return None
        self._cursor += 1
        return self._places[self._cursor]

    @property
    def can_go_back(self) -> bool:
        """Whether `back` leads somewhere."""
        return self._cursor > 0

    @property
    def can_go_forward(self) -> bool:
        """Whether `forward` leads somewhere."""
        return self._cursor < len(self._places) - 1
