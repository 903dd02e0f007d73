"""The reader: the norm tree on the left, one window of a section on the right, its references beside it."""

from __future__ import annotations

from dataclasses import replace
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Markdown
from textual.worker import get_current_worker

from normcli import results as r
from normcli.errors import NormcliError, NotFound
from normcli.fold import path_key
from normcli.tui.bookmarks import Bookmark
from normcli.tui.errors import ReportsWorkerErrors
from normcli.tui.history import History
from normcli.tui.library import Location, Reading
from normcli.tui.widgets.norm_tree import NormTree
from normcli.tui.widgets.section_view import SectionView, TextScroll
from normcli.tui.widgets.side_list import SideList


class ReaderScreen(ReportsWorkerErrors, Screen[None]):
    """Reads one clause at a time; every key of the reader lives here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right_square_bracket", "neighbour(1)", "Next", tooltip="next clause in reading order"),
        Binding("left_square_bracket", "neighbour(-1)", "Prev", tooltip="previous clause in reading order"),
        Binding("u", "parent", "Up", tooltip="up to the parent clause"),
        Binding("g", "goto", "Go to", tooltip="go to a clause number (4.2.1, or 'SIA 260 4.4.3' in another norm)"),
        Binding("slash", "search(False)", "Search", tooltip="search in this norm; a clause number + enter jumps there"),
        Binding("ctrl+f", "search(True)", "All norms", tooltip="search all norms, hits grouped by norm"),
        Binding("backspace,alt+left", "back", "Back", tooltip="back in the history"),
        Binding("alt+right", "forward", "Forward", show=False, tooltip="forward in the history"),
        Binding("e", "switch_edition", "Edition", tooltip="the same clause in the next edition (drafts included)"),
        Binding("l", "switch_language", "Language", tooltip="the same clause in the next language version"),
        Binding("f", "figure", "Figure", tooltip="the clause's figures, full-size where the terminal can draw them"),
        Binding("c", "cite", "Cite", tooltip="copy the citation [SIA 261:2020, 4.2.1, p. 17] (OSC 52)"),
        Binding("y", "copy_text", "Copy text", show=False, tooltip="copy the whole text of the clause"),
        Binding("b", "bookmark", "Bookmark", tooltip="bookmark the clause (again: remove the bookmark)"),
        Binding("B", "bookmarks", "Bookmarks", show=False, tooltip="the bookmarks of this workspace"),
        Binding("r", "focus_side", "Refs", show=False, tooltip="into the list of figures, references and subclauses"),
        Binding("t", "toggle_tree", "Tree", show=False, tooltip="hide or show the tree"),
        Binding("question_mark", "help", "Keys", tooltip="this list"),
    ]
    """Walk (] [ u g), search (/ ctrl+f), history, editions and languages, figures, cite, bookmarks, help."""

    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-narrow"), (140, "-wide")]  # type: ignore[misc]

    def __init__(self, start: Location | None = None) -> None:
        super().__init__()
        self.start = start
        self.reading: Reading | None = None
        self.history = History()
        self.outline: tuple[tuple[str, str], ...] = ()
        self._outline_of: tuple[str, str, str] | None = None
        self._window_starts: list[int] = []

    def compose(self) -> ComposeResult:
        """Tree | text (+ side list)."""
        with Horizontal(id="panes"):
            yield NormTree(id="tree")
            with Vertical(id="reading"):
                yield SectionView(id="section")
                yield SideList(id="side")
        yield Footer()

    @property
    def location(self) -> Location | None:
        """Where the reader is."""
        return self.reading.location if self.reading else None

    def on_mount(self) -> None:
        """Show a placeholder at once, then open the workspace in a worker."""
        self.query_one(SectionView).show_message("normcli", "*Opening the workspace…*")
        self.call_after_refresh(self.app.mark, "first screen")  # type: ignore[attr-defined]
        self.query_one(SideList).display = False
        self._open_workspace()

    # -- opening ---------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _open_workspace(self) -> None:
        app = self.app
        try:
            library = app.library_or_open()  # type: ignore[attr-defined]
            norms = library.norms()
            app.mark("workspace open")  # type: ignore[attr-defined]
        except NormcliError as error:
            app.call_from_thread(self.query_one(SectionView).show_message, "normcli: the workspace cannot be read", error.one_line())
            return
        app.call_from_thread(self._show_norms, norms)
        if self.start is not None:
            self._load(self.start, True, False, None)
        else:
            app.call_from_thread(self._welcome, library.name, norms)

    def _show_norms(self, norms: r.NormsResult) -> None:
        self.query_one(NormTree).show_norms(norms)
        if self.start is None:
            self.query_one(NormTree).focus()

    def _welcome(self, name: str, norms: r.NormsResult) -> None:
        library = self.app.library  # type: ignore[attr-defined]
        lines = [f"Workspace **{name}**, {len(norms.norms)} norm{'s' if len(norms.norms) != 1 else ''}:", ""]
        if library is not None and library.service.is_sample:
            lines[0:0] = [
                f"*No workspace here, so this is the sample shipped with normcli ({library.root}); pass --workspace DIR or set NORMCLI_WORKSPACE.*",
                "",
            ]
        for norm in norms.norms:
            editions = ", ".join(f"{info.edition}{'' if info.published else ' (draft)'}" for info in norm.editions)
            lines.append(f"- **{norm.code}** {norm.title} · {editions}{' · fictional sample' if norm.demo else ''}")
        lines += [
            "",
            "Open a norm in the tree (↑ ↓, → or enter), or press **/** or **ctrl+f** to search, **g** to go to a clause,",
            "**?** for every key.",
        ]
        self.query_one(SectionView).show_message(f"normcli · {name}", "\n".join(lines))

    def open(self, location: Location, record: bool = True, note: str | None = None) -> None:
        """Read `location` (a new place in the history unless `record` is False)."""
        self._read(location, record, False, note)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _read(self, location: Location, record: bool, from_end: bool, note: str | None) -> None:
        """Fetch a section (and what the tree needs to follow it), then paint it."""
        self._load(location, record, from_end, note)

    def _load(self, location: Location, record: bool, from_end: bool, note: str | None) -> None:
        """The body of the reading workers (runs in a worker thread)."""
        library = self.app.library  # type: ignore[attr-defined]
        window = self.app.window_chars  # type: ignore[attr-defined]
        same = self.location is not None and location.offset and location.same_clause(self.location)
        try:
            reading = library.read(location, window, with_outline=not same)
        except NotFound as error:
            reading = self._fallback(location, error)
            if reading is None:
                return
            note = None
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._paint, reading, record, from_end, note)  # type: ignore[arg-type]  # an async callback is awaited

    def _fallback(self, location: Location, error: NotFound) -> Reading | None:
        """A clause missing from another edition: open the nearest clause it has (the heading above, else
        its first chapter: the first of the error's candidates) and say so."""
        library = self.app.library  # type: ignore[attr-defined]
        if self.location is not None and location.code == self.location.code and location.edition != self.location.edition:
            nearest = error.candidates[0] if error.what == "path" and error.candidates else ""
            try:
                reading = library.read(replace(location, path=nearest, offset=0), self.app.window_chars)  # type: ignore[attr-defined]
            except NormcliError:
                reading = None
            if reading is not None:
                above = bool(nearest) and path_key(location.path).startswith(path_key(nearest) + ".")
                where = f"{nearest}, the nearest heading above" if above else "its first chapter"
                self.app.call_from_thread(
                    self.notify, f"{location.code}:{location.edition} has no {location.path}; showing {where}", severity="warning"
                )
                return reading
        self.app.call_from_thread(self.notify, error.one_line(), severity="error")
        if self.reading is None:  # the clause asked for on the command line does not exist
            library = self.app.library  # type: ignore[attr-defined]
            self.app.call_from_thread(self._welcome, library.name, library.norms())
        return None

    async def _paint(self, reading: Reading, record: bool, from_end: bool, note: str | None) -> None:
        previous = self.reading
        self.reading = reading
        section = reading.section
        if not reading.location.same_clause(previous.location if previous else None):
            self._window_starts = []
        edition = reading.edition
        published = edition.published if edition else True
        bookmark = self._bookmark()
        bookmarked = bookmark is not None and self.app.bookmarks.has(bookmark)  # type: ignore[attr-defined]
        seconds = await self.query_one(SectionView).show(section, published, from_end, bookmarked)
        self.app.painted(seconds)  # type: ignore[attr-defined]
        self.app.mark(f"painted {section.edition.code} {section.path} @{section.offset} in {seconds * 1000:.0f} ms")  # type: ignore[attr-defined]
        side = self.query_one(SideList)
        listed = side.show(section)
        if side.has_focus and not listed:
            self.focus_text()
        side.display = listed  # no empty box: the text gets the room
        if reading.outline:
            self.query_one(NormTree).reveal(reading.location, reading.ancestors, reading.outline)
        if previous is None and self.start is not None:
            self.focus_text()
        if record or reading.location.same_clause(self.history.current):
            self.history.visit(reading.location)
        if section.requested_path:
            self.notify(
                f"{section.edition.code}:{section.edition.edition} has no {section.requested_path}; showing {section.path}, the nearest heading above"
            )
        if note:
            self.notify(note)
        self._refresh_outline(reading)

    @work(thread=True, exclusive=True, group="outline", exit_on_error=False)
    def _refresh_outline(self, reading: Reading) -> None:
        """Every clause of the edition being read, for the command palette's `go to`."""
        edition = reading.section.edition
        key = (edition.code, edition.edition, edition.language)
        if key == self._outline_of:
            return
        try:
            self.outline = self.app.library.outline(edition.code, edition.edition, edition.language)  # type: ignore[attr-defined]
            self._outline_of = key
        except NormcliError:
            self.outline = ()

    # -- messages from the widgets -----------------------------------------------------------

    @on(NormTree.ClauseChosen)
    def _tree_chose(self, event: NormTree.ClauseChosen) -> None:
        self.open(event.location)

    @on(TextScroll.WindowWanted)
    def _window_wanted(self, event: TextScroll.WindowWanted) -> None:
        if self.reading is None:
            return
        section = self.reading.section
        if event.step > 0 and section.next_offset is not None:
            self._window_starts.append(section.offset)
            self._read(self.reading.location.at(section.next_offset), False, False, None)
        elif event.step < 0 and section.offset > 0:
            previous = self._window_starts.pop() if self._window_starts else 0
            self._read(self.reading.location.at(previous), False, True, None)

    @on(SideList.RefChosen)
    def _ref_chosen(self, event: SideList.RefChosen) -> None:
        self.follow(event.ref)

    @on(SideList.FigureChosen)
    def _figure_chosen(self, event: SideList.FigureChosen) -> None:
        self._show_figure(event.figure.id)

    @on(SideList.ChildChosen)
    def _child_chosen(self, event: SideList.ChildChosen) -> None:
        if self.location is not None:
            self.open(Location(self.location.code, event.child.path, self.location.edition, self.location.language))

    @on(Markdown.LinkClicked)
    def _link_clicked(self, event: Markdown.LinkClicked) -> None:
        event.stop()
        self.follow_link(event.href)

    def follow_link(self, href: str) -> None:
        """Follow a link of the text: a reference, a figure, a clause of this or another norm, or a web address."""
        if self.reading is None:
            return
        section, here = self.reading.section, self.reading.location
        if href.startswith("ref:") and href[4:].isdigit() and int(href[4:]) < len(section.cross_refs):
            self.follow(section.cross_refs[int(href[4:])])
        elif href.startswith("fig:"):
            self._show_figure(href[4:])
        elif href.startswith("#"):
            self.open(Location(here.code, href[1:], here.edition, here.language))
        elif href.startswith("norm:"):
            code, _, path = href[5:].partition("#")
            self.open(Location(code, path))
        elif href.startswith(("http://", "https://")):
            self.app.open_url(href)
            self.notify(f"Opened {href} in the browser")
        else:
            self.notify(f"Cannot follow the link {href}", severity="warning")

    def follow(self, ref: r.ResolvedRef) -> None:
        """Open where a cross-reference leads, or say why it leads nowhere."""
        if self.reading is None:
            return
        here = self.reading.location
        if not ref.resolvable:
            self.notify(self.app.library.why_unresolvable(ref), title=ref.text, severity="warning")  # type: ignore[attr-defined]
            return
        code = ref.target_code or here.code
        edition = ref.target_edition if not ref.internal else here.edition
        language = here.language if ref.internal else None
        if ref.target_kind == "figure" and ref.target_path:
            figures = self.reading.section.figures
            if any(figure.id == ref.target_path for figure in figures) and ref.internal:
                self._show_figure(ref.target_path)
            else:
                figure = r.FigureRef(ref.target_path, None, ref.target_title or ref.text)
                self.app.push_screen(self._figure_screen(Location(code, here.path, edition, language), (figure,), 0))
            return
        if ref.target_kind == "table":
            if ref.internal and any(table.id == ref.target_path for table in self.reading.section.tables):
                self.notify(f"{ref.target_title or ref.text} is in this clause", title=ref.text)
                return
            self._open_table(Location(code, "", edition, language), ref.target_title or ref.text)
            return
        path = "" if ref.target_kind == "norm" else ref.target_path or ""
        self.open(Location(code, path, edition, language))

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _open_table(self, where: Location, caption: str) -> None:
        library = self.app.library  # type: ignore[attr-defined]
        path = library.table_clause(where, caption)
        if path is None:
            self.app.call_from_thread(self.notify, f"Cannot find the clause holding “{caption}”", severity="warning")
            return
        self._load(replace(where, path=path), True, False, f"{caption}")

    # -- actions -----------------------------------------------------------------------------

    def _need_reading(self) -> Reading | None:
        if self.reading is None:
            self.notify("Open a clause first (tree, / or g)", severity="warning")
        return self.reading

    def action_neighbour(self, step: int) -> None:
        """The next (1) or previous (-1) clause in reading order."""
        if self._need_reading() is not None:
            self._walk(step)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _walk(self, step: int) -> None:
        here = self.location
        if here is None:
            return
        try:
            neighbour = self.app.library.neighbour(here, step)  # type: ignore[attr-defined]
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        if neighbour is None:
            self.app.call_from_thread(self.notify, "This is the last clause" if step > 0 else "This is the first clause")
            return
        self._load(Location(here.code, neighbour.path, here.edition, here.language), True, False, None)

    def action_parent(self) -> None:
        """Up to the parent clause."""
        reading = self._need_reading()
        if reading is None:
            return
        parent = reading.section.parent_path
        if parent is None:
            self.notify(f"{reading.section.path} is a chapter: there is nothing above it")
            return
        self.open(replace(reading.location, path=parent, offset=0))

    def action_goto(self) -> None:
        """Ask for a clause number and go there."""
        from normcli.tui.screens.goto import GotoScreen

        self.app.push_screen(GotoScreen(self.location), self._went)

    def _went(self, target: Location | None) -> None:
        if target is not None:
            self.open(target)

    def action_search(self, corpus: bool) -> None:
        """Search the norm being read (or every norm)."""
        from normcli.tui.screens.search import SearchScreen

        self.app.push_screen(SearchScreen(self.location, corpus), self._went)

    def action_back(self) -> None:
        """Back in the history."""
        place = self.history.back()
        if place is None:
            self.notify("Nothing further back")
        else:
            self.open(place, record=False)

    def action_forward(self) -> None:
        """Forward in the history."""
        place = self.history.forward()
        if place is None:
            self.notify("Nothing further forward")
        else:
            self.open(place, record=False)

    def action_switch_edition(self) -> None:
        """The same clause in the next edition of this norm (newest first, drafts included)."""
        reading = self._need_reading()
        if reading is None:
            return
        names = [info.edition for info in reading.editions]
        if len(names) < 2:
            self.notify(f"{reading.section.edition.code} has only one edition in this workspace")
            return
        current = reading.section.edition.edition
        target = names[(names.index(current) + 1) % len(names)] if current in names else names[0]
        info = next(info for info in reading.editions if info.edition == target)
        language = reading.location.language if reading.location.language in info.languages else None
        note = f"Edition {target}{' (draft)' if not info.published else ''}"
        self.open(Location(reading.location.code, reading.section.path, target, language), note=note)

    def action_switch_language(self) -> None:
        """The same clause in the next language version of this edition."""
        reading = self._need_reading()
        if reading is None:
            return
        languages = reading.section.edition.languages
        if len(languages) < 2:
            self.notify(f"{reading.section.edition.code}:{reading.section.edition.edition} has one language only ({', '.join(languages)})")
            return
        current = reading.section.edition.language
        target = languages[(languages.index(current) + 1) % len(languages)] if current in languages else languages[0]
        self.open(replace(reading.location, language=target, offset=0), note=f"Language: {target}")

    def action_figure(self) -> None:
        """Show the section's first figure full-size (n/p walk the others)."""
        reading = self._need_reading()
        if reading is None:
            return
        if not reading.section.figures:
            self.notify(f"{reading.section.path} has no figures")
            return
        self._show_figure(reading.section.figures[0].id)

    def _show_figure(self, figure_id: str) -> None:
        if self.reading is None:
            return
        figures = self.reading.section.figures
        position = next((number for number, figure in enumerate(figures) if figure.id == figure_id), None)
        if position is None:
            figures, position = (r.FigureRef(figure_id, None, figure_id),), 0
        self.app.push_screen(self._figure_screen(self.reading.location, figures, position))

    @staticmethod
    def _figure_screen(location: Location, figures: tuple[r.FigureRef, ...], position: int) -> Screen[None]:
        from normcli.tui.screens.figure import FigureScreen

        return FigureScreen(location, figures, position)

    def action_cite(self) -> None:
        """Copy `[SIA 261:2020, 4.2.1, p. 22]` to the clipboard."""
        reading = self._need_reading()
        if reading is None:
            return
        text = reading.section.citation
        self.app.copy_to_clipboard(text)
        self.notify(f"Copied {text}", title="Citation")

    def action_copy_text(self) -> None:
        """Copy the whole text of the section (every window), headed by its citation."""
        if self._need_reading() is not None:
            self._copy_text()

    @work(thread=True, exclusive=True, group="copy", exit_on_error=False)
    def _copy_text(self) -> None:
        reading = self.reading
        if reading is None:
            return
        try:
            text = self.app.library.whole_text(reading.location)  # type: ignore[attr-defined]
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        section = reading.section
        cite = section.citation
        heading = f"{section.path} {section.title}" if section.title != section.path else section.path
        self.app.call_from_thread(self.app.copy_to_clipboard, f"{cite}\n{heading}\n\n{text.strip()}\n")
        self.app.call_from_thread(self.notify, f"Copied the text of {section.path} ({len(text):,} characters)", title="Section text")

    def _bookmark(self) -> Bookmark | None:
        if self.reading is None:
            return None
        section = self.reading.section
        edition = section.edition
        root = str(self.app.library.root)  # type: ignore[attr-defined]
        return Bookmark(root, edition.code, edition.edition, edition.language, section.path, section.title, section.page_start)

    def action_bookmark(self) -> None:
        """Bookmark the clause being read (or remove its bookmark)."""
        if self._need_reading() is None:
            return
        bookmark = self._bookmark()
        assert bookmark is not None
        added = self.app.bookmarks.toggle(bookmark)  # type: ignore[attr-defined]
        reading = self.reading
        assert reading is not None
        self.query_one(SectionView).mark(reading.section, reading.edition.published if reading.edition else True, added)
        self.notify(f"{'Bookmarked' if added else 'Bookmark removed:'} {bookmark.code} {bookmark.path}", title="Bookmarks")

    def action_bookmarks(self) -> None:
        """The list of bookmarks of this workspace."""
        from normcli.tui.screens.bookmarks import BookmarksScreen

        library = getattr(self.app, "library", None)
        if library is None:
            return
        self.app.push_screen(BookmarksScreen(self.app.bookmarks, str(library.root)), self._went)  # type: ignore[attr-defined]

    def action_focus_side(self) -> None:
        """Move into the list of figures, references and subclauses."""
        side = self.query_one(SideList)
        if side.display:
            side.focus()
        elif self.reading is not None:
            self.notify(f"{self.reading.section.path} has no figures, references or subclauses")

    def action_toggle_tree(self) -> None:
        """Hide or show the tree (more room for the text on a narrow terminal)."""
        tree = self.query_one(NormTree)
        tree.display = not tree.display
        if not tree.display and tree.has_focus:
            self.query_one(TextScroll).focus()

    def action_help(self) -> None:
        """Every key binding."""
        from normcli.tui.screens.help import HelpScreen

        bindings = [*self.BINDINGS, *self.app.BINDINGS]
        self.app.push_screen(HelpScreen([binding for binding in bindings if isinstance(binding, Binding)]))

    def focus_text(self) -> None:
        """Put the keyboard on the text."""
        self.query_one(TextScroll).focus()
