"""The errors every layer raises, with the stable codes and exit statuses of SPEC §4."""

from __future__ import annotations

import re
from enum import IntEnum

# C0/C1 controls and bidirectional overrides: shown escaped, so that an argument or a bundle
# can never move the cursor, clear the terminal or reverse the text of an error line.
# Compiled at the first error, by `re`'s own cache: compiling it costs 1 ms of every call's start-up.
_UNPRINTABLE = r"[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"


def printable(text: str) -> str:
    """`text` with control characters written as escapes (`\\x1b`), safe to print on a terminal."""
    return re.sub(_UNPRINTABLE, lambda match: repr(match.group())[1:-1], text)


class ExitCode(IntEnum):
    """Process exit statuses, part of the command-line contract."""

    OK = 0
    NOT_FOUND = 1
    USAGE = 2
    WORKSPACE = 3
    INTERNAL = 4
    INTERRUPTED = 130


class NormcliError(Exception):
    """A failure the user can act on: a message, a stable code and a hint on what to do next."""

    code = "internal_error"
    exit_code = ExitCode.INTERNAL

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def one_line(self) -> str:
        """The message and the hint as the single line printed on stderr."""
        return printable(f"{self.message} ({self.hint})" if self.hint else self.message)

    def to_json(self) -> dict:
        """The `{"error": {...}}` document printed on stdout with --json."""
        return {"error": {"code": self.code, "message": self.one_line()}}


class NotFound(NormcliError):
    """An unknown norm, edition, language, clause, figure or file; `what` says which of these, so that
    a frontend can say where to look (the JSON error object keeps SPEC's two fields)."""

    code = "not_found"
    exit_code = ExitCode.NOT_FOUND

    def __init__(self, message: str, hint: str = "", what: str = "") -> None:
        super().__init__(message, hint)
        self.what = what


class InvalidArgument(NormcliError):
    """An argument out of range or malformed."""

    code = "invalid_argument"
    exit_code = ExitCode.USAGE


class WorkspaceError(NormcliError):
    """The workspace, its index or a bundle cannot be read."""

    code = "workspace_error"
    exit_code = ExitCode.WORKSPACE
