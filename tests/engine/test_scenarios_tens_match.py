"""Tens-total matches (``tens:N``).

rules.md, "Tens-total matches (seed 001, 'Dehla Pakad style')"; seed 001, Variations:
"Dehla Pakad style: Runs Mendikot together with Dehla Pakad scoring, accumulating tens across
several deals as stepping points toward a match total."
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.engine.errors import MatchFormatError
from arena.engine.match import FormatKind, MatchFormat, MatchScore
from arena.engine.outcome import HandOutcome, HandResult
from arena.engine.rules import Rules, rules_for
from arena.engine.selfplay import selfplay_hands
from tests.scenario_helpers import hand_result

DP = rules_for("dehla-pakad")
MENDIKOT = rules_for("mendikot")


def tens_split(team0: int, winner: int | None = None) -> HandResult:
    """A hand in which team 0 captured ``team0`` of the four tens (team 1 the rest)."""
    outcome = {4: HandOutcome.FOUR_TENS, 3: HandOutcome.THREE_TENS}.get(max(team0, 4 - team0),
                                                                       HandOutcome.TWO_TWO_NON_DEALER)
    if winner is None and team0 != 2:
        winner = 0 if team0 > 2 else 1
    result = hand_result(winner, outcome, kot=max(team0, 4 - team0) == 4)
    return HandResult(result.winner, result.outcome, (team0, 4 - team0), result.tricks_won,
                      result.tricks_captured, 13, result.kot, False, False, 0)


def play(fmt: MatchFormat, splits: list[int], rules: Rules = DP) -> tuple[MatchScore, int]:
    """Count hands in order until the match is over; the score and the hands it took."""
    score = MatchScore(dealer=0)
    for played, team0 in enumerate(splits, 1):
        score = score.after(rules, tens_split(team0), fmt)
        if score.is_over(rules, fmt):
            return score, played
    return score, len(splits)


def test_parse_and_print() -> None:
    fmt = MatchFormat.parse("tens:10")
    assert fmt == MatchFormat(FormatKind.TENS, 10)
    assert str(fmt) == "tens:10"


@pytest.mark.parametrize("text", ["tens:0", "tens:x", "tens", "tens:-3", "tens:"])
def test_bad_targets_are_refused_in_one_line(text: str) -> None:
    with pytest.raises(MatchFormatError) as info:
        MatchFormat.parse(text)
    assert "\n" not in str(info.value)
    assert repr(text) in str(info.value)


def test_tens_accumulate_across_deals_towards_the_match_total() -> None:
    # Seed 001: "accumulating tens across several deals as stepping points toward a match total".
    fmt = MatchFormat.parse("tens:8")
    score, hands = play(fmt, [3, 1, 2, 4, 1])
    # Team 0: 3, 4, 6, 10 -> reaches 8 at the fourth hand; team 1: 1, 4, 6, 6.
    assert hands == 4
    assert score.tens == (10, 6)
    assert score.score(DP, fmt) == (10, 6)
    assert score.winner(DP, fmt) == 0
    assert score.hands_played == 4


def test_the_first_team_to_reach_the_target_wins_even_if_it_won_fewer_hands() -> None:
    # rules.md: "the first team to reach it wins the match" (tens, not hands or kots, decide).
    fmt = MatchFormat.parse("tens:6")
    score, hands = play(fmt, [1, 1, 4])
    # Team 1: 3, 6 -> reaches 6 after two hands, having won both; then the match is over.
    assert hands == 2
    assert score.tens == (2, 6)
    assert score.winner(DP, fmt) == 1
    # The other scores go on as usual beside the tens.
    assert score.hands_won == (0, 2)


def test_both_teams_past_the_target_in_one_hand_more_tens_wins() -> None:
    # Reading (rules-interpretation.md): both pass N in the same hand -> the higher total wins.
    fmt = MatchFormat.parse("tens:5")
    score, hands = play(fmt, [2, 2, 3])
    # After two hands: 4-4; the third (3-1) takes team 0 to 7 and team 1 to 5.
    assert hands == 3
    assert score.tens == (7, 5)
    assert score.winner(DP, fmt) == 0


def test_level_at_or_past_the_target_plays_on_until_a_hand_parts_them() -> None:
    fmt = MatchFormat.parse("tens:4")
    score = MatchScore(dealer=0)
    score = score.after(DP, tens_split(2), fmt).after(DP, tens_split(2), fmt)
    assert score.tens == (4, 4)
    assert not score.is_over(DP, fmt)
    score = score.after(DP, tens_split(2), fmt)
    assert score.tens == (6, 6)
    assert not score.is_over(DP, fmt)
    score = score.after(DP, tens_split(1), fmt)
    assert score.tens == (7, 9)
    assert score.is_over(DP, fmt)
    assert score.winner(DP, fmt) == 1


def test_other_formats_count_no_tens_and_write_none() -> None:
    score = MatchScore(dealer=0).after(DP, tens_split(3), MatchFormat.parse("hands:4"))
    assert score.tens == (0, 0)
    assert "tens" not in score.to_json()
    tens = MatchScore(dealer=0).after(DP, tens_split(3), MatchFormat.parse("tens:4"))
    assert tens.to_json()["tens"] == [3, 1]


@pytest.mark.parametrize("preset", ["dehla-pakad", "dehla-pakad-cut", "dehla-pakad-hidden", "mendikot",
                                    "mendikot-closed"])
def test_games_decided_on_tens_accept_the_format(preset: str) -> None:
    MatchFormat.parse("tens:10").check(rules_for(preset))


@pytest.mark.parametrize("preset", ["court-piece", "court-piece-double-sir"])
def test_court_piece_refuses_it_in_one_line(preset: str) -> None:
    # Court Piece decides hands on tricks (rules.md "7 tricks"), so tens are no match score there.
    with pytest.raises(MatchFormatError, match="seven_tricks") as info:
        MatchFormat.parse("tens:10").check(rules_for(preset))
    assert "\n" not in str(info.value)


def test_other_formats_are_valid_everywhere() -> None:
    MatchFormat.parse("kots:3").check(rules_for("court-piece"))


@given(target=st.integers(1, 30), splits=st.lists(st.integers(0, 4), min_size=1, max_size=40))
def test_the_match_ends_exactly_when_a_team_leads_at_or_past_the_target(target: int, splits: list[int]) -> None:
    fmt = MatchFormat(FormatKind.TENS, target)
    score = MatchScore(dealer=0)
    for team0 in splits:
        before = score
        score = score.after(MENDIKOT, tens_split(team0), fmt)
        assert score.tens[0] + score.tens[1] == 4 * score.hands_played
        assert score.tens == (before.tens[0] + team0, before.tens[1] + 4 - team0)
        over = score.is_over(MENDIKOT, fmt)
        assert over == (max(score.tens) >= target and score.tens[0] != score.tens[1])
        if over:
            winner = score.winner(MENDIKOT, fmt)
            assert winner is not None and score.tens[winner] >= target
            assert score.tens[winner] > score.tens[1 - winner]
            break
        assert max(before.tens) < target or before.tens[0] == before.tens[1]


@pytest.mark.parametrize("preset", ["dehla-pakad", "mendikot"])
def test_real_hands_count_all_four_tens_each(preset: str) -> None:
    rules = rules_for(preset)
    fmt = MatchFormat.parse("tens:12")
    score = MatchScore(dealer=0)
    for state, _ in selfplay_hands(rules, 6, seed=29):
        assert state.result is not None
        assert sum(state.result.tens) == 4
        score = score.after(rules, state.result, fmt)
    assert sum(score.tens) == 24
