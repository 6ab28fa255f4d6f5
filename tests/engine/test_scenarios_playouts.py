"""Seeded random playouts of every preset, checked trick by trick against a small reference
reading of the rules written from rules.md (not from the engine):

- legal plays: follow suit if you can, else anything (on_void: the trump's owner in the trick of
  the reveal is judged without the card that came back); after asking for a reveal, a trump if
  you have one; a reveal may be asked only by a player void in the led suit, or by the owner
  of the face-down card on lead, and only under ``reveal=on_request``;
- the trick winner: the highest card that counts as a trump, else the highest of the suit led,
  where a card counts as a trump if its suit is trumps when it is played (called and open trump
  from the start; cut and first discard from the first card played by a player out of the suit
  led, or after the fifth trick for the cut fallback; hidden from the reveal, and for the whole
  trick if the trump suit was led);
- who takes the cards (sweep with and without the Court Piece limits, or direct);
- who wins the hand.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.engine.actions import REVEAL, PlayCard
from arena.engine.cards import ACES, SUIT_MASKS, TENS, Card, CardMask, mask_of
from arena.engine.deal import Deal
from arena.engine.hand import Decision, HandState
from arena.engine.outcome import HandOutcome, Trick
from arena.engine.rules import Capture, HandResultRule, Reveal, Rules, SweepLimits, TrumpMethod, rules_for

CONFIGS: list[tuple[str, dict[str, Any]]] = [
    ("dehla-pakad", {}),
    ("dehla-pakad", {"direction": "anticlockwise", "two_two": "tricks_won_at_table"}),
    ("dehla-pakad", {"two_two": "tricks_captured"}),
    ("dehla-pakad", {"two_two": "draw", "deck": "short32"}),
    ("dehla-pakad-cut", {}),
    ("dehla-pakad-cut", {"deck": "short32"}),
    ("dehla-pakad-hidden", {}),
    ("dehla-pakad-hidden", {"reveal": "on_request"}),
    ("mendikot", {}),
    ("mendikot", {"trump": "none", "bonus_aces": True}),
    ("mendikot", {"trump": "open_random"}),
    ("mendikot", {"trump": "first_discard"}),
    ("mendikot", {"deck": "short32", "trump": "called"}),
    ("court-piece", {}),
    ("court-piece", {"early_end": True}),
    ("court-piece-double-sir", {}),
    ("court-piece-double-sir", {"reveal": "on_void"}),
    ("court-piece-double-sir", {"trump": "called"}),
    ("dehla-pakad", {"trump": "first_discard"}),
    ("court-piece", {"trump": "first_discard", "capture": "sweep", "sweep_limits": "court_piece"}),
]


def check_legal(state: HandState) -> None:
    """The legal actions of the seat to move, as the rules give them."""
    rules = state.rules
    seat = state.to_move
    assert seat is not None
    hand = state.hand(seat)
    trick = state.current_trick
    led = trick[0][1].suit if trick else None
    follow = hand & SUIT_MASKS[led] if led is not None else 0
    reveal = state.reveal
    if (rules.reveal is Reveal.ON_VOID and reveal is not None and seat == state.first_player
            and reveal.trick == state.trick_number and follow == 1 << reveal.card):
        follow = 0  # on_void: a holder out of the led suit but for the card that came back
    if follow:
        expected = follow
    elif state.must_play_trump:
        assert state.trump is not None
        expected = (hand & SUIT_MASKS[state.trump]) or hand
    else:
        expected = hand
    acts = state.legal_actions()
    plays = mask_of(a.card for a in acts if isinstance(a, PlayCard))
    assert plays == expected
    hidden = state.hidden_card is not None
    may_ask = (
        hidden
        and rules.reveal is Reveal.ON_REQUEST
        and not state.must_play_trump
        and ((led is not None and not follow) or (led is None and seat == state.first_player))
    )
    assert (REVEAL in acts) == may_ask
    if hidden and rules.reveal is Reveal.ON_VOID and led is not None:
        assert follow, "on_void: the trump must be turned up at the first player out of the suit"
    if hidden and seat == state.first_player:
        assert hand, "the owner's face-down card must be turned up when it is all they have"


def setting_point(state: HandState, tricks: tuple[Trick, ...]) -> tuple[int, int] | None:
    """(trick, position) from which the trump suit is in force, or None for no trumps."""
    method = state.rules.trump
    if method in (TrumpMethod.CALLED, TrumpMethod.OPEN_RANDOM):
        return (1, 0)
    if method is TrumpMethod.NONE:
        return None
    if method is TrumpMethod.HIDDEN:
        reveal = state.reveal
        return None if reveal is None else (reveal.trick, reveal.position)
    first_packet = state.rules.packets[0]
    for trick in tricks:
        if method is TrumpMethod.CUT and trick.number > first_packet:
            break
        led = trick.cards[0].suit
        for position, card in enumerate(trick.cards):
            if card.suit != led:
                assert state.trump == card.suit, "the first card out of the suit names trumps"
                return (trick.number, position)
    if method is TrumpMethod.CUT and len(tricks) >= first_packet:
        opening = {c for t in tricks[:first_packet] for c in t.cards}
        assert state.trump_setting is not None and state.trump_setting.card in opening
        return (first_packet + 1, 0)
    assert state.trump is None
    return None


def reference_winner(trick: Trick, trump: int | None, point: tuple[int, int] | None) -> int:
    led = trick.cards[0].suit
    best: tuple[int, int] = (-1, -1)
    winner = -1
    for position, (seat, card) in enumerate(zip(trick.seats, trick.cards, strict=True)):
        in_force = point is not None and (trick.number, position) >= point
        if point is not None and trick.number == point[0] and led == trump:
            in_force = True  # the trump suit was led: its cards were trumps all along
        if in_force and card.suit == trump:
            key = (2, card.rank)
        elif card.suit == led:
            key = (1, card.rank)
        else:
            key = (0, 0)
        if key > best:
            best, winner = key, seat
    return winner


def reference_captures(rules: Rules, tricks: tuple[Trick, ...], point: tuple[int, int] | None,
                       hidden: bool) -> list[tuple[int | None, int]]:
    """(team taking the pile, tricks taken) for every trick."""
    out: list[tuple[int | None, int]] = []
    n = rules.hand_size
    pile = 0
    streak: int | None = None
    after_trumps = False  # was the previous trick's winning card played after the reveal (trumps set)?
    limits = rules.sweep_limits is SweepLimits.COURT_PIECE
    for trick in tricks:
        pile += 1
        last = trick.number == n
        if rules.capture is Capture.DIRECT or last:
            take = True
        else:
            allowed = True
            if limits:
                allowed = trick.number not in (1, 2, n - 1) and (not hidden or after_trumps)
            if rules.trump is TrumpMethod.FIRST_DISCARD:  # seed 003: after the trump-setting trick
                allowed = allowed and after_trumps
            take = streak == trick.winner and allowed
            streak = None if take and not limits else trick.winner  # Double Sir: no restart
        position = trick.seats.index(trick.winner)
        after_trumps = point is not None and (trick.number, position) >= point
        out.append((trick.winner % 2, pile) if take else (None, 0))
        if take:
            pile = 0
    return out


def check_result(state: HandState, captured: list[CardMask], counts: list[int]) -> None:
    rules = state.rules
    result = state.result
    assert result is not None
    tens = ((captured[0] & TENS).bit_count(), (captured[1] & TENS).bit_count())
    won = [0, 0]
    for trick in state.tricks:
        won[trick.winner % 2] += 1
    need = rules.hand_size // 2 + 1
    assert result.tens == tens
    assert result.tricks_won == tuple(won)
    assert result.tricks_captured == tuple(counts)
    if rules.hand_result is HandResultRule.SEVEN_TRICKS:
        winner = next((t for t in (0, 1) if counts[t] >= need), None)
        assert result.winner == winner
        first = [t.winner % 2 for t in state.tricks[:need]]
        assert result.kot == (winner is not None and first == [winner] * need)
        return
    three = next((t for t in (0, 1) if tens[t] >= 3), None)
    if three is not None:
        assert result.winner == three
        four = tens[three] == 4
        assert result.outcome is (HandOutcome.FOUR_TENS if four else HandOutcome.THREE_TENS)
        if rules.hand_result is HandResultRule.TENS:
            assert result.kot == four
        else:
            assert result.mendikot == four
            assert result.kot == (four and won[three] == rules.hand_size)
            all_aces = (captured[three] & ACES).bit_count() == 4
            bonus = int(rules.bonus_aces and four and all_aces)
            if not four:
                assert result.points == 1
            elif not result.kot:
                assert result.points == 1 + rules.mendikot_bonus + bonus
            else:
                assert result.points >= 1 + rules.kot_bonus + bonus
    elif rules.hand_result is HandResultRule.MENDIKOT:
        assert result.winner == next((t for t in (0, 1) if counts[t] >= need), None)
    else:
        two_two = str(rules.two_two)
        non_dealer = 1 - state.dealer % 2
        if two_two == "draw":
            assert result.winner is None
        elif two_two == "tricks_won_at_table" and won[0] != won[1]:
            assert result.winner == (0 if won[0] > won[1] else 1)
        elif two_two == "tricks_captured" and counts[0] != counts[1]:
            assert result.winner == (0 if counts[0] > counts[1] else 1)
        else:
            assert result.winner == non_dealer


@pytest.mark.parametrize(("preset", "overrides"), CONFIGS)
def test_random_playouts_follow_the_reference_rules(preset: str,
                                                    overrides: dict[str, Any]) -> None:
    rules = rules_for(preset, overrides)
    for seed in range(25):
        rng = random.Random(seed)
        state = HandState(rules, Deal.from_seed(rules, 1000 + seed), dealer=seed % 4)
        while not state.is_over:
            if state.decision is Decision.PLAY:
                check_legal(state)
            acts = state.legal_actions()
            ask = REVEAL in acts and rng.random() < 0.3
            state.apply(REVEAL if ask else rng.choice([a for a in acts if a is not REVEAL]))
        tricks = state.tricks
        point = setting_point(state, tricks)
        trump = state.trump
        for trick in tricks:
            assert trick.winner == reference_winner(trick, trump, point), (seed, trick)
        hidden = rules.trump is TrumpMethod.HIDDEN
        expected = reference_captures(rules, tricks, point, hidden)
        assert [(t.taken_by, t.tricks_taken) for t in tricks] == expected, seed
        captured = [0, 0]
        counts = [0, 0]
        pile: list[Card] = []
        for trick, (team, _) in zip(tricks, expected, strict=True):
            pile += trick.cards
            if team is not None:
                captured[team] |= mask_of(pile)
                counts[team] += len(pile) // 4
                pile = []
        assert [state.captured(0), state.captured(1)] == captured
        if len(tricks) == rules.hand_size:
            assert captured[0] | captured[1] == rules.deck_mask
        check_result(state, captured, counts)
