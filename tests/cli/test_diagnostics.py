"""Every failure is reported the same way: one `normcli:` line, SPEC §4's exit status, and with --json the error object."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from normcli.cli.diagnostics import ExitCode, describe, error_json, exit_code_for, report
from normcli.errors import InvalidArgument, NormcliError, NotFound, WorkspaceError

CASES = [
    (
        NotFound("norm", "SIA 999", ["SIA 261", "SIA 260"]),
        ExitCode.NOT_FOUND,
        "not_found",
        "no norm 'SIA 999' in this workspace (the codes are SIA 261, SIA 260; run `normcli norms`",
    ),
    (
        NotFound("edition", "1999", ["2020", "2014"], "SIA 261", "SIA 261 has no edition '1999'"),
        ExitCode.NOT_FOUND,
        "not_found",
        "SIA 261 has no edition '1999' (its editions are 2020, 2014; name one with --edition)",
    ),
    (
        NotFound("path", "9.9", ["9"], "SIA 261:2020 (fr)", "no clause '9.9' in SIA 261:2020 (fr)"),
        ExitCode.NOT_FOUND,
        "not_found",
        "no clause '9.9' in SIA 261:2020 (fr) (the nearest clauses are 9; run `normcli toc \"SIA 261:2020\" --depth 3`",
    ),
    (
        NotFound("figure", "fig-1", norm="X:1", message="figure 'fig-1' of X:1 has no file"),
        ExitCode.NOT_FOUND,
        "not_found",
        "run `normcli check` for the reason",
    ),
    (
        InvalidArgument("offset 9 is past the end", param="offset"),
        ExitCode.USAGE,
        "invalid_argument",
        "offset 9 is past the end (start again from --offset 0)",
    ),
    (InvalidArgument("maxDepth must be a whole number from 1 to 6, not 9", param="maxDepth"), ExitCode.USAGE, "invalid_argument", "not 9"),
    (
        WorkspaceError("the index cannot be read: boom", part="index"),
        ExitCode.WORKSPACE,
        "workspace_error",
        "(run `normcli index --rebuild`)",
    ),
    (
        WorkspaceError("cannot write", "check free disk space and permissions", "index"),
        ExitCode.WORKSPACE,
        "workspace_error",
        "(check free disk space and permissions)",
    ),
    (NormcliError("internal error (KeyError: 'x')"), ExitCode.INTERNAL, "internal_error", "internal error (KeyError: 'x')"),
    (ValueError("bug"), ExitCode.INTERNAL, "internal_error", "internal error (ValueError: bug)"),
]


@pytest.mark.parametrize(("error", "status", "code", "line"), CASES, ids=[type(case[0]).__name__ + str(i) for i, case in enumerate(CASES)])
def test_a_failure_has_its_status_code_and_one_line(error: BaseException, status: ExitCode, code: str, line: str, capsys) -> None:
    assert exit_code_for(error) == status
    assert line in describe(error)
    assert error_json(error)["error"]["code"] == code
    assert report(error, as_json=True) == status
    out, err = capsys.readouterr()
    assert err.startswith("normcli: ") and err.count("\n") == 1 and line in err
    assert json.loads(out) == {"error": {"code": code, "message": err.removeprefix("normcli: ").rstrip("\n")}}


def test_ctrl_c_and_a_closed_pipe(capsys) -> None:
    assert report(KeyboardInterrupt(), as_json=True) == ExitCode.INTERRUPTED == 130
    out, err = capsys.readouterr()
    assert (out, err) == ("", "normcli: interrupted\n")
    assert report(BrokenPipeError()) == ExitCode.OK
    assert capsys.readouterr() == ("", "")


def test_a_bug_asks_for_a_report(capsys) -> None:
    report(RuntimeError("oops"), report_with="the file you imported")
    assert "please report it with the file you imported; --debug shows the traceback" in capsys.readouterr().err


def test_control_characters_never_reach_the_terminal(capsys) -> None:
    report(NotFound("norm", "\x1b[2J"))
    assert "\x1b" not in capsys.readouterr().err


@pytest.mark.parametrize(
    ("code", "edition", "param", "advice"),
    [
        ("", "2020", "code", "--code 'SIA 261' --edition 2020"),
        ("SIA 261:2020", "2020", "code", "--code 'SIA 261' --edition 2020"),
        ("SIA 261", "../up", "edition", "--edition 2020"),
    ],
)
def test_an_import_error_carries_data_and_the_command_line_names_its_options(tmp_path, code, edition, param, advice) -> None:
    from normcli.importers import ingest

    source = tmp_path / "note.md"
    source.write_text("# 1 Objet\nLa charge de neige.\n", encoding="utf-8")
    with pytest.raises(InvalidArgument) as raised:
        ingest(source, code, edition, workspace=tmp_path)
    assert raised.value.param == param
    assert "--" not in raised.value.one_line() and "normcli" not in raised.value.one_line()  # no command line in the core
    assert advice in describe(raised.value, "ingest")


SAMPLE_SPEC = Path(__file__).resolve().parents[2] / "sample_workspace" / "specs" / "meteo" / "openapi.yaml"


@pytest.mark.parametrize(("domain", "param", "advice"), [("a b", "domain", "--domain petstore"), ("meteo", "force", "--force")])
def test_a_spec_import_error_carries_data_and_the_command_line_names_its_options(tmp_path, domain, param, advice) -> None:
    from normcli.specs.ingest import ingest_spec

    ingest_spec(SAMPLE_SPEC, "meteo", tmp_path)  # the second import of `meteo` finds it there
    with pytest.raises(InvalidArgument) as raised:
        ingest_spec(SAMPLE_SPEC, domain, tmp_path)
    assert raised.value.param == param
    assert "--" not in raised.value.one_line() and "normcli" not in raised.value.one_line()
    assert advice in describe(raised.value, "ingest")


def test_an_export_error_carries_data_and_the_command_line_names_its_options(tmp_path, service) -> None:
    from normcli.export.docset import write_docset

    (tmp_path / "kept.txt").write_text("mine", encoding="utf-8")
    with pytest.raises(InvalidArgument) as raised:
        write_docset(service, tmp_path)
    assert raised.value.param == "force" and "--" not in raised.value.one_line()
    assert "--force" in describe(raised.value, "export")
    assert (tmp_path / "kept.txt").read_text(encoding="utf-8") == "mine"


def test_import_warnings_carry_a_kind_and_the_command_line_names_its_options(tmp_path, monkeypatch, cli) -> None:
    from normcli.cli.diagnostics import describe_warning
    from normcli.errors import Notice
    from normcli.importers import ingest

    source = tmp_path / "thin.md"  # eleven clauses without a word of text: a low score
    source.write_text(
        "# 1 Objet\nUne phrase assez longue pour ne pas être maigre.\n" + "".join(f"## 1.{n} Titre {n}\n" for n in range(1, 12))
    )
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    monkeypatch.delenv("NORMCLI_WORKSPACE", raising=False)
    monkeypatch.chdir(fresh)  # no workspace at or above it: the import makes one
    report = ingest(source, "T 1", "1", language="fr")
    kinds = {warning.kind: warning for warning in report.warnings if isinstance(warning, Notice)}
    assert set(kinds) == {"new_workspace", "low_quality"}
    assert all("--" not in warning and "normcli" not in warning for warning in report.warnings)  # no command line in the core
    assert all("--" not in warning for warning in report.to_json()["warnings"])
    assert "pass --workspace DIR" in describe_warning(kinds["new_workspace"], "ingest")
    assert "`normcli check`" in describe_warning(kinds["low_quality"], "ingest")
    assert "--ocr" in describe_warning(Notice("2 of 2 pages have no text layer", "scan"), "ingest")
    assert describe_warning(Notice("a plain note"), "ingest") == describe_warning("a plain note", "ingest") == "a plain note"
    # The command line words them, for people and in its JSON alike.
    done = cli("--json", "ingest", str(source), "--code", "T 2", "--edition", "1", "--language", "fr", workspace=fresh)
    data = json.loads(done.stdout)
    assert any(warning.endswith("read the problems below, or run `normcli check`") for warning in data["warnings"]), data["warnings"]
