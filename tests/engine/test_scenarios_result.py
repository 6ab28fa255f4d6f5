"""Who wins the hand: tens (Dehla Pakad) with every two_two option, Mendikot, Court Piece.

rules.md, "Who wins the hand (hand_result)". Every hand here is played out card by card; the
expected results are worked out from the rules by hand, trick by trick, in the comments.
"""

from __future__ import annotations

from typing import Any

import pytest

from arena.engine.errors import RulesError
from arena.engine.hand import HandState
from arena.engine.outcome import HandOutcome, HandResult
from arena.engine.rules import rules_for
from tests.scenario_helpers import (
    ALTERNATE,
    CANON,
    COURT_SCRIPT,
    RESTART,
    TWO_TWO_A,
    Script,
    act,
    assert_all_cards_with_one_team,
    play_script,
    play_trick,
    start,
)


def played(preset: str, script: Script, *, dealer: int, call: str | None,
           overrides: dict[str, Any] | None = None) -> HandState:
    state = start(preset, CANON, dealer=dealer, overrides=overrides)
    if call:
        act(state, f"call {call}")
    play_script(state, script)
    assert state.is_over
    return state


def result_of(state: HandState) -> HandResult:
    assert state.result is not None
    return state.result


# ---------------------------------------------------------------------------------------------
# Dehla Pakad: three or four tens win; four tens is a kot.

def test_three_tens_win_the_hand() -> None:
    # RESTART (dealer 3): team 1 sweeps tricks 1-7 holding 10S, 10D and 10H; team 0 takes
    # tricks 8-13 with 10C. The dealing team needs three tens, and has them.
    state = played("dehla-pakad", RESTART, dealer=3, call="H")
    result = result_of(state)
    assert result.tens == (1, 3)
    assert result.winner == 1
    assert result.outcome is HandOutcome.THREE_TENS
    assert not result.kot


def test_four_tens_is_a_kot() -> None:
    state = played("dehla-pakad", ALTERNATE, dealer=3, call="S")
    result = result_of(state)
    assert result.tens == (4, 0)
    assert result.winner == 0
    assert result.outcome is HandOutcome.FOUR_TENS
    assert result.kot


def test_all_thirteen_tricks_are_played_even_when_the_result_is_settled() -> None:
    state = start("dehla-pakad", CANON, dealer=3)
    act(state, "call H")
    play_script(state, RESTART[:7])
    assert state.captured(1).bit_count() == 28  # three tens already in team 1's pile
    assert not state.is_over and state.result is None
    play_script(state, RESTART[7:])
    assert state.is_over and len(state.tricks) == 13


# TWO_TWO_A (see scenario_helpers): team 0 wins at the table, team 1 has more tricks in its pile.
# TWO_TWO_B, clubs trumps: the mirror image. Seats 1 and 3 win tricks 1-7 alternately, seat 0
# wins 8 and 9 and sweeps tricks 1-9 (10S in trick 2, 10H in trick 9); seat 1 takes 10-11
# (10D), seat 3 takes 12-13 (10C). At the table 11-2 for team 1; captured 9-4 for team 0.
TWO_TWO_B: Script = [
    ("2S 5S 4S 3S", 1),
    ("9S 8S JS 10S", 3),
    ("4H 3H 6H 5H", 1),
    ("3D 2D 5D 4D", 3),
    ("6C 5C 8C 7C", 1),
    ("7D 6D 9D 8D", 3),
    ("2C 9C QC JC", 1),
    ("KS QS 7S AS", 0),
    ("JH 10H 9H 8H", 0),
    ("6S 4C KH KD", 1),
    ("AH 10D QH 7H", 1),
    ("JD AD 10C QD", 3),
    ("AC KC 2H 3C", 3),
]

TWO_TWO_CASES = [
    # (script, trump, two_two, expected winner, expected outcome)
    (TWO_TWO_A, "D", None, 0, HandOutcome.TWO_TWO_NON_DEALER),  # the default
    (TWO_TWO_A, "D", "non_dealer", 0, HandOutcome.TWO_TWO_NON_DEALER),
    (TWO_TWO_A, "D", "tricks_won_at_table", 0, HandOutcome.TWO_TWO_TRICKS_AT_TABLE),
    (TWO_TWO_A, "D", "tricks_captured", 1, HandOutcome.TWO_TWO_TRICKS_CAPTURED),
    (TWO_TWO_A, "D", "draw", None, HandOutcome.TWO_TWO_DRAW),
    (TWO_TWO_B, "C", None, 0, HandOutcome.TWO_TWO_NON_DEALER),
    (TWO_TWO_B, "C", "tricks_won_at_table", 1, HandOutcome.TWO_TWO_TRICKS_AT_TABLE),
    (TWO_TWO_B, "C", "tricks_captured", 0, HandOutcome.TWO_TWO_TRICKS_CAPTURED),
    (TWO_TWO_B, "C", "draw", None, HandOutcome.TWO_TWO_DRAW),
]


@pytest.mark.parametrize(("script", "trump", "two_two", "winner", "outcome"), TWO_TWO_CASES)
def test_two_two_options(script: Script, trump: str, two_two: str | None,
                         winner: int | None, outcome: HandOutcome) -> None:
    overrides = {"two_two": two_two} if two_two else {}
    state = played("dehla-pakad", script, dealer=3, call=trump, overrides=overrides)
    result = result_of(state)
    assert result.tens == (2, 2)
    a_side = script is TWO_TWO_A
    assert result.tricks_won == ((11, 2) if a_side else (2, 11))
    assert result.tricks_captured == ((4, 9) if a_side else (9, 4))
    assert result.winner == winner
    assert result.outcome is outcome
    assert not result.kot
    assert_all_cards_with_one_team(state)


def test_two_two_goes_to_the_team_that_did_not_deal() -> None:
    # The same cards with every seat moved one place on: team 0 now deals (dealer 0).
    state = start("dehla-pakad", [CANON[(s - 1) % 4] for s in range(4)], dealer=0)
    act(state, "call D")
    play_script(state, [(cards, (winner + 1) % 4) for cards, winner in TWO_TWO_A])
    result = result_of(state)
    assert result.tens == (2, 2)
    assert result.winner == 1
    assert result.outcome is HandOutcome.TWO_TWO_NON_DEALER


# ---------------------------------------------------------------------------------------------
# Mendikot: 3 or 4 tens win; 2-2 is decided by 7+ tricks; four tens is a mendikot; four tens
# and all 13 tricks a kot (whitewash). Played here as the no-trump variant, anticlockwise,
# dealer 1 (seat 0 leads), with explicit bonus options.

MENDIKOT_OPTIONS = {"trump": "none", "mendikot_bonus": 1, "kot_bonus": 2}

# Team 0 wins every trick but 9 and 11, taking all four tens and all four aces (trick 13).
M_MENDIKOT_ACES: Script = [
    ("5C 2C 3C 4C", 0),
    ("3H 4H 5H 2H", 2),
    ("6D 3D 4D 5D", 2),
    ("4S 5S 6S 3S", 0),
    ("7H 8H 9H 6H", 2),
    ("7C 8C 9C 6C", 0),
    ("8D 9D 10D 7D", 2),
    ("8S 9S 10S 7S", 0),
    ("2S JS QS KS", 1),
    ("10H JH QH KH", 2),
    ("2D JD QD KD", 3),
    ("10C JC QC KC", 0),
    ("AS AC AD AH", 0),
]
# The same to trick 9; then seat 1 wins trick 10 with AH: four tens, but only three aces.
M_MENDIKOT_NO_ACES: Script = [
    *M_MENDIKOT_ACES[:9],
    ("AH JH QH KH", 1),
    ("JD QD KD 2D", 3),
    ("10C JC QC KC", 0),
    ("AS AC AD 10H", 0),
]
# Team 0 wins all thirteen tricks.
M_KOT: Script = [
    *M_MENDIKOT_ACES[:8],
    ("JH QH KH 10H", 2),
    ("JC QC KC 10C", 0),
    ("AS JS QS KS", 0),
    ("2S KD AD AH", 0),
    ("QD AC 2D JD", 0),
]
# Tens 2-2 (10H, 10S to team 0 in tricks 8 and 11; 10C, 10D to team 1 in 12 and 13);
# team 0 wins tricks 2, 4, 6, 8, 9, 10, 11: seven.
M_TWO_TWO: Script = [
    ("5C AC JC 8C", 3),
    ("5D AD 3D 4D", 2),
    ("6D 7D 8D KD", 3),
    ("7S QS 5S 6S", 2),
    ("5H 6H 3H 4H", 1),
    ("2H 7H QH KH", 2),
    ("8S KS 2S 3S", 1),
    ("10H JH 8H 9H", 0),
    ("AS JS 4S 9S", 0),
    ("KC 2C 7C 4C", 0),
    ("10S 6C 2D JD", 0),
    ("9C 10C 3C QC", 1),
    ("AH QD 9D 10D", 1),
]
# Team 1 wins only tricks 1, 2, 3 and 12, but with 10H (2), 10D (3) and 10S (12).
M_THREE_TENS_FEW_TRICKS: Script = [
    ("8D 5D 2D JD", 1),
    ("10H 7H 8H 5H", 1),
    ("3D QD KD 10D", 3),
    ("JS 4S KS AS", 0),
    ("6S 3S QS 9S", 2),
    ("JC 8C 5C 2C", 2),
    ("KH 6H JH QH", 2),
    ("7C 4C 9C 6C", 0),
    ("4D 9D AD 7D", 2),
    ("9H 2H 3H 4H", 2),
    ("6D QC KC 10C", 2),
    ("3C AH 10S AC", 3),
    ("7S 8S 5S 2S", 2),
]


def mendikot(script: Script, **extra: Any) -> HandResult:
    state = played("mendikot", script, dealer=1, call=None,
                   overrides={**MENDIKOT_OPTIONS, **extra})
    assert_all_cards_with_one_team(state)
    return result_of(state)


def test_mendikot_two_two_is_decided_by_seven_tricks() -> None:
    result = mendikot(M_TWO_TWO)
    assert result.tens == (2, 2)
    assert result.tricks_won == (7, 6) == result.tricks_captured
    assert result.winner == 0
    assert result.outcome is HandOutcome.MAJORITY_OF_TRICKS
    assert not result.mendikot and not result.kot
    assert result.points == 1


def test_mendikot_three_tens_win_with_few_tricks() -> None:
    result = mendikot(M_THREE_TENS_FEW_TRICKS)
    assert result.tens == (1, 3)
    assert result.tricks_won == (9, 4)
    assert result.winner == 1
    assert result.outcome is HandOutcome.THREE_TENS
    assert result.points == 1


def test_mendikot_four_tens_is_a_mendikot() -> None:
    result = mendikot(M_MENDIKOT_NO_ACES)
    assert result.tens == (4, 0)
    assert result.tricks_won == (10, 3)
    assert result.winner == 0
    assert result.mendikot and not result.kot
    assert not result.all_aces
    assert result.points == 1 + 1  # a hand won plus the mendikot bonus


def test_mendikot_four_tens_and_all_thirteen_tricks_is_a_kot() -> None:
    result = mendikot(M_KOT)
    assert result.tens == (4, 0)
    assert result.tricks_won == (13, 0)
    assert result.winner == 0
    assert result.kot and result.mendikot
    plain = mendikot(M_MENDIKOT_NO_ACES)
    assert result.points >= 1 + 2  # a hand won plus the kot bonus ...
    assert result.points > plain.points  # ... "a larger bonus" than a mendikot


def test_bonus_aces_all_four_aces_with_all_four_tens() -> None:
    assert mendikot(M_MENDIKOT_ACES).all_aces
    assert mendikot(M_MENDIKOT_ACES).points == 2
    assert mendikot(M_MENDIKOT_ACES, bonus_aces=True).points == 3
    # Three aces only: no extra point.
    assert mendikot(M_MENDIKOT_NO_ACES, bonus_aces=True).points == 2
    # No mendikot: no extra point either.
    assert mendikot(M_TWO_TWO, bonus_aces=True).points == 1


# ---------------------------------------------------------------------------------------------
# Court Piece: 7 or more tricks win; the first seven tricks are a kot ("court"); early_end.

# Team 1 wins tricks 2, 3, 4, 6, 7, 9, 10 (its seventh at trick 10); team 0 wins 1, 5, 8, 11,
# 12, 13 and with them all four tens (10D in 8, 10S and 10C in 12, 10H in 13).
C_SEVEN: Script = [
    ("5C 2C 3C 4C", 0),
    ("2S 3S 4S 5S", 1),
    ("6H 3H 4H 5H", 1),
    ("3D 4D 5D 2D", 3),
    ("6C 7C 8C 9C", 0),
    ("QD KD 6D JD", 3),
    ("7S 8S 9S 6S", 1),
    ("7D 8D 9D 10D", 2),
    ("AD KS KC 8H", 3),  # seat 3, out of diamonds, trumps with 8H
    ("JS QS AH AS", 1),
    ("QC 7H AC JC", 0),
    ("10S 10C 9H 2H", 2),
    ("KH 10H JH QH", 2),
]


def test_court_piece_seven_tricks_win_tens_do_not_count() -> None:
    state = played("court-piece", C_SEVEN, dealer=1, call="H", overrides={"kot_bonus": 2})
    result = result_of(state)
    assert result.tricks_won == (6, 7) == result.tricks_captured
    assert result.tens == (4, 0)
    assert result.winner == 1
    assert result.outcome is HandOutcome.MAJORITY_OF_TRICKS
    assert not result.kot
    assert result.points == 1
    assert len(state.tricks) == 13


def test_court_piece_first_seven_tricks_are_a_court() -> None:
    state = played("court-piece", COURT_SCRIPT, dealer=1, call="H", overrides={"kot_bonus": 2})
    result = result_of(state)
    assert result.tricks_won == (9, 4)
    assert result.winner == 0
    assert result.kot
    assert result.points == 1 + 2
    assert len(state.tricks) == 13  # all 13 tricks are played by default


def test_court_piece_early_end_stops_once_the_court_is_made() -> None:
    state = start("court-piece", CANON, dealer=1, overrides={"early_end": True})
    act(state, "call H")
    play_script(state, COURT_SCRIPT[:6])
    assert not state.is_over
    play_trick(state, *COURT_SCRIPT[6])
    assert state.is_over
    result = result_of(state)
    assert result.tricks_played == 7
    assert result.winner == 0 and result.kot


def test_court_piece_early_end_stops_at_the_seventh_trick_won() -> None:
    state = start("court-piece", CANON, dealer=1, overrides={"early_end": True})
    act(state, "call H")
    play_script(state, C_SEVEN[:9])
    assert not state.is_over
    play_trick(state, *C_SEVEN[9])
    assert state.is_over
    result = result_of(state)
    assert result.tricks_played == 10
    assert result.winner == 1 and not result.kot


@pytest.mark.parametrize("preset", ["dehla-pakad", "mendikot"])
def test_early_end_is_a_court_piece_option(preset: str) -> None:
    with pytest.raises(RulesError, match="early_end"):
        rules_for(preset, {"early_end": True})
