"""The bookmarks dialog: the clauses bookmarked in this workspace; enter opens one, `d` forgets it."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from normcli.tui.bookmarks import Bookmark, Bookmarks
from normcli.tui.library import Location


class BookmarksScreen(ModalScreen[Location | None]):
    """Lists the bookmarks of the workspace being read."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,B", "dismiss_none", "Close"),
        Binding("d,delete", "forget", "Forget bookmark"),
    ]
    """Escape closes; d forgets the highlighted bookmark."""

    def __init__(self, store: Bookmarks, workspace: str) -> None:
        super().__init__()
        self.store = store
        self.workspace = workspace
        self._items: list[Bookmark] = []

    def compose(self) -> ComposeResult:
        """Title and list."""
        with Vertical(id="bookmarks-dialog", classes="dialog"):
            yield Label("Bookmarks  (enter: open · d: forget · esc: close)")
            yield OptionList(id="bookmark-list")

    def on_mount(self) -> None:
        """Fill the list and focus it."""
        self._refresh_list()
        self.query_one(OptionList).focus()

    def _refresh_list(self) -> None:
        self._items = self.store.of(self.workspace)
        listing = self.query_one(OptionList)
        listing.clear_options()
        if not self._items:
            listing.add_option(Option(Text("No bookmarks yet: press b on a clause to bookmark it.", style="italic"), disabled=True))
            return
        for number, item in enumerate(self._items):
            label = Text(f"{item.code}:{item.edition} ({item.language}) ", style="dim")
            label.append(item.path, style="bold")
            if item.title and item.title != item.path:
                label.append(" " + item.title)
            if item.page is not None:  # a document without printed pages is cited without one
                label.append(f"  p. {item.page}", style="dim")
            listing.add_option(Option(label, id=f"bookmark-{number}"))
        listing.highlighted = 0

    def _highlighted(self) -> Bookmark | None:
        listing = self.query_one(OptionList)
        if listing.highlighted is None or not self._items:
            return None
        return self._items[listing.highlighted]

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        item = self._highlighted()
        if item is not None:
            self.dismiss(Location(item.code, item.path, item.edition, item.language))

    def action_forget(self) -> None:
        """Forget the highlighted bookmark."""
        item = self._highlighted()
        if item is not None:
            self.store.remove(item)
            self.notify(f"Bookmark removed: {item.code} {item.path}")
            self._refresh_list()

    def action_dismiss_none(self) -> None:
        """Close without opening anything."""
        self.dismiss(None)
