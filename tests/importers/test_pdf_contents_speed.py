"""The cheap tests that spare the contents patterns a search they cannot win: each must let through every line
the patterns match."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from normcli.importers.pdf_contents import _ENTRY, _INDEX_ENTRY, _PAGE_AT_END

# lines built from the pieces an entry is made of, and from any characters (the case-folded numerals `ı`, `İ` among them)
PIECES = st.sampled_from(["Intro", " ", ".", ". . ", ",", "12", "iv", "IV", "ı", "İ", "–", "\n", "x", "\u0663", "é"])
LINES = st.one_of(st.lists(PIECES, max_size=8).map("".join), st.text(max_size=12))


@settings(max_examples=400, deadline=None)
@given(LINES)
def test_a_line_without_a_page_number_at_its_end_matches_no_entry_pattern(text: str) -> None:
    if not _PAGE_AT_END.search(text, len(text) - 2):
        assert not _ENTRY.match(text)
        assert not _INDEX_ENTRY.match(text)


def test_the_entries_of_an_index_and_of_contents_pass() -> None:
    for text in ["Introduction .......... 12", "\\author, 41, 100", "Preface iv", "Preface IV", "Einleitung 3\n", "Başlık ı"]:
        assert _PAGE_AT_END.search(text, len(text) - 2), text
    assert not _PAGE_AT_END.search("A sentence.", 9)
