"""The replay's steps of a bidding game (Twenty-eight, Twenty-nine), computed without HTTP: they
follow the engine to the recorded result, and no seat's view knows more than its observation."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine.bidding_hand import new_hand
from arena.engine.bidding_observation import BiddingObservation, observe_bidding
from arena.engine.bidding_records import bidding_hand_record, parse_bidding_action, replay_bidding_record
from arena.engine.bidding_rules import bidding_rules_for
from arena.engine.errors import RecordError
from arena.replay import bidding_frames
from arena.replay.bidding_frames import replay_bidding_hand
from arena.replay.frames import EventKind, HandReplay, Perspective

CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z])")
"""A card's text anywhere in JSON, not inside a longer word."""
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
VARIANTS: list[tuple[str, dict[str, str]]] = [
    ("twenty-eight", {}), ("twenty-nine", {}), ("twenty-eight", {"no_exposure": "last_trick"}),
    ("twenty-eight", {"auction": "single_round", "game_points": "by_bid"}),
]
SEATS: tuple[Perspective, ...] = (0, 1, 2, 3)


def random_record(preset: str, seed: int, options: dict[str, str] | None = None,
                  call_bias: float = 0.5) -> dict[str, Any]:
    """A bidding hand dealt from ``seed`` and played by seeded random legal actions; ``call_bias``
    is the chance a seat that may call for the trump does (so that most hands see an exposure)."""
    hand = new_hand(bidding_rules_for(preset, options), seed, seed % 4)
    rng = random.Random(seed)
    while not hand.is_over:
        legal = hand.legal_actions()
        calls = [action for action in legal if str(action) == "reveal"]
        hand.apply(calls[0] if calls and rng.random() < call_bias else rng.choice(legal))
    return bidding_hand_record(hand)


def observations(record: dict[str, Any], seat: int) -> list[BiddingObservation]:
    """The engine's observation of ``seat`` after each action of ``record`` (step 0 first)."""
    state = replay_bidding_record({**record, "actions": [], "result": None}, require_complete=False)
    out = [observe_bidding(state, seat)]
    for entry in record["actions"]:
        state.apply(parse_bidding_action(entry["action"]))
        out.append(observe_bidding(state, seat))
    return out


def leaks(replay: HandReplay, record: dict[str, Any], seat: int) -> list[str]:
    """Every card or trump suit in ``seat``'s replay data that its observation does not give it:
    at each step only its own hand, the cards played, its own face-down card and the exposed one
    may be named, and the trump suit shown must be the one the seat knows."""
    found: list[str] = []
    header = replay.model_dump(mode="json")
    header.pop("steps")
    found += [f"header: {card}" for card in CARD.findall(json.dumps(header))]
    for index, (step, seen) in enumerate(zip(replay.steps, observations(record, seat), strict=True)):
        allowed = {str(card) for card in seen.hand}
        allowed |= {str(card) for trick in seen.tricks for card in trick.cards}
        allowed |= {str(card) for _, card in seen.current_trick}
        if seen.hidden_trump_card is not None:
            allowed.add(str(seen.hidden_trump_card))
        if seen.reveal is not None:
            allowed.add(str(seen.reveal.card))
        text = json.dumps(step.model_dump(mode="json"))
        found += [f"step {index}: {card}" for card in CARD.findall(text) if card not in allowed]
        known = str(seen.trump) if seen.trump is not None else None
        if step.trump.suit != known:
            found.append(f"step {index}: trump suit {step.trump.suit} (the seat knows {known})")
        if known is None:
            found += [f"step {index}: {word}" for word in SUIT_NAMES.values() if word in text]
    return found


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
def test_the_steps_follow_the_engine_to_the_recorded_result(preset: str, options: dict[str, str]) -> None:
    for seed in range(6):
        record = random_record(preset, seed, options)
        final = replay_bidding_record(record)
        replay = replay_bidding_hand(record, "all")
        steps = replay.steps
        assert replay.game == "bidding" and replay.rank_order == ["J", "9", "A", "10", "K", "Q", "8", "7"]
        assert len(steps) == len(record["actions"]) + 1 and steps[0].action is None
        assert [(s.action.seat, s.action.kind) for s in steps[1:] if s.action] == [
            (a["seat"], a["action"].split()[0]) for a in record["actions"]]
        last = steps[-1].bidding
        assert last is not None and final.result is not None and final.contract is not None
        assert [(c.seat, c.text) for c in last.calls] == [(s, str(c)) for s, c in final.auction.calls]
        assert last.contract is not None and (last.contract.bidder, last.contract.bid) == (
            final.contract.bidder, final.contract.bid)
        assert last.result is not None and last.points == list(final.result.points) == last.result.points
        assert (last.result.game_points, last.result.winner) == (final.result.game_points, final.result.winner)
        assert last.result.outcome == ("void" if final.result.void else "made" if final.result.made else "failed")
        assert [team.points for team in steps[-1].teams] == list(final.result.points)
        assert [t.winner for t in replay.tricks] == [t.winner for t in final.tricks]
        for trick, real in zip(replay.tricks, final.tricks, strict=True):
            shown = steps[trick.last_step]
            assert shown.trick_complete and [p.card for p in shown.trick] == [str(c) for c in real.cards]
        kinds = [event.kind for step in steps for event in step.events]
        assert kinds.count(EventKind.HAND_OVER) == 1 and kinds.count(EventKind.CONTRACT) == 1
        assert kinds.count(EventKind.CALL) == len(final.auction.calls)
        assert kinds.count(EventKind.TRUMP_REVEALED) == (final.reveal is not None)
        for step in steps:
            assert all(seat.cards is not None and len(seat.cards) == seat.size for seat in step.seats)


def test_the_face_down_trump_and_its_exposure_as_each_perspective_sees_them() -> None:
    record = random_record("twenty-eight", 3, call_bias=1.0)
    final = replay_bidding_record(record)
    assert final.contract is not None and final.reveal is not None
    bidder, caller = final.contract.bidder, final.reveal.seat
    other = next(s for s in range(4) if s != bidder)
    everything = replay_bidding_hand(record, "all").steps
    public = replay_bidding_hand(record, "none").steps
    own = replay_bidding_hand(record, bidder).steps  # type: ignore[arg-type]
    theirs = replay_bidding_hand(record, other).steps  # type: ignore[arg-type]
    hidden_at = next(s.index for s in public if s.action is not None and s.action.kind == "hide")
    revealed_at = next(s.index for s in public if any(e.kind is EventKind.TRUMP_REVEALED for e in s.events))
    real = final.reveal.card
    for view in (public, theirs):
        assert view[hidden_at].action is not None and view[hidden_at].action.text == "puts a card face down as trumps"
        for step in view[hidden_at:revealed_at]:
            assert step.trump.face_down and step.trump.card is None and step.trump.suit is None
    for view in (everything, own):
        assert view[hidden_at].action is not None and str(real) in view[hidden_at].action.text
        assert all(step.trump.card == str(real) for step in view[hidden_at:revealed_at])
    for view in (everything, public, own, theirs):
        step = view[revealed_at]
        assert step.trump.revealed and step.trump.card == str(real) and step.trump.set_by == caller
        assert step.trump.in_force == str(real.suit)
    assert all(seat.cards is None for step in public for seat in step.seats)


@pytest.mark.parametrize(("preset", "options"), VARIANTS)
@pytest.mark.parametrize("seat", SEATS)
def test_a_seats_replay_holds_only_what_its_observation_gives_it(preset: str, options: dict[str, str],
                                                                 seat: int) -> None:
    for seed in range(2):
        record = random_record(preset, seed + 10 * seat, options)
        assert leaks(replay_bidding_hand(record, seat), record, seat) == []  # type: ignore[arg-type]


@settings(max_examples=30, deadline=None, derandomize=True, database=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), seat=st.sampled_from(SEATS),
       call_bias=st.sampled_from([0.0, 0.3, 1.0]))
def test_no_seat_view_leaks_for_any_deal(variant: tuple[str, dict[str, str]], seed: int, seat: int,
                                         call_bias: float) -> None:
    record = random_record(variant[0], seed, variant[1], call_bias)
    assert leaks(replay_bidding_hand(record, seat), record, seat) == []  # type: ignore[arg-type]


def test_the_leak_check_catches_a_builder_that_shows_every_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: a seat's view built from all four observations leaks at step 0."""
    real = bidding_frames._observations

    def leaking(state: Any, perspective: Perspective) -> list[BiddingObservation]:
        views = real(state, perspective)
        if isinstance(perspective, int):
            views += [observe_bidding(state, other) for other in range(4) if other != perspective]
        return views

    record = random_record("twenty-eight", 5)
    monkeypatch.setattr(bidding_frames, "_observations", leaking)
    assert any(problem.startswith("step 0:") for problem in leaks(replay_bidding_hand(record, 1), record, 1))


def test_the_leak_check_catches_the_face_down_trump_shown_to_another_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: a builder that takes the table's facts from the bidder's view for every
    perspective tells the others the face-down card."""
    record = random_record("twenty-eight", 2, call_bias=0.0)
    final = replay_bidding_record(record)
    assert final.contract is not None
    seat = (final.contract.bidder + 1) % 4
    assert leaks(replay_bidding_hand(record, seat), record, seat) == []  # type: ignore[arg-type]
    monkeypatch.setattr(bidding_frames, "_observations",
                        lambda state, perspective: [observe_bidding(state, final.contract.bidder),  # type: ignore[union-attr]
                                                    observe_bidding(state, perspective)])
    found = leaks(replay_bidding_hand(record, seat), record, seat)  # type: ignore[arg-type]
    assert any("trump suit" in problem for problem in found), found


def test_a_changed_record_is_refused_with_the_action_that_breaks_it() -> None:
    record = random_record("twenty-eight", 1)
    record["actions"][0]["action"] = "bid 99"
    with pytest.raises(RecordError, match=r"actions\[0\]"):
        replay_bidding_hand(record, "all")
