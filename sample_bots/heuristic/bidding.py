"""The heuristic's play of Twenty-eight and Twenty-nine: bid on points and honours, hide a low
card of the strongest suit, win tricks worth points cheaply, call for the trump when a trick with
points is being lost.

Plain rules of thumb on the seat's own view (``BiddingView``), no sampling: the auction is judged
on the four cards it sees (each jack and nine of a long suit is a likely trick), play on the
cards seen so far (a card is a master when every higher card of its suit has been played).
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.engine.auction import Bid
from arena.engine.bidding_observation import BiddingObservation
from arena.engine.cards import Card, Rank, Suit
from arena.engine.ranking import CARD_POINTS_28, strength
from arena.engine.seats import team_of
from sdk.bidding_tracker import BiddingTracker
from sdk.bot import BiddingView

BASE = 10
"""What a hand with nothing is worth to its side with a partner's help and the choice of trumps.
Set so that the heuristic makes about half of its contracts against itself (150 deals, seed 11:
158 of 300; with 12 it bid up to 19-20 and made 132)."""
LONG_SUIT = 2
"""Points a card of the trump suit beyond the first adds: one more likely trick."""
JACK_IN_TRUMPS = 2
"""Holding the trump jack (the top card of the suit) makes every trump trick safer."""


def points(card: Card) -> int:
    """The card's card points (J 3, 9 2, A 1, 10 1)."""
    return CARD_POINTS_28[card.rank]


def trump_suit(cards: Sequence[Card], view: BiddingView) -> Suit:
    """The suit to name: the longest of ``cards``, then the one with more points, then higher cards."""
    def key(suit: Suit) -> tuple[int, int, int]:
        held = [c for c in cards if c.suit == suit]
        return len(held), sum(points(c) for c in held), sum(view.strength(c) for c in held)
    return max(Suit, key=key)


def hand_value(view: BiddingView) -> int:
    """What this seat's side can expect to take if it names trumps, judged on its four cards."""
    cards = view.hand
    suit = trump_suit(cards, view)
    trumps = [c for c in cards if c.suit == suit]
    value = BASE + sum(points(c) for c in cards) + LONG_SUIT * (len(trumps) - 1)
    if any(c.rank is Rank.JACK for c in trumps):
        value += JACK_IN_TRUMPS
    return value + view.rules.last_trick_points


def choose_bid(view: BiddingView) -> int | None:
    """The least bid when the hand is worth it and the partner does not hold the high bid;
    else a pass (the opener bids the least, as it must)."""
    if not view.may_pass:
        return view.legal_bids[0]
    bids = [seat for seat, call in view.observation.calls if isinstance(call, Bid)]
    if bids and team_of(bids[-1]) == team_of(view.seat):
        return None  # the partner holds the high bid
    if view.legal_bids and view.legal_bids[0] <= hand_value(view):
        return view.legal_bids[0]
    return None


def choose_hidden(view: BiddingView) -> Card:
    """The lowest card of the strongest suit: the suit's higher cards stay in hand to win tricks."""
    suit = trump_suit(view.hand, view)
    return min((c for c in view.hand if c.suit == suit), key=view.strength)


def _winning(obs: BiddingObservation) -> tuple[int, Card] | None:
    """The seat winning the current trick as far as this seat can tell, and its card."""
    trick = obs.current_trick
    if not trick:
        return None
    led = trick[0][1].suit
    trump = obs.trump if obs.reveal is not None else None

    def key(card: Card) -> int:
        if trump is not None and card.suit == trump and led != trump:
            return 100 + strength(obs.rules.rank_order, card)
        return strength(obs.rules.rank_order, card) if card.suit == led else -1
    return max(trick, key=lambda sc: key(sc[1]))


def choose_play(view: BiddingView) -> Card | None:
    """A card to play, or ``None`` to call for the trump to be exposed."""
    obs = view.observation
    legal = view.legal_cards
    trick = obs.current_trick
    trick_points = sum(points(c) for _, c in trick)
    winning = _winning(obs)
    partner_wins = winning is not None and team_of(winning[0]) == team_of(view.seat)
    if view.may_call_for_trump and not partner_wins and (trick_points >= 2 or obs.trick_number >= 6):
        return None
    if not trick:
        return _lead(view, legal)
    led = trick[0][1].suit
    cheap = min(legal, key=lambda c: (points(c), view.strength(c)))
    if partner_wins:
        return max(legal, key=lambda c: (points(c), -view.strength(c)))
    assert winning is not None
    winners = [c for c in legal if _beats(obs, c, winning[1], led)]
    if winners and (trick_points + max(points(c) for c in winners) >= 1 or len(trick) == 3):
        return min(winners, key=lambda c: (view.strength(c), points(c)))
    return cheap


def _beats(obs: BiddingObservation, card: Card, best: Card, led: Suit) -> bool:
    trump = obs.trump if obs.reveal is not None or obs.must_play_trump else None
    order = obs.rules.rank_order
    if trump is not None and card.suit == trump != led:
        return best.suit != trump or strength(order, card) > strength(order, best)
    return card.suit == led == best.suit and strength(order, card) > strength(order, best)


def _lead(view: BiddingView, legal: Sequence[Card]) -> Card:
    """A master (no higher card of its suit left out, in this game's rank order) if there is one,
    else the lowest card of the longest suit."""
    tracker = BiddingTracker.from_view(view)
    for card in sorted(legal, key=lambda c: -view.strength(c)):
        if tracker.is_master(card):
            return card
    counts = {s: sum(1 for c in legal if c.suit == s) for s in Suit}
    suit = max(counts, key=lambda s: counts[s])
    return min((c for c in legal if c.suit == suit), key=view.strength)
