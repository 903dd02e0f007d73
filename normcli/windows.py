"""Windows over a long clause's text: `section` reads a clause `max_chars` at a time, cut at a paragraph boundary."""

from __future__ import annotations


def window(text: str, offset: int, max_chars: int) -> tuple[str, int | None]:
    """The text from `offset`, at most `max_chars` long, ending at a paragraph boundary when it can."""
    end = offset + max_chars
    if end >= len(text):
        return text[offset:], None
    floor = offset + max_chars // 4
    for separator in ("\n\n", "\n", " "):
        cut = text.rfind(separator, floor, end)
        if cut != -1:
            cut += len(separator)
            return text[offset:cut], cut
    return text[offset:end], end


def window_span(offset: int, next_offset: int | None) -> tuple[int, int]:
    """The part of a clause's text whose references a window lists: from its start to the next window."""
    return (offset, next_offset if next_offset is not None else 1 << 62)
