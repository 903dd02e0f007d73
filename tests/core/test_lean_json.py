"""`normcli.lean_json` writes and reads exactly what `json` does: on every answer the lean `--json`
path gives on the sample, on hostile strings and numbers, and on any value or text hypothesis makes."""

from __future__ import annotations

import json
import math
import shlex
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from normcli import lean_json
from normcli.cli import fast
from normcli.operations import OPERATIONS

HOSTILE_TEXTS = [
    "",
    "plain",
    'quote " and backslash \\ and slash /',
    "\x00\x01\x1b[31mred\x1b[0m\x7f\x9f",
    "\u2028 line and paragraph \u2029 separators",
    "\ud800 lone surrogates \udfff",
    "emoji 🏗️ beyond the BMP 𝔸",
    "\u202e reversed \u2066",
    "tab\tnew\nline\rreturn\x0bvertical\x0cfeed",
    "Straße γ_Q · q_k ≤ 1.5 ‰ m²",
    "\ufeff byte order mark",
]
HOSTILE_NUMBERS = [
    0,
    -0.0,
    1,
    -1,
    2**64,
    -(2**100),
    0.1,
    1e-320,
    1e300,
    5e-324,
    math.pi,
    float("nan"),
    float("inf"),
    -float("inf"),
    True,
    False,
]


def expected(value: object, indent: int | None = None) -> str:
    return json.dumps(value, ensure_ascii=False, indent=indent)


def lean_answers(workspace: Path) -> list[tuple[list[str], object]]:
    """(command line, answer) of every read the lean path answers on the sample: each operation's
    declared example, every clause's section and the full toc of every norm, every spec endpoint."""
    from normcli.discovery.session import SpecSession
    from normcli.operations import run
    from normcli.service import Service

    with Service.open(workspace) as service:
        lines = [shlex.split(op.example)[1:] for op in OPERATIONS.values() if op.fast]
        for norm in service.norms().norms:
            for edition in norm.editions:
                code = f"{norm.code}:{edition.edition}"
                lines.append(["toc", code, "--depth", "6"])
                stack = list(service.toc(code, max_depth=6).tree)
                while stack:
                    node = stack.pop()
                    lines.append(["section", code, node.path])
                    stack.extend(node.children)
        for spec in service.spec_list().specs:
            for collection in service.spec_by_id(spec.id).collections:
                for tag in service.collection_by_id(collection.id).tags:
                    lines.append(["api", "endpoints", tag.id])
                    lines.extend(["api", "endpoint", method.id] for method in service.endpoint_by_tag(tag.id).methods)
    answers = []
    for words in lines:
        argv = ["--workspace", str(workspace), *words, "--json"]
        api = fast.parse_api(argv) if words[0] == "api" else None
        if api is not None:
            answers.append((words, api[1](SpecSession.open(workspace)).to_json()))
            continue
        parsed = fast.parse(argv)
        assert parsed is not None, words
        _, command, params = parsed
        answers.append((words, run(Service.open(workspace), command, params).to_json()))
    return answers


def test_every_lean_answer_of_the_sample_is_written_as_json_writes_it(sample_copy: Path) -> None:
    answers = lean_answers(sample_copy)
    assert len(answers) > 100  # every clause of the four sample norms, and every endpoint
    for line, data in answers:
        text = lean_json.dumps(data)
        assert text == expected(data), line
        assert lean_json.loads(text) == json.loads(text), line
        assert lean_json.dumps(data, indent=2) == expected(data, indent=2), line


def test_the_lean_path_writes_the_same_bytes(sample_copy: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for line, data in lean_answers(sample_copy)[:40]:
        assert fast.answer(["--workspace", str(sample_copy), *line, "--json"]) == 0
        assert capsys.readouterr().out == expected(data) + "\n", line


@pytest.mark.parametrize("text", HOSTILE_TEXTS)
def test_hostile_strings_as_values_and_keys(text: str) -> None:
    for value in ({"k": text}, {text: [text, {text: text}]}, [text, text * 3]):
        assert lean_json.dumps(value) == expected(value)
        encoded = json.dumps(value)  # ASCII escapes, as another writer may have stored it
        assert repr(lean_json.loads(encoded)) == repr(json.loads(encoded))


@pytest.mark.parametrize("number", HOSTILE_NUMBERS, ids=repr)
def test_numbers_and_constants(number: float) -> None:
    value = {"n": number, "list": [number], number: "key"}
    assert lean_json.dumps(value) == expected(value)
    text = expected([number])
    assert repr(lean_json.loads(text)) == repr(json.loads(text))


KEYS = st.text(max_size=4) | st.integers() | st.floats() | st.booleans() | st.none()
ODD_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=6) | st.sets(st.integers(), max_size=2) | st.just(object),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner) | st.dictionaries(KEYS, inner, max_size=3),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.lists(ODD_VALUES, max_size=3), st.sampled_from([None, 0, 2, 4]))
def test_keys_of_every_kind_tuples_and_objects_written_with_default_str(value: list, indent: int | None) -> None:
    # The endpoint page writes a spec's examples with indent=2 and default=str (YAML dates, sets).
    assert lean_json.dumps(value, indent=indent, default=str) == json.dumps(value, ensure_ascii=False, indent=indent, default=str)


def test_what_json_refuses_is_refused_with_json_s_words() -> None:
    circular: list[object] = []
    circular.append(circular)
    for value in ({"set": {1}}, {"object": object()}, {(1, 2): "tuple key"}, circular, "a bare string", 12):
        try:
            wanted: object = expected(value)
        except (TypeError, ValueError) as exc:
            wanted = (type(exc), str(exc))
        try:
            got: object = lean_json.dumps(value)
        except (TypeError, ValueError) as exc:
            got = (type(exc), str(exc))
        assert got == wanted, value
        try:
            wanted = expected(value, indent=2)
        except (TypeError, ValueError) as exc:
            wanted = (type(exc), str(exc))
        try:
            got = lean_json.dumps(value, indent=2)
        except (TypeError, ValueError) as exc:
            got = (type(exc), str(exc))
        assert got == wanted, value


@pytest.mark.parametrize(
    "text",
    [
        " [1] ",
        "\n{}\t",
        "",
        " ",
        "[1] x",
        "[1,]",
        "{'a': 1}",
        "\ufeff[]",
        "NaN",
        "[-Infinity]",
        '"\\ud800"',
        "[" * 5000 + "]" * 5000,
        "1e999",
        "01",
    ],
)
def test_texts_read_as_json_reads_them(text: str) -> None:
    def outcome(read):
        try:
            return repr(read(text))
        except (ValueError, RecursionError) as exc:
            return (type(exc), str(exc))

    assert outcome(lean_json.loads) == outcome(json.loads)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=8), JSON_VALUES, max_size=5))
def test_any_answer_shaped_value(value: dict) -> None:
    assert lean_json.dumps(value) == expected(value)
    assert lean_json.dumps(value, indent=2) == expected(value, indent=2)
    text = expected(value)
    assert repr(lean_json.loads(text)) == repr(json.loads(text))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(' \t\n"\\[]{},:-0123456789.eEtrufalsnNI\ufeffaé')), max_size=30))
def test_any_text_reads_the_same(text: str) -> None:
    def outcome(read):
        try:
            return repr(read(text))
        except ValueError as exc:
            return (type(exc), str(exc))

    assert outcome(lean_json.loads) == outcome(json.loads)
