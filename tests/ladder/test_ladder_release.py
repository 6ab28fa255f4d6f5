"""Rated matches release moves at the end of each slot (issue 23); a caller may ask otherwise."""

from __future__ import annotations

from arena.contract.time_control import MoveRelease
from ladder.coordinator.queue import MatchSettings
from ladder.execution.jobs import MatchJob, SeatBot, table_config

SEAT = SeatBot(1, "a#1", "0" * 64, "0" * 64)


def job(**changes: object) -> MatchJob:
    return MatchJob(match_id=1, attempt=1, seed=1, preset="dehla-pakad", match_format="duplicate:1",
                    seats=(SEAT, SEAT, SEAT, SEAT), **changes)  # type: ignore[arg-type]


def test_a_ladder_match_releases_at_slot_end_by_default() -> None:
    assert MatchSettings().release is MoveRelease.SLOT_END
    assert table_config(job()).time_control.release is MoveRelease.SLOT_END


def test_a_job_as_plain_data_keeps_its_release() -> None:
    assert table_config(job(release="on-reply")).time_control.release is MoveRelease.ON_REPLY
