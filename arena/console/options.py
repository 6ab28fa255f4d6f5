"""Checks of command-line options that click does not make: finite numbers, writable folders."""

from __future__ import annotations

import math
import tempfile
from collections.abc import Iterable
from enum import StrEnum
from pathlib import Path
from typing import Any, Generic, TypeVar

import click

E = TypeVar("E", bound=StrEnum)

MAX_PER_MOVE = 600.0
"""Seconds: a longer per-move limit is a typo (ten minutes a card), not a plan."""
MAX_BANK = 86400.0
"""Seconds: a day of time bank."""


class FiniteFloatRange(click.FloatRange):
    """A ``FloatRange`` that also refuses ``nan`` (which passes every comparison) and infinities."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number", param, ctx)
        return number


class EnumChoice(click.Choice[str], Generic[E]):
    """A choice among ``members`` of a ``StrEnum``, written (and shown in ``--help``) as their values;
    the command gets the member, so the string goes no further than the option."""

    def __init__(self, members: Iterable[E]) -> None:
        self.members = {member.value: member for member in members}
        super().__init__(list(self.members))

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> E:
        return self.members[str(super().convert(value, param, ctx))]


def writable_folder(path: Path) -> None:
    """Create ``path`` if needed and prove that a file can be written in it (``OSError`` if not),
    so that a folder such as ``/proc/1`` is refused before any work, not midway."""
    path.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryFile(dir=path):
        pass


def utf8_text(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A click callback for names looked up in the store: an argument that is not UTF-8 (Python
    holds its bytes as surrogates) cannot be a stored name, and the database cannot encode it."""
    if value is not None and not is_utf8(value):
        raise click.BadParameter("not UTF-8 text", ctx, param)
    return value


def is_utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
