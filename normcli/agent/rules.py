"""The continuation rules that keep an agent on track, and the call counting they share with the MCP guard.

After each model reply the runner builds a `RuleContext` and asks `evaluate_rules` for the first rule
that fires: its message goes to the model instead of ending the turn (phase `final`) or beside the
tool results (phase `tools`). Pure Python, no I/O, no LLM library, no `dataclasses`: the MCP guard
imports this module too, and docs/agent.md describes every rule with its cap and threshold.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from typing import Any

# -- thresholds ----------------------------------------------------------------------------------

EXPLORATION_LIMIT = 4  # reads in a row before the agent is told to stop exploring (SPEC §3's budget)
AUDIT_EXPLORATION_LIMIT = 8  # the same in audit mode
NO_PROGRESS_NUDGE = 2  # repeated calls in a row (same call, same result) before a nudge
NO_PROGRESS_STOP = 4  # ... and before the definitive stop
WRAP_UP_SHARE = 0.8  # share of the nearest limit (tokens, tool calls, time) past which the agent concludes
GO_AHEAD_MAX_CHARS = 60  # a go-ahead is short: a longer message carries an instruction of its own

PHASE_FINAL = "final"  # the model replied without a tool call
PHASE_TOOLS = "tools"  # the model's tool calls have just run
PHASE_ANY = "any"

# What each tool does, for the streaks: reads explore, a write drafts, a verification checks the draft.
READ, ORIENTATION, RESET, WRITE, VERIFY, RUN = "read", "orientation", "reset", "write", "verify", "run"
TOOL_KINDS: dict[str, str] = {
    "whoami": ORIENTATION,
    "list_norms": ORIENTATION,
    "get_methodology": RESET,
    "get_toc": READ,
    "get_subtree": READ,
    "get_section": READ,
    "search_in_norm": READ,
    "search_corpus": READ,
    "get_cross_refs": READ,
    "get_figure": READ,
    "get_table": READ,
    "submit_answer": WRITE,
    "verify_citations": VERIFY,
}


def tool_kind(name: str) -> str:
    """The kind of a tool by its name; a tool this table does not know reads (it only looks)."""
    return TOOL_KINDS.get(name, READ)


# -- the context ---------------------------------------------------------------------------------


class ToolCall:
    """One tool call run in this turn: its name, its kind, whether it answered, whether it repeated an earlier one."""

    __slots__ = ("kind", "name", "ok", "repeated")

    def __init__(self, name: str, ok: bool = True, repeated: bool = False, kind: str | None = None) -> None:
        self.name = name
        self.ok = ok
        self.repeated = repeated
        self.kind = kind or tool_kind(name)

    def __repr__(self) -> str:
        return f"ToolCall({self.name!r}, ok={self.ok}, repeated={self.repeated})"


class RuleContext:
    """What the rules see after a model reply (the issue's camelCase names in brackets).

    phase (`phase`): `final` or `tools`; finish_reason (`finishReason`) of the last model call;
    final_text (`finalText`); last_user_text (`lastUserText`, nudges excluded); tool_calls
    (`toolCalls`) run in this turn; unverified_write (`unverifiedWrite`); verify_failed
    (`verifyFailed`); no_progress_streak (`noProgressStreak`); read_streak (`readStreak`);
    limit_usage (`limitUsage`, 0..1); delivery_required (`deliveryRequired`); audit_mode
    (`auditMode`); nudges (`nudges`) already sent in this turn, by rule code.
    """

    __slots__ = (
        "audit_mode",
        "delivery_required",
        "final_text",
        "finish_reason",
        "last_user_text",
        "limit_usage",
        "no_progress_streak",
        "nudges",
        "phase",
        "read_streak",
        "tool_calls",
        "unverified_write",
        "verify_failed",
    )

    def __init__(
        self,
        phase: str = PHASE_FINAL,
        finish_reason: str | None = "stop",
        final_text: str = "",
        last_user_text: str = "",
        tool_calls: Sequence[ToolCall] = (),
        unverified_write: bool = False,
        verify_failed: bool = False,
        no_progress_streak: int = 0,
        read_streak: int = 0,
        limit_usage: float = 0.0,
        delivery_required: bool = False,
        audit_mode: bool = False,
        nudges: Mapping[str, int] | None = None,
    ) -> None:
        self.phase = phase
        self.finish_reason = finish_reason
        self.final_text = final_text
        self.last_user_text = last_user_text
        self.tool_calls = tuple(tool_calls)
        self.unverified_write = unverified_write
        self.verify_failed = verify_failed
        self.no_progress_streak = no_progress_streak
        self.read_streak = read_streak
        self.limit_usage = limit_usage
        self.delivery_required = delivery_required
        self.audit_mode = audit_mode
        self.nudges = dict(nudges or {})

    def to_json(self) -> dict[str, Any]:
        """The context under the issue's camelCase names, for a transcript."""
        return {
            "phase": self.phase,
            "finishReason": self.finish_reason,
            "finalText": self.final_text,
            "lastUserText": self.last_user_text,
            "toolCalls": [call.name for call in self.tool_calls],
            "unverifiedWrite": self.unverified_write,
            "verifyFailed": self.verify_failed,
            "noProgressStreak": self.no_progress_streak,
            "readStreak": self.read_streak,
            "limitUsage": self.limit_usage,
            "deliveryRequired": self.delivery_required,
            "auditMode": self.audit_mode,
            "nudges": dict(self.nudges),
        }


def exploration_limit(audit_mode: bool) -> int:
    """Reads in a row allowed before the agent must act or answer: 4, or 8 in audit mode."""
    return AUDIT_EXPLORATION_LIMIT if audit_mode else EXPLORATION_LIMIT


# -- the rules -----------------------------------------------------------------------------------


class Rule:
    """A continuation rule: a code, a cap of nudges per turn (a number or a function of the context),
    the phase it applies to, and `check(ctx)` giving the nudge text or None. `ends(ctx)`, where given,
    says that firing now is a definitive stop rather than a nudge; a stop is never capped."""

    __slots__ = ("_check", "_ends", "cap", "code", "phase", "summary")

    def __init__(
        self,
        code: str,
        cap: int | Callable[[RuleContext], int],
        phase: str,
        check: Callable[[RuleContext], str | None],
        summary: str = "",
        ends: Callable[[RuleContext], bool] | None = None,
    ) -> None:
        self.code = code
        self.cap = cap
        self.phase = phase
        self._check = check
        self._ends = ends
        self.summary = summary

    def check(self, ctx: RuleContext) -> str | None:
        """The nudge for this context, or None when the rule does not fire."""
        return self._check(ctx)

    def cap_for(self, ctx: RuleContext) -> int:
        """The cap in force for this context."""
        return self.cap(ctx) if callable(self.cap) else self.cap

    def ends(self, ctx: RuleContext) -> bool:
        """Whether firing in this context stops the session for good."""
        return bool(self._ends and self._ends(ctx))

    def applies_to(self, phase: str) -> bool:
        """Whether the rule is evaluated in this phase."""
        return self.phase in (phase, PHASE_ANY)

    def __repr__(self) -> str:
        return f"Rule({self.code!r})"


class Firing:
    """The rule that fired, its message, and whether the session stops here."""

    __slots__ = ("code", "message", "stop")

    def __init__(self, code: str, message: str, stop: bool = False) -> None:
        self.code = code
        self.message = message
        self.stop = stop

    def to_json(self) -> dict[str, Any]:
        """`{rule, message, stop}` for a transcript."""
        return {"rule": self.code, "message": self.message, "stop": self.stop}

    def __repr__(self) -> str:
        return f"Firing({self.code!r}, stop={self.stop})"


def evaluate_rules(rules: Sequence[Rule], ctx: RuleContext) -> Firing | None:
    """The first rule, in order, that applies to the phase, is under its cap and fires; else None."""
    for rule in rules:
        if not rule.applies_to(ctx.phase):
            continue
        stop = rule.ends(ctx)
        if not stop and ctx.nudges.get(rule.code, 0) >= rule.cap_for(ctx):
            continue
        message = rule.check(ctx)
        if message:
            return Firing(rule.code, message, stop)
    return None


def _wrote(ctx: RuleContext) -> bool:
    return any(call.kind == WRITE and call.ok for call in ctx.tool_calls)


def _length_recovery(ctx: RuleContext) -> str | None:
    if ctx.finish_reason != "length":
        return None
    return (
        "Your last reply was cut off at the output limit. Continue exactly where you stopped, without repeating what you "
        "already wrote; if you were writing the answer, submit it in parts that fit."
    )


def _empty_final_response(ctx: RuleContext) -> str | None:
    if ctx.final_text.strip() or _wrote(ctx):
        return None
    return (
        "Your reply was empty. Answer the question with the tools (read, then submit_answer and verify_citations), or say what is missing."
    )


def _go_ahead(ctx: RuleContext) -> str | None:
    if ctx.tool_calls or not is_go_ahead(ctx.last_user_text):
        return None
    return "The user has already told you to go ahead. Do the work now with the tools instead of asking again."


def _no_action(ctx: RuleContext) -> str | None:
    if not announces_work(ctx.final_text):
        return None
    return "You announced an action but did not take it. Call the tool now, or give the answer if you already have what you need."


def _remaining_work(ctx: RuleContext) -> str | None:
    if not lists_remaining_work(ctx.final_text):
        return None
    return (
        "Your reply hands back while work of the request is still open and not left to the user. "
        "Do that work now with the tools, then deliver the answer."
    )


def _delivery(ctx: RuleContext) -> str | None:
    if not ctx.delivery_required or _wrote(ctx):
        return None
    return (
        "The answer must be delivered with submit_answer(answer=...): call it with the full answer and its citations "
        "[CODE:EDITION, path, p. N], then call verify_citations."
    )


def _verify_before_done(ctx: RuleContext) -> str | None:
    if not ctx.unverified_write:
        return None
    return "The draft changed after the last verification. Call verify_citations before you finish."


def _verify_failed(ctx: RuleContext) -> str | None:
    if not ctx.verify_failed:
        return None
    return (
        "The last verify_citations failed. Read the sections it named with get_section (or correct the path and page), "
        "submit the corrected answer with submit_answer, then verify again. Never keep a citation you have not read."
    )


def _no_progress(ctx: RuleContext) -> str | None:
    if ctx.no_progress_streak >= NO_PROGRESS_STOP:
        return f"Stopped: {ctx.no_progress_streak} calls in a row repeated earlier calls with the same result, so the agent was making no progress."
    if ctx.no_progress_streak < NO_PROGRESS_NUDGE:
        return None
    return (
        f"Your last {ctx.no_progress_streak} calls repeated earlier calls and got the same results. Use what you already have "
        "(to read on in a long section, pass offset=nextOffset), try another clause, or answer."
    )


def _wrap_up(ctx: RuleContext) -> str | None:
    if ctx.limit_usage < WRAP_UP_SHARE:
        return None
    return (
        f"{round(ctx.limit_usage * 100)}% of this session's limit is used. Conclude now with what you have read: "
        "submit_answer with the citations you verified, and say plainly what remains open."
    )


def _exploration(ctx: RuleContext) -> str | None:
    limit = exploration_limit(ctx.audit_mode)
    if ctx.read_streak < limit:
        return None
    return (
        f"You have made {ctx.read_streak} reads in a row (limit {limit}{' in audit mode' if ctx.audit_mode else ''}). "
        "Stop exploring: answer with what you have read (submit_answer, then verify_citations), "
        "or say exactly which clause or norm is still missing."
    )


RULE_CODES = (
    "length_recovery",
    "empty_final_response",
    "go_ahead",
    "no_action",
    "remaining_work",
    "delivery",
    "verify_before_done",
    "verify_failed",
    "no_progress",
    "wrap_up",
    "exploration",
)


def default_rules() -> list[Rule]:
    """The eleven rules in evaluation order; a new list (and new rules) on each call, free to change."""
    return [
        Rule("length_recovery", 3, PHASE_ANY, _length_recovery, "the model stopped on its output limit: continue where it stopped"),
        Rule("empty_final_response", 2, PHASE_FINAL, _empty_final_response, "the reply is empty and nothing was submitted"),
        Rule("go_ahead", 1, PHASE_FINAL, _go_ahead, "the user only said go ahead, and the model asked again instead of acting"),
        Rule("no_action", 2, PHASE_FINAL, _no_action, "the reply announces an action it did not take"),
        Rule("remaining_work", 2, PHASE_FINAL, _remaining_work, "the reply hands back with unfinished work not left to the user"),
        Rule("delivery", 2, PHASE_FINAL, _delivery, "the flow needs submit_answer before the answer"),
        Rule("verify_before_done", 2, PHASE_FINAL, _verify_before_done, "the draft changed after the last verification"),
        Rule("verify_failed", 3, PHASE_FINAL, _verify_failed, "the last verification failed and none passed since"),
        Rule(
            "no_progress",
            1,
            PHASE_TOOLS,
            _no_progress,
            "calls repeat earlier ones with the same result: a nudge, then a stop",
            ends=lambda ctx: ctx.no_progress_streak >= NO_PROGRESS_STOP,
        ),
        Rule("wrap_up", 1, PHASE_TOOLS, _wrap_up, "past a share of the nearest limit: conclude"),
        Rule("exploration", lambda ctx: 2 if ctx.audit_mode else 1, PHASE_TOOLS, _exploration, "too many reads in a row: act or answer"),
    ]


# -- counting calls (shared with the MCP budget guard) ---------------------------------------------


def fingerprint(value: Any) -> str:
    """A short stable digest of a JSON-able value (a call's arguments or its result)."""
    import hashlib
    import json

    text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class CallRecord:
    """What the tracker made of one call: its number, the read streak after it, and the earlier call it repeats."""

    __slots__ = ("kind", "number", "read_streak", "repeats")

    def __init__(self, number: int, kind: str, read_streak: int, repeats: int | None) -> None:
        self.number = number
        self.kind = kind
        self.read_streak = read_streak
        self.repeats = repeats

    @property
    def repeated(self) -> bool:
        """Whether this call repeated an earlier one with the same arguments and the same result."""
        return self.repeats is not None


class CallTracker:
    """Counts a session's tool calls: reads in a row (`read_streak`) and repeats in a row (`no_progress_streak`).

    A read adds one to the read streak; a write, a run or a verification ends it, and so does a reset
    tool (a new question); orientation tools and failed calls leave it as it is. A call repeats when an
    earlier call had the same tool, the same arguments (None values left out) and the same result.
    """

    def __init__(self) -> None:
        self.calls = 0
        self.read_streak = 0
        self.no_progress_streak = 0
        self._seen: dict[str, tuple[int, str]] = {}

    def record(self, tool: str, arguments: Mapping[str, Any], result: Any, ok: bool = True) -> CallRecord:
        """Count one call of `tool` that gave `result`; `ok` false means it failed and read nothing."""
        self.calls += 1
        kind = tool_kind(tool)
        if kind in (WRITE, VERIFY, RUN, RESET):
            self.read_streak = 0
        elif kind == READ and ok:
            self.read_streak += 1
        key = fingerprint([tool, {name: value for name, value in sorted(arguments.items()) if value is not None}])
        digest = fingerprint(result)
        earlier = self._seen.get(key)
        repeats = earlier[0] if earlier is not None and earlier[1] == digest else None
        self._seen[key] = (self.calls, digest)
        self.no_progress_streak = self.no_progress_streak + 1 if repeats is not None else 0
        return CallRecord(self.calls, kind, self.read_streak, repeats)

    def reset_reads(self) -> None:
        """Start a new run of reads (the agent answered, or a new question began)."""
        self.read_streak = 0


# -- the three text tests --------------------------------------------------------------------------

_APOSTROPHES = str.maketrans({"’": "'", "‘": "'", "`": "'", "ʼ": "'"})


def _words(text: str) -> list[str]:
    """Lowercase words of `text`, split at spaces, hyphens and apostrophes (`vas-y` → vas, y)."""
    cleaned = re.sub(r"[^\w]+", " ", text.translate(_APOSTROPHES).lower().replace("_", " "))
    return cleaned.split()


def _phrases(*items: str) -> list[tuple[str, ...]]:
    return sorted({tuple(_words(item)) for item in items}, key=len, reverse=True)


_GO_AHEAD = _phrases(
    # English
    "go", "go ahead", "go on", "go for it", "ok", "okay", "k", "yes", "yeah", "yep", "yup", "sure", "continue", "proceed",
    "do it", "do that", "carry on", "keep going", "sounds good", "fine", "alright", "all right", "please do", "let's go",
    "let's do it", "next", "start", "right", "perfect", "great", "lgtm", "absolutely", "of course", "agreed", "approved",
    "resume", "yes please", "go go", "ok go", "ship it", "make it so",
    # French
    "vas-y", "vas y", "va-y", "allez", "allez-y", "oui", "ouais", "d'accord", "dac", "daccord", "continue", "continuez",
    "poursuis", "poursuivez", "fais-le", "faites-le", "fais", "faites", "c'est bon", "parfait", "bien sûr", "très bien",
    "tres bien", "entendu", "lance-toi", "lance", "commence", "commencez", "procède", "procédez", "procede", "en avant",
    "on y va", "allons-y", "tout à fait", "super", "nickel", "ça marche", "ca marche", "volontiers", "banco", "top",
)  # fmt: skip
_FILLER = _phrases(
    "please", "pls", "plz", "thanks", "thank you", "thx", "then", "now", "just", "and", "so", "well",
    "svp", "stp", "s'il te plaît", "s'il vous plaît", "s'il te plait", "s'il vous plait", "merci", "alors", "maintenant",
    "et", "donc", "bon", "bah", "ben",
)  # fmt: skip


def is_go_ahead(text: str) -> bool:
    """Whether the user's message is only a go-ahead ("go", "ok continue", "vas-y"): at most 60 characters
    once cleaned, not a question, and nothing in it but go-ahead words and politeness."""
    stripped = text.strip()
    if not stripped or stripped.rstrip(" .!…)*_").endswith("?"):
        return False
    words = _words(stripped)
    if not words or len(" ".join(words)) > GO_AHEAD_MAX_CHARS:
        return False
    index, found = 0, False
    while index < len(words):
        for phrases, is_go in ((_GO_AHEAD, True), (_FILLER, False)):
            match = next((phrase for phrase in phrases if tuple(words[index : index + len(phrase)]) == phrase), None)
            if match:
                index += len(match)
                found = found or is_go
                break
        else:
            return False
    return found


_SENTENCES = re.compile(r"(?<=[.!?…;:])\s+|\n+")
# A promise of an imminent action: a first-person future or a "let me", then (within two words) a verb of work.
_WORK_VERBS = (
    r"(?:read|re-?read|check|look|search|verif|open|consult|fetch|retriev|find|examin|review|follow|pull|go through|dig|"
    r"explor|call|submit|query|inspect|start|begin|proceed|continu|trac|"
    r"lir|lis|relir|vérifi|verifi|regard|cherch|recherch|ouvr|parcour|suiv|récupér|recuper|soumet|contrôl|control|appel|trouv|"
    r"commenc|poursuiv|examin|analys|analyz|interrog|consult)\w*"
)
_PROMISE = re.compile(
    r"\b(?:i\s*'ll|i will|i shall|i am going to|i'm going to|i am about to|i'm about to|i'm now going to|let me|let's|"
    r"i am now|i'm now|"
    r"je vais|je m'en vais|laisse[zr]?[- ]moi|permettez[- ]moi de|je m'apprête à|je commence par|je passe à|nous allons|on va)"
    r"(?:\s+\w+){0,2}?\s+" + _WORK_VERBS,
    re.IGNORECASE,
)
_FIRST_PERSON_PLURAL_IMPERATIVE = re.compile(
    r"^\W*(?:voyons|vérifions|verifions|lisons|regardons|consultons|cherchons|examinons|passons|suivons|ouvrons)\b", re.IGNORECASE
)
# French announces with the present tense too: "Je consulte maintenant l'annexe A."
_FRENCH_PRESENT = re.compile(
    r"\bje (?:consulte|vérifie|verifie|regarde|lis|relis|cherche|recherche|ouvre|examine|parcours|suis|lance|soumets)\b"
    r"(?:\s+\S+){0,3}?\s+(?:maintenant|d'abord|à présent|a present|ensuite|tout de suite)\b",
    re.IGNORECASE,
)
_CONDITIONAL = re.compile(
    r"(?:^\W*(?:if|unless|should you|si|sauf si)\b|\b(?:if you|if needed|if necessary|if required|if useful|when you|once you|"
    r"would|could|might|let me know|si vous|si tu|si besoin|si nécessaire|si necessaire|au besoin|s'il le faut|lorsque vous|"
    r"quand vous|dès que vous|pourrais|pourrait|pourrions|voudriez|souhaitez|voulez|dites-moi|faites-moi savoir)\b)",
    re.IGNORECASE,
)
_NEGATED = re.compile(r"\b(?:will not|won't|shall not|am not going|i'm not going|ne vais pas|n'allons pas|ne vais plus)\b", re.IGNORECASE)
_LEFT_TO_USER = re.compile(
    r"\b(?:you (?:still )?(?:need|have|should|must|may|might|can|could|will want|will need)|for you|up to you|left to you|"
    r"your (?:side|part|engineer)|the user|you'll (?:need|have|want)|"
    r"vous (?:devez|devrez|pouvez|pourrez|avez à|aurez à)|à vous|pour vous|il vous reste|votre part|tu dois|tu peux|à toi|"
    r"l'utilisateur|l'ingénieur)\b",
    re.IGNORECASE,
)


def _sentences(text: str) -> list[str]:
    return [sentence.strip() for sentence in _SENTENCES.split(text.translate(_APOSTROPHES)) if sentence.strip()]


def _promises(sentence: str) -> bool:
    if sentence.rstrip(' *_)»"').endswith("?") or _CONDITIONAL.search(sentence) or _NEGATED.search(sentence):
        return False
    if _LEFT_TO_USER.search(sentence):
        return False
    return bool(_PROMISE.search(sentence) or _FIRST_PERSON_PLURAL_IMPERATIVE.search(sentence) or _FRENCH_PRESENT.search(sentence))


def announces_work(text: str) -> bool:
    """Whether a sentence of `text` that is not a question promises an imminent action ("Let me check 4.2.3.",
    "Je vais lire la section 4.2.1."), unless it is conditional or left to the user."""
    return any(_promises(sentence) for sentence in _sentences(text))


_REMAINING = re.compile(
    r"\b(?:remaining (?:steps|work|tasks|items|checks)|still (?:need|have) to|still to (?:do|be done|check|read|verify|follow)|"
    r"not yet (?:been )?(?:read|checked|verified|done|reviewed|consulted|looked|followed|opened)|"
    r"have(?:n't| not) (?:yet )?(?:read|checked|verified|looked|consulted|reviewed|followed|opened)\b.*\byet|"
    r"next steps?\s*:|to ?do\s*:|todo\b|pending\s*:|remains? to be (?:done|checked|read|verified)|left to (?:do|check|read|verify)|"
    r"i (?:still )?need to (?:read|check|verify|look|consult|follow|review|open)|"
    r"reste à (?:faire|vérifier|verifier|lire|consulter|contrôler|suivre|examiner)|il reste (?:à|encore)|"
    r"encore à (?:faire|vérifier|verifier|lire|consulter|contrôler|suivre|examiner)|prochaines? étapes?|"
    r"pas encore (?:été )?(?:lu|lue|lus|vérifié|vérifiée|verifie|consulté|consultée|fait|faite|examiné|contrôlé|suivi|ouvert)|"
    r"je dois encore|je dois (?:d'abord |aussi )?(?:vérifier|verifier|lire|consulter|contrôler|suivre|examiner|relire)|il me reste|il me faut encore|à faire\s*:|en attente\s*:)",
    re.IGNORECASE,
)


def lists_remaining_work(text: str) -> bool:
    """Whether the reply lists unfinished work of the request that is not left to the user ("Remaining steps:
    read 4.2.3", "Il reste à vérifier 4.2.2"), or announces work it has not done (`announces_work`)."""
    for sentence in _sentences(text):
        if _REMAINING.search(sentence) and not _LEFT_TO_USER.search(sentence) and not sentence.rstrip(" *_").endswith("?"):
            return True
    return announces_work(text)
