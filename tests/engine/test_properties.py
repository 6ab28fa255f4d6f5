"""Seeded random-playout invariants of the engine, for every preset and a few option variants.

Each example is one hand: a seeded deal, a dealer, and random legal play from an rng seeded by
hypothesis. Play uses its own rng (``play_seed``) and the checks another, so every test plays
the same hand for the same arguments, and a falsifying example is its own repro::

    play_hand(VARIANTS[name], deal_seed, dealer, play_seed)

The checks re-derive the rules from ``docs/rules.md`` rather than reading the engine's
internals: who may play what, who wins a trick, who takes the pile, who wins the hand.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, fields

import pytest
from hypothesis import currently_in_test_context, given, note

from arena.engine.actions import (
    CALL,
    DECLINE,
    DOWN,
    HIDE,
    PLAY,
    REVEAL,
    Action,
    CallTrump,
    DeclineTrump,
    HideTrump,
    PlayCard,
)
from arena.engine.cards import SUIT_MASKS, TENS, Card, CardMask, cards_of, mask_of
from arena.engine.errors import IllegalActionError
from arena.engine.hand import Decision, HandState
from arena.engine.hand_records import hand_record, replay_record
from arena.engine.observation import Observation, observe
from arena.engine.outcome import Trick, majority
from arena.engine.rules import (
    PRESETS,
    Capture,
    HandResultRule,
    Reveal,
    Rules,
    SweepLimits,
    TrumpCard,
    TrumpMethod,
    TwoTwo,
    rules_for,
)
from arena.engine.seats import SEATS, next_seats, play_order
from tests.engine_helpers import Visit, deal_seeds, dealers, examples, permuted, play_hand, play_seeds, unseen_by

# Every preset, plus variants that reach the other options: direction, the 32-card deck and
# the trump methods no preset uses.
VARIANTS: dict[str, Rules] = {name: rules_for(name) for name in PRESETS} | {
    "dehla-pakad direction=anticlockwise": rules_for("dehla-pakad", {"direction": "anticlockwise"}),
    "dehla-pakad-cut deck=short32": rules_for("dehla-pakad-cut", {"deck": "short32"}),
    "mendikot deck=short32": rules_for("mendikot", {"deck": "short32"}),
    "court-piece-double-sir deck=short32": rules_for("court-piece-double-sir", {"deck": "short32"}),
    "dehla-pakad-hidden reveal=on_play": rules_for("dehla-pakad-hidden", {"reveal": "on_play"}),
    "mendikot-closed hide_from=first_packet": rules_for("mendikot-closed", {"hide_from": "first_packet"}),
    "court-piece-double-sir hide_from=full_hand": rules_for("court-piece-double-sir", {"hide_from": "full_hand"}),
    "mendikot trump=first_discard": rules_for("mendikot", {"trump": "first_discard"}),
    "mendikot trump=open_random": rules_for("mendikot", {"trump": "open_random"}),
    "mendikot trump=none": rules_for("mendikot", {"trump": "none"}),
    "dehla-pakad trump=first_discard": rules_for("dehla-pakad", {"trump": "first_discard"}),
    "court-piece trump=first_discard capture=sweep sweep_limits=court_piece": rules_for(
        "court-piece", {"trump": "first_discard", "capture": "sweep", "sweep_limits": "court_piece"}
    ),
    # Seed 003's trump variants (rules.md, "Court Piece trump variants").
    "court-piece trump_card=later": rules_for("court-piece", {"trump_card": "later"}),
    "court-piece trump_card=later trump_card_index=8 deck=short32": rules_for(
        "court-piece", {"trump_card": "later", "trump_card_index": 8, "deck": "short32"}
    ),
    "court-piece decline=second_packet": rules_for("court-piece", {"decline": "second_packet"}),
    "court-piece decline=second_packet deck=short32": rules_for(
        "court-piece", {"decline": "second_packet", "deck": "short32"}
    ),
    "court-piece-double-sir hidden_blind=true": rules_for("court-piece-double-sir", {"hidden_blind": True}),
    "dehla-pakad-hidden hidden_blind=true": rules_for("dehla-pakad-hidden", {"hidden_blind": True}),
    "mendikot hidden_blind=true deck=short32": rules_for("mendikot", {"hidden_blind": True, "deck": "short32"}),
}
assert not any(r.early_end for r in VARIANTS.values()), "early_end hands are tested apart"

EARLY_END: dict[str, Rules] = {
    "court-piece early_end=true": rules_for("court-piece", {"early_end": True}),
    "court-piece-double-sir early_end=true": rules_for("court-piece-double-sir", {"early_end": True}),
}

ALL_ACTIONS: tuple[Action, ...] = (*PLAY, *DOWN, *CALL, *HIDE, REVEAL, DECLINE)

variant_names = pytest.mark.parametrize("name", list(VARIANTS))


# ------------------------------------------------------------------- helpers
def played_mask(state: HandState) -> CardMask:
    return mask_of(c for t in state.tricks for c in t.cards) | mask_of(c for _, c in state.current_trick)


def plays_by(state: HandState, seat: int) -> int:
    played = sum(t.seats[i] == seat for t in state.tricks for i in range(4))
    return played + sum(s == seat for s, _ in state.current_trick)


def snapshot(state: HandState) -> tuple[object, ...]:
    """Everything a caller can read from a state, for "an illegal action changes nothing"."""
    return (
        state.history, state.decision, state.to_move, state.legal_mask(), state.legal_actions(),
        tuple(state.hand(s) for s in SEATS), tuple(state.undealt(s) for s in SEATS),
        state.hidden_card, state.trump, state.trump_in_force, state.trump_setting, state.reveal,
        state.current_trick, state.tricks, state.pile, state.pile_tricks, state.streak_holder,
        state.captured(0), state.captured(1), state.result,
        tuple(observe(state, s) for s in SEATS),
    )


def assert_same_view(actual: Observation, expected: Observation, why: str) -> None:
    differing = [f.name for f in fields(Observation) if getattr(actual, f.name) != getattr(expected, f.name)]
    assert not differing, f"{why}: observation fields differ: {differing}"


def assert_cards_conserved(state: HandState) -> None:
    """Hands, cards to come, the face-down card and the played cards are the deck, once each."""
    rules = state.rules
    hidden = 1 << state.hidden_card if state.hidden_card is not None else 0
    parts = [state.hand(s) for s in SEATS] + [state.undealt(s) for s in SEATS] + [hidden, played_mask(state)]
    assert sum(p.bit_count() for p in parts) == rules.deck_mask.bit_count()
    union = 0
    for part in parts:
        union |= part
    assert union == rules.deck_mask
    for seat in SEATS:
        own_hidden = hidden.bit_count() if seat == state.first_player else 0
        held = state.hand(seat).bit_count() + state.undealt(seat).bit_count() + own_hidden
        assert held + plays_by(state, seat) == rules.hand_size, f"seat {seat} holds the wrong number of cards"


def holder_owes_nothing(state: HandState) -> bool:
    """rules.md, on_void: "a holder who was out of the led suit may still play anything, even
    when the card that came back is of the led suit". True when the seat to move is the trump's
    owner, the card came back in this trick, and it is the owner's only card of the led suit."""
    reveal, led, seat = state.reveal, state.led_suit, state.to_move
    if state.rules.reveal is not Reveal.ON_VOID or reveal is None or led is None or seat is None:
        return False
    return (seat == state.first_player and reveal.trick == state.trick_number
            and state.hand(seat) & SUIT_MASKS[led] == 1 << reveal.card)


def trump_in_history(state: HandState) -> tuple[int | None, tuple[int, int] | None]:
    """The trump suit and the (trick, position) from which its cards count as trumps, derived
    from the public history and the rules text alone (not from the engine's trump fields)."""
    rules = state.rules
    method = rules.trump
    if method is TrumpMethod.NONE:
        return None, None
    if method in (TrumpMethod.OPEN_RANDOM, TrumpMethod.CALLED):
        if method is TrumpMethod.CALLED:
            called = [a for _, a in state.history if isinstance(a, CallTrump | DeclineTrump)]
            assert len(called) == 1, "called trump: exactly one call or decline"
            if isinstance(called[0], CallTrump):
                return int(called[0].suit), (1, 0)
            return declined_trump(state), (1, 0)
        setting = state.trump_setting
        assert setting is not None and setting.card is not None and setting.seat is not None
        assert state.deal is not None
        assert setting.seat != state.first_player
        # Seed 001's open method: from another player's whole hand, after the full deal.
        assert setting.card in state.deal.hands[setting.seat]
        return int(setting.card.suit), (1, 0)
    plays = [(t.number, i, c, t.cards[0].suit) for t in state.tricks for i, c in enumerate(t.cards)]
    off_suit = [(n, i, c) for n, i, c, led in plays if i > 0 and c.suit != led]
    if method in (TrumpMethod.CUT, TrumpMethod.FIRST_DISCARD):
        opening = rules.packets[0]
        if off_suit and (method is TrumpMethod.FIRST_DISCARD or off_suit[0][0] <= opening):
            number, position, card = off_suit[0]
            return int(card.suit), (number, position)
        if method is TrumpMethod.FIRST_DISCARD:
            return None, None
        # Cut fallback: a card of the five opening tricks, drawn from the deal's chance seed.
        setting = state.trump_setting
        assert setting is not None and setting.card is not None and setting.seat is None
        assert setting.card in [c for t in state.tricks[:opening] for c in t.cards]
        return int(setting.card.suit), (opening + 1, 0)
    # Hidden trump: active from the first of an asked reveal, the first void (on_void only) and
    # the play of the hidden card itself.
    hidden = [a for _, a in state.history if isinstance(a, HideTrump)]
    if rules.hidden_blind:
        assert not hidden, "a blind face-down card is put down by nobody"
        card = blind_card(state)
    else:
        assert len(hidden) == 1, "hidden trump: exactly one card put face down"
        card = hidden[0].card
    if rules.reveal is Reveal.ON_PLAY:
        # Seed 001's closed method: "the trump suit is in force from the first trick".
        return int(card.suit), (1, 0)
    points = [(n, i) for n, i, c, _ in plays if c == card]
    if rules.reveal is Reveal.ON_VOID:
        points += [(n, i) for n, i, _ in off_suit[:1]]
    count = 0
    for _, action in state.history:
        if action is REVEAL:
            points.append((count // 4 + 1, count % 4))
        count += isinstance(action, PlayCard)
    return int(card.suit), min(points) if points else None


def declined_trump(state: HandState) -> int:
    """Seed 003: after a decline, the ``trump_card_index``-th card dealt to the caller, or a card
    of its second packet; turned face up, it stays in the caller's hand until played."""
    rules, setting, deal = state.rules, state.trump_setting, state.deal
    assert setting is not None and setting.card is not None and deal is not None
    dealt = deal.hands[state.first_player]
    if rules.trump_card is TrumpCard.LATER:
        assert rules.trump_card_index is not None
        assert setting.card == dealt[rules.trump_card_index - 1]
    else:
        first, second = rules.packets[0], rules.packets[1]
        assert setting.card in dealt[first:first + second]
    assert setting.seat == state.first_player
    played = [c for t in state.tricks for c in t.cards] + [c for _, c in state.current_trick]
    assert setting.card in played or state.hand(state.first_player) >> setting.card & 1
    return int(setting.card.suit)


def blind_card(state: HandState) -> Card:
    """Seed 003: the blind face-down card is one of the caller's first five cards."""
    card = state.reveal.card if state.reveal is not None else state.hidden_card
    assert card is not None and state.deal is not None
    assert card in state.deal.hands[state.first_player][:state.rules.packets[0]]
    return card


def trick_winner(trick: Trick, trump: int | None, active: tuple[int, int] | None) -> int:
    """The seat that wins ``trick``: the highest card counted as a trump, else the highest of
    the suit led. A trump-suit card counts only when played once trumps were in force; if the
    trump suit was led, its highest card wins anyway."""
    led = trick.cards[0].suit

    def key(position: int) -> int:
        card = trick.cards[position]
        if card.suit == led:
            return int(card.rank)
        if card.suit == trump and active is not None and (trick.number, position) >= active:
            return 100 + int(card.rank)
        return -1

    return trick.seats[max(range(4), key=key)]


def expected_takes(state: HandState) -> list[tuple[int | None, int]]:
    """(team that takes the pile, tricks taken) after each trick, by the capture rule. Seed 003:
    under Double Sir's limits a claim needs the previous winning card played after the reveal,
    and the count goes on after a claim; under first discard, nothing is collected before the
    trick after the trump-setting one (the previous trick was won with trumps set)."""
    rules = state.rules
    limits = rules.capture is Capture.SWEEP and rules.sweep_limits is SweepLimits.COURT_PIECE
    first_discard = rules.trump is TrumpMethod.FIRST_DISCARD
    _, active = trump_in_history(state)
    out: list[tuple[int | None, int]] = []
    pile = 0
    streak: int | None = None
    previous_with_trumps = False
    for trick in state.tricks:
        pile += 1
        last = trick.number == rules.hand_size
        take = True
        if rules.capture is Capture.SWEEP and not last:
            allowed = not limits or (
                trick.number not in (1, 2, rules.hand_size - 1)
                and (rules.trump is not TrumpMethod.HIDDEN or previous_with_trumps)
            )
            if first_discard:
                allowed = allowed and previous_with_trumps
            take = streak == trick.winner and allowed
            streak = None if take and not limits else trick.winner
        position = trick.seats.index(trick.winner)
        previous_with_trumps = active is not None and active <= (trick.number, position)
        out.append((trick.winner & 1, pile) if take else (None, 0))
        if take:
            pile = 0
    return out


def expected_winner(state: HandState) -> int | None:
    """The team that wins a finished hand by the ``hand_result`` rule (None: drawn)."""
    rules = state.rules
    tens = [(state.captured(t) & TENS).bit_count() for t in (0, 1)]
    tricks = [state.captured_tricks(t) for t in (0, 1)]
    need = majority(rules)
    by_tricks = 0 if tricks[0] >= need else 1 if tricks[1] >= need else None
    if rules.hand_result is HandResultRule.SEVEN_TRICKS:
        return by_tricks
    if max(tens) >= 3:
        return 0 if tens[0] >= 3 else 1
    if rules.hand_result is HandResultRule.MENDIKOT:
        return by_tricks
    assert rules.two_two is TwoTwo.NON_DEALER, "the variants here use the default two_two"
    return 1 - (state.dealer & 1)


def roundtrip(state: HandState, *, complete: bool = True) -> tuple[dict[str, object], HandState]:
    """The hand's record through JSON text, and the hand replayed from it."""
    text = json.dumps(hand_record(state))
    return json.loads(text), replay_record(json.loads(text), require_complete=complete)


def rejected(state: HandState, action: Action) -> bool:
    """Whether ``apply`` refuses ``action`` with ``IllegalActionError`` (other errors propagate)."""
    try:
        state.apply(action)
    except IllegalActionError:
        return True
    return False


# ------------------------------------------------------------------- properties
@variant_names
@examples(60)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_hand_completes_with_every_card_played(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]

    def visit(state: HandState, _: random.Random) -> None:
        assert_cards_conserved(state)
        if not state.is_over:
            assert state.to_move in SEATS and state.decision is not None

    state = play_hand(rules, deal_seed, dealer, play_seed, visit)
    assert state.result is not None
    assert len(state.tricks) == rules.hand_size == state.result.tricks_played
    played = [c for t in state.tricks for c in t.cards]
    assert len(played) == 4 * rules.hand_size and mask_of(played) == rules.deck_mask
    assert all(state.hand(s) == state.undealt(s) == 0 for s in SEATS)
    assert state.hidden_card is None and state.current_trick == ()
    assert state.to_move is None and state.legal_actions() == () and state.legal_mask() == 0


@variant_names
@examples(50)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_tricks_are_played_in_order_and_won_by_the_highest_trump_or_led_card(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]
    state = play_hand(rules, deal_seed, dealer, play_seed)
    trump, active = trump_in_history(state)
    note(f"trump={trump} active_from={active} setting={state.trump_setting} reveal={state.reveal}")
    assert state.first_player == next_seats(rules.direction)[dealer]
    assert trump == (None if state.trump is None else int(state.trump))
    if rules.reveal is Reveal.ON_PLAY:
        # Turned up only by its play: the card at the reveal's place is the face-down one.
        reveal = state.reveal
        assert reveal is not None and reveal.seat == state.first_player
        assert state.tricks[reveal.trick - 1].cards[reveal.position] == reveal.card
    elif rules.trump is TrumpMethod.HIDDEN:
        assert state.reveal is not None and active == (state.reveal.trick, state.reveal.position)
    leader = state.first_player
    for trick in state.tricks:
        assert trick.leader == leader and trick.seats == play_order(leader, rules.direction)
        assert trick.winner == trick_winner(trick, trump, active), f"trick {trick.number}: {trick}"
        leader = trick.winner


@variant_names
@examples(60)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_every_card_ends_with_exactly_one_team_by_the_capture_rule(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]

    def visit(state: HandState, _: random.Random) -> None:
        untaken = [t for t in state.tricks if t.taken_by is None]
        since_take = untaken[len(untaken) - state.pile_tricks:] if state.pile_tricks else []
        assert state.pile == mask_of(c for t in since_take for c in t.cards)
        assert state.captured(0) & state.captured(1) == 0

    state = play_hand(rules, deal_seed, dealer, play_seed, visit)
    assert state.captured(0) | state.captured(1) == rules.deck_mask
    assert state.captured(0) & state.captured(1) == 0
    assert state.pile == 0 and state.pile_tricks == 0
    assert state.captured_tricks(0) + state.captured_tricks(1) == rules.hand_size
    takes = expected_takes(state)
    assert [(t.taken_by, t.tricks_taken) for t in state.tricks] == takes
    captured, pile = [0, 0], 0
    for trick, (team, _) in zip(state.tricks, takes, strict=True):
        pile |= mask_of(trick.cards)
        if team is not None:
            captured[team] |= pile
            pile = 0
    assert [state.captured(0), state.captured(1)] == captured


SEED_003_SWEEPS = [
    name for name, rules in VARIANTS.items()
    if rules.capture is Capture.SWEEP
    and (rules.sweep_limits is SweepLimits.COURT_PIECE or rules.trump is TrumpMethod.FIRST_DISCARD)
]


@pytest.mark.parametrize("name", SEED_003_SWEEPS)
@examples(60)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_seed_003_claims_wait_for_trumps_and_go_on_without_restarting(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    """Seed 003, first discard: "No tricks can be collected until the trick after the one in
    which trumps are determined (but if the same player wins the trump determining trick and
    the following one, that player's team collects all the tricks played up to this point)".
    Double Sir: "From the 3rd to the 11th trick inclusive, if the trick is won by the same player
    that won the previous trick [...] the player's team collects" (every time: no restart)."""
    rules = VARIANTS[name]
    state = play_hand(rules, deal_seed, dealer, play_seed)
    n = rules.hand_size
    limits = rules.sweep_limits is SweepLimits.COURT_PIECE
    _, active = trump_in_history(state)
    set_in = active[0] if active is not None else n + 1  # the trick that set trumps
    for previous, trick in zip(state.tricks, state.tricks[1:], strict=False):
        if trick.number == n:
            break
        taken = trick.taken_by is not None
        again = trick.winner == previous.winner
        forbidden = limits and trick.number in (2, n - 1)
        if rules.trump is TrumpMethod.FIRST_DISCARD:
            if trick.number <= set_in:
                assert not taken, f"trick {trick.number} collected before trumps (set in {set_in})"
            elif trick.number == set_in + 1:
                assert taken == (again and not forbidden)
                if taken:
                    assert trick.tricks_taken == trick.number, "everything played so far"
        if limits and rules.trump is not TrumpMethod.HIDDEN and trick.number > set_in:
            assert taken == (again and not forbidden), f"trick {trick.number}"
    assert state.tricks[0].taken_by is None or n == 1


@variant_names
@examples(60)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_tens_are_conserved_and_the_hand_result_follows_the_rules(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]
    state = play_hand(rules, deal_seed, dealer, play_seed)
    result = state.result
    assert result is not None
    tens = tuple((state.captured(t) & TENS).bit_count() for t in (0, 1))
    assert result.tens == tens and sum(tens) == (rules.deck_mask & TENS).bit_count() == 4
    won = [sum(t.winner & 1 == team for t in state.tricks) for team in (0, 1)]
    assert list(result.tricks_won) == won
    assert list(result.tricks_captured) == [state.captured_tricks(0), state.captured_tricks(1)]
    assert result.winner == expected_winner(state)


@variant_names
@examples(50)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_follow_suit_is_enforced_and_an_off_suit_card_changes_nothing(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]
    checked = [0]

    def visit(state: HandState, rng: random.Random) -> None:
        if state.decision is not Decision.PLAY:
            return
        seat = state.to_move
        assert seat is not None
        hand = state.hand(seat)
        if rules.reveal is Reveal.ON_PLAY and state.hidden_card is not None and seat == state.first_player:
            hand |= 1 << state.hidden_card  # rules.md: "counts as part of its holder's hand"
        legal = state.legal_actions()
        plays = [a.card for a in legal if isinstance(a, PlayCard)]
        assert state.legal_mask() == mask_of(plays)
        led = state.led_suit
        if REVEAL in legal:
            # Only on request: a player void in the led suit, or the trump's owner on lead.
            assert rules.reveal is Reveal.ON_REQUEST and state.hidden_card is not None
            assert (led is None and seat == state.first_player) or (
                led is not None and not hand & SUIT_MASKS[led]
            )
        if holder_owes_nothing(state):
            assert mask_of(plays) == hand, "on_void: a holder out of the led suit plays anything"
        elif led is not None and hand & SUIT_MASKS[led]:
            assert mask_of(plays) == hand & SUIT_MASKS[led], "must follow suit, with any card of it"
            off = cards_of(hand & ~SUIT_MASKS[led])
            if off:
                card = rng.choice(off)
                before = snapshot(state)
                with pytest.raises(IllegalActionError):
                    state.apply(PLAY[card])
                with pytest.raises(IllegalActionError):
                    state.play(card)
                assert snapshot(state) == before, f"rejected play {card} changed the state"
                checked[0] += 1
        elif state.must_play_trump:
            trump = state.trump
            assert trump is not None
            assert mask_of(plays) == (hand & SUIT_MASKS[trump] or hand), "after a reveal: a trump if able"
        else:
            assert mask_of(plays) == hand, "a leader or a void player may play any card"

    play_hand(rules, deal_seed, dealer, play_seed, visit)
    assert checked[0] > 0, "no off-suit attempt was made in this hand"


@variant_names
@examples(25)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_every_illegal_action_raises_and_changes_nothing(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]

    def visit(state: HandState, rng: random.Random) -> None:
        if rng.random() > 0.4:
            return
        legal = set(state.legal_actions())
        before = snapshot(state)
        accepted = [str(a) for a in ALL_ACTIONS if a not in legal and not rejected(state, a)]
        assert not accepted, f"illegal actions were accepted: {accepted}"
        assert snapshot(state) == before, "a rejected action changed the state"

    play_hand(rules, deal_seed, dealer, play_seed, visit)


@variant_names
@examples(40)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_record_replays_to_the_same_hand(name: str, deal_seed: int, dealer: int, play_seed: int) -> None:
    rules = VARIANTS[name]

    def visit(state: HandState, rng: random.Random) -> None:
        if state.is_over or rng.random() > 0.15:
            return
        record, replayed = roundtrip(state, complete=False)
        assert replayed.history == state.history
        assert hand_record(replayed) == record
        for seat in SEATS:
            assert_same_view(observe(replayed, seat), observe(state, seat), f"replayed, seat {seat}")

    state = play_hand(rules, deal_seed, dealer, play_seed, visit)
    record, replayed = roundtrip(state)
    assert replayed.is_over
    assert replayed.result == state.result
    assert replayed.history == state.history
    assert replayed.tricks == state.tricks
    assert hand_record(replayed) == record


@dataclass
class HidingCounts:
    """What one run of the hiding check reached (so a test can show it tested what it claims)."""

    controls: int = 0
    face_down_hidden: int = 0
    """Points where a face-down discard was among the cards redistributed for the seat."""
    face_down_controls: int = 0
    """Negative controls on a face-down discard its maker (or anyone, after the hand) sees."""


def check_hiding(rules: Rules, counts: HidingCounts) -> Visit:
    """A ``play_hand`` visit: at random points, redistributing what a random seat cannot see
    leaves its view unchanged, and changing what it can see does not."""

    def visit(state: HandState, rng: random.Random) -> None:
        if rng.random() > 0.5:
            return
        seat = rng.choice(SEATS)
        view = observe(state, seat)
        unseen = unseen_by(state, seat)
        shuffled = rng.sample(unseen, len(unseen))
        other = permuted(state, dict(zip(unseen, shuffled, strict=True)))
        if currently_in_test_context():
            note(f"seat {seat}, {len(state.history)} actions, unseen {len(unseen)} cards")
        assert_same_view(observe(other, seat), view, f"seat {seat} after redistributing unseen cards")
        assert observe(state, seat) == view, "resampled must not change the original"
        if not state.is_over and rng.random() < 0.1:
            # An imagined deal is a hand like any other: it plays to the end.
            rest = random.Random(rng.random())
            while not other.is_over:
                actions = other.legal_actions()
                other.apply(actions[rest.randrange(len(actions))])
            assert len(other.tricks) == rules.hand_size
        # Negative controls: the test notices a change the seat can see.
        own = cards_of(state.hand(seat))
        if own and unseen:
            mine, theirs = rng.choice(own), rng.choice(unseen)
            swapped = permuted(state, {mine: theirs, theirs: mine})
            assert observe(swapped, seat) != view, "swapping a card of the seat's own hand went unseen"
            counts.controls += 1
        hidden = state.hidden_card
        if hidden is not None and seat == state.first_player and unseen and not rules.hidden_blind:
            theirs = rng.choice(unseen)
            swapped = permuted(state, {hidden: theirs, theirs: hidden})
            assert observe(swapped, seat) != view, "the owner did not see its face-down card change"
        down = cards_of(state.face_down_cards)
        if down and seat != state.first_player and not state.is_over:
            counts.face_down_hidden += 1
        elif down and unseen:
            # The maker (and, once the hand is over, everyone) sees the face-down discards.
            mine, theirs = rng.choice(down), rng.choice(unseen)
            swapped = permuted(state, {mine: theirs, theirs: mine})
            assert observe(swapped, seat) != view, "a face-down discard changed unseen by a seat that sees it"
            counts.face_down_controls += 1

    return visit


@variant_names
@examples(40)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_observation_does_not_depend_on_cards_the_seat_cannot_see(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]
    counts = HidingCounts()
    play_hand(rules, deal_seed, dealer, play_seed, check_hiding(rules, counts))
    assert counts.controls > 0


def test_the_hiding_check_reaches_face_down_discards() -> None:
    """On fixed court-piece-double-sir hands the check above meets face-down discards hidden
    from other seats and seen by their maker (it tests what it claims to)."""
    rules = rules_for("court-piece-double-sir")
    counts = HidingCounts()
    for seed in range(12):
        play_hand(rules, seed, seed % 4, seed, check_hiding(rules, counts))
    assert counts.face_down_hidden >= 20 and counts.face_down_controls >= 3, counts


@pytest.mark.parametrize("name", list(EARLY_END))
@examples(60)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_early_end_stops_once_a_team_has_its_tricks(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = EARLY_END[name]
    need = majority(rules)

    def visit(state: HandState, _: random.Random) -> None:
        assert_cards_conserved(state)
        if not state.is_over:
            assert max(state.captured_tricks(0), state.captured_tricks(1)) < need

    state = play_hand(rules, deal_seed, dealer, play_seed, visit)
    result = state.result
    assert result is not None
    played = len(state.tricks)
    assert result.tricks_played == played <= rules.hand_size
    if played < rules.hand_size:
        # Direct capture reaches the majority one trick at a time; a sweep may overshoot it.
        most = max(state.captured_tricks(0), state.captured_tricks(1))
        assert most == need if rules.capture is Capture.DIRECT else most >= need
    assert result.winner == expected_winner(state)
    assert result.winner is not None and state.captured_tricks(result.winner) >= need
    assert state.current_trick == () and state.captured(0) & state.captured(1) == 0
    assert state.captured(0) | state.captured(1) | state.pile == played_mask(state)
    assert all(state.hand(s).bit_count() == rules.hand_size - played for s in SEATS)
    _, replayed = roundtrip(state)
    assert replayed.result == result and replayed.history == state.history


@variant_names
@examples(30)
@given(deal_seed=deal_seeds, dealer=dealers, play_seed=play_seeds)
def test_a_clone_copies_every_slot_and_plays_on_independently(
    name: str, deal_seed: int, dealer: int, play_seed: int
) -> None:
    rules = VARIANTS[name]

    def visit(state: HandState, rnd: random.Random) -> None:
        copy = state.clone()
        for slot in HandState.__slots__:
            mine, theirs = getattr(state, slot), getattr(copy, slot)
            assert mine == theirs, slot
            assert not isinstance(mine, list) or mine is not theirs, slot  # lists are never shared
        if not state.is_over:  # the copy plays on; the original is untouched
            before = hand_record(state)
            copy.apply(rnd.choice(copy.legal_actions()))
            assert hand_record(state) == before

    play_hand(rules, deal_seed, dealer, play_seed, visit)
