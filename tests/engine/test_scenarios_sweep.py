"""Who takes the cards: the sweep rule (two in a row by the same player), direct capture,
and the Court Piece Double Sir claiming limits.

rules.md, "Who takes the cards (capture)", and the worked example of seed 002 section 5.
"""

from __future__ import annotations

import pytest

from arena.engine.cards import FULL_DECK, TENS, Card
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import rules_for
from arena.engine.trump import RevealReason
from tests.scenario_helpers import (
    ALTERNATE,
    CANON,
    COURT_SCRIPT,
    LAST_CARD_SCRIPT,
    RESTART,
    Script,
    act,
    assert_all_cards_with_one_team,
    finish_hand,
    mask,
    play_script,
    play_trick,
    start,
    trick_mask,
    tricks_mask,
)

# ---------------------------------------------------------------------------------------------
# Seed 002, section 5: "players 1 to 4; spades trump; players 1 and 4 against 2 and 3; order of
# play 1, 2, 4, 3. Player 3 wins a trick with the 10 of hearts - it stays in the centre. Player 2
# wins the next: not the same player, everything stays. Player 1 wins the next with the ace of
# spades, and the one after: two in a row, he gathers the four tricks, the 10 of hearts with them."
#
# The site plays anticlockwise. Engine seats, anticlockwise (the next player after seat s is
# s-1): play order 1, 2, 4, 3 from player 1 is seats 0, 3, 2, 1. So player 1 = seat 0,
# player 2 = seat 3, player 4 = seat 2, player 3 = seat 1; players 1 & 4 are seats 0 & 2 (team 0)
# and players 2 & 3 are seats 3 & 1 (team 1), partners opposite as the seed says.
# Player 1 leads and calls, so the dealer is player 3 (seat 1). Player 1's first five cards are
# the seed's own opening example: "ace, king and 8 of spades, the 10 of hearts and the 3 of
# clubs; you choose spades".
PLAYER = {1: 0, 2: 3, 3: 1, 4: 2}
SEED_002_HANDS = (
    "AS KS 8S 10H 3C 4D 2C 4C 5C 6C 7C 8C 9C",  # seat 0, player 1
    "4S 7S AH QD QS JS 10S 9S AC KC QC JC 10C",  # seat 1, player 3
    "3S 6S 7H 5D KD JD 10D 9D 8D 7D 6D 3D 2D",  # seat 2, player 4
    "2S 5S 2H AD KH QH JH 9H 8H 6H 5H 4H 3H",  # seat 3, player 2
)


def seed_002_hand() -> HandState:
    state = start("dehla-pakad", SEED_002_HANDS, dealer=PLAYER[3],
                  overrides={"direction": "anticlockwise"})
    assert state.to_move == PLAYER[1]
    act(state, "call S")
    return state


def test_seed_002_worked_example_sweeps_four_tricks_with_the_ten_of_hearts() -> None:
    state = seed_002_hand()
    ten_h = Card.parse("10H")

    # 1. Player 3 wins a trick containing the 10 of hearts: it stays in the centre.
    t1 = play_trick(state, "10H 2H 7H AH", winner=PLAYER[3])
    assert t1.seats == (PLAYER[1], PLAYER[2], PLAYER[4], PLAYER[3])
    assert ten_h in t1.cards
    assert t1.taken_by is None and t1.tricks_taken == 0
    assert state.pile == trick_mask(t1)
    assert state.captured(0) == state.captured(1) == 0
    assert state.streak_holder == PLAYER[3]

    # 2. Player 2 wins the next: not the same player, everything stays.
    t2 = play_trick(state, "QD 4D AD 5D", winner=PLAYER[2])
    assert t2.taken_by is None
    assert state.pile == tricks_mask([t1, t2])
    assert state.captured(0) == state.captured(1) == 0
    assert state.streak_holder == PLAYER[2]

    # 3. Player 1 wins the next with the ace of spades.
    t3 = play_trick(state, "2S 3S 4S AS", winner=PLAYER[1])
    assert Card.parse("AS") in t3.cards
    assert t3.taken_by is None
    assert state.pile == tricks_mask([t1, t2, t3])
    assert state.pile_tricks == 3

    # 4. Player 1 wins again: two in a row, he gathers all four tricks, the 10 of hearts too.
    t4 = play_trick(state, "KS 5S 6S 7S", winner=PLAYER[1])
    assert t4.taken_by == 0  # players 1 and 4
    assert t4.tricks_taken == 4
    assert state.pile == 0 and state.pile_tricks == 0
    assert state.captured(0) == tricks_mask([t1, t2, t3, t4])
    assert state.captured(0) >> ten_h & 1
    assert state.captured(1) == 0
    assert state.captured_tricks(0) == 4
    assert state.streak_holder is None

    finish_hand(state)
    assert_all_cards_with_one_team(state)


# ---------------------------------------------------------------------------------------------
# Sweep patterns on the canonical deal (clockwise, dealer 3, seat 0 calls and leads).

def canon_hand(trump: str, preset: str = "dehla-pakad", dealer: int = 3,
               overrides: dict[str, object] | None = None) -> HandState:
    state = start(preset, CANON, dealer=dealer, overrides=overrides)
    act(state, f"call {trump}")
    return state


def test_same_player_twice_in_a_row_takes_the_pile_including_the_other_teams_trick() -> None:
    state = canon_hand("S")
    t1 = play_trick(state, "5C 4C 3C 2C", winner=0)
    t2 = play_trick(state, "2S 5S 4S 3S", winner=1)
    assert t1.taken_by is None and t2.taken_by is None
    assert state.pile == tricks_mask([t1, t2])
    t3 = play_trick(state, "6H 5H 4H 3H", winner=1)
    # Seat 1 won tricks 2 and 3: its team takes the whole pile, trick 1 (won by seat 0) too.
    assert t3.taken_by == 1 and t3.tricks_taken == 3
    assert state.captured(1) == tricks_mask([t1, t2, t3])
    assert state.captured(0) == 0
    assert state.pile == 0


def test_partners_winning_alternately_take_nothing_until_one_wins_again() -> None:
    state = canon_hand("S")
    t1 = play_trick(state, "5C 4C 3C 2C", winner=0)
    t2 = play_trick(state, "3H 2H 5H 4H", winner=2)
    # "If you win a trick and your partner wins the next, nothing is taken."
    assert t1.taken_by is None and t2.taken_by is None
    assert state.captured(0) == 0 and state.pile == tricks_mask([t1, t2])
    # "If your partner wins again, your partner takes the lot."
    t3 = play_trick(state, "6D 5D 4D 3D", winner=2)
    assert t3.taken_by == 0 and t3.tricks_taken == 3
    assert state.captured(0) == tricks_mask([t1, t2, t3])


# RESTART (scenario_helpers): which team takes the pile at each trick, and how many tricks.
RESTART_TAKEN = [None, 1, None, 1, None, None, 1, None, None, None, None, None, 0]
RESTART_COUNT = [0, 2, 0, 2, 0, 0, 3, 0, 0, 0, 0, 0, 6]


def test_sweep_count_restarts_and_the_last_trick_takes_what_is_left() -> None:
    state = canon_hand("H")
    played = []
    pile_start = 0  # the first trick still lying in the centre
    for number, ((plays, winner), taken_by, count) in enumerate(
        zip(RESTART, RESTART_TAKEN, RESTART_COUNT, strict=True), start=1
    ):
        played.append(play_trick(state, plays, winner))
        assert (played[-1].taken_by, played[-1].tricks_taken) == (taken_by, count), number
        if taken_by is not None:
            pile_start = number
        assert state.pile == tricks_mask(played[pile_start:]), f"pile after trick {number}"
    assert state.captured(1) == tricks_mask(played[:7])
    assert state.captured(0) == tricks_mask(played[7:])
    assert (state.captured_tricks(0), state.captured_tricks(1)) == (6, 7)
    assert_all_cards_with_one_team(state)


def test_streak_holder_is_the_player_who_would_sweep_next() -> None:
    state = canon_hand("H")
    play_trick(state, *RESTART[0])
    assert state.streak_holder == 1
    play_trick(state, *RESTART[1])
    assert state.streak_holder is None  # swept: the count restarts
    play_trick(state, *RESTART[2])
    assert state.streak_holder == 1




def test_partners_alternating_all_hand_leave_everything_to_the_thirteenth_trick() -> None:
    state = canon_hand("S")
    for number, (plays, winner) in enumerate(ALTERNATE[:12], start=1):
        trick = play_trick(state, plays, winner)
        assert trick.taken_by is None
        assert state.captured(0) == state.captured(1) == 0
        assert state.pile_tricks == number
    last = play_trick(state, *ALTERNATE[12])
    assert last.taken_by == 0 and last.tricks_taken == 13
    assert state.captured(0) == FULL_DECK
    assert_all_cards_with_one_team(state)
    assert state.result is not None
    assert state.result.winner == 0
    assert state.result.kot
    assert state.result.tricks_won == (13, 0)
    assert state.result.tricks_captured == (13, 0)


@pytest.mark.parametrize(
    ("preset", "overrides"),
    [
        ("dehla-pakad", {}),
        ("dehla-pakad", {"direction": "anticlockwise"}),
        ("dehla-pakad-cut", {}),
        ("dehla-pakad-hidden", {}),
        ("dehla-pakad-hidden", {"reveal": "on_request"}),
        ("court-piece-double-sir", {}),
        ("dehla-pakad", {"deck": "short32"}),
    ],
)
@pytest.mark.parametrize("seed", range(12))
def test_under_sweep_every_card_ends_in_exactly_one_teams_pile(
    preset: str, overrides: dict[str, str], seed: int
) -> None:
    rules = rules_for(preset, overrides)
    state = HandState(rules, Deal.from_seed(rules, seed), dealer=seed % 4)
    finish_hand(state)
    assert len(state.tricks) == rules.hand_size
    assert state.tricks[-1].taken_by == state.tricks[-1].winner % 2
    assert_all_cards_with_one_team(state, rules.deck_mask)


# ---------------------------------------------------------------------------------------------
# Direct capture (Mendikot, Court Piece): each trick goes to its winner's team at once.



@pytest.mark.parametrize("preset", ["court-piece", "mendikot"])
def test_direct_capture_gives_each_trick_to_its_winner(preset: str) -> None:
    overrides = {"trump": "called"} if preset == "mendikot" else {}
    state = start(preset, CANON, dealer=1, overrides=overrides)
    act(state, "call H")
    captured = [0, 0]
    counts = [0, 0]
    for plays, winner in COURT_SCRIPT:
        trick = play_trick(state, plays, winner)
        team = winner % 2
        captured[team] |= trick_mask(trick)
        counts[team] += 1
        assert trick.taken_by == team and trick.tricks_taken == 1
        assert state.pile == 0
        assert state.streak_holder is None
        assert [state.captured(0), state.captured(1)] == captured
        assert [state.captured_tricks(0), state.captured_tricks(1)] == counts
    assert_all_cards_with_one_team(state)


# ---------------------------------------------------------------------------------------------
# Court Piece Double Sir limits (sweep_limits=court_piece, seed 003): "No tricks can be claimed
# at the end of the 1st, 2nd or 12th trick. From the 3rd to the 11th trick inclusive, if the
# trick is won by the same player that won the previous trick, and the winning card of the
# previous trick was played after the trump had been revealed, the player's team collects all
# the tricks from the centre of the table."

LIMITS_SCRIPT: Script = [  # anticlockwise, dealer 1, seat 0 calls hearts
    ("5C 2C 3C 4C", 0),
    ("6S 3S 4S 5S", 0),
    ("7H 4H 5H 6H", 0),
    ("4D 5D 6D 7D", 1),
    ("9S 2S 7S 8S", 1),
    ("2H 3H 8H 9H", 2),
    ("7C 8C 9C 10C", 3),
    ("9D 10D 3D 8D", 2),
    ("JC QC KC AC", 3),
    ("6C KH AH QD", 1),
    ("10H JH QH AD", 3),
    ("KD 2D JD 10S", 3),
    ("JS QS KS AS", 0),
]


def called_court_piece_with_sweep(limits: str) -> HandState:
    state = start("court-piece", CANON, dealer=1,
                  overrides={"capture": "sweep", "sweep_limits": limits})
    act(state, "call H")
    return state


def test_double_sir_no_claim_after_tricks_two_or_twelve() -> None:
    state = called_court_piece_with_sweep("court_piece")
    tricks = [play_trick(state, plays, winner) for plays, winner in LIMITS_SCRIPT]
    taken = [(t.taken_by, t.tricks_taken) for t in tricks]
    assert taken == [
        (None, 0),
        (None, 0),  # seat 0 won tricks 1 and 2: no claim after trick 2
        (0, 3),  # seat 0 wins trick 3 after trick 2: claims tricks 1-3
        (None, 0),
        (1, 2),  # seat 1 wins tricks 4 and 5: claims them
        (None, 0), (None, 0), (None, 0), (None, 0), (None, 0), (None, 0),
        (None, 0),  # seat 3 won tricks 11 and 12: no claim after trick 12
        (0, 8),  # the 13th trick takes it and everything left: tricks 6-13
    ]
    assert (state.captured_tricks(0), state.captured_tricks(1)) == (11, 2)
    assert_all_cards_with_one_team(state)
    assert state.result is not None and state.result.winner == 0


def test_same_play_without_limits_claims_after_tricks_two_and_twelve() -> None:
    state = called_court_piece_with_sweep("none")
    tricks = [play_trick(state, plays, winner) for plays, winner in LIMITS_SCRIPT]
    assert [(t.taken_by, t.tricks_taken) for t in tricks if t.taken_by is not None] == [
        (0, 2), (1, 3), (1, 7), (0, 1),
    ]
    assert [t.number for t in tricks if t.taken_by is not None] == [2, 5, 12, 13]
    assert (state.captured_tricks(0), state.captured_tricks(1)) == (3, 10)
    assert state.result is not None and state.result.winner == 1


# Hidden trump (court-piece-double-sir: hidden, on_request, anticlockwise). Dealer 1, seat 0
# puts 2S face down (spades trumps). Seat 3 has no hearts and no spades.
DOUBLE_SIR_HANDS = (
    "2S AH KH QH JH 10H AS KS QS AD KD QD JD",
    "8H 6H 4H 2H 7S 6S 5S 4S 3S 3C 2C 3D 2D",
    "9H 7H 5H 3H JS 10S 9S 8S 6C 5C 4C 5D 4D",
    "AC KC QC JC 10C 9C 8C 7C 10D 9D 8D 7D 6D",
)


def test_double_sir_needs_the_previous_winning_card_played_after_the_reveal() -> None:
    state = start("court-piece-double-sir", DOUBLE_SIR_HANDS, dealer=1)
    act(state, "hide 2S")
    t1 = play_trick(state, "AH 7C 3H 2H", winner=0)
    t2 = play_trick(state, "KH 8C 5H 4H", winner=0)
    # Seat 0 won tricks 1, 2 and 3, but trumps were not revealed when it won trick 2.
    t3 = play_trick(state, "QH reveal 9C 7H 6H", winner=0)
    assert state.reveal is not None
    assert (state.reveal.trick, state.reveal.position, state.reveal.seat) == (3, 1, 3)
    # Trick 4: the previous winning card, QH, was led before the reveal in trick 3: no claim.
    t4 = play_trick(state, "JH 10C 9H 8H", winner=0)
    assert [t.taken_by for t in (t1, t2, t3, t4)] == [None, None, None, None]
    assert state.pile == tricks_mask([t1, t2, t3, t4])
    # Trick 5: the previous winning card, JH, was played after the reveal: seat 0 claims.
    # (Seats 2 and 1 are out of hearts and discard clubs although they hold trumps.)
    t5 = play_trick(state, "10H JC 4C 2C", winner=0)
    assert t5.taken_by == 0 and t5.tricks_taken == 5
    assert state.captured(0) == tricks_mask([t1, t2, t3, t4, t5])
    finish_hand(state)
    assert_all_cards_with_one_team(state)


# Seed 003's first hidden-rung example, followed by a claim. Players 1-4 in play order
# (anticlockwise): player 1 = seat 0, 2 = seat 3, 3 = seat 2, 4 = seat 1. Player 2 is the trump
# maker (so the dealer is player 1, seat 0) and puts 9D face down. Players 3 and 4 have no hearts.
SEED_003_FIRST_HANDS = (
    "AH KH QH JH 10H 9H AC 2S 3S AD KD KC QC",  # seat 0, player 1
    "4C 3D AS KS QS JS 10S 9S 9C 10C JC 4D 2D",  # seat 1, player 4
    "3C 6D 6S 7S 8S 5C 6C 7C 8C 10D 8D 7D 5D",  # seat 2, player 3
    "9D 2C 5H 8H 7H 6H 4H 3H 2H 4S 5S QD JD",  # seat 3, player 2
)


def test_double_sir_claim_with_a_winning_card_played_after_the_reveal() -> None:
    state = start("court-piece-double-sir", SEED_003_FIRST_HANDS, dealer=0)
    assert state.to_move == 3
    act(state, "hide 9D")
    t1 = play_trick(state, "2C 3C 4C AC", winner=0)
    # Player 1 leads AH, player 2 follows 5H, player 3 discards 6D, player 4 asks for the
    # reveal and trumps with 3D: the 3 of diamonds beats the 6, played before the reveal.
    t2 = play_trick(state, "AH 5H 6D reveal 3D", winner=1)
    assert state.reveal is not None and state.reveal.seat == 1
    # Player 4 wins again; the previous winning card (3D) came after the reveal: claim.
    t3 = play_trick(state, "AS 2S 4S 6S", winner=1)
    assert t3.taken_by == 1 and t3.tricks_taken == 3
    assert state.captured(1) == tricks_mask([t1, t2, t3])
    assert state.pile == 0


# The hidden trump never revealed: no claim is possible until the last trick, where the owner's
# face-down card is turned up as their last card and takes all 52.


def test_double_sir_hidden_trump_never_revealed_means_no_claim_before_the_last_trick() -> None:
    state = start("court-piece-double-sir", CANON, dealer=1)
    act(state, "hide 2S")
    for plays, winner in LAST_CARD_SCRIPT:
        trick = play_trick(state, plays, winner)
        assert trick.taken_by is None  # seat 3 won tricks 1-3, seat 0 tricks 5-7: no claim
    assert state.reveal is None
    act(state, "AC", "AD", "AH")
    # Seat 0 has only the face-down card left: it is turned up and is the only legal play.
    assert state.to_move == 0
    assert state.reveal is not None
    assert state.reveal.reason is RevealReason.LAST_CARD
    assert state.reveal.card == Card.parse("2S")
    assert [str(a) for a in state.legal_actions()] == ["play 2S"]
    act(state, "2S")
    last = state.tricks[-1]
    assert last.winner == 0  # the 2 of spades is a trump now and beats the led ace of clubs
    assert last.taken_by == 0 and last.tricks_taken == 13
    assert state.captured(0) == FULL_DECK
    assert state.captured(0) & TENS == mask("10S 10H 10D 10C")
    assert_all_cards_with_one_team(state)


def test_double_sir_a_claim_does_not_restart_the_count_with_a_hidden_trump() -> None:
    """Seed 003: "From the 3rd to the 11th trick inclusive, if the trick is won by the same player
    that won the previous trick, and the winning card of the previous trick was played after the
    trump had been revealed, the player's team collects all the tricks from the centre"."""
    state = start("court-piece-double-sir", DOUBLE_SIR_HANDS, dealer=1)
    act(state, "hide 2S")
    play_script(state, [
        ("AH 7C 3H 2H", 0), ("KH 8C 5H 4H", 0), ("QH reveal 9C 7H 6H", 0),
        ("JH 10C 9H 8H", 0), ("10H JC 4C 2C", 0),
    ])
    assert state.tricks[-1].tricks_taken == 5  # the claim of the test above
    assert state.streak_holder == 0  # the claim kept seat 0's streak
    # Seat 0 wins trick 6 too; its previous winning card (10H) came after the reveal: it claims
    # again (under seed 000's restart this win would only start a new pile).
    t6 = play_trick(state, "AS AC 8S 3S", winner=0)
    assert t6.taken_by == 0 and t6.tricks_taken == 1
    assert state.pile == 0
    finish_hand(state)
    assert_all_cards_with_one_team(state)


# ---------------------------------------------------------------------------------------------
# Double Sir claims do not restart (seed 003, sweep_limits=court_piece), on the canonical deal
# played anticlockwise with called trump (dealer 1, seat 0 calls hearts): seat 0, then seat 1,
# then seat 2 wins tricks 3, 4, 5 and 6.
NO_RESTART_SCRIPT: Script = [
    ("5C 2C 3C 4C", 0),
    ("2S 3S 4S 5S", 1),
    ("3D 4D 5D AD", 2),
    ("KH 2H 3H 4H", 2),
    ("10D 7D 8D 9D", 2),
    ("QS 9S 6S 7S", 2),
]


def test_double_sir_wins_at_three_four_and_five_claim_at_four_and_again_at_five() -> None:
    """Seed 003: "From the 3rd to the 11th trick inclusive, if the trick is won by the same player
    that won the previous trick [...] the player's team collects all the tricks from the centre
    of the table": every such trick claims; the count does not restart after a claim."""
    state = called_court_piece_with_sweep("court_piece")
    tricks = play_script(state, NO_RESTART_SCRIPT)
    assert [(t.taken_by, t.tricks_taken) for t in tricks] == [
        (None, 0), (None, 0), (None, 0),
        (0, 4),  # seat 2 won tricks 3 and 4: claims tricks 1-4
        (0, 1),  # and again trick 5
        (0, 1),  # and again trick 6
    ]
    assert state.streak_holder == 2
    assert state.captured(0) == tricks_mask(tricks)
    finish_hand(state)
    assert_all_cards_with_one_team(state)


def test_plain_sweep_keeps_the_restart_on_the_same_play() -> None:
    """Seed 000 (rules.md): "The count restarts after each sweep (a third win in a row starts a
    new pile; a fourth sweeps again)"."""
    state = called_court_piece_with_sweep("none")
    tricks = play_script(state, NO_RESTART_SCRIPT)
    assert [(t.taken_by, t.tricks_taken) for t in tricks] == [
        (None, 0), (None, 0), (None, 0), (0, 4), (None, 0), (0, 2),
    ]


# ---------------------------------------------------------------------------------------------
# First discard under sweep capture (seed 003): "No tricks can be collected until the trick
# after the one in which trumps are determined (but if the same player wins the trump
# determining trick and the following one, that player's team collects all the tricks played
# up to this point)." The canonical deal, clockwise, dealer 3, all 13 cards dealt: seat 1 wins
# tricks 1-4 with everybody following suit, seat 0 wins trick 5 and leaves seat 1 out of
# spades, seat 1 sets hearts in trick 6 with 2H (seats 2 and 3, also out of spades, discard),
# then wins trick 7 with the ace of hearts.
FIRST_DISCARD_SCRIPT: Script = [
    ("2S 5S 4S 3S", 1),
    ("KS QS JS 10S", 1),
    ("6H 5H 4H 3H", 1),
    ("JD 10D 9D 8D", 1),
    ("9S 8S 7S AS", 0),
    ("6S 2H 2D 2C", 1),
    ("AH 9H 8H 7H", 1),
]


def first_discard_sweep(overrides: dict[str, object] | None = None) -> HandState:
    return start("dehla-pakad", CANON, dealer=3, overrides={"trump": "first_discard", **(overrides or {})})


def test_first_discard_nothing_is_collected_before_trumps_then_the_double_takes_everything() -> None:
    state = first_discard_sweep()
    tricks = []
    for plays, winner in FIRST_DISCARD_SCRIPT[:4]:
        tricks.append(play_trick(state, plays, winner))
        # The old behaviour swept at tricks 2 and 4 although no trump existed yet.
        assert tricks[-1].taken_by is None
        assert state.trump is None
    assert state.pile_tricks == 4 and state.captured(0) == state.captured(1) == 0
    assert state.streak_holder == 1
    tricks.append(play_trick(state, *FIRST_DISCARD_SCRIPT[4]))
    tricks.append(play_trick(state, *FIRST_DISCARD_SCRIPT[5]))
    assert state.trump_setting is not None and state.trump_setting.trick == 6
    assert str(state.trump_setting.card) == "2H"
    assert tricks[-1].taken_by is None  # the trump-setting trick itself collects nothing
    # Seat 1 won the trump-setting trick and wins the next: its team collects all seven tricks.
    t7 = play_trick(state, *FIRST_DISCARD_SCRIPT[6])
    assert t7.taken_by == 1 and t7.tricks_taken == 7
    assert state.captured(1) == tricks_mask([*tricks, t7])
    assert state.pile == 0
    finish_hand(state)
    assert_all_cards_with_one_team(state)


def test_first_discard_after_the_trumps_a_different_winner_keeps_the_pile() -> None:
    state = first_discard_sweep()
    play_script(state, FIRST_DISCARD_SCRIPT[:6])
    # Seat 1 leads 10H; seat 2 covers with KH: not the trump-setting trick's winner, no claim.
    t7 = play_trick(state, "10H KH QH JH", winner=2)
    assert t7.taken_by is None and state.pile_tricks == 7
    assert state.streak_holder == 2


def test_first_discard_with_double_sir_limits_the_double_after_trumps_claims() -> None:
    state = first_discard_sweep({"sweep_limits": "court_piece"})
    tricks = play_script(state, FIRST_DISCARD_SCRIPT)
    assert [t.taken_by for t in tricks] == [None] * 6 + [1]
    assert tricks[-1].tricks_taken == 7

