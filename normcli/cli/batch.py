"""`normcli batch`: JSON Lines of operations in, one JSON answer per line out."""

from __future__ import annotations

import json
from typing import TextIO

from normcli.cli.diagnostics import ExitCode, error_json, exit_code_for, sample_note
from normcli.errors import InvalidArgument, NormcliError

# A batch answers hundreds of lines a second: the bundles are checked for changes at most this often.
BATCH_RECHECK_SECONDS = 1.0


def _not_json(constant: str) -> None:
    """NaN and Infinity are not JSON: Python reads them, and would write them back into an answer."""
    raise json.JSONDecodeError(f"{constant} is not a JSON value", constant, 0)


def _finite(text: str) -> float:
    number = float(text)
    if number in (float("inf"), float("-inf")):  # 1e400
        _not_json(text)
    return number


def run_batch(workspace: str | None, source: TextIO, sink: TextIO, notices: TextIO | None = None) -> int:
    """Answer each line; a bad line gets an error object and the next line is still answered.
    Blank lines are skipped without an answer. The status is 0 when every request was answered,
    1 when any failed (its line says why, and one line on `notices` says how many: SPEC §4's line on stderr)."""
    from normcli.operations import run
    from normcli.service import Service

    try:
        service = Service.open(workspace)
        service.recheck_after = BATCH_RECHECK_SECONDS
        if service.is_sample and notices is not None:
            notices.write(f"normcli: {sample_note(service.root)}\n")
    except NormcliError as error:
        sink.write(json.dumps(error_json(error), ensure_ascii=False) + "\n")
        return exit_code_for(error)
    failures = answered = 0
    for number, line in enumerate(source):
        if number == 0:
            line = line.removeprefix("\ufeff")  # a byte-order mark, as some editors save UTF-8
        if not line.strip():
            continue
        request_id = None
        try:
            try:
                request = json.loads(line, parse_constant=_not_json, parse_float=_finite)
            except json.JSONDecodeError as exc:
                raise InvalidArgument(f"line is not JSON: {exc.msg}") from None
            except RecursionError:
                raise InvalidArgument("line is nested too deeply to be a request") from None
            if isinstance(request, dict):
                request_id = request.get("id")
            if not isinstance(request, dict) or not isinstance(request.get("op"), str):
                raise InvalidArgument('each line must be an object with an "op", e.g. {"op": "toc", "code": "SIA 261"}')
            params = {key: value for key, value in request.items() if key != "op"}  # `run` keeps `id` where it is a parameter
            data = run(service, request["op"], params).to_json()
        except NormcliError as error:
            failures += 1
            data = error_json(error)
        except Exception as exc:  # one bad request must not end the batch
            failures += 1
            data = error_json(NormcliError(f"internal error ({type(exc).__name__})", "please report it"))
        answered += 1
        if request_id is not None:
            data = {"id": request_id, **data}
        sink.write(json.dumps(data, ensure_ascii=False) + "\n")
        sink.flush()
    service.close()
    if failures and notices is not None:
        notices.write(f'normcli: {failures} of {answered} requests failed; their answer lines carry {{"error": …}}\n')
    return ExitCode.NOT_FOUND if failures else ExitCode.OK
