"""Helpers for the Twenty-eight scenario tests: deals written as text, actions as text, scripted
tricks. Every expectation is written from seed 003 and ``docs/rules.md``; these helpers only
drive the engine."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from arena.engine.actions import PlayCard, parse_action
from arena.engine.auction import parse_call
from arena.engine.bidding_hand import BiddingAction, BiddingHand
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.deal import Deal

# Dealer 1, anticlockwise: seat 0 (the dealer's right) opens the auction and leads; a trick led
# by seat L is played by L, L-1, L-2, L-3. The first four cards of a hand are its first packet.
# Seat 0 bids 14 and puts 7H face down (hearts trumps); it then holds JS 9S AS 10S, JH QH, 8C.
# Seat 3: KH 9H, KS QS 8S 7S, JD 9D. Seat 2: AH 10H, JC 9C AC 10C KC QC (no spades, no
# diamonds). Seat 1: 8H, KD AD 10D QD 8D 7D, 7C (no spades).
VOIDS: tuple[str, str, str, str] = (
    "7H JS 9S QH AS 10S JH 8C",
    "KD 8H AD 10D QD 8D 7D 7C",
    "AH 10H JC 9C AC 10C KC QC",
    "KH 9H KS QS 8S 7S JD 9D",
)

# Two cards of every suit in every hand, so that everybody can follow every trick while the
# tricks go round the suits together. Seat 0 bids and hides 7H; it then holds one heart, QH.
PAIRS: tuple[str, str, str, str] = (
    "7H JS 9D AC QH 8S KD 10C",
    "10H 10S QD JC KH QS 7D 7C",
    "9H AS JD QC AH KS 8D 8C",
    "JH 9S AD KC 8H 7S 10D 9C",
)


def start(
    hands: Sequence[str], dealer: int = 1, preset: str = "twenty-eight", overrides: dict[str, Any] | None = None
) -> BiddingHand:
    rules = bidding_rules_for(preset, overrides)
    return BiddingHand(rules, Deal.from_text(rules.deal_rules, [h.split() for h in hands]), dealer)


def action(text: str) -> BiddingAction:
    """``bid 14`` and ``pass`` are calls; anything else an action of the play (``hide 7H``,
    ``reveal``, ``10S``)."""
    word = text.split(maxsplit=1)[0].lower()
    return parse_call(text) if word in ("bid", "pass") else parse_action(text)


def act(hand: BiddingHand, *texts: str) -> None:
    for text in texts:
        hand.apply(action(text))


def bid_and_hide(hand: BiddingHand, hide: str = "7H") -> None:
    """Seat 0 opens at 14, the others pass, seat 0 puts ``hide`` face down."""
    act(hand, "bid 14", "pass", "pass", "pass", f"hide {hide}")


def play_trick(hand: BiddingHand, plays: str, winner: int) -> None:
    """Play the trick ``plays`` (cards and ``reveal`` in play order) and check who won it."""
    before = len(hand.tricks)
    act(hand, *plays.split())
    assert len(hand.tricks) == before + 1, f"{plays!r} did not finish a trick"
    assert hand.tricks[-1].winner == winner, (plays, hand.tricks[-1])


def play_without_calls(hand: BiddingHand) -> None:
    """Play the first legal card every time, never calling for the trump, to the end."""
    while not hand.is_over:
        plays = [a for a in hand.legal_actions() if isinstance(a, PlayCard)]
        hand.apply(plays[0] if plays else hand.legal_actions()[0])
