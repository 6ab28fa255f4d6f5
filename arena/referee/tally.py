"""A match's score hand by hand, as the referee counts it: the table plays by it and ``dehla
replay`` shows the running score by it, so the two cannot disagree."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from arena.engine.bidding_outcome import BiddingResult
from arena.engine.match import FormatKind, MatchFormat, MatchScore
from arena.engine.outcome import HandResult, hand_value
from arena.engine.rules import Rules


def duplicate_tally(tally: MatchScore, result: HandResult, value: float) -> MatchScore:
    """Duplicate play keeps no kots race: per team, hands won and the value of those hands."""
    if result.winner is None:
        return replace(tally, hands_played=tally.hands_played + 1)
    team = result.winner
    won = list(tally.hands_won)
    points = list(tally.points)
    kots = list(tally.kots)
    won[team] += 1
    points[team] += int(abs(value))
    kots[team] += int(result.kot)
    return replace(tally, hands_played=tally.hands_played + 1, hands_won=(won[0], won[1]),
                   points=(points[0], points[1]), kots=(kots[0], kots[1]))


def bidding_hand_value(result: BiddingResult) -> float:
    """A bidding game's hand for team 0: the bidding team's signed game points, from team 0's side
    (0 for a void hand)."""
    return float(result.game_points if result.bidding_team == 0 else -result.game_points)


def bidding_duplicate_tally(tally: MatchScore, result: BiddingResult) -> MatchScore:
    """A bidding game's duplicate tally: per team, hands won and the game points they were worth
    (a void hand counts as played only)."""
    if result.winner is None:
        return replace(tally, hands_played=tally.hands_played + 1)
    team = result.winner
    won = list(tally.hands_won)
    points = list(tally.points)
    won[team] += 1
    points[team] += abs(result.game_points)
    return replace(tally, hands_played=tally.hands_played + 1, hands_won=(won[0], won[1]),
                   points=(points[0], points[1]))


def running_scores(rules: Rules, match_format: MatchFormat,
                   results: Iterable[HandResult | None]) -> list[tuple[int, int]]:
    """The match score after each hand (``None``: an unfinished hand, which counts nothing), as
    the record's ``match_end`` line gives it at the end: duplicate points, else tens totals
    (``tens:N``), kots or points."""
    tally = MatchScore(dealer=0)
    scores: list[tuple[int, int]] = []
    for result in results:
        if result is not None:
            if match_format.kind is FormatKind.DUPLICATE:
                tally = duplicate_tally(tally, result, hand_value(rules, result))
            else:
                tally = tally.after(rules, result, match_format)
        scores.append(tally.points if match_format.kind is FormatKind.DUPLICATE else tally.score(rules, match_format))
    return scores
