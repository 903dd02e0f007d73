"""The shortcuts an import takes for speed give what the plain computation gives: text cleaned with a pattern run
only where it can match."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from normcli.importers.common import _BLANKS, _KEPT_NO_BREAK, _LOOSE_SPACES, _clean_unicode

# text made of what the patterns look for (blanks, tabs, no-break spaces, guillemets, signs) and some letters
SPACING = st.lists(st.sampled_from([" ", "  ", "\t", "\u00a0", "\u202f", "«", "»", "‹", "›", ";", ":", "!", "?", "é", "mot"]), max_size=10)


def _every_pattern(text: str) -> str:
    """`_clean_unicode`'s spacing steps, each pattern run on all text."""
    text = _KEPT_NO_BREAK.sub(lambda m: m.group(1) or "\u00a0", _BLANKS.sub(" ", text))
    return _LOOSE_SPACES.sub(" ", text).strip()


@settings(max_examples=200, deadline=None)
@given(SPACING.map("".join))
def test_text_cleaned_with_patterns_run_only_where_they_can_match_is_the_same(text: str) -> None:
    assert _clean_unicode(text) == _every_pattern(text)
