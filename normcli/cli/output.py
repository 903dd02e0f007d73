"""Turning results into output: JSON for machines, rich text for people (imported only then)."""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from normcli import results as r
from normcli.errors import InvalidArgument

if TYPE_CHECKING:
    from rich.console import Console


def print_json(data: dict) -> None:
    """Exactly one JSON document on stdout (indented on a terminal)."""
    indent = 2 if sys.stdout.isatty() else None
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=indent) + "\n")
    sys.stdout.flush()


def note(message: str) -> None:
    """A one-line note on stderr that never mixes with the data on stdout."""
    from normcli.cli.diagnostics import note as say

    say(message)


_console: Console | None = None


def console() -> Console:
    """The rich console for people; colour only on a terminal and never with NO_COLOR."""
    global _console
    if _console is None:
        from rich.console import Console

        class PipedConsole(Console):
            def on_broken_pipe(self) -> None:
                # rich exits 1 here, which reads as "not found": let the error boundary end with 0.
                os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
                raise BrokenPipeError

        # In a pipe, rich's padding to the width would end every line in spaces: they are cut.
        piped = None if sys.stdout.isatty() else _TrimmedLines(sys.stdout)
        _console = PipedConsole(highlight=False, file=piped)  # type: ignore[arg-type]  # a text stream in all but name
    return _console


class _TrimmedLines:
    """A text stream that passes whole lines on without their trailing spaces."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream
        self.pending = ""

    def write(self, text: str) -> int:
        """Buffer `text`; pass on every completed line, right-trimmed."""
        *lines, self.pending = (self.pending + text).split("\n")
        if lines:
            self.stream.write("".join(line.rstrip() + "\n" for line in lines))
        return len(text)

    def flush(self) -> None:
        """Pass on what is buffered (a last line without its newline) and flush."""
        if self.pending:
            self.stream.write(self.pending.rstrip())
            self.pending = ""
        self.stream.flush()

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return int(self.stream.fileno())

    @property
    def encoding(self) -> str:
        return str(getattr(self.stream, "encoding", "utf-8"))


def render(result: Any) -> None:
    """Print a result for a person."""
    renderer = _RENDERERS.get(type(result))
    if renderer is None:
        print_json(result.to_json())
        return
    renderer(result)


def _info(result: r.InfoResult) -> None:
    from rich.table import Table

    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    table.add_row(*_cells("workspace", result.workspace + (" (sample)" if result.is_sample else "")))
    table.add_row(*_cells("name", result.name))
    table.add_row(*_cells("norms", f"{result.norms} norms, {result.editions} editions"))
    table.add_row(*_cells("sections", f"{result.sections:,} sections, {result.figures} figures"))
    table.add_row(*_cells("index", f"{result.index.path} (built {result.index.built_at}{', fresh' if result.index.fresh else ', stale'})"))
    console().print(table)


def _norms(result: r.NormsResult) -> None:
    from rich.table import Table

    table = Table(title=None, header_style="bold")
    for column in ("code", "edition", "title", "languages", "sections", "pages"):
        table.add_column(column, justify="right" if column in ("sections", "pages") else "left")
    for norm in result.norms:
        for position, edition in enumerate(norm.editions):
            flags = []
            if not edition.published:
                flags.append("draft")
            if norm.demo and position == 0:
                flags.append("demo")
            title = edition.title + (f" ({', '.join(flags)})" if flags else "")
            table.add_row(
                *_cells(
                    norm.code if position == 0 else "",
                    edition.edition,
                    title,
                    "/".join(edition.languages),
                    str(edition.sections),
                    str(edition.pages),
                )
            )
    if not result.norms:
        note("no norms in this workspace yet: add bundles under norms/ or run `normcli ingest`")
    console().print(table)


def _cells(*values: str) -> list:
    """Table cells as plain text: brackets in titles are not rich markup."""
    from rich.text import Text

    return [Text(value) for value in values]


def _tree_label(node: r.TreeNode) -> str:
    from rich.markup import escape

    title = "" if node.title == node.path else f" {escape(node.title)}"
    return f"[bold]{escape(node.path)}[/bold]{title}  [dim]{_pages(node.page_start, node.page_end)}[/dim]" + (
        " [yellow](truncated)[/yellow]" if node.truncated else ""
    )


def _pages(start: int | None, end: int | None) -> str:
    from normcli.render import pages

    return pages(start, end)


def _print_tree(heading: str, nodes: tuple[r.TreeNode, ...]) -> None:
    from rich.markup import escape
    from rich.tree import Tree

    tree = Tree(f"[bold]{escape(heading)}[/bold]")
    stack = [(tree, node) for node in reversed(nodes)]
    branches = []
    while stack:
        parent, node = stack.pop()
        branch = parent.add(_tree_label(node))
        branches.append(branch)
        stack.extend((branch, child) for child in reversed(node.children))
    console().print(tree)


def _toc(result: r.TocResult) -> None:
    _print_tree(f"{result.edition.code}:{result.edition.edition} ({result.edition.language}) {result.edition.title}", result.tree)


def _subtree(result: r.SubtreeResult) -> None:
    if result.requested_path:
        note(f"no clause '{result.requested_path}'; showing the nearest heading above it, {result.path}")
    _print_tree(f"{result.edition.code}:{result.edition.edition} ({result.edition.language})", result.tree)


def _section(result: r.SectionResult, max_chars: int | None = None) -> None:
    """The window as rendered Markdown; when more follows, the command that reads the next window."""
    from rich.markdown import Markdown

    from normcli.render import formulas_to_unicode

    if result.requested_path:
        note(_requested(result.requested_path, result.path))
    console().print(Markdown(formulas_to_unicode(result.markdown)))
    if result.next_offset is not None:
        code = f"{result.edition.code}:{result.edition.edition}"
        options = f" --max-chars {max_chars}" if max_chars else ""
        options += f" --language {result.edition.language}" if len(result.edition.languages) > 1 else ""
        note(f'more follows: normcli section "{code}" "{result.path}" --offset {result.next_offset}{options}')


def plain(text: str) -> None:
    """Text as it is, for a pipe or a report (no rendering, no padding)."""
    sys.stdout.write(text.rstrip("\n") + "\n")
    sys.stdout.flush()


def whole_section(windows: list[r.SectionResult]) -> r.SectionResult:
    """The windows of one clause as one answer: the first window's header, every window's text, the
    last window's figures, references, subclauses and citation."""
    first, last = windows[0], windows[-1]
    head = first.markdown[: first.markdown.index(first.content)] if first.content and first.content in first.markdown else ""
    tail = last.markdown[last.markdown.index(last.content) + len(last.content) :] if last.content and last.content in last.markdown else ""
    content = "".join(window.content for window in windows)
    head = re.sub(r" · characters [\d,]+–[\d,]+ of [\d,]+", "", head)
    from normcli.record import replace

    return replace(first, markdown=head + content + tail, content=content, next_offset=None)


def table_markdown(result: r.TableResult) -> None:
    """A table as Markdown: its caption, the pipe table, and where it stands."""
    from normcli.render import citation

    edition = result.edition
    cite = citation(edition.code, edition.edition, result.path, result.page_start, edition.published)
    plain("\n".join(part for part in (result.caption, "", result.markdown, "", cite) if part is not None))


def _requested(requested: str, path: str) -> str:
    """Why the clause shown is not the one named: it holds the table or figure, or it is the heading above."""
    from normcli.resolve import part_reference

    if part_reference(requested):
        return f"{requested} is in clause {path}"
    return f"no clause '{requested}'; showing the nearest heading above it, {path}"


def _table(result: r.TableResult) -> None:
    """The caption, the table with its header row and formulas as Unicode, then where it stands."""
    from rich.markup import escape
    from rich.table import Table

    from normcli.render import citation, formulas_to_unicode

    table = Table(title=escape(result.caption or result.id), header_style="bold", show_lines=False)
    header, *body = result.rows or ((),)
    for cell in header:
        table.add_column(escape(formulas_to_unicode(cell)))
    for row in body:
        table.add_row(*(escape(formulas_to_unicode(cell)) for cell in row))
    console().print(table)
    edition = result.edition
    console().print(escape(citation(edition.code, edition.edition, result.path, result.page_start, edition.published)))


def section_with_window(max_chars: int) -> Callable[[r.SectionResult], None]:
    """The section renderer for a window of `max_chars`, so that its "more follows" command keeps the size."""
    return lambda result: _section(result, max_chars)


def _highlighted(hit: r.Hit, keyword: str):
    """The snippet with formulas in Unicode and the searched words in bold yellow."""
    from rich.text import Text

    from normcli.render import formulas_to_unicode
    from normcli.snippets import highlight_spans

    shown = formulas_to_unicode(hit.snippet).replace("`", "")
    text = Text(shown)
    for start, end in highlight_spans(shown, keyword):
        text.stylize("bold yellow", start, end)
    return text


def _hits_table(rows: list[tuple[str, r.Hit]], with_norm: bool, keyword: str):
    from rich.table import Table

    table = Table(header_style="bold", expand=True)
    if with_norm:
        table.add_column("norm", no_wrap=True)
    table.add_column("clause", no_wrap=True)
    table.add_column("title", ratio=2)
    table.add_column("p.", justify="right")
    table.add_column("snippet", ratio=4)
    for norm, hit in rows:
        cells = [norm] if with_norm else []
        marker = "" if hit.kind == "text" else f" ({hit.kind})"
        page = "" if hit.page_start is None else str(hit.page_start)
        table.add_row(*_cells(*cells, hit.path + marker, hit.title, page), _highlighted(hit, keyword))
    return table


def _search(result: r.SearchResult) -> None:
    if not result.hits:
        note(f"no hits for '{result.keyword}' in {result.edition.code}:{result.edition.edition} ({result.edition.language})")
        return
    console().print(_hits_table([("", hit) for hit in result.hits], with_norm=False, keyword=result.keyword))


def _corpus(result: r.CorpusResult) -> None:
    rows = [(f"{norm.code}:{norm.edition}", hit) for norm in result.norms for hit in norm.hits]
    if not rows:
        note(f"no hits for '{result.keyword}' in any norm")
        return
    console().print(_hits_table(rows, with_norm=True, keyword=result.keyword))


def _xrefs(result: r.XrefsResult) -> None:
    from rich.table import Table

    if not result.outgoing:
        note(f"{result.edition.code} {result.path} refers to nothing")
        return
    table = Table(header_style="bold")
    for column in ("reference", "kind", "target", "title", "found"):
        table.add_column(column)
    for ref in result.outgoing:
        target = " ".join(part for part in (ref.target_code, ref.target_path) if part)
        table.add_row(*_cells(ref.text, ref.target_kind, target, ref.target_title or "", "yes" if ref.resolvable else "no"))
    console().print(table)


def _methodology(result: r.MethodologyResult) -> None:
    sys.stdout.write(result.text + "\n")


def _check(result: r.CheckResult) -> None:
    from rich.table import Table

    table = Table(header_style="bold")
    for column in ("bundle", "norm", "sections", "score", "errors", "warnings"):
        table.add_column(column, justify="right" if column in ("sections", "score", "errors", "warnings") else "left", overflow="fold")
    for bundle in result.bundles:
        errors = sum(1 for problem in bundle.problems if problem["severity"] == "error")
        norm = f"{bundle.code}:{bundle.edition} ({bundle.language})" if bundle.readable else "unreadable"
        table.add_row(*_cells(bundle.file, norm, str(bundle.sections), f"{bundle.score}%", str(errors), str(len(bundle.problems) - errors)))
    console().print(table)
    for line in result.notes:
        sys.stdout.write(f"{line}\n")
    for problems in [bundle.problems for bundle in result.bundles] + [spec.problems for spec in result.specs]:
        for problem in problems:
            where = f"{problem['file']}:{problem['line']}" if problem["line"] else problem["file"]  # line 0: the whole file
            sys.stdout.write(f"{where}: {problem['severity']}: {problem['reason']}\n")
    specs = f", {len(result.specs)} API specs" if result.specs else ""
    sys.stdout.write(f"{len(result.bundles)} bundles{specs}, {result.errors} errors, {result.warnings} warnings\n")


def _index(result: r.IndexResult) -> None:
    action = "rebuilt" if result.rebuilt else "refreshed"
    sys.stdout.write(
        f"index {action}: {result.indexed} bundles indexed, {result.removed} removed in {result.seconds:.2f} s ({result.path})\n"
    )


def save_figure(result: r.FigureResult, output_file: Path | None) -> None:
    """Write a figure to a file, or to stdout when that is not a terminal."""
    if output_file is None:
        if sys.stdout.isatty():
            raise InvalidArgument("refusing to print image bytes on a terminal", "pass --output FILE or redirect stdout")
        sys.stdout.buffer.write(result.data)
        sys.stdout.flush()
        return
    try:
        output_file.write_bytes(result.data)
    except OSError as exc:
        raise InvalidArgument(f"cannot write {output_file}: {exc.strerror}") from exc
    note(f"{result.figure_id} ({result.mime_type}, {len(result.data):,} bytes) written to {output_file}: {result.caption}")


_RENDERERS: dict[type, Callable[[Any], None]] = {
    r.InfoResult: _info,
    r.NormsResult: _norms,
    r.TocResult: _toc,
    r.SubtreeResult: _subtree,
    r.SectionResult: _section,
    r.SearchResult: _search,
    r.CorpusResult: _corpus,
    r.XrefsResult: _xrefs,
    r.TableResult: _table,
    r.MethodologyResult: _methodology,
    r.CheckResult: _check,
    r.IndexResult: _index,
}
