"""The spec discovery answers for people: tables of ids, counts and titles; an endpoint as Markdown."""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from normcli.cli.output import console
from normcli.specs import results as sr


def _text(*values: str) -> list:
    from rich.text import Text

    return [Text(value) for value in values]


def _table(*columns: str) -> Any:
    from rich.table import Table

    table = Table(header_style="bold")
    for column in columns:
        numeric = column in ("tags", "methods")
        table.add_column(column, justify="right" if numeric else "left", overflow="fold", no_wrap=column == "id")
    return table


def _specs(result: sr.SpecListResult) -> None:
    if not result.specs:
        sys.stdout.write("no API specs in this workspace (put them under specs/<domain>/ or use `normcli ingest FILE --domain NAME`)\n")
        return
    table = _table("domain", "title", "methods", "id")
    for spec in result.specs:
        table.add_row(
            *_text(spec.domain, spec.title if spec.readable else "unreadable (see normcli check)", str(spec.count_methods), spec.id)
        )
    console().print(table)


def _spec(result: sr.SpecResult) -> None:
    sys.stdout.write(f"{result.spec.domain}: {result.spec.title}\n")
    table = _table("collection", "tags", "methods", "id")
    for collection in result.collections:
        title = collection.title + (f" — {collection.llm_title}" if collection.llm_title else "")
        table.add_row(*_text(title, str(collection.count_tags), str(collection.count_methods), collection.id))
    console().print(table)


def _tag_table(tags: tuple[sr.TagInfo, ...]) -> Any:
    table = _table("tag", "methods", "id")
    for tag in tags:
        table.add_row(*_text(tag.title, str(tag.count_methods), tag.id))
    return table


def _collection(result: sr.CollectionResult) -> None:
    sys.stdout.write(f"{result.spec.domain} › {result.collection.title} ({result.collection.count_methods} methods)\n")
    console().print(_tag_table(result.tags))


def _tags(result: sr.TagsResult) -> None:
    sys.stdout.write(f"{result.spec.domain}: {len(result.tags)} tags\n")
    console().print(_tag_table(result.tags))


def _tag(result: sr.TagResult) -> None:
    sys.stdout.write(f"{result.spec.domain} › {result.tag.title}: {result.tag.count_methods} methods ({result.tag.id})\n")
    if result.tag.description:
        sys.stdout.write(result.tag.description.strip() + "\n")


def _endpoints(result: sr.EndpointsResult) -> None:
    sys.stdout.write(f"{result.spec.domain} › {result.tag.title}\n")
    for number, method in enumerate(result.methods, 1):
        summary = method.summary + (" (deprecated)" if method.deprecated else "")
        _method_block(number, method.method, method.path, "", summary, "", method.id)


def _method_block(number: int, verb: str, path: str, domain: str, summary: str, snippet: str, method_id: str) -> None:
    """One method for a person: its verb and path whole on the first line (a path folded inside a table
    cell cannot be copied), then its summary, the snippet when the match is not in the summary, and the
    id to pass on. A table gave the 32-character ids most of an 80-column terminal."""
    from rich.padding import Padding
    from rich.text import Text

    head = Text(f"{number:>2}. ", style="dim")
    head.append(f"{verb} {path}", style="bold")
    if domain:
        head.append(f"  {domain}", style="cyan")
    body = Text()
    if summary:
        body.append(" ".join(summary.split()) + "\n")
    snippet = " ".join(snippet.split())
    if snippet and snippet.strip("… ") not in summary:
        body.append(snippet + "\n", style="italic")
    body.append(method_id, style="dim")
    out = console()
    out.print(head, soft_wrap=True)
    out.print(Padding(body, (0, 0, 0, 4)))


def _endpoint(result: sr.EndpointResult) -> None:
    from rich.markdown import Markdown

    console().print(Markdown(result.markdown))


def _search(result: sr.SpecSearchResult) -> None:
    if not result.hits:
        sys.stdout.write(f"no endpoint matches '{result.keyword}'\n")
        return
    for number, hit in enumerate(result.hits, 1):
        _method_block(number, hit.method, hit.path, hit.domain, hit.summary, hit.snippet, hit.method_id)


RENDERERS: dict[type, Callable[[Any], None]] = {
    sr.SpecListResult: _specs,
    sr.SpecResult: _spec,
    sr.CollectionResult: _collection,
    sr.TagsResult: _tags,
    sr.TagResult: _tag,
    sr.EndpointsResult: _endpoints,
    sr.EndpointResult: _endpoint,
    sr.SpecSearchResult: _search,
}
