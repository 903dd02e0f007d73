"""`normcli ask`: answer a question from the workspace's norms with a chat model and verified citations.

Everything the command needs (the agent, the HTTP client, rich) is imported inside it, so that the
other commands start no slower. stdout carries the answer (or the one JSON document); the tool calls
as they happen, the rules that fire and every message go to stderr.
"""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from normcli.cli.diagnostics import ExitCode
from normcli.cli.runner import Options, error_boundary

QUIT_WORDS = {"exit", "quit", ":q", "bye", "/exit", "/quit"}


def ask(
    ctx: typer.Context,
    question: Annotated[
        str | None, typer.Argument(help="The question; without one, an interactive session (one question a line).", show_default=False)
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", "-m", help="Model name (default: [ask] model in normcli.toml).", show_default=False)
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url", help="OpenAI-compatible endpoint, e.g. http://localhost:11434/v1 (default: [ask] base_url).", show_default=False
        ),
    ] = None,
    audit: Annotated[
        bool, typer.Option("--audit", help="Audit mode: up to 8 reads in a row instead of 4 before the agent must answer.")
    ] = False,
    stream: Annotated[
        bool | None,
        typer.Option("--stream/--no-stream", help="Stream the model's replies (default: [ask] stream, else on).", show_default=False),
    ] = None,
    max_tool_calls: Annotated[
        int | None, typer.Option("--max-tool-calls", min=1, help="Tool calls one question may make (default 40).", show_default=False)
    ] = None,
    max_seconds: Annotated[
        float | None, typer.Option("--max-seconds", min=1, help="Seconds one question may take (default 300).", show_default=False)
    ] = None,
    json_: Annotated[bool, typer.Option("--json", help="Print one JSON document: answer, citations, transcript.")] = False,
) -> None:
    """Ask a question; a model answers from your norms, every citation checked. Example: normcli ask "charge de neige à 800 m ?\""""
    options: Options = ctx.obj or Options()
    as_json = options.json or json_
    holder: dict[str, Any] = {}
    with error_boundary(options, as_json, "the question and the model you used"):
        code = _run(options, as_json, question, holder, model=model, base_url=base_url, audit=audit or None, stream=stream,
                    max_tool_calls=max_tool_calls, max_seconds=max_seconds)  # fmt: skip
    raise typer.Exit(code)


def _run(options: Options, as_json: bool, question: str | None, holder: dict[str, Any], **overrides: Any) -> int:
    from normcli.agent.client import ChatClient
    from normcli.agent.config import read_ask_settings
    from normcli.agent.runner import Session
    from normcli.cli import output
    from normcli.service import Service

    service = Service.open(options.workspace)
    settings = read_ask_settings(service.root).with_overrides(**overrides)
    for problem in settings.problems:
        output.note(f"{problem} (using the default)")
    base_url, model = settings.require_endpoint()
    if service.is_sample:
        output.note(f"reading the sample workspace at {service.root} (pass --workspace DIR or set NORMCLI_WORKSPACE)")
    client = ChatClient(base_url, model, settings.api_key(), settings.request_timeout, settings.stream, settings.max_tokens)
    session = Session(service, client, settings, None if as_json else _watcher())
    holder["session"] = session
    if question is not None:
        if not question.strip():
            from normcli.errors import InvalidArgument

            raise InvalidArgument("the question is empty", 'ask something, e.g. normcli ask "charge de neige à 800 m ?"')
        turn = session.ask(question)
        if as_json:
            output.print_json({**turn.to_json(), "model": model, "baseUrl": base_url, "transcript": session.messages[1:]})
        else:
            _show(turn)
        return int(ExitCode.OK if turn.verified else ExitCode.NOT_FOUND)
    interactive = sys.stdin.isatty()
    if interactive and not as_json:
        output.note(f"asking {model} at {base_url}; one question a line, an empty line or Ctrl-D to end")
    code = ExitCode.OK
    while True:
        if interactive:
            sys.stderr.write("? ")
            sys.stderr.flush()
        line = sys.stdin.readline()
        if not line or line.strip().lower() in QUIT_WORDS or (interactive and not line.strip()):
            break
        if not line.strip():
            continue
        turn = session.ask(line.strip())
        if not as_json:
            _show(turn)
        if not turn.verified:
            code = ExitCode.NOT_FOUND
    if as_json:
        output.print_json(
            {"turns": [turn.to_json() for turn in session.turns], "model": model, "baseUrl": base_url, "transcript": session.messages[1:]}
        )
    return int(code)


def _watcher() -> Any:
    """The events of a session shown to people (built here: the agent is imported only when `ask` runs)."""
    from normcli.agent.runner import Events

    class Watcher(Events):
        """Shows people what the agent does: one line per tool call, one per rule that fires."""

        def __init__(self) -> None:
            from rich.console import Console

            self.console = Console(stderr=True, highlight=False)

        def tool(self, name: str, arguments: str, outcome: Any) -> None:
            """One line: the tool, its arguments in short, and what it found."""
            from rich.markup import escape

            mark = "[green]✓[/]" if outcome.ok else "[red]✗[/]"
            said = _short(arguments)
            said = f" [dim]{escape(said)}[/]" if said else ""
            self.console.print(f"{mark} [bold]{escape(name)}[/]{said} → {escape(outcome.summary)}", soft_wrap=True)

        def nudge(self, firing: Any) -> None:
            """One line: which rule fired, and its message in short."""
            from rich.markup import escape

            colour = "red" if firing.stop else "yellow"
            self.console.print(f"[{colour}]↻ {escape(firing.code)}[/]: [dim]{escape(_clip(firing.message, 110))}[/]", soft_wrap=True)

    return Watcher()


def _short(arguments: str) -> str:
    import json

    try:
        value = json.loads(arguments) if arguments.strip() else {}
    except ValueError:
        return _clip(arguments, 60)
    if not isinstance(value, dict):
        return _clip(arguments, 60)
    if "answer" in value and isinstance(value["answer"], str):
        return f"({len(value['answer']):,} characters)"
    return _clip(" ".join(f"{key}={val}" for key, val in value.items()), 80)


def _clip(text: str, width: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _show(turn: Any) -> None:
    """The answer as Markdown, then its citations as `normcli section` commands, then how the turn ended."""
    from rich.markdown import Markdown
    from rich.markup import escape

    from normcli.cli import output

    console = output.console()
    if turn.answer:
        console.print(Markdown(turn.answer))
    if turn.citations:
        console.print()
        console.print("[bold]Citations[/]")
        for citation in turn.citations:
            mark = "[green]✓[/]" if citation.ok else "[red]✗[/]"
            why = "" if citation.ok else f"  [red]{escape(citation.reason)}[/]"
            console.print(f" {mark} {escape(citation.text)}  [cyan]{escape(citation.command())}[/]{why}", soft_wrap=True)
    if turn.message:
        output.note(turn.message)


def register(app: typer.Typer) -> None:
    """Add `ask` to `app`."""
    app.command("ask")(ask)
