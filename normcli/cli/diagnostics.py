"""How the command line reports a failure: one `ExitCode`, one `exit_code_for()`, one `report()`.

Every entry point (the lean `--json` path, the Typer commands, `batch`, `browse`, `mcp`,
`__main__`) ends a failure here, so each prints the same one line on stderr (`normcli: …`), the
same `{"error": {"code", "message"}}` on stdout with --json, and exits with SPEC §4's status. The
core's errors carry data; the advice a person at a shell needs ("run `normcli norms`") is worded
here. Nothing here imports Typer or rich: the lean path uses it too.
"""

from __future__ import annotations

import sys
from enum import IntEnum

from normcli.errors import InvalidArgument, NormcliError, NotFound, WorkspaceError, printable


class ExitCode(IntEnum):
    """Process exit statuses, part of the command-line contract (SPEC §4)."""

    OK = 0
    NOT_FOUND = 1
    USAGE = 2
    WORKSPACE = 3
    INTERNAL = 4
    INTERRUPTED = 130


def exit_code_for(error: BaseException) -> ExitCode:
    """The exit status for a failure: not found 1, bad usage 2, workspace 3, Ctrl-C 130, a closed pipe 0, any other 4."""
    if isinstance(error, NotFound):
        return ExitCode.NOT_FOUND
    if isinstance(error, InvalidArgument):
        return ExitCode.USAGE
    if isinstance(error, WorkspaceError):
        return ExitCode.WORKSPACE
    if isinstance(error, KeyboardInterrupt):
        return ExitCode.INTERRUPTED
    if isinstance(error, BrokenPipeError):
        return ExitCode.OK
    return ExitCode.INTERNAL


# The advice for each thing that was not found, for a person at a shell.
_NOT_FOUND_ADVICE = {
    "norm": "run `normcli norms` for the codes and editions",
    "edition": "name one with --edition",
    "language": "name one with --language",
    "path": 'run `normcli toc "{norm}" --depth 3` to see its clauses',
    "figure": "`normcli section` lists each clause's figures",
    "table": "`normcli section` lists each clause's tables",
    "file": "give the path of a PDF, Markdown or text file, or of an OpenAPI or Swagger file with --domain",
}
_ARGUMENT_ADVICE = {
    "code": "run `normcli norms` to see the codes",
    "figureId": "`normcli section` lists each clause's figures with their ids",
    "offset": "start again from --offset 0",
    "edition": "give the edition once, in the code or with --edition",
    "specId": "run `normcli api specs` for the ids and domains",
    "id": "take the id from `normcli api specs` or another `normcli api` answer",
    "collectionId": "`normcli api spec DOMAIN` lists the collections with their ids",
    "tagId": "`normcli api tags DOMAIN` lists the tags with their ids",
}
_WORKSPACE_ADVICE = {"index": "run `normcli index --rebuild`", "workspace": "pass --workspace DIR"}
# The advice for a bad argument of a command other than the reads, by command: its options differ.
_COMMAND_ADVICE = {
    "ingest": {
        "code": "for example --code 'SIA 261' --edition 2020",
        "edition": "for example --edition 2020",
        "language": "--language fr, de, it or en, or leave it out to have it guessed",
        "source": "a scanned PDF is read with --ocr (tesseract installed)",
        "force": "pass --force to replace it, or choose another --edition for a norm, another --domain for a spec",
        "domain": "for example --domain petstore",
    },
    "export": {
        "folder": "name a folder for the docset",
        "force": "name an empty folder, or pass --force",
    },
}


# The advice a person at a shell needs for each kind of warning (`errors.Notice`), by command.
_WARNING_ADVICE = {
    "ingest": {
        "new_workspace": "pass --workspace DIR to choose",
        "scan": "run it through OCR (normcli ingest --ocr with tesseract installed, or ocrmypdf) and import it again",
        "low_quality": "read the problems below, or run `normcli check`",
    },
}


def describe_warning(warning: str, command: str) -> str:
    """A warning as the command line words it: the core's text, then the advice for its kind (its options)."""
    advice = _WARNING_ADVICE.get(command, {}).get(getattr(warning, "kind", ""), "")
    return f"{warning}; {advice}" if advice else str(warning)


def describe(error: BaseException, command: str = "") -> str:
    """The one line that says what went wrong and what to do, as the command line words it (`command`
    names a command whose options the advice must name, such as `ingest`; the reads need none)."""
    if not isinstance(error, NormcliError):
        if isinstance(error, KeyboardInterrupt):  # with what was done by then when the core says so (an import)
            return f"interrupted {error}" if str(error) else "interrupted"
        return f"internal error ({type(error).__name__}: {error})"
    advice = ""
    if isinstance(error, NotFound):
        advice = _NOT_FOUND_ADVICE.get(error.what, "")
        if error.what == "figure" and not error.candidates:  # the figure exists, its file does not
            advice = "run `normcli check` for the reason"
        advice = advice.format(norm=error.norm.split(" (")[0])
    elif isinstance(error, InvalidArgument):
        advice = _COMMAND_ADVICE[command].get(error.param, "") if command in _COMMAND_ADVICE else _ARGUMENT_ADVICE.get(error.param, "")
    elif isinstance(error, WorkspaceError):
        advice = _WORKSPACE_ADVICE.get(error.part, "") if not error.hint else ""
    said = "; ".join(part for part in (error.hint, advice) if part)
    return printable(f"{error.message} ({said})" if said else error.message)


def error_json(error: BaseException, command: str = "") -> dict:
    """SPEC §4's error object for a failure: `{"error": {"code", "message"}}`."""
    code = error.code if isinstance(error, NormcliError) else "internal_error"
    return {"error": {"code": code, "message": describe(error, command)}}


def sample_note(root: object) -> str:
    """The note that the sample workspace is read, no workspace having been found (SPEC §4): on stderr with --json
    too, so that a script run outside its workspace does not read the demo norms unaware."""
    return f"reading the sample workspace at {root} (pass --workspace DIR or set NORMCLI_WORKSPACE)"


def note(message: str) -> None:
    """A one-line note on stderr, prefixed as every line normcli writes there; never mixed with stdout's data."""
    sys.stderr.write(f"normcli: {message}\n")


def report(
    error: BaseException, as_json: bool = False, debug: bool = False, report_with: str = "the command you ran", command: str = ""
) -> ExitCode:
    """Report a failure as the command line does, and return its exit status: one line on stderr
    (a bug also asks for a report; `debug` adds its traceback), and with `as_json` the error object on stdout."""
    code = exit_code_for(error)
    if code == ExitCode.OK:  # a closed pipe: there is no one left to tell
        return code
    line = describe(error, command)
    if code == ExitCode.INTERNAL:
        if debug:
            import traceback

            traceback.print_exception(error)
        line += f" (please report it with {report_with}; --debug shows the traceback)"
    sys.stderr.write(f"normcli: {line}\n")
    if as_json and code != ExitCode.INTERRUPTED:
        import json

        data = error_json(error, command)
        data["error"]["message"] = line
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2 if sys.stdout.isatty() else None) + "\n")
        sys.stdout.flush()
    return code
