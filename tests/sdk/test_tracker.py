"""The card tracker: scripted hands checked against the rule texts, then seeded random playouts
checking every deduction against the real (hidden) state of the hand."""

from __future__ import annotations

import random

import pytest

from arena.engine import TRUMP_BONUS
from arena.engine.actions import CALL, HIDE, PLAY, REVEAL
from arena.engine.cards import SUIT_MASKS, TENS, Card, CardMask, Rank, Suit, mask_of, parse_cards
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import Reveal, rules_for
from sdk.bot import BotView
from sdk.tracker import CardTracker, TenPlace
from tests.sdk_helpers import VARIANTS, playout, real_face_down, suits_mask

# Seat 1 holds no hearts or clubs, seat 3 no spades or hearts, seat 2 no spades or diamonds.
HANDS = (
    "AS KS QS JS 10S 9S 8S AH KH QH JH 10H 9H",
    "7S 6S 5S 4S 3S 2S AD KD QD JD 10D 9D 8D",
    "8H 7H 6H 5H 4H 3H 2H AC KC QC JC 10C 9C",
    "7D 6D 5D 4D 3D 2D 8C 7C 6C 5C 4C 3C 2C",
)


def c(text: str) -> Card:
    return Card.parse(text)


def m(text: str) -> CardMask:
    return mask_of(parse_cards(text))


def start(preset: str, dealer: int) -> HandState:
    rules = rules_for(preset)
    deal = Deal.from_text(rules, [h.split() for h in HANDS])
    return HandState(rules, deal, dealer)


def play(state: HandState, *cards: str) -> None:
    for text in cards:
        state.apply(REVEAL if text == "reveal" else PLAY[c(text)])


def track(state: HandState, seat: int) -> CardTracker:
    return CardTracker.from_view(observe(state, seat))


def test_called_trump_voids_streak_sweep_and_tens() -> None:
    state = start("dehla-pakad", dealer=3)  # clockwise: seat 0 calls and leads
    state.apply(CALL[Suit.HEARTS])
    play(state, "AH", "2S", "2H", "2D")  # seats 1 and 3 show no hearts; seat 0 wins
    t = track(state, 2)
    assert t.void(1, Suit.HEARTS) and t.void(3, Suit.HEARTS)
    assert not t.void(0, Suit.HEARTS) and not t.voids[2]
    assert t.streak_holder == 0 and t.sweep_on_win
    assert t.pile == m("AH 2S 2H 2D") and t.pile_tricks == 1
    assert t.trump == Suit.HEARTS == t.trump_in_force
    assert t.top_out(Suit.HEARTS) == c("KH")
    assert t.ten_place(Suit.HEARTS) is TenPlace.OUT
    assert track(state, 0).ten_place(Suit.HEARTS) is TenPlace.MINE

    play(state, "10H", "3S", "3H", "3D")  # seat 0 wins twice in a row: team 0 sweeps
    t = track(state, 3)
    assert t.ten_place(Suit.HEARTS) is TenPlace.CAPTURED_0
    assert t.tens_captured == (1, 0)
    assert t.pile == 0 and t.streak_holder is None and not t.sweep_on_win

    play(state, "AS", "4S", "4H")  # seat 2 ruffs the ace of spades
    t = track(state, 3)
    assert t.void(2, Suit.SPADES)
    assert t.winning == (2, c("4H")) and t.best_key == TRUMP_BONUS + Rank.FOUR
    assert t.to_play == ()
    assert t.play_key(c("4D")) == -1 and not t.beats_now(c("4D"))
    assert t.top_out(Suit.SPADES) == c("KS")  # my own cards never count as out
    assert t.is_master(c("KS"))  # the highest spade not yet played, wherever it is
    assert t.tens_at_stake == 0
    assert t.ten_place(Suit.SPADES) is TenPlace.OUT
    assert t.ten_place(Suit.CLUBS) is TenPlace.OUT
    view = track(state, 0)
    assert view.is_master(c("KS")) and view.higher_out(c("9S")) == 0
    assert view.out_counts == (
        (view.out & SUIT_MASKS[0]).bit_count(), (view.out & SUIT_MASKS[1]).bit_count(),
        (view.out & SUIT_MASKS[2]).bit_count(), (view.out & SUIT_MASKS[3]).bit_count(),
    )


def test_on_request_reveal_shows_a_void_in_trumps_and_places_the_trump_card() -> None:
    state = start("mendikot", dealer=1)  # anticlockwise: seat 0 hides, leads; then 3, 2, 1
    state.apply(HIDE[c("JS")])
    t = track(state, 3)
    assert t.hidden_holder == 0 and t.trump is None
    assert t.out >> c("JS") & 1 and t.unknown >> c("JS") & 1
    own = track(state, 0)
    assert own.own_hidden == c("JS") and own.trump == Suit.SPADES
    assert not own.out >> c("JS") & 1 and own.ten_place(Suit.SPADES) is TenPlace.MINE

    play(state, "AH", "reveal", "2D")  # seat 3 asks, then plays no trump: void in both
    t = track(state, 2)
    assert t.void(3, Suit.HEARTS) and t.void(3, Suit.SPADES)
    assert t.known[0] == m("JS") and t.holder_of(c("JS")) == 0
    assert t.unknown & m("JS") == 0
    assert t.may_follow(0, Suit.SPADES) and not t.may_follow(3, Suit.SPADES)
    play(state, "2H")
    t = track(state, 1)
    assert t.winning == (0, c("AH"))
    assert t.play_key(c("2S")) == TRUMP_BONUS + Rank.TWO and t.beats_now(c("2S"))


def test_from_view_accepts_a_bot_view() -> None:
    state = start("dehla-pakad", dealer=3)
    obs = observe(state, 0)
    assert CardTracker.from_view(BotView(obs, 1.0, 30.0)) == CardTracker.from_view(obs)


# ---------------------------------------------------------------- seeded playouts


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_deduction_is_true_of_the_real_hand(name: str) -> None:
    rules = VARIANTS[name]
    for seed in range(8):
        for state in playout(rules, seed):
            hidden = state.hidden_card
            for seat in range(4):
                t = track(state, seat)
                unseen = sum(state.undealt(s) for s in range(4))
                unseen |= sum(state.hand(s) for s in range(4) if s != seat)
                if hidden is not None and (seat != state.first_player or rules.hidden_blind):
                    unseen |= 1 << hidden  # a blind face-down card is unseen by its holder too
                veiled = state.face_down_cards if seat != state.first_player and not state.is_over else 0
                unseen |= veiled
                assert t.out == unseen
                # Each unseen face-down discard is of no suit its slot rules out.
                real = real_face_down(state, seat)
                assert len(real) == len(t.face_down_slots)
                assert all(not suits >> card // 13 & 1 for card, suits in zip(real, t.face_down_slots, strict=True))
                for other in range(4):
                    if other == seat:
                        continue
                    assert t.known[other] & ~state.hand(other) == 0
                    assert state.hand(other) & ~t.known[other] & suits_mask(t.voids[other]) == 0, (seed, other)
                for suit in Suit:
                    ten = 1 << (suit * 13 + Rank.TEN)
                    place = t.ten_place(suit)
                    if place is TenPlace.CAPTURED_0:
                        assert state.captured(0) & ten
                    elif place is TenPlace.CAPTURED_1:
                        assert state.captured(1) & ten
                    elif place is TenPlace.PILE:
                        assert state.pile & ten
                    elif place is TenPlace.MINE:
                        assert state.hand(seat) & ten or hidden == suit * 13 + Rank.TEN
                    elif place is TenPlace.OUT:
                        assert unseen & ten
                    top = t.top_out(suit)
                    bits = unseen & SUIT_MASKS[suit]
                    assert top == (bits.bit_length() - 1 if bits else None)
                seen_tens = (state.captured(0) | state.captured(1)) & TENS & ~veiled
                assert (t.captured[0] | t.captured[1]) & TENS == seen_tens



@pytest.mark.parametrize("name", list(VARIANTS))
def test_winning_card_play_key_and_sweep_match_the_engine(name: str) -> None:
    rules = VARIANTS[name]
    for seed in range(12):
        rng = random.Random(1000 + seed)
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        while not state.is_over:
            actions = state.legal_actions()
            action = rng.choice(actions)
            seat = state.to_move
            assert seat is not None
            if len(state.current_trick) == 3 and action is not REVEAL and hasattr(action, "card"):
                t = track(state, seat)
                card = action.card  # type: ignore[union-attr]
                before = len(state.tricks)
                state.apply(action)
                trick = state.tricks[before]
                if t.hidden_holder is not None and t.trump_in_force is None and rules.reveal is Reveal.ON_PLAY:
                    # A secret on_play trump the winners have not pinned down: the seat cannot know
                    # who wins (tests/sdk/test_sampling_on_play.py checks what it does know).
                    continue
                assert trick.winner == (seat if t.beats_now(card) else t.winning and t.winning[0])
                if t.streak_holder is not None and trick.winner == t.streak_holder and not t.last_trick:
                    assert (trick.taken_by is not None) == t.sweep_on_win
                if t.last_trick:
                    assert trick.taken_by is not None
                continue
            state.apply(action)
