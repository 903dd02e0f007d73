"""The table viewer: one table of a clause at full width, scrolled both ways, copied as Markdown or CSV."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Static

from normcli import results as r
from normcli.errors import NormcliError
from normcli.render import formulas_to_unicode
from normcli.tui.errors import ReportsWorkerErrors
from normcli.tui.library import Location
from normcli.tui.widgets.key_bar import KeyBar

_RULE = re.compile(r"^\|?\s*:?-{1,}:?\s*(\|\s*:?-{1,}:?\s*)*\|?\s*$")


@dataclass(frozen=True)
class PipeTable:
    """A pipe table as written in the clause: its Markdown, header cells and rows."""

    markdown: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]

    def csv(self) -> str:
        """The table as CSV (header first), for a spreadsheet."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.headers)
        writer.writerows(self.rows)
        return out.getvalue()


def split_row(line: str) -> tuple[str, ...]:
    """The cells of one pipe-table line (`\\|` is a pipe inside a cell)."""
    line = line.strip()
    if line.startswith("|"):
        line = line[1:]
    if line.endswith("|") and not line.endswith("\\|"):
        line = line[:-1]
    return tuple(cell.strip().replace("\\|", "|") for cell in re.split(r"(?<!\\)\|", line))


def pipe_tables(text: str) -> list[PipeTable]:
    """Every pipe table of a clause's text, in order: a `|` line followed by a rule line starts one (as the index reads them)."""
    lines = text.splitlines()
    found: list[PipeTable] = []
    index = 0
    while index < len(lines):
        if lines[index].strip().startswith("|") and index + 1 < len(lines) and _RULE.match(lines[index + 1].strip()):
            end = index + 2
            while end < len(lines) and lines[end].strip().startswith("|"):
                end += 1
            headers = split_row(lines[index])
            rows = tuple(_fit(split_row(line), len(headers)) for line in lines[index + 2 : end])
            found.append(PipeTable("\n".join(lines[index:end]), headers, rows))
            index = end
            continue
        index += 1
    return found


def _fit(cells: tuple[str, ...], width: int) -> tuple[str, ...]:
    return (cells + ("",) * width)[:width] if len(cells) != width else cells


class TableScreen(ReportsWorkerErrors, Screen[None]):
    """One table at full width: arrows and the mouse scroll it both ways; n / p walk the clause's tables."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", "Back", tooltip="back to the text"),
        Binding("n", "walk(1)", "Next table", tooltip="the clause's next table"),
        Binding("p", "walk(-1)", "Prev table", tooltip="the clause's previous table"),
        Binding("m", "copy('markdown')", "Copy Markdown", tooltip="copy the table as a Markdown pipe table (OSC 52)"),
        Binding("v", "copy('csv')", "Copy CSV", tooltip="copy the table as CSV (OSC 52)"),
    ]
    """Esc back; n / p walk the tables; m and v copy the table as Markdown or CSV."""

    def __init__(self, location: Location, tables: tuple[r.TableRef, ...], position: int) -> None:
        super().__init__()
        self.location = location
        self.tables = tables
        self.position = position
        self.parsed: list[PipeTable] = []

    def compose(self) -> ComposeResult:
        """Caption, grid, footer."""
        with Vertical(id="table-page"):
            yield Static("", id="table-caption", markup=False)
            yield DataTable(id="table-grid", zebra_stripes=True, cursor_type="cell")
        yield KeyBar()

    def on_mount(self) -> None:
        """Read the clause's tables in a worker."""
        self.query_one("#table-caption", Static).update("Reading the table…")
        self._read()

    @work(thread=True, exclusive=True, group="table", exit_on_error=False)
    def _read(self) -> None:
        """Each table of the clause through the `table` read; the clause's own pipe tables when it has none listed."""
        library = self.app.library  # type: ignore[attr-defined]
        try:
            parsed = []
            for ref in self.tables:
                table = library.table(self.location, ref.id)
                header, *rows = table.rows or ((),)
                parsed.append(PipeTable(table.markdown, tuple(header), tuple(_fit(tuple(row), len(header)) for row in rows)))
            if not parsed:
                parsed = pipe_tables(library.whole_text(self.location))
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        self.app.call_from_thread(self._show, parsed)

    def _show(self, parsed: list[PipeTable]) -> None:
        self.parsed = parsed
        self._fill()
        self.query_one(DataTable).focus()

    @property
    def table(self) -> PipeTable | None:
        """The table on screen."""
        return self.parsed[self.position] if 0 <= self.position < len(self.parsed) else None

    def _fill(self) -> None:
        grid = self.query_one(DataTable)
        grid.clear(columns=True)
        table = self.table
        ref = self.tables[self.position] if self.position < len(self.tables) else None
        caption = formulas_to_unicode(ref.caption) if ref and ref.caption else f"Table {self.position + 1}"
        where = f"{self.location.code} {self.location.path}"
        count = max(len(self.tables), len(self.parsed))
        line = f"{caption}  ·  {where}  ·  table {self.position + 1} of {count}"
        if table is None:
            self.query_one("#table-caption", Static).update(f"{line}  ·  not found in the text")
            return
        self.query_one("#table-caption", Static).update(f"{line}  ·  {len(table.rows)} rows × {len(table.headers)} columns")
        # Text, not str: a cell such as "[m]" is a unit, not markup.
        grid.add_columns(*(Text(formulas_to_unicode(header) or " ") for header in table.headers))
        grid.add_rows([tuple(Text(formulas_to_unicode(cell)) for cell in row) for row in table.rows])

    def action_walk(self, step: int) -> None:
        """The next (1) or previous (-1) table of the clause."""
        count = max(len(self.tables), len(self.parsed))
        if count < 2:
            self.notify("This clause has one table")
            return
        self.position = (self.position + step) % count
        self._fill()

    def action_copy(self, kind: str) -> None:
        """Copy the table as Markdown or CSV."""
        table = self.table
        if table is None:
            return
        self.app.copy_to_clipboard(table.markdown + "\n" if kind == "markdown" else table.csv())
        self.notify(f"Copied the table as {'Markdown' if kind == 'markdown' else 'CSV'} ({len(table.rows)} rows)", title="Table")

    def action_close(self) -> None:
        """Back to the reader."""
        self.dismiss(None)
