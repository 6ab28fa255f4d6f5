"""A match's record as the pages read it: from the store, checked line by line.

A counted match's record is a ``match_files`` row (``ladder/match_files.py``); a match stored
before the store kept files has its record under the data folder, where ``record_path`` says,
and is read from there. The record is untrusted (a bot's words are in it, and anyone with the
store or the data folder can edit it): every line is validated by the record models and every
hand is replayed by the engine before a page uses it, and a record that fails is a
``UnreadableRecordError`` naming the match, the record and the reason, which the pages show
instead of a 500. A legacy path is only ever taken relative to the data folder, never followed
out of it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from sqlalchemy.orm import Session

from arena.engine.errors import ArenaError
from arena.referee.match_record import AnyLine, HandLine, MatchEndLine, MatchStartLine
from arena.referee.recorder import match_record_lines
from arena.referee.replay import checked_lines
from arena.web.data_files import DataFileError, inside, read_inside
from ladder.match_files import DamagedFileError, read_stored, stored_size
from ladder.paths import ArenaData


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


def record_file(data: ArenaData, match_id: int, stored_path: str | None) -> Path:
    """The record's file inside the data folder, by name only: an absolute or escaping stored path
    is refused here, a link out of the folder when it is opened (``read_record_bytes``)."""
    if not stored_path:
        raise UnreadableRecordError(f"match {match_id} has no record yet")
    try:
        return inside(data.root, stored_path)
    except DataFileError:
        raise UnreadableRecordError(f"match {match_id}: its stored record path is outside the data folder; "
                                    "not read") from None


RecordIdentity = tuple[str, int, int]
"""What tells one record's content from another's: a stored row never changes once counted;
a legacy file is known by its path, size and modification time."""


def stored_name(stored_path: str) -> str:
    """The name a match's record is stored under (``record_path``'s last part)."""
    return PurePosixPath(stored_path).name


def record_identity(session: Session, data: ArenaData, match_id: int, stored_path: str | None) -> RecordIdentity | None:
    """The record's identity for caching, or None if it cannot be read (the reader says why)."""
    if not stored_path:
        return None
    size = stored_size(session, match_id, stored_name(stored_path))
    if size is not None:
        return (f"match_files:{match_id}:{stored_name(stored_path)}", size, 0)
    try:
        status = record_file(data, match_id, stored_path).stat()
    except (OSError, UnreadableRecordError):
        return None
    return (str(record_file(data, match_id, stored_path)), status.st_size, status.st_mtime_ns)


def read_record_bytes(session: Session, data: ArenaData, match_id: int, stored_path: str | None) -> bytes:
    """The record's bytes: its ``match_files`` row, else (a match stored before) its file in the
    data folder, checked on the open file itself (``data_files.read_inside``)."""
    record_file(data, match_id, stored_path)
    assert stored_path is not None
    try:
        stored = read_stored(session, match_id, stored_name(stored_path), MAX_RECORD_BYTES + 1)
    except DamagedFileError as exc:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path} {exc}") from None
    if stored is not None:
        if stored.size > MAX_RECORD_BYTES:
            raise UnreadableRecordError(f"match {match_id}: record {stored_path} is {stored.size} bytes, more than "
                                        f"it can be ({MAX_RECORD_BYTES}); not read")
        return stored.content
    try:
        return read_inside(data.root, stored_path, MAX_RECORD_BYTES, refuse_over=MAX_RECORD_BYTES).content
    except DataFileError as exc:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path} {exc}") from None


def read_match(session: Session, data: ArenaData, match_id: int, stored_path: str | None) -> MatchRecord:
    content = read_record_bytes(session, data, match_id, stored_path)
    assert stored_path is not None
    where = stored_path
    try:
        text = content.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UnreadableRecordError(f"match {match_id}: record {stored_path}: not UTF-8 text (byte {exc.start})") \
            from None
    try:
        lines = checked_lines(Path(where), match_record_lines(text, where))
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
