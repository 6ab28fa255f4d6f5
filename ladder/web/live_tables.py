"""A running local match's public table, as its live file (``arena.referee.live_view``) says.

The file is untrusted like the record beside it: it is named from an id that matched
``LOCAL_MATCH_ID`` only, opened without following a link and under a size cap
(``data_files.read_inside``), and parsed as ``LiveState`` (bounded fields, no extra keys); a
file that fails is treated as absent (the page says it waits), never shown raw.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from pydantic import ValidationError

from arena.console.serving import LOCAL_MATCH_ID, LOCAL_MATCHES
from arena.referee.live_view import LIVE_SUFFIX, MAX_LIVE_BYTES, LiveState
from ladder.web.data_files import DataFileError, read_inside
from ladder.web.queries import NotFoundError


class Watch(StrEnum):
    """What a spectator of a local match is shown."""

    LIVE = "live"
    """The match runs and its live file is readable: the public table."""
    WAITING = "waiting"
    """The record has no end yet and no live state (bots starting, or the match was stopped)."""
    ENDED = "ended"
    """The record ends: the replay."""


@dataclass(frozen=True, slots=True)
class Watched:
    watch: Watch
    state: LiveState | None = None


def read_live(root: Path, match_id: str) -> LiveState | None:
    """The live file of ``match_id``, or None if there is none or it is not a live state."""
    if not LOCAL_MATCH_ID.fullmatch(match_id):
        raise NotFoundError(f"no local match {match_id!r}: not a match id")
    try:
        content = read_inside(root, f"{LOCAL_MATCHES}/{match_id}{LIVE_SUFFIX}", MAX_LIVE_BYTES,
                              refuse_over=MAX_LIVE_BYTES).content
        state = LiveState.model_validate_json(content)
    except (DataFileError, ValidationError):
        return None
    return state if state.match_id == match_id else None


def is_live(root: Path, match_id: str) -> bool:
    """Whether the match has a live file (a cheap ``lstat``, for the list)."""
    try:
        return (root / LOCAL_MATCHES / f"{match_id}{LIVE_SUFFIX}").is_file()
    except OSError:
        return False


def watched(root: Path, match_id: str, status: str | None) -> Watched:
    """What to show for a match whose record's status is ``status`` (``unfinished`` until it ends)."""
    if status is not None and status != "unfinished":
        return Watched(Watch.ENDED)
    state = read_live(root, match_id)
    return Watched(Watch.LIVE, state) if state is not None else Watched(Watch.WAITING)
