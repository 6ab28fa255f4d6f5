"""``dehla match --format tens:N`` end to end (issue 29 part 3): real bot processes, the record read
back through the models its schema is generated from, and ``dehla replay`` showing the tens tally.

rules.md, "Tens-total matches": "each team's captured tens accumulate across hands towards a target
(`tens:N`); the first team to reach it wins the match"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.engine.hand_records import replay_record
from arena.referee.match_record_lines import HandLine, MatchEndLine, MatchStartLine, read_line
from arena.referee.match_recorder import read_match_record
from tests.cli_helpers import run_dehla


def test_a_tens_match_ends_when_a_team_leads_at_the_target_and_replays_its_tally(tmp_path: Path) -> None:
    out = run_dehla("match", "random", "heuristic", "--format", "tens:6", "--seed", "11",
                    "--records", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["status"] == "done"
    # read_line validates each line against the models docs/match-record.schema.json is generated from.
    record = Path(report["record"])
    lines = [read_line(line, f"{record}:{n}") for n, line in enumerate(read_match_record(record), 1)]
    start = next(line for line in lines if isinstance(line, MatchStartLine))
    end = next(line for line in lines if isinstance(line, MatchEndLine))
    hands = [line for line in lines if isinstance(line, HandLine)]
    assert start.format == "tens:6"
    totals = [0, 0]
    for position, line in enumerate(hands):
        result = replay_record(line.record).result
        assert result is not None
        totals = [totals[0] + result.tens[0], totals[1] + result.tens[1]]
        over = max(totals) >= 6 and totals[0] != totals[1]
        assert over == (position == len(hands) - 1), (position, totals)
    assert end.score == [float(totals[0]), float(totals[1])]
    assert end.winner_team == (0 if totals[0] > totals[1] else 1)
    assert report["hands"] == len(hands)
    assert report["tens"] == {"target": 6, "totals": totals, "reached_by": "AB"[end.winner_team]}

    replay = run_dehla("replay", str(report["record"]))
    assert replay.returncode == 0, replay.stderr
    last = f"tens after hand {len(hands)}: A {totals[0]} - B {totals[1]}"
    assert last in replay.stdout
    assert "score after hand" not in replay.stdout

    again = run_dehla("match", "random", "heuristic", "--format", "tens:6", "--seed", "11",
                      "--records", str(tmp_path / "again"))
    assert again.returncode == 0, again.stderr
    first = "AB"[end.winner_team]
    name = ["random", "heuristic"][end.winner_team]
    assert f"tens to 6: A {totals[0]} - B {totals[1]}: {first} ({name}) reached it first" in again.stdout


@pytest.mark.parametrize(("args", "message"), [
    (["--format", "tens:0"], "match format 'tens:0': expected a positive count after ':'"),
    (["--format", "tens:x"], "match format 'tens:x': expected a positive count after ':'"),
    (["--format", "tens:5", "--preset", "court-piece"], "tens totals need rules whose hands are decided on tens"),
])
def test_bad_tens_formats_get_one_line(tmp_path: Path, args: list[str], message: str) -> None:
    out = run_dehla("match", "random", "random", *args, "--records", str(tmp_path))
    assert out.returncode == 2, out.stderr
    assert message in out.stderr
    assert out.stderr.strip().count("\n") == 0


def test_the_web_viewer_shows_the_tens_tally_of_each_hand(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient  # noqa: PLC0415 - only this test serves pages

    from ladder.store.paths import ArenaData  # noqa: PLC0415
    from ladder.web.app import create_app  # noqa: PLC0415

    out = run_dehla("match", "heuristic", "random", "--format", "tens:5", "--seed", "3",
                    "--data", str(tmp_path / "data"), "--json")
    assert out.returncode == 0, out.stderr
    record = Path(json.loads(out.stdout)["record"])
    hands = [replay_record(line["record"]).result for line in read_match_record(record) if line["type"] == "hand"]
    client = TestClient(create_app(ArenaData.locate(tmp_path / "data")))
    total = (0, 0)
    for number, result in enumerate(hands, 1):
        assert result is not None
        after = (total[0] + result.tens[0], total[1] + result.tens[1])
        body = client.get(f"/api/local-matches/{record.stem}/hands/{number}/replay").json()
        assert body["tens"] == {"target": 5, "before": list(total), "after": list(after)}
        page = client.get(f"/local/{record.stem}/replay?hand={number}").text
        assert f'data-before="{total[0]}-{total[1]}" data-after="{after[0]}-{after[1]}"' in page
        total = after
    assert max(total) >= 5 and total[0] != total[1]


def test_the_ladder_takes_the_tens_format_to_its_bots(tmp_path: Path) -> None:
    # The ladder offers tens races too (docs/ladder.md; a real one in tests/ladder/test_ladder_bidding.py):
    # with no bots submitted, the format passes and the run stops on the missing bots.
    out = run_dehla("ladder", "run", "--format", "tens:5", "--data", str(tmp_path))
    assert out.returncode == 2
    assert "the ladder needs at least two submitted bots" in out.stderr and "--format" not in out.stderr
    assert out.stderr.strip().count("\n") == 0
