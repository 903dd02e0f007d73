"""Read one spec file, JSON or YAML, safely: no object of the file's choosing is ever built.

YAML goes through PyYAML's safe loader (its C parser when libyaml is there, five to ten times faster),
imported here only, so that no command that does not read a spec pays for it. Mappings remember the
line they start on, so that `check` can say where a problem is. Timestamps stay the strings they are
written as (JSON has no dates), and keys such as `200:` become the strings OpenAPI means.

Hostile files are refused with a reason and, where the parser knows it, a line: a file over
`MAX_FILE_BYTES`, text that is not UTF-8, a syntax error, nesting too deep for the parser, and YAML
aliases that expand to far more values than the file holds (an alias bomb) or that contain themselves.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 64 * 1024 * 1024
EXPANSION_BASE = 1_000_000  # values an aliased document may expand to beyond EXPANSION_FACTOR × its own
EXPANSION_FACTOR = 20
# An alias (`*name`) where YAML allows one; Markdown emphasis in descriptions matches too, which only
# costs the expansion count below.
_ALIAS = r"(?:^|[\s\[{,:-])\*[^\s\[\]{},*]"


class UnreadableFile(Exception):
    """A spec file that cannot be read, with the line where the parser stopped (0: the whole file)."""

    def __init__(self, reason: str, line: int = 0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line


class Mapping(dict):
    """A YAML mapping that remembers the line it starts on (1-based)."""

    __slots__ = ("line",)
    line: int


def line_of(value: object) -> int:
    """The line a loaded mapping starts on, 0 when unknown (JSON, a list, a scalar)."""
    return getattr(value, "line", 0)


_LOADER: Any = None


def _loader() -> Any:
    """PyYAML's safe loader class with normcli's constructors, made once."""
    global _LOADER
    if _LOADER is not None:
        return _LOADER
    import yaml

    base = getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader

    class SpecLoader(base):  # type: ignore[misc, valid-type]
        """Safe YAML with line-aware mappings, string keys and dates kept as written."""

    def construct_mapping(loader: Any, node: Any) -> Any:
        data = Mapping()
        data.line = node.start_mark.line + 1
        yield data
        for key, value in loader.construct_mapping(node).items():
            data[key if isinstance(key, str) else _key_text(key)] = value

    def construct_plain(loader: Any, node: Any) -> str:
        return str(loader.construct_scalar(node))

    SpecLoader.add_constructor("tag:yaml.org,2002:map", construct_mapping)
    SpecLoader.add_constructor("tag:yaml.org,2002:timestamp", construct_plain)
    SpecLoader.add_constructor("tag:yaml.org,2002:binary", construct_plain)
    _LOADER = SpecLoader
    return SpecLoader


def _key_text(key: object) -> str:
    """A non-string YAML key as the text OpenAPI means (`200` → "200", `true` → "true")."""
    if isinstance(key, bool):
        return "true" if key else "false"
    if key is None:
        return "null"
    if isinstance(key, tuple | list):
        return json.dumps(list(key))
    return str(key)


def load_file(path: Path) -> Any:
    """The data of one JSON or YAML file, or UnreadableFile saying why not."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise UnreadableFile(
                f"the file is {size / 1e6:.1f} MB, more than the {MAX_FILE_BYTES // 2**20} MiB normcli reads in a spec file"
            )
        raw = path.read_bytes()
    except OSError as exc:
        raise UnreadableFile(f"cannot read the file: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise UnreadableFile("the file is not UTF-8 text", raw[: exc.start].count(b"\n") + 1) from None
    return load_text(text, path.suffix.lower() == ".json")


def load_text(text: str, is_json: bool) -> Any:
    """Parse spec text: JSON when it is (JSON is also YAML, but the JSON parser is much faster), else YAML."""
    if is_json or text.lstrip()[:1] in ("{", "["):
        try:
            return json.loads(text)
        except json.JSONDecodeError as exc:
            if is_json:
                raise UnreadableFile(f"invalid JSON: {exc.msg}", exc.lineno) from None
        except RecursionError:
            raise UnreadableFile("the JSON is nested too deeply to read") from None
    return _load_yaml(text)


def _load_yaml(text: str) -> Any:
    import yaml

    try:
        data = yaml.load(text, Loader=_loader())  # the loader is a subclass of the safe loader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "syntax error"
        raise UnreadableFile(f"invalid YAML: {problem}", mark.line + 1 if mark else 0) from None
    except yaml.YAMLError as exc:
        raise UnreadableFile(f"invalid YAML: {exc}") from None
    except RecursionError:
        raise UnreadableFile("the YAML is nested too deeply to read") from None
    if re.search(_ALIAS, text, re.MULTILINE):
        _check_expansion(data)
    return data


def _children(value: Any) -> Any:
    if isinstance(value, dict):
        return value.values()
    if isinstance(value, list):
        return value
    return ()


def _check_expansion(root: Any) -> None:
    """Refuse aliases that expand the document far beyond its own size, or that contain themselves:
    everything after this point walks the data as a tree, where either would never end."""
    done: dict[int, int] = {}  # container id → its values counted as a tree
    active: set[int] = {id(root)}
    stack: list[list[Any]] = [[root, iter(_children(root)), 1]]
    while stack:
        frame = stack[-1]
        for child in frame[1]:
            if not isinstance(child, dict | list):
                frame[2] += 1
                continue
            key = id(child)
            if key in done:
                frame[2] += done[key]
                continue
            if key in active:
                raise UnreadableFile("a YAML anchor contains an alias of itself: the document never ends")
            active.add(key)
            stack.append([child, iter(_children(child)), 1])
            break
        else:
            stack.pop()
            active.discard(id(frame[0]))
            done[id(frame[0])] = frame[2]
            if stack:
                stack[-1][2] += frame[2]
            if frame[2] > EXPANSION_BASE + EXPANSION_FACTOR * len(done):
                raise UnreadableFile(
                    f"YAML aliases expand this file to more than {frame[2]:,} values (an alias bomb?); normcli refuses to read it"
                )
