"""The `?` screen: every key of the reader, taken from the BINDINGS lists so it never goes stale."""

from __future__ import annotations

from typing import ClassVar

from rich import box
from rich.table import Table
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Static

OTHER_KEYS = (
    ("Focus", "opening a clause (tree, g, search hit, link, reference, bookmark, back) puts the keyboard on the text"),
    (
        "Text",
        "PgDn / space and PgUp page through the whole clause, across windows, both ways · ↓ ↑ a line · home / end: start / end of the clause · click a link to follow it",
    ),
    ("Find", "f or ctrl+f, type, enter · n / N next and previous match (in any window) · esc closes the bar"),
    (
        "Tree",
        "↑ ↓ move · → open · ← close / parent · enter reads a clause; on a norm or edition: its contents page · < > or drag its edge to resize · t hides it",
    ),
    (
        "API specs",
        "a puts the tree on them (after the norms) · → opens a spec, a collection, a tag · enter on an endpoint: its page "
        "(parameters, responses, schemas: → or enter unfolds a property, ↻ marks a cycle) · backspace: back to the text",
    ),
    ("Side list", "r, then enter: follow a reference, open a figure, a table or a subclause"),
    ("Search", "type to search · ↓ into the hits · enter opens at the first match · ctrl+t: this norm / all norms"),
    ("Table", "arrows and the mouse scroll both ways · n / p next and previous table · m copy Markdown · v copy CSV · esc back"),
    ("Figure", "n / p next and previous figure · s save · o open in the system viewer · esc back"),
    ("Bookmarks", "enter opens · d forgets · esc closes"),
    ("Tab", "moves between the tree, the text and the side list"),
)

_KEY_NAMES = {
    "left_square_bracket": "[",
    "right_square_bracket": "]",
    "question_mark": "?",
    "slash": "/",
    "less_than_sign": "<",
    "greater_than_sign": ">",
}


def pretty_keys(binding: Binding) -> str:
    """`backspace, alt+left` for a binding's keys."""
    return ", ".join(_KEY_NAMES.get(key.strip(), key.strip()) for key in binding.key.split(","))


def key_table(bindings: list[Binding]) -> Table:
    """The keys and what they do, as one table."""
    table = Table(box=box.SIMPLE_HEAD, expand=True, show_edge=False, pad_edge=False)
    table.add_column("key", style="bold", no_wrap=True)
    table.add_column("does")
    for binding in bindings:
        table.add_row(pretty_keys(binding), binding.tooltip or binding.description or binding.action)
    table.add_section()
    for where, what in OTHER_KEYS:
        table.add_row(where, what)
    return table


class HelpScreen(ModalScreen[None]):
    """All key bindings of the reader."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "dismiss_help", "Close")]
    """Escape or ? closes the help."""

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        """The key table."""
        with Vertical(id="help-dialog", classes="dialog"):
            yield Label("Keys  (esc closes)", id="help-title")
            with VerticalScroll(id="help-scroll"):
                yield Static(key_table(self.bindings), id="help-keys")

    def action_dismiss_help(self) -> None:
        """Close the help."""
        self.dismiss(None)
