"""Issue 23: partners must not pass cards through when their moves reach the table.

The timing pair (``tests/hostile/bots/timing.py``) plays in process at real tables, on a
virtual clock the referee and the bots share (seconds pass only when a bot says so, a hold to a
slot's end takes none, and every figure is exact): seat 0
delays each reply by ``base + step * c`` ms for a card number ``c``, seat 2 decodes the gap
before its own next request, seats 1 and 3 answer at once. Released on reply the cards come
through; released at the end of each slot they do not. The bank rule (an overrun spends the
whole bank and is released at the allowance's end) and timeouts are shown at the same tables.
"""

from __future__ import annotations

import asyncio
import itertools
import statistics
import threading
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.messages import DecisionReply, DecisionRequest, SeatEndpoint
from arena.contract.time_control import MoveRelease, SeatClock, TimeControl
from arena.referee.in_process import InProcessSeat
from arena.referee.match_record_lines import RecordedTimeControl
from arena.referee.match_recorder import MatchRecorder, read_match_record
from arena.referee.referee_clock import MONOTONIC
from arena.referee.table import Table
from arena.referee.table_values import MatchOutcome
from protocol.convert import time_control_from_pb, time_control_to_pb
from sdk.bot import Bot, BotView
from tests.hostile.harness import table_config
from tests.hostile.timing_pair import ChannelFigures, figures, pairs, timing_module
from tests.timing_helpers import VirtualClock

BASE_MS, STEP_MS = 15.0, 2.0
"""The issue's code scaled to a 150 ms slot: 15 + 2 * 63 = 141 ms at most."""
PER_MOVE = 0.15


def clock(release: MoveRelease, per_move: float = PER_MOVE, bank: float = 0.3) -> TimeControl:
    return TimeControl(per_move=per_move, bank=bank, startup=10.0, release=release)


class Stamped(InProcessSeat):
    """An in-process seat that notes when each request reached it (on the table's clock)."""

    def __init__(self, bot: Bot, clock: VirtualClock) -> None:
        super().__init__(bot)
        self.clock = clock
        self.stamps: list[float] = []

    async def decide(self, request: DecisionRequest, timeout: float) -> DecisionReply:
        self.stamps.append(self.clock.now())
        return await super().decide(request, timeout)


class Overrun(Bot):
    """Plays its first legal card; takes ``seconds`` (of ``clock``) at its decision number ``at``
    (from 0) and notes the bank each request announces."""

    name = "overrun"

    def __init__(self, at: int, seconds: float, clock: VirtualClock) -> None:
        self.at = at
        self.seconds = seconds
        self.clock = clock
        self.banks: list[float] = []

    def play(self, view: BotView) -> Any:
        if len(self.banks) == self.at:
            self.clock.advance(self.seconds)  # the overrun under test
        self.banks.append(view.bank_left)
        return view.legal_cards[0]


def fast() -> Bot:
    bot: Bot = timing_module().HostileBot()
    return bot


def play(control: TimeControl, bots: Sequence[Bot], clock: VirtualClock, hands: int = 1,
         policy: FaultPolicy = FaultPolicy.FORFEIT) -> tuple[MatchOutcome, list[Stamped]]:
    seats = [Stamped(bot, clock) for bot in bots]
    endpoints: list[SeatEndpoint] = list(seats)
    config = table_config(f"release-{control.release}", policy=policy, match_format=f"hands:{hands}",
                          time_control=control)
    return asyncio.run(Table(config, endpoints, clock=clock).run()), seats


def next_request(seats: Sequence[Stamped], after: float) -> float:
    """When the first request after ``after`` went out, to whichever seat."""
    return min(t for seat in seats for t in seat.stamps if t > after)


def transmit(release: MoveRelease, hands: int) -> ChannelFigures:
    module = timing_module()
    time = VirtualClock()
    sender = module.TimingSender(BASE_MS, STEP_MS, sleep=time.advance)
    receiver = module.TimingReceiver(BASE_MS, STEP_MS, clock=time.now)
    outcome, _ = play(clock(release), [sender, fast(), receiver, fast()], time, hands)
    assert outcome.faults == [], outcome.faults
    return figures(pairs(sender.sent, receiver.received))


def test_released_on_reply_the_partner_reads_the_senders_cards() -> None:
    """The negative control: the dispatch as it was passes six bits a move."""
    got = transmit(MoveRelease.ON_REPLY, hands=2)
    assert got.symbols >= 12
    assert got.correlation > 0.9, got
    assert got.ber < 0.1 and got.exact > 0.6 and got.bits_per_move > 3, got


def test_released_at_slot_end_the_gap_says_nothing_of_the_senders_cards() -> None:
    got = transmit(MoveRelease.SLOT_END, hands=2)
    assert got.symbols >= 12
    # Independent of the delay: with ~18 pairs a correlation of 0.7 is three standard errors.
    assert abs(got.correlation) < 0.7, got
    assert got.ber > 0.3 and got.exact < 0.2 and got.bits_per_move < 1.0, got


def test_a_move_within_the_slot_waits_for_the_slots_end() -> None:
    """Every request goes out one slot after the one before, however fast the answers."""
    _, seats = play(clock(MoveRelease.SLOT_END, per_move=0.05), [fast(), fast(), fast(), fast()], VirtualClock())
    stamps = sorted(t for seat in seats for t in seat.stamps)
    gaps = [b - a for a, b in itertools.pairwise(stamps)]
    assert min(gaps) >= 0.05 - 0.005, min(gaps)


def test_an_overrun_spends_the_whole_bank_and_is_released_at_the_allowances_end() -> None:
    time = VirtualClock()
    overrun = Overrun(at=1, seconds=0.2, clock=time)  # 0.1 s into a 0.3 s bank
    _, seats = play(clock(MoveRelease.SLOT_END, per_move=0.1), [overrun, fast(), fast(), fast()], time)
    assert overrun.banks[:3] == [pytest.approx(0.3), pytest.approx(0.3), 0.0]
    asked = seats[0].stamps[1]
    assert next_request(seats, asked) - asked >= 0.1 + 0.3 - 0.005


def test_the_control_on_reply_charges_only_the_overrun_and_releases_at_once() -> None:
    time = VirtualClock()
    overrun = Overrun(at=1, seconds=0.2, clock=time)
    _, seats = play(clock(MoveRelease.ON_REPLY, per_move=0.1), [overrun, fast(), fast(), fast()], time)
    assert overrun.banks[2] == pytest.approx(0.2, abs=0.05)
    asked = seats[0].stamps[1]
    assert next_request(seats, asked) - asked < 0.1 + 0.3 - 0.05


def test_a_reply_past_the_allowance_is_still_a_timeout() -> None:
    time = VirtualClock()
    late = Overrun(at=1, seconds=0.5, clock=time)  # past 0.1 s + 0.3 s of bank
    outcome, _ = play(clock(MoveRelease.SLOT_END, per_move=0.1), [late, fast(), fast(), fast()], time,
                      policy=FaultPolicy.SUBSTITUTE)
    assert [f.kind for f in outcome.faults] == [FaultKind.TIMEOUT]
    assert outcome.substitutions[0] == 1
    assert late.banks[2] == 0.0


@pytest.mark.parametrize(("elapsed", "within", "release_at", "bank"), [
    (0.2, True, 1.0, 2.0),      # early: held to the slot's end, bank untouched
    (1.0, True, 1.0, 2.0),      # exactly the slot
    (1.3, True, 3.0, 0.0),      # an overrun: the whole bank, released at the allowance's end
    (3.2, False, 3.2, 0.0),     # a timeout: released when it is known
])
def test_settle_at_slot_end(elapsed: float, within: bool, release_at: float, bank: float) -> None:
    clock = SeatClock.new(TimeControl(per_move=1.0, bank=2.0, release=MoveRelease.SLOT_END))
    settled = clock.settle(elapsed)
    assert settled.within is within and clock.bank_left == bank
    assert settled.release_at == pytest.approx(release_at)


def test_settle_on_reply_is_the_old_arithmetic() -> None:
    clock = SeatClock.new(TimeControl(per_move=1.0, bank=2.0))
    assert clock.settle(0.5).release_at == 0.5 and clock.bank_left == 2.0
    assert clock.settle(1.75).within and clock.bank_left == pytest.approx(1.25)
    assert not clock.settle(2.5).within


def test_the_record_says_which_release_a_match_used_and_older_records_read_as_on_reply(tmp_path: Path) -> None:
    config = table_config("recorded", match_format="hands:1", time_control=clock(MoveRelease.SLOT_END, per_move=0.01))
    path = tmp_path / "match.jsonl"
    asyncio.run(Table(config, [InProcessSeat(fast()) for _ in range(4)], MatchRecorder(path)).run())
    start = next(read_match_record(path))
    assert start["time_control"]["release"] == "slot-end"
    older = {key: value for key, value in start["time_control"].items() if key != "release"}
    assert RecordedTimeControl.model_validate(older).release is MoveRelease.ON_REPLY


@pytest.mark.parametrize("release", list(MoveRelease))
def test_bots_are_told_the_release_and_an_older_referee_means_on_reply(release: MoveRelease) -> None:
    control = clock(release)
    assert time_control_from_pb(time_control_to_pb(control)) == control
    older = time_control_to_pb(control)
    older.ClearField("release")
    assert time_control_from_pb(older).release is MoveRelease.ON_REPLY


async def release_lateness(hold: Callable[[float], Awaitable[None]], delay: float, slot: float) -> float:
    """How late (s) ``hold`` releases a move whose reply came ``delay`` s into a ``slot``: the
    reply is a thread's wake-up reaching the loop, like a gRPC reply does."""
    loop = asyncio.get_running_loop()
    reply: asyncio.Future[None] = loop.create_future()
    start = time.perf_counter()

    def answer() -> None:
        time.sleep(delay)  # the bot thinking: its reply time is the attack
        loop.call_soon_threadsafe(reply.set_result, None)

    threading.Thread(target=answer).start()
    await reply
    await hold(start + slot)
    return time.perf_counter() - start - slot


def phase_spread(hold: Callable[[float], Awaitable[None]]) -> float:
    """The spread (s) of the median lateness over replies at ten sub-millisecond phases."""
    async def run() -> float:
        late: dict[int, list[float]] = {phase: [] for phase in range(10)}
        for index in range(120):
            phase = index % 10
            late[phase].append(await release_lateness(hold, 0.005 + index // 10 * 0.001 + phase * 0.0001, 0.03))
        medians = [statistics.median(values) for values in late.values()]
        return max(medians) - min(medians)
    return asyncio.run(run())


async def loop_only_hold(moment: float) -> None:
    """The hold without its precise last stretch: the event loop's own sleep."""
    await asyncio.sleep(max(0.0, moment - time.perf_counter()))


@pytest.mark.alone("sub-millisecond timing on the real clock: other tests' load would blur the phase")
def test_the_release_moment_does_not_follow_the_replys_sub_millisecond_phase() -> None:
    """The loop wakes on a millisecond grid counted from the reply, so a loop-only hold is late
    by 0-1.2 ms as a sawtooth of the reply time's phase: a channel of its own. The table's hold
    sleeps its last stretch on the thread's clock."""
    assert phase_spread(MONOTONIC.hold_until) < 0.00035
    assert phase_spread(loop_only_hold) > 0.00035, "the control: the loop alone leaks the phase"
