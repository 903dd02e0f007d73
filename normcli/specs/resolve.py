"""Resolve an endpoint's `$ref`s for reading: each target put in place of its ref, a cycle shown once.

A schema that contains itself (a tree node whose children are tree nodes) is expanded the first time
and, where it recurs inside itself, left as `{"$ref": …, "circular": true}`. A ref that could not be
followed when the spec was read stays a ref marked `unresolved`, with the reason `check` gives.
Expansion stops at `MAX_VALUES` values so that a spec reusing large schemas everywhere still
answers quickly; refs past that point are marked `truncated`.
"""

from __future__ import annotations

from normcli.lean_json import loads
from normcli.specs.refs import name_of, split_key, written_keys

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (3 ms) on an endpoint's read
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

MAX_VALUES = 40_000
MAX_DEPTH = 60


def load_targets(body: Any, fetch: Callable[[list[str]], dict[str, str]]) -> dict[str, Any]:
    """The targets `body` reaches through refs, transitively, fetched a batch of keys at a time."""
    targets: dict[str, Any] = {}
    wanted = set(written_keys(body))
    while wanted:
        fetched = fetch(sorted(wanted))
        missing = wanted - set(fetched)
        targets.update((key, None) for key in missing)
        new: set[str] = set()
        for key, text in fetched.items():
            targets[key] = loads(text)
            new.update(written_keys(targets[key]))
        wanted = {key for key in new if key not in targets}
    return targets


class Resolver:
    """Puts targets in place of refs, for one endpoint; `root_file` is the spec's root, whose refs are
    shown as the spec writes them (`#/components/schemas/Pet`)."""

    def __init__(self, targets: dict[str, Any], root_file: str) -> None:
        self.targets = targets
        self.root_file = root_file
        self.values = 0

    def shown(self, key: str) -> str:
        """A canonical key as a reader would write the ref from the root file."""
        file, pointer = split_key(key)
        return f"#{pointer}" if file == self.root_file else f"{file}#{pointer}" if pointer else file

    def _alias(self, key: str) -> bool:
        """Whether a target is only another `$ref` (`A: {$ref: B}`)."""
        target = self.targets.get(key)
        return isinstance(target, dict) and isinstance(target.get("$ref"), str)

    def resolve(self, value: Any, trail: tuple[str, ...] = ()) -> Any:
        """`value` with its refs resolved; `trail` holds the refs being expanded around it."""
        self.values += 1
        if isinstance(value, list):
            return [self.resolve(item, trail) for item in value]
        if not isinstance(value, dict):
            return value
        ref = value.get("$ref")
        if not isinstance(ref, str):
            return {key: self.resolve(item, trail) for key, item in value.items()}
        siblings = {key: self.resolve(item, trail) for key, item in value.items() if key != "$ref"}
        if ref.startswith("!"):
            return {"$ref": ref[1:], "unresolved": "refused: outside the spec's folder or a URL", **siblings}
        if self.targets.get(ref) is None:
            return {"$ref": self.shown(ref), "unresolved": "resolves nowhere", **siblings}
        if ref in trail:
            if all(self._alias(key) for key in trail[trail.index(ref) :]):
                return {"$ref": self.shown(ref), "unresolved": "a loop of $refs that names no schema", **siblings}
            return {"$ref": self.shown(ref), "circular": True, "title": name_of(ref), **siblings}
        if self.values > MAX_VALUES or len(trail) >= MAX_DEPTH:
            return {"$ref": self.shown(ref), "truncated": True, "title": name_of(ref), **siblings}
        target = self.resolve(self.targets[ref], (*trail, ref))
        if isinstance(target, dict) and "$ref" in target:  # a ref that stays a ref (a loop, a refused one): as it is
            return {**target, **siblings}
        if isinstance(target, dict):
            named = {"x-ref": self.shown(ref), **target} if _names_a_schema(ref) else dict(target)
            named.update(siblings)
            return named
        return target


_NOT_SCHEMAS = ("/responses/", "/parameters/", "/requestBodies/", "/examples/", "/headers/", "/securitySchemes/", "/links/", "/callbacks/")


def _names_a_schema(key: str) -> bool:
    """Whether a ref names a schema worth calling by its name (`Pet`, `SnowLoad`): not a response,
    parameter or the like, and not one property of another schema (`…/properties/zone`)."""
    _, pointer = split_key(key)
    parts = pointer.split("/")
    if len(parts) >= 2 and parts[-2] in ("properties", "items"):
        return False
    return not any(marker in f"{pointer}/" for marker in _NOT_SCHEMAS)
