"""The right-hand reader: a header line, one window of a section as Markdown, and a status line."""

from __future__ import annotations

import asyncio
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Static

from normcli import results as r
from normcli.tui.find import fold_chars
from normcli.tui.text import header_line, reader_markdown, window_status


class TextScroll(VerticalScroll, can_focus=True):
    """The scrolling text; paging past either end moves on to the next or the previous window of the clause."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown,space", "page_down_or_next", "Page", tooltip="a page down; at the end of a window, the next one"),
        Binding("pageup", "page_up_or_previous", "Page up", show=False, tooltip="a page up; at the start, the previous window"),
        Binding("down,j", "down_or_next", "Down", show=False),
        Binding("up,k", "up_or_previous", "Up", show=False),
        Binding("home", "edge(-1)", "Start", show=False, tooltip="the start of the clause"),
        Binding("end", "edge(1)", "End", show=False, tooltip="the end of the clause"),
    ]
    """Paging keys that cross window boundaries, both ways; home and end go to the clause's start and end."""

    class WindowWanted(Message):
        """The reader paged past the end (+1) or the start (-1) of the window; `edge` asks for the clause's first or last."""

        def __init__(self, step: int, edge: bool = False) -> None:
            super().__init__()
            self.step = step
            self.edge = edge

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

    def action_edge(self, step: int) -> None:
        """The clause's first window at its top (-1) or its last window at its end (+1)."""
        self.post_message(self.WindowWanted(step, edge=True))

    def _on_mouse_scroll_down(self, event) -> None:  # type: ignore[no-untyped-def]
        if self.at_end:
            self.post_message(self.WindowWanted(1))

    def _on_mouse_scroll_up(self, event) -> None:  # type: ignore[no-untyped-def]
        if self.at_start:
            self.post_message(self.WindowWanted(-1))


class SectionView(Vertical):
    """One window of one section: header, Markdown text, the find bar and the window position."""

    class FindAsked(Message):
        """The find bar was submitted with `term`."""

        def __init__(self, term: str) -> None:
            super().__init__()
            self.term = term

    def compose(self) -> ComposeResult:
        """Header, text, find bar, status."""
        yield Static("", id="section-header", markup=False)
        with TextScroll(id="text"):
            # The Markdown widget (and markdown-it) load after the first frame: see `_markdown`.
            yield Static("", id="placeholder", markup=False)
        yield FindBar(placeholder="find in this clause (enter: find · esc: close)", id="find-bar")
        yield Static("", id="section-status", markup=False)

    def on_mount(self) -> None:
        """The find bar shows only when asked for."""
        self.query_one(FindBar).display = False
        self._status = ""
        self._find_note = ""

    def placeholder(self, title: str, body: str) -> None:
        """A line of plain text before the Markdown widget is there (the first frame)."""
        self.query_one("#section-header", Static).update(title)
        if self.query("#placeholder"):
            self.query_one("#placeholder", Static).update(body)

    async def _markdown(self) -> Widget:
        """The Markdown widget, mounted on first use (its import costs ~0.15 s the first screen can do without)."""
        found = self.query("#markdown")
        if found:
            return found.first()
        from normcli.tui.widgets.markdown import NormMarkdown

        widget = NormMarkdown("", id="markdown", open_links=False)
        text = self.query_one(TextScroll)
        await text.mount(widget)
        for placeholder in self.query("#placeholder"):
            await placeholder.remove()
        return widget

    async def show_message(self, title: str, body: str) -> None:
        """A page that is not a section (the welcome page, a norm's contents, an error)."""
        self.query_one("#section-header", Static).update(title)
        self._status, self._find_note = "", ""
        self._show_status()
        await (await self._markdown()).update(body)  # type: ignore[attr-defined]

    def mark(self, section: r.SectionResult, published: bool, bookmarked: bool) -> None:
        """The header line, with a star when the clause is bookmarked."""
        self.query_one("#section-header", Static).update(header_line(section, published) + ("  ★" if bookmarked else ""))

    def note_find(self, text: str) -> None:
        """Say where the find stands, after the window's position."""
        self._find_note = text
        self._show_status()

    def _show_status(self) -> None:
        status = " · ".join(part for part in (self._status, self._find_note) if part)
        self.query_one("#section-status", Static).update(status)

    async def show(
        self,
        section: r.SectionResult,
        published: bool = True,
        from_end: bool = False,
        bookmarked: bool = False,
        scroll: float = 0.0,
        markdown: str | None = None,
    ) -> None:
        """Put one window on screen: its top, its end (`from_end`) or `scroll` lines down; wait for the frame.
        `markdown` is the window already made ready (`reader_markdown`), when a worker did it."""
        self.mark(section, published, bookmarked)
        self._status = window_status(section)
        self._show_status()
        text = self.query_one(TextScroll)
        with self.app.batch_update():
            await (await self._markdown()).update(reader_markdown(section) if markdown is None else markdown)  # type: ignore[attr-defined]
            if from_end:
                text.scroll_end(animate=False, immediate=True)
            else:
                text.scroll_home(animate=False, immediate=True)
        if scroll and not from_end:  # once the new text is laid out, where the reader was (history)
            self.call_after_refresh(text.scroll_to, y=scroll, animate=False, immediate=True)
        painted: asyncio.Future[None] = asyncio.get_running_loop().create_future()

        def on_screen() -> None:
            if not painted.done():
                painted.set_result(None)

        self.call_after_refresh(on_screen)
        await painted  # up to the frame on screen, not just the widgets mounted

    def highlight(self, term: str | None, current: int = -1) -> int:
        """Mark every occurrence of `term` in the window; the `current`-th (in reading order) stands out and is
        scrolled into view. Returns how many occurrences the window shows."""
        if not self.query("#markdown"):
            return 0
        count, target = self.query_one("#markdown").highlight(fold_chars(term.strip()) if term else "", current)  # type: ignore[attr-defined]
        if target is not None:
            self.call_after_refresh(self._bring_into_view, *target)
        return int(count)

    def _bring_into_view(self, block: Widget, position: int, length: int) -> None:
        """Scroll so that the line holding the match sits a third of the way down the text."""
        text = self.query_one(TextScroll)
        text.scroll_to_widget(block, animate=False, top=True, immediate=True)
        line = int(block.size.height * position / length)
        text.scroll_to(y=max(0, text.scroll_y + line - text.size.height // 3), animate=False, immediate=True)

    def open_find(self, term: str = "") -> None:
        """Show the find bar, holding `term`, and put the keyboard in it."""
        bar = self.query_one(FindBar)
        bar.display = True
        if term:
            bar.value = term
        bar.focus()

    @on(Input.Submitted, "#find-bar")
    def _find_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if event.value.strip():
            self.post_message(self.FindAsked(event.value.strip()))
        self.query_one(TextScroll).focus()


class FindBar(Input):
    """The one-line find box under the text; escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close", tooltip="close the find bar")]
    """Escape closes the bar and returns to the text."""

    def action_close(self) -> None:
        """Hide the bar; the keyboard goes back to the text."""
        self.display = False
        self.screen.query_one(TextScroll).focus()
