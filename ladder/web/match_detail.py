"""A match's page and its API: the store's row and result, and what its checked record adds
(faults with their evidence, move times per seat, the hands to replay)."""

from __future__ import annotations

import math
from typing import Literal

from sqlalchemy import select
from sqlalchemy.orm import Session

from ladder.store.read_model import lines_of
from ladder.store.schema import FaultRow, Match, Result
from ladder.web.hand_outcomes import hand_links
from ladder.web.models import FaultDetail, MatchDetail, SeatTimes
from ladder.web.queries import NotFoundError, summary
from ladder.web.stored_record import MatchRecord, UnreadableRecordError, read_match

TEAM_NAMES: tuple[Literal["A"], Literal["B"]] = ("A", "B")
"""Partnership A (seats 0 and 2) and B (seats 1 and 3), by team index."""
EVIDENCE_SHOWN = 2000
"""Characters of a fault's evidence the page shows (bot text: escaped, and capped)."""


def percentile(sorted_ms: list[float], fraction: float) -> float:
    """The nearest-rank percentile of a sorted, non-empty list."""
    return sorted_ms[max(0, math.ceil(fraction * len(sorted_ms)) - 1)]


def move_times(record: MatchRecord) -> list[SeatTimes]:
    times: dict[int, list[float]] = {seat: [] for seat in range(len(record.start.seats))}
    for hand in record.hands:
        for decision in hand.decisions:
            times.setdefault(decision.seat, []).append(decision.ms)
    rows = []
    for seat, ms in sorted(times.items()):
        ms.sort()
        name = record.start.seats[seat] if seat < len(record.start.seats) else f"seat {seat}"
        rows.append(SeatTimes(seat=seat, bot=name, decisions=len(ms),
                              p50_ms=round(percentile(ms, 0.5), 2) if ms else None,
                              p95_ms=round(percentile(ms, 0.95), 2) if ms else None,
                              max_ms=round(ms[-1], 2) if ms else None))
    return rows


def match_detail(session: Session, match_id: int) -> MatchDetail:
    """The match's facts; an unreadable record leaves the store's facts and says why."""
    found = session.execute(select(Match, Result).outerjoin(Result, Result.match_id == Match.id)
                            .where(Match.id == match_id)).first()
    if found is None:
        raise NotFoundError(f"no match {match_id}")
    match, result = found
    [line] = lines_of(session, [(match, result)])
    stored_faults = list(session.scalars(select(FaultRow).where(FaultRow.match_id == match_id).order_by(FaultRow.id)))
    bots = {name.version_id: name.bot for name in line.seats}
    faults = [FaultDetail(seat=f.seat, bot=bots[f.version_id], kind=f.kind, detail=f.detail) for f in stored_faults]
    record: MatchRecord | None = None
    problem = None
    if match.record_path is None:
        problem = f"match {match_id} has no record yet" if result is None else f"match {match_id} kept no record"
    else:
        try:
            record = read_match(session, match_id, match.record_path)
        except UnreadableRecordError as exc:
            problem = str(exc)
    if record is not None and record.end is not None:
        faults = [FaultDetail(seat=f.seat, bot=line.seats[f.seat].bot if 0 <= f.seat < 4 else "?",
                              kind=f.kind, detail=f.detail, hand=f.hand, decision=f.decision,
                              evidence=f.evidence[:EVIDENCE_SHOWN] if f.evidence else None)
                  for f in record.end.faults]
    links = hand_links(record, f"/matches/{match_id}") if record else []
    return MatchDetail(
        match=summary(line), seed=match.seed,
        hands=result.hands if result else None, seconds=round(result.seconds, 2) if result else None,
        forfeit_team=TEAM_NAMES[result.forfeit_team] if result and result.forfeit_team is not None else None,
        void_reason=result.void_reason if result else None, error=match.error,
        deal_scores=result.deal_scores if result else None, faults=faults,
        move_times=move_times(record) if record else [], hand_links=links,
        record=f"/matches/{match_id}/record" if record else None, record_problem=problem)


def record_path(session: Session, match_id: int) -> str:
    """The stored record path of a match that exists and has one, else ``NotFoundError``."""
    match = session.get(Match, match_id)
    if match is None:
        raise NotFoundError(f"no match {match_id}")
    if match.record_path is None:
        raise NotFoundError(f"match {match_id} has no record")
    return match.record_path
