"""The timing-leak detector in the ladder (issue 23): figures stored per seat when a report is
counted, summed per version, and the flag in ``dehla ladder show`` (text and ``--json``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import select

from ladder.cli.commands import ladder_group
from ladder.rating.scheduler import Pairing
from ladder.store.database import Store
from ladder.store.read_model import ranking
from ladder.store.schema import TimingLeak, TimingLeakTotals
from ladder.store.timing_leaks import FLAG_BITS, FLAG_SEATS, FLAG_Z, figures, flagged
from tests.database import database_env
from tests.ladder_helpers import add_bots, open_store
from tests.timing_helpers import play, random_record, retimed, signalling, versions


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> str:
    return random_record(tmp_path_factory.mktemp("timing"))


@pytest.fixture
def ladder(tmp_path: Path, record: str) -> tuple[Store, dict[str, int]]:
    """``leaky`` (seats 0 and 2, its times carrying its highest card) against ``honest``, twice
    (``FLAG_SEATS``: four measured seats each)."""
    store = open_store(tmp_path)
    add_bots(store, ["leaky", "honest"], tmp_path / "src")
    ids = versions(store)
    team = Pairing((ids["leaky"], ids["leaky"]), (ids["honest"], ids["honest"]))
    for seed in (1, 2):
        play(store, team, retimed(record, signalling((0, 2)), seed).encode(), seed=seed)
    return store, ids


def test_a_counted_match_stores_each_seats_figures_and_the_versions_totals(
        ladder: tuple[Store, dict[str, int]]) -> None:
    store, ids = ladder
    with store.reading() as session:
        first = min(session.scalars(select(TimingLeak.match_id)))
        rows = {row.seat: row for row in session.scalars(select(TimingLeak).where(TimingLeak.match_id == first))}
        totals = {row.version_id: figures(row) for row in session.scalars(select(TimingLeakTotals))}
    assert sorted(rows) == [0, 1, 2, 3]
    assert [rows[seat].version_id for seat in range(4)] == [ids["leaky"], ids["honest"]] * 2
    assert all(row.decisions > 150 for row in rows.values())
    leaky, honest = totals[ids["leaky"]], totals[ids["honest"]]
    assert leaky is not None and honest is not None
    assert leaky.seats == honest.seats == FLAG_SEATS
    assert leaky.flagged and not honest.flagged


def test_one_match_is_not_enough_for_a_flag(tmp_path: Path, record: str) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["leaky", "honest"], tmp_path / "src")
    ids = versions(store)
    play(store, Pairing((ids["leaky"], ids["leaky"]), (ids["honest"], ids["honest"])),
         retimed(record, signalling((0, 2))).encode())
    with store.reading() as session:
        leaky = figures(session.get(TimingLeakTotals, ids["leaky"]))
    assert leaky is not None and leaky.seats == 2 < FLAG_SEATS
    assert flagged(leaky.bits, leaky.z) and not leaky.flagged


def test_a_mixed_partnership_credits_each_version_its_own_seat(tmp_path: Path, record: str) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["leaky", "honest", "other"], tmp_path / "src")
    ids = versions(store, ("leaky", "honest", "other"))
    for seed in range(FLAG_SEATS):
        play(store, Pairing((ids["leaky"], ids["honest"]), (ids["other"], ids["other"])),
             retimed(record, signalling((0,)), seed).encode(), seed=seed)
    with store.reading() as session:
        first = min(session.scalars(select(TimingLeak.match_id)))
        seats = {row.seat: row.version_id
                 for row in session.scalars(select(TimingLeak).where(TimingLeak.match_id == first))}
        totals = {row.version_id: figures(row) for row in session.scalars(select(TimingLeakTotals))}
        flags = {row.bot: row.timing_flag for row in ranking(session)}
    assert seats == {0: ids["leaky"], 1: ids["other"], 2: ids["honest"], 3: ids["other"]}
    assert {vid: (f.seats if f else 0) for vid, f in totals.items()} == {
        ids["leaky"]: FLAG_SEATS, ids["honest"]: FLAG_SEATS, ids["other"]: 2 * FLAG_SEATS}
    assert flags == {"leaky": True, "honest": False, "other": False}


def test_no_record_or_one_that_does_not_replay_counts_the_match_unmeasured(tmp_path: Path, record: str) -> None:
    store = open_store(tmp_path)
    add_bots(store, ["leaky", "honest"], tmp_path / "src")
    ids = versions(store)
    team = Pairing((ids["leaky"], ids["leaky"]), (ids["honest"], ids["honest"]))
    play(store, team, None, seed=1)
    play(store, team, b"\xff not a record", seed=2)
    play(store, team, record.replace('"action":"play', '"action":"play 1').encode(), seed=3)
    with store.reading() as session:
        assert session.scalars(select(TimingLeak)).all() == []
        assert all(row.timing_bits is None and not row.timing_flag for row in ranking(session))
        assert [row.matches for row in ranking(session)] == [3, 3]


def show(store: Store, *args: str) -> str:
    result = CliRunner().invoke(ladder_group, ["show", "--data", str(store.data.root), *args],
                                env=database_env(store.data.root))
    assert result.exit_code == 0, result.output
    return result.output


def test_ladder_show_flags_the_leaky_version_and_not_the_honest_one(
        ladder: tuple[Store, dict[str, int]]) -> None:
    store, _ = ladder
    rows = {row["bot"]: row for row in json.loads(show(store, "--json"))}
    assert rows["leaky"]["timing_flag"] is True and rows["leaky"]["timing_bits"] > FLAG_BITS
    assert rows["honest"]["timing_flag"] is False and rows["honest"]["timing_bits"] < FLAG_BITS
    assert rows["leaky"]["timing_z"] >= FLAG_Z
    lines = {line.split("│")[2].strip(): line for line in show(store).splitlines() if line.count("│") > 3}
    assert "timing leak" in lines["leaky"]
    assert "timing leak" not in lines["honest"]
