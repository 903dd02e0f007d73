"""Whole `ask` sessions against a scripted chat-completions server on 127.0.0.1, streamed and not.

Each story scripts what a model would do and checks which continuation rules the runner sent, and
what was delivered. Citations in the scripts are built from the tool results the model received,
as a model builds them, so no page number is taken from the code under test.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from chat_server import ScriptedModel, Turn, chat_server

from normcli.agent.client import ChatClient
from normcli.agent.config import AskSettings
from normcli.agent.runner import Session, TurnResult

SNOW = {"code": "SIA 261", "path": "4.2.1"}
QUESTION = "Quelle est la charge de neige sur le sol à 800 m ?"


def last_section(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The last get_section answer the model received."""
    for message in reversed(messages):
        if message["role"] == "tool":
            data = json.loads(message["content"])
            if "section" in data:
                return data["section"]
    raise AssertionError("no section was read")


def cite(section: dict[str, Any], page: int | None = None) -> str:
    """A citation of `section` as SPEC §6 writes it, at its first page unless another is given."""
    return f"[{section['code']}:{section['edition']}, {section['path']}, p. {section['pageStart'] if page is None else page}]"


def submit_citing_last_section(messages: list[dict[str, Any]]) -> Turn:
    """The model drafts its answer from the section it read last."""
    section = last_section(messages)
    return Turn(calls=[("submit_answer", {"answer": f"La charge de neige sur le sol est définie en {section['path']} {cite(section)}."})])


DELIVER = [submit_citing_last_section, Turn(calls=[("verify_citations", {})]), Turn("C'est fait : la réponse est vérifiée.")]


def run(service, script: list, stream: bool, question: str = QUESTION, **settings: Any) -> tuple[TurnResult, ScriptedModel, Session]:
    """Ask one question of a session whose model plays `script`."""
    with chat_server(script) as (url, model):
        options = AskSettings(base_url=url, model="scripted", stream=stream, request_timeout=20, **settings)
        session = Session(service, ChatClient(url, "scripted", None, 20, stream), options)
        turn = session.ask(question)
    return turn, model, session


def codes(turn: TurnResult) -> list[str]:
    """The rules that fired, in order."""
    return [nudge["rule"] for nudge in turn.nudges]


STREAMS = pytest.mark.parametrize("stream", [True, False], ids=["streamed", "whole"])


@STREAMS
def test_after_four_reads_the_agent_is_told_to_stop_exploring(service, stream: bool) -> None:
    reads = [
        Turn(calls=[("get_toc", {"code": "SIA 261", "maxDepth": 2})]),
        Turn(calls=[("search_in_norm", {"code": "SIA 261", "keyword": "charge de neige"})]),
        Turn(calls=[("get_subtree", {"code": "SIA 261", "path": "4.2"})]),
        Turn(calls=[("get_section", SNOW)]),
    ]
    turn, model, _ = run(service, [*reads, *DELIVER], stream)
    assert codes(turn) == ["exploration"]
    nudged = [
        index
        for index, request in enumerate(model.requests)
        if any("reads in a row" in (m.get("content") or "") for m in request["messages"])
    ]
    assert nudged and nudged[0] == 4, "the nudge follows the fourth read, not the third"
    assert "4 reads in a row" in turn.nudges[0]["message"]
    assert turn.status == "answered" and turn.verified
    assert [citation.ok for citation in turn.citations] == [True]


@STREAMS
def test_a_go_ahead_makes_the_agent_act_instead_of_asking_again(service, stream: bool) -> None:
    clarify = [
        Turn(calls=[("submit_answer", {"answer": "Dans quelle zone de neige se trouve l'ouvrage ? Je lirai ensuite SIA 261, 4.2.1."})]),
        Turn(calls=[("verify_citations", {})]),
        Turn("J'attends votre réponse."),
    ]
    asks_again = Turn("Voulez-vous que je lise la section 4.2.1 de la SIA 261 ?")
    with chat_server([*clarify, asks_again, Turn(calls=[("get_section", SNOW)]), *DELIVER]) as (url, model):
        options = AskSettings(base_url=url, model="scripted", stream=stream)
        session = Session(service, ChatClient(url, "scripted", None, 20, stream), options)
        first = session.ask(QUESTION)
        second = session.ask("vas-y")
    assert codes(first) == [] and first.status == "answered"
    assert codes(second) == ["go_ahead"]
    assert "go ahead" in model.nudges()[0]
    assert second.status == "answered" and [citation.ok for citation in second.citations] == [True]


@STREAMS
def test_a_fabricated_citation_is_caught_and_corrected(service, stream: bool) -> None:
    def fabricated(messages: list[dict[str, Any]]) -> Turn:
        section = last_section(messages)
        invented = f"[{section['code']}:{section['edition']}, 4.2.9, p. {section['pageStart']}]"
        wrong_page = cite(section, (section["pageEnd"] or section["pageStart"]) + 40)
        return Turn(calls=[("submit_answer", {"answer": f"Voir {cite(section)}, {invented} et {wrong_page}."})])

    script = [
        Turn(calls=[("get_section", SNOW)]),
        fabricated,
        Turn(calls=[("verify_citations", {})]),
        Turn("Voici la réponse."),  # it tries to finish with a failed verification
        *DELIVER,
    ]
    turn, _model, session = run(service, script, stream)
    assert codes(turn) == ["verify_failed"]
    verifications = [json.loads(m["content"]) for m in session.messages if m["role"] == "tool" and "verified" in m["content"]]
    assert [check["verified"] for check in verifications] == [False, True]
    reasons = verifications[0]["problems"]
    assert len(reasons) == 2 and "4.2.9" in reasons[0] and "not p." in reasons[1]
    assert turn.status == "answered" and all(citation.ok for citation in turn.citations) and "4.2.9" not in (turn.answer or "")


@STREAMS
def test_a_reply_cut_at_the_output_limit_is_continued(service, stream: bool) -> None:
    script = [
        Turn(calls=[("get_section", SNOW)]),
        Turn("La charge de neige sur le sol s_k dépend de l'altitude de référence et", finish_reason="length"),
        *DELIVER,
    ]
    turn, model, _ = run(service, script, stream)
    assert codes(turn) == ["length_recovery"]
    cut = model.requests[2]["messages"]
    assert cut[-2]["role"] == "assistant" and cut[-2]["content"].endswith("altitude de référence et")
    assert "cut off" in cut[-1]["content"]
    assert turn.status == "answered"


@STREAMS
def test_a_tool_call_cut_at_the_output_limit_gets_an_error_and_a_nudge(service, stream: bool) -> None:
    script = [
        Turn(calls=[("get_section", SNOW)]),
        Turn(calls=[("submit_answer", '{"answer": "La charge de neige vaut')], finish_reason="length"),
        *DELIVER,
    ]
    turn, _model, session = run(service, script, stream)
    assert codes(turn) == ["length_recovery"]
    error = json.loads(next(m["content"] for m in session.messages if m["role"] == "tool" and "not valid JSON" in m["content"]))
    assert error["error"]["code"] == "invalid_argument"
    assert turn.status == "answered"


@STREAMS
def test_a_loop_is_nudged_then_stopped_by_no_progress(service, stream: bool) -> None:
    loop = [Turn(calls=[("get_section", SNOW)]) for _ in range(8)]
    turn, model, _ = run(service, loop, stream)
    assert codes(turn) == ["no_progress", "exploration", "no_progress"]
    assert [nudge["stop"] for nudge in turn.nudges] == [False, False, True]
    assert turn.status == "stopped" and not turn.verified
    assert len(model.requests) == 5, "the fifth identical call is the last"
    assert turn.message.startswith("Stopped")


@STREAMS
def test_an_answer_without_the_tools_is_nudged_to_delivery(service, stream: bool) -> None:
    script = [Turn("La charge vaut 1,2 kN/m²."), Turn(calls=[("get_section", SNOW)]), *DELIVER]
    turn, _, _ = run(service, script, stream)
    assert codes(turn) == ["delivery"]
    assert turn.status == "answered"


def test_a_model_that_never_uses_the_tools_ends_undelivered(service) -> None:
    script = [Turn("La charge vaut 1,2 kN/m².") for _ in range(3)]
    turn, _model, _ = run(service, script, False)
    assert codes(turn) == ["delivery", "delivery"]
    assert turn.status == "undelivered" and turn.answer == "La charge vaut 1,2 kN/m²."
    assert "tool calls" in turn.message


def test_a_tool_error_goes_back_to_the_model_which_recovers(service) -> None:
    script = [
        Turn(calls=[("get_section", {"code": "SIA 999", "path": "1"}), ("no_such_tool", {})]),
        Turn(calls=[("get_section", SNOW)]),
        *DELIVER,
    ]
    turn, _, session = run(service, script, False)
    errors = [json.loads(m["content"])["error"] for m in session.messages if m["role"] == "tool" and '"error"' in m["content"]]
    assert [error["code"] for error in errors] == ["not_found", "invalid_argument"]
    assert "SIA 261" in errors[0]["message"]  # the error names the codes there are and "no tool 'no_such_tool'" in errors[1]["message"]
    assert turn.status == "answered" and codes(turn) == []


def test_the_call_limit_first_asks_to_wrap_up_then_stops(service) -> None:
    reads = [Turn(calls=[("get_section", {"code": "SIA 261", "path": path})]) for path in ("4.2.1", "4.2.2", "4.1.1", "4.1.2", "4.2.3")]
    turn, model, _ = run(service, reads, False, max_tool_calls=5, audit=True)
    assert codes(turn) == ["wrap_up"]
    assert turn.status == "limit" and "5 tool calls" in turn.message
    assert len(model.requests) == 5


def test_the_system_prompt_is_the_methodology(service) -> None:
    _, model, _ = run(service, [Turn(calls=[("get_section", SNOW)]), *DELIVER], True)
    system = model.requests[0]["messages"][0]
    assert system["role"] == "system" and system["content"].startswith(service.methodology().text)
    names = {tool["function"]["name"] for tool in model.requests[0]["tools"]}
    assert {"get_toc", "get_section", "search_corpus", "submit_answer", "verify_citations"} <= names
    assert "get_methodology" not in names


def test_sections_read_for_an_earlier_question_do_not_count(service) -> None:
    first = [Turn(calls=[("get_section", SNOW)]), *DELIVER]

    def reuse(messages: list[dict[str, Any]]) -> Turn:
        return Turn(calls=[("submit_answer", {"answer": f"Comme avant {cite(last_section(messages))}."})])

    with chat_server([*first, reuse, Turn(calls=[("verify_citations", {})]), Turn("Fait.")] + [Turn("Fait.")] * 3) as (url, _):
        session = Session(service, ChatClient(url, "scripted", None, 20, False), AskSettings(base_url=url, model="scripted"))
        session.ask(QUESTION)
        second = session.ask("Et pour un toit plat ?")
    assert second.status == "unverified" and "verify_failed" in codes(second)
    assert "in this turn" in second.citations[0].reason


def test_arguments_are_read_as_the_mcp_server_reads_them(service) -> None:
    from normcli.agent.tools import Toolbox

    toolbox = Toolbox(service)
    loose = toolbox.run("get_section", json.dumps({"norm": "SIA 261", "path": 4.2, "edition": 2020, "maxChars": "90000"}))
    assert loose.ok, loose.content
    data = json.loads(loose.content)
    assert (data["section"]["path"], data["section"]["edition"]) == ("4.2", "2020")
    assert data["notes"] == ["maxChars 90000 is above its range; 40000 was used"]
    wrong = toolbox.run("get_toc", json.dumps({"code": "SIA 261", "maxDepth": "deep"}))
    assert not wrong.ok and "maxDepth" in json.loads(wrong.content)["error"]["message"]
