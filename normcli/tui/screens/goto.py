"""The `g` dialog: type a clause number (or `SIA 260 4.4.3`) and go there."""

from __future__ import annotations

import re
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from normcli.labels import ANNEX_HEADING_LABEL, CLAUSE_LABEL, CLAUSE_NUMBER, clause_number
from normcli.tui.library import Location

_WITH_CODE = re.compile(rf"^(?P<code>.*?[A-Za-z].*?)[,\s]+(?:§+\s*|{CLAUSE_LABEL}\s+)?(?P<path>{CLAUSE_NUMBER})$")


def parse_target(text: str, current: Location | None) -> Location | None:
    """`4.2.1` in the current norm, or `SIA 260, 4.4.3` / `SIA 261:2014 4.2` in another one."""
    text = text.strip()
    if not text:
        return None
    match = _WITH_CODE.match(text)
    # `Annex A` or `chapitre 4` alone is a clause of the current norm, not a clause of a norm named `Annex`.
    if match and not re.fullmatch(rf"{ANNEX_HEADING_LABEL}|{CLAUSE_LABEL}|§+", match.group("code").strip().rstrip(",")):
        code = match.group("code").strip().rstrip(",")
        edition = None
        if ":" in code:
            code, _, edition = code.rpartition(":")
        return Location(code.strip(), match.group("path"), edition or None)
    if current is None:
        return None
    return Location(current.code, clause_number(text) or text, current.edition, current.language)


class GotoScreen(ModalScreen[Location | None]):
    """Asks for a clause number and answers with the place to open."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "dismiss_none", "Close")]
    """Escape closes without going anywhere."""

    def __init__(self, current: Location | None) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        """A one-line dialog."""
        with Vertical(id="goto-dialog", classes="dialog"):
            where = f" in {self.current.code}" if self.current else ""
            yield Label(f"Go to clause{where} (or 'SIA 260 4.4.3'):")
            yield Input(placeholder="4.2.1", id="goto-input")

    def on_mount(self) -> None:
        """Type straight away."""
        self.query_one(Input).focus()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        target = parse_target(event.value, self.current)
        if target is None:
            hint = (
                "Type a clause number such as 4.2.1" if self.current else "No norm is open: type a norm and a clause, such as SIA 261 4.2.1"
            )
            self.notify(hint, severity="warning")
            return
        self.dismiss(target)

    def action_dismiss_none(self) -> None:
        """Close without going anywhere."""
        self.dismiss(None)
