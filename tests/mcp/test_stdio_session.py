"""An agent's session with `normcli mcp` over stdio: tools, schemas, answers equal to the CLI's --json.

One real server process answers every question of this module; the transcript is recorded once,
then each test checks one thing a client or an agent relies on.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
import pytest

TOOLS = {
    "get_methodology": {"norm"},
    "whoami": set(),
    "list_norms": set(),
    "get_toc": {"code", "norm", "maxDepth", "edition", "language"},
    "get_subtree": {"code", "norm", "path", "nodeId", "maxDepth", "maxNodes", "edition", "language"},
    "get_section": {"code", "norm", "path", "nodeId", "maxChars", "offset", "edition", "language"},
    "search_in_norm": {"code", "norm", "keyword", "limit", "edition", "language"},
    "search_corpus": {"keyword", "limit", "edition"},
    "get_cross_refs": {"code", "norm", "path", "nodeId", "edition", "language", "direction"},
    "get_figure": {"code", "norm", "figureId", "edition", "language"},
    "get_table": {"code", "norm", "tableId", "edition", "language"},
    "compare_editions": {"fromEdition", "toEdition", "path", "language", "fromLanguage", "toLanguage", "force"},
    "define_term": {"term", "limit", "language"},
    "cite_clause": {"code", "norm", "path", "nodeId", "format", "edition", "language"},
    # SPEC §7: the spec discovery tools
    "spec_list": set(),
    "spec_by_id": {"id"},
    "collection_by_spec": {"specId"},
    "collection_by_id": {"id"},
    "tag_by_spec": {"specId"},
    "tag_by_collection": {"collectionId"},
    "tag_by_id": {"id"},
    "endpoint_by_tag": {"tagId"},
    "endpoint_by_id": {"id"},
    "search_specs": {"keyword", "limit"},
}
# `code` or its older name `norm` is required, and `path` or `nodeId`: said in their descriptions
# (a top-level anyOf is refused by some model APIs).
REQUIRED = {
    "search_in_norm": {"keyword"},
    "search_corpus": {"keyword"},
    "get_figure": {"figureId"},
    "get_table": {"tableId"},
    "compare_editions": {"fromEdition", "toEdition"},
    "define_term": {"term"},
    "spec_by_id": {"id"},
    "collection_by_spec": {"specId"},
    "collection_by_id": {"id"},
    "tag_by_spec": {"specId"},
    "tag_by_collection": {"collectionId"},
    "tag_by_id": {"id"},
    "endpoint_by_tag": {"tagId"},
    "endpoint_by_id": {"id"},
    "search_specs": {"keyword"},
}
RANGES = {
    ("get_toc", "maxDepth"): (1, 6),
    ("get_subtree", "maxNodes"): (20, 2000),
    ("get_section", "maxChars"): (500, 40000),
    ("search_in_norm", "limit"): (1, 50),
    ("search_corpus", "limit"): (1, 40),
    ("define_term", "limit"): (1, 50),
}

# (label, tool, arguments, the same question on the command line)
QUESTIONS = [
    ("methodology", "get_methodology", {}, ["methodology"]),
    ("whoami", "whoami", {}, ["info"]),
    ("norms", "list_norms", {}, ["norms"]),
    ("toc", "get_toc", {"code": "SIA 261", "maxDepth": 2}, ["toc", "SIA 261", "--depth", "2"]),
    ("toc-2014", "get_toc", {"code": "SIA 261", "edition": "2014"}, ["toc", "SIA 261", "--edition", "2014"]),
    ("subtree", "get_subtree", {"code": "SIA 261", "path": "4", "maxNodes": 20}, ["subtree", "SIA 261", "4", "--max-nodes", "20"]),
    ("section", "get_section", {"code": "SIA 261", "path": "4.2.1"}, ["section", "SIA 261", "4.2.1"]),
    (
        "section-window",
        "get_section",
        {"code": "SIA 261", "path": "4.2.1", "maxChars": 500, "offset": 500},
        ["section", "SIA 261", "4.2.1", "--max-chars", "500", "--offset", "500"],
    ),
    (
        "section-de",
        "get_section",
        {"code": "sia261", "path": "4.2.1", "language": "de"},
        ["section", "sia261", "4.2.1", "--language", "de"],
    ),
    ("search", "search_in_norm", {"code": "SIA 261", "keyword": "neige", "limit": 5}, ["search", "SIA 261", "neige", "--limit", "5"]),
    ("corpus", "search_corpus", {"keyword": "Strasse"}, ["corpus", "Strasse"]),
    ("corpus-clause", "search_corpus", {"keyword": "4.2.1", "limit": 10}, ["corpus", "4.2.1", "--limit", "10"]),
    (
        "incoming",
        "get_cross_refs",
        {"code": "SIA 261", "path": "4.2.1", "direction": "incoming"},
        ["xrefs", "SIA 261", "4.2.1", "--incoming"],
    ),
    (
        "compare",
        "compare_editions",
        {"fromEdition": "SIA 261:2014", "toEdition": "SIA 261:2020", "path": "4.2"},
        ["diff", "SIA 261:2014", "SIA 261:2020", "4.2"],
    ),
    ("define", "define_term", {"term": "s_k"}, ["define", "s_k"]),
    (
        "cite",
        "cite_clause",
        {"code": "SIA 261:2020", "path": "4.2.1", "format": "bibtex"},
        ["cite", "SIA 261:2020", "4.2.1", "-f", "bibtex"],
    ),
    ("xrefs", "get_cross_refs", {"code": "SIA 261", "path": "4.2.1"}, ["xrefs", "SIA 261", "4.2.1"]),
    ("alias", "get_toc", {"norm": "SIA 261"}, ["toc", "SIA 261"]),
]
ERRORS = {
    "unknown-norm": ("get_toc", {"code": "SIA 999"}, ["toc", "SIA 999"]),
    "unknown-path": ("get_section", {"code": "SIA 261", "path": "99.9"}, ["section", "SIA 261", "99.9"]),
    "unknown-edition": ("get_toc", {"code": "SIA 261", "edition": "1999"}, ["toc", "SIA 261", "--edition", "1999"]),
    "unknown-figure": ("get_figure", {"code": "SIA 261", "figureId": "fig-99"}, ["figure", "SIA 261", "fig-99"]),
    "depth-malformed": ("get_toc", {"code": "SIA 261", "maxDepth": "deep"}, None),
    "limit-malformed": ("search_corpus", {"keyword": "neige", "limit": 2.5}, None),
    "missing-path": ("get_section", {"code": "SIA 261"}, None),
    "unknown-parameter": ("get_toc", {"code": "SIA 261", "depth": 2}, None),
    "no-code": ("get_toc", {}, None),
}
# what each error names (SPEC §8)
WHAT = {
    "unknown-norm": "norm",
    "unknown-path": "path",
    "unknown-edition": "edition",
    "unknown-figure": "figure",
    "depth-malformed": "maxDepth",
    "limit-malformed": "limit",
    "missing-path": "path",
    "unknown-parameter": "depth",
    "no-code": "code",
}
RESOURCES = {
    "normcli://methodology": ["methodology"],
    "normcli://norms": ["norms"],
    "normcli://toc/sia-261": ["toc", "SIA 261", "--depth", "2"],
    "normcli://toc/vss-640-100": ["toc", "VSS 640 100", "--depth", "2"],
}


@dataclass
class Transcript:
    """What the server said during one session, and how long its calls took."""

    instructions: str | None = None
    tools: dict[str, Any] = field(default_factory=dict)
    answers: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, Any] = field(default_factory=dict)
    figure: Any = None
    resources: list[str] = field(default_factory=list)
    templates: list[str] = field(default_factory=list)
    reads: dict[str, Any] = field(default_factory=dict)
    after_errors: Any = None


@pytest.fixture(scope="module")
def transcript(sample_copy: Path, stdio) -> Transcript:
    """Run the whole session once: list everything, ask every question, provoke every error."""
    seen = Transcript()

    async def session() -> None:
        async with stdio(sample_copy, "--idle-reset", "0", "--read-budget", "100") as client:
            seen.instructions = client.initialized.instructions
            seen.tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            for label, tool, arguments, _ in QUESTIONS:
                seen.answers[label] = await client.call_tool(tool, arguments)
            seen.figure = await client.call_tool("get_figure", {"code": "SIA 261", "figureId": "fig-1"})
            for label, (tool, arguments, _) in ERRORS.items():
                seen.errors[label] = await client.call_tool(tool, arguments)
            seen.after_errors = await client.call_tool("whoami", {})
            seen.resources = [str(resource.uri) for resource in (await client.list_resources()).resources]
            seen.templates = [template.uri_template for template in (await client.list_resource_templates()).resource_templates]
            for uri in RESOURCES:
                seen.reads[uri] = await client.read_resource(uri)

    anyio.run(session)
    return seen


def test_the_server_offers_exactly_the_tools_of_the_spec_and_issue_17(transcript: Transcript) -> None:
    assert set(transcript.tools) == set(TOOLS)


@pytest.mark.parametrize("name", sorted(TOOLS))
def test_each_tool_takes_the_spec_parameters_and_is_read_only(transcript: Transcript, name: str) -> None:
    tool = transcript.tools[name]
    schema = tool.input_schema
    assert set(schema.get("properties", {})) == TOOLS[name]
    assert set(schema.get("required", [])) == REQUIRED.get(name, set())
    assert tool.annotations.read_only_hint is True
    assert tool.annotations.idempotent_hint is True
    assert tool.annotations.destructive_hint is False
    assert tool.output_schema and tool.output_schema["type"] == "object"
    assert len(tool.description) > 120, "the description tells an agent when to use the tool and what to call next"


@pytest.mark.parametrize(("name", "parameter"), sorted(RANGES))
def test_ranges_are_in_the_descriptions_not_hard_bounds(transcript: Transcript, name: str, parameter: str) -> None:
    """A number past its range is clamped, not refused (SPEC §8): a schema bound would make clients refuse it."""
    spec = transcript.tools[name].input_schema["properties"][parameter]
    assert spec["type"] == "integer" and "minimum" not in spec and "maximum" not in spec
    low, high = RANGES[(name, parameter)]
    assert f"{low}–{high}" in spec["description"]


@pytest.mark.parametrize("name", [name for name, params in TOOLS.items() if "code" in params])
def test_norm_is_declared_beside_code(transcript: Transcript, name: str) -> None:
    properties = transcript.tools[name].input_schema["properties"]
    assert properties["norm"]["type"] == properties["code"]["type"] == "string"
    assert "one is required" in properties["norm"]["description"] and "code or norm" in properties["code"]["description"]


@pytest.mark.parametrize(("label", "tool", "arguments", "command"), QUESTIONS, ids=[question[0] for question in QUESTIONS])
def test_structured_content_is_the_cli_json(
    transcript: Transcript, cli_json, label: str, tool: str, arguments: dict, command: list[str]
) -> None:
    answer = transcript.answers[label]
    code, expected = cli_json(*command)
    assert code == 0
    assert not answer.is_error, answer.content[0].text
    assert answer.structured_content == expected
    assert answer.content[0].type == "text" and json.loads(answer.content[0].text) == expected, "the first text block is the JSON"


def test_a_section_answer_carries_its_markdown_and_how_to_read_on(transcript: Transcript) -> None:
    section = transcript.answers["section-window"]
    body = section.structured_content["section"]
    assert json.loads(section.content[0].text)["section"]["markdown"] == body["markdown"]
    text = section.content[1].text  # what to do with it, without the clause a second time
    assert f"offset={body['nextOffset']}" in text
    assert "[SIA 261:2020, 4.2.1, p. " in text
    assert body["content"].strip()[:200] not in text


def test_get_figure_sends_the_image_and_its_caption(transcript: Transcript, cli_json) -> None:
    figure = transcript.figure
    code, expected = cli_json("figure", "SIA 261", "fig-1")
    assert code == 0 and not figure.is_error
    kinds = [block.type for block in figure.content]
    assert kinds == ["text", "text", "image"]
    image = figure.content[2]
    assert image.mime_type == expected["mimeType"] == "image/png"
    assert image.data == expected["data"]
    assert base64.b64decode(image.data).startswith(b"\x89PNG")
    assert expected["caption"] in figure.content[1].text
    assert figure.structured_content == {key: value for key, value in expected.items() if key != "data"}
    assert json.loads(figure.content[0].text) == figure.structured_content


@pytest.mark.parametrize("label", sorted(ERRORS))
def test_errors_are_error_results_with_a_structured_error(transcript: Transcript, label: str) -> None:
    answer = transcript.errors[label]
    assert answer.is_error
    error = answer.structured_content["error"]
    assert error["code"] == ("not_found" if label.startswith("unknown-") and label != "unknown-parameter" else "invalid_argument")
    assert error["what"] == WHAT[label]
    assert isinstance(error["candidates"], list)
    assert json.loads(answer.content[0].text) == answer.structured_content, "the first text block is the JSON"
    assert "Traceback" not in answer.content[1].text


@pytest.mark.parametrize("label", [label for label, (_, _, command) in ERRORS.items() if command])
def test_the_cli_refuses_the_same_questions(transcript: Transcript, cli_json, label: str) -> None:
    code, document = cli_json(*ERRORS[label][2])
    error = document["error"]
    if error["code"] == "not_found":
        assert code == 1
        assert error["message"].split(" (")[0] in transcript.errors[label].content[1].text
    else:
        assert (code, error["code"]) == (2, "invalid_argument")


def test_error_texts_tell_the_agent_what_to_call(transcript: Transcript) -> None:
    def text(label: str) -> str:
        return transcript.errors[label].content[1].text

    assert "list_norms" in text("unknown-norm") and "SIA 261" in text("unknown-norm")
    assert "get_toc" in text("unknown-path")
    assert "2020" in text("unknown-edition") and "list_norms" in text("unknown-edition")
    assert "fig-1" in text("unknown-figure") and "get_section" in text("unknown-figure")
    assert "maxDepth" in text("depth-malformed") and "integer" in text("depth-malformed")
    assert "limit" in text("limit-malformed")
    assert "code or norm" in text("no-code")
    assert "path" in text("missing-path")
    assert "depth" in text("unknown-parameter") and "maxDepth" in text("unknown-parameter")


def test_the_server_still_answers_after_errors(transcript: Transcript) -> None:
    assert not transcript.after_errors.is_error
    assert transcript.after_errors.structured_content["norms"] == 4


def test_resources_list_the_method_the_norms_and_each_toc(transcript: Transcript) -> None:
    assert {"normcli://methodology", "normcli://norms"} <= set(transcript.resources)
    tocs = {uri for uri in transcript.resources if uri.startswith("normcli://toc/")}
    assert tocs == {"normcli://toc/en-1991-1-3", "normcli://toc/sia-260", "normcli://toc/sia-261", "normcli://toc/vss-640-100"}
    assert transcript.templates == ["normcli://{code}/{edition}/{path}", "normcli://toc/{code}"]


@pytest.mark.parametrize("uri", sorted(RESOURCES))
def test_resources_read_the_same_as_the_cli(transcript: Transcript, cli_json, uri: str) -> None:
    contents = transcript.reads[uri].contents
    code, expected = cli_json(*RESOURCES[uri])
    assert code == 0 and len(contents) == 1
    if uri == "normcli://methodology":
        assert contents[0].mime_type == "text/markdown"
        assert contents[0].text == expected["text"]
    else:
        assert contents[0].mime_type == "application/json"
        assert json.loads(contents[0].text) == expected


def test_the_instructions_say_to_call_get_methodology_first(transcript: Transcript) -> None:
    assert "get_methodology first" in transcript.instructions
    assert "[SIA 261:2020, 4.2.1, p. 22]" in transcript.instructions
