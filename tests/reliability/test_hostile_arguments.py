"""Hostile arguments to every operation, the command line and the MCP tools: a clean error or a correct answer,
never a crash, never an SQL error text, never a control character on the terminal."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import jsonschema
import pytest

from normcli.errors import InvalidArgument, NormcliError
from normcli.operations import OPERATIONS as DECLARED
from normcli.operations import run
from normcli.service import Service
from tests.reliability.support import copy_sample, leaks

FTS = [
    '"',
    '""',
    "*",
    "NEAR(",
    "NEAR(neige charge, 2)",
    "AND",
    "OR",
    "NOT",
    "-",
    "^",
    "^neige",
    "neige*",
    '"neige',
    "title:neige",
    "{title body}: x",
    "(",
    ")",
    ":",
]
TEXTS = [
    *FTS,
    "x" * 10_000,
    "neige " * 2000,
    "a\x00b",
    "\x1b[2J\x1b[31mred",
    "\t\n\r",
    "\u202eevil",
    "😀",
    "\ud800",
    "'; DROP TABLE nodes; --",
    "SIA 261' OR '1'='1",
    "1; SELECT * FROM bundles",
    "../../../../etc/passwd",
    "/etc/passwd",
    "C:\\Windows\\win.ini",
    "%",
    "_",
    "\\",
    "é" * 300,
    "ß",
    "İstanbul",
    "ﬁgure",
    " ",
    "",
]
NUMBERS = [-1, 0, 1, -(2**63), 2**63, 10**30, 3.5, True, "12", "x", None, [], {}]


def md5(text: str) -> str:
    """An id as SPEC §7 makes it."""
    return hashlib.md5(text.encode()).hexdigest()


# operation → arguments that work; every parameter the operation declares is made hostile in turn.
BASES = {
    "methodology": {},
    "toc": {"code": "SIA 261"},
    "subtree": {"code": "SIA 261", "path": "4"},
    "section": {"code": "SIA 261", "path": "4.2.1"},
    "search": {"code": "SIA 261", "keyword": "neige"},
    "corpus": {"keyword": "neige"},
    "xrefs": {"code": "SIA 261", "path": "4.2.1"},
    "figure": {"code": "SIA 261", "figureId": "fig-1"},
    "table": {"code": "SIA 261", "tableId": "tab-2"},
    "diff": {"fromEdition": "SIA 261:2014", "toEdition": "SIA 261:2020", "path": "4.2"},
    "define": {"term": "charge utile"},
    "cite": {"code": "SIA 261", "path": "4.2.1"},
    # the discovery tools of SPEC §7, on the sample's specs (ids are MD5 of the strings SPEC §7 names)
    "spec_by_id": {"id": md5("spec|meteo")},
    "collection_by_spec": {"specId": md5("spec|meteo")},
    "collection_by_id": {"id": md5("collection|meteo|Loads")},
    "tag_by_spec": {"specId": md5("spec|meteo")},
    "tag_by_collection": {"collectionId": md5("collection|meteo|Loads")},
    "tag_by_id": {"id": md5("tag|meteo|snow")},
    "endpoint_by_tag": {"tagId": md5("tag|meteo|snow")},
    "endpoint_by_id": {"id": md5("method|meteo|GET|/regions/{regionId}")},
    "search_specs": {"keyword": "snow load"},
}


def test_every_operation_with_parameters_is_made_hostile() -> None:
    assert set(BASES) == {name for name, op in DECLARED.items() if op.params}


CASES = [(op, param.name) for op in BASES for param in DECLARED[op].params]


def fits_its_schema(op: str, answer: dict) -> None:
    """The answer is the JSON its result record declares (the MCP output schema), nothing more or less."""
    from pydantic import TypeAdapter

    from normcli import results
    from normcli.mcp.schemas import output_type

    omit = ("data",) if op == "figure" else ()
    schema = TypeAdapter(output_type(getattr(results, DECLARED[op].result), omit)).json_schema()
    jsonschema.validate({key: value for key, value in answer.items() if key not in omit}, schema)


@pytest.fixture(scope="module")
def hostile_service(tmp_path_factory: pytest.TempPathFactory):
    with Service.open(copy_sample(tmp_path_factory.mktemp("hostile") / "ws")) as service:
        yield service


@pytest.mark.parametrize(("op", "param"), CASES, ids=[f"{op}-{param}" for op, param in CASES])
def test_every_parameter_of_every_operation_takes_hostile_values(hostile_service: Service, op: str, param: str) -> None:
    base = BASES[op]
    before = run(hostile_service, op, base).to_json()
    for value in [*TEXTS, *NUMBERS]:
        try:
            answer = run(hostile_service, op, {**base, param: value}).to_json()
        except NormcliError as error:
            assert error.code in ("invalid_argument", "not_found"), (param, value, error.code)
            message = error.one_line()
            assert not leaks(message), (param, value, message)
            assert not any(ord(char) < 32 for char in message), (param, value, message)
        else:
            assert json.loads(json.dumps(answer)) == answer
            fits_its_schema(op, answer)
    # and the service still answers afterwards, the same as before
    assert run(hostile_service, op, base).to_json() == before


@pytest.mark.parametrize("keyword", [*FTS, "neige AND NOT vent", 'charge "de" neige', "neige NEAR vent"])
def test_fts_syntax_in_a_keyword_is_searched_as_words(hostile_service: Service, keyword: str) -> None:
    plain = " ".join(word for word in keyword.replace('"', " ").split() if word.isalnum())
    result = hostile_service.search("SIA 261", keyword)
    if plain:
        assert [hit.path for hit in result.hits] == [hit.path for hit in hostile_service.search("SIA 261", plain).hits]
    corpus = hostile_service.corpus(keyword)
    assert corpus.keyword == keyword


def test_a_huge_offset_and_out_of_range_windows_are_invalid_arguments(hostile_service: Service) -> None:
    for max_chars in (0, 499, 40001, -5, 10**12):
        with pytest.raises(InvalidArgument, match="maxChars must be a whole number from 500 to 40000"):
            hostile_service.section("SIA 261", "4.2.1", max_chars=max_chars)
    with pytest.raises(InvalidArgument, match="past the end"):
        hostile_service.section("SIA 261", "4.2.1", offset=10**18)
    with pytest.raises(InvalidArgument, match="from 0"):
        hostile_service.section("SIA 261", "4.2.1", offset=-1)
    last = hostile_service.section("SIA 261", "4.2.1", offset=hostile_service.section("SIA 261", "4.2.1").total_chars)
    assert last.content == "" and last.next_offset is None


def test_unicode_paths_and_codes_resolve_or_are_not_found(hostile_service: Service) -> None:
    assert hostile_service.section("ｓｉａ２６１", "４.２.１").path == "4.2.1"  # full-width forms fold to ASCII
    assert hostile_service.section("sia-261", "annexe a").path == "Annexe A"
    assert hostile_service.section("SIA 261", "§4.2.1").path == "4.2.1"  # as a text cites it
    with pytest.raises(NormcliError) as raised:
        hostile_service.section("SIA 261", "¶4.2.1")
    assert raised.value.code in ("not_found", "invalid_argument")


def test_control_characters_never_reach_the_terminal() -> None:
    message = NormcliError("no edition '\x1b[2J\x07'", "hint \x1b[31m").one_line()
    assert "\x1b" not in message and "\x07" not in message
    assert "\\x1b[2J" in message


def test_the_command_line_answers_hostile_arguments_with_exit_codes_and_one_json_document(tmp_path: Path, capsys) -> None:
    from normcli.cli.app import run_cli
    from normcli.cli.fast import answer

    root = copy_sample(tmp_path / "ws")
    calls = [
        (["search", "SIA 261", 'NEAR("neige"', "--json"], 0),
        (["search", "SIA 261", "x" * 10_000, "--json"], 2),
        (["corpus", "*", "--json"], 0),
        (["section", "SIA 261", "4.2.1", "--offset", "-5", "--json"], 2),
        (["section", "SIA 261", "4.2.1", "--offset", str(10**30), "--json"], 2),
        (["section", "SIA 261", "4.2.1", "--max-chars", "10", "--json"], 2),
        (["subtree", "SIA 261", "4", "--max-nodes", "0", "--json"], 2),
        (["toc", "SIA 261'; DROP TABLE nodes; --", "--json"], 1),
        (["toc", "SIA 261", "--edition", "\x1b[2J", "--json"], 1),
        (["figure", "SIA 261", "../../../../etc/passwd", "--json"], 1),
        (["xrefs", "SIA 261", "\u202e4.2.1", "--json"], 0),
        (["toc", "SIA 261", "--language", "\x00", "--json"], 1),
        (["toc", "SIA 261", "--depth", "abc", "--json"], 2),
        (["search", "SIA 261", "-neige", "--json"], 2),
        (["section", "SIA 261", "--json"], 2),
        (["no-such-command", "--json"], 2),
    ]
    for argv, code in calls:
        for runner in (answer, run_cli):
            got = runner(["--workspace", str(root), *argv])
            if got is None:  # not a fast-path command line
                continue
            out, err = capsys.readouterr()
            assert got == code, (argv, got, err)
            document = json.loads(out)
            assert ("error" in document) == (code != 0)
            assert not leaks(out + err) and "\x1b" not in err, (argv, err)
            assert len(err.strip().splitlines()) <= 1


def test_mcp_tools_answer_hostile_arguments_with_tool_errors(tmp_path: Path) -> None:
    import anyio
    from mcp import Client

    from normcli.mcp.server import build_server

    with Service.open(copy_sample(tmp_path / "ws")) as service:
        calls = [
            ("get_toc", {"code": '"NEAR(', "maxDepth": 99}),
            ("get_section", {"code": "SIA 261", "path": "4.2.1", "offset": -1}),
            ("get_section", {"code": "SIA 261", "path": "4.2.1", "maxChars": 10**9}),
            ("get_section", {"code": "SIA 261", "path": "4.2.1", "offset": 10**15}),
            ("search_in_norm", {"code": "SIA 261", "keyword": "x" * 10_000}),
            ("search_in_norm", {"code": "SIA 261", "keyword": '("*neige^'}),
            ("search_corpus", {"keyword": "^-*", "limit": -3}),
            ("get_cross_refs", {"code": "'; DROP TABLE xrefs; --", "path": "4"}),
            ("get_figure", {"code": "SIA 261", "figureId": "../../../etc/passwd"}),
            ("get_figure", {"code": "SIA 261", "figureId": "/etc/passwd"}),
            ("get_subtree", {"code": "SIA 261", "path": "\x00", "maxNodes": "many"}),
            ("get_toc", {"code": "SIA 261", "language": 5}),
            ("get_toc", {"unknown": "x"}),
            ("no_such_tool", {}),
        ]

        async def session() -> list:
            async with Client(build_server(service)) as client:
                results = []
                for tool, arguments in calls:
                    try:
                        results.append(await client.call_tool(tool, arguments))
                    except Exception as exc:  # a protocol-level refusal is acceptable, a dead server is not
                        results.append(exc)
                results.append(await client.call_tool("get_toc", {"code": "SIA 261"}))
                return results

        results = anyio.run(session)
    for (tool, arguments), result in zip(calls, results, strict=False):
        text = str(result) if isinstance(result, Exception) else " ".join(getattr(block, "text", "") for block in result.content)
        if tool == "search_in_norm" and "^" in arguments["keyword"]:
            assert not isinstance(result, Exception) and not result.is_error and result.structured_content["hits"], text[:200]
        elif arguments.get("offset") in (-1, 10**15) or arguments.get("maxChars") == 10**9 or arguments.get("limit") == -3:
            # A number past its range is clamped by the MCP server and the answer says so (SPEC §8).
            assert not isinstance(result, Exception) and not result.is_error, text[:200]
            assert any("was used" in note for note in result.structured_content["notes"])
        else:
            assert isinstance(result, Exception) or result.is_error, (tool, arguments, text[:200])
        assert not leaks(text), (tool, text[:300])
    assert not results[-1].is_error


def test_batch_answers_hostile_lines_one_by_one(tmp_path: Path) -> None:
    from normcli.cli.batch import run_batch

    root = copy_sample(tmp_path / "ws")
    lines = [
        '{"op": "toc", "code": "SIA 261", "maxDepth": NaN}',
        '{"op": "toc", "code": "SIA 261", "maxDepth": 1e400}',
        "[" * 100_000 + "]" * 100_000,
        '{"op": {"x": 1}}',
        '"just a string"',
        "\x00\x1b[2J",
        '{"op": "search", "code": "SIA 261", "keyword": "(\\"neige\\" *^"}',
        '{"op": "toc", "code": "SIA 261", "id": {"nested": [1, 2]}}',
    ]
    sink = io.StringIO()
    assert run_batch(str(root), io.StringIO("\n".join(lines) + "\n"), sink) == 1  # every line failed, and the status says so
    answers = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert len(answers) == len(lines)
    assert [answer.get("error", {}).get("code") for answer in answers] == ["invalid_argument"] * 6 + [None, None]
    assert answers[6]["hits"] and answers[7]["id"] == {"nested": [1, 2]} and answers[7]["tree"]


@pytest.mark.parametrize(
    ("code", "edition"),
    [
        ("SIA 261", "../../../../escaped"),
        ("../../../escaped", "2020"),
        ("/tmp/escaped", "/tmp/escaped"),
        ("a/b", ".."),
        ("x", "."),
        ("\x1b[2J", "2020"),
        ("'; DROP TABLE nodes; --", "2020"),
        ("x" * 5000, "2020"),
    ],
)
def test_ingest_never_writes_outside_norms(tmp_path: Path, code: str, edition: str) -> None:
    from normcli.importers import ingest

    root = tmp_path / "ws"
    (root / "norms").mkdir(parents=True)
    source = tmp_path / "source.md"
    source.write_text("# 1 Objet\n\nLa neige.\n\n# 2 Actions\n\nLe vent.\n", encoding="utf-8")
    before = set(tmp_path.rglob("*"))
    try:
        ingest(source, code, edition, workspace=str(root), language="fr")
    except NormcliError as error:
        assert error.code in ("invalid_argument", "workspace_error"), error.code
        assert "\x1b" not in error.one_line()
    created = {path for path in set(tmp_path.rglob("*")) - before if path.is_file()}
    assert all(path.resolve().is_relative_to((root / "norms").resolve()) for path in created), created
    with Service.open(root) as service:
        assert all(bundle.readable for bundle in service.check().bundles)
