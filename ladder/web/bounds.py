"""Every integer a URL carries, bounded in one place: the store's ids are 32-bit ``INTEGER``
columns, and SQLite refuses a Python int beyond 64 bits with an ``OverflowError`` (a 500) before
any query runs. A path id out of range is a 422 naming it, like any other bad parameter."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path, Query

MAX_ID = 2**31 - 1
"""The largest id the store can hold (``Integer`` primary keys; 32 bits on PostgreSQL)."""
MAX_PAGE = 1_000_000
"""A page number beyond any real listing (its offset, times ``per_page``, stays far below 2**63)."""
MAX_STEP = 100_000
"""A replay step beyond any real hand (a hand is about a hundred steps)."""

RowId = Annotated[int, Path(ge=1, le=MAX_ID, description=f"An id (1 to {MAX_ID}).")]
"""A match, version or upload id in a path."""
Number = Annotated[int, Path(ge=0, le=MAX_ID, description="From 1 (0 names none: 404).")]
"""A version's number within its bot, a hand within its match (their own checks refuse 0)."""
SeatIndex = Annotated[int, Path(ge=0, le=MAX_ID, description="A seat, 0 to 3 (others: 404).")]
PageQuery = Annotated[int, Query(ge=1, le=MAX_PAGE, description="From 1.")]
PerPageQuery = Annotated[int, Query(ge=1, le=200, description="Rows a page (1 to 200).")]
HandQuery = Annotated[int, Query(ge=1, le=MAX_ID, description="A hand, from 1.")]
StepQuery = Annotated[int, Query(ge=0, le=MAX_STEP, description="A step of the hand, from 0.")]

DEFAULT_TOP = 20
MAX_TOP = 50
TopQuery = Annotated[int, Query(ge=2, le=MAX_TOP, description=f"The cross table's bots: the best N on the "
                                f"leaderboard (2 to {MAX_TOP}).")]
"""A cross table grows as the square of its bots: a ladder of hundreds shows its best few."""
