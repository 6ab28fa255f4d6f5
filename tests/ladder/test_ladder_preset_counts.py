"""Each version's counts per rules preset (``preset_counts``), kept as results are recorded and
backfilled by migration 0005, equal what summing the rating history and the faults gives."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path
from typing import Any

from alembic import command
from sqlalchemy import case, create_engine, distinct, func, select
from sqlalchemy.orm import Session

from ladder.coordinator.loop import LadderRun, StopRule
from ladder.coordinator.queue import MatchSettings
from ladder.execution.executors import InlineExecutor
from ladder.execution.jobs import MatchJob, MatchReport, SeatFault
from ladder.rating.ratings import RatingEnv, TeamResult
from ladder.rating.scheduler import Mode, Scheduler
from ladder.store.database import Store, alembic_config
from ladder.store.paths import ArenaData
from ladder.store.schema import Bot, BotVersion, FaultRow, Match, MatchStatus, PresetCounts, RatingChange
from tests.database import database_url
from tests.ladder_helpers import add_bots, fake_play, forfeit_play, open_store, void_play

Counts = dict[tuple[str, int], tuple[int, int, int, int, Any]]


def mixed_play(job: MatchJob) -> MatchReport:
    """Mostly played matches; some forfeits (a fault, rated) and voids with a fault (not rated)."""
    kind = random.Random(job.seed).randrange(6)
    if kind == 0:
        return forfeit_play(job)
    if kind == 1:
        return dataclasses.replace(void_play(job), faults=(SeatFault(2, "timeout", "slow"),))
    return fake_play(job)


def _run(store: Store, preset: str, matches: int, seed: int) -> None:
    env = RatingEnv()
    LadderRun(store, env, Scheduler(env, Mode.MIXED, random.Random(seed)),
              MatchSettings(preset=preset, runner="local"), InlineExecutor, workers=1, play=mixed_play,
              rng=random.Random(seed)).run(StopRule(matches=matches))


def _ladder(root: Path) -> Store:
    store = open_store(root)
    add_bots(store, ["s1", "s2", "s3", "s4", "s5"], root / "src")
    _run(store, "dehla-pakad", 30, 1)
    _run(store, "mendikot", 20, 2)
    return store


def _kept(session: Session) -> Counts:
    return {(c.preset, c.version_id): (c.matches, c.wins, c.draws, c.faults, c.last_played_at)
            for c in session.scalars(select(PresetCounts))}


def _summed(session: Session) -> Counts:
    """What the leaderboard's preset filter used to compute on every request: the rating history
    of the preset's matches, and its rated matches with a fault of the version."""
    def tally(outcome: TeamResult) -> Any:
        return func.sum(case((RatingChange.outcome == outcome, 1), else_=0))

    played = select(Match.preset, RatingChange.version_id, func.count(), tally(TeamResult.WIN),
                    tally(TeamResult.DRAW), func.max(Match.finished_at)) \
        .join(Match, Match.id == RatingChange.match_id).where(RatingChange.version_id.is_not(None)) \
        .group_by(Match.preset, RatingChange.version_id)
    faulted = select(Match.preset, FaultRow.version_id, func.count(distinct(FaultRow.match_id))) \
        .join(Match, Match.id == FaultRow.match_id).where(Match.status == MatchStatus.DONE) \
        .group_by(Match.preset, FaultRow.version_id)
    faults = {(preset, vid): n for preset, vid, n in session.execute(faulted)}
    return {(preset, vid): (n, wins, draws, faults.get((preset, vid), 0), last)
            for preset, vid, n, wins, draws, last in session.execute(played)}


def test_the_ladder_keeps_the_counts_that_summing_its_history_gives(tmp_path: Path) -> None:
    store = _ladder(tmp_path)
    with store.reading() as session:
        kept, summed = _kept(session), _summed(session)
        assert {preset for preset, _ in kept} == {"dehla-pakad", "mendikot"}
        assert any(counts[3] for counts in kept.values())  # the run had faults in rated matches
        assert session.scalar(select(func.count()).select_from(FaultRow).join(Match, Match.id == FaultRow.match_id)
                              .where(Match.status == MatchStatus.VOID))  # and in void ones, not counted
        assert kept == summed
        for version in session.scalars(select(BotVersion)):  # the presets add up to the version's own
            mine = [counts for (_, vid), counts in kept.items() if vid == version.id]
            assert sum(c[0] for c in mine) == version.matches
            assert sum(c[1] for c in mine) == version.wins and sum(c[2] for c in mine) == version.draws
            assert sum(c[3] for c in mine) == version.faults
            assert max((c[4] for c in mine), default=None) == version.last_played_at


def test_migration_0005_backfills_the_counts_of_a_store_that_had_results(tmp_path: Path) -> None:
    store = _ladder(tmp_path)
    with store.reading() as session:
        written = _kept(session)
    store.close()
    config = alembic_config()
    plain = create_engine(database_url(tmp_path))
    with plain.begin() as connection:  # the store as 0004 left it: results, no counts
        config.attributes["connection"] = connection
        command.downgrade(config, "0004")
    plain.dispose()
    upgraded = open_store(tmp_path)
    with upgraded.reading() as session:
        backfilled = _kept(session)
        assert backfilled == _summed(session)
    assert backfilled == written and len(backfilled) >= 8


def test_the_benchmark_store_generator_writes_the_counts_the_ladder_would(tmp_path: Path) -> None:
    """``bench/web_store.py`` inserts rows in bulk, past ``ladder/coordinator/results.py``: it writes the counts
    itself."""
    from bench.web_store import generate  # noqa: PLC0415 - the benchmark's generator, not a ladder module

    data = ArenaData(tmp_path, database_url(tmp_path))
    generate(data, versions=30, matches=400, seed=3, records=[])
    store = Store.open(data)
    with store.reading() as session:
        kept = _kept(session)
        assert kept == _summed(session) and len(kept) == 30


def test_a_generated_store_takes_new_rows_after_its_own(tmp_path: Path) -> None:
    """The generator inserts rows with their ids; on PostgreSQL that leaves the id sequences at 1
    unless it moves them (``settle_postgres``), and the ladder's next match would collide."""
    from bench.web_store import generate  # noqa: PLC0415 - the benchmark's generator, not a ladder module

    data = ArenaData(tmp_path, database_url(tmp_path))
    generate(data, versions=6, matches=20, seed=3, records=[])
    store = Store.open(data)
    with store.transaction() as session:
        bot = Bot(name="newcomer", author="t")
        session.add(bot)
        session.flush()
        assert bot.id == session.execute(select(func.max(Bot.id))).scalar_one()
    store.close()
