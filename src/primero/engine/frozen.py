"""Pickling and copying the engine's frozen dataclasses from their one field list.

The frozen dataclasses that mypyc compiles (``setup.COMPILED``: actions, legal actions,
pots, hand results, seat views) are ``@dataclass(frozen=True, slots=True)``, with two
differences from plain ones, both measured on a compiled class:

- pickle and :mod:`copy` fail on a compiled frozen dataclass (``FrozenInstanceError``:
  they set the slots one by one), so every one has ``__reduce__`` return
  :func:`by_fields`: the class and its fields' values, read from the dataclass's own
  ``__match_args__`` (its fields in order), so that no class writes its field list again;
- the generated ``__init__`` of a compiled frozen dataclass builds an object about 11
  times as slowly as a written one, so a class built at every move (actions, legal
  actions, seat views) writes its ``__init__`` (``init=False``; each field set with
  ``object.__setattr__``, which mypyc compiles to a direct slot store). A class built a
  few times a hand (:class:`~primero.engine.pots.Pot`,
  :class:`~primero.engine.pots.Award`, :class:`~primero.engine.state.HandResult`) keeps
  the generated one: its field list is written once.

>>> from primero.engine.pots import Pot
>>> by_fields(Pot(12, (0, 2)))
(<class 'primero.engine.pots.Pot'>, (12, (0, 2)))
"""

from __future__ import annotations

from collections.abc import Callable
from operator import attrgetter
from typing import Any

__all__ = ["by_fields"]

#: Each class's reader of its fields' values, built once from its ``__match_args__``.
_READERS: dict[type, Callable[[Any], tuple[object, ...]]] = {}


def by_fields(obj: Any) -> tuple[type, tuple[object, ...]]:
    """``(class, field values)``: how a frozen dataclass of the engine is pickled and
    copied (through its constructor, which takes every field in order).

    Args:
        obj: a dataclass instance whose constructor takes its fields positionally, in
            the order of its ``__match_args__`` (no keyword-only field).

    Returns:
        The value ``__reduce__`` returns: the class and the fields' values in order.
    """
    cls = type(obj)
    read = _READERS.get(cls)
    if read is None:
        read = _READERS[cls] = _reader(cls.__match_args__)
    return (cls, read(obj))


def _reader(names: tuple[str, ...]) -> Callable[[Any], tuple[object, ...]]:
    """A function giving an object's ``names`` attributes as a tuple (one C call)."""
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    many: Callable[[Any], tuple[object, ...]] = attrgetter(*names)
    return many
