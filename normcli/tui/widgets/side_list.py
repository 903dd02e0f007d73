"""The side list: the section's figures, cross-references and subclauses, each opened with enter."""

from __future__ import annotations

from rich.text import Text
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from normcli import results as r
from normcli.tui.text import ref_label


class SideList(OptionList):
    """Figures, references and subclauses of the section being read."""

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

    class ChildChosen(Message):
        """Enter on a subclause."""

        def __init__(self, child: r.ChildRef) -> None:
            super().__init__()
            self.child = child

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._targets: dict[str, object] = {}

    def show(self, section: r.SectionResult) -> bool:
        """List the section's figures, its references (deduplicated, the resolvable first) and its subclauses.

        Returns whether there was anything to list.
        """
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
                    label.append(" " + child.title)
                options.append(Option(label, id=key))
        if not options:
            options.append(Option(Text("No figures, references or subclauses", style="dim"), disabled=True))
        self.add_options(options)
        first = next((index for index, option in enumerate(self.options) if not option.disabled), None)
        self.highlighted = first
        return first is not None

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
