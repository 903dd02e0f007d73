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

from normcli.tui.bookmarks import Bookmarks, Preferences
from normcli.tui.library import Library, Location
from normcli.tui.memory import Collector, mend_styles_cache
from normcli.tui.screens.reader import ReaderScreen

DEFAULT_THEME = "textual-dark"

WINDOW_CHARS = 6000  # a window the Markdown widget paints well within 0.2 s; paging crosses windows seamlessly


def palette_actions() -> list[tuple[str, str, str]]:
    """What the command palette offers besides `go to`: (title, reader action, help), from the reader's bindings."""
    from normcli.tui.screens.help import pretty_keys

    found = []
    for binding in ReaderScreen.BINDINGS:
        if isinstance(binding, Binding) and binding.description:
            help_text = pretty_keys(binding) + (f": {binding.tooltip}" if binding.tooltip else "")
            found.append(
                (binding.tooltip.split(";")[0].capitalize() if binding.tooltip else binding.description, binding.action, help_text)
            )
    return found


class ReaderCommands(Provider):
    """Command palette: go to a clause by number or title, and every reader action."""

    def _reader(self) -> ReaderScreen | None:
        return self.screen if isinstance(self.screen, ReaderScreen) else None

    async def discover(self) -> Hits:
        """The reader's actions, listed when the palette opens."""
        reader = self._reader()
        if reader is None:
            return
        for title, action, help_text in palette_actions():
            yield DiscoveryHit(title, partial(reader.run_action, action), help=help_text)

    async def search(self, query: str) -> Hits:
        """`4.2.1` → go there; words → matching clause titles of this edition and matching actions."""
        reader = self._reader()
        if reader is None:
            return
        from normcli.labels import clause_number

        matcher = self.matcher(query)
        here = reader.location
        named = clause_number(query)
        if here is not None and named:
            target = Location(here.code, named, here.edition, here.language)
            yield Hit(1.0, f"Go to clause {named} in {here.code}", partial(reader.open, target), help="jump to this clause number")
        for title, action, help_text in palette_actions():
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
        window_chars: int = WINDOW_CHARS,
        theme: str | None = None,
        bookmarks_path: Path | None = None,
        entered: float | None = None,
    ) -> None:
        super().__init__()
        mend_styles_cache()
        self.collector = Collector()
        self.timings: list[tuple[str, float]] = []
        self._entered = entered if entered is not None else time.perf_counter()
        self.mark("app created")
        self.workspace = workspace
        self.start = start
        self.window_chars = window_chars
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
        """Record how long a window took from the key (or the open) to the frame on screen; then collect the
        garbage of the window it replaced, while the reader reads (see `normcli.tui.memory`)."""
        self.paint_times.append(seconds)
        self.collect_soon()

    def collect_soon(self) -> None:
        """Collect garbage once the frame now on screen is drawn (after a window, or when start-up is done)."""
        self.call_later(self._collect)

    def _collect_once(self) -> None:
        if self.collector.collections == 0:
            self._collect()

    def _collect(self) -> None:
        started = time.perf_counter()
        freed = self.collector.collect()
        self.mark(f"collected {freed} objects in {(time.perf_counter() - started) * 1000:.0f} ms")

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

    def on_load(self) -> None:
        """No garbage collection until the first content is on screen (see `normcli.tui.memory`)."""
        self.collector.pause()

    def on_mount(self) -> None:
        """Show the reader (and collect after a few seconds at the latest, whatever the first screen became)."""
        self.set_timer(5.0, self._collect_once)
        self.mark("app mounted")
        self.push_screen(ReaderScreen(self.start))

    def on_unmount(self) -> None:
        """Release the index and the objects frozen out of garbage collection."""
        self.collector.release()
        if self.library is not None:
            self.library.service.close()
