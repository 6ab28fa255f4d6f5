"""The read model's single rules (``ladder/store/read_model.py``): the ranking key is one expression in Python
and in SQL, so the store sorts by what a row shows; a match's winner is named by one rule."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from arena.contract.status import OutcomeStatus
from arena.engine.match import MatchFormat
from ladder.rating.ratings import Skill, conservative
from ladder.store.read_model import Winner, head_to_head, win_rate, winner
from ladder.store.schema import Base, Bot, BotVersion, Match, Partnership, Result

ENGINE = create_engine("sqlite://")
Base.metadata.create_all(ENGINE)
MUS = st.floats(min_value=-50, max_value=100, allow_nan=False)
SIGMAS = st.floats(min_value=0, max_value=25 / 3, allow_nan=False)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(MUS, SIGMAS), min_size=1, max_size=12))
def test_the_store_ranks_by_the_rating_a_row_shows(beliefs: list[tuple[float, float]]) -> None:
    with Session(ENGINE) as session:
        rows = [Partnership(id=n, low_id=n, high_id=n, mu=mu, sigma=sigma) for n, (mu, sigma) in enumerate(beliefs, 1)]
        session.add_all(rows)
        session.flush()
        in_sql = list(session.execute(select(Partnership.id, Partnership.conservative)
                                      .order_by(Partnership.conservative.desc(), Partnership.id)))
        session.rollback()
    in_python = sorted(rows, key=lambda row: (-row.conservative, row.id))
    assert [pid for pid, _ in in_sql] == [row.id for row in in_python]
    for (_, rating), row in zip(in_sql, in_python, strict=True):
        assert rating == row.conservative == Skill(row.mu, row.sigma).conservative == conservative(row.mu, row.sigma)


@given(status=st.sampled_from([None, *OutcomeStatus]), winner_team=st.sampled_from([None, 0, 1]),
       voided=st.booleans())
def test_a_match_has_a_winner_only_when_it_was_rated(status: OutcomeStatus | None, winner_team: int | None,
                                                     voided: bool) -> None:
    match = Match(voided_at=datetime(2025, 1, 1, tzinfo=UTC) if voided else None)
    result = None if status is None else Result(status=status, winner_team=winner_team)
    named = winner(match, result)
    if status is not OutcomeStatus.DONE or voided:
        assert named is None
    else:
        assert named is {None: Winner.DRAW, 0: Winner.A, 1: Winner.B}[winner_team]


SEATINGS = st.lists(st.tuples(st.lists(st.integers(0, 5), min_size=4, max_size=4),
                              st.sampled_from([*OutcomeStatus]), st.sampled_from([None, 0, 1]), st.booleans(),
                              st.integers(0, 8), st.integers(0, 8)), max_size=12)
"""Matches as (the versions at seats 0-3 of six, status, winner team, voided, score A, score B)."""
VERSION_BOTS = ("x", "x", "y", "y", "z", "w")
"""Six versions of four bots: x and y have two each."""


def counted_by_hand(matches: list[tuple[list[int], OutcomeStatus, int | None, bool, int, int]]) \
        -> dict[tuple[str, str], tuple[int, int, int, int, float, float]]:
    """Each ordered pair's matches, wins, draws, losses and summed scores, straight from the tuples."""
    tally: dict[tuple[str, str], list[float]] = {}
    for seats, status, winner_team, voided, score_a, score_b in matches:
        if status is not OutcomeStatus.DONE or voided:
            continue
        a = {VERSION_BOTS[seats[0]], VERSION_BOTS[seats[2]]}
        b = {VERSION_BOTS[seats[1]], VERSION_BOTS[seats[3]]}
        for mine, theirs, side, scored, conceded in ((a, b, 0, score_a, score_b), (b, a, 1, score_b, score_a)):
            for bot in mine - theirs:
                for opponent in theirs - mine:
                    row = tally.setdefault((bot, opponent), [0, 0, 0, 0, 0.0, 0.0])
                    row[0] += 1
                    row[1 if winner_team == side else 2 if winner_team is None else 3] += 1
                    row[4] += scored
                    row[5] += conceded
    return {pair: (int(n), int(w), int(d), int(lost), s, c) for pair, (n, w, d, lost, s, c) in tally.items()}


@settings(max_examples=60, deadline=None)
@given(SEATINGS)
def test_head_to_head_counts_every_pair_on_opposite_sides_of_a_rated_match(
        matches: list[tuple[list[int], OutcomeStatus, int | None, bool, int, int]]) -> None:
    with Session(ENGINE) as session:
        bots = {name: Bot(name=name, author="t") for name in dict.fromkeys(VERSION_BOTS)}
        session.add_all(bots.values())
        session.flush()
        versions = [BotVersion(bot_id=bots[name].id, number=n, label="1", content_hash=f"h{n}", path=".", mu=25.0,
                               sigma=8.0) for n, name in enumerate(VERSION_BOTS)]
        session.add_all(versions)
        session.flush()
        for seats, status, winner_team, voided, score_a, score_b in matches:
            match = Match(seed=1, preset="dehla-pakad", match_format=MatchFormat.parse("duplicate:1"), team_a_id=1,
                          team_b_id=1, seat0_id=versions[seats[0]].id, seat1_id=versions[seats[1]].id,
                          seat2_id=versions[seats[2]].id, seat3_id=versions[seats[3]].id,
                          voided_at=datetime(2025, 1, 1, tzinfo=UTC) if voided else None)
            session.add(match)
            session.flush()
            session.add(Result(match_id=match.id, status=status, winner_team=winner_team, score_a=score_a,
                               score_b=score_b, hands=2, seconds=1.0))
        session.flush()
        rows = head_to_head(session)
        for_x = head_to_head(session, "x")
        among = head_to_head(session, among=["x", "y"])
        session.rollback()
    expected = counted_by_hand(matches)
    assert {(r.bot, r.opponent): (r.matches, r.wins, r.draws, r.losses) for r in rows} == \
        {pair: figures[:4] for pair, figures in expected.items()}
    for row in rows:
        n, _, _, _, scored, conceded = expected[(row.bot, row.opponent)]
        assert (row.score_for, row.score_against) == (round(scored / n, 2), round(conceded / n, 2))
        assert row.win_rate == win_rate(row.wins, row.draws, row.matches)
    assert for_x == [row for row in rows if row.bot == "x"]
    assert among == [row for row in rows if {row.bot, row.opponent} == {"x", "y"}]
