"""The accuracy bench's own reading of which bookmarks a page prints as a heading (its second, honest recall)."""

from __future__ import annotations

from pathlib import Path

import bench_modules
import pytest

bench = bench_modules.load("import_accuracy")
BODY = "The text of this clause goes on over a full line of words like the body of a manual."


def _slides(tmp_path: Path) -> Path:
    """Three pages: a navigation line repeated at the top of every page, a bookmark per page."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    same = True  # set on the line of the text before it
    pages = [
        # (bookmark, what the page prints: (x, text, size, bold, on the same line as the text before))
        ("Cover: The manual", [(72, "The manual", 24, True, False)]),
        ("Loads", [(72, "2 Loads", 16, True, False), (72, BODY, 10, False, False)]),
        ("Symbols", [(72, "Symbols", 10, True, False), (72, "alpha . . . . . 3", 10, False, False)]),
        ("A", [(72, "A", 14, True, False), (110, "apples . . . . . 3", 10, False, same), (72, BODY, 10, False, False)]),
        ("Column", [(72, "Column", 10, True, False), (112, "The column(x) function returns the value of column x.", 10, False, same)]),
        ("\\newcmd", [(72, "\\newcmd", 10, False, False), (114, "{<name>}{<text>}", 10, False, same), (72, BODY, 10, False, False)]),
        ("Table 1", [(72, "Table 1.", 10, True, False), (110, "Loads on the roof.", 10, False, same)]),
        ("Navigation", [(72, BODY, 10, False, False)]),
    ]
    for bookmark, lines in pages:
        pdf.add_page()
        pdf.set_font("Helvetica", "", 8)
        pdf.text(72, 30, "Navigation")  # a line every page repeats at its top: a navigation bar
        pdf.set_y(80)
        pdf.start_section(bookmark, level=0)
        y = 100.0
        for x, text, size, bold, on_the_line in lines:
            pdf.set_font("Helvetica", "B" if bold else "", size)
            y += 0 if on_the_line else size * 1.4
            pdf.text(x, y, text)
    path = tmp_path / "slides.pdf"
    pdf.output(str(path))
    return path


def test_a_bookmark_counts_as_printed_only_where_its_page_sets_it_as_a_heading(tmp_path: Path) -> None:
    """Printed: a numbered title, a title alone on its line, a letter group set apart from the entry beside it, a
    title in a font of its own running into a sentence. Not printed: a cover bookmark the page does not print, a
    command followed by its arguments, a table's caption, a navigation line that every page repeats."""
    shown = {entry.title: entry.shown for entry in bench.outline_reference(_slides(tmp_path))}
    assert shown == {
        "coverthemanual": False,
        "loads": True,
        "symbols": True,
        "a": True,
        "column": True,
        "newcmd": False,
        "table1": False,
        "navigation": False,
    }


def test_a_title_printed_alone_is_unnumbered_though_a_list_item_below_starts_with_it(tmp_path: Path) -> None:
    """The bookmark `Format` over a page printing `Format` alone, then a numbered list (`7 format from …`): the
    reference path is the title, not 7."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.add_page()
    pdf.start_section("Format", level=0)
    for y, (text, bold) in enumerate([("Format", True), (BODY, False), ("7 format from the mouse settings", False)]):
        pdf.set_font("Helvetica", "B" if bold else "", 10)
        pdf.text(72, 100 + 14 * y, text)
    path = tmp_path / "format.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.title) for entry in bench.outline_reference(path)] == [("Format", "format")]


def test_captions_set_over_no_table_are_taken_from_the_truth_of_the_pdf_with_that_hash(tmp_path: Path, monkeypatch) -> None:
    import hashlib
    import json

    pdf = tmp_path / "manual.pdf"
    pdf.write_bytes(b"%PDF-1.4 a stand-in: only its hash is read\n")
    other = tmp_path / "other.pdf"
    other.write_bytes(b"%PDF-1.4 another file\n")
    truth = tmp_path / "truth.json"
    sha = hashlib.sha256(pdf.read_bytes()).hexdigest()
    truth.write_text(json.dumps({"documents": {sha: {"file": "manual.pdf", "captionsWithoutTable": {"1": "example", "3": "example"}}}}))
    monkeypatch.setattr(bench, "TRUTH_UNSEEN", truth)
    assert bench.captions_without_table(pdf) == {"1", "3"}
    assert bench.captions_without_table(other) == set()  # the same name elsewhere, or another file: nothing


def test_the_reference_keeps_the_word_a_page_prints_before_a_chapter_or_annex(tmp_path: Path) -> None:
    """Bookmarks without their designator over pages that print it: `Capitolo 1` above the title gives path 1;
    `Annexe B` above a title wrapped over three lines gives `Annexe B` (the word as printed, not `Appendix B`)."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pages = [
        ("Introduzione", ["Capitolo 1", "Introduzione"]),
        ("B Quelques règles typographiques françaises", ["Annexe B", "Quelques règles", "typographiques", "françaises"]),
    ]
    for bookmark, lines in pages:
        pdf.add_page()
        pdf.start_section(bookmark, level=0)
        for y, text in enumerate([*lines, BODY]):
            pdf.set_font("Helvetica", "B" if text != BODY else "", 16 if text != BODY else 10)
            pdf.text(72, 100 + 22 * y, text)
    path = tmp_path / "designators.pdf"
    pdf.output(str(path))
    assert [entry.path for entry in bench.outline_reference(path)] == ["1", "Annexe B"]


def test_a_title_keeps_a_number_in_brackets_that_is_not_a_repeat_mark() -> None:
    """`(2)` is taken off a title only where its path marks a repeat of another clause's path."""
    paths = {bench.path_fold(path) for path in ("Introduction", "Introduction (2)", "10.20")}
    assert bench._unrepeated("Introduction (2)", "Introduction (2)", paths) == "Introduction"
    assert bench._unrepeated("10.20", "Gegenwart (2022)", paths) == "Gegenwart (2022)"
    assert bench._unrepeated("Stand (2022)", "Stand (2022)", paths) == "Stand (2022)"


def test_a_bookmark_takes_the_line_that_prints_its_whole_title_before_one_that_starts_with_it() -> None:
    """`The LHC` is `2.1 The LHC`, not the chapter `The LHCb experiment` above it; the section `2.2 The LHCb
    experiment` after the chapter of the same title is 2.2 (the chapter's line is taken)."""
    page = ["Chapter 2.", "The LHCb experiment", "Some words of text.", "2.1. The LHC", "More text.", "2.2. The LHCb experiment"]
    taken: set[int] = set()
    titles = ["The LHCb experiment", "The LHC", "The LHCb experiment"]
    assert [bench.printed_path(page, title, taken) for title in titles] == ["2", "2.1", "2.2"]


def test_titles_in_other_scripts_keep_their_letters_and_numbers(tmp_path: Path) -> None:
    """A Cyrillic bookmark `Начало` over `1.1 Начало` is 1.1 (its key is not emptied of its letters); `Глава 2` and
    `Приложение A` alone over a title are a chapter and an appendix in a language the bench's word list lacks."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    fonts = Path("/usr/share/fonts/truetype/dejavu")
    if not (fonts / "DejaVuSans.ttf").exists():
        pytest.skip("DejaVu Sans is not installed")
    assert bench.key("Начало -- Debian") == "началоdebian" and bench.key("起源") == "起源" and bench.key("Élan") == "elan"
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.add_font("DejaVu", "", str(fonts / "DejaVuSans.ttf"))
    pages = [("Начало", ["1.1 Начало"]), ("Лидерство", ["Глава 2", "Лидерство"]), ("Манифест", ["Приложение A", "Манифест"])]
    for bookmark, lines in pages:
        pdf.add_page()
        pdf.start_section(bookmark, level=0)
        for y, text in enumerate([*lines, BODY]):
            pdf.set_font("DejaVu", "", 16 if text != BODY else 10)
            pdf.text(72, 100 + 22 * y, text)
    path = tmp_path / "cyrillic.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.title) for entry in bench.outline_reference(path)] == [
        ("1.1", "начало"),
        ("2", "лидерство"),
        ("Приложение A", "манифест"),
    ]


def test_a_sentence_that_ends_in_the_title_is_no_unnumbered_heading() -> None:
    """`experimental.`, the tail of a sentence above the heading `4.6.4.3 Experimental`, does not make the bookmark
    `Experimental` an unnumbered title; a title printed alone as a heading still does."""
    page = ["Laden Sie stattdessen Pakete besser nach", "experimental.", "4.6.4.3 Experimental", "Die Distribution Experimental ist"]
    assert bench.printed_path(page, "Experimental") == "4.6.4.3"
    assert bench.printed_path(["Experimental", "4.6.4.3 Experimental"], "Experimental") is None


def test_a_title_printed_word_for_word_comes_before_one_letter_spaced_in_a_listing() -> None:
    """A listing above the heading prints `5 % A f f i d a v i t` (its line number, a comment): the bookmark
    `Affidavit` is `C.1.7. Affidavit`, the line that prints the title as written."""
    page = ["4 \\\\dankname{Acknowledgement}", "5 % A f f i d a v i t", "6 \\\\eidname{ A f f i d a v i t }", "C.1.7. Affidavit", "Text."]
    assert bench.printed_path(page, "Affidavit") == "C.1.7"


def test_old_style_figures_in_the_private_use_area_are_read_as_digits() -> None:
    """A font's old-style figures mapped to U+F730…U+F739 are the digits the page prints (`1 Introduction`)."""
    assert "\uf731 Introduction".translate(bench.OLDSTYLE_DIGITS) == "1 Introduction"
    assert bench.key("Version \uf731.\uf732") == "version12"


def test_an_appendix_printed_as_its_letter_and_a_stop_is_that_letter() -> None:
    """`A. Packages` over the bookmark `Packages` is the appendix A; `I. Introduction` is no appendix I."""
    assert bench.printed_path(["A. Packages", "Text."], "Packages") == "A"
    assert bench.printed_path(["I. Introduction", "Text."], "Introduction") != "I"


def test_a_bookmark_with_a_mojibake_tail_matches_the_title_the_page_prints() -> None:
    """`… (using 硤攀昀` (the bytes of `\\xdef` misread in the bookmark) is the printed `… (using \\xdef)`; a title that
    lacks a Japanese title's Japanese words is not the same title."""
    assert bench._same_title(
        bench.key("Definition of global fields (using 硤攀昀"), bench.key("Definition of global fields (using \\xdef)")
    )
    assert not bench._same_title(bench.key("Debian の発音"), bench.key("Debian"))
    assert not bench._same_title(bench.key("プロジェクトリーダー Debian"), bench.key("Debian"))


def test_a_running_header_in_capitals_is_no_chapter_and_a_stand_in_letter_is_the_printed_one() -> None:
    """`INHALTSVERZEICHNIS 2` above the title is the running header and its page, no chapter 2; a bookmark writing
    `ß` for the `β` the page prints (`Use ß decay in a heading`) is that heading."""
    assert bench.printed_path(["INHALTSVERZEICHNIS 2", "Inhaltsverzeichnis", "1 Scope 4"], "Inhaltsverzeichnis") is None
    assert bench._same_title(bench.key("Use ß decay in a heading"), bench.key("Use β decay in a heading"))


def test_a_running_header_or_a_contents_entry_over_a_title_is_no_chapter() -> None:
    """`Index 47` heading the page over the index's letter group `U` (or over the title `Index` itself) repeats a
    section's title with the page, and `Index 64` in the middle of a contents page is an entry over the next title:
    neither is a chapter 47 or 64; `Глава 2` opening the page over its title still is chapter 2."""
    assert bench.printed_path(["Index 47", "U", "\\turn, 12"], "U", before=[bench.Entry("9", bench.key("Index"), 47)]) is None
    assert bench.printed_path(["Index 17", "Index", "A"], "Index") is None
    contents = ["Contents", "1 Introduction 4", "2 Colours 9", "Appendix 59", "Index 64", "List of Tables", "1 Models 5"]
    assert bench.printed_path(contents, "List of Tables") is None
    assert bench.printed_path(["Глава 2", "Лидерство", "Текст."], "Лидерство") == "2"


def test_a_spacing_accent_set_apart_from_its_letter_is_no_letter_of_the_title() -> None:
    """TeX builds `ế` as `e` with a circumflex and an acute set apart (`Thˆe´`): the page's title keys as the bookmark's
    `Hàn Thế Thành` does; a letter of another script is still kept."""
    assert bench.key("H`an Thˆe´ Th`anh") == bench.key("Hàn Thế Thành") == "hanthethanh"
    assert bench.key("Thˇe") == "the" and bench.key("ˆ起源") == "起源"


def test_a_letter_with_a_stroke_keys_as_the_letter_without_it() -> None:
    """amsldoc-vi p. 15 prints `4.11 Đánh số phương trình` (`Đ`, U+0110) where the bookmark, in PDFDocEncoding, which
    lacks `Đ`, holds `Ðánh so phuong trình` (`Ð`, U+00D0): one title, as the page's `đơn` is the bookmark's `don` (p. 8)."""
    assert bench.key("Đánh số phương trình") == bench.key("Ðánh so phuong trình") == "danhsophuongtrinh"
    assert bench.key("Phương trình đơn") == bench.key("Phuong trình don")
    assert bench.printed_path(["4.11 Đánh số phương trình", "Text."], "Ðánh so phuong trình") == "4.11"


def test_an_appendix_printed_in_capitals_is_that_appendix() -> None:
    """asmeconf-authorgrid-example p. 6 prints `APPENDIX B. MULTILINGUAL SUPPORT` for the bookmark `B Multilingual Support`
    and `APPENDIX A. THE VECTOR PRODUCT A⃗ × B⃗` (an arrow over each letter, U+20D7) for `A The Vector Product A×B`."""
    page = ["APPENDIX A. THE VECTOR PRODUCT A\u20d7 × B\u20d7", "This brief illustration", "APPENDIX B. MULTILINGUAL SUPPORT"]
    assert bench.printed_division(page, "B Multilingual Support") == ("Appendix B", "Multilingual Support")
    assert bench.printed_division(page, "A The Vector Product A×B") == ("Appendix A", "The Vector Product A×B")
    assert bench.printed_division(["FOO B. MULTILINGUAL SUPPORT"], "B Multilingual Support") is None


def test_a_part_printed_over_a_bookmark_and_a_letter_before_its_title_are_its_path() -> None:
    """montex p. 10 prints `Part I` alone over `MonTEX: System Overview` (the bookmark names no part); othelloboard
    p. 10 prints `A Layout of diagrams` for the bookmark `Layout of diagrams`, whose section is `A.1` (p. 13)."""
    page = ["Part I", "MonTEX: System Overview", "8"]
    assert bench.division_over_title(page, "MonTeX: System Overview") == ("Part I", "MonTeX: System Overview")
    assert bench.division_over_title(["Part I", "Other words", "MonTEX: System Overview"], "MonTeX: System Overview") is None
    assert bench.printed_letter(["Appendices", "A Layout of diagrams", "The board diagrams"], "Layout of diagrams") == "A"
    assert bench.printed_letter(["A Layout of diagrams"], "A Layout of diagrams") is None
    # a section's text that opens with its title after an article: the number printed with the title is its path
    lines = ["7.8.3 Magnetostatic 3D vector potential formulation", "A magnetostatic 3D vector potential formulation"]
    assert bench.printed_letter(lines, "Magnetostatic 3D vector potential formulation") is None


def test_an_unnumbered_path_that_opens_with_an_elided_article_is_compared_as_a_title() -> None:
    """`L'option xcas` (the bookmark) and `L’option xcas` (the page's apostrophe) are one unnumbered clause; `L 2` or
    `IV Loads` stay numbered paths, compared as paths."""
    run = bench.Run([("L’option xcas", bench.key("L’option xcas"), 5)], [], 0, [], "", 0.0, 5)
    share, missed = bench.recall([bench.Entry("L'option xcas", bench.key("L'option xcas"), 5)], run)
    assert share == 1.0 and not missed
    assert not bench._UNNUMBERED_PATH.match("IV Loads") and not bench._UNNUMBERED_PATH.match("L 2")


def test_an_unnumbered_path_opening_with_a_two_letter_word_is_compared_as_a_title() -> None:
    """`La instruccion \\override` (the bookmark, no accent) and `La instrucción \\override` (the page) are one
    unnumbered clause; `IV Loads` stays a numbered path."""
    run = bench.Run([("La instrucción \\override", bench.key("La instrucción \\override"), 5)], [], 0, [], "", 0.0, 5)
    share, missed = bench.recall([bench.Entry("La instruccion \\override", bench.key("La instruccion \\override"), 5)], run)
    assert share == 1.0 and not missed
    assert bench._title_path("El prefijo") and not bench._title_path("IV Loads") and not bench._title_path("II Usage")


def test_an_appendix_bookmarked_by_its_letter_is_found_with_the_word_the_page_prints() -> None:
    """The bookmark `B GNU Free Documentation License` and the clause `Apéndice B` titled `GNU Free Documentation License`
    (the page prints the word, SPEC §1 keeps it in the path) are one appendix, for recall and precision alike."""
    title = bench.key("GNU Free Documentation License")
    run = bench.Run([("Apéndice B", title, 44)], [], 0, [], "", 0.0, 44)
    entry = bench.Entry("B GNU Free Documentation License", bench.key("B GNU Free Documentation License"), 44)
    assert bench.recall([entry], run) == (1.0, [])
    assert bench._same_path(entry, "Apéndice B") and not bench._same_path(entry, "Apéndice C")


def test_a_heading_designated_by_a_letter_is_found_by_its_title() -> None:
    """A reference entry whose path is the letter or roman numeral the page prints (`B. Force and Torque Calculation`)
    is the clause the bundle names by its title on that page (a document numbered by designators, SPEC §1)."""
    title = bench.key("Force and Torque Calculation")
    run = bench.Run([("Force and Torque Calculation", title, 3)], [], 0, [], "", 0.0, 3)
    assert bench.recall([bench.Entry("B", title, 3)], run) == (1.0, [])
    assert bench.recall([bench.Entry("B", title, 4)], run)[0] == 0.0  # on another page: not found


def test_a_path_the_reference_found_no_number_for_is_compared_as_a_title() -> None:
    """An R FAQ's question bookmarks `I have two time-series with different frequency.`: the path is the title, though
    its first word reads as the numeral `I`; one holding code (`I set =2``` digits.sec=3, …`) is the clause the importer
    names as the page prints it (`I set digits.sec=3, …`). A numbered path (`I 2`) is not a title."""
    asked, coded = "I have two time-series with different frequency.", "I set =2```̃` digits.sec=3, but R doesn't show it."
    printed = "I set digits.sec=3, but R doesn't show it"
    run = bench.Run([(asked[:-1], bench.key(asked), 7), (printed, bench.key(printed), 4), ("I", "loads", 2)], [], 0, [], "", 0.0, 7)
    share, missed = bench.recall([bench.Entry(asked, bench.key(asked), 7), bench.Entry(coded, bench.key(coded), 4)], run)
    assert share == 1.0 and not missed
    assert bench.recall([bench.Entry("I 2", "loads", 2)], run)[0] == 0.0


def test_an_unnumbered_path_that_starts_with_a_version_is_compared_as_a_title() -> None:
    """A change log's bookmark `1.11a (28-01-2017)` names no clause number: its path is its title, compared as titles are
    (`1.11a – 28‑01‑2017` with a dash and no-break hyphens is the same); a repeated number `2.5 (2)` stays a path."""
    run = bench.Run([("1.11a – 28‑01‑2017", bench.key("1.11a (28-01-2017)"), 5), ("2.5", "loads", 6)], [], 0, [], "", 0.0, 6)
    share, missed = bench.recall([bench.Entry("1.11a (28-01-2017)", bench.key("1.11a (28-01-2017)"), 5)], run)
    assert share == 1.0 and not missed
    assert bench.recall([bench.Entry("2.5 (2)", "loads", 6)], run)[0] == 0.0
    assert not bench._title_path("2.5 (2)") and not bench._title_path("3.1") and bench._title_path("v2.0 beta")


def test_the_reference_reads_titles_the_text_layer_prints_oddly() -> None:
    """An `í` set as an accent over a dotless i (`L´ınea`) is `í`; a bookmark's UTF-8 bytes misread through
    PDFDocEncoding (`Ã›lÃ©ments`, `›` for 0x89), or beside characters typed as such, are decoded letter by letter."""
    assert bench.key("Opciones con la L´ınea de Comando") == bench.key("Opciones con la Línea de Comando")
    # Texinfo's bookmarks spell in ASCII what the page prints with `ß`, `œ` or `æ` (`5.3 Große Projekte`)
    assert bench.alike(bench.key("Grosse Projekte"), bench.key("Große Projekte"))
    assert bench.printed_path(["5.3 Große Projekte"], "Grosse Projekte") == "5.3"
    assert bench.key("Partition pour choeur") == bench.key("Partition pour chœur")
    assert bench.key("Caesar") == bench.key("Cæsar")
    assert bench.utf8_text("Ã›lÃ©ments optiques") == "Éléments optiques"
    assert bench.utf8_text("Position calculÃ©e avec «\u00a0calc »") == "Position calculée avec «\u00a0calc »"
    assert bench.utf8_text("NÃO É\u00a0» ‰") == "NÃO É\u00a0» ‰"
    # texlive-sr p. 3 prints `Увод` and `Подржани оперативни системи` where the bookmarks hold their UTF-8 bytes read as
    # PDFDocEncoding (`ž` for 0x9E, and 0x9F, undefined there, given as a space)
    assert bench.utf8_text("Ð£Ð²Ð¾Ð´") == "Увод"
    assert bench.utf8_text("Ð Ð¾Ð´Ñ•Ð¶Ð°Ð½Ð¸ Ñ†Ð¸Ñ†Ñ‡ÐµÐ¼Ð¸") == "Подржани системи"


def test_the_reference_reads_numbers_the_page_sets_oddly() -> None:
    """A title wrapped over four lines (`5.9.7 SYMBOLS` / `, AXES` / `, GRIDS` / `, MARKS`); a line number in the margin
    under `Chapter 2` (`15 chapter`); a number with a space after its stop under its parent's bookmark (`2. 1`, only
    there); a number the text layer runs into the title (`3TEXtopo`); a bookmark holding code (`"026E30F` for `\\`);
    a short title ending a longer printed one, wrapped (`18.2 Mais sobre … fontes no X E` / `LATEX/LuaLATEX`)."""
    assert bench.printed_path(["5.9.7 SYMBOLS", ", AXES", ", GRIDS", ", MARKS", "\\axes"], "Symbols, axes, grids, marks") == "5.9.7"
    assert bench.printed_path(["Chapter 2", "15 chapter chapter", "16 I use git"], "chapter") == "2"
    assert bench.printed_path(["2. 1 Création d'une grille", "Text."], "Création d'une grille", parent="2") == "2.1"
    assert bench.printed_path(["2. 1 Création d'une grille", "Text."], "Création d'une grille", parent="3") != "2.1"
    assert bench.printed_path(["of the following sections.", "3TEXtopo user commands", "The package"], "TeXtopo user commands") == "3"
    assert bench.printed_path(["8.2.7. No me funciona \\subsubsubsection."], 'No me funciona "026E30F subsubsubsection.') == "8.2.7"
    assert bench.printed_path(["8.2.8. Setting values"], "Setting default values") is None
    page = ["com os símbolos de AMS.", "18.2 Mais sobre básicos das fontes no X E", "LATEX/LuaLATEX", "No X E"]
    assert bench.printed_path(page, "Fontes no XeLaTeX/LuaLaTeX") == "18.2"


def test_the_reference_passes_over_running_headers_and_anchors_at_a_page_foot(tmp_path: Path) -> None:
    """`Chapter 12. Measures and counters 86` heading pages 2 to 4 is no chapter 12 for the bookmark `Measures` (the
    page prints `12.2 Measures defined by the user`); the bookmark `Contents` anchored on the contents' second page,
    which prints the title only as its running header, is the first page's title; a bookmark anchored under the last
    line of its page is the heading that opens the next one (`2. 2`, under `2`)."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)

    def page(header: str | None, lines: list[tuple[str, str | None, int]]) -> None:
        pdf.add_page()
        if header:
            pdf.set_font("Helvetica", "", 9)
            pdf.text(72, 40, header)
        y = 90.0
        for text, bookmark, level in lines:
            if bookmark:
                pdf.set_y(y - 4)
                pdf.start_section(bookmark, level=level)
            pdf.set_font("Helvetica", "", 10)
            y += 14
            pdf.text(72, y, text)

    page("Contents", [("Contents", None, 0), ("1 Measures and counters . . . . 3", None, 0)])
    page("Contents", [("2 Grids . . . . 5", None, 0), ("", "Contents", 0)])
    page(None, [("12 Measures and counters", "Measures and counters", 0), (BODY, None, 0)])
    page(f"Chapter 12. Measures and counters {87}", [(BODY, None, 0), ("12.2 Measures defined by the user", "Measures", 1)])
    page(f"Chapter 12. Measures and counters {88}", [(BODY, None, 0)])
    page(None, [("2 Grids", "Grids", 0), (BODY, None, 0)])
    pdf.set_y(820)
    pdf.start_section("Black squares", level=1)  # under the last line
    page(None, [("2. 2 Black squares", None, 0), (BODY, None, 0)])
    path = tmp_path / "headers.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.page) for entry in bench.outline_reference(path)] == [
        ("Contents", 1),
        ("12", 3),
        ("12.2", 4),
        ("2", 6),
        ("2.2", 7),
    ]


def test_a_word_and_a_page_number_counting_up_over_three_pages_is_a_running_header(tmp_path: Path) -> None:
    """windycity p. 94-96 print `Bibliography 94`, `Bibliography 95`, `Bibliography 96` at their top, the first over the
    title `Bibliography (Standard Format)`: a running header with its page number, no chapter 94. Three one-page
    chapters opening with `Chapter 2`, `Chapter 3`, `Chapter 4`, their page numbers printed apart, are three chapters."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pages = [
        ("Abbreviations 93", None, BODY),
        ("Bibliography 94", "Bibliography (Standard Format)", "Adams, Henry. Letters. Boston, 1930."),
        ("Bibliography 95", None, "Austen, Jane. Pride and Prejudice. London, 1813."),
        ("Bibliography 96", None, "Bagley, Benjamin. Loving Someone. Chicago, 2012."),
        ("Chapter 2", "Grids", "The grids of the package are drawn in a picture."),
        ("Chapter 3", "Squares", "The squares of a grid are black or white."),
        ("Chapter 4", "Circles", "The circles of a grid are drawn in the squares."),  # one-page chapters (main-7 p. 9-11)
    ]
    for number, (header, bookmark, text) in enumerate(pages, start=1):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 10)
        pdf.text(72, 40, header)
        if bookmark:
            pdf.set_y(50)
            pdf.start_section(bookmark, level=0)
            pdf.set_font("Helvetica", "B", 14)
            pdf.text(72, 70, bookmark)
        pdf.set_font("Helvetica", "", 10)
        pdf.text(72, 100, text)
        if header.startswith("Chapter"):
            pdf.text(290, 800, str(number - 4))  # the page number, apart
    path = tmp_path / "header.pdf"
    pdf.output(str(path))
    reference = bench.outline_reference(path)
    assert [(entry.path, entry.page) for entry in reference] == [("Bibliography (Standard Format)", 2), ("2", 5), ("3", 6), ("4", 7)]


def test_an_unnumbered_bookmark_never_takes_the_line_of_a_numbered_one_of_the_same_title(tmp_path: Path) -> None:
    """sample-sigconf p. 5 prints `14 ACKNOWLEDGMENTS` (bookmark `14 Acknowledgments`) and, further on, `ACKNOWLEDGMENTS`
    alone (bookmark `Acknowledgments`, the paper's closing section): the second is unnumbered, not `14 (2)`."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    for y, text, bookmark in (
        (100, "14 ACKNOWLEDGMENTS", "14 Acknowledgments"),
        (120, BODY, None),
        (400, "ACKNOWLEDGMENTS", "Acknowledgments"),
    ):
        if bookmark:
            pdf.set_y(y - 14)
            pdf.start_section(bookmark, level=0)
        pdf.set_font("Helvetica", "B" if bookmark else "", 10)
        pdf.text(72, y, text)
    path = tmp_path / "acks.pdf"
    pdf.output(str(path))
    assert [entry.path for entry in bench.outline_reference(path)] == ["14", "Acknowledgments"]


def test_a_running_header_repeats_with_its_page_number_alone_changed() -> None:
    """`Capítulo 12. Medidas e Contadores 86` over `… 87` on the next page is one running header; two change log
    entries opening their pages (`22.3 Version 4.6.1`, `22.6 Version 4.5.0`) or `Capítulo 7` and `Capítulo 1` in an
    example are not."""
    assert bench._repeats("Capítulo 12. Medidas e Contadores 86", "Capítulo 12. Medidas e Contadores 87")
    assert bench._repeats("Inhaltsverzeichnis", "Inhaltsverzeichnis")
    assert not bench._repeats("22.3 Version 4.6.1", "22.6 Version 4.5.0")
    assert not bench._repeats("9.1.8. Wydanie 2011", "9.1.9. Wydanie 2012")
    assert not bench._repeats("Capítulo 7", "Capítulo 1")
    assert not bench._repeats("Chapter 2", "Chapter 3")
    assert not bench._repeats("86", "87")  # a page number alone is passed over apart


def test_a_short_bookmark_inside_a_numbered_title_takes_its_number() -> None:
    """`jurabook` over a page printing `3 Die jurabook Klasse` (no line printing `jurabook` alone) is chapter 3; the
    bookmark's words at the start or end of a title are still preferred (`1.1 About etoolbox` for `About`)."""
    assert bench.printed_path(["3 Die jurabook Klasse", "Die mit Abstand umfangreichste Klasse."], "jurabook") == "3"
    assert bench.loosely_printed(["2 About the jurabook class", "1.1 About etoolbox"], "About etoolbox") == ("1.1", "About etoolbox")


def test_a_heading_printed_last_on_its_page_keeps_an_anchor_set_under_it(tmp_path: Path) -> None:
    """Texinfo sets a heading's anchor under it: `5.6 Collisions of objects`, the last line of its page, is on that
    page though the anchor lies under every line of it."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    pdf.text(72, 100, BODY)
    pdf.text(72, 780, "5.6 Collisions of objects")
    pdf.set_y(800)
    pdf.start_section("Collisions of objects", level=0)
    pdf.add_page()
    pdf.text(72, 100, "5.6.1 Moving objects")
    path = tmp_path / "texinfo.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.page) for entry in bench.outline_reference(path)] == [("5.6", 1)]


def test_a_page_number_set_above_the_bottom_band_is_no_text_under_an_anchor(tmp_path: Path) -> None:
    """The page number `29` set high under a listing (above the bottom 8 %) does not hide that the bookmark
    `Standard Styles` is anchored under the page's last line: its heading `3.8 Standard Styles` opens the next page."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    pdf.text(72, 600, BODY)
    pdf.text(290, 740, "29")
    pdf.set_y(620)
    pdf.start_section("Standard Styles", level=0)
    pdf.add_page()
    pdf.text(72, 100, "3.8 Standard Styles")
    path = tmp_path / "foot.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.page) for entry in bench.outline_reference(path)] == [("3.8", 2)]


def test_the_sample_table_lists_a_pdf_labelled_in_a_later_sample_only() -> None:
    """A PDF of the fourth sample alone (no first-sample pages) still has its row in the Markdown table; corpus PDFs
    name their sampling step."""
    scores = {"truthPages": 3, "realTables": 1, "tablesFoundOnTruthPages": 2, "falseTables": 1, "falseShare": 50.0, "missedTables": 0}
    rows = [{"document": "songs.pdf", "precisionFourth": scores}, {"document": "policy.pdf", "precision": scores}, {"document": "x.pdf"}]
    lines = bench.sample_table(rows, {"policy.pdf"})
    assert lines[2] == "| songs.pdf | fourth | 3 | 1 | 2 | 1 (50.0 %) | 0 |"
    assert lines[3].startswith("| policy.pdf | first (every 12th from 6) |") and len(lines) == 4
    assert bench.sample_table([{"document": "x.pdf"}], set()) == []


def test_tree_precision_counts_the_clauses_no_bookmark_has_where_the_outline_goes_down_to() -> None:
    """Of the clauses an import writes, those matching a bookmark (same page, same title or path, each bookmark once)
    are right; one on a page before the first bookmark (a title page), or on its page ahead of its clause, or under a bookmark the outline lists nothing
    under (a subsection of a leaf) is not judged; any other is invented: a margin line under a chapter whose sections
    are bookmarked, a heading written twice, a title on another page than its bookmark's."""
    reference = [
        bench.Entry("1", bench.key("Loads"), 2, level=0),
        bench.Entry("1.1", bench.key("Snow"), 2, level=1),
        bench.Entry("1.2", bench.key("Wind loads on tall buildings"), 3, level=1),
        bench.Entry("2", bench.key("Actions"), 4, level=0),
    ]
    bench.mark_leaves(reference)
    assert [entry.leaf for entry in reference] == [False, True, True, True]
    bench.mark_leaves([])  # an outline without a usable bookmark (gamebook-example): nothing to mark, no error
    nodes = [
        ("The manual", None, 1),  # before the first bookmark: a title page
        ("Contents", None, 2),  # on the first bookmark's page, ahead of its clause: a printed contents
        ("1", None, 2),
        ("1.1", None, 2),
        ("1.1.1", "1.1", 2),  # below a leaf: the outline does not go down to it
        ("Ground snow", "1.1.1", 2),  # deeper still
        ("Note", "1", 2),  # a margin line beside the sections of a chapter whose sections are bookmarked
        ("1.2", "1", 3),  # the path and page of its bookmark, the title cut short: the bookmark's clause
        ("2", None, 4),
        ("Actions", None, 4),  # the same heading written twice
        ("Snow", None, 5),  # a bookmark's title on another page
    ]
    titles = {"1": "Loads", "1.1": "Snow", "1.1.1": "Snow depth", "1.2": "Wind loads", "2": "Actions"}
    run = bench.Run(
        [(path, bench.key(titles.get(path, path)), page) for path, _, page in nodes],
        [],
        0,
        [],
        "",
        0.0,
        5,
        {path: parent for path, parent, _ in nodes},
    )
    precision = bench.tree_precision(reference, run)
    assert precision == {
        "nodes": 11,
        "matched": 4,
        "invented": 3,
        "below": 2,
        "before": 2,
        "share": 57.1,
        "inventedNodes": ["Note note p2", "Actions actions p4", "Snow snow p5"],
        "belowNodes": ["1.1.1 snowdepth p2", "Ground snow groundsnow p2"],
    }
    assert bench.precision_cell(precision) == "57.1 % (3 invented; 2 below, of 11)"
    assert bench.tree_precision([], run) is None and bench.precision_cell(None) == "–"


def test_the_outline_reference_knows_which_bookmarks_have_none_under_them(tmp_path: Path) -> None:
    """A bookmark followed by a deeper one is no leaf; the last one, and one followed by a shallower one, are."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    for text, level in (("1 Loads", 0), ("1.1 Snow", 1), ("2 Actions", 0)):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 10)
        pdf.set_y(80)
        pdf.start_section(text, level=level)
        pdf.text(72, 100, text)
        pdf.text(72, 120, BODY)
    path = tmp_path / "levels.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.level, entry.leaf) for entry in bench.outline_reference(path)] == [
        ("1", 0, False),
        ("1.1", 1, True),
        ("2", 0, True),
    ]


def test_a_bookmark_under_a_numbered_one_never_takes_its_parents_number(tmp_path: Path) -> None:
    """DocBy.TeX bookmarks each command it documents under its section (`\\begtt` under `commands \\begtt, \\endtt`,
    which the page prints `5.4 Commands \\begtt, \\endtt`): the command's words in its parent's numbered title make it no
    `5.4 (2)`; it is the unnumbered `\\begtt`."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    pdf.set_y(90)
    pdf.start_section("commands \\begtt, \\endtt", level=0)
    pdf.text(72, 100, "5.4 Commands \\begtt, \\endtt")
    pdf.set_y(106)
    pdf.start_section("\\begtt", level=1)
    pdf.text(72, 116, "The \\begtt and \\endtt macros are described in the manual of the format, with examples.")
    path = tmp_path / "commands.pdf"
    pdf.output(str(path))
    assert [entry.path for entry in bench.outline_reference(path)] == ["5.4", "\\begtt"]


def test_paths_are_compared_as_the_bundle_compares_them(tmp_path: Path) -> None:
    """`\\asbuk` after `\\Asbuk` (two commands, montex) is a repeat to the bundle, which folds case: the import writes
    it `\\asbuk (2)`, and the bench reads its title back as `\\asbuk`; an unnumbered path opening with punctuation
    (`...DocBy.TeX...`, which the import writes `...DocBy.TeX`) is compared as a title."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    for command in ("\\Asbuk", "\\asbuk"):
        pdf.add_page()
        pdf.set_font("Helvetica", "", 10)
        pdf.set_y(90)
        pdf.start_section(command, level=0)
        pdf.text(72, 100, command)
        pdf.text(72, 120, BODY)
    path = tmp_path / "commands.pdf"
    pdf.output(str(path))
    run = bench.import_once(path, tmp_path / "workspace", "commands")
    assert [(title, page) for _, title, page in run.nodes] == [("asbuk", 1), ("asbuk", 2)]
    assert bench.recall(bench.outline_reference(path), run) == (1.0, [])
    run = bench.Run([("...DocBy.TeX", bench.key("...DocBy.TeX"), 1)], [], 0, [], "", 0.0, 1)
    assert bench.recall([bench.Entry("...DocBy.TeX...", bench.key("...DocBy.TeX..."), 1)], run) == (1.0, [])


def test_a_page_number_in_old_style_figures_is_a_page_number() -> None:
    """dun19expl3 p. 14 prints its number `14` in old-style figures (U+F731 U+F734) above the bottom band: it is no text
    under the last line, so the bookmark anchored under that line opens the next page."""
    assert bench.page_number("\uf731\uf734") and bench.page_number("14") and bench.page_number("xii")
    assert not bench.page_number("14 Grids") and not bench.page_number("\uf731\uf734a")


def test_a_contents_bookmark_under_the_lists_last_entry_is_the_contents_title(tmp_path: Path) -> None:
    """l2tabu anchors its `Inhaltsverzeichnis` bookmark on the contents' second page under the list's last entry
    (pp. 3-4: the title printed over the list on p. 3, only as the running header on p. 4): the heading is the title
    on the first page, not one opening the page after the list."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    for header, lines in (
        ("Contents", ["Contents", "1 Loads . . . . 3", "1.1 Snow . . . . 3"]),
        ("Contents", ["2 Grids . . . . 4", "A Example . . . . 5"]),
        (None, ["1 Loads", BODY]),
    ):
        pdf.add_page()
        if header:
            pdf.set_font("Helvetica", "", 9)
            pdf.text(72, 40, header)
        pdf.set_font("Helvetica", "", 10)
        for k, text in enumerate(lines):
            pdf.text(72, 104 + 14 * k, text)
        if lines[0].startswith("2 Grids"):
            pdf.set_y(400)  # under the list's last entry
            pdf.start_section("Contents", level=0)
        if lines[0] == "1 Loads":
            pdf.set_y(80)
            pdf.start_section("Loads", level=0)
    path = tmp_path / "contents.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.page) for entry in bench.outline_reference(path)] == [("Contents", 1), ("1", 3)]


def test_a_short_bookmark_ending_one_numbered_title_of_its_page_takes_its_number() -> None:
    """biblatex-ext p. 52 bookmarks `pict2e` and `TikZ`, the short forms of `7.3.1 Open access symbols with pict2e` and
    `7.3.2 Open access symbols with TikZ`: each takes the number of the one line it ends; a short title that ends two
    numbered lines of its page takes neither."""
    page = ["7.3.1 Open access symbols with pict2e", "The package draws the symbol.", "7.3.2 Open access symbols with TikZ"]
    assert bench.printed_path(page, "pict2e") == "7.3.1"
    assert bench.printed_path(page, "TikZ") == "7.3.2"
    assert bench.printed_path(["2.1 The loads on roofs with snow", "2.2 The actions on walls with snow"], "snow") is None


def test_a_list_item_that_reads_as_the_title_is_no_heading() -> None:
    """biblatex-realauthor p. 4 lists `• Sorting.` under 2.5 before its heading `2.6 Sorting`: the bookmark `Sorting` is
    the section 2.6, not an unnumbered title printed alone."""
    page = ["2.5 Labelname field", "That implies this field is use for:", "• Sorting.", "• ibid / op. cit abreviation.", "2.6 Sorting"]
    assert bench.printed_path(page, "Sorting") == "2.6"
    # GLPK's appendix lists its sections led by em dashes before the first of them
    page = ["— objective function definition;", "— constraints section;", "C.2 Objective function definition"]
    assert bench.printed_path(page, "Objective function definition") == "C.2"


def test_a_chapter_title_that_its_next_pages_repeat_as_their_header_is_its_heading(tmp_path: Path) -> None:
    """tracklang-manual p. 7 opens with `1. Introduction`, which pp. 8-13 repeat as their running header: on p. 7 (the page
    before prints no such line) it is the chapter's heading, numbered 1; `A. Region and Script Mappings` likewise."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pages = [
        ("User Guide", None),
        ("1. Introduction", "Introduction"),
        ("1. Introduction", None),
        ("A. Region and Script Mappings", "Region and Script Mappings"),
        ("A. Region and Script Mappings", None),
    ]
    for first, bookmark in pages:
        pdf.add_page()
        if bookmark:
            pdf.set_y(40)
            pdf.start_section(bookmark, level=0)
        pdf.set_font("Helvetica", "", 10)
        pdf.text(72, 60, first)
        pdf.text(72, 100, BODY)
    path = tmp_path / "chapters.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.page) for entry in bench.outline_reference(path)] == [("1", 2), ("A", 4)]


def test_the_reference_reads_cyrillic_that_the_text_layer_gives_as_latin1_letters(tmp_path: Path) -> None:
    """Pages set in Windows-1251 fonts without a map to Unicode read `1 Èñõîäíûå ôàéëû`: the reference reads them back
    (`1 Исходные файлы`), so a bookmark `Исходные файлы` is clause 1 as printed; a French page keeps its accents."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    prose = "Неважно, вставляете ли вы один или несколько пробелов между словами."
    for bookmark, heading, text in [
        ("Исходные файлы", "1 Исходные файлы", prose),
        ("Пробелы", "2 Пробелы", prose),
        ("Règles", "Règles", "Les règles de l'été à Genève, où l'on écrit « élève » et « à côté »."),
    ]:
        pdf.add_page()
        pdf.start_section(bookmark, level=0)
        for y, (line, size) in enumerate([(heading, 16), (text, 10), (text, 10)]):
            pdf.set_font("Helvetica", "B" if size == 16 else "", size)
            misread = line.encode("cp1251").decode("latin-1") if text == prose else line  # the codes as Latin-1 letters
            pdf.text(72, 100 + 22 * y, misread)
    path = tmp_path / "cp1251.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.title) for entry in bench.outline_reference(path)] == [
        ("1", "исходныефайлы"),
        ("2", "пробелы"),
        ("Règles", "regles"),
    ]


def test_a_bookmark_pointing_at_its_contents_entry_is_the_heading_printed_later(tmp_path: Path) -> None:
    """An outline whose destinations all point at the contents page (`2.2 Metadata 2` listed there, the heading printed
    on page 2): the reference places the bookmark where its heading is printed, not on the contents entry; a bookmark
    whose page prints its heading as well as a contents entry for it (`1 Introduction`) stays there."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    for y, text in ((90, "Contents"), (104, "1 Introduction 1"), (118, "2 Usage 1"), (132, "2.2 Metadata 2"), (146, "3 History 3")):
        pdf.text(72, y, text)
    pdf.set_y(160)
    for title, level in (("Introduction", 0), ("Usage", 0), ("Metadata", 1), ("History", 0)):
        pdf.start_section(title, level=level)  # every destination on page 1, under the contents
    for y, text in ((180, "1 Introduction"), (194, BODY), (208, "2 Usage"), (222, BODY)):
        pdf.text(72, y, text)
    for heading in ("2.2 Metadata", "3 History"):
        pdf.add_page()
        pdf.text(72, 90, BODY)
        pdf.text(72, 104, heading)
        pdf.text(72, 118, BODY)
    path = tmp_path / "contents.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.page) for entry in bench.outline_reference(path)] == [
        ("1", 1),
        ("2", 1),
        ("2.2", 2),
        ("3", 3),
    ]


def test_a_bookmark_stored_as_pdfdocencoding_bytes_reads_back_a_three_byte_sign() -> None:
    """`Placing â•ﬁ the Main Commands`: the bytes E2 80 93 of an en dash, each read as a PDFDocEncoding character."""
    dash = "–".encode()
    misread = "".join(chr(byte) if byte >= 0xA0 else {0x80: "•", 0x93: "ﬁ"}[byte] for byte in dash)
    assert bench.utf8_text(f"Placing {misread} the Main Commands") == "Placing – the Main Commands"


def test_a_listing_line_numbered_before_a_command_gives_no_number() -> None:
    """A run-in heading `textcolor The command …` over a listing whose second line is `2 \\textcolor{red}{…}`: the
    listing's line number is no clause number of the bookmark `textcolor`."""
    page = ["textcolor The two-argument command is supported.", "1 \\begin{arab}", "2 \\textcolor{red}{text}", "3 \\end{arab}"]
    assert bench.printed_path(page, "textcolor") is None


def test_a_bookmark_under_a_pages_last_line_moves_only_to_a_next_page_printing_it(tmp_path: Path) -> None:
    """Pages whose text layer lacks the body (a link's URL alone, or nothing): a bookmark to such a page is under no
    last line of text, and under the URL the next page, which does not print its title, confirms no move; its target
    page is the heading's. A bookmark under the last line whose next page prints the title still moves there."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.set_font("Helvetica", "", 10)
    pdf.add_page()
    pdf.set_y(100)
    pdf.start_section("1 About", level=0)
    pdf.text(72, 120, "1 About")
    pdf.text(72, 140, BODY)
    pdf.add_page()  # no text at all
    pdf.set_y(300)
    pdf.start_section("1.1 Scope", level=1)
    pdf.add_page()
    pdf.text(72, 100, "https://lists.example.org/project/")
    pdf.set_y(400)
    pdf.start_section("1.2 Terms", level=1)
    pdf.add_page()
    pdf.text(72, 100, BODY)
    pdf.set_y(700)
    pdf.start_section("2 Usage", level=0)  # under the last line; the next page opens with the heading
    pdf.add_page()
    pdf.text(72, 100, "2 Usage")
    pdf.text(72, 120, BODY)
    path = tmp_path / "drawn.pdf"
    pdf.output(str(path))
    assert [(entry.path, entry.page) for entry in bench.outline_reference(path)] == [("1", 1), ("1.1", 2), ("1.2", 3), ("2", 5)]


def test_a_heading_whose_number_goes_on_from_its_parents_is_read_before_a_line_of_the_same_words() -> None:
    """A page that prints a bookmark's title three times: as the running header `1.1 Introduction` (the section
    before), as a list's term `cover` or a sentence's end `(ASN.1).`, and as the heading whose number goes on from the
    parent's: that heading's number is the bookmark's."""
    lines = ["1.1 Introduction", "The application provides the following:", "cover", "A coverage analysis tool.", "(ASN.1)."]
    lines += ["1.1 Introduction", "1.1.1 cover", "1.2 ASN.1", "1.2.1 Introduction", BODY]
    assert bench.printed_path(lines, "cover", set(), (), "1.1") == "1.1.1"
    assert bench.printed_path(lines, "ASN.1", set(), (), "1") == "1.2"
    taken = {0}  # the first bookmark `Introduction` took the running header
    assert bench.printed_path(lines, "Introduction", taken, (), "1.2") == "1.2.1"
    assert bench.printed_path(lines, "cover", set(), (), None) is None  # no parent to go on from: the term, unnumbered


def test_the_outline_reference_reads_a_repeated_bookmark_once_and_past_eight_levels(tmp_path: Path) -> None:
    """An outline written a second time after its end (the same titles to the same places) lists each heading once, as
    the importer reads it: no reference entry `1 (2)` that no clause could match. Bookmarks nested deeper than eight
    levels are entries as well."""
    fpdf = pytest.importorskip("fpdf", reason="fpdf2 (a dev dependency) makes the test PDFs")
    from fpdf.outline import OutlineSection

    pdf = fpdf.FPDF(unit="pt", format=(595, 842))
    pdf.set_auto_page_break(False)
    pdf.add_page()
    pdf.set_font("Helvetica", "", 10)
    for level in range(10):
        text = ".".join(["1"] * (level + 1)) + f" Level {level + 1}"
        pdf.set_y(60 + 60 * level)
        pdf.start_section(text, level=level)
        pdf.text(72, 70 + 60 * level, text)
        pdf.text(72, 84 + 60 * level, BODY)
    pdf._outline = pdf._outline + [OutlineSection(section.name, 0, section.page_number, section.dest) for section in pdf._outline[:2]]
    path = tmp_path / "twice.pdf"
    pdf.output(str(path))
    assert [entry.path for entry in bench.outline_reference(path)] == [".".join(["1"] * (level + 1)) for level in range(10)]
