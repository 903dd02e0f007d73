"""The "cited by" list: the clauses of this norm and of the others that refer to the clause being read."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from normcli.results import XrefsResult
from normcli.tui.library import Location


class CitedBy(OptionList):
    """Beside the references: who cites this clause, each line its citation; enter opens the citing clause."""

    # Laid out as the side list beside it: under the text on a narrow terminal, a column on a wide one.
    SCOPED_CSS = False
    DEFAULT_CSS = """
    CitedBy {
        height: 7;
        border: none;
        border-top: hkey $foreground 20%;
        padding: 0;
        scrollbar-size-vertical: 1;
    }
    CitedBy:focus {
        border: none;
        border-top: hkey $accent;
    }
    ReaderScreen.-wide CitedBy {
        height: 1fr;
        width: 40;
        border-top: none;
        border-left: vkey $foreground 20%;
    }
    ReaderScreen.-wide CitedBy:focus {
        border: none;
        border-left: vkey $accent;
    }
    """

    class Chosen(Message):
        """Enter on a citing clause."""

        def __init__(self, location: Location) -> None:
            super().__init__()
            self.location = location

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._places: dict[str, Location] = {}
        self.display = False  # shown on demand (`I`), so that the text keeps its room

    def show(self, result: XrefsResult | None, problem: str = "") -> None:
        """List the clauses that cite the one being read (or say why there are none)."""
        self.clear_options()
        self._places.clear()
        refs = result.incoming if result is not None else ()
        options: list[Option | None] = [Option(Text(f"Cited by ({len(refs)})", style="bold underline"), disabled=True)]
        for number, ref in enumerate(refs):
            key = f"cited-{number}"
            self._places[key] = Location(ref.source_code, ref.source_path, ref.source_edition, ref.source_language)
            label = Text(ref.citation, style="bold")
            label.append(f" {ref.source_title}")
            options.append(Option(label, id=key))
        if problem or not refs:
            options.append(Option(Text(problem or "No clause in this workspace refers to it", style="dim"), disabled=True))
        self.add_options(options)
        self.highlighted = 1 if refs else None

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Open the citing clause."""
        event.stop()
        place = self._places.get(event.option.id or "")
        if place is not None:
            self.post_message(self.Chosen(place))
