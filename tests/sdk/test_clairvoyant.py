"""The ceiling's measurement (``bench/ceiling.py``): its clairvoyant seats search the true deal,
and its control team is the real heuristic."""

from __future__ import annotations

import pytest

from arena.engine.cards import mask_of
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.outcome import HandResult
from arena.engine.rules import rules_for
from arena.referee.in_process import play_in_process
from bench.ceiling import Shadowed, play_table, team_for
from bench.clairvoyant import ClairvoyanceError, Clairvoyant, ClairvoyantBot, TrueHand
from bench.sampled_search import SampledSearchBot
from sample_bots.heuristic.bot import HeuristicBot
from sdk import HandEnd
from sdk.bot import BotView
from tests.heuristic_helpers import Recording


class HandChecking(ClairvoyantBot):
    """A clairvoyant that notes the four full hands it sees at each trump call and compares
    them with the hands the referee shows at the hand's end."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self.seen: list[tuple[int, ...]] = []
        self.matched = 0

    def call_trump(self, view: BotView):  # type: ignore[no-untyped-def]
        state = self.true_hand.seen_by(view)
        self.seen.append(tuple(state.hand(s) | state.undealt(s) for s in range(4)))
        return super().call_trump(view)

    def on_hand_end(self, end: HandEnd) -> None:
        if self.seen and len(self.seen) > self.matched:
            assert self.seen[self.matched] == tuple(mask_of(hand) for hand in end.hands)
            self.matched += 1


def test_a_clairvoyant_sees_the_deal_the_referee_plays() -> None:
    true_hand = TrueHand()
    callers = [HandChecking(true_hand), HandChecking(true_hand)]
    outcome = play_table([callers[0], HeuristicBot(), callers[1], HeuristicBot()], true_hand, 3, "dehla-pakad", 5)
    assert outcome.faults == []  # a wrong deal would be a ClairvoyanceError, a crash fault
    assert sum(bot.matched for bot in callers) >= 3  # some of the six hands are called by seats 0 and 2
    assert all(bot.search.playouts > 0 and bot.search.solves > 0 for bot in callers)


def test_the_true_hand_refuses_a_view_of_another_deal() -> None:
    rules = rules_for("dehla-pakad")
    shown = HandState(rules, Deal.from_seed(rules, 1), 0)
    other = HandState(rules, Deal.from_seed(rules, 2), 0)
    true_hand = TrueHand()
    true_hand.moved(None, 0, other, (0.0, 0.0), 0)
    seat = shown.to_move
    assert seat is not None
    with pytest.raises(ClairvoyanceError):
        true_hand.seen_by(BotView(observe(shown, seat), 1.0, 30.0))
    true_hand.moved(None, 0, shown, (0.0, 0.0), 0)
    assert true_hand.seen_by(BotView(observe(shown, seat), 1.0, 30.0)).hand(seat) == shown.hand(seat)


def test_the_control_is_the_real_heuristic() -> None:
    true_hand = TrueHand()
    north, south = team_for("control", true_hand, 50)
    assert isinstance(north, Shadowed) and isinstance(north.inner, HeuristicBot)
    measured = play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, 3, "dehla-pakad", 7)
    plain = play_in_process([HeuristicBot() for _ in range(4)], deals=3, seed=7)
    assert measured.deal_scores == plain.deal_scores
    hands = [h for h in [*measured.hands, *plain.hands] if isinstance(h, HandResult)]
    assert len(hands) == len(measured.hands) + len(plain.hands)  # trick-taking hands, not bidding ones
    assert [h.tens for h in hands[:len(measured.hands)]] == [h.tens for h in hands[len(measured.hands):]]
    assert sum(t.decisions for t in north.phases.values()) > 0


@pytest.mark.parametrize("tricks", [None, 1])
def test_a_model_playout_asks_the_opponents_policy_for_their_seats_only(tricks: int | None) -> None:
    rules = rules_for("dehla-pakad")
    state = HandState(rules, Deal.from_seed(rules, 4), 0)
    state.apply(state.legal_actions()[0])  # the trump call
    mover = state.to_move
    assert mover is not None
    opponents = Recording()
    search = Clairvoyant(endgame_tricks=3, opponents=opponents, model_tricks=tricks)
    search.value(state.clone(), mover & 1)
    assert set(opponents.seats) == {(mover + 1) % 4, (mover + 3) % 4}
    assert search.playouts == 1
    if tricks == 1:  # the first trick's two replies, then the greedy rule for every seat
        assert len(opponents.seats) == 2
    else:
        assert len(opponents.seats) > 2


@pytest.mark.parametrize("arm", ["sampled", "sampled+infer", "consistent"])
def test_the_sampled_twin_searches_its_own_worlds_at_the_table(arm: str) -> None:
    true_hand = TrueHand()
    north, south = team_for(arm, true_hand, 50)
    assert isinstance(north, SampledSearchBot) and isinstance(south, SampledSearchBot)
    assert north.weigh == (arm == "sampled+infer")
    assert north.consistent == (arm == "consistent")
    north.worlds = south.worlds = 2
    outcome = play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, 1, "dehla-pakad", 3)
    assert outcome.faults == []
    assert north.search.playouts > 0 and north.search.solves > 0
    assert north.decisions > 0 and north.cpu_seconds > 0
    if arm == "consistent":
        assert north.chain_stats.worlds == 2 * north.decisions and north.chain_stats.inconsistent_worlds == 0


def test_a_slice_of_the_match_plays_the_same_deals() -> None:
    """``PAIRS A..B``: deals A to B-1 alone score as they do in the whole match (the clairvoyant
    is deterministic, so the same deals give the same scores)."""
    def scores(first: int | None, pairs: int) -> list[float]:
        true_hand = TrueHand()
        north, south = team_for("clairvoyant", true_hand, 50)
        return play_table([north, HeuristicBot(), south, HeuristicBot()], true_hand, pairs, "dehla-pakad", 1,
                          first).deal_scores
    whole = scores(None, 6)
    assert scores(3, 3) == whole[3:]
    assert len(set(whole)) > 1  # deals that differ, so a shifted slice would be caught
