"""The shortcuts an import takes for speed give what the plain computation gives: text cleaned with a pattern run
only where it can match, footnotes placed from an index of the lines that can cite them."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from normcli.importers.common import _BLANKS, _KEPT_NO_BREAK, _LOOSE_SPACES, _clean_unicode
from normcli.importers.pdf import _place_notes

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


def _placed_by_reading_every_line(body: list[str], notes: list[tuple[int, str]]) -> list[str]:
    """`_place_notes` reading the whole body again for each note."""
    body = list(body)
    insertions = []
    for order, (position, text) in enumerate(notes):
        label = text[: text.index("]:") + 1]
        cites = [k for k in range(len(body)) if label in body[k] and not body[k].startswith(label + ":")]
        cited = next((k for k in reversed(cites) if k < position), next((k for k in cites if k >= position), None))
        cited = max(0, position - 1) if cited is None else cited
        end = next((k for k in range(cited + 1, len(body)) if body[k].startswith("#")), len(body))
        while end > cited + 1 and (not body[end - 1].strip() or body[end - 1].startswith("<!--")):
            end -= 1
        insertions.append((end, order, text))
    for end, _, text in sorted(insertions, reverse=True):
        body[end:end] = ["", text]
    return body


LINES = st.sampled_from(
    ["# 1 Scope", "## 1.1 Terms", "text", "", "<!-- page 3 pdf=3 -->", "cites [^1] here", "[^2] and [^3]", "[^4]: x", "#a"]
)


@settings(max_examples=150, deadline=None)
@given(st.lists(LINES, max_size=20), st.lists(st.tuples(st.integers(0, 20), st.integers(1, 5)), max_size=5))
def test_footnotes_placed_from_an_index_of_the_citing_lines_go_where_a_full_reading_puts_them(body: list[str], marks) -> None:
    notes = [(min(position, len(body)), f"[^{label}]: note {order}") for order, (position, label) in enumerate(marks)]
    placed = list(body)
    _place_notes(placed, notes)
    assert placed == _placed_by_reading_every_line(body, notes)
