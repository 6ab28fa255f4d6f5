"""Recording a match report: result, faults and rating updates in one transaction, once.

The guard is the status change itself: ``UPDATE matches SET status = 'done' WHERE id = ? AND
status = 'running' AND attempt = ?``. A second report of the same result, or a late report
from a worker whose match was already given back to the queue, changes no row and is ignored,
so a match counts exactly once. The match's files (record, seat logs) are stored as
``match_files`` rows in the same transaction, so a stale attempt stores nothing and a counted
one never lacks them (``ladder/store/match_files.py``); so are the timing-leak detector's figures
(``ladder/store/timing_leaks.py``). A void match (platform fault) is recorded but rates nobody; a
forfeit is a loss for the faulty side (the referee has already named the winner).

Ratings move once per *game* (``games_of``): each deal pair of a duplicate match, in order, won
by the sign of its score (the hands' values; a bidding game's, Twenty-eight's, its game points).
A forfeit keeps the deal pairs finished before it and counts every deal not finished as lost
by the faulty side, so forfeiting never pays. A match in another format (``tens:N`` and the
others ``dehla ladder run --format`` offers) is one game, won by the match's winner.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from arena.contract.status import OutcomeStatus
from arena.engine.match import FormatKind, MatchFormat
from ladder.execution.jobs import MatchReport
from ladder.rating.ratings import Outcome, RatingEnv
from ladder.store.match_files import store_files
from ladder.store.report_files import accepted, record_name
from ladder.store.schema import (
    BotVersion,
    FaultRow,
    Match,
    MatchStatus,
    Partnership,
    PresetCounts,
    RatingChange,
    Result,
    utcnow,
)
from ladder.store.timing_leaks import measure, store_leaks


def outcome_of(report: MatchReport) -> Outcome:
    return winner_outcome(report.winner_team)


def winner_outcome(winner_team: int | None) -> Outcome:
    """The match's result for partnership A from the winning team (``None``: a draw)."""
    if winner_team is None:
        return Outcome.DRAW
    return Outcome.A_WINS if winner_team == 0 else Outcome.B_WINS


def sign_outcome(margin: float) -> Outcome:
    """A result for partnership A from its margin (positive: A won)."""
    if margin == 0:
        return Outcome.DRAW
    return Outcome.A_WINS if margin > 0 else Outcome.B_WINS


def games_of(report: MatchReport, match_format: MatchFormat) -> list[Outcome]:
    """The rated games of a finished match, in the order they were played."""
    return rated_games(match_format, report.winner_team, report.deal_scores, report.forfeit_team)


def rated_games(match_format: MatchFormat, winner_team: int | None, deal_scores: Sequence[float],
                forfeit_team: int | None) -> list[Outcome]:
    """``games_of`` from a match's facts, as a report carries them or as ``results`` stores them
    (re-rating after a void, ``ladder/admin/rerate.py``, rates exactly what was rated)."""
    if match_format.kind is not FormatKind.DUPLICATE:
        return [winner_outcome(winner_team)]
    games = [sign_outcome(margin) for margin in deal_scores]
    if forfeit_team is not None:
        lost = Outcome.B_WINS if forfeit_team == 0 else Outcome.A_WINS
        games += [lost] * max(1, match_format.count - len(games))
    if not games:  # a duplicate match that reported no deal pairs: rate its result
        games = [winner_outcome(winner_team)]
    return games


RatedRows = tuple[dict[int, BotVersion], dict[int, Partnership]]


def lock_rated(session: Session, version_ids: Iterable[int], partnership_ids: Iterable[int]) -> RatedRows:
    """The rows a rating changes (versions, then partnerships, each by id), locked before any is
    changed: two coordinators rating the same bots take them in one order, never in a cycle. The
    lock is ``FOR NO KEY UPDATE``, which a new match's or partnership's foreign key check (``FOR
    KEY SHARE`` on the versions it names) never waits for: with ``FOR UPDATE`` a coordinator
    scheduling a match and another rating one deadlocked (``tests/ladder/test_rating_locks.py``).
    SQLite has one writer and ignores it."""
    versions = {v.id: v for v in session.scalars(
        select(BotVersion).where(BotVersion.id.in_(set(version_ids))).order_by(BotVersion.id)
        .with_for_update(key_share=True))}
    pairs = {p.id: p for p in session.scalars(
        select(Partnership).where(Partnership.id.in_(set(partnership_ids))).order_by(Partnership.id)
        .with_for_update(key_share=True))}
    return versions, pairs


def record_report(session: Session, env: RatingEnv, report: MatchReport) -> bool:
    """Store a worker's report; False (and no change) if it is a repeat or stale."""
    now = utcnow()
    files = accepted(report.files, report.match_id)
    record = record_name(report.match_id)
    leaks = measure(files, record)  # before any statement: no lock is held while it replays
    changed = session.execute(
        update(Match)
        .where(Match.id == report.match_id, Match.status == MatchStatus.RUNNING,
               Match.attempt == report.attempt)
        .values(status=MatchStatus.finished(report.status), finished_at=now, lease_owner=None,
                record_path=record if any(file.name == record for file in files) else None)
    )
    if changed.rowcount != 1:  # type: ignore[attr-defined]
        return False
    match = session.get_one(Match, report.match_id)
    rows = lock_rated(session, match.seats, (match.team_a_id, match.team_b_id))
    store_files(session, match.id, files)
    store_leaks(session, match.id, match.seats, leaks)
    session.add(Result(match_id=match.id, status=report.status, winner_team=report.winner_team,
                       score_a=report.score[0], score_b=report.score[1], hands=report.hands,
                       forfeit_team=report.forfeit_team, void_reason=report.void_reason, seconds=report.seconds,
                       deal_scores=list(report.deal_scores)))
    faulty: set[int] = set()
    for fault in report.faults:
        version = match.seats[fault.seat]
        faulty.add(version)
        session.add(FaultRow(match_id=match.id, version_id=version, seat=fault.seat, kind=fault.kind,
                             detail=fault.detail[:2000]))
    if report.status is OutcomeStatus.DONE:
        _rate(session, env, match, rows, outcome_of(report), games_of(report, match.match_format), faulty, now)
    return True


def _rate(session: Session, env: RatingEnv, match: Match, rows: RatedRows, outcome: Outcome, games: list[Outcome],
          faulty: set[int], now: datetime) -> None:
    """Move the ratings over the match's games (``rows`` locked); the counters and history keep
    the match's result."""
    team_a, team_b = match.teams
    versions, pair = rows
    skills = {vid: v.skill for vid, v in versions.items()}
    updated = env.rate_versions_series(team_a, team_b, skills, games)
    for team_index, team in enumerate((team_a, team_b)):
        result = outcome.for_team(team_index)
        for vid in dict.fromkeys(team):  # the self-partner rule: a version counts once
            version, new = versions[vid], updated[vid]
            session.add(RatingChange(match_id=match.id, version_id=vid, mu_before=version.mu,
                                     sigma_before=version.sigma, mu_after=new.mu, sigma_after=new.sigma,
                                     outcome=result))
            version.count_match(result, new, now)
            version.faults += vid in faulty
            _preset_counts(session, match.preset, vid).count_match(result, vid in faulty, now)
    a, b = pair[match.team_a_id], pair[match.team_b_id]
    new_a, new_b = env.rate_partnerships_series(a.skill, b.skill, games)
    for team_index, (unit, new) in enumerate(((a, new_a), (b, new_b))):
        result = outcome.for_team(team_index)
        session.add(RatingChange(match_id=match.id, partnership_id=unit.id, mu_before=unit.mu,
                                 sigma_before=unit.sigma, mu_after=new.mu, sigma_after=new.sigma, outcome=result))
        unit.count_match(result, new, now)


def _preset_counts(session: Session, preset: str, version_id: int) -> PresetCounts:
    """The version's counts in ``preset``, created at zero on its first match there. The version's
    row is already locked (``lock_rated``), so two reports never race to create it."""
    counts = session.get(PresetCounts, (preset, version_id), with_for_update={"key_share": True})
    if counts is None:
        counts = PresetCounts(preset=preset, version_id=version_id, matches=0, wins=0, draws=0, faults=0)
        session.add(counts)
    return counts
