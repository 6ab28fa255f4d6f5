"""The tuner's teams (``bench.tune_heuristic``): a team with opening numbers plays them in its
first tricks and the rest's after, the tuner moves both, and a team survives its file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from bench.tune_heuristic import CALL_FIELDS, OPENING, Spsa, Team, load_team, tuned_fields
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.heuristic.weights import DEFAULT_WEIGHTS
from tests.heuristic_helpers import positions

OPENING_TRICKS = 4
OTHER = replace(DEFAULT_WEIGHTS, trump_cost=0.6, master_cost=0.5, bare_ten=0.0, rank_cost=0.3, lead_length=-0.3)
"""Numbers far enough from the hand-set ones to change decisions in every phase."""


def test_a_phased_team_plays_its_opening_numbers_first_and_the_rests_after() -> None:
    team = Team(rest=DEFAULT_WEIGHTS, opening=OTHER, opening_tricks=OPENING_TRICKS)
    phased, opening, rest = team.bot(), HeuristicBot(OTHER), HeuristicBot(DEFAULT_WEIGHTS)
    differ = {"opening": 0, "rest": 0}
    for view in positions("dehla-pakad"):
        in_opening = view.observation.trick_number <= OPENING_TRICKS
        expected = (opening if in_opening else rest).decide(view)
        assert phased.decide(view) == expected
        if opening.decide(view) != rest.decide(view):
            differ["opening" if in_opening else "rest"] += 1
    assert differ["opening"] > 0 and differ["rest"] > 0  # both phases had decisions to get wrong


def test_a_plain_team_is_the_heuristic_with_its_numbers() -> None:
    team = Team.plain(OTHER)
    for view in positions("dehla-pakad")[:200]:
        assert team.bot().decide(view) == HeuristicBot(OTHER).decide(view)


def test_the_tuner_tunes_the_openings_card_numbers_beside_the_rests() -> None:
    start = Team(rest=DEFAULT_WEIGHTS, opening=OTHER, opening_tricks=OPENING_TRICKS)
    state = Spsa.start("dehla-pakad", 1, 10, start, OPENING_TRICKS)
    fields = tuned_fields("dehla-pakad")
    assert {u for u in state.units if not u.startswith(OPENING)} == set(fields)
    assert {u.removeprefix(OPENING) for u in state.units if u.startswith(OPENING)} == set(fields) - set(CALL_FIELDS)
    rebuilt = state.team(state.units)
    assert rebuilt.opening_tricks == OPENING_TRICKS
    for name in fields:
        assert abs(getattr(rebuilt.rest, name) - getattr(DEFAULT_WEIGHTS, name)) < 1e-9
        if name not in CALL_FIELDS:
            assert abs(getattr(rebuilt.opening, name) - getattr(OTHER, name)) < 1e-9


def test_a_team_survives_its_file(tmp_path: Path) -> None:
    team = Team(rest=OTHER, opening=DEFAULT_WEIGHTS, opening_tricks=3)
    path = tmp_path / "team.json"
    path.write_text(json.dumps(team.to_json() | {"iterations": 5, "preset": "dehla-pakad"}))
    assert load_team(str(path)) == team
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(Team.plain(OTHER).to_json()))
    assert load_team(str(plain)) == Team.plain(OTHER)
