"""Misbehaving bots against the real referee: bot processes, gRPC on unix sockets, small clocks.

Each test plays one hand (``hands:1``) with a bot from ``tests/bots`` at one seat and the random
sample bot at the other three (in-process for the start-up tests, so that only the bot under
test has to start), then checks the recorded fault (kind, seat, evidence), what the policy made
of it (forfeit: the other partnership wins; substitute: the match completes and every strike
is counted), and that no bot process outlives the match.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path

import pytest

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.messages import BotFault, DecisionReply, DecisionRequest, MatchStart
from arena.contract.time_control import TimeControl
from arena.referee.grpc_seat import MAX_REPLY_BYTES, GrpcSeat
from arena.referee.launcher import BotCommand
from arena.referee.local import play_local_match
from arena.referee.match_recorder import MatchRecorder, read_match_record
from arena.referee.table import NOTIFY_TIMEOUT, Table
from arena.referee.table_values import MatchOutcome
from tests.bots.malformed import OVERSIZED_ID
from tests.referee_helpers import (
    CLOCK,
    RANDOM,
    TIGHT,
    Played,
    among_in_process_bots,
    grpc_seats,
    is_running,
    lineup,
    live_children,
    misbehaving_bot,
    play,
    run_seats,
    run_table,
    table_config,
)

HAND_SIZE = 13
SUBSTITUTE = FaultPolicy.SUBSTITUTE

def assert_forfeited(played: Played, seat: int, kind: FaultKind) -> None:
    """One fault of ``kind`` at ``seat``; its partnership forfeits, the other one wins; the
    record ends with the same verdict."""
    outcome = played.outcome
    fault = played.fault
    assert (fault.seat, fault.kind) == (seat, kind), fault
    assert fault.bot == played.seats[seat].name
    assert outcome.status == "done"
    assert outcome.forfeit_team == seat % 2
    assert outcome.winner_team == 1 - seat % 2
    end = played.record[-1]
    assert end["type"] == "match_end"
    assert (end["forfeit_team"], end["winner_team"]) == (seat % 2, 1 - seat % 2)
    assert [(f["seat"], f["kind"]) for f in end["faults"]] == [(seat, kind.value)]


def assert_fault_in_hand_record(played: Played, seat: int, kind: FaultKind) -> None:
    """The unfinished hand is on record, ending with the faulty decision."""
    (hand,) = played.lines("hand")
    assert not hand["complete"]
    last = hand["decisions"][-1]
    assert (last["seat"], last["fault"], last["substituted"]) == (seat, kind.value, False)
    assert last["request_id"] == played.fault.request_id != ""


def assert_processes_gone(played: Played, count: int = 4) -> None:
    """``count`` bot processes were started, and none outlived the match."""
    assert len(played.pids) == count
    assert not [pid for pid in played.pids if is_running(pid)], "bot processes outlived the match"
    assert live_children() == [], "the referee left child processes behind"


def assert_substituted(played: Played, seat: int, kind: FaultKind, strikes: int,
                       substituted: int | None = None) -> None:
    """The match completed with ``strikes`` faults of ``kind``, all at ``seat``; the referee
    took ``substituted`` of its decisions (default: one per strike) and none of another seat's."""
    outcome = played.outcome
    substituted = strikes if substituted is None else substituted
    assert outcome.status == "done" and outcome.forfeit_team is None
    assert len(outcome.hands) == 1
    assert [(f.seat, f.kind) for f in outcome.faults] == [(seat, kind)] * strikes
    assert outcome.substitutions == [substituted if s == seat else 0 for s in range(4)]
    (hand,) = played.lines("hand")
    assert hand["complete"]
    faulty = [d for d in hand["decisions"] if d["fault"]]
    assert [(d["seat"], d["fault"], d["substituted"]) for d in faulty] == [(seat, kind.value, True)] * strikes
    assert sum(d["substituted"] for d in hand["decisions"]) == substituted
    assert played.record[-1]["substitutions"] == outcome.substitutions


# --------------------------------------------------------------------------- start-up
# The bot under test is the only process here; the other seats are in-process random bots.
def test_a_bot_that_exits_at_once_fails_to_start_and_its_partnership_forfeits(tmp_path: Path) -> None:
    seats = among_in_process_bots(misbehaving_bot("no_start", "exit"), 1, tmp_path)
    played = asyncio.run(run_seats(table_config("exit-at-once"), seats, tmp_path))
    assert_forfeited(played, 1, FaultKind.FAILED_START)
    assert "exited before serving" in played.fault.detail
    assert "exited with code 3" in played.fault.detail
    assert played.outcome.hands == [] and played.lines("hand") == []
    assert played.elapsed < CLOCK.startup / 2, "an exit must be noticed, not waited out"
    assert played.returncode(1) == 3
    assert "not serving today" in played.log(1)
    assert_processes_gone(played, 1)


def test_a_program_that_cannot_be_run_fails_to_start(tmp_path: Path) -> None:
    ghost = BotCommand("ghost", (str(tmp_path / "no-such-bot"),))
    played = asyncio.run(run_seats(table_config("ghost"), among_in_process_bots(ghost, 2, tmp_path), tmp_path))
    assert_forfeited(played, 2, FaultKind.FAILED_START)
    assert "cannot start" in played.fault.detail
    assert_processes_gone(played, 0)


def test_a_bot_that_never_serves_fails_to_start_when_its_budget_runs_out(tmp_path: Path) -> None:
    control = TimeControl(per_move=1.0, bank=1.0, startup=2.0)
    seats = among_in_process_bots(misbehaving_bot("no_start", "silent"), 3, tmp_path)
    played = asyncio.run(run_seats(table_config("silent", time_control=control), seats, tmp_path))
    assert_forfeited(played, 3, FaultKind.FAILED_START)
    assert "not SERVING within the start-up budget" in played.fault.detail
    assert control.startup <= played.elapsed < control.startup + NOTIFY_TIMEOUT + 1.0
    assert played.returncode(3) is not None
    assert_processes_gone(played, 1)


def test_a_failed_start_under_substitute_is_played_by_the_referee(tmp_path: Path) -> None:
    seats = among_in_process_bots(misbehaving_bot("no_start", "exit"), 1, tmp_path)
    played = asyncio.run(run_seats(table_config("exit-substitute", policy=SUBSTITUTE), seats, tmp_path))
    assert played.fault.kind is FaultKind.FAILED_START
    assert played.outcome.status == "done" and played.outcome.forfeit_team is None
    assert played.outcome.hands, "the match goes on with the referee playing the seat"
    assert played.outcome.substitutions[1] > 0
    assert played.outcome.substitutions[0] == played.outcome.substitutions[2] == 0


# ------------------------------------------------------------------------ during play
def test_a_bot_exiting_during_a_hand_is_a_crash(tmp_path: Path) -> None:
    played = play(table_config("exit-mid-hand"), lineup(misbehaving_bot("exit_at", "--at", "3", "--code", "17"), 2),
                  tmp_path)
    assert_forfeited(played, 2, FaultKind.CRASH)
    assert played.fault.hand == 0
    assert_fault_in_hand_record(played, 2, FaultKind.CRASH)
    assert played.returncode(2) == 17
    assert "leaving at play 3" in played.log(2)
    assert_processes_gone(played)


def test_a_crashed_bot_is_substituted_for_the_rest_of_the_match(tmp_path: Path) -> None:
    played = play(table_config("exit-substitute", policy=SUBSTITUTE),
                  lineup(misbehaving_bot("exit_at", "--at", "3", "--code", "17"), 2), tmp_path)
    # One strike: a dead bot is not asked again; its 11 remaining plays are the referee's.
    assert_substituted(played, 2, FaultKind.CRASH, strikes=1, substituted=HAND_SIZE - 2)
    assert played.returncode(2) == 17
    assert_processes_gone(played)


def test_a_hanging_bot_times_out_and_its_whole_process_group_is_stopped(tmp_path: Path) -> None:
    pidfile = tmp_path / "child.pid"
    hang = misbehaving_bot("hang", "--child", str(pidfile))
    played = play(table_config("hang", time_control=TIGHT), lineup(hang, 3), tmp_path)
    assert_forfeited(played, 3, FaultKind.TIMEOUT)
    assert_fault_in_hand_record(played, 3, FaultKind.TIMEOUT)
    (hand,) = played.lines("hand")
    allowance = TIGHT.per_move + TIGHT.bank
    assert hand["decisions"][-1]["ms"] >= allowance * 1000
    # Start-up, the deadline, the hung bot's EndMatch notification: nothing waits longer.
    assert played.elapsed < TIGHT.startup + allowance + TIGHT.grace + NOTIFY_TIMEOUT
    assert played.returncode(3) is not None
    assert_processes_gone(played)
    assert not is_running(int(pidfile.read_text())), "the hung bot's child process survived"


def test_a_reply_after_the_deadline_is_a_timeout(tmp_path: Path) -> None:
    late = misbehaving_bot("slow", "--seconds", "1.0", "--at", "2")
    played = play(table_config("late", time_control=TIGHT), lineup(late, 0), tmp_path)
    assert_forfeited(played, 0, FaultKind.TIMEOUT)
    assert "no reply before the call's deadline of 0.350 s" in played.fault.detail
    assert_fault_in_hand_record(played, 0, FaultKind.TIMEOUT)
    assert_processes_gone(played)


def test_a_reply_over_the_allowance_is_a_timeout_even_within_the_grace(tmp_path: Path) -> None:
    """The referee's measurement decides, not the gRPC deadline: a big grace lets the late
    reply arrive, and it is still a timeout (substituted; the match goes on)."""
    control = TimeControl(per_move=0.5, bank=0.1, grace=2.0, startup=5.0)
    played = play(table_config("grace", policy=SUBSTITUTE, time_control=control),
                  lineup(misbehaving_bot("slow", "--seconds", "1.2", "--at", "2"), 1), tmp_path)
    assert_substituted(played, 1, FaultKind.TIMEOUT, strikes=1)
    assert "answered after" in played.fault.detail
    (hand,) = played.lines("hand")
    struck = next(d for d in hand["decisions"] if d["fault"])
    assert 0.6 * 1000 < struck["ms"] < 2.6 * 1000
    assert struck["bank_left"] == 0.0
    assert_processes_gone(played)


@pytest.mark.parametrize(("mode", "evidence"), [
    ("off-suit", "must follow suit"),
    ("not-in-hand", "does not hold it"),
])
def test_an_illegal_card_forfeits(tmp_path: Path, mode: str, evidence: str) -> None:
    played = play(table_config(f"illegal-{mode}"), lineup(misbehaving_bot("illegal", mode, "--at", "2"), 1), tmp_path)
    assert_forfeited(played, 1, FaultKind.ILLEGAL_ACTION)
    assert evidence in played.fault.detail
    assert_fault_in_hand_record(played, 1, FaultKind.ILLEGAL_ACTION)
    assert_processes_gone(played)


def test_every_illegal_card_is_a_strike_under_the_substitute_policy(tmp_path: Path) -> None:
    played = play(table_config("illegal-substitute", policy=SUBSTITUTE),
                  lineup(misbehaving_bot("illegal", "not-in-hand", "--repeat"), 3), tmp_path)
    assert_substituted(played, 3, FaultKind.ILLEGAL_ACTION, strikes=HAND_SIZE)
    assert all("does not hold it" in f.detail for f in played.outcome.faults)
    assert_processes_gone(played)


@pytest.mark.parametrize(("mode", "evidence"), [
    ("no-action", "no action"),
    ("unspecified-card", "is not a card"),
    ("oversized", f"larger than {MAX_REPLY_BYTES} bytes"),
    ("wrong-id", "reply echoes another request id"),
    pytest.param("garbage", "not a DecideResponse"),
])
def test_a_malformed_reply_forfeits(tmp_path: Path, mode: str, evidence: str) -> None:
    played = play(table_config(f"malformed-{mode}"), lineup(misbehaving_bot("malformed", mode, "--at", "2"), 2),
                  tmp_path)
    assert_forfeited(played, 2, FaultKind.MALFORMED_REPLY)
    assert evidence in played.fault.detail
    assert_fault_in_hand_record(played, 2, FaultKind.MALFORMED_REPLY)
    assert_processes_gone(played)


def test_an_undecodable_start_reply_is_a_failed_start(tmp_path: Path) -> None:
    played = play(table_config("garbage-start"), lineup(misbehaving_bot("malformed", "garbage-start"), 0), tmp_path)
    assert_forfeited(played, 0, FaultKind.FAILED_START)
    assert_processes_gone(played)


def test_every_wrong_request_id_is_a_strike_under_the_substitute_policy(tmp_path: Path) -> None:
    played = play(table_config("wrong-id-substitute", policy=SUBSTITUTE),
                  lineup(misbehaving_bot("malformed", "wrong-id", "--at", "4", "--repeat"), 0), tmp_path)
    assert_substituted(played, 0, FaultKind.MALFORMED_REPLY, strikes=HAND_SIZE - 3)
    assert_processes_gone(played)


def test_a_bot_raising_in_play_is_a_crash(tmp_path: Path) -> None:
    played = play(table_config("raises"), lineup(misbehaving_bot("raises", "--at", "2"), 3), tmp_path)
    assert_forfeited(played, 3, FaultKind.CRASH)
    assert played.fault.detail.startswith("call ended with status INTERNAL after ")
    assert "bug in my bot (play 2)" in played.fault.evidence, "the bot's text is kept for its author"
    assert_fault_in_hand_record(played, 3, FaultKind.CRASH)
    assert "Traceback" in played.log(3), "the SDK logs the bot's traceback for its author"
    assert_processes_gone(played)


def test_what_a_raising_bot_says_does_not_change_its_fault(tmp_path: Path) -> None:
    bot = misbehaving_bot("raises", "--message", "cannot deserialize my model")
    played = play(table_config("raises-deserialize"), lineup(bot, 1), tmp_path)
    assert_forfeited(played, 1, FaultKind.CRASH)


def test_the_local_match_runner_records_a_forfeit(tmp_path: Path) -> None:
    bad = misbehaving_bot("illegal", "not-in-hand", "--at", "2")
    outcome = asyncio.run(play_local_match((RANDOM, RANDOM), (bad, RANDOM), table_config("local"), tmp_path))
    assert (outcome.forfeit_team, outcome.winner_team) == (1, 0)
    assert [(f.seat, f.kind) for f in outcome.faults] == [(1, FaultKind.ILLEGAL_ACTION)]
    lines = list(read_match_record(tmp_path / "local.jsonl"))
    assert [line["type"] for line in lines] == ["match_start", "hand", "match_end"]
    assert lines[0]["seats"] == ["random", "illegal", "random", "random"]
    assert (tmp_path / "local.seat1.log").exists()


# ----------------------------------------------------------------- two tables, one referee
class TimedSeat(GrpcSeat):
    """Notes when one of its calls ended in a fault (to compare with another table's finish)."""

    faulted_at: float | None = None

    async def decide(self, request: DecisionRequest, timeout: float) -> DecisionReply:
        try:
            return await super().decide(request, timeout)
        except BotFault:
            self.faulted_at = time.perf_counter()
            raise


def test_a_hung_table_does_not_hold_up_another_table(tmp_path: Path) -> None:
    """Two tables in one referee process: the one with a hung bot waits out its deadline
    (8.2 s: room for four bots to start and play a hand on a loaded 2-core machine) while the
    other plays its hand and finishes, before that deadline."""
    clock = TimeControl(per_move=0.2, bank=8.0, startup=5.0)
    allowance = clock.per_move + clock.bank
    hung = grpc_seats(lineup(misbehaving_bot("hang"), 0), tmp_path / "hung")
    timed = TimedSeat(hung[0].name, hung[0].address, hung[0].process)
    hung[0] = timed

    async def both() -> tuple[Played, Played, float, float, bool]:
        started = time.perf_counter()
        bad = asyncio.create_task(run_seats(table_config("hung", time_control=clock), hung, tmp_path / "hung"))
        good = await run_table(table_config("good", time_control=clock), [RANDOM] * 4, tmp_path / "good")
        good_closed = time.perf_counter()
        bad_pending = not bad.done()
        return good, await bad, started, good_closed, bad_pending

    good, bad, started, good_closed, bad_pending = asyncio.run(both())
    assert good.outcome.status == "done" and good.outcome.faults == []
    assert len(good.outcome.hands) == 1
    assert bad_pending, "the good table returned only after the hung table had finished"
    assert good_closed - started < allowance, "the good table waited for the hung table's deadline"
    assert timed.faulted_at is not None and good_closed < timed.faulted_at
    assert_forfeited(bad, 0, FaultKind.TIMEOUT)
    assert_processes_gone(good)
    assert_processes_gone(bad)


class BrokenStartSeat(GrpcSeat):
    """The referee's own failure while starting this seat: not the bot's fault."""

    async def start(self, start: MatchStart, timeout: float) -> None:
        raise OSError("referee: cannot create the socket folder")


def test_a_platform_error_at_start_up_blames_no_bot_and_leaves_no_task_behind(tmp_path: Path) -> None:
    control = TimeControl(per_move=0.2, bank=0.1, startup=2.0)
    seats = among_in_process_bots(misbehaving_bot("no_start", "silent"), 2, tmp_path)
    seats[0] = BrokenStartSeat("broken", f"unix:{tmp_path}/seat0.sock")
    silent = seats[2]
    assert isinstance(silent, GrpcSeat) and silent.process is not None

    async def scenario() -> tuple[MatchOutcome, list[asyncio.Task[object]]]:
        table = Table(table_config("broken-start", time_control=control), seats,
                      MatchRecorder(tmp_path / "broken-start.jsonl"))
        try:
            outcome = await table.run()
            stray = [t for t in asyncio.all_tasks() if getattr(t.get_coro(), "__qualname__", "").startswith("Table.")]
            # Let them finish, as they would in a long-running referee (bounded by the start-up budget).
            await asyncio.gather(*stray, return_exceptions=True)
        finally:
            await asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
        return outcome, stray

    outcome, stray = asyncio.run(scenario())
    assert outcome.status == "void"
    assert "cannot create the socket folder" in (outcome.void_reason or "")
    assert list(read_match_record(tmp_path / "broken-start.jsonl"))[-1]["faults"] == []
    assert outcome.faults == [], "faults were added to the outcome after Table.run returned it"
    assert stray == [], "start-up tasks still running after Table.run returned"
    # Cancelled before or after spawning: either way no bot process is left running.
    assert silent.process.process is None or not is_running(silent.process.process.pid)


# ------------------------------------------------------- the bot does not name its fault
@pytest.mark.parametrize(("code", "details"), [
    ("DEADLINE_EXCEEDED", "Deadline Exceeded"),
    ("RESOURCE_EXHAUSTED", "CLIENT: Received message larger than max (100004 vs. 65536)"),
])
def test_a_status_the_bot_sends_at_once_is_a_crash_not_the_fault_it_names(
        tmp_path: Path, code: str, details: str) -> None:
    """Classified by the referee's clock and its own count of the reply's bytes: an instant
    DEADLINE_EXCEEDED is no timeout, a RESOURCE_EXHAUSTED with no reply is no oversized reply
    (the code before issue 12 recorded a timeout and "reply larger than 65536 bytes")."""
    bot = misbehaving_bot("status", "--code", code, "--details", details, "--at", "2", "--repeat")
    played = play(table_config(f"status-{code}", policy=SUBSTITUTE), lineup(bot, 1), tmp_path)
    assert_substituted(played, 1, FaultKind.CRASH, strikes=1, substituted=HAND_SIZE - 1)
    assert played.fault.detail.startswith(f"call ended with status {code} after 0.")
    assert "larger than" not in played.fault.detail and "deadline" not in played.fault.detail
    assert details in played.fault.evidence
    assert_processes_gone(played)


def test_an_oversized_reply_is_measured_by_the_referee(tmp_path: Path) -> None:
    played = play(table_config("oversized-measured"),
                  lineup(misbehaving_bot("malformed", "oversized", "--at", "2"), 0), tmp_path)
    assert_forfeited(played, 0, FaultKind.MALFORMED_REPLY)
    size = len(OVERSIZED_ID) + 7  # the request id's field header and the action it still carries
    assert abs(int(played.fault.detail.split()[2]) - size) < 16, played.fault.detail
    assert played.fault.detail.endswith(f"is larger than {MAX_REPLY_BYTES} bytes")
