"""The reading budget of an agent session: counts reads in a row and spots calls that repeat.

The method (SPEC §3) asks an agent to answer after four read calls in a row (eight in an audit).
The counting of reads and repeats is the `ask` agent's (`normcli.agent.rules.CallTracker`), so both
frontends judge exploration and progress alike. The server cannot see the agent answer, so a pause
longer than `idle_reset` seconds, or a new call to `get_methodology`, starts a new count; and it can
speak only in a result, so it reminds on the first read past the budget. Nothing here imports the MCP SDK.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from normcli.agent.rules import AUDIT_EXPLORATION_LIMIT as AUDIT_BUDGET
from normcli.agent.rules import EXPLORATION_LIMIT as READ_BUDGET
from normcli.agent.rules import CallTracker
from normcli.mcp.spec_tools import TOOLS as SPEC_TOOLS
from normcli.workspace import load_settings_file

IDLE_RESET_SECONDS = 120.0


@dataclass(frozen=True)
class McpSettings:
    """The server's settings: `[mcp]` in normcli.toml, overridden by `normcli mcp` options."""

    read_budget: int = READ_BUDGET
    audit_budget: int = AUDIT_BUDGET
    audit: bool = False
    idle_reset: float = IDLE_RESET_SECONDS
    problems: tuple[str, ...] = ()

    @property
    def budget(self) -> int:
        """The threshold in force: the audit budget in audit mode, else the read budget."""
        return self.audit_budget if self.audit else self.read_budget


def read_mcp_settings(root: Path) -> McpSettings:
    """The `[mcp]` table of `<root>/normcli.toml`; a missing or broken table gives the defaults (and says why)."""
    file = root / "normcli.toml"
    if not file.is_file():
        return McpSettings()
    data, problem = load_settings_file(file)
    if problem is not None:
        return McpSettings(problems=(problem,))
    table = data.get("mcp")
    if not isinstance(table, dict):
        return McpSettings()
    problems: list[str] = []

    def whole(key: str, default: int) -> int:
        value = table.get(key, default)
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            problems.append(f"normcli.toml [mcp] {key} must be a whole number from 1, not {value!r}")
            return default
        return value

    audit = table.get("audit", False)
    if not isinstance(audit, bool):
        problems.append(f"normcli.toml [mcp] audit must be true or false, not {audit!r}")
        audit = False
    idle = table.get("idle_reset", IDLE_RESET_SECONDS)
    if isinstance(idle, bool) or not isinstance(idle, int | float) or idle < 0:
        problems.append(f"normcli.toml [mcp] idle_reset must be a number of seconds from 0, not {idle!r}")
        idle = IDLE_RESET_SECONDS
    return McpSettings(whole("read_budget", READ_BUDGET), whole("audit_budget", AUDIT_BUDGET), audit, float(idle), tuple(problems))


@dataclass
class Notes:
    """What the guard has to say about one call: lines to append to the result, and counters for `_meta`."""

    lines: list[str] = field(default_factory=list)
    reads: int = 0
    budget: int = 0
    repeated: bool = False

    def meta(self) -> dict[str, Any]:
        """The counters, for the result's `_meta`."""
        return {"reads": self.reads, "budget": self.budget, "repeated": self.repeated}


class BudgetGuard:
    """Counts consecutive read calls of one session and remembers which calls it has answered."""

    def __init__(self, settings: McpSettings, clock: Callable[[], float] = time.monotonic) -> None:
        self.settings = settings
        self.clock = clock
        self.tracker = CallTracker()
        self._last: float | None = None

    @property
    def reads(self) -> int:
        """Read calls in a row in this session."""
        return self.tracker.read_streak

    def record(self, tool: str, arguments: dict[str, Any], result: Any, answered: bool = True) -> Notes:
        """Count one call of `tool` that gave `result`; a failed call (`answered` false) reads nothing and does not count."""
        now = self.clock()
        if self._last is not None and self.settings.idle_reset and now - self._last > self.settings.idle_reset:
            self.tracker.reset_reads()
        self._last = now
        call = self.tracker.record(tool, arguments, result, ok=answered)
        notes = Notes(reads=call.read_streak, budget=self.settings.budget)
        if call.repeated:
            notes.repeated = True
            notes.lines.append(
                f"Note: this repeats call #{call.repeats} of this session with the same arguments and the same result. "
                "Use the answer you already have instead of asking again (to read on in a long section, pass offset=nextOffset)."
            )
        if answered and call.read_streak > notes.budget:
            kind = "audit budget" if self.settings.audit else "reading budget"
            # an API spec's endpoints are named, not cited as a norm's clauses are
            cite = (
                "naming each endpoint as METHOD /path with its spec, or tell the user exactly which endpoint or spec is still missing"
                if tool in SPEC_TOOLS
                else "citing each clause as [CODE, path, p. N], or tell the user exactly which clause or norm is still missing"
            )
            notes.lines.append(
                f"Budget: this is read call {call.read_streak} in a row without answering ({kind}: {notes.budget}). "
                f"Answer now with what you have read, {cite}."
            )
        return notes
