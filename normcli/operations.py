"""The read operations by name, with SPEC §3's camelCase parameters: one table for `batch` and agents."""

from __future__ import annotations

from collections.abc import Callable

from normcli.errors import InvalidArgument
from normcli.service import Service

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from typing import Any

# operation name → (Service method, {camelCase parameter: keyword argument}, required parameters)
_SPECS: dict[str, tuple[str, dict[str, str], tuple[str, ...]]] = {
    "info": ("info", {}, ()),
    "methodology": ("methodology", {}, ()),
    "norms": ("norms", {}, ()),
    "toc": ("toc", {"code": "code", "maxDepth": "max_depth", "edition": "edition", "language": "language"}, ("code",)),
    "subtree": (
        "subtree",
        {"code": "code", "path": "path", "maxDepth": "max_depth", "maxNodes": "max_nodes", "edition": "edition", "language": "language"},
        ("code", "path"),
    ),
    "section": (
        "section",
        {"code": "code", "path": "path", "maxChars": "max_chars", "offset": "offset", "edition": "edition", "language": "language"},
        ("code", "path"),
    ),
    "search": (
        "search",
        {"code": "code", "keyword": "keyword", "limit": "limit", "edition": "edition", "language": "language"},
        ("code", "keyword"),
    ),
    "corpus": ("corpus", {"keyword": "keyword", "limit": "limit"}, ("keyword",)),
    "xrefs": ("xrefs", {"code": "code", "path": "path", "edition": "edition", "language": "language"}, ("code", "path")),
    "figure": ("figure", {"code": "code", "figureId": "figure_id", "edition": "edition", "language": "language"}, ("code", "figureId")),
}
ALIASES = {
    "get_methodology": "methodology",
    "whoami": "info",
    "list_norms": "norms",
    "get_toc": "toc",
    "get_subtree": "subtree",
    "get_section": "section",
    "search_in_norm": "search",
    "search_corpus": "corpus",
    "get_cross_refs": "xrefs",
    "get_figure": "figure",
}
NAMES = tuple(_SPECS)


def run(service: Service, op: str, params: dict[str, Any]) -> Any:
    """Run one operation named as in the CLI or the MCP server; `norm` is accepted for `code`."""
    name = ALIASES.get(op, op)
    if name not in _SPECS:
        raise InvalidArgument(f"unknown operation '{op}'", f"use one of {', '.join(NAMES)}")
    method, mapping, required = _SPECS[name]
    params = dict(params)
    if "norm" in params and "code" not in params:
        params["code"] = params.pop("norm")
    unknown = sorted(set(params) - set(mapping) - {"op", "id"})
    if unknown:
        raise InvalidArgument(f"{name} takes no parameter {', '.join(unknown)}", f"it takes {', '.join(mapping) or 'none'}")
    missing = [param for param in required if params.get(param) in (None, "")]
    if missing:
        raise InvalidArgument(f"{name} needs {', '.join(missing)}")
    kwargs = {mapping[key]: value for key, value in params.items() if key in mapping and value is not None}
    call: Callable[..., Any] = getattr(service, method)
    return call(**kwargs)
