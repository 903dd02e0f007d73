"""A reader's story, driven by keys on the sample workspace: open, walk, follow, switch, cite, bookmark."""

from __future__ import annotations

import pytest
from textual.widgets import Markdown, Static

from normcli.tui.screens.reader import ReaderScreen
from normcli.tui.widgets.norm_tree import NormTree
from normcli.tui.widgets.section_view import TextScroll
from normcli.tui.widgets.side_list import SideList

pytestmark = pytest.mark.anyio


def header(app) -> str:  # type: ignore[no-untyped-def]
    """The reader's header line."""
    return str(app.screen.query_one("#section-header", Static).render())


def status(app) -> str:  # type: ignore[no-untyped-def]
    """The reader's window status line."""
    return str(app.screen.query_one("#section-status", Static).render())


def text(app) -> str:  # type: ignore[no-untyped-def]
    """The Markdown source in the reader."""
    return app.screen.query_one("#markdown", Markdown).source


def reader(app) -> ReaderScreen:  # type: ignore[no-untyped-def]
    """The reader screen (under any dialog)."""
    return next(screen for screen in app.screen_stack if isinstance(screen, ReaderScreen))


def toasts(app) -> str:  # type: ignore[no-untyped-def]
    """Every notification shown so far, one per line."""
    return "\n".join(f"{note.title} {note.message}" for note in app._notifications)


async def test_opens_at_code_and_path_with_header_text_and_side_list(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert header(app) == "SIA 261:2020 (fr) · 4.2.1 Charge de neige sur le sol · pp. 17–21"
        assert "$" not in text(app) and "s_k = 0,35 · Z_s" in text(app)
        assert "[chiffre 4.1.1](ref:0)" in text(app)
        assert status(app).endswith("chars")
        side = app.screen.query_one(SideList)
        labels = [str(option.prompt) for option in side.options]
        assert any("Figure 1" in label for label in labels)
        assert any(label.startswith("DIN 1055-5 ✗") for label in labels)
        tree = app.screen.query_one(NormTree)
        assert tree.cursor_node is not None and tree.cursor_node.data.path == "4.2.1"
        assert app.focused is app.screen.query_one(TextScroll)


async def test_tree_opens_norms_lazily_and_enter_reads_a_clause(make_app, settle) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Workspace **normcli sample workspace**" in text(app) and "SIA 261" in text(app)
        tree = app.screen.query_one(NormTree)
        assert app.focused is tree
        labels = [str(node.label) for node in tree.root.children]
        assert labels[0].startswith("EN 1991-1-3")
        for key in ("down", "down", "right", "down", "down", "right"):  # SIA 261, open, 2026 draft, 2020, open
            await pilot.press(key)
            await settle(pilot)
        edition = tree.cursor_node
        assert edition.data.edition == "2020" and edition.data.loaded
        assert [child.data.path for child in edition.children][:2] == ["Avant-propos", "1"]
        await pilot.press("down")
        await pilot.press("down")
        await pilot.press("enter")  # chapter 1
        await settle(pilot)
        assert header(app).startswith("SIA 261:2020 (fr) · 1 Domaine d'application")


async def test_walk_next_previous_parent_and_goto(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "· 4.2.2 " in header(app)
        await pilot.press("left_square_bracket", "left_square_bracket")
        await settle(pilot)
        assert "· 4.2 Neige" in header(app)
        await pilot.press("u")
        await settle(pilot)
        assert "· 4 Actions" in header(app)
        await pilot.press("g")
        await pilot.press(*"4.2.3", "enter")
        await settle(pilot)
        assert "· 4.2.3 Coefficients de forme" in header(app)
        await pilot.press("g")
        await pilot.press(*"SIA 260 4.4.3", "enter")
        await settle(pilot)
        assert header(app).startswith("SIA 260:2013 (fr) · 4.4.3 ")
        assert app.screen.query_one(NormTree).cursor_node.data.code == "SIA 260"


async def test_search_in_norm_lists_hits_and_enter_opens_one(make_app, settle) -> None:
    from normcli.tui.widgets.hit_list import HitList

    app = make_app("SIA 261", "1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash")
        await pilot.press(*"accumulation")
        await settle(pilot)
        hits = app.screen.query_one(HitList)
        assert hits.count >= 1
        first = hits.get_option_at_index(hits.highlighted)
        assert "bold reverse" in str([span.style for span in first.prompt.spans])
        target = hits.locations[first.id]
        await pilot.press("down", "enter")
        await settle(pilot)
        assert isinstance(app.screen, ReaderScreen)
        assert f"· {target.path} " in header(app)


async def test_typing_a_clause_number_in_search_jumps_there(make_app, settle) -> None:
    app = make_app("SIA 261", "1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("slash", *"4.2.1", "enter")
        await settle(pilot)
        assert "· 4.2.1 Charge de neige sur le sol" in header(app)


async def test_corpus_search_groups_hits_by_norm(make_app, settle) -> None:
    from normcli.tui.widgets.hit_list import HitList

    app = make_app("SIA 261", "1")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        await pilot.press("s", *"neige")
        await settle(pilot)
        hits = app.screen.query_one(HitList)
        groups = [str(option.prompt) for option in hits.options if option.disabled]
        assert any(group.startswith("SIA 261:2020") for group in groups)
        assert any(group.startswith("SIA 260:2013") for group in groups)
        await pilot.press("escape")
        assert isinstance(app.screen, ReaderScreen)


async def test_references_follow_inside_and_to_another_norm_and_say_why_not(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(160, 48)) as pilot:
        await settle(pilot)
        side = app.screen.query_one(SideList)
        await pilot.press("r")
        assert app.focused is side
        # the first reference, 'chiffre 4.1.1'
        labels = [str(option.prompt) for option in side.options]
        side.highlighted = labels.index("chiffre 4.1.1 → 4.1.1 Période de retour")
        await pilot.press("enter")
        await settle(pilot)
        assert "· 4.1.1 Période de retour" in header(app)
        await pilot.press("backspace")
        await settle(pilot)
        assert "· 4.2.1 " in header(app)
        labels = [str(option.prompt) for option in side.options]
        side.highlighted = next(number for number, label in enumerate(labels) if label.startswith("SIA 260, 4.4.3"))
        side.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert header(app).startswith("SIA 260:2013 (fr) · 4.4.3 ")
        await pilot.press("alt+left")
        await settle(pilot)
        labels = [str(option.prompt) for option in side.options]
        side.highlighted = next(number for number, label in enumerate(labels) if label.startswith("DIN 1055-5"))
        side.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert "DIN 1055-5 is not in this workspace" in toasts(app)
        assert "· 4.2.1 " in header(app)


async def test_links_in_the_text_are_followed(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        reader(app).follow_link("#4.2.3")
        await settle(pilot)
        assert "· 4.2.3 " in header(app)
        reader(app).follow_link("norm:SIA 260#4.4.3")
        await settle(pilot)
        assert header(app).startswith("SIA 260:2013")


async def test_history_back_and_forward(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert "· 4.2.3 " in header(app)
        await pilot.press("backspace")
        await settle(pilot)
        assert "· 4.2.2 " in header(app)
        await pilot.press("alt+left")
        await settle(pilot)
        assert "· 4.2.1 " in header(app)
        await pilot.press("alt+right")
        await settle(pilot)
        assert "· 4.2.2 " in header(app)


async def test_edition_key_opens_the_same_clause_in_the_next_edition(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert header(app).startswith("SIA 261:2020 (fr) · 4.2 ")
        await pilot.press("e")
        await settle(pilot)
        assert header(app).startswith("SIA 261:2014 (fr) · 4.2 ")
        await pilot.press("e")
        await settle(pilot)
        assert header(app).startswith("SIA 261:2026 draft (fr)")
        tree = app.screen.query_one(NormTree)
        assert tree.cursor_node.data.edition == "2026"


async def test_language_key_switches_to_the_german_version_of_the_same_clause(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("l")
        await settle(pilot)
        assert header(app).startswith("SIA 261:2020 (de) · 4.2.1 ")
        await pilot.press("l")
        await settle(pilot)
        assert header(app).startswith("SIA 261:2020 (fr) · 4.2.1 ")


async def test_cite_and_copy_put_text_on_the_clipboard_with_a_toast(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        assert app.clipboard == "[SIA 261:2020, 4.2.1, p. 17]"
        assert "Copied [SIA 261:2020, 4.2.1, p. 17]" in toasts(app)
        await pilot.press("y")
        await settle(pilot)
        assert app.clipboard.startswith("[SIA 261:2020, 4.2.1, p. 17]\n4.2.1 Charge de neige sur le sol\n\nLa charge de neige")
        assert "Copied the text of 4.2.1" in toasts(app)


async def test_bookmarks_survive_a_restart(make_app, settle, data_dir) -> None:
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        assert "Bookmarked SIA 261 4.2.1" in toasts(app)
        assert header(app).endswith("★")
    assert (data_dir / "bookmarks.json").is_file()
    again = make_app("SIA 261", "1")
    async with again.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("B")
        await settle(pilot)
        from normcli.tui.screens.bookmarks import BookmarksScreen

        assert isinstance(again.screen, BookmarksScreen)
        await pilot.press("enter")
        await settle(pilot)
        assert "· 4.2.1 " in header(again)
        await pilot.press("B", "d", "escape")
        assert again.bookmarks.of(str(again.library.root)) == []


async def test_figure_screen_shows_caption_and_saves_the_image(make_app, settle, tmp_path) -> None:
    from normcli.tui.screens.figure import FigureScreen

    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, FigureScreen)
        caption = str(app.screen.query_one("#figure-caption").render())
        assert caption.startswith("Figure 1 – Zones de charge de neige") and caption.endswith("(1/2)")
        notes = " ".join(str(widget.render()) for widget in app.screen.query(".figure-note"))
        assert "image/png" in notes and "cannot draw images" in notes
        await pilot.press("n")
        await settle(pilot)
        assert str(app.screen.query_one("#figure-caption").render()).startswith("Figure 2")
        await pilot.press("s")
        box = app.screen.query_one("#figure-save")
        box.value = str(tmp_path / "saved.png")
        await pilot.press("enter")
        assert (tmp_path / "saved.png").read_bytes()[:4] == b"\x89PNG"
        await pilot.press("escape")
        assert isinstance(app.screen, ReaderScreen)


async def test_long_sections_are_read_in_windows(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.1", window_chars=2000)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        first = status(app)
        assert first.startswith("chars 0–") and "of 7,737" in first
        while status(app) == first:
            await pilot.press("pagedown")
            await settle(pilot)
        second = status(app)
        assert second.startswith("chars 1,") and second != first
        assert len(text(app)) < 3000
        await pilot.press("home")
        await settle(pilot)
        assert status(app) == first
        await pilot.press("end")
        await settle(pilot)
        assert status(app).endswith("of 7,737 · end")


async def test_question_mark_lists_every_key(make_app, settle) -> None:
    from normcli.tui.screens.help import HelpScreen

    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        from normcli.tui.screens.help import key_table, pretty_keys

        keys = [pretty_keys(binding) for binding in app.screen.bindings]
        source = " ".join(f"`{key}`" for key in keys)
        assert key_table(app.screen.bindings).row_count > 20
        for key in (
            "`]`",
            "`[`",
            "`u`",
            "`g`",
            "`/`",
            "`f, ctrl+f`",
            "`s`",
            "`T`",
            "`i`",
            "`backspace, alt+left`",
            "`alt+right`",
            "`e`",
            "`l`",
            "`c`",
            "`y`",
            "`b`",
            "`B`",
            "`q`",
        ):
            assert key in source
        await pilot.press("escape")
        assert isinstance(app.screen, ReaderScreen)


async def test_command_palette_goes_to_a_clause_number(make_app, settle) -> None:
    app = make_app("SIA 261", "1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"4.2.3")
        await pilot.pause(0.5)
        await pilot.press("enter")
        await settle(pilot)
        assert "· 4.2.3 " in header(app)


@pytest.mark.parametrize("theme", ["textual-light"])
async def test_light_theme(make_app, settle, theme) -> None:
    app = make_app("SIA 261", "4.2.1", theme=theme)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert not app.current_theme.dark
        assert "4.2.1" in header(app)


async def test_references_to_figures_tables_and_whole_norms(make_app, settle) -> None:
    from normcli.tui.screens.figure import FigureScreen
    from normcli.tui.screens.table import TableScreen

    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        refs = {ref.text: ref for ref in reader(app).reading.section.cross_refs}
        reader(app).follow(refs["tableau 2"])
        await settle(pilot)
        assert isinstance(app.screen, TableScreen)
        assert str(app.screen.query_one("#table-caption").render()).startswith("Tableau 2")
        await pilot.press("escape")
        reader(app).follow_link("fig:fig-2")
        await settle(pilot)
        assert isinstance(app.screen, FigureScreen)
        assert str(app.screen.query_one("#figure-caption").render()).startswith("Figure 2")
        await pilot.press("escape")
        reader(app).follow(refs["SIA 260"])
        await settle(pilot)
        assert header(app).startswith("SIA 260:2013 (fr) · ")


async def test_a_clause_missing_from_the_other_edition_opens_the_nearest_heading(make_app, settle) -> None:
    app = make_app("SIA 261", "4.2.3")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("e", "e")  # 2014, then the 2026 draft, which has no 4.2.3
        await settle(pilot)
        await settle(pilot)
        assert header(app).startswith("SIA 261:2026 draft (fr) · 4.2 ")
        assert "has no 4.2.3; showing 4.2" in toasts(app)


async def test_a_theme_chosen_in_the_palette_is_remembered(make_app, settle, data_dir) -> None:
    app = make_app("SIA 261", "1", theme=None)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert app.theme == "textual-dark"
        app.theme = "textual-light"
        await pilot.pause()
    again = make_app("SIA 261", "1", theme=None)
    assert again.theme == "textual-light"


async def test_an_unknown_clause_on_the_command_line_shows_the_welcome_page_and_why(make_app, settle) -> None:
    app = make_app("SIA 999", "1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert "Workspace **normcli sample workspace**" in text(app)
        assert "SIA 999" in toasts(app)


@pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")
async def test_figure_is_drawn_by_textual_image_where_the_terminal_has_graphics(make_app, settle, monkeypatch) -> None:
    from normcli.tui.screens import figure

    monkeypatch.setattr(figure, "graphics_protocol", lambda: "kitty")
    app = make_app("SIA 261", "4.2.1")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await settle(pilot)
        assert isinstance(app.screen, figure.FigureScreen)
        assert app.screen.query("#figure-image")
