"""How `diff`, `xrefs --incoming`, `define` and `cite` answers are shown to a person on the terminal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from normcli.cli.output import _cells, console, note
from normcli.lookups_render import KIND_WORDS, change_heading, shortened
from normcli.results import CiteResult, DefineResult, DiffResult, XrefsResult

_KIND_STYLE = {"added": "green", "removed": "red", "renumbered": "yellow", "changed": "cyan"}


def diff_text(segments: Any) -> Any:
    """A word diff as rich Text: removed words red and struck through, added ones green (`[-…-]` and
    `{+…+}` without colour), a value replaced as `0,4 → 0,5`."""
    from rich.text import Text

    text = Text()
    plain = console().color_system is None  # piped, or NO_COLOR: marks instead of colours, as wdiff writes them
    for number, segment in enumerate(segments):
        if number and not segment.text.startswith((",", ".", ";", ":", ")", "]", "%")):
            text.append(" ")
        if segment.op == "delete":
            shown = shortened(segment.text)
            text.append(f"[-{shown}-]" if plain else shown, style="red strike")
            following = segments[number + 1] if number + 1 < len(segments) else None
            if following is not None and following.op == "insert":
                text.append(" →")
        elif segment.op == "insert":
            shown = shortened(segment.text)
            text.append(f"{{+{shown}+}}" if plain else shown, style="bold green")
        else:
            text.append(segment.text, style="dim")
    return text


def _diff(result: DiffResult) -> None:
    from rich.text import Text

    out = console()
    counts = result.counts
    scope = f", {result.path}" if result.path else ""
    out.print(
        Text(
            f"{result.from_.code}:{result.from_.edition} ({result.from_.language}) → "
            f"{result.to.code}:{result.to.edition} ({result.to.language}){scope}: "
            + ", ".join(f"{counts[kind]} {kind}" for kind in KIND_WORDS),
            style="bold",
        )
    )
    for line in result.notes or ():
        note(line)
    for change in result.changes:
        out.print(Text(change_heading(change), style=_KIND_STYLE[change.kind]))
        if change.diff:
            line = diff_text(change.diff)
            line.pad_left(4)
            out.print(line)


def incoming(result: XrefsResult) -> None:
    """`xrefs --incoming`: the citing clauses as a table."""
    from rich.table import Table

    if not result.incoming:
        note(f"no clause in this workspace refers to {result.edition.code}:{result.edition.edition} {result.path}")
        return
    table = Table(header_style="bold")
    for column in ("cited by", "title", "reference"):
        table.add_column(column)
    for ref in result.incoming:
        table.add_row(*_cells(ref.citation, ref.source_title, ref.text))
    console().print(table)


def _define(result: DefineResult) -> None:
    from rich.table import Table

    for line in result.notes or ():
        note(line)
    if not result.definitions:
        return
    table = Table(header_style="bold")
    for column in ("term", "match", "where", "definition"):
        table.add_column(column)
    for found in result.definitions:
        table.add_row(*_cells(found.term, found.match, f"{found.citation} ({found.language})", found.definition))
    console().print(table)


def _cite(result: CiteResult) -> None:
    import sys

    sys.stdout.write(result.reference)


RENDERERS: dict[type, Callable[[Any], None]] = {DiffResult: _diff, DefineResult: _define, CiteResult: _cite}


def render(result: Any) -> None:
    """Print an answer of `diff`, `define`, `cite` or `xrefs` (either direction) for a person."""
    if isinstance(result, XrefsResult) and result.direction == "incoming":
        incoming(result)
        return
    renderer = RENDERERS.get(type(result))
    if renderer is None:
        from normcli.cli.output import render as render_any

        render_any(result)
        return
    renderer(result)
