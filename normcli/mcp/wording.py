"""What the server says to agents: tool descriptions, instructions, and error texts that say what to call next.

Nothing here imports the MCP SDK.
"""

from __future__ import annotations

import re
from typing import Any

from normcli.errors import InvalidArgument, NormcliError, NotFound, WorkspaceError, printable

# -- tool descriptions: when to use, what comes back, what to call next -------------------------

DESCRIPTIONS = {
    "get_methodology": (
        "Call this first, once per question. Returns the reading method for this workspace: the norms you can read (code, edition, "
        "title, scope, what they require), the order to read them in (list_norms → get_toc → get_subtree → get_section; search_in_norm, "
        "search_corpus, get_cross_refs, get_figure as needed), the citation form [SIA 261:2020, 4.2.1, p. 22] and the reading budget. "
        "Pass `norm` to put the norm the question is about first. Then follow it."
    ),
    "whoami": (
        "Which workspace this server reads and what it holds (norms, editions, sections, figures, index state). "
        "Use it when the user asks what you have access to. Next: list_norms."
    ),
    "list_norms": (
        "Every norm with its editions (newest first), languages, section and page counts; `demo: true` marks a fictional sample "
        "never to be applied. Use its `code` values in every other tool. Next: get_toc, or search_corpus when the norm is unknown."
    ),
    "get_toc": (
        "The table of contents of one norm down to maxDepth (1 = chapters): nodeId, path, title, summary, pages. Use it to find the "
        "chapter that governs a question, or when a path was not found. Next: get_subtree on a chapter, or get_section on a clause."
    ),
    "get_subtree": (
        "A clause and the clauses below it, filled level by level up to maxNodes; a node whose children were cut says `truncated` "
        "and `childCount`. Use it to see what a chapter holds before reading. Next: get_section on the clauses you need."
    ),
    "get_section": (
        "Read one clause: its text (Markdown, LaTeX formulas, pipe tables), pages, `citation`, figures, tables, formulas, the whole "
        "clause's cross-references and its subclauses. Use it for every clause you rely on, and cite it with `citation`. Long clauses come in windows of maxChars: "
        "while `truncated`, call again with offset=nextOffset. Next: get_section on references you rely on, get_figure for a figure's values."
    ),
    "search_in_norm": (
        "Search one norm's titles and text, best first (title hits first); case and accents do not matter; a clause number jumps to "
        "that clause. Snippets are not citable. Use it when you know the norm but not the clause. Next: get_section on the best hits."
    ),
    "search_corpus": (
        "Search every norm at once, grouped by norm edition, title hits first; accents, case and ß/ss do not matter. `edition`: "
        "newest (default), all, or a year. Use it when you do not know which norm treats a subject. Next: get_section with a hit's code and path."
    ),
    "get_cross_refs": (
        "Where a clause's references lead (clauses, annexes, figures, tables, other norms): one entry per target with every wording "
        "in `texts`, `resolvable` when this workspace holds it. Use it before answering from a clause. With direction 'incoming': "
        "every clause of every norm that refers to this one (sourceCode, sourcePath, citation), to see what relies on it. "
        "Next: get_section on the targets you rely on; name the others as not held."
    ),
    "get_figure": (
        "A figure as an image block, with its number, caption and `url` (file:// URI). figureId is an id get_section lists ('fig-3') "
        "or a number ('3'). Use it when a figure carries values you need (coefficients, zones, diagrams)."
    ),
    "compare_editions": (
        "What changed between two editions of one norm (fromEdition 'SIA 261:2014', toEdition 'SIA 261:2020'), clause by clause: "
        "added, removed, renumbered (matched by title and text when the number moved) and changed, each with a word diff in which "
        "numbers, formulas and table cells are whole tokens. `path` limits it to one clause and its subclauses. Editions in two "
        "languages are aligned by path and compared by their values only (the answer's notes say so). Use it when the user asks "
        "what a new edition changed. Next: get_section on a "
        "changed clause in the edition you cite."
    ),
    "define_term": (
        "Where a term ('charge utile', 'Nutzlast') or a symbol ('s_k') is defined, in every norm, edition and language: terminology "
        "chapters, definition lists and symbol tables. The exact term comes first, then inflected forms, then definitions that mention "
        "it; each with its citation. Use it when a question turns on what a word or symbol means. "
        "Next: get_section on the clause to read the definition in context."
    ),
    "cite_clause": (
        "A reference to one clause for a report or a reference manager: format 'text', 'bibtex', 'csl-json' or 'ris', plus the bracket "
        "citation [CODE:EDITION, path, p. N]. Use it when the user wants a reference list entry. "
        "Next: nothing; cite the clause you read with get_section."
    ),
    "get_table": (
        "One table as Markdown and as rows (header row first), with its number, caption, the clause that holds it and its page. "
        "tableId is an id get_section lists ('tab-3') or a number ('3'). Use it when the values you need are in a table. "
        "Next: get_section on its clause to cite it."
    ),
}

INSTRUCTIONS = """\
normcli serves the technical norms of the workspace “{name}” ({norms} norms) from local files, offline.
Call get_methodology first and follow the method it returns: list_norms → get_toc → get_subtree → get_section,
with search_in_norm, search_corpus, get_cross_refs, get_figure and get_table as needed.
Cite every technical claim from a clause you read with get_section, as [SIA 261:2020, 4.2.1, p. 22]; never from a search snippet.
Reading budget: after {budget} read calls in a row, answer with what you have or say what is missing;
the server appends a reminder to the result once you pass it, and a note when you repeat a call."""


# -- error texts --------------------------------------------------------------------------------

# What an error names, as SPEC §8 spells it (the core may say `clause` for a path).
_WHAT = {"clause": "path"}


# Where an agent finds a right value for an argument the core rejected without saying (the tools to call).
_DISCOVERY_ID = "take the id from spec_list, spec_by_id or another discovery answer"
_ARGUMENT_HINT = {"id": _DISCOVERY_ID, "specId": _DISCOVERY_ID, "collectionId": _DISCOVERY_ID, "tagId": _DISCOVERY_ID}


def error_object(error: NormcliError, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    """The machine-readable error of SPEC §8: `{code, what, candidates, message}`; `what` names what was
    not found (norm, edition, language, path, figure, table, id) or the argument at fault."""
    what = getattr(error, "what", "") or getattr(error, "param", "") or ""
    candidates = list(getattr(error, "candidates", ()) or ())
    value = getattr(error, "value", None)
    data: dict[str, Any] = {"code": error.code, "what": _WHAT.get(what, what), "candidates": candidates}
    if value:
        data["value"] = value
    hint = "" if error.hint or not isinstance(error, InvalidArgument) else _ARGUMENT_HINT.get(error.param or "", "")
    data["message"] = printable(f"{error.message} ({hint})") if hint else error.one_line()
    return data


def explain(error: NormcliError, tool: str, arguments: dict[str, Any]) -> str:
    """The error text an agent can act on: what was wrong, what exists instead, then which tool to call."""
    if isinstance(error, NotFound):
        return f"{error.message}. {_not_found_hint(error, tool, arguments)}"
    if isinstance(error, InvalidArgument):
        hint = error.hint or _ARGUMENT_HINT.get(error.param or "", "")
        facts = f" {hint[0].upper()}{hint[1:]}." if hint else ""
        return f"{error.message}.{facts} Correct {error.param or 'that argument'} and call {tool} again."
    if isinstance(error, WorkspaceError) and error.part == "spec":
        return f"{error.message}. Only this spec is unreadable: use the others from spec_list, and tell the user to run `normcli check`."
    if isinstance(error, WorkspaceError):
        return f"{error.message}. The workspace cannot be read; tell the user to run `normcli check` in a terminal."
    return error.one_line()


def _not_found_hint(error: NotFound, tool: str, arguments: dict[str, Any]) -> str:
    """What exists instead (the error's candidates) and which tool finds the right value."""
    known = ", ".join(error.candidates[:12])
    if error.what == "norm":
        return f"The codes held here are: {known or 'none'}. Call list_norms for their editions, then call {tool} again with one of them."
    if error.what in ("edition", "language"):
        held = f"of {error.norm}" if error.norm else "held here"  # an edition asked of every norm (search_corpus) names none
        facts = f"The {error.what}s {held} are: {known}. " if known else ""
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
