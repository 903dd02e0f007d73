"""Clause trees for `toc` and `subtree`: index rows in reading order nested by parent, and cut to a size."""

from __future__ import annotations

from normcli import results as r

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    import sqlite3

MAX_TREE_LEVELS = 100  # a subtree nests at most this many levels below its root (JSON encoders recurse)


def tree(rows: list[sqlite3.Row], cut: dict[str, int] | None = None) -> tuple[r.TreeNode, ...]:
    """Nest rows (in reading order) by parent path; built without recursion so any depth works.
    `cut` maps the paths of nodes whose children were left out to their number of children."""
    cut = cut or {}
    kept = {row["path"] for row in rows}
    children: dict[str | None, list[sqlite3.Row]] = {}
    for row in rows:
        parent = row["parent_path"] if row["parent_path"] in kept else None
        children.setdefault(parent, []).append(row)
    built: dict[str, r.TreeNode] = {}
    for row in reversed(rows):
        below = tuple(built[child["path"]] for child in children.get(row["path"], ()))
        count = cut.get(row["path"])
        built[row["path"]] = r.TreeNode(
            row["node_id"],
            row["path"],
            row["title"],
            row["summary"] or "",
            row["page_start"],
            row["page_end"],
            row["depth"],
            below,
            count is not None,
            count,
        )
    return tuple(built[row["path"]] for row in children.get(None, []))


def cut_to_size(root: sqlite3.Row, rows: list[sqlite3.Row], max_nodes: int) -> tuple[list[sqlite3.Row], dict[str, int]]:
    """The rows below `root` that fit in `max_nodes`, breadth first: whole upper levels, then as much of
    the next level as fits, in reading order (SPEC §6). Also the nodes whose children were cut, each with
    its number of children; the root is among them whenever anything was left out (SPEC §3)."""
    deepest = root["depth"] + MAX_TREE_LEVELS
    order = sorted((row["depth"], position) for position, row in enumerate(rows) if row["depth"] <= deepest)
    keep = sorted(position for _, position in order[:max_nodes]) or [0]
    kept = [rows[position] for position in keep]
    paths = {row["path"] for row in kept}
    present: dict[str, int] = {}  # children below each node among the rows asked for (within maxDepth)
    shown: dict[str, int] = {}
    for row in rows:
        present[row["parent_path"]] = present.get(row["parent_path"], 0) + 1
        if row["path"] in paths:
            shown[row["parent_path"]] = shown.get(row["parent_path"], 0) + 1
    cut = {row["path"]: row["child_count"] for row in kept if shown.get(row["path"], 0) < present.get(row["path"], 0)}
    if len(kept) < len(rows):
        cut.setdefault(root["path"], root["child_count"])
    return kept, cut
