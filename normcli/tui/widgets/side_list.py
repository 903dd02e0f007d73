"""The side list: the section's figures, cross-references and subclauses, each opened with enter."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from normcli import results as r
from normcli.render import formulas_to_unicode
from normcli.tui.library import Children, Location
from normcli.tui.text import ref_label


class SideList(OptionList):
    """Figures, tables, references and subclauses of the section being read (or a norm's chapters)."""

    class RefChosen(Message):
        """Enter on a cross-reference."""

        def __init__(self, ref: r.ResolvedRef) -> None:
            super().__init__()
            self.ref = ref

    class FigureChosen(Message):
        """Enter on a figure."""

        def __init__(self, figure: r.FigureRef) -> None:
            super().__init__()
            self.figure = figure

    class TableChosen(Message):
        """Enter on a table."""

        def __init__(self, table: r.TableRef) -> None:
            super().__init__()
            self.table = table

    class ClauseChosen(Message):
        """Enter on a chapter of a norm's contents page."""

        def __init__(self, location: Location) -> None:
            super().__init__()
            self.location = location

    class ChildChosen(Message):
        """Enter on a subclause."""

        def __init__(self, child: r.ChildRef) -> None:
            super().__init__()
            self.child = child

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._targets: dict[str, object] = {}
        self._listed_clause: tuple[str, str, str | None, str] | None = None  # the clause whose list is shown

    def show(self, section: r.SectionResult) -> bool:
        """List the section's figures, its references (deduplicated, the resolvable first) and its subclauses.

        Returns whether there was anything to list. The list is the whole clause's, the same in every window:
        paging to another window of the clause on the list keeps it (a 1 MB clause lists hundreds).
        """
        clause = (section.edition.code, section.edition.edition, section.edition.language, section.path)
        if clause == self._listed_clause:
            return self.option_count > 0
        self._listed_clause = clause
        self.clear_options()
        self._targets.clear()
        options: list[Option | None] = []

        def heading(title: str) -> None:
            if options:
                options.append(None)
            options.append(Option(Text(title, style="bold underline"), disabled=True))

        if section.figures:
            heading("Figures")
            for number, figure in enumerate(section.figures):
                key = f"fig-{number}"
                self._targets[key] = figure
                options.append(Option(Text("🖼 " + figure.caption), id=key))
        if section.tables:
            heading("Tables")
            for number, table in enumerate(section.tables):
                key = f"table-{number}"
                self._targets[key] = table
                options.append(Option(Text("▦ " + formulas_to_unicode(table.caption or f"Table {number + 1}")), id=key))
        unique = {(ref.text, ref.target_code, ref.target_path): ref for ref in reversed(section.cross_refs)}
        refs = [ref for ref in section.cross_refs if unique.get((ref.text, ref.target_code, ref.target_path)) is ref]
        if refs:
            heading(f"References ({len(refs)})")  # the whole clause's, in every window (SPEC §6)
            for number, ref in enumerate(refs):
                key = f"ref-{number}"
                self._targets[key] = ref
                options.append(Option(Text(ref_label(ref), style="" if ref.resolvable else "dim"), id=key))
        if section.children:
            heading("Subclauses")
            for number, child in enumerate(section.children):
                key = f"child-{number}"
                self._targets[key] = child
                label = Text(child.path, style="bold")
                if child.title != child.path:
                    label.append(" " + formulas_to_unicode(child.title))
                options.append(Option(label, id=key))
        if not options:
            options.append(Option(Text("No figures, references or subclauses", style="dim"), disabled=True))
        self.add_options(options)
        first = next((index for index, option in enumerate(self.options) if not option.disabled), None)
        self.highlighted = first
        return first is not None

    def show_chapters(self, edition: r.Edition, chapters: Children) -> bool:
        """List a norm's chapters (its contents page); returns whether there was any."""
        self._listed_clause = None
        self.clear_options()
        self._targets.clear()
        options: list[Option | None] = [Option(Text("Chapters", style="bold underline"), disabled=True)]
        for number, (node, _) in enumerate(chapters.nodes):
            key = f"chapter-{number}"
            self._targets[key] = Location(edition.code, node.path, edition.edition, edition.language)
            label = Text(node.path, style="bold")
            if node.title != node.path:
                label.append(" " + formulas_to_unicode(node.title))
            options.append(Option(label, id=key))
        self.add_options(options)
        self.highlighted = 1 if chapters.nodes else None
        return bool(chapters.nodes)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Turn the chosen line into the message for what it stands for."""
        event.stop()
        target = self._targets.get(event.option.id or "")
        if isinstance(target, r.ResolvedRef):
            self.post_message(self.RefChosen(target))
        elif isinstance(target, r.FigureRef):
            self.post_message(self.FigureChosen(target))
        elif isinstance(target, r.ChildRef):
            self.post_message(self.ChildChosen(target))
        elif isinstance(target, r.TableRef):
            self.post_message(self.TableChosen(target))
        elif isinstance(target, Location):
            self.post_message(self.ClauseChosen(target))
