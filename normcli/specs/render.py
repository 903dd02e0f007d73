"""An endpoint as Markdown, for people and for the agent's second content block: method and path,
parameters and responses as tables, schemas as nested lists (a cycle marked ↻), examples, code samples."""

from __future__ import annotations

from normcli.lean_json import dumps
from normcli.specs.files import SPEC_SUFFIXES
from normcli.specs.text import plain

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (3 ms) on an endpoint's read
if TYPE_CHECKING:
    from typing import Any

MAX_SCHEMA_LINES = 300
MAX_EXAMPLE_CHARS = 2000


def schema_type(schema: Any) -> str:
    """A schema's type as a reader says it: `string (date-time)`, `array of Pet`, `Pet`, `string | null`."""
    if not isinstance(schema, dict):
        return ""
    if schema.get("circular") or schema.get("truncated"):
        return str(schema.get("title") or schema.get("$ref") or "")
    name = _ref_name(schema)
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = " | ".join(map(str, kind))
    if kind == "array" or (kind is None and "items" in schema):
        inner = schema_type(schema.get("items"))
        return f"array of {inner}" if inner else "array"
    for combiner in ("oneOf", "anyOf", "allOf"):
        if isinstance(schema.get(combiner), list) and not kind:
            parts = [schema_type(part) or "object" for part in schema[combiner]]
            joined = (" & " if combiner == "allOf" else " | ").join(parts)
            return f"{name} ({joined})" if name else joined
    text = str(kind) if kind else ("object" if "properties" in schema else "")
    if schema.get("format"):
        text = f"{text} ({schema['format']})" if text else str(schema["format"])
    if name:
        return f"{name}" if not text or text == "object" else f"{name}: {text}"
    return text


def _ref_name(schema: dict) -> str:
    """The name a `$ref` gives its schema: the pointer's last part (`#/components/schemas/Pet` → `Pet`),
    or for a ref to a whole file, the file's stem (`models/droplet_create.yml` → `droplet_create`)."""
    ref = schema.get("x-ref")
    if not isinstance(ref, str):
        return ""
    file, _, pointer = ref.partition("#")
    if pointer.strip("/"):
        return pointer.rstrip("/").rsplit("/", 1)[-1].replace("~1", "/").replace("~0", "~")
    name = file.rsplit("/", 1)[-1]
    stem, dot, suffix = name.rpartition(".")
    return stem if dot and f".{suffix.lower()}" in SPEC_SUFFIXES else name


def _cell(text: Any) -> str:
    """Text for one table cell: one line, pipes escaped."""
    flat = " ".join(str(text if text is not None else "").split())
    return flat.replace("|", "\\|")


def _one_line(text: Any, width: int = 160) -> str:
    flat = " ".join(str(text or "").split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def schema_lines(
    schema: Any, indent: int = 0, name: str | None = None, required: bool = False, budget: list[int] | None = None
) -> list[str]:
    """A schema as a nested Markdown list, one property per line."""
    budget = budget if budget is not None else [MAX_SCHEMA_LINES]
    if budget[0] <= 0 or not isinstance(schema, dict):
        return []
    budget[0] -= 1
    pad = "  " * indent
    label = f"**{name}** " if name is not None else ""
    kind = schema_type(schema)
    marks = [mark for mark, on in (("required", required), ("deprecated", schema.get("deprecated") is True)) if on]
    if schema.get("circular"):
        return [f"{pad}- {label}↻ `{kind}` (circular: shown above)"]
    if schema.get("unresolved"):
        return [f"{pad}- {label}⚠ `{schema.get('$ref')}` ({schema['unresolved']})"]
    if schema.get("truncated"):
        return [f"{pad}- {label}`{kind}` (not expanded here: read it on its own)"]
    line = f"{pad}- {label}`{kind or 'any'}`"
    if marks:
        line += f" ({', '.join(marks)})"
    if schema.get("description"):
        line += f" — {_one_line(schema['description'])}"
    if isinstance(schema.get("enum"), list):
        line += f" · one of {', '.join(f'`{value}`' for value in schema['enum'][:12])}{' …' if len(schema['enum']) > 12 else ''}"
    lines = [line]
    needed = set(schema.get("required") or []) if isinstance(schema.get("required"), list) else set()
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for prop, sub in properties.items():
            lines += schema_lines(sub, indent + 1, str(prop), prop in needed, budget)
    items = schema.get("items")
    if isinstance(items, dict) and (items.get("properties") or items.get("circular") or _has_parts(items)):
        lines += schema_lines(items, indent + 1, "items", False, budget)
    for combiner in ("allOf", "oneOf", "anyOf"):
        parts = schema.get(combiner)
        if isinstance(parts, list):
            for number, part in enumerate(parts, 1):
                if isinstance(part, dict) and (part.get("properties") or part.get("circular") or _has_parts(part)):
                    lines += schema_lines(part, indent + 1, f"{combiner}[{number}]", False, budget)
    extra = schema.get("additionalProperties")
    if isinstance(extra, dict) and (extra.get("properties") or extra.get("circular")):
        lines += schema_lines(extra, indent + 1, "additionalProperties", False, budget)
    return lines


def _has_parts(schema: dict) -> bool:
    return any(isinstance(schema.get(key), list) for key in ("allOf", "oneOf", "anyOf")) or isinstance(schema.get("items"), dict)


def _examples(holder: dict) -> list[str]:
    lines: list[str] = []
    examples = []
    if "example" in holder:
        examples.append(("example", holder["example"]))
    if isinstance(holder.get("examples"), dict):
        for label, example in holder["examples"].items():
            value = example.get("value", example.get("externalValue")) if isinstance(example, dict) else example
            examples.append((str(label), value))
    for label, value in examples[:3]:
        text = value if isinstance(value, str) else dumps(value, indent=2, default=str)
        if len(text) > MAX_EXAMPLE_CHARS:
            text = text[:MAX_EXAMPLE_CHARS] + "\n…"
        lines += [f"Example ({label}):", "", "```json" if not isinstance(value, str) else "```", text, "```", ""]
    return lines


def _content_lines(content: Any) -> list[str]:
    lines: list[str] = []
    if not isinstance(content, dict):
        return lines
    for media, entry in content.items():
        if not isinstance(entry, dict):
            continue
        lines.append(f"`{media}`")
        lines.append("")
        if isinstance(entry.get("schema"), dict):
            lines += schema_lines(entry["schema"])
            lines.append("")
        lines += _examples(entry)
    return lines


def endpoint_markdown(domain: str, method: dict[str, Any]) -> str:
    """The whole endpoint as Markdown."""
    lines = [f"# {method['method']} {method['path']}", ""]
    facts = [f"spec `{domain}`"]
    if method.get("operationId"):
        facts.append(f"operationId `{method['operationId']}`")
    if method.get("tags"):
        facts.append("tags " + ", ".join(f"`{tag}`" for tag in method["tags"]))
    if method.get("deprecated"):
        facts.append("**deprecated**")
    if method.get("webhook"):
        facts.append("webhook")
    lines += [" · ".join(facts), ""]
    if method.get("summary"):
        lines += [f"**{_one_line(method['summary'], 300)}**", ""]
    if method.get("description"):
        lines += [str(method["description"]).strip(), ""]
    parameters = [p for p in method.get("parameters") or [] if isinstance(p, dict)]
    if parameters:
        lines += ["## Parameters", "", "| name | in | type | required | description |", "|---|---|---|---|---|"]
        for parameter in parameters:
            lines.append(
                f"| {_cell(parameter.get('name'))} | {_cell(parameter.get('in'))} | {_cell(schema_type(parameter.get('schema')))}"
                f" | {'yes' if parameter.get('required') else ''} | {_cell(_one_line(parameter.get('description'), 200))} |"
            )
        lines.append("")
    body = method.get("requestBody")
    if isinstance(body, dict):
        lines += ["## Request body" + (" (required)" if body.get("required") else ""), ""]
        if body.get("description"):
            lines += [_one_line(body["description"], 400), ""]
        lines += _content_lines(body.get("content"))
    responses = method.get("responses") or {}
    if responses:
        lines += ["## Responses", "", "| status | description | content |", "|---|---|---|"]
        for status, response in responses.items():
            response = response if isinstance(response, dict) else {}
            content: dict = response["content"] if isinstance(response.get("content"), dict) else {}
            kinds = ", ".join(
                f"{media}: {schema_type(entry.get('schema')) or '—'}" for media, entry in content.items() if isinstance(entry, dict)
            )
            lines.append(f"| {_cell(status)} | {_cell(_one_line(response.get('description'), 200))} | {_cell(kinds)} |")
        lines.append("")
        for status, response in responses.items():
            if isinstance(response, dict) and isinstance(response.get("content"), dict) and response["content"]:
                lines += [f"### {status}", ""]
                lines += _content_lines(response["content"])
    samples = method.get("codeSamples") or []
    if samples:
        lines += ["## Code samples", ""]
        for sample in samples:
            label = sample.get("label") or sample.get("lang") or "sample"
            lines += [f"{label}:", "", f"```{str(sample.get('lang') or '').lower()}", str(sample.get("source") or "").rstrip(), "```", ""]
    servers = [server.get("url") for server in method.get("servers") or [] if isinstance(server, dict) and server.get("url")]
    if servers:
        lines += ["Servers: " + ", ".join(f"`{url}`" for url in servers), ""]
    return plain("\n".join(lines).rstrip()) + "\n"  # schema descriptions and examples come from the spec as they are
