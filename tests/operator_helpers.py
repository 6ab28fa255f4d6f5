"""Shared helpers of the operator tests: a ladder history played straight into a store."""

from __future__ import annotations

from dataclasses import dataclass

from ladder.coordinator.queue import MatchSettings, enqueue, lease
from ladder.coordinator.results import record_report
from ladder.execution.jobs import MatchReport, SeatFault
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.database import Store


@dataclass(frozen=True)
class Played:
    """One match of a generated history and what its worker reported."""

    pairing: Pairing
    preset: str
    match_format: str
    status: str
    winner_team: int | None
    deal_scores: tuple[float, ...]
    forfeit_team: int | None
    faults: tuple[SeatFault, ...]


def play_history(store: Store, history: list[Played], skip: int | None = None) -> list[int]:
    """Schedule every match of ``history`` in order and record each one's report, except
    ``skip``'s (it stays queued: scheduled, never played): the match ids."""
    env = RatingEnv()
    ids = []
    for index, match in enumerate(history):
        with store.transaction() as session:
            queued = enqueue(session, env, match.pairing, 1000 + index,
                             MatchSettings(preset=match.preset, match_format=match.match_format, runner="local"))
            match_id = queued.id
        ids.append(match_id)
        if index == skip:
            continue
        with store.transaction() as session:
            attempt = lease(session, match_id, "test")
            assert attempt is not None
            report = MatchReport(match_id, attempt, match.status, match.winner_team if match.status == "done" else None,
                                 (1.0, 0.0), 4, forfeit_team=match.forfeit_team if match.status == "done" else None,
                                 faults=match.faults, deal_scores=match.deal_scores,
                                 void_reason="PlatformError: x" if match.status == "void" else None)
            assert record_report(session, env, report)
    return ids
