"""The ``dehla`` command line as users run it: exit codes, output, one-line errors.

The commands run in this process (``tests.cli_helpers.run_dehla``, the same ``arena.cli.main``
that ``python -m arena`` runs, with its program name and environment; a traceback fails the
test): what is tested is the answer, not the process. One test runs a real ``python -m arena``
process, for the entry point and its exit code on the real interpreter."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from arena.engine.bidding_records import replay_bidding_record
from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.engine.hand_records import hand_record
from arena.engine.rules import PRESETS, rules_for
from arena.engine.selfplay import selfplay_hands
from tests.cli_helpers import run_dehla


def dehla(*args: str) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args)


def dehla_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True,
                          timeout=120, check=False)


def test_rules_lists_every_preset_with_its_options() -> None:
    out = dehla("rules", "--json")
    assert out.returncode == 0
    presets = json.loads(out.stdout)
    assert set(presets) == set(PRESETS) | set(BIDDING_PRESETS)
    assert presets["twenty-nine"]["min_bid"] == 17 and presets["twenty-eight"]["rank_order"] == "jack_nine"
    assert presets["mendikot"]["reveal"] == "on_request"
    assert "reveal" not in presets["dehla-pakad"]
    assert presets["mendikot-closed"]["reveal"] == "on_play"
    assert presets["mendikot-closed"]["hide_from"] == "full_hand"
    assert "hide_from" not in presets["mendikot"]  # the default is not listed (records read as before)


def test_selfplay_json_summary_counts_every_hand() -> None:
    out = dehla("selfplay", "--preset", "court-piece", "--hands", "40", "--seed", "3", "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["hands"] == 40
    assert sum(report["hands_won"]) + report["draws"] == 40
    assert sum(report["outcomes"].values()) == 40


def test_selfplay_rejects_a_contradictory_option_in_one_line() -> None:
    out = dehla_process("selfplay", "--option", "reveal=on_request")
    assert out.returncode == 2
    assert out.stderr.strip().count("\n") == 0
    assert "reveal=on_request applies only under trump=hidden" in out.stderr
    assert "Traceback" not in out.stderr


def test_selfplay_rejects_an_unknown_preset() -> None:
    out = dehla("selfplay", "--preset", "bridge")
    assert out.returncode == 2
    assert "unknown preset 'bridge'" in out.stderr


def test_selfplay_plays_a_bidding_game_and_counts_bids_contracts_and_invalid_hands(tmp_path: Path) -> None:
    out = dehla("selfplay", "--preset", "twenty-nine", "--hands", "30", "--seed", "4", "--json",
                "--records", str(tmp_path))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["game"] == "bidding" and report["hands"] == 30 and report["match_unit"] == "game points"
    assert sum(report["bids"].values()) == 30 and min(map(int, report["bids"])) >= 17  # Twenty-nine bids from 17
    assert sum(report["contracts_made"]) + sum(report["contracts_failed"]) + report["invalid_hands"] == 30
    results = [replay_bidding_record(json.loads(path.read_text())).result for path in sorted(tmp_path.iterdir())]
    assert len(results) == 30
    assert report["invalid_hands"] == sum(r.void for r in results if r is not None)
    made = [sum(1 for r in results if r is not None and not r.void and r.made and r.bidding_team == team)
            for team in (0, 1)]
    assert report["contracts_made"] == made
    assert report["mean_card_points"][0] == round(sum(r.points[0] for r in results if r is not None) / 30, 3)


def test_selfplay_prints_a_bidding_summary_for_people() -> None:
    out = dehla("selfplay", "--preset", "twenty-eight", "--hands", "5")
    assert out.returncode == 0, out.stderr
    assert "contracts made" in out.stdout and "invalid hands:" in out.stdout and "winning bids:" in out.stdout


@pytest.fixture
def record_file(tmp_path: Path) -> tuple[Path, dict[str, object]]:
    state, _ = next(iter(selfplay_hands(rules_for("dehla-pakad-hidden"), 1, seed=11)))
    record = hand_record(state)
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    return path, record


def test_score_replays_a_record_and_prints_its_result(record_file: tuple[Path, dict[str, object]]) -> None:
    path, record = record_file
    out = dehla("score", str(path))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == record["result"]


def test_score_names_the_first_illegal_action(record_file: tuple[Path, dict[str, object]]) -> None:
    path, record = record_file
    actions = record["actions"]
    assert isinstance(actions, list)
    # The first play becomes a card that another seat holds.
    first_play = next(i for i, a in enumerate(actions) if a["action"].startswith("play"))
    seat = actions[first_play]["seat"]
    deal = record["deal"]
    assert isinstance(deal, dict)
    actions[first_play]["action"] = "play " + deal["hands"][(seat + 1) % 4][0]
    path.write_text(json.dumps(record))
    out = dehla("score", str(path))
    assert out.returncode == 2
    assert out.stderr.startswith(f"error: actions[{first_play}] (seat {seat}, ")
    assert f"seat {seat} does not hold it" in out.stderr
    assert out.stderr.strip().count("\n") == 0


@pytest.mark.parametrize(("mutate", "message"), [
    (lambda r: r.pop("deal"), "record: missing field 'deal'"),
    (lambda r: r.update(dealer=7), "dealer: expected a seat 0..3, got 7"),
    (lambda r: r["rules"].update(trump="sometimes"), "rules: option trump"),
    (lambda r: r["deal"]["hands"][1].__setitem__(0, "ZZ"), r"deal.hands[1][0]: 'ZZ' is not a card"),
    (lambda r: r["actions"].pop(), "actions: the hand is not finished"),
    (lambda r: r["result"].update(winner=1 - r["result"]["winner"]), "result.winner: the record says"),
    (lambda r: r.update(schema_version=2), "schema_version: this engine reads hand records up to schema version 1"),
    (lambda r: r["actions"][0].update(seat="0"), "actions[0].seat: Input should be a valid integer, got '0'"),
])
def test_score_rejects_malformed_records_with_a_specific_message(
    record_file: tuple[Path, dict[str, object]], mutate: object, message: str
) -> None:
    path, record = record_file
    mutate(record)  # type: ignore[operator]
    path.write_text(json.dumps(record))
    out = dehla("score", str(path))
    assert out.returncode == 2
    assert message in out.stderr, out.stderr
    assert "Traceback" not in out.stderr


def test_score_rejects_a_file_that_is_not_json(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    out = dehla("score", str(path))
    assert out.returncode == 2
    assert "not JSON (line 1, column 2" in out.stderr


def test_score_reports_a_missing_file(tmp_path: Path) -> None:
    out = dehla("score", str(tmp_path / "nope.json"))
    assert out.returncode == 2
    assert "cannot read" in out.stderr
