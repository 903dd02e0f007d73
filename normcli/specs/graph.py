"""The files of one spec and the targets of their `$ref`s: each file read once, each `$ref` made a
canonical key (see `refs`) whose target is read once from whichever file holds it, so that a cycle
ends at a key already seen. Problems are recorded with file and line as they are met.

What is read from the targets is recorded by file (`used`): the index checks a listing against the
files its rows were made of, and an endpoint against those and the files its page shows (docs/specs.md,
"Which files each answer depends on"). For that a target's content must depend on its own file only:
a target nested too deeply is left out on its own (never the whole spec), and the targets a listing
reads are resolved when it asks for them (`lazy`), before any other, so that no other file can push
them past `MAX_TARGETS`."""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path
from typing import Any

from normcli.model import Problem
from normcli.specs import refs
from normcli.specs.files import stamp_before_read
from normcli.specs.load import UnreadableFile, line_of, load_file

MAX_TARGETS = 200_000  # distinct $ref targets one spec may have
OUTSIDE = "leads out of the spec's folder through a link"


class RefGraph:
    """The files of one spec folder and the targets of their `$ref`s, each read once, with the problems met."""

    def __init__(self, folder: Path, domain: str, prefix: str) -> None:
        self.folder = folder
        self.real_folder = os.path.realpath(folder)
        self.real_parents: dict[str, str] = {}
        self.domain = domain
        self.prefix = prefix
        self.documents: dict[str, Any] = {}
        self.unreadable: dict[str, UnreadableFile] = {}
        self.stamps: dict[str, tuple[str, int]] = {}  # file → (stamp, size) taken before it was read
        self.targets: dict[str, Any] = {}
        self.pending: list[str] = []  # keys seen and not yet resolved
        self.origin: dict[str, tuple[str, int]] = {}  # key → (the file that first names it, line)
        self.seen: set[str] = set()
        self.attempted: set[str] = set()  # keys whose target was looked for (found or not)
        self.problems: list[Problem] = []
        self.lazy = False  # deref resolves a key it meets (the listing walk), rather than finding it resolved
        self.used: set[str] | None = None  # where deref records the file of each key it follows
        self.limited = False  # MAX_TARGETS was reached: some targets are left unresolved

    # -- problems and files ------------------------------------------------------------------

    def problem(self, file: str, line: int, kind: str, reason: str, severity: str = "warning", near: tuple[str, ...] = ()) -> None:
        """Record a finding; where the line is unknown (JSON keeps none), it is looked up as the first
        line matching one of the patterns `near`."""
        if not line and near:
            line = self.find_line(file, near)
        self.problems.append(Problem(f"{self.prefix}/{file}", line, severity, kind, reason))

    def find_line(self, file: str, patterns: tuple[str, ...]) -> int:
        """The first line of `file` where one of `patterns` matches (0: none does)."""
        try:
            text = (self.folder / file).read_text(encoding="utf-8-sig", errors="replace")
        except OSError:
            return 0
        for pattern in patterns:
            found = re.search(pattern, text)
            if found:  # a pattern with a group locates the group (the second of two equal operationIds)
                return text.count("\n", 0, found.start(1) if found.re.groups else found.start()) + 1
        return 0

    def document(self, file: str) -> Any:
        """The data of one file of the folder, read once; UnreadableFile when it cannot be read."""
        if file not in self.documents and file not in self.unreadable:
            path = os.path.join(self.real_folder, file)
            self.stamps[file] = stamp_before_read(path)  # a write from here on shows at the next check
            try:
                if not self.inside(path):  # a link out of the folder
                    raise UnreadableFile(OUTSIDE)
                self.documents[file] = load_file(Path(path))
            except UnreadableFile as exc:
                self.unreadable[file] = exc
        if file in self.unreadable:
            raise self.unreadable[file]
        return self.documents[file]

    def inside(self, path: str) -> bool:
        """Whether `path` (under the real folder) really lies inside it: its folder's real path is
        looked up once per folder, and the file itself is followed only when it is a link."""
        parent = os.path.dirname(path)
        real_parent = self.real_parents.get(parent)
        if real_parent is None:
            real_parent = self.real_parents[parent] = os.path.realpath(parent)
        real = os.path.realpath(path) if os.path.islink(path) else os.path.join(real_parent, os.path.basename(path))
        return real.startswith(self.real_folder + os.sep)

    # -- canonical $refs ---------------------------------------------------------------------

    def canon(self, value: Any, file: str) -> Any:
        """A copy of `value` (from `file`) with each `$ref` made canonical, its target queued."""
        if isinstance(value, dict):
            copy = {}
            for key, item in value.items():
                if key == "$ref" and isinstance(item, str | int | float | bool | type(None)):
                    copy[key] = self.ref(item, file, line_of(value))
                else:
                    copy[key] = self.canon(item, file)
            return copy
        if isinstance(value, list):
            return [self.canon(item, file) for item in value]
        return value

    def ref(self, ref: Any, file: str, line: int) -> str:
        """The canonical key of a `$ref` (its target queued), or a refused ref marked `!` and reported."""
        try:
            key = refs.canonical(ref, file)
        except refs.RefusedRef as refused:
            self.problem(file, line, refused.kind, refused.reason, near=_ref_patterns(ref))
            return f"!{ref}"  # never a key: shown as unresolved when read
        if key not in self.seen:
            self.seen.add(key)
            self.origin[key] = (file, line)
            self.pending.append(key)
        return key

    def resolve_pending(self) -> None:
        """Read the target of every queued key, queueing the keys its own refs name, until none is left."""
        while self.pending:
            self.resolve(self.pending.pop())

    def resolve(self, key: str) -> None:
        """Read the target of one key (once), or record why it cannot be read."""
        if key in self.attempted:
            return
        self.attempted.add(key)
        named_in, line = self.origin.get(key, ("", 0))
        if len(self.targets) >= MAX_TARGETS:
            if not self.limited:
                self.problem(named_in, line, "too_large", f"more than {MAX_TARGETS:,} $ref targets; the rest are left unresolved")
            self.limited = True
            return
        file, pointer = refs.split_key(key)
        try:
            document = self.document(file)
        except UnreadableFile as exc:
            if exc.reason == OUTSIDE:
                self.problem(named_in, line, "ref_outside", f"$ref to {file} {OUTSIDE}; normcli does not read it", near=_key_patterns(key))
            elif (self.folder / file).is_file():
                self.problem(
                    named_in,
                    line,
                    "bad_ref",
                    f"$ref to {file} cannot be followed: {exc.reason} ({file}:{exc.line})",
                    near=_key_patterns(key),
                )
            else:
                self.problem(
                    named_in, line, "bad_ref", f"$ref '{_shown(key)}' names a file that does not exist: {file}", near=_key_patterns(key)
                )
            return
        try:
            target = refs.follow(document, pointer)
        except KeyError:
            self.problem(
                named_in, line, "bad_ref", f"$ref '{_shown(key)}' resolves nowhere: {file} has no '{pointer}'", near=_key_patterns(key)
            )
            return
        try:
            self.targets[key] = self.canon(target, file)
        except RecursionError:  # this target alone: the rest of the spec does not depend on this file
            self.problem(named_in, line, "too_deep", f"$ref '{_shown(key)}' leads to a value nested too deeply to read")

    def report_loops(self) -> None:
        """Report each loop of `$ref`s that only name one another (`A: {$ref: B}`, `B: {$ref: A}`): it names
        nothing, where a schema that contains itself through its properties is a fine recursive type."""
        for key, value in self.targets.items():
            chain = [key]
            while isinstance(value, dict) and isinstance(value.get("$ref"), str) and value["$ref"] in self.targets and len(chain) <= 50:
                following = value["$ref"]
                if following in chain:
                    break
                chain.append(following)
                value = self.targets[following]
            else:
                continue
            if following != key or key != min(chain):
                continue  # a chain into a loop, or the loop seen from another of its members
            file, pointer = refs.split_key(key)
            try:
                line = line_of(refs.follow(self.documents.get(file), pointer))
            except KeyError:
                line = 0
            loop = " → ".join(_shown(member) for member in [*chain, key])
            self.problem(file, line, "ref_loop", f"$refs that only name one another never reach a schema: {loop}", near=_key_patterns(key))

    def deref(self, value: Any, depth: int = 0) -> Any:
        """`value` itself, or what its `$ref` leads to (through chains of refs); an unresolved ref stays."""
        seen = 0
        while isinstance(value, dict) and isinstance(value.get("$ref"), str) and seen < 50:
            ref = value["$ref"]
            if ref in self.seen:  # a canonical key (a refused one is marked `!` and names no file)
                if self.used is not None:
                    self.used.add(ref.partition("#")[0])  # whether it resolves or not: a fix to that file shows
                if self.lazy:
                    self.resolve(ref)
            if ref not in self.targets:
                break
            siblings = {key: item for key, item in value.items() if key != "$ref"}
            value = self.targets[ref]
            if siblings and isinstance(value, dict):  # OpenAPI 3.1: summary and description beside $ref win
                value = {**value, **siblings}
            seen += 1
        return value


def _shown(key: str) -> str:
    return key if len(key) <= 120 else key[:117] + "…"


def _ref_patterns(ref: object) -> tuple[str, ...]:
    """Where a `$ref` is written, for a file that keeps no lines (JSON)."""
    return (rf"\$ref[\"']?\s*:\s*[\"']?{re.escape(str(ref))}",)


def _key_patterns(key: str) -> tuple[str, ...]:
    """Where a ref to a canonical key may be written: by its pointer, else by its file's name."""
    file, pointer = refs.split_key(key)
    tail = pointer.rsplit("/", 1)[-1] if pointer else posixpath.basename(file)
    return (rf"\$ref[\"']?\s*:\s*[\"']?[^\"'\n]*{re.escape(tail)}[\"'\s,}}]",) if tail else ()
