"""The output schemas of the MCP tools, generated from the result records of `normcli.results`.

Each tool's structured content is the core result's `to_json()`, exactly what `normcli … --json`
prints. Its shape is declared once, on the record (its annotated fields in camelCase, and the
`_json_*` attributes that say what is left out, optional, merged in, added or wrapped); this module
turns that declaration into TypedDicts, from which the SDK publishes `outputSchema`.
"""

from __future__ import annotations

import sys
import types
import typing
from typing import Any, ForwardRef, NotRequired, Union, get_args, get_origin

from typing_extensions import TypedDict

_BUILT: dict[Any, Any] = {}
_BUILDING: set[type] = set()


def camel(name: str) -> str:
    """`page_start` → `pageStart`, as every JSON key of SPEC §3."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _is_record(hint: Any) -> bool:
    return isinstance(hint, type) and hasattr(hint, "__record_fields__")


def json_type(hint: Any) -> Any:
    """The type of a value once `to_json()` has written it: tuples as lists, bytes as base64 text, records as objects."""
    origin = get_origin(hint)
    if hint in (str, int, bool, float, type(None)):
        return hint
    if hint is bytes:
        return str
    if hint is dict or origin is dict:
        return dict[str, Any]
    if origin is tuple:
        return list[json_type(get_args(hint)[0])]  # type: ignore[misc]
    if origin in (Union, types.UnionType):
        return Union[tuple(json_type(arg) for arg in get_args(hint))]  # noqa: UP007 - a runtime tuple of types
    if _is_record(hint):
        return output_type(hint)
    raise TypeError(f"no JSON type for {hint!r}")


def _fields(record: type) -> dict[str, Any]:
    """The JSON keys of a record with their types, in the order of its fields."""
    hints = typing.get_type_hints(record, vars(sys.modules[record.__module__]))  # the spec records live in normcli.specs.results
    omitted = set(getattr(record, "_json_omit", ()))
    optional = set(getattr(record, "_json_optional", ()))
    flattened = set(getattr(record, "_json_flatten", ()))
    keys: dict[str, Any] = {}
    for name in record.__record_fields__:  # type: ignore[attr-defined]
        if name in omitted:
            continue
        if name in flattened:
            keys.update(_fields(hints[name]))
            continue
        if name in optional:  # left out when None or false, so never null when present
            present = [arg for arg in get_args(hints[name]) if arg is not type(None)] or [hints[name]]
            keys[camel(name)] = NotRequired[json_type(Union[tuple(present)])]  # noqa: UP007
        else:
            keys[camel(name)] = json_type(hints[name])
    for name in getattr(record, "_json_extra", ()):
        keys[camel(name)] = json_type(typing.get_type_hints(getattr(record, name).fget, vars(sys.modules[record.__module__]))["return"])
    return keys


def output_type(record: type, omit: tuple[str, ...] = ()) -> Any:
    """The TypedDict of a record's `to_json()`, less the keys in `omit` (a record met again inside itself is a forward reference)."""
    key = record if not omit else (record, omit)
    if key in _BUILT:
        return _BUILT[key]
    name = record.__name__.removesuffix("Result") + "Json"
    if record in _BUILDING:
        return ForwardRef(name)
    _BUILDING.add(record)
    try:
        keys = {field: kind for field, kind in _fields(record).items() if field not in omit}
    finally:
        _BUILDING.discard(record)
    wrap = getattr(record, "_json_wrap", None)
    shape = _typed_dict(name if wrap is None else name.removesuffix("Json") + "BodyJson", keys, record.__doc__)
    if wrap is not None:  # `{"section": {...}}`
        shape = _typed_dict(name, {wrap: shape}, record.__doc__)
    _BUILT[key] = shape
    return shape


def _typed_dict(name: str, keys: dict[str, Any], doc: str | None) -> Any:
    """A TypedDict made at run time, kept in this module so that forward references to it resolve."""
    made: Any = TypedDict(name, keys)  # type: ignore[misc]  # a name known only at run time
    made.__doc__ = doc
    made.__module__ = __name__
    globals()[name] = made
    return made
