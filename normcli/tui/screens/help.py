"""The `?` screen: every key of the reader, taken from the BINDINGS lists so it never goes stale."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Markdown

EXTRA_KEYS = (
    ("Tree", "up/down move · right/enter open · left close · enter on a clause reads it"),
    ("Text", "PgDn/space/↓ at the end: next window · PgUp/↑ at the start: previous window · click a link to follow it"),
    ("Side list", "enter follows a reference, opens a figure or a subclause"),
    ("Search", "type to search · ↓ into the hits · enter opens · a clause number + enter jumps there"),
    ("Command palette", "ctrl+p: go to a clause by number or title, switch theme, every action"),
)


def key_table(bindings: list[Binding]) -> str:
    """A Markdown table of keys and what they do."""
    rows = ["| key | does |", "|---|---|"]
    for binding in bindings:
        keys = ", ".join(_pretty(key) for key in binding.key.split(","))
        rows.append(f"| `{keys}` | {binding.description or binding.action} |")
    return "\n".join(rows)


def _pretty(key: str) -> str:
    names = {"left_square_bracket": "[", "right_square_bracket": "]", "question_mark": "?", "slash": "/"}
    return names.get(key.strip(), key.strip())


class HelpScreen(ModalScreen[None]):
    """All key bindings of the reader."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,question_mark,q", "dismiss_help", "Close")]
    """Escape or ? closes the help."""

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        """The key table and a few words on the other widgets."""
        extra = "\n".join(f"- **{where}**: {what}" for where, what in EXTRA_KEYS)
        with Vertical(id="help-dialog", classes="dialog"):
            yield Label("Keys  (esc closes)")
            with VerticalScroll(id="help-scroll"):
                yield Markdown(f"{key_table(self.bindings)}\n\n{extra}\n")

    def action_dismiss_help(self) -> None:
        """Close the help."""
        self.dismiss(None)
