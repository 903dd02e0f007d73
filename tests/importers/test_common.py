"""The shared rules: clause numbers, their reading order, spelled-out chapters, safe Markdown lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from normcli.errors import InvalidArgument
from normcli.importers import guess_language, ingest
from normcli.importers.common import (
    Sequencer,
    UniqueTitles,
    clean_inline,
    figure_name,
    parse_number,
    roman_value,
    safe_file_name,
    safe_text_line,
    slug,
    spelled_number,
    title_key,
)


@pytest.mark.parametrize(
    ("text", "path", "title", "depth"),
    [
        ("4.2.1 Charge de neige", "4.2.1", "Charge de neige", 3),
        ("4.2.1. Snow load", "4.2.1", "Snow load", 3),
        ("Annexe A (informative) Exemples", "Annexe A", "(informative) Exemples", 1),
        ("Anhang B: Beispiele", "Anhang B", "Beispiele", 1),
        ("Appendix C.  Collected ABNF", "Appendix C", "Collected ABNF", 1),
        ("A.1.2 Details", "A.1.2", "Details", 3),
        ("Chapter 2. The Filesystem", "2", "The Filesystem", 1),
        ("Capítulo 3 Composición de fórmulas", "3", "Composición de fórmulas", 1),
        ("Apêndice A Como instalar", "Apêndice A", "Como instalar", 1),
        ("Anexo B (informativo) Ejemplos", "Anexo B", "(informativo) Ejemplos", 1),
    ],
)
def test_clause_numbers_in_six_languages(text: str, path: str, title: str, depth: int) -> None:
    number = parse_number(text)
    assert number is not None and (number.path, number.title, number.depth) == (path, title, depth)


def test_numbers_out_of_order_are_not_clauses() -> None:
    sequencer = Sequencer()
    accepted = []
    for text in [
        "1 Scope",
        "1.1 Terms",
        "3 Third item",
        "2 Rules",
        "2.1 General",
        "1 List item",
        "2.1.1 Detail",
        "Annex A X",
        "A.1 Y",
        "3 Z",
    ]:
        number = parse_number(text)
        assert number is not None
        if sequencer.fits(number):
            sequencer.accept(number)
            accepted.append(number.path)
    assert accepted == ["1", "1.1", "2", "2.1", "2.1.1", "Annex A", "A.1"]


def test_a_skipped_sibling_is_tolerated_only_when_asked() -> None:
    sequencer = Sequencer()
    for text in ("1 A", "1.1 B"):
        number = parse_number(text)
        assert number is not None
        sequencer.accept(number)
    skipped = parse_number("1.3 D")
    assert skipped is not None
    assert not sequencer.fits(skipped) and sequencer.fits(skipped, skip=2)


def test_spelled_out_chapter_numbers() -> None:
    assert spelled_number("ONE") == 1 and spelled_number("TWENTYONE") == 21 and spelled_number("twenty-three") == 23
    assert spelled_number("CHAPTER") is None


def test_lines_markdown_would_misread_are_escaped() -> None:
    assert safe_text_line("# hash") == "\\# hash"
    assert safe_text_line("<!-- page 3 -->") == "\\<!-- page 3 -->"
    assert safe_text_line("#include <x>") == "#include <x>"


def test_slugs_and_languages() -> None:
    assert slug("SIA 261") == "sia-261" and slug("EN 1991-1-3") == "en-1991-1-3" and slug("Ö-Norm B 4000") == "o-norm-b-4000"
    assert guess_language("La présente norme s'applique aux structures et les charges de la neige.") == "fr"
    assert guess_language("Die Norm gilt für die Tragwerke und ist nicht für Brücken.") == "de"
    assert guess_language("Il presente documento della norma per le strutture che sono nel progetto.") == "it"
    assert guess_language("The standard applies to the design of structures and is used with EN 1990.") == "en"


def test_an_empty_file_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "empty.md"
    source.write_text("\n\n", encoding="utf-8")
    with pytest.raises(InvalidArgument, match="no text"):
        ingest(source, "X 1", "1", workspace=tmp_path)
    assert not (tmp_path / "norms" / "x-1").exists()


def test_repeated_unnumbered_titles_get_a_counter_one_rule_for_every_importer() -> None:
    unique = UniqueTitles()
    assert [unique(title) for title in ("Purpose", "Scope", "PURPOSE", "Purpose.")] == ["Purpose", "Scope", "PURPOSE (2)", "Purpose. (3)"]


def test_a_figure_file_stem_is_its_bundle_id() -> None:
    assert figure_name("2.1") == "fig-2.1" and figure_name("3") == "fig-3" and figure_name("A.2") == "fig-a.2"
    assert safe_file_name("../..") == "file" and safe_file_name(".hidden") == "hidden"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        ("libre\u00a0; vous", "libre\u00a0; vous"),  # French typography keeps its no-break space
        ("«\u00a0mot\u00a0»", "«\u00a0mot\u00a0»"),
        ("Section\u00a012.3", "Section 12.3"),  # elsewhere a no-break space is a space
        ("e\ufb03cient \ufb02ow", "efficient flow"),  # ligatures become letters, so words are searchable
        ("a \t b", "a b"),
        # the same with letters beyond ASCII (another path, which runs each pattern only where it can match)
        ("‹ mot ›", "‹\u00a0mot ›"),  # after an opening guillemet a space becomes a no-break space
        ("« libre »", "«\u00a0libre »"),
        ("prix\u202f: 3 €", "prix\u202f: 3 €"),
        ("été  hiver", "été hiver"),
        ("été\u00a0\u00a0hiver", "été hiver"),
        ("naïve\t\tword ", "naïve word"),
    ],
)
def test_glyphs_are_cleaned_without_losing_typography(raw: str, clean: str) -> None:
    assert clean_inline(raw) == clean


def test_a_roman_numeral_is_read_in_ascii_letters_only() -> None:
    """`xiv` and `II` are numerals; a dotless `ı` (which matches `i` when case is ignored) or `ⅰ` is none, not a crash."""
    assert [roman_value(text) for text in ("xiv", "II", "mcmxcix")] == [14, 2, 1999]
    assert [roman_value(text) for text in ("ı", "ıi", "Iİ", "ⅰ", "vv", "")] == [None] * 6


def test_a_title_key_keeps_the_letters_of_every_script() -> None:
    """Accents are folded for Latin letters only; Cyrillic, Greek, CJK and Hangul titles keep their own letters (never
    transliterated, so two kanji read alike stay two titles), half-width kana are the full-width ones."""
    assert title_key("Übersicht: Maße & Øre") == title_key("ubersicht masse ore") == "ubersichtmasseore"
    assert title_key("Начало -- Debian") == "началоdebian"
    assert title_key("起源") == "起源" and title_key("起源") != title_key("奇缘")
    assert title_key("개요 -- 데비안?") == "개요데비안"
    assert title_key("ﾌﾟﾛｼﾞｪｸﾄ") == title_key("プロジェクト") == "プロジェクト"
    assert title_key("が") != title_key("か")  # a kana's voicing mark is no accent
    assert title_key("नमस्ते") == "नमस्ते"  # a Devanagari vowel sign and virama belong to the word
    assert title_key("The vector product A\u20d7 × B\u20d7") == title_key("The Vector Product A×B")  # an arrow over a symbol
