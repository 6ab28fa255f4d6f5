"""A faulting bot's own text never reaches the other seats (issue 12, section 5).

Real bot processes over gRPC on unix sockets: a bot writes a secret to its log (or into the
text of its error status) and then faults; the other three seats are listeners that keep the
raw bytes of every request the referee sends them. None of those bytes may hold the secret,
while the match record keeps it as the fault's evidence, for the bot's author.

Negative control: on the code before this change the fault's ``detail`` carried the log tail
and the status text, ``EndMatch`` sent it to every seat, and each case here failed on its
first assertion about the listeners' dumps.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from arena.contract.faults import FaultKind, FaultPolicy
from arena.referee.launcher import BotCommand
from tests.referee_helpers import grpc_seats, misbehaving_bot, run_seats, table_config

SECRET = "SECRET-7f3a9c-do-not-share"


def listener(dump: Path) -> BotCommand:
    return misbehaving_bot("listener", "--dump", str(dump))


def received_messages(dump: Path) -> list[tuple[str, bytes]]:
    """The (method, raw bytes) of every request a listener received, in order."""
    data = dump.read_bytes()
    messages = []
    while data:
        header, data = data.split(b"\n", 1)
        method, length = header.decode().split()
        messages.append((method, data[:int(length)]))
        data = data[int(length) + 1:]
    return messages


FAULTY = {
    "crash-with-log": (lambda: misbehaving_bot("exit_at", "--at", "2", "--secret", SECRET), FaultKind.CRASH),
    "crash-with-status-text": (lambda: misbehaving_bot("raises", "--at", "2", "--message", SECRET),
                               FaultKind.CRASH),
    "failed-start-with-log": (lambda: misbehaving_bot("no_start", "exit", SECRET), FaultKind.FAILED_START),
}


@pytest.mark.parametrize("policy", [FaultPolicy.FORFEIT, FaultPolicy.SUBSTITUTE])
@pytest.mark.parametrize("case", sorted(FAULTY))
def test_a_faulting_bots_log_reaches_its_record_and_no_other_seat(
        tmp_path: Path, case: str, policy: FaultPolicy) -> None:
    make_faulty, kind = FAULTY[case]
    dumps = [tmp_path / f"seat{seat}.dump" for seat in range(4)]
    commands = [listener(dump) for dump in dumps]
    commands[1] = make_faulty()
    seats = grpc_seats(commands, tmp_path)
    played = asyncio.run(run_seats(table_config(f"privacy-{case}", policy=policy), seats, tmp_path))

    fault = played.outcome.faults[0]
    assert (fault.seat, fault.kind) == (1, kind), fault
    assert SECRET not in fault.detail
    assert SECRET in fault.evidence, "the bot's own text is kept for its author"
    (end,) = played.lines("match_end")
    assert SECRET in end["faults"][0]["evidence"] and SECRET not in end["faults"][0]["detail"]

    for seat in (0, 2, 3):
        messages = received_messages(dumps[seat])
        methods = [method for method, _ in messages]
        assert methods[0] == "StartMatch" and methods[-1] == "EndMatch", methods
        if policy is FaultPolicy.SUBSTITUTE:  # the hand goes on: decisions and its end reach every seat
            assert "Decide" in methods and "EndHand" in methods, methods
        leaked = [method for method, data in messages if SECRET.encode() in data]
        assert leaked == [], f"seat {seat} received the faulting bot's text in {leaked}"
        assert b"status text" not in messages[-1][1] and b"log tail" not in messages[-1][1]
    end_match = received_messages(dumps[0])[-1][1]
    assert kind.name.encode() not in end_match  # enum numbers on the wire, not names
    assert fault.detail.encode() in end_match, "the referee's own words are still sent"
