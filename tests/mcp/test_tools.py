"""One behaviour at a time, through the SDK's in-memory client: budget, repeats, aliases, figures, resources."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from normcli.operations import TOOL_NAMES
from tests.conftest import write_bundle


def texts(result) -> list[str]:
    """The text blocks of a tool result."""
    return [block.text for block in result.content if block.type == "text"]


def budget_lines(result) -> list[str]:
    """The budget reminders appended to a result."""
    return [text for text in texts(result) if text.startswith("Budget:")]


READS = [
    ("get_toc", {"code": "SIA 261"}),
    ("get_subtree", {"code": "SIA 261", "path": "4"}),
    ("get_section", {"code": "SIA 261", "path": "4.2.1"}),
    ("get_cross_refs", {"code": "SIA 261", "path": "4.2.1"}),
    ("search_in_norm", {"code": "SIA 261", "keyword": "neige"}),
    ("search_corpus", {"keyword": "neige"}),
    ("get_figure", {"code": "SIA 261", "figureId": "fig-1"}),
    ("get_section", {"code": "SIA 260", "path": "4.4.3"}),
    ("get_section", {"code": "SIA 261", "path": "4.2.2"}),
]


def test_the_fifth_read_in_a_row_gets_a_reminder_to_answer(run_in_memory) -> None:
    async def session(client):
        return [await client.call_tool(tool, arguments) for tool, arguments in READS[:6]]

    results = run_in_memory(session)
    assert all(not result.is_error for result in results)
    assert [bool(budget_lines(result)) for result in results] == [False, False, False, False, True, True]
    assert "read call 5 in a row" in budget_lines(results[4])[0]
    assert "reading budget: 4" in budget_lines(results[4])[0]
    assert results[4].meta["normcli/budget"] == {"reads": 5, "budget": 4, "repeated": False}


def test_an_audit_allows_eight_reads(run_in_memory) -> None:
    async def session(client):
        return [await client.call_tool(tool, arguments) for tool, arguments in READS]

    results = run_in_memory(session, audit=True)
    assert [bool(budget_lines(result)) for result in results] == [False] * 8 + [True]
    assert "audit budget: 8" in budget_lines(results[8])[0]


def test_the_thresholds_are_settings(run_in_memory) -> None:
    async def session(client):
        return [await client.call_tool(tool, arguments) for tool, arguments in READS[:3]]

    results = run_in_memory(session, read_budget=2)
    assert [bool(budget_lines(result)) for result in results] == [False, False, True]


def test_orientation_calls_do_not_count_and_get_methodology_starts_afresh(run_in_memory) -> None:
    async def session(client):
        for tool, arguments in READS[:4]:
            await client.call_tool(tool, arguments)
        await client.call_tool("list_norms", {})
        await client.call_tool("whoami", {})
        fifth = await client.call_tool(*READS[4])
        await client.call_tool("get_methodology", {})
        again = await client.call_tool(*READS[5])
        return fifth, again

    fifth, again = run_in_memory(session)
    assert budget_lines(fifth), "list_norms and whoami did not break the run of reads"
    assert not budget_lines(again)
    assert again.meta["normcli/budget"]["reads"] == 1


def test_a_failed_call_reads_nothing_and_does_not_count(run_in_memory) -> None:
    async def session(client):
        for _ in range(5):
            await client.call_tool("get_section", {"code": "SIA 261", "path": "99.9"})
        return await client.call_tool(*READS[0])

    result = run_in_memory(session)
    assert result.meta["normcli/budget"]["reads"] == 1


def test_an_identical_call_with_the_same_result_is_noted(run_in_memory) -> None:
    async def session(client):
        first = await client.call_tool("get_section", {"code": "SIA 261", "path": "4.2.1"})
        other = await client.call_tool("get_section", {"code": "SIA 261", "path": "4.2.1", "maxChars": 500})
        again = await client.call_tool("get_section", {"code": "SIA 261", "path": "4.2.1"})
        return first, other, again

    first, other, again = run_in_memory(session)
    assert not any("repeats" in text for text in texts(first) + texts(other))
    note = [text for text in texts(again) if "repeats call #1" in text]
    assert note and "offset" in note[0]
    assert again.meta["normcli/budget"]["repeated"] is True
    assert again.structured_content == first.structured_content, "the note never changes the structured answer"


def test_norm_is_an_alias_of_code_and_numbers_are_read_as_text(run_in_memory) -> None:
    async def session(client):
        by_code = await client.call_tool("get_section", {"code": "SIA 261", "path": "4", "edition": "2014"})
        by_norm = await client.call_tool("get_section", {"norm": "SIA 261", "path": 4, "edition": 2014})
        both = await client.call_tool("get_toc", {"code": "SIA 260", "norm": "SIA 261"})
        return by_code, by_norm, both

    by_code, by_norm, both = run_in_memory(session)
    assert not by_norm.is_error, texts(by_norm)
    assert by_norm.structured_content == by_code.structured_content
    assert by_code.structured_content["section"]["edition"] == "2014"
    assert both.structured_content["code"] == "SIA 260", "code wins over its alias"


def test_a_draft_is_read_only_when_named(run_in_memory) -> None:
    async def session(client):
        return await client.call_tool("get_toc", {"code": "SIA 261"}), await client.call_tool("get_toc", {"code": "SIA 261:2026"})

    default, draft = run_in_memory(session)
    assert default.structured_content["edition"] == "2020"
    assert draft.structured_content["edition"] == "2026"


def test_a_figure_outside_its_bundle_is_refused(run_in_memory, hostile_workspace: Path, cli_json) -> None:
    async def session(client):
        return {figure: await client.call_tool("get_figure", {"code": "TEST 1", "figureId": figure}) for figure in ("1", "2", "3")}

    results = run_in_memory(session, workspace=hostile_workspace)
    secret = base64.b64encode((hostile_workspace.parent / "secret.png").read_bytes()).decode("ascii")
    for figure in ("1", "2"):
        assert results[figure].is_error, f"figure {figure} leaves the bundle folder"
        assert "outside" in texts(results[figure])[1] or "no file" in texts(results[figure])[1]
        assert results[figure].structured_content["error"]["what"] == "figure"
        code, document = cli_json("figure", "TEST 1", figure, workspace=hostile_workspace)
        assert code == 1 and "error" in document
    inside = results["3"]
    assert not inside.is_error
    assert [block.type for block in inside.content] == ["text", "text", "image"]
    assert inside.content[2].data == secret, "the file inside the bundle (same bytes as the secret) is served"
    assert inside.structured_content["path"] == "figures/inside.png"


@pytest.mark.parametrize("uri", ["normcli://toc/sia-999", "normcli://nothing"])
def test_reading_an_unknown_resource_is_a_protocol_error(run_in_memory, uri: str) -> None:
    from mcp.shared.exceptions import MCPError

    async def session(client):
        try:
            await client.read_resource(uri)
        except MCPError as error:
            return error
        return None

    error = run_in_memory(session)
    assert error is not None


def test_the_toc_template_reads_any_code_forgivingly(run_in_memory, cli_json) -> None:
    import json

    async def session(client):
        return await client.read_resource("normcli://toc/SIA261")

    result = run_in_memory(session)
    code, expected = cli_json("toc", "SIA 261", "--depth", "2")
    assert code == 0
    assert json.loads(result.contents[0].text) == expected


def test_an_empty_workspace_still_serves(run_in_memory, tmp_path: Path) -> None:
    (tmp_path / "empty" / "norms").mkdir(parents=True)

    async def session(client):
        return await client.call_tool("list_norms", {}), await client.call_tool("get_methodology", {}), await client.list_resources()

    norms, method, resources = run_in_memory(session, workspace=tmp_path / "empty")
    assert norms.structured_content == {"norms": [], "unreadable": []}
    assert "no norms" in texts(norms)[1]
    assert method.structured_content["text"].endswith("methodology: v2")
    assert {str(resource.uri) for resource in resources.resources} == {"normcli://methodology", "normcli://norms"}


def test_an_svg_figure_travels_as_an_embedded_file(run_in_memory, tmp_path: Path) -> None:
    root = tmp_path / "svg"
    svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>'
    bundle = write_bundle(
        root,
        "test-2",
        "2024",
        """
        ---
        code: TEST 2
        edition: "2024"
        title: A drawing
        language: en
        ---
        <!-- page 1 -->
        # 1 Scope
        ![Figure 1 – A square](figures/square.svg)
        """,
    )
    (bundle.parent / "figures").mkdir()
    (bundle.parent / "figures" / "square.svg").write_text(svg, encoding="utf-8")

    async def session(client):
        return await client.call_tool("get_figure", {"code": "TEST 2", "figureId": 1})

    result = run_in_memory(session, workspace=root)
    assert not result.is_error, texts(result)
    assert [block.type for block in result.content] == ["text", "text", "resource"]
    embedded = result.content[2].resource
    assert embedded.mime_type == "image/svg+xml"
    assert base64.b64decode(embedded.blob).decode("utf-8") == svg
    assert "embedded file" in texts(result)[1]
    assert result.structured_content["mimeType"] == "image/svg+xml"


def test_a_bug_in_the_core_is_a_tool_error_and_the_session_goes_on(run_in_memory, monkeypatch) -> None:
    from normcli.service import Service

    def broken(self, *args, **kwargs):
        raise RuntimeError("index exploded")

    monkeypatch.setattr(Service, "toc", broken)

    async def session(client):
        return await client.call_tool("get_toc", {"code": "SIA 261"}), await client.call_tool("list_norms", {})

    failed, after = run_in_memory(session)
    assert failed.is_error
    assert "internal error" in texts(failed)[1] and "RuntimeError" in texts(failed)[1]
    assert failed.structured_content["error"]["code"] == "internal_error"
    assert not after.is_error


def test_unknown_tools_and_parameters_name_what_exists(run_in_memory) -> None:
    async def session(client):
        return await client.call_tool("get_clause", {}), await client.call_tool("search_corpus", {"keyword": "neige", "norm": "SIA 261"})

    no_tool, no_parameter = run_in_memory(session)
    assert no_tool.is_error and "get_section" in texts(no_tool)[1]
    assert no_tool.structured_content["error"] == {
        "code": "invalid_argument",
        "what": "tool",
        "candidates": list(TOOL_NAMES),
        "message": texts(no_tool)[1],
    }
    assert no_parameter.is_error and "norm" in texts(no_parameter)[1] and "edition, keyword, limit" in texts(no_parameter)[1]
    assert no_parameter.structured_content["error"]["what"] == "norm"
    assert no_parameter.structured_content["error"]["candidates"] == ["edition", "keyword", "limit"]


def test_a_norm_held_only_as_a_draft_still_has_its_toc_resource(run_in_memory, tmp_path: Path) -> None:
    import json

    root = tmp_path / "drafts"
    write_bundle(
        root,
        "test-3",
        "2027",
        """
        ---
        code: TEST 3
        edition: "2027"
        title: A coming norm
        language: en
        published: false
        ---
        <!-- page 1 -->
        # 1 Scope
        Draft text.
        """,
    )

    async def session(client):
        return await client.read_resource("normcli://toc/test-3"), await client.call_tool("get_toc", {"code": "TEST 3"})

    resource, default = run_in_memory(session, workspace=root)
    assert json.loads(resource.contents[0].text)["edition"] == "2027"
    assert default.is_error and "2027" in texts(default)[1], "a tool names the draft edition the agent may ask for"
