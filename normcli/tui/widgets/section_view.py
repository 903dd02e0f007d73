"""The right-hand reader: a header line, one window of a section as Markdown, and a status line."""

from __future__ import annotations

import asyncio
import time
from typing import ClassVar

from rich import box
from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownBlock, MarkdownFence, MarkdownTable

from normcli import results as r
from normcli.tui.text import header_line, reader_markdown, window_status


class CompactTable(MarkdownTable):
    """A Markdown table drawn as one Rich table: Textual's own mounts a widget per cell, too slow for norms."""

    DEFAULT_CSS = """
    CompactTable {
        width: auto;
        max-width: 100%;
        height: auto;
    }
    """

    def compose(self) -> ComposeResult:
        """One Static holding the whole table."""
        headers, rows = self._get_headers_and_rows()
        table = Table(box=box.SQUARE, header_style="bold", expand=False, pad_edge=True)
        for header in headers:
            table.add_column(header.plain, overflow="fold")
        for row in rows:
            table.add_row(*(cell.plain for cell in row))
        yield Static(table)


class PlainFence(MarkdownFence):
    """A code block; without a named language it is shown as it is (guessing the lexer costs ~100 ms)."""

    @classmethod
    def highlight(cls, code: str, language: str, ansi: bool = False, dark: bool = False) -> Content:
        """Plain text unless the fence names its language."""
        if not language:
            return Content(code.rstrip("\n"))
        return super().highlight(code, language, ansi=ansi, dark=dark)


class NormMarkdown(Markdown):
    """Textual's Markdown with compact tables and plain code blocks."""

    BLOCKS: ClassVar[dict[str, type[MarkdownBlock]]] = {  # type: ignore[misc]  # Textual declares it without ClassVar
        **Markdown.BLOCKS,
        "table_open": CompactTable,
        "fence": PlainFence,
        "code_block": PlainFence,
    }


class TextScroll(VerticalScroll, can_focus=True):
    """The scrolling text; a scroll past either end asks for the next or the previous window."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown,space", "page_down_or_next", "Page down", show=False),
        Binding("pageup", "page_up_or_previous", "Page up", show=False),
        Binding("down,j", "down_or_next", "Down", show=False),
        Binding("up,k", "up_or_previous", "Up", show=False),
    ]
    """Paging keys that move on to the next or previous window at the ends of the text."""

    class WindowWanted(Message):
        """The reader scrolled past the end (+1) or the start (-1) of the window."""

        def __init__(self, step: int) -> None:
            super().__init__()
            self.step = step

    @property
    def at_end(self) -> bool:
        """Whether the last line of the window is visible."""
        return self.scroll_y >= self.max_scroll_y

    @property
    def at_start(self) -> bool:
        """Whether the first line of the window is visible."""
        return self.scroll_y <= 0

    def action_page_down_or_next(self) -> None:
        """Page down; at the end, the next window."""
        if self.at_end:
            self.post_message(self.WindowWanted(1))
        else:
            self.scroll_page_down(animate=False)

    def action_page_up_or_previous(self) -> None:
        """Page up; at the start, the previous window."""
        if self.at_start:
            self.post_message(self.WindowWanted(-1))
        else:
            self.scroll_page_up(animate=False)

    def action_down_or_next(self) -> None:
        """A line down; at the end, the next window."""
        if self.at_end:
            self.post_message(self.WindowWanted(1))
        else:
            self.scroll_down(animate=False)

    def action_up_or_previous(self) -> None:
        """A line up; at the start, the previous window."""
        if self.at_start:
            self.post_message(self.WindowWanted(-1))
        else:
            self.scroll_up(animate=False)

    def _on_mouse_scroll_down(self, event) -> None:  # type: ignore[no-untyped-def]
        if self.at_end:
            self.post_message(self.WindowWanted(1))

    def _on_mouse_scroll_up(self, event) -> None:  # type: ignore[no-untyped-def]
        if self.at_start:
            self.post_message(self.WindowWanted(-1))


class SectionView(Vertical):
    """One window of one section: header, Markdown text and the window position."""

    class Painted(Message):
        """A window is on screen; `seconds` is how long the Markdown widget took."""

        def __init__(self, seconds: float) -> None:
            super().__init__()
            self.seconds = seconds

    def compose(self) -> ComposeResult:
        """Header, text, status."""
        yield Static("", id="section-header", markup=False)
        with TextScroll(id="text"):
            yield NormMarkdown("", id="markdown", open_links=False)
        yield Static("", id="section-status", markup=False)

    def show_message(self, title: str, body: str) -> None:
        """A page that is not a section (the welcome page, an error)."""
        self.query_one("#section-header", Static).update(title)
        self.query_one("#section-status", Static).update("")
        self.query_one(Markdown).update(body)

    def mark(self, section: r.SectionResult, published: bool, bookmarked: bool) -> None:
        """The header line, with a star when the clause is bookmarked."""
        self.query_one("#section-header", Static).update(header_line(section, published) + ("  ★" if bookmarked else ""))

    async def show(self, section: r.SectionResult, published: bool = True, from_end: bool = False, bookmarked: bool = False) -> float:
        """Put one window on screen and return how long that took; `from_end` shows its last page."""
        started = time.perf_counter()
        self.mark(section, published, bookmarked)
        self.query_one("#section-status", Static).update(window_status(section))
        scroll = self.query_one(TextScroll)
        with self.app.batch_update():
            await self.query_one(Markdown).update(reader_markdown(section))
            if from_end:
                scroll.scroll_end(animate=False, immediate=True)
            else:
                scroll.scroll_home(animate=False, immediate=True)
        painted: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def on_screen() -> None:
            if not painted.done():
                painted.set_result(None)

        self.call_after_refresh(on_screen)
        await painted  # measured up to the frame on screen, not just the widgets mounted
        seconds = time.perf_counter() - started
        self.post_message(self.Painted(seconds))
        return seconds
