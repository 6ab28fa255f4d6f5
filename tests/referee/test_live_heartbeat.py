"""A live file beats while its referee runs and stops when the referee is killed: a real process
runs a ``LiveBoard`` on its event loop, shows one table and makes no move; the file is rewritten
all the same (its ``updated`` rising), and once the process is killed (SIGKILL: nothing removes
the file) the file stays, its ``updated`` no later than the kill, so a reader that waits the
allowed time sees an abandoned match (``is_stale``), never a live one for ever."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

from arena.referee.live_view import STALE_AFTER, LiveState, is_stale

ROOT = Path(__file__).resolve().parents[2]

CHILD = textwrap.dedent("""
    import asyncio, sys
    from pathlib import Path
    from arena.referee.live_view import LiveBoard, LiveTable

    class Telling(LiveBoard):
        def _write(self):
            super()._write()
            print("wrote", flush=True)

    async def main():
        board = Telling(Path(sys.argv[1]), "m", ["a", "b", "c", "d"], heartbeat=0.05)
        board.show(None, LiveTable(hand=0, moves=3, dealer=0))
        await asyncio.Event().wait()  # a table waiting for a seat, for ever

    asyncio.run(main())
""")


def test_a_killed_referees_file_stops_beating_and_reads_as_abandoned(tmp_path: Path) -> None:
    path = tmp_path / "m.live.json"
    child = subprocess.Popen([sys.executable, "-c", CHILD, str(path)], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                             env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert child.stdout is not None
        seen = []
        for _ in range(3):  # the first write, then two heartbeats with no move made
            ready, _, _ = select.select([child.stdout], [], [], 20)  # a guard, not a wait: a line comes at once
            assert ready, "no write within 20 s (no heartbeat?)"
            assert child.stdout.readline() == "wrote\n"
            seen.append(LiveState.model_validate_json(path.read_text()))
        assert seen[0].updated < seen[-1].updated, "the heartbeat rewrites the file with a new time"
        assert [s.tables[0].moves for s in seen] == [3, 3, 3], "the same state, beating"
        assert not is_stale(seen[-1], seen[-1].updated + STALE_AFTER), "a beating file is live"
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    killed_at = time.time()
    left = LiveState.model_validate_json(path.read_text())  # nothing removed it
    assert left.updated <= killed_at
    assert is_stale(left, killed_at + STALE_AFTER + 0.001), "the allowed time after the kill: abandoned"
