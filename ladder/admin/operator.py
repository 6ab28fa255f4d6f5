"""An operator's switches: disable or enable a bot or one version, void a played match.

A disabled bot (every version) or version is never scheduled again (``views.active_versions``
leaves it out), and the matches already queued with it are cancelled: marked void (``voided_at``
and a ``void_note`` that says why), never played, never rated. A match already being played
when the switch flips finishes and is rated as usual; void it afterwards if it must not count.
The leaderboard keeps showing a disabled version, marked. Enabling undoes the switch (the
cancelled matches stay cancelled; the scheduler makes new ones).

Voiding a played, rated match marks it void with the operator's reason and takes it out of every
rating and count, exactly (``ladder/admin/rerate.py``). Voiding it again changes nothing and says so.

Each action is one transaction that starts with its guarding ``UPDATE``, so it holds the store's
write lock before it reads what it changes: a ladder recording a result at the same moment waits
(SQLite) or is serialised on the rows it locks (PostgreSQL), and never interleaves. A void's
re-rating (seconds on a long history) is computed before that transaction, from a read, and
written only if no rating moved in between (``ladder/admin/rerate.py``), so the lock is held briefly.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from arena.engine.errors import ArenaError
from ladder.admin.rerate import Rerated, UndoPlan, apply_undo, plan_undo, ratings_mark
from ladder.rating.ratings import RatingEnv
from ladder.store.database import Store
from ladder.store.schema import Bot, BotVersion, Match, MatchStatus, Result, utcnow

TARGET_PATTERN = re.compile(r"^(?P<bot>[^@\s]{1,32})(?:@(?P<number>[1-9][0-9]{0,8}))?$")
PLAN_ATTEMPTS = 3
MAX_REASON = 500
"""Characters of an operator's reason for voiding a match (shown on the pages as plain text)."""


class OperatorError(ArenaError):
    """A malformed target or reason, or an action that cannot apply (voiding a match never rated)."""


class UnknownError(OperatorError):
    """A bot, version or match the store does not know."""


@dataclass(frozen=True, slots=True)
class Target:
    """A whole bot (``number`` None) or one of its versions (``BOT@N``)."""

    bot: str
    number: int | None = None

    def __str__(self) -> str:
        return self.bot if self.number is None else f"{self.bot}@{self.number}"

    @classmethod
    def parse(cls, spec: str) -> Target:
        found = TARGET_PATTERN.fullmatch(spec)
        if found is None:
            raise OperatorError(f"{spec!r}: name a bot (BOT) or one of its versions (BOT@N, N from 1)")
        number = found.group("number")
        return cls(found.group("bot"), int(number) if number else None)


@dataclass(frozen=True, slots=True)
class Switched:
    """What a disable or enable did."""

    target: Target
    changed: bool
    """False: it was already so (nothing changed)."""
    cancelled: tuple[int, ...] = ()
    """Queued matches cancelled by a disable."""


@dataclass(frozen=True, slots=True)
class Voided:
    """What a void did, or (``already``) when the match had been voided before."""

    match_id: int
    reason: str
    voided_at: datetime
    already: bool
    rerated: Rerated | None = None


def switched_line(done: Switched, verb: str) -> str:
    """What ``disable`` / ``enable`` did, in a line (the CLI prints it; the API returns it too)."""
    what = f"bot {done.target.bot} (every version)" if done.target.number is None else f"version {done.target}"
    if not done.changed:
        return f"{what} was already {verb}: nothing changed"
    line = f"{verb} {what}"
    if done.cancelled:
        ids = ", ".join(str(i) for i in done.cancelled)
        line += f"; {len(done.cancelled)} queued match(es) cancelled (void, never played, not rated): {ids}"
    return line


def check_reason(reason: str) -> str:
    """One printable line, 1 to ``MAX_REASON`` characters."""
    text = reason.strip()
    if not text:
        raise OperatorError("the reason is empty: say why the match is voided")
    if len(text) > MAX_REASON:
        raise OperatorError(f"the reason is {len(text)} characters long (at most {MAX_REASON})")
    if any(not character.isprintable() for character in text):
        raise OperatorError("the reason must be one line of printable text")
    return text


def _versions(session: Session, target: Target) -> tuple[Bot, list[BotVersion]]:
    bot = session.scalar(select(Bot).where(Bot.name == target.bot))
    if bot is None:
        raise UnknownError(f"no bot {target.bot!r} (see: dehla bots)")
    versions = list(session.scalars(select(BotVersion).where(BotVersion.bot_id == bot.id)
                                    .order_by(BotVersion.number)))
    if target.number is None:
        return bot, versions
    chosen = [v for v in versions if v.number == target.number]
    if not chosen:
        have = f"1 to {versions[-1].number}" if versions else "none"
        raise UnknownError(f"bot {target.bot!r} has no version {target.number} (its versions: {have})")
    return bot, chosen


def _cancel_queued(session: Session, version_ids: Sequence[int], target: Target) -> tuple[int, ...]:
    queued = Match.seated(version_ids) & (Match.status == MatchStatus.QUEUED)
    ids = tuple(session.scalars(select(Match.id).where(queued).order_by(Match.id)))
    if ids:
        session.execute(update(Match).where(Match.id.in_(ids), Match.status == MatchStatus.QUEUED)
                        .values(status=MatchStatus.VOID, voided_at=utcnow(),
                                void_note=f"cancelled before play: {target} was disabled by an operator"))
    return ids


def disable(store: Store, target: Target) -> Switched:
    """Stop scheduling ``target`` and cancel its queued matches."""
    with store.transaction() as session:
        now = utcnow()
        if target.number is None:  # the guard: takes the write lock before anything is read
            changed = session.execute(update(Bot).where(Bot.name == target.bot, Bot.disabled_at.is_(None))
                                      .values(disabled_at=now)).rowcount == 1  # type: ignore[attr-defined]
        else:
            version = select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id) \
                .where(Bot.name == target.bot, BotVersion.number == target.number).scalar_subquery()
            changed = session.execute(update(BotVersion).where(BotVersion.id == version,
                                                               BotVersion.disabled_at.is_(None))
                                      .values(disabled_at=now)).rowcount == 1  # type: ignore[attr-defined]
        _, versions = _versions(session, target)
        return Switched(target, changed, _cancel_queued(session, [v.id for v in versions], target))


def enable(store: Store, target: Target) -> Switched:
    """Let ``target`` be scheduled again (its cancelled matches stay cancelled)."""
    with store.transaction() as session:
        bot, versions = _versions(session, target)
        unit = bot if target.number is None else versions[0]
        changed = unit.disabled_at is not None
        unit.disabled_at = None
        return Switched(target, changed)


def void_match(store: Store, env: RatingEnv, match_id: int, reason: str) -> Voided:
    """Void the played match ``match_id``: it stops counting for every rating and count. The
    re-rating is planned without the write lock and written if no rating moved meanwhile;
    otherwise planned again (a ladder recording results between the two), up to ``PLAN_ATTEMPTS``."""
    text = check_reason(reason)
    for _ in range(PLAN_ATTEMPTS):
        with store.reading() as session:
            mark = ratings_mark(session)
            match = session.get(Match, match_id)
            if match is None:
                raise UnknownError(f"no match {match_id} (see: dehla ladder matches)")
            if match.status is not MatchStatus.DONE or match.voided_at is not None:
                return _not_voidable(match)
            result = session.scalar(select(Result).where(Result.match_id == match_id))
            assert result is not None, "a done match has its result (ladder/coordinator/results.py writes both)"
            plan = plan_undo(session, env, match, result)
        try:
            return _write_void(store, match_id, text, mark, plan)
        except _RatingsMoved:
            continue
    raise OperatorError(f"match {match_id}: the ratings kept moving while the void was computed (a ladder "
                        "recording results); nothing changed: try again, or stop the ladder first")


class _RatingsMoved(Exception):  # noqa: N818 - a signal to plan again, never shown
    """A rating moved between the plan and the write: the write is rolled back."""


def _write_void(store: Store, match_id: int, text: str, mark: tuple[int | None, int], plan: UndoPlan) -> Voided:
    with store.transaction() as session:
        now = utcnow()
        guard = session.execute(update(Match).where(Match.id == match_id, Match.status == MatchStatus.DONE,
                                                    Match.voided_at.is_(None))
                                .values(status=MatchStatus.VOID, voided_at=now, void_note=text))
        match = session.get_one(Match, match_id)
        if guard.rowcount != 1:  # type: ignore[attr-defined]  # voided by someone else meanwhile
            return _not_voidable(match)
        if ratings_mark(session) != (mark[0], mark[1] + 1):  # + 1: this match, voided just now
            raise _RatingsMoved
        apply_undo(session, match, plan)
        return Voided(match_id, text, now, False, plan.rerated)


def _not_voidable(match: Match) -> Voided:
    """A match voided before (a no-op, said so), or one that was never rated (an error)."""
    if match.voided_at is not None:
        return Voided(match.id, match.void_note or "", match.voided_at, True)
    why = {MatchStatus.QUEUED: "it is queued, not played yet", MatchStatus.RUNNING: "it is being played",
           MatchStatus.VOID: "it ended void (a platform fault) and was never rated",
           MatchStatus.FAILED: "it failed and was never rated"}.get(match.status, f"its status is {match.status}")
    raise OperatorError(f"match {match.id} cannot be voided: {why}")
