"""Rated games: a duplicate match moves ratings once per deal pair, in order; forfeits never pay."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import select

from arena.engine.match import MatchFormat
from ladder.coordinator.queue import MatchSettings, enqueue, lease
from ladder.coordinator.results import games_of, record_report
from ladder.execution.jobs import MatchReport
from ladder.rating.ratings import Outcome, RatingEnv, Skill
from ladder.rating.scheduler import Pairing
from ladder.store.schema import BotVersion, Result
from tests.ladder_helpers import add_bots, open_store

A, B, DRAW = Outcome.A_WINS, Outcome.B_WINS, Outcome.DRAW
fmt = MatchFormat.parse


def report(**changes: object) -> MatchReport:
    values: dict[str, object] = {"match_id": 1, "attempt": 1, "status": "done", "winner_team": 0,
                                 "score": (5.0, 1.0), "hands": 16}
    values.update(changes)
    return MatchReport(**values)  # type: ignore[arg-type]


def test_each_deal_pair_is_a_game_in_order() -> None:
    assert games_of(report(deal_scores=(2.0, 0.0, -1.0, 1.0)), fmt("duplicate:4")) == [A, DRAW, B, A]


def test_a_forfeit_loses_every_deal_not_finished() -> None:
    played = (1.0, 1.0, -2.0)
    games = games_of(report(winner_team=0, forfeit_team=1, deal_scores=played), fmt("duplicate:8"))
    assert games == [A, A, B] + [A] * 5
    assert games_of(report(winner_team=1, forfeit_team=0, deal_scores=()), fmt("duplicate:8")) == [B] * 8
    # a forfeit after the last deal pair finished still costs the faulty side a game
    assert games_of(report(winner_team=1, forfeit_team=0, deal_scores=(1.0, 1.0)), fmt("duplicate:2")) == [A, A, B]


def test_other_formats_are_one_game() -> None:
    assert games_of(report(winner_team=1), fmt("hands:16")) == [B]
    assert games_of(report(winner_team=None), fmt("kots:3")) == [DRAW]


def test_a_series_is_the_updates_in_turn() -> None:
    env = RatingEnv()
    skills = {1: Skill(25, 8), 2: Skill(27, 7)}
    games = [A, DRAW, A, B]
    by_hand = dict(skills)
    for game in games:
        by_hand.update(env.rate_versions((1, 1), (2, 2), by_hand, game))
    assert env.rate_versions_series((1, 1), (2, 2), skills, games) == by_hand
    a, b = env.rate_partnerships_series(skills[1], skills[2], games)
    assert (a, b) != (skills[1], skills[2]) and a.sigma < skills[1].sigma


def rate_one(root: Path, deal_scores: tuple[float, ...]) -> tuple[BotVersion, BotVersion, list[float] | None]:
    store = open_store(root)
    add_bots(store, ["s1", "s2"], root / "src")
    env = RatingEnv()
    with store.transaction() as session:
        ids = sorted(session.scalars(select(BotVersion.id)))
        match = enqueue(session, env, Pairing((ids[0], ids[0]), (ids[1], ids[1])), 7,
                        MatchSettings(match_format=f"duplicate:{len(deal_scores)}"))
        attempt = lease(session, match.id, "me")
        assert attempt is not None
        winner = 0 if sum(deal_scores) > 0 else 1
        assert record_report(session, env, report(match_id=match.id, attempt=attempt, winner_team=winner,
                                                  deal_scores=deal_scores))
    with store.reading() as session:
        first, second = (session.get_one(BotVersion, i) for i in ids)
        stored = session.scalars(select(Result.deal_scores)).one()
        session.expunge_all()
    store.close()
    return first, second, stored


def test_the_store_rates_the_deal_pairs_not_only_the_match_sign(tmp_path: Path) -> None:
    sweep = rate_one(tmp_path / "sweep", (1.0, 1.0, 1.0, 1.0))
    narrow = rate_one(tmp_path / "narrow", (1.0, 0.0, 0.0, 0.0))
    assert sweep[2] == [1.0, 1.0, 1.0, 1.0] and narrow[2] == [1.0, 0.0, 0.0, 0.0]
    # both are match wins for s1, counted once each ...
    assert sweep[0].wins == narrow[0].wins == 1 and sweep[0].matches == narrow[0].matches == 1
    # ... but four won deal pairs say more than one won and three level
    assert sweep[0].mu > narrow[0].mu > 25 > narrow[1].mu > sweep[1].mu
    expected = RatingEnv().rate_versions_series((1, 1), (2, 2), {1: Skill(25, 25 / 3), 2: Skill(25, 25 / 3)},
                                                [A, A, A, A])
    assert sweep[0].mu == expected[1].mu and sweep[1].sigma == expected[2].sigma
