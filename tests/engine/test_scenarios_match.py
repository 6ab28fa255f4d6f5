"""Match scoring and dealer rotation.

rules.md, "Match scoring and dealer rotation (Dehla Pakad)" and the Mendikot / Court Piece line;
seed 000 "Kots and the match" and "Who deals next"; seed 001 "Scoring".
"""

from __future__ import annotations

import pytest

from arena.engine.errors import MatchFormatError
from arena.engine.match import MatchFormat, MatchScore, next_dealer
from arena.engine.outcome import HandOutcome, HandResult
from arena.engine.rules import Rules, rules_for
from tests.scenario_helpers import (
    ALTERNATE,
    CANON,
    RESTART,
    TWO_TWO_A,
    act,
    hand_result,
    play_script,
    start,
)

DP = rules_for("dehla-pakad")
THREE = HandOutcome.THREE_TENS
FOUR = HandOutcome.FOUR_TENS


def win(team: int) -> HandResult:
    return hand_result(team, THREE)


def four_tens(team: int) -> HandResult:
    return hand_result(team, FOUR, kot=True)


def after(score: MatchScore, *results: HandResult, rules: Rules = DP) -> MatchScore:
    for result in results:
        score = score.after(rules, result)
    return score


# ---------------------------------------------------------------------------------------------
# Kots

def test_a_kot_for_all_four_tens() -> None:
    score = after(MatchScore(dealer=3), four_tens(0))
    assert score.kots == (1, 0)
    assert score.hands_won == (1, 0)
    assert score.runs == (0, 0)


def test_a_kot_for_seven_hands_in_a_row() -> None:
    score = MatchScore(dealer=3)
    for n in range(1, 7):
        score = after(score, win(1))
        assert score.kots == (0, 0)
        assert score.runs == (0, n)
    score = after(score, win(1))
    assert score.kots == (0, 1)
    assert score.runs == (0, 0)
    # The count starts again: the next kot takes seven more.
    score = after(score, *[win(1)] * 6)
    assert score.kots == (0, 1)
    score = after(score, win(1))
    assert score.kots == (0, 2)


def test_losing_a_hand_ends_a_run() -> None:
    score = after(MatchScore(dealer=3), *[win(0)] * 6)
    assert score.runs == (6, 0)
    score = after(score, win(1))
    assert score.runs == (0, 1)
    score = after(score, *[win(0)] * 6)
    assert score.kots == (0, 0)
    assert score.runs == (6, 0)
    score = after(score, win(0))
    assert score.kots == (1, 0)


def test_any_kot_resets_both_runs() -> None:
    score = after(MatchScore(dealer=3), *[win(0)] * 5)
    assert score.runs == (5, 0)
    score = after(score, four_tens(1))  # the other team's kot ends team 0's run
    assert score.kots == (0, 1) and score.runs == (0, 0)
    score = after(score, *[win(0)] * 6)
    assert score.kots == (0, 1)
    # A team's own four-tens kot resets its run too.
    score = after(MatchScore(dealer=3), *[win(0)] * 4, four_tens(0))
    assert score.kots == (1, 0) and score.runs == (0, 0)
    score = after(score, *[win(0)] * 6)
    assert score.kots == (1, 0)


def test_all_52_cards_is_still_one_kot() -> None:
    # ALTERNATE: the 13th trick takes all 52 cards for team 0; dealer 3.
    state = start("dehla-pakad", CANON, dealer=3)
    act(state, "call S")
    play_script(state, ALTERNATE)
    assert state.captured(0).bit_count() == 52
    assert state.result is not None
    score = MatchScore(dealer=3).after(DP, state.result)
    assert score.kots == (1, 0)
    # Other team (team 0) took all four tens: the dealer's partner deals next.
    assert score.dealer == 1


# ---------------------------------------------------------------------------------------------
# Who deals next: the dealer always comes from the team that lost the last hand.

@pytest.mark.parametrize(
    ("direction", "dealer", "next_seat"),
    [("clockwise", 3, 0), ("clockwise", 0, 1), ("anticlockwise", 3, 2), ("anticlockwise", 0, 3)],
)
def test_dealers_team_won_the_next_player_deals(direction: str, dealer: int,
                                                next_seat: int) -> None:
    rules = rules_for("dehla-pakad", {"direction": direction})
    team = dealer % 2
    for result in (win(team), four_tens(team)):
        assert next_dealer(rules, dealer, result) == next_seat
        assert MatchScore(dealer=dealer).after(rules, result).dealer == next_seat


@pytest.mark.parametrize(
    "result",
    [
        hand_result(0, HandOutcome.THREE_TENS),
        hand_result(0, HandOutcome.TWO_TWO_NON_DEALER),
    ],
)
def test_other_team_won_with_two_or_three_tens_same_dealer(result: HandResult) -> None:
    assert next_dealer(DP, 3, result) == 3
    assert MatchScore(dealer=3).after(DP, result).dealer == 3


def test_other_team_took_all_four_tens_the_dealers_partner_deals() -> None:
    assert next_dealer(DP, 3, four_tens(0)) == 1
    assert next_dealer(DP, 0, four_tens(1)) == 2


def test_dealer_rotation_after_played_hands() -> None:
    # RESTART: dealer 3's own team wins with three tens: the next player (seat 0) deals.
    state = start("dehla-pakad", CANON, dealer=3)
    act(state, "call H")
    play_script(state, RESTART)
    assert state.result is not None and state.result.winner == 1
    assert next_dealer(DP, 3, state.result) == 0
    # TWO_TWO_A: two tens each, the non-dealing team 0 wins: dealer 3 deals again.
    state = start("dehla-pakad", CANON, dealer=3)
    act(state, "call D")
    play_script(state, TWO_TWO_A)
    assert state.result is not None and state.result.winner == 0
    assert next_dealer(DP, 3, state.result) == 3


def test_dealers_team_winning_a_two_two_by_tricks_passes_the_deal_on() -> None:
    rules = rules_for("dehla-pakad", {"two_two": "tricks_captured"})
    result = hand_result(1, HandOutcome.TWO_TWO_TRICKS_CAPTURED)
    assert next_dealer(rules, 3, result) == 0


# ---------------------------------------------------------------------------------------------
# Match length and the winner

def test_match_to_a_number_of_kots() -> None:
    fmt = MatchFormat.parse("kots:3")
    assert not MatchScore(dealer=0, kots=(2, 2)).is_over(DP, fmt)
    assert MatchScore(dealer=0, kots=(3, 1)).is_over(DP, fmt)
    assert MatchScore(dealer=0, kots=(1, 3)).is_over(DP, fmt)
    score = after(MatchScore(dealer=3), four_tens(0), four_tens(1), four_tens(0))
    assert not score.is_over(DP, fmt)
    score = after(score, four_tens(0))
    assert score.is_over(DP, fmt)
    assert score.winner(DP) == 0


def test_match_of_a_number_of_hands() -> None:
    fmt = MatchFormat.parse("hands:4")
    score = after(MatchScore(dealer=3), win(0), win(1), win(1))
    assert not score.is_over(DP, fmt)
    score = after(score, win(0))
    assert score.hands_played == 4
    assert score.is_over(DP, fmt)


@pytest.mark.parametrize(
    ("kots", "winner"),
    [((2, 1), 0), ((0, 1), 1), ((1, 1), None), ((0, 0), None)],
)
def test_more_kots_wins_level_is_a_draw(kots: tuple[int, int], winner: int | None) -> None:
    # Hands won do not count: only kots, and level kots (none each too) is a draw.
    score = MatchScore(dealer=0, kots=kots, hands_won=(9, 1))
    assert score.winner(DP) == winner


@pytest.mark.parametrize("text", ["kots", "kots:0", "kots:x", "games:3", ""])
def test_bad_match_formats_are_rejected(text: str) -> None:
    with pytest.raises(MatchFormatError):
        MatchFormat.parse(text)


# ---------------------------------------------------------------------------------------------
# Mendikot / Court Piece: hands won (with bonuses as options); the losing side deals.

@pytest.mark.parametrize("preset", ["mendikot", "court-piece", "court-piece-double-sir"])
@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
@pytest.mark.parametrize("winner", [0, 1])
def test_losing_side_deals(preset: str, dealer: int, winner: int) -> None:
    rules = rules_for(preset)
    outcomes = [HandOutcome.MAJORITY_OF_TRICKS]
    if preset == "mendikot":
        outcomes += [HandOutcome.THREE_TENS, HandOutcome.FOUR_TENS]
    for outcome in outcomes:
        result = hand_result(winner, outcome, points=1)
        assert next_dealer(rules, dealer, result) % 2 == 1 - winner


def test_mendikot_match_counts_hands_won_with_bonuses() -> None:
    rules = rules_for("mendikot")
    score = after(
        MatchScore(dealer=1),
        hand_result(0, HandOutcome.MAJORITY_OF_TRICKS, points=1),
        hand_result(1, HandOutcome.FOUR_TENS, mendikot=True, points=2),
        rules=rules,
    )
    assert score.points == (1, 2)
    assert score.hands_won == (1, 1)
    assert score.kots == (0, 0)
    assert score.winner(rules) == 1


def test_mendikot_tied_hand_same_dealer_deals_again() -> None:
    # Seed 001: "the same dealer re-deals on ties (rare)".
    rules = rules_for("mendikot", {"deck": "short32"})
    tied = hand_result(None, HandOutcome.TRICKS_TIED)
    assert next_dealer(rules, 2, tied) == 2
    assert MatchScore(dealer=2).after(rules, tied).dealer == 2
