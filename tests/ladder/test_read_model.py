"""The read model's single rules (``ladder/store/read_model.py``): the ranking key is one expression in Python
and in SQL, so the store sorts by what a row shows; a match's winner is named by one rule."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import create_engine, select
from sqlalchemy.orm import Session

from arena.contract.status import OutcomeStatus
from ladder.rating.ratings import Skill, conservative
from ladder.store.read_model import Winner, winner
from ladder.store.schema import Base, Match, Partnership, Result

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
