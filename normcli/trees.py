"""Clause trees for `toc` and `subtree`: index rows in reading order nested by parent, and cut to a size."""

from __future__ import annotations

import sqlite3

from normcli import results as r

MAX_TREE_LEVELS = 100  # a subtree nests at most this many levels below its root (JSON encoders recurse)


def tree(rows: list[sqlite3.Row], truncated_root: bool = False) -> tuple[r.TreeNode, ...]:
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


def cut_to_size(root: sqlite3.Row, rows: list[sqlite3.Row], max_nodes: int) -> tuple[list[sqlite3.Row], bool]:
    """The rows of whole levels below `root` that fit in `max_nodes` (the deepest levels go first),
    and whether any were left out."""
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
    return [row for row in rows if row["depth"] <= kept_depth] or rows[:1], truncated
