"""The API browser: the workspace's specs as a tree (spec → collection → tag → endpoint, each level
read when it is opened), and the endpoint page beside it."""

from __future__ import annotations

from typing import Any, ClassVar

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Static, Tree
from textual.widgets.tree import TreeNode

from normcli.errors import NormcliError
from normcli.tui.widgets.endpoint_view import EndpointView
from normcli.tui.widgets.key_bar import KeyBar


class SpecTree(Tree[tuple[str, str]]):
    """Specs, collections, tags and endpoints; a node's data is (level, id)."""

    DEFAULT_CSS = """
    SpecTree { width: 46; border-right: solid $primary-darken-2; }
    """


class SpecsScreen(Screen[None]):
    """Browse the API specifications of the workspace."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,a", "app.pop_screen", "Norms", tooltip="back to the norms"),
        Binding("tab", "focus_next", "Next pane", show=False, tooltip="between the tree and the endpoint page"),
    ]
    """escape or a: back to the norms; tab: between the tree and the endpoint page."""

    def compose(self) -> ComposeResult:
        """The tree and the endpoint page."""
        with Horizontal():
            yield SpecTree("API specs", id="spec-tree")
            yield EndpointView(id="endpoint-view")
        yield Static("", id="spec-status")
        yield KeyBar()

    def on_mount(self) -> None:
        """List the specs."""
        tree = self.query_one(SpecTree)
        tree.root.data = ("root", "")
        tree.root.expand()
        tree.focus()
        self.load(tree.root)

    def _call(self, read: Any) -> Any:
        library = self.app.library_or_open()  # type: ignore[attr-defined]
        with library._lock:  # the service is not thread-safe; the library's lock serialises its callers
            return read(library.service)

    @work(thread=True, exclusive=False, group="spec-tree")
    def load(self, node: TreeNode[tuple[str, str]]) -> None:
        """Read the children of `node` and add them (in a worker: the first call may index the specs)."""
        level, ident = node.data or ("root", "")
        try:
            children = self._children(level, ident)
        except NormcliError as error:
            self.app.call_from_thread(self.say, error.one_line())
            return
        self.app.call_from_thread(self._fill, node, children)

    def _children(self, level: str, ident: str) -> list[tuple[str, str, str, bool]]:
        """(label, level, id, expandable) of the nodes under one node."""
        if level == "root":
            specs = self._call(lambda s: s.spec_list()).specs
            return [(f"{spec.domain} — {spec.title} ({spec.count_methods})", "spec", spec.id, spec.readable) for spec in specs]
        if level == "spec":
            answer = self._call(lambda s: s.spec_by_id(ident))
            return [(f"{c.title} ({c.count_methods})", "collection", c.id, True) for c in answer.collections]
        if level == "collection":
            answer = self._call(lambda s: s.collection_by_id(ident))
            return [(f"{t.title} ({t.count_methods})", "tag", t.id, t.count_methods > 0) for t in answer.tags]
        if level == "tag":
            answer = self._call(lambda s: s.endpoint_by_tag(ident))
            return [(f"{m.method} {m.path}" + (" (deprecated)" if m.deprecated else ""), "method", m.id, False) for m in answer.methods]
        return []

    def _fill(self, node: TreeNode[tuple[str, str]], children: list[tuple[str, str, str, bool]]) -> None:
        node.remove_children()
        for label, level, ident, expandable in children:
            if expandable:
                node.add(label, data=(level, ident))
            else:
                node.add_leaf(label, data=(level, ident))
        if node.is_root and not children:
            self.say("this workspace holds no API specs: put them under specs/<domain>/ or run `normcli ingest FILE --domain NAME`")

    def say(self, message: str) -> None:
        """One line at the bottom of the screen."""
        self.query_one("#spec-status", Static).update(message)

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[tuple[str, str]]) -> None:
        """Read a level when it is opened for the first time (a schema tree's nodes are not ours)."""
        if not isinstance(event.control, SpecTree):
            return
        node = event.node
        if node.data and node.data[0] != "root" and not node.children:
            self.load(node)

    def on_tree_node_selected(self, event: Tree.NodeSelected[tuple[str, str]]) -> None:
        """An endpoint opens its page."""
        if isinstance(event.control, SpecTree) and event.node.data and event.node.data[0] == "method":
            self.open_endpoint(event.node.data[1])

    @work(thread=True, exclusive=True, group="endpoint")
    def open_endpoint(self, method_id: str) -> None:
        """Read one endpoint whole and show it."""
        try:
            result = self._call(lambda s: s.endpoint_by_id(method_id))
        except NormcliError as error:
            self.app.call_from_thread(self.say, error.one_line())
            return
        show: Any = self.query_one(EndpointView).show  # a coroutine function: the app awaits it
        self.app.call_from_thread(show, result)
