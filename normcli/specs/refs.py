"""`$ref`s: where one points, inside the spec's folder only, and the JSON pointer it names.

Every `$ref` is rewritten to one canonical key, `FILE#POINTER` with FILE relative to the spec's folder
(`openapi.yaml#/components/schemas/Pet`, `resources/droplets/models/droplet.yml#`), so that two files
naming one target by different relative paths share it, and a cycle is a key seen before.
A `$ref` to a URL is never fetched, and one that leaves the spec's folder is never read.
"""

from __future__ import annotations

import posixpath

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on a discovery call's start-up
if TYPE_CHECKING:
    from collections.abc import Iterator

_SCHEME = r"^[A-Za-z][A-Za-z0-9+.-]*:"  # compiled by `re`'s cache when a spec is read, never on a discovery call


class RefusedRef(Exception):
    """A `$ref` normcli will not follow, with the reason (`kind` is the check finding's kind)."""

    def __init__(self, kind: str, reason: str) -> None:
        super().__init__(reason)
        self.kind = kind
        self.reason = reason


def canonical(ref: object, base_file: str) -> str:
    """The canonical key of `ref` written in `base_file` (relative to the spec's folder), or RefusedRef.
    Only the text is judged here; a file reached through a link out of the folder is refused when read."""
    if not isinstance(ref, str):
        raise RefusedRef("bad_ref", f"a $ref must be text, not {type(ref).__name__}")
    import re

    if re.match(_SCHEME, ref) or ref.startswith("//"):
        raise RefusedRef("ref_url", f"$ref '{ref}' points to a URL; normcli reads only the spec's own files and never fetches")
    from urllib.parse import unquote  # only when a spec is read: an endpoint's read never needs it

    location, _, fragment = ref.partition("#")
    fragment = unquote(fragment)
    if fragment and not fragment.startswith("/"):
        raise RefusedRef("bad_ref", f"$ref '{ref}' names an anchor, not a JSON pointer (#/...)")
    if not location:
        return f"{base_file}#{fragment}"
    location = unquote(location).replace("\\", "/")
    if location.startswith("/"):
        raise RefusedRef("ref_outside", f"$ref '{ref}' is an absolute path; a spec's files must stay in its folder")
    joined = posixpath.normpath(posixpath.join(posixpath.dirname(base_file), location))
    if joined == ".." or joined.startswith("../"):
        raise RefusedRef("ref_outside", f"$ref '{ref}' leaves the spec's folder; normcli does not read it")
    return f"{joined}#{fragment}"


def split_key(key: str) -> tuple[str, str]:
    """(file, pointer) of a canonical key."""
    file, _, pointer = key.partition("#")
    return file, pointer


def follow(document: object, pointer: str) -> object:
    """The value a JSON pointer names in `document`; KeyError when it names nothing."""
    value = document
    if not pointer or (pointer == "/" and not (isinstance(value, dict) and "" in value)):
        return value  # `file.yaml#/` is written for the whole file far more often than for a key ""
    for raw in pointer[1:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict):
            if part not in value:
                raise KeyError(part)
            value = value[part]
        elif isinstance(value, list):
            if not part.isdigit() or int(part) >= len(value):
                raise KeyError(part)
            value = value[int(part)]
        else:
            raise KeyError(part)
    return value


def name_of(key: str) -> str:
    """A readable name for a ref's target: the pointer's last part, else the file's stem (`Pet`, `droplet`)."""
    file, pointer = split_key(key)
    if pointer.strip("/"):
        return pointer.rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    stem = posixpath.basename(file)
    return stem.split(".", 1)[0] if stem else key


def written_keys(value: object) -> Iterator[str]:
    """The canonical `$ref` keys written in `value` itself (not inside their targets), as a walk finds
    them; keys marked unresolvable (`!…`) are left out. A generator, so a caller may stop early."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            ref = item.get("$ref")
            if isinstance(ref, str) and not ref.startswith("!"):
                yield ref
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
