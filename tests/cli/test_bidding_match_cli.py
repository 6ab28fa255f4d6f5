"""``dehla match`` plays Twenty-eight and Twenty-nine (protocol 1.6) through the referee with real
bot processes, and ``dehla replay`` shows the auction, the trump and the points each team took.

One test runs ``dehla`` as a real process; the others run it in this process
(``tests.cli_helpers.run_dehla``), every bot still a real process over gRPC."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli_helpers import run_dehla


def report_of(out: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert out.returncode == 0, out.stderr
    report: dict[str, object] = json.loads(out.stdout)
    assert report["status"] == "done" and report["faults"] == [], report
    assert report["substitutions"] == [0, 0, 0, 0]
    return report


@pytest.mark.parametrize("preset", ["twenty-eight", "twenty-nine"])
def test_search_plays_heuristic_on_the_bidding_presets_with_no_fault(preset: str, tmp_path: Path) -> None:
    out = run_dehla("match", "search", "heuristic", "--preset", preset, "--deals", "2", "--seed", "3",
                    "--records", str(tmp_path), "--json")
    report = report_of(out)
    assert report["hands"] == 4 and report["unit"] == "deal pair"
    record = Path(str(report["record"]))
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["match_start"] + ["hand"] * 4 + ["match_end"]
    assert [line["index"] for line in lines[1:-1]] == [0, 1, 2, 3]
    assert [line["room"] for line in lines[1:-1]] == [0, 1, 0, 1]  # each deal's plays by bots of two rooms
    hands = [line["record"] for line in lines[1:-1]]
    assert all(hand["game"] == "bidding" and hand["result"] is not None for hand in hands)
    total = 29 if preset == "twenty-nine" else 28
    assert all(sum(hand["result"]["points"]) == total for hand in hands if hand["result"]["tricks_played"] == 8)
    replay = run_dehla("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.count("auction: ") == 4 and replay.stdout.count("result: ") == 4
    assert "face down as the trump" in replay.stdout


def test_a_seat_s_replay_hides_the_other_hands_and_the_face_down_card(tmp_path: Path) -> None:
    report = report_of(run_dehla("match", "heuristic", "random", "--preset", "twenty-eight", "--deals", "1",
                                 "--seed", "8", "--records", str(tmp_path), "--json"))
    record = Path(str(report["record"]))
    hands = [json.loads(line)["record"] for line in record.read_text().splitlines()[1:-1]]
    for seat in range(4):
        out = run_dehla("replay", str(record), "--seat", str(seat))
        assert out.returncode == 0, out.stderr
        assert out.stdout.count("8 cards, not seen") == 3 * len(hands)
        lines = [x for x in out.stdout.splitlines() if "face down as the trump" in x]
        assert len(lines) == len(hands)
        for hand, line in zip(hands, lines, strict=True):
            hidden = next(a["action"].split()[1] for a in hand["actions"] if a["action"].startswith("hide"))
            assert (f"puts {hidden} face down" in line) == (seat == hand["result"]["bidder"]), (seat, line)


def test_a_match_to_the_target_in_game_points(tmp_path: Path) -> None:
    report = report_of(run_dehla("match", "heuristic", "heuristic", "--preset", "twenty-eight", "--option",
                                 "target=2", "--format", "hands:100", "--seed", "5", "--records", str(tmp_path),
                                 "--json"))
    assert report["unit"] == "hand"
    score = report["score"]
    assert isinstance(score, list) and max(score) == 2 > min(score)
    assert report["winner"] is None or report["winner"] in "AB"


def test_dehla_itself_plays_twenty_eight_in_a_real_process(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "arena", "match", "random", "heuristic", "--preset", "twenty-eight",
                          "--deals", "1", "--records", str(tmp_path), "--json"],
                         capture_output=True, text=True, timeout=180, check=False)
    assert report_of(out)["hands"] == 2
