"""A small client for OpenAI-compatible chat completions (Ollama, llama.cpp's server, vLLM, hosted APIs).

The standard library is enough for one POST, with or without server-sent events, and spares every
user of normcli an SDK and its start-up cost. Failures become NormcliErrors with SPEC §4's exit
codes: a setting to fix is a usage error (2), an endpoint that cannot be reached or answers nonsense is 3.
"""

from __future__ import annotations

import http.client
import json
import socket
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from normcli.errors import InvalidArgument, NormcliError, WorkspaceError


class EndpointError(WorkspaceError):
    """The model endpoint cannot be reached or does not answer as a chat-completions server (exit 3):
    SPEC §4's "cannot be read", as the endpoint is part of the set-up."""

    def __init__(self, message: str, hint: str = "", timed_out: bool = False) -> None:
        super().__init__(message, hint, part="endpoint")
        self.timed_out = timed_out


class ModelError(InvalidArgument):
    """The endpoint answered but refuses this model or request: a setting to change (exit 2)."""


@dataclass
class ToolCallRequest:
    """A tool call as the model asked for it; `arguments` is the raw JSON text, checked by the caller."""

    id: str
    name: str
    arguments: str

    def to_message(self) -> dict[str, Any]:
        """The call as it goes back to the endpoint in the assistant message."""
        return {"id": self.id, "type": "function", "function": {"name": self.name, "arguments": self.arguments}}


@dataclass
class Reply:
    """One model reply: its text, its tool calls, why it stopped, and the tokens it used when the server says."""

    content: str = ""
    tool_calls: list[ToolCallRequest] = field(default_factory=list)
    finish_reason: str | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None

    def to_message(self) -> dict[str, Any]:
        """The reply as the assistant message of the conversation."""
        if not self.tool_calls:
            return {"role": "assistant", "content": self.content}  # some servers refuse a null content without tool calls
        return {"role": "assistant", "content": self.content or None, "tool_calls": [call.to_message() for call in self.tool_calls]}


class ChatClient:
    """POSTs to `{base_url}/chat/completions`; `stream` asks for server-sent events and reports text as it comes."""

    def __init__(
        self,
        base_url: str,
        model: str,
        api_key: str | None = None,
        timeout: float = 120.0,
        stream: bool = True,
        max_tokens: int | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.api_key = api_key
        self.timeout = timeout
        self.stream = stream
        self.max_tokens = max_tokens

    @property
    def url(self) -> str:
        """The chat-completions URL (a base URL that already ends with it is taken as it is)."""
        return self.base_url if self.base_url.endswith("/chat/completions") else self.base_url + "/chat/completions"

    def complete(
        self,
        messages: list[dict[str, Any]],
        tools: list[dict[str, Any]],
        on_text: Callable[[str], None] | None = None,
        timeout: float | None = None,
    ) -> Reply:
        """One model call with the conversation and the tools; `on_text` receives streamed text as it arrives.
        `timeout` (seconds without data) shortens the client's own for this call."""
        wait = min(self.timeout, timeout) if timeout is not None else self.timeout
        body: dict[str, Any] = {"model": self.model, "messages": messages, "stream": self.stream}
        if tools:
            body["tools"] = tools
            body["tool_choice"] = "auto"
        if self.max_tokens:
            body["max_tokens"] = self.max_tokens
        headers = {"Content-Type": "application/json", "Accept": "text/event-stream" if self.stream else "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, json.dumps(body).encode("utf-8"), headers, method="POST")
        if not self.url.startswith(("http://", "https://")):
            raise InvalidArgument(f"the endpoint {self.base_url!r} is not an http(s) URL", "pass --base-url http://HOST:PORT/v1")
        try:
            response = urllib.request.urlopen(request, timeout=wait)
        except urllib.error.HTTPError as error:
            raise self._refused(error) from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            raise self._unreachable(error, wait) from None
        with response:
            try:
                kind = response.headers.get("Content-Type", "")
                if "text/event-stream" in kind:
                    return self._read_stream(_lines(response), on_text)
                return self._read_whole(response.read())
            except (OSError, http.client.HTTPException) as error:
                raise self._unreachable(error, wait) from None

    def _unreachable(self, error: BaseException, wait: float) -> EndpointError:
        reason = getattr(error, "reason", error)
        timed_out = isinstance(reason, socket.timeout | TimeoutError)
        what = f"no answer within {wait:g} s" if timed_out else (str(reason) or type(reason).__name__)
        return EndpointError(
            f"cannot reach the model endpoint at {self.base_url} ({what})",
            "start the model server (e.g. `ollama serve`) or fix base_url in [ask] of normcli.toml / --base-url",
            timed_out,
        )

    def _refused(self, error: urllib.error.HTTPError) -> NormcliError:
        try:
            detail = _error_text(error.read())
        except OSError:
            detail = ""
        said = f"HTTP {error.code}" + (f": {detail}" if detail else "")
        lowered = detail.lower()
        if error.code in (401, 403):
            return ModelError(
                f"the endpoint refused the request ({said})",
                "set the key in $NORMCLI_ASK_API_KEY (or the variable [ask] api_key_env names)",
            )
        if "tool" in lowered and error.code in (400, 404, 422, 500, 501):
            return ModelError(
                f"the model {self.model!r} does not accept tool calls ({said})",
                "choose a model with tool support with --model or [ask] model",
            )
        if error.code == 404 or ("model" in lowered and error.code in (400, 422)):
            return ModelError(
                f"the endpoint does not know this model or path ({said})",
                "check --model and --base-url (most servers want the URL ending in /v1)",
            )
        if error.code in (400, 413, 422):
            return ModelError(f"the endpoint refused the request ({said})", "check the model and the limits in [ask] of normcli.toml")
        return EndpointError(f"the model endpoint failed ({said})", "try again later, or check the server's log")

    def _read_whole(self, raw: bytes) -> Reply:
        try:
            data = json.loads(raw)
        except ValueError:
            raise self._not_chat("its answer is not JSON") from None
        if isinstance(data, dict) and "error" in data:
            raise ModelError(f"the endpoint reported an error: {_error_text(raw)}", "check the model and the endpoint")
        try:
            choice = data["choices"][0]
            message = choice["message"]
        except (KeyError, IndexError, TypeError):
            raise self._not_chat("its answer has no choices[0].message") from None
        reply = Reply(content=_text(message.get("content")), finish_reason=choice.get("finish_reason"))
        for number, call in enumerate(message.get("tool_calls") or []):
            function = call.get("function") or {}
            arguments = function.get("arguments")
            text = arguments if isinstance(arguments, str) else json.dumps(arguments if arguments is not None else {})
            reply.tool_calls.append(ToolCallRequest(call.get("id") or f"call_{number}", function.get("name") or "", text))
        _usage(reply, data.get("usage"))
        return reply

    def _read_stream(self, lines: Iterator[str], on_text: Callable[[str], None] | None) -> Reply:
        reply = Reply()
        calls: dict[int, ToolCallRequest] = {}
        for line in lines:
            if not line.startswith("data:"):
                continue  # comments, event names, keep-alives
            payload = line[5:].strip()
            if payload == "[DONE]":
                break
            try:
                chunk = json.loads(payload)
            except ValueError:
                raise self._not_chat("a streamed event is not JSON") from None
            if "error" in chunk:
                raise ModelError(f"the endpoint reported an error: {_error_text(payload.encode())}", "check the model and the endpoint")
            _usage(reply, chunk.get("usage"))
            for choice in chunk.get("choices") or []:
                delta = choice.get("delta") or {}
                text = _text(delta.get("content"))
                if text:
                    reply.content += text
                    if on_text:
                        on_text(text)
                for number, part in enumerate(delta.get("tool_calls") or []):
                    index = part.get("index", number)
                    call = calls.setdefault(index, ToolCallRequest(part.get("id") or f"call_{index}", "", ""))
                    if part.get("id"):
                        call.id = part["id"]
                    function = part.get("function") or {}
                    call.name += function.get("name") or ""
                    arguments = function.get("arguments")
                    call.arguments += arguments if isinstance(arguments, str) else (json.dumps(arguments) if arguments else "")
                if choice.get("finish_reason"):
                    reply.finish_reason = choice["finish_reason"]
        reply.tool_calls = [calls[index] for index in sorted(calls)]
        return reply

    def _not_chat(self, why: str) -> EndpointError:
        return EndpointError(
            f"the endpoint at {self.base_url} does not answer as a chat-completions server ({why})",
            "check --base-url: it is the OpenAI-compatible base, e.g. http://localhost:11434/v1",
        )


def _lines(response: Any) -> Iterator[str]:
    for raw in response:
        yield raw.decode("utf-8", "replace").rstrip("\r\n")


def _text(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of content parts (some servers send those)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


def _usage(reply: Reply, usage: Any) -> None:
    if isinstance(usage, dict):
        reply.prompt_tokens = usage.get("prompt_tokens", reply.prompt_tokens)
        reply.completion_tokens = usage.get("completion_tokens", reply.completion_tokens)


def _error_text(raw: bytes) -> str:
    """The message of an error body (`{"error": {"message": …}}`, `{"error": "…"}`, or plain text), on one short line."""
    text = raw.decode("utf-8", "replace").strip()
    try:
        data = json.loads(text)
    except ValueError:
        return " ".join(text.split())[:300]
    error = data.get("error", data) if isinstance(data, dict) else data
    if isinstance(error, dict):
        error = error.get("message") or error.get("detail") or json.dumps(error)
    return " ".join(str(error).split())[:300]
