"""Immutable record classes without `dataclasses` (issues 14/15: the fixed cost of a cold process).

Decorating a class with `@dataclass` generates its methods through `exec` at import time, and importing
`dataclasses` pulls in `inspect` (and `ast`, `dis`, `tokenize`): for the 16 record classes every cold
`--route`, `--prime` and prompt-hook process imports, that was ~50 ms of CPU before any bank work. The
classes on that path write `__slots__` and `__init__` out by hand and inherit what the dataclass gave them
from here: assignment refused after `__init__`, a repr of the fields, and `replace`. `Value` adds field
equality and a hash of the fields (the dataclass default for a frozen class); `Frozen` alone keeps
identity (the parsed `Doc`: a cache tells a re-parsed document from the old one by identity).

A subclass's `__slots__` names its fields in order; `__init__` assigns them with `assign(self, name, value)`.
"""

from __future__ import annotations

from typing import Any

assign = object.__setattr__


class Frozen:
    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def _values(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__qualname__}({shown})"

    def replace(self, **changes: Any) -> Any:
        """A copy with `changes` applied (what `dataclasses.replace` did)."""
        return type(self)(**{name: changes.pop(name, getattr(self, name)) for name in self.__slots__}, **changes)

    # copy and pickle: the slots are set through object's own setattr, as the dataclass's __setstate__ did
    def __getstate__(self) -> tuple:
        return self._values()

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(self.__slots__, state):
            assign(self, name, value)


class Value(Frozen):
    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()  # type: ignore[attr-defined]
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())
