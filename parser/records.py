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
from typing import Any, TypeVar, cast

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


new_stakes = twin(Stakes)
new_seat = twin(Seat)
new_post = twin(Post)
new_action = twin(Action)
new_draw = twin(Draw)
new_show = twin(Show)
new_muck = twin(Muck)
new_uncalled = twin(Uncalled)
new_collect = twin(Collect)
new_note = twin(Note)
new_tournament = twin(Tournament)
new_hand = twin(Hand)
new_problem = twin(Problem)
