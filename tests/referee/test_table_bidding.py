"""The referee's table playing Twenty-eight: faults in the auction are caught and explained in
the engine's words, and under the substitute policy the referee passes (or bids the least) for a
faulty seat and the match goes on."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.actions import CALL
from arena.engine.auction import BID
from arena.engine.bidding_hand import BiddingAction
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.cards import Suit
from arena.engine.match import MatchFormat
from arena.referee.in_process import InProcessSeat, play_in_process
from arena.referee.table import Table
from arena.referee.table_values import TableConfig
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.random.bot import RandomBot
from sdk.bot import BiddingView


class Crasher(HeuristicBot):
    """Raises at every decision of a bidding game."""

    def decide_bidding(self, view: BiddingView) -> BiddingAction:
        raise RuntimeError("no idea")


class LowBidder(HeuristicBot):
    """Bids 10, below Twenty-eight's least bid."""

    def decide_bidding(self, view: BiddingView) -> BiddingAction:
        return BID[10]


class WrongGame(HeuristicBot):
    """Answers the auction with a trick-taking game's trump call."""

    def decide_bidding(self, view: BiddingView) -> BiddingAction:
        return CALL[Suit.SPADES]  # type: ignore[return-value]  # the fault under test


def test_a_crashing_seat_is_played_by_the_referee_to_the_end(tmp_path: Path) -> None:
    record = tmp_path / "m.jsonl"
    outcome = play_in_process([RandomBot(0), Crasher(), RandomBot(2), HeuristicBot()], deals=2, seed=6,
                              preset="twenty-eight", policy=FaultPolicy.SUBSTITUTE, record=record)
    assert outcome.status == "done" and len(outcome.hands) == 4
    assert [(f.seat, f.kind) for f in outcome.faults] == [(1, FaultKind.CRASH)]
    hands = [json.loads(line) for line in record.read_text().splitlines()[1:-1]]
    calls = [d["action"] for hand in hands for d in hand["decisions"] if d["seat"] == 1 and d["decision"] == "bid"]
    assert calls and all(call in ("pass", "bid 14") for call in calls), calls
    assert all(d["substituted"] for hand in hands for d in hand["decisions"] if d["seat"] == 1)


def test_a_bid_below_the_least_loses_the_match_with_the_engine_s_reason() -> None:
    outcome = play_in_process([HeuristicBot(), HeuristicBot(), HeuristicBot(), LowBidder()], deals=1, seed=2,
                              preset="twenty-eight")
    (fault,) = outcome.faults
    assert (fault.seat, fault.kind) == (3, FaultKind.ILLEGAL_ACTION)
    assert fault.detail.startswith("cannot bid 10: the least bid now is 1")
    assert outcome.forfeit_team == 1 and outcome.winner_team == 0


def test_a_trick_game_action_in_the_auction_is_illegal_and_says_why() -> None:
    outcome = play_in_process([WrongGame(), HeuristicBot(), HeuristicBot(), HeuristicBot()], deals=1, seed=2,
                              preset="twenty-nine")
    (fault,) = outcome.faults
    assert (fault.seat, fault.kind) == (0, FaultKind.ILLEGAL_ACTION)
    assert fault.detail == "call S: not an action of this game (a bid, a pass, hide, reveal or play)"


def test_the_table_tells_its_caller_each_bidding_hand() -> None:
    """``on_hand`` (the progress display of ``dehla match --format hands:N``) hears every hand."""
    heard: list[tuple[int, int]] = []
    config = TableConfig("t", bidding_rules_for("twenty-eight"), "twenty-eight", MatchFormat.parse("hands:5"), 3,
                         TimeControl())
    seats = [InProcessSeat(bot) for bot in (HeuristicBot(), RandomBot(1), HeuristicBot(), RandomBot(3))]
    outcome = asyncio.run(Table(config, seats, on_hand=lambda i, r: heard.append((i, r.tricks_played))).run())
    assert [i for i, _ in heard] == list(range(len(outcome.hands))) and len(heard) >= 5
