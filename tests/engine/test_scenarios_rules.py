"""The rules object: presets, defaults, and validation of options.

rules.md: "Every option below is part of one validated rules object; named presets bundle them",
the presets table, and "Every option stays settable on top of a preset".
"""

from __future__ import annotations

from typing import Any

import pytest

from arena.engine.errors import RulesError
from arena.engine.rules import rules_for

PRESET_TABLE = {
    # preset: (direction, trump, reveal, capture, sweep_limits, hand_result, two_two)
    "dehla-pakad": ("clockwise", "called", None, "sweep", "none", "tens", "non_dealer"),
    "dehla-pakad-cut": ("clockwise", "cut", None, "sweep", "none", "tens", "non_dealer"),
    "dehla-pakad-hidden": ("clockwise", "hidden", "on_void", "sweep", "none", "tens",
                           "non_dealer"),
    "mendikot": ("anticlockwise", "hidden", "on_request", "direct", "none", "mendikot", None),
    "court-piece": ("anticlockwise", "called", None, "direct", "none", "seven_tricks", None),
    "court-piece-double-sir": ("anticlockwise", "hidden", "on_request", "sweep", "court_piece",
                               "seven_tricks", None),
}


def value(option: Any) -> Any:
    return None if option is None else str(option)


@pytest.mark.parametrize(("preset", "expected"), PRESET_TABLE.items())
def test_presets_match_the_table(preset: str, expected: tuple[Any, ...]) -> None:
    rules = rules_for(preset)
    got = (rules.direction, rules.trump, rules.reveal, rules.capture, rules.sweep_limits,
           rules.hand_result, rules.two_two)
    assert tuple(map(value, got)) == expected
    assert str(rules.deck) == "full52"
    assert not rules.early_end


def test_dehla_pakad_is_the_default() -> None:
    assert rules_for() == rules_for("dehla-pakad")


@pytest.mark.parametrize(
    ("preset", "overrides", "option", "expected"),
    [
        ("dehla-pakad", {"direction": "anticlockwise"}, "direction", "anticlockwise"),
        ("mendikot", {"deck": "short32"}, "deck", "short32"),
        ("mendikot", {"bonus_aces": True}, "bonus_aces", True),
        ("court-piece", {"early_end": True}, "early_end", True),
        ("dehla-pakad", {"two_two": "draw"}, "two_two", "draw"),
        ("dehla-pakad-hidden", {"reveal": "on_request"}, "reveal", "on_request"),
        ("mendikot", {"trump": "none"}, "trump", "none"),
        ("mendikot", {"trump": "open_random"}, "trump", "open_random"),
        ("mendikot", {"trump": "first_discard"}, "trump", "first_discard"),
        ("court-piece", {"capture": "sweep", "sweep_limits": "court_piece"}, "sweep_limits",
         "court_piece"),
    ],
)
def test_every_option_is_settable_on_top_of_a_preset(
    preset: str, overrides: dict[str, Any], option: str, expected: Any
) -> None:
    got = getattr(rules_for(preset, overrides), option)
    assert (got if isinstance(got, bool) else str(got)) == expected


def test_unknown_option_is_rejected_by_name() -> None:
    with pytest.raises(RulesError, match="trumps"):
        rules_for("dehla-pakad", {"trumps": "cut"})


def test_unknown_preset_is_rejected_by_name() -> None:
    with pytest.raises(RulesError, match="dehla-pakkad"):
        rules_for("dehla-pakkad")


@pytest.mark.parametrize(
    ("option", "bad"),
    [("direction", "sideways"), ("trump", "auction"), ("deck", "short40"),
     ("two_two", "coin_flip"), ("capture", "all")],
)
def test_bad_option_values_are_rejected_by_name(option: str, bad: str) -> None:
    with pytest.raises(RulesError, match=option):
        rules_for("dehla-pakad", {option: bad})


@pytest.mark.parametrize(
    ("preset", "overrides", "names"),
    [
        ("dehla-pakad", {"reveal": "on_request"}, ("reveal", "trump")),
        ("dehla-pakad-cut", {"reveal": "on_void"}, ("reveal", "trump")),
        ("court-piece", {"sweep_limits": "court_piece"}, ("sweep_limits", "capture")),
        ("mendikot", {"two_two": "draw"}, ("two_two", "hand_result")),
        ("dehla-pakad", {"bonus_aces": True}, ("bonus_aces", "hand_result")),
        ("court-piece", {"bonus_aces": True}, ("bonus_aces", "hand_result")),
        ("dehla-pakad", {"early_end": True}, ("early_end", "hand_result")),
        ("dehla-pakad", {"trump": "called", "reveal": "on_void"}, ("reveal", "trump")),
    ],
)
def test_contradictory_options_are_rejected_with_both_names(
    preset: str, overrides: dict[str, Any], names: tuple[str, str]
) -> None:
    with pytest.raises(RulesError) as err:
        rules_for(preset, overrides)
    for name in names:
        assert name in str(err.value)


@pytest.mark.parametrize(
    ("preset", "trump"),
    [("dehla-pakad-hidden", "called"), ("mendikot", "cut"), ("mendikot", "none"),
     ("court-piece-double-sir", "called")],
)
def test_overriding_trump_on_a_preset_drops_the_presets_reveal(preset: str, trump: str) -> None:
    rules = rules_for(preset, {"trump": trump})
    assert str(rules.trump) == trump
    assert rules.reveal is None
    assert "reveal" not in rules.options()


def test_overriding_capture_drops_the_presets_sweep_limits() -> None:
    rules = rules_for("court-piece-double-sir", {"capture": "direct"})
    assert str(rules.capture) == "direct"
    assert str(rules.sweep_limits) == "none"


def test_overriding_hand_result_drops_the_presets_two_two() -> None:
    rules = rules_for("dehla-pakad", {"two_two": "draw"})
    assert str(rules.two_two) == "draw"
    rules = rules_for("mendikot", {"hand_result": "tens"})
    assert str(rules.two_two) == "non_dealer"  # the default of the tens rule


def test_a_hidden_trump_always_has_a_reveal_rule() -> None:
    assert rules_for("dehla-pakad", {"trump": "hidden"}).reveal is not None
    assert str(rules_for("mendikot", {"trump": "hidden", "reveal": "on_void"}).reveal) == (
        "on_void"
    )
