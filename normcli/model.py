"""What a bundle holds once parsed: a norm edition in one language, its clause tree and its parts."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path


def node_id(code: str, edition: str, path: str) -> str:
    """The stable id of a clause: MD5 of `code|edition|path`, the same in every language."""
    import hashlib

    return hashlib.md5(f"{code}|{edition}|{path}".encode()).hexdigest()


@dataclass
class Problem:
    """Something a bundle gets wrong, located by file and line."""

    file: str
    line: int
    severity: str  # "error" makes the bundle unreadable; "warning" leaves it readable
    kind: str
    reason: str

    def to_json(self) -> dict:
        """The problem as printed by `check --json`."""
        return {
            "file": self.file,
            "line": self.line,
            "severity": self.severity,
            "kind": self.kind,
            "reason": self.reason,
        }

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}: {self.reason}"


@dataclass
class Figure:
    """A captioned image of a clause; `file` is None when the link is missing or unsafe."""

    id: str
    number: str | None
    caption: str
    file: str | None
    node_path: str
    line: int


@dataclass
class Table:
    """A pipe table with its caption line."""

    id: str
    number: str | None
    caption: str
    markdown: str
    node_path: str
    page: int | None = None  # the page its first row is printed on; None in a bundle without pages


@dataclass
class Formula:
    """A display formula in LaTeX, with its printed number when it has one."""

    number: str | None
    latex: str
    node_path: str


@dataclass
class CrossRef:
    """A reference found in a clause's text: a link (`explicit`) or a mention (`implicit`)."""

    text: str
    type: str  # explicit | implicit
    target_code: str | None  # None: this norm
    target_path: str | None  # None: the norm as a whole
    target_kind: str  # clause | annex | figure | table | norm
    node_path: str = ""
    position: int = 0  # where in the clause's text it stands, so a window lists only its own
    line: int = 0  # the bundle file's line it stands on, for check


@dataclass
class Node:
    """One clause: its path as printed, its own text (without its children's) and its pages."""

    path: str
    title: str
    depth: int
    line: int
    page_start: int | None  # None throughout a bundle without page markers
    page_end: int | None
    text: str = ""
    parent_path: str | None = None
    children: list[str] = field(default_factory=list)


@dataclass
class Bundle:
    """One language version of one edition of a norm, as read from its Markdown file."""

    file: Path
    code: str
    edition: str
    language: str
    title: str
    scope: str = ""
    published: bool = True
    demo: bool = False
    requires: list[str] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    formulas: list[Formula] = field(default_factory=list)
    xrefs: list[CrossRef] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def folder(self) -> Path:
        """The edition folder, the only place its figure files may live."""
        return self.file.parent
