"""The parameters of the read operations (`Param`) and those several operations share, declared once.

`normcli.operations` declares every operation with them; a call that needs only a parameter's range
(a spec search checks its keyword and limit) imports this module, not every operation's declaration.
"""

from __future__ import annotations

from normcli.errors import InvalidArgument
from normcli.record import record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from typing import Any


@record
class Param:
    """One parameter of an operation, as every frontend offers it.

    `name` is SPEC's camelCase name (JSON, batch, MCP); the service's keyword is its snake_case form.
    `low`/`high` bound a number, or the length of a text. `flags` are the command-line option names;
    a parameter without flags is a positional argument there. `aliases` are other names accepted for
    it (batch, MCP). `agent_help` words the help for agents where it must differ from `help`.
    """

    name: str
    kind: type  # int, str or bool (a flag)
    help: str
    required: bool = False
    default: Any = None
    low: int | None = None
    high: int | None = None
    flags: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    agent_help: str = ""
    metavar: str = ""
    choices: tuple[str, ...] = ()  # the values a text may take (an enum in the MCP schema)
    switches: tuple[tuple[str, str], ...] = ()  # command-line flags that set a fixed value: (("--incoming", "incoming"),)

    @property
    def keyword(self) -> str:
        """The service's keyword argument: `maxDepth` → `max_depth`."""
        return "".join(f"_{char.lower()}" if char.isupper() else char for char in self.name)

    @property
    def bounded(self) -> bool:
        """Whether the service checks it on every call: a number's range, a text's type and length, or
        one of its declared choices (what a text must hold, a norm code or a keyword, is checked where
        its meaning is known)."""
        return self.kind is str or self.low is not None or self.high is not None or bool(self.choices)

    def check(self, value: Any) -> Any:
        """`value` when it is a whole number in range, a text not too long, one of the declared choices,
        else an `invalid_argument`."""
        if value is not None and self.choices and value not in self.choices:
            raise InvalidArgument(f"{self.name} must be one of {', '.join(self.choices)}, not {value!r}", param=self.name)
        if value is None or not self.bounded:
            return value
        if self.kind is str:
            if not isinstance(value, str):
                raise InvalidArgument(f"{self.name} must be text, not {value!r}", param=self.name)
            if self.high is not None and len(value) > self.high:
                raise InvalidArgument(f"{self.name} is too long ({len(value)} characters, at most {self.high})", param=self.name)
            return value
        low, high = self.low, self.high
        if (
            not isinstance(value, int)
            or isinstance(value, bool)
            or (low is not None and value < low)
            or (high is not None and value > high)
        ):
            bounds = f"from {low} to {high}" if high is not None else f"from {low}"
            raise InvalidArgument(f"{self.name} must be a whole number {bounds}, not {value!r}", param=self.name)
        return value

    def clamp(self, value: int) -> tuple[int, str | None]:
        """A number brought into range, and a note saying so when it was out of it (the MCP's way, SPEC §8)."""
        low, high = self.low, self.high
        if low is not None and value < low:
            return low, f"{self.name} {value} is below its range; {low} was used"
        if high is not None and value > high:
            return high, f"{self.name} {value} is above its range; {high} was used"
        return value, None


# -- the parameters several operations share --------------------------------------------------

CODE = Param(
    "code",
    str,
    "Norm code, optionally with its edition: 'SIA 261' or 'SIA 261:2014'.",
    required=True,
    high=200,
    aliases=("norm",),
    agent_help="Norm code as list_norms gives it, e.g. 'SIA 261'; 'SIA 261:2014' also names the edition. "
    "Case, spaces, accents and hyphens do not matter ('sia261' works). The older name `norm` is accepted too.",
)
PATH = Param(
    "path",
    str,
    "Clause path as printed: 4.2.1, A.1, 'Annexe A'.",
    required=True,
    high=300,
    aliases=("nodeId",),
    agent_help="Clause path exactly as the norm prints it: '4.2.1', 'A.1', 'Annexe A', or an unnumbered heading's title "
    "(a nodeId from get_toc works too). A number below the last heading ('4.2.1.3') resolves to the heading that holds it.",
)
EDITION = Param(
    "edition",
    str,
    "Edition to read (default: the newest published).",
    high=50,
    flags=("--edition", "-e"),
    agent_help="Edition to read, e.g. '2014'. Default: the newest published edition (drafts only when named).",
)
LANGUAGE = Param(
    "language",
    str,
    "Language version: fr, de, it or en.",
    high=10,
    flags=("--language", "-l"),
    agent_help="Language version: 'fr', 'de', 'it' or 'en'. Default: the workspace's preferred language, else the edition's first.",
)
KEYWORD = Param(
    "keyword",
    str,
    "Words to find (case and accents do not matter).",
    required=True,
    low=1,
    high=200,
    agent_help="Words to find (1–200 characters); case, accents and ß/ss do not matter. A clause number such as '4.2.1' jumps to that clause.",
)

# The spec search's parameters: a spec search checks them without loading every operation's declaration.
SPEC_KEYWORD = Param(
    "keyword",
    str,
    "Words to find in paths, summaries, descriptions, parameter and schema names.",
    required=True,
    low=1,
    high=200,
    agent_help="Words to find (1–200 characters) in paths, summaries, descriptions, parameter and schema names.",
)
SPEC_LIMIT = Param(
    "limit",
    int,
    "At most this many endpoints, 1 to 50.",
    default=20,
    low=1,
    high=50,
    flags=("--limit", "-n"),
    agent_help="At most this many endpoints (1–50, default 20).",
)
