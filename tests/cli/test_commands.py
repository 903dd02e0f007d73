"""The command line as a person and a script use it: real processes, real output, real exit codes."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.reliability.support import sigint_default

READ_COMMANDS = [
    ("info",),
    ("norms",),
    ("methodology",),
    ("toc", "SIA 261", "--depth", "2"),
    ("subtree", "SIA 261", "4", "--max-nodes", "50"),
    ("section", "SIA 261", "4.2.1"),
    ("search", "SIA 261", "charge de neige"),
    ("corpus", "Straße"),
    ("xrefs", "SIA 261", "4.2.1"),
]


@pytest.mark.parametrize("args", READ_COMMANDS, ids=lambda args: args[0])
def test_every_read_command_prints_one_json_document(cli, sample_copy: Path, args: tuple[str, ...]) -> None:
    ran = cli(*args, "--json", workspace=sample_copy)
    assert ran.code == 0, ran.stderr
    data = ran.json()
    expected = {
        "info": {"workspace", "name", "norms", "editions", "sections", "figures", "index"},
        "norms": {"norms"},
        "methodology": {"version", "text"},
        "toc": {"code", "edition", "tree", "language", "languages"},
        "subtree": {"code", "edition", "path", "tree"},
        "section": {"section"},
        "search": {"code", "edition", "keyword", "hits"},
        "corpus": {"keyword", "norms"},
        "xrefs": {"code", "edition", "path", "crossRefs"},
    }[args[0]]
    assert expected <= set(data)


def test_json_node_and_section_fields_follow_the_spec(cli, sample_copy: Path) -> None:
    toc = cli("toc", "SIA 261", "--depth", "2", "--json", workspace=sample_copy).json()
    node = toc["tree"][1]
    assert set(node) >= {"nodeId", "path", "title", "summary", "pageStart", "pageEnd", "depth", "children"}
    assert len(node["nodeId"]) == 32 and node["depth"] == 1 and node["children"][0]["depth"] == 2
    section = cli("section", "SIA 261", "4.2.1", "--max-chars", "2000", "--offset", "2000", "--json", workspace=sample_copy).json()[
        "section"
    ]
    assert set(section) >= {
        "code",
        "edition",
        "path",
        "title",
        "markdown",
        "content",
        "pageStart",
        "pageEnd",
        "parentPath",
        "children",
        "truncated",
        "nextOffset",
        "totalChars",
        "figures",
        "tables",
        "formulas",
        "crossRefs",
        "language",
        "languages",
    }
    assert section["truncated"] is True and section["nextOffset"] > 2000 and len(section["content"]) <= 2000
    ref = section["crossRefs"][0] if section["crossRefs"] else None
    if ref:
        assert set(ref) >= {"text", "type", "targetCode", "targetPath", "targetKind", "internal", "resolvable"}
    corpus = cli("corpus", "neige", "--json", workspace=sample_copy).json()
    hit = corpus["norms"][0]["hits"][0]
    assert set(corpus["norms"][0]) >= {"code", "edition", "title", "hits"} and set(hit) >= {"path", "title", "snippet", "kind"}


def test_norms_json_lists_editions(cli, sample_copy: Path) -> None:
    norms = {norm["code"]: norm for norm in cli("norms", "--json", workspace=sample_copy).json()["norms"]}
    sia = norms["SIA 261"]
    assert set(sia) >= {"code", "year", "title", "language", "demo", "editions"} and sia["demo"] is True
    assert set(sia["editions"][0]) >= {"edition", "year", "title", "published", "languages", "sections", "pages"}


def test_global_json_flag_before_the_command(cli, sample_copy: Path) -> None:
    ran = cli("--json", "toc", "SIA 261", workspace=sample_copy)
    assert ran.code == 0 and ran.json()["code"] == "SIA 261"


def test_edition_in_the_code_or_as_option(cli, sample_copy: Path) -> None:
    assert cli("toc", "SIA 261:2014", "--json", workspace=sample_copy).json()["edition"] == "2014"
    assert cli("toc", "sia261", "--edition", "2026", "--json", workspace=sample_copy).json()["edition"] == "2026"
    assert cli("toc", "SIA 261", "--language", "de", "--json", workspace=sample_copy).json()["language"] == "de"


@pytest.mark.parametrize(
    ("args", "code", "error"),
    [
        (("toc", "DIN 4711"), 1, "not_found"),
        (("section", "SIA 261", "99.9"), 1, "not_found"),
        (("toc", "SIA 261", "--edition", "1999"), 1, "not_found"),
        (("figure", "SIA 261", "fig-999"), 1, "not_found"),
        (("toc", "SIA 261", "--depth", "9"), 2, "invalid_argument"),
        (("section", "SIA 261", "4.2.1", "--max-chars", "10"), 2, "invalid_argument"),
        (("section", "SIA 261", "4.2.1", "--offset", "-5"), 2, "invalid_argument"),
        (("subtree", "SIA 261", "4", "--max-nodes", "5"), 2, "invalid_argument"),
        (("search", "SIA 261", "x" * 201), 2, "invalid_argument"),
        (("corpus", "neige", "--limit", "41"), 2, "invalid_argument"),
    ],
)
def test_failures_have_exit_codes_and_error_objects(cli, sample_copy: Path, args, code: int, error: str) -> None:
    ran = cli(*args, "--json", workspace=sample_copy)
    assert ran.code == code
    assert ran.json()["error"]["code"] == error and ran.json()["error"]["message"]
    assert len(ran.stderr.strip().splitlines()) == 1 and "Traceback" not in ran.stderr
    human = cli(*args, workspace=sample_copy)
    assert human.code == code and human.stdout == "" and len(human.stderr.strip().splitlines()) == 1


def test_usage_errors_exit_2(cli, sample_copy: Path) -> None:
    assert cli("toc", workspace=sample_copy).code == 2
    assert cli("toc", "SIA 261", "--depth", "deep", workspace=sample_copy).code == 2
    assert cli("no-such-command", workspace=sample_copy).code == 2


def test_an_unreadable_workspace_exits_3(cli, tmp_path: Path) -> None:
    ran = cli("norms", "--json", workspace=tmp_path / "missing")
    assert ran.code == 3 and ran.json()["error"]["code"] == "workspace_error"


def test_people_get_a_tree_rendered_markdown_and_unicode_formulas(cli, sample_copy: Path) -> None:
    toc = cli("toc", "SIA 261", "--depth", "2", workspace=sample_copy)
    assert toc.code == 0 and "4.2 " in toc.stdout and "├──" in toc.stdout
    section = cli("section", "SIA 261", "4.2.1", "--max-chars", "40000", workspace=sample_copy)
    assert section.code == 0
    assert "SIA 261:2020" in section.stdout and "4.2.1" in section.stdout and "pp. 17" in section.stdout
    assert "$$" not in section.stdout and "\\cdot" not in section.stdout and "·" in section.stdout
    assert "\x1b[" not in section.stdout  # piped: no colour


def test_no_color_is_respected_on_a_terminal(sample_copy: Path) -> None:
    script = (
        "import os, pty, sys\n"
        "pid, fd = pty.fork()\n"
        "if pid == 0:\n"
        f"    os.execvpe(sys.executable, [sys.executable, '-m', 'normcli', '--workspace', {str(sample_copy)!r}, 'corpus', 'neige'], {{**os.environ, 'NO_COLOR': sys.argv[1], 'TERM': 'xterm-256color'}})\n"
        "out = b''\n"
        "while True:\n"
        "    try:\n"
        "        chunk = os.read(fd, 65536)\n"
        "    except OSError:\n"
        "        break\n"
        "    if not chunk:\n"
        "        break\n"
        "    out += chunk\n"
        "sys.stdout.write(repr(out))\n"
    )
    env = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
    coloured = subprocess.run([sys.executable, "-c", script, ""], capture_output=True, text=True, timeout=60, env=env).stdout
    plain = subprocess.run([sys.executable, "-c", script, "1"], capture_output=True, text=True, timeout=60, env=env).stdout
    assert "SIA 261" in plain and "33m" in coloured
    assert "33m" not in plain


def test_search_hits_table_for_people(cli, sample_copy: Path) -> None:
    ran = cli("corpus", "Strasse", workspace=sample_copy)
    assert ran.code == 0 and "VSS 640 100" in ran.stdout


def test_figure_to_file_to_stdout_and_as_json(cli, sample_copy: Path, tmp_path: Path) -> None:
    figure_id = cli("section", "SIA 261", "4.2.1", "--json", workspace=sample_copy).json()["section"]["figures"][0]["id"]
    target = tmp_path / "fig.png"
    ran = cli("figure", "SIA 261", figure_id, "--output", str(target), workspace=sample_copy)
    assert ran.code == 0 and target.read_bytes().startswith(b"\x89PNG")
    raw = subprocess.run(
        [sys.executable, "-m", "normcli", "--workspace", str(sample_copy), "figure", "SIA 261", figure_id], capture_output=True, timeout=60
    )
    assert raw.returncode == 0 and raw.stdout == target.read_bytes()
    data = cli("figure", "SIA 261", figure_id, "--json", workspace=sample_copy).json()
    assert data["mimeType"] == "image/png" and base64.b64decode(data["data"]) == target.read_bytes()
    assert data["figureId"] == figure_id and data["caption"]


def test_a_figure_linked_outside_its_bundle_is_never_served(cli, tmp_path: Path, make_bundle) -> None:
    (tmp_path / "secret.png").write_bytes(b"\x89PNG secret")
    make_bundle(
        tmp_path, "t-1", "2020", "---\ncode: T 1\nedition: '2020'\nlanguage: fr\n---\n# 1 A\n![Figure 1 – x](../../../secret.png)\n"
    )
    ran = cli("figure", "T 1", "fig-1", "--json", workspace=tmp_path)
    assert ran.code == 1 and "secret" not in ran.stdout.replace("secret.png", "")
    assert (
        b"secret"
        not in subprocess.run(
            [sys.executable, "-m", "normcli", "-w", str(tmp_path), "figure", "T 1", "1"], capture_output=True, timeout=60
        ).stdout
    )
    check = cli("check", "--json", workspace=tmp_path).json()
    assert any("outside the bundle folder" in problem["reason"] for bundle in check["bundles"] for problem in bundle["problems"])


def test_check_reports_problems_with_file_and_line(cli, tmp_path: Path, make_bundle) -> None:
    make_bundle(
        tmp_path,
        "t-1",
        "2020",
        "---\ncode: T 1\nedition: '2020'\nlanguage: fr\n---\n# 1 A\nTexte assez long pour ne pas être maigre du tout.\n# 3 C\nVoir 1.7.4 ici, texte assez long aussi pour passer.\n",
    )
    make_bundle(tmp_path, "broken", "2020", "no front matter\n")
    ran = cli("check", workspace=tmp_path)
    assert ran.code == 3
    assert "norms/t-1/2020/norm.md:8: warning: numbering gap" in ran.stdout
    assert "norms/broken/2020/norm.md:1: error:" in ran.stdout
    assert "1.7.4" in ran.stdout
    data = cli("check", "--json", workspace=tmp_path)
    assert data.code == 3 and data.json()["errors"] == 1


def test_check_passes_on_the_sample(cli, sample_copy: Path) -> None:
    ran = cli("check", "--json", workspace=sample_copy)
    assert ran.code == 0 and ran.json()["errors"] == 0


def test_index_rebuild(cli, sample_copy: Path) -> None:
    ran = cli("index", "--rebuild", "--json", workspace=sample_copy)
    assert ran.code == 0 and ran.json()["rebuilt"] is True and ran.json()["indexed"] == 7


def test_batch_answers_each_line(cli, sample_copy: Path) -> None:
    lines = (
        "\n".join(
            json.dumps(request)
            for request in [
                {"op": "toc", "code": "SIA 261"},
                {"op": "get_section", "norm": "SIA 261", "path": "4.2.1", "maxChars": 500, "id": 7},
                {"op": "section", "code": "SIA 261", "path": "99"},
                {"op": "corpus", "keyword": "Straße"},
            ]
        )
        + "\nnot json\n"
    )
    ran = cli("batch", workspace=sample_copy, stdin=lines)
    answers = [json.loads(line) for line in ran.stdout.splitlines()]
    assert ran.code == 1 and len(answers) == 5  # some requests failed: the status says so
    assert answers[0]["code"] == "SIA 261" and answers[1]["id"] == 7 and answers[1]["section"]["truncated"]
    assert answers[2]["error"]["code"] == "not_found" and answers[4]["error"]["code"] == "invalid_argument"
    assert ran.stderr.strip().splitlines() == ['normcli: 2 of 5 requests failed; their answer lines carry {"error": …}']


def test_batch_exits_0_when_every_request_is_answered_and_skips_blank_lines(cli, sample_copy: Path) -> None:
    ran = cli("batch", workspace=sample_copy, stdin='{"op":"info"}\n\n   \n{"op":"norms","id":"b"}\n')
    answers = [json.loads(line) for line in ran.stdout.splitlines()]
    assert ran.code == 0 and len(answers) == 2 and answers[1]["id"] == "b" and ran.stderr == ""


def test_batch_answers_only_strict_json(cli, sample_copy: Path) -> None:
    ran = cli("batch", workspace=sample_copy, stdin='{"op":"info","id":1e400}\n{"op":"info","id":NaN}\n{"op":"info","id":2.5}\n')

    def refuse(constant: str) -> None:
        raise ValueError(constant)

    answers = [json.loads(line, parse_constant=refuse) for line in ran.stdout.splitlines()]
    assert [answer.get("error", {}).get("code") for answer in answers] == ["invalid_argument", "invalid_argument", None]
    assert answers[2]["id"] == 2.5


def app_commands() -> list[str]:
    """Every command the app registers, as typed on the command line."""
    from normcli.cli.app import command_names

    return sorted(command_names())


def test_the_app_has_a_command_per_operation_and_the_workspace_commands() -> None:
    from normcli.operations import OPERATIONS

    plain = {op.name for op in OPERATIONS.values() if not op.group}  # the `api` group's are under `normcli api` (tests/specs)
    assert set(app_commands()) == {*plain, "check", "index", "batch", "browse", "mcp", "ingest", "ask", "init"}


@pytest.mark.parametrize("command", app_commands())
def test_every_command_has_help_with_an_example(cli, command: str) -> None:
    ran = cli(command, "--help")
    assert ran.code == 0 and "Example" in ran.stdout


@pytest.mark.parametrize(
    "args",
    [
        ("toc", "SIA 261", "--json"),
        ("--json", "search", "SIA 261", "neige"),
        ("api", "specs", "--json"),
        ("section", "SIA 261", "99", "--json"),
    ],
)
def test_without_a_workspace_a_json_read_says_on_stderr_that_it_reads_the_sample(tmp_path: Path, args: tuple[str, ...]) -> None:
    """SPEC §4: the sample is read with a one-line note on stderr, with --json too (stdout stays one JSON document), so
    that a script run outside its workspace does not take the demo norms for its own; so does `batch`."""
    env = {key: value for key, value in os.environ.items() if key != "NORMCLI_WORKSPACE"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    ran = subprocess.run([sys.executable, "-m", "normcli", *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    json.loads(ran.stdout)
    assert ran.stderr.splitlines()[0].startswith("normcli: reading the sample workspace at "), ran.stderr
    batch = subprocess.run(
        [sys.executable, "-m", "normcli", "batch"],
        input='{"op":"info"}\n',
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=60,
    )
    assert batch.returncode == 0 and json.loads(batch.stdout)["norms"] >= 1
    assert batch.stderr.startswith("normcli: reading the sample workspace at ")


def test_without_a_workspace_the_sample_is_read_with_a_note(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "NORMCLI_WORKSPACE"}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")  # the sample is indexed in the user cache, never beside it
    ran = subprocess.run([sys.executable, "-m", "normcli", "norms"], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert ran.returncode == 0 and "sample workspace" in ran.stderr and "SIA 261" in ran.stdout
    assert list((tmp_path / "cache").rglob("index.sqlite"))


def test_workspace_from_environment(cli, sample_copy: Path, tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-m", "normcli", "info", "--json"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "NORMCLI_WORKSPACE": str(sample_copy)},
        timeout=60,
    )
    assert json.loads(ran.stdout)["workspace"] == str(sample_copy)


def test_ctrl_c_exits_130_without_a_traceback(sample_copy: Path) -> None:
    import signal
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "normcli", "--workspace", str(sample_copy), "batch"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=sigint_default,
    )
    process.stdin.write('{"op": "norms"}\n')
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["norms"]
    time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130 and "Traceback" not in stderr and "interrupted" in stderr


def test_every_argument_and_option_explains_itself() -> None:
    from typer.main import get_command

    from normcli.cli.app import app

    for name, command in get_command(app).commands.items():
        for param in command.params:
            if param.name not in ("help",):
                assert getattr(param, "help", None), f"{name} {param.name} has no help"


def test_usage_errors_are_one_line_and_an_error_object_with_json(cli, sample_copy: Path) -> None:
    for args in (("toc", "--json"), ("toc", "SIA 261", "--depth", "deep", "--json"), ("bogus", "--json")):
        ran = cli(*args, workspace=sample_copy)
        assert ran.code == 2, args
        assert ran.json()["error"]["code"] == "invalid_argument"
        assert len(ran.stderr.strip().splitlines()) == 1 and "--help" in ran.stderr
    bare = cli()
    assert bare.code == 0 and "Usage" in bare.stdout


@pytest.mark.parametrize("args", [("corpus", "neige", "--json"), ("corpus", "neige"), ("toc", "SIA 261", "--depth", "6"), ("batch",)])
def test_a_reader_that_goes_away_ends_the_call_quietly_with_0(sample_copy: Path, args: tuple[str, ...]) -> None:
    environment = {key: value for key, value in os.environ.items() if key != "NORMCLI_WORKSPACE"}
    command = [sys.executable, "-m", "normcli", "--workspace", str(sample_copy), *args]
    call = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment)
    assert call.stdin is not None and call.stdout is not None and call.stderr is not None
    call.stdout.close()  # `normcli … | head -0`: the reader is gone before the answer is written
    call.stdin.write(b'{"op": "norms"}\n' * 50)
    call.stdin.close()
    errors = call.stderr.read().decode()
    assert call.wait(timeout=60) == 0 and errors == ""


def test_info_and_norms_say_when_check_has_something_to_report(cli, tmp_path: Path) -> None:
    from tests.conftest import write_bundle

    write_bundle(tmp_path, "t-1", "2020", '---\ncode: T 1\nedition: "2020"\ntitle: Bonne\nlanguage: fr\n---\n# 1 Objet\nUn texte.\n')
    assert cli("norms", workspace=tmp_path).stderr == ""
    (tmp_path / "norms" / "t-2" / "1").mkdir(parents=True)
    (tmp_path / "norms" / "t-2" / "1" / "norm.md").write_text("# 1 Sans en-tête\nRien.\n", encoding="utf-8")
    for command in ("norms", "info"):
        ran = cli(command, workspace=tmp_path)
        assert ran.code == 0 and "1 bundle(s) cannot be read (norms/t-2/1/norm.md)" in ran.stderr and "normcli check" in ran.stderr
    assert cli("norms", "--json", workspace=tmp_path).stderr == ""


def test_batch_reads_a_byte_order_mark_and_echoes_the_id_of_a_bad_request(cli, sample_copy: Path) -> None:
    ran = cli("batch", workspace=sample_copy, stdin='\ufeff{"op":"info","id":1}\n\n  \n{"op":5,"id":3}\n')
    answers = [json.loads(line) for line in ran.stdout.splitlines()]
    assert [(answer["id"], "error" in answer) for answer in answers] == [(1, False), (3, True)]


def test_the_more_follows_command_reads_the_next_window_of_the_same_size(cli, sample_copy: Path) -> None:
    import shlex

    first = cli("section", "SIA 261", "4.2.1", "--max-chars", "800", "--language", "de", workspace=sample_copy)
    hint = first.stderr.strip().splitlines()[-1]
    assert hint.startswith("normcli: more follows: normcli section ") and "--max-chars 800" in hint and "--language de" in hint
    command = shlex.split(hint.removeprefix("normcli: more follows: normcli "))
    nxt = cli(*command, "--json", workspace=sample_copy).json()["section"]
    whole = cli("section", "SIA 261", "4.2.1", "--language", "de", "--max-chars", "40000", "--json", workspace=sample_copy).json()[
        "section"
    ]
    assert nxt["offset"] > 0 and whole["content"][nxt["offset"] :].startswith(nxt["content"]) and len(nxt["content"]) <= 800


def test_figure_with_json_and_output_writes_the_file_too(cli, sample_copy: Path, tmp_path: Path) -> None:
    target = tmp_path / "fig.png"
    ran = cli("figure", "SIA 261", "fig-3", "--output", str(target), "--json", workspace=sample_copy)
    assert ran.code == 0 and base64.b64decode(ran.json()["data"]) == target.read_bytes()
