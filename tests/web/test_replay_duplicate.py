"""Duplicate pairs: the referee's two plays of a deal, lined up seat for seat and step for step."""

from __future__ import annotations

import random
from typing import Any

import pytest

from arena.engine import PRESETS, Deal, HandState, play_randomly, rules_for
from arena.engine.hand_records import hand_record
from arena.replay.duplicate import other_perspective, pair_summary, partner_hand, seat_shift
from arena.replay.frames import Perspective, replay_hand


def table_pair(preset: str, deal_seed: int, number: int, play_seeds: tuple[int, int]) -> tuple[dict[str, Any], ...]:
    """Deal ``number`` of a duplicate match as the referee plays it (``table._run_duplicate``):
    dealer ``number % 4`` then the same cards rotated one seat on with the next dealer."""
    rules = rules_for(preset)
    deal = Deal.from_seed(rules, deal_seed)
    records = []
    for rotation, play_seed in zip((0, 1), play_seeds, strict=True):
        state = HandState(rules, deal.rotated(rotation), (number + rotation) % 4)
        play_randomly(state, random.Random(play_seed))
        records.append(hand_record(state))
    return tuple(records)


def test_hands_pair_up_as_the_referee_plays_them() -> None:
    assert [partner_hand(hand) for hand in (1, 2, 3, 4, 7)] == [2, 1, 4, 3, 8]
    assert [seat_shift(hand) for hand in (1, 2)] == [1, 3]
    assert [other_perspective(1, seat) for seat in (0, 1, 2, 3)] == [1, 2, 3, 0]
    assert [other_perspective(2, seat) for seat in (1, 2, 3, 0)] == [0, 1, 2, 3]
    assert other_perspective(1, "all") == "all" and other_perspective(2, "none") == "none"
    with pytest.raises(ValueError, match="start at 1"):
        partner_hand(0)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_same_cards_played_alike_never_diverge_and_the_margin_is_zero(preset: str) -> None:
    """Random play picks among the same legal moves at both tables, so one seed plays alike: the
    seat shift and the step alignment are right exactly when no divergence is found."""
    first, second = table_pair(preset, 21, 1, (4, 4))
    for seat in ("all", "none", 0, 1, 2, 3):
        perspective: Perspective = seat  # type: ignore[assignment]
        here = replay_hand(first, perspective)
        there = replay_hand(second, other_perspective(1, perspective))
        pair = pair_summary(1, here, there)
        assert pair.first_divergence is None, (seat, pair)
        assert pair.values[0] == -pair.values[1] and pair.margin == 0
        back = pair_summary(2, there, here)
        assert back.first_divergence is None and back.other_hand == 1


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_first_divergence_is_the_first_action_that_differs_and_the_margin_sums_the_tables(preset: str) -> None:
    first, second = table_pair(preset, 8, 2, (1, 2))
    pair = pair_summary(1, replay_hand(first, "all"), replay_hand(second, "all"))
    shifted = [((a["seat"] + 1) % 4, a["action"]) for a in first["actions"]]
    played = [(a["seat"], a["action"]) for a in second["actions"]]
    differ = next(i for i, (a, b) in enumerate(zip(shifted, played, strict=False)) if a != b)
    assert pair.first_divergence == differ + 1
    here, there = replay_hand(first, "none").steps[-1].result, replay_hand(second, "none").steps[-1].result
    assert here is not None and there is not None
    assert pair.values == [here.value, there.value] and pair.margin == here.value + there.value
