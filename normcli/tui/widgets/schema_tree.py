"""A request or response schema as a foldable tree: one node per property, item or combined part; a
`$ref` cycle is a leaf marked ↻ (its schema is shown once, above it)."""

from __future__ import annotations

from typing import Any

from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from normcli.specs.render import schema_type

MAX_NODES = 2000


def schema_label(name: str | None, schema: Any, required: bool = False) -> str:
    """One node's label: `name  type  (required)  — description`, or the cycle mark."""
    if not isinstance(schema, dict):
        return f"{name or 'schema'}"
    prefix = f"{name}  " if name else ""
    if schema.get("circular"):
        return f"{prefix}↻ {schema_type(schema)} (circular: shown above)"
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
    """A schema, folded below its first level; enter or click opens a node."""

    DEFAULT_CSS = """
    SchemaTree { height: auto; max-height: 24; border: round $primary-darken-2; }
    """

    def __init__(self, title: str, schema: Any, **options: Any) -> None:
        super().__init__(title, data=schema, **options)
        self.count = 0
        self.show_root = True
        self._add(self.root, schema, depth=0)
        self.root.expand()

    def _add(self, node: TreeNode[Any], schema: Any, depth: int) -> None:
        if not isinstance(schema, dict):
            return
        for name, sub, required in _parts(schema):
            if self.count >= MAX_NODES:
                node.add_leaf("… (more than the tree shows: read the JSON with normcli api endpoint --json)")
                return
            self.count += 1
            label = schema_label(name, sub, required)
            if isinstance(sub, dict) and _parts(sub) and not sub.get("circular"):
                child = node.add(label, data=sub, expand=depth < 1)
                self._add(child, sub, depth + 1)
            else:
                node.add_leaf(label, data=sub)
