"""A running match's public table, as its live file (``arena.referee.live_view``) says: a local
match's beside its record (``DATA/local-matches/ID.live.json``), a ladder match's in
``DATA/live/`` (``mNNNNNN.live.json``, written by a worker of the coordinator's local pool, or by
the coordinator from a Dask worker's events: ``ladder.execution.live_relay``).

The file is untrusted like a record: it is named from an id that matched ``LOCAL_MATCH_ID``
(or a ladder match's integer id) only, opened without following a link and under a size cap
(``data_files.read_inside``), and parsed as ``LiveState`` (bounded fields, no extra keys); a
file that fails is treated as absent (the page says it waits), never shown raw.

A running referee rewrites its file every few seconds (``HEARTBEAT_INTERVAL``); one whose state
is older than ``STALE_AFTER`` was left by a referee that died (killed outright: nothing removed
it), so its match is shown as abandoned, on its page and in the lists, never as live.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from pydantic import ValidationError

from arena.console.serving import LOCAL_MATCH_ID, LOCAL_MATCHES
from arena.referee.live_view import LIVE_SUFFIX, MAX_LIVE_BYTES, LiveState, is_stale
from ladder.store.paths import LIVE_FOLDER
from ladder.store.report_files import match_key
from ladder.store.schema import MatchStatus
from ladder.web.data_files import DataFileError, read_inside
from ladder.web.models import MatchSummary
from ladder.web.queries import NotFoundError


class Watch(StrEnum):
    """What a spectator of a local match is shown."""

    LIVE = "live"
    """The match runs and its live file is readable: the public table."""
    WAITING = "waiting"
    """The record has no end yet and no live state (bots starting, or the match was stopped)."""
    ABANDONED = "abandoned"
    """The record has no end and the live file stopped beating: its referee died (the last state
    is shown as such, not as live)."""
    ENDED = "ended"
    """The record ends: the replay."""


@dataclass(frozen=True, slots=True)
class Watched:
    watch: Watch
    state: LiveState | None = None


@dataclass(frozen=True, slots=True)
class LiveFile:
    """Where a match's live file is (inside the data folder) and the match id it must hold."""

    stored_path: str
    match_id: str


def local_live(match_id: str) -> LiveFile:
    """A local match's live file; an id that is not a local match id is ``NotFoundError``."""
    if not LOCAL_MATCH_ID.fullmatch(match_id):
        raise NotFoundError(f"no local match {match_id!r}: not a match id")
    return LiveFile(f"{LOCAL_MATCHES}/{match_id}{LIVE_SUFFIX}", match_id)


def ladder_live(match_id: int) -> LiveFile:
    """A ladder match's live file (the key the worker's table is named by)."""
    key = match_key(match_id)
    return LiveFile(f"{LIVE_FOLDER}/{key}{LIVE_SUFFIX}", key)


def read_live(root: Path, file: LiveFile) -> LiveState | None:
    """The live state in ``file``, or None if there is none or it is not a live state of that match."""
    try:
        content = read_inside(root, file.stored_path, MAX_LIVE_BYTES, refuse_over=MAX_LIVE_BYTES).content
        state = LiveState.model_validate_json(content)
    except (DataFileError, ValidationError):
        return None
    return state if state.match_id == file.match_id else None


def liveness(root: Path, file: LiveFile, now: float | None = None) -> Watch:
    """A match not known to be over, by its live file: ``LIVE`` while its writer beats,
    ``ABANDONED`` once it stopped (``now``: the reader's time, ``time.time()`` by default),
    ``WAITING`` with no readable file."""
    return watched(root, file, ended=False, now=now).watch


def abandoned_ladder_matches(root: Path, rows: Iterable[MatchSummary]) -> set[int]:
    """The running matches of ``rows`` whose live file stopped beating (their coordinator died):
    the lists show them as ``abandoned``, not ``live``, until a sweep puts them back in the queue."""
    return {row.match_id for row in rows
            if row.status is MatchStatus.RUNNING and liveness(root, ladder_live(row.match_id)) is Watch.ABANDONED}


def watched(root: Path, file: LiveFile, ended: bool, now: float | None = None) -> Watched:
    """What to show for a match (``ended``: its record, or the store, says it is over)."""
    if ended:
        return Watched(Watch.ENDED)
    state = read_live(root, file)
    if state is None:
        return Watched(Watch.WAITING)
    stale = is_stale(state, time.time() if now is None else now)
    return Watched(Watch.ABANDONED if stale else Watch.LIVE, state)
