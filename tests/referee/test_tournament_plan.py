"""A tournament's folder: pairings, the plan file, result files, and files that do not fit."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.contract.faults import Fault, FaultKind, FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import MoveRelease
from arena.referee.table_values import MatchOutcome
from arena.referee.tournament.plan import (
    Entrant,
    PairingResult,
    TournamentError,
    TournamentPlan,
    check_name,
    create_plan,
    make_pairings,
    read_plan,
    read_results,
    result_path,
    write_result,
)
from arena.referee.tournament.standings import MatchResult


def plan_of(names: list[str], gauntlet: str | None = None, name: str = "cup") -> TournamentPlan:
    return TournamentPlan(name=name, entrants=tuple(Entrant(spec=n, name=n) for n in names), gauntlet=gauntlet,
                          deals=2, seed=7, preset="dehla-pakad", per_move=0.05, bank=1.0,
                          release=MoveRelease.ON_REPLY, policy=FaultPolicy.FORFEIT,
                          pairings=make_pairings(names, gauntlet))


def test_a_round_robin_meets_every_pair_once_in_order_and_a_gauntlet_meets_its_bot_only() -> None:
    pairs = [(p.index, p.a, p.b) for p in make_pairings(["a", "b", "c", "d"], None)]
    assert pairs == [(1, "a", "b"), (2, "a", "c"), (3, "a", "d"), (4, "b", "c"), (5, "b", "d"), (6, "c", "d")]
    gauntlet = [(p.index, p.a, p.b) for p in make_pairings(["g", "b", "c"], "g")]
    assert gauntlet == [(1, "g", "b"), (2, "g", "c")]
    assert make_pairings(["a", "b"], None)[0].match_id == "pairing-001"


def test_the_plan_round_trips_and_a_second_plan_in_its_folder_is_refused(tmp_path: Path) -> None:
    plan = plan_of(["a", "b", "c"])
    create_plan(tmp_path / "cup", plan)
    assert read_plan(tmp_path / "cup") == plan
    with pytest.raises(TournamentError, match=r"exists .*resume it with --resume cup"):
        create_plan(tmp_path / "cup", plan_of(["a", "b"]))
    assert read_plan(tmp_path / "cup") == plan  # the first plan is kept


@pytest.mark.parametrize(("text", "message"), [
    ("{", "not a tournament plan"),
    ('{"version": 2}', "version"),
    ("\udcff", "cannot read"),
])
def test_a_plan_file_that_is_not_one_is_an_error_naming_it(tmp_path: Path, text: str, message: str) -> None:
    (tmp_path / "plan.json").write_bytes(text.encode("utf-8", "surrogateescape"))
    with pytest.raises(TournamentError, match=message) as caught:
        read_plan(tmp_path)
    assert str(tmp_path / "plan.json") in str(caught.value)


def test_a_plan_whose_pairings_name_no_entrant_is_refused(tmp_path: Path) -> None:
    data = json.loads(plan_of(["a", "b"]).model_dump_json())
    data["pairings"][0]["b"] = "zed"
    (tmp_path / "plan.json").write_text(json.dumps(data))
    with pytest.raises(TournamentError, match="pairings do not fit its entrants"):
        read_plan(tmp_path)
    with pytest.raises(TournamentError, match="no tournament here"):
        read_plan(tmp_path / "nothing")


def outcome_forfeited_by_b() -> MatchOutcome:
    return MatchOutcome("pairing-001", OutcomeStatus.DONE, 0, (3.0, 0.0), deal_scores=[3.0],
                        faults=[Fault(1, "b", FaultKind.CRASH, "process exited", 2, 5, "r1", "secret log")],
                        forfeit_team=1)


def test_a_result_is_written_whole_and_read_back_as_the_statistics_need_it(tmp_path: Path) -> None:
    plan = plan_of(["a", "b"])
    create_plan(tmp_path, plan)
    assert read_results(tmp_path, plan) == {}
    result = PairingResult.of(plan.pairings[0], outcome_forfeited_by_b())
    write_result(tmp_path, result)
    assert [p.name for p in (tmp_path / "results").iterdir()] == ["pairing-001.json"]  # no temporary left
    assert read_results(tmp_path, plan) == {1: result}
    assert result.as_match_result(plan.deals) == MatchResult("a", "b", 2, (3.0,), "b", False, ("b",))
    assert "secret log" not in result_path(tmp_path, plan.pairings[0]).read_text()  # the evidence stays in the record


@pytest.mark.parametrize(("change", "message"), [
    ({"a": "c"}, "not the result of pairing 1 \\(a vs b\\)"),
    ({"index": 2}, "not the result of pairing 1"),
    ({"deal_scores": [1.0, 1.0, 1.0]}, "not the result of pairing 1"),
    ({"status": "maybe"}, "not a pairing result \\(status"),
    ({"extra": 1}, "not a pairing result \\(extra"),
])
def test_a_result_file_that_does_not_fit_the_plan_is_an_error_and_is_kept(tmp_path: Path, change: dict[str, object],
                                                                          message: str) -> None:
    plan = plan_of(["a", "b", "c"])
    create_plan(tmp_path, plan)
    data = json.loads(PairingResult.of(plan.pairings[0], outcome_forfeited_by_b()).model_dump_json())
    path = result_path(tmp_path, plan.pairings[0])
    text = json.dumps({**data, **change})
    path.write_text(text)
    with pytest.raises(TournamentError, match=message) as caught:
        read_results(tmp_path, plan)
    assert str(path) in str(caught.value)
    assert path.read_text() == text


def test_names_that_could_leave_the_tournaments_folder_are_refused() -> None:
    assert check_name("cup-2026_v1-b") == "cup-2026_v1-b"
    for bad in ("../x", "a/b", ".hidden", "v1.2", "", "x" * 65, "a b", "é"):
        with pytest.raises(TournamentError, match="tournament name"):
            check_name(bad)
