"""Playing a tournament's pairings with real bot processes: cancelled midway (as Ctrl-C does), the
finished results stay and every bot is stopped; played again, only the rest is played, and every
pairing meets the same cards."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
from dataclasses import replace
from pathlib import Path

from arena.contract.faults import FaultPolicy
from arena.contract.time_control import MoveRelease
from arena.engine.rules import rules_for
from arena.referee.live_view import LiveState, live_path
from arena.referee.table_values import AnyResult
from arena.referee.tournament.plan import (
    Entrant,
    Pairing,
    PairingResult,
    TournamentPlan,
    create_plan,
    make_pairings,
    read_results,
)
from arena.referee.tournament.play import Silent, TournamentSetup, play_pairings
from arena.sandbox import Limits, LocalRunner
from arena.sandbox.runner import Launch, Program
from tests.referee_helpers import RANDOM

NAMES = ["r1", "r2", "r3"]


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


class Recorded(Launch):
    def __init__(self, base: Launch, pids: list[int]) -> None:
        super().__init__(base.argv, base.env, base.cwd, base.pass_fds, base.report)
        self.pids = pids

    def started(self, pid: int) -> None:
        super().started(pid)
        self.pids.append(pid)


class PidRecordingRunner(LocalRunner):
    """The local runner, keeping every bot's pid so the test can see that none is left."""

    def __init__(self) -> None:
        self.pids: list[int] = []

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        return Recorded(super().prepare(program, address, limits), self.pids)


class CancelAtFirstFinish(Silent):
    """Cancels the tournament's task when the first pairing has finished: what ``asyncio.run``
    does to its main task on Ctrl-C."""

    def __init__(self) -> None:
        self.task: asyncio.Task[object] | None = None
        self.finished_pairings: list[int] = []

    def finished(self, pairing: Pairing, result: PairingResult) -> None:
        self.finished_pairings.append(pairing.index)
        task, self.task = self.task, None
        if task is not None:
            task.cancel()


class CountRunning(Silent):
    """The most pairings under way at once."""

    def __init__(self) -> None:
        self.running = self.most = 0

    def started(self, pairing: Pairing) -> None:
        self.running += 1
        self.most = max(self.most, self.running)

    def finished(self, pairing: Pairing, result: PairingResult) -> None:
        self.running -= 1


class WatchingLive(CountRunning):
    """After each hand, the match's live file beside its record, as ``dehla serve`` reads it."""

    def __init__(self, records: Path, name: str) -> None:
        super().__init__()
        self.records = records
        self.name = name
        self.seen: list[str | None] = []

    def hand_played(self, pairing: Pairing, index: int, result: AnyResult) -> None:
        match = pairing.record_id(self.name)
        path = live_path(self.records, match)
        self.seen.append(LiveState.model_validate_json(path.read_text()).match_id if path.exists() else None)


def setup_in(folder: Path, runner: LocalRunner) -> TournamentSetup:
    plan = TournamentPlan(name="cup", entrants=tuple(Entrant(spec="random", name=n) for n in NAMES), deals=1,
                          seed=11, preset="dehla-pakad", per_move=1.0, bank=1.0, release=MoveRelease.ON_REPLY,
                          policy=FaultPolicy.FORFEIT, pairings=make_pairings(NAMES, None))
    create_plan(folder, plan)
    return TournamentSetup(plan, folder, folder / "local-matches", rules_for("dehla-pakad"),
                           {n: (RANDOM, RANDOM) for n in NAMES}, runner, concurrency=2)


def test_a_cancelled_tournament_keeps_its_finished_pairings_stops_its_bots_and_plays_only_the_rest(
        tmp_path: Path) -> None:
    runner = PidRecordingRunner()
    setup = setup_in(tmp_path, runner)
    events = CancelAtFirstFinish()

    async def tournament() -> None:
        events.task = asyncio.current_task()
        await play_pairings(setup, setup.plan.pairings, events)

    try:
        cancelled = False
        try:
            asyncio.run(tournament())
        except asyncio.CancelledError:
            cancelled = True
        assert cancelled
        kept = read_results(tmp_path, setup.plan)
        assert set(kept) == set(events.finished_pairings)
        assert 1 <= len(kept) < 3
        assert len(runner.pids) >= 8  # two pairings were under way at once (--concurrency 2)
        assert [pid for pid in runner.pids if running(pid)] == []
        finished_before = {index: (tmp_path / "results" / f"pairing-{index:03d}.json").read_bytes()
                           for index in kept}

        pending = [p for p in setup.plan.pairings if p.index not in kept]
        one_at_a_time = WatchingLive(setup.records, "cup")
        played = asyncio.run(play_pairings(replace(setup, concurrency=1), pending, one_at_a_time))
        assert one_at_a_time.most == 1
        assert one_at_a_time.seen and one_at_a_time.seen == [f"cup-pairing-{p.index:03d}" for p in pending
                                                              for _ in range(2)], "each match is live as it plays"
        assert not list(setup.records.glob("*.live.json")), "and its file goes at its end"
        assert sorted(r.index for r in played) == [p.index for p in pending]
        assert sorted(read_results(tmp_path, setup.plan)) == [1, 2, 3]
        for index, content in finished_before.items():
            assert (tmp_path / "results" / f"pairing-{index:03d}.json").read_bytes() == content
        assert [pid for pid in runner.pids if running(pid)] == []
    finally:
        for pid in runner.pids:  # a failing run leaves its bots: end them here
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)

    deals = []
    for pairing in setup.plan.pairings:
        record = tmp_path / "local-matches" / f"cup-{pairing.match_id}.jsonl"
        lines = [json.loads(line) for line in record.read_text().splitlines()]
        deals.append([line["record"]["deal"]["hands"] for line in lines if line["type"] == "hand"])
    assert len(deals[0]) == 2  # one deal, played twice
    assert deals[0] == deals[1] == deals[2]  # every pairing met the same cards
