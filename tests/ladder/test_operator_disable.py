"""Disabling a bot or a version: never scheduled again, its queued matches cancelled (void, never
played, not rated), still on the leaderboard, marked; enabling lets it play again."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from sqlalchemy import ColumnElement, or_, select
from sqlalchemy.orm import Session

from ladder.admin.operator import OperatorError, Target, disable, enable
from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings, enqueue, entries
from ladder.execution.executors import InlineExecutor
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Mode, Pairing, Scheduler
from ladder.store.database import Store
from ladder.store.read_model import matches, ranking
from ladder.store.schema import Bot, BotVersion, Match, MatchStatus
from tests.ladder_helpers import add_bots, fake_play, open_store


def run(store: Store, count: int, seed: int) -> None:
    env = RatingEnv()
    LadderRun(store, env, Scheduler(env, Mode.MIXED, random.Random(seed)), MatchSettings(runner="local"),
              InlineExecutor, workers=1, play=fake_play, rng=random.Random(seed)).run(StopRule(matches=count))


def version_of(session: Session, bot: str) -> int:
    return session.scalars(select(BotVersion.id).join(Bot, Bot.id == BotVersion.bot_id).where(Bot.name == bot)).one()


def with_version(version: int) -> ColumnElement[bool]:
    return or_(Match.seat0_id == version, Match.seat1_id == version, Match.seat2_id == version,
               Match.seat3_id == version)


@pytest.mark.parametrize("target", ["s4", "s4@1"])
def test_a_disabled_bot_or_version_is_never_scheduled_and_its_queued_matches_are_cancelled(
        tmp_path: Path, target: str) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2", "s3", "s4"], tmp_path / "src")
    with store.reading() as session:
        s1, s2, s3, s4 = (version_of(session, name) for name in ("s1", "s2", "s3", "s4"))
    env = RatingEnv()
    with store.transaction() as session:
        queued = enqueue(session, env, Pairing((s4, s4), (s1, s1)), 7, MatchSettings()).id
        other = enqueue(session, env, Pairing((s2, s2), (s3, s3)), 8, MatchSettings()).id
    done = disable(store, Target.parse(target))
    assert done.changed and done.cancelled == (queued,)
    run(store, 12, seed=3)
    with store.reading() as session:
        assert s4 not in {entry.version for entry in entries(session)}
        cancelled = session.get_one(Match, queued)
        assert (cancelled.status, cancelled.attempt) == (MatchStatus.VOID, 0)  # never leased
        assert cancelled.void_note is not None and f"{target} was disabled" in cancelled.void_note
        assert session.get_one(Match, other).status is MatchStatus.DONE  # others' queued matches play
        assert list(session.scalars(select(Match.id).where(with_version(s4)))) == [queued]
        rows = {row.bot: row for row in ranking(session)}
        assert rows["s4"].disabled and not rows["s1"].disabled and rows["s4"].matches == 0
        assert [row.bot for row in ranking(session, enabled_only=True)] != [] and \
            "s4" not in [row.bot for row in ranking(session, enabled_only=True)]
        shown = {row.match_id: row for row in matches(session)}
        assert shown[queued].shown_status == "voided" and shown[queued].winner is None

    assert not disable(store, Target.parse(target)).changed  # already so: says so, changes nothing
    assert enable(store, Target.parse(target)).changed
    assert not enable(store, Target.parse(target)).changed
    run(store, 12, seed=4)
    with store.reading() as session:
        assert len(list(session.scalars(select(Match.id).where(with_version(s4))))) > 1  # plays again
        assert session.get_one(Match, queued).status is MatchStatus.VOID  # a cancelled match stays cancelled


def test_the_ladder_stops_when_fewer_than_two_bots_may_play(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2"], tmp_path / "src")
    disable(store, Target("s2"))
    run(store, 5, seed=1)
    with store.reading() as session:
        assert list(session.scalars(select(Match.id))) == []


@pytest.mark.parametrize(("spec", "message"), [
    ("nobody", "no bot 'nobody'"), ("s1@2", "bot 's1' has no version 2 (its versions: 1 to 1)"),
])
def test_an_unknown_target_is_refused(tmp_path: Path, spec: str, message: str) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1"], tmp_path / "src")
    for action in (disable, enable):
        with pytest.raises(OperatorError, match=message.replace("(", r"\(").replace(")", r"\)")):
            action(store, Target.parse(spec))


@pytest.mark.parametrize("spec", ["", "s1@0", "s1@", "s1@x", "@1", "a b", "s1@1@2"])
def test_a_malformed_target_is_refused(spec: str) -> None:
    with pytest.raises(OperatorError, match="name a bot"):
        Target.parse(spec)


def test_until_stable_looks_only_at_the_versions_that_may_still_play(tmp_path: Path) -> None:
    """A disabled version never plays again, so it never settles: counting it would keep an
    ``--until-stable`` run going to its safety cap."""
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s3", "s5", "s9"], tmp_path / "src")
    disable(store, Target("s9"))
    env = RatingEnv()
    summary = LadderRun(store, env, Scheduler(env, Mode.SELF, random.Random(5), settle_matches=4),
                        MatchSettings(runner="local"), InlineExecutor, workers=1, play=fake_play,
                        rng=random.Random(5)).run(StopRule(until_stable=True, window=3, safety_cap=80))
    assert summary.stable and summary.counted < 80
