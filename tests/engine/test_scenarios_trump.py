"""Trump methods and playing a trick.

rules.md, "Trump methods (trump)", and seed 000 "Playing a trick": follow suit if you can;
otherwise play any card; you never have to trump, overtrump or try to win; the highest trump
wins, else the highest card of the suit led.
"""

from __future__ import annotations

import pytest

from arena.engine.cards import Card, Suit, parse_cards
from arena.engine.deal import Deal
from arena.engine.errors import IllegalActionError
from arena.engine.hand import Decision, HandState
from arena.engine.rules import TrumpMethod, rules_for
from arena.engine.trump import RevealReason
from tests.scenario_helpers import (
    CANON,
    LAST_CARD_SCRIPT,
    act,
    finish_hand,
    mask,
    play_script,
    play_trick,
    start,
)


def legal(state: HandState) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def plays(cards: str) -> set[str]:
    return {f"play {c}" for c in parse_cards(cards)}


def snapshot(state: HandState) -> tuple[object, ...]:
    return (
        state.to_move, state.decision, state.current_trick, len(state.tricks),
        tuple(state.hand(s) for s in range(4)), state.trump_in_force, state.reveal,
        state.hidden_card, legal(state),
    )


# ---------------------------------------------------------------------------------------------
# Playing a trick

def test_follow_suit_is_enforced_and_an_illegal_card_changes_nothing() -> None:
    state = start("dehla-pakad", CANON, dealer=3)
    act(state, "call S", "3H")
    assert legal(state) == plays("AH 10H 6H 2H")
    before = snapshot(state)
    with pytest.raises(IllegalActionError, match="follow suit"):
        act(state, "KS")  # seat 1 holds hearts: a trump is not allowed
    assert snapshot(state) == before


# Seats 1 and 3 have no hearts.
VOIDS = (
    "AH KH QH JH 10H 9H 8H AS KS AD KD AC KC",
    "QS JS 10S QD JD 10D 9D 3D QC JC 10C 9C 8C",
    "7H 6H 5H 4H 3H 2H 9S 8S 7S 8D 7D 7C 6C",
    "6S 5S 4S 3S 2S 6D 5D 4D 2D 5C 4C 3C 2C",
)


def voids_hand() -> HandState:
    state = start("dehla-pakad", VOIDS, dealer=3)
    act(state, "call D")
    return state


def test_any_card_may_be_led_trumps_included() -> None:
    state = voids_hand()
    assert legal(state) == plays(VOIDS[0])


def test_a_void_player_may_discard_instead_of_trumping() -> None:
    state = voids_hand()
    act(state, "AH")
    assert legal(state) == plays(VOIDS[1])  # anything, trumps or not
    act(state, "8C", "7H")
    assert legal(state) == plays(VOIDS[3])
    act(state, "5C")
    assert state.tricks[-1].winner == 0  # no trump played: the highest heart wins


@pytest.mark.parametrize(
    ("third", "winner"),
    [
        ("2D", 1),  # a lower trump: never obliged to overtrump; the highest trump wins
        ("6D", 3),  # a higher trump wins
        ("5C", 1),  # a discard
    ],
)
def test_highest_trump_wins(third: str, winner: int) -> None:
    state = voids_hand()
    play_trick(state, f"AH 3D 7H {third}", winner=winner)


def test_ten_ranks_below_the_jack() -> None:
    state = start("dehla-pakad", CANON, dealer=3)
    act(state, "call S")
    play_trick(state, "JH 10H 5H 4H", winner=0)
    play_trick(state, "7H 6H 9H 8H", winner=2)
    assert [str(c) for c in sorted(map(Card.parse, ["2S", "10S", "JS", "AS", "9S"]))] == [
        "2S", "9S", "10S", "JS", "AS",
    ]


# ---------------------------------------------------------------------------------------------
# Called trump (Dehla Pakad default)

def test_called_trump_caller_sees_five_cards_and_must_name_a_suit() -> None:
    state = start("dehla-pakad", CANON, dealer=3)
    assert state.decision is Decision.CALL_TRUMP
    assert state.to_move == 0  # clockwise: the player after the dealer
    assert legal(state) == {"call S", "call H", "call D", "call C"}  # no pass, no no-trumps
    for seat in range(4):
        first, rest = CANON[seat].split()[:5], CANON[seat].split()[5:]
        assert state.hand(seat) == mask(" ".join(first))
        assert state.undealt(seat) == mask(" ".join(rest))
    assert state.trump is None
    with pytest.raises(IllegalActionError):
        act(state, "AS")
    act(state, "call H")
    assert state.trump is Suit.HEARTS and state.trump_in_force is Suit.HEARTS
    assert state.trump_setting is not None and state.trump_setting.method is TrumpMethod.CALLED
    assert [state.hand(s).bit_count() for s in range(4)] == [13, 13, 13, 13]
    assert state.decision is Decision.PLAY and state.to_move == 0  # the caller leads


def test_called_trump_anticlockwise_caller_is_on_the_dealers_right() -> None:
    state = start("dehla-pakad", CANON, dealer=0, overrides={"direction": "anticlockwise"})
    assert state.to_move == 3
    act(state, "call C")
    trick = play_trick(state, "JS QS KS AS", winner=0)
    assert trick.seats == (3, 2, 1, 0)


# ---------------------------------------------------------------------------------------------
# Cut trump (katte)

CUT = (
    "AH KH QH JH 2C AS KS QS AD KD QD AC KC",
    "5S 4C 3C 2D 3D 4H 3H 2H JS 10S JD 10D QC",  # no hearts among the first five
    "10H 9H 8H 4S 5C 8S 7S 9D 8D JC 10C 9C 8C",
    "9S 3S 4D 5D 6C 7H 6H 5H 6S 2S 7D 6D 7C",  # no hearts among the first five
)


def test_cut_play_starts_on_the_first_packet_without_trumps() -> None:
    state = start("dehla-pakad-cut", CUT, dealer=3)
    assert state.decision is Decision.PLAY and state.to_move == 0
    assert state.trump is None and state.trump_in_force is None
    for seat in range(4):
        assert state.hand(seat) == mask(" ".join(CUT[seat].split()[:5]))
        assert state.undealt(seat).bit_count() == 8


def test_cut_first_void_card_sets_trumps_and_a_later_higher_trump_beats_it() -> None:
    state = start("dehla-pakad-cut", CUT, dealer=3)
    act(state, "AH", "5S")
    assert state.trump_in_force is Suit.SPADES  # at once, in this trick
    setting = state.trump_setting
    assert setting is not None
    assert (setting.suit, setting.method, setting.trick, setting.card, setting.seat) == (
        Suit.SPADES, TrumpMethod.CUT, 1, Card.parse("5S"), 1,
    )
    assert state.hand(2).bit_count() == 5 and state.undealt(2).bit_count() == 8
    act(state, "10H", "9S")  # seat 3 is out of hearts too and plays a higher trump
    assert state.tricks[-1].winner == 3
    # After that trick the rest of the deal is completed and the trick's winner leads on.
    assert [state.hand(s).bit_count() for s in range(4)] == [12, 12, 12, 12]
    assert all(state.undealt(s) == 0 for s in range(4))
    assert state.hand(1) & mask("4H 3H 2H") == mask("4H 3H 2H")
    assert state.to_move == 3
    assert state.trump is Suit.SPADES


@pytest.mark.parametrize("last", ["3S", "4D"])
def test_cut_trump_card_counts_as_a_trump_at_once(last: str) -> None:
    state = start("dehla-pakad-cut", CUT, dealer=3)
    # 5S beats the higher 10H of the led suit; a lower trump or another suit does not beat it.
    play_trick(state, f"AH 5S 10H {last}", winner=1)
    assert state.to_move == 1


CUT_FALLBACK = (  # everybody has 2 spades, 1 heart, 1 diamond and 1 club in the first packet
    "AS KS AH AD KC 6S 5S 10H 9H 10D 9D 10C 9C",
    "QS JS KH KD AC 4S 3S 8H 7H 8D 7D 8C 7C",
    "10S 9S QH QD QC 2S 6H 5H 4H 6D 5D 6C 5C",
    "8S 7S JH JD JC 3H 2H 4D 3D 2D 4C 3C 2C",
)
CUT_FALLBACK_SCRIPT = [
    ("AS QS 10S 8S", 0),
    ("KS JS 9S 7S", 0),
    ("AH KH QH JH", 0),
    ("AD KD QD JD", 0),
    ("KC AC QC JC", 1),
]


def cut_fallback_setting(chance: int) -> tuple[HandState, set[Card]]:
    state = start("dehla-pakad-cut", CUT_FALLBACK, dealer=3, chance=chance)
    played: set[Card] = set()
    for number, (cards, winner) in enumerate(CUT_FALLBACK_SCRIPT, start=1):
        trick = play_trick(state, cards, winner)
        played |= set(trick.cards)
        if number < 5:
            assert state.trump is None
            assert all(state.undealt(s).bit_count() == 8 for s in range(4))
    return state, played


def test_cut_fallback_when_nobody_is_void_in_five_tricks() -> None:
    state, played = cut_fallback_setting(chance=0)
    setting = state.trump_setting
    assert setting is not None
    assert setting.card in played and len(played) == 20
    assert state.trump == setting.card.suit == setting.suit
    assert setting.method is TrumpMethod.CUT and setting.trick == 5
    assert [state.hand(s).bit_count() for s in range(4)] == [8, 8, 8, 8]  # deal completed
    assert state.to_move == 1  # the fifth trick's winner leads


def test_cut_fallback_card_comes_from_the_seed() -> None:
    chosen = []
    for chance in range(24):
        state, played = cut_fallback_setting(chance)
        assert state.trump_setting is not None
        assert state.trump_setting.card in played
        chosen.append(state.trump_setting.card)
    again, _ = cut_fallback_setting(5)
    assert again.trump_setting is not None and again.trump_setting.card == chosen[5]
    assert len(set(chosen)) > 1
    assert len({c.suit for c in chosen}) > 1


# ---------------------------------------------------------------------------------------------
# First discard (Mendikot, Court Piece variant); anticlockwise, dealer 1: seat 0 leads.

FIRST_DISCARD = (
    "AH KH QH JH 10H 9H AS KS QS AD KD AC KC",
    "6H 5H 4H 3H 2H 5S 4S 3S 2S 5D 4D 3D 2D",  # no clubs
    "7H 9S 8S 7S 6S 8D 7D 6D 8C 6C 5C 4C 3C",  # one heart
    "8H JS 10S QD JD 10D 9D QC JC 10C 9C 7C 2C",  # one heart
)


def first_discard_hand() -> HandState:
    return start("mendikot", FIRST_DISCARD, dealer=1, overrides={"trump": "first_discard"})


def test_first_discard_deals_all_thirteen_and_starts_without_trumps() -> None:
    state = first_discard_hand()
    assert state.decision is Decision.PLAY and state.to_move == 0
    assert [state.hand(s).bit_count() for s in range(4)] == [13, 13, 13, 13]
    play_trick(state, "AH 8H 7H 6H", winner=0)
    assert state.trump is None and state.trump_setting is None


def test_first_discard_names_trumps_for_the_rest_of_the_hand() -> None:
    state = first_discard_hand()
    play_trick(state, "AH 8H 7H 6H", winner=0)
    # Seat 3 cannot follow: its 2C names clubs; seat 2, also out of hearts, beats it with 3C.
    play_trick(state, "KH 2C 3C 5H", winner=2)
    setting = state.trump_setting
    assert setting is not None
    assert (setting.suit, setting.method, setting.trick, setting.card, setting.seat) == (
        Suit.CLUBS, TrumpMethod.FIRST_DISCARD, 2, Card.parse("2C"), 3,
    )
    # A later discard of another suit (seat 1 has no clubs) does not change trumps.
    play_trick(state, "4C 2S AC QC", winner=0)
    assert state.trump is Suit.CLUBS and state.trump_in_force is Suit.CLUBS


def test_first_discard_card_is_a_trump_in_its_own_trick() -> None:
    # Interpretation (rules.md is silent; seed 003 "becomes trump for the rest of the deal"):
    # like cut trump, the discard that names trumps counts as a trump at once.
    state = first_discard_hand()
    play_trick(state, "AH 8H 7H 6H", winner=0)
    play_trick(state, "KH 2C 6S 5H", winner=3)


# ---------------------------------------------------------------------------------------------
# Hidden trump, reveal on_void (dehla-pakad-hidden: clockwise, dealer 3, seat 0 hides).

ON_VOID = (
    "2D AH KH QH JH AS KS QS JS AC KC QC JC",
    "3D 10S 9S 8S 7S 10C 9C 8C 7C AD KD QD JD",  # no hearts
    "10H 9H 8H 7H 6H 6S 5S 4S 6C 5C 4C 10D 9D",
    "5H 4H 3H 2H 3S 2S 3C 2C 8D 7D 6D 5D 4D",
)


def test_hidden_caller_puts_one_of_the_first_five_face_down() -> None:
    state = start("dehla-pakad-hidden", ON_VOID, dealer=3)
    assert state.decision is Decision.HIDE_TRUMP and state.to_move == 0
    assert legal(state) == {f"hide {c}" for c in ON_VOID[0].split()[:5]}
    act(state, "hide 2D")
    assert state.hidden_card == Card.parse("2D")
    # Until revealed the card is not in the caller's hand; nobody else knows the suit.
    assert state.hand(0) == mask(ON_VOID[0]) & ~mask("2D")
    assert state.trump_in_force is None
    assert state.decision is Decision.PLAY and state.to_move == 0
    with pytest.raises(IllegalActionError):
        act(state, "2D")


def test_hidden_card_must_come_from_the_first_five() -> None:
    state = start("dehla-pakad-hidden", ON_VOID, dealer=3)
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        act(state, "hide AS")  # the 6th card dealt: not among the first five
    assert snapshot(state) == before


def test_on_void_reveals_at_the_first_void_and_returns_the_card_to_its_owner() -> None:
    state = start("dehla-pakad-hidden", ON_VOID, dealer=3)
    act(state, "hide 2D")
    play_trick(state, "AS 7S 4S 2S", winner=0)  # everybody follows: nothing is revealed
    assert state.reveal is None and state.hidden_card is not None
    act(state, "AH")
    reveal = state.reveal
    assert reveal is not None
    assert (reveal.trick, reveal.position, reveal.seat, reveal.card, reveal.reason) == (
        2, 1, 1, Card.parse("2D"), RevealReason.VOID,
    )
    assert state.hidden_card is None
    assert state.hand(0) >> Card.parse("2D") & 1
    assert state.trump_in_force is Suit.DIAMONDS
    assert legal(state) == plays(" ".join(ON_VOID[1].split()[:4] + ON_VOID[1].split()[5:]))


# rules.md, on_void: "This holds for the holder too: a holder who was out of the led suit may
# still play anything, even when the card that came back is of the led suit." Seat 0 hides its
# only diamond, 2D; clockwise, dealer 3. Seat 1 wins trick 1 with AS and leads diamonds.
HOLDER_OWN_VOID = (  # seats 2 and 3 follow diamonds: seat 0's own void turns the card up
    "2D AH KH QH JH 10H 9H 8H 2S 3S AC KC QC",
    "AS KS QS JS 10S AD KD QD JD 10D 9C 8C 7C",
    "9S 8S 7S 6S 7H 6H 5H 4H 9D 8D 7D JC 10C",
    "5S 4S 3H 2H 6D 5D 4D 3D 6C 5C 4C 3C 2C",
)
HOLDER_AFTER_ANOTHER_VOID = (  # seat 2 has no diamonds: its void turns the card up
    "2D AH KH QH JH 10H 9H 8H 2S 3S AC KC QC",
    "AS KS QS JS 10S AD KD QD JD 10D 9D 8D 7D",
    "9S 8S 7S 6S 7H 6H 5H 4H JC 10C 9C 8C 7C",
    "5S 4S 3H 2H 6D 5D 4D 3D 6C 5C 4C 3C 2C",
)
HOLDER_REST = "AH KH QH JH 10H 9H 8H 3S AC KC QC"  # seat 0 after trick 1, besides the 2D


def test_on_void_holder_out_of_the_led_suit_may_play_anything_when_its_own_void_reveals() -> None:
    state = start("dehla-pakad-hidden", HOLDER_OWN_VOID, dealer=3)
    act(state, "hide 2D")
    play_trick(state, "2S AS 6S 4S", winner=1)
    act(state, "AD", "9D", "3D")
    reveal = state.reveal
    assert reveal is not None
    assert (reveal.trick, reveal.position, reveal.seat, reveal.card, reveal.reason) == (
        2, 3, 0, Card.parse("2D"), RevealReason.VOID,
    )
    assert state.hand(0) >> Card.parse("2D") & 1  # the card came back, a diamond
    # The old engine allowed only {"play 2D"}: it made the holder follow with the returned card.
    assert legal(state) == plays(f"2D {HOLDER_REST}")
    act(state, "AH")  # a discard, although the 2D of the led suit is in hand
    assert state.tricks[-1].winner == 1
    # From the next trick on, the card is simply in its owner's hand: diamonds must be followed.
    act(state, "KD", "8D", "4D")
    assert legal(state) == {"play 2D"}


@pytest.mark.parametrize(("card", "winner"), [("2D", 1), ("AC", 1), ("KH", 1)])
def test_on_void_holder_out_of_the_led_suit_may_play_anything_after_another_void(
    card: str, winner: int
) -> None:
    state = start("dehla-pakad-hidden", HOLDER_AFTER_ANOTHER_VOID, dealer=3)
    act(state, "hide 2D")
    play_trick(state, "2S AS 6S 4S", winner=1)
    act(state, "AD")  # seat 2 cannot follow: the trump is turned up at its turn
    assert state.reveal is not None and state.reveal.seat == 2
    act(state, "7C", "3D")
    # Seat 0 was out of diamonds but for the card that came back: it still owes nothing.
    assert legal(state) == plays(f"2D {HOLDER_REST}")
    act(state, card)
    assert state.tricks[-1].winner == winner


def test_on_void_holder_with_another_card_of_the_led_suit_must_follow() -> None:
    # The exemption is for a holder out of the led suit: holding a diamond besides the one that
    # came back, seat 0 follows with either (here it hides 2D and keeps 9D).
    hands = (
        "2D AH KH QH JH 10H 9H 8H 2S 3S AC KC 9D",
        HOLDER_OWN_VOID[1],
        "9S 8S 7S 6S 7H 6H 5H 4H QC 8D 7D JC 10C",
        HOLDER_OWN_VOID[3],
    )
    state = start("dehla-pakad-hidden", hands, dealer=3)
    act(state, "hide 2D")
    play_trick(state, "2S AS 6S 4S", winner=1)
    act(state, "AD")  # seat 2 follows, seat 3 follows: nobody is void yet
    act(state, "8D", "3D")
    assert state.reveal is None  # seat 0 holds 9D: not void, the card stays down
    assert legal(state) == {"play 9D"}


@pytest.mark.parametrize(("card", "winner"), [("3D", 1), ("7C", 0)])
def test_on_void_the_void_player_may_still_play_anything(card: str, winner: int) -> None:
    state = start("dehla-pakad-hidden", ON_VOID, dealer=3)
    act(state, "hide 2D")
    play_trick(state, f"AH {card} 10H 5H", winner=winner)


def test_on_void_nobody_may_ask_for_the_reveal() -> None:
    state = start("dehla-pakad-hidden", ON_VOID, dealer=3)
    act(state, "hide 2D")
    assert "reveal" not in legal(state)
    with pytest.raises(IllegalActionError):
        act(state, "reveal")


# ---------------------------------------------------------------------------------------------
# Hidden trump, reveal on_request (mendikot: anticlockwise, dealer 1, seat 0 hides 2D; play
# order from seat 0 is 0, 3, 2, 1). Seat 3 has no hearts; seat 0 has no clubs.

ON_REQUEST = (
    "2D AH KH QH JH AS KS QS JS 5D 4D 10H 9H",
    "4H 3H 2H 4S 3S 2S 5C 4C 3C 2C 8D 7D 6D",
    "8H 7H 6H 5H 7S 6S 5S 9C 8C 7C 6C 10D 9D",
    "3D AD KD QD JD 10S 9S 8S AC KC QC JC 10C",
)


def on_request_hand() -> HandState:
    state = start("mendikot", ON_REQUEST, dealer=1)
    assert state.to_move == 0
    act(state, "hide 2D")
    return state


def test_on_request_owner_may_reveal_on_lead_and_must_then_lead_a_trump() -> None:
    state = on_request_hand()
    assert "reveal" in legal(state)
    act(state, "reveal")
    reveal = state.reveal
    assert reveal is not None
    assert (reveal.trick, reveal.position, reveal.seat, reveal.reason) == (
        1, 0, 0, RevealReason.REQUEST,
    )
    assert state.must_play_trump
    assert legal(state) == plays("2D 5D 4D")
    with pytest.raises(IllegalActionError):
        act(state, "AH")
    play_trick(state, "2D AD 10D 8D", winner=3)


def test_on_request_void_player_who_asks_must_play_a_trump_if_able() -> None:
    state = on_request_hand()
    act(state, "AH")
    assert "reveal" in legal(state)  # seat 3 has no hearts
    act(state, "reveal")
    assert state.reveal is not None and state.reveal.seat == 3
    assert state.hand(0) >> Card.parse("2D") & 1  # the card goes back to its owner
    assert legal(state) == plays("3D AD KD QD JD")
    with pytest.raises(IllegalActionError):
        act(state, "AC")
    act(state, "3D", "8H", "4H")
    assert state.tricks[-1].winner == 3


def test_on_request_only_a_void_player_may_ask() -> None:
    state = on_request_hand()
    act(state, "AH", "AC")  # seat 3 is void but need not ask
    assert "reveal" not in legal(state)  # seat 2 holds hearts
    before = snapshot(state)
    with pytest.raises(IllegalActionError):
        act(state, "reveal")
    assert snapshot(state) == before


def test_on_request_no_trumps_before_the_reveal() -> None:
    state = on_request_hand()
    # Seat 3 throws the ace of the (hidden) trump suit without asking: it is no trump.
    play_trick(state, "AH AD 8H 4H", winner=0)
    assert state.reveal is None and state.trump_in_force is None


def test_on_request_a_non_owner_on_lead_may_not_reveal() -> None:
    state = on_request_hand()
    play_trick(state, "4D AD 10D 8D", winner=3)  # diamonds led: the highest diamond wins
    assert state.to_move == 3
    assert "reveal" not in legal(state)
    with pytest.raises(IllegalActionError):
        act(state, "reveal")


@pytest.mark.parametrize(
    ("fourth", "winner"),
    [
        ("reveal 2D", 0),  # the owner, void in clubs, reveals and must play a trump
        ("9H", 3),  # or declines and discards
    ],
)
def test_on_request_owner_when_void_may_reveal(fourth: str, winner: int) -> None:
    state = on_request_hand()
    play_trick(state, "4D AD 10D 8D", winner=3)
    act(state, "AC", "9C", "5C")
    assert "reveal" in legal(state)
    if fourth.startswith("reveal"):
        act(state, "reveal")
        assert legal(state) == plays("2D 5D")
        act(state, "2D")
    else:
        act(state, fourth)
    assert state.tricks[-1].winner == winner


# Seed 003, hidden rung, first example: "Player 1 leads the A(hearts), player 2 follows suit
# with the 5 and player 3 discards the 6 (diamonds) having no hearts. Player 4 also has no
# hearts and asks for the trump to be revealed. Player 2 reveals a diamond and player 4 trumps
# with the 3. Player 4 wins the trick: the 3 of diamonds beats the 6 of diamonds, because the 6
# was not a trump at the time when it was played."
# Anticlockwise play order 1, 2, 3, 4 = seats 0, 3, 2, 1. Player 2 (seat 3) made trumps, so the
# dealer is seat 0 and seat 3 leads trick 1, which player 1 wins to lead the example trick.
SEED_003_FIRST = (
    "AH KH QH JH 10H 9H AC 2S 3S AD KD KC QC",  # seat 0, player 1
    "4C 3D AS KS QS JS 10S 9S 9C 10C JC 4D 2D",  # seat 1, player 4
    "3C 6D 6S 7S 8S 5C 6C 7C 8C 10D 8D 7D 5D",  # seat 2, player 3
    "9D 2C 5H 8H 7H 6H 4H 3H 2H 4S 5S QD JD",  # seat 3, player 2
)


def test_seed_003_trump_card_played_before_the_reveal_loses_to_a_lower_trump() -> None:
    state = start("court-piece", SEED_003_FIRST, dealer=0,
                  overrides={"trump": "hidden", "reveal": "on_request"})
    act(state, "hide 9D")
    play_trick(state, "2C 3C 4C AC", winner=0)
    act(state, "AH", "5H", "6D")
    assert state.trump_in_force is None
    act(state, "reveal")
    assert state.trump_in_force is Suit.DIAMONDS
    assert legal(state) == plays("3D 4D 2D")  # player 4 must play a trump
    act(state, "3D")
    assert state.tricks[-1].winner == 1  # player 4


# Seed 003, second example: "player 1 leads the A(spades), player 2 has no spades and asks the
# trump maker (player 4) to reveal the trump. Player 4 shows the 7, and player 2 throws the 3.
# Player 3 follows suit with the 5 and player 4 plays the 7. Player 1 wins the trick: since the
# chosen suit was led, the Ace wins even though it was not known to be a trump."
# Player 4 (seat 1) made trumps, so the dealer is seat 2; player 1 wins trick 1 to lead.
SEED_003_SECOND = (
    "AS KS QS AC 9H 8H 7H JD 10D 9D 10C 9C 8C",  # seat 0, player 1
    "7S 2C AH KH QH JH 10H AD KD QD KC QC JC",  # seat 1, player 4
    "5S 4C JS 10S 9S 8S 6S 4S 3S 2S 4D 2D 5C",  # seat 2, player 3
    "3C 3D 6H 5H 4H 3H 2H 8D 7D 6D 5D 7C 6C",  # seat 3, player 2
)


def test_seed_003_trump_suit_led_and_revealed_mid_trick_highest_card_wins() -> None:
    state = start("court-piece", SEED_003_SECOND, dealer=2,
                  overrides={"trump": "hidden", "reveal": "on_request"})
    assert state.to_move == 1
    act(state, "hide 7S")
    play_trick(state, "2C AC 3C 4C", winner=0)
    act(state, "AS", "reveal")
    assert state.reveal is not None and state.reveal.seat == 3
    # Player 2 has no trump, so may play any card.
    assert legal(state) == plays(SEED_003_SECOND[3].replace("3C ", ""))
    act(state, "3D", "5S")
    assert legal(state) == {"play 7S"}  # player 4 follows with the revealed 7
    act(state, "7S")
    assert state.tricks[-1].winner == 0  # player 1's ace of spades


def test_hidden_card_left_to_the_end_is_revealed_and_played() -> None:
    # Canonical deal, mendikot (on_request): twelve tricks in which everybody follows suit, so
    # nobody can ask; seat 0's face-down 2S is then its only card.
    state = start("mendikot", CANON, dealer=1)
    act(state, "hide 2S")
    play_script(state, LAST_CARD_SCRIPT)
    act(state, "AC", "AD", "AH")  # seats 2 and 1 are void but do not ask
    assert state.reveal is not None and state.reveal.reason is RevealReason.LAST_CARD
    assert legal(state) == {"play 2S"}
    act(state, "2S")
    assert state.tricks[-1].winner == 0
    assert state.is_over


# ---------------------------------------------------------------------------------------------
# Open random (Mendikot open method) and no trumps

# rules.md, open_random (seed 001, open method: "The player to the dealer's right draws a card
# from another hand at random and shows it to everyone; that suit is trump for the deal and the
# card is returned to its owner"): "after the full deal, the caller draws a random card from
# another player's whole hand (both chosen from the seed)". Mendikot: anticlockwise, dealer 1,
# so seat 0 draws, from seats 3, 2 or 1.

def open_random_state(chance: int, hands: tuple[str, ...] = CANON) -> HandState:
    return start("mendikot", hands, dealer=1, overrides={"trump": "open_random"}, chance=chance)


def test_open_random_shows_a_card_of_another_players_whole_hand_that_stays_there() -> None:
    drawn: list[tuple[int, Card]] = []
    for chance in range(120):
        state = open_random_state(chance)
        setting = state.trump_setting
        assert setting is not None and setting.card is not None and setting.seat is not None
        assert setting.method is TrumpMethod.OPEN_RANDOM and setting.trick == 0
        assert state.decision is Decision.PLAY and state.to_move == 0
        assert [state.hand(s).bit_count() for s in range(4)] == [13, 13, 13, 13]  # full deal
        assert state.trump is state.trump_in_force is setting.suit == setting.card.suit
        assert setting.seat != state.first_player  # another player's hand
        assert state.hand(setting.seat) >> setting.card & 1  # it stays in its owner's hand
        assert open_random_state(chance).trump_setting == setting  # from the seed: replays
        drawn.append((setting.seat, setting.card))
    assert {seat for seat, _ in drawn} == {1, 2, 3}
    # The old engine drew only among the first packets (the first five cards of each hand).
    later = [(seat, card) for seat, card in drawn if str(card) not in CANON[seat].split()[:5]]
    assert later, "no card was ever drawn from beyond a first packet"


def test_open_random_draw_does_not_depend_on_the_order_a_hand_is_listed_in() -> None:
    reordered = tuple(" ".join(reversed(hand.split())) for hand in CANON)
    for chance in range(20):
        assert open_random_state(chance).trump_setting == open_random_state(chance, reordered).trump_setting


def test_open_random_draw_is_pinned_across_machines() -> None:
    # A change here changes every open_random hand: it must be deliberate.
    settings = [open_random_state(chance).trump_setting for chance in range(4)]
    assert [(s.seat, str(s.card)) for s in settings if s is not None] == PINNED_OPEN_RANDOM


PINNED_OPEN_RANDOM = [(2, "9H"), (1, "4C"), (1, "6H"), (2, "3C")]


def test_open_random_every_card_of_the_other_hands_is_drawn_about_as_often() -> None:
    counts: dict[tuple[int, Card], int] = {}
    draws = 39 * 60
    for chance in range(draws):
        setting = open_random_state(chance).trump_setting
        assert setting is not None and setting.seat is not None and setting.card is not None
        counts[(setting.seat, setting.card)] = counts.get((setting.seat, setting.card), 0) + 1
    assert len(counts) == 39  # every card of the three other hands
    expected = draws / 39
    chi2 = sum((n - expected) ** 2 / expected for n in counts.values())
    assert chi2 < 38 + 6 * 38**0.5 + 10, chi2


def test_open_random_seeded_hands_play_to_the_end_with_the_card_played_by_its_owner() -> None:
    rules = rules_for("mendikot", {"trump": "open_random"})
    for seed in range(8):
        state = HandState(rules, Deal.from_seed(rules, seed), dealer=1)
        setting = state.trump_setting
        assert setting is not None and setting.card is not None
        finish_hand(state)
        owner = next(seat for t in state.tricks for seat, card in zip(t.seats, t.cards, strict=True)
                     if card == setting.card)
        assert owner == setting.seat


def test_no_trump_variant_a_void_players_card_never_wins() -> None:
    state = start("mendikot", VOIDS, dealer=1, overrides={"trump": "none"})
    assert state.decision is Decision.PLAY and state.to_move == 0
    assert state.trump is None
    # Seats 3 and 1 have no hearts: the highest heart wins whatever they throw.
    play_trick(state, "8H 6S 2H QD", winner=0)
    finish_hand(state)
    assert state.trump is None and state.trump_setting is None
    assert state.result is not None



def test_cut_trick_without_a_void_has_no_trumps_and_the_first_void_later_sets_them() -> None:
    state = start("dehla-pakad-cut", CUT, dealer=3)
    play_trick(state, "2C 3C 5C 6C", winner=3)  # everybody follows: no trumps yet
    assert state.trump is None
    assert all(state.undealt(s).bit_count() == 8 for s in range(4))
    # Seat 0 has no spades among its first five: its ace of hearts sets hearts and wins.
    play_trick(state, "9S AH 5S 4S", winner=0)
    setting = state.trump_setting
    assert setting is not None
    assert (setting.suit, setting.trick, setting.card, setting.seat) == (
        Suit.HEARTS, 2, Card.parse("AH"), 0,
    )
    assert [state.hand(s).bit_count() for s in range(4)] == [11, 11, 11, 11]
    assert state.to_move == 0


# The canonical deal, clockwise, dealer 3, seat 0 hides 2S: twelve tricks in which everybody
# follows suit, so nobody is ever void and the trump stays down; seat 2 wins the twelfth.
ON_VOID_ALL_FOLLOW = [
    ("3H AH 9H 4H", 1),
    ("KS QS 3S 6S", 1),
    ("3D 2D KD 8D", 3),
    ("5D QD JD AD", 2),
    ("3C AC 5C QC", 3),
    ("QH JH 2H KH", 2),
    ("8S JS 10S 5S", 3),
    ("2C KC 8C JC", 0),
    ("9C 4C 7C 6C", 0),
    ("7H 6H 5H 8H", 3),
    ("7S AS 9S 4S", 0),
    ("4D 7D 10D 9D", 2),
]


def test_on_void_hidden_card_left_to_the_end_is_revealed_and_played() -> None:
    state = start("dehla-pakad-hidden", CANON, dealer=3)
    act(state, "hide 2S")
    play_script(state, ON_VOID_ALL_FOLLOW)
    assert state.reveal is None
    assert state.hand(0) == 0 and state.hidden_card == Card.parse("2S")
    act(state, "6D")  # seat 3 cannot follow: the trump is turned up
    assert state.reveal is not None and state.reveal.trick == 13
    act(state, "10C")
    assert legal(state) == {"play 2S"}
    act(state, "2S", "10H")
    last = state.tricks[-1]
    assert last.winner == 0 and last.taken_by == 0
    assert state.is_over


def test_no_action_is_accepted_out_of_turn_or_after_the_hand() -> None:
    state = start("dehla-pakad", CANON, dealer=3)
    with pytest.raises(IllegalActionError):
        act(state, "hide AS")  # called trump: nothing to hide
    with pytest.raises(IllegalActionError):
        act(state, "reveal")
    act(state, "call S")
    with pytest.raises(IllegalActionError):
        act(state, "call H")  # trumps are settled once
    with pytest.raises(IllegalActionError):
        act(state, "KS")  # seat 1's card: seat 0 is to play
    finish_hand(state)
    with pytest.raises(IllegalActionError):
        act(state, "AS")
