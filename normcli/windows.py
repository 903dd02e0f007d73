"""Windows over a long clause's text: `section` reads a clause `max_chars` at a time, cut at a paragraph boundary.

A window never cuts inside a table row, and a window that starts inside a pipe table begins with
that table's header row (and its delimiter row), so each window reads as a table on its own (SPEC §6).
"""

from __future__ import annotations


def _is_row(line: str) -> bool:
    """Whether a line is a row of a pipe table (the bundles' tables start every row with `|`)."""
    return line.lstrip().startswith("|")


def _is_delimiter(line: str) -> bool:
    """Whether a table row is the delimiter row under the header (`|---|:--:|`)."""
    if not _is_row(line):
        return False
    cells = line.strip().strip("|").split("|")
    return bool(cells) and all(cell.strip().strip(":").strip("-") == "" and "-" in cell for cell in cells)


def _line_start(text: str, position: int) -> int:
    return text.rfind("\n", 0, position) + 1


def _line_end(text: str, position: int) -> int:
    end = text.find("\n", position)
    return len(text) if end == -1 else end + 1


def _in_row(text: str, position: int) -> bool:
    """Whether `position` falls inside a table row (not at the start of its line)."""
    start = _line_start(text, position)
    return start != position and _is_row(text[start : _line_end(text, position)])


def window(text: str, offset: int, max_chars: int) -> tuple[str, int | None]:
    """The text from `offset`, at most `max_chars` long, ending at a paragraph boundary when it can,
    never inside a table row; a window starting inside a table repeats the table's header first."""
    offset = window_start(text, offset)
    end = offset + max_chars
    if end >= len(text):
        return header_for(text, offset) + text[offset:], None
    cut = _cut(text, offset, end, offset + max_chars // 4)
    if _in_row(text, cut):
        row_start = _line_start(text, cut)
        # A row longer than the window is kept whole: a window is never cut inside a row.
        cut = row_start if row_start > offset else _line_end(text, cut)
    if cut < len(text) and _is_delimiter_below_header(text, cut) and _line_start(text, cut - 1) > offset:
        cut = _line_start(text, cut - 1)  # a header row stays with its delimiter row
    if cut >= len(text):
        return header_for(text, offset) + text[offset:], None
    return header_for(text, offset) + text[offset:cut], cut


def window_start(text: str, offset: int) -> int:
    """Where a window asked at `offset` starts: there, or at the start of the table row it falls in."""
    return _line_start(text, offset) if _in_row(text, offset) else offset


def _is_delimiter_below_header(text: str, position: int) -> bool:
    """Whether the line at `position` is a table's delimiter row, right under its header row."""
    if position <= 0 or not _is_delimiter(text[position : _line_end(text, position)]):
        return False
    return _is_row(text[_line_start(text, position - 1) : position])


def _cut(text: str, offset: int, end: int, floor: int) -> int:
    """Where a window from `offset` ends: the last paragraph break, line break or space before `end`."""
    for separator in ("\n\n", "\n", " "):
        cut = text.rfind(separator, floor, end)
        if cut != -1:
            return cut + len(separator)
    return end


def header_for(text: str, offset: int) -> str:
    """The header and delimiter rows to repeat when `offset` starts a line inside a pipe table below
    its header, else an empty string."""
    if offset <= 0 or offset >= len(text) or not _is_row(text[offset : _line_end(text, offset)]):
        return ""
    rows: list[str] = []  # the table's rows above `offset`, nearest first
    position = offset
    while position > 0:
        start = _line_start(text, position - 1)
        line = text[start:position]
        if not _is_row(line):
            break
        rows.append(line)
        position = start
    if len(rows) < 2 or not _is_delimiter(rows[-2]):
        return ""  # the window starts at the header or the delimiter, or the table has no header
    header, delimiter = rows[-1], rows[-2]
    return header + (delimiter if delimiter.endswith("\n") else delimiter + "\n")


def join_windows(contents: list[str]) -> str:
    """The clause text again from its windows in order, without the header rows a window repeats."""
    joined = ""
    for content in contents:
        repeated = header_for(joined + content, len(joined)) if joined else ""
        joined += content[len(repeated) :] if repeated and content.startswith(repeated) else content
    return joined
