"""`json.dumps(…, ensure_ascii=False)` and `json.loads` as the read path calls them, without the
`json` package's start-up.

`import json` loads its decoder, and the decoder `re` and `enum`: together about a fifth of what a
`--json` read costs above the interpreter's own start-up. The work itself is done in C by `_json`,
the accelerator `json` wraps: these functions call it exactly as `json`'s default encoder and
decoder do (the same encoder, separators, float form, NaN and circularity checks; the same scanner
with `float`, `int` and the same constants), and write an indented document as `json`'s own Python
encoder does, so the text and the values are the same, byte for byte (`tests/core/test_lean_json.py`
compares them on every answer of the sample, on hostile strings and numbers, and on generated
values). Anything else — an object `json` would refuse, text that is not a single valid document,
an interpreter without `_json` — is handed to `json` itself, which then answers or raises exactly
as it always does.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


def _accelerator() -> tuple[Any, Any, Any]:
    """`_json`'s encoder and scanner makers and its string encoder, or Nones without it (json does it all)."""
    try:
        from _json import encode_basestring, make_encoder, make_scanner
    except ImportError:  # pragma: no cover - an interpreter without the accelerator
        return None, None, None
    return make_encoder, make_scanner, encode_basestring


_make_encoder, _make_scanner, _encode_text = _accelerator()

_WHITESPACE = " \t\n\r"  # what json's decoder skips around a document
_INFINITY = float("inf")


def _refuse(value: Any) -> Any:
    """What json's default encoder does with an object it cannot write; the caller then asks json."""
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


class _Decoder:
    """The settings json.loads gives its scanner (`json.decoder.JSONDecoder()`'s defaults)."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_scan = _make_scanner(_Decoder()) if _make_scanner is not None else None


def dumps(value: Any, indent: int | None = None, default: Callable[[Any], Any] | None = None) -> str:
    """`json.dumps(value, ensure_ascii=False, indent=indent, default=default)`, the same text."""
    if _make_encoder is not None and isinstance(value, (dict, list)):
        try:
            if indent is None:
                # json.JSONEncoder(ensure_ascii=False).encode(value): check_circular, allow_nan, no key sorting.
                encode = _make_encoder({}, default or _refuse, _encode_text, None, ": ", ", ", False, False, True)
                return "".join(encode(value, 0))
            parts: list[str] = []
            _indented(value, parts, " " * indent, 0, default or _refuse, {})
            return "".join(parts)
        except (TypeError, ValueError, RecursionError):
            pass  # json raises it again, with its own words
    import json

    return json.dumps(value, ensure_ascii=False, indent=indent, default=default)


def _float(value: float) -> str:
    """A float as json writes it (allow_nan: NaN and the infinities as JavaScript names them)."""
    if value != value:
        return "NaN"
    if value in (_INFINITY, -_INFINITY):
        return "Infinity" if value > 0 else "-Infinity"
    return float.__repr__(value)


def _scalar(value: Any) -> str | None:
    """A str, None, bool, int or float as json writes it (subclasses as their base type), else None."""
    if isinstance(value, str):
        return _encode_text(value)
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    return None


def _key(key: Any) -> str:
    """A dict key as json writes it: a str, or a float, bool, None or int made text; else its TypeError."""
    if isinstance(key, str):
        return key
    if isinstance(key, float):
        return _float(key)
    if key is True or key is False or key is None:
        return {True: "true", False: "false", None: "null"}[key]
    if isinstance(key, int):
        return int.__repr__(key)
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def _indented(value: Any, parts: list[str], indent: str, level: int, default: Callable[[Any], Any], markers: dict[int, Any]) -> None:
    """Append `value` as json's encoder writes it with `indent` (its `_make_iterencode`, in the same
    order of type checks: item separator `,`, key separator `: `, circular references refused)."""
    text = _scalar(value)
    if text is not None:
        parts.append(text)
        return
    is_list = isinstance(value, (list, tuple))
    if is_list or isinstance(value, dict):
        if not value:
            parts.append("[]" if is_list else "{}")
            return
        if id(value) in markers:
            raise ValueError("Circular reference detected")
        markers[id(value)] = value
        inner = "\n" + indent * (level + 1)
        parts.append("[" if is_list else "{")
        for number, item in enumerate(value.items() if not is_list else value):
            parts.append(inner if number == 0 else "," + inner)
            if is_list:
                _indented(item, parts, indent, level + 1, default, markers)
            else:
                parts.append(_encode_text(_key(item[0])) + ": ")
                _indented(item[1], parts, indent, level + 1, default, markers)
        parts.append("\n" + indent * level + ("]" if is_list else "}"))
        del markers[id(value)]
        return
    if id(value) in markers:
        raise ValueError("Circular reference detected")
    markers[id(value)] = value
    _indented(default(value), parts, indent, level, default, markers)
    del markers[id(value)]


def loads(text: str) -> Any:
    """`json.loads(text)` of a str, the same value (or json's own error)."""
    if _scan is not None and isinstance(text, str):
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _scan(text, start)
        except (StopIteration, ValueError, RecursionError):
            pass
        else:
            if not text[end:].strip(_WHITESPACE):
                return value
    import json

    return json.loads(text)
