"""The timing-leak detector's statistic (issue 23, ``arena/referee/timing_leak.py``): a seat whose
times carry its cards is far above the ladder's threshold, an honest one below; invariants."""

from __future__ import annotations

import json
import random
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.contract.time_control import MoveRelease
from arena.engine.cards import SHORT_DECK
from arena.engine.errors import RecordError
from arena.referee.in_process import play_in_process
from arena.referee.match_record_lines import RecordedTimeControl
from arena.referee.match_recorder import match_record_lines
from arena.referee.timing_leak import (
    DetectorSettings,
    LeakEstimate,
    TimedDecision,
    TimingLeakError,
    leak_estimate,
    record_leaks,
    seen_ms,
    stratum,
    timed_decisions,
)
from ladder.store.timing_leaks import FLAG_BITS, FLAG_Z, flagged
from sample_bots.random.bot import RandomBot
from tests.bots.timing_signaller import TimingSignaller
from tests.timing_helpers import PacedBot, VirtualClock, honest, random_record, retimed, signalling, stream

FAST = DetectorSettings(permutations=32)


@pytest.fixture(scope="module")
def record(tmp_path_factory: pytest.TempPathFactory) -> str:
    return random_record(tmp_path_factory.mktemp("timing"))


def test_a_signalling_seat_is_far_above_the_threshold_and_its_honest_partner_below(record: str) -> None:
    leaks = record_leaks(retimed(record, signalling((0,))))
    assert set(leaks) == {0, 1, 2, 3}
    assert leaks[0].decisions > 150
    assert leaks[0].bits > 3 * FLAG_BITS and leaks[0].z > FLAG_Z and leaks[0].p_value < 0.05
    assert flagged(leaks[0].bits, leaks[0].z)
    for seat in (1, 2, 3):
        assert not flagged(leaks[seat].bits, leaks[seat].z)


def released(record: str, per_move: float, bank: float = 30.0) -> str:
    """``record`` as if played with the ladder's slot-end release at ``per_move`` seconds."""
    lines = [json.loads(text) for text in record.splitlines()]
    for line in lines:
        if line["type"] == "match_start":
            line["time_control"] = {**(line.get("time_control") or {}), "per_move": per_move, "bank": bank,
                                    "release": "slot-end"}
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def test_under_slot_end_release_reply_times_nobody_saw_are_not_a_leak(record: str) -> None:
    """Each reply within its slot is held to the slot's end, so the other seats see the same
    moment whatever the bot's time: the signaller's 30 + 15 x c ms inside a 1 s slot reaches no
    one. (Measured on the reply times, as before, it is flagged: the first test's figures.)"""
    leaks = record_leaks(released(retimed(record, signalling((0,))), per_move=1.0))
    assert set(leaks) == {0, 1, 2, 3}
    for estimate in leaks.values():
        assert estimate.bits == estimate.observed_bits == 0.0 and not flagged(estimate.bits, estimate.z)


def test_what_the_table_saw_is_the_reply_on_reply_and_the_slot_or_the_allowance_at_slot_end() -> None:
    slot_end = RecordedTimeControl(per_move=0.05, bank=2.0, release=MoveRelease.SLOT_END)
    assert [seen_ms(ms, slot_end) for ms in (3.0, 49.9, 50.0, 50.1, 900.0)] == [50.0, 50.0, 50.0, 2050.0, 2050.0]
    on_reply = RecordedTimeControl(per_move=0.05, bank=2.0, release=MoveRelease.ON_REPLY)
    assert [seen_ms(ms, on_reply) for ms in (3.0, 900.0)] == [3.0, 900.0]
    assert seen_ms(7.5, None) == 7.5  # a record without a time control: older ones were all on-reply


def test_times_that_grow_with_legal_actions_and_hand_size_say_nothing(record: str) -> None:
    """The strata absorb an honest bot's work: slow with many options, fast at the end of a hand."""
    seats = [estimate for seed in range(3) for estimate in record_leaks(retimed(record, honest, seed)).values()]
    assert len(seats) == 12
    for estimate in seats:
        assert not flagged(estimate.bits, estimate.z)
    assert abs(sum(e.bits for e in seats) / len(seats)) < FLAG_BITS
    assert sum(e.z for e in seats) / len(seats) ** 0.5 < FLAG_Z  # the ladder's combined z, as over a version


def test_a_machine_slower_in_some_hands_is_not_a_leak(record: str) -> None:
    """Every seat's times up to twice as slow in some hands as in others (a busier machine): the
    cards held say which hand it is, so they "predict" the time; the placebo (the other seats'
    cards, which say it as well) takes that out. Without it such seats measured 0.1-0.3 bits."""
    seats: list[LeakEstimate] = []
    for seed in range(3):
        slowdown = random.Random(seed)
        lines = []
        for text in retimed(record, honest, seed).splitlines():
            line = json.loads(text)
            if line["type"] == "hand":
                factor = slowdown.uniform(1, 2)
                for decision in line["decisions"]:
                    decision["ms"] *= factor
            lines.append(json.dumps(line))
        seats += record_leaks("\n".join(lines)).values()
    assert len(seats) == 12
    for estimate in seats:
        assert not flagged(estimate.bits, estimate.z), estimate
    assert abs(sum(e.bits for e in seats) / len(seats)) < FLAG_BITS


def test_a_synthetic_signal_is_found_and_noise_is_not() -> None:
    loud = leak_estimate(stream(400, lambda holding, rng: 30 + 15 * (holding.bit_length() - 1)
                                + rng.uniform(0, 5), seed=1))
    quiet = leak_estimate(stream(400, lambda holding, rng: rng.uniform(0, 100), seed=1))
    assert loud is not None and quiet is not None
    assert loud.bits > 3 * FLAG_BITS and loud.z > FLAG_Z and loud.p_value < 0.05
    assert abs(quiet.bits) < FLAG_BITS and quiet.z < FLAG_Z


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), count=st.integers(24, 200))
def test_independent_times_give_a_small_value_and_the_same_value_twice(seed: int, count: int) -> None:
    decisions = stream(count, lambda holding, rng: rng.lognormvariate(1, 1), seed)
    first = leak_estimate(decisions, FAST)
    again = leak_estimate(list(decisions), FAST)
    assert first == again and first is not None
    assert first.bits < first.baseline_bits  # the excess is small beside the plug-in bias it removes
    assert 0 < first.p_value <= 1
    assert first.observed_bits >= 0 and first.baseline_bits >= 0


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), scale=st.floats(0.001, 1000), shift=st.floats(0, 1000))
def test_only_the_order_of_times_within_a_stratum_matters(seed: int, scale: float, shift: float) -> None:
    decisions = stream(60, lambda holding, rng: rng.uniform(0, 100), seed)
    moved = [TimedDecision(d.stratum, d.ms * scale + shift, d.holding, d.hand) for d in decisions]
    assert leak_estimate(decisions, FAST) == leak_estimate(moved, FAST)


def test_constant_times_carry_nothing() -> None:
    estimate = leak_estimate(stream(100, lambda holding, rng: 5.0, seed=2), FAST)
    assert estimate is not None
    assert estimate.bits == 0 and estimate.observed_bits == 0 and estimate.z == 0


def test_too_few_decisions_give_no_estimate() -> None:
    assert leak_estimate(stream(23, lambda holding, rng: rng.random(), seed=1)) is None


def test_holdings_come_from_replaying_each_hand(record: str) -> None:
    seats = timed_decisions(match_record_lines(record, "record"))
    first = seats[0][0]
    assert first.holding.bit_count() in (5, 13)  # the first decision: a call from five cards or a full hand
    for decisions in seats.values():
        for earlier, later in pairwise(decisions):
            if earlier.hand == later.hand:  # cards only leave a hand
                assert later.holding & ~earlier.holding == 0 or earlier.holding.bit_count() < 13


def test_a_record_that_does_not_replay_is_a_one_line_record_error(record: str) -> None:
    lines = [json.loads(text) for text in record.splitlines()]
    hand = next(line for line in lines if line["type"] == "hand")
    hand["decisions"][0]["seat"] = (hand["decisions"][0]["seat"] + 1) % 4
    with pytest.raises(RecordError, match=r"^line 2 \(hand 0\): decision 0 is seat \d's but seat \d is to move$"):
        record_leaks("\n".join(json.dumps(line) for line in lines))
    with pytest.raises(RecordError, match="not JSON"):
        record_leaks("{")


@pytest.mark.parametrize(("options", "message"), [
    ({"bins": 1}, "bins must be 2..16, got 1"),
    ({"permutations": 0}, "permutations must be 1..10000, got 0"),
    ({"block_hands": 0}, "block_hands must be at least 1, got 0"),
    ({"min_decisions": 2}, "min_decisions must be at least bins (3), got 2"),
])
def test_bad_settings_are_refused_in_one_line(options: dict[str, int], message: str) -> None:
    with pytest.raises(TimingLeakError, match=f"^{message.replace('(', '[(]').replace(')', '[)]')}$"):
        DetectorSettings(**options)


def test_strata_bucket_hand_size_and_legal_actions() -> None:
    assert stratum("play", 13, 13) == ("play", 4, 4)
    assert stratum("play", 2, 1) == ("play", 0, 0)
    assert stratum("play", 7, 4) == ("play", 2, 2)


def test_a_real_match_with_a_delaying_signaller_is_caught(tmp_path: Path) -> None:
    """Played in process, on a virtual clock the referee reads (exact, repeatable, no sleeping):
    the signaller (seats 0 and 2, playing as the random bot) holds each reply 30 + 15 x c ms, the
    honest random bots take what their work would. Combined as the ladder does, its team's
    figures are flagged and the honest team's are not."""
    clock = VirtualClock()
    path = tmp_path / "signalling.jsonl"
    bots = [TimingSignaller(30, 15, RandomBot(seat), clock=clock.now, sleep=clock.advance)
            if seat % 2 == 0 else PacedBot(RandomBot(seat), clock, seat) for seat in range(4)]
    outcome = play_in_process(bots, deals=16, seed=11, record=path, clock=clock)  # a ladder match's 16 deal pairs
    assert outcome.faults == []
    leaks = record_leaks(path.read_text())
    assert record_leaks(path.read_text()) == leaks  # deterministic
    signalling_team, honest_team = team_figures(leaks, (0, 2)), team_figures(leaks, (1, 3))
    assert flagged(*signalling_team), signalling_team
    assert not flagged(*honest_team), honest_team


def team_figures(leaks: dict[int, LeakEstimate], seats: tuple[int, int]) -> tuple[float, float]:
    """(bits, z) of two seats as ``ladder/store/timing_leaks.py`` combines a version's seats."""
    team = [leaks[seat] for seat in seats]
    bits = sum(e.bits * e.decisions for e in team) / sum(e.decisions for e in team)
    return bits, sum(e.z for e in team) / len(team) ** 0.5


def test_a_twenty_eight_match_is_measured_from_its_replayed_bidding_hands(tmp_path: Path) -> None:
    path = tmp_path / "t28.jsonl"
    play_in_process([RandomBot(seat) for seat in range(4)], deals=4, seed=2, preset="twenty-eight", record=path)
    lines = list(match_record_lines(path.read_text(), "record"))
    asked = sum(1 for line in lines if line["type"] == "hand" for d in line["decisions"] if not d["substituted"])
    seats = timed_decisions(lines)
    assert sum(map(len, seats.values())) == asked  # every bid, trump and card, each with the seat's holding
    for decisions in seats.values():
        assert all(0 < d.holding.bit_count() <= 8 and d.holding & ~SHORT_DECK == 0 for d in decisions)
    assert set(record_leaks(path.read_text())) == {0, 1, 2, 3}
