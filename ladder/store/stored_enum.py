"""Enum-typed columns stored as their string values, and a match format stored as its text.

The column's DDL is a plain ``VARCHAR(length)``, exactly what the stores made before the enums
existed, so no migration is needed and old rows read back as members. A value outside the enum
is refused both ways: on write before it reaches the database, on read with a typed error
naming the value and the enum, rather than a bare string that no comparison matches.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, TypeVar

from sqlalchemy import String
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.types import TypeDecorator

from arena.engine.errors import MatchFormatError
from arena.engine.match import MatchFormat
from ladder.store.database import StoreError

E = TypeVar("E", bound=StrEnum)


class UnknownStoredValueError(StoreError, SQLAlchemyError):
    """A row holds a string that is not a member of its column's enum (a damaged or foreign
    store, or one written by a newer version). A ``SQLAlchemyError`` too, so the commands'
    store guard reports it in one line like any other unreadable row."""


class StoredEnum(TypeDecorator[E]):
    """``StoredEnum(MatchStatus, 16)``: a member in, its value stored, the member back out."""

    impl = String
    cache_ok = True

    def __init__(self, enum: type[E], length: int) -> None:
        longest = max(len(member.value) for member in enum)
        if longest > length:
            raise ValueError(f"{enum.__name__} has a value of {longest} characters, longer than {length}")
        super().__init__(length)
        self.enum = enum

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        if value is None:
            return None
        try:
            return self.enum(value).value
        except ValueError:
            raise ValueError(f"{value!r} is not a {self.enum.__name__} ({self._choices()})") from None

    def process_result_value(self, value: Any, dialect: Dialect) -> E | None:
        if value is None:
            return None
        try:
            return self.enum(value)
        except ValueError:
            raise UnknownStoredValueError(f"the stored value {value!r} is not a {self.enum.__name__} "
                                     f"({self._choices()})") from None

    def _choices(self) -> str:
        return ", ".join(member.value for member in self.enum)


class StoredMatchFormat(TypeDecorator[MatchFormat]):
    """A ``MatchFormat`` in, its text (``duplicate:16``) stored, the format parsed back out: parsed
    once, where the row is read, not by every reader."""

    impl = String
    cache_ok = True

    def __init__(self, length: int) -> None:
        super().__init__(length)

    def process_bind_param(self, value: Any, dialect: Dialect) -> str | None:
        return None if value is None else str(MatchFormat.of(value))

    def process_result_value(self, value: Any, dialect: Dialect) -> MatchFormat | None:
        if value is None:
            return None
        try:
            return MatchFormat.parse(value)
        except MatchFormatError as exc:
            raise UnknownStoredValueError(f"the stored value {value!r} is not a match format ({exc})") from None
