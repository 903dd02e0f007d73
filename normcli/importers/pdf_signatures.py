"""Headings of an API reference found by their signatures: `name(Arg1, Arg2) -> Result` set on a line of its own.

A reference manual that documents one function after another heads each with its signature in a fixed-pitch face,
in the prose's size, with space above it, and its description below; the signature is the function's heading, named
as such a manual names it in its bookmarks and cross-references: `name/arity` (`open/2`, `Module:init/1`) for a
signature with its result after an arrow, `name()` for a C prototype (`int ei_connect(ei_cnode *ec, char *nodename)`)."""

from __future__ import annotations

import re

from normcli.importers.common import clean_inline
from normcli.importers.pdf_pages import Line

# a function's name (an atom, quoted or not, perhaps after its module: `Module:init`, `'and'`) and its open parenthesis
_SIGNATURE = re.compile(r"^(?P<name>(?:[A-Za-z]\w*:)?(?:[a-z]\w*|'[^'\s]+'))\((?P<rest>.*)$")
# a C prototype: its result type (`int`, `const char *`, `struct hostent *`), the function's name, its open parenthesis
_PROTOTYPE = re.compile(
    r"^(?:(?:const|unsigned|signed|struct|enum|static|extern)\s+)*[A-Za-z_]\w*(?:\s*\*+\s*|\s+)(?P<name>[A-Za-z_]\w*)\((?P<rest>.*)$"
)
_SIGNATURE_RUN = 3  # a reference has this many signatures or more; fewer are examples in the text
_CLOSER = {"(": ")", "[": "]", "{": "}"}  # the bracket that closes each opening one
_WRAPS = 3  # a signature's arguments go on over at most this many more lines


def _arity(rest: str) -> tuple[int, str] | None:
    """The number of arguments between the open parenthesis (before `rest`) and the one that closes it, and what
    follows it; None when `rest` does not close it. Commas count only outside brackets (`{ok, Handle}` is one)."""
    closers: list[str] = [")"]
    commas, filled = 0, False
    for index, char in enumerate(rest):
        if char in ")]}":
            if char != closers.pop():
                return None
            if not closers:
                return (commas + 1 if filled else 0), rest[index + 1 :]
        elif char in _CLOSER:
            closers.append(_CLOSER[char])
        elif char == "," and len(closers) == 1:
            commas += 1
        filled = filled or not char.isspace()
    return None


def _signature_title(stream: list[Line], position: int) -> tuple[str, list[int]] | None:
    """The `name/arity` a line opens when it is a signature `name(...) -> ...`, or the `name()` of a C prototype
    `type name(...)` (its arguments perhaps wrapped onto the lines below it, in its face), with those lines; None
    otherwise."""
    line = stream[position]
    text = clean_inline(line.text)
    match = _SIGNATURE.match(text) or _PROTOTYPE.match(text)
    if not match:
        return None
    rest = match.group("rest")
    used: list[int] = []  # the lines below that hold the rest of its arguments
    counted = _arity(rest)
    following = position + 1
    while counted is None and len(used) < _WRAPS and following < len(stream):
        below = stream[following]
        if below.page != line.page or below.font != line.font or below.x0 <= line.x0 + 1:
            return None
        rest = f"{rest} {clean_inline(below.text)}"
        used.append(following)
        counted = _arity(rest)
        following += 1
    if match.re is _PROTOTYPE:
        return (f"{match.group('name')}()", used) if counted is not None and counted[1].strip() in ("", ";") else None
    if counted is None or not counted[1].lstrip().startswith("->"):
        return None
    return f"{match.group('name')}/{counted[0]}", used


def signature_headings(stream: list[Line], body_size: float, pitch: float, skip: set[int]) -> dict[int, tuple[str, list[int]]]:
    """The signatures that head a reference's functions: lines in a fixed pitch in the prose's size, each the first of
    its page, or with more space above it than between the lines of a paragraph, or right under another signature (the
    clauses of one function described together), that read `name(...) -> ...` or `type name(...)`; at least
    `_SIGNATURE_RUN` of them in one face (a signature or two in the text are examples). Each is `position: (title, the
    lines its arguments wrap onto)`."""
    found: dict[str, dict[int, tuple[str, list[int]]]] = {}
    last = -1  # the last line of the signature found last: another right under it shares its description
    for position, line in enumerate(stream):
        if position in skip or not line.mono or abs(line.size - body_size) >= 0.3:
            continue
        above = stream[position - 1] if position > 0 else None
        if above is not None and above.page == line.page and above.top - line.top <= 1.3 * pitch and last != position - 1:
            continue
        signature = _signature_title(stream, position)
        if signature is not None:
            found.setdefault(line.font, {})[position] = signature
            last = max([position, *signature[1]])
    return {position: signature for run in found.values() if len(run) >= _SIGNATURE_RUN for position, signature in run.items()}
