"""An agent answers a design question the way the method asks, through a real `normcli mcp` process.

“What is the design value of the snow load on a roof, and where does the load factor come from?”
The agent reads the method, finds the clause, reads it, follows its references into SIA 260, looks at
the figure, and answers within its budget; then it keeps reading and the server reminds it.
"""

from __future__ import annotations

import json
import re
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


def _page_of(source: str, heading: str) -> int:
    """The printed page a heading starts on, read from the bundle's `<!-- page N -->` markers."""
    page = None
    for line in source.splitlines():
        marker = re.match(r"<!-- page (\d+) -->", line)
        if marker:
            page = int(marker.group(1))
        if re.match(rf"#+ {re.escape(heading)} ", line):
            assert page is not None
            return page
    raise AssertionError(f"no heading {heading} in the source")


def test_an_agent_built_for_the_older_tools_gets_from_the_method_to_a_cited_answer(sample_copy: Path, stdio) -> None:
    """Only the older tool version's names: `norm` for the code, a `nodeId` from the toc for the clause."""
    seen: dict[str, object] = {}

    async def agent() -> None:
        async with stdio(sample_copy, "--idle-reset", "0") as session:
            method = await session.call_tool("get_methodology", {"norm": "SIA 261"})
            toc = await session.call_tool("get_toc", {"norm": "SIA 261", "maxDepth": 3})
            stack, node_id = list(toc.structured_content["tree"]), None
            while stack:
                node = stack.pop()
                if node["title"] == "Charge de neige sur le sol":
                    node_id = node["nodeId"]
                stack.extend(node["children"])
            clause = await session.call_tool("get_section", {"norm": "SIA 261", "nodeId": node_id})
            refs = await session.call_tool("get_cross_refs", {"norm": "SIA 261", "nodeId": node_id})
            target = next(ref for ref in refs.structured_content["crossRefs"] if ref["targetCode"] == "SIA 260" and ref["targetPath"])
            other = await session.call_tool("get_toc", {"norm": "SIA 260", "maxDepth": 6})
            stack, target_id = list(other.structured_content["tree"]), None
            while stack:
                node = stack.pop()
                if node["path"] == target["targetPath"]:
                    target_id = node["nodeId"]
                stack.extend(node["children"])
            factor = await session.call_tool("get_section", {"norm": "SIA 260", "nodeId": target_id})
            seen.update(method=method, clause=clause, factor=factor, target=target)

    anyio.run(agent)

    method = seen["method"]
    assert not method.is_error and "The question is about **SIA 261**" in method.structured_content["text"]
    answers = [seen["clause"], seen["factor"]]
    assert not any(result.is_error for result in answers), [texts(result)[-1] for result in answers]
    clause, factor = (result.structured_content["section"] for result in answers)
    assert (clause["code"], clause["path"]) == ("SIA 261", "4.2.1")
    assert (factor["code"], factor["path"]) == ("SIA 260", seen["target"]["targetPath"])
    # The cited answer: each claim carries the section's own citation, whose page is the heading's printed page.
    for section, file in ((clause, "norms/sia-261/2020/norm.fr.md"), (factor, "norms/sia-260/2013/norm.md")):
        page = _page_of((sample_copy / file).read_text(encoding="utf-8"), section["path"])
        assert section["citation"] == f"[{section['code']}:{section['edition']}, {section['path']}, p. {page}]"
        assert section["citation"] in json.loads(texts(answers[0] if section is clause else answers[1])[0])["section"]["markdown"]
