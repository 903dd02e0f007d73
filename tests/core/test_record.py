"""Records: the frozen value classes of the results, built without `dataclasses`."""

from __future__ import annotations

import pickle

import pytest

from normcli import results as r
from normcli.record import record, replace


@record
class Point:
    x: int
    y: int = 0
    label: str = ""


def test_fields_positional_keyword_and_defaults() -> None:
    assert Point(1, 2).__dict__ == {"x": 1, "y": 2, "label": ""}
    assert Point(x=3, label="a") == Point(3, 0, "a")
    assert Point(1) != Point(2)
    assert Point(1) != (1, 0, "")
    assert len({Point(1), Point(1), Point(2)}) == 2


@pytest.mark.parametrize(
    ("args", "kwargs", "message"),
    [
        ((), {}, "missing required arguments: x"),
        ((1, 2, "a", 4), {}, "takes 3 arguments"),
        ((1,), {"x": 2}, "multiple values"),
        ((1,), {"z": 2}, "unexpected keyword"),
    ],
)
def test_wrong_arguments_are_type_errors(args: tuple, kwargs: dict, message: str) -> None:
    with pytest.raises(TypeError, match=message):
        Point(*args, **kwargs)


def test_frozen_and_replace() -> None:
    point = Point(1, 2)
    with pytest.raises(AttributeError):
        point.x = 5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        del point.y  # type: ignore[misc]
    assert replace(point, label="moved") == Point(1, 2, "moved")
    assert point.label == ""
    with pytest.raises(TypeError, match="no field z"):
        replace(point, z=1)


def test_declaration_mistakes_are_caught() -> None:
    with pytest.raises(TypeError, match="mutable default"):

        @record
        class Shared:
            items: list = []  # noqa: RUF012

    with pytest.raises(TypeError, match="follows one with a default"):

        @record
        class Misordered:
            a: int = 0
            b: int


def test_repr_and_pickle() -> None:
    figure = r.FigureResult(
        r.Edition("SIA 261", "2020", "fr", ("fr",), "Actions"), "fig-1", "1", "Caption", "image/png", "f.png", b"\x89PNG" * 1000
    )
    assert "data=<4000 bytes>" in repr(figure)
    assert repr(Point(1, label="a")) == "Point(x=1, y=0, label='a')"
    assert pickle.loads(pickle.dumps(figure)) == figure


def test_a_record_extending_another_has_its_fields_first() -> None:
    @record
    class Labelled(Point):
        colour: str = "red"

    labelled = Labelled(1, 2, "a", "blue")
    assert (labelled.x, labelled.y, labelled.label, labelled.colour) == (1, 2, "a", "blue")
    assert Labelled(x=3).colour == "red" and Labelled(x=3) != Point(x=3)
