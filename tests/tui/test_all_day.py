"""The reader as an all-day reader: focus on the text, paging across windows both ways, history that keeps the
line, find in the clause, a resizable tree, a norm's contents page, the table viewer, languages and formulas."""

from __future__ import annotations

import csv
import io
import random
import re
import unicodedata
from pathlib import Path

import pytest
from textual.widgets import Markdown, Static

from normcli.render import formulas_to_unicode
from normcli.tui.app import NormcliApp
from normcli.tui.library import Location
from normcli.tui.screens.reader import ReaderScreen
from normcli.tui.widgets.norm_tree import NormTree
from normcli.tui.widgets.section_view import TextScroll
from normcli.tui.widgets.side_list import SideList

pytestmark = pytest.mark.anyio

SAMPLE = Path(__file__).resolve().parents[2] / "sample_workspace"


def status(app) -> str:  # type: ignore[no-untyped-def]
    """The reader's status line."""
    return str(app.screen.query_one("#section-status", Static).render())


def header(app) -> str:  # type: ignore[no-untyped-def]
    """The reader's header line."""
    return str(app.screen.query_one("#section-header", Static).render())


def reader(app) -> ReaderScreen:  # type: ignore[no-untyped-def]
    """The reader screen (under any dialog)."""
    return next(screen for screen in app.screen_stack if isinstance(screen, ReaderScreen))


def clause_source(bundle: Path, path: str) -> str:
    """The body of clause `path` as written in the bundle (between its heading and the next one), read independently."""
    lines = bundle.read_text(encoding="utf-8").splitlines()
    start = next(number for number, line in enumerate(lines) if re.match(rf"#+ {re.escape(path)}( |$)", line))
    end = next((number for number in range(start + 1, len(lines)) if lines[number].startswith("#")), len(lines))
    return "\n".join(line for line in lines[start + 1 : end] if not line.startswith("<!-- page"))


def folded(text: str) -> str:
    """Lowercase without accents, for counting matches independently of the code under test."""
    return "".join(char for char in unicodedata.normalize("NFD", text.lower()) if not unicodedata.combining(char))


def long_clause(chars: int) -> str:
    """Norm-like paragraphs with references, inline formulas and tables, about `chars` long; 'zebra' once, near the end."""
    rng = random.Random(16)
    words = [
        "snow",
        "load",
        "ground",
        "zone",
        "altitude",
        "exposure",
        "roof",
        "shape",
        "drift",
        "wind",
        "partial",
        "factor",
        "resistance",
        "limit",
        "state",
    ]
    parts: list[str] = []
    size = 0
    while size < chars:
        number = len(parts) + 1
        paragraph = f"({number}) " + " ".join(rng.choice(words) for _ in range(rng.randint(30, 120))) + f" see 2.{number % 3 + 1}."
        if number % 10 == 0:
            paragraph += "\n\n| zone | s_k | note |\n|---|---|---|\n" + "\n".join(
                f"| {i} | {i * 0.35:.2f} | $\\mu_{i}$ |" for i in range(8)
            )
        parts.append(paragraph)
        size += len(paragraph) + 2
    parts.insert(len(parts) - 2, "A last paragraph on zebra crossings.")
    return "\n\n".join(parts)


def long_workspace(root: Path, chars: int) -> Path:
    """A workspace with one norm: clause 1 of about `chars` characters, then short clauses 2 and 3."""
    body = (
        '---\ncode: LONG 1\nedition: "2026"\ntitle: Long clauses\nlanguage: en\npublished: true\n---\n<!-- page 1 -->\n'
        f"# 1 The long clause\n\n{long_clause(chars)}\n\n# 2 Short\n\nSee 1 for the long one.\n\n# 3 Formula $q_k$ title\n\nShort.\n"
    )
    folder = root / "norms" / "long-1" / "2026"
    folder.mkdir(parents=True)
    (folder / "norm.md").write_text(body, encoding="utf-8")
    return folder / "norm.md"


async def settle(pilot) -> None:  # type: ignore[no-untyped-def]
    """Wait for the workers and the screen."""
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()


async def read_through(pilot, key: str, page_by_page: bool = True) -> list[tuple[int, str]]:  # type: ignore[no-untyped-def]
    """Press `key` until the clause's last (pagedown) or first (pageup) line is on screen: each window met, in order.

    Page by page, a page never skips a line (it moves at most one screen) and every window is read to its
    edge before the next one opens; otherwise each window is scrolled to its edge before the key crosses it.
    """
    app = pilot.app
    met = [(reader(app).reading.section.offset, reader(app).reading.section.content)]
    scroll = app.screen.query_one(TextScroll)
    for _ in range(20000):
        section = reader(app).reading.section
        last = section.next_offset is None if key == "pagedown" else section.offset == 0
        if not page_by_page:
            scroll.scroll_end(animate=False, immediate=True) if key == "pagedown" else scroll.scroll_home(animate=False, immediate=True)
            await pilot.pause()
        at_edge = scroll.at_end if key == "pagedown" else scroll.at_start
        if last and at_edge:
            return met
        before = scroll.scroll_y
        await pilot.press(key)
        await settle(pilot) if at_edge else await pilot.pause()
        section = reader(app).reading.section
        if section.offset != met[-1][0]:
            assert at_edge, "a window was left before its last line was on screen"
            met.append((section.offset, section.content))
        else:
            assert abs(scroll.scroll_y - before) <= scroll.scrollable_content_region.height
    raise AssertionError("never reached the edge of the clause")


def assert_read_once(forward: list[tuple[int, str]], backward: list[tuple[int, str]], expected: str) -> None:
    """Both ways, the windows put together are the clause's text, and they are the same windows."""
    assert "".join(content for _, content in forward).strip("\n") == expected
    assert "".join(content for _, content in reversed(backward)).strip("\n") == expected
    assert [offset for offset, _ in forward] == [offset for offset, _ in reversed(backward)]


@pytest.mark.slow
async def test_a_1_mb_clause_read_forward_and_backward_shows_every_character_once(tmp_path) -> None:
    bundle = long_workspace(tmp_path, 1_000_000)
    expected = clause_source(bundle, "1").strip("\n")
    app = NormcliApp(tmp_path, Location("LONG 1", "1"), theme="textual-dark", window_chars=40000)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        assert app.focused is app.screen.query_one(TextScroll)
        forward = await read_through(pilot, "pagedown", page_by_page=False)
        backward = await read_through(pilot, "pageup", page_by_page=False)
    assert_read_once(forward, backward, expected)
    assert len(forward) >= 25


async def test_a_long_clause_paged_through_both_ways_page_by_page(tmp_path) -> None:
    bundle = long_workspace(tmp_path, 50_000)
    expected = clause_source(bundle, "1").strip("\n")
    app = NormcliApp(tmp_path, Location("LONG 1", "1"), theme="textual-dark", window_chars=6000)
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        forward = await read_through(pilot, "pagedown")
        backward = await read_through(pilot, "pageup")
    assert_read_once(forward, backward, expected)
    assert len(forward) >= 8


async def test_every_window_is_painted_in_time_proportional_to_the_window(tmp_path) -> None:
    long_workspace(tmp_path, 120_000)
    app = NormcliApp(tmp_path, Location("LONG 1", "1"), theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for _ in range(6):
            await pilot.press("end" if _ % 2 == 0 else "home")
            await settle(pilot)
        markdown = app.screen.query_one("#markdown", Markdown)
        assert len(markdown.source) <= app.window_chars + 500  # one window in the widget, never the clause


async def test_opening_from_tree_goto_search_link_and_bookmark_puts_the_keyboard_on_the_text(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(NormTree)
        assert app.focused is tree
        assert "Read" in footer_keys(app) and "Open" in footer_keys(app)
        codes = [node.data.code for node in tree.root.children]
        tree.move_cursor(tree.root.children[codes.index("SIA 261")])
        await pilot.press("right", "down", "right")  # its first edition (the 2026 draft), opened
        await settle(pilot)
        await pilot.press("down", "enter")  # its first chapter
        await settle(pilot)
        text = app.screen.query_one(TextScroll)
        assert app.focused is text and header(app).startswith("SIA 261:2026 draft")
        assert "Page" in footer_keys(app) and "Read" not in footer_keys(app)
        for keys in (("g", *"4.2.1", "enter"), ("slash", *"neige", "down", "enter")):
            tree.focus()
            await pilot.press(*keys)
            await settle(pilot)
            assert app.focused is text, keys
        tree.focus()
        reader(app).follow_link("norm:SIA%20261#4.1.1")
        await settle(pilot)
        assert app.focused is text and "· 4.1.1 " in header(app)
        await pilot.press("b")
        tree.focus()
        await pilot.press("B", "enter")
        await settle(pilot)
        assert app.focused is text and "· 4.1.1 " in header(app)
        await pilot.press("space")  # space pages the text, it does not open a tree node
        await settle(pilot)
        assert "· 4.1.1 " in header(app)


def footer_keys(app) -> str:  # type: ignore[no-untyped-def]
    """The descriptions of the keys the footer shows now."""
    return " ".join(binding.binding.description for binding in app.screen.active_bindings.values() if binding.binding.show)


async def test_back_and_forward_restore_the_clause_window_and_line(tmp_path) -> None:
    long_workspace(tmp_path, 30_000)
    app = NormcliApp(tmp_path, Location("LONG 1", "1"), theme="textual-dark", window_chars=4000)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        scroll = app.screen.query_one(TextScroll)
        first = reader(app).reading.section.offset
        while reader(app).reading.section.offset == first:
            await pilot.press("pagedown")
            await settle(pilot)
        await pilot.press("down", "down", "down")
        await settle(pilot)
        offset, line = reader(app).reading.section.offset, scroll.scroll_y
        assert offset > 0 and line > 0
        reader(app).follow_link("#2")
        await settle(pilot)
        assert "· 2 Short" in header(app)
        await pilot.press("backspace")
        await settle(pilot)
        assert reader(app).reading.section.offset == offset and scroll.scroll_y == line
        await pilot.press("alt+right")
        await settle(pilot)
        assert "· 2 Short" in header(app)
        await pilot.press("alt+left")
        await settle(pilot)
        assert reader(app).reading.section.offset == offset and scroll.scroll_y == line


async def test_find_in_the_clause_highlights_and_walks_every_match_across_windows(make_app, sample_copy) -> None:
    source = clause_source(sample_copy / "norms" / "sia-261" / "2020" / "norm.fr.md", "4.2.1")
    expected = folded(source).count("neige")
    app = make_app("SIA 261", "4.2.1", window_chars=2000)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("f")
        assert app.focused is app.screen.query_one("#find-bar")
        await pilot.press(*"NEIGE", "enter")
        await settle(pilot)
        assert app.focused is app.screen.query_one(TextScroll)
        assert f"match 1 of {expected} “NEIGE”" in status(app)
        assert highlighted(app) >= 1
        offsets = {reader(app).reading.section.offset}
        for number in range(2, expected + 1):
            await pilot.press("n")
            await settle(pilot)
            assert f"match {number} of {expected}" in status(app)
            assert highlighted(app) >= 1
            offsets.add(reader(app).reading.section.offset)
        assert len(offsets) >= 2  # the matches are spread over several windows
        await pilot.press("n")
        await settle(pilot)
        assert f"match 1 of {expected}" in status(app)
        await pilot.press("N")
        await settle(pilot)
        assert f"match {expected} of {expected}" in status(app)
        await pilot.press("ctrl+f", "escape")
        assert app.focused is app.screen.query_one(TextScroll)


def highlighted(app) -> int:  # type: ignore[no-untyped-def]
    """How many blocks of the text carry the current match's style."""
    from normcli.tui.widgets.markdown import CURRENT_STYLE

    count = 0
    for block in app.screen.query_one("#markdown", Markdown).query("*"):
        visual = getattr(block, "visual", None) or getattr(block, "_content", None)
        spans = getattr(visual, "spans", ())
        count += sum(1 for span in spans if str(span.style) == CURRENT_STYLE)
        renderable = getattr(block, "renderable", None)
        if renderable is not None and CURRENT_STYLE in repr(renderable):
            count += 1
    return count


async def test_a_search_hit_opens_at_its_first_match_highlighted(tmp_path) -> None:
    long_workspace(tmp_path, 60_000)
    app = NormcliApp(tmp_path, Location("LONG 1", "2"), theme="textual-dark", window_chars=6000)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"zebra")
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        assert "· 1 The long clause" in header(app)
        assert reader(app).reading.section.offset > 0
        assert "zebra crossings" in reader(app).reading.section.content
        assert "match 1 of 1 “zebra”" in status(app)
        assert highlighted(app) == 1


async def test_the_tree_widens_narrows_hides_and_shows_full_titles(make_app) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        pane = app.screen.query_one("#tree-pane")
        width = pane.outer_size.width
        await pilot.press("greater_than_sign")
        await pilot.pause()
        assert pane.outer_size.width == width + 4
        await pilot.press("less_than_sign", "less_than_sign")
        await pilot.pause()
        assert pane.outer_size.width == width - 4
        splitter = app.screen.query_one("#splitter")
        await pilot.mouse_down(splitter)
        await pilot.hover(splitter, offset=(20, 0))
        await pilot.mouse_up(splitter, offset=(20, 0))
        await pilot.pause()
        assert pane.outer_size.width > width + 10
        assert app.preferences.get("tree_width") == str(pane.outer_size.width)
        await pilot.press("t")
        await pilot.pause()
        assert not pane.display
        await pilot.press("t")
        await pilot.pause()
        tree = app.screen.query_one(NormTree)
        tree.focus()
        await pilot.pause()
        node = tree.cursor_node
        assert node is not None
        assert str(app.screen.query_one("#tree-title", Static).render()) == node.label.plain
        await pilot.hover(tree, offset=(4, tree.cursor_line - tree.scroll_offset.y))
        await pilot.pause()
        assert tree.tooltip == node.label.plain


async def test_enter_on_a_norm_opens_its_contents_page(make_app) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        tree = app.screen.query_one(NormTree)
        codes = [node.data.code for node in tree.root.children]
        tree.move_cursor(tree.root.children[codes.index("SIA 261")])
        await pilot.press("enter")
        await settle(pilot)
        assert header(app) == "SIA 261:2020 · contents"
        source = app.screen.query_one("#markdown", Markdown).source
        assert "[4](norm:SIA%20261%3A2020#4) Actions" in source and "Editions: 2026 (draft)" in source
        side = app.screen.query_one(SideList)
        assert side.display and any(str(option.prompt).startswith("4 Actions") for option in side.options)
        await pilot.press("r")
        side.highlighted = next(number for number, option in enumerate(side.options) if str(option.prompt).startswith("4 Actions"))
        await pilot.press("enter")
        await settle(pilot)
        assert header(app).startswith("SIA 261:2020 (fr) · 4 Actions")


async def test_the_table_viewer_shows_a_table_full_width_and_copies_it(make_app, sample_copy) -> None:
    from textual.widgets import DataTable

    from normcli.tui.screens.table import TableScreen

    source = clause_source(sample_copy / "norms" / "sia-261" / "2020" / "norm.fr.md", "4.2.1")
    table_lines = [line for line in source.splitlines() if line.startswith("|")]
    header_cells = [cell.strip() for cell in table_lines[0].strip("|").split("|")]
    shown_cells = [formulas_to_unicode(cell) for cell in header_cells]  # formulas read as Unicode, as in the text
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("T")
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        grid = app.screen.query_one(DataTable)
        assert grid.row_count == len(table_lines) - 2  # header and rule lines are not rows (one table in 4.2.1)
        assert [str(column.label) for column in grid.columns.values()] == shown_cells
        await pilot.press("m")
        assert app.clipboard == "\n".join(table_lines) + "\n"
        await pilot.press("v")
        rows = list(csv.reader(io.StringIO(app.clipboard)))
        assert rows[0] == header_cells and len(rows) == len(table_lines) - 1
        await pilot.press("escape")
        assert isinstance(app.screen, ReaderScreen)


async def test_corpus_hits_name_their_language_and_titles_show_formulas_as_unicode(tmp_path, make_app) -> None:
    from normcli.tui.widgets.hit_list import HitList

    app = make_app("SIA 261", "1")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("s", *"Schnee")
        await settle(pilot)
        hits = [str(option.prompt) for option in app.screen.query_one(HitList).options if not option.disabled]
        assert hits and all(re.search(r"\((fr|de|it|en)\)$", hit.splitlines()[0]) for hit in hits)
        assert any(hit.splitlines()[0].endswith("(de)") for hit in hits)
    long_workspace(tmp_path, 1000)
    app = NormcliApp(tmp_path, Location("LONG 1", "3"), theme="textual-dark")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "$" not in header(app) and "q" in header(app)
        tree = app.screen.query_one(NormTree)
        labels = [node.label.plain for node in tree._clauses.values()]
        assert any(label.startswith("3 Formula") and "$" not in label for label in labels)


async def test_a_late_welcome_page_does_not_replace_a_clause(make_app) -> None:
    """With no clause asked for, the welcome page is drawn once the Markdown modules are loaded, after the tree;
    a clause opened from the tree in between stays on screen when it arrives."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        reader(app).open(Location("SIA 261", "4.2.1"))
        await settle(pilot)
        library = app.library
        await reader(app)._welcome(library.name, library.norms())  # as the workspace's worker would, late
        await settle(pilot)
        assert "· 4.2.1 " in header(app)
