"""The referee's table logic with in-process bots: formats, faults, policies, records."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.messages import DecisionReply, DecisionRequest, HandEnd, MatchEnd
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import SeatClock, TimeControl
from arena.engine.actions import Action, RevealTrump
from arena.engine.cards import Card
from arena.engine.hand_records import replay_record
from arena.engine.match import MatchFormat, MatchScore
from arena.engine.outcome import hand_value
from arena.engine.rules import rules_for
from arena.referee.in_process import InProcessSeat, play_in_process
from arena.referee.match_recorder import MatchRecorder, read_match_record
from arena.referee.table import Table
from arena.referee.table_values import MatchOutcome, TableConfig
from protocol import convert
from sample_bots.random.bot import RandomBot
from sdk.bot import Bot, BotView


class IllegalBot(Bot):
    """Plays a card it does not hold at its third decision."""

    name = "illegal"

    def __init__(self) -> None:
        self.decisions = 0

    def play(self, view: BotView) -> Card | RevealTrump:
        self.decisions += 1
        if self.decisions == 3:
            return next(c for c in map(Card, range(52)) if c not in view.hand)
        return view.legal_cards[0]


class RaisingBot(Bot):
    name = "raising"

    def play(self, view: BotView) -> Card | RevealTrump:
        raise RuntimeError("bug in my bot")


def four(bot: Bot, seat: int = 1) -> list[Bot]:
    bots: list[Bot] = [RandomBot(s) for s in range(4)]
    bots[seat] = bot
    return bots


def test_duplicate_plays_each_deal_twice_rotated(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    outcome = play_in_process([RandomBot(s) for s in range(4)], deals=6, seed=5, record=record)
    assert outcome.status == "done"
    assert len(outcome.hands) == 12
    assert len(outcome.deal_scores) == 6
    assert outcome.score[0] - outcome.score[1] == sum(outcome.deal_scores)
    assert outcome.final is not None and sum(outcome.final.hands_won) <= 12
    hands = [line for line in read_match_record(record) if line["type"] == "hand"]
    first, second = hands[0]["record"], hands[1]["record"]
    assert second["dealer"] == (first["dealer"] + 1) % 4
    assert [second["deal"]["hands"][(s + 1) % 4] for s in range(4)] == first["deal"]["hands"]
    for line in hands:
        assert replay_record(line["record"]).result is not None


def test_hand_value_counts_kots_and_sign() -> None:
    rules = rules_for()
    outcome = play_in_process([RandomBot(s) for s in range(4)], deals=20, seed=9)
    for result, value in zip(outcome.hands, outcome.hand_values, strict=True):
        assert value == hand_value(rules, result)
        assert abs(value) == 1 + int(result.kot)
        assert (value > 0) == (result.winner == 0)


@pytest.mark.parametrize("match_format", ["hands:7", "kots:2"])
def test_traditional_formats_end_as_specified(match_format: str) -> None:
    outcome = play_in_process([RandomBot(s) for s in range(4)], seed=3, match_format=match_format)
    fmt = MatchFormat.parse(match_format)
    if fmt.kind.value == "hands":
        assert len(outcome.hands) == 7
    else:
        assert max(outcome.score) == 2
    assert outcome.winner_team == (None if outcome.score[0] == outcome.score[1] else
                                   0 if outcome.score[0] > outcome.score[1] else 1)


def test_illegal_card_forfeits_the_partnership() -> None:
    outcome = play_in_process(four(IllegalBot(), seat=1), deals=3, seed=1)
    assert outcome.forfeit_team == 1
    assert outcome.winner_team == 0
    (fault,) = outcome.faults
    assert (fault.seat, fault.kind, fault.bot) == (1, FaultKind.ILLEGAL_ACTION, "illegal")
    assert "does not hold it" in fault.detail


def test_substitute_policy_plays_the_lowest_card_and_goes_on() -> None:
    outcome = play_in_process(four(RaisingBot(), seat=2), deals=2, seed=1, policy=FaultPolicy.SUBSTITUTE)
    assert outcome.status == "done"
    assert len(outcome.hands) == 4
    assert outcome.faults[0].kind is FaultKind.CRASH
    assert outcome.faults[0].detail == "the bot raised an exception"
    assert "bug in my bot" in outcome.faults[0].evidence
    assert outcome.substitutions[2] > 0
    assert outcome.substitutions[0] == outcome.substitutions[1] == outcome.substitutions[3] == 0


class WrongIdSeat(InProcessSeat):
    async def decide(self, request: DecisionRequest, timeout: float) -> DecisionReply:
        reply = await super().decide(request, timeout)
        return DecisionReply("stale-" + reply.request_id, reply.action)


class PlatformBrokenSeat(InProcessSeat):
    async def decide(self, request: DecisionRequest, timeout: float) -> DecisionReply:
        raise OSError("referee disk full")


def run_table(seats: list[InProcessSeat], tmp_path: Path) -> tuple[MatchOutcome, list[dict[str, object]]]:
    config = TableConfig("t1", rules_for(), "dehla-pakad", MatchFormat.parse("duplicate:2"), seed=4)
    path = tmp_path / "t1.jsonl"
    outcome = asyncio.run(Table(config, seats, MatchRecorder(path)).run())
    return outcome, list(read_match_record(path))


def test_a_reply_echoing_another_request_id_is_malformed(tmp_path: Path) -> None:
    seats = [InProcessSeat(RandomBot(s)) for s in range(4)]
    seats[3] = WrongIdSeat(RandomBot(3))
    outcome, lines = run_table(seats, tmp_path)
    assert outcome.faults[0].kind is FaultKind.MALFORMED_REPLY
    assert "expected" in outcome.faults[0].detail
    assert lines[-1]["type"] == "match_end" and lines[-1]["forfeit_team"] == 1


def test_a_platform_error_voids_the_match_and_blames_nobody(tmp_path: Path) -> None:
    seats = [InProcessSeat(RandomBot(s)) for s in range(4)]
    seats[0] = PlatformBrokenSeat(RandomBot(0))
    outcome, lines = run_table(seats, tmp_path)
    assert outcome.status == "void"
    assert outcome.faults == [] and outcome.winner_team is None
    assert "referee disk full" in json.dumps(lines[-1])


def test_seat_clock_charges_only_time_beyond_the_move_limit() -> None:
    clock = SeatClock.new(TimeControl(per_move=1.0, bank=2.0, grace=0.05))
    assert clock.deadline == pytest.approx(3.05)
    assert clock.charge(0.5) and clock.bank_left == 2.0
    assert clock.charge(1.75) and clock.bank_left == pytest.approx(1.25)
    assert not clock.charge(2.5)
    assert clock.bank_left == 0.0
    assert clock.allowance == 1.0


def test_observations_sent_match_the_engine_view() -> None:
    seen: list[DecisionRequest] = []

    class Spy(InProcessSeat):
        async def decide(self, request: DecisionRequest, timeout: float) -> DecisionReply:
            seen.append(request)
            return await super().decide(request, timeout)

    config = TableConfig("spy", rules_for(), "dehla-pakad", MatchFormat.parse("duplicate:1"), seed=8)
    asyncio.run(Table(config, [Spy(RandomBot(s)) for s in range(4)]).run())
    assert {r.observation.seat for r in seen} == {0, 1, 2, 3}
    assert all(r.observation.to_move == r.observation.seat for r in seen)
    assert len({r.request_id for r in seen}) == len(seen)


class ScoreWatcher(RandomBot):
    """Keeps the score each EndHand reports and the score each hand's first decision shows."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.after: list[MatchScore | None] = []
        self.before: list[MatchScore | None] = []
        self.final: MatchScore | None = None

    def decide(self, view: BotView) -> Action:
        if len(self.before) == len(self.after):
            self.before.append(view.observation.match)
        return super().decide(view)

    def on_hand_end(self, end: HandEnd) -> None:
        self.after.append(end.score)

    def on_match_end(self, end: MatchEnd) -> None:
        self.final = end.score


@pytest.mark.parametrize("match_format", ["duplicate:3", "hands:4"])
def test_end_hand_carries_the_score_after_the_hand(match_format: str) -> None:
    """EndHand's score counts the hand just played and is the next hand's score before it (the
    duplicate tally was sent unchanged, as before the hand, until issue 12)."""
    bots = [ScoreWatcher(s) for s in range(4)]
    outcome = play_in_process(list(bots), seed=3, match_format=match_format)
    watcher = bots[0]
    assert len(watcher.after) == len(outcome.hands)
    for number, after in enumerate(watcher.after):
        assert after is not None and after.hands_played == number + 1
        won = [sum(1 for h in outcome.hands[:number + 1] if h.winner == team) for team in (0, 1)]
        assert list(after.hands_won) == won
    assert watcher.after[:-1] == watcher.before[1:]
    assert watcher.after[-1] == watcher.final == outcome.final


def test_a_faults_hand_counts_from_one_wherever_it_is_read() -> None:
    """The CLI's JSON and the record count hands from 1, as the protocol does."""
    outcome = play_in_process(four(IllegalBot()), deals=1, seed=2)
    (fault,) = outcome.faults
    assert fault.hand == 0  # the engine's index
    assert fault.to_json()["hand"] == 1 == convert.fault_to_pb(fault).hand_number


def test_the_outcome_status_is_a_member_and_the_record_keeps_its_string(tmp_path: Path) -> None:
    done = play_in_process([RandomBot(s) for s in range(4)], deals=1, seed=2, record=tmp_path / "m.jsonl")
    assert done.status is OutcomeStatus.DONE
    end = json.loads((tmp_path / "m.jsonl").read_text().splitlines()[-1])
    assert end["type"] == "match_end" and end["status"] == "done" and type(done.to_json()["status"]) is str
    seats = [InProcessSeat(RandomBot(s)) for s in range(4)]
    seats[0] = PlatformBrokenSeat(RandomBot(0))
    void, lines = run_table(seats, tmp_path)
    assert void.status is OutcomeStatus.VOID and lines[-1]["status"] == "void"
