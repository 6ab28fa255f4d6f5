"""``dehla match`` and ``dehla replay`` as users run them: real bot processes over real gRPC.

The first test runs ``dehla`` itself as a real process (the entry point, exit code, ``--json`` on a
real stdout); the others run ``arena.cli.main`` in this process (``tests.cli_helpers.run_dehla``,
the same ``LazyGroup.main`` and program name ``python -m arena`` runs; a traceback fails the
test) and still start every bot as a real process: their subject is the report or the refusal."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.cli_helpers import run_dehla


def dehla_process(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args], capture_output=True, text=True,
                          timeout=180, check=False)


def dehla(*args: str) -> subprocess.CompletedProcess[str]:
    return run_dehla(*args)


def test_match_between_sample_bots_reports_every_hand_and_replays(tmp_path: Path) -> None:
    out = dehla_process("match", "random", "random+random", "--deals", "3", "--seed", "4",
                "--records", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["status"] == "done"
    assert report["hands"] == 6 and report["unit"] == "deal pair"
    assert sum(report["hands_won"]) <= 6
    assert report["faults"] == []
    low, high = report["ci95"]
    assert low <= report["mean_difference"] <= high
    record = Path(report["record"])
    lines = [json.loads(line) for line in record.read_text().splitlines()]
    assert [line["type"] for line in lines] == ["match_start"] + ["hand"] * 6 + ["match_end"]
    assert all(d["ms"] >= 0 for line in lines[1:-1] for d in line["decisions"])
    replay = dehla("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    assert replay.stdout.count("result: team") == 6


def test_match_in_traditional_format_uses_the_format(tmp_path: Path) -> None:
    out = dehla("match", "random", "random", "--format", "hands:3", "--preset", "mendikot",
                "--records", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["hands"] == 3 and report["unit"] == "hand"


def test_match_rejects_bad_input_with_one_line(tmp_path: Path) -> None:
    cases = [
        (["no-such-bot", "random"], "unknown bot 'no-such-bot'"),
        (["random", "random", "--preset", "whist"], "unknown preset 'whist'"),
        (["random", "random", "--preset", "twenty-eight", "--format", "kots:3"],
         "a bidding game plays to its rules' target in game points"),
        (["random", "random", "--preset", "twenty-nine", "--option", "min_bid=30"], "bids must satisfy"),
        (["random", "random", "--format", "sets:3"], "unknown kind 'sets'"),
        (["random", "a+b+c"], "expected BOT or BOT1+BOT2"),
    ]
    for args, message in cases:
        out = dehla("match", *args, "--records", str(tmp_path))
        assert out.returncode == 2, (args, out.stderr)
        assert message in out.stderr, out.stderr
        assert "Traceback" not in out.stderr
        assert out.stderr.strip().count("\n") == 0


def test_match_with_a_bot_that_does_not_start_exits_2(tmp_path: Path) -> None:
    out = dehla("match", "random", f"{sys.executable} -c 'raise SystemExit(3)'",
                "--records", str(tmp_path), "--deals", "1")
    assert out.returncode == 2
    assert "did not start" in out.stderr
    assert "exited" in out.stderr


def test_replay_rejects_a_broken_record(tmp_path: Path) -> None:
    path = tmp_path / "broken.jsonl"
    path.write_text('{"type": "match_start", "match_id": "m", "preset": "p", "format": "f", "seed": 1, '
                    '"seats": []}\nnot json\n')
    out = dehla("replay", str(path))
    assert out.returncode == 2
    assert f"{path}:2: not JSON" in out.stderr


def test_match_plays_on_reply_unless_asked_for_slot_end_and_the_record_says_which(tmp_path: Path) -> None:
    """``dehla match`` offers the ladder's release as an option (issue 23), at one table and at
    several on one loop (``--concurrency``); the hold itself is ``tests/referee/test_move_release.py``'s."""
    cases = [("default", [], "on-reply"), ("slot-end", ["--release", "slot-end"], "slot-end"),
             ("tables", ["--release", "slot-end", "--concurrency", "2"], "slot-end")]
    for name, args, release in cases:
        # A reply past a 10 ms slot is routine on a loaded machine: it costs the (small) bank, and
        # one after that is substituted, never a forfeit that would end the match early.
        out = dehla("match", "random", "random", "--deals", "2", "--per-move", "0.01", "--bank", "0.05",
                    "--policy", "substitute", "--seed", "5", "--records", str(tmp_path / name), "--json", *args)
        assert out.returncode == 0, out.stderr
        report = json.loads(out.stdout)
        assert report["hands"] == 4, report
        start = json.loads(Path(report["record"]).read_text().splitlines()[0])
        assert start["time_control"]["release"] == release, name
