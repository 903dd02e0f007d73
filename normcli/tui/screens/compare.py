"""The `d` screen: what changed in the clause being read since the previous edition, word by word."""

from __future__ import annotations

from typing import ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Markdown

from normcli import results as r
from normcli.errors import NormcliError


class CompareScreen(ModalScreen[None]):
    """The clause's diff against the edition before the one being read: added, removed, renumbered and changed
    subclauses, removed words struck through and added ones in bold."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,d,q", "close", "Close")]
    """Escape (or d again) closes."""

    def __init__(self, section: r.SectionResult) -> None:
        super().__init__()
        self.section = section

    def compose(self) -> ComposeResult:
        """A title and the diff as Markdown."""
        edition = self.section.edition
        with Vertical(id="compare-dialog", classes="dialog"):
            yield Label(f"What changed in {edition.code}:{edition.edition} {self.section.path}  (esc closes)", id="compare-title")
            with VerticalScroll(id="compare-scroll"):
                yield Markdown("*Comparing with the previous edition…*", id="compare-text")

    def on_mount(self) -> None:
        """Compare in a worker: a long clause takes a moment."""
        self._compare()

    @work(thread=True, exclusive=True, exit_on_error=False)
    def _compare(self) -> None:
        from normcli.lookups_render import diff_markdown
        from normcli.tui.lookups import diff_with_previous

        library = self.app.library  # type: ignore[attr-defined]
        try:
            result = diff_with_previous(library, self.section)
        except NormcliError as error:
            text = f"*{error.one_line()}*"
        else:
            edition = self.section.edition
            text = (
                f"*{edition.code} has no edition older than {edition.edition} in this workspace.*"
                if result is None
                else diff_markdown(result)
            )
        self.app.call_from_thread(self.query_one("#compare-text", Markdown).update, text)

    def action_close(self) -> None:
        """Back to the reader."""
        self.dismiss(None)
