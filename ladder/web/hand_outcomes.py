"""Each hand's result and the match score after it, as the referee counts them: the match page
lists them and the replay shows the running score from them, so the two cannot disagree."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from arena.engine.bidding_records import is_bidding_record
from arena.engine.errors import ArenaError
from arena.engine.hand_records import replay_record
from arena.engine.match import FormatKind, MatchFormat
from arena.engine.outcome import hand_value
from arena.referee.tally import running_scores
from arena.replay.duplicate import partner_hand
from ladder.web.models import HandLink
from ladder.web.stored_record import MatchRecord


@dataclass(frozen=True, slots=True)
class HandOutcome:
    """One hand: who won it, what it was worth to partnership A, the match score after it."""

    hand: int
    """From 1."""
    winner: int | None
    """0 (A), 1 (B), or ``None``: drawn, or not finished."""
    finished: bool
    value: float
    """For partnership A: +v won, −v lost, 0 drawn."""
    score: tuple[int, int]
    """The match score (A, B) after this hand, in the format's own unit."""
    deal_pair: int | None
    """A duplicate match's other play of this deal (its hand number), if the record has it."""


def hand_outcomes(match_format: str, hands: Sequence[Any]) -> list[HandOutcome] | None:
    """The hands' outcomes, or ``None`` when the record cannot say (a bidding game, counted in
    game points elsewhere; a format or hand that does not parse: the page names that problem)."""
    if not hands or any(is_bidding_record(record) for record in hands):
        return None
    try:
        parsed = MatchFormat.parse(match_format)
        states = [replay_record(record, require_complete=False) for record in hands]
    except ArenaError:
        return None
    rules = states[0].rules
    scores = running_scores(rules, parsed, [state.result for state in states])
    duplicate = parsed.kind is FormatKind.DUPLICATE
    outcomes = []
    for number, (state, score) in enumerate(zip(states, scores, strict=True), start=1):
        result = state.result
        other = partner_hand(number)
        outcomes.append(HandOutcome(
            hand=number, winner=result.winner if result is not None else None, finished=result is not None,
            value=hand_value(rules, result) if result is not None else 0.0, score=score,
            deal_pair=other if duplicate and other <= len(hands) else None))
    return outcomes


def hand_links(record: MatchRecord, page: str) -> list[HandLink]:
    """A match page's hands: each one's replay (under the match's ``page``), its result and the
    score after it, and its deal pair's duplicate view."""
    outcomes = hand_outcomes(record.start.format, [line.record for line in record.hands])
    links = []
    for line in record.hands:
        number = line.index + 1
        link = HandLink(hand=number, complete=line.complete, replay=f"{page}/replay?hand={number}")
        outcome = outcomes[number - 1] if outcomes is not None else None
        if outcome is not None and outcome.finished:
            winner = "draw" if outcome.winner is None else "AB"[outcome.winner]
            link = link.model_copy(update={"winner": winner, "value": outcome.value, "score": outcome.score})
        if outcome is not None and outcome.deal_pair is not None:
            first = min(number, outcome.deal_pair)
            link = link.model_copy(update={"duplicate": f"{page}/replay?hand={first}&duplicate=1"})
        links.append(link)
    return links
