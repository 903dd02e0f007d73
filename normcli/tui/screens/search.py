"""The search dialog: in the norm being read (`/`) or in the whole corpus (`ctrl+f`)."""

from __future__ import annotations

from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.worker import get_current_worker

from normcli.errors import NormcliError
from normcli.labels import clause_number
from normcli.tui.errors import ReportsWorkerErrors
from normcli.tui.library import Location
from normcli.tui.widgets.hit_list import HitList


class SearchScreen(ReportsWorkerErrors, ModalScreen[Location | None]):
    """A search box over a list of hits; enter opens the highlighted hit, or jumps to a typed clause number."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_none", "Close"),
        Binding("down", "to_hits", "Hits", show=False),
        Binding("ctrl+t", "toggle_scope", "Norm/corpus"),
    ]
    """Escape closes, down moves into the hits, ctrl+t switches between this norm and the corpus."""

    def __init__(self, location: Location | None, corpus: bool, query: str = "") -> None:
        super().__init__()
        self.location = location
        self.corpus = corpus or location is None
        self.query_text = query

    def compose(self) -> ComposeResult:
        """Title, input, hits."""
        with Vertical(id="search-dialog", classes="dialog"):
            yield Label(self._title(), id="search-title")
            yield Input(value=self.query_text, placeholder="words, or a clause number such as 4.2.1", id="search-input")
            yield HitList(id="hits")

    def _title(self) -> str:
        if self.corpus or self.location is None:
            return "Search all norms  (ctrl+t: this norm only)" if self.location else "Search all norms"
        return f"Search in {self.location.code}:{self.location.edition or ''}  (ctrl+t: all norms)"

    def on_mount(self) -> None:
        """Focus the box; search straight away when it already holds words."""
        self.query_one(Input).focus()
        if self.query_text.strip():
            self._search(self.query_text)

    @on(Input.Changed, "#search-input")
    def _changed(self, event: Input.Changed) -> None:
        value = event.value.strip()
        if value:
            self._search(value)

    @on(Input.Submitted, "#search-input")
    def _submitted(self, event: Input.Submitted) -> None:
        value = event.value.strip()
        if not value:
            return
        named = clause_number(value)  # `4.2.1`, `Annex A`, `chapitre 4`: go there rather than search
        if named and self.location is not None:
            self.dismiss(Location(self.location.code, named, self.location.edition, self.location.language))
            return
        hits = self.query_one(HitList)
        if hits.highlighted is not None and hits.count:
            option = hits.get_option_at_index(hits.highlighted)
            self.dismiss(hits.locations.get(option.id or ""))

    @on(OptionList.OptionSelected, "#hits")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(self.query_one(HitList).locations.get(event.option.id or ""))

    @work(thread=True, exclusive=True, group="search", exit_on_error=False)
    def _search(self, keyword: str) -> None:
        library = self.app.library  # type: ignore[attr-defined]
        hits = self.query_one(HitList)
        try:
            if self.corpus or self.location is None:
                result = library.corpus(keyword)
                if not get_current_worker().is_cancelled:  # a newer keystroke has its own search
                    self.app.call_from_thread(hits.show_corpus, result)
            else:
                found = library.search(self.location, keyword)
                if not get_current_worker().is_cancelled:
                    self.app.call_from_thread(hits.show_norm, found)
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="warning")

    def action_to_hits(self) -> None:
        """Move from the box into the hits."""
        self.query_one(HitList).focus()

    def action_toggle_scope(self) -> None:
        """Search this norm instead of all norms, or the other way round."""
        if self.location is None:
            return
        self.corpus = not self.corpus
        self.query_one("#search-title", Label).update(self._title())
        value = self.query_one(Input).value.strip()
        if value:
            self._search(value)

    def action_dismiss_none(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)
