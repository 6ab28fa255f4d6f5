"""One table: a match between four seat endpoints, with clocks, faults and the match format.

Bots keep their seats for the whole match (partnership A at seats 0 and 2). In ``duplicate``
format each deal is played a second time rotated one seat on, dealer included, so the other
partnership holds the same cards in the same relation to the dealer. A table given no
``PairSource`` plays both plays with the same four bots (one room: a bot that remembers the
first play knows every hand in the second); real matches play duplicate in two rooms through
``arena.referee.deal_pairs``, each table then playing one play of each deal.

The table plays a trick-taking game's match itself; a bidding game's (Twenty-eight) is
``arena.referee.bidding_match``'s, through the same ``play_hand`` and ``play_deal``. What differs
per game within a hand is ``arena.referee.hand_kinds``'s.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from arena.contract.faults import Fault, FaultKind, FaultPolicy, PlatformError
from arena.contract.messages import (
    BotFault,
    DecisionReply,
    MatchEnd,
    MatchStart,
    Move,
    SeatEndpoint,
    Termination,
)
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import SeatClock
from arena.engine.bidding_outcome import BiddingMatchScore, BiddingResult
from arena.engine.bidding_rules import BiddingRules
from arena.engine.chance import choose_index
from arena.engine.deal import Deal
from arena.engine.match import FormatKind, MatchScore
from arena.engine.rules import Rules
from arena.referee.bidding_match import run_bidding
from arena.referee.hand_kinds import (
    AnyHand,
    AnyScore,
    apply_move,
    deal_of,
    decision_request,
    fresh_score,
    hand_end,
    new_hand,
    pair_score_after,
    substitute_action,
    value_of,
    why_illegal,
)
from arena.referee.live_view import LiveSink
from arena.referee.match_recorder import HandRecorder
from arena.referee.referee_clock import MONOTONIC, RefereeClock
from arena.referee.seeds import seat_seed
from arena.referee.table_values import (
    AnyResult,
    DealPlays,
    DecisionLog,
    MatchOutcome,
    OnHand,
    PairSource,
    TableConfig,
)

NOTIFY_TIMEOUT = 2.0
"""Seconds a bot gets to acknowledge end-of-hand and end-of-match notifications."""


class _Forfeit(Exception):  # noqa: N818 - control flow, never escapes this module
    def __init__(self, team: int) -> None:
        super().__init__(team)
        self.team = team


@dataclass(frozen=True, slots=True)
class ReplyFault:
    """What was wrong with a seat's answer to a decision, before it is recorded as a ``Fault``."""

    kind: FaultKind
    detail: str
    """In the referee's own words (sent to every seat)."""
    evidence: str = ""
    """What the bot sent or said (the record only)."""


def _counted(rules: Rules, config: TableConfig, before: MatchScore, result: AnyResult) -> MatchScore:
    """A trick-taking match's score after a hand, by its format."""
    assert not isinstance(result, BiddingResult)
    return before.after(rules, result, match_format=config.match_format)


class Table:
    """Runs one match. The caller owns the endpoints (starts and closes the bots)."""

    def __init__(self, config: TableConfig, endpoints: Sequence[SeatEndpoint],
                 recorder: HandRecorder | None = None,
                 on_hand: OnHand | None = None,
                 clock: RefereeClock = MONOTONIC, pairs: PairSource | None = None,
                 live: LiveSink | None = None, room: int | None = None) -> None:
        """``pairs``: play the deals it hands out, the plays it says (a duplicate match shared by
        several tables, in one room or two) instead of the match format's deals. ``live``: told
        the hand after every move, for spectators (``arena.referee.live_view``), as ``room``'s table."""
        if len(endpoints) != 4:
            raise ValueError("a table needs four seat endpoints")
        self.config = config
        self.endpoints = list(endpoints)
        self.recorder = recorder
        self.on_hand = on_hand
        self.clock = clock
        self.pairs = pairs
        self.live = live
        self.room = room
        self.clocks = [SeatClock.new(config.time_control_of(seat)) for seat in range(4)]
        self.dead = [False, False, False, False]
        self.outcome = MatchOutcome(config.match_id, OutcomeStatus.DONE, None, (0.0, 0.0))
        self.bidding_final: BiddingMatchScore | None = None
        """A bidding game's game points at the end (what ``EndMatch`` tells the bots)."""

    async def run(self) -> MatchOutcome:
        config = self.config
        if self.recorder:
            self.recorder.match_start(config, [e.name for e in self.endpoints])
        try:
            await self._start_all()
            if isinstance(config.rules, BiddingRules):
                await run_bidding(self, config.rules)
            elif self.pairs is not None:
                await self._run_pairs(self.pairs)
            elif config.match_format.kind is FormatKind.DUPLICATE:
                await self._run_duplicate()
            else:
                await self._run_match()
            self._decide_winner()
        except _Forfeit as forfeit:
            self.outcome.forfeit_team = forfeit.team
            self.outcome.winner_team = 1 - forfeit.team
        except Exception as exc:  # anything not a bot fault is the platform's
            self.outcome.status = OutcomeStatus.VOID
            self.outcome.winner_team = None
            while isinstance(exc, ExceptionGroup):
                exc = exc.exceptions[0]
            self.outcome.void_reason = f"{type(exc).__name__}: {exc}"
        outcome = self.outcome
        termination = (Termination.ABORTED if outcome.status is OutcomeStatus.VOID else
                       Termination.FAULT if outcome.forfeit_team is not None else Termination.COMPLETED)
        score: MatchScore | BiddingMatchScore = (
            self.bidding_final if self.bidding_final is not None else outcome.final or MatchScore(dealer=0))
        end = MatchEnd(termination, outcome.winner_team, score, tuple(outcome.faults))
        await self._notify_all(lambda seat: self.endpoints[seat].end_match(end, NOTIFY_TIMEOUT))
        if self.recorder:
            self.recorder.match_end(self.outcome)
        return self.outcome

    # ------------------------------------------------------------------ phases
    async def _start_all(self) -> None:
        config = self.config

        async def start(seat: int) -> None:
            start = MatchStart(config.match_id, seat, seat ^ 2, config.preset, config.rules,
                               config.match_format, config.time_control_of(seat), config.policy,
                               seat_seed(config.seed, seat))
            try:
                await self.endpoints[seat].start(start, config.time_control.startup)
            except BotFault as exc:
                self._record_fault(seat, FaultKind.FAILED_START, f"{exc.kind.value}: {exc.detail}",
                                   None, None, evidence=exc.evidence)

        # A platform error in one start cancels the others before the match is declared void.
        async with asyncio.TaskGroup() as group:
            for seat in range(4):
                group.create_task(start(seat))
        failed = {f.seat & 1 for f in self.outcome.faults}
        if failed and config.policy is FaultPolicy.FORFEIT:
            if len(failed) == 2:
                raise PlatformError("bots of both partnerships failed to start")
            raise _Forfeit(failed.pop())
        for fault in self.outcome.faults:
            self.dead[fault.seat] = True

    async def _run_duplicate(self) -> None:
        """Both plays of every deal of ``duplicate:N`` at this table: the bots see the running
        duplicate tally of the whole match."""
        config = self.config
        rules = self._trick_rules()
        tally = MatchScore(dealer=0)
        for number in range(config.match_format.count):
            deal = deal_of(rules, config.seed, number)
            pair = 0.0
            for rotation in (0, 1):
                dealer = (number + rotation) % 4
                before = replace(tally, dealer=dealer)
                # Either play of deal N is followed by the first play of deal N + 1.
                counted = partial(pair_score_after, rules, before, (number + 1) % 4)
                result, after = await self.play_hand(len(self.outcome.hands), deal.rotated(rotation),
                                                     dealer, before, counted)
                assert isinstance(after, MatchScore)
                tally = after
                pair += value_of(rules, result)
            self.outcome.deal_scores.append(pair)
            self.outcome.final = tally
            self.outcome.score = (float(tally.points[0]), float(tally.points[1]))

    async def _run_pairs(self, pairs: PairSource) -> None:
        """Deals as ``pairs`` hands them out, each on its own, playing ``pairs.rotations`` of each."""
        while (number := pairs.take()) is not None:
            plays, _ = await self.play_deal(number, pairs.rotations)
            pairs.played(plays)

    async def play_deal(self, number: int, rotations: tuple[int, ...]) -> tuple[DealPlays, AnyScore]:
        """Deal N's plays ``rotations``: hand ``2N + rotation`` is its play ``rotation`` (dealer
        N + rotation). The tally the bots see counts this table's plays of this deal only (both in
        one room, the room's one in two), so what a bot sees of a deal does not depend on which
        deals this table played before it, nor on what the other room did. Returns the plays and
        the score after the last."""
        rules = self.config.rules
        deal = deal_of(rules, self.config.seed, number)
        first = len(self.outcome.hands)
        substituted = list(self.outcome.substitutions)
        seen = fresh_score(rules, (number + rotations[0]) % 4)
        # The next hand this table plays is deal N + 1's first play of its own (dealer N + 1,
        # or N + 2 in room 1); between one room's two plays, the second (dealer N + 1).
        next_dealer = (number + 1 + rotations[0]) % 4
        for rotation in rotations:
            dealer = (number + rotation) % 4
            before = replace(seen, dealer=dealer)
            counted = partial(pair_score_after, rules, before, next_dealer)
            _, seen = await self.play_hand(2 * number + rotation, deal.rotated(rotation), dealer, before, counted)
        subs = [now - then for now, then in zip(self.outcome.substitutions, substituted, strict=True)]
        plays = DealPlays(number, rotations, tuple(self.outcome.hands[first:]),
                          tuple(self.outcome.hand_values[first:]), (subs[0], subs[1], subs[2], subs[3]))
        return plays, seen

    async def _run_match(self) -> None:
        config = self.config
        rules = self._trick_rules()
        score = MatchScore(dealer=choose_index(4, config.seed, "first-dealer"))
        number = 0
        while not score.is_over(rules, config.match_format) and number < config.max_hands:
            deal = deal_of(rules, config.seed, number)
            _, after = await self.play_hand(number, deal, score.dealer, score,
                                            partial(_counted, rules, config, score))
            assert isinstance(after, MatchScore)
            score = after
            a, b = score.score(rules, config.match_format)
            self.outcome.score = (float(a), float(b))
            self.outcome.final = score
            number += 1

    def _trick_rules(self) -> Rules:
        """The rules of a trick-taking game's match (a bidding game's play ``run_bidding``)."""
        rules = self.config.rules
        assert isinstance(rules, Rules)
        return rules

    def _decide_winner(self) -> None:
        a, b = self.outcome.score
        self.outcome.winner_team = None if a == b else (0 if a > b else 1)

    # ------------------------------------------------------------------- hands
    async def play_hand(self, index: int, deal: Deal, dealer: int, score: AnyScore,
                        score_after: Callable[[AnyResult], AnyScore]) -> tuple[AnyResult, AnyScore]:
        """Play one hand of the match's game; every seat's end-of-hand message carries
        ``score_after(result)``, the score after it (in duplicate, the running tally with this
        hand counted), which is returned too."""
        rules = self.config.rules
        state = new_hand(rules, deal, dealer)
        decisions: list[DecisionLog] = []
        points = (float(score.points[0]), float(score.points[1]))
        moves = 0
        while not state.is_over:
            if self.live:
                self.live.moved(self.room, index, state, points, moves)
            seat = state.to_move
            assert seat is not None
            apply_move(state, await self._decide(state, seat, index, score, decisions))
            moves += 1
        if self.live:
            self.live.moved(self.room, index, state, points, moves)
        result = state.result
        assert result is not None
        self.outcome.hands.append(result)
        self.outcome.hand_values.append(value_of(rules, result))
        if self.recorder:
            self.recorder.hand(index, state, decisions)
        if self.on_hand:
            self.on_hand(index, result)
        after = score_after(result)
        ends = [hand_end(index, deal, state, seat, score, after) for seat in range(4)]
        await self._notify_all(lambda seat: self.endpoints[seat].end_hand(ends[seat], NOTIFY_TIMEOUT))
        return result, after

    async def _decide(self, state: AnyHand, seat: int, hand: int, score: AnyScore | None,
                      decisions: list[DecisionLog]) -> Move:
        legal: tuple[Move, ...] = state.legal_actions()
        clock = self.clocks[seat]
        decision = state.decision
        assert decision is not None  # a seat to move has a decision to make
        request_id = secrets.token_hex(8)
        fault: ReplyFault | None = None
        elapsed = 0.0
        action: Move | None = None
        release = 0.0  # when the move may reach the table (``self.clock`` time; 0: at once)
        if not self.dead[seat]:
            request = decision_request(state, seat, score, request_id, hand, clock)
            start = self.clock.now()
            try:
                reply: DecisionReply | None = await self.endpoints[seat].decide(request, clock.deadline)
            except BotFault as exc:
                reply, fault = None, ReplyFault(exc.kind, exc.detail, exc.evidence)
            elapsed = self.clock.now() - start
            settled = clock.settle(elapsed)
            within = settled.within
            release = start + settled.release_at
            if fault is None and reply is not None:
                fault = self._check_reply(state, reply, request_id, legal, within, elapsed, clock)
                action = reply.action if fault is None else None
        substituted = action is None
        if fault is not None:
            self._record_fault(seat, fault.kind, fault.detail, hand, len(decisions), request_id, fault.evidence)
            if self.config.policy is FaultPolicy.FORFEIT:
                decisions.append(DecisionLog(hand, seat, request_id, decision, len(legal), None,
                                             elapsed, clock.bank_left, fault.kind, False))
                if self.recorder:
                    self.recorder.hand(hand, state, decisions)
                raise _Forfeit(seat & 1)
            if fault.kind is FaultKind.CRASH:
                self.dead[seat] = True
        if action is None:
            action = substitute_action(legal)
            self.outcome.substitutions[seat] += 1
        else:
            self.outcome.decision_times[seat].append(elapsed)
        decisions.append(DecisionLog(hand, seat, request_id, decision, len(legal), action,
                                     elapsed, clock.bank_left, fault.kind if fault else None, substituted))
        await self.clock.hold_until(release)
        return action

    @staticmethod
    def _check_reply(state: AnyHand, reply: DecisionReply, request_id: str,
                     legal: Sequence[Move], within: bool, elapsed: float,
                     clock: SeatClock) -> ReplyFault | None:
        """The fault in this reply, if any."""
        if not within:
            return ReplyFault(FaultKind.TIMEOUT, f"answered after {elapsed:.3f} s; allowance was "
                                                 f"{clock.control.per_move:.3f} s + bank")
        if reply.request_id != request_id:
            return ReplyFault(FaultKind.MALFORMED_REPLY, f"reply echoes another request id, expected {request_id!r}",
                              f"echoed request id: {reply.request_id!r}")
        if reply.action not in legal:
            why = why_illegal(state, reply.action)
            return ReplyFault(FaultKind.ILLEGAL_ACTION, why)
        return None

    def _record_fault(self, seat: int, kind: FaultKind, detail: str, hand: int | None,
                      decision: int | None, request_id: str = "", evidence: str = "") -> None:
        fault = Fault(seat, self.endpoints[seat].name, kind, detail, hand, decision, request_id, evidence)
        self.outcome.faults.append(fault)

    async def _notify_all(self, send: Any) -> None:
        """Best-effort notifications: a failing bot here is caught at its next decision."""
        async def one(seat: int) -> None:
            if self.dead[seat]:
                return
            try:
                await send(seat)
            except BotFault:
                return
        await asyncio.gather(*(one(s) for s in range(4)))
