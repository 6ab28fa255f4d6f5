"""Court Piece trump variants: a later trump card, a declined call, a blind face-down trump.

rules.md, "Court Piece trump variants (seed 003)". Each test quotes the seed sentence it checks.
The canonical deal, Court Piece (anticlockwise) with dealer 1: seat 0 calls trumps and holds,
in deal order, AS 10S 6S 2S JH (first packet) 7H 3H QD 8D (second) 4D KC 9C 5C (third).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.engine.actions import DECLINE, parse_action
from arena.engine.cards import Card, Suit, parse_cards
from arena.engine.deal import Deal
from arena.engine.errors import IllegalActionError, RulesError
from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from arena.engine.rules import TrumpMethod, make_rules, rules_for
from arena.engine.selfplay import play_randomly
from arena.engine.trump import RevealReason
from tests.engine_helpers import examples
from tests.scenario_helpers import CANON, act, finish_hand, mask, start

FIRST_FIVE = "AS 10S 6S 2S JH"
SECOND_PACKET = "7H 3H QD 8D"

LATER = {"trump_card": "later", "trump_card_index": 10}
DECLINE_SECOND = {"decline": "second_packet"}
BLIND = {"hidden_blind": True}


def legal(state: HandState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


# ---------------------------------------------------------------------------------------------
# trump_card: later. Seed 003: "Some play that the trump caller, if unwilling to choose a suit
# on the basis of five cards, can specify some later card such as the 7th or the 10th. The
# dealer then completes the deal, turning the specified card face up, and its suit is trumps."

def test_later_card_caller_may_call_a_suit_or_name_the_later_card() -> None:
    state = start("court-piece", CANON, dealer=1, overrides=LATER)
    assert state.decision is Decision.CALL_TRUMP and state.to_move == 0
    assert legal(state) == {"call S", "call H", "call D", "call C", "decline"}
    assert state.hand(0) == mask(FIRST_FIVE)  # the caller has seen only its first five


def test_later_card_turned_up_sets_trumps_and_stays_in_the_callers_hand() -> None:
    state = start("court-piece", CANON, dealer=1, overrides=LATER)
    act(state, "decline")
    tenth = Card.parse("4D")
    assert state.trump is Suit.DIAMONDS and state.trump_in_force is Suit.DIAMONDS
    setting = state.trump_setting
    assert setting is not None and (setting.card, setting.seat) == (tenth, 0)
    assert state.hand(0) == mask(CANON[0])  # the deal is complete and the card stays in hand
    for seat in range(4):  # face up: every seat sees the card and its suit
        view = observe(state, seat)
        assert view.trump is Suit.DIAMONDS
        assert view.trump_setting is not None and view.trump_setting.card == tenth


def test_later_card_defaults_to_the_seventh() -> None:
    state = start("court-piece", CANON, dealer=1, overrides={"trump_card": "later"})
    act(state, "decline")
    assert state.rules.trump_card_index == 7
    assert state.trump_setting is not None and state.trump_setting.card == Card.parse("3H")
    assert state.trump is Suit.HEARTS


def test_later_card_caller_may_still_call_on_five_cards() -> None:
    state = start("court-piece", CANON, dealer=1, overrides=LATER)
    act(state, "call S")
    assert state.trump is Suit.SPADES
    assert state.trump_setting is not None and state.trump_setting.card is None


def test_decline_is_refused_where_the_caller_must_choose() -> None:
    state = start("court-piece", CANON, dealer=1)
    assert "decline" not in legal(state)
    with pytest.raises(IllegalActionError, match="must choose trumps on its first cards"):
        state.apply(DECLINE)
    assert state.decision is Decision.CALL_TRUMP and state.trump is None


def test_decline_is_refused_once_trumps_are_set() -> None:
    state = start("court-piece", CANON, dealer=1, overrides=LATER)
    act(state, "call S")
    with pytest.raises(IllegalActionError, match="decline: seat 0 must play a card"):
        state.apply(DECLINE)


# ---------------------------------------------------------------------------------------------
# decline: second_packet. Seed 003: "The trump-caller may decide not to choose a trump suit from
# the first five cards dealt. In this case, trumps are determined by turning over one card at
# random from the second batch of cards dealt to the trump caller."

def test_declined_call_turns_up_a_card_of_the_second_packet() -> None:
    drawn = set()
    for chance in range(40):
        state = start("court-piece", CANON, dealer=1, overrides=DECLINE_SECOND, chance=chance)
        assert "decline" in legal(state)
        act(state, "decline")
        setting = state.trump_setting
        assert setting is not None and setting.card is not None and setting.seat == 0
        assert setting.method is TrumpMethod.CALLED
        assert state.trump is setting.card.suit
        assert state.hand(0) >> setting.card & 1  # turned over, it stays the caller's card
        for seat in range(4):
            assert observe(state, seat).trump is setting.card.suit
        drawn.add(setting.card)
    # "at random from the second batch": every card of it, and only those, can be drawn.
    assert drawn == set(parse_cards(SECOND_PACKET))


def test_declined_call_draws_the_same_card_for_the_same_seed() -> None:
    cards = []
    for _ in range(2):
        state = start("court-piece", CANON, dealer=1, overrides=DECLINE_SECOND, chance=12345)
        act(state, "decline")
        assert state.trump_setting is not None
        cards.append(state.trump_setting.card)
    assert cards[0] == cards[1]


def test_declined_call_history_replays_the_decline() -> None:
    state = start("court-piece", CANON, dealer=1, overrides=DECLINE_SECOND, chance=3)
    act(state, "decline")
    finish_hand(state)
    assert state.history[0] == (0, DECLINE)
    assert parse_action("decline") is DECLINE and str(DECLINE) == "decline"


# ---------------------------------------------------------------------------------------------
# hidden_blind. Seed 003: "Some play that the trump indicator card is selected at random from
# the first player's first five cards without looking, so that even this player does not know
# what the trump suit will be until the card is revealed."

def test_blind_trump_is_one_of_the_first_five_and_nobody_chooses_it() -> None:
    drawn = set()
    for chance in range(60):
        state = start("court-piece-double-sir", CANON, dealer=1, overrides=BLIND, chance=chance)
        assert state.decision is Decision.PLAY and state.to_move == 0  # no hide decision
        card = state.hidden_card
        assert card is not None and card in parse_cards(FIRST_FIVE)
        assert state.hand(0) == mask(CANON[0]) & ~(1 << card)  # the deal is complete
        drawn.add(card)
    assert drawn == set(parse_cards(FIRST_FIVE))


def test_blind_trump_is_unknown_to_every_seat_its_holder_included() -> None:
    state = start("court-piece-double-sir", CANON, dealer=1, overrides=BLIND)
    for seat in range(4):
        view = observe(state, seat)
        assert view.hidden_trump_holder == 0
        assert view.hidden_trump_card is None
        assert view.trump is None and view.trump_in_force is None


def test_blind_holder_trying_its_face_down_card_learns_nothing() -> None:
    state = start("court-piece-double-sir", CANON, dealer=1, overrides=BLIND)
    card = state.hidden_card
    assert card is not None
    with pytest.raises(IllegalActionError) as error:
        state.play(card)
    assert str(error.value) == f"play {card}: seat 0 does not hold it"


def test_blind_holder_cannot_hide_a_card() -> None:
    state = start("court-piece-double-sir", CANON, dealer=1, overrides=BLIND)
    with pytest.raises(IllegalActionError, match="must play a card"):
        act(state, "hide AS")


def test_blind_trump_revealed_on_lead_is_then_known_to_all() -> None:
    # Seed 003: "The trump caller may choose to reveal his own trump card ... when on lead, in
    # which case he must play a trump."
    state = start("court-piece-double-sir", CANON, dealer=1, overrides=BLIND)
    card = state.hidden_card
    assert card is not None
    act(state, "reveal")
    reveal = state.reveal
    assert reveal is not None and reveal.card == card and reveal.reason is RevealReason.REQUEST
    assert state.hand(0) == mask(CANON[0])  # the card is back in its holder's hand
    for seat in range(4):
        assert observe(state, seat).trump is card.suit
    trumps = {f"play {c}" for c in parse_cards(CANON[0]) if c.suit == card.suit}
    assert legal(state) == trumps


# ---------------------------------------------------------------------------------------------
# The options: dependents refused where they do not apply, combinations that cannot both hold.

@pytest.mark.parametrize(
    ("preset", "overrides", "message"),
    [
        ("court-piece", {"trump_card_index": 7}, "trump_card_index=7 applies only under trump_card=later"),
        ("court-piece", {"hidden_blind": True}, "hidden_blind=true applies only under trump=hidden"),
        ("court-piece-double-sir", {"decline": "second_packet"},
         "decline=second_packet applies only under trump=called"),
        ("court-piece-double-sir", {"trump_card": "later"}, "trump_card=later applies only under trump=called"),
        ("court-piece", {"trump_card": "later", "trump_card_index": 5}, "must name a later card: 6 to 13"),
        ("court-piece", {"trump_card": "later", "trump_card_index": 14}, "must name a later card: 6 to 13"),
        ("court-piece", {"trump_card": "later", "trump_card_index": 10, "deck": "short32"},
         "must name a later card: 6 to 8"),
        ("court-piece", {"trump_card": "later", "decline": "second_packet"}, "set one"),
        ("mendikot-closed", {"hidden_blind": True}, "does not go with reveal=on_play"),
        ("court-piece-double-sir", {"hidden_blind": True, "hide_from": "full_hand"}, "hide_from=first_packet"),
        ("court-piece", {"decline": "sometimes"}, "option decline"),
    ],
)
def test_trump_variant_options_are_validated(preset: str, overrides: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        rules_for(preset, overrides)


def test_trump_variant_options_are_listed_only_where_set() -> None:
    assert "decline" not in rules_for("court-piece").options()
    assert "hidden_blind" not in rules_for("court-piece-double-sir").options()
    later = rules_for("court-piece", LATER).options()
    assert (later["trump_card"], later["trump_card_index"]) == ("later", 10)
    assert rules_for("court-piece-double-sir", BLIND).options()["hidden_blind"] is True
    # Overriding the parent drops a preset's dependent value (the _DEPENDENT mechanism).
    assert rules_for("court-piece", {"trump": "hidden"}).options().get("hidden_blind") is None



@examples(300)
@given(
    # Weighted towards the two methods the variants belong to, so that most examples are valid.
    trump=st.sampled_from(["called"] * 4 + ["hidden"] * 4 + [m.value for m in TrumpMethod]),
    reveal=st.sampled_from([None, None, None, "on_void", "on_request", "on_play"]),
    deck=st.sampled_from(["full52", "short32"]),
    hidden_blind=st.sampled_from([None, False, True]),
    trump_card=st.sampled_from([None, "first_packet", "later"]),
    index=st.one_of(st.none(), st.none(), st.integers(4, 14), st.integers(-1, 15)),
    decline=st.sampled_from([None, "none", "second_packet"]),
)
def test_every_combination_is_refused_in_one_line_or_plays_a_hand(
    trump: str, reveal: str | None, deck: str, hidden_blind: bool | None, trump_card: str | None,
    index: int | None, decline: str | None,
) -> None:
    """The options are refused exactly where rules.md says they do not apply or cannot hold
    together; the rest read back from their own options and play a hand to the end."""
    chosen = {"trump": trump, "reveal": reveal, "deck": deck, "hidden_blind": hidden_blind,
             "trump_card": trump_card, "trump_card_index": index, "decline": decline}
    overrides = {name: value for name, value in chosen.items() if value is not None}
    later = trump_card == "later"
    hand_size = 8 if deck == "short32" else 13
    valid = (
        (reveal is None or trump == "hidden")
        and (not hidden_blind or (trump == "hidden" and reveal != "on_play"))
        and (trump_card in (None, "first_packet") or trump == "called")
        and (decline in (None, "none") or trump == "called")
        and (index is None or (later and 5 < index <= hand_size))
        and not (later and decline == "second_packet")
    )
    try:
        rules = rules_for("dehla-pakad", overrides)
    except RulesError as exc:
        assert not valid, f"refused: {exc}"
        assert "\n" not in str(exc)
        return
    assert valid, f"accepted: {rules.describe()}"
    assert make_rules(rules.options()) == rules
    state = HandState(rules, Deal.from_seed(rules, index or 0), 0)
    play_randomly(state, random.Random(index))
    assert state.is_over and len(state.tricks) == rules.hand_size
