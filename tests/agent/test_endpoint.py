"""The `[ask]` settings and the chat client's answers to what an endpoint can do wrong."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest
from chat_server import Turn, chat_server
from test_ask_sessions import QUESTION, SNOW

from normcli.agent.client import ChatClient, EndpointError, ModelError
from normcli.agent.config import AskSettings, read_ask_settings
from normcli.agent.runner import Session
from normcli.cli.diagnostics import ExitCode, exit_code_for
from normcli.errors import InvalidArgument


def test_the_ask_table_is_read_and_bad_values_are_named(tmp_path: Path) -> None:
    (tmp_path / "normcli.toml").write_text(
        '[ask]\nbase_url = "http://localhost:11434/v1"\nmodel = "qwen2.5"\nmax_tool_calls = 12\nmax_seconds = 90\n'
        'stream = false\naudit = true\nmax_tokens = 0\napi_key = "sk-…"\n',
        encoding="utf-8",
    )
    settings = read_ask_settings(tmp_path)
    assert (settings.base_url, settings.model, settings.max_tool_calls, settings.max_seconds) == (
        "http://localhost:11434/v1",
        "qwen2.5",
        12,
        90.0,
    )
    assert settings.stream is False and settings.audit is True and settings.max_tokens is None
    assert len(settings.problems) == 2
    assert any("max_tokens cannot be 0" in problem for problem in settings.problems)
    assert any("put the key in the environment" in problem for problem in settings.problems)
    assert settings.with_overrides(model="other", audit=None).model == "other"
    assert read_ask_settings(tmp_path / "nowhere") == AskSettings()
    (tmp_path / "normcli.toml").write_text("[ask\n", encoding="utf-8")
    assert read_ask_settings(tmp_path).problems


def test_the_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NORMCLI_ASK_API_KEY", raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "from-openai")
    assert AskSettings().api_key() == "from-openai"
    monkeypatch.setenv("NORMCLI_ASK_API_KEY", "from-normcli")
    assert AskSettings().api_key() == "from-normcli"
    assert AskSettings(api_key_env="ELSEWHERE").api_key() is None


def test_a_missing_endpoint_or_model_is_a_usage_error() -> None:
    with pytest.raises(InvalidArgument, match="no model endpoint"):
        AskSettings().require_endpoint()
    with pytest.raises(InvalidArgument, match="no model is configured"):
        AskSettings(base_url="http://x/v1").require_endpoint()


@pytest.mark.parametrize(
    ("status", "message", "error", "exit_code", "words"),
    [
        (401, "invalid api key", ModelError, ExitCode.USAGE, "NORMCLI_ASK_API_KEY"),
        (400, "model 'x' does not support tools", ModelError, ExitCode.USAGE, "does not accept tool calls"),
        (404, "model 'nope' not found", ModelError, ExitCode.USAGE, "does not know this model"),
        (400, "context length exceeded", ModelError, ExitCode.USAGE, "refused the request"),
        (500, "CUDA out of memory", EndpointError, ExitCode.WORKSPACE, "failed (HTTP 500: CUDA out of memory)"),
    ],
)
def test_each_http_error_becomes_one_clear_message(status: int, message: str, error: type, exit_code: int, words: str) -> None:
    with chat_server([Turn(status=status, error=message)]) as (url, _), pytest.raises(error) as raised:
        ChatClient(url, "x", stream=False).complete([{"role": "user", "content": "hi"}], [])
    assert exit_code_for(raised.value) == exit_code and words in raised.value.one_line()


def test_a_url_that_is_not_http_is_refused() -> None:
    with pytest.raises(InvalidArgument, match="not an http"):
        ChatClient("localhost:11434/v1", "m").complete([], [])


def test_a_slow_model_ends_the_question_on_its_time_limit(service) -> None:
    release = threading.Event()

    def slow(_messages: list) -> Turn:
        release.wait(10)
        return Turn("late")

    with chat_server([Turn(calls=[("get_section", SNOW)]), slow]) as (url, _):
        settings = AskSettings(base_url=url, model="m", max_seconds=1.5, stream=True)
        session = Session(service, ChatClient(url, "m", None, 30, True), settings)
        started = time.monotonic()
        try:
            turn = session.ask(QUESTION)
        finally:
            release.set()
    assert turn.status == "limit" and "1.5 s" in turn.message
    assert time.monotonic() - started < 8, "the limit cut the call short instead of waiting for the client's own timeout"


def test_text_is_streamed_to_the_watcher_as_it_comes(service) -> None:
    from normcli.agent.runner import Events

    class Collect(Events):
        def __init__(self) -> None:
            self.pieces: list[str] = []

        def text(self, delta: str) -> None:
            self.pieces.append(delta)

    collect = Collect()
    with chat_server([Turn("La charge de neige dépend de l'altitude.")] * 3) as (url, _):
        Session(service, ChatClient(url, "m", None, 20, True), AskSettings(base_url=url, model="m"), collect).ask(QUESTION)
    assert len(collect.pieces) > 3 and "".join(collect.pieces).startswith("La charge de neige dépend de l'altitude.")


def test_the_agent_loads_no_frontend_library_and_no_llm_sdk() -> None:
    import subprocess
    import sys

    probe = (
        "import sys\n"
        "import normcli.agent.runner, normcli.agent.tools, normcli.agent.citations, normcli.agent.client, normcli.agent.config\n"
        "heavy = ('typer', 'click', 'rich', 'textual', 'mcp', 'pydantic', 'openai', 'llm', 'httpx', 'requests')\n"
        "print(sorted(name for name in heavy if name in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_content_sent_as_parts_is_read_as_text() -> None:
    parts = '{"choices": [{"message": {"role": "assistant", "content": [{"type": "text", "text": "La charge "}, {"type": "text", "text": "vaut 1,2."}]}, "finish_reason": "stop"}]}'
    with chat_server([Turn(raw=parts)]) as (url, _):
        reply = ChatClient(url, "m", stream=False).complete([{"role": "user", "content": "?"}], [])
    assert reply.content == "La charge vaut 1,2." and reply.finish_reason == "stop" and reply.tool_calls == []
