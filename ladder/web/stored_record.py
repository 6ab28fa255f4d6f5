"""A match's record as the pages read it: from the store, checked line by line.

A counted match's record is a ``match_files`` row (``ladder/store/match_files.py``), named by its
``record_path``. The record is untrusted (a bot's words are in it, and anyone with the store can
edit it): every line is validated by the record models and every hand is replayed by the engine
before a page uses it, and a record that fails is a ``UnreadableRecordError`` naming the match,
the record and the reason, which the pages show instead of a 500.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.orm import Session

from arena.engine.errors import ArenaError
from arena.referee.match_record_lines import AnyLine, HandLine, MatchEndLine, MatchStartLine
from arena.referee.match_recorder import match_record_lines
from arena.referee.replay import checked_lines
from ladder.store.match_files import DamagedFileError, read_stored, stored_name, stored_size


class UnreadableRecordError(ArenaError):
    """A match has no readable record; the message says which record and why."""


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A checked match record: its start line, its hands in order, and its end line if written."""

    start: MatchStartLine
    hands: tuple[HandLine, ...]
    end: MatchEndLine | None


MAX_RECORD_BYTES = 64 * 1024 * 1024
"""Far above any match record the referee writes (a 16-hand match is about 200 KB); a larger
file is not read into the service's memory."""


RecordIdentity = tuple[str, int, int]
"""What tells one record's content from another's: its row's match and name, and its size (a
stored row never changes once counted; a row edited in place is told apart by its size)."""


def record_identity(session: Session, match_id: int, stored_path: str | None) -> RecordIdentity | None:
    """The record's identity for caching, or None if it cannot be read (the reader says why)."""
    if not stored_path:
        return None
    size = stored_size(session, match_id, stored_name(stored_path))
    if size is None:
        return None
    return (f"match_files:{match_id}:{stored_name(stored_path)}", size, 0)


def read_record_bytes(session: Session, match_id: int, stored_path: str | None) -> bytes:
    """The record's bytes, from its ``match_files`` row."""
    if not stored_path:
        raise UnreadableRecordError(f"match {match_id} has no record yet")
    try:
        stored = read_stored(session, match_id, stored_name(stored_path), MAX_RECORD_BYTES + 1)
    except DamagedFileError as exc:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path} {exc}") from None
    if stored is None:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path} is not in the store; not read")
    if stored.size > MAX_RECORD_BYTES:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path} is {stored.size} bytes, more than "
                                    f"it can be ({MAX_RECORD_BYTES}); not read")
    return stored.content


def read_match(session: Session, match_id: int, stored_path: str | None) -> MatchRecord:
    content = read_record_bytes(session, match_id, stored_path)
    assert stored_path is not None
    return checked_record(content, stored_path, f"match {match_id}: record {stored_path}")


def checked_record(content: bytes, where: str, label: str) -> MatchRecord:
    """A record's bytes checked line by line (``where`` names it in a line's error) and assembled;
    any problem is an ``UnreadableRecordError`` that starts with ``label``. The ladder's records
    and the data folder's local matches are read by this one function."""
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableRecordError(f"{label}: not UTF-8 text (byte {exc.start})") from None
    try:
        lines = checked_lines(Path(where), match_record_lines(text, where))
    except ArenaError as exc:
        raise UnreadableRecordError(f"{label}: {exc}") from None
    return _assembled(label, lines)


def _assembled(label: str, lines: list[AnyLine]) -> MatchRecord:
    starts = [line for line in lines if isinstance(line, MatchStartLine)]
    ends = [line for line in lines if isinstance(line, MatchEndLine)]
    hands = tuple(sorted((line for line in lines if isinstance(line, HandLine)), key=lambda hand: hand.index))
    if len(starts) != 1:
        raise UnreadableRecordError(f"{label}: expected one match_start line, found {len(starts)}")
    if len(ends) > 1:
        raise UnreadableRecordError(f"{label}: {len(ends)} match_end lines")
    if [hand.index for hand in hands] != list(range(len(hands))):
        raise UnreadableRecordError(f"{label}: hand indexes are not 0..{len(hands) - 1}")
    return MatchRecord(starts[0], hands, ends[0] if ends else None)
