"""A duplicate match played as independent deal pairs by one or more tables at once.

Each table has its own four bots and takes the next deal number from a shared counter; deal N
is played with A at seats 0 and 2, then again with the seats swapped (hands ``2N`` and
``2N + 1``). Pairs come back in any order and are released in deal order: ``on_pair`` (the
sequential test) sees the pair scores as a single table would give them, and the record holds
the hands in deal order. When ``on_pair`` says stop, no table takes another deal; pairs after
the last one released, played meanwhile by other tables, are left out of the outcome and the
record, so that the result does not depend on the number of tables. A pair's hands reach the
record as the pair is released: an interrupted match keeps every pair released before. A forfeit stops the match
at its deal in the same way; a platform fault at any table makes the match void.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from arena.contract.faults import Fault
from arena.contract.messages import SeatEndpoint
from arena.contract.status import OutcomeStatus
from arena.engine.bidding_hand import BiddingHand
from arena.engine.hand import HandState
from arena.engine.match import MatchScore
from arena.referee.match_recorder import MatchRecorder, hand_line
from arena.referee.referee_clock import MONOTONIC, RefereeClock
from arena.referee.table import Table
from arena.referee.table_values import DecisionLog, MatchOutcome, OnHand, PlayedPair, TableConfig

PairCallback = Callable[[PlayedPair], bool]
"""Told each pair in deal order; returns False to stop the match after it."""


@dataclass
class _Schedule:
    """The shared counter and what has come back, released in deal order."""

    count: int
    on_pair: PairCallback
    recorder: MatchRecorder | None = None
    """Gets each pair's hand lines as the pair is released, so an interrupted match keeps them."""
    next_deal: int = 0
    closed: bool = False
    """No table takes another deal (the test decided, or a table forfeited or failed)."""
    decided: bool = False
    """``on_pair`` said stop: nothing after the last pair released counts."""
    released: list[PlayedPair] = field(default_factory=list)
    waiting: dict[int, PlayedPair] = field(default_factory=dict)
    lines: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Hand lines of the record by deal number, until their deal is released."""

    def write(self, number: int) -> None:
        """Deal ``number``'s hand lines, in hand order, to the record."""
        lines = sorted(self.lines.pop(number, []), key=lambda line: int(line["index"]))
        if self.recorder:
            for line in lines:
                self.recorder.hand_line(line)

    def take(self) -> int | None:
        if self.closed or self.next_deal >= self.count:
            return None
        self.next_deal += 1
        return self.next_deal - 1

    def played(self, pair: PlayedPair) -> None:
        self.waiting[pair.number] = pair
        while not self.decided and len(self.released) in self.waiting:
            ready = self.waiting.pop(len(self.released))
            self.released.append(ready)
            self.write(ready.number)
            if not self.on_pair(ready):
                self.decided = self.closed = True


class _TableShare:
    """One table's view of the shared schedule and record (``PairSource`` and ``HandRecorder``)."""

    def __init__(self, schedule: _Schedule) -> None:
        self.schedule = schedule

    def take(self) -> int | None:
        return self.schedule.take()

    def played(self, pair: PlayedPair) -> None:
        self.schedule.played(pair)

    def match_start(self, config: TableConfig, seats: Sequence[str]) -> None:
        return None  # written once for the match

    def hand(self, index: int, state: HandState | BiddingHand, decisions: Sequence[DecisionLog]) -> None:
        self.schedule.lines.setdefault(index // 2, []).append(hand_line(index, state, decisions))

    def match_end(self, outcome: MatchOutcome) -> None:
        return None


async def play_deal_pairs(
    config: TableConfig,
    tables: Sequence[Sequence[SeatEndpoint]],
    recorder: MatchRecorder | None = None,
    on_pair: PairCallback | None = None,
    on_hand: OnHand | None = None,
    clock: RefereeClock = MONOTONIC,
) -> MatchOutcome:
    """Play ``config``'s duplicate deals (at most its count) on ``tables`` (four endpoints each,
    started and closed by the caller) until ``on_pair`` says stop."""
    if not tables:
        raise ValueError("a deal-pair match needs at least one table")
    schedule = _Schedule(config.match_format.count, on_pair or (lambda pair: True), recorder)
    if recorder:
        recorder.match_start(config, [e.name for e in tables[0]])

    async def run(endpoints: Sequence[SeatEndpoint]) -> MatchOutcome:
        share = _TableShare(schedule)
        outcome = await Table(config, endpoints, share, on_hand, clock, pairs=share).run()
        if outcome.forfeit_team is not None or outcome.status is OutcomeStatus.VOID:
            schedule.closed = True  # the match ends here: no table starts another deal
        return outcome

    outcomes = await asyncio.gather(*(run(endpoints) for endpoints in tables))
    outcome = merged(config.match_id, schedule.released, outcomes, schedule.decided)
    if outcome.forfeit_team is not None:
        schedule.write(len(outcome.deal_scores))  # the forfeited hand, as far as it went
    if recorder:
        recorder.match_end(outcome)
    return outcome


def merged(match_id: str, released: Sequence[PlayedPair], outcomes: Sequence[MatchOutcome],
           decided: bool) -> MatchOutcome:
    """The match's outcome from its tables': the pairs released in deal order; a forfeit only if
    the match had not been decided before it (``decided``: a table still playing a later pair
    when the test decided does not change the match), a platform fault always."""
    void = next((o for o in outcomes if o.status is OutcomeStatus.VOID), None)
    forfeits = sorted((_forfeit_deal(o), o.forfeit_team) for o in outcomes
                      if o.forfeit_team is not None and not decided)
    forfeit = forfeits[0] if forfeits else None
    cut = len(released) if forfeit is None else min(len(released), forfeit[0])
    pairs = list(released[:cut])
    out = MatchOutcome(match_id, OutcomeStatus.DONE, None, (0.0, 0.0))
    for pair in pairs:
        out.hands.extend(pair.hands)
        out.hand_values.extend(pair.hand_values)
        out.deal_scores.append(pair.score)
        for seat in range(4):
            out.substitutions[seat] += pair.substitutions[seat]
    out.final = _total_tally(pairs)
    out.score = (float(out.final.points[0]), float(out.final.points[1]))
    out.faults = _faults(outcomes, cut + (1 if forfeit is not None else 0))
    for table in outcomes:
        for seat in range(4):
            out.decision_times[seat].extend(table.decision_times[seat])
    if void is not None:
        out.status, out.void_reason = OutcomeStatus.VOID, void.void_reason
    elif forfeit is not None and forfeit[1] is not None:
        out.forfeit_team = forfeit[1]
        out.winner_team = 1 - forfeit[1]
    else:
        a, b = out.score
        out.winner_team = None if a == b else (0 if a > b else 1)
    return out


def _forfeit_deal(outcome: MatchOutcome) -> int:
    """The deal a table forfeited in (0 for a forfeit at the start)."""
    hands = [f.hand for f in outcome.faults if f.hand is not None]
    return max(hands) // 2 if hands else 0


def _faults(outcomes: Sequence[MatchOutcome], deals: int) -> list[Fault]:
    """Faults in the first ``deals`` deals, and start faults once (every table starts the same
    bots: the first table that had any speaks for them)."""
    starts = next(([f for f in o.faults if f.hand is None] for o in outcomes
                   if any(f.hand is None for f in o.faults)), [])
    played = [f for o in outcomes for f in o.faults if f.hand is not None and f.hand // 2 < deals]
    return starts + sorted(played, key=lambda f: (f.hand or 0, f.decision or 0, f.seat))


def _total_tally(pairs: Sequence[PlayedPair]) -> MatchScore:
    """The pairs' tallies added up: hands played and won, their values and kots per team."""
    def both(values: list[tuple[int, int]]) -> tuple[int, int]:
        return (sum(v[0] for v in values), sum(v[1] for v in values))
    return MatchScore(dealer=0, hands_played=sum(p.tally.hands_played for p in pairs),
                      hands_won=both([p.tally.hands_won for p in pairs]),
                      points=both([p.tally.points for p in pairs]),
                      kots=both([p.tally.kots for p in pairs]))
