"""The errors every layer raises: a stable code (SPEC §4) and the data a frontend needs to word them.

The core says what went wrong in plain words and with data (`NotFound.what`, `.value`,
`.candidates`); it never says which command to run. Each frontend words that advice its own way:
`cli/diagnostics.py` (exit codes, one line on stderr), `mcp/wording.py` (which tool to call), the TUI.
"""

from __future__ import annotations

# C0/C1 controls and bidirectional overrides: shown escaped, so that an argument or a bundle
# can never move the cursor, clear the terminal or reverse the text of an error line.
# Compiled at the first error, by `re`'s own cache: importing `re` (with `enum`) and compiling it would cost
# a tenth of every call's start-up.
_UNPRINTABLE = r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"


def printable(text: str) -> str:
    """`text` with control characters written as escapes (`\\x1b`), safe to print on a terminal."""
    import re

    return re.sub(_UNPRINTABLE, lambda match: repr(match.group())[1:-1], text)


class Notice(str):
    """A warning in plain words (it is the text), and its `kind`: as errors carry data rather than advice,
    each frontend adds its own advice for a kind (the command line names its options in
    `cli/diagnostics.py`); a warning without a kind needs none."""

    kind: str

    def __new__(cls, text: str, kind: str = "") -> Notice:
        made = super().__new__(cls, text)
        made.kind = kind
        return made


class NormcliError(Exception):
    """A failure the user can act on: a message, a stable code, and a hint that holds for every frontend
    (facts such as "its editions are 2020, 2014", or "check the folder's permissions")."""

    code = "internal_error"

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def one_line(self) -> str:
        """The message and the hint as one printable line."""
        return printable(f"{self.message} ({self.hint})" if self.hint else self.message)

    def to_json(self) -> dict:
        """The `{"error": {...}}` document of SPEC §4, with this error's own line as the message."""
        return {"error": {"code": self.code, "message": self.one_line()}}


# What a `NotFound` names (SPEC §8), and how its candidates are introduced in a message.
_KNOWN = {
    "norm": "the codes are",
    "edition": "its editions are",
    "language": "its languages are",
    "path": "the nearest clauses are",
    "figure": "its figures are",
    "table": "its tables are",
    "id": "known ids are",
    "file": "",
}


class NotFound(NormcliError):
    """An unknown norm, edition, language, clause path, figure, table, id or file.

    `what` says which (one of `norm`, `edition`, `language`, `path`, `figure`, `table`, `id`, `file`),
    `value` is what was asked, `candidates` what exists instead (nearest or first few), and `norm`
    the edition searched (`SIA 261:2020`) when the thing belongs to one.
    """

    code = "not_found"

    def __init__(self, what: str, value: str, candidates: tuple[str, ...] | list[str] = (), norm: str = "", message: str = "") -> None:
        self.what = what
        self.value = value
        self.candidates = tuple(candidates)
        self.norm = norm
        shown = ", ".join(self.candidates[:12]) + (", …" if len(self.candidates) > 12 else "")
        facts = f"{_KNOWN.get(what) or 'known:'} {shown}" if self.candidates and what != "file" else ""
        noun = {"path": "clause", "id": "item with id"}.get(what, what)
        default = f"no {noun} '{value}' in {norm or 'this workspace'}"
        super().__init__(message or default, facts)


class InvalidArgument(NormcliError):
    """An argument out of range or malformed; `param` names it (camelCase) when one parameter is at fault, and
    `high` is the largest value it may take when a number is past a bound known only once read (an offset past
    the end of a clause's text), so that a frontend that clamps (SPEC §8) can ask again with it."""

    code = "invalid_argument"

    def __init__(self, message: str, hint: str = "", param: str = "", high: int | None = None) -> None:
        super().__init__(message, hint)
        self.param = param
        self.high = high


class WorkspaceError(NormcliError):
    """The workspace, its index or a bundle cannot be read; `part` says which (`workspace`, `index`, `bundle`)."""

    code = "workspace_error"

    def __init__(self, message: str, hint: str = "", part: str = "workspace") -> None:
        super().__init__(message, hint)
        self.part = part
