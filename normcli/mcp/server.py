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
from typing import Annotated, Any

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
from pydantic import Field, ValidationError

from normcli import __version__
from normcli import results as r
from normcli.errors import NormcliError, NotFound
from normcli.mcp import spec_tools
from normcli.mcp.guard import BudgetGuard, McpSettings
from normcli.mcp.schemas import output_type
from normcli.mcp.text import IMAGE_BLOCK_TYPES, to_markdown
from normcli.mcp.wording import DESCRIPTIONS, INSTRUCTIONS, explain, plain_validation
from normcli.operations import BY_TOOL, OPERATIONS, TOOL_NAMES, Operation, Param, resolve_aliases
from normcli.service import Service

logger = logging.getLogger("normcli.mcp")

RESOURCE_TOC_DEPTH = 2

# -- tool inputs, generated from normcli.operations ----------------------------------------------


def output_schema_type(op: Operation) -> Any:
    """The structured content of a tool: its result record's `to_json()` (a figure's bytes go in an image block instead)."""
    return output_type(getattr(r, op.result), omit=("data",) if op.result == "FigureResult" else ())


def input_field(param: Param) -> Any:
    """The annotated type of one declared parameter in a tool's input schema: its range as JSON Schema bounds."""
    description = param.agent_help or param.help
    if param.kind is int:
        kind: Any = int | None if param.default is None else int
        return Annotated[kind, Field(ge=param.low, le=param.high, description=description)]
    kind = str if param.required else str | None
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
    """The tool function of `op`: its signature carries the declared parameters, so the SDK builds the input schema from it."""

    def call(**given: Any) -> CallToolResult:
        arguments = {param.name: given.get(param.name, param.default) for param in op.params}
        args = [arguments[param.name] for param in op.params]
        return reader.answer(op.tool, arguments, lambda service: getattr(service, op.name)(*args))

    parameters = [
        inspect.Parameter(
            param.name,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=input_field(param),
            **({} if param.required else {"default": param.default}),
        )
        for param in op.params
    ]
    returns = Annotated[CallToolResult, output_schema_type(op)]
    call.__signature__ = inspect.Signature(parameters, return_annotation=returns)  # type: ignore[attr-defined]
    call.__annotations__ = {**{parameter.name: parameter.annotation for parameter in parameters}, "return": returns}
    call.__name__ = op.tool
    return call


READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=False)


def _annotations(title: str) -> ToolAnnotations:
    return READ_ONLY.model_copy(update={"title": title})


class Reader:
    """The service behind the tools: one call at a time, errors turned into tool errors, the budget counted."""

    def __init__(self, service: Service, settings: McpSettings) -> None:
        self.service = service
        self.settings = settings
        self.guard = BudgetGuard(settings)
        self._lock = threading.Lock()

    def answer(self, tool: str, arguments: dict[str, Any], call: Callable[[Service], Any]) -> CallToolResult:
        """Run one read operation and build the tool result: structured JSON, Markdown, reminders."""
        with self._lock:
            try:
                result = call(self.service)
            except NormcliError as error:
                notes = self.guard.record(tool, arguments, {"error": error.one_line()}, answered=False)
                raise ToolError("\n".join([explain(error, tool, arguments), *notes.lines])) from None
            except Exception as exc:  # a bug in the core must not end the session
                logger.exception("normcli: %s failed", tool)
                raise ToolError(
                    f"internal error in normcli ({type(exc).__name__}: {exc}); tell the user to report it. Other tools still work."
                ) from None
            data = result.to_json()
            notes = self.guard.record(tool, arguments, data)
        content: list[ContentBlock] = [TextContent(type="text", text=to_markdown(result))]
        if tool in spec_tools.TOOLS:  # SPEC §8: the JSON answer first, its Markdown after it
            content.insert(0, TextContent(type="text", text=json.dumps(data, ensure_ascii=False)))
        if isinstance(result, r.FigureResult):
            data = {key: value for key, value in data.items() if key != "data"}
            content.append(figure_block(result))
        content += [TextContent(type="text", text=line) for line in notes.lines]
        return CallToolResult(content=content, structured_content=data, _meta={"normcli/budget": notes.meta()})

    def read(self, call: Callable[[Service], Any]) -> Any:
        """Run one operation for a resource; an unknown norm is a resource-not-found error."""
        with self._lock:
            try:
                return call(self.service)
            except NotFound as error:
                raise ResourceNotFoundError(f"{error.message}; call list_norms or read normcli://norms for the codes") from None
            except NormcliError as error:
                raise ResourceError(error.message) from None


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

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        """Map declared aliases (`norm`) to their parameters (`code`), refuse unknown argument names, and put validation errors in plain words."""
        tool = self._tool_manager.get_tool(name)
        if tool is None:
            raise ToolError(f"there is no tool {name!r}; the tools are {', '.join(TOOL_NAMES)}. Start with get_methodology.")
        if isinstance(arguments, dict):
            known = set(tool.parameters.get("properties", {}))
            arguments = resolve_aliases(BY_TOOL[name], arguments) if name in BY_TOOL else dict(arguments)
            unknown = sorted(set(arguments) - known)
            if unknown:
                takes = ", ".join(sorted(known)) or "no parameters"
                raise ToolError(
                    f"{name} takes no parameter {', '.join(unknown)}; its parameters are {takes}. Call {name} again with those."
                )
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as error:
            cause = error.__cause__
            if isinstance(cause, ValidationError):
                raise ToolError(f"{name}: {plain_validation(cause.errors())}. Call {name} again with corrected arguments.") from None
            if isinstance(cause, ToolError):  # our own text, without the SDK's "Error executing tool …" prefix
                raise ToolError(str(cause)) from None
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

    for op in OPERATIONS.values():
        server.tool(
            name=op.tool,
            title=op.title,
            description=DESCRIPTIONS.get(op.tool) or spec_tools.DESCRIPTIONS[op.tool],
            annotations=_annotations(op.title),
        )(tool_function(op, reader))

    _add_resources(server, reader)
    return server


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
        "normcli://toc/{code}",
        name="toc",
        title="Table of contents of a norm",
        description="Any norm's table of contents two levels deep, as JSON; {code} is the code in lower case with hyphens, e.g. sia-261.",
        mime_type="application/json",
    )
    def toc_template(code: str) -> str:
        return json.dumps(reader.read(lambda s: s.toc(code, RESOURCE_TOC_DEPTH).to_json()), ensure_ascii=False)
