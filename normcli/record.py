"""Frozen value classes declared like dataclasses, built without `exec`.

Every `--json` call imports the result classes. `dataclasses` compiles four or five functions
per frozen class when the module is imported (about 0.8 ms a class here) and needs `inspect`
(another 6 ms): for the thirty classes on that path it was a fifth of the whole process time.
A record shares one set of plain methods among all its classes instead, and type checkers see
its fields and constructor through `dataclass_transform` (PEP 681).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on every call's start-up
if TYPE_CHECKING:
    from typing import Any, TypeVar, dataclass_transform

    R = TypeVar("R")
else:

    def dataclass_transform(**_options):
        return lambda decorator: decorator


_MUTABLE_DEFAULTS = (list, dict, set, bytearray)


_MISSING = object()  # a field without a default, in a class's `__record_template__`


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    names: tuple[str, ...] = cls.__record_fields__
    if not kwargs and len(args) == len(names):
        self.__dict__.update(zip(names, args, strict=True))
        return
    # Every field in order with its default, then the positional values, then the keywords: copying and
    # updating dicts is done in C (the declarations every call imports build seventy records by keyword).
    if len(args) > len(names):
        raise TypeError(f"{cls.__name__}() takes {len(names)} arguments but {len(args)} were given")
    values = cls.__record_template__.copy()
    values.update(zip(names, args, strict=False))
    if kwargs:
        if not kwargs.keys() <= cls.__record_names__ or not kwargs.keys().isdisjoint(names[: len(args)]):
            for name in kwargs:
                if name not in names:
                    raise TypeError(f"{cls.__name__}() got an unexpected keyword argument '{name}'")
                if name in names[: len(args)]:
                    raise TypeError(f"{cls.__name__}() got multiple values for argument '{name}'")
        values.update(kwargs)
    if len(names) - len(args) > len(kwargs) and any(value is _MISSING for value in values.values()):
        missing = [name for name, value in values.items() if value is _MISSING]
        raise TypeError(f"{cls.__name__}() missing required arguments: {', '.join(missing)}")
    self.__dict__.update(values)


def _frozen(self: Any, name: str, value: Any = None) -> None:
    raise AttributeError(f"cannot change field '{name}' of a {type(self).__name__}: it is frozen")


def _values(self: Any) -> tuple[Any, ...]:
    return tuple(self.__dict__[name] for name in self.__record_fields__)


def _eq(self: Any, other: object) -> bool:
    if type(other) is not type(self):
        return NotImplemented
    return _values(self) == _values(other)


def _hash(self: Any) -> int:
    return hash(_values(self))


def _repr(self: Any) -> str:
    def shown(value: Any) -> str:
        return f"<{len(value)} bytes>" if isinstance(value, bytes) else repr(value)

    fields = ", ".join(f"{name}={shown(self.__dict__[name])}" for name in self.__record_fields__)
    return f"{type(self).__name__}({fields})"


@dataclass_transform(frozen_default=True)
def record(cls: type[R]) -> type[R]:
    """Make `cls` a frozen record of the fields it annotates, in order, after those of a record it
    extends; class attributes are defaults."""
    inherited: tuple[str, ...] = getattr(cls, "__record_fields__", ())
    annotations = cls.__dict__.get("__annotations__")  # noqa: RUF063 - inspect is what this module avoids
    if annotations is None:  # annotations evaluated lazily (PEP 649) are not in the class dict
        annotations = getattr(cls, "__annotations__", {})
    own = tuple(name for name in annotations if name not in inherited)
    names = inherited + own
    defaults = {**getattr(cls, "__record_defaults__", {}), **{name: cls.__dict__[name] for name in own if name in cls.__dict__}}
    for name, value in defaults.items():
        if isinstance(value, _MUTABLE_DEFAULTS):
            raise TypeError(f"{cls.__name__}.{name}: a mutable default would be shared by every record")
    seen_default = False
    for name in names:
        if name in defaults:
            seen_default = True
        elif seen_default:
            raise TypeError(f"{cls.__name__}.{name}: a field without a default follows one with a default")
    methods = {
        "__record_fields__": names,
        "__record_names__": frozenset(names),
        "__record_defaults__": defaults,
        "__record_template__": {name: defaults.get(name, _MISSING) for name in names},
        "__match_args__": names,
        "__init__": _init,
        "__setattr__": _frozen,
        "__delattr__": _frozen,
        "__eq__": _eq,
        "__hash__": _hash,
        "__repr__": _repr,
    }
    for name, method in methods.items():
        setattr(cls, name, method)
    return cls


def replace(item: R, **changes: Any) -> R:
    """A copy of the record `item` with some fields changed."""
    values = {name: item.__dict__[name] for name in type(item).__record_fields__}  # type: ignore[attr-defined]
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(item).__name__} has no field {', '.join(sorted(unknown))}")
    return type(item)(**{**values, **changes})
