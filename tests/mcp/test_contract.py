"""The agent contract (SPEC §6, §8; issue 13), through a real `normcli mcp` process and the SDK's stdio client.

Each numbered deviation of the audit has its regression test here (`test_item_N_…`): every one of
them failed on the server before the fix. Expected values are read from the bundles' source text or
from independent calls, never copied from the code under test.
"""

from __future__ import annotations

import base64
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import anyio
import jsonschema
import pytest
from mcp.shared.exceptions import MCPError

from normcli.mcp.wording import DESCRIPTIONS
from tests.conftest import write_bundle

SIA_261_FR = Path("norms/sia-261/2020/norm.fr.md")


@dataclass
class Session:
    """What one stdio session said: the tools it lists and the answers to labelled calls."""

    tools: dict[str, Any] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    resources: list[Any] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)
    reads: dict[str, Any] = field(default_factory=dict)


# (label, tool, arguments): asked in this order in one session; the budget is 3 reads, so that the
# last calls carry budget notes.
CALLS: list[tuple[str, str, dict[str, Any]]] = [
    ("norms", "list_norms", {}),
    ("method-norm", "get_methodology", {"norm": "VSS 640 100"}),
    ("subtree-2001", "get_subtree", {"code": "SIA 261", "path": "4", "maxNodes": 2001}),
    ("section-40001", "get_section", {"code": "SIA 261", "path": "4.2.1", "maxChars": 40001}),
    ("corpus-41", "search_corpus", {"keyword": "neige", "limit": 41}),
    ("method-reset", "get_methodology", {}),
    ("corpus-2014", "search_corpus", {"keyword": "neige", "edition": "2014"}),
    ("corpus-all", "search_corpus", {"keyword": "neige", "edition": "all", "limit": 40}),
    ("corpus-newest", "search_corpus", {"keyword": "neige", "edition": "newest", "limit": 40}),
    ("section-norm", "get_section", {"norm": "SIA 261", "path": "4.2.1", "maxChars": 500}),
    ("section-norm", "get_section", {"norm": "SIA 261", "path": "4.2.1", "maxChars": 500}),  # repeated, past the budget
    ("xrefs", "get_cross_refs", {"code": "SIA 261", "path": "4.2.1"}),
    ("figure", "get_figure", {"code": "SIA 261", "figureId": "fig-1"}),
    ("toc", "get_toc", {"code": "SIA 261", "maxDepth": 6}),
    ("search", "search_in_norm", {"norm": "SIA 261", "keyword": "neige", "limit": 3}),
    ("whoami", "whoami", {}),
    ("no-norm", "get_toc", {"code": "SIA 999"}),
    ("no-edition", "get_toc", {"code": "SIA 261", "edition": "1999"}),
    ("no-language", "get_toc", {"code": "SIA 261", "language": "it"}),
    ("no-path", "get_section", {"code": "SIA 261", "path": "99.9"}),
    ("no-figure", "get_figure", {"norm": "SIA 261", "figureId": "fig-99"}),
    ("table", "get_table", {"norm": "SIA 261", "tableId": "tab-2"}),
    ("no-table", "get_table", {"code": "SIA 261", "tableId": "tab-99"}),
    ("no-corpus-edition", "search_corpus", {"keyword": "neige", "edition": "1999"}),
    ("malformed", "get_subtree", {"code": "SIA 261", "path": "4", "maxNodes": "many"}),
    ("no-code", "get_section", {"path": "4.2.1"}),
    ("diff", "compare_editions", {"fromEdition": "SIA 261:2014", "toEdition": "SIA 261:2020", "path": "4.2"}),
    ("define", "define_term", {"term": "charge utile"}),
    ("cite", "cite_clause", {"norm": "SIA 261", "path": "4.2.1", "format": "bibtex"}),
]
SECTION_URI = "normcli://SIA%20261/2020/4.2.1"


def _ask(workspace: Path, stdio, calls: list[tuple[str, str, dict[str, Any]]], *options: str, reads: tuple[str, ...] = ()) -> Session:
    seen = Session()

    async def session() -> None:
        async with stdio(workspace, "--idle-reset", "0", *options) as client:
            seen.tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            for label, tool, arguments in calls:
                seen.answers[label] = await client.call_tool(tool, arguments)
            seen.resources = (await client.list_resources()).resources
            seen.templates = [template.uri_template for template in (await client.list_resource_templates()).resource_templates]
            for uri in reads:
                try:
                    seen.reads[uri] = await client.read_resource(uri)
                except MCPError as error:  # asserted on by the test that reads it
                    seen.reads[uri] = error

    anyio.run(session)
    return seen


@pytest.fixture(scope="module")
def session(sample_copy: Path, stdio) -> Session:
    return _ask(sample_copy, stdio, CALLS, "--read-budget", "3", reads=(SECTION_URI, "normcli://sia261/2014/4.2.1"))


def texts(result: Any) -> list[str]:
    return [block.text for block in result.content if block.type == "text"]


def clause_source(workspace: Path, path: str) -> str:
    """The source text of one clause of SIA 261:2020 (fr), from its heading to the next heading."""
    lines = (workspace / SIA_261_FR).read_text(encoding="utf-8").splitlines()
    start = next(number for number, line in enumerate(lines) if re.match(rf"#+ {re.escape(path)} ", line))
    end = next((number for number in range(start + 1, len(lines)) if lines[number].startswith("#")), len(lines))
    return "\n".join(lines[start + 1 : end])


# -- 1. the first text block is the JSON answer ----------------------------------------------


@pytest.mark.parametrize("label", ["norms", "toc", "subtree-2001", "section-norm", "search", "corpus-2014", "xrefs", "figure", "whoami"])
def test_item_1_the_first_text_block_is_the_json_answer(session: Session, label: str) -> None:
    answer = session.answers[label]
    assert not answer.is_error
    assert answer.content[0].type == "text"
    assert json.loads(answer.content[0].text) == answer.structured_content
    assert answer.content[1].type == "text" and not answer.content[1].text.lstrip().startswith("{"), "a Markdown rendering follows"


# -- 2. get_methodology takes norm and puts it first -------------------------------------------


def test_item_2_get_methodology_takes_norm_and_puts_that_norm_first(session: Session) -> None:
    answer = session.answers["method-norm"]
    assert not answer.is_error, texts(answer)
    text = answer.structured_content["text"]
    rows = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith(("| code", "|---"))]
    assert rows[0].startswith("| VSS 640 100 |"), "the norm asked about heads the table of norms"
    assert "The question is about **VSS 640 100**" in text
    assert text.endswith("methodology: v2")
    assert "norm" in session.tools["get_methodology"].input_schema["properties"]


# -- 3. numbers past their range are clamped, with notes ---------------------------------------


@pytest.mark.parametrize(
    ("label", "note"),
    [("subtree-2001", "maxNodes 2001"), ("section-40001", "maxChars 40001"), ("corpus-41", "limit 41")],
)
def test_item_3_numbers_past_their_range_are_clamped_and_noted(session: Session, label: str, note: str) -> None:
    answer = session.answers[label]
    assert not answer.is_error, texts(answer)
    notes = answer.structured_content["notes"]
    assert len(notes) == 1 and notes[0].startswith(note) and "was used" in notes[0]
    assert note in texts(answer)[1], "the Markdown says so too"


def test_item_3_the_clamped_answer_is_the_answer_at_the_bound(session: Session, cli_json) -> None:
    code, expected = cli_json("corpus", "neige", "--limit", "40")
    assert code == 0
    answer = dict(session.answers["corpus-41"].structured_content)
    answer.pop("notes")
    assert answer == expected
    code, _ = cli_json("corpus", "neige", "--limit", "41")
    assert code == 2, "the command line keeps refusing a number out of range"


def test_item_3_an_offset_past_the_end_of_the_clause_is_clamped_to_its_end(sample_copy: Path, stdio, cli_json) -> None:
    """An offset's range ends with the clause's text, known only once it is read: past it, the answer is the one at
    the end (an empty last window), noted, where the command line refuses it (exit 2)."""
    calls = [("past", "get_section", {"code": "SIA 261", "path": "4.2.1", "offset": 10**8, "maxChars": 500})]
    answer = _ask(sample_copy, stdio, calls).answers["past"]
    assert not answer.is_error, texts(answer)
    code, first = cli_json("section", "SIA 261", "4.2.1", "--max-chars", "500")
    total = first["section"]["totalChars"]
    assert code == 0 and total > 500
    code, at_end = cli_json("section", "SIA 261", "4.2.1", "--max-chars", "500", "--offset", str(total))
    assert code == 0 and at_end["section"]["content"] == "" and at_end["section"]["nextOffset"] is None
    clamped = dict(answer.structured_content)
    assert clamped.pop("notes") == [f"offset {10**8} is above its range; {total} was used"]
    assert clamped == at_end
    code, _ = cli_json("section", "SIA 261", "4.2.1", "--offset", str(10**8))
    assert code == 2


# -- 4. search_corpus takes edition ------------------------------------------------------------


def test_item_4_search_corpus_takes_edition(session: Session, sample_copy: Path) -> None:
    by_label = {
        label: {(norm["code"], norm["edition"]) for norm in session.answers[label].structured_content["norms"]}
        for label in ("corpus-2014", "corpus-all", "corpus-newest")
    }
    assert by_label["corpus-2014"] == {("SIA 261", "2014")}
    assert {("SIA 261", "2014"), ("SIA 261", "2020")} <= by_label["corpus-all"]
    assert ("SIA 261", "2014") not in by_label["corpus-newest"] and ("SIA 261", "2020") in by_label["corpus-newest"]
    source = (sample_copy / "norms/sia-261/2014/norm.md").read_text(encoding="utf-8")
    for norm in session.answers["corpus-2014"].structured_content["norms"]:
        for hit in norm["hits"]:
            assert re.search(rf"^#+ {re.escape(hit['path'])}(\s|$)", source, re.M), "each hit is a clause of the 2014 edition"
    error = session.answers["no-corpus-edition"]
    assert error.is_error and error.structured_content["error"]["what"] == "edition"
    # an edition asked of every norm belongs to none: the text lists the editions held, naming no empty norm
    said = " ".join(texts(error)[1:])
    assert "editions held here are: " in said and "2014" in said and " of  " not in said
    assert "edition" in session.tools["search_corpus"].input_schema["properties"]


# -- 5. norm is declared beside code -----------------------------------------------------------


@pytest.mark.parametrize("tool", ["get_toc", "get_subtree", "get_section", "search_in_norm", "get_cross_refs", "get_figure"])
def test_item_5_norm_is_declared_and_validates(session: Session, tool: str) -> None:
    schema = session.tools[tool].input_schema
    assert schema["properties"]["norm"]["type"] == "string"
    assert "code" not in schema.get("required", []), "code or norm: either one passes a validating client"
    jsonschema.validate({"norm": "SIA 261", "path": "4", "keyword": "x", "figureId": "fig-1"}, schema)
    assert "anyOf" not in schema and "oneOf" not in schema, "model APIs refuse combinators at the top of an input schema"


def test_item_5_a_call_with_norm_answers_as_with_code(session: Session, cli_json) -> None:
    answer = session.answers["section-norm"]
    code, expected = cli_json("section", "SIA 261", "4.2.1", "--max-chars", "500")
    assert code == 0 and answer.structured_content == expected
    missing = session.answers["no-code"]
    assert missing.is_error and missing.structured_content["error"]["what"] == "code"
    assert "code or norm" in texts(missing)[1]


# -- 6. every window lists the whole clause's references and subclauses ------------------------


def test_item_6_every_window_lists_the_whole_clauses_references_and_subclauses(tmp_path: Path, stdio) -> None:
    paragraph = "The scope covers every structure of the kind described here, in words that fill a window. " * 4
    body = "\n\n".join([paragraph] * 6)
    root = tmp_path / "long"
    write_bundle(
        root,
        "long-1",
        "2024",
        '---\ncode: LONG 1\nedition: "2024"\ntitle: Long\nlanguage: en\n---\n<!-- page 1 -->\n'
        f"# 1 Scope\nSee clause 1.2 first.\n\n{body}\n\nLast, see clause 1.1 and EN 1990.\n"
        "## 1.1 Terms\nTerms.\n## 1.2 Symbols\nSymbols.\n",
    )
    calls = [
        (f"window-{offset}", "get_section", {"code": "LONG 1", "path": "1", "maxChars": 500, "offset": offset})
        for offset in range(0, 2000, 500)
    ]
    answers = _ask(root, stdio, calls, "--read-budget", "100").answers
    windows = [answer.structured_content["section"] for answer in answers.values()]
    assert len({window["nextOffset"] for window in windows}) > 2
    for window in windows:
        assert {ref["targetPath"] for ref in window["crossRefs"]} >= {"1.1", "1.2"}, "references from the first and the last paragraph"
        assert {ref["targetCode"] for ref in window["crossRefs"]} >= {"EN 1990"}
        assert [child["path"] for child in window["children"]] == ["1.1", "1.2"]
        assert "**Cross-references**" in window["markdown"] and "**Subclauses**" in window["markdown"]
        assert "- 1.1 Terms" in window["markdown"] and "- 1.2 Symbols" in window["markdown"]


def test_item_6_the_first_window_of_4_2_1_names_references_made_further_on(session: Session, sample_copy: Path) -> None:
    window = session.answers["section-norm"].structured_content["section"]
    assert window["truncated"] and "4.2.6" not in window["content"]
    assert "chiffre 4.2.6" in clause_source(sample_copy, "4.2.1"), "the clause refers to 4.2.6 past its first window"
    assert any(ref["targetPath"] == "4.2.6" for ref in window["crossRefs"])
    assert "**Cross-references**" in window["markdown"]


# -- 7. windows never cut inside a row; a window inside a table repeats its header ---------------


def test_item_7_windows_keep_rows_whole_and_repeat_the_header(sample_copy: Path, stdio) -> None:
    source = clause_source(sample_copy, "4.2.1")
    table = [line for line in source.splitlines() if line.startswith("|")]
    header, rows = table[0], set(table)

    async def walk() -> list[dict]:
        async with stdio(sample_copy, "--read-budget", "1000") as client:
            windows, offset = [], 0
            while offset is not None:
                window = await client.call_tool("get_section", {"code": "SIA 261", "path": "4.2.1", "maxChars": 500, "offset": offset})
                windows.append(window.structured_content["section"])
                offset = windows[-1]["nextOffset"]
            return windows

    windows = anyio.run(walk)
    inside = 0
    for window in windows:
        lines = window["content"].splitlines()
        for line in lines:
            if line.startswith("|"):
                assert line in rows, f"a window cut a table row: {line!r}"
        first_row = next((number for number, line in enumerate(lines) if line.startswith("|")), None)
        if first_row is not None:
            assert lines[first_row] == header, "the first table line of every window is the header row"
            assert set(lines[first_row + 1]) <= set("|-: "), "then the delimiter row"
        if lines and lines[0].startswith("|"):
            inside += 1
    assert inside >= 1, "with 500 characters, some window starts inside the table"


# -- 8. subtree fills breadth first; cut nodes carry truncated and childCount -----------------


def test_item_8_a_big_subtree_fills_max_nodes_breadth_first(tmp_path: Path, stdio) -> None:
    sections, subsections = 50, 50  # 1 + 50 + 2,500 = 2,551 clauses, the audit's case
    lines = ["---", "code: WIDE 1", 'edition: "2024"', "title: Wide", "language: en", "---", "<!-- page 1 -->", "# 1 Everything"]
    for section in range(1, sections + 1):
        lines.append(f"## 1.{section} Section {section}")
        lines += [f"### 1.{section}.{sub} Item {sub}\nText." for sub in range(1, subsections + 1)]
    root = tmp_path / "wide"
    write_bundle(root, "wide-1", "2024", "\n".join(lines) + "\n")
    answers = _ask(
        root,
        stdio,
        [
            ("full", "get_subtree", {"code": "WIDE 1", "path": "1", "maxNodes": 2000}),
            ("small", "get_subtree", {"code": "WIDE 1", "path": "1", "maxNodes": 75}),
        ],
    ).answers

    def nodes(tree: list[dict]) -> list[dict]:
        out, stack = [], list(tree)
        while stack:
            node = stack.pop()
            out.append(node)
            stack.extend(node["children"])
        return out

    full = nodes(answers["full"].structured_content["tree"])
    assert len(full) == 2000, "as many nodes as maxNodes allows"
    cut = [node for node in full if node.get("truncated")]
    assert all(node["childCount"] == (sections if node["path"] == "1" else subsections) for node in cut)
    sections_cut = [node for node in cut if node["path"] != "1"]
    assert len(sections_cut) == sections - (2000 - 1 - sections) // subsections  # the whole level of 50, then 39 full sections
    small = nodes(answers["small"].structured_content["tree"])
    assert len(small) == 75
    partial = [node for node in small if node.get("truncated") and node["path"] != "1"]
    assert len(partial) == sections and all(node["childCount"] == subsections for node in partial)
    kept = {node["path"] for node in small if node["path"].count(".") == 2}
    assert kept == {f"1.1.{sub}" for sub in range(1, 25)}, "the next level in reading order"


# -- 9. one entry per target, with every wording ----------------------------------------------


def test_item_9_one_reference_entry_per_target_with_every_wording(session: Session, sample_copy: Path) -> None:
    refs = session.answers["xrefs"].structured_content["crossRefs"]
    targets = [(ref["targetCode"], ref["targetPath"], ref["targetKind"]) for ref in refs if ref["targetPath"]]
    assert len(targets) == len(set(targets)), "no target twice"
    source = clause_source(sample_copy, "4.2.1")
    to_423 = next(ref for ref in refs if ref["targetPath"] == "4.2.3")
    assert {"chiffre 4.2.3", "voir 4.2.3"} <= set(to_423["texts"])
    assert all(wording in source for wording in to_423["texts"])
    to_260 = [ref for ref in refs if ref["targetCode"] == "SIA 260" and ref["targetPath"] == "4.4.3"]
    assert source.count("SIA 260, 4.4.3") >= 2 and len(to_260) == 1


# -- 10. notes come last, in their own block and in _meta -------------------------------------


def test_item_10_budget_and_repeat_notes_come_last_in_one_block_and_in_meta(session: Session) -> None:
    repeated = session.answers["section-norm"]  # the second, identical call: the 5th read after a reset, budget 3
    notes = repeated.meta["normcli/notes"]
    assert len(notes) == 2 and notes[0].startswith("Note: this repeats call") and notes[1].startswith("Budget:")
    assert repeated.content[-1].text == "\n".join(notes), "one last block holds the notes"
    assert json.loads(repeated.content[0].text) == repeated.structured_content, "the answer stays first"
    assert "notes" not in repeated.structured_content, "budget notes are not part of the answer"
    quiet = session.answers["corpus-2014"]
    assert quiet.meta["normcli/notes"] == [] and len(quiet.content) == 2


# -- 11. errors carry {code, what, candidates} ----------------------------------------------------


@pytest.mark.parametrize(
    ("label", "code", "what", "candidate"),
    [
        ("no-norm", "not_found", "norm", "SIA 261"),
        ("no-edition", "not_found", "edition", "2014"),
        ("no-language", "not_found", "language", "de"),
        ("no-path", "not_found", "path", "4"),
        ("no-figure", "not_found", "figure", "fig-1"),
        ("no-table", "not_found", "table", "tab-2"),
        ("malformed", "invalid_argument", "maxNodes", None),
    ],
)
def test_item_11_errors_say_what_was_not_found_and_what_exists(
    session: Session, label: str, code: str, what: str, candidate: str | None
) -> None:
    answer = session.answers[label]
    assert answer.is_error
    error = answer.structured_content["error"]
    assert (error["code"], error["what"]) == (code, what)
    if candidate is not None:
        assert candidate in error["candidates"]
    assert json.loads(answer.content[0].text) == answer.structured_content
    assert re.search(r"\bCall \w+|call \w+", texts(answer)[1]), "the text says what to call next"


# -- 12. get_figure has a url and the image block ---------------------------------------------


def test_item_12_a_figure_has_a_file_url_inside_the_workspace_and_the_image(session: Session, sample_copy: Path) -> None:
    answer = session.answers["figure"]
    url = answer.structured_content["url"]
    assert url.startswith("file://")
    file = Path(unquote(urlparse(url).path))
    assert file.is_relative_to(sample_copy.resolve()) and file.is_file()
    image = next(block for block in answer.content if block.type == "image")
    assert base64.b64decode(image.data) == file.read_bytes()


# -- beyond: output schemas, descriptions, resources --------------------------------------------


def test_every_answer_and_error_validates_against_its_tools_output_schema(session: Session) -> None:
    checked = set()
    for label, tool, _ in CALLS:
        schema = session.tools[tool].output_schema
        jsonschema.Draft202012Validator.check_schema(schema)
        jsonschema.validate(session.answers[label].structured_content, schema)
        checked.add(tool)
    assert checked == set(DESCRIPTIONS), "every norm tool answered at least once (the API spec tools: test_schemas.py)"


def test_an_error_object_does_not_pass_for_an_answer(session: Session) -> None:
    schema = session.tools["get_toc"].output_schema
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"code": "SIA 261"}, schema)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"error": {"code": "not_found"}}, schema)


def test_the_tool_descriptions_stay_small(session: Session) -> None:
    """Measured as characters / 4 (no tokenizer is installed): the tool and parameter descriptions an agent reads."""
    characters = sum(len(tool.description) for tool in session.tools.values())
    characters += sum(
        len(spec.get("description", "")) for tool in session.tools.values() for spec in tool.input_schema["properties"].values()
    )
    assert characters / 4 < 4000, characters


def test_the_descriptions_name_what_to_call_next_in_the_reading_order(session: Session) -> None:
    assert list(session.tools)[:6] == ["get_methodology", "whoami", "list_norms", "get_toc", "get_subtree", "get_section"]
    for name, tool in session.tools.items():
        if name not in DESCRIPTIONS:  # the API spec tools (SPEC §7) word their own
            continue
        assert "Use it" in tool.description or name == "get_methodology", name
        assert "Next:" in tool.description or name in ("get_methodology", "get_figure"), name


def test_each_clause_is_a_resource_and_the_template_reads_any(session: Session, sample_copy: Path, cli_json) -> None:
    uris = {str(resource.uri) for resource in session.resources}
    code, toc = cli_json("toc", "SIA 261", "--depth", "6")
    assert code == 0
    paths = []
    stack = list(toc["tree"])
    while stack:
        node = stack.pop()
        paths.append(node["path"])
        stack.extend(node["children"])
    from urllib.parse import quote

    assert {f"normcli://SIA%20261/2020/{quote(path, safe='')}" for path in paths} <= uris
    assert "normcli://{code}/{edition}/{path}" in session.templates
    document = session.reads[SECTION_URI].contents[0]
    assert document.mime_type == "text/markdown"
    for line in clause_source(sample_copy, "4.2.1").splitlines():
        if line.strip() and not line.startswith("<!--"):
            assert line.strip() in document.text, "the resource holds the whole clause"
    assert "[SIA 261:2020, 4.2.1, p. " in document.text
    assert "SIA 261:2014" in session.reads["normcli://sia261/2014/4.2.1"].contents[0].text
