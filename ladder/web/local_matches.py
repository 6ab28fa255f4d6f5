"""The data folder's local matches (``dehla match`` records in ``DATA/local-matches/``) as the
pages show them: a list, a match's facts, its checked record.

Anyone who can write the folder can drop a file in it, so a file is untrusted: its id is its
name without ``.jsonl`` and must match ``LOCAL_MATCH_ID`` (no dot, slash or percent sign: an id
never names a file outside the folder), it is opened without following a link
(``data_files.read_inside``) and read whole only under the ladder's size cap, and its lines
are checked as ``dehla replay`` checks them (``stored_record.checked_record``, the ladder's own
reader). A file that fails is shown as unreadable, with why, on its row and its page; it never
breaks the list. Local matches are not rated: no ratings, no store rows.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from threading import Lock

from arena.console.serving import LOCAL_MATCH_ID, LOCAL_MATCH_PAGES, LOCAL_MATCHES
from arena.engine.errors import ArenaError
from arena.referee.match_record_lines import MatchEndLine, MatchStartLine, read_line
from ladder.web.data_files import DataFileError, read_inside
from ladder.web.hand_outcomes import hand_links
from ladder.web.live_tables import Watch, liveness, local_live
from ladder.web.local_models import LocalMatchDetail, LocalMatchList, LocalMatchSummary
from ladder.web.match_detail import TEAM_NAMES, move_times
from ladder.web.models import FaultDetail
from ladder.web.queries import NotFoundError
from ladder.web.stored_record import MAX_RECORD_BYTES, MatchRecord, UnreadableRecordError, checked_record

LocalIdentity = tuple[str, int, int]
"""(``local:<id>``, size, modification time in ns): a rewritten file is read again, never served
stale (the replay cache's key, ``replay_cache.RecordKey``)."""


@dataclass(frozen=True, slots=True)
class LocalFile:
    """A record file of the folder that has a valid id, as ``lstat`` saw it."""

    match_id: str
    size: int
    modified_ns: int

    @property
    def identity(self) -> LocalIdentity:
        return (f"local:{self.match_id}", self.size, self.modified_ns)


def folder(root: Path) -> Path:
    return root / LOCAL_MATCHES


def page_of(match_id: str) -> str:
    return f"/{LOCAL_MATCH_PAGES}/{match_id}"


def local_files(root: Path) -> list[LocalFile]:
    """The folder's record files with valid ids, newest first (links and other names left out)."""
    found: list[LocalFile] = []
    try:
        entries = list(os.scandir(folder(root)))
    except OSError:
        return []
    for entry in entries:
        stem, suffix = os.path.splitext(entry.name)
        if suffix != ".jsonl" or not LOCAL_MATCH_ID.fullmatch(stem):
            continue
        try:
            status = entry.stat(follow_symlinks=False)
        except OSError:
            continue
        if stat.S_ISREG(status.st_mode):
            found.append(LocalFile(stem, status.st_size, status.st_mtime_ns))
    found.sort(key=lambda file: (file.modified_ns, file.match_id), reverse=True)
    return found


def local_file(root: Path, match_id: str) -> LocalFile:
    """The file of ``match_id``; an id that is not valid, or names no regular file, is ``NotFoundError``."""
    if not LOCAL_MATCH_ID.fullmatch(match_id):
        raise NotFoundError(f"no local match {match_id!r}: not a match id")
    try:
        status = (folder(root) / f"{match_id}.jsonl").lstat()
    except OSError:
        raise NotFoundError(f"no local match {match_id}") from None
    if not stat.S_ISREG(status.st_mode):
        raise NotFoundError(f"no local match {match_id}: not a file")
    return LocalFile(match_id, status.st_size, status.st_mtime_ns)


def record_bytes(root: Path, match_id: str) -> bytes:
    """The record's bytes, read without following a link and under the size cap."""
    local_file(root, match_id)
    try:
        return read_inside(root, f"{LOCAL_MATCHES}/{match_id}.jsonl", MAX_RECORD_BYTES,
                           refuse_over=MAX_RECORD_BYTES).content
    except DataFileError as exc:
        raise UnreadableRecordError(f"local match {match_id}: record {exc}") from None


def read_local(root: Path, match_id: str) -> MatchRecord:
    """The checked record of ``match_id``: ``NotFoundError`` if there is none, ``UnreadableRecordError``
    (naming the line and the problem) if it fails a check."""
    content = record_bytes(root, match_id)
    return checked_record(content, f"{match_id}.jsonl", f"local match {match_id}")


class SummaryCache:
    """Rows already read, by file identity; a list of many files reads only the new or changed ones."""

    def __init__(self, capacity: int = 4096) -> None:
        self.capacity = capacity
        self._rows: OrderedDict[LocalIdentity, LocalMatchSummary] = OrderedDict()
        self._lock = Lock()

    def row(self, root: Path, file: LocalFile) -> LocalMatchSummary:
        with self._lock:
            if file.identity in self._rows:
                self._rows.move_to_end(file.identity)
                return self._rows[file.identity]
        row = summary_of(root, file)
        with self._lock:
            self._rows[file.identity] = row
            while len(self._rows) > self.capacity:
                self._rows.popitem(last=False)
        return row


def local_list(root: Path, cache: SummaryCache, page: int, per_page: int) -> LocalMatchList:
    """One page of the folder's local matches, newest first; a page past the last is ``NotFoundError``."""
    files = local_files(root)
    pages = max(1, math.ceil(len(files) / per_page))
    if page > pages:
        raise NotFoundError(f"no page {page} of local matches (there are {pages})")
    chosen = files[(page - 1) * per_page: page * per_page]
    return LocalMatchList(page=page, per_page=per_page, total=len(files), pages=pages,
                          matches=[with_live(root, cache.row(root, file)) for file in chosen])


def with_live(root: Path, row: LocalMatchSummary) -> LocalMatchSummary:
    """The row with its live page while the match runs, or ``abandoned`` once its referee died
    (its live file stopped beating); looked at on every list: not cached."""
    if row.status not in ("unfinished", None):
        return row
    watch = liveness(root, local_live(row.match_id))
    if watch is Watch.LIVE:
        return row.model_copy(update={"live": f"{page_of(row.match_id)}/live"})
    if watch is Watch.ABANDONED:
        return row.model_copy(update={"status": "abandoned"})
    return row


def summary_of(root: Path, file: LocalFile) -> LocalMatchSummary:
    """A list row from the record's first and last lines (checked as models; the hands are
    checked when its page is opened), or the reason it cannot be read."""
    row = LocalMatchSummary(match_id=file.match_id, page=page_of(file.match_id), modified=_when(file.modified_ns))
    try:
        content = record_bytes(root, file.match_id)
        lines = [line for line in content.decode("utf-8").splitlines() if line.strip()]
        if not lines:
            raise UnreadableRecordError("the record is empty")
        start = read_line(_object(lines[0], 1), f"{file.match_id}.jsonl:1")
        end = read_line(_object(lines[-1], len(lines)), f"{file.match_id}.jsonl:{len(lines)}")
    except UnicodeDecodeError as exc:
        return row.model_copy(update={"problem": f"not UTF-8 text (byte {exc.start})"})
    except (ArenaError, ValueError) as exc:
        return row.model_copy(update={"problem": str(exc)})
    if not isinstance(start, MatchStartLine):
        return row.model_copy(update={"problem": "the first line is not a match_start line"})
    end = end if isinstance(end, MatchEndLine) else None
    return row.model_copy(update=_facts(start, end, hands=len(lines) - (2 if end is not None else 1)))


def local_detail(root: Path, match_id: str, *, show_evidence: bool) -> LocalMatchDetail:
    """A local match's page: the record's facts, faults, move times and hands, or why its record
    cannot be read (``NotFoundError`` only when there is no such file). Fault evidence (what a bot
    said) only when ``show_evidence``: a local match may seat a submitted bot, whose words are its
    author's."""
    file = local_file(root, match_id)
    row = LocalMatchSummary(match_id=match_id, page=page_of(match_id), modified=_when(file.modified_ns))
    try:
        record = read_local(root, match_id)
    except UnreadableRecordError as exc:
        return LocalMatchDetail(match=row, record_problem=str(exc))
    row = with_live(root, row.model_copy(update=_facts(record.start, record.end, hands=len(record.hands))))
    end = record.end
    names = record.start.seats
    faults = [FaultDetail(seat=f.seat, bot=names[f.seat] if 0 <= f.seat < len(names) else "?", kind=f.kind,
                          detail=f.detail, hand=f.hand, decision=f.decision,
                          evidence=f.evidence if show_evidence else None,
                          evidence_withheld=bool(f.evidence) and not show_evidence)
              for f in (end.faults if end else [])]
    links = hand_links(record, page_of(match_id))
    return LocalMatchDetail(
        match=row, seed=record.start.seed, seats=list(names),
        forfeit_team=TEAM_NAMES[end.forfeit_team] if end and end.forfeit_team in (0, 1) else None,
        void_reason=end.void_reason if end else None, deal_scores=end.deal_scores if end else None,
        faults=faults, move_times=move_times(record), hand_links=links, record=f"{page_of(match_id)}/record")


def _facts(start: MatchStartLine, end: MatchEndLine | None, hands: int) -> dict[str, object]:
    winner = None
    if end is not None and end.status == "done":
        winner = "draw" if end.winner_team is None else TEAM_NAMES[end.winner_team] if end.winner_team in (0, 1) \
            else None
    return {
        "preset": start.preset, "match_format": start.format,
        "team_a": partnership(start.seats, 0), "team_b": partnership(start.seats, 1),
        "status": end.status.value if end is not None else "unfinished",
        "score": (end.score[0], end.score[1]) if end is not None and len(end.score) == 2 else None,
        "winner": winner, "hands": end.hands_played if end is not None and end.hands_played is not None else hands,
        "faults": len(end.faults) if end is not None else 0,
    }


def partnership(seats: list[str], team: int) -> str:
    """A partnership's name as ``dehla match`` gives it: the bot, or ``A+B`` for a mixed pair."""
    members = [seats[seat] for seat in (team, team + 2) if seat < len(seats)]
    return members[0] if len(members) == 2 and members[0] == members[1] else "+".join(members) or "?"


def _object(text: str, number: int) -> dict[str, object]:
    try:
        parsed = json.loads(text)
    except ValueError:
        raise ValueError(f"line {number} is not JSON") from None
    if not isinstance(parsed, dict):
        raise ValueError(f"line {number}: expected an object with a 'type'")
    return parsed


def _when(modified_ns: int) -> str:
    return datetime.fromtimestamp(modified_ns / 1e9, UTC).strftime("%Y-%m-%d %H:%M")
