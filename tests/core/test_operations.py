"""Each operation is declared once in `normcli.operations`; the service and every frontend follow it."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from normcli.errors import InvalidArgument
from normcli.operations import OPERATIONS, arguments, operation, resolve_aliases
from normcli.service import Service


@pytest.mark.parametrize("name", list(OPERATIONS))
def test_the_service_method_takes_the_declared_parameters_in_order_with_their_defaults(name: str) -> None:
    op = OPERATIONS[name]
    method = inspect.unwrap(getattr(Service, name))
    parameters = list(inspect.signature(method).parameters.values())[1:]
    assert [parameter.name for parameter in parameters] == [param.keyword for param in op.params]
    for parameter, param in zip(parameters, op.params, strict=True):
        expected = inspect.Parameter.empty if param.required else param.default
        assert parameter.default == expected, (name, param.name)


def test_every_range_is_checked_by_the_service(sample_copy: Path) -> None:
    sample_service = Service.open(sample_copy)
    checked = 0
    for op in OPERATIONS.values():
        for position, param in enumerate(op.params):
            if param.kind is not int or not param.bounded:
                continue
            values = {"code": "SIA 261", "path": "4", "keyword": "neige", "figureId": "fig-1"}
            args = [values.get(other.name, other.default) for other in op.params]
            for wrong in ([param.low - 1] if param.low is not None else []) + ([param.high + 1] if param.high is not None else []):
                args[position] = wrong
                with pytest.raises(InvalidArgument, match=param.name):
                    getattr(sample_service, op.name)(*args)
                with pytest.raises(InvalidArgument, match=param.name):
                    getattr(sample_service, op.name)(**{other.keyword: value for other, value in zip(op.params, args, strict=True)})
                checked += 1
    # toc 2, subtree 4, section 3 (offset has no upper bound), search 2, corpus 2: as SPEC §3 states them; search_specs 2 (§7)
    assert checked == 15


def test_operations_are_found_by_cli_and_mcp_names_and_others_refused() -> None:
    assert operation("toc") is operation("get_toc")
    with pytest.raises(InvalidArgument, match="unknown operation 'tocc'"):
        operation("tocc")


def test_declared_aliases_name_their_parameter_and_the_name_wins() -> None:
    toc = OPERATIONS["toc"]
    assert resolve_aliases(toc, {"norm": "SIA 261"}) == {"code": "SIA 261"}
    assert resolve_aliases(toc, {"norm": "SIA 260", "code": "SIA 261"}) == {"code": "SIA 261"}
    assert arguments(toc, {"norm": "SIA 261", "maxDepth": 2}) == {"code": "SIA 261", "max_depth": 2}


def test_unknown_and_missing_parameters_are_refused_with_the_declared_list() -> None:
    with pytest.raises(InvalidArgument) as unknown:
        arguments(OPERATIONS["toc"], {"code": "SIA 261", "depth": 2})
    assert unknown.value.hint == "it takes code, maxDepth, edition, language"
    with pytest.raises(InvalidArgument, match="section needs path"):
        arguments(OPERATIONS["section"], {"code": "SIA 261"})


def test_clamping_brings_a_number_into_range_and_says_so() -> None:
    depth = OPERATIONS["toc"].param("maxDepth")
    assert depth.clamp(9) == (6, "maxDepth 9 is above its range; 6 was used")
    assert depth.clamp(0) == (1, "maxDepth 0 is below its range; 1 was used")
    assert depth.clamp(3) == (3, None)


def test_texts_are_checked_for_type_and_length_on_every_operation(sample_copy: Path) -> None:
    service = Service.open(sample_copy)
    checked = 0
    for op in OPERATIONS.values():
        for position, param in enumerate(op.params):
            if param.kind is not str:
                continue
            values = {"code": "SIA 261", "path": "4", "keyword": "neige", "figureId": "fig-1", "tableId": "tab-2"}
            args = [values.get(other.name, other.default) for other in op.params]
            for wrong in [3, ["SIA 261"], *(["x" * (param.high + 1)] if param.high else [])]:
                args[position] = wrong
                with pytest.raises(InvalidArgument, match=param.name) as raised:
                    getattr(service, op.name)(*args)
                assert raised.value.param == param.name
                checked += 1
    assert checked >= 3 * 8  # code, path, keyword, ids, edition and language of every operation
