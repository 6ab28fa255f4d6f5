"""Voiding a played match: the ratings, counts and history become exactly those of a ladder whose
history never had that match (the same results otherwise, in the same order); voiding twice is a
no-op that says so; a match that was never rated cannot be voided."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import select

from ladder.admin.operator import OperatorError, void_match
from ladder.admin.rerate import plan_undo
from ladder.execution.jobs import SeatFault
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.database import Store
from ladder.store.schema import BotVersion, Match, MatchStatus, Partnership, PresetCounts, RatingChange
from tests import database
from tests.ladder_helpers import add_bots, open_store
from tests.operator_helpers import Played, play_history

VERSIONS = 4


@st.composite
def played(draw: st.DrawFn) -> Played:
    ids = list(range(1, VERSIONS + 1))
    a1 = draw(st.sampled_from(ids))
    a2 = draw(st.sampled_from(ids))
    rest = [v for v in ids if v not in (a1, a2)]
    b1 = draw(st.sampled_from(rest))
    b2 = draw(st.sampled_from(rest))
    duplicate = draw(st.booleans())
    deals = draw(st.integers(1, 4))
    match_format = f"duplicate:{deals}" if duplicate else "hands:4"
    scores = tuple(draw(st.lists(st.sampled_from([-2.0, -1.0, 0.0, 1.0, 3.0]), min_size=0, max_size=deals)))
    forfeit = draw(st.sampled_from([None, None, None, 0, 1]))
    winner = (1 - forfeit) if forfeit is not None else draw(st.sampled_from([0, 1, None]))
    faults = (SeatFault(forfeit, "crash", "gone"),) if forfeit is not None else ()
    if draw(st.integers(0, 5)) == 0:
        faults += (SeatFault(draw(st.integers(0, 3)), "timeout", "slow"),)
    status = "void" if draw(st.integers(0, 7)) == 0 else "done"
    return Played(Pairing((a1, a2), (b1, b2)), draw(st.sampled_from(["dehla-pakad", "mendikot"])), match_format,
                  status, winner, scores if duplicate else (), forfeit, faults)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A store with four bots and no match, copied for every example (migrations run once)."""
    root = tmp_path_factory.mktemp("template")
    store = open_store(root)
    add_bots(store, [f"s{n}" for n in range(1, VERSIONS + 1)], root / "src")
    store.close()
    database.snapshot(root)
    return root


def store_from(template: Path, root: Path) -> Store:
    """A copy of the ``template`` folder's store as ``root``'s."""
    root.mkdir()
    if database.POSTGRES:
        database.copy_database(template, root)
    else:
        shutil.copy(template / "ladder.db", root / "ladder.db")
    return open_store(root)


def snapshot(store: Store) -> dict[str, Any]:
    """Everything ratings and counts are made of; times as the id of the match they were recorded at."""
    with store.reading() as session:
        at = {m.finished_at: m.id for m in session.scalars(select(Match)) if m.finished_at is not None}

        def rated(unit: BotVersion | Partnership) -> tuple[Any, ...]:
            return (unit.id, unit.mu, unit.sigma, unit.matches, unit.wins, unit.draws, unit.losses,
                    at.get(unit.last_played_at) if unit.last_played_at else None)

        return {
            "versions": [(*rated(v), v.faults) for v in session.scalars(select(BotVersion).order_by(BotVersion.id))],
            "partnerships": [rated(p) for p in session.scalars(select(Partnership).order_by(Partnership.id))],
            "preset_counts": sorted((c.preset, c.version_id, c.matches, c.wins, c.draws, c.faults,
                                     at.get(c.last_played_at)) for c in session.scalars(select(PresetCounts))),
            "history": [(r.match_id, r.version_id, r.partnership_id, r.mu_before, r.sigma_before, r.mu_after,
                         r.sigma_after, r.outcome) for r in session.scalars(select(RatingChange)
                                                                         .order_by(RatingChange.id))],
        }


@pytest.fixture()
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as folder:
        yield Path(folder)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(history=st.lists(played(), min_size=1, max_size=9), data=st.data())
def test_voiding_a_match_gives_the_ladder_that_never_had_it(template: Path, scratch: Path, history: list[Played],
                                                             data: st.DataObject) -> None:
    rated = [i for i, match in enumerate(history) if match.status == "done"]
    if not rated:
        history = [*history, Played(Pairing((1, 1), (2, 2)), "dehla-pakad", "duplicate:2", "done", 0, (1.0, 0.0),
                                    None, ())]
        rated = [len(history) - 1]
    k = data.draw(st.sampled_from(rated), label="voided")
    name = f"h{len(list(scratch.iterdir()))}"
    voided, never = store_from(template, scratch / f"{name}-voided"), store_from(template, scratch / f"{name}-never")
    ids = play_history(voided, history)
    assert ids == play_history(never, history, skip=k)
    before = snapshot(voided)

    done = void_match(voided, RatingEnv(), ids[k], "a test")
    after = snapshot(voided)
    assert not done.already and done.rerated is not None
    assert after == snapshot(never)
    assert after != before  # the match counted before it was voided

    again = void_match(voided, RatingEnv(), ids[k], "once more")
    assert again.already and again.reason == "a test"
    assert snapshot(voided) == after
    voided.close()
    never.close()


def test_only_a_rated_match_can_be_voided(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["s1", "s2", "s3"], tmp_path / "src")
    platform_void = Played(Pairing((1, 1), (2, 2)), "dehla-pakad", "duplicate:1", "void", None, (), None, ())
    ids = play_history(store, [platform_void, platform_void], skip=1)
    env = RatingEnv()
    with pytest.raises(OperatorError, match=f"match {ids[0]} cannot be voided: it ended void"):
        void_match(store, env, ids[0], "x")
    with pytest.raises(OperatorError, match=f"match {ids[1]} cannot be voided: it is queued"):
        void_match(store, env, ids[1], "x")
    with pytest.raises(OperatorError, match="no match 99"):
        void_match(store, env, 99, "x")
    for bad in ("", "   ", "two\nlines", "x" * 501):
        with pytest.raises(OperatorError, match="reason"):
            void_match(store, env, ids[0], bad)
    with store.reading() as session:
        assert session.get_one(Match, ids[0]).status is MatchStatus.VOID
        assert session.get_one(Match, ids[0]).voided_at is None


def test_a_result_recorded_while_the_void_is_planned_is_planned_again(
        template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ladder records a result between the plan (made without the write lock) and its write:
    the stale plan is dropped and made again, so the new result's ratings are not overwritten."""
    def win(a: int, b: int) -> Played:
        return Played(Pairing((a, a), (b, b)), "dehla-pakad", "duplicate:2", "done", 0, (1.0, 2.0), None, ())

    history = [win(1, 2), win(2, 3), win(1, 3)]
    voided, never = store_from(template, tmp_path / "voided"), store_from(template, tmp_path / "never")
    ids = play_history(voided, history[:2])
    assert play_history(never, history, skip=0)[:2] == ids
    plans = []

    def meanwhile(*args: Any) -> Any:
        plan = plan_undo(*args)
        if not plans:  # the ladder records the third match now, before the void writes
            play_history(voided, history[2:])
        plans.append(plan)
        return plan

    monkeypatch.setattr("ladder.admin.operator.plan_undo", meanwhile)
    done = void_match(voided, RatingEnv(), ids[0], "a test")
    assert len(plans) == 2 and done.rerated is not None and done.rerated.later_matches == 2
    assert snapshot(voided) == snapshot(never)
