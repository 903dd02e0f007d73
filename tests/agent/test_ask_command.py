"""`normcli ask` as a person and a script run it: a real process against the scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from chat_server import Turn, chat_server
from test_ask_sessions import DELIVER, QUESTION, SNOW, last_section

from tests.reliability.support import sigint_default

NO_KEYS = {"NORMCLI_ASK_API_KEY": "", "OPENAI_API_KEY": ""}


def script() -> list:
    """Read 4.2.1, then deliver an answer citing it."""
    return [Turn(calls=[("get_section", SNOW)]), *DELIVER]


def test_a_person_sees_each_tool_call_then_the_answer_and_its_commands(cli, sample_copy: Path) -> None:
    with chat_server(script()) as (url, model):
        ran = cli("ask", QUESTION, "--base-url", url, "--model", "scripted", workspace=sample_copy, env=NO_KEYS)
    assert ran.code == 0, ran.stderr
    calls = [line for line in ran.stderr.splitlines() if line.startswith(("✓", "✗"))]
    assert [line.split()[1] for line in calls] == ["get_section", "submit_answer", "verify_citations"]
    section = last_section(model.requests[1]["messages"])
    assert f"{section['code']}:{section['edition']} {section['path']}" in calls[0]
    assert "1 of 1 citation(s) verified" in calls[2]
    assert "La charge de neige sur le sol est définie en 4.2.1" in ran.stdout
    assert f'normcli section "{section["code"]}:{section["edition"]}" {section["path"]}' in ran.stdout
    assert "Traceback" not in ran.stderr and "\x1b[" not in ran.stdout, "no colour off a terminal"


def test_json_carries_the_answer_its_citations_and_the_transcript(cli, sample_copy: Path) -> None:
    with chat_server(script()) as (url, _):
        ran = cli("ask", QUESTION, "--base-url", url, "--model", "scripted", "--json", "--no-stream", workspace=sample_copy, env=NO_KEYS)
    assert ran.code == 0, ran.stderr
    data = ran.json()
    assert data["status"] == "answered" and data["verified"] is True
    assert data["question"] == QUESTION and data["model"] == "scripted"
    [citation] = data["citations"]
    assert citation["verified"] and citation["path"] == "4.2.1" and citation["command"].startswith("normcli section ")
    assert [message["role"] for message in data["transcript"]][:3] == ["user", "assistant", "tool"]
    assert data["toolCalls"] == 3 and data["modelCalls"] == 4
    assert ran.stderr == "", "with --json nothing is drawn on stderr"


def test_an_answer_that_is_not_verified_exits_1(cli, sample_copy: Path) -> None:
    with chat_server([Turn("La charge vaut 1,2 kN/m².")] * 3) as (url, _):
        ran = cli("ask", QUESTION, "--base-url", url, "--model", "scripted", workspace=sample_copy, env=NO_KEYS)
    assert ran.code == 1
    assert "La charge vaut 1,2 kN/m²." in ran.stdout
    assert "without submitting a draft" in ran.stderr and "↻ delivery" in ran.stderr


def test_without_an_endpoint_it_says_how_to_configure_one(cli, sample_copy: Path) -> None:
    ran = cli("ask", QUESTION, workspace=sample_copy)
    assert ran.code == 2
    assert ran.stderr.strip().splitlines()[-1].startswith("normcli: no model endpoint is configured (set base_url in the [ask] table")
    as_json = cli("ask", QUESTION, "--json", workspace=sample_copy)
    assert as_json.code == 2 and as_json.json()["error"]["code"] == "invalid_argument"
    no_model = cli("ask", QUESTION, "--base-url", "http://127.0.0.1:9/v1", workspace=sample_copy)
    assert no_model.code == 2 and "no model is configured" in no_model.stderr


def test_an_endpoint_that_is_down_exits_3(cli, sample_copy: Path) -> None:
    with socket.socket() as probe:  # a port that was free a moment ago: nothing listens there
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    ran = cli("ask", QUESTION, "--base-url", f"http://127.0.0.1:{port}/v1", "--model", "m", workspace=sample_copy)
    assert ran.code == 3
    assert "cannot reach the model endpoint" in ran.stderr and "Traceback" not in ran.stderr
    assert len(ran.stderr.strip().splitlines()) == 1


def test_a_model_without_tool_support_is_named(cli, sample_copy: Path) -> None:
    refusal = Turn(status=400, error="registry.ollama.ai/library/gemma:2b does not support tools")
    with chat_server([refusal]) as (url, _):
        ran = cli("ask", QUESTION, "--base-url", url, "--model", "gemma:2b", "--json", workspace=sample_copy)
    assert ran.code == 2
    assert "does not accept tool calls" in ran.stderr and "does not support tools" in ran.stderr
    assert ran.json()["error"]["code"] == "invalid_argument"


def test_a_server_error_and_a_non_chat_answer_exit_3(cli, sample_copy: Path) -> None:
    with chat_server([Turn(status=503, error="overloaded")]) as (url, _):
        ran = cli("ask", QUESTION, "--base-url", url, "--model", "m", workspace=sample_copy)
    assert ran.code == 3 and "HTTP 503: overloaded" in ran.stderr
    with chat_server([Turn(raw='{"models": []}')]) as (url, _):
        other = cli("ask", QUESTION, "--base-url", url, "--model", "m", workspace=sample_copy)
    assert other.code == 3 and "does not answer as a chat-completions server" in other.stderr
    with chat_server([]) as (url, _):
        wrong_path = cli("ask", QUESTION, "--base-url", url.replace("/v1", "/v2"), "--model", "m", workspace=sample_copy)
    assert wrong_path.code == 2 and "HTTP 404" in wrong_path.stderr and "--base-url" in wrong_path.stderr


def test_endpoint_model_and_key_come_from_normcli_toml_and_the_environment(cli, sample_fresh: Path) -> None:
    with chat_server(script()) as (url, model):
        toml = sample_fresh / "normcli.toml"
        toml.write_text(
            toml.read_text(encoding="utf-8") + f'\n[ask]\nbase_url = "{url}"\nmodel = "from-toml"\napi_key_env = "MY_KEY"\nwarp = 9\n',
            encoding="utf-8",
        )
        ran = cli("ask", QUESTION, workspace=sample_fresh, env={"MY_KEY": "sekret"})
    assert ran.code == 0, ran.stderr
    assert model.requests[0]["model"] == "from-toml"
    assert model.headers[0]["Authorization"] == "Bearer sekret"
    assert "[ask] has no setting 'warp'" in ran.stderr


def test_questions_from_stdin_make_one_session(cli, sample_copy: Path) -> None:
    with chat_server([*script(), *script()]) as (url, model):
        ran = cli("ask", "--base-url", url, "--model", "scripted", "--json", workspace=sample_copy, stdin=f"{QUESTION}\n\nEt à 1200 m ?\n")
    assert ran.code == 0, ran.stderr
    turns = ran.json()["turns"]
    assert [turn["question"] for turn in turns] == [QUESTION, "Et à 1200 m ?"]
    assert all(turn["verified"] for turn in turns)
    assert [m["content"] for m in model.requests[-1]["messages"] if m["role"] == "user"] == [QUESTION, "Et à 1200 m ?"]


def test_ctrl_c_stops_cleanly_with_130(sample_copy: Path) -> None:
    asked, release = threading.Event(), threading.Event()

    def wait(_messages: list[dict[str, Any]]) -> Turn:
        asked.set()
        release.wait(20)
        return Turn("late")

    with chat_server([wait]) as (url, _):
        process = subprocess.Popen(
            [sys.executable, "-m", "normcli", "--workspace", str(sample_copy), "ask", QUESTION, "--base-url", url, "--model", "m"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **NO_KEYS},
            preexec_fn=sigint_default,
        )
        try:
            assert asked.wait(60), "the model was never called"
            process.send_signal(signal.SIGINT)
            _, stderr = process.communicate(timeout=30)
        finally:
            release.set()
            if process.poll() is None:
                process.kill()
    assert process.returncode == 130, stderr
    assert stderr.strip().endswith("normcli: interrupted") and "Traceback" not in stderr


def test_ask_has_help_and_its_imports_stay_out_of_the_other_commands(cli) -> None:
    ran = cli("ask", "--help")
    assert ran.code == 0
    for option in ("--model", "--base-url", "--audit", "--json", "--max-tool-calls"):
        assert option in ran.stdout
    probe = (
        "import sys, normcli.cli.app\n"
        "print(sorted(name for name in sys.modules if name.startswith(('normcli.agent', 'urllib.request', 'http.client', 'openai', 'llm'))))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.mark.skipif(
    not os.environ.get("NORMCLI_ASK_LIVE_URL"), reason="set NORMCLI_ASK_LIVE_URL (and NORMCLI_ASK_LIVE_MODEL) to ask a real model"
)
def test_a_live_model_answers_with_checked_citations(cli, sample_copy: Path) -> None:
    model = os.environ.get("NORMCLI_ASK_LIVE_MODEL", "qwen2.5:7b")
    ran = cli("ask", QUESTION, "--base-url", os.environ["NORMCLI_ASK_LIVE_URL"], "--model", model, "--json", workspace=sample_copy)
    assert ran.code in (0, 1), ran.stderr
    data = ran.json()
    assert data["toolCalls"] >= 1 and data["status"] in ("answered", "unverified", "undelivered", "stopped", "limit")
    if data["status"] == "answered":
        assert data["citations"] == [] or all(citation["verified"] for citation in data["citations"])
    print(json.dumps({key: data[key] for key in ("status", "answer", "citations", "nudges", "toolCalls")}, ensure_ascii=False, indent=2))


def test_without_a_question_a_terminal_gets_an_interactive_session(sample_copy: Path) -> None:
    import pty

    with chat_server(script()) as (url, _):
        leader, follower = pty.openpty()
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "normcli",
                "--workspace",
                str(sample_copy),
                "ask",
                "--base-url",
                url,
                "--model",
                "scripted",
                "--no-stream",
            ],
            stdin=follower,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, **NO_KEYS},
        )
        os.close(follower)
        try:
            os.write(leader, f"{QUESTION}\n\n".encode())
            stdout, stderr = process.communicate(timeout=60)
        finally:
            os.close(leader)
            if process.poll() is None:
                process.kill()
    assert process.returncode == 0, stderr
    assert "one question a line" in stderr and stderr.count("? ") >= 2, "a prompt before each question"
    assert "La charge de neige sur le sol est définie en 4.2.1" in stdout and "normcli section" in stdout
