"""A worker's runner is its operator's choice (``dehla worker --runner``): a job from the
coordinator that asks for another runner (``local``: bots unconfined, with the worker's rights)
is refused before any version is fetched or any bot starts."""

from __future__ import annotations

from pathlib import Path

import pytest

from ladder.execution.jobs import MatchJob, SeatBot, play_match_job
from ladder.execution.runners import WORKER_RUNNER_ENV, RunnerUnavailable
from ladder.versions.version_cache import VersionUnavailableError
from tests.coordinator_helpers import dehla

UNKNOWN = "0" * 64
"""A version no source holds: a job that gets past the runner check fails on fetching it."""


def job(runner: str) -> MatchJob:
    seat = SeatBot(1, "hostile#1", UNKNOWN, UNKNOWN)
    return MatchJob(match_id=1, attempt=1, seed=1, preset="dehla-pakad", match_format="duplicate:1",
                    seats=(seat, seat, seat, seat), runner=runner)


def test_a_job_asking_for_another_runner_than_the_workers_is_refused_first(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DEHLA_DATA", str(tmp_path / "empty"))
    monkeypatch.setenv(WORKER_RUNNER_ENV, "sandbox")
    with pytest.raises(RunnerUnavailable, match="this worker plays only sandbox matches"):
        play_match_job(job("local"))
    with pytest.raises(VersionUnavailableError):  # its own runner passes the check and goes on
        play_match_job(job("sandbox"))


def test_without_the_workers_choice_the_job_picks_its_runner(monkeypatch: pytest.MonkeyPatch,
                                                               tmp_path: Path) -> None:
    """The control: on a worker that set no runner the same job goes on to fetch its versions."""
    monkeypatch.setenv("DEHLA_DATA", str(tmp_path / "empty"))
    monkeypatch.delenv(WORKER_RUNNER_ENV, raising=False)
    with pytest.raises(VersionUnavailableError):
        play_match_job(job("local"))


def test_dehla_worker_refuses_an_unknown_runner_in_one_line(tmp_path: Path) -> None:
    done = dehla("worker", "tcp://127.0.0.1:1", "--runner", "chroot", data=tmp_path)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "'chroot' is not one of" in done.stderr
