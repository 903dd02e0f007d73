"""The tools of `normcli ask`: the read operations (through `normcli.operations.run`, JSON answers), plus
`submit_answer` (the draft: the one writing tool) and `verify_citations` (the check the answer needs).

Tool names, descriptions and error wording are the MCP server's, so an agent meets the same tools in both.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from normcli import operations
from normcli.agent.citations import SectionRead, find_citations, verify_draft
from normcli.errors import NormcliError
from normcli.service import Service

# The read tools offered to the model, as declared once in `operations`; get_methodology is the system prompt already.
READ_TOOLS = tuple(op.tool for op in operations.OPERATIONS.values() if op.tool != "get_methodology")
SUBMIT = "submit_answer"
VERIFY = "verify_citations"
_SUBMIT_DESCRIPTION = (
    "Submit your answer (Markdown) as the draft to deliver to the user; submitting again replaces the draft. "
    "Cite every technical claim as [CODE:EDITION, path, p. N] from a section you read with get_section in this question. "
    "Then call verify_citations: the answer is delivered only when its citations verify."
)
_VERIFY_DESCRIPTION = (
    "Check every citation [CODE:EDITION, path, p. N] of the submitted draft: it must name a section read with get_section "
    "in this question, with the page in that section's range. Returns verified true/false and each failing citation's reason."
)


def tool_schemas() -> list[dict[str, Any]]:
    """The tools in the chat-completions `tools` format: the read operations' declared parameters, then the two answer tools."""
    schemas = []
    for name in READ_TOOLS:
        op = operations.operation(name)
        properties = {param.name: _schema(param) for param in op.params}
        required = [param.name for param in op.params if param.required]
        schemas.append(_function(name, f"{op.title}: {op.help}", properties, required))
    answer = {"type": "string", "description": "The full answer in Markdown, with its citations."}
    schemas.append(_function(SUBMIT, _SUBMIT_DESCRIPTION, {"answer": answer}, ["answer"]))
    schemas.append(_function(VERIFY, _VERIFY_DESCRIPTION, {}, []))
    return schemas


def _schema(param: operations.Param) -> dict[str, Any]:
    """A parameter's JSON schema, with its declared range (a number's bounds, a text's length)."""
    schema: dict[str, Any] = {"type": "integer" if param.kind is int else "string", "description": param.agent_help or param.help}
    bounds = ("minimum", "maximum") if param.kind is int else ("minLength", "maxLength")
    for key, value in zip(bounds, (param.low, param.high), strict=True):
        if value is not None:
            schema[key] = value
    if param.default is not None:
        schema["default"] = param.default
    return schema


def _function(name: str, description: str, properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


@dataclass
class ToolOutcome:
    """What a tool call gave: the JSON text for the model, whether it answered, and a short line for people."""

    content: str
    ok: bool
    summary: str
    data: Any = None


@dataclass
class Toolbox:
    """Runs the tools of one question: remembers the sections read and the draft, and whether it verified."""

    service: Service
    reads: list[SectionRead] = field(default_factory=list)
    draft: str | None = None
    verification: dict[str, Any] | None = None

    def new_question(self) -> None:
        """Forget what was read and drafted: citations must come from this question's reads."""
        self.reads, self.draft, self.verification = [], None, None

    def run(self, name: str, raw_arguments: str) -> ToolOutcome:
        """Run one tool call; bad arguments, unknown tools and core errors come back as JSON errors for the model."""
        try:
            arguments = json.loads(raw_arguments) if raw_arguments.strip() else {}
        except json.JSONDecodeError as exc:
            return _error(
                "invalid_argument",
                f"the arguments of {name} are not valid JSON ({exc.msg} at character {exc.pos}); "
                "call it again with one JSON object (an answer cut off at the output limit: submit a shorter one)",
                f"{name}: arguments not valid JSON",
            )
        if not isinstance(arguments, dict):
            return _error("invalid_argument", f"the arguments of {name} must be a JSON object", f"{name}: arguments not an object")
        if name == SUBMIT:
            return self._submit(arguments)
        if name == VERIFY:
            return self._verify()
        if name not in READ_TOOLS:
            return _error(
                "invalid_argument",
                f"there is no tool {name!r}; the tools are {', '.join((*READ_TOOLS, SUBMIT, VERIFY))}",
                f"{name}: no such tool",
            )
        arguments, notes = _forgiven(name, arguments)
        try:
            result = operations.run(self.service, name, arguments)
        except NormcliError as error:
            # The error's own line names what exists instead (its candidates); the methodology says what to call next.
            return _error(error.code, error.one_line(), f"{name}: {error.message}")
        data = result.to_json()
        if name == "get_section":
            self.reads.append(SectionRead.from_json(data))
            data = {"section": {key: value for key, value in data["section"].items() if key != "markdown"}}  # `content` holds the text
        elif name == "get_figure":
            data = {key: value for key, value in data.items() if key != "data"}
            data["note"] = "the image itself is not shown to you; cite the clause that holds the figure"
        if notes:
            data["notes"] = [*data.get("notes", []), *notes]
        return ToolOutcome(json.dumps(data, ensure_ascii=False), True, _summary(name, data), data)

    def _submit(self, arguments: dict[str, Any]) -> ToolOutcome:
        answer = arguments.get("answer")
        if not isinstance(answer, str) or not answer.strip():
            return _error("invalid_argument", "submit_answer needs answer: the full answer as text", "submit_answer: empty")
        self.draft = answer
        self.verification = None
        count = len(find_citations(answer))
        data = {"received": True, "characters": len(answer), "citations": count, "next": "call verify_citations"}
        return ToolOutcome(json.dumps(data), True, f"draft of {len(answer):,} characters, {count} citation(s)", data)

    def _verify(self) -> ToolOutcome:
        if self.draft is None:
            return _error("invalid_argument", "there is no draft yet: call submit_answer first", "verify_citations: no draft")
        self.verification = verify_draft(self.draft, self.reads)
        cited = self.verification["citations"]
        passed = sum(1 for citation in cited if citation["verified"])
        summary = f"{passed} of {len(cited)} citation(s) verified" + ("" if self.verification["verified"] else " — failed")
        # A failed verification is an answer, not an error: the model reads the reasons and corrects the draft.
        return ToolOutcome(json.dumps(self.verification, ensure_ascii=False), True, summary, self.verification)


def _forgiven(name: str, arguments: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """Arguments as a model writes them, read as the MCP server reads them (SPEC §8): numbers given as text
    become numbers, numbers given for text become text, and a number past its range is clamped, with a note."""
    op = operations.operation(name)
    params = operations.resolve_aliases(op, arguments)
    notes: list[str] = []
    for param in op.params:
        value = params.get(param.name)
        if value is None or isinstance(value, bool):
            continue
        if param.kind is int:
            whole_text = isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d{1,9}\s*", value) is not None
            if whole_text or (isinstance(value, float) and value.is_integer()):
                value = int(value)
            if isinstance(value, int) and param.bounded:
                value, note = param.clamp(value)
                notes += [note] if note else []
        elif isinstance(value, int | float):
            value = str(value)
        params[param.name] = value
    return params, notes


def _error(code: str, message: str, summary: str) -> ToolOutcome:
    return ToolOutcome(json.dumps({"error": {"code": code, "message": message}}, ensure_ascii=False), False, summary)


def _summary(name: str, data: dict[str, Any]) -> str:
    """One short line saying what a read found, for the person watching."""
    if name == "get_section":
        section = data["section"]
        pages = "" if section.get("pageStart") is None else f" p. {section['pageStart']}"
        return f"{section['code']}:{section['edition']} {section['path']} {section['title']}{pages}, {len(section['content']):,} characters"
    if name == "search_in_norm":
        return f"{len(data['hits'])} hit(s) in {data['code']}:{data['edition']}"
    if name == "search_corpus":
        return f"{sum(len(norm['hits']) for norm in data['norms'])} hit(s) in {len(data['norms'])} norm(s)"
    if name in ("get_toc", "get_subtree"):
        return f"{data['code']}:{data['edition']} {data.get('path', '')} {len(data['tree'])} node(s)".replace("  ", " ")
    if name == "get_cross_refs":
        return f"{len(data['crossRefs'])} reference(s) from {data['code']} {data['path']}"
    if name == "list_norms":
        return f"{len(data['norms'])} norm(s)"
    return "answered"
