"""The store: migrations, submissions as content-hashed versions, results counted exactly once."""

from __future__ import annotations

from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, func, inspect, select

from ladder.coordinator.queue import MatchSettings, enqueue, lease, release, requeue_abandoned
from ladder.coordinator.results import record_report
from ladder.execution.jobs import MatchReport, SeatFault
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.database import HEAD, Store, StoreError, alembic_config, sqlite_file
from ladder.store.paths import ArenaData
from ladder.store.schema import Base, BotVersion, Match, Partnership, RatingChange, Result
from ladder.submission.submit import submit
from ladder.versions.folders import FolderError, content_hash
from tests.database import POSTGRES, database_with, empty_database_url
from tests.ladder_helpers import add_bots, bot_folder, no_validation, open_store


def test_migrations_create_the_model_schema(tmp_path: Path) -> None:
    """On SQLite and on PostgreSQL: 0001-HEAD give exactly the tables, columns and types of the model
    (an empty database: other tests' stores on PostgreSQL are copies of one migrated once)."""
    url = empty_database_url(tmp_path)
    if sqlite_file(url) is None:
        plain = create_engine(url)
        assert inspect(plain).get_table_names() == []  # the migrations below make every table
        plain.dispose()
    store = Store.open(ArenaData(tmp_path, url))
    open_store(tmp_path).close()  # opening again upgrades nothing
    with store.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []
        tables = set(inspect(connection).get_table_names())
    assert {"bots", "bot_versions", "partnerships", "matches", "results", "faults", "rating_history",
            "alembic_version"} <= tables


@pytest.mark.sqlite_only("SQLite's journal mode")
def test_the_sqlite_store_is_in_wal_mode(tmp_path: Path) -> None:
    store = open_store(tmp_path)
    with store.engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"


def test_the_store_knows_the_newest_migration() -> None:
    assert ScriptDirectory.from_config(alembic_config()).get_current_head() == HEAD


def test_same_content_is_a_no_op_and_a_change_is_a_new_version(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")
    env = RatingEnv()
    folder = bot_folder(tmp_path, "alpha")
    (folder / "__pycache__").mkdir()
    (folder / "__pycache__" / "x.pyc").write_bytes(b"junk")
    first = submit(store, env, folder, "local", no_validation)
    again = submit(store, env, folder, "local", no_validation)
    assert first.created and not again.created and again.number == first.number == 1
    (folder / "bot.py").write_text("# changed\n")
    second = submit(store, env, folder, "local", no_validation)
    assert second.created and second.number == 2 and second.content_hash != first.content_hash
    stored = store.data.root / first.path
    assert (stored / "bot.py").read_text() == "# alpha\n" and not (stored / "__pycache__").exists()
    assert not (stored.stat().st_mode & 0o222) and not ((stored / "bot.py").stat().st_mode & 0o222)


def test_rejected_submission_leaves_nothing_behind(tmp_path: Path) -> None:
    store = open_store(tmp_path / "data")

    def reject(command: object, records: Path, runner: str) -> None:
        raise ValueError("no")

    with pytest.raises(ValueError, match="no"):
        submit(store, RatingEnv(), bot_folder(tmp_path, "beta"), "local", reject)
    assert not any((store.data.root / "bots" / "beta").iterdir())
    with store.reading() as session:
        assert session.scalar(select(func.count()).select_from(BotVersion)) == 0


def test_symlinks_are_refused(tmp_path: Path) -> None:
    folder = bot_folder(tmp_path, "gamma")
    (folder / "link").symlink_to("/etc/passwd")
    with pytest.raises(FolderError, match="symlink"):
        content_hash(folder)


def _running_match(store_root: Path) -> tuple[object, int, int, list[int]]:
    store = open_store(store_root)
    versions = [s for s in add_bots(store, ["s1", "s2"], store_root / "src")]
    with store.transaction() as session:
        ids = sorted(session.scalars(select(BotVersion.id)))
        match = enqueue(session, RatingEnv(), Pairing((ids[0], ids[0]), (ids[1], ids[1])), 7, MatchSettings())
        attempt = lease(session, match.id, "me")
        assert attempt == 1
        assert lease(session, match.id, "other") is None  # only one lease wins
    assert len(versions) == 2
    return store, match.id, attempt, ids


def _report(match_id: int, attempt: int, **changes: object) -> MatchReport:
    values: dict[str, object] = {"match_id": match_id, "attempt": attempt, "status": "done", "winner_team": 0,
                                 "score": (5.0, 1.0), "hands": 16}
    values.update(changes)
    return MatchReport(**values)  # type: ignore[arg-type]


def test_a_result_reported_twice_counts_once(tmp_path: Path) -> None:
    store, match_id, attempt, ids = _running_match(tmp_path)
    env = RatingEnv()
    with store.transaction() as session:  # type: ignore[attr-defined]
        assert record_report(session, env, _report(match_id, attempt))
    with store.transaction() as session:  # type: ignore[attr-defined]
        assert not record_report(session, env, _report(match_id, attempt))
    with store.reading() as session:  # type: ignore[attr-defined]
        winner, loser = (session.get_one(BotVersion, i) for i in ids)
        assert (winner.matches, winner.wins, loser.losses) == (1, 1, 1)  # self-partner rule: one match each
        assert winner.mu > 25 > loser.mu
        assert session.scalar(select(func.count()).select_from(Result)) == 1
        changes = session.scalar(select(func.count()).select_from(RatingChange))
        assert changes == 4  # two versions + two partnerships
        assert all(p.matches == 1 for p in session.scalars(select(Partnership)))


def test_a_stale_report_after_requeue_is_ignored(tmp_path: Path) -> None:
    store, match_id, attempt, ids = _running_match(tmp_path)
    with store.transaction() as session:  # type: ignore[attr-defined]
        assert requeue_abandoned(session) == 1  # the worker died: back to the queue
        assert lease(session, match_id, "next") == 2
    with store.transaction() as session:  # type: ignore[attr-defined]
        assert not record_report(session, RatingEnv(), _report(match_id, attempt))
        assert record_report(session, RatingEnv(), _report(match_id, 2))
    with store.reading() as session:  # type: ignore[attr-defined]
        assert session.get_one(BotVersion, ids[0]).matches == 1


def test_void_changes_no_rating_and_forfeit_is_a_loss_for_the_faulty_side(tmp_path: Path) -> None:
    store, match_id, attempt, ids = _running_match(tmp_path)
    env = RatingEnv()
    with store.transaction() as session:  # type: ignore[attr-defined]
        assert record_report(session, env, _report(match_id, attempt, status="void", winner_team=None,
                                                   void_reason="PlatformError: disk"))
    with store.reading() as session:  # type: ignore[attr-defined]
        assert session.get_one(Match, match_id).status == "void"
        assert all(v.mu == 25 and v.matches == 0 for v in session.scalars(select(BotVersion)))
        assert session.scalar(select(func.count()).select_from(RatingChange)) == 0
    with store.transaction() as session:  # type: ignore[attr-defined]
        match = enqueue(session, env, Pairing((ids[0], ids[0]), (ids[1], ids[1])), 8, MatchSettings())
        second = lease(session, match.id, "me")
        assert second is not None
        forfeit = _report(match.id, second, winner_team=1, forfeit_team=0, faults=(SeatFault(2, "timeout", "slow"),))
        assert record_report(session, env, forfeit)
    with store.reading() as session:  # type: ignore[attr-defined]
        faulty, other = (session.get_one(BotVersion, i) for i in ids)
        assert (faulty.losses, faulty.faults, other.wins, other.faults) == (1, 1, 1, 0)
        assert faulty.mu < 25 < other.mu


def test_a_failing_job_is_retried_then_marked_failed(tmp_path: Path) -> None:
    store, match_id, attempt, _ = _running_match(tmp_path)
    statuses = []
    for _ in range(3):
        with store.transaction() as session:  # type: ignore[attr-defined]
            statuses.append(release(session, match_id, attempt, "OSError: x"))
            attempt = lease(session, match_id, "me") or attempt
    assert statuses == ["queued", "queued", "failed"]


@pytest.mark.skipif(not POSTGRES, reason="a PostgreSQL database's encoding")
def test_a_postgresql_database_not_in_utf8_is_refused_in_one_line(tmp_path: Path) -> None:
    """psycopg hands back bytes for text from an SQL_ASCII database: without the check the store
    opens and then fails deep in a query with a traceback."""
    url = database_with(tmp_path, "ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0")
    with pytest.raises(StoreError, match=r"encoding is SQL_ASCII, not UTF8; create it with `createdb -E UTF8"):
        Store.open(ArenaData(tmp_path, url))
