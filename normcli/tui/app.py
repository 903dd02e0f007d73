"""The Textual app behind `normcli browse`: it owns the library, the bookmarks and the reader screen."""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import ClassVar

from textual.app import App
from textual.binding import Binding, BindingType
from textual.command import DiscoveryHit, Hit, Hits, Provider

from normcli.labels import clause_number
from normcli.tui.bookmarks import Bookmarks, Preferences
from normcli.tui.library import Library, Location
from normcli.tui.screens.reader import ReaderScreen

DEFAULT_THEME = "textual-dark"

# What the command palette offers besides `go to`: (title, reader action, help).
PALETTE_ACTIONS = (
    ("Search in this norm", "search(False)", "/"),
    ("Search all norms", "search(True)", "ctrl+f"),
    ("Go to clause…", "goto", "g, or type a clause number here"),
    ("Next clause", "neighbour(1)", "]"),
    ("Previous clause", "neighbour(-1)", "["),
    ("Parent clause", "parent", "u"),
    ("Switch edition", "switch_edition", "e: the same clause in the next edition"),
    ("Switch language", "switch_language", "l: the same clause in the next language"),
    ("Show figure", "figure", "f"),
    ("Copy citation", "cite", "c: [SIA 261:2020, 4.2.1, p. 22]"),
    ("Copy section text", "copy_text", "y"),
    ("Bookmark this clause", "bookmark", "b"),
    ("Bookmarks", "bookmarks", "B"),
    ("Toggle the tree", "toggle_tree", "t"),
    ("Keys", "help", "?"),
)


PAINT_BUDGET = 0.15  # seconds: aim under the 0.2 s every paint must stay below
SMALLEST_WINDOW = 4000


def smaller_window(window: int, seconds: float) -> int:
    """The window size for the next reads after a paint that took `seconds` (text costs about linearly)."""
    if seconds <= PAINT_BUDGET or window <= SMALLEST_WINDOW:
        return window
    return max(SMALLEST_WINDOW, int(window * PAINT_BUDGET / seconds) // 1000 * 1000)


class ReaderCommands(Provider):
    """Command palette: go to a clause by number or title, and every reader action."""

    def _reader(self) -> ReaderScreen | None:
        return self.screen if isinstance(self.screen, ReaderScreen) else None

    async def discover(self) -> Hits:
        """The reader's actions, listed when the palette opens."""
        reader = self._reader()
        if reader is None:
            return
        for title, action, help_text in PALETTE_ACTIONS:
            yield DiscoveryHit(title, partial(reader.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        """`4.2.1` → go there; words → matching clause titles of this edition and matching actions."""
        reader = self._reader()
        if reader is None:
            return
        matcher = self.matcher(query)
        here = reader.location
        named = clause_number(query)
        if here is not None and named:
            target = Location(here.code, named, here.edition, here.language)
            yield Hit(1.0, f"Go to clause {named} in {here.code}", partial(reader.open, target), help="jump to this clause number")
        for title, action, help_text in PALETTE_ACTIONS:
            score = matcher.match(title)
            if score > 0:
                yield Hit(score, matcher.highlight(title), partial(reader.run_action, action), help=help_text)
        if here is None:
            return
        for text, path in _outline_entries(reader.outline):
            score = matcher.match(text)
            if score > 0:
                yield Hit(
                    score * 0.9,
                    matcher.highlight(text),
                    partial(reader.open, Location(here.code, path, here.edition, here.language)),
                    help=f"go to {path}",
                )


def _outline_entries(outline: tuple[tuple[str, str], ...]) -> Iterator[tuple[str, str]]:
    for path, title in outline:
        yield (f"Go to {path} {title}" if title != path else f"Go to {path}"), path


class NormcliApp(App[None]):
    """A reader for the norms of one workspace: tree, text, references, search, figures, bookmarks."""

    CSS_PATH = "normcli.tcss"
    TITLE = "normcli"
    COMMANDS = App.COMMANDS | {ReaderCommands}
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "quit", "Quit", tooltip="quit"),
        Binding(
            "ctrl+p",
            "command_palette",
            "Palette",
            show=False,
            tooltip="command palette: go to a clause by number or title, every action, themes",
        ),
    ]
    """q quits; ctrl+p opens the command palette (go to a clause, every action, themes)."""

    def __init__(
        self,
        workspace: str | Path | None = None,
        start: Location | None = None,
        window_chars: int = 12000,
        adaptive_window: bool = True,
        theme: str | None = None,
        bookmarks_path: Path | None = None,
        entered: float | None = None,
    ) -> None:
        super().__init__()
        self.timings: list[tuple[str, float]] = []
        self._entered = entered if entered is not None else time.perf_counter()
        self.mark("app created")
        self.workspace = workspace
        self.start = start
        self.window_chars = window_chars
        self.adaptive_window = adaptive_window
        self.library: Library | None = None
        self.bookmarks = Bookmarks(bookmarks_path)
        self.preferences = Preferences(bookmarks_path.parent / "tui.json" if bookmarks_path else None)
        self.paint_times: list[float] = []
        chosen = theme or self.preferences.get("theme") or DEFAULT_THEME
        self.theme = chosen if chosen in self.available_themes else DEFAULT_THEME
        self._remember_theme = theme is None

    def watch_theme(self, theme: str) -> None:
        """Remember a theme chosen in the command palette for the next start."""
        if getattr(self, "_remember_theme", False) and theme != self.preferences.get("theme"):
            self.preferences.set("theme", theme)

    def painted(self, seconds: float) -> None:
        """Record a paint; when one takes more than the budget, later windows get smaller (never under 4,000)."""
        self.paint_times.append(seconds)
        if self.adaptive_window and len(self.paint_times) > 1:  # the first paint also warms Textual's caches up
            self.window_chars = smaller_window(self.window_chars, seconds)

    def mark(self, event: str) -> None:
        """Note how long after `browse` started something happened; written out when NORMCLI_TUI_TIMING names a file."""
        self.timings.append((event, time.perf_counter() - self._entered))
        target = os.environ.get("NORMCLI_TUI_TIMING")
        if target:
            with open(target, "a", encoding="utf-8") as stream:
                stream.write(f"{self.timings[-1][1]:.3f}s {time.time():.3f} {event}\n")

    def library_or_open(self) -> Library:
        """The workspace's library, opened on first use (called from a worker: opening may index)."""
        if self.library is None:
            self.library = Library.open(self.workspace)
        return self.library

    def on_mount(self) -> None:
        """Show the reader."""
        self.mark("app mounted")
        self.push_screen(ReaderScreen(self.start))

    def on_unmount(self) -> None:
        """Release the index."""
        if self.library is not None:
            self.library.service.close()
