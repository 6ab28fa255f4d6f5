"""Statuses, fault kinds and results read back from the store as enum members, stored as the
same strings as before; a string outside the enum is refused, never passed on as a bare str."""

from __future__ import annotations

import subprocess
import sys
from enum import StrEnum
from pathlib import Path

import pytest
from alembic import command
from sqlalchemy import create_engine, select, text
from sqlalchemy.exc import StatementError

from arena.contract.faults import FaultKind
from arena.contract.status import OutcomeStatus
from ladder.coordinator.queue import MatchSettings, enqueue, lease
from ladder.coordinator.results import record_report
from ladder.execution.jobs import MatchReport, SeatFault
from ladder.rating.ratings import RatingEnv, TeamResult
from ladder.rating.scheduler import Pairing
from ladder.store.database import HEAD, Store, alembic_config
from ladder.store.schema import BotVersion, FaultRow, Match, MatchStatus, RatingChange, Result
from ladder.store.stored_enum import StoredEnum, UnknownStoredValueError
from tests.database import database_env, database_url
from tests.ladder_helpers import add_bots, open_store


def _queued_match(root: Path) -> tuple[Store, int]:
    store = open_store(root)
    add_bots(store, ["s1", "s2"], root / "src")
    with store.transaction() as session:
        low, high = sorted(session.scalars(select(BotVersion.id)))
        match = enqueue(session, RatingEnv(), Pairing((low, low), (high, high)), 7, MatchSettings())
    return store, match.id


def _raw(root: Path, sql: str) -> list[tuple[object, ...]]:
    """The store as an older arena (or another program) sees it: plain SQL, plain strings."""
    plain = create_engine(database_url(root))  # no pragmas, no store: what any program would see
    try:
        with plain.begin() as connection:
            result = connection.execute(text(sql))
            return [tuple(row) for row in result] if result.returns_rows else []
    finally:
        plain.dispose()


def test_a_recorded_match_reads_back_as_members_stored_as_the_old_strings(tmp_path: Path) -> None:
    store, match_id = _queued_match(tmp_path)
    _record_a_done_match(store, match_id, tmp_path)
    with store.reading() as session:
        assert session.get_one(Match, match_id).status is MatchStatus.DONE
        assert session.scalars(select(Result.status)).one() is OutcomeStatus.DONE
        assert session.scalars(select(FaultRow.kind)).one() is FaultKind.TIMEOUT
        assert set(session.scalars(select(RatingChange.outcome))) == {TeamResult.WIN, TeamResult.LOSS}
    assert _raw(tmp_path, "SELECT status FROM matches") == [("done",)]
    assert _raw(tmp_path, "SELECT status FROM results") == [("done",)]
    assert _raw(tmp_path, "SELECT kind FROM faults") == [("timeout",)]
    assert {row[0] for row in _raw(tmp_path, "SELECT outcome FROM rating_history")} == {"win", "loss"}


def _record_a_done_match(store: Store, match_id: int, root: Path) -> None:
    with store.transaction() as session:
        attempt = lease(session, match_id, "me")
        assert attempt is not None
        report = MatchReport(match_id, attempt, OutcomeStatus.DONE, 1, (1.0, 5.0), 16, forfeit_team=0,
                             faults=(SeatFault(2, FaultKind.TIMEOUT, "slow"),))
        assert record_report(session, RatingEnv(), report)


def test_a_store_from_the_first_migration_upgrades_and_reads_back_members(tmp_path: Path) -> None:
    """With recorded results: the batch migrations rebuild ``matches``, which other rows point at."""
    store, match_id = _queued_match(tmp_path)
    _record_a_done_match(store, match_id, tmp_path)
    store.close()
    config = alembic_config()
    plain = create_engine(database_url(tmp_path))  # no pragmas: foreign keys off on SQLite
    with plain.begin() as connection:  # back to the schema of the first release, rows kept
        config.attributes["connection"] = connection
        command.downgrade(config, "0001")
    plain.dispose()
    assert _raw(tmp_path, "SELECT version_num FROM alembic_version") == [("0001",)]
    upgraded = open_store(tmp_path)
    assert _raw(tmp_path, "SELECT version_num FROM alembic_version") == [(HEAD,)]
    if upgraded.engine.dialect.name == "sqlite":
        with upgraded.engine.connect() as connection:  # the upgrade turned them off, and back on
            assert connection.exec_driver_sql("PRAGMA foreign_keys").scalar() == 1
    with upgraded.reading() as session:
        assert session.get_one(Match, match_id).status is MatchStatus.DONE
        assert session.scalars(select(Result.status)).one() is OutcomeStatus.DONE
        assert session.scalars(select(FaultRow.kind)).one() is FaultKind.TIMEOUT
        assert set(session.scalars(select(RatingChange.outcome))) == {TeamResult.WIN, TeamResult.LOSS}


def test_rows_written_as_plain_strings_read_back_as_members(tmp_path: Path) -> None:
    store, match_id = _queued_match(tmp_path)
    store.close()
    _raw(tmp_path, f"UPDATE matches SET status = 'void' WHERE id = {match_id}")
    reopened = open_store(tmp_path)
    with reopened.reading() as session:
        assert session.get_one(Match, match_id).status is MatchStatus.VOID
        assert list(session.scalars(select(Match.id).where(Match.status == MatchStatus.VOID))) == [match_id]


def test_an_unknown_status_in_the_store_is_a_clear_error(tmp_path: Path) -> None:
    store, match_id = _queued_match(tmp_path)
    store.close()
    _raw(tmp_path, f"UPDATE matches SET status = 'paused' WHERE id = {match_id}")
    with open_store(tmp_path).reading() as session, pytest.raises(UnknownStoredValueError) as raised:
        session.get_one(Match, match_id)
    assert str(raised.value) == ("the stored value 'paused' is not a MatchStatus "
                                 "(queued, running, done, void, failed)")


def test_the_ladder_command_reports_an_unknown_status_in_one_line(tmp_path: Path) -> None:
    store, match_id = _queued_match(tmp_path)
    store.close()
    _raw(tmp_path, f"UPDATE matches SET status = 'paused' WHERE id = {match_id}")
    out = subprocess.run([sys.executable, "-m", "arena", "ladder", "matches", "--data", str(tmp_path)],
                         capture_output=True, text=True, timeout=60, check=False, env=database_env(tmp_path))
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and len(out.stderr.strip().splitlines()) == 1
    assert "'paused' is not a MatchStatus" in out.stderr


def test_a_status_outside_the_enum_is_refused_before_it_is_written(tmp_path: Path) -> None:
    store, match_id = _queued_match(tmp_path)
    with pytest.raises(StatementError, match="'paused' is not a MatchStatus"), store.transaction() as session:
        session.get_one(Match, match_id).status = "paused"  # type: ignore[assignment]
    assert _raw(tmp_path, "SELECT status FROM matches") == [("queued",)]


def test_a_worker_report_in_plain_strings_becomes_members_and_a_bad_one_is_refused() -> None:
    report = MatchReport(1, 1, "void", None, (0.0, 0.0), 0, faults=(SeatFault(0, "crash", "exit 1"),))  # type: ignore[arg-type]
    assert report.status is OutcomeStatus.VOID and report.faults[0].kind is FaultKind.CRASH
    with pytest.raises(ValueError, match="'finished' is not a valid OutcomeStatus"):
        MatchReport(1, 1, "finished", None, (0.0, 0.0), 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("enum", "length"), [(MatchStatus, 16), (OutcomeStatus, 16), (FaultKind, 32),
                                              (TeamResult, 8)])
def test_every_member_fits_its_column_and_round_trips(enum: type[StrEnum], length: int) -> None:
    column = StoredEnum(enum, length)
    for member in enum:
        stored = column.process_bind_param(member, None)  # type: ignore[arg-type]
        assert type(stored) is str and stored == member.value
        assert column.process_result_value(stored, None) is member  # type: ignore[arg-type]


def test_a_column_too_short_for_its_enum_is_refused() -> None:
    with pytest.raises(ValueError, match="longer than 4"):
        StoredEnum(FaultKind, 4)
