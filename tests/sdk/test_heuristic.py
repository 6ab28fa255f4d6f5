"""The heuristic sample bot: legal and deterministic everywhere, and clearly stronger than random.

Strength is measured in duplicate play (each deal played twice with the cards swapped between
the partnerships), heuristic at seats 0 and 2 against random at 1 and 3; a deal pair's score is
team 0's hand values summed over both plays.
"""

from __future__ import annotations

import random

import pytest

from arena.engine.actions import CALL, DECLINE, REVEAL
from arena.engine.cards import Card, Rank, Suit
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.referee.in_process import play_in_process
from arena.referee.stats import mean_interval
from arena.referee.table_values import MatchOutcome
from sample_bots.heuristic.bot import HeuristicBot, best_trump_suit
from sample_bots.random.bot import RandomBot
from sdk.bot import BotView


def against_random(preset: str, deals: int, seed: int) -> MatchOutcome:
    """Heuristic at seats 0 and 2, random at 1 and 3, duplicate, in this process."""
    return play_in_process(
        [HeuristicBot(), RandomBot(1), HeuristicBot(), RandomBot(3)], deals=deals, seed=seed, preset=preset
    )


def test_beats_random_clearly_at_the_default_preset() -> None:
    outcome = against_random("dehla-pakad", deals=60, seed=11)
    assert outcome.status == "done" and not outcome.faults
    stats = mean_interval(outcome.deal_scores)
    assert stats.n == 60
    assert stats.mean > 0 and stats.excludes_zero, stats


@pytest.mark.parametrize("preset", [p for p in PRESETS if p != "dehla-pakad"])
def test_every_other_preset_finishes_without_faults_and_wins_on_average(preset: str) -> None:
    outcome = against_random(preset, deals=16, seed=5)
    assert outcome.status == "done" and not outcome.faults
    assert len(outcome.deal_scores) == 16
    assert sum(outcome.deal_scores) > 0


BOT_RULES = {preset: rules_for(preset) for preset in PRESETS} | {
    # Seed 003's trump variants: a decline to make, a blind face-down trump its holder cannot see.
    "court-piece trump_card=later": rules_for("court-piece", {"trump_card": "later", "trump_card_index": 10}),
    "court-piece decline=second_packet": rules_for("court-piece", {"decline": "second_packet"}),
    "court-piece-double-sir hidden_blind=true": rules_for("court-piece-double-sir", {"hidden_blind": True}),
    "mendikot hidden_blind=true": rules_for("mendikot", {"hidden_blind": True}),
}


@pytest.mark.parametrize("preset", list(BOT_RULES))
def test_every_decision_is_legal_and_deterministic(preset: str) -> None:
    rules = BOT_RULES[preset]
    bot = HeuristicBot()
    for seed in range(3):
        rng = random.Random(seed)
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            view = BotView(observe(state, seat), 1.0, 30.0)
            action = bot.decide(view)
            assert action in state.legal_actions()
            assert bot.decide(BotView(observe(state, seat), 1.0, 30.0)) == action
            # Mix in random moves so the bot meets positions it would not reach by itself.
            state.apply(action if rng.random() < 0.7 else rng.choice(state.legal_actions()))


def test_calls_the_longest_strongest_suit() -> None:
    hand = tuple(Card.parse(c) for c in ["AS", "3H", "7H", "9H", "KD"])
    assert best_trump_suit(hand) == Suit.HEARTS
    hand = tuple(Card.parse(c) for c in ["AS", "KS", "3H", "4H", "9D"])
    assert best_trump_suit(hand) == Suit.SPADES  # same length: the stronger


def test_declines_on_five_cards_with_no_suit_of_three_where_allowed() -> None:
    """Seed 003: "if unwilling to choose a suit on the basis of five cards"; the heuristic is
    unwilling when no suit has three of them (seat 0's first five: two spades, two hearts, a
    diamond)."""
    rules = rules_for("court-piece", {"decline": "second_packet"})
    hands = [
        "AS KH 3S 4H 9D QC JC 10C 9C 8C 7C 6C 5C",
        "KS QS JS 10S 9S 8S 7S 6S 5S 4S 2S 4C 3C",
        "AH QH JH 9H 8H 7H 6H 5H 3H 2H AD KD QD",
        "JD 10D 8D 7D 6D 5D 4D 3D 2D AC KC 2C 10H",
    ]
    state = HandState(rules, Deal.from_text(rules, [h.split() for h in hands]), 1)
    view = BotView(observe(state, 0), 1.0, 30.0)
    assert view.may_decline
    assert HeuristicBot().decide(view) is DECLINE
    must_call = rules_for("court-piece")
    plain = HandState(must_call, Deal.from_text(must_call, [h.split() for h in hands]), 1)
    plain_view = BotView(observe(plain, 0), 1.0, 30.0)
    assert not plain_view.may_decline
    assert HeuristicBot().decide(plain_view) == CALL[Suit.SPADES]  # must call: the strongest pair


def test_hides_the_top_card_of_the_longest_suit() -> None:
    rules = rules_for("dehla-pakad-hidden")
    hands = [
        "10H 2H AH 5S 6D QC JC 10C 9C 8C 7C 6C 5C",
        "AS KS QS JS 10S 9S 8S 7S 6S 4S 3S 2S 4C",
        "KH QH JH 9H 8H 7H 6H 5H 4H 3H AD KD QD",
        "JD 10D 9D 8D 7D 5D 4D 3D 2D AC KC 3C 2C",
    ]
    state = HandState(rules, Deal.from_text(rules, [h.split() for h in hands]), 3)
    assert state.decision is Decision.HIDE_TRUMP
    card = HeuristicBot().hide_trump(BotView(observe(state, 0), 1.0, 30.0))
    assert card == Card.parse("AH")


def test_throws_a_ten_onto_partners_sure_sweep() -> None:
    # Seat 0 won the first trick and leads the master trump: the sweep is sure, so its partner
    # (seat 2, out of trumps) throws its ten onto it.
    rules = rules_for("dehla-pakad")
    hands = [
        "AS KS QS JS 2D AH KH QH JH 9H 8H 7H 6H",
        "3S 4S 5S 6S 7S 8S 9S 10S 3D 4D 5D 6D 7D",
        "AC KC QC JC 10C 10D 2H 3H 4H 5H 9C 8C 7C",
        "AD KD QD JD 8D 9D 10H 2C 3C 4C 5C 6C 2S",
    ]
    state = HandState(rules, Deal.from_text(rules, [h.split() for h in hands]), 3)
    state.apply(CALL[Suit.SPADES])
    for card in ("AS", "3S", "2H", "2S"):  # seat 0 wins the first trick
        state.apply(next(a for a in state.legal_actions() if str(a) == f"play {card}"))
    for card in ("KS", "4S"):
        state.apply(next(a for a in state.legal_actions() if str(a) == f"play {card}"))
    assert state.to_move == 2
    choice = HeuristicBot().play(BotView(observe(state, 2), 1.0, 30.0))
    assert choice != REVEAL and isinstance(choice, Card) and choice.rank == Rank.TEN


def main() -> None:
    """Strength figures: ``python -m tests.sdk.test_heuristic [DEALS_DEFAULT] [DEALS_OTHERS] [SEED]``."""
    import sys  # noqa: PLC0415 - only for the command line

    args = [int(a) for a in sys.argv[1:]]
    deals_default, deals_other, seed = (args + [300, 100, 1][len(args):])[:3]
    for preset in PRESETS:
        deals = deals_default if preset == "dehla-pakad" else deals_other
        outcome = against_random(preset, deals, seed)
        stats = mean_interval(outcome.deal_scores)
        print(f"{preset:24} deal pairs {stats.n:4}  mean {stats.mean:+.3f}  "
              f"95% CI [{stats.low:+.3f}, {stats.high:+.3f}]  pairs won {stats.won_share:.1%}  "
              f"faults {len(outcome.faults)}")


if __name__ == "__main__":
    main()


def test_the_random_bot_declines_among_its_choices_where_allowed() -> None:
    """Uniform over the legal actions: under decline: second_packet a decline is one of five."""
    rules = BOT_RULES["court-piece decline=second_packet"]
    bot = RandomBot(5)
    calls = set()
    for seed in range(40):
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        action = bot.decide(BotView(observe(state, state.first_player), 1.0, 30.0))
        assert action in state.legal_actions()
        calls.add(action)
    assert DECLINE in calls and len(calls) == 5
