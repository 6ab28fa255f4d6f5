"""Undoing a rated match: the ratings as if it had never been played.

TrueSkill is sequential: a match's update depends on the ratings its players brought, so taking
one match out changes every later rating of everyone it touched, and of everyone they later met.
The exact undo re-computes, in the original order (the order the results were recorded:
``results.id``), every rated match after the voided one, from the ratings each subject had just
before it (the ``mu_before``/``sigma_before`` of its first rating change from there on: what
came earlier is unchanged, so it need not be recomputed). A later match whose players all still
have the ratings they had is left as it is: the update is a pure function of those ratings, so
re-computing it would give the same numbers bit for bit. Versions and partnerships are rated
separately (``ladder/coordinator/results.py``), so each keeps its own set of changed subjects.

The counts (matches, wins, draws, losses, faults, ``preset_counts``, last played) do not depend
on order: the voided match's share is taken off them.

The re-rating is the slow part (TrueSkill, milliseconds a game: ``bench/void.py``), so it is
planned from a read of the store without holding its write lock (``plan_undo``), and written in
one short transaction (``apply_undo``) only if no rating moved meanwhile (``ratings_mark``);
``ladder/admin/operator.py`` plans again if one did. A ladder recording results is never made to wait
for the arithmetic.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import ColumnElement, delete, func, or_, select, update
from sqlalchemy.orm import Session

from ladder.coordinator.results import lock_rated, rated_games
from ladder.rating.ratings import RatingEnv, Skill, TeamResult
from ladder.store.schema import (
    BotVersion,
    FaultRow,
    Match,
    MatchStatus,
    Partnership,
    PresetCounts,
    Rated,
    RatingChange,
    Result,
)

Subject = tuple[str, int]
"""``("v", version id)`` or ``("p", partnership id)``."""


@dataclass(frozen=True, slots=True)
class Rerated:
    """What undoing a match changed."""

    later_matches: int
    """Rated matches recorded after the voided one."""
    recomputed: int
    """Of those, the ones whose ratings moved (a player's rating had changed)."""


@dataclass(frozen=True, slots=True)
class UndoPlan:
    """The ratings without one match, computed from a read of the store (no lock held)."""

    match_id: int
    history: dict[int, tuple[float, float, float, float]]
    """New ``mu_before, sigma_before, mu_after, sigma_after`` of the later rating-history rows that move."""
    skills: dict[Subject, Skill]
    """The rating every subject of the voided or a later match ends with."""
    rerated: Rerated


def _subject(change: RatingChange) -> Subject:
    return ("v", change.version_id) if change.version_id is not None else ("p", change.partnership_id or 0)


def _seated(version_id: int) -> ColumnElement[bool]:
    return Match.seated([version_id])


def ratings_mark(session: Session) -> tuple[int | None, int]:
    """What moves when any rating moves: the newest result and the number of voided matches. A
    plan made at one mark applies only while the store is still at it."""
    newest = session.scalar(select(func.max(Result.id)))
    voided = session.scalar(select(func.count()).select_from(Match).where(Match.voided_at.is_not(None))) or 0
    return newest, voided


def plan_undo(session: Session, env: RatingEnv, match: Match, result: Result) -> UndoPlan:
    """The re-rating of every rated match after ``match`` as if it had not been played."""
    later = list(session.execute(
        select(Match, Result).join(Result, Result.match_id == Match.id)
        .where(Result.id > result.id, Match.status == MatchStatus.DONE).order_by(Result.id)))
    ids = [match.id, *(m.id for m, _ in later)]
    changes: dict[int, list[RatingChange]] = {mid: [] for mid in ids}
    for change in session.scalars(select(RatingChange).where(RatingChange.match_id.in_(ids))
                                  .order_by(RatingChange.id)):
        changes[change.match_id].append(change)
    current: dict[Subject, Skill] = {}
    for mid in ids:  # each subject's rating just before the voided match, or before its first later one
        for change in changes[mid]:
            current.setdefault(_subject(change), Skill(change.mu_before, change.sigma_before))
    changed = {_subject(change) for change in changes[match.id]}
    history: dict[int, tuple[float, float, float, float]] = {}
    recomputed = 0
    for later_match, later_result in later:
        recomputed += _rerate(env, later_match, later_result, changes[later_match.id], current, changed, history)
    return UndoPlan(match.id, history, current, Rerated(len(later), recomputed))


def apply_undo(session: Session, match: Match, plan: UndoPlan) -> None:
    """Write ``plan`` (in the transaction that voided ``match``, holding the write lock)."""
    versions, pairs = lock_rated(session, [i for kind, i in plan.skills if kind == "v"],
                                 [i for kind, i in plan.skills if kind == "p"])
    voided_rows = list(session.scalars(select(RatingChange).where(RatingChange.match_id == match.id)))
    _take_off_counts(session, match, voided_rows, versions, pairs)
    session.execute(delete(RatingChange).where(RatingChange.match_id == match.id))
    if plan.history:
        session.execute(update(RatingChange), [
            {"id": row_id, "mu_before": values[0], "sigma_before": values[1], "mu_after": values[2],
             "sigma_after": values[3]} for row_id, values in plan.history.items()])
    for (kind, sid), skill in plan.skills.items():
        unit: Rated = versions[sid] if kind == "v" else pairs[sid]
        unit.mu, unit.sigma = skill.mu, skill.sigma


def _rerate(env: RatingEnv, match: Match, result: Result, rows: list[RatingChange], current: dict[Subject, Skill],
            changed: set[Subject], history: dict[int, tuple[float, float, float, float]]) -> bool:
    """Re-rate one later match where one of its players' ratings moved; True if it did."""
    team_a, team_b = match.teams
    games = rated_games(match.match_format, result.winner_team, result.deal_scores or (), result.forfeit_team)
    version_subjects = {("v", v) for v in (*team_a, *team_b)}
    pair_subjects = {("p", match.team_a_id), ("p", match.team_b_id)}
    moved = False
    new: dict[Subject, Skill] = {}
    if version_subjects & changed:
        rated = env.rate_versions_series(team_a, team_b, {v: current[("v", v)] for v in (*team_a, *team_b)}, games)
        new.update({("v", v): skill for v, skill in rated.items()})
        changed |= version_subjects
        moved = True
    if pair_subjects & changed:
        a, b = env.rate_partnerships_series(current[("p", match.team_a_id)], current[("p", match.team_b_id)], games)
        new.update({("p", match.team_a_id): a, ("p", match.team_b_id): b})
        changed |= pair_subjects
        moved = True
    for row in rows:
        subject = _subject(row)
        if subject in new:
            before, after = current[subject], new[subject]
            history[row.id] = (before.mu, before.sigma, after.mu, after.sigma)
            current[subject] = after
        else:
            current[subject] = Skill(row.mu_after, row.sigma_after)
    return moved


def _take_off_counts(session: Session, match: Match, rows: Iterable[RatingChange], versions: dict[int, BotVersion],
                     pairs: dict[int, Partnership]) -> None:
    """The voided match's share of every count, and last played, as if it had not been played."""
    faulty = set(session.scalars(select(FaultRow.version_id).where(FaultRow.match_id == match.id)))
    for row in rows:
        if row.version_id is not None:
            version = versions[row.version_id]
            _uncount(version, row.outcome)
            version.faults -= row.version_id in faulty
            version.last_played_at = _last_played(session, _seated(row.version_id))
            _uncount_preset(session, match.preset, row.version_id, row.outcome, row.version_id in faulty)
        elif row.partnership_id is not None:
            unit = pairs[row.partnership_id]
            _uncount(unit, row.outcome)
            unit.last_played_at = _last_played(session, or_(Match.team_a_id == unit.id, Match.team_b_id == unit.id))


def _uncount(unit: Rated, outcome: TeamResult) -> None:
    unit.matches -= 1
    unit.wins -= outcome is TeamResult.WIN
    unit.draws -= outcome is TeamResult.DRAW
    unit.losses -= outcome is TeamResult.LOSS


def _uncount_preset(session: Session, preset: str, version_id: int, outcome: TeamResult, faulted: bool) -> None:
    counts = session.get(PresetCounts, (preset, version_id), with_for_update={"key_share": True})
    if counts is None:  # a store whose counts were never kept for this match: nothing to take off
        return
    counts.matches -= 1
    counts.wins -= outcome is TeamResult.WIN
    counts.draws -= outcome is TeamResult.DRAW
    counts.faults -= faulted
    if counts.matches <= 0:  # as if it had never played the preset: no row
        session.delete(counts)
        return
    counts.last_played_at = _last_played(session, _seated(version_id) & (Match.preset == preset))


def _last_played(session: Session, where: ColumnElement[bool]) -> datetime | None:
    """When the newest rated match matching ``where`` was recorded (``ladder/coordinator/results.py`` counts
    a match as played at the time it records it, its ``finished_at``)."""
    return session.scalar(select(func.max(Match.finished_at)).where(where, Match.status == MatchStatus.DONE))
