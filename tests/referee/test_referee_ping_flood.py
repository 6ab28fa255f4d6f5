"""A bot on a raw HTTP/2 server (``tests/bots/ping_flood.py``) that attacks the referee's
transport instead of playing: it floods PING frames while it stops reading the referee's
connection, or it answers a call with headers that never end (CONTINUATION frames) and never
acknowledges the referee's SETTINGS, so that gRPC's header limits do not apply to it yet.

Either way the match must end on the referee's clock, with the flooder as the seat at fault,
and what the referee keeps of the bot's words stays small.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import pytest

from arena.contract.faults import FaultKind
from arena.contract.time_control import TimeControl
from arena.referee import grpc_seat
from arena.referee.table import NOTIFY_TIMEOUT
from tests.referee_helpers import Played, among_in_process_bots, misbehaving_bot, run_seats, table_config

STARTUP = TimeControl(per_move=1.0, bank=1.0, startup=1.0)
"""A small start-up budget: the flooder is caught at its first call."""

HEADERS_STARTUP = TimeControl(per_move=1.0, bank=1.0, startup=10.0)
"""Room for gRPC to parse the 16 MiB of headers it allows before SETTINGS are acknowledged."""

STALLING = ("--read-chunk", "1024")
"""A PING flood from a bot that reads the referee's connection only a kilobyte per 4096 PINGs."""


ENDS_WITHIN = STARTUP.startup + NOTIFY_TIMEOUT + 2 * grpc_seat.STALL_GRACE + 3.0
"""Start-up, the EndMatch notification (the failed seat is told too), and room for a busy machine."""


def stalling_match(tmp_path: Path) -> Played:
    seats = among_in_process_bots(misbehaving_bot("ping_flood", *STALLING), 1, tmp_path)
    run = run_seats(table_config("stall", time_control=STARTUP), seats, tmp_path)
    return asyncio.run(asyncio.wait_for(run, ENDS_WITHIN))


def test_a_flooder_that_stalls_the_connection_is_a_fault_and_the_match_ends(tmp_path: Path) -> None:
    played = stalling_match(tmp_path)
    fault = played.fault
    assert (fault.seat, fault.kind) == (1, FaultKind.FAILED_START)
    assert played.outcome.forfeit_team == 1
    assert played.closed_after < ENDS_WITHIN


def test_without_the_referees_own_clock_the_stalled_match_hangs(tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The negative control: gRPC's deadline alone does not end a call on a stalled
    connection, so the old call path (no bound of the referee's own) never finishes."""
    async def grpc_deadline_only(call: Any, timeout: float) -> Any:
        return await call

    monkeypatch.setattr(grpc_seat, "_bounded", grpc_deadline_only)
    with pytest.raises(TimeoutError):
        stalling_match(tmp_path)


def test_a_header_flood_is_a_fault_and_the_bots_words_are_kept_short(tmp_path: Path) -> None:
    seats = among_in_process_bots(misbehaving_bot("ping_flood", "--headers", "--no-ack-settings"), 1, tmp_path)
    played = asyncio.run(run_seats(table_config("headers", time_control=HEADERS_STARTUP), seats, tmp_path))
    fault = played.fault
    assert (fault.seat, fault.kind) == (1, FaultKind.FAILED_START)
    assert played.outcome.forfeit_team == 1
    # gRPC's own status text (when it is the health call's end) quotes every header: capped.
    assert len(fault.evidence) < 2 * grpc_seat.LOG_EVIDENCE


if __name__ == "__main__":  # pragma: no cover
    sys.exit(pytest.main([__file__, "-q"]))
