"""An agent answers a design question the way the method asks, through a real `normcli mcp` process.

“What is the design value of the snow load on a roof, and where does the load factor come from?”
The agent reads the method, finds the clause, reads it, follows its references into SIA 260, looks at
the figure, and answers within its budget; then it keeps reading and the server reminds it.
"""

from __future__ import annotations

from pathlib import Path

import anyio


def texts(result) -> list[str]:
    """The text blocks of a tool result."""
    return [block.text for block in result.content if block.type == "text"]


def test_an_agent_follows_the_method_from_question_to_cited_clauses(sample_copy: Path, stdio) -> None:
    transcript: dict[str, object] = {}

    async def agent() -> None:
        async with stdio(sample_copy, "--idle-reset", "0") as session:
            transcript["instructions"] = session.initialized.instructions
            method = await session.call_tool("get_methodology", {})
            norms = await session.call_tool("list_norms", {})
            found = await session.call_tool("search_corpus", {"keyword": "charge de neige", "limit": 5})
            hit = next(hit for norm in found.structured_content["norms"] for hit in norm["hits"] if hit["path"] == "4.2.1")
            clause = await session.call_tool("get_section", {"code": "SIA 261", "path": hit["path"]})
            refs = await session.call_tool("get_cross_refs", {"code": "SIA 261", "path": "4.2.1"})
            into_260 = next(ref for ref in refs.structured_content["crossRefs"] if ref["targetCode"] == "SIA 260" and ref["targetPath"])
            factor = await session.call_tool("get_section", {"code": into_260["targetCode"], "path": into_260["targetPath"]})
            figure_id = clause.structured_content["section"]["figures"][0]["id"]
            one_more = await session.call_tool("get_figure", {"code": "SIA 261", "figureId": figure_id})
            transcript.update(method=method, norms=norms, clause=clause, refs=refs, factor=factor, one_more=one_more)

    anyio.run(agent)

    assert "get_methodology first" in transcript["instructions"]
    method = transcript["method"].structured_content["text"]
    assert "## Budget" in method and method.endswith("methodology: v2")
    assert all(norm["demo"] for norm in transcript["norms"].structured_content["norms"]), "the sample holds only fictional norms"

    clause = transcript["clause"]
    assert clause.structured_content["section"]["path"] == "4.2.1"
    assert "[SIA 261:2020, 4.2.1, p. " in texts(clause)[1], "the text block gives the citation to use"

    refs = transcript["refs"].structured_content["crossRefs"]
    unresolved = [ref for ref in refs if not ref["resolvable"]]
    assert unresolved and "not in this workspace" in texts(transcript["refs"])[1]

    factor = transcript["factor"]
    assert factor.structured_content["section"]["code"] == "SIA 260"
    assert not any(text.startswith("Budget:") for text in texts(factor)), "four reads are within the budget"

    one_more = transcript["one_more"]
    assert [block.type for block in one_more.content][:3] == ["text", "text", "image"]
    reminder = [text for text in texts(one_more) if text.startswith("Budget:")]
    assert reminder and "read call 5 in a row" in reminder[0], "the fifth read in a row gets the reminder"
    assert one_more.meta["normcli/budget"] == {"reads": 5, "budget": 4, "repeated": False}
