"""Seeded random-playout invariants of Twenty-eight and Twenty-nine, with their options.

Each example is one hand: a seeded deal, a dealer and random legal actions from an rng seeded by
hypothesis, so a falsifying example is its own repro (``playout(VARIANTS[name], deal_seed,
dealer, play_seed)``). The checks re-derive the rules from seed 003 and ``docs/rules.md``
(the rank order J 9 A 10 K Q 8 7, the card points, the phases) rather than reading the engine's.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import given

from arena.engine.actions import REVEAL, PlayCard
from arena.engine.auction import Bid, Pass
from arena.engine.bidding_hand import BiddingDecision, BiddingHand, new_hand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_outcome import BiddingMatchScore
from arena.engine.bidding_rules import BiddingRules, bidding_rules_for
from arena.engine.cards import SUIT_MASKS, Card, cards_of, mask_of
from arena.engine.seats import SEATS, next_seats, team_of
from tests.engine_helpers import deal_seeds, dealers, examples, play_seeds

VARIANTS: dict[str, BiddingRules] = {
    "twenty-eight": bidding_rules_for("twenty-eight"),
    "twenty-nine": bidding_rules_for("twenty-nine"),
    "twenty-eight no_exposure=last_trick": bidding_rules_for("twenty-eight", {"no_exposure": "last_trick"}),
    "twenty-nine no_exposure=last_trick": bidding_rules_for("twenty-nine", {"no_exposure": "last_trick"}),
    "twenty-eight single_round overbid_partner_min=20 by_bid": bidding_rules_for(
        "twenty-eight", {"auction": "single_round", "overbid_partner_min": 20, "game_points": "by_bid"}
    ),
    "twenty-eight direction=clockwise": bidding_rules_for("twenty-eight", {"direction": "clockwise"}),
}
variant_names = pytest.mark.parametrize("name", list(VARIANTS))

ORDER = ("J", "9", "A", "10", "K", "Q", "8", "7")
"""rules.md: "Ranks in every suit, high to low: J 9 A 10 K Q 8 7"."""
POINTS = {"J": 3, "9": 2, "A": 1, "10": 1}
"""rules.md: "Card points: J 3, 9 2, A 1, 10 1, others 0"."""
MAX_DECISIONS = 200
"""An auction of at most 15 bids and their passes, a hide, 32 plays and 1 reveal: far below."""


def rank_of(card: Card) -> str:
    return str(card)[:-1]


def points_of(cards: list[Card]) -> int:
    return sum(POINTS.get(rank_of(c), 0) for c in cards)


Visit = Callable[[BiddingHand], None]


def playout(
    rules: BiddingRules, deal_seed: int, dealer: int, play_seed: int, visit: Visit | None = None
) -> BiddingHand:
    """A hand played with random legal actions, ``visit`` called before every action."""
    hand = new_hand(rules, deal_seed, dealer)
    rng = random.Random(play_seed)
    for _ in range(MAX_DECISIONS):
        if visit is not None:
            visit(hand)
        if hand.is_over:
            return hand
        actions = hand.legal_actions()
        assert actions, "a seat to move always has a legal action"
        hand.apply(actions[rng.randrange(len(actions))])
    raise AssertionError(f"the hand did not end within {MAX_DECISIONS} decisions")


@variant_names
@examples(60)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_a_random_hand_ends_and_the_points_sum_to_28_or_29(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]
    hand = playout(rules, deal_seed, dealer, play_seed)
    result = hand.result
    assert result is not None and hand.to_move is None and hand.legal_actions() == ()
    contract = hand.contract
    assert contract is not None and (result.bidder, result.bid) == (contract.bidder, contract.bid)
    assert rules.min_bid <= result.bid <= rules.max_bid
    played = [c for t in hand.tricks for c in t.cards if c is not None]
    assert len(played) == 4 * result.tricks_played and len(set(played)) == len(played)
    if result.void:
        assert result.tricks_played == 7 and hand.reveal is None and result.game_points == 0
        return
    assert result.tricks_played == 8 and hand.reveal is not None
    assert mask_of(played) == rules.deck_mask
    assert sum(result.points) == rules.total_points == 28 + (name.startswith("twenty-nine"))
    for team in (0, 1):
        taken = [c for t in hand.tricks if team_of(t.winner) == team for c in t.cards if c is not None]
        last = rules.last_trick_points if team_of(hand.tricks[-1].winner) == team else 0
        assert result.points[team] == points_of(taken) + last
    made = result.points[team_of(result.bidder)] >= result.bid
    assert result.made == made and (result.game_points > 0) == made


@variant_names
@examples(50)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_tricks_are_won_by_the_rules_order_in_each_phase(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    """First phase: the highest card of the led suit (trump-suit cards have no effect). From the
    exposure: the highest trump played after the call, else the highest of the led suit."""
    rules = VARIANTS[name]
    hand = playout(rules, deal_seed, dealer, play_seed)
    trump = hand.trump
    reveal = hand.reveal
    for trick in hand.tricks:
        cards = [c for c in trick.cards if c is not None]
        led = cards[0].suit
        trumps = []
        if reveal is not None and trump is not None and trump != led:
            exposed_from = 0 if reveal.trick < trick.number else reveal.position if reveal.trick == trick.number else 4
            trumps = [(i, c) for i, c in enumerate(cards) if c.suit == trump and i >= exposed_from]
        pool = trumps or [(i, c) for i, c in enumerate(cards) if c.suit == led]
        best = min(pool, key=lambda ic: ORDER.index(rank_of(ic[1])))[0]
        assert trick.winner == trick.seats[best], (trick, trump, reveal)


@variant_names
@examples(50)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_the_play_rules_hold_at_every_decision(name: str, deal_seed: int, dealer: int, play_seed: int) -> None:
    """Follow suit if able; the bidder leads no trump in the first phase unless it holds only
    trumps or they were led; a call only when unable to follow, and the caller then trumps if
    able."""
    rules = VARIANTS[name]

    def visit(hand: BiddingHand) -> None:
        if hand.decision is not BiddingDecision.PLAY:
            return
        seat = hand.to_move
        assert seat is not None
        held = hand.hand(seat)
        plays = {a.card for a in hand.legal_actions() if isinstance(a, PlayCard)}
        calls = REVEAL in hand.legal_actions()
        trick = hand.current_trick
        contract = hand.contract
        assert contract is not None and hand.trump is not None
        trumps = held & SUIT_MASKS[hand.trump]
        if trick:
            follow = held & SUIT_MASKS[trick[0][1].suit]
            assert calls == (hand.hidden_card is not None and not follow)
            if follow:
                assert plays == set(cards_of(follow))
            elif hand.must_play_trump and trumps:
                assert plays == set(cards_of(trumps))
            else:
                assert plays == set(cards_of(held))
        elif seat == contract.bidder and hand.hidden_card is not None and not hand.trump_led and held & ~trumps:
            assert plays == set(cards_of(held & ~trumps)) and not (calls and held)
        else:
            assert plays == set(cards_of(held))
            assert calls == (hand.hidden_card is not None and not held)

    playout(rules, deal_seed, dealer, play_seed, visit)


def with_hidden(hand: BiddingHand, card: Card) -> BiddingHand:
    """A copy in which the bidder's face-down card and ``card`` (in its hand) change places: a
    world no other seat can tell from the real one while the card is down."""
    other = hand.clone()
    hidden = hand.hidden_card
    contract = hand.contract
    assert hidden is not None and contract is not None
    other._hands[contract.bidder] ^= card.bit | hidden.bit
    other._hidden = int(card)
    other._trump = card.suit
    leads = [t.cards[0] for t in hand.tricks] + [c for _, c in hand.current_trick[:1]]
    other._trump_led = any(c is not None and c.suit == card.suit for c in leads)
    return other


@variant_names
@examples(40)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_the_hidden_card_never_shows_to_another_seat_before_exposure(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    """rules.md: "bids are public; the face-down card only to the bidder until exposed". Before
    the exposure, no other seat's view names the card or the trump suit, and every other seat's
    view is the same whichever of the bidder's cards lies face down."""
    rules = VARIANTS[name]

    def visit(hand: BiddingHand) -> None:
        hidden = hand.hidden_card
        contract = hand.contract
        if hidden is None or contract is None:
            return
        twins = [with_hidden(hand, c) for c in cards_of(hand.hand(contract.bidder))]
        for seat in SEATS:
            view = observe_bidding(hand, seat)
            if seat == contract.bidder:
                assert view.hidden_trump_card == hidden and view.trump == hidden.suit
                continue
            assert view.hidden_trump_card is None and view.trump is None
            assert f'"{hidden}"' not in json.dumps(view.to_json())
            for twin in twins:
                assert observe_bidding(twin, seat) == view

    playout(rules, deal_seed, dealer, play_seed, visit)


@variant_names
@examples(40)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_calls_are_public_and_hands_private(name: str, deal_seed: int, dealer: int, play_seed: int) -> None:
    """Every seat sees every call of the auction and its own hand only."""
    rules = VARIANTS[name]

    def visit(hand: BiddingHand) -> None:
        for seat in SEATS:
            view = observe_bidding(hand, seat)
            assert view.calls == hand.auction.calls
            assert all(isinstance(call, Bid | Pass) for _, call in view.calls)
            assert view.hand == cards_of(hand.hand(seat))
            assert view.legal_actions == (hand.legal_actions() if hand.to_move == seat else ())

    playout(rules, deal_seed, dealer, play_seed, visit)


@examples(10)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_a_random_match_scores_by_the_rules(deal_seed: int, dealer: int, play_seed: int) -> None:
    """rules.md: game points +1/-1 to the bidding team, the dealer rotates each hand (a void hand
    is dealt again by the same dealer), the match goes to a target of game points. (Random play
    seldom makes its bid, so the scores mostly fall: twelve hands are played, not to the end.)"""
    rules = bidding_rules_for("twenty-eight", {"target": 2})
    score = BiddingMatchScore(dealer)
    for number in range(12):
        hand = playout(rules, deal_seed + number, score.dealer, play_seed + number)
        result = hand.result
        assert result is not None
        after = score.after(rules, result)
        team = team_of(result.bidder)
        if result.void:
            assert (after.dealer, after.points) == (score.dealer, score.points)
        else:
            assert after.dealer == next_seats(rules.direction)[score.dealer]
            assert after.points[team] - score.points[team] == (1 if result.made else -1)
            assert after.points[1 - team] == score.points[1 - team]
        assert after.hands_played == number + 1
        score = after
        assert score.is_over(rules) == (max(score.points) >= 2)
        if score.is_over(rules):
            return
