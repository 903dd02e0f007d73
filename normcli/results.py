"""The answers of the read operations: small frozen records, each with one `to_json()` shape.

Every frontend (CLI, TUI, MCP, batch) renders these; the JSON is SPEC §3's, in camelCase. Each
record's JSON holds its fields in camelCase, except as its class says: `_json_omit` (kept for the
frontends, not in the JSON), `_json_optional` (left out when None or false), `_json_flatten` (a
nested record's keys merged in), `_json_extra` (properties added) and `_json_wrap` (the whole
object under one key). The MCP output schemas are generated from these declarations and the
annotations (`mcp/schemas.py`); a test checks every `to_json()` against them.
"""

from __future__ import annotations

from normcli.record import record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from normcli.specs.results import SpecCheck


@record
class EditionInfo:
    """One edition of a norm in the listing."""

    edition: str
    year: int | None
    title: str
    published: bool
    languages: tuple[str, ...]
    sections: int
    pages: int

    def to_json(self) -> dict:
        return {
            "edition": self.edition,
            "year": self.year,
            "title": self.title,
            "published": self.published,
            "languages": list(self.languages),
            "sections": self.sections,
            "pages": self.pages,
        }


@record
class NormInfo:
    """A norm (a code) with its editions, newest first; the top fields describe the default edition."""

    _json_omit = ("scope", "requires")

    code: str
    year: int | None
    title: str
    language: str
    demo: bool
    scope: str
    requires: tuple[str, ...]
    editions: tuple[EditionInfo, ...]

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "year": self.year,
            "title": self.title,
            "language": self.language,
            "demo": self.demo,
            "editions": [edition.to_json() for edition in self.editions],
        }


@record
class NormsResult:
    """`norms` / `list_norms`; `unreadable`: each bundle file of the workspace that cannot be read, as the
    first error `check` gives for it (`{file, line, severity, kind, reason}`), so that a script sees
    what is missing from `norms` and why."""

    norms: tuple[NormInfo, ...]
    unreadable: tuple[dict, ...] = ()

    def to_json(self) -> dict:
        return {"norms": [norm.to_json() for norm in self.norms], "unreadable": list(self.unreadable)}


@record
class IndexInfo:
    """Where the index is and whether it matches the bundles."""

    path: str
    built_at: str | None
    fresh: bool

    def to_json(self) -> dict:
        return {"path": self.path, "builtAt": self.built_at, "fresh": self.fresh}


@record
class InfoResult:
    """`info` / `whoami`: which workspace is read and what it holds."""

    _json_omit = ("is_sample",)

    workspace: str
    name: str
    norms: int
    editions: int
    sections: int
    figures: int
    index: IndexInfo
    is_sample: bool = False

    def to_json(self) -> dict:
        return {
            "workspace": self.workspace,
            "name": self.name,
            "norms": self.norms,
            "editions": self.editions,
            "sections": self.sections,
            "figures": self.figures,
            "index": self.index.to_json(),
        }


@record
class MethodologyResult:
    """`methodology` / `get_methodology`."""

    text: str
    version: int = 2

    def to_json(self) -> dict:
        return {"version": self.version, "text": self.text}


@record
class Edition:
    """Which norm, edition and language version an answer was read from."""

    _json_omit = ("title", "published")

    code: str
    edition: str
    language: str
    languages: tuple[str, ...]
    title: str
    published: bool = True  # a draft is cited as such; the JSON says it in `norms`

    def to_json(self) -> dict:
        return {"code": self.code, "edition": self.edition, "language": self.language, "languages": list(self.languages)}


@record
class TreeNode:
    """A clause in a `toc` or `subtree` answer."""

    _json_optional = ("truncated", "child_count")

    node_id: str
    path: str
    title: str
    summary: str
    page_start: int | None
    page_end: int | None
    depth: int
    children: tuple[TreeNode, ...] = ()
    truncated: bool = False
    child_count: int | None = None  # how many children the norm has under a node whose children were cut

    def to_json(self) -> dict:
        data = {
            "nodeId": self.node_id,
            "path": self.path,
            "title": self.title,
            "summary": self.summary,
            "pageStart": self.page_start,
            "pageEnd": self.page_end,
            "depth": self.depth,
            "children": [child.to_json() for child in self.children],
        }
        if self.truncated:
            data["truncated"] = True
            data["childCount"] = self.child_count
        return data


@record
class TocResult:
    """`toc` / `get_toc`."""

    _json_flatten = ("edition",)
    _json_omit = ("max_depth",)

    edition: Edition
    tree: tuple[TreeNode, ...]
    max_depth: int

    def to_json(self) -> dict:
        return {**self.edition.to_json(), "tree": [node.to_json() for node in self.tree]}


@record
class SubtreeResult:
    """`subtree` / `get_subtree`."""

    _json_flatten = ("edition",)
    _json_optional = ("requested_path",)

    edition: Edition
    path: str
    requested_path: str | None
    tree: tuple[TreeNode, ...]

    def to_json(self) -> dict:
        data = {**self.edition.to_json(), "path": self.path}
        if self.requested_path is not None:
            data["requestedPath"] = self.requested_path
        data["tree"] = [node.to_json() for node in self.tree]
        return data


@record
class FigureRef:
    """A figure listed with a section."""

    id: str
    figure_number: str | None
    caption: str

    def to_json(self) -> dict:
        return {"id": self.id, "figureNumber": self.figure_number, "caption": self.caption}


@record
class TableRef:
    """A table listed with a section."""

    id: str
    table_number: str | None
    caption: str

    def to_json(self) -> dict:
        return {"id": self.id, "tableNumber": self.table_number, "caption": self.caption}


@record
class TableResult:
    """`table` / `get_table`: one table with its caption, the clause that holds it and its rows."""

    _json_wrap = "table"
    _json_flatten = ("edition",)

    edition: Edition
    id: str
    number: str | None
    caption: str
    path: str
    page_start: int | None
    markdown: str
    rows: tuple[tuple[str, ...], ...]  # the header row first

    def to_json(self) -> dict:
        table = {
            **self.edition.to_json(),
            "id": self.id,
            "number": self.number,
            "caption": self.caption,
            "path": self.path,
            "pageStart": self.page_start,
            "markdown": self.markdown,
            "rows": [list(row) for row in self.rows],
        }
        return {"table": table}


@record
class FormulaRef:
    """A display formula listed with a section, in LaTeX."""

    number: str | None
    latex: str

    def to_json(self) -> dict:
        return {"number": self.number, "latex": self.latex}


@record
class ResolvedRef:
    """A cross-reference with where it leads in this workspace."""

    _json_optional = ("target_title",)
    _json_omit = ("target_edition",)

    text: str
    type: str
    target_code: str | None
    target_path: str | None
    target_kind: str
    internal: bool
    resolvable: bool
    target_title: str | None = None
    target_edition: str | None = None
    texts: tuple[str, ...] = ()  # every wording of this target in the clause, in reading order (SPEC §6)

    def to_json(self) -> dict:
        data = {
            "text": self.text,
            "texts": list(self.texts or (self.text,)),
            "type": self.type,
            "targetCode": self.target_code,
            "targetPath": self.target_path,
            "targetKind": self.target_kind,
            "internal": self.internal,
            "resolvable": self.resolvable,
        }
        if self.target_title is not None:
            data["targetTitle"] = self.target_title
        return data


@record
class ChildRef:
    """A direct child of a section."""

    path: str
    title: str

    def to_json(self) -> dict:
        return {"path": self.path, "title": self.title}


@record
class SectionResult:
    """`section` / `get_section`: one window of a clause's text with everything around it."""

    _json_wrap = "section"
    _json_flatten = ("edition",)
    _json_optional = ("requested_path",)
    _json_extra = ("truncated",)

    edition: Edition
    node_id: str
    path: str
    requested_path: str | None
    title: str
    markdown: str
    content: str
    page_start: int | None
    page_end: int | None
    parent_path: str | None
    children: tuple[ChildRef, ...]
    offset: int
    next_offset: int | None
    total_chars: int
    figures: tuple[FigureRef, ...]
    tables: tuple[TableRef, ...]
    formulas: tuple[FormulaRef, ...]
    cross_refs: tuple[ResolvedRef, ...]
    citation: str = ""

    @property
    def truncated(self) -> bool:
        """Whether more of the text follows this window."""
        return self.next_offset is not None

    def to_json(self) -> dict:
        section = {**self.edition.to_json(), "nodeId": self.node_id, "path": self.path}
        if self.requested_path is not None:
            section["requestedPath"] = self.requested_path
        section.update(
            title=self.title,
            markdown=self.markdown,
            content=self.content,
            pageStart=self.page_start,
            pageEnd=self.page_end,
            parentPath=self.parent_path,
            children=[child.to_json() for child in self.children],
            offset=self.offset,
            truncated=self.truncated,
            nextOffset=self.next_offset,
            totalChars=self.total_chars,
            figures=[figure.to_json() for figure in self.figures],
            tables=[table.to_json() for table in self.tables],
            formulas=[formula.to_json() for formula in self.formulas],
            crossRefs=[ref.to_json() for ref in self.cross_refs],
            citation=self.citation,
        )
        return {"section": section}


@record
class Hit:
    """A search hit; `marks` are the (start, end) spans of matched words in the snippet."""

    _json_omit = ("marks",)

    path: str
    title: str
    snippet: str
    kind: str
    language: str
    page_start: int | None
    marks: tuple[tuple[int, int], ...] = ()

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "title": self.title,
            "snippet": self.snippet,
            "kind": self.kind,
            "language": self.language,
            "pageStart": self.page_start,
        }


@record
class SearchResult:
    """`search` / `search_in_norm`."""

    _json_flatten = ("edition",)

    edition: Edition
    keyword: str
    hits: tuple[Hit, ...]

    def to_json(self) -> dict:
        return {**self.edition.to_json(), "keyword": self.keyword, "hits": [hit.to_json() for hit in self.hits]}


@record
class CorpusNorm:
    """The hits of one norm edition in a corpus search."""

    code: str
    edition: str
    title: str
    hits: tuple[Hit, ...]

    def to_json(self) -> dict:
        return {"code": self.code, "edition": self.edition, "title": self.title, "hits": [hit.to_json() for hit in self.hits]}


@record
class CorpusResult:
    """`corpus` / `search_corpus`."""

    keyword: str
    norms: tuple[CorpusNorm, ...]

    def to_json(self) -> dict:
        return {"keyword": self.keyword, "norms": [norm.to_json() for norm in self.norms]}


@record
class IncomingRef:
    """A clause that refers to the clause asked about (`xrefs --incoming`), with its citation."""

    source_code: str
    source_edition: str
    source_language: str
    source_path: str
    source_title: str
    text: str
    citation: str

    def to_json(self) -> dict:
        return {
            "sourceCode": self.source_code,
            "sourceEdition": self.source_edition,
            "sourceLanguage": self.source_language,
            "sourcePath": self.source_path,
            "sourceTitle": self.source_title,
            "text": self.text,
            "citation": self.citation,
        }


@record
class XrefsResult:
    """`xrefs` / `get_cross_refs`."""

    _json_flatten = ("edition",)
    _json_optional = ("requested_path", "direction")

    edition: Edition
    path: str
    requested_path: str | None
    cross_refs: tuple[ResolvedRef | IncomingRef, ...]
    direction: str | None = None  # "incoming": `cross_refs` are the clauses that refer to this one (issue 17)

    @property
    def outgoing(self) -> tuple[ResolvedRef, ...]:
        """The references the clause makes (none when the answer is about who cites it)."""
        return tuple(ref for ref in self.cross_refs if isinstance(ref, ResolvedRef))

    @property
    def incoming(self) -> tuple[IncomingRef, ...]:
        """The clauses that refer to this one (with `direction` "incoming")."""
        return tuple(ref for ref in self.cross_refs if isinstance(ref, IncomingRef))

    def to_json(self) -> dict:
        data = {**self.edition.to_json(), "path": self.path}
        if self.requested_path is not None:
            data["requestedPath"] = self.requested_path
        if self.direction is not None:
            data["direction"] = self.direction
        data["crossRefs"] = [ref.to_json() for ref in self.cross_refs]
        return data


@record
class FigureResult:
    """`figure` / `get_figure`: the image bytes with their caption."""

    _json_flatten = ("edition",)

    edition: Edition
    figure_id: str
    figure_number: str | None
    caption: str
    mime_type: str
    path: str
    data: bytes
    url: str = ""  # the image file as a `file://` URI, inside the workspace

    def to_json(self) -> dict:
        from base64 import b64encode

        return {
            **self.edition.to_json(),
            "figureId": self.figure_id,
            "figureNumber": self.figure_number,
            "caption": self.caption,
            "path": self.path,
            "mimeType": self.mime_type,
            "url": self.url,
            "data": b64encode(self.data).decode("ascii"),
        }


@record
class BundleCheck:
    """The verdict of `check` on one bundle file."""

    file: str
    code: str | None
    edition: str | None
    language: str | None
    readable: bool
    sections: int
    score: int
    problems: tuple[dict, ...]

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "code": self.code,
            "edition": self.edition,
            "language": self.language,
            "readable": self.readable,
            "sections": self.sections,
            "score": self.score,
            "problems": list(self.problems),
        }


@record
class CheckResult:
    """`check`: every bundle's problems and quality score."""

    _json_extra = ("errors", "warnings")

    workspace: str
    bundles: tuple[BundleCheck, ...]
    notes: tuple[str, ...] = ()
    specs: tuple[SpecCheck, ...] = ()  # the API spec folders (SPEC §7)

    def _problems(self) -> list[dict]:
        return [problem for bundle in self.bundles for problem in bundle.problems] + [
            problem for spec in self.specs for problem in spec.problems
        ]

    @property
    def errors(self) -> int:
        """How many problems make a bundle or a spec unreadable."""
        return sum(1 for problem in self._problems() if problem["severity"] == "error")

    @property
    def warnings(self) -> int:
        """How many problems leave the bundle or spec readable."""
        return sum(1 for problem in self._problems() if problem["severity"] == "warning")

    def to_json(self) -> dict:
        return {
            "workspace": self.workspace,
            "errors": self.errors,
            "warnings": self.warnings,
            "notes": list(self.notes),
            "bundles": [bundle.to_json() for bundle in self.bundles],
            "specs": [spec.to_json() for spec in self.specs],
        }


@record
class IndexResult:
    """`index`: what a refresh or rebuild did."""

    path: str
    indexed: int
    removed: int
    rebuilt: bool
    seconds: float

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "indexed": self.indexed,
            "removed": self.removed,
            "rebuilt": self.rebuilt,
            "seconds": round(self.seconds, 3),
        }


# -- issue 17: what changed between editions, where a term is defined, citations for reports ---------


@record
class Segment:
    """A run of a word-level diff: `equal`, `delete` (only in the old text) or `insert` (only in the new)."""

    op: str
    text: str

    def to_json(self) -> dict:
        return {"op": self.op, "text": self.text}


@record
class Change:
    """One clause that differs between two editions: `added`, `removed`, `renumbered` or `changed`."""

    _json_optional = ("from_title",)

    kind: str
    from_path: str | None
    to_path: str | None
    title: str
    from_title: str | None
    similarity: float
    diff: tuple[Segment, ...] = ()

    def to_json(self) -> dict:
        data: dict = {
            "kind": self.kind,
            "fromPath": self.from_path,
            "toPath": self.to_path,
            "title": self.title,
            "similarity": self.similarity,
            "diff": [segment.to_json() for segment in self.diff],
        }
        if self.from_title is not None and self.from_title != self.title:
            data["fromTitle"] = self.from_title
        return data


@record
class ComparedEdition:
    """One side of a comparison: which norm, edition and language version."""

    code: str
    edition: str
    language: str
    title: str
    draft: bool

    def to_json(self) -> dict:
        return {"code": self.code, "edition": self.edition, "language": self.language, "title": self.title, "draft": self.draft}


@record
class DiffResult:
    """`diff` / `compare_editions`: the changes from one edition to another, clause by clause."""

    _json_optional = ("path", "notes")
    _json_extra = ("counts",)

    from_: ComparedEdition  # the JSON key is `from`
    to: ComparedEdition
    path: str | None
    same_language: bool
    changes: tuple[Change, ...]
    notes: tuple[str, ...] | None = None  # left out of the JSON when there are none

    @property
    def counts(self) -> dict[str, int]:
        """How many changes of each kind, every kind named (zero included)."""
        found = {"added": 0, "removed": 0, "renumbered": 0, "changed": 0}
        for change in self.changes:
            found[change.kind] = found.get(change.kind, 0) + 1
        return found

    def to_json(self) -> dict:
        data: dict = {"from": self.from_.to_json(), "to": self.to.to_json()}
        if self.path is not None:
            data["path"] = self.path
        data["sameLanguage"] = self.same_language
        data["counts"] = self.counts
        data["changes"] = [change.to_json() for change in self.changes]
        if self.notes:
            data["notes"] = list(self.notes)
        return data


@record
class FoundDefinition:
    """Where a term is defined: the clause, its defining text and how well the term matched."""

    code: str
    edition: str
    language: str
    path: str
    title: str
    term: str
    kind: str
    match: str
    definition: str
    citation: str

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "edition": self.edition,
            "language": self.language,
            "path": self.path,
            "title": self.title,
            "term": self.term,
            "kind": self.kind,
            "match": self.match,
            "definition": self.definition,
            "citation": self.citation,
        }


@record
class DefineResult:
    """`define` / `define_term`: the definitions of a term, exact first, then inflected, then mentions."""

    _json_optional = ("notes",)

    term: str
    definitions: tuple[FoundDefinition, ...]
    notes: tuple[str, ...] | None = None  # left out of the JSON when there are none

    def to_json(self) -> dict:
        data: dict = {"term": self.term, "definitions": [found.to_json() for found in self.definitions]}
        if self.notes:
            data["notes"] = list(self.notes)
        return data


@record
class CiteResult:
    """`cite`: a reference to one clause in a format for reports."""

    code: str
    edition: str
    language: str
    path: str
    title: str
    format: str
    citation: str
    reference: str

    def to_json(self) -> dict:
        return {
            "code": self.code,
            "edition": self.edition,
            "language": self.language,
            "path": self.path,
            "title": self.title,
            "format": self.format,
            "citation": self.citation,
            "reference": self.reference,
        }


def __getattr__(name: str) -> object:
    """The records of the spec discovery operations (SPEC §7), kept in `normcli.specs.results` and
    loaded only when one is asked for (`results.SpecResult`): no norm read pays for them."""
    from normcli.specs import results as spec_results

    try:
        return getattr(spec_results, name)
    except AttributeError:
        raise AttributeError(f"module 'normcli.results' has no attribute {name!r}") from None
