"""Helpers for the rule scenario tests: compact deals, scripted tricks, finished hands.

Every expectation in the scenario tests is written from the rule texts
(``docs/rules.md`` and the rule texts it names), never copied from engine output. These
helpers only drive the engine and check what a script says: who wins each trick.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from arena.engine.actions import PlayCard, parse_action
from arena.engine.cards import FULL_DECK, CardMask, mask_of, parse_cards
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.outcome import HandOutcome, HandResult, Trick
from arena.engine.rules import Rules, rules_for

# A "canonical" deal where every seat holds every suit (4 of its own suit, 3 of each other),
# so that twelve tricks can be played with everybody following suit and any seat can be made
# to win a trick by playing its highest card while the others play low.
# Seat s holds A 10 6 2 of suit s (S H D C = 0 1 2 3), K 9 5 of suit s-1, Q 8 4 of suit s-2
# and J 7 3 of suit s-3. The first five cards are the first packet.
CANON: tuple[str, str, str, str] = (
    "AS 10S 6S 2S JH 7H 3H QD 8D 4D KC 9C 5C",
    "KS 9S 5S AH 10H 6H 2H JD 7D 3D QC 8C 4C",
    "QS 8S 4S KH 9H 5H AD 10D 6D 2D JC 7C 3C",
    "JS 7S 3S QH 8H 4H KD 9D 5D AC 10C 6C 2C",
)

Script = Sequence[tuple[str, int]]
"""Tricks as (cards and ``reveal`` in the order they are played, expected winning seat)."""

# The canonical deal played anticlockwise with dealer 1, seat 0 having put 2S face down: twelve
# tricks in which everybody follows suit (so no reveal is possible), seat 3 winning the twelfth.
# Seat 0 then holds only its face-down card; seats 3, 2, 1 hold AC, AD, AH.
LAST_CARD_SCRIPT: Script = [
    ("4D KD 10D 3D", 3),
    ("6C 3C 4C 5C", 3),
    ("JS 4S 5S 10S", 3),
    ("4H 5H 6H 3H", 1),
    ("JD QD 5D 6D", 0),
    ("KC 10C JC QC", 0),
    ("AS 7S QS 9S", 0),
    ("JH 8H KH 10H", 2),
    ("8S KS 6S 3S", 1),
    ("7D 8D 9D 2D", 3),
    ("2C 7C 8C 9C", 0),
    ("7H QH 9H 2H", 3),
]


# The canonical deal, anticlockwise, dealer 1, seat 0 calls hearts: seats 0 and 2 win the first
# seven tricks (a court in Court Piece), then team 1 wins tricks 8, 9, 12 and 13.
COURT_SCRIPT: Script = [
    ("5C 2C 3C 4C", 0),
    ("3H 4H 5H 2H", 2),
    ("6D 3D 4D 5D", 2),
    ("4S 5S 6S 3S", 0),
    ("7H 8H 9H 6H", 2),
    ("7C 8C 9C 6C", 0),
    ("8D 9D 10D 7D", 2),
    ("8S 9S 2S 7S", 1),  # spades led: seat 1 wins with 9S
    ("KS 10S JS QS", 1),
    ("10H JH QH KH", 2),
    ("JC QC KC 10C", 0),
    ("AS AC AD AH", 1),  # seat 1, out of spades, trumps with AH
    ("JD QD KD 2D", 3),
]


# RESTART: the canonical deal, clockwise, dealer 3, seat 0 calls hearts. Winners
# 1 1 1 1 3 1 1 0 2 0 2 1 0. Taken: at trick 2 (2 tricks); at trick 4 (a third win in a row
# starts a new pile, the fourth sweeps it: 2 tricks); at trick 7 (seat 3 then seat 1 take
# nothing, seat 1 again takes tricks 5-7); at trick 13 (seat 0 did not win trick 12, but the
# last trick takes everything left: tricks 8-13). Team 1 holds 10S, 10D, 10H; team 0 10C.
RESTART: Script = [
    ("2S 5S 4S 3S", 1),
    ("KS QS JS 10S", 1),
    ("6H 5H 4H 3H", 1),
    ("JD 10D 9D 8D", 1),
    ("3D 2D 5D 4D", 3),
    ("8H 7H 10H 9H", 1),
    ("8C 7C 6C 5C", 1),
    ("4C 3C 2C 9C", 0),
    ("QD 7D AD KD", 2),
    ("8S 7S AS 9S", 0),
    ("6S QC KH 10C", 2),  # seat 0 leads 6S; seat 2, out of spades, trumps with KH
    ("6D QH KC AH", 1),
    ("2H JC AC JH", 0),
]

# ALTERNATE: the canonical deal, clockwise, dealer 3, seat 0 calls spades. Seats 0 and 2 win
# alternately all hand: nothing is ever taken until the 13th trick, whose winner takes all 52
# cards (and so all four tens: a kot).
ALTERNATE: Script = [
    ("5C 4C 3C 2C", 0),
    ("3H 2H 5H 4H", 2),
    ("4S 3S 6S 5S", 0),
    ("4D 3D 6D 5D", 2),
    ("7C 6C 9C 8C", 0),
    ("7H 6H 9H 8H", 2),
    ("8S 7S 10S 9S", 0),
    ("8D 7D 10D 9D", 2),
    ("JC 10C KC QC", 0),
    ("JH 10H KH QH", 2),
    ("QS JS AS KS", 0),
    ("QD JD AD KD", 2),
    ("2D AC 2S AH", 0),  # seat 2 leads its last card; seat 0 trumps with 2S
]

# TWO_TWO_A: two tens each. The canonical deal, clockwise, dealer 3 (team 1; the non-dealers
# are team 0), diamonds trumps: seats 0 and 2 win tricks 1-7 alternately (nothing taken), seat 1
# wins 8 and 9 and sweeps tricks 1-9 (10S in trick 3, 10H in trick 8); seat 0 takes 10-11
# (10D), seat 2 takes 12-13 (10C). Tricks won at the table 11-2 for team 0; tricks in the
# captured piles 4-9 for team 1.
TWO_TWO_A: Script = [
    ("5C 4C 3C 2C", 0),
    ("3H 2H 5H 4H", 2),
    ("8S 7S 10S 9S", 0),
    ("4D 3D 6D 5D", 2),
    ("4S 3S 6S 5S", 0),
    ("9C 8C JC 6C", 2),
    ("QS JS AS KS", 0),
    ("7H 10H 9H 8H", 1),
    ("AH KH QH JH", 1),
    ("JD 10D 9D QD", 0),
    ("2S QC 7C AC", 0),
    ("8D 7D AD KD", 2),
    ("2D 10C KC 6H", 2),
]


def mask(text: str) -> CardMask:
    """The set of cards named in ``text`` (``"10H AS"``)."""
    return mask_of(parse_cards(text))


def make_deal(rules: Rules, hands: Sequence[str], chance: int = 0) -> Deal:
    """A deal from four space-separated hands, each in deal order."""
    return Deal.from_text(rules, [hand.split() for hand in hands], chance=chance)


def start(
    preset: str,
    hands: Sequence[str],
    dealer: int,
    overrides: dict[str, Any] | None = None,
    chance: int = 0,
) -> HandState:
    rules = rules_for(preset, overrides or {})
    return HandState(rules, make_deal(rules, hands, chance), dealer)


def act(state: HandState, *actions: str) -> None:
    """Apply actions in order: ``"call S"``, ``"hide 2D"``, ``"reveal"``, ``"10H"``."""
    for text in actions:
        state.apply(parse_action(text))


def play_trick(state: HandState, plays: str, winner: int) -> Trick:
    """Play one whole trick (cards, and ``reveal`` where a seat asks) and check who won it."""
    assert not state.current_trick, "a scripted trick must start on lead"
    before = len(state.tricks)
    leader = state.to_move
    for text in plays.split():
        state.apply(parse_action(text))
    assert len(state.tricks) == before + 1, f"{plays!r} did not complete a trick"
    trick = state.tricks[-1]
    assert trick.leader == leader
    assert trick.winner == winner, (
        f"trick {trick.number} ({plays}): expected seat {winner} to win, "
        f"the engine says seat {trick.winner}"
    )
    return trick


def play_script(state: HandState, script: Script) -> list[Trick]:
    return [play_trick(state, plays, winner) for plays, winner in script]


def finish_hand(state: HandState) -> None:
    """Play the rest of the hand with the first legal action every time, never asking for a
    reveal (a trump call or a face-down card first, if the hand has not settled trumps yet)."""
    while not state.is_over:
        legal = state.legal_actions()
        plays = [a for a in legal if isinstance(a, PlayCard)]
        state.apply(plays[0] if plays else legal[0])


def trick_mask(trick: Trick) -> CardMask:
    return mask_of(trick.cards)


def tricks_mask(tricks: Iterable[Trick]) -> CardMask:
    out = 0
    for trick in tricks:
        out |= trick_mask(trick)
    return out


def assert_all_cards_with_one_team(state: HandState, deck: CardMask = FULL_DECK) -> None:
    """After the last trick every card is in exactly one team's pile and the centre is empty."""
    assert state.is_over
    assert state.pile == 0
    assert state.captured(0) & state.captured(1) == 0
    assert state.captured(0) | state.captured(1) == deck
    assert state.captured_tricks(0) + state.captured_tricks(1) == state.rules.hand_size


def hand_result(
    winner: int | None,
    outcome: HandOutcome = HandOutcome.THREE_TENS,
    *,
    kot: bool = False,
    mendikot: bool = False,
    points: int = 0,
) -> HandResult:
    """A ``HandResult`` for match-scoring tests: the winner's tens follow from the outcome."""
    won = {HandOutcome.FOUR_TENS: 4, HandOutcome.THREE_TENS: 3}.get(outcome, 2)
    tens = (won, 4 - won) if winner in (0, None) else (4 - won, won)
    return HandResult(
        winner=winner,
        outcome=outcome,
        tens=tens,
        tricks_won=(7, 6) if winner == 0 else (6, 7),
        tricks_captured=(7, 6) if winner == 0 else (6, 7),
        tricks_played=13,
        kot=kot,
        mendikot=mendikot,
        all_aces=False,
        points=points,
    )
