"""`normcli mcp`: the read operations of SPEC §3 as MCP tools over stdio, for local agents.

Ten typed tools call the `Service`; each answers the CLI's `--json` document as structured content
plus a Markdown block, and failures become tool errors that tell the agent what to call instead.
This module imports the MCP SDK at the top, so only `normcli mcp` (inside its body) imports it.
"""

import base64
import inspect
import json
import logging
import re
import threading
from collections.abc import Callable
from typing import Annotated, Any, Literal
from urllib.parse import quote, unquote

import anyio
from mcp.server import MCPServer
from mcp.server.mcpserver import Context
from mcp.server.mcpserver.exceptions import ResourceError, ResourceNotFoundError, ToolError, UnexpectedToolError
from mcp.server.mcpserver.resources import FunctionResource
from mcp.shared.message import SessionMessage
from mcp_types import (
    PARSE_ERROR,
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    ErrorData,
    ImageContent,
    JSONRPCError,
    TextContent,
    ToolAnnotations,
)
from mcp_types import (
    Resource as MCPResource,
)
from pydantic import Field, ValidationError

from normcli import __version__
from normcli import results as r
from normcli.errors import InvalidArgument, NormcliError, NotFound
from normcli.mcp import spec_tools
from normcli.mcp.guard import BudgetGuard, McpSettings, Notes
from normcli.mcp.schemas import output_type
from normcli.mcp.text import IMAGE_BLOCK_TYPES, clause_document, to_markdown
from normcli.mcp.wording import DESCRIPTIONS, INSTRUCTIONS, error_object, explain, plain_validation
from normcli.operations import BY_TOOL, OPERATIONS, TOOL_NAMES, Operation, Param, resolve_aliases
from normcli.service import Service
from normcli.windows import join_windows

logger = logging.getLogger("normcli.mcp")

RESOURCE_TOC_DEPTH = 2
SECTION_RESOURCES = 5000  # clauses listed as resources; the section template reads any other
SECTION_WINDOW = 40000

# -- tool inputs, generated from normcli.operations ----------------------------------------------


def output_schema_type(op: Operation) -> Any:
    """The structured content of a tool: its result record's `to_json()` (a figure's bytes go in an image block instead)."""
    return output_type(getattr(r, op.result), omit=("data",) if op.result == "FigureResult" else ())


def input_field(param: Param, optional: bool = False) -> Any:
    """The annotated type of one declared parameter in a tool's input schema. A number's range is in its
    description, not in JSON Schema bounds: a number past it is clamped, not refused (SPEC §8)."""
    description = param.agent_help or param.help
    if param.kind is bool:
        return Annotated[bool, Field(description=description)]
    if param.choices:
        choice: Any = Literal[param.choices]  # type: ignore[valid-type]
        return Annotated[choice if param.required or param.default is not None else choice | None, Field(description=description)]
    if param.kind is int:
        kind: Any = int | None if param.default is None else int
        return Annotated[kind, Field(description=description)]
    kind = str if param.required and not optional else str | None
    return Annotated[
        kind,
        Field(
            description=description,
            min_length=(param.low or 1) if param.required else None,
            max_length=param.high,
            coerce_numbers_to_str=True,
        ),
    ]


def tool_function(op: Operation, reader: "Reader") -> Callable[..., CallToolResult]:
    """The tool function of `op`: its signature carries the declared parameters and their older names
    (`norm` beside `code`), so the SDK builds the input schema from it. Numbers past their range are
    clamped here, and the answer's `notes` say so (SPEC §8)."""

    def call(**given: Any) -> CallToolResult:
        arguments = {param.name: given.get(param.name, param.default) for param in op.params}
        missing = [param.name for param in op.params if param.required and arguments[param.name] in (None, "")]
        if missing:
            names = [" or ".join((name, *op.param(name).aliases)) for name in missing]
            return reader.refuse(
                op.tool, "invalid_argument", missing[0], f"{op.tool} needs {', '.join(names)}. Call {op.tool} again with it."
            )
        notes = []
        for param in op.params:
            if param.bounded and isinstance(arguments[param.name], int):
                arguments[param.name], note = param.clamp(arguments[param.name])
                notes += [note] if note else []

        def read(service: Service) -> Any:
            try:
                return getattr(service, op.name)(*[arguments[param.name] for param in op.params])
            except InvalidArgument as error:  # a number past a bound the core knows only once it has read (an offset)
                asked = arguments.get(error.param)
                if error.high is None or not isinstance(asked, int) or asked <= error.high:
                    raise
                arguments[error.param] = error.high
                notes.append(f"{error.param} {asked} is above its range; {error.high} was used")
                return getattr(service, op.name)(*[arguments[param.name] for param in op.params])

        return reader.answer(op.tool, arguments, read, notes)

    parameters = [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=input_field(param, optional=bool(param.aliases)),
            **({} if param.required and not param.aliases else {"default": param.default}),
        )
        for param in op.params
        for name in (param.name, *param.aliases)
    ]
    returns = Annotated[CallToolResult, output_schema_type(op)]
    call.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    call.__annotations__ = {**{parameter.name: parameter.annotation for parameter in parameters}, "return": returns}
    call.__name__ = op.tool
    return call


def declare_aliases(schema: dict[str, Any], op: Operation) -> None:
    """Declare each older parameter name (`norm` for `code`) in a tool's input schema, so that clients that
    validate arguments pass them (SPEC §8). One of the two is required; that is said in the descriptions,
    not with a top-level `anyOf`, which some model APIs refuse in a tool's input schema."""
    properties = schema.get("properties", {})
    required = schema.setdefault("required", [])
    for param in op.params:
        for alias in param.aliases:
            either = " or ".join((param.name, alias))
            properties[alias] = {
                "type": "string",
                "description": f"The older name of `{param.name}`, accepted as such. {either}: one is required.",
            }
            if param.required:
                properties[param.name]["description"] = f"{properties[param.name]['description']} Required ({either})."
                required[:] = [name for name in required if name != param.name]
            for name in (param.name, alias):
                spec = properties[name]
                if "anyOf" in spec:  # `str | None`: a client sends a string or leaves it out
                    spec.pop("anyOf")
                    spec.pop("default", None)
                    spec.update(type="string", maxLength=param.high or 200)
    if not required:
        schema.pop("required")


def untitled(schema: Any) -> Any:
    """`schema` without the `title` strings pydantic derives from names ("Maxchars"): they tell a model
    nothing the property name does not, and every tools/list pays for them."""
    if isinstance(schema, dict):
        for key in [key for key, value in schema.items() if key == "title" and isinstance(value, str)]:
            del schema[key]
        for value in schema.values():
            untitled(value)
    elif isinstance(schema, list):
        for value in schema:
            untitled(value)
    return schema


def answer_or_error(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's output schema made to hold what it answers: the answer (with `notes` when a number was
    clamped), or an error result's `{"error": {code, what, candidates, message}}`. Clients (the TypeScript
    SDK) check every structured content against it, error results included."""
    properties = dict(schema.get("properties", {}))
    properties["notes"] = {"type": "array", "items": {"type": "string"}, "description": "What was adjusted, e.g. a clamped number."}
    properties["error"] = ERROR_SCHEMA
    required = schema.get("required", [])
    out = {key: value for key, value in schema.items() if key not in ("properties", "required")}
    out["properties"] = properties
    out["anyOf"] = [{"required": ["error"]}, {"required": required} if required else {"not": {"required": ["error"]}}]
    return out


ERROR_SCHEMA = {
    "type": "object",
    "description": "Present only in an error result: what went wrong, in data.",
    "properties": {
        "code": {"type": "string", "enum": ["not_found", "invalid_argument", "workspace_error", "internal_error"]},
        "what": {
            "type": "string",
            "description": "What was not found (norm, edition, language, path, figure, table, id) or the argument at fault.",
        },
        "candidates": {"type": "array", "items": {"type": "string"}, "description": "What exists instead, nearest first."},
        "value": {"type": "string", "description": "What was asked for."},
        "message": {"type": "string"},
    },
    "required": ["code", "what", "candidates", "message"],
}


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def _annotations(title: str) -> ToolAnnotations:
    return READ_ONLY.model_copy(update={"title": title})


class Reader:
    """The service behind the tools: one call at a time, errors turned into error results, the budget counted."""

    def __init__(self, service: Service, settings: McpSettings) -> None:
        self.service = service
        self.settings = settings
        self.guard = BudgetGuard(settings)
        self._lock = threading.Lock()

    def answer(
        self, tool: str, arguments: dict[str, Any], call: Callable[[Service], Any], notes: list[str] | None = None
    ) -> CallToolResult:
        """Run one read operation and build the tool result (SPEC §8): its JSON first (the structured
        content, with `notes` when a number was clamped), a Markdown rendering, for a figure its image,
        and budget or repeat notes last in a block of their own (and in `_meta`)."""
        with self._lock:
            try:
                result = call(self.service)
            except NormcliError as error:
                return self._failed(tool, arguments, error_object(error, tool, arguments), explain(error, tool, arguments))
            except Exception as exc:  # a bug in the core must not end the session
                logger.exception("normcli: %s failed", tool)
                message = f"internal error in normcli ({type(exc).__name__}: {exc}); tell the user to report it. Other tools still work."
                return self._failed(tool, arguments, {"code": "internal_error", "what": "", "candidates": [], "message": message}, message)
            data = result.to_json()
            guard = self.guard.record(tool, arguments, data)
        if isinstance(result, r.FigureResult):
            data = {key: value for key, value in data.items() if key != "data"}
        if notes:
            data["notes"] = list(notes)
        content: list[ContentBlock] = [json_block(data)]
        rendering = to_markdown(result)
        if notes:
            rendering = "\n".join(f"Note: {note}." for note in notes) + "\n\n" + rendering
        content.append(TextContent(type="text", text=rendering))
        if isinstance(result, r.FigureResult):
            content.append(figure_block(result))
        return self._finish(CallToolResult(content=content, structured_content=data), guard)

    def refuse(self, tool: str, code: str, what: str, message: str, candidates: list[str] | None = None) -> CallToolResult:
        """An error result for a call refused before it reached the core (a missing or malformed
        argument, an unknown parameter or tool); it reads nothing and is not counted."""
        error = {"code": code, "what": what, "candidates": list(candidates or []), "message": message}
        return error_result(error, message)

    def _failed(self, tool: str, arguments: dict[str, Any], error: dict[str, Any], text: str) -> CallToolResult:
        guard = self.guard.record(tool, arguments, {"error": error}, answered=False)
        return self._finish(error_result(error, text), guard)

    @staticmethod
    def _finish(result: CallToolResult, guard: Notes) -> CallToolResult:
        """The guard's notes as the last block, and with its counters in `_meta`."""
        if guard.lines:
            result.content.append(TextContent(type="text", text="\n".join(guard.lines)))
        result.meta = {"normcli/budget": guard.meta(), "normcli/notes": list(guard.lines)}
        return result

    def read(self, call: Callable[[Service], Any]) -> Any:
        """Run one operation for a resource; an unknown norm or clause is a resource-not-found error."""
        with self._lock:
            try:
                return call(self.service)
            except NotFound as error:
                raise ResourceNotFoundError(
                    f"{error.message}; list_norms (normcli://norms) gives the codes and editions, get_toc the paths"
                ) from None
            except NormcliError as error:
                raise ResourceError(error.message) from None


def json_block(data: dict[str, Any]) -> TextContent:
    """The answer's JSON as the first text block, for clients that parse the text (SPEC §8)."""
    return TextContent(type="text", text=json.dumps(data, ensure_ascii=False))


def error_result(error: dict[str, Any], text: str) -> CallToolResult:
    """An error result: `{"error": {code, what, candidates, message}}` as structured content and as the
    first text block, then the text saying what to call next."""
    data = {"error": error}
    return CallToolResult(content=[json_block(data), TextContent(type="text", text=text)], structured_content=data, is_error=True)


def figure_block(result: r.FigureResult) -> ContentBlock:
    """The figure as an image block, or as an embedded file when models cannot take its type as an image."""
    encoded = base64.b64encode(result.data).decode("ascii")
    if result.mime_type in IMAGE_BLOCK_TYPES:
        return ImageContent(type="image", data=encoded, mime_type=result.mime_type)
    uri = f"normcli://figure/{resource_slug(result.edition.code)}/{result.edition.edition}/{result.figure_id}"
    return EmbeddedResource(type="resource", resource=BlobResourceContents(uri=uri, blob=encoded, mime_type=result.mime_type))


class NormServer(MCPServer):
    """MCPServer with the forgiving argument handling agents need: declared aliases (`norm` for `code`), unknown names refused."""

    async def run_stdio_async(self) -> None:
        """Serve on stdio as the SDK does, but answer a line that is not a JSON-RPC message (not JSON, a lone
        surrogate) with a parse error, as JSON-RPC asks: the SDK's transport passes it on as an exception
        that nothing answers, and the client would wait for ever."""
        from mcp.server.stdio import stdio_server

        async with stdio_server() as (read_stream, write_stream):
            await self._lowlevel_server.run(
                _ParseErrorsAnswered(read_stream, write_stream), write_stream, self._lowlevel_server.create_initialization_options()
            )

    reader: "Reader"

    async def list_resources(self) -> list[Any]:
        """The fixed resources, then one per clause of each norm's default edition (SPEC §8), up to
        `SECTION_RESOURCES`; the section template reads any clause of any edition."""
        listed = await super().list_resources()
        rows = self.reader.read(lambda s: section_listing(s, SECTION_RESOURCES))
        return listed + [
            MCPResource(uri=uri, name=f"{code} {path}", title=f"{code}:{edition}, {path} {title}".rstrip(), mime_type="text/markdown")
            for uri, code, edition, path, title in rows
        ]

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        """Map declared aliases (`norm`) to their parameters (`code`), and answer an unknown tool, an
        unknown argument name or a malformed value with a structured error result (SPEC §8)."""
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            message = f"there is no tool {name!r}; the tools are {', '.join(TOOL_NAMES)}. Start with get_methodology."
            return self.reader.refuse(name, "invalid_argument", "tool", message, list(TOOL_NAMES))
        if isinstance(arguments, dict):
            known = set(tool.parameters.get("properties", {}))
            arguments = resolve_aliases(BY_TOOL[name], arguments) if name in BY_TOOL else dict(arguments)
            unknown = sorted(set(arguments) - known)
            if unknown:
                takes = ", ".join(sorted(known)) or "no parameters"
                message = f"{name} takes no parameter {', '.join(unknown)}; its parameters are {takes}. Call {name} again with those."
                return self.reader.refuse(name, "invalid_argument", unknown[0], message, sorted(known))
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, ValidationError):
                problems = cause.errors()
                what = ".".join(str(part) for part in problems[0]["loc"]) if problems else ""
                message = f"{name}: {plain_validation(problems)}. Call {name} again with corrected arguments."
                return self.reader.refuse(name, "invalid_argument", what, message)
            raise


class _ParseErrorsAnswered:
    """The transport's read stream, with each line it could not read answered by a JSON-RPC parse error."""

    def __init__(self, inner: Any, replies: Any) -> None:
        self._inner = inner
        self._replies = replies

    def __getattr__(self, name: str) -> Any:  # what else the SDK reads of its stream (`last_context`)
        return getattr(self._inner, name)

    async def receive(self) -> Any:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item
            error = ErrorData(code=PARSE_ERROR, message=f"Parse error: the line is not a JSON-RPC message ({type(item).__name__})")
            await self._replies.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error)))

    def __aiter__(self) -> "_ParseErrorsAnswered":
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError):
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> "_ParseErrorsAnswered":
        await self._inner.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        return await self._inner.__aexit__(*exc_info)


def build_server(service: Service, settings: McpSettings | None = None, log_level: str = "WARNING") -> NormServer:
    """The MCP server over one workspace: ten read tools, the method, the norm list and each norm's TOC as resources."""
    settings = settings or McpSettings()
    reader = Reader(service, settings)
    info = service.info()
    server = NormServer(
        name="normcli",
        title="normcli — local technical norms",
        description="Reads the technical norms of a local workspace: tables of contents, clauses, search, references, figures.",
        version=__version__,
        instructions=INSTRUCTIONS.format(name=info.name, norms=info.norms, budget=settings.budget)
        + (f"\n{spec_tools.INSTRUCTIONS}" if service.spec_list().specs else ""),
        log_level=log_level,  # type: ignore[arg-type]
    )

    server.reader = reader
    for op in OPERATIONS.values():
        server.tool(
            name=op.tool,
            title=op.title,
            description=DESCRIPTIONS.get(op.tool) or spec_tools.DESCRIPTIONS.get(op.tool, op.help),
            annotations=_annotations(op.title),
        )(tool_function(op, reader))
        tool = server._tool_manager.get_tool(op.tool)
        assert tool is not None  # registered just above
        declare_aliases(tool.parameters, op)
        untitled(tool.parameters)
        if tool.fn_metadata.output_schema is not None:
            tool.fn_metadata.output_schema = untitled(answer_or_error(tool.fn_metadata.output_schema))

    _add_resources(server, reader)
    return server


def section_uri(code: str, edition: str, path: str) -> str:
    """The URI of one clause: `normcli://SIA%20261/2020/4.2.1`."""
    return f"normcli://{quote(code, safe='')}/{quote(edition, safe='')}/{quote(path, safe='')}"


def section_listing(service: Service, most: int) -> list[tuple[str, str, str, str, str]]:
    """(uri, code, edition, path, title) of each clause of every norm's default edition, in reading order."""
    out: list[tuple[str, str, str, str, str]] = []
    for norm in service.norms().norms:
        edition = next((item.edition for item in norm.editions if item.published), None)
        if edition is None:
            continue
        stack = list(reversed(service.toc(norm.code, 6, edition).tree))
        while stack and len(out) < most:
            node = stack.pop()
            out.append((section_uri(norm.code, edition, node.path), norm.code, edition, node.path, node.title))
            stack.extend(reversed(node.children))
    return out


def section_document(service: Service, code: str, edition: str, path: str) -> str:
    """A whole clause as one Markdown document: its windows joined, then what the first window lists."""
    first = service.section(code, path, SECTION_WINDOW, 0, edition)
    texts, window = [first.content], first
    while window.next_offset is not None:
        window = service.section(code, path, SECTION_WINDOW, window.next_offset, edition)
        texts.append(window.content)
    return clause_document(first, join_windows(texts))


def resource_slug(code: str) -> str:
    """The URI-safe name of a norm code: 'SIA 261' → 'sia-261' (codes match forgivingly, so it reads back)."""
    return re.sub(r"[^a-z0-9]+", "-", code.lower()).strip("-")


def _add_resources(server: MCPServer, reader: Reader) -> None:
    """The method, the norm list, and each norm's TOC at depth 2 (plus a template for any code)."""

    def methodology() -> str:
        return reader.read(lambda s: s.methodology().text)

    def norms() -> str:
        return json.dumps(reader.read(lambda s: s.norms().to_json()), ensure_ascii=False)

    server.add_resource(
        FunctionResource.from_function(
            methodology,
            uri="normcli://methodology",
            name="methodology",
            title="Reading method",
            description="The reading method for this workspace (the same text as the get_methodology tool). Read it first.",
            mime_type="text/markdown",
        )
    )
    server.add_resource(
        FunctionResource.from_function(
            norms,
            uri="normcli://norms",
            name="norms",
            title="Norms in this workspace",
            description="Every norm with its editions and languages, as JSON (the same as the list_norms tool).",
            mime_type="application/json",
        )
    )
    for norm in reader.read(lambda s: s.norms()).norms:
        slug = resource_slug(norm.code)
        # A norm held only as drafts has no default edition: its resource shows the newest draft.
        draft = None if any(edition.published for edition in norm.editions) else norm.editions[0].edition

        def toc(code: str = norm.code, edition: str | None = draft) -> str:
            return json.dumps(reader.read(lambda s: s.toc(code, RESOURCE_TOC_DEPTH, edition).to_json()), ensure_ascii=False)

        server.add_resource(
            FunctionResource.from_function(
                toc,
                uri=f"normcli://toc/{slug}",
                name=f"toc-{slug}",
                title=f"{norm.code} — table of contents",
                description=f"The table of contents of {norm.code} ({norm.title}), two levels deep, as JSON (get_toc with maxDepth 2).",
                mime_type="application/json",
            )
        )

    @server.resource(
        "normcli://{code}/{edition}/{path}",
        name="section",
        title="A clause of a norm",
        description="One clause as Markdown, its whole text with its references and subclauses, e.g. normcli://SIA%20261/2020/4.2.1 "
        "({code} and {path} percent-encoded; {edition} as list_norms gives it).",
        mime_type="text/markdown",
    )
    def section_template(code: str, edition: str, path: str) -> str:
        return reader.read(lambda s: section_document(s, unquote(code), unquote(edition), unquote(path)))

    @server.resource(
        "normcli://toc/{code}",
        name="toc",
        title="Table of contents of a norm",
        description="Any norm's table of contents two levels deep, as JSON; {code} is the code in lower case with hyphens, e.g. sia-261.",
        mime_type="application/json",
    )
    def toc_template(code: str) -> str:
        return json.dumps(reader.read(lambda s: s.toc(code, RESOURCE_TOC_DEPTH).to_json()), ensure_ascii=False)
