"""A local match cancelled as it ends (a Ctrl-C to a ladder worker then) still stops every bot."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from pathlib import Path

from arena.referee.local import play_local_match
from arena.sandbox import Limits, LocalRunner, RunReport
from arena.sandbox.runner import Launch, Program
from tests.referee_helpers import RANDOM, table_config


class CancelsOnFirstFinish(Launch):
    """A local launch that, when the first bot of the match has been stopped, cancels the match's
    task: the cancellation lands while the other seats are still closing."""

    def __init__(self, base: Launch, runner: CancellingRunner) -> None:
        super().__init__(base.argv, base.env, base.cwd, base.pass_fds, base.report)
        self.runner = runner

    def started(self, pid: int) -> None:
        self.runner.pids.append(pid)

    async def finish(self) -> RunReport:
        match, self.runner.match = self.runner.match, None
        if match is not None:
            match.cancel()
        return await super().finish()


class CancellingRunner(LocalRunner):
    def __init__(self) -> None:
        self.pids: list[int] = []
        self.match: asyncio.Task[object] | None = None

    def prepare(self, program: Program, address: str, limits: Limits) -> Launch:
        return CancelsOnFirstFinish(super().prepare(program, address, limits), self)


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie waiting to be reaped)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def test_a_match_cancelled_while_its_seats_close_still_stops_every_bot(tmp_path: Path) -> None:
    """Without the shielded close, the cancellation cut the other seats' closing short: three of
    the four bots ran on after the match (and their pipes were closed by the collector once the
    event loop was gone: ``Exception ignored ... Event loop is closed`` in a ladder run's terminal)."""
    runner = CancellingRunner()

    async def match() -> None:
        runner.match = asyncio.current_task()
        await play_local_match((RANDOM, RANDOM), (RANDOM, RANDOM), table_config("m1"), tmp_path, None, runner)

    try:
        try:
            asyncio.run(match())
            cancelled = False
        except asyncio.CancelledError:
            cancelled = True
        assert cancelled
        assert len(runner.pids) == 4
        assert [pid for pid in runner.pids if running(pid)] == []
    finally:
        for pid in runner.pids:  # a failing run leaves its bots: end them here
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
