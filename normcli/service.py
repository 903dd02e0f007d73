"""The read operations of SPEC §3, shared by every frontend.

A `Service` reads one workspace. Each operation first makes sure the index matches the bundles
(a stat per bundle when nothing changed), then answers from the index with a result record. The
parts live beside it: `session` (the index and its freshness), `catalogue` (editions, languages),
`resolve` (clauses and references), `search`, `windows` and `trees`; their parameters and ranges
are declared in `operations`. Each operation imports the parts only it uses (`resolve`, `search`,
`windows`, `render`, `lookups`): `info`, `norms` and `toc`, most of what scripts call, need none.
"""

from __future__ import annotations

from normcli import results as r
from normcli.catalogue import Version, split_code
from normcli.discovery.reads import SpecReads
from normcli.errors import InvalidArgument, NotFound
from normcli.operations import checked
from normcli.session import IndexSession
from normcli.snapshot import in_snapshot as _operation
from normcli.snapshot import spec_scope
from normcli.store.schema import BUILT_AT_KEY
from normcli.trees import cut_to_size, tree

# `split_code` is read from here by the TUI; it lives in `catalogue` now.
__all__ = ["Service", "Version", "split_code"]

# A read whose answer is made of the norms alone: its freshness check stats no spec file (docs/specs.md).
_norms_alone = spec_scope("none")

_IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
}


class Service(IndexSession, SpecReads):
    """The read operations over one workspace (the spec discovery operations come from `SpecReads`;
    the index, the catalogue and the reference resolver from `IndexSession`)."""

    _wrap_read = staticmethod(_operation)  # how SpecReads runs its operations: as every read here

    # -- operations ------------------------------------------------------------------------

    @checked("info")
    @_operation
    @_norms_alone
    def info(self) -> r.InfoResult:
        """`info` / `whoami`."""
        index = self.index()
        catalogue = self.catalogue()
        readable, hidden = catalogue.readable, catalogue.hidden  # hidden bundles' clauses are not read: not counted either
        counts = index.counts()
        return r.InfoResult(
            workspace=self.folder,
            name=self.settings.name,
            norms=len({row["code_key"] for row in readable}),
            editions=len({(row["code_key"], row["edition"]) for row in readable}),
            sections=counts["sections"] - sum(row["sections"] or 0 for row in readable if row["file"] in hidden),
            figures=counts["figures"],
            index=r.IndexInfo(str(index.path), index.meta(BUILT_AT_KEY), True),
            is_sample=self.is_sample,
        )

    @checked("norms")
    @_operation
    @_norms_alone
    def norms(self) -> r.NormsResult:
        """`norms` / `list_norms`: every norm with its editions, newest first (made again when the index changes)."""
        return self.catalogue().listing()

    @checked("methodology")
    @_operation
    @spec_scope("listings")
    def methodology(self, norm: str | None = None) -> r.MethodologyResult:
        """`methodology` / `get_methodology`: the reading method built for this workspace, with `norm`
        (the norm a question is about) first when it is given."""
        from normcli.methodology import build_methodology

        return r.MethodologyResult(build_methodology(self.settings, self.norms(), self.spec_list().specs, norm))

    @checked("toc")
    @_operation
    @_norms_alone
    def toc(self, code: str, max_depth: int = 1, edition: str | None = None, language: str | None = None) -> r.TocResult:
        """`toc` / `get_toc`: the clause tree down to `max_depth` (1 = chapters)."""
        version = self.version(code, edition, language)
        rows = self.index().outline(version.bundle_id, max_depth)
        return r.TocResult(version.describe(), tree(rows), max_depth)

    @checked("subtree")
    @_operation
    @_norms_alone
    def subtree(
        self,
        code: str,
        path: str,
        max_depth: int | None = None,
        max_nodes: int = 400,
        edition: str | None = None,
        language: str | None = None,
    ) -> r.SubtreeResult:
        """`subtree` / `get_subtree`: a clause and its descendants, breadth first up to `max_nodes`."""
        from normcli.resolve import find_node

        version = self.version(code, edition, language)
        root, requested = find_node(self.index(), version, path)
        kept, cut = cut_to_size(root, self.index().descendants(version.bundle_id, root, max_depth), max_nodes)
        return r.SubtreeResult(version.describe(), root["path"], requested, tree(kept, cut))

    @checked("section")
    @_operation
    @_norms_alone
    def section(
        self,
        code: str,
        path: str,
        max_chars: int = 12000,
        offset: int = 0,
        edition: str | None = None,
        language: str | None = None,
    ) -> r.SectionResult:
        """`section` / `get_section`: one window of a clause's text, cut at a paragraph boundary."""
        from normcli.resolve import find_clause_or_part

        version = self.version(code, edition, language)
        node, requested = find_clause_or_part(self.index(), version, path)
        index = self.index()
        text = index.node_text(node["id"])
        if offset > len(text):
            raise InvalidArgument(
                f"offset {offset} is past the end of {node['path']} ({len(text)} characters)", param="offset", high=len(text)
            )
        if offset == 0 and len(text) <= max_chars:
            content, next_offset = text, None  # the whole clause in one window, as most are read: nothing to cut
        else:
            from normcli.windows import window, window_start

            offset = window_start(text, offset)
            content, next_offset = window(text, offset, max_chars)
        figures = tuple(r.FigureRef(row["fig_id"], row["number"], row["caption"]) for row in index.figures(version.bundle_id, node["path"]))
        tables = tuple(r.TableRef(row["table_id"], row["number"], row["caption"]) for row in index.tables(version.bundle_id, node["path"]))
        formulas = tuple(r.FormulaRef(row["number"], row["latex"]) for row in index.formulas(version.bundle_id, node["path"]))
        children = tuple(r.ChildRef(row["path"], row["title"]) for row in index.children(version.bundle_id, node))
        # The references of the whole clause, in every window: they are few, and an agent reading the
        # first window must see where the clause leads (SPEC §6); the window's text alone is `content`.
        refs = self.clause_refs(version, node["id"])
        from normcli.render import citation, section_markdown

        cite = citation(version.code, version.edition, node["path"], node["page_start"], version.published)
        markdown = section_markdown(version, node, content, offset, next_offset, len(text), figures, refs, children, cite)
        return r.SectionResult(
            edition=version.describe(),
            node_id=node["node_id"],
            path=node["path"],
            requested_path=requested,
            title=node["title"],
            markdown=markdown,
            content=content,
            page_start=node["page_start"],
            page_end=node["page_end"],
            parent_path=node["parent_path"],
            children=children,
            offset=offset,
            next_offset=next_offset,
            total_chars=len(text),
            figures=figures,
            tables=tables,
            formulas=formulas,
            cross_refs=refs,
            citation=cite,
        )

    @checked("table")
    @_operation
    @_norms_alone
    def table(self, code: str, table_id: str, edition: str | None = None, language: str | None = None) -> r.TableResult:
        """`table` / `get_table`: one table, its caption, the clause that holds it and its rows."""
        from normcli.resolve import find_node, find_table, table_rows

        version = self.version(code, edition, language)
        row = find_table(self.index(), version, table_id)
        node, _ = find_node(self.index(), version, row["node_path"])
        page = row["page"] if row["page"] is not None else node["page_start"]
        return r.TableResult(
            version.describe(),
            row["table_id"],
            row["number"],
            row["caption"],
            row["node_path"],
            page,
            row["markdown"],
            table_rows(row["markdown"]),
        )

    @checked("search")
    @_operation
    @_norms_alone
    def search(self, code: str, keyword: str, limit: int = 20, edition: str | None = None, language: str | None = None) -> r.SearchResult:
        """`search` / `search_in_norm`: titles and text of one norm, best first; every language version
        of the edition unless `language` names one (each hit says its language)."""
        from normcli.search import keyword_tokens, keyword_words, search_norm

        tokens = keyword_tokens(keyword)
        version = self.version(code, edition, language)
        versions = [version]
        if language is None:
            versions += [self.version(code, version.edition, other) for other in version.languages if other != version.language]
        found = keyword_words(self.index(), keyword, tokens)
        return r.SearchResult(version.describe(), keyword, search_norm(self.index(), versions, keyword, found, limit))

    @checked("corpus")
    @_operation
    @_norms_alone
    def corpus(self, keyword: str, limit: int = 20, edition: str | None = None) -> r.CorpusResult:
        """`corpus` / `search_corpus`: every norm's default edition (or `all`, or a year), clause numbers,
        then titles, then text."""
        from normcli.search import keyword_tokens, keyword_words, search_corpus

        tokens = keyword_tokens(keyword)
        found = keyword_words(self.index(), keyword, tokens)
        return r.CorpusResult(keyword, search_corpus(self.index(), self.catalogue(), keyword, found, limit, edition))

    @checked("xrefs")
    @_operation
    @_norms_alone
    def xrefs(
        self, code: str, path: str, edition: str | None = None, language: str | None = None, direction: str = "outgoing"
    ) -> r.XrefsResult:
        """`xrefs` / `get_cross_refs`: a clause's references, those that lead somewhere first; with
        `direction` "incoming", the clauses of every norm that refer to it (`lookups.incoming`)."""
        from normcli.resolve import find_node

        if direction == "incoming":
            from normcli.lookups import incoming

            return incoming(self.index(), self.catalogue(), code, path, edition, language)
        version = self.version(code, edition, language)
        node, requested = find_node(self.index(), version, path)
        refs = self.clause_refs(version, node["id"])
        return r.XrefsResult(version.describe(), node["path"], requested, refs)

    @checked("diff")
    @_operation
    @_norms_alone
    def diff(
        self,
        from_edition: str,
        to_edition: str,
        path: str | None = None,
        language: str | None = None,
        from_language: str | None = None,
        to_language: str | None = None,
        force: bool = False,
    ) -> r.DiffResult:
        """`diff` / `compare_editions`: what changed between two editions (`lookups.compare_editions`)."""
        from normcli.lookups import compare_editions

        return compare_editions(self.index(), self.catalogue(), from_edition, to_edition, path, language, from_language, to_language, force)

    @checked("define")
    @_operation
    @_norms_alone
    def define(self, term: str, limit: int = 20, language: str | None = None) -> r.DefineResult:
        """`define` / `define_term`: where a term or symbol is defined (`lookups.define`)."""
        from normcli.lookups import define

        return define(self.index(), self.catalogue(), term, limit, language)

    @checked("cite")
    @_operation
    @_norms_alone
    def cite(self, code: str, path: str, format: str = "text", edition: str | None = None, language: str | None = None) -> r.CiteResult:
        """`cite`: a reference to a clause as text, BibTeX, CSL-JSON or RIS (`lookups.cite`)."""
        from normcli.lookups import cite

        return cite(self.index(), self.catalogue(), code, path, format, edition, language)

    @checked("figure")
    @_operation
    @_norms_alone
    def figure(self, code: str, figure_id: str, edition: str | None = None, language: str | None = None) -> r.FigureResult:
        """`figure` / `get_figure`: a figure's image, read only from inside its bundle folder."""
        from normcli.resolve import find_figure

        if not isinstance(figure_id, str) or not figure_id.strip() or len(figure_id) > 200:
            raise InvalidArgument("a figure id is required (for example fig-3)", param="figureId")
        version = self.version(code, edition, language)
        row = find_figure(self.index(), version, figure_id)
        if not row["file"]:
            raise NotFound(
                "figure",
                row["fig_id"],
                norm=version.label,
                message=f"figure '{row['fig_id']}' of {version.label} has no file inside its bundle folder",
            )
        folder = (self.root / version.file).parent.resolve()
        target = (folder / row["file"]).resolve()
        if not target.is_relative_to(folder) or not target.is_file():
            raise NotFound(
                "figure",
                row["fig_id"],
                norm=version.label,
                message=f"figure '{row['fig_id']}' of {version.label}: its file is missing or outside the bundle folder",
            )
        import mimetypes

        mime = _IMAGE_TYPES.get(target.suffix.lower()) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        data = target.read_bytes()
        return r.FigureResult(version.describe(), row["fig_id"], row["number"], row["caption"], mime, row["file"], data, target.as_uri())

    @_operation
    @_norms_alone
    def neighbour(self, code: str, path: str, step: int, edition: str | None = None, language: str | None = None) -> r.ChildRef | None:
        """The clause before (`step` -1) or after (+1) `path` in reading order, for readers that walk."""
        from normcli.resolve import find_node

        version = self.version(code, edition, language)
        node, _ = find_node(self.index(), version, path)
        row = self.index().neighbour(version.bundle_id, node["ord"], step)
        return r.ChildRef(row["path"], row["title"]) if row else None

    def ancestors(self, code: str, path: str, edition: str | None = None, language: str | None = None) -> tuple[str, ...]:
        """The paths above `path`, chapter first, for readers that show where a clause sits."""
        from normcli.resolve import find_node

        version = self.version(code, edition, language)
        node, _ = find_node(self.index(), version, path)
        found: list[str] = []
        while node["parent_path"] and len(found) < 64:
            found.append(node["parent_path"])
            node, _ = find_node(self.index(), version, node["parent_path"])
        return tuple(reversed(found))

    @_operation
    def check(self) -> r.CheckResult:
        """`check`: every bundle's problems with file, line and reason, and a quality score."""
        from normcli.quality import check_workspace
        from normcli.record import replace

        checked = check_workspace(self.root, self.index(), self.catalogue(), self.settings.problems)
        return replace(checked, specs=tuple(self.spec_checks()))  # the API specs' problems (SPEC §7)
