"""The output schemas of the MCP tools: SPEC §3's JSON, written as TypedDicts.

Each tool's structured content is the core result's `to_json()`, exactly what `normcli … --json`
prints; these types only publish its shape (`outputSchema`) and let the SDK check it.
"""

from __future__ import annotations

from typing import NotRequired

from typing_extensions import TypedDict


class MethodologyJson(TypedDict):
    """`get_methodology`: the reading method built for this workspace."""

    version: int
    text: str


class IndexJson(TypedDict):
    """Where the index is and whether it matches the bundles."""

    path: str
    builtAt: str | None
    fresh: bool


class InfoJson(TypedDict):
    """`whoami`: which workspace is read and what it holds."""

    workspace: str
    name: str
    norms: int
    editions: int
    sections: int
    figures: int
    index: IndexJson


class EditionInfoJson(TypedDict):
    """One edition of a norm."""

    edition: str
    year: int | None
    title: str
    published: bool
    languages: list[str]
    sections: int
    pages: int


class NormJson(TypedDict):
    """A norm; the top fields describe its default (newest published) edition."""

    code: str
    year: int | None
    title: str
    language: str
    demo: bool
    editions: list[EditionInfoJson]


class NormsJson(TypedDict):
    """`list_norms`."""

    norms: list[NormJson]


class EditionJson(TypedDict):
    """The edition block each per-norm answer starts with (results.Edition)."""

    code: str
    edition: str
    language: str
    languages: list[str]


class TreeNodeJson(TypedDict):
    """A clause in a tree; `depth` 1 is a chapter."""

    nodeId: str
    path: str
    title: str
    summary: str
    pageStart: int | None
    pageEnd: int | None
    depth: int
    children: list[TreeNodeJson]
    truncated: NotRequired[bool]
    childCount: NotRequired[int]


class TocJson(EditionJson):
    """`get_toc`."""

    tree: list[TreeNodeJson]


class SubtreeJson(EditionJson):
    """`get_subtree`."""

    path: str
    requestedPath: NotRequired[str]
    tree: list[TreeNodeJson]


class ChildJson(TypedDict):
    """A direct subclause."""

    path: str
    title: str


class FigureRefJson(TypedDict):
    """A figure of a section; pass `id` to `get_figure`."""

    id: str
    figureNumber: str | None
    caption: str


class TableRefJson(TypedDict):
    """A table of a section."""

    id: str
    tableNumber: str | None
    caption: str


class FormulaJson(TypedDict):
    """A display formula in LaTeX."""

    number: str | None
    latex: str


class CrossRefJson(TypedDict):
    """A cross-reference and where it leads in this workspace."""

    text: str
    texts: list[str]
    type: str
    targetCode: str | None
    targetPath: str | None
    targetKind: str
    internal: bool
    resolvable: bool
    targetTitle: NotRequired[str]


class SectionBodyJson(EditionJson):
    """One window of a clause's text with everything around it."""

    nodeId: str
    path: str
    requestedPath: NotRequired[str]
    title: str
    markdown: str
    content: str
    pageStart: int | None
    pageEnd: int | None
    parentPath: str | None
    children: list[ChildJson]
    offset: int
    truncated: bool
    nextOffset: int | None
    totalChars: int
    figures: list[FigureRefJson]
    tables: list[TableRefJson]
    formulas: list[FormulaJson]
    crossRefs: list[CrossRefJson]
    citation: str


class SectionJson(TypedDict):
    """`get_section`."""

    section: SectionBodyJson


class HitJson(TypedDict):
    """A search hit: the clause path to read with `get_section`."""

    path: str
    title: str
    snippet: str
    kind: str
    language: str
    pageStart: int | None


class SearchJson(EditionJson):
    """`search_in_norm`."""

    keyword: str
    hits: list[HitJson]


class CorpusNormJson(TypedDict):
    """The hits of one norm edition."""

    code: str
    edition: str
    title: str
    hits: list[HitJson]


class CorpusJson(TypedDict):
    """`search_corpus`."""

    keyword: str
    norms: list[CorpusNormJson]


class XrefsJson(EditionJson):
    """`get_cross_refs`."""

    path: str
    requestedPath: NotRequired[str]
    crossRefs: list[CrossRefJson]


class FigureJson(EditionJson):
    """`get_figure`: the CLI's JSON without `data`; the image itself comes as an image content block."""

    figureId: str
    figureNumber: str | None
    caption: str
    path: str
    mimeType: str
    url: str
