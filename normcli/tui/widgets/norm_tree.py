"""The tree on the left: norms → editions → chapters → clauses, children loaded as a node opens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import work
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from normcli import results as r
from normcli.errors import NormcliError
from normcli.render import formulas_to_unicode
from normcli.tui.errors import ReportsWorkerErrors
from normcli.tui.library import Children, Location, SpecNode


@dataclass
class Entry:
    """What a tree node stands for; `loaded` once its children are in the tree."""

    kind: str  # "norm", "edition", "clause"; "apis" (the specs' group), "spec", "collection", "tag", "endpoint"
    code: str
    edition: str | None = None
    language: str | None = None
    path: str | None = None
    loaded: bool = False
    spec: SpecNode | None = None  # what a spec, collection, tag or endpoint node stands for

    def location(self) -> Location | None:
        """The clause this node opens, if it is one."""
        if self.kind != "clause" or self.path is None:
            return None
        return Location(self.code, self.path, self.edition, self.language)


VERB_STYLES = {"GET": "bold green", "POST": "bold yellow", "PUT": "bold blue", "PATCH": "bold cyan", "DELETE": "bold red"}
APIS_LABEL = "API specs"


def spec_label(node: SpecNode) -> Text:
    """`meteo — Alpenmeteo … (8)`, `Loads (4)`, or `GET /snow-load/{siteId} Snow load at a site` for an endpoint."""
    if node.kind != "endpoint":
        label = Text(node.title, style="bold" if node.kind == "spec" else "")
        label.append(f" ({node.count})" if node.opens or node.kind != "spec" else " (cannot be read: normcli check)", style="dim")
        return label
    verb, _, path = node.title.partition(" ")
    label = Text(verb, style=VERB_STYLES.get(verb, "bold magenta"))
    label.append(" " + path, style="strike" if node.deprecated else "")
    if node.summary:
        label.append(" " + " ".join(node.summary.split()), style="dim")
    return label


def clause_label(node: r.TreeNode) -> Text:
    """`4.2.1 Charge de neige sur le sol`, the number dimmed a little."""
    label = Text(node.path, style="bold")
    if node.title and node.title != node.path:
        label.append(" " + formulas_to_unicode(node.title))
    return label


class NormTree(ReportsWorkerErrors, Tree[Entry]):
    """The workspace's norms as a tree; a clause's children are read from the index when it opens."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "enter",
            "select_cursor",
            "Read",
            tooltip="read the clause (the keyboard goes to the text); on a norm: its contents; on an endpoint: its page",
        ),
        Binding("right", "open_node", "Open", tooltip="open the node"),
        Binding("left", "close_node", "Close", tooltip="close the node, or go to its parent"),
    ]
    """Enter reads a clause (a norm's contents page on a norm); right opens a node, left closes it, as in a file browser."""

    class ClauseChosen(Message):
        """The user picked a clause in the tree."""

        def __init__(self, location: Location) -> None:
            super().__init__()
            self.location = location

    class EndpointChosen(Message):
        """The user picked an endpoint of an API spec."""

        def __init__(self, endpoint: SpecNode) -> None:
            super().__init__()
            self.endpoint = endpoint

    class NormChosen(Message):
        """Enter on a norm (`edition` None: its newest) or on an edition: show its contents page."""

        def __init__(self, code: str, edition: str | None) -> None:
            super().__init__()
            self.code = code
            self.edition = edition

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("norms", id=id)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = False
        self._clauses: dict[tuple[str, str, str, str], TreeNode[Entry]] = {}
        self._editions: dict[tuple[str, str], TreeNode[Entry]] = {}
        self._specs: tuple[SpecNode, ...] = ()
        self.apis: TreeNode[Entry] | None = None  # the group of API specs, after the norms (None: no specs)

    # -- filling ---------------------------------------------------------------------------

    def show_norms(self, norms: r.NormsResult) -> None:
        """One node per norm, one child per edition (newest first; drafts marked)."""
        self.clear()
        self._clauses.clear()
        self._editions.clear()
        for norm in norms.norms:
            label = Text(norm.code, style="bold")
            if norm.demo:
                label.append(" (sample)", style="dim")
            node = self.root.add(label, Entry("norm", norm.code, loaded=True), expand=False)
            for info in norm.editions:
                text = Text(info.edition)
                if not info.published:
                    text.append(" draft", style="italic")
                if len(info.languages) > 1:
                    text.append(" " + "/".join(info.languages), style="dim")
                text.append(f" {info.title}", style="dim")
                child = node.add(text, Entry("edition", norm.code, info.edition))
                self._editions[(norm.code, info.edition)] = child
        self.apis = None
        if self._specs:
            self.show_specs(self._specs)
        self.cursor_line = 0

    def show_specs(self, specs: tuple[SpecNode, ...]) -> None:
        """The API specs as one group after the norms; each spec's collections, tags and endpoints are read
        when it opens, so a spec of thousands of files costs nothing until then."""
        self._specs = specs
        if self.apis is not None:
            self.apis.remove()
            self.apis = None
        if not specs:
            return
        label = Text(APIS_LABEL, style="bold")
        label.append(f" ({len(specs)})", style="dim")
        self.apis = self.root.add(label, Entry("apis", "", loaded=True), expand=False)
        for spec in specs:
            self._add_spec_node(self.apis, spec)

    def _add_spec_node(self, parent: TreeNode[Entry], spec: SpecNode) -> None:
        entry = Entry(spec.kind, "", spec=spec, loaded=not spec.opens)
        if spec.opens:
            parent.add(spec_label(spec), entry)
        else:
            parent.add_leaf(spec_label(spec), entry)

    def _fill(self, node: TreeNode[Entry], children: Children, language: str | None) -> None:
        entry = node.data
        assert entry is not None
        node.remove_children()
        entry.loaded = True
        entry.language = language or entry.language
        for child, has_children in children.nodes:
            data = Entry("clause", entry.code, entry.edition, entry.language, child.path)
            added = node.add(clause_label(child), data, allow_expand=has_children is not False)
            if has_children is False:
                data.loaded = True
            self._clauses[(entry.code, entry.edition or "", entry.language or "", child.path)] = added
        if not children.nodes:
            node.allow_expand = False

    # -- lazy loading ----------------------------------------------------------------------

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Entry]) -> None:
        """Read a node's children the first time it opens."""
        entry = event.node.data
        if entry is not None and not entry.loaded:
            event.node.set_label(Text.assemble(event.node.label, (" …", "dim")))
            self._load(event.node, entry)

    @work(thread=True, group="tree", exit_on_error=False)
    def _load(self, node: TreeNode[Entry], entry: Entry) -> None:
        library = self.app.library  # type: ignore[attr-defined]
        if entry.spec is not None:
            try:
                found = library.spec_children(entry.spec)
            except NormcliError as error:
                self.app.call_from_thread(self.notify, error.one_line(), severity="error")
                return
            self.app.call_from_thread(self._loaded_specs, node, found)
            return
        try:
            if entry.kind == "edition":
                edition, children = library.chapters(entry.code, entry.edition, entry.language)
                language = edition.language
            else:
                children = library.children(entry.code, entry.path or "", entry.edition, entry.language)
                language = entry.language
        except NormcliError as error:
            self.app.call_from_thread(self.notify, error.one_line(), severity="error")
            return
        self.app.call_from_thread(self._loaded, node, children, language)

    def _loaded(self, node: TreeNode[Entry], children: Children, language: str | None) -> None:
        label = node.label
        if isinstance(label, Text) and label.plain.endswith(" …"):
            node.set_label(label[:-2])
        if node.data is not None and not node.data.loaded:  # the reader may have filled it meanwhile
            self._fill(node, children, language)

    def _loaded_specs(self, node: TreeNode[Entry], children: tuple[SpecNode, ...]) -> None:
        label = node.label
        if isinstance(label, Text) and label.plain.endswith(" …"):
            node.set_label(label[:-2])
        if node.data is None or node.data.loaded:
            return
        node.data.loaded = True
        node.remove_children()
        for child in children:
            self._add_spec_node(node, child)
        if not children:
            node.allow_expand = False

    def on_tree_node_selected(self, event: Tree.NodeSelected[Entry]) -> None:
        """Enter on a clause or an endpoint opens it; on a norm or edition it opens its contents page and the
        node; on the API specs, a spec, a collection or a tag it opens or closes the node."""
        event.stop()
        entry = event.node.data
        location = entry.location() if entry else None
        if entry is not None and entry.spec is not None and entry.kind == "endpoint":
            self.post_message(self.EndpointChosen(entry.spec))
        elif entry is not None and (entry.kind == "apis" or entry.spec is not None):
            event.node.toggle()
        elif location is not None:
            self.post_message(self.ClauseChosen(location))
        elif entry is not None:
            self.post_message(self.NormChosen(entry.code, entry.edition))
            event.node.expand()

    def watch_hover_line(self, previous: int, line: int) -> None:
        """The hovered node's full label as a tooltip (the tree cuts long titles)."""
        super().watch_hover_line(previous, line)
        node = self.get_node_at_line(line) if line >= 0 else None
        self.tooltip = node.label.plain if node is not None and isinstance(node.label, Text) else None

    def action_open_node(self) -> None:
        """Open the node under the cursor."""
        node = self.cursor_node
        if node is not None and node.allow_expand:
            node.expand()

    def action_close_node(self) -> None:
        """Close the node under the cursor, or go to its parent when it is closed."""
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    # -- following the reader --------------------------------------------------------------

    def reveal(self, location: Location, ancestors: tuple[str, ...], outline: tuple[Children, ...]) -> None:
        """Open the nodes down to `location` (filling what was never loaded) and put the cursor on it."""
        code, edition, language = location.code, location.edition or "", location.language or ""
        edition_node = self._editions.get((code, edition))
        if edition_node is None or edition_node.data is None:
            return
        if edition_node.parent is not None:
            edition_node.parent.expand()
            for sibling in edition_node.parent.children:  # one edition of a norm open at a time
                if sibling is not edition_node:
                    sibling.collapse()
        data = edition_node.data
        if (not data.loaded or (data.language or "") != language) and outline:
            self._fill(edition_node, outline[0], language)
        edition_node.expand()
        for depth, path in enumerate(ancestors, start=1):
            node = self._clauses.get((code, edition, language, path))
            if node is None or node.data is None:
                break
            if not node.data.loaded and depth < len(outline):
                self._fill(node, outline[depth], language)
            node.expand()
        target = self._clauses.get((code, edition, language, location.path))
        if target is not None:
            self.call_after_refresh(self._point_at, target)

    def _point_at(self, node: TreeNode[Entry]) -> None:
        self.move_cursor(node, animate=False)
        self.scroll_to_node(node, animate=False)
