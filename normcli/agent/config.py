"""`[ask]` in normcli.toml: which chat endpoint and model `normcli ask` talks to, and the session's limits."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from normcli.errors import InvalidArgument
from normcli.workspace import load_settings_file

DEFAULT_KEY_VARIABLES = ("NORMCLI_ASK_API_KEY", "OPENAI_API_KEY")


@dataclass(frozen=True)
class AskSettings:
    """Endpoint, model and limits of an `ask` session; every limit counts per question (turn)."""

    base_url: str | None = None
    model: str | None = None
    api_key_env: str | None = None  # the variable that holds the key; else NORMCLI_ASK_API_KEY, then OPENAI_API_KEY
    max_tool_calls: int = 40
    max_seconds: float = 300.0
    max_tokens: int | None = None  # the output limit of one reply, passed to the endpoint
    token_budget: int | None = None  # tokens (prompt and completion) one question may use
    request_timeout: float = 120.0
    stream: bool = True
    audit: bool = False
    problems: tuple[str, ...] = ()

    def api_key(self) -> str | None:
        """The key from the environment (never from the file: keys do not belong in a workspace)."""
        names = (self.api_key_env,) if self.api_key_env else DEFAULT_KEY_VARIABLES
        return next((os.environ[name] for name in names if os.environ.get(name)), None)

    def with_overrides(self, **values: Any) -> AskSettings:
        """These settings with the command line's options (None: not given) applied."""
        return replace(self, **{key: value for key, value in values.items() if value is not None})

    def require_endpoint(self) -> tuple[str, str]:
        """(base_url, model), or a usage error that says how to configure them."""
        if not self.base_url:
            raise InvalidArgument(
                "no model endpoint is configured",
                "set base_url in the [ask] table of normcli.toml or pass --base-url, e.g. http://localhost:11434/v1 for Ollama",
            )
        if not self.model:
            raise InvalidArgument("no model is configured", "set model in the [ask] table of normcli.toml or pass --model")
        return self.base_url, self.model


_INTEGERS = {"max_tool_calls": 1, "max_tokens": 1, "token_budget": 1}
_NUMBERS = {"max_seconds": 1.0, "request_timeout": 1.0}
_TEXTS = ("base_url", "model", "api_key_env")
_FLAGS = ("stream", "audit")


def read_ask_settings(root: Path) -> AskSettings:
    """The `[ask]` table of `<root>/normcli.toml`; a wrong value is left at its default and named in `problems`."""
    file = root / "normcli.toml"
    if not file.is_file():
        return AskSettings()
    data, problem = load_settings_file(file)
    if problem is not None:
        return AskSettings(problems=(problem,))
    table = data.get("ask")
    if not isinstance(table, dict):
        return AskSettings()
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in table.items():
        if key in _TEXTS and isinstance(value, str) and value.strip():
            values[key] = value.strip()
        elif key in _INTEGERS and isinstance(value, int) and not isinstance(value, bool) and value >= _INTEGERS[key]:
            values[key] = value
        elif key in _NUMBERS and isinstance(value, int | float) and not isinstance(value, bool) and value >= _NUMBERS[key]:
            values[key] = float(value)
        elif key in _FLAGS and isinstance(value, bool):
            values[key] = value
        elif key in (*_TEXTS, *_INTEGERS, *_NUMBERS, *_FLAGS):
            problems.append(f"normcli.toml [ask] {key} cannot be {value!r}")
        elif key == "api_key":
            problems.append("normcli.toml [ask] api_key is ignored: put the key in the environment (api_key_env names the variable)")
        else:
            problems.append(f"normcli.toml [ask] has no setting {key!r}")
    return AskSettings(**values, problems=tuple(problems))
