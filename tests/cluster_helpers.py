"""Shared helpers of the cluster tests: ``dehla ladder run --cluster local:2`` with a match
certainly in play (the ``staller`` bot of ``tests/coordinator_helpers.py``), and what must hold
once the match lost to a kill was played again."""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from contextlib import AbstractContextManager
from pathlib import Path

from ladder.store.schema import Match, MatchStatus
from tests.coordinator_helpers import add_staller, bot_processes_under, stalled_run
from tests.ladder_helpers import add_random_bots, check_store_is_consistent

CLUSTER = ("--cluster", "local:2")


def stalled_cluster_run(tmp_path: Path, *goal: str, cluster: tuple[str, ...] = CLUSTER,
                        run_env: Mapping[str, str] | None = None,
                        ) -> AbstractContextManager[tuple[subprocess.Popen[bytes], int, Path]]:
    """A ``dehla ladder run --cluster local:2`` with a match certainly in play: (the run, the
    stalled bot's pid, the data folder). ``tmp_path/arena`` may hold its bots already."""
    return stalled_run(tmp_path, *goal, executor=cluster, run_env=run_env)


def add_staller_and_random(data: Path) -> None:
    add_random_bots(data, ["r1"])
    add_staller(data)


def parent_of(pid: int) -> int:
    stat = (Path("/proc") / str(pid) / "stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def replayed_once(data: Path) -> list[Match]:
    """The store invariants, and the match in play when the kill came counted at its second attempt."""
    matches = check_store_is_consistent(data)
    done = [m for m in matches if m.status == MatchStatus.DONE.value]
    assert any(m.attempt == 2 for m in done), [(m.id, m.status, m.attempt) for m in matches]
    assert bot_processes_under(data.resolve()) == []
    return done
