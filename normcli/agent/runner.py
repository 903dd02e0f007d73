"""The `normcli ask` loop: model call, tools, continuation rules, until the answer is delivered and verified.

After each model reply the runner builds a `RuleContext`; the first rule that fires sends its nudge
instead of ending the turn (or beside the tool results), a stopping rule ends the session, and the
limits (tool calls, time, tokens) end it when they are used up. Frontends watch through `Events`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from normcli.agent import rules as r
from normcli.agent.citations import Citation, check_citations, find_citations
from normcli.agent.client import ChatClient, EndpointError, Reply
from normcli.agent.config import AskSettings
from normcli.agent.tools import SUBMIT, VERIFY, Toolbox, ToolOutcome, tool_schemas
from normcli.service import Service

NUDGE_PREFIX = "[normcli] "  # marks the runner's messages in the conversation, so they are never taken for the user's
_THINKING = re.compile(r"<think>.*?</think>\s*", re.DOTALL)

ASK_CONTRACT = """

## How this session works (normcli ask)
- Use the tools to read; the norms above are all you may rely on.
- When you have read what you need, call submit_answer with the full answer in the user's language, then verify_citations.
  The answer is delivered only when verify_citations passes.
- Cite every technical claim as [CODE:EDITION, path, p. N], e.g. [SIA 261:2020, 4.2.1, p. 17], naming a section you read
  with get_section for this question and a page in its range (a document without printed pages: no page).
  get_section's answer gives that citation, ready to use, as `citation`.
- Messages that start with [normcli] come from the tool runner, not from the user: follow them."""


class Events:
    """What a frontend is told while a question runs; every method does nothing here."""

    def text(self, delta: str) -> None:
        """Streamed text of the model's reply."""

    def tool(self, name: str, arguments: str, outcome: ToolOutcome) -> None:
        """A tool call has run."""

    def nudge(self, firing: r.Firing) -> None:
        """A continuation rule fired."""

    def reply_done(self) -> None:
        """A model reply has ended."""


@dataclass
class TurnResult:
    """One question and how it ended: `status` is answered, unverified, undelivered, stopped or limit."""

    question: str
    status: str = "undelivered"
    answer: str | None = None
    citations: list[Citation] = field(default_factory=list)
    message: str = ""
    nudges: list[dict[str, Any]] = field(default_factory=list)
    tool_calls: int = 0
    model_calls: int = 0
    tokens: int = 0
    seconds: float = 0.0

    @property
    def verified(self) -> bool:
        """Whether the answer was delivered with every citation verified."""
        return self.status == "answered"

    def to_json(self) -> dict[str, Any]:
        """`{question, status, verified, answer, citations, message, nudges, toolCalls, modelCalls, tokens, seconds}`."""
        return {
            "question": self.question,
            "status": self.status,
            "verified": self.verified,
            "answer": self.answer,
            "citations": [citation.to_json() for citation in self.citations],
            "message": self.message,
            "nudges": self.nudges,
            "toolCalls": self.tool_calls,
            "modelCalls": self.model_calls,
            "tokens": self.tokens,
            "seconds": round(self.seconds, 3),
        }


class Session:
    """A conversation with the model over the workspace's norms; `ask()` runs one question to its end."""

    def __init__(
        self,
        service: Service,
        client: ChatClient,
        settings: AskSettings,
        events: Events | None = None,
        rules: list[r.Rule] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.client = client
        self.settings = settings
        self.events = events or Events()
        self.rules = rules if rules is not None else r.default_rules()
        self.clock = clock
        self.toolbox = Toolbox(service)
        self.tools = tool_schemas()
        self.messages: list[dict[str, Any]] = [{"role": "system", "content": service.methodology().text + ASK_CONTRACT}]
        self.turns: list[TurnResult] = []

    def ask(self, question: str) -> TurnResult:
        """Run one question: call the model, run its tools, apply the rules, until the turn ends."""
        turn = TurnResult(question)
        self.turns.append(turn)
        self.messages.append({"role": "user", "content": question})
        self.toolbox.new_question()
        state = _TurnState(self.clock())
        try:
            self._run(turn, state)
        finally:
            turn.seconds = self.clock() - state.started
        return turn

    def _run(self, turn: TurnResult, state: _TurnState) -> None:
        while True:
            usage = self._usage(turn, state)
            if usage >= 1:
                self._end_on_limit(turn, state)
                return
            remaining = self.settings.max_seconds - (self.clock() - state.started)
            try:
                reply = self.client.complete(self.messages, self.tools, self.events.text, timeout=max(remaining, 1.0))
            except EndpointError as error:
                if error.timed_out and self.clock() - state.started >= self.settings.max_seconds:
                    self._end_on_limit(turn, state)  # the question's time ran out while the model was thinking
                    return
                raise
            self.events.reply_done()
            turn.model_calls += 1
            turn.tokens += _tokens(reply, self.messages)
            self.messages.append(reply.to_message())
            if reply.tool_calls:
                self._run_tools(reply, turn, state)
                phase = r.PHASE_TOOLS
            else:
                state.final_text = _THINKING.sub("", reply.content).strip()
                phase = r.PHASE_FINAL
            firing = r.evaluate_rules(self.rules, self._context(phase, reply, turn, state))
            if firing is not None:
                turn.nudges.append(firing.to_json())
                self.events.nudge(firing)
                if firing.stop:
                    turn.status, turn.message = "stopped", firing.message
                    self._settle(turn, state, stopped=True)
                    return
                state.nudges[firing.code] = state.nudges.get(firing.code, 0) + 1
                self.messages.append({"role": "user", "content": NUDGE_PREFIX + firing.message})
                continue
            if phase == r.PHASE_FINAL:
                self._settle(turn, state)
                return

    def _run_tools(self, reply: Reply, turn: TurnResult, state: _TurnState) -> None:
        for call in reply.tool_calls:
            if turn.tool_calls >= self.settings.max_tool_calls:
                outcome = ToolOutcome(
                    '{"error": {"code": "limit", "message": "the tool-call limit of this question is reached: answer now"}}', False, "limit"
                )
            else:
                outcome = self.toolbox.run(call.name, call.arguments)
                turn.tool_calls += 1
                arguments = _arguments(call.arguments)
                record = state.tracker.record(call.name, arguments, outcome.content, ok=outcome.ok)
                state.calls.append(r.ToolCall(call.name, outcome.ok, record.repeated))
                if outcome.ok and call.name == SUBMIT:
                    state.unverified_write = True
                elif outcome.ok and call.name == VERIFY:
                    state.unverified_write = False
                    state.verify_failed = not bool(outcome.data and outcome.data.get("verified"))
            self.events.tool(call.name, call.arguments, outcome)
            self.messages.append({"role": "tool", "tool_call_id": call.id, "content": outcome.content})

    def _context(self, phase: str, reply: Reply, turn: TurnResult, state: _TurnState) -> r.RuleContext:
        return r.RuleContext(
            phase=phase,
            finish_reason=reply.finish_reason,
            final_text=state.final_text if phase == r.PHASE_FINAL else _THINKING.sub("", reply.content).strip(),
            last_user_text=turn.question,
            tool_calls=state.calls,
            unverified_write=state.unverified_write,
            verify_failed=state.verify_failed,
            no_progress_streak=state.tracker.no_progress_streak,
            read_streak=state.tracker.read_streak,
            limit_usage=min(self._usage(turn, state), 1.0),
            delivery_required=True,
            audit_mode=self.settings.audit,
            nudges=state.nudges,
        )

    def _usage(self, turn: TurnResult, state: _TurnState) -> float:
        """The share used of the nearest limit: tool calls, seconds, tokens (when a budget is set and the server counts)."""
        shares = [turn.tool_calls / self.settings.max_tool_calls, (self.clock() - state.started) / self.settings.max_seconds]
        if self.settings.token_budget:
            shares.append(turn.tokens / self.settings.token_budget)
        return max(shares)

    def _end_on_limit(self, turn: TurnResult, state: _TurnState) -> None:
        used = []
        if turn.tool_calls >= self.settings.max_tool_calls:
            used.append(f"{turn.tool_calls} tool calls (limit {self.settings.max_tool_calls})")
        if self.clock() - state.started >= self.settings.max_seconds:
            used.append(f"{self.settings.max_seconds:g} s")
        if self.settings.token_budget and turn.tokens >= self.settings.token_budget:
            used.append(f"{turn.tokens:,} tokens (budget {self.settings.token_budget:,})")
        turn.status = "limit"
        turn.message = f"the question used its limit: {', '.join(used)}; raise max_tool_calls, max_seconds or token_budget in [ask]"
        self._settle(turn, state, stopped=True)

    def _settle(self, turn: TurnResult, state: _TurnState, stopped: bool = False) -> None:
        """What the turn delivers: the submitted draft with its citations checked, else the last reply as it is."""
        draft = self.toolbox.draft
        if draft is not None:
            turn.answer = draft
            turn.citations = check_citations(find_citations(draft), self.toolbox.reads)
            verified = self.toolbox.verification is not None and bool(self.toolbox.verification.get("verified"))
            if not stopped:
                turn.status = "answered" if verified and not state.unverified_write else "unverified"
        else:
            turn.answer = state.final_text or None
            turn.citations = check_citations(find_citations(state.final_text), self.toolbox.reads)
            if not stopped:
                turn.status = "undelivered"
        if not stopped and turn.status != "answered":
            turn.message = (
                "the answer's citations were not all verified"
                if turn.status == "unverified"
                else "the model answered without submitting a draft (does it support tool calls?)"
            )


@dataclass
class _TurnState:
    started: float
    tracker: r.CallTracker = field(default_factory=r.CallTracker)
    calls: list[r.ToolCall] = field(default_factory=list)
    nudges: dict[str, int] = field(default_factory=dict)
    unverified_write: bool = False
    verify_failed: bool = False
    final_text: str = ""


def _tokens(reply: Reply, messages: list[dict[str, Any]]) -> int:
    """The tokens a model call used: as the server counts them, else about four characters a token."""
    if reply.prompt_tokens is not None or reply.completion_tokens is not None:
        return (reply.prompt_tokens or 0) + (reply.completion_tokens or 0)
    written = len(reply.content) + sum(len(call.arguments) for call in reply.tool_calls)
    read = sum(len(str(message.get("content") or "")) for message in messages)
    return (written + read) // 4


def _arguments(raw: str) -> dict[str, Any]:
    import json

    try:
        value = json.loads(raw) if raw.strip() else {}
    except ValueError:
        return {"raw": raw}
    return value if isinstance(value, dict) else {"raw": raw}
