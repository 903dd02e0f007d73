"""One endpoint's page: method and path, its text, parameters and responses as tables, request and
response schemas as foldable trees, examples and the code samples the spec carries."""

from __future__ import annotations

import json
from typing import Any

from textual.containers import VerticalScroll
from textual.widgets import DataTable, Markdown, Static

from normcli.specs.render import schema_type
from normcli.tui.widgets.schema_tree import SchemaTree

MAX_EXAMPLE_CHARS = 3000


def _cell(text: Any, width: int = 80) -> str:
    flat = " ".join(str(text if text is not None else "").split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


class EndpointView(VerticalScroll):
    """The endpoint page of the API browser (`show(result)` fills it)."""

    DEFAULT_CSS = """
    EndpointView { padding: 0 1; }
    EndpointView .endpoint-title { text-style: bold; color: $accent; padding: 1 0 0 0; }
    EndpointView .endpoint-heading { text-style: bold; padding: 1 0 0 0; }
    EndpointView DataTable { height: auto; max-height: 20; }
    """

    async def show(self, result: Any) -> None:
        """Replace the page with the endpoint of an `EndpointResult`."""
        await self.remove_children()
        method = result.method
        widgets: list[Any] = [Static(f"{method['method']} {method['path']}", classes="endpoint-title", id="endpoint-title")]
        facts = [f"spec {result.spec.domain}"]
        if method.get("operationId"):
            facts.append(f"operationId {method['operationId']}")
        if method.get("tags"):
            facts.append("tags " + ", ".join(method["tags"]))
        if method.get("deprecated"):
            facts.append("DEPRECATED")
        if method.get("webhook"):
            facts.append("webhook")
        widgets.append(Static(" · ".join(facts)))
        text = "\n\n".join(
            part for part in (f"**{method['summary']}**" if method.get("summary") else "", method.get("description") or "") if part
        )
        if text:
            widgets.append(Markdown(text))
        parameters = [p for p in method.get("parameters") or [] if isinstance(p, dict)]
        if parameters:
            widgets.append(Static("Parameters", classes="endpoint-heading"))
            table: DataTable[str] = DataTable(id="parameters", zebra_stripes=True, cursor_type="row")
            table.add_columns("name", "in", "type", "required", "description")
            for parameter in parameters:
                table.add_row(
                    _cell(parameter.get("name"), 30),
                    _cell(parameter.get("in"), 10),
                    _cell(schema_type(parameter.get("schema")), 30),
                    "yes" if parameter.get("required") else "",
                    _cell(parameter.get("description")),
                )
            widgets.append(table)
        body = method.get("requestBody")
        if isinstance(body, dict):
            widgets.append(Static("Request body" + (" (required)" if body.get("required") else ""), classes="endpoint-heading"))
            widgets += self._content(body.get("content"), "request")
        responses = method.get("responses") or {}
        if responses:
            widgets.append(Static("Responses", classes="endpoint-heading"))
            table = DataTable(id="responses", zebra_stripes=True, cursor_type="row")
            table.add_columns("status", "description", "content")
            for status, response in responses.items():
                response = response if isinstance(response, dict) else {}
                content: dict[str, Any] = response["content"] if isinstance(response.get("content"), dict) else {}
                kinds = ", ".join(
                    f"{media}: {schema_type(entry.get('schema')) or '—'}" for media, entry in content.items() if isinstance(entry, dict)
                )
                table.add_row(_cell(status, 12), _cell(response.get("description")), _cell(kinds, 60))
            widgets.append(table)
            for status, response in responses.items():
                if isinstance(response, dict) and isinstance(response.get("content"), dict) and response["content"]:
                    widgets += self._content(response["content"], f"response {status}")
        samples = method.get("codeSamples") or []
        if samples:
            widgets.append(Static("Code samples", classes="endpoint-heading"))
            for sample in samples:
                label = sample.get("label") or sample.get("lang") or "sample"
                fence = str(sample.get("lang") or "").lower()
                widgets.append(Markdown(f"{label}:\n\n```{fence}\n{str(sample.get('source') or '').rstrip()}\n```", classes="code-sample"))
        await self.mount_all(widgets)
        self.scroll_home(animate=False)

    def _content(self, content: Any, what: str) -> list[Any]:
        widgets: list[Any] = []
        if not isinstance(content, dict):
            return widgets
        for media, entry in content.items():
            if not isinstance(entry, dict):
                continue
            if isinstance(entry.get("schema"), dict):
                widgets.append(SchemaTree(f"{what} · {media}", entry["schema"], classes="schema"))
            examples = []
            if "example" in entry:
                examples.append(("example", entry["example"]))
            if isinstance(entry.get("examples"), dict):
                for label, example in entry["examples"].items():
                    examples.append((str(label), example.get("value") if isinstance(example, dict) else example))
            for label, value in examples[:3]:
                shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, indent=2, default=str)
                if len(shown) > MAX_EXAMPLE_CHARS:
                    shown = shown[:MAX_EXAMPLE_CHARS] + "\n…"
                widgets.append(Markdown(f"Example ({label}):\n\n```json\n{shown}\n```", classes="example"))
        return widgets
