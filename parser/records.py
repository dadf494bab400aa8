"""The hand records as the readers build them: the same frozen objects, made the quick way.

A reader builds some thirty records a hand (the seats, every step, the hand).  A frozen
dataclass cannot store its own fields, so even ``engine.fast_init``'s ``__init__`` sets
each one through a call of its slot's descriptor: about 6,400 machine instructions an
``Action``, a fifth of reading a PokerStars hand (callgrind, CPython 3.11).  Each
constructor here is a plain slotted *twin* of one record class: the same slots in the
same order, so its ``__init__`` sets each field with an ordinary attribute store, then
makes the object the record it mirrors by setting its ``__class__`` (CPython allows that
between classes of the same layout): 3,000 instructions.

What comes out *is* the record: ``type(x) is Action``, frozen from then on, compared,
hashed, pickled and ``replace``-d like any other; ``isinstance`` tests name the record
classes, never these.  A twin takes the same arguments with the same defaults, made from
the dataclass's own fields, and a record class whose layout a twin cannot mirror (a
field added with a default factory, a ``__post_init__``) fails at import, not while
reading.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar, cast

from engine.record import (
    Action,
    Collect,
    Draw,
    Hand,
    Muck,
    Note,
    Post,
    Seat,
    Show,
    Stakes,
    Tournament,
    Uncalled,
)
from engine.verdict import Problem
from parser.outcome import HandText

_R = TypeVar("_R")


def twin(cls: type[_R]) -> type[_R]:
    """A constructor of ``cls`` records that sets their fields the quick way (see above)."""
    params = cls.__dataclass_params__  # type: ignore[attr-defined]
    slots = cls.__dict__.get("__slots__")
    if not params.frozen or slots is None or hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__}: not a plain frozen, slotted dataclass")
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    if tuple(slots) != tuple(f.name for f in fields):
        raise TypeError(f"{cls.__name__}: its slots are not its fields")
    names: dict[str, Any] = {"_record": cls}
    args: list[str] = []
    body: list[str] = []
    for f in fields:
        if not f.init or f.kw_only or f.default_factory is not dataclasses.MISSING:
            raise TypeError(f"{cls.__name__}.{f.name}: a field a twin cannot set")
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            names[f"_default_{f.name}"] = f.default
            args.append(f"{f.name}=_default_{f.name}")
        body.append(f"    self.{f.name} = {f.name}")
    body.append("    self.__class__ = _record")
    exec(f"def __init__(self, {', '.join(args)}):\n" + "\n".join(body), names)
    init = names["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    made = type(f"{cls.__name__}Twin", (), {"__slots__": tuple(slots), "__init__": init})
    probe: Any = object.__new__(made)
    probe.__class__ = cls  # a layout the record's does not match fails here, at import
    return cast(type[_R], made)


_P = ParamSpec("_P")


def quick(cls: Callable[_P, _R]) -> Callable[_P, _R]:
    """A function building ``cls`` records, with the record's own arguments and defaults:
    its twin made bare (no ``__init__``), the fields stored, then the class set.

    A class call runs ``__init__`` in a frame of its own started from C (``type_call``,
    ``slot_tp_init``); a Python function called from Python runs in the caller's eval
    loop, and a bare object costs only its allocation: 2,550 machine instructions an
    ``Action`` against the twin's 3,000 (callgrind, CPython 3.11), some thirty records a
    hand.
    """
    record = cast(type[Any], cls)
    made = twin(record)  # the checks of the layout
    slots = tuple(made.__slots__)  # type: ignore[attr-defined]
    bare = type(f"{record.__name__}Bare", (), {"__slots__": slots})
    names: dict[str, Any] = {"_record": record, "_bare": bare}
    args: list[str] = []
    for f in dataclasses.fields(record):
        if f.default is dataclasses.MISSING:
            args.append(f.name)
        else:
            names[f"_default_{f.name}"] = f.default
            args.append(f"{f.name}=_default_{f.name}")
    body = [f"    self.{name} = {name}" for name in slots]
    name = f"new_{record.__name__.lower()}"
    exec(
        f"def {name}({', '.join(args)}):\n    self = _bare()\n"
        + "\n".join(body)
        + "\n    self.__class__ = _record\n    return self",
        names,
    )
    function = names[name]
    function.__qualname__ = f"{record.__qualname__}.__init__"
    function.__doc__ = f"A {record.__name__} record, made the quick way (``parser.records``)."
    return cast(Callable[_P, _R], function)


new_stakes = quick(Stakes)
new_seat = quick(Seat)
new_post = quick(Post)
new_action = quick(Action)
new_draw = quick(Draw)
new_show = quick(Show)
new_muck = quick(Muck)
new_uncalled = quick(Uncalled)
new_collect = quick(Collect)
new_note = quick(Note)
new_tournament = quick(Tournament)
new_hand = quick(Hand)
new_problem = quick(Problem)
new_hand_text = quick(HandText)
"""A hand's text as the cutter finds it: one a hand, made where the importer's main
process cuts files (a third of ``HandText``'s frozen ``__init__``)."""
