"""A bidding game's match at one table (Twenty-eight, Twenty-nine): hands to the rules' target in
game points, or deal pairs. The table plays each hand and each deal (``Table.play_hand``,
``Table.play_deal``) as for the trick-taking games; this module only says which, and keeps the
game points."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Protocol

from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import BiddingRules
from arena.engine.chance import choose_index
from arena.engine.deal import Deal
from arena.engine.match import FormatKind, MatchScore
from arena.referee.hand_kinds import AnyScore, deal_of
from arena.referee.table_values import AnyResult, DealPlays, MatchOutcome, PairSource, TableConfig
from arena.referee.tally import bidding_duplicate_tally


class HandTable(Protocol):
    """What a bidding match needs of the table: its settings, its outcome and its two ways to play."""

    config: TableConfig
    outcome: MatchOutcome
    pairs: PairSource | None
    bidding_final: BiddingMatchScore | None
    """The game points the bots are told at the end: kept up to date, as a forfeit may end the match."""

    async def play_hand(self, index: int, deal: Deal, dealer: int, score: AnyScore,
                        score_after: Callable[[AnyResult], AnyScore]) -> tuple[AnyResult, AnyScore]: ...

    async def play_deal(self, number: int, rotations: tuple[int, ...]) -> tuple[DealPlays, AnyScore]: ...


async def run_bidding(table: HandTable, rules: BiddingRules) -> None:
    """Play the match: deal pairs (the table's ``pairs``, or ``duplicate:N``), or hands to the
    target."""
    if table.pairs is not None:
        await _pairs(table, table.pairs)
    elif table.config.match_format.kind is FormatKind.DUPLICATE:
        await _one_room_pairs(table)
    else:
        await _to_target(table, rules)


async def _pairs(table: HandTable, pairs: PairSource) -> None:
    """Deals as ``pairs`` hands them out (the match's outcome is theirs to score)."""
    while (number := pairs.take()) is not None:
        plays, seen = await table.play_deal(number, pairs.rotations)
        pairs.played(plays)
        table.bidding_final = _game_points(seen)


async def _to_target(table: HandTable, rules: BiddingRules) -> None:
    """Hands to the rules' target in game points (``hands:N`` caps them; a void hand is dealt
    again by the same dealer and counts towards no cap)."""
    config = table.config
    score = BiddingMatchScore(dealer=choose_index(4, config.seed, "first-dealer"))
    number = counted = 0
    while not score.is_over(rules) and counted < config.match_format.count and number < config.max_hands:
        deal = deal_of(rules, config.seed, number)
        result, after = await table.play_hand(number, deal, score.dealer, score, partial(_after, rules, score))
        assert isinstance(after, BiddingMatchScore) and isinstance(result, BiddingResult)
        score = table.bidding_final = after
        counted += not result.void
        table.outcome.score = (float(score.points[0]), float(score.points[1]))
        table.outcome.final = MatchScore(dealer=score.dealer, hands_played=score.hands_played, points=score.points)
        number += 1


async def _one_room_pairs(table: HandTable) -> None:
    """Both plays of every deal of ``duplicate:N`` at this one table: a void play scores 0 (it is
    not dealt again, so both plays of a pair keep the same cards); the outcome's score is the
    duplicate tally of game points."""
    tally = MatchScore(dealer=0)
    for number in range(table.config.match_format.count):
        plays, seen = await table.play_deal(number, (0, 1))
        for result in plays.hands:
            assert isinstance(result, BiddingResult)
            tally = bidding_duplicate_tally(tally, result)
        table.outcome.deal_scores.append(sum(plays.hand_values))
        table.bidding_final = _game_points(seen)
    table.outcome.final = tally
    table.outcome.score = (float(tally.points[0]), float(tally.points[1]))


def _game_points(score: AnyScore) -> BiddingMatchScore:
    assert isinstance(score, BiddingMatchScore)
    return score


def _after(rules: BiddingRules, before: BiddingMatchScore, result: AnyResult) -> BiddingMatchScore:
    assert isinstance(result, BiddingResult)
    return before.after(rules, result)
