"""The reader: the norm tree on the left, one window of a section on the right, its references beside it."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import get_current_worker

from normcli import results as r
from normcli.errors import NormcliError, NotFound
from normcli.fold import path_key
from normcli.render import formulas_to_unicode
from normcli.tui.bookmarks import Bookmark
from normcli.tui.errors import ReportsWorkerErrors
from normcli.tui.find import Find, find_all
from normcli.tui.history import History
from normcli.tui.library import Children, Location, Reading
from normcli.tui.text import reader_markdown
from normcli.tui.widgets.cited_by import CitedBy
from normcli.tui.widgets.key_bar import KeyBar
from normcli.tui.widgets.norm_tree import NormTree
from normcli.tui.widgets.section_view import SectionView, TextScroll
from normcli.tui.widgets.side_list import SideList
from normcli.tui.widgets.splitter import Splitter


class ReaderScreen(ReportsWorkerErrors, Screen[None]):
    """Reads one clause at a time; every key of the reader lives here."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("g", "goto", "Go to", tooltip="go to a clause number (4.2.1, or 'SIA 260 4.4.3' in another norm)"),
        Binding("slash", "search(False)", "Search", tooltip="search in this norm; a clause number + enter jumps there"),
        Binding("s", "search(True)", "All norms", show=False, tooltip="search all norms, hits grouped by norm"),
        Binding("f,ctrl+f", "find", "Find", tooltip="find in this clause (every window); n / N next and previous match"),
        Binding("n", "find_next(1)", "Next match", show=False, tooltip="the next match of the find"),
        Binding("N", "find_next(-1)", "Prev match", show=False, tooltip="the previous match of the find"),
        Binding("backspace,alt+left", "back", "Back", tooltip="back in the history, to the window and line you were at"),
        Binding("alt+right", "forward", "Forward", show=False, tooltip="forward in the history"),
        Binding("right_square_bracket", "neighbour(1)", "Next", show=False, tooltip="next clause in reading order"),
        Binding("left_square_bracket", "neighbour(-1)", "Prev", show=False, tooltip="previous clause in reading order"),
        Binding("u", "parent", "Up", show=False, tooltip="up to the parent clause"),
        Binding("e", "switch_edition", "Edition", show=False, tooltip="the same clause in the next edition (drafts included)"),
        Binding("l", "switch_language", "Language", show=False, tooltip="the same clause in the next language version"),
        Binding("i", "figure", "Figures", show=False, tooltip="the clause's figures, full-size where the terminal can draw them"),
        Binding("T", "table", "Tables", show=False, tooltip="the clause's tables, full width; copy as Markdown or CSV"),
        Binding("c", "cite", "Cite", show=False, tooltip="copy the citation [SIA 261:2020, 4.2.1, p. 17] (OSC 52)"),
        Binding("y", "copy_text", "Copy text", show=False, tooltip="copy the whole text of the clause"),
        Binding("b", "bookmark", "Bookmark", show=False, tooltip="bookmark the clause (again: remove the bookmark)"),
        Binding("B", "bookmarks", "Bookmarks", show=False, tooltip="the bookmarks of this workspace"),
        Binding("r", "focus_side", "Refs", show=False, tooltip="into the list of figures, tables, references and subclauses"),
        Binding("t", "toggle_tree", "Tree", show=False, tooltip="hide or show the tree"),
        Binding("less_than_sign", "resize_tree(-4)", "Narrower", show=False, tooltip="a narrower tree (or drag its edge)"),
        Binding("greater_than_sign", "resize_tree(4)", "Wider", show=False, tooltip="a wider tree (or drag its edge)"),
        Binding("d", "diff", "Diff", show=False, tooltip="what changed in this clause since the previous edition"),
        Binding("I", "cited_by", "Cited by", show=False, tooltip="beside the references: the clauses that cite this one (again: hide)"),
        Binding("a", "apis", "APIs", show=False, tooltip="the API specs in the tree: spec → collection → tag → endpoint"),
        Binding("question_mark", "help", "Keys", tooltip="every key"),
    ]
    """Go to, search, find, history, walk the clauses, editions, languages, figures, tables, cite, bookmarks, tree, help."""

    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]] | None] = [(0, "-narrow"), (140, "-wide")]  # type: ignore[misc]

    def __init__(self, start: Location | None = None) -> None:
        super().__init__()
        self.start = start
        self.reading: Reading | None = None
        self.history = History()
        self.outline: tuple[tuple[str, str], ...] = ()
        self._outline_of: tuple[str, str, str] | None = None
        self.starts: tuple[int, ...] | None = None  # where each window of the clause starts, once known
        self.find: Find | None = None
        self._norms_to_show: r.NormsResult | None = None
        self._covered: list[tuple[Widget, bool]] = []  # what an endpoint page hides, and whether it was shown

    def compose(self) -> ComposeResult:
        """Tree | text (+ side list)."""
        with Horizontal(id="panes"):
            with Vertical(id="tree-pane"):
                yield NormTree(id="tree")
                yield Static("", id="tree-title", markup=False)
            yield Splitter(id="splitter")
            with Vertical(id="reading"):
                yield SectionView(id="section")
                yield SideList(id="side")
                yield CitedBy(id="cited-by")
        yield KeyBar()

    @property
    def location(self) -> Location | None:
        """Where the reader is."""
        return self.reading.location if self.reading else None

    def here(self) -> Location | None:
        """Where the reader is, down to the window and the line on screen (what history keeps)."""
        if self.reading is None:
            return None
        return self.reading.location.at(self.reading.section.offset, self.query_one(TextScroll).scroll_y)

    def on_mount(self) -> None:
        """Show a placeholder at once, then open the workspace in a worker."""
        self.query_one(SectionView).placeholder("normcli", "Opening the workspace…")
        self.call_after_refresh(self.app.mark, "first screen")  # type: ignore[attr-defined]
        self.query_one(SideList).display = False
        width = self.app.preferences.get("tree_width") or ""  # type: ignore[attr-defined]
        if width.isdigit() and int(width) >= 12:
            self.query_one("#tree-pane").styles.width = int(width)
        self.call_after_refresh(self._open_workspace)  # after the first frame: it should not wait for the worker's imports

    # -- opening ---------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _open_workspace(self) -> None:
        app = self.app
        try:
            library = app.library_or_open()  # type: ignore[attr-defined]
            norms = library.norms()
            app.mark("workspace open")  # type: ignore[attr-defined]
        except NormcliError as error:
            app.call_from_thread(self.query_one(SectionView).show_message, "normcli: the workspace cannot be read", error.one_line())  # type: ignore[arg-type]  # Textual types call_from_thread for plain callables, not coroutine functions
            return
        # The Markdown widget's modules (~0.1 s) load here, off the event loop, before the first text; with no
        # clause to open they load once the tree is on its way to the screen.
        if self.start is not None:
            import normcli.tui.widgets.markdown

            self._norms_to_show = norms  # drawn with the first clause, in one frame
            self._load(self.start, True, False, None)
            if self._norms_to_show is not None:  # the clause could not be read: the tree all the same
                app.call_from_thread(self._show_norms, norms)
        else:
            app.call_from_thread(self._show_norms, norms)
            import normcli.tui.widgets.markdown  # noqa: F401

            app.call_from_thread(self._welcome, library.name, norms)  # type: ignore[arg-type]  # Textual types call_from_thread for plain callables, not coroutine functions

    def _show_norms(self, norms: r.NormsResult) -> None:
        self._norms_to_show = None
        self.query_one(NormTree).show_norms(norms)
        self.call_after_refresh(self.app.mark, "tree filled")  # type: ignore[attr-defined]
        self.call_after_refresh(self._list_specs)  # after the first frame: the norms come first
        if self.start is None:
            self.query_one(NormTree).focus()
            self.call_after_refresh(self.app.collect_soon)  # type: ignore[attr-defined]  # start-up is over

    async def _welcome(self, name: str, norms: r.NormsResult) -> None:
        if self.reading is not None:  # a clause was opened from the tree while the workspace was still loading
            return
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
            "Open a norm in the tree (↑ ↓, → or enter), or press **/** or **s** to search, **g** to go to a clause,",
            "**?** for every key.",
        ]
        await self.query_one(SectionView).show_message(f"normcli · {name}", "\n".join(lines))

    def open(self, location: Location, record: bool = True, note: str | None = None) -> None:
        """Read `location` (a new place in the history unless `record` is False); the keyboard goes to the text."""
        if record:
            self._remember_place()
        self._read(location, record, False, note)

    def _remember_place(self) -> None:
        """Keep the window and line being read in the history entry of this clause, for Back and Forward."""
        place = self.here()
        if place is not None and place.same_clause(self.history.current):
            self.history.visit(place)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _read(self, location: Location, record: bool, from_end: bool, note: str | None) -> None:
        """Fetch a section (and what the tree needs to follow it), then paint it."""
        self._load(location, record, from_end, note)

    def _load(
        self, location: Location, record: bool, from_end: bool, note: str | None, started: float | None = None, find: Find | None = None
    ) -> None:
        """The body of the reading workers (runs in a worker thread)."""
        started = started or time.perf_counter()
        library = self.app.library  # type: ignore[attr-defined]
        window = self.app.window_chars  # type: ignore[attr-defined]
        same = self.location is not None and location.same_clause(self.location)
        find = find or (self.find if same else None)
        try:
            if location.find:  # a search hit: open at the first match of its word, highlighted
                found = find_all(library.whole_text(location), location.find)
                find = Find(location.find, found, 0, library.window_starts(location, window) if found else (0,))
                if found:
                    location = location.at(find.window)
            reading = library.read(location, window, with_outline=not (same and location.offset))
            # Formulas to Unicode and references to links here, in the worker: the first formula loads the
            # LaTeX parser (~0.05 s), which the event loop should not wait for.
            reading = replace(reading, markdown=reader_markdown(reading.section))
        except NotFound as error:
            reading = self._fallback(location, error)
            if reading is None:
                return
            note = None
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._paint, reading, record, from_end, note, started, location.scroll, find)  # type: ignore[arg-type]  # an async callback is awaited

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
            self.app.call_from_thread(self._welcome, library.name, library.norms())  # type: ignore[arg-type]  # Textual types call_from_thread for plain callables, not coroutine functions
        return None

    async def _paint(
        self,
        reading: Reading,
        record: bool,
        from_end: bool,
        note: str | None,
        started: float,
        scroll: float = 0.0,
        find: Find | None = None,
    ) -> None:
        if self._norms_to_show is not None:
            self._show_norms(self._norms_to_show)
        self._close_endpoint()
        previous = self.reading
        self.reading = reading
        section = reading.section
        new_clause = not reading.location.same_clause(previous.location if previous else None)
        if new_clause:
            self.starts = None
        self.find = find
        edition = reading.edition
        published = edition.published if edition else True
        bookmark = self._bookmark()
        bookmarked = bookmark is not None and self.app.bookmarks.has(bookmark)  # type: ignore[attr-defined]
        view = self.query_one(SectionView)
        await view.show(section, published, from_end, bookmarked, scroll, reading.markdown)
        self._show_find()
        seconds = time.perf_counter() - started
        self.app.painted(seconds)  # type: ignore[attr-defined]
        self.app.mark(f"painted {section.edition.code} {section.path} @{section.offset} in {seconds * 1000:.0f} ms")  # type: ignore[attr-defined]
        side = self.query_one(SideList)
        listed = side.show(section)
        side.display = listed  # no empty box: the text gets the room
        if reading.outline:
            self.query_one(NormTree).reveal(reading.location, reading.ancestors, reading.outline)
        if self.query_one(CitedBy).display and new_clause:
            self._cited_by(reading)
        if new_clause or record:
            self.focus_text()
        if record or reading.location.same_clause(self.history.current):
            self.history.visit(reading.location.at(section.offset, scroll))
        if section.requested_path:
            self.notify(
                f"{section.edition.code}:{section.edition.edition} has no {section.requested_path}; showing {section.path}, the nearest heading above"
            )
        if note:
            self.notify(note)
        if new_clause and (section.offset or section.next_offset is not None):
            self._learn_windows(reading.location)
        self._refresh_outline(reading)

    def _show_find(self) -> None:
        """Highlight the find's matches in the window on screen and say where the find stands."""
        view = self.query_one(SectionView)
        find = self.find
        if find is None or self.reading is None:
            view.highlight(None)
            view.note_find("")
            return
        current = find.rank_in_window() if find.matches and find.window == self.reading.section.offset else -1
        view.highlight(find.term, current)
        view.note_find(find.describe())

    @work(thread=True, exclusive=True, group="windows", exit_on_error=False)
    def _learn_windows(self, location: Location) -> None:
        """Where every window of a long clause starts, read in the background (paging back and End need it)."""
        try:
            starts = self.app.library.window_starts(location, self.app.window_chars)  # type: ignore[attr-defined]
        except NormcliError:
            return
        self.app.call_from_thread(self._learnt_windows, location, starts)

    def _learnt_windows(self, location: Location, starts: tuple[int, ...]) -> None:
        if location.same_clause(self.location):
            self.starts = starts

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

    # -- API specs ---------------------------------------------------------------------------

    @work(thread=True, exclusive=True, group="specs", exit_on_error=False)
    def _list_specs(self) -> None:
        """The workspace's API specs, for the tree (read after the first frame; their contents when opened)."""
        try:
            specs = self.app.library.specs()  # type: ignore[attr-defined]
        except NormcliError as error:
            self.app.call_from_thread(self.notify, f"API specs: {error.one_line()}", severity="warning")
            return
        self.app.call_from_thread(self.query_one(NormTree).show_specs, specs)

    def action_apis(self) -> None:
        """Put the tree's cursor on the API specs, opened."""
        tree = self.query_one(NormTree)
        if tree.apis is None:
            self.notify("This workspace holds no API specs: put them under specs/<domain>/ or run normcli ingest FILE --domain NAME")
            return
        pane = self.query_one("#tree-pane")
        if not pane.display:
            self.action_toggle_tree()
        tree.apis.expand()
        tree.move_cursor(tree.apis, animate=False)
        tree.scroll_to_node(tree.apis, animate=False)
        tree.focus()

    @on(NormTree.EndpointChosen)
    def _endpoint_chosen(self, event: NormTree.EndpointChosen) -> None:
        self._endpoint(event.endpoint.id)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _endpoint(self, method_id: str) -> None:
        """Read one endpoint whole and show its page in place of the text."""
        try:
            result = self.app.library.endpoint(method_id)  # type: ignore[attr-defined]
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        self.app.call_from_thread(self._show_endpoint, result)  # type: ignore[arg-type]  # an async callback is awaited

    async def _show_endpoint(self, result: object) -> None:
        from normcli.tui.widgets.endpoint_view import EndpointView  # DataTable, Markdown: not for the first frame

        found = self.query(EndpointView)
        if found:
            view = found.first()
        else:
            view = EndpointView(id="endpoint")
            view.display = False
            await self.query_one("#reading").mount(view)
        if not view.display:  # the text's panes, as they were, for when the page closes
            self._covered = [
                (widget, bool(widget.display))
                for widget in (self.query_one(SectionView), self.query_one(SideList), self.query_one(CitedBy))
            ]
            for widget, _ in self._covered:
                widget.display = False
        view.display = True
        await view.show(result)
        view.focus()

    @property
    def endpoint_shown(self) -> bool:
        """Whether an endpoint page is on screen in place of the text."""
        return any(view.display for view in self.query("#endpoint"))

    def _close_endpoint(self) -> None:
        """Back from an endpoint page to the text."""
        if not self.endpoint_shown:
            return
        for view in self.query("#endpoint"):
            view.display = False
        for widget, shown in self._covered:
            widget.display = shown

    # -- messages from the widgets -----------------------------------------------------------

    @on(NormTree.ClauseChosen)
    def _tree_chose(self, event: NormTree.ClauseChosen) -> None:
        self.open(event.location)

    @on(TextScroll.WindowWanted)
    def _window_wanted(self, event: TextScroll.WindowWanted) -> None:
        if self.reading is None:
            return
        section = self.reading.section
        if event.edge and event.step < 0:
            if section.offset:
                self._to_window(self.reading.location.at(0), time.perf_counter(), False)
            else:
                self.query_one(TextScroll).scroll_home(animate=False, immediate=True)
        elif event.edge:
            if section.next_offset is None:
                self.query_one(TextScroll).scroll_end(animate=False, immediate=True)
            else:
                self._to_edge(self.reading.location, time.perf_counter())
        elif event.step > 0 and section.next_offset is not None:
            self._to_window(self.reading.location.at(section.next_offset), time.perf_counter(), False)
        elif event.step < 0 and section.offset > 0:
            starts = self.starts
            if starts is not None and section.offset in starts:
                previous = starts[starts.index(section.offset) - 1]
                self._to_window(self.reading.location.at(previous), time.perf_counter(), True)
            else:
                self._to_previous(self.reading.location.at(section.offset), time.perf_counter())

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _to_window(self, location: Location, started: float, from_end: bool) -> None:
        self._load(location, False, from_end, None, started)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _to_previous(self, location: Location, started: float) -> None:
        """The window before `location`'s, at its end (the boundaries are read first when not yet known)."""
        starts = self.app.library.window_starts(location, self.app.window_chars)  # type: ignore[attr-defined]
        self.app.call_from_thread(self._learnt_windows, location, starts)
        previous = max((start for start in starts if start < location.offset), default=0)
        self._load(location.at(previous), False, True, None, started)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _to_edge(self, location: Location, started: float) -> None:
        """The clause's last window, at its end."""
        starts = self.app.library.window_starts(location, self.app.window_chars)  # type: ignore[attr-defined]
        self.app.call_from_thread(self._learnt_windows, location, starts)
        self._load(location.at(starts[-1]), False, True, None, started)

    @on(SideList.RefChosen)
    def _ref_chosen(self, event: SideList.RefChosen) -> None:
        self.follow(event.ref)

    @on(CitedBy.Chosen)
    def _citing_chosen(self, event: CitedBy.Chosen) -> None:
        self.open(event.location)

    @on(SideList.FigureChosen)
    def _figure_chosen(self, event: SideList.FigureChosen) -> None:
        self._show_figure(event.figure.id)

    @on(SideList.TableChosen)
    def _table_chosen(self, event: SideList.TableChosen) -> None:
        self._show_table(event.table.id)

    @on(SideList.ClauseChosen)
    def _chapter_chosen(self, event: SideList.ClauseChosen) -> None:
        self.open(event.location)

    @on(SideList.ChildChosen)
    def _child_chosen(self, event: SideList.ChildChosen) -> None:
        if self.location is not None:
            self.open(Location(self.location.code, event.child.path, self.location.edition, self.location.language))

    def on_markdown_link_clicked(self, event) -> None:  # type: ignore[no-untyped-def]
        """A click on a link of the text (Markdown.LinkClicked, named so that Markdown loads after the first frame)."""
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
            from urllib.parse import unquote

            code, _, path = href[5:].partition("#")
            base, _, edition = unquote(code).partition(":")
            self.open(Location(base, unquote(path), edition or None))
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
                self._show_table(ref.target_path or "")
                return
            self._open_table(Location(code, "", edition, language), ref.target_path or "", ref.target_title or ref.text)
            return
        path = "" if ref.target_kind == "norm" else ref.target_path or ""
        self.open(Location(code, path, edition, language))

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _open_table(self, where: Location, table_id: str, caption: str) -> None:
        library = self.app.library  # type: ignore[attr-defined]
        try:
            path = library.table_clause(where, table_id)
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="warning")
            return
        if path is None:
            self.app.call_from_thread(self.notify, f"Cannot find the clause holding “{caption}”", severity="warning")
            return
        self.app.call_from_thread(self._remember_place)
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
        """Back in the history, to the window and the line that were on screen (from an endpoint page: to the text)."""
        if self.endpoint_shown:
            self._close_endpoint()
            self.focus_text()
            return
        self._remember_place()
        place = self.history.back()
        if place is None:
            self.notify("Nothing further back")
        else:
            self.open(place, record=False)

    def action_forward(self) -> None:
        """Forward in the history, to the window and the line that were on screen."""
        self._remember_place()
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
        pane = self.query_one("#tree-pane")
        pane.display = not pane.display
        self.query_one(Splitter).display = pane.display
        if not pane.display and self.query_one(NormTree).has_focus:
            self.focus_text()

    def action_resize_tree(self, step: int) -> None:
        """A wider (+) or narrower (-) tree."""
        pane = self.query_one("#tree-pane")
        if not pane.display:
            self.action_toggle_tree()
            return
        self.set_tree_width(pane.outer_size.width + step)

    def set_tree_width(self, width: int) -> None:
        """Make the tree `width` columns wide (12 at least; the text keeps 30), and remember it for the next start."""
        width = max(12, min(width, self.size.width - 30))
        self.query_one("#tree-pane").styles.width = width
        self.app.preferences.set("tree_width", str(width))  # type: ignore[attr-defined]

    @on(Splitter.Dragged)
    def _splitter_dragged(self, event: Splitter.Dragged) -> None:
        self.set_tree_width(event.x - self.query_one("#tree-pane").region.x)

    @on(NormTree.NodeHighlighted)
    def _tree_highlighted(self, event: NormTree.NodeHighlighted) -> None:
        """The full title of the node under the cursor, under the tree (the tree cuts long ones)."""
        if not isinstance(event.control, NormTree):
            return  # a schema tree of an endpoint page
        label = event.node.label
        self.query_one("#tree-title", Static).update(label.plain if hasattr(label, "plain") else str(label))

    @on(NormTree.NormChosen)
    def _norm_chosen(self, event: NormTree.NormChosen) -> None:
        self._contents(event.code, event.edition)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _contents(self, code: str, edition: str | None) -> None:
        """A norm's contents page: title, scope, editions and chapters (links), for Enter on a norm in the tree."""
        library = self.app.library  # type: ignore[attr-defined]
        try:
            norm = library.norm(code)
            found, chapters = library.chapters(code, edition, None)
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        self.app.call_from_thread(self._show_contents, norm, found, chapters)  # type: ignore[arg-type]  # Textual types call_from_thread for plain callables, not coroutine functions

    async def _show_contents(self, norm: r.NormInfo | None, edition: r.Edition, chapters: Children) -> None:
        from urllib.parse import quote

        title = formulas_to_unicode(edition.title)
        lines = [f"**{edition.code}:{edition.edition}** ({edition.language}) {title}", ""]
        if norm is not None:
            lines.append(
                "Editions: "
                + ", ".join(f"{info.edition}{'' if info.published else ' (draft)'} ({'/'.join(info.languages)})" for info in norm.editions)
            )
            if norm.demo:
                lines.append("*A fictional sample norm: never to be applied on a project.*")
            lines.append("")
        lines += ["**Contents**", ""]
        target = quote(f"{edition.code}:{edition.edition}")
        for node, _ in chapters.nodes:
            name = formulas_to_unicode(node.title) if node.title != node.path else ""
            pages = f" · p. {node.page_start}" if node.page_start else ""
            lines.append(f"- [{node.path}](norm:{target}#{quote(node.path)}) {name}{pages}")
        await self.query_one(SectionView).show_message(f"{edition.code}:{edition.edition} · contents", "\n".join(lines))
        side = self.query_one(SideList)
        side.display = side.show_chapters(edition, chapters)

    def action_find(self) -> None:
        """Find a word in the clause: the find bar opens under the text."""
        if self._need_reading() is not None:
            self.query_one(SectionView).open_find(self.find.term if self.find else "")

    @on(SectionView.FindAsked)
    def _find_asked(self, event: SectionView.FindAsked) -> None:
        here = self.here()
        if here is not None:
            self._find(here, event.term)

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _find(self, here: Location, term: str) -> None:
        """Every match of `term` in the clause; the first one from the window on screen becomes current."""
        started = time.perf_counter()
        library = self.app.library  # type: ignore[attr-defined]
        try:
            matches = find_all(library.whole_text(here), term)
            starts = library.window_starts(here, self.app.window_chars) if matches else (0,)  # type: ignore[attr-defined]
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        find = Find(term, matches, 0, starts).first_from(here.offset)
        if not matches:
            self.app.call_from_thread(self.notify, f"“{term}” is not in {here.path}", severity="warning")
        self._go_to_match(here, find, started)

    def _go_to_match(self, here: Location, find: Find, started: float) -> None:
        """Show the window of the find's current match (runs in a worker)."""
        if not find.matches or find.window == here.offset:
            self.app.call_from_thread(self._found, find)
        else:
            self._load(here.at(find.window), False, False, None, started, find)

    def _found(self, find: Find) -> None:
        self.find = find
        self._show_find()

    def action_find_next(self, step: int) -> None:
        """The next (1) or previous (-1) match of the find, in whichever window it is."""
        if self.find is None or not self.find.matches or self.reading is None:
            self.notify("Press f to find a word in this clause")
            return
        find = self.find.step(step)
        here = self.here()
        assert here is not None
        if find.window == here.offset:
            self._found(find)
        else:
            self._match_window(here, find, time.perf_counter())

    @work(thread=True, exclusive=True, group="read", exit_on_error=False)
    def _match_window(self, here: Location, find: Find, started: float) -> None:
        self._go_to_match(here, find, started)

    def action_table(self) -> None:
        """The clause's tables at full width (n / p walk them)."""
        reading = self._need_reading()
        if reading is None:
            return
        if not reading.section.tables:
            self.notify(f"{reading.section.path} has no tables")
            return
        self._show_table(reading.section.tables[0].id)

    def _show_table(self, table_id: str) -> None:
        from normcli.tui.screens.table import TableScreen

        if self.reading is None:
            return
        tables = self.reading.section.tables
        position = next((number for number, table in enumerate(tables) if table.id == table_id), 0)
        self.app.push_screen(TableScreen(self.reading.location, tables, position))

    def action_diff(self) -> None:
        """What changed in this clause since the previous edition (`normcli diff`)."""
        reading = self._need_reading()
        if reading is not None:
            from normcli.tui.screens.compare import CompareScreen

            self.app.push_screen(CompareScreen(reading.section))

    def action_cited_by(self) -> None:
        """Show (or hide) the clauses that cite this one, beside the references."""
        cited = self.query_one(CitedBy)
        cited.display = not cited.display
        if cited.display and self.reading is not None:
            self._cited_by(self.reading)
        elif not cited.display and cited.has_focus:
            self.focus_text()

    @work(thread=True, exclusive=True, group="cited-by", exit_on_error=False)
    def _cited_by(self, reading: Reading) -> None:
        from normcli.tui.lookups import cited_by

        try:
            result, problem = cited_by(self.app.library, reading.location, reading.section), ""  # type: ignore[attr-defined]
        except NormcliError as error:
            result, problem = None, error.one_line()
        self.app.call_from_thread(self.query_one(CitedBy).show, result, problem)

    def action_help(self) -> None:
        """Every key binding."""
        from normcli.tui.screens.help import HelpScreen

        bindings = [*self.BINDINGS, *self.app.BINDINGS]
        self.app.push_screen(HelpScreen([binding for binding in bindings if isinstance(binding, Binding)]))

    def focus_text(self) -> None:
        """Put the keyboard on the text."""
        self.query_one(TextScroll).focus()
