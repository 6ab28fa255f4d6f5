"""Fault evidence (what a bot said: its status text, its log's tail) for the viewer who may see it.

The referee keeps it in the match record for the bot's author (``arena/contract/faults.py``);
the match page, its API and the record download give each viewer the evidence of the seats whose
bots they may read (``bot_logs.may_see_logs``) and leave the rest out.
"""

from __future__ import annotations

import json

from sqlalchemy.orm import Session

from ladder.admin.authors import AuthorView
from ladder.store.schema import Match
from ladder.web.bot_logs import visible_seats
from ladder.web.data_files import DataFileError
from ladder.web.match_detail import match_detail, record_path
from ladder.web.models import MatchDetail
from ladder.web.stored_record import UnreadableRecordError, read_record_bytes


def withhold_evidence(detail: MatchDetail, seats: frozenset[int]) -> MatchDetail:
    """The match's facts with the evidence of faults of seats outside ``seats`` taken out."""
    faults = [fault if fault.seat in seats or not fault.evidence
              else fault.model_copy(update={"evidence": None, "evidence_withheld": True})
              for fault in detail.faults]
    return detail.model_copy(update={"faults": faults})


def withhold_record_evidence(content: bytes, seats: frozenset[int]) -> bytes:
    """A match record with the evidence of faults of seats outside ``seats`` removed; every other
    line as stored. A line that is not JSON cannot be checked, so the record is not served."""
    lines = content.split(b"\n")
    for number, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            parsed = json.loads(line)
        except ValueError:
            raise DataFileError(f"line {number + 1} is not JSON; not served (it cannot be checked for bot logs)") \
                from None
        if not isinstance(parsed, dict) or parsed.get("type") != "match_end":
            continue
        faults = parsed.get("faults")
        if not isinstance(faults, list):
            continue
        changed = False
        for fault in faults:
            seat = fault.get("seat") if isinstance(fault, dict) else None
            if isinstance(fault, dict) and "evidence" in fault and not (type(seat) is int and seat in seats):
                fault["evidence"] = None
                changed = True
        if changed:
            lines[number] = json.dumps(parsed, separators=(",", ":")).encode()
    return b"\n".join(lines)


def viewed_match_detail(session: Session, match_id: int, viewer: AuthorView | None) -> MatchDetail:
    """The match page's facts as ``viewer`` may see them (fault evidence of their own bots only)."""
    detail = match_detail(session, match_id)
    match = session.get(Match, match_id)
    assert match is not None  # match_detail found it
    return withhold_evidence(detail, visible_seats(session, match, viewer))


def viewed_record(session: Session, match_id: int, viewer: AuthorView | None) -> bytes:
    """The match record as stored, less the fault evidence of bots ``viewer`` does not own."""
    content = read_record_bytes(session, match_id, record_path(session, match_id))
    match = session.get(Match, match_id)
    assert match is not None
    seats = visible_seats(session, match, viewer)
    if seats == frozenset(range(4)):
        return content
    try:
        return withhold_record_evidence(content, seats)
    except DataFileError as exc:
        raise UnreadableRecordError(f"match {match_id}: record {match.record_path}: {exc}") from None
