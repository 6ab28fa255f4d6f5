"""The leaderboard, computed once per store generation rather than on every request.

Its rows (every bot's newest version, hundreds on a ladder) change only when the ladder writes a
result (``ladder/coordinator/results.py``: ratings and counters move in the same transaction), a version
(``ladder/submission/submit.py``) or a match (the presets it offers). So each value built from them is kept
with the store's *generation*, the newest match, result and version ids (three seeks on primary
keys, one query), and rebuilt when it moves: a page polled by many spectators every few seconds
costs one small query while the ladder is between results, and a new result shows at once.

``MAX_AGE_S`` bounds what ids cannot see: on PostgreSQL two transactions may commit their results
out of id order, so a result may commit under a generation already cached; it shows within
``MAX_AGE_S`` (SQLite has one writer at a time, so its ids commit in order).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from fastapi import Depends, Request
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ladder.store.read_model import StandingSort
from ladder.store.schema import BotVersion, Match, Result
from ladder.web.models import Leaderboard
from ladder.web.queries import leaderboard

V = TypeVar("V")
MAX_AGE_S = 5.0
ENTRIES = 32
"""Values kept: one per page, fragment or API variant (filter, sort) recently asked for."""


@dataclass(frozen=True, slots=True)
class Generation:
    newest_match: int | None
    newest_result: int | None
    newest_version: int | None


def generation(session: Session) -> Generation:
    """Where the store is now: the newest match, result and version ids, in one query."""
    newest = select(*(select(func.max(column)).scalar_subquery() for column in (Match.id, Result.id, BotVersion.id)))
    match, result, version = session.execute(newest).one()
    return Generation(match, result, version)


@dataclass(frozen=True, slots=True)
class _Entry:
    generation: Generation
    built_at: float
    value: Any


class GenerationCache:
    """A few values, each kept while the store stays at the generation it was built at, and for at
    most ``max_age`` seconds; the least recently used goes first. Safe across the server's threads."""

    def __init__(self, entries: int = ENTRIES, max_age: float = MAX_AGE_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._size, self._max_age, self._clock = entries, max_age, clock
        self._lock = threading.Lock()

    def get(self, key: Hashable, now: Generation, build: Callable[[], V]) -> V:
        """The value for ``key`` at generation ``now``, built (outside the lock) if it is not kept."""
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry.generation == now and self._clock() - entry.built_at < self._max_age:
                self._entries.move_to_end(key)
                value: V = entry.value
                return value
        built_at = self._clock()
        value = build()
        with self._lock:
            self._entries[key] = _Entry(now, built_at, value)
            self._entries.move_to_end(key)
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        return value


    def clear(self) -> None:
        """Forget every value: for a change the generation cannot see (an operator's switch or
        void moves ratings and marks without a new match, result or version id)."""
        with self._lock:
            self._entries.clear()


def board_cache(request: Request) -> GenerationCache:
    """The service's cache (``create_app`` makes one per application)."""
    cache: GenerationCache = request.app.state.board_cache
    return cache


CacheDep = Annotated[GenerationCache, Depends(board_cache)]


def cached_leaderboard(cache: GenerationCache, session: Session, now: Generation, *, all_versions: bool,
                       preset: str | None, sort: StandingSort, descending: bool) -> Leaderboard:
    """``queries.leaderboard`` as of ``now``; the page and the API share the value (never change it)."""
    return cache.get(("leaderboard", all_versions, preset, sort, descending), now, lambda: leaderboard(
        session, all_versions=all_versions, preset=preset, sort=sort, descending=descending))
