"""A match's record as the pages read it: found through the store, checked line by line.

The record file is untrusted (a bot's words are in it, and anyone with the data folder can
edit it): every line is validated by the record models and every hand is replayed by the engine
before a page uses it, and a record that fails is a ``UnreadableRecordError`` naming the match, the
file and the reason, which the pages show instead of a 500. The path comes from the store and is
only ever taken relative to the data folder, never followed out of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from arena.engine.errors import ArenaError
from arena.referee.match_record import AnyLine, HandLine, MatchEndLine, MatchStartLine
from arena.referee.recorder import read_match_record
from arena.referee.replay import checked_lines
from ladder.paths import ArenaData


class UnreadableRecordError(ArenaError):
    """A match has no readable record; the message says which record and why."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A checked match record: its start line, its hands in order, and its end line if written."""

    start: MatchStartLine
    hands: tuple[HandLine, ...]
    end: MatchEndLine | None


def record_file(data: ArenaData, match_id: int, stored_path: str | None) -> Path:
    """The record's file inside the data folder; an absolute or escaping stored path, or a link
    (the path or one of its folders) that resolves outside the data folder, is refused."""
    if not stored_path:
        raise UnreadableRecordError(f"match {match_id} has no record yet")
    relative = PurePosixPath(stored_path)
    if relative.is_absolute() or ".." in relative.parts:
        raise UnreadableRecordError(f"match {match_id}: its stored record path is outside the data folder; not read")
    path = data.root / relative
    resolved, root = path.resolve(), data.root.resolve()
    if resolved != root and root not in resolved.parents:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path} links outside the data folder; not read")
    if resolved.exists() and not resolved.is_file():
        raise UnreadableRecordError(f"match {match_id}: record {stored_path} is not a file")
    return path


def read_match(data: ArenaData, match_id: int, stored_path: str | None) -> MatchRecord:
    path = record_file(data, match_id, stored_path)
    try:
        lines = checked_lines(path, read_match_record(path))
    except ArenaError as exc:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path}: {exc}") from None
    return _assembled(match_id, stored_path, lines)


def _assembled(match_id: int, stored_path: str | None, lines: list[AnyLine]) -> MatchRecord:
    starts = [line for line in lines if isinstance(line, MatchStartLine)]
    ends = [line for line in lines if isinstance(line, MatchEndLine)]
    hands = tuple(sorted((line for line in lines if isinstance(line, HandLine)), key=lambda hand: hand.index))
    if len(starts) != 1:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path}: expected one match_start line, "
                                f"found {len(starts)}")
    if len(ends) > 1:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path}: {len(ends)} match_end lines")
    if [hand.index for hand in hands] != list(range(len(hands))):
        raise UnreadableRecordError(f"match {match_id}: record {stored_path}: hand indexes are not 0..{len(hands) - 1}")
    return MatchRecord(starts[0], hands, ends[0] if ends else None)
