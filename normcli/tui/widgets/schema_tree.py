"""A request or response schema as a foldable tree: one node per property, item or combined part; a
`$ref` cycle is a leaf marked ↻ (its schema is shown once, above it)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from normcli.specs.render import schema_type

MAX_CHILDREN = 500  # children shown under one node; the rest are counted


def schema_label(name: str | None, schema: Any, required: bool = False) -> str:
    """One node's label: `name  type  (required)  — description`, or the cycle mark."""
    if not isinstance(schema, dict):
        return f"{name or 'schema'}"
    prefix = f"{name}  " if name else ""
    if schema.get("circular"):
        return f"{prefix}↻ {schema_type(schema)} (circular: shown above)"
    if schema.get("truncated"):
        return f"{prefix}… {schema_type(schema)} (too deep to show here)"
    if schema.get("unresolved"):
        return f"{prefix}⚠ {schema.get('$ref')} ({schema['unresolved']})"
    text = f"{prefix}{schema_type(schema) or 'any'}"
    if required:
        text += "  (required)"
    if schema.get("deprecated"):
        text += "  (deprecated)"
    description = " ".join(str(schema.get("description") or "").split())
    if description:
        text += f"  — {description[:100]}{'…' if len(description) > 100 else ''}"
    return text


def _parts(schema: dict) -> list[tuple[str, Any, bool]]:
    """The children of a schema node: its properties, items, combined parts and extra properties."""
    needed = set(schema.get("required") or []) if isinstance(schema.get("required"), list) else set()
    parts: list[tuple[str, Any, bool]] = []
    if isinstance(schema.get("properties"), dict):
        parts += [(str(name), sub, name in needed) for name, sub in schema["properties"].items()]
    if isinstance(schema.get("items"), dict):
        parts.append(("items", schema["items"], False))
    for combiner in ("allOf", "oneOf", "anyOf"):
        if isinstance(schema.get(combiner), list):
            parts += [(f"{combiner}[{number}]", part, False) for number, part in enumerate(schema[combiner], 1)]
    if isinstance(schema.get("additionalProperties"), dict):
        parts.append(("additionalProperties", schema["additionalProperties"], False))
    return parts


class SchemaTree(Tree[Any]):
    """A schema, open at its first level; a node's children are added when it is opened (enter, → or a click),
    so a schema of thousands of properties costs nothing until it is unfolded."""

    DEFAULT_CSS = """
    SchemaTree { height: auto; max-height: 24; border: round $primary-darken-2; }
    """

    def __init__(self, title: str, schema: Any, **options: Any) -> None:
        super().__init__(title, data=schema, **options)
        self.show_root = True
        self._add(self.root, schema)
        self.root.expand()

    def _add(self, node: TreeNode[Any], schema: Any) -> None:
        """The children of `node`, each openable when it has parts of its own (a cycle never does)."""
        if not isinstance(schema, dict):
            return
        parts = _parts(schema)
        for name, sub, required in parts[:MAX_CHILDREN]:
            label = schema_label(name, sub, required)
            if isinstance(sub, dict) and not sub.get("circular") and _parts(sub):
                node.add(label, data=sub)
            else:
                node.add_leaf(label, data=sub)
        if len(parts) > MAX_CHILDREN:
            node.add_leaf(f"… {len(parts) - MAX_CHILDREN} more (normcli api endpoint --json shows them all)")

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[Any]) -> None:
        """Fill a node the first time it opens."""
        if event.control is self and not event.node.children:
            self._add(event.node, event.node.data)
