"""Rated matches release moves at the end of each slot (issue 23); a caller may ask otherwise."""

from __future__ import annotations

import json
from pathlib import Path

from sqlalchemy import select

from arena.contract.time_control import MoveRelease
from ladder.cli.commands import RELEASE_ENV
from ladder.coordinator.queue import MatchSettings
from ladder.execution.jobs import MatchJob, SeatBot, table_config
from ladder.store.match_files import read_stored, stored_name
from ladder.store.schema import Match
from tests.cli_helpers import run_dehla
from tests.coordinator_helpers import clean_env
from tests.ladder_helpers import add_random_bots, store_at

SEAT = SeatBot(1, "a#1", "0" * 64, "0" * 64)


def job(**changes: object) -> MatchJob:
    return MatchJob(match_id=1, attempt=1, seed=1, preset="dehla-pakad", match_format="duplicate:1",
                    seats=(SEAT, SEAT, SEAT, SEAT), **changes)  # type: ignore[arg-type]


def test_a_ladder_match_releases_at_slot_end_by_default() -> None:
    assert MatchSettings().release is MoveRelease.SLOT_END
    assert table_config(job()).time_control.release is MoveRelease.SLOT_END


def test_a_job_as_plain_data_keeps_its_release() -> None:
    assert table_config(job(release="on-reply")).time_control.release is MoveRelease.ON_REPLY


def stored_releases(data: Path) -> list[tuple[str, float]]:
    """The release and bank each counted match's stored record says it was played with, in match
    order."""
    store = store_at(data)
    try:
        with store.reading() as session:
            releases = []
            for match_id, path in session.execute(select(Match.id, Match.record_path).order_by(Match.id)):
                assert path is not None
                stored = read_stored(session, match_id, stored_name(path), 1 << 20)
                assert stored is not None
                start = json.loads(stored.content.splitlines()[0])
                releases.append((start["time_control"]["release"], start["time_control"]["bank"]))
            return releases
    finally:
        store.close()


def test_dehla_ladder_run_plays_slot_end_unless_told_otherwise(tmp_path: Path) -> None:
    """The command as an operator runs it, with no ``$DEHLA_MOVE_RELEASE`` (this session sets it
    to ``on-reply`` for speed, which hid the command's own default); then the same command told
    ``on-reply`` through the variable, the control that the record tells the two apart."""
    data = tmp_path / "arena"
    add_random_bots(data, ["r1", "r2"])
    # 106 decisions held to 30 ms each: 3 s. A late reply on a busy machine spends the bank (held
    # to its end, as slot-end does): 0.2 s here, where the default 30 s made the test take 36-67 s.
    run = ("ladder", "run", "--matches", "1", "--deals", "1", "--per-move", "0.03", "--bank", "0.2",
           "--runner", "local", "--workers", "1", "--data", str(data))
    plain = {key: value for key, value in clean_env(data).items() if key != RELEASE_ENV}
    for env in (plain, {**plain, RELEASE_ENV: "on-reply"}):
        done = run_dehla(*run, env=env)
        assert done.returncode == 0, done.stderr
    assert stored_releases(data) == [("slot-end", 0.2), ("on-reply", 0.2)]
