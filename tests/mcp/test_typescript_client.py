"""A second, independent client: the official TypeScript SDK (`@modelcontextprotocol/sdk`, the library
Claude Desktop and Claude Code are built on) drives `normcli mcp` over stdio, for items 1, 3, 5 and 11
of issue 13. Its `callTool` checks every structured content against the tool's output schema, error
results included, so a schema that does not hold the answer fails here.

The SDK is installed with npm into a cache folder outside the repository (`$NORMCLI_TS_CLIENT`, else
`~/.cache/normcli-ts-client`); without node, npm or the registry the test is skipped and says why.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from mcp_support import child_env, server_command

SDK = "@modelcontextprotocol/sdk@1.32.2"

SCRIPT = r"""
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import Ajv from "ajv";

const [command, ...args] = JSON.parse(process.argv[2]);
const transport = new StdioClientTransport({ command, args, env: process.env, stderr: "ignore" });
const client = new Client({ name: "normcli-ts-check", version: "1.0.0" });
await client.connect(transport);
const report = { calls: {} };
const tools = (await client.listTools()).tools;
report.tools = Object.fromEntries(tools.map((tool) => [tool.name, tool]));
const calls = {
  norms: ["list_norms", {}],
  toc: ["get_toc", { code: "SIA 261", maxDepth: 2 }],
  clampNodes: ["get_subtree", { code: "SIA 261", path: "4", maxNodes: 2001 }],
  clampChars: ["get_section", { code: "SIA 261", path: "4.2.1", maxChars: 40001 }],
  clampLimit: ["search_corpus", { keyword: "neige", limit: 41 }],
  byNorm: ["get_section", { norm: "SIA 261", path: "4.2.1", maxChars: 500 }],
  noNorm: ["get_toc", { code: "SIA 999" }],
  noFigure: ["get_figure", { norm: "SIA 261", figureId: "fig-99" }],
  malformed: ["get_toc", { code: "SIA 261", maxDepth: "deep" }],
};
for (const [label, [name, args]] of Object.entries(calls)) {
  try {
    report.calls[label] = { ok: true, result: await client.callTool({ name, arguments: args }) };
  } catch (error) {
    report.calls[label] = { ok: false, error: String(error) };
  }
}
const ajv = new Ajv({ strict: false });
report.validArguments = Object.fromEntries(
  ["get_toc", "get_subtree", "get_section", "search_in_norm", "get_cross_refs", "get_figure"].map((name) => [
    name,
    ajv.validate(report.tools[name].inputSchema, { norm: "SIA 261", path: "4", keyword: "neige", figureId: "fig-1" }),
  ]),
);
console.log(JSON.stringify(report));
await client.close();
"""


def _sdk_folder() -> Path:
    """The folder holding node_modules with the TypeScript SDK, installed on first use; skips when it cannot be."""
    if shutil.which("node") is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed for the TypeScript SDK client")
    folder = Path(os.environ.get("NORMCLI_TS_CLIENT", Path.home() / ".cache" / "normcli-ts-client"))
    if not (folder / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json").is_file():
        folder.mkdir(parents=True, exist_ok=True)
        try:
            done = subprocess.run(
                ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder), SDK],
                capture_output=True,
                text=True,
                timeout=300,
            )
        except subprocess.TimeoutExpired:
            pytest.skip("npm install of the TypeScript SDK timed out (no registry?)")
        if done.returncode != 0:
            pytest.skip(f"npm could not install {SDK}: {done.stderr.strip().splitlines()[-1:]}")
    return folder


@pytest.fixture(scope="module")
def report(sample_copy: Path, tmp_path_factory: pytest.TempPathFactory) -> dict:
    folder = _sdk_folder()
    here = tmp_path_factory.mktemp("ts-client")
    (here / "node_modules").symlink_to(folder / "node_modules", target_is_directory=True)
    (here / "check.mjs").write_text(SCRIPT, encoding="utf-8")
    command = server_command(sample_copy, "--idle-reset", "0", "--read-budget", "100")
    done = subprocess.run(
        ["node", str(here / "check.mjs"), json.dumps(command)],
        capture_output=True,
        text=True,
        timeout=180,
        env=child_env(),
        cwd=here,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


def _answer(report: dict, label: str) -> dict:
    call = report["calls"][label]
    assert call["ok"], call.get("error")  # the SDK threw: e.g. structured content that its output schema refuses
    return call["result"]


@pytest.mark.parametrize("label", ["norms", "toc", "clampNodes", "byNorm"])
def test_item_1_the_first_text_block_parses_as_the_structured_content(report: dict, label: str) -> None:
    result = _answer(report, label)
    assert not result.get("isError")
    assert result["content"][0]["type"] == "text"
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]


@pytest.mark.parametrize(("label", "name"), [("clampNodes", "maxNodes"), ("clampChars", "maxChars"), ("clampLimit", "limit")])
def test_item_3_numbers_past_their_range_are_clamped_with_a_note(report: dict, label: str, name: str) -> None:
    result = _answer(report, label)
    assert not result.get("isError"), result["content"]
    assert any(note.startswith(name) and "was used" in note for note in result["structuredContent"]["notes"])


def test_item_5_norm_is_declared_and_arguments_with_it_validate(report: dict) -> None:
    assert all(report["validArguments"].values()), report["validArguments"]
    for name in report["validArguments"]:
        assert "norm" in report["tools"][name]["inputSchema"]["properties"]
    result = _answer(report, "byNorm")
    assert result["structuredContent"]["section"]["path"] == "4.2.1"


@pytest.mark.parametrize(
    ("label", "code", "what"),
    [("noNorm", "not_found", "norm"), ("noFigure", "not_found", "figure"), ("malformed", "invalid_argument", "maxDepth")],
)
def test_item_11_errors_carry_a_structured_error_the_sdk_accepts(report: dict, label: str, code: str, what: str) -> None:
    result = _answer(report, label)
    assert result["isError"] is True
    error = result["structuredContent"]["error"]
    assert (error["code"], error["what"]) == (code, what)
    assert isinstance(error["candidates"], list)
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]
    assert "call" in result["content"][1]["text"].lower()
