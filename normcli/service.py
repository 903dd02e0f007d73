"""The read operations of SPEC §3, shared by every frontend.

A `Service` reads one workspace. Each operation first makes sure the index matches the bundles
(a stat per bundle when nothing changed), then answers from the index with a result dataclass.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from normcli import results as r
from normcli.errors import InvalidArgument, NotFound, WorkspaceError
from normcli.fold import code_key, fold_with_offsets, path_key, words
from normcli.labels import CLAUSE_LABEL, FIGURE_LABEL
from normcli.operations import CODE, KEYWORD, PATH, checked
from normcli.record import record
from normcli.specs.reads import SpecReads
from normcli.store.queries import Index
from normcli.store.refresh import BUILT_AT_KEY, refresh
from normcli.workspace import Located, Settings, locate, read_settings

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from typing import Any, TypeVar

    T = TypeVar("T")

MAX_TREE_LEVELS = 100  # a subtree nests at most this many levels below its root (JSON encoders recurse)
SNIPPET_CHARS = 180
# The patterns only searches use are left to `re`'s cache, compiled at their first use: compiled
# here, they would cost every call's start-up 2 ms.
_CLAUSE_KEYWORD = r"^\s*(?:\d+(?:\.\d+)*|[A-Z](?:\.\d+)*|(?i:(?:annexe?|anhang|allegato|appendix)\s+[a-z]))\s*$"
_IMAGE_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
    ".webp": "image/webp",
}


def split_code(code: str, edition: str | None) -> tuple[str, str | None]:
    """`SIA 261:2014` → (`SIA 261`, `2014`); an explicit edition wins over the suffix."""
    if not isinstance(code, str) or not code.strip():
        raise InvalidArgument("a norm code is required (for example 'SIA 261')", "run `normcli norms` to see the codes")
    if len(code) > (CODE.high or 0) or any(ord(char) < 32 for char in code):
        raise InvalidArgument("the norm code is too long or holds control characters")
    base, sep, suffix = code.rpartition(":")
    if sep and base.strip() and suffix.strip():
        return base.strip(), edition or suffix.strip()
    return code.strip(), edition


def _check_path(path: str) -> str:
    if not isinstance(path, str) or not path.strip():
        raise InvalidArgument("a clause path is required (for example 4.2.1)")
    if len(path) > (PATH.high or 0) or any(ord(char) < 32 for char in path):
        raise InvalidArgument("the clause path is too long or holds control characters")
    return path.strip()


@record
class Version:
    """One language version of one edition: the bundle an answer is read from."""

    bundle_id: int
    code: str
    edition: str
    language: str
    languages: tuple[str, ...]
    title: str
    file: str

    def describe(self) -> r.Edition:
        """The edition block every per-norm answer carries."""
        return r.Edition(self.code, self.edition, self.language, self.languages, self.title)

    @property
    def label(self) -> str:
        """`SIA 261:2020` (with the language when the edition has several)."""
        suffix = f" ({self.language})" if len(self.languages) > 1 else ""
        return f"{self.code}:{self.edition}{suffix}"


def _operation(operation: Callable[..., T]) -> Callable[..., T]:
    """A read operation: the index is checked for fresh bundles once per call (not once per
    query inside it), and if it turns out to be damaged it is rebuilt once and the call rerun."""

    @functools.wraps(operation)
    def run(self: Service, *args: Any, **kwargs: Any) -> T:
        if self._in_operation:
            return operation(self, *args, **kwargs)
        self._in_operation, self._checked = True, False
        try:
            try:
                return operation(self, *args, **kwargs)
            except sqlite3.DatabaseError:
                self.close()
                refresh(self.root, rebuild=True)
                return operation(self, *args, **kwargs)
        finally:
            self._in_operation = False
            if self._index is not None:
                self._index.end_snapshot()

    return run


class Service(SpecReads):
    """The read operations over one workspace (the spec discovery operations come from `SpecReads`)."""

    def __init__(self, located: Located) -> None:
        self.root = located.root
        self.is_sample = located.is_sample
        self.settings: Settings = read_settings(self.root)
        self._index: Index | None = None
        self._bundles: list[sqlite3.Row] = []
        self._catalogue: dict[str, dict[str, list[sqlite3.Row]]] | None = None
        self._defaults: dict[str, list[sqlite3.Row]] | None = None
        self._listing: r.NormsResult | None = None
        self._hidden: dict[str, str] = {}
        self._in_operation = False
        self._checked = False
        self._checked_at = 0.0
        # Seconds during which a long-running reader (batch) trusts its last freshness check.
        self.recheck_after = 0.0
        self._data_version = -1

    @classmethod
    def open(cls, workspace: str | Path | None = None) -> Service:
        """The service for `--workspace`, $NORMCLI_WORKSPACE, the folder we are in, or the sample."""
        return cls(locate(workspace))

    def close(self) -> None:
        """Release the index connection."""
        self._checked = False
        if self._index is not None:
            self._index.close()
            self._index = None

    # -- the index -------------------------------------------------------------------------

    def index(self) -> Index:
        """The index, refreshed for every bundle that changed since the last operation."""
        if self._checked and self._index is not None:
            return self._index
        try:
            if self._index is None or time.monotonic() - self._checked_at >= self.recheck_after:
                known = {row["file"]: (row["mtime_ns"], row["size"]) for row in self._bundles} if self._index is not None else None
                done = refresh(self.root, known=known)
                self._checked_at = time.monotonic()
                if self._index is not None and (done.indexed or done.removed or done.rebuilt or self._stale(done.path)):
                    self.close()
                if self._index is None:
                    self._index = Index(done.path)
                    self._data_version = -1
            # Another process may have refreshed the index in place: the bundle rows (and their ids)
            # are read again when the data changed, inside the snapshot the whole operation reads.
            data_version = self._index.snapshot() if self._in_operation else self._index.data_version()
            if data_version != self._data_version:
                self._bundles, self._data_version = self._index.bundles(), data_version
                self._catalogue = self._defaults = self._listing = None
            self._checked = self._in_operation
        except sqlite3.DatabaseError as exc:
            raise WorkspaceError(f"the index cannot be read: {exc}", "run `normcli index --rebuild`") from exc
        return self._index

    def _stale(self, path: Path) -> bool:
        try:
            return self._index is not None and path.stat().st_ino != self._index.inode
        except OSError:
            return True

    def rebuild(self, force: bool = True) -> r.IndexResult:
        """`index`: refresh the index, or rebuild it from scratch with `force`."""
        started = time.perf_counter()
        self.close()
        done = refresh(self.root, rebuild=force)
        return r.IndexResult(str(done.path), done.indexed, done.removed, done.rebuilt, time.perf_counter() - started)

    def _readable(self) -> list[sqlite3.Row]:
        self.index()
        return [row for row in self._bundles if row["readable"]]

    # -- choosing a norm, edition, language and clause --------------------------------------

    def _by_code(self) -> dict[str, dict[str, list[sqlite3.Row]]]:
        """The readable bundles by norm (code key) and edition, in file order; made again when the index changes.

        Two bundles may declare the same norm, edition and language (a copy, a stray import): one is
        read, the one laid out where SPEC §2 puts it, else the first, and `hidden_bundles` names the other.
        """
        self.index()
        if self._catalogue is None:
            catalogue: dict[str, dict[str, list[sqlite3.Row]]] = {}
            readable = self._readable()
            for row in readable:
                rows = catalogue.setdefault(row["code_key"], {}).setdefault(row["edition"], [])
                twin = next((other for other in rows if other["language"] == row["language"]), None)
                if twin is None:
                    rows.append(row)
                elif _laid_out(row) and not _laid_out(twin):
                    rows.remove(twin)
                    rows.append(row)  # bundles come in file order, so the languages stay in file order
            read = {
                (row["code_key"], row["edition"], row["language"]): row["file"]
                for editions in catalogue.values()
                for rows in editions.values()
                for row in rows
            }
            self._hidden = {
                row["file"]: read[(row["code_key"], row["edition"], row["language"])]
                for row in readable
                if read[(row["code_key"], row["edition"], row["language"])] != row["file"]
            }
            self._catalogue = catalogue
        return self._catalogue

    def unreadable_bundles(self) -> list[str]:
        """The bundle files that could not be read (`check` says why), in file order."""
        self.index()
        return [row["file"] for row in self._bundles if not row["readable"]]

    def hidden_bundles(self) -> dict[str, str]:
        """Bundles not read because another declares the same norm, edition and language: file → the file read."""
        self._by_code()
        return dict(self._hidden)

    def _editions_of(self, code: str) -> dict[str, list[sqlite3.Row]]:
        editions = self._by_code().get(code_key(code))
        if not editions:
            raise NotFound(f"no norm '{code}' in this workspace", "run `normcli norms` to list the codes", "norm")
        return editions

    @staticmethod
    def _newest_first(editions: dict[str, list[sqlite3.Row]]) -> list[str]:
        return sorted(editions, key=lambda name: (editions[name][0]["year"], _natural(name)), reverse=True)

    def _default_edition(self, editions: dict[str, list[sqlite3.Row]]) -> str | None:
        published = [name for name in self._newest_first(editions) if editions[name][0]["published"]]
        return published[0] if published else None

    def version(self, code: str, edition: str | None = None, language: str | None = None) -> Version:
        """The bundle a per-norm read uses: newest published edition and preferred language by default."""
        code, edition = split_code(code, edition)
        editions = self._editions_of(code)
        if edition is not None:
            wanted = code_key(str(edition))
            chosen = next((name for name in editions if code_key(name) == wanted), None)
            if chosen is None:
                known = ", ".join(self._newest_first(editions))
                raise NotFound(f"{code} has no edition '{edition}'", f"its editions are {known}", "edition")
        else:
            chosen = self._default_edition(editions)
            if chosen is None:
                known = ", ".join(self._newest_first(editions))
                raise NotFound(f"{code} has only draft editions ({known})", "name one with --edition", "edition")
        rows = editions[chosen]
        languages = tuple(row["language"] for row in rows)
        if language is not None and not isinstance(language, str):
            raise InvalidArgument(f"language must be text such as 'fr', not {language!r}", f"its languages are {', '.join(languages)}")
        if language:
            wanted_language = language.strip().lower()
            row = next((row for row in rows if row["language"] == wanted_language), None)
            if row is None:
                raise NotFound(
                    f"{rows[0]['code']}:{chosen} has no '{language}' version", f"its languages are {', '.join(languages)}", "language"
                )
        else:
            preferred = self.settings.language
            row = next((row for row in rows if row["language"] == preferred), rows[0])
        return Version(row["id"], row["code"], row["edition"], row["language"], languages, row["title"], row["file"])

    def _node(self, version: Version, path: str) -> tuple[sqlite3.Row, str | None]:
        """The clause at `path`, else the nearest heading above it (then the requested path is returned too)."""
        path = _check_path(path)
        candidates = _candidates(path_key(path))
        held = self.index().nodes_by_keys(version.bundle_id, [candidate for candidate, _ in candidates])
        for candidate, exact in candidates:
            if candidate in held:
                return held[candidate], None if exact else path
        # As the clause is cited in text: `§ 4.2.1`, `chiffre 4.2.1`, `Ziffer 4.2.1`, `section 4.2.1`.
        bare = re.sub(rf"^(?:§+\s*|{CLAUSE_LABEL}\s+)", "", path)
        if bare != path and bare:
            node, requested = self._node(version, bare)
            return node, requested and path
        raise NotFound(f"no clause '{path}' in {version.label}", f'run `normcli toc "{version.code}"` to see its clauses', "clause")

    # -- operations ------------------------------------------------------------------------

    @checked("info")
    @_operation
    def info(self) -> r.InfoResult:
        """`info` / `whoami`."""
        index = self.index()
        readable = [row for row in self._bundles if row["readable"]]
        hidden = self.hidden_bundles()  # their clauses are not read: not counted either
        counts = index.counts()
        return r.InfoResult(
            workspace=str(self.root),
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
    def norms(self) -> r.NormsResult:
        """`norms` / `list_norms`: every norm with its editions, newest first (made again when the index changes)."""
        catalogue = self._by_code()
        if self._listing is not None:
            return self._listing
        norms = []
        for editions in catalogue.values():
            order = self._newest_first(editions)
            default = self._default_edition(editions) or order[0]
            head = self._preferred(editions[default])
            infos = tuple(
                r.EditionInfo(
                    edition=name,
                    year=editions[name][0]["year"] or None,
                    title=self._preferred(editions[name])["title"],
                    published=bool(editions[name][0]["published"]),
                    languages=tuple(row["language"] for row in editions[name]),
                    sections=self._preferred(editions[name])["sections"],
                    pages=self._preferred(editions[name])["pages"],
                )
                for name in order
            )
            norms.append(
                r.NormInfo(
                    code=head["code"],
                    year=head["year"] or None,
                    title=head["title"],
                    language=head["language"],
                    demo=bool(head["demo"]),
                    scope=head["scope"] or "",
                    requires=tuple(json.loads(head["requires"] or "[]")),
                    editions=infos,
                )
            )
        norms.sort(key=lambda norm: code_key(norm.code))
        self._listing = r.NormsResult(tuple(norms))
        return self._listing

    def _preferred(self, rows: list[sqlite3.Row]) -> sqlite3.Row:
        return next((row for row in rows if row["language"] == self.settings.language), rows[0])

    @checked("methodology")
    @_operation
    def methodology(self) -> r.MethodologyResult:
        """`methodology` / `get_methodology`: the reading method built for this workspace."""
        from normcli.methodology import build_methodology

        return r.MethodologyResult(build_methodology(self.settings, self.norms()))

    @checked("toc")
    @_operation
    def toc(self, code: str, max_depth: int = 1, edition: str | None = None, language: str | None = None) -> r.TocResult:
        """`toc` / `get_toc`: the clause tree down to `max_depth` (1 = chapters)."""
        version = self.version(code, edition, language)
        rows = self.index().outline(version.bundle_id, max_depth)
        return r.TocResult(version.describe(), _tree(rows, version), max_depth)

    @checked("subtree")
    @_operation
    def subtree(
        self,
        code: str,
        path: str,
        max_depth: int | None = None,
        max_nodes: int = 400,
        edition: str | None = None,
        language: str | None = None,
    ) -> r.SubtreeResult:
        """`subtree` / `get_subtree`: a clause and its descendants; past `max_nodes` the deepest levels go."""
        version = self.version(code, edition, language)
        root, requested = self._node(version, path)
        rows = self.index().descendants(version.bundle_id, root, max_depth)
        per_level: dict[int, int] = {}
        for row in rows:
            per_level[row["depth"]] = per_level.get(row["depth"], 0) + 1
        kept_depth, total = root["depth"], 0
        for depth in sorted(per_level)[: MAX_TREE_LEVELS + 1]:
            if total + per_level[depth] > max_nodes:
                break
            total += per_level[depth]
            kept_depth = depth
        truncated = any(depth > kept_depth for depth in per_level)
        kept = [row for row in rows if row["depth"] <= kept_depth] or rows[:1]
        tree = _tree(kept, version, truncated_root=truncated)
        return r.SubtreeResult(version.describe(), root["path"], requested, tree)

    @checked("section")
    @_operation
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
        version = self.version(code, edition, language)
        node, requested = self._node(version, path)
        index = self.index()
        text = index.node_text(node["id"])
        if offset > len(text):
            raise InvalidArgument(
                f"offset {offset} is past the end of {node['path']} ({len(text)} characters)", "start again from --offset 0"
            )
        content, next_offset = window(text, offset, max_chars)
        figures = tuple(r.FigureRef(row["fig_id"], row["number"], row["caption"]) for row in index.figures(version.bundle_id, node["path"]))
        tables = tuple(r.TableRef(row["table_id"], row["number"], row["caption"]) for row in index.tables(version.bundle_id, node["path"]))
        formulas = tuple(r.FormulaRef(row["number"], row["latex"]) for row in index.formulas(version.bundle_id, node["path"]))
        children = tuple(r.ChildRef(row["path"], row["title"]) for row in index.children(version.bundle_id, node))
        refs = self.resolve_refs(version, index.xrefs(node["id"], _window_span(offset, next_offset)))
        from normcli.render import section_markdown

        markdown = section_markdown(version, node, content, offset, next_offset, len(text), figures, refs, children)
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
        )

    @checked("search")
    @_operation
    def search(self, code: str, keyword: str, limit: int = 20, edition: str | None = None, language: str | None = None) -> r.SearchResult:
        """`search` / `search_in_norm`: titles and text of one norm, best first."""
        tokens = _keyword_tokens(keyword)
        version = self.version(code, edition, language)
        index = self.index()
        hits: list[r.Hit] = []
        languages = {version.bundle_id: version.language}
        clauses = index.nodes_in_bundles(_exact_keys(keyword), [version.bundle_id]) if re.match(_CLAUSE_KEYWORD, keyword) else []
        if clauses:
            # As in `corpus`: the clause itself, then the clauses whose references lead to it.
            hits = [_path_hit(node, version.language) for node in clauses]
            shown = {node["id"] for node in clauses}
            keys = sorted({node["path_key"] for node in clauses})
            mentions = [node for node in index.mentions(keys, [version.bundle_id], limit) if node not in shown]
            hits += [hit for hit, _ in self._hits(index, tokens, mentions, "text", languages)]
            hits = hits[:limit]
        elif tokens:  # words, and numbers the norm has no clause for (`2020`, `SIA 260`)
            id_range = index.id_range(version.bundle_id)
            title_ids = _phrase_first(index, tokens, limit, id_range, titles=True)
            text_ids = [node for node in _phrase_first(index, tokens, limit + len(title_ids), id_range) if node not in title_ids]
            found = self._hits(index, tokens, title_ids, "title", languages) + self._hits(index, tokens, text_ids, "text", languages)
            hits = [hit for hit, _ in found[:limit]]
        return r.SearchResult(version.describe(), keyword, tuple(hits))

    @checked("corpus")
    @_operation
    def corpus(self, keyword: str, limit: int = 20) -> r.CorpusResult:
        """`corpus` / `search_corpus`: every norm's default edition, clause numbers, then titles, then text."""
        tokens = _keyword_tokens(keyword)
        index = self.index()
        defaults = self._default_versions()
        languages = {row["id"]: row["language"] for rows in defaults.values() for row in rows}
        owner = {row["id"]: rows for rows in defaults.values() for row in rows}
        grouped: dict[tuple[str, str], list[r.Hit]] = {}
        seen: set[tuple[str, str, str]] = set()

        def room() -> int:
            return limit - len(seen)

        def take(ids: list[int], kind: str) -> None:
            """Add hits for the first clauses of default editions not shown yet; snippets are cut only for those kept."""
            rows = index.nodes_by_ids(ids)
            fresh: list[int] = []
            space = room()
            for node in ids:
                if rows[node]["bundle_id"] not in owner:
                    continue
                head = owner[rows[node]["bundle_id"]][0]
                key = (head["code_key"], head["edition"], rows[node]["path"])
                if key not in seen and len(fresh) < space:
                    seen.add(key)
                    fresh.append(node)
            for hit, bundle_id in self._hits(index, tokens, fresh, kind, languages):
                head = owner[bundle_id][0]
                grouped.setdefault((head["code_key"], head["edition"]), []).append(hit)

        preferred = {self._preferred(rows)["id"]: rows for rows in defaults.values()}
        clauses = index.nodes_in_bundles(_exact_keys(keyword), sorted(preferred)) if re.match(_CLAUSE_KEYWORD, keyword) else []
        if clauses:
            for node in clauses:
                bundle = self._preferred(preferred[node["bundle_id"]])
                shown = (bundle["code_key"], bundle["edition"], node["path"])
                if room() > 0 and shown not in seen:
                    seen.add(shown)
                    grouped.setdefault((bundle["code_key"], bundle["edition"]), []).append(_path_hit(node, bundle["language"]))
            if tokens and room() > 0:
                # Mentions come from the stored references, not from a phrase query: the digits of
                # "4.2.1" are in every other clause, so the phrase would intersect huge posting lists.
                keys = sorted({node["path_key"] for node in clauses})
                take(index.mentions(keys, sorted(languages), limit + len(seen)), "text")
        elif tokens:  # words, and numbers no norm has a clause for (`1990`, `SIA 260`)
            # Titles first, then text; within each, the words side by side first. Each query runs
            # only while there is room: a common word fills the page with title hits alone. Hits
            # that are not shown (an older edition, a clause already shown in another language or
            # as a title hit) leave room, so the query is asked again for more while it has them.
            for kind, titles in (("title", True), ("text", False)):
                for query in _fts_queries(tokens):
                    ask = max(2 * (limit + len(seen)), 20)
                    while room() > 0:
                        # A text query is ranked on a sample when it matches very many clauses; titles never are.
                        ids = index.match(query, ask, titles=True) if titles else index.match_sampled(query, ask)
                        take(ids, kind)
                        if len(ids) < ask:
                            break
                        ask *= 4
        norms = []
        for (key, edition_name), hits in grouped.items():
            rows = defaults[key]
            head = self._preferred(rows)
            norms.append(r.CorpusNorm(head["code"], edition_name, head["title"], tuple(hits)))
        return r.CorpusResult(keyword, tuple(norms))

    @checked("xrefs")
    @_operation
    def xrefs(self, code: str, path: str, edition: str | None = None, language: str | None = None) -> r.XrefsResult:
        """`xrefs` / `get_cross_refs`: a clause's references, those that lead somewhere first."""
        version = self.version(code, edition, language)
        node, requested = self._node(version, path)
        refs = self.resolve_refs(version, self.index().xrefs(node["id"]))
        return r.XrefsResult(version.describe(), node["path"], requested, refs)

    @checked("figure")
    @_operation
    def figure(self, code: str, figure_id: str, edition: str | None = None, language: str | None = None) -> r.FigureResult:
        """`figure` / `get_figure`: a figure's image, read only from inside its bundle folder."""
        if not isinstance(figure_id, str) or not figure_id.strip() or len(figure_id) > 200:
            raise InvalidArgument("a figure id is required (for example fig-3)", "the figures of a clause are listed by `normcli section`")
        version = self.version(code, edition, language)
        rows = self.index().figures(version.bundle_id)
        wanted = {path_key(figure_id), path_key(f"fig-{figure_id}")}
        number = re.sub(rf"^{FIGURE_LABEL}\s*(?=[A-Z]?\d)", "", figure_id.strip())
        row = next(
            (row for row in rows if path_key(row["fig_id"]) in wanted or (row["number"] and path_key(row["number"]) == path_key(number))),
            None,
        )
        if row is None:
            known = ", ".join(row["fig_id"] for row in rows[:12]) or "none"
            raise NotFound(f"no figure '{figure_id}' in {version.label}", f"its figures are: {known}", "figure")
        if not row["file"]:
            raise NotFound(
                f"figure '{row['fig_id']}' of {version.label} has no file inside its bundle folder",
                "run `normcli check` for the reason",
                "figure",
            )
        folder = (self.root / version.file).parent.resolve()
        target = (folder / row["file"]).resolve()
        if not target.is_relative_to(folder) or not target.is_file():
            raise NotFound(
                f"figure '{row['fig_id']}' of {version.label}: its file is missing or outside the bundle folder",
                "run `normcli check`",
                "figure",
            )
        import mimetypes

        mime = _IMAGE_TYPES.get(target.suffix.lower()) or mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        return r.FigureResult(version.describe(), row["fig_id"], row["number"], row["caption"], mime, row["file"], target.read_bytes())

    @_operation
    def neighbour(self, code: str, path: str, step: int, edition: str | None = None, language: str | None = None) -> r.ChildRef | None:
        """The clause before (`step` -1) or after (+1) `path` in reading order, for readers that walk."""
        version = self.version(code, edition, language)
        node, _ = self._node(version, path)
        row = self.index().neighbour(version.bundle_id, node["ord"], step)
        return r.ChildRef(row["path"], row["title"]) if row else None

    @_operation
    def check(self) -> r.CheckResult:
        """`check`: every bundle's problems with file, line and reason, and a quality score."""
        from normcli.quality import check_workspace

        self.index()
        return check_workspace(self)

    # -- helpers ---------------------------------------------------------------------------

    def version_of(self, bundle: sqlite3.Row, rows: list[sqlite3.Row]) -> Version:
        """The `Version` of one bundle row, given the rows of all languages of its edition."""
        languages = tuple(row["language"] for row in rows)
        return Version(bundle["id"], bundle["code"], bundle["edition"], bundle["language"], languages, bundle["title"], bundle["file"])

    def _default_versions(self) -> dict[str, list[sqlite3.Row]]:
        """For each norm, the bundles (one per language) of its default edition."""
        catalogue = self._by_code()
        if self._defaults is None:
            self._defaults = {}
            for key, editions in catalogue.items():
                chosen = self._default_edition(editions)
                if chosen is not None:
                    self._defaults[key] = editions[chosen]
        return self._defaults

    def _hits(self, index: Index, tokens: list[str], ids: list[int], kind: str, languages: dict[int, str]) -> list[tuple[r.Hit, int]]:
        """Hits (with their bundle id) for clause ids in rank order, snippets cut from the original text."""
        rows = index.nodes_by_ids(ids)
        texts = index.texts(ids)
        out = []
        for node in ids:
            row = rows[node]
            snippet, marks = snippet_for(texts.get(node) or row["title"], tokens)
            out.append(
                (
                    r.Hit(row["path"], row["title"], snippet, kind, languages.get(row["bundle_id"], ""), row["page_start"], marks),
                    row["bundle_id"],
                )
            )
        return out

    def resolve_refs(self, version: Version, rows: list[sqlite3.Row]) -> tuple[r.ResolvedRef, ...]:
        """Where each stored reference of `version` leads in this workspace, the resolvable ones first."""
        return tuple(sorted(self.resolve_each(version, rows), key=lambda ref: not ref.resolvable))

    def resolve_each(self, version: Version, rows: list[sqlite3.Row]) -> list[r.ResolvedRef]:
        """Where each stored reference of `version` leads, in the order of `rows`.

        A long clause holds hundreds of references: the clauses they name are fetched with one
        query per target norm, and each other norm's edition is chosen once.
        """
        own_key = code_key(version.code)
        editions: dict[str, Version | None] = {own_key: version}
        planned = []
        wanted: dict[int, set[str]] = {}
        for row in rows:
            internal = row["target_code"] is None or code_key(row["target_code"]) == own_key
            key = own_key if internal else code_key(row["target_code"])
            if key not in editions:
                editions[key] = self._edition_for_reference(row["target_code"], version.language)
            target = editions[key]
            planned.append((row, internal, target))
            if target is not None and row["target_kind"] in ("clause", "annex") and row["target_path"]:
                wanted.setdefault(target.bundle_id, set()).update(candidate for candidate, _ in _candidates(path_key(row["target_path"])))
        index = self.index()
        nodes = {bundle_id: index.nodes_by_keys(bundle_id, sorted(keys)) for bundle_id, keys in wanted.items()}
        parts: dict[tuple[int, str], list[sqlite3.Row]] = {}
        return [self._resolve_one(row, internal, version, target, nodes, parts) for row, internal, target in planned]

    def _edition_for_reference(self, code: str, language: str) -> Version | None:
        """The edition another norm's reference leads to: the default one, in the reader's language if it has it."""
        for wanted_language in (language, None):
            try:
                return self.version(code, None, wanted_language)
            except (NotFound, InvalidArgument):
                continue
        return None

    def _resolve_one(
        self,
        row: sqlite3.Row,
        internal: bool,
        version: Version,
        target: Version | None,
        nodes: dict[int, dict[str, sqlite3.Row]],
        parts: dict[tuple[int, str], list[sqlite3.Row]],
    ) -> r.ResolvedRef:
        kind, target_path = row["target_kind"], row["target_path"]
        target_code = version.code if internal else row["target_code"]

        def answer(resolvable: bool, path: str | None = target_path, title: str | None = None) -> r.ResolvedRef:
            edition = target.edition if target is not None and resolvable else None
            return r.ResolvedRef(row["text"], row["type"], target_code, path, kind, internal, resolvable, title, edition)

        if target is None:
            return answer(False)
        if kind == "norm" or not target_path:
            return answer(True, None, target.title)
        if kind in ("figure", "table"):
            if (target.bundle_id, kind) not in parts:
                index = self.index()
                parts[(target.bundle_id, kind)] = index.figures(target.bundle_id) if kind == "figure" else index.tables(target.bundle_id)
            id_column = "fig_id" if kind == "figure" else "table_id"
            wanted = path_key(target_path)
            match = next((item for item in parts[(target.bundle_id, kind)] if item["number"] and path_key(item["number"]) == wanted), None)
            return answer(True, match[id_column], match["caption"]) if match is not None else answer(False)
        held = nodes.get(target.bundle_id, {})
        for candidate, exact in _candidates(path_key(target_path)):
            node = held.get(candidate)
            if node is not None:
                if exact or _paragraph_of(node, target_path):
                    return answer(True, node["path"], node["title"])
                break
        return answer(False)


def _candidates(key: str) -> list[tuple[str, bool]]:
    """The folded paths to look for when `key` is asked, nearest first, each with whether finding it
    counts as finding the clause itself (`a` also names `Annexe A`) or only the heading above it."""
    found = [(key, True)]
    if re.fullmatch(r"[a-z]", key):
        found.append((f"annex{key}", True))
    trimmed = key
    while "." in trimmed:
        trimmed = trimmed.rsplit(".", 1)[0]
        found.append((trimmed, False))
        if re.fullmatch(r"[a-z]", trimmed):
            found.append((f"annex{trimmed}", False))
    return found


def _window_span(offset: int, next_offset: int | None) -> tuple[int, int]:
    """The part of a clause's text whose references a window lists: from its start to the next window."""
    return (offset, next_offset if next_offset is not None else 1 << 62)


def _paragraph_of(node: sqlite3.Row, requested: str) -> bool:
    """Whether `requested` (4.2.6.1) is a numbered paragraph in the text of heading `node` (4.2.6):
    one level below it, under a heading that has no subclauses of its own."""
    return path_key(requested).rsplit(".", 1)[0] == node["path_key"] and node["child_count"] == 0


def _keyword_tokens(keyword: str) -> list[str]:
    if not isinstance(keyword, str):
        raise InvalidArgument("the keyword must be text")
    length = len(keyword.strip())
    if not (KEYWORD.low or 0) <= length <= (KEYWORD.high or 0):
        raise InvalidArgument(f"the keyword must have {KEYWORD.low} to {KEYWORD.high} characters, not {length}")
    return words(keyword)[:16]


def _natural(name: str) -> tuple[tuple[int, int | str], ...]:
    """An edition name for sorting with its numbers as numbers: `10` after `9`, `2.10` after `2.9`, and
    any number after words (`2020` is newer than `draft`)."""
    return tuple((1, int(part)) if part.isascii() and part.isdigit() else (0, part) for part in re.findall(r"[0-9]+|[^0-9]+", name.lower()))


def _laid_out(bundle: sqlite3.Row) -> bool:
    """Whether a bundle sits where SPEC §2 puts it: `norms/<code-slug>/<edition>/`."""
    parts = bundle["file"].split("/")
    return len(parts) == 4 and code_key(parts[1]) == bundle["code_key"] and code_key(parts[2]) == code_key(bundle["edition"])


def _exact_keys(keyword: str) -> list[str]:
    """The folded paths a clause-number keyword names exactly (`4.2.1`, `Annexe A`)."""
    return [candidate for candidate, is_exact in _candidates(path_key(keyword)) if is_exact]


def _path_hit(node: sqlite3.Row, language: str) -> r.Hit:
    """The hit for a clause named by its number: its summary stands for the snippet."""
    return r.Hit(node["path"], node["title"], node["summary"], "path", language, node["page_start"])


def _fts_query(tokens: list[str], prefixes: bool = True) -> str:
    """An FTS5 query from folded words: every word required; with `prefixes`, words of four
    letters or more also match as the start of longer ones (`Schnee` finds `Schneelast`)."""
    terms = " ".join(f'"{token}"*' if prefixes and len(token) >= 4 else f'"{token}"' for token in tokens)
    return terms


def _fts_queries(tokens: list[str]) -> list[str]:
    """The queries of one search kind, best first: the words side by side, the words themselves,
    then the words as prefixes. Each later one runs only when the earlier ones left room: an
    exact common word is cheap to rank, its prefix expansion is not."""
    queries = [_fts_phrase(tokens)] if len(tokens) > 1 else []
    queries.append(_fts_query(tokens, prefixes=False))
    if any(len(token) >= 4 for token in tokens):
        queries.append(_fts_query(tokens))
    return queries


def _fts_phrase(tokens: list[str]) -> str:
    """An FTS5 phrase: the words next to each other (`charge de neige`, or `4 2 1` for clause 4.2.1)."""
    phrase = '"' + " ".join(tokens) + '"'
    return phrase


def _phrase_first(index: Index, tokens: list[str], limit: int, id_range: tuple[int, int], titles: bool = False) -> list[int]:
    """Clause ids in the order of `_fts_queries`: side by side, then the words, then their prefixes.

    Inside one norm FTS5 finds the words fast but a phrase slowly (it does not skip to the norm's
    rows): the words are asked first, and where they are not all there, the phrase is not asked.
    """
    queries = _fts_queries(tokens)
    known: dict[str, list[int]] = {}
    if len(tokens) > 1:
        phrase, each_word = queries[0], queries[1]
        known[each_word] = index.match(each_word, limit, id_range, titles)
        if not known[each_word]:
            known[phrase] = []
    ids: list[int] = []
    for query in queries:
        if len(ids) >= limit:
            break
        matched = known[query] if query in known else index.match(query, limit, id_range, titles)
        ids += [node for node in matched if node not in ids]
    return ids[:limit]


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


_SNIPPET_NOISE = (
    (r"!\[([^\]]*)\]\([^)]*\)", r"[\1]"),
    (r"(?<!!)\[([^\]]*)\]\([^)]*\)", r"\1"),
    (r"(?m)^\s*\|?[\s:|-]*-{2,}[\s:|-]*$", " "),
    (r"(?m)\*\*|__|^#+\s+|<!--.*?-->", " "),
)


def _plain(text: str) -> str:
    for pattern, replacement in _SNIPPET_NOISE:
        text = re.sub(pattern, replacement, text)
    return text


def snippet_for(text: str, tokens: list[str], width: int = SNIPPET_CHARS) -> tuple[str, tuple[tuple[int, int], ...]]:
    """A short excerpt of the original text around the best match, with the matched words' spans.

    The excerpt centres on the whole phrase when it occurs, else on the longest word: `de` in
    `charge de neige` is everywhere and says nothing.
    """
    if not tokens:
        return _excerpt(text, 0, width), ()
    longest = sorted(set(tokens), key=len, reverse=True)
    candidates = [re.compile(r"\b" + r"\W+".join(re.escape(token) for token in tokens))] if len(tokens) > 1 else []
    candidates += [re.compile(r"\b" + re.escape(token)) for token in longest]
    found = _first_match(text, candidates)
    snippet = _excerpt(text, found, width)
    shown = [token for token in longest if len(token) >= 3] or longest
    return snippet, _marks(snippet, re.compile(r"\b(?:" + "|".join(re.escape(token) for token in shown) + ")"))


def _first_match(text: str, patterns: list[re.Pattern[str]], chunk: int = 20000) -> int:
    """Where in the original text the first pattern that matches the folded text matches first."""
    for pattern in patterns:
        for start in range(0, max(len(text), 1), chunk):
            folded, offsets = fold_with_offsets(text[start : start + chunk + 200])
            match = pattern.search(folded)
            if match:
                return start + offsets[match.start()]
    return 0


def _excerpt(text: str, found: int, width: int) -> str:
    begin = max(0, found - width // 3)
    if begin:
        space = text.find(" ", begin, found)
        begin = space + 1 if space != -1 else begin
    excerpt = text[begin : begin + width]
    if begin + width < len(text):
        cut = excerpt.rfind(" ")
        excerpt = excerpt[:cut] if cut > width // 2 else excerpt
    snippet = re.sub(r"\s+", " ", _plain(excerpt)).strip()
    if begin > 0:
        snippet = "…" + snippet
    if begin + width < len(text):
        snippet += "…"
    return snippet


def highlight_spans(text: str, keyword: str) -> tuple[tuple[int, int], ...]:
    """Where the words of `keyword` occur in `text` (folded), for frontends that re-render a snippet."""
    tokens = [token for token in words(keyword) if len(token) >= 3] or words(keyword)
    if not tokens:
        return ()
    return _marks(text, re.compile(r"\b(?:" + "|".join(re.escape(token) for token in sorted(set(tokens), key=len, reverse=True)) + ")"))


def _marks(snippet: str, pattern: re.Pattern[str]) -> tuple[tuple[int, int], ...]:
    folded, offsets = fold_with_offsets(snippet)
    spans = []
    for match in pattern.finditer(folded):
        end = match.end()
        while end < len(folded) and folded[end].isalnum():
            end += 1
        spans.append((offsets[match.start()], offsets[end - 1] + 1))
    return tuple(spans)


def _tree(rows: list[sqlite3.Row], version: Version, truncated_root: bool = False) -> tuple[r.TreeNode, ...]:
    """Nest rows (in reading order) by parent path; built without recursion so any depth works."""
    kept = {row["path"] for row in rows}
    children: dict[str | None, list[sqlite3.Row]] = {}
    for row in rows:
        parent = row["parent_path"] if row["parent_path"] in kept else None
        children.setdefault(parent, []).append(row)
    built: dict[str, r.TreeNode] = {}
    for row in reversed(rows):
        below = tuple(built[child["path"]] for child in children.get(row["path"], ()))
        built[row["path"]] = r.TreeNode(
            row["node_id"], row["path"], row["title"], row["summary"] or "", row["page_start"], row["page_end"], row["depth"], below, False
        )
    roots = [built[row["path"]] for row in children.get(None, [])]
    if truncated_root and roots:
        first = roots[0]
        roots[0] = r.TreeNode(
            first.node_id, first.path, first.title, first.summary, first.page_start, first.page_end, first.depth, first.children, True
        )
    return tuple(roots)
