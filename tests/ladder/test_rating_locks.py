"""Two coordinators on one PostgreSQL store: one rating a finished match while the other schedules
a new match of the same bots never waits for the other, either way round (``lock_rated`` in
``ladder/coordinator/results.py``).

The deadlock CI found: a report locked its versions ``FOR UPDATE``, in id order; a new match's and
its new partnerships' foreign keys take ``FOR KEY SHARE`` on the versions they name, in the order
they are inserted. Each waited on a version the other held. ``FOR NO KEY UPDATE`` (what a rating,
which changes no key, needs) does not conflict with ``FOR KEY SHARE``, so neither waits and no
cycle can form. Each test runs both transactions in this one thread, the second with a lock
timeout: a wait for the first fails it (as it does with ``FOR UPDATE``) instead of hanging."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from ladder.coordinator.leases import LeaseTerms, take_match
from ladder.coordinator.queue import MatchSettings, enqueue
from ladder.coordinator.results import record_report
from ladder.execution.jobs import MatchReport
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.database import Store
from ladder.store.schema import Match, MatchStatus, RatingChange
from tests.database import POSTGRES
from tests.ladder_helpers import add_bots, open_store

pytestmark = pytest.mark.skipif(not POSTGRES, reason="SQLite has one writer: its transactions never overlap")

ENV = RatingEnv()


def running_match(tmp_path: Path) -> tuple[Store, list[int], MatchReport]:
    """Four bots, and a running match of the middle two (their partnerships made), with the
    report that finishes it."""
    store = open_store(tmp_path / "data")
    v1, v2, v3, v4 = (s.version_id for s in add_bots(store, ["s1", "s2", "s3", "s4"], tmp_path / "src"))
    with store.transaction() as session:
        match_id = enqueue(session, ENV, Pairing((v2, v2), (v3, v3)), 1, MatchSettings()).id
        held = take_match(session, match_id, "rating", LeaseTerms())
    assert held is not None
    return store, [v1, v2, v3, v4], MatchReport(match_id, held[1], "done", 0, (1.0, 0.0), 16)


def without_waiting(session: Session) -> None:
    session.connection().exec_driver_sql("SET LOCAL lock_timeout = '5s'")  # a wait fails, not hangs


def schedule_new_pairs(session: Session, versions: list[int]) -> int:
    """A match whose two partnerships are new: (v1, v3) and (v2, v4), keys across the rated ones."""
    v1, v2, v3, v4 = versions
    return enqueue(session, ENV, Pairing((v1, v3), (v2, v4)), 2, MatchSettings()).id


def test_rating_a_match_never_waits_for_a_coordinator_scheduling_one_of_its_bots(tmp_path: Path) -> None:
    store, versions, report = running_match(tmp_path)
    with store.transaction() as scheduling:
        scheduled = schedule_new_pairs(scheduling, versions)
        with store.transaction() as rating:
            without_waiting(rating)
            assert record_report(rating, ENV, report)
    with store.reading() as session:
        assert session.get_one(Match, report.match_id).status is MatchStatus.DONE
        assert session.get_one(Match, scheduled).status is MatchStatus.QUEUED
        assert session.scalar(select(func.count()).select_from(RatingChange)) == 4  # 2 versions, 2 pairs


def test_scheduling_a_match_never_waits_for_a_coordinator_rating_one_of_its_bots(tmp_path: Path) -> None:
    store, versions, report = running_match(tmp_path)
    with store.transaction() as rating:
        assert record_report(rating, ENV, report)
        with store.transaction() as scheduling:
            without_waiting(scheduling)
            scheduled = schedule_new_pairs(scheduling, versions)
    with store.reading() as session:
        assert session.get_one(Match, report.match_id).status is MatchStatus.DONE
        assert session.get_one(Match, scheduled).status is MatchStatus.QUEUED
