"""The continuation rules, one table per rule: each fires exactly when its definition says, in order, under its cap."""

from __future__ import annotations

import subprocess
import sys

import pytest

from normcli.agent import rules as r
from normcli.agent.rules import RuleContext, ToolCall, default_rules, evaluate_rules

READS = (ToolCall("get_toc"), ToolCall("get_section"))
SUBMITTED = (ToolCall("get_section"), ToolCall("submit_answer"))


def fired(ctx: RuleContext) -> str | None:
    """The code of the rule that fires first for `ctx`, or None."""
    firing = evaluate_rules(default_rules(), ctx)
    return firing.code if firing else None


def only(code: str, ctx: RuleContext) -> str | None:
    """Whether the rule `code` alone fires for `ctx` (its phase and cap respected): its message or None."""
    rule = next(rule for rule in default_rules() if rule.code == code)
    firing = evaluate_rules([rule], ctx)
    return firing.message if firing else None


def final(text: str = "Here is the answer [SIA 261:2020, 4.2.1, p. 17].", **fields) -> RuleContext:
    """A final reply that delivered a verified answer, unless `fields` say otherwise."""
    fields.setdefault("tool_calls", SUBMITTED)
    return RuleContext(phase=r.PHASE_FINAL, final_text=text, **fields)


def tools(**fields) -> RuleContext:
    """The context after a batch of tool calls."""
    return RuleContext(phase=r.PHASE_TOOLS, tool_calls=fields.pop("tool_calls", READS), **fields)


def test_there_are_eleven_rules_in_the_order_of_the_contract_and_a_new_list_each_call() -> None:
    first, second = default_rules(), default_rules()
    assert [rule.code for rule in first] == list(r.RULE_CODES)
    assert r.RULE_CODES == (
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
    assert first is not second and all(a is not b for a, b in zip(first, second, strict=True))
    first.pop()
    assert len(default_rules()) == 11
    for rule in second:
        assert rule.phase in (r.PHASE_FINAL, r.PHASE_TOOLS, r.PHASE_ANY)
        assert rule.cap_for(RuleContext()) >= 1 and callable(rule.check)


def test_a_clean_delivered_answer_ends_the_turn() -> None:
    assert fired(final()) is None
    assert fired(tools(tool_calls=(ToolCall("get_toc"),), read_streak=1)) is None


# -- one table per rule: (context, fires?) ---------------------------------------------------------

CASES: dict[str, list[tuple[RuleContext, bool]]] = {
    "length_recovery": [
        (final(finish_reason="length"), True),
        (tools(finish_reason="length"), True),
        (final(finish_reason="stop"), False),
        (final(finish_reason="tool_calls"), False),
        (final(finish_reason=None), False),
    ],
    "empty_final_response": [
        (final("", tool_calls=()), True),
        (final("  \n ", tool_calls=READS), True),
        (final("", tool_calls=SUBMITTED), False),  # the answer went through submit_answer
        (final("", tool_calls=(ToolCall("submit_answer", ok=False),)), True),
        (final("Voici la réponse.", tool_calls=()), False),
        (tools(final_text=""), False),
    ],
    "go_ahead": [
        (final("Shall I read 4.2.1?", tool_calls=(), last_user_text="vas-y"), True),
        (final("Do you want me to start?", tool_calls=(), last_user_text="ok continue"), True),
        (final("Shall I read 4.2.1?", tool_calls=(), last_user_text="What is the snow load at 800 m?"), False),
        (final("Done.", tool_calls=READS, last_user_text="go"), False),  # it acted
        (tools(last_user_text="go", tool_calls=()), False),
    ],
    "no_action": [
        (final("Let me check clause 4.2.3 first."), True),
        (final("Je vais maintenant consulter la section 4.2.2."), True),
        (final("Should I check clause 4.2.3?"), False),
        (final("If you want, I can check clause 4.2.3."), False),
        (final("La charge vaut 1,2 kN/m² [SIA 261:2020, 4.2.1, p. 17]."), False),
        (tools(final_text="Let me check clause 4.2.3."), False),
    ],
    "remaining_work": [
        (final("The load is 1.2 kN/m².\n\nRemaining steps:\n- read 4.2.3\n- follow SIA 260"), True),
        (final("Il reste à vérifier le coefficient d'exposition de 4.2.4."), True),
        (final("Next steps for you: have the local annex checked by your engineer."), False),
        (final("Vous devez encore vérifier les prescriptions cantonales."), False),
        (final("The load is 1.2 kN/m² [SIA 261:2020, 4.2.1, p. 17]."), False),
    ],
    "delivery": [
        (final("The answer is 1.2 kN/m².", tool_calls=READS, delivery_required=True), True),
        (final("The answer is 1.2 kN/m².", tool_calls=(ToolCall("submit_answer", ok=False),), delivery_required=True), True),
        (final("Delivered.", tool_calls=SUBMITTED, delivery_required=True), False),
        (final("The answer is 1.2 kN/m².", tool_calls=READS, delivery_required=False), False),
    ],
    "verify_before_done": [
        (final(unverified_write=True), True),
        (final(unverified_write=False), False),
        (tools(unverified_write=True), False),
    ],
    "verify_failed": [
        (final(verify_failed=True), True),
        (final(verify_failed=False), False),
        (tools(verify_failed=True), False),
    ],
    "no_progress": [
        (tools(no_progress_streak=r.NO_PROGRESS_NUDGE - 1), False),
        (tools(no_progress_streak=r.NO_PROGRESS_NUDGE), True),
        (tools(no_progress_streak=r.NO_PROGRESS_STOP), True),
        (final(no_progress_streak=r.NO_PROGRESS_STOP), False),
    ],
    "wrap_up": [
        (tools(limit_usage=r.WRAP_UP_SHARE), True),
        (tools(limit_usage=0.95), True),
        (tools(limit_usage=r.WRAP_UP_SHARE - 0.01), False),
        (final(limit_usage=0.95), False),
    ],
    "exploration": [
        (tools(read_streak=r.EXPLORATION_LIMIT), True),
        (tools(read_streak=r.EXPLORATION_LIMIT - 1), False),
        (tools(read_streak=r.EXPLORATION_LIMIT, audit_mode=True), False),
        (tools(read_streak=r.AUDIT_EXPLORATION_LIMIT - 1, audit_mode=True), False),
        (tools(read_streak=r.AUDIT_EXPLORATION_LIMIT, audit_mode=True), True),
        (final(read_streak=r.EXPLORATION_LIMIT), False),
    ],
}


@pytest.mark.parametrize(("code", "index"), [(code, index) for code, cases in CASES.items() for index in range(len(cases))])
def test_each_rule_fires_exactly_when_its_definition_says(code: str, index: int) -> None:
    ctx, fires = CASES[code][index]
    assert bool(only(code, ctx)) is fires, ctx.to_json()


def test_every_rule_has_a_table() -> None:
    assert set(CASES) == set(r.RULE_CODES)


def test_thresholds_are_the_contracts() -> None:
    from normcli.methodology import AUDIT_BUDGET, READ_BUDGET

    assert (r.EXPLORATION_LIMIT, r.AUDIT_EXPLORATION_LIMIT) == (4, 8) == (READ_BUDGET, AUDIT_BUDGET)
    assert r.GO_AHEAD_MAX_CHARS == 60
    assert r.NO_PROGRESS_NUDGE < r.NO_PROGRESS_STOP
    assert 0 < r.WRAP_UP_SHARE < 1


# -- order and caps -----------------------------------------------------------------------------


def test_the_first_rule_in_order_wins() -> None:
    everything = final(
        "",
        tool_calls=(),
        finish_reason="length",
        last_user_text="go",
        delivery_required=True,
        unverified_write=True,
        verify_failed=True,
    )
    order = ["length_recovery", "empty_final_response", "go_ahead", "delivery", "verify_before_done", "verify_failed"]
    nudges: dict[str, int] = {}
    for code in order:
        assert fired(RuleContext(**{**_fields(everything), "nudges": nudges})) == code
        nudges[code] = 99  # every cap used up: the next rule in order speaks
    assert fired(RuleContext(**{**_fields(everything), "nudges": nudges})) is None
    announcing = final("Let me check 4.2.3. Remaining steps: read 4.2.4.", tool_calls=(), delivery_required=True)
    assert fired(announcing) == "no_action"
    assert fired(RuleContext(**{**_fields(announcing), "nudges": {"no_action": 2}})) == "remaining_work"
    assert fired(RuleContext(**{**_fields(announcing), "nudges": {"no_action": 2, "remaining_work": 2}})) == "delivery"
    busy = tools(no_progress_streak=2, limit_usage=0.9, read_streak=9)
    assert fired(busy) == "no_progress"
    assert fired(RuleContext(**{**_fields(busy), "nudges": {"no_progress": 1}})) == "wrap_up"
    assert fired(RuleContext(**{**_fields(busy), "nudges": {"no_progress": 1, "wrap_up": 1}})) == "exploration"


def _fields(ctx: RuleContext) -> dict:
    return {name: getattr(ctx, name) for name in RuleContext.__slots__}


@pytest.mark.parametrize("code", r.RULE_CODES)
def test_caps_are_respected(code: str) -> None:
    ctx = next(ctx for ctx, fires in CASES[code] if fires)
    rule = next(rule for rule in default_rules() if rule.code == code)
    cap = rule.cap_for(ctx)
    for sent in range(cap):
        assert only(code, RuleContext(**{**_fields(ctx), "nudges": {code: sent}})), f"nudge {sent + 1} of {cap}"
    capped = RuleContext(**{**_fields(ctx), "nudges": {code: cap}})
    assert only(code, capped) is None or rule.ends(capped), "past its cap a rule is silent (a stop excepted)"


def test_exploration_has_a_cap_that_depends_on_the_mode() -> None:
    rule = next(rule for rule in default_rules() if rule.code == "exploration")
    assert callable(rule.cap)
    assert (rule.cap_for(RuleContext()), rule.cap_for(RuleContext(audit_mode=True))) == (1, 2)


def test_no_progress_nudges_then_stops_for_good_whatever_its_cap() -> None:
    nudge = evaluate_rules(default_rules(), tools(no_progress_streak=r.NO_PROGRESS_NUDGE))
    assert nudge and nudge.code == "no_progress" and not nudge.stop
    capped = tools(no_progress_streak=r.NO_PROGRESS_NUDGE + 1, nudges={"no_progress": 1})
    assert fired(capped) != "no_progress"
    stop = evaluate_rules(default_rules(), tools(no_progress_streak=r.NO_PROGRESS_STOP, nudges={"no_progress": 1}))
    assert stop and stop.code == "no_progress" and stop.stop and stop.message.startswith("Stopped")


def test_a_rule_of_the_other_phase_is_never_asked() -> None:
    asked: list[str] = []

    def check(ctx: RuleContext) -> str | None:
        asked.append(ctx.phase)
        return "x"

    rule = r.Rule("custom", 1, r.PHASE_TOOLS, check)
    assert evaluate_rules([rule], RuleContext(phase=r.PHASE_FINAL)) is None and asked == []
    firing = evaluate_rules([rule], RuleContext(phase=r.PHASE_TOOLS))
    assert firing and firing.to_json() == {"rule": "custom", "message": "x", "stop": False}


# -- the text tests, in English and French --------------------------------------------------------

GO_AHEAD = [
    ("go", True),
    ("Go ahead.", True),
    ("ok continue", True),
    ("OK, thanks!", True),
    ("yes please", True),
    ("sure, proceed", True),
    ("keep going 👍", True),
    ("vas-y", True),
    ("Vas-y !", True),
    ("d'accord, continue", True),
    ("d’accord", True),
    ("Allez-y, poursuivez svp", True),
    ("oui stp", True),
    ("c'est bon, on y va", True),
    ("thanks", False),  # politeness alone
    ("merci", False),
    ("ok?", False),  # a question
    ("vas-y ?", False),
    ("", False),
    ("go ahead and compute the snow load for zone 2", False),
    ("vas-y, calcule la charge de neige", False),
    ("What is the snow load on a flat roof at 800 m?", False),
    ("ok " * 25, False),  # only go-ahead words, but past 60 characters
]


@pytest.mark.parametrize(("text", "expected"), GO_AHEAD)
def test_is_go_ahead(text: str, expected: bool) -> None:
    assert r.is_go_ahead(text) is expected


def test_the_go_ahead_limit_is_on_the_cleaned_message() -> None:
    assert r.is_go_ahead("ok " * 20 + "!!!!!!!!!!!!!!!!!!!!")  # 59 characters once cleaned
    assert not r.is_go_ahead("ok " * 21)


ANNOUNCES = [
    ("Let me check clause 4.2.3.", True),
    ("I'll now read section 4.2.1 for the exposure factor.", True),
    ("I will search the corpus for 'charge de neige'.", True),
    ("The load is 1.2 kN/m². Next, I'm going to verify the citations.", True),
    ("Je vais lire la section 4.2.1.", True),
    ("Je vais maintenant vérifier les références croisées.", True),
    ("Vérifions la clause 4.2.2.", True),
    ("Laissez-moi consulter l'annexe A.", True),
    ("Je consulte maintenant l'annexe A.", True),
    ("Je vérifie d'abord la clause 4.2.3.", True),
    ("I'll read section 4.2.2 next to confirm the shape coefficient.", True),
    ("Je consulte régulièrement cette norme.", False),  # a habit, not an imminent action
    ("Should I check clause 4.2.3?", False),  # a question
    ("Voulez-vous que je lise 4.2.3 ?", False),
    ("If you want, I will check clause 4.2.3.", False),  # conditional
    ("Si vous le souhaitez, je vais vérifier 4.2.3.", False),
    ("I could read 4.2.3 as well.", False),
    ("Let me know if you need the German version.", False),
    ("You should check the cantonal rules yourself.", False),  # left to the user
    ("Vous pouvez vérifier les prescriptions cantonales.", False),
    ("I will not check the draft edition.", False),  # negated
    ("Now I have read 4.2.1: the load is 1.2 kN/m².", False),  # done, not promised
    ("La charge vaut 1,2 kN/m² [SIA 261:2020, 4.2.1, p. 17].", False),
]


@pytest.mark.parametrize(("text", "expected"), ANNOUNCES)
def test_announces_work(text: str, expected: bool) -> None:
    assert r.announces_work(text) is expected


REMAINING = [
    ("Remaining steps:\n- read 4.2.3\n- follow SIA 260, 4.4.3", True),
    ("I have not yet checked clause 4.2.4.", True),
    ("I still need to read the exposure factor in 4.2.4.", True),
    ("TODO: verify the citations.", True),
    ("Il reste à vérifier le coefficient de 4.2.4.", True),
    ("La clause 4.2.3 n'a pas encore été lue.", True),
    ("Prochaines étapes : lire 4.2.3 et 4.2.4.", True),
    ("Je dois encore consulter l'annexe A.", True),
    ("Je dois d'abord vérifier le coefficient d'exposition.", True),
    ("Vous devez d'abord vérifier la zone de neige.", False),
    ("Let me check clause 4.2.3.", True),  # announced and not done
    ("Next steps for you: have the local annex checked.", False),  # left to the user
    ("You still need to check the cantonal rules.", False),
    ("Il vous reste à vérifier les prescriptions cantonales.", False),
    ("Vous devez encore faire valider ces valeurs.", False),
    ("The 2026 edition is not yet published.", False),
    ("The load is 1.2 kN/m² [SIA 261:2020, 4.2.1, p. 17].", False),
    ("Do you want me to read what remains to be checked?", False),
]


@pytest.mark.parametrize(("text", "expected"), REMAINING)
def test_lists_remaining_work(text: str, expected: bool) -> None:
    assert r.lists_remaining_work(text) is expected


# -- the call tracker (shared with the MCP guard) ---------------------------------------------------


def test_the_tracker_counts_reads_in_a_row_and_repeats_in_a_row() -> None:
    tracker = r.CallTracker()
    assert tracker.record("get_toc", {"code": "SIA 261"}, {"tree": 1}).read_streak == 1
    assert tracker.record("list_norms", {}, {"norms": []}).read_streak == 1, "orientation neither counts nor breaks"
    assert tracker.record("get_section", {"code": "X", "path": "9"}, {"error": "no"}, ok=False).read_streak == 1
    again = tracker.record("get_toc", {"code": "SIA 261", "edition": None}, {"tree": 1})
    assert again.repeated and again.repeats == 1 and tracker.no_progress_streak == 1 and again.read_streak == 2
    assert tracker.record("get_toc", {"code": "SIA 261"}, {"tree": 1}).repeats == 4
    assert tracker.no_progress_streak == 2
    changed = tracker.record("get_toc", {"code": "SIA 261"}, {"tree": 2})
    assert not changed.repeated and tracker.no_progress_streak == 0
    assert tracker.record("submit_answer", {"answer": "x"}, {"ok": True}).read_streak == 0
    tracker.record("get_toc", {"code": "A"}, 1)
    assert tracker.record("verify_citations", {}, {"verified": True}).read_streak == 0
    tracker.record("get_toc", {"code": "B"}, 1)
    assert tracker.record("get_methodology", {}, {"text": ""}).read_streak == 0


def test_importing_the_rules_loads_no_llm_library_and_nothing_heavy() -> None:
    probe = (
        "import sys; import normcli.agent.rules\n"
        "heavy = ('openai', 'llm', 'httpx', 'requests', 'typer', 'rich', 'mcp', 'dataclasses', 'typing', 'json', 'hashlib', 'sqlite3')\n"
        "print(sorted(name for name in heavy if name in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_docs_describe_every_rule_with_its_phase_and_cap_in_order() -> None:
    from pathlib import Path

    docs = (Path(__file__).resolve().parents[2] / "docs" / "agent.md").read_text(encoding="utf-8")
    rows = [line.split("|")[1:-1] for line in docs.splitlines() if line.startswith("| ") and line.split("|")[2].strip().startswith("`")]
    table = [(cells[1].strip().strip("`"), cells[2].strip(), cells[3].strip()) for cells in rows if cells[0].strip().isdigit()]
    assert [code for code, _, _ in table] == list(r.RULE_CODES)
    for rule, (_, phase, cap) in zip(default_rules(), table, strict=True):
        assert phase == rule.phase
        assert cap.startswith(str(rule.cap_for(RuleContext()))), rule.code
    for name in (
        "EXPLORATION_LIMIT = 4",
        "AUDIT_EXPLORATION_LIMIT = 8",
        "NO_PROGRESS_NUDGE = 2",
        "NO_PROGRESS_STOP = 4",
        "WRAP_UP_SHARE = 0.8",
    ):
        constant, value = name.split(" = ")
        assert name in docs and str(getattr(r, constant)) == value
    for code in r.RULE_CODES:
        assert f"**{code}**" in docs, f"an example for {code}"


def test_the_mcp_guard_counts_with_the_same_tracker() -> None:
    from normcli.mcp.guard import BudgetGuard, McpSettings

    guard = BudgetGuard(McpSettings())
    assert isinstance(guard.tracker, r.CallTracker)
    assert McpSettings().read_budget == r.EXPLORATION_LIMIT and McpSettings().audit_budget == r.AUDIT_EXPLORATION_LIMIT
    notes = [guard.record("get_section", {"code": "SIA 261", "path": "4.2.1"}, {"same": True}) for _ in range(r.EXPLORATION_LIMIT + 1)]
    assert [note.reads for note in notes] == list(range(1, r.EXPLORATION_LIMIT + 2))
    assert [note.repeated for note in notes] == [False] + [True] * r.EXPLORATION_LIMIT
    assert guard.tracker.no_progress_streak == r.EXPLORATION_LIMIT
    assert [any(line.startswith("Budget:") for line in note.lines) for note in notes] == [False] * r.EXPLORATION_LIMIT + [True]
