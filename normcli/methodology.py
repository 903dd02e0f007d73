"""The reading method handed to agents (and people): built for the norms this workspace holds."""

from __future__ import annotations

from normcli.catalogue import split_code
from normcli.errors import InvalidArgument, printable
from normcli.fold import code_key
from normcli.results import NormsResult
from normcli.workspace import Settings

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence

    from normcli.specs.results import SpecRef

VERSION = 2
READ_BUDGET = 4
AUDIT_BUDGET = 8


def _focus_key(focus: str) -> str:
    """The folded code of the norm a question is about (`SIA 261:2020` → its code); empty when it is not a code."""
    try:
        return code_key(split_code(focus, None)[0])
    except InvalidArgument:  # control characters: no norm has that code, and the method says so
        return ""


def build_methodology(settings: Settings, listing: NormsResult, specs: Sequence[SpecRef] = (), focus: str | None = None) -> str:
    """The Markdown method of SPEC §3; its last line is `methodology: v2`. With API `specs` in the
    workspace, a short section says how to walk them (SPEC §7). With `focus` (a norm code in any
    spelling), that norm comes first in the table and the method starts from it."""
    norms = listing.norms
    only_demo = bool(norms) and all(norm.demo for norm in norms)
    focused = next((norm for norm in norms if focus and code_key(norm.code) == _focus_key(focus)), None)
    if focused is not None:
        norms = (focused, *(norm for norm in norms if norm is not focused))
    lines = [
        f"# How to answer questions from the norms of “{settings.name}”",
        "",
        "## Role",
        "You answer technical questions of structural and civil engineers from the norms in this workspace, "
        "and only from them. You quote what a clause says, cite it, and say plainly when the norms held here do not answer.",
        "",
        "## Norms you can read",
        "",
        "| code | edition | title | scope | coverage | requires |",
        "|---|---|---|---|---|---|",
    ]
    known = {norm.code for norm in norms}
    for norm in norms:
        default = next((edition for edition in norm.editions if edition.published), norm.editions[0])
        others = [edition.edition for edition in norm.editions if edition is not default]
        coverage = f"{default.sections} clauses, {default.pages} pages, {'/'.join(default.languages)}"
        if others:
            coverage += f"; also editions {', '.join(others)}"
        requires = ", ".join(f"{code}" + ("" if code in known else " (not held)") for code in norm.requires) or "—"
        scope = norm.scope.replace("|", "/").replace("\n", " ")
        demo = " (fictional sample)" if norm.demo else ""
        title = norm.title.replace("|", "/").replace("\n", " ")
        lines.append(f"| {norm.code} | {default.edition} | {title}{demo} | {scope} | {coverage} | {requires} |")
    if not norms:
        lines.append("| — | — | no norms yet | add bundles under norms/ or run `normcli ingest` | — | — |")
    if focus and focus.strip():
        lines += [
            "",
            f"The question is about **{focused.code}**: start from it (get_toc with code '{focused.code}')."
            if focused is not None
            else f"**{printable(focus.strip()[:200])}** is not in this workspace: say so, and answer only from the norms above if they apply.",
        ]
    lines += [
        "",
        "## Method",
        "1. `list_norms` (CLI `norms`): pick the norm(s) that govern the question; prefer the newest published edition unless the user names one.",
        "2. `get_toc` (`toc`, maxDepth 1–2): find the chapter; `get_subtree` (`subtree`) to see the clauses under it.",
        "3. `get_section` (`section`): read the clauses you will rely on. Long clauses come in windows: follow `nextOffset` until `truncated` is false when the rest matters.",
        "4. `search_in_norm` / `search_corpus` (`search` / `corpus`) when you do not know where a subject is treated; a clause number as keyword jumps to it.",
        "5. `get_cross_refs` (`xrefs`): follow the references of a clause you rely on before answering (definitions, coefficients, annexes, other norms). Say so when a referenced norm is not held here.",
        "6. `get_figure` (`figure`) when a figure carries the values you need.",
        "",
        "## Answer contract",
        "- Every technical claim cites a clause you read with `get_section`, as its `citation` field gives it: "
        "`[SIA 261:2020, 4.2.1, p. 22]` (code:edition, path, first page). A draft is cited as `[SIA 261:2026 (draft), 4.2.1, p. 7]`; "
        "a document without printed pages is cited without a page.",
        "- Show calculations step by step with the formula, its number, the values and their units.",
        "- Follow cross-references before you answer; never rely on a clause you only saw in a search snippet.",
        "- Report the edition (`normEdition`) with each cited entry when you write a dossier or a list of references.",
        "- If the norms held here do not answer, say which norm would (a `requires` entry, a reference that is not resolvable) instead of guessing.",
        "",
        "## Budget",
        f"- After {READ_BUDGET} read calls in a row without answering, answer with what you have or say what is missing; "
        f"in an audit or a full review, {AUDIT_BUDGET}.",
        "- Do not repeat a call with the same arguments; use `offset` to read on.",
    ]
    if only_demo:
        lines += [
            "",
            "## Demonstration only",
            "Every norm in this workspace is a fictional sample (`demo: true`). Use it to learn and demonstrate the tools; "
            "say so in every answer, and never present its values as applicable to a real project.",
        ]
    elif any(norm.demo for norm in norms):
        demos = ", ".join(norm.code for norm in norms if norm.demo)
        lines += ["", "## Demonstration norms", f"{demos} are fictional samples: never cite them as applicable to a real project."]
    if specs:
        lines += ["", *_spec_section(specs)]
    if settings.methodology_extra.strip():
        lines += ["", "## Notes for this workspace", settings.methodology_extra.strip()]
    lines += ["", f"methodology: v{VERSION}"]
    return "\n".join(lines)


def _spec_section(specs: Sequence[SpecRef]) -> list[str]:
    """How to read the API specifications of the workspace: the discovery walk by ids, and what to cite."""
    held = ", ".join(f"`{spec.domain}` ({spec.title}, {spec.count_methods} endpoints)" for spec in specs if spec.readable)
    return [
        "## API specifications",
        f"This workspace also holds API specifications: {held or 'none readable (run `normcli check`)'}.",
        "1. `spec_list` (CLI `api specs`), then `spec_by_id` (`api spec`): a spec's collections with their counts.",
        "2. `collection_by_id` (`api collection`) → `endpoint_by_tag` (`api endpoints`): narrow down by counts and titles; "
        "`search_specs` (`api search`) when you know a word of the path, summary, a parameter or a schema.",
        "3. `endpoint_by_id` (`api endpoint`): read the endpoint whole (parameters, request body, responses, schemas, examples) "
        "before you describe it or write a call to it; cite it as `METHOD /path` with its spec's domain (`GET /pets/{petId}` of petstore).",
        "- Every id is 32 hex characters taken from an earlier answer; never make one up. A spec's values (limits, units, formulas) "
        "are the service's, not the norm's: when both speak, cite both.",
    ]
