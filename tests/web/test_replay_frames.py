"""The replay's steps, computed without HTTP: every preset, and no seat view that knows too much."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.engine import PRESETS, Deal, HandState, observe, parse_action, play_randomly, replay_record, rules_for
from arena.engine.hand_records import hand_record
from arena.replay import frames
from arena.replay.frames import EventKind, HandReplay, Perspective, Step, replay_hand

HIDDEN_PRESETS = [name for name, options in PRESETS.items() if options.get("trump") == "hidden"]
CARD = re.compile(r"(?<![0-9A-Za-z])(?:10|[2-9JQKA])[SHDC](?![0-9A-Za-z])")
"""A card's text anywhere in JSON (``10H`` in ``"plays 10H"``), not inside a longer word."""
SEATS: tuple[Perspective, ...] = (0, 1, 2, 3)
VARIANTS: list[tuple[str, dict[str, str]]] = [(name, {}) for name in sorted(PRESETS)] + [
    ("dehla-pakad", {"trump": "first_discard"}), ("dehla-pakad", {"trump": "open_random"}),
    ("dehla-pakad", {"trump": "none"}), ("dehla-pakad", {"deck": "short32"}),
    ("dehla-pakad", {"trump": "hidden", "reveal": "on_request"}),
    # Seed 003's trump variants: a decline step, a blind face-down trump nobody may be told.
    ("court-piece", {"decline": "second_packet"}), ("court-piece", {"trump_card": "later"}),
    ("court-piece-double-sir", {"hidden_blind": "true"}),
]
"""Every preset, and the trump methods, options and deck no preset uses."""
VARIANT_IDS = [name + "".join(f"+{key}={value}" for key, value in options.items()) for name, options in VARIANTS]


def random_record(preset: str, seed: int, dealer: int = 0, play_seed: int | None = None,
                  options: dict[str, str] | None = None) -> dict[str, Any]:
    """A hand of ``preset`` dealt from ``seed`` and played by seeded random legal moves, as its record."""
    rules = rules_for(preset, options)
    state = HandState(rules, Deal.from_seed(rules, seed), dealer)
    play_randomly(state, random.Random(seed if play_seed is None else play_seed))
    return hand_record(state)


def leaks(replay: HandReplay, record: dict[str, Any], seat: int) -> list[str]:
    """Every fact in ``seat``'s replay data that the engine's observation of that seat does not give it.

    At each step the cards named anywhere in the step's JSON must be the seat's own hand, cards
    already played, or a face-down trump the seat may know (its own, or once turned up); the trump
    suit shown must be exactly the one the seat's observation knows. The rest of the document
    (rules, tricks index) must name no card at all.
    """
    found: list[str] = []
    header = replay.model_dump(mode="json")
    header.pop("steps")
    found += [f"header: {card}" for card in CARD.findall(json.dumps(header))]
    state = replay_record({**record, "actions": []}, require_complete=False)
    actions = record["actions"]
    for index, step in enumerate(replay.steps):
        if index:
            state.apply(parse_action(actions[index - 1]["action"]))
        seen = observe(state, seat)
        allowed = {str(card) for card in seen.hand}
        allowed |= {str(card) for trick in seen.tricks for card in trick.cards}
        allowed |= {str(card) for _, card in seen.current_trick}
        if seen.hidden_trump_card is not None:
            allowed.add(str(seen.hidden_trump_card))
        if seen.reveal is not None:
            allowed.add(str(seen.reveal.card))
        if seen.trump_setting is not None and seen.trump_setting.card is not None:
            allowed.add(str(seen.trump_setting.card))  # open_random's card is shown to everyone
        text = json.dumps(step.model_dump(mode="json"))
        found += [f"step {index}: {card}" for card in CARD.findall(text) if card not in allowed]
        known_suit = str(seen.trump) if seen.trump is not None else None
        if step.trump.suit != known_suit:
            found += [f"step {index}: trump suit {step.trump.suit} (the seat knows {known_suit})"]
    return found


@pytest.mark.parametrize(("preset", "options"), VARIANTS, ids=VARIANT_IDS)
def test_every_presets_steps_follow_the_engine_to_the_recorded_result(preset: str, options: dict[str, str]) -> None:
    swept = 0
    for seed in range(6):
        record = random_record(preset, seed, dealer=seed % 4, options=options)
        final = replay_record(record)
        replay = replay_hand(record, "all")
        steps = replay.steps
        assert len(steps) == len(record["actions"]) + 1
        assert steps[0].action is None and steps[0].index == 0
        assert all(step.index == i for i, step in enumerate(steps))
        assert [step.action.seat for step in steps[1:] if step.action] == [a["seat"] for a in record["actions"]]
        assert replay.dealer == record["dealer"] and all(step.dealer == record["dealer"] for step in steps)
        last = steps[-1]
        assert final.result is not None and last.result is not None
        assert (last.result.winner, last.result.tens, last.result.outcome) == (
            final.result.winner, list(final.result.tens), final.result.outcome.value)
        assert [team.tens for team in last.teams] == list(final.result.tens)
        taken = [event for step in steps for event in step.events if event.kind in (EventKind.SWEEP, EventKind.CAPTURE)]
        assert sum(event.cards for event in taken) == sum(len(team.captured) for team in last.teams)
        assert sum(event.tens for event in taken) == sum(final.result.tens)
        swept += sum(event.kind is EventKind.SWEEP for event in taken)
        assert [trick.number for trick in replay.tricks] == list(range(1, final.result.tricks_played + 1))
        for trick, real in zip(replay.tricks, final.tricks, strict=True):
            shown = steps[trick.last_step]
            assert shown.trick_complete and trick.winner == real.winner == shown.trick_winner
            assert [play.card for play in shown.trick] == [str(card) for card in real.cards]
        assert sum(event.kind is EventKind.HAND_OVER for step in steps for event in step.events) == 1
        for step in steps:
            assert all(seat.cards is not None and len(seat.cards) == seat.size for seat in step.seats)
            assert step.pile_tricks * 4 == len(step.pile)
    if {**PRESETS[preset], **options}.get("capture", "sweep") == "sweep":
        assert swept, "six sweep-capture hands with no sweep: the events are not computed"


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_sweep_is_an_event_at_the_step_that_empties_the_pile(preset: str) -> None:
    replay = replay_hand(random_record(preset, 11), "none")
    for before, step in zip(replay.steps, replay.steps[1:], strict=False):
        for event in step.events:
            if event.kind in (EventKind.SWEEP, EventKind.CAPTURE):
                assert step.pile == [] and step.trick_complete
                assert event.cards == len(before.pile) + 4 == 4 * event.tricks
                assert step.trick_winner is not None and event.team == step.trick_winner % 2


@pytest.mark.parametrize("preset", HIDDEN_PRESETS)
def test_a_hidden_trump_stays_face_down_until_the_reveal_event(preset: str) -> None:
    for seed in range(4):
        record = random_record(preset, seed)
        public = replay_hand(record, "none").steps
        everything = replay_hand(record, "all").steps
        reveals = [step.index for step in public for event in step.events if event.kind is EventKind.TRUMP_REVEALED]
        assert len(reveals) <= 1
        revealed_at = reveals[0] if reveals else len(public)
        hidden_at = next(step.index for step in public if step.trump.face_down)
        for step, open_step in zip(public, everything, strict=True):
            if hidden_at <= step.index < revealed_at:
                assert step.trump.face_down and step.trump.card is None and step.trump.suit is None
                assert open_step.trump.face_down and open_step.trump.card is not None
                assert open_step.trump.suit == open_step.trump.card[-1]
            if step.index >= revealed_at:
                assert step.trump.revealed and not step.trump.face_down
                assert step.trump.card == open_step.trump.card
        hide = public[hidden_at].action
        assert hide is not None and hide.kind == "hide" and hide.text == "puts a card face down as trumps"


def test_no_hands_shows_no_hand_and_a_seat_only_its_own() -> None:
    record = random_record("dehla-pakad", 3)
    assert all(seat.cards is None for step in replay_hand(record, "none").steps for seat in step.seats)
    for seat in SEATS:
        for step in replay_hand(record, seat).steps:
            assert [hand.cards is not None for hand in step.seats] == [s == seat for s in range(4)]


@pytest.mark.parametrize(("preset", "options"), VARIANTS, ids=VARIANT_IDS)
@pytest.mark.parametrize("seat", SEATS)
def test_a_seats_replay_holds_only_what_its_observation_gives_it(preset: str, options: dict[str, str],
                                                                 seat: int) -> None:
    for seed in range(3):
        record = random_record(preset, seed, dealer=(seed + seat) % 4, options=options)
        assert leaks(replay_hand(record, seat), record, seat) == []  # type: ignore[arg-type]


@settings(max_examples=40, deadline=None)
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**32), seat=st.sampled_from(SEATS),
       dealer=st.integers(0, 3))
def test_no_seat_view_leaks_for_any_deal(variant: tuple[str, dict[str, str]], seed: int, seat: int,
                                         dealer: int) -> None:
    record = random_record(variant[0], seed, dealer, options=variant[1])
    assert leaks(replay_hand(record, seat), record, seat) == []  # type: ignore[arg-type]


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_leak_check_catches_a_builder_that_shows_every_hand(preset: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Negative control: a variant that builds a seat's view from all four observations leaks."""
    real = frames._observations

    def leaking(state: HandState, perspective: Perspective) -> list[Any]:
        views = real(state, perspective)
        if isinstance(perspective, int):
            views += [observe(state, other) for other in range(4) if other != perspective]
        return views

    record = random_record(preset, 5)
    monkeypatch.setattr(frames, "_observations", leaking)
    found = leaks(replay_hand(record, 1), record, 1)
    assert any(problem.startswith("step 0:") for problem in found), found


@pytest.mark.parametrize("preset", HIDDEN_PRESETS)
def test_the_leak_check_catches_a_hidden_trump_told_too_early(preset: str) -> None:
    """Negative control: the face-down card or its suit in a non-owner's view is found."""
    record = random_record(preset, 2)
    owner = replay_hand(record, "none").steps[-1].trump.holder
    assert owner is not None
    seat = (owner + 1) % 4
    honest = replay_hand(record, seat)  # type: ignore[arg-type]
    everything = replay_hand(record, "all")
    down = [step.index for step in honest.steps if step.trump.face_down]
    assert down
    def with_true_suit(step: Step) -> Step:
        suit = everything.steps[step.index].trump.suit
        return step.model_copy(update={"trump": step.trump.model_copy(update={"suit": suit})})

    told_suit = honest.model_copy(update={"steps": [
        with_true_suit(step) if step.index in down else step for step in honest.steps]})
    assert any("trump suit" in problem for problem in leaks(told_suit, record, seat))
    hide = down[0]
    told_card = honest.model_copy(update={"steps": [
        step.model_copy(update={"action": everything.steps[hide].action}) if step.index == hide else step
        for step in honest.steps]})
    assert leaks(told_card, record, seat) == [f"step {hide}: {everything.steps[hide].trump.card}"]


def test_an_unfinished_hand_replays_to_where_it_stopped() -> None:
    """A void match's last hand stops midway: its replay ends there, with no result."""
    record = random_record("mendikot", 9)
    record = {**record, "actions": record["actions"][:23], "result": None}
    replay = replay_hand(record, 2)
    assert len(replay.steps) == 24 and replay.steps[-1].result is None
    assert not any(event.kind is EventKind.HAND_OVER for step in replay.steps for event in step.events)


def test_a_record_with_an_illegal_action_is_a_record_error_naming_it() -> None:
    from arena.engine import RecordError  # noqa: PLC0415

    record = random_record("dehla-pakad", 4)
    actions = list(record["actions"])
    actions[6] = {"seat": actions[6]["seat"], "action": "play ZZ"}
    with pytest.raises(RecordError, match=r"actions\[6\]"):
        replay_hand({**record, "actions": actions}, "all")
    actions[6] = {"seat": (record["actions"][6]["seat"] + 1) % 4, "action": record["actions"][6]["action"]}
    with pytest.raises(RecordError, match=r"actions\[6\]: seat \d is to move"):
        replay_hand({**record, "actions": actions}, "all")


def test_a_face_down_discard_is_named_only_in_the_makers_eyes_and_all_hands_open() -> None:
    """``maker_discard: face_down`` (court-piece-double-sir): a discard played face down is drawn
    face down everywhere; only the maker's perspective and ``all`` name it, until the hand ends."""
    for seed in range(40):
        record = random_record("court-piece-double-sir", seed)
        if any(action["action"].endswith(" down") for action in record["actions"]):
            break
    else:
        pytest.fail("40 seeded court-piece-double-sir hands without a face-down discard")
    state = replay_record(record)
    maker = state.first_player
    step_of_discard = next(number for number, action in enumerate(record["actions"], start=1)
                           if action["action"].endswith(" down"))
    discarded = record["actions"][step_of_discard - 1]["action"].split()[1]
    views = {perspective: replay_hand(record, perspective).steps[step_of_discard]
             for perspective in ("all", "none", 0, 1, 2, 3)}
    for perspective, step in views.items():
        play = step.trick[-1] if step.trick else None
        assert play is not None and play.face_down, perspective
        sees = perspective in ("all", maker)
        assert (play.card == discarded) if sees else (play.card is None), (perspective, play)
        text = json.dumps(step.model_dump(mode="json"))
        if not sees and not step.result:
            assert step.action is not None and "a card face down" in step.action.text
            assert f'"{discarded}"' not in text, f"{perspective}: the face-down {discarded} is in the step's data"


def test_the_holder_sees_the_face_down_trump_even_when_it_is_card_zero() -> None:
    """Every step with the trump face down names it to its holder. Card 0 (the two of spades) is
    a falsy ``int``: an ``or`` between cards once dropped it."""
    rules = rules_for("dehla-pakad-hidden")
    hidden_zero = 0
    for seed in range(400):
        if hidden_zero and seed >= 20:
            break
        state = HandState(rules, Deal.from_seed(rules, seed), seed % 4)
        play_randomly(state, random.Random(seed + 100))
        record = hand_record(state)
        holder = next((entry["seat"] for entry in record["actions"] if entry["action"].startswith("hide")), None)
        if holder is None:
            continue
        steps = replay_hand(record, holder).steps
        face_down = [step.trump for step in steps if step.trump.face_down]
        assert face_down and all(trump.card is not None for trump in face_down), seed
        hidden_zero += face_down[0].card == "2S"
    assert hidden_zero, "no seed hid the two of spades: the test shows nothing"
