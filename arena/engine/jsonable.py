"""Plain JSON from the engine's value types, driven by their dataclass fields.

Every field of a value type is written, so a field added to ``Observation`` (or to anything
inside it) reaches its JSON without anyone remembering to. A type leaves a field out only by
naming it in ``JSON_OMIT``, and writes fields side by side as pairs by naming them in
``JSON_ZIP`` (``Trick`` writes its ``seats`` and ``cards`` as ``plays``). A field named in
``JSON_IF_SET`` is written only when it differs from its default (an option added later leaves
the JSON of the hands it does not touch byte-identical). Cards, suits and
actions (and any type that sets ``JSON_AS_TEXT``) are written as their text; other enums as
their value.
"""

from __future__ import annotations

import dataclasses
from enum import Enum
from typing import Any

from arena.engine.actions import CallTrump, HideTrump, PlayCard, RevealTrump
from arena.engine.cards import Card, Suit

_AS_TEXT = (Card, Suit, PlayCard, CallTrump, HideTrump, RevealTrump)


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (dicts, lists, strings, numbers, booleans, ``None``)."""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, _AS_TEXT) or getattr(value, "JSON_AS_TEXT", False):  # before int and dataclass: cards are ints
        return str(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, int | float | str):
        return value
    if isinstance(value, tuple | list):
        return [jsonable(item) for item in value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return fields_json(value)
    raise TypeError(f"no JSON form for {type(value).__name__}")


def fields_json(value: Any) -> dict[str, Any]:
    """A dataclass instance as a JSON object, one key per field in declaration order."""
    cls = type(value)
    omit: frozenset[str] = getattr(cls, "JSON_OMIT", frozenset())
    zipped: dict[str, tuple[str, str]] = getattr(cls, "JSON_ZIP", {})
    first_of_pair = {pair[0]: key for key, pair in zipped.items()}
    in_pairs = {name for pair in zipped.values() for name in pair}
    if_set: frozenset[str] = getattr(cls, "JSON_IF_SET", frozenset())
    out: dict[str, Any] = {}
    for field in dataclasses.fields(value):
        name = field.name
        if name in omit or (name in if_set and getattr(value, name) == field.default):
            continue
        if name in first_of_pair:
            key = first_of_pair[name]
            left, right = zipped[key]
            out[key] = [jsonable(pair) for pair in zip(getattr(value, left), getattr(value, right), strict=True)]
        elif name not in in_pairs:
            out[name] = jsonable(getattr(value, name))
    return out
