"""The Markdown widget of the reader: compact tables, plain code blocks, and find highlighting.

Imported after the first frame (markdown-it and Textual's Markdown widget cost ~0.15 s to import).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import ClassVar

from rich import box
from rich.console import Console, ConsoleOptions
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Markdown, Static
from textual.widgets._markdown import MarkdownBlock, MarkdownFence, MarkdownTable

from normcli.tui.find import fold_chars

FIND_STYLE = "black on yellow"
CURRENT_STYLE = "bold black on #ff8c00 underline"


class DrawnOnce:
    """A Rich renderable drawn once per width: Textual asks for it again on every layout and refresh,
    and a Rich table re-measures every cell each time (the main cost of a window full of tables)."""

    def __init__(self, renderable: Table) -> None:
        self.renderable = renderable
        self._lines: dict[int, list[list[Segment]]] = {}
        self._widths: dict[int, Measurement] = {}

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        """The table's width range, measured once per available width."""
        if options.max_width not in self._widths:
            self._widths[options.max_width] = Measurement.get(console, options, self.renderable)
        return self._widths[options.max_width]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        """The table's lines, drawn once per width."""
        if options.max_width not in self._lines:
            self._lines[options.max_width] = console.render_lines(self.renderable, options, pad=False)
        line_end = Segment.line()
        for line in self._lines[options.max_width]:
            yield from line
            yield line_end


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
        self._cells = ([header.plain for header in headers], [[cell.plain for cell in row] for row in rows])
        yield Static(DrawnOnce(self._table()), id="table")

    def _table(self, wanted: str = "", current: int = -1) -> Table:
        headers, rows = self._cells
        table = Table(box=box.SQUARE, header_style="bold", expand=False, pad_edge=True)
        count = 0

        def cell(value: str) -> Text:
            nonlocal count
            text = Text(value)
            if wanted:
                folded = fold_chars(value)
                position = folded.find(wanted)
                while position != -1:
                    text.stylize(CURRENT_STYLE if count == current else FIND_STYLE, position, position + len(wanted))
                    count += 1
                    position = folded.find(wanted, position + len(wanted))
            return text

        for header in headers:
            table.add_column(cell(header), overflow="fold")
        for row in rows:
            table.add_row(*(cell(value) for value in row))
        self._count = count
        return table

    def highlight(self, wanted: str, current: int) -> int:
        """Mark the folded `wanted` in the cells (the `current`-th stands out); how many there are."""
        if not wanted and not getattr(self, "_marked", False):
            return 0
        table = self._table(wanted, current)
        self._marked = bool(self._count)
        self.query_one("#table", Static).update(DrawnOnce(table))
        return self._count


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

    def highlight(self, wanted: str, current: int) -> tuple[int, tuple[Widget, int, int] | None]:
        """Mark the folded `wanted` in every block (the `current`-th stands out): how many, and where the current one is."""
        count = 0
        target: tuple[Widget, int, int] | None = None
        for block in self.query(MarkdownBlock):
            if isinstance(block, CompactTable):
                before = count
                count += block.highlight(wanted, current - count)
                if before <= current < count:
                    target = (block, 0, 1)
                continue
            original = block._content
            plain = original.plain
            if not plain:
                continue
            folded = fold_chars(plain) if wanted else ""
            positions = []
            position = folded.find(wanted) if wanted else -1
            while position != -1:
                positions.append(position)
                position = folded.find(wanted, position + len(wanted))
            if not positions and not getattr(block, "_highlighted", False):
                continue
            marked = original
            for position in positions:
                if count == current:
                    target = (block, position, max(1, len(plain)))
                marked = marked.stylize(CURRENT_STYLE if count == current else FIND_STYLE, position, position + len(wanted))
                count += 1
            block.update(marked)  # the block keeps its unmarked `_content` for the next find
            block._highlighted = bool(positions)  # type: ignore[attr-defined]
        return count, target
