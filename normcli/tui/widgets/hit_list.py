"""Search hits as a list: grouped by norm, each with its clause, page and a highlighted snippet."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from normcli import results as r
from normcli.render import formulas_to_unicode
from normcli.tui.library import Location


def readable_snippet(snippet: str, marks: tuple[tuple[int, int], ...]) -> Text:
    """The snippet with formulas as Unicode and the matched words highlighted."""
    if "$" not in snippet:
        text = Text(snippet, style="dim")
        for start, end in marks:
            text.stylize("bold reverse", start, end)
        return text
    words = [snippet[start:end] for start, end in marks]
    readable = formulas_to_unicode(snippet)
    text = Text(readable, style="dim")
    position = 0
    for word in words:
        found = readable.find(word, position)
        if found >= 0:
            text.stylize("bold reverse", found, found + len(word))
            position = found + len(word)
    return text


def hit_prompt(hit: r.Hit, language: bool = False) -> Text:
    """Two lines: `4.2.1 Title  p. 17 (fr)`, then the snippet with the matched words highlighted."""
    line = Text(hit.path, style="bold")
    if hit.title and hit.title != hit.path:
        line.append(" " + formulas_to_unicode(hit.title))
    if hit.page_start:
        line.append(f"  p. {hit.page_start}", style="dim")
    if language and hit.language:
        line.append(f"  ({hit.language})", style="dim")
    if hit.kind == "path":
        line.append("  clause number", style="italic dim")
    snippet = readable_snippet(hit.snippet or "", hit.marks)
    return Text("\n").join([line, Text("  ") + snippet]) if hit.snippet and hit.snippet != hit.title else line


class HitList(OptionList):
    """Search hits; each enabled option opens a clause (`locations[option.id]`)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.locations: dict[str, Location] = {}

    def show_norm(self, result: r.SearchResult) -> None:
        """The hits of a search in one norm."""
        edition = result.edition
        groups = [(f"{edition.code}:{edition.edition} ({edition.language}) {edition.title}", edition, result.hits)]
        self._show(groups, result.keyword, languages=len({hit.language for hit in result.hits}) > 1)

    def show_corpus(self, result: r.CorpusResult) -> None:
        """The hits of a corpus search, one group per norm."""
        groups = [
            (f"{norm.code}:{norm.edition} {norm.title}", r.Edition(norm.code, norm.edition, "", (), norm.title), norm.hits)
            for norm in result.norms
        ]
        self._show(groups, result.keyword, languages=True)

    def _show(self, groups: list[tuple[str, r.Edition, tuple[r.Hit, ...]]], keyword: str, languages: bool) -> None:
        self.clear_options()
        self.locations.clear()
        options: list[Option | None] = []
        for title, edition, hits in groups:
            if not hits:
                continue
            if options:
                options.append(None)
            options.append(Option(Text(f"{title} · {len(hits)} hit{'s' if len(hits) != 1 else ''}", style="bold underline"), disabled=True))
            for hit in hits:
                key = f"hit-{len(self.locations)}"
                word = hit.snippet[hit.marks[0][0] : hit.marks[0][1]] if hit.marks and hit.kind == "text" else None
                self.locations[key] = Location(edition.code, hit.path, edition.edition, hit.language or edition.language or None, find=word)
                options.append(Option(hit_prompt(hit, languages), id=key))
        if not options:
            options.append(Option(Text(f"No hits for “{keyword}”", style="italic"), disabled=True))
        self.add_options(options)
        self.highlighted = next((index for index, option in enumerate(self.options) if not option.disabled), None)

    @property
    def count(self) -> int:
        """How many hits are listed."""
        return len(self.locations)
