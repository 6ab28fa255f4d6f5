"""The rank order and card points of Twenty-eight and Twenty-nine, and their presets' rules.

rules.md ("Twenty-eight and Twenty-nine"): "Pack: 32 cards (7 to A in each suit), 8 tricks. Ranks
in every suit, high to low: J 9 A 10 K Q 8 7. Card points: J 3, 9 2, A 1, 10 1, others 0 (28 in
the pack). Twenty-nine also counts 1 point for the last trick (seed 003: "assuming that the point
for the last trick is not counted; for 29, bidding starts with 17")."

The other presets keep A high and the ten below the jack (their tests, unchanged, show it).
"""

from __future__ import annotations

import pytest

from arena.engine.bidding_rules import (
    BIDDING_PRESETS,
    AuctionKind,
    GamePoints,
    NoExposure,
    bidding_rules_for,
)
from arena.engine.cards import CARDS, SHORT_DECK, Card, Rank, cards_of, mask_of
from arena.engine.deal import Deal
from arena.engine.errors import RulesError
from arena.engine.ranking import CARD_POINTS_28, RankOrder, card_points, ranks_high_to_low, strength
from arena.engine.rules import NOT_YET_PLAYABLE, PRESETS, Direction, rules_for


def test_the_pack_is_32_cards_seven_to_ace() -> None:
    """"Pack: 32 cards (7 to A in each suit), 8 tricks": the short deck Mendikot uses already."""
    rules = bidding_rules_for("twenty-eight")
    assert rules.deck_mask == SHORT_DECK and SHORT_DECK.bit_count() == 32
    assert {c.rank for c in cards_of(SHORT_DECK)} == set(Rank) - {Rank.TWO, Rank.THREE, Rank.FOUR, Rank.FIVE, Rank.SIX}
    assert rules.hand_size * 4 == 32 and rules.packets == (4, 4)
    deal = Deal.from_seed(rules.deal_rules, 5)
    assert all(len(hand) == 8 for hand in deal.hands)


def test_ranks_in_every_suit_are_j_9_a_10_k_q_8_7() -> None:
    """"Ranks in every suit, high to low: J 9 A 10 K Q 8 7"."""
    labels = [str(r) for r in ranks_high_to_low(RankOrder.JACK_NINE)[:8]]
    assert labels == ["J", "9", "A", "10", "K", "Q", "8", "7"]
    for suit in "SHDC":
        cards = [Card.parse(f"{label}{suit}") for label in labels]
        keys = [strength(RankOrder.JACK_NINE, c) for c in cards]
        assert keys == sorted(keys, reverse=True) and len(set(keys)) == 8


def test_ace_high_is_the_engine_order_of_the_other_games() -> None:
    """The existing presets' order (A K Q J 10 ... 2) is ``card % 13``: nothing of it changes."""
    for card in CARDS:
        assert strength(RankOrder.ACE_HIGH, card) == card % 13


def test_card_points_are_j3_9_2_a1_10_1_and_28_in_the_pack() -> None:
    """"Card points: J 3, 9 2, A 1, 10 1, others 0 (28 in the pack)"."""
    assert card_points(mask_of([Card.parse("JS")])) == 3
    assert card_points(mask_of([Card.parse("9H")])) == 2
    assert card_points(mask_of([Card.parse("AD")])) == 1
    assert card_points(mask_of([Card.parse("10C")])) == 1
    assert card_points(mask_of(Card.parse(t) for t in ("KS", "QS", "8S", "7S"))) == 0
    assert card_points(SHORT_DECK) == 28 == sum(CARD_POINTS_28) * 4


def test_twenty_nine_counts_the_last_trick_and_bids_from_17() -> None:
    """Seed 003: "assuming that the point for the last trick is not counted; for 29, bidding
    starts with 17"."""
    eight, nine = bidding_rules_for("twenty-eight"), bidding_rules_for("twenty-nine")
    assert (eight.total_points, eight.min_bid, eight.max_bid) == (28, 14, 28)
    assert (nine.total_points, nine.min_bid, nine.max_bid) == (29, 17, 29)


def test_the_presets_defaults() -> None:
    """rules.md: anticlockwise; the auction until three passes; a hand nobody exposes is void;
    +1 or -1 game point; a match to 6."""
    rules = bidding_rules_for("twenty-eight")
    assert rules.direction is Direction.ANTICLOCKWISE
    assert rules.auction is AuctionKind.UNTIL_THREE_PASSES
    assert rules.no_exposure is NoExposure.VOID
    assert rules.game_points is GamePoints.ONE
    assert (rules.target, rules.overbid_partner_min) == (6, 0)


@pytest.mark.parametrize(
    ("overrides", "message"),
    [
        ({"min_bid": 30}, "preset twenty-eight: bids must satisfy 0 < min_bid <= max_bid <= 28"),
        ({"max_bid": 29}, "max_bid <= 28 (the points in play)"),
        ({"overbid_partner_min": 13}, "overbid_partner_min=13 must be 0 (off) or a bid from 14 to 28"),
        ({"target": 0}, "target must be at least 1 game point"),
        ({"auction": "twice"}, "option auction: Input should be"),
        ({"colour": "red"}, "unknown option colour"),
    ],
)
def test_bad_options_are_one_line_errors(overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError) as caught:
        bidding_rules_for("twenty-eight", overrides)
    assert message in str(caught.value) and "\n" not in str(caught.value)


def test_the_options_of_a_preset_can_be_set() -> None:
    rules = bidding_rules_for(
        "twenty-eight",
        {"auction": "single_round", "overbid_partner_min": 20, "no_exposure": "last_trick",
         "game_points": "by_bid", "target": 10},
    )
    assert rules.options()["auction"] == "single_round" and rules.target == 10


def test_the_referee_and_cli_refuse_the_bidding_presets_with_one_line() -> None:
    """``rules_for`` (what plays only the trick-taking games asks it, the batched engine for one)
    refuses these names with the reason; the other presets are the same list as before."""
    assert set(BIDDING_PRESETS) == NOT_YET_PLAYABLE
    assert not NOT_YET_PLAYABLE & set(PRESETS)
    for name in BIDDING_PRESETS:
        with pytest.raises(RulesError, match=rf"^{name}: a bidding game, which this command does not play$"):
            rules_for(name)
    with pytest.raises(RulesError, match="unknown bidding preset 'dehla-pakad'"):
        bidding_rules_for("dehla-pakad")
