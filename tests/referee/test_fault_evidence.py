"""A bot's last words reach its fault's evidence even when its exit is seen first.

The referee learns of an exit from the child watcher and reads the bot's output through a pump
task; the two race, and a fault raised on the exit once carried an empty log tail (CI, session
9: ``failed-start-with-log``). Here the bot's last line comes from a process it leaves behind,
0.6 s after it has exited: the referee's start-up loop sees the exit well before that (its
health polls run every 0.25 s), so on the plain tail the line was missing every time; the
settled tail waits for the log to end.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from arena.contract.faults import FaultKind
from arena.referee.launcher import BotCommand
from tests.referee_helpers import among_in_process_bots, run_seats, table_config

LAST_WORDS = "LAST-WORDS-41c7"


def test_a_failed_starts_evidence_holds_the_line_written_after_the_exit(tmp_path: Path) -> None:
    command = BotCommand("exits", ("sh", "-c", f"(sleep 0.6; echo {LAST_WORDS}) & exit 3"))
    seats = among_in_process_bots(command, 1, tmp_path)
    played = asyncio.run(run_seats(table_config("last-words"), seats, tmp_path))
    fault = played.outcome.faults[0]
    assert (fault.seat, fault.kind) == (1, FaultKind.FAILED_START), fault
    assert LAST_WORDS in fault.evidence
