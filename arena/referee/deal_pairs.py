"""A duplicate match played as deal pairs in two rooms, each room on one or more tables at once.

Two rooms, as in duplicate bridge, so that no bot process sees both plays of a deal: room 0's
tables play only deal N's first play (hand ``2N``, partnership A at seats 0 and 2), room 1's only
its second (hand ``2N + 1``, the deal rotated one seat on). A bot that remembers every card of a
first play never meets that deal again. Each table has its own four bots and takes the next deal
number from its room's counter; the rooms play at the same time. A pair is complete when both
rooms have played its deal, and pairs are released in deal order: ``on_pair`` (the sequential
test) sees the pair scores as a single table would give them, and the record holds the hands in
deal order, each ``hand`` line naming its room. One room (every table playing both plays of its
deals, as before rooms existed) is kept for in-process tests and as the control that shows what
the second room closes.

When ``on_pair`` says stop, no table takes another deal; plays after the last pair released are
left out of the outcome and the record, so that the result does not depend on the number of
tables. A forfeit ends the match at its hand: the other tables still play every hand that comes
before it in a single table's order (``2N + rotation``) and nothing after it, so the outcome is
the one a single table would have had. A platform fault at any table makes the match void. A
pair's hands reach the record as the pair is released: an interrupted match keeps every pair
released before.
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
from arena.engine.bidding_outcome import BiddingResult
from arena.engine.hand import HandState
from arena.engine.match import MatchScore
from arena.referee.live_view import LiveSink
from arena.referee.match_recorder import MatchRecorder, hand_line
from arena.referee.referee_clock import MONOTONIC, RefereeClock
from arena.referee.table import Table
from arena.referee.table_values import DealPlays, DecisionLog, MatchOutcome, OnHand, PlayedPair, TableConfig
from arena.referee.tally import bidding_duplicate_tally, duplicate_tally

PairCallback = Callable[[PlayedPair], bool]
"""Told each pair in deal order; returns False to stop the match after it."""
Room = Sequence[Sequence[SeatEndpoint]]
"""A room's tables, four seat endpoints each (partnership A at seats 0 and 2)."""
AT_START = -1
"""The hand of a forfeit at the start (a bot that failed to start): before every hand."""


@dataclass
class _Schedule:
    """The rooms' counters and what has come back, released in deal order."""

    count: int
    rooms: int
    """1: every table plays both plays of its deals; 2: room R's tables play play R only."""
    on_pair: PairCallback
    recorder: MatchRecorder | None = None
    """Gets each pair's hand lines as the pair is released, so an interrupted match keeps them."""
    next_deal: list[int] = field(default_factory=lambda: [0, 0])
    closed: bool = False
    """No table takes another deal (the test decided, or a table failed)."""
    decided: bool = False
    """``on_pair`` said stop: nothing after the last pair released counts."""
    limit: int | None = None
    """The first hand forfeited (``AT_START``: at the start): no table takes a deal whose play
    would come at it or after it."""
    released: list[PlayedPair] = field(default_factory=list)
    waiting: dict[int, list[DealPlays]] = field(default_factory=dict)
    lines: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    """Hand lines of the record by deal number, until their deal is released."""

    def write(self, number: int, last: int | None = None) -> None:
        """Deal ``number``'s hand lines (up to hand ``last``), in hand order, to the record."""
        lines = sorted(self.lines.pop(number, []), key=lambda line: int(line["index"]))
        if self.recorder:
            for line in lines:
                if last is None or int(line["index"]) <= last:
                    self.recorder.hand_line(line)

    def take(self, room: int) -> int | None:
        number = self.next_deal[room]
        first = 2 * number + (room if self.rooms == 2 else 0)
        if self.closed or number >= self.count or (self.limit is not None and first >= self.limit):
            return None
        self.next_deal[room] += 1
        return number

    def forfeited(self, hand: int) -> None:
        self.limit = hand if self.limit is None else min(self.limit, hand)

    def played(self, plays: DealPlays) -> None:
        self.waiting.setdefault(plays.number, []).append(plays)
        while not self.decided and (ready := self._complete(len(self.released))) is not None:
            self.released.append(ready)
            self.write(ready.number)
            if not self.on_pair(ready):
                self.decided = self.closed = True

    def _complete(self, number: int) -> PlayedPair | None:
        """Deal ``number``'s pair once both its plays are back (None before)."""
        plays = self.waiting.get(number, [])
        if sum(len(p.rotations) for p in plays) < 2:
            return None
        del self.waiting[number]
        return paired(number, plays)


def paired(number: int, plays: Sequence[DealPlays]) -> PlayedPair:
    """Deal ``number``'s pair from its plays (one table's two, or one from each room): the hands
    in play order, the duplicate tally of the two, the substitutions added up."""
    ordered = sorted(((rotation, result, value) for p in plays
                      for rotation, result, value in zip(p.rotations, p.hands, p.hand_values, strict=True)),
                     key=lambda play: play[0])
    tally = MatchScore(dealer=0)
    for _, result, value in ordered:
        tally = (bidding_duplicate_tally(tally, result) if isinstance(result, BiddingResult)
                 else duplicate_tally(tally, result, value))
    subs = [sum(p.substitutions[seat] for p in plays) for seat in range(4)]
    return PlayedPair(number, tuple(result for _, result, _ in ordered), tuple(value for _, _, value in ordered),
                      tally, (subs[0], subs[1], subs[2], subs[3]))


class _TableShare:
    """One table's view of the shared schedule and record (``PairSource`` and ``HandRecorder``)."""

    def __init__(self, schedule: _Schedule, room: int | None) -> None:
        """``room``: the room the table plays in (None: one room, both plays of each deal)."""
        self.schedule = schedule
        self.room = room

    @property
    def rotations(self) -> tuple[int, ...]:
        return (0, 1) if self.room is None else (self.room,)

    def take(self) -> int | None:
        return self.schedule.take(self.room or 0)

    def played(self, plays: DealPlays) -> None:
        self.schedule.played(plays)

    def match_start(self, config: TableConfig, seats: Sequence[str]) -> None:
        return None  # written once for the match

    def hand(self, index: int, state: HandState | BiddingHand, decisions: Sequence[DecisionLog]) -> None:
        self.schedule.lines.setdefault(index // 2, []).append(hand_line(index, state, decisions, self.room))

    def match_end(self, outcome: MatchOutcome) -> None:
        return None


async def play_deal_pairs(
    config: TableConfig,
    rooms: Sequence[Room],
    recorder: MatchRecorder | None = None,
    on_pair: PairCallback | None = None,
    on_hand: OnHand | None = None,
    clock: RefereeClock = MONOTONIC,
    live: LiveSink | None = None,
) -> MatchOutcome:
    """Play ``config``'s duplicate deals (at most its count) in ``rooms`` (two: the fair match;
    one: every table plays both plays) until ``on_pair`` says stop. The caller starts and closes
    every table's endpoints. ``live``: told every table's hand after each move (one state a room)."""
    if len(rooms) not in (1, 2) or not all(rooms):
        raise ValueError("a deal-pair match needs one room or two, each with at least one table")
    schedule = _Schedule(config.match_format.count, len(rooms), on_pair or (lambda pair: True), recorder)
    if recorder:
        recorder.match_start(config, [e.name for e in rooms[0][0]])

    async def run(endpoints: Sequence[SeatEndpoint], room: int | None) -> MatchOutcome:
        share = _TableShare(schedule, room)
        outcome = await Table(config, endpoints, share, on_hand, clock, pairs=share, live=live, room=room).run()
        if outcome.status is OutcomeStatus.VOID:
            schedule.closed = True  # the match is void: no table starts another deal
        elif outcome.forfeit_team is not None:
            schedule.forfeited(forfeit_hand(outcome))
        return outcome

    two = len(rooms) == 2
    outcomes = await asyncio.gather(*(run(table, number if two else None)
                                      for number, room in enumerate(rooms) for table in room))
    outcome = merged(config.match_id, schedule.released, outcomes, schedule.decided)
    if outcome.forfeit_team is not None and schedule.limit is not None and schedule.limit != AT_START:
        schedule.write(schedule.limit // 2, schedule.limit)  # the forfeited hand, as far as it went
    if recorder:
        recorder.match_end(outcome)
    return outcome


def merged(match_id: str, released: Sequence[PlayedPair], outcomes: Sequence[MatchOutcome],
           decided: bool) -> MatchOutcome:
    """The match's outcome from its tables': the pairs released in deal order; the first forfeit
    in hand order, only if the match had not been decided before it (``decided``: a table still
    playing a later deal when the test decided does not change the match), a platform fault
    always. Bots of both partnerships failing to start (one in each room) void the match, as they
    do at one table."""
    void = next((o for o in outcomes if o.status is OutcomeStatus.VOID), None)
    forfeits = sorted((forfeit_hand(o), o.forfeit_team) for o in outcomes
                      if o.forfeit_team is not None and not decided)
    forfeit = forfeits[0] if forfeits else None
    cut = len(released) if forfeit is None else min(len(released), max(forfeit[0], 0) // 2)
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
    out.faults = _faults(outcomes, 2 * cut - 1 if forfeit is None else forfeit[0])
    for table in outcomes:
        for seat in range(4):
            out.decision_times[seat].extend(table.decision_times[seat])
    failed_start = {team for hand, team in forfeits if hand == AT_START}
    if void is not None:
        out.status, out.void_reason = OutcomeStatus.VOID, void.void_reason
    elif len(failed_start) == 2:
        out.status, out.void_reason = OutcomeStatus.VOID, "PlatformError: bots of both partnerships failed to start"
    elif forfeit is not None and forfeit[1] is not None:
        out.forfeit_team = forfeit[1]
        out.winner_team = 1 - forfeit[1]
    else:
        a, b = out.score
        out.winner_team = None if a == b else (0 if a > b else 1)
    return out


def forfeit_hand(outcome: MatchOutcome) -> int:
    """The hand a table forfeited in (``AT_START`` for a forfeit at the start): its last fault's,
    since under the forfeit policy a table's first fault in play ends it."""
    hands = [f.hand for f in outcome.faults if f.hand is not None]
    return max(hands) if hands else AT_START


def _faults(outcomes: Sequence[MatchOutcome], last: int) -> list[Fault]:
    """Faults up to hand ``last``, and each seat's failed start once (every table starts the same
    bots: the first table whose bot at that seat failed speaks for them)."""
    starts: dict[int, Fault] = {}
    for outcome in outcomes:
        for fault in outcome.faults:
            if fault.hand is None:
                starts.setdefault(fault.seat, fault)
    played = [f for o in outcomes for f in o.faults if f.hand is not None and f.hand <= last]
    return [starts[seat] for seat in sorted(starts)] + sorted(played, key=lambda f: (f.hand or 0, f.decision or 0,
                                                                                        f.seat))


def _total_tally(pairs: Sequence[PlayedPair]) -> MatchScore:
    """The pairs' tallies added up: hands played and won, their values and kots per team."""
    def both(values: list[tuple[int, int]]) -> tuple[int, int]:
        return (sum(v[0] for v in values), sum(v[1] for v in values))
    return MatchScore(dealer=0, hands_played=sum(p.tally.hands_played for p in pairs),
                      hands_won=both([p.tally.hands_won for p in pairs]),
                      points=both([p.tally.points for p in pairs]),
                      kots=both([p.tally.kots for p in pairs]))
