"""The read operations of SPEC §3, each declared once: its names, parameters, ranges, defaults and help.

Everything else is generated from `OPERATIONS`: the service's argument checks (`checked`), the lean
`--json` parser (`cli/fast.py`), `batch` (`run`), the Typer commands' arguments, options and help
(`cli/commands/reads.py`) and the MCP tools' input schemas (`mcp/server.py`). A new operation is one
`Operation` here plus one `Service` method whose positional parameters follow the declared order;
`Param` and the parameters several operations share are declared in `normcli.params`.

Every `--json` call imports this module: it holds plain records and no `typing` or `dataclasses`.
"""

from __future__ import annotations

from normcli.errors import InvalidArgument
from normcli.params import CODE, EDITION, KEYWORD, LANGUAGE, PATH, SPEC_KEYWORD, SPEC_LIMIT, Param
from normcli.record import record, replace

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any, TypeVar

    T = TypeVar("T")


@record
class Operation:
    """One read operation: `name` on the command line and in `batch`, `tool` in MCP, the `Service`
    method of the same name, its parameters in the method's positional order, one line of help, an
    example, and the result record it answers with."""

    name: str
    tool: str
    title: str
    help: str
    example: str
    params: tuple[Param, ...] = ()
    result: str = ""  # the class in `normcli.results` it answers with (the MCP output schema is made from it)
    fast: bool = True  # answered by the lean `--json` path (not `figure`: its answer is a file)
    group: str = ""  # a command group on the command line (`api` for the spec discovery operations)
    command: str = ""  # the command's name inside its group (`api spec`), where it differs from `name`

    def param(self, name: str) -> Param:
        """The parameter named `name` (camelCase)."""
        return next(param for param in self.params if param.name == name)


PER_NORM = (EDITION, LANGUAGE)

# -- the operations, in the order of SPEC §3 --------------------------------------------------

OPERATIONS: dict[str, Operation] = {
    op.name: op
    for op in (
        Operation(
            "methodology",
            "get_methodology",
            "Reading method",
            "The reading method for agents and people, built for this workspace.",
            "normcli methodology",
            (
                Param(
                    "norm",
                    str,
                    "A norm to put first in the method (the one the question is about).",
                    high=200,
                    flags=("--norm",),
                    agent_help="Optional: the norm the question is about, e.g. 'SIA 261'; the method then puts it first.",
                ),
            ),
            result="MethodologyResult",
        ),
        Operation("info", "whoami", "Workspace", "Which workspace is read and what it holds.", "normcli info", result="InfoResult"),
        Operation(
            "norms", "list_norms", "List norms", "List the norms with their editions and languages.", "normcli norms", result="NormsResult"
        ),
        Operation(
            "toc",
            "get_toc",
            "Table of contents",
            "The table of contents of a norm.",
            'normcli toc "SIA 261" --depth 2',
            (
                CODE,
                Param(
                    "maxDepth",
                    int,
                    "How deep: 1 (chapters) to 6.",
                    default=1,
                    low=1,
                    high=6,
                    flags=("--depth", "-d"),
                    agent_help="How deep, 1–6: 1 = chapters (default).",
                ),
                *PER_NORM,
            ),
            result="TocResult",
        ),
        Operation(
            "subtree",
            "get_subtree",
            "Clauses under a clause",
            "A clause and the clauses below it.",
            'normcli subtree "SIA 261" 4 --max-nodes 50',
            (
                CODE,
                PATH,
                Param(
                    "maxDepth",
                    int,
                    "Levels below the clause (default: all).",
                    low=0,
                    high=1000,
                    flags=("--depth", "-d"),
                    agent_help="Levels below the clause; default: all.",
                ),
                Param(
                    "maxNodes",
                    int,
                    "At most this many clauses, 20 to 2000, filled level by level.",
                    default=400,
                    low=20,
                    high=2000,
                    flags=("--max-nodes",),
                    agent_help="At most this many clauses (20–2000, default 400), filled level by level; cut nodes say truncated and childCount.",
                ),
                *PER_NORM,
            ),
            result="SubtreeResult",
        ),
        Operation(
            "section",
            "get_section",
            "Read a clause",
            "Read a clause, window by window for long ones.",
            'normcli section "SIA 261" 4.2.1',
            (
                CODE,
                PATH,
                Param(
                    "maxChars",
                    int,
                    "Window size in characters, 500 to 40000.",
                    default=12000,
                    low=500,
                    high=40000,
                    flags=("--max-chars",),
                    agent_help="Window size in characters (500–40000, default 12000).",
                ),
                Param(
                    "offset",
                    int,
                    "Where the window starts (the nextOffset of the previous one).",
                    default=0,
                    low=0,
                    flags=("--offset",),
                    agent_help="Where the window starts: 0, or the nextOffset of the previous window.",
                ),
                *PER_NORM,
            ),
            result="SectionResult",
        ),
        Operation(
            "search",
            "search_in_norm",
            "Search one norm",
            "Search the titles and text of one norm.",
            'normcli search "SIA 261" "charge de neige"',
            (
                CODE,
                KEYWORD,
                Param(
                    "limit",
                    int,
                    "At most this many hits, 1 to 50.",
                    default=20,
                    low=1,
                    high=50,
                    flags=("--limit", "-n"),
                    agent_help="At most this many hits (1–50, default 20).",
                ),
                *PER_NORM,
            ),
            result="SearchResult",
        ),
        Operation(
            "corpus",
            "search_corpus",
            "Search all norms",
            "Search every norm at once, title hits first.",
            'normcli corpus "Straße"',
            (
                Param(
                    "keyword",
                    str,
                    "Words or a clause number; accents, case and ß/ss do not matter.",
                    required=True,
                    low=1,
                    high=200,
                    agent_help=KEYWORD.agent_help,
                ),
                Param(
                    "limit",
                    int,
                    "At most this many hits over all norms, 1 to 40.",
                    default=20,
                    low=1,
                    high=40,
                    flags=("--limit", "-n"),
                    agent_help="At most this many hits over all norms (1–40, default 20).",
                ),
                Param(
                    "edition",
                    str,
                    "Which editions: newest (default), all, or a year such as 2014.",
                    high=50,
                    flags=("--edition", "-e"),
                    agent_help="Which editions to search: 'newest' (default: each norm's newest published edition), "
                    "'all' (every edition, drafts too), or a year such as '2014'.",
                ),
            ),
            result="CorpusResult",
        ),
        Operation(
            "xrefs",
            "get_cross_refs",
            "Cross-references of a clause",
            "The references a clause makes, and where they lead.",
            'normcli xrefs "SIA 261" 4.2.1',
            (
                CODE,
                PATH,
                *PER_NORM,
                Param(
                    "direction",
                    str,
                    "outgoing (the references the clause makes) or incoming (the clauses that refer to it).",
                    default="outgoing",
                    flags=("--direction",),
                    choices=("outgoing", "incoming"),
                    switches=(("--incoming", "incoming"),),
                    agent_help="'outgoing' (default): the references the clause makes. 'incoming': every clause of every norm "
                    "that refers to it, each with its citation.",
                ),
            ),
            result="XrefsResult",
        ),
        Operation(
            "figure",
            "get_figure",
            "Figure image",
            "Save a figure's image (or print it, base64, with --json).",
            'normcli figure "SIA 261" fig-3 -o fig.png',
            (
                CODE,
                Param(
                    "figureId",
                    str,
                    "Figure id (fig-3) or number (3), as `section` lists them.",
                    required=True,
                    low=1,
                    high=200,
                    metavar="FIGURE_ID",
                    agent_help="Figure id as get_section lists it ('fig-3'), or its number ('3').",
                ),
                *PER_NORM,
            ),
            result="FigureResult",
            fast=False,
        ),
        Operation(
            "table",
            "get_table",
            "Read a table",
            "A table with its caption, the clause that holds it and its rows.",
            'normcli table "SIA 261" tab-3',
            (
                CODE,
                Param(
                    "tableId",
                    str,
                    "Table id (tab-3) or number (3), as `section` lists them.",
                    required=True,
                    low=1,
                    high=200,
                    metavar="TABLE_ID",
                    agent_help="Table id as get_section lists it ('tab-3'), or its number ('3').",
                ),
                *PER_NORM,
            ),
            result="TableResult",
        ),
        Operation(
            "diff",
            "compare_editions",
            "Compare two editions",
            "What changed between two editions: clauses added, removed, renumbered and changed, word by word.",
            'normcli diff "SIA 261:2014" "SIA 261:2020"',
            (
                Param(
                    "fromEdition",
                    str,
                    "The older edition: 'SIA 261:2014'.",
                    required=True,
                    high=200,
                    metavar="FROM",
                    agent_help="The older edition as CODE:EDITION, e.g. 'SIA 261:2014'.",
                ),
                Param(
                    "toEdition",
                    str,
                    "The newer edition: 'SIA 261:2020'.",
                    required=True,
                    high=200,
                    metavar="TO",
                    agent_help="The newer edition as CODE:EDITION, e.g. 'SIA 261:2020' ('SIA 261' alone is the newest published).",
                ),
                Param(
                    "path",
                    str,
                    "Only this clause and the clauses below it (default: the whole norm).",
                    high=300,
                    agent_help="Compare only this clause and its subclauses, e.g. '4.2'; default: the whole norm.",
                ),
                Param("language", str, "Language version of both editions: fr, de, it or en.", high=10, flags=("--language", "-l")),
                Param("fromLanguage", str, "Language version of the older edition.", high=10, flags=("--from-language",)),
                Param("toLanguage", str, "Language version of the newer edition.", high=10, flags=("--to-language",)),
                Param(
                    "force",
                    bool,
                    "Compare two different norms all the same.",
                    default=False,
                    flags=("--force",),
                    agent_help="Compare editions of two different norms all the same (refused otherwise).",
                ),
            ),
            result="DiffResult",
        ),
        Operation(
            "define",
            "define_term",
            "Where a term is defined",
            "Where a term or symbol is defined, in every norm and language: exact term first, then inflected forms, then mentions.",
            'normcli define "charge utile"',
            (
                Param(
                    "term",
                    str,
                    "A term ('charge utile') or a symbol ('s_k').",
                    required=True,
                    low=1,
                    high=200,
                    agent_help="A term ('charge utile', 'Nutzlast') or a symbol ('s_k', 'mu_i'); case and accents do not matter.",
                ),
                Param(
                    "limit",
                    int,
                    "At most this many definitions, 1 to 50.",
                    default=20,
                    low=1,
                    high=50,
                    flags=("--limit", "-n"),
                    agent_help="At most this many definitions (1–50, default 20).",
                ),
                Param("language", str, "Only definitions in this language: fr, de, it or en.", high=10, flags=("--language", "-l")),
            ),
            result="DefineResult",
        ),
        Operation(
            "cite",
            "cite_clause",
            "Cite a clause",
            "A reference to a clause for a report: text, bibtex, csl-json or ris.",
            'normcli cite "SIA 261:2020" 4.2.1 --format bibtex',
            (
                CODE,
                PATH,
                Param(
                    "format",
                    str,
                    "text, bibtex, csl-json or ris.",
                    default="text",
                    flags=("--format", "-f"),
                    choices=("text", "bibtex", "csl-json", "ris"),
                    agent_help="The reference format: 'text' (default), 'bibtex', 'csl-json' or 'ris'.",
                ),
                *PER_NORM,
            ),
            result="CiteResult",
        ),
    )
}
# -- the spec discovery operations of SPEC §7, the `api` group on the command line --------------------


def _id_param(name: str, what: str, source: str) -> Param:
    """An id parameter: 32 lowercase hex characters (checked by the service, which words the error)."""
    return Param(
        name,
        str,
        f"The {what}'s id (32 hex characters), as {source} gives it.",
        required=True,
        low=1,
        high=200,
        metavar="ID",
        agent_help=f"The {what}'s id: 32 lowercase hex characters, exactly as {source} returned it.",
    )


_SPEC_OPERATIONS = (
    Operation(
        "spec_list",
        "spec_list",
        "List API specs",
        "List the API specifications of the workspace.",
        "normcli api specs",
        result="SpecListResult",
        command="specs",
    ),
    Operation(
        "spec_by_id",
        "spec_by_id",
        "API spec",
        "An API spec and its collections, with their counts of tags and methods.",
        "normcli api spec meteo",
        (_id_param("id", "spec", "spec_list"),),
        result="SpecResult",
        command="spec",
    ),
    Operation(
        "collection_by_spec",
        "collection_by_spec",
        "Collections of a spec",
        "The collections of an API spec (the same answer as spec_by_id).",
        "normcli api collections meteo",
        (_id_param("specId", "spec", "spec_list"),),
        result="SpecResult",
        command="collections",
    ),
    Operation(
        "collection_by_id",
        "collection_by_id",
        "Collection",
        "A collection of an API spec and its tags, with their counts of methods.",
        "normcli api collection 8ce2ae82e063e8cb75b0f9335384f99c",
        (_id_param("id", "collection", "spec_by_id"),),
        result="CollectionResult",
        command="collection",
    ),
    Operation(
        "tag_by_spec",
        "tag_by_spec",
        "Tags of a spec",
        "Every tag of an API spec, each once, with its count of methods.",
        "normcli api tags meteo",
        (_id_param("specId", "spec", "spec_list"),),
        result="TagsResult",
        command="tags",
    ),
    Operation(
        "tag_by_collection",
        "tag_by_collection",
        "Tags of a collection",
        "The tags of one collection (the same answer as collection_by_id).",
        "normcli api tags --collection 8ce2ae82e063e8cb75b0f9335384f99c",
        (_id_param("collectionId", "collection", "spec_by_id"),),
        result="CollectionResult",
        command="tags",
    ),
    Operation(
        "tag_by_id",
        "tag_by_id",
        "Tag",
        "A tag of an API spec with its count of methods.",
        "normcli api tag 1e939b82f8d31ec606e08b38d1b18aab",
        (_id_param("id", "tag", "tag_by_spec or collection_by_id"),),
        result="TagResult",
        command="tag",
    ),
    Operation(
        "endpoint_by_tag",
        "endpoint_by_tag",
        "Endpoints of a tag",
        "The methods (endpoints) of a tag: method, path, summary, operationId.",
        "normcli api endpoints 1e939b82f8d31ec606e08b38d1b18aab",
        (_id_param("tagId", "tag", "tag_by_spec or collection_by_id"),),
        result="EndpointsResult",
        command="endpoints",
    ),
    Operation(
        "endpoint_by_id",
        "endpoint_by_id",
        "Endpoint",
        "One endpoint whole: parameters, request body, responses with their schemas resolved, examples, code samples.",
        'normcli api endpoint meteo "GET /snow-load/{siteId}"',
        (_id_param("id", "method", "endpoint_by_tag or search_specs"),),
        result="EndpointResult",
        command="endpoint",
    ),
    Operation(
        "search_specs",
        "search_specs",
        "Search API specs",
        "Search the endpoints of every API spec: paths, summaries, descriptions, parameter and schema names.",
        'normcli api search "snow load"',
        (
            SPEC_KEYWORD,
            SPEC_LIMIT,
        ),
        result="SpecSearchResult",
        command="search",
    ),
)
OPERATIONS.update((op.name, replace(op, group="api")) for op in _SPEC_OPERATIONS)
BY_TOOL = {op.tool: op for op in OPERATIONS.values()}
NAMES = tuple(OPERATIONS)
TOOL_NAMES = tuple(BY_TOOL)


def operation(name: str) -> Operation:
    """The operation named as on the command line or as an MCP tool; `invalid_argument` for another name."""
    found = OPERATIONS.get(name) or BY_TOOL.get(name)
    if found is None:
        raise InvalidArgument(f"unknown operation '{name}'", f"use one of {', '.join(NAMES)}")
    return found


def checked(name: str) -> Callable[[Callable[..., T]], Callable[..., T]]:
    """Check a service method's numbers against the ranges declared for operation `name`.

    The method's positional parameters (after `self`) follow the declared order, so both positional
    and keyword arguments are matched without `inspect` (which every call's start-up would pay for).
    """
    params = OPERATIONS[name].params
    bounded = [(position, param) for position, param in enumerate(params) if param.bounded]
    by_keyword = {param.keyword: param for _, param in bounded}

    def decorate(method: Callable[..., T]) -> Callable[..., T]:
        def run(self: Any, *args: Any, **kwargs: Any) -> T:
            for position, param in bounded:
                if position < len(args):
                    param.check(args[position])
            for key, value in kwargs.items():
                if key in by_keyword:
                    by_keyword[key].check(value)
            return method(self, *args, **kwargs)

        run.__name__, run.__qualname__, run.__doc__ = method.__name__, method.__qualname__, method.__doc__
        run.__wrapped__ = method  # type: ignore[attr-defined]
        return run

    return decorate


def resolve_aliases(op: Operation, params: dict[str, Any]) -> dict[str, Any]:
    """`params` with each declared alias (`norm`) under its parameter's name (`code`); the name wins when both are given."""
    out = dict(params)
    for param in op.params:
        for alias in param.aliases:
            if alias in out:
                value = out.pop(alias)
                out.setdefault(param.name, value)
    return out


def arguments(op: Operation, params: dict[str, Any]) -> dict[str, Any]:
    """The service's keyword arguments for camelCase `params` (aliases accepted); unknown or missing ones are refused."""
    params = resolve_aliases(op, params)
    known = [param.name for param in op.params]
    unknown = sorted(set(params) - set(known))
    if unknown:
        raise InvalidArgument(f"{op.name} takes no parameter {', '.join(unknown)}", f"it takes {', '.join(known) or 'none'}")
    missing = [param.name for param in op.params if param.required and params.get(param.name) in (None, "")]
    if missing:
        raise InvalidArgument(f"{op.name} needs {', '.join(missing)}", param=missing[0])
    return {param.keyword: params[param.name] for param in op.params if params.get(param.name) is not None}


def run(service: Any, op: str, params: dict[str, Any]) -> Any:
    """Run one operation named as in the CLI or the MCP server, with camelCase parameters (batch, agents)."""
    found = operation(op)
    call: Callable[..., Any] = getattr(service, found.name)
    # `id` names the request in batch, unless the operation takes an id of its own (`spec_by_id`).
    takes_id = any(param.name == "id" for param in found.params)
    return call(**arguments(found, {key: value for key, value in params.items() if key != "op" and (key != "id" or takes_id)}))
