"""A chat-completions server on 127.0.0.1 that replays scripted model turns, streamed or not, for `ask` tests.

Each scripted turn is a `Turn` (text, tool calls, finish reason) or a function of the request's messages
that returns one; the server records every request it gets. It runs in a thread of the test and stops
when the test ends (bounded by a timeout on each request and on the join).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Turn:
    """One scripted model reply; `status` other than 200 answers an HTTP error with `error` as its message."""

    text: str = ""
    calls: list[tuple[str, Any]] = field(default_factory=list)  # (tool name, arguments as a dict, or raw text)
    finish_reason: str | None = None
    status: int = 200
    error: str = ""
    raw: str = ""  # sent as it is instead of a chat completion (a server that speaks something else)

    def finish(self) -> str:
        """The finish reason: given, else tool_calls when there are calls, else stop."""
        return self.finish_reason or ("tool_calls" if self.calls else "stop")

    def tool_calls(self, number: int) -> list[dict[str, Any]]:
        """The calls in the non-streamed message shape."""
        return [
            {
                "id": f"call_{number}_{index}",
                "type": "function",
                "function": {"name": name, "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments)},
            }
            for index, (name, arguments) in enumerate(self.calls)
        ]


Script = list[Turn | Callable[[list[dict[str, Any]]], Turn]]


class ScriptedModel:
    """The script, the requests received, and whether the server streams when asked to."""

    def __init__(self, script: Script) -> None:
        self.script = list(script)
        self.requests: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self.lock = threading.Lock()

    def next_turn(self, body: dict[str, Any]) -> tuple[Turn, int]:
        """The scripted reply to this request (a last turn that says so when the script has run out)."""
        with self.lock:
            self.requests.append(body)
            number = len(self.requests)
            step = self.script.pop(0) if self.script else Turn(status=500, error="the scripted model has no more turns")
        turn = step(body["messages"]) if callable(step) else step
        return turn, number

    def nudges(self) -> list[str]:
        """The runner's messages ([normcli] …) in the last request's conversation."""
        if not self.requests:
            return []
        return [m["content"] for m in self.requests[-1]["messages"] if m["role"] == "user" and str(m["content"]).startswith("[normcli]")]


def _handler(model: ScriptedModel) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        timeout = 30

        def log_message(self, format: str, *args: Any) -> None:  # keep the test output clean
            pass

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            model.headers.append(dict(self.headers.items()))
            if self.path != "/v1/chat/completions":
                return self._json(404, {"error": {"message": f"no route {self.path}"}})
            turn, number = model.next_turn(body)
            if turn.status != 200:
                return self._json(turn.status, {"error": {"message": turn.error}})
            if turn.raw:
                return self._json(200, json.loads(turn.raw))
            if body.get("stream"):
                return self._stream(turn, number)
            message: dict[str, Any] = {"role": "assistant", "content": turn.text or None}
            if turn.calls:
                message["tool_calls"] = turn.tool_calls(number)
            usage = {"prompt_tokens": 100, "completion_tokens": 10 + len(turn.text) // 4}
            self._json(
                200,
                {
                    "id": f"r{number}",
                    "object": "chat.completion",
                    "choices": [{"index": 0, "message": message, "finish_reason": turn.finish()}],
                    "usage": usage,
                },
            )

        def _json(self, status: int, data: dict[str, Any]) -> None:
            raw = json.dumps(data).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(raw)))
            self.end_headers()
            self.wfile.write(raw)

        def _stream(self, turn: Turn, number: int) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()

            def send(delta: dict[str, Any], finish: str | None = None) -> None:
                chunk = {
                    "id": f"r{number}",
                    "object": "chat.completion.chunk",
                    "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
                }
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())

            self.wfile.write(b": keep-alive\n\n")
            send({"role": "assistant", "content": ""})
            for start in range(0, len(turn.text), 7):  # text in small pieces, as a model streams it
                send({"content": turn.text[start : start + 7]})
            for index, call in enumerate(turn.tool_calls(number)):
                arguments = call["function"]["arguments"]
                half = len(arguments) // 2
                send(
                    {
                        "tool_calls": [
                            {
                                "index": index,
                                "id": call["id"],
                                "type": "function",
                                "function": {"name": call["function"]["name"], "arguments": arguments[:half]},
                            }
                        ]
                    }
                )
                send({"tool_calls": [{"index": index, "function": {"arguments": arguments[half:]}}]})
            send({}, turn.finish())
            self.wfile.write(b"data: [DONE]\n\n")
            self.wfile.flush()

    return Handler


@contextmanager
def chat_server(script: Script) -> Iterator[tuple[str, ScriptedModel]]:
    """Serve `script` on 127.0.0.1 (a free port) for the `with` block: yields (base URL, model)."""
    model = ScriptedModel(script)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(model))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/v1", model
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)
