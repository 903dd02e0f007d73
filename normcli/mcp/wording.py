"""What the server says to agents: tool descriptions, instructions, and error texts that say what to call next.

Nothing here imports the MCP SDK.
"""

from __future__ import annotations

import re
from typing import Any

from normcli.errors import InvalidArgument, NormcliError, NotFound, WorkspaceError

# -- tool descriptions: when to use, what comes back, what to call next -------------------------

DESCRIPTIONS = {
    "get_methodology": (
        "Call this first, once per conversation. Returns the reading method for this workspace as Markdown: the norms you can read "
        "(code, edition, title, scope, coverage, which norms they require), the navigation method (list_norms → get_toc → get_subtree → "
        "get_section, with search and cross-references as needed), the answer contract (cite every claim as [SIA 261:2020, 4.2.1, p. 22] "
        "from a section you read), the reading budget and workspace notes. Then follow it."
    ),
    "whoami": (
        "Which workspace this server reads and what it holds (norms, editions, sections, figures, index state). "
        "Use it when the user asks which norms or which folder you have access to; for the list of norms call list_norms."
    ),
    "list_norms": (
        "Every norm of the workspace with its editions (newest first), languages, section and page counts; `demo: true` marks a "
        "fictional sample norm that must never be applied. Use the `code` values here in every other tool. Next: get_toc or search_corpus."
    ),
    "get_toc": (
        "The table of contents of one norm down to maxDepth (1 = chapters, up to 6): each node has path, title, summary and pages. "
        "Use it to find the chapter that governs a question, or when a path was not found. "
        "Next: get_subtree on a chapter to see its clauses, or get_section to read one."
    ),
    "get_subtree": (
        "A clause and all clauses below it (or down to maxDepth levels), with titles, summaries and pages; past maxNodes (20–2000) the "
        "deepest levels are left out and the root says `truncated`. Use it to see what a chapter contains before reading. Next: get_section."
    ),
    "get_section": (
        "Read one clause: its text (Markdown, formulas in LaTeX, pipe tables), pages, figures (ids for get_figure), tables, formulas, "
        "cross-references and subclauses. This is the only tool whose text you may cite, as [CODE, path, p. pageStart]. "
        "Long clauses come in windows of maxChars (500–40000): when `truncated` is true, call again with offset=nextOffset. "
        "Next: get_cross_refs / get_section on the references you rely on, get_figure for a figure that carries values."
    ),
    "search_in_norm": (
        "Search the titles and text of one norm, best first (title hits before text hits); case- and accent-insensitive. "
        "Returns clause paths with snippets; snippets are not citable. Use it when you do not know where a subject is treated. "
        "Next: get_section on the best hits."
    ),
    "search_corpus": (
        "Search every norm of the workspace at once (each norm's default edition), grouped by norm; title hits first; accents, case and "
        "transliteration are ignored ('Strasse' finds 'Straße'). A clause number as keyword ('4.2.1') finds that clause in each norm. "
        "Use it when you do not know which norm treats a subject. Next: get_section with the code and path of a hit."
    ),
    "get_cross_refs": (
        "The references a clause makes (to its own clauses, annexes, figures, tables and other norms) and whether each leads somewhere in "
        "this workspace (`resolvable`, with targetCode/targetPath). Use it before answering from a clause. "
        "Next: get_section on the resolvable targets you rely on; name the unresolvable ones as not held."
    ),
    "get_figure": (
        "A figure's image, inline as an image block, with its number and caption. figureId is the id get_section lists (e.g. 'fig-3'); "
        "a figure number ('3') works too. Use it when a figure carries values you need (coefficients, zones, diagrams)."
    ),
    "get_table": (
        "A table as Markdown and as rows (header row first), with its caption, the clause that holds it and its page. tableId is the id "
        "get_section lists (e.g. 'tab-3'); a table number ('3') works too. Use it for the values of a table; cite the clause it is in."
    ),
}

INSTRUCTIONS = """\
normcli serves the technical norms of the workspace “{name}” ({norms} norms) from local files, offline.
Call get_methodology first and follow the method it returns: list_norms → get_toc → get_subtree → get_section,
with search_in_norm, search_corpus, get_cross_refs and get_figure as needed.
Cite every technical claim from a clause you read with get_section, as [SIA 261:2020, 4.2.1, p. 22]; never from a search snippet.
Reading budget: after {budget} read calls in a row, answer with what you have or say what is missing;
the server appends a reminder to the result once you pass it, and a note when you repeat a call."""


# -- error texts --------------------------------------------------------------------------------


def explain(error: NormcliError, tool: str, arguments: dict[str, Any]) -> str:
    """The error text an agent can act on: what was wrong, what exists instead, then which tool to call."""
    if isinstance(error, NotFound):
        return f"{error.message}. {_not_found_hint(error, tool, arguments)}"
    if isinstance(error, InvalidArgument):
        facts = f" {error.hint[0].upper()}{error.hint[1:]}." if error.hint else ""
        return f"{error.message}.{facts} Correct {error.param or 'that argument'} and call {tool} again."
    if isinstance(error, WorkspaceError):
        return f"{error.message}. The workspace cannot be read; tell the user to run `normcli check` in a terminal."
    return error.one_line()


def _not_found_hint(error: NotFound, tool: str, arguments: dict[str, Any]) -> str:
    """What exists instead (the error's candidates) and which tool finds the right value."""
    known = ", ".join(error.candidates[:12])
    if error.what == "norm":
        return f"The codes held here are: {known or 'none'}. Call list_norms for their editions, then call {tool} again with one of them."
    if error.what in ("edition", "language"):
        facts = f"The {error.what}s of {error.norm} are: {known}. " if known else ""
        return f"{facts}Call list_norms to see each norm's editions and languages, then call {tool} again."
    if error.what in ("id", "spec", "method"):  # the spec discovery tools (SPEC §7)
        from normcli.mcp.spec_tools import HINT

        return f"{HINT}, then call {tool} again with an id from there."
    if error.what in ("figure", "table"):
        if not known:
            return f"Its file cannot be read; tell the user to run `normcli check` in a terminal. Other {error.what}s still work."
        return (
            f"Its {error.what}s are: {known}. get_section lists each clause's {error.what}s with their ids; call {tool} with one of those."
        )
    if error.what == "path" and arguments.get("code"):
        nearest = f"The nearest clauses are: {known}. " if known else ""
        return (
            f"{nearest}Call get_toc with code='{arguments['code']}' (maxDepth 2), get_subtree on a chapter, or search_in_norm to find "
            f"the clause path, then call {tool} again with a path from there."
        )
    return "Call list_norms to see what this workspace holds."


def plain_validation(errors: list[Any]) -> str:
    """Pydantic's report as one clause per argument, without links: 'maxDepth must be ≤ 6 (got 9)'."""
    parts = []
    for item in errors:
        where = ".".join(str(part) for part in item["loc"]) or "arguments"
        if item["type"] == "missing":
            parts.append(f"{where} is required")
            continue
        message = re.sub(r"^(?:Input|String|Value) should ", "must ", item["msg"])
        message = message.replace("must be less than or equal to", "must be at most").replace(
            "must be greater than or equal to", "must be at least"
        )
        got = item.get("input")
        parts.append(f"{where} {message}" + ("" if isinstance(got, dict) else f" (got {got!r})"))
    return "; ".join(parts)
