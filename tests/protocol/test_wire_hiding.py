"""Information hiding, checked on the wire: only the engine's per-seat view ever reaches a seat.

At random points of random hands (fixed seeds), the seat to move gets its Decide twice over
real gRPC: once for the real state, once for a state whose cards that the seat has not seen
(the other hands, every seat's cards to come, a face-down trump it did not set, the maker's
face-down discards) are redistributed. The raw request bytes that reach the bot's server must be the same, except for
the random request id. A negative control swaps a card of the seat's own hand, which must show.

The requests are built by the referee's own decision step (``Table._decide``: observation,
clock, request id, conversion) and sent through ``GrpcSeat`` to an SDK bot served in this
process; a server interceptor keeps each request's bytes before the SDK decodes them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import grpc
import pytest

from arena.contract.messages import MatchStart
from arena.contract.time_control import TimeControl
from arena.engine.actions import RevealTrump
from arena.engine.cards import Card, cards_of
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat, MatchScore
from arena.engine.rules import PRESETS, Rules, rules_for
from arena.engine.seats import SEATS
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.table import Table
from arena.referee.table_values import DecisionLog, TableConfig
from sdk.bot import Bot, BotView
from sdk.server import serve
from tests.bots.common import first_legal
from tests.engine_helpers import permuted, play_hand, twin_worlds, unseen_by

HANDS = 5
"""Hands per preset; each visits about a third of its decisions, and every decision taken
while cards are still to be dealt (setting trumps)."""
VISIT_RATE = 0.35
CLOCK = TimeControl(per_move=30.0, bank=0.0, startup=5.0)
"""No decision here comes near 30 s, so the bank (sent in every request) never changes."""


WIRE_RULES: dict[str, Rules] = {preset: rules_for(preset) for preset in PRESETS} | {
    # Seed 003's blind face-down trump: unseen by its holder too, so moved for every seat.
    "court-piece-double-sir hidden_blind=true": rules_for("court-piece-double-sir", {"hidden_blind": True}),
    # A declined call: the turned-up card is public, the later packets were unseen.
    "court-piece decline=second_packet": rules_for("court-piece", {"decline": "second_packet"}),
}
"""Every preset, and the rule variants whose hiding differs from theirs; named as the preset
(the first word) plus the options."""


class FirstLegalBot(Bot):
    name = "first-legal"

    def play(self, view: BotView) -> Card | RevealTrump:
        return first_legal(view)


class DecideTee(grpc.ServerInterceptor):  # type: ignore[misc]
    """Keeps the raw bytes of every Decide request, then lets the SDK's handler decode them."""

    def __init__(self) -> None:
        self.requests: list[bytes] = []

    def intercept_service(self, continuation: Callable[[Any], Any], details: Any) -> Any:
        handler = continuation(details)
        if handler is None or not details.method.endswith("/Decide"):
            return handler
        decode = handler.request_deserializer

        def tee(raw: bytes) -> Any:
            self.requests.append(raw)
            return decode(raw)

        return grpc.unary_unary_rpc_method_handler(handler.unary_unary, request_deserializer=tee,
                                                   response_serializer=handler.response_serializer)


@dataclass(frozen=True)
class RecordingBot:
    address: str
    tee: DecideTee


@pytest.fixture(scope="module")
def recording_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RecordingBot]:
    """An SDK bot served in this process on a unix socket, with the Decide tee in front."""
    address = f"unix:{tmp_path_factory.mktemp('wire') / 'bot.sock'}"
    tee = DecideTee()
    server, _ = serve(FirstLegalBot(), address, interceptors=[tee])
    yield RecordingBot(address, tee)
    server.stop(None)


@dataclass(frozen=True)
class Point:
    """One decision: the real state, a redistribution of what the seat to move cannot see,
    and (if possible) a control that changes the seat's own hand."""

    hand_index: int
    dealer: int
    seat: int
    real: HandState
    imagined: HandState
    control: HandState | None
    moved: bool
    """The redistribution moved at least one card (it may, by chance, move none)."""
    hides_trump: bool
    """A face-down trump the seat did not set is among the redistributed cards."""
    to_come: bool
    """Cards still to be dealt are among them."""
    hides_discard: bool = False
    """A face-down discard the seat did not play is among them (maker_discard: face_down)."""


def sample_points(preset: str) -> list[Point]:
    rules = WIRE_RULES[preset]
    seeds = random.Random(f"wire-hiding/{preset}")
    points: list[Point] = []
    # A blind face-down trump has no hide decision and comes up early: more hands for as many points.
    for index in range(3 * HANDS if rules.hidden_blind else HANDS):
        dealer = index % 4

        def visit(state: HandState, rng: random.Random, index: int = index, dealer: int = dealer) -> None:
            if state.is_over:
                return
            to_come = any(state.undealt(s) for s in SEATS)
            if not to_come and rng.random() > VISIT_RATE:  # the rare deals-to-come points: always
                return
            seat = state.to_move
            assert seat is not None
            unseen = unseen_by(state, seat)
            imagined = permuted(state, dict(zip(unseen, rng.sample(unseen, len(unseen)), strict=True)))
            own = cards_of(state.hand(seat))
            control = None
            if own and unseen:
                mine, theirs = rng.choice(own), rng.choice(unseen)
                control = permuted(state, {mine: theirs, theirs: mine})
            moved = (any(imagined.hand(s) != state.hand(s) or imagined.undealt(s) != state.undealt(s) for s in SEATS)
                     or imagined.hidden_card != state.hidden_card
                     or imagined.face_down_cards != state.face_down_cards)
            points.append(Point(
                index, dealer, seat, state.clone(), imagined, control, moved,
                hides_trump=state.hidden_card is not None and (seat != state.first_player or rules.hidden_blind),
                to_come=to_come,
                hides_discard=bool(state.face_down_cards) and seat != state.first_player,
            ))

        play_hand(rules, seeds.randrange(2**63), dealer, seeds.randrange(2**32), visit)
    return points


async def wire_requests(bot: RecordingBot, preset: str, points: list[Point]) -> list[tuple[bytes, ...]]:
    """For each point, the bytes seat ``point.seat`` receives for the real, the imagined and the
    control state, with each request id replaced by the real request's (they are random)."""
    rules = WIRE_RULES[preset]
    preset = preset.split(maxsplit=1)[0]
    config = TableConfig(f"wire-{preset}", rules, preset, MatchFormat.parse("hands:1"), 0, CLOCK)
    endpoint = GrpcSeat("recorder", bot.address)
    table = Table(config, [endpoint] * 4)
    results: list[tuple[bytes, ...]] = []
    try:
        await endpoint.start(MatchStart(config.match_id, 0, 2, preset, rules, config.match_format, CLOCK),
                             CLOCK.startup)

        async def request(point: Point, state: HandState) -> tuple[bytes, str]:
            log: list[DecisionLog] = []
            before = len(bot.tee.requests)
            await table._decide(state, point.seat, point.hand_index, MatchScore(dealer=point.dealer), log)
            (raw,) = bot.tee.requests[before:]
            (decision,) = log
            assert decision.fault is None, decision
            assert raw.count(decision.request_id.encode()) == 1
            return raw, decision.request_id

        for point in points:
            real, real_id = await request(point, point.real)
            sent = [real]
            for state in (point.imagined, point.control):
                if state is not None:
                    raw, request_id = await request(point, state)
                    sent.append(raw.replace(request_id.encode(), real_id.encode()))
            results.append(tuple(sent))
    finally:
        await endpoint.close()
    return results


@pytest.mark.parametrize("preset", list(WIRE_RULES))
def test_redistributing_unseen_cards_leaves_the_request_bytes_unchanged(
    recording_bot: RecordingBot, preset: str
) -> None:
    points = sample_points(preset)
    sent = asyncio.run(wire_requests(recording_bot, preset, points))
    controls = 0
    for point, (real, imagined, *control) in zip(points, sent, strict=True):
        where = f"{preset}: hand {point.hand_index}, seat {point.seat}, after {len(point.real.history)} actions"
        assert imagined == real, f"{where}: the request changed when unseen cards were redistributed"
        if control:
            assert control[0] != real, f"{where}: swapping a card of the seat's own hand did not show"
            controls += 1
    # The sample reaches what it claims to test.
    assert sum(p.moved for p in points) >= 20
    assert controls >= 20
    rules = WIRE_RULES[preset]
    if rules.trump.value == "hidden":
        assert sum(p.hides_trump and p.moved for p in points) >= 5
    if rules.hidden_blind:  # the holder's own blind card moved under it
        assert any(p.hides_trump and p.moved and p.seat == p.real.first_player for p in points)
    if rules.maker_discard.value == "face_down":
        assert sum(p.hides_discard and p.moved for p in points) >= 5
    dealt_later = rules.hide_from.value != "full_hand" and not rules.hidden_blind  # no decision first
    if rules.packets[0] < rules.hand_size and dealt_later:
        assert sum(p.to_come and p.moved for p in points) >= HANDS - 1


def on_play_twin_points(hands: int) -> tuple[list[Point], list[Point]]:
    """Decisions of two ``mendikot-closed`` hands that differ only in the face-down card, played
    alike while the trick winners agree (``tests/engine/test_on_play_hiding.py``): the points
    of the other seats to move, and the holder's own (the control)."""
    rules = rules_for("mendikot-closed")
    others: list[Point] = []
    holders: list[Point] = []
    for index in range(hands):
        one, two = twin_worlds(rules, index, index % 4, index)
        hidden = {one.hidden_card, two.hidden_card}
        rng = random.Random(index)
        while not one.is_over and tuple(t.winner for t in one.tricks) == tuple(t.winner for t in two.tricks):
            seat = one.to_move
            assert seat is not None
            point = Point(index, index % 4, seat, one.clone(), two.clone(), None, True, True, False)
            (holders if seat == one.first_player else others).append(point)
            actions = one.legal_actions()
            action = actions[rng.randrange(len(actions))]
            if action not in two.legal_actions() or getattr(action, "card", None) in hidden:
                break
            one.apply(action)
            two.apply(action)
    return others, holders


def test_an_on_play_trump_reaches_the_wire_only_through_the_trick_winners(recording_bot: RecordingBot) -> None:
    others, holders = on_play_twin_points(12)
    sent = asyncio.run(wire_requests(recording_bot, "mendikot-closed", others + holders))
    for point, (real, twin) in zip(others, sent[:len(others)], strict=True):
        assert twin == real, f"hand {point.hand_index}, seat {point.seat}: the face-down card showed"
    for (real, twin) in sent[len(others):]:
        assert twin != real, "the holder's request did not show its own face-down card"
    assert sum(p.real.tricks != () for p in others) >= 30 and len(holders) >= 10
