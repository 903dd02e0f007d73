"""The service as the TUI uses it: one call at a time, and the places a reader can be."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from normcli import results as r
from normcli.errors import NotFound
from normcli.windows import join_windows

if TYPE_CHECKING:
    from normcli.service import Service
    from normcli.specs import results as sr


@dataclass(frozen=True)
class Location:
    """A place in the workspace: a clause of one language version of one edition, at a window offset."""

    code: str
    path: str
    edition: str | None = None
    language: str | None = None
    offset: int = 0
    find: str | None = field(default=None, compare=False)  # a search hit's word: open at its first match, highlighted
    scroll: float = field(default=0.0, compare=False)  # how far down the window the reader was (history)

    def at(self, offset: int, scroll: float = 0.0) -> Location:
        """The same clause at another window offset (and scroll position in it)."""
        return replace(self, offset=offset, scroll=scroll, find=None)

    def same_clause(self, other: Location | None) -> bool:
        """Whether `other` names this clause (whatever the window)."""
        return other is not None and (self.code, self.path, self.edition, self.language) == (
            other.code,
            other.path,
            other.edition,
            other.language,
        )


@dataclass(frozen=True)
class Children:
    """The clauses under one node, each with whether it has clauses of its own (None: unknown)."""

    parent: str | None
    nodes: tuple[tuple[r.TreeNode, bool | None], ...]


@dataclass(frozen=True)
class Reading:
    """Everything the reader shows for one location, fetched in one go by a worker."""

    location: Location
    section: r.SectionResult
    editions: tuple[r.EditionInfo, ...]
    ancestors: tuple[str, ...]
    outline: tuple[Children, ...] = field(default=())
    markdown: str | None = None  # the window made ready for the Markdown widget, in the worker (not on the event loop)

    @property
    def edition(self) -> r.EditionInfo | None:
        """The edition being read."""
        return next((info for info in self.editions if info.edition == self.section.edition.edition), None)


@dataclass(frozen=True)
class SpecNode:
    """A spec, collection, tag or endpoint as the tree shows it: `count` methods under it, `opens` if it has children."""

    kind: str  # "spec", "collection", "tag", "endpoint"
    id: str
    title: str
    count: int = 0
    opens: bool = True
    summary: str = ""
    deprecated: bool = False
    verb: str = ""  # an endpoint's HTTP method (GET …)


class Library:
    """The `Service` behind a lock: it is not thread-safe, and every TUI worker runs in a thread."""

    def __init__(self, service: Service) -> None:
        self.service = service
        self._lock = threading.Lock()
        self._norms: r.NormsResult | None = None
        self._texts: OrderedDict[tuple[str, str, str | None, str | None], str] = OrderedDict()

    @classmethod
    def open(cls, workspace: str | Path | None) -> Library:
        """The library of `--workspace`, $NORMCLI_WORKSPACE, the folder we are in, or the sample."""
        from normcli.service import Service  # in the worker that opens the workspace, after the first frame

        return cls(Service.open(workspace))

    @property
    def root(self) -> Path:
        """The workspace folder."""
        return self.service.root

    @property
    def name(self) -> str:
        """The workspace's name from normcli.toml, else its folder name."""
        return self.service.settings.name or self.service.root.name

    def norms(self, fresh: bool = False) -> r.NormsResult:
        """Every norm with its editions (cached: the tree and the edition key both need it)."""
        with self._lock:
            if self._norms is None or fresh:
                self._norms = self.service.norms()
            return self._norms

    def editions(self, code: str) -> tuple[r.EditionInfo, ...]:
        """The editions of `code`, newest first."""
        norm = self.norm(code)
        return norm.editions if norm else ()

    def norm(self, code: str) -> r.NormInfo | None:
        """The norm named `code` (forgivingly: case and spaces do not matter), or None."""
        from normcli.catalogue import split_code
        from normcli.fold import code_key

        key = code_key(split_code(code, None)[0])
        return next((norm for norm in self.norms().norms if code_key(norm.code) == key), None)

    def chapters(self, code: str, edition: str | None, language: str | None) -> tuple[r.Edition, Children]:
        """The chapters of one language version, each knowing whether it has clauses."""
        with self._lock:
            toc = self.service.toc(code, 2, edition, language)
        return toc.edition, Children(None, tuple((node, bool(node.children)) for node in toc.tree))

    def children(self, code: str, path: str, edition: str | None, language: str | None) -> Children:
        """The clauses right under `path`, each knowing whether it has clauses (unless too many to tell)."""
        with self._lock:
            tree = self.service.subtree(code, path, 2, 2000, edition, language).tree
        if not tree:
            return Children(path, ())
        root = tree[0]
        known = not root.truncated
        return Children(root.path, tuple((node, bool(node.children) if known else None) for node in root.children))

    def read(self, location: Location, window: int, with_outline: bool = True) -> Reading:
        """The section at `location` with the chain of its ancestors, and their children for the tree.

        An empty path stands for the first chapter of the edition (following a reference to a whole norm).
        """
        if not location.path:
            first = self.chapters(location.code, location.edition, location.language)[1].nodes
            if not first:
                raise NotFound("path", "", norm=location.code, message=f"{location.code} has no clauses")
            location = replace(location, path=first[0][0].path)
        with self._lock:
            section = self.service.section(location.code, location.path, window, location.offset, location.edition, location.language)
            edition, language = section.edition.edition, section.edition.language
            ancestors = self.service.ancestors(location.code, section.path, edition, language) if with_outline else ()
        outline: list[Children] = []
        if with_outline:
            outline.append(self.chapters(location.code, edition, language)[1])
            for path in ancestors:
                outline.append(self.children(location.code, path, edition, language))
        where = Location(section.edition.code, section.path, edition, language, section.offset)
        return Reading(where, section, self.editions(section.edition.code), ancestors, tuple(outline))

    def whole_text(self, location: Location) -> str:
        """Every window of a section's text joined: what find searches and the copy key puts on the clipboard.

        The last few clauses are kept; the lock is taken per window so that a read is never kept waiting long.
        """
        key = (location.code, location.path, location.edition, location.language)
        if key in self._texts:
            self._texts.move_to_end(key)
            return self._texts[key]
        parts: list[str] = []
        offset: int | None = 0
        while offset is not None:
            with self._lock:
                section = self.service.section(location.code, location.path, 40000, offset, location.edition, location.language)
            parts.append(section.content)
            offset = section.next_offset
        text = join_windows(parts)  # without the table header a window repeats
        self._texts[key] = text
        while len(self._texts) > 4:
            self._texts.popitem(last=False)
        return text

    def window_starts(self, location: Location, window: int) -> tuple[int, ...]:
        """Where each window of a clause starts when read `window` characters at a time, from 0.

        Windows are cut from the start of the clause (as `section` cuts them, at paragraph ends), so the
        same boundaries come back whichever way the reader pages and wherever it jumped in.
        """
        from normcli.windows import window as cut

        text = self.whole_text(location)
        starts = [0]
        following = cut(text, 0, window)[1]
        while following is not None:
            starts.append(following)
            following = cut(text, following, window)[1]
        return tuple(starts)

    def outline(self, code: str, edition: str | None, language: str | None) -> tuple[tuple[str, str], ...]:
        """Every clause of one language version as (path, title), in reading order: the palette's list."""
        with self._lock:
            tree = self.service.toc(code, 6, edition, language).tree
        found: list[tuple[str, str]] = []
        stack = list(reversed(tree))
        while stack:
            node = stack.pop()
            found.append((node.path, node.title))
            stack.extend(reversed(node.children))
        return tuple(found)

    def neighbour(self, location: Location, step: int) -> r.ChildRef | None:
        """The clause after (+1) or before (-1) `location` in reading order."""
        with self._lock:
            return self.service.neighbour(location.code, location.path, step, location.edition, location.language)

    def search(self, location: Location, keyword: str, limit: int = 30) -> r.SearchResult:
        """Hits in the norm being read."""
        with self._lock:
            return self.service.search(location.code, keyword, limit, location.edition, location.language)

    def corpus(self, keyword: str, limit: int = 40) -> r.CorpusResult:
        """Hits in every norm, grouped by norm."""
        with self._lock:
            return self.service.corpus(keyword, limit)

    def figure(self, location: Location, figure_id: str) -> r.FigureResult:
        """A figure's bytes and caption."""
        with self._lock:
            return self.service.figure(location.code, figure_id, location.edition, location.language)

    def table(self, location: Location, table_id: str) -> r.TableResult:
        """One table of the norm at `location`: caption, the clause holding it, Markdown and rows."""
        with self._lock:
            return self.service.table(location.code, table_id, location.edition, location.language)

    def table_clause(self, location: Location, table_id: str) -> str | None:
        """The clause that holds table `table_id` of the norm at `location` (None when there is no such table)."""
        try:
            return self.table(location, table_id).path
        except NotFound:
            return None

    def specs(self) -> tuple[SpecNode, ...]:
        """The API specs of the workspace, as tree nodes (a spec that cannot be read has no children)."""
        with self._lock:
            found = self.service.spec_list().specs
        return tuple(
            SpecNode(
                "spec",
                spec.id,
                spec.domain if spec.title in ("", spec.domain) else f"{spec.domain} — {spec.title}",
                spec.count_methods,
                spec.readable,
            )
            for spec in found
        )

    def spec_children(self, node: SpecNode) -> tuple[SpecNode, ...]:
        """The nodes under a spec (its collections), a collection (its tags) or a tag (its endpoints), read when it opens."""
        with self._lock:
            if node.kind == "spec":
                collections = self.service.spec_by_id(node.id).collections
                return tuple(SpecNode("collection", c.id, c.title, c.count_methods, c.count_methods > 0) for c in collections)
            if node.kind == "collection":
                tags = self.service.collection_by_id(node.id).tags
                return tuple(SpecNode("tag", t.id, t.title, t.count_methods, t.count_methods > 0) for t in tags)
            if node.kind == "tag":
                methods = self.service.endpoint_by_tag(node.id).methods
                return tuple(
                    SpecNode("endpoint", m.id, f"{m.method} {m.path}", 0, False, m.summary, m.deprecated, m.method) for m in methods
                )
        return ()

    def endpoint(self, method_id: str) -> sr.EndpointResult:
        """One endpoint whole (an `EndpointResult`): what its page shows."""
        with self._lock:
            return self.service.endpoint_by_id(method_id)

    def why_unresolvable(self, ref: r.ResolvedRef) -> str:
        """One line saying why a reference leads nowhere in this workspace."""
        target = ref.target_code or "?"
        if ref.target_kind == "norm" or not ref.target_path:
            return f"{target} is not in this workspace (add its bundle under norms/ to follow it)"
        if self.norm(target) is None:
            return f"{target} is not in this workspace, so {ref.target_path} cannot be opened"
        return f"{target} has no {ref.target_kind} '{ref.target_path}' in this workspace"


__all__ = ["Children", "Library", "Location", "NotFound", "Reading", "SpecNode"]
