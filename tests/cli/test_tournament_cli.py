"""``dehla tournament`` as users run it: real sample bots over real gRPC, a resume, a bot that does
not start, Ctrl-C, and bad input (exit 2, one line)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.bots.scaffold import scaffold_bot
from arena.cli import main
from arena.console.serving import LOCAL_MATCHES, SERVER_FILE
from arena.contract.faults import FaultPolicy
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import MoveRelease
from arena.referee.launcher import resolve_partnership
from arena.referee.tournament.command import durable_spec
from arena.referee.tournament.plan import (
    Entrant,
    PairingResult,
    TournamentPlan,
    create_plan,
    make_pairings,
    result_path,
    write_result,
)
from tests.cli_helpers import run_dehla

FAST = ("--per-move", "0.05", "--concurrency", "2")
BROKEN = f"{sys.executable} -c 'raise SystemExit(3)'"


def dehla(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args, "--data", str(data)], capture_output=True,
                          text=True, timeout=300, check=False)


def records_of(report: dict[str, Any]) -> dict[int, list[dict[str, Any]]]:
    return {m["pairing"]: [json.loads(line) for line in Path(m["record"]).read_text().splitlines()]
            for m in report["matches"]}


def test_a_round_robin_of_sample_bots_plays_every_pairing_and_tables_what_the_records_say(tmp_path: Path) -> None:
    # A `dehla serve` for this data folder, as it announces itself (this process stands in for it:
    # the server itself is tested in tests/web/test_browser_local.py).
    (tmp_path / SERVER_FILE).write_text(json.dumps({"url": "http://127.0.0.1:8123/", "pid": os.getpid()}))
    out = dehla("tournament", "random", "heuristic", "random+heuristic", "--deals", "2", "--seed", "5",
                "--name", "cup", "--json", *FAST, data=tmp_path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    # The matches are the data folder's local matches, each with its page while the server runs.
    assert [Path(m["record"]) for m in report["matches"]] == [
        tmp_path / LOCAL_MATCHES / f"cup-pairing-00{n}.jsonl" for n in (1, 2, 3)]
    assert [m["page"] for m in report["matches"]] == [
        f"http://127.0.0.1:8123/local/cup-pairing-00{n}" for n in (1, 2, 3)]
    assert report["complete"] and report["pairings"] == 3
    assert [(m["a"], m["b"]) for m in report["matches"]] == [
        ("random", "heuristic"), ("random", "random+heuristic"), ("heuristic", "random+heuristic")]
    records = records_of(report)
    for match in report["matches"]:
        end = records[match["pairing"]][-1]
        assert end["type"] == "match_end" and end["status"] == "done"
        assert match["deal_scores"] == end["deal_scores"] and len(match["deal_scores"]) == 2
    # Each cell is its match's deal pairs, from the row's side.
    cells = {(c["bot"], c["opponent"]): c for c in report["cross_table"]}
    assert len(cells) == 6
    for match in report["matches"]:
        scores = match["deal_scores"]
        cell, mirror = cells[(match["a"], match["b"])], cells[(match["b"], match["a"])]
        assert cell["mean"] == pytest.approx(sum(scores) / 2, abs=1e-4)
        assert mirror["mean"] == pytest.approx(-sum(scores) / 2, abs=1e-4)
        assert (cell["won"], cell["drawn"], cell["lost"]) == (
            sum(s > 0 for s in scores), sum(s == 0 for s in scores), sum(s < 0 for s in scores))
        assert (mirror["won"], mirror["lost"]) == (cell["lost"], cell["won"])
    # Every pairing played the same cards.
    deals = [[line["record"]["deal"]["hands"] for line in lines if line["type"] == "hand"]
             for lines in records.values()]
    assert deals[0] == deals[1] == deals[2]
    standings = report["standings"]
    assert sorted(s["bot"] for s in standings) == ["heuristic", "random", "random+heuristic"]
    assert sum(s["rating"] for s in standings) == pytest.approx(0, abs=0.2)
    assert [s["rating"] for s in standings] == sorted((s["rating"] for s in standings), reverse=True)
    assert standings[-1]["superiority"] is None and "Bradley-Terry" in report["model"]
    assert "finished 3/3" in out.stderr

    # Resumed when finished, it plays nothing and prints the tables again.
    again = dehla("tournament", "--resume", "cup", data=tmp_path)
    assert again.returncode == 0, again.stderr
    assert "3 of 3 pairings played" in again.stdout
    assert "random+heuristic" in again.stdout and "model: Bradley-Terry" in again.stdout
    assert "to play" not in again.stderr


def small_plan(name: str = "cup") -> TournamentPlan:
    names = ["random", "heuristic", "random+heuristic"]
    return TournamentPlan(name=name, entrants=tuple(Entrant(spec=n, name=n) for n in names), deals=1, seed=3,
                          preset="dehla-pakad", per_move=0.05, bank=1.0, release=MoveRelease.ON_REPLY,
                          policy=FaultPolicy.FORFEIT, pairings=make_pairings(names, None))


def test_a_resumed_tournament_plays_only_the_pairings_without_a_result(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments" / "cup"
    plan = small_plan()
    create_plan(folder, plan)
    # Pairing 1 finished before (numbers made up, so the table can only have them from this file).
    first = PairingResult(index=1, a="random", b="heuristic", status=OutcomeStatus.DONE, deal_scores=(4.0,),
                          hands=2)
    write_result(folder, first)
    written = result_path(folder, plan.pairings[0]).read_bytes()

    out = dehla("tournament", "--resume", "cup", "--json", "--concurrency", "2", data=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "2 of 3 pairings to play" in out.stderr
    report = json.loads(out.stdout)
    assert report["complete"]
    assert result_path(folder, plan.pairings[0]).read_bytes() == written
    records = tmp_path / LOCAL_MATCHES
    assert not (records / "cup-pairing-001.jsonl").exists()  # not played again
    assert (records / "cup-pairing-002.jsonl").exists() and (records / "cup-pairing-003.jsonl").exists()
    cells = {(c["bot"], c["opponent"]): c for c in report["cross_table"]}
    assert cells[("random", "heuristic")]["mean"] == 4.0 and cells[("heuristic", "random")]["lost"] == 1


def test_a_bot_that_does_not_start_forfeits_its_matches_and_the_others_play_on(tmp_path: Path) -> None:
    out = dehla("tournament", "heuristic", BROKEN, "--gauntlet", "random", "--deals", "1", "--json", *FAST,
                data=tmp_path)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    played, broken = report["matches"]
    assert (played["a"], played["b"], played["status"], played["faults"]) == ("random", "heuristic", "done", [])
    assert len(played["deal_scores"]) == 1
    assert broken["forfeited_by"] == BROKEN and broken["deal_scores"] == []
    assert {f["kind"] for f in broken["faults"]} == {"failed_start"} and len(broken["faults"]) == 2
    standings = {s["bot"]: s for s in report["standings"]}
    assert (standings[BROKEN]["faults"], standings[BROKEN]["forfeits"], standings[BROKEN]["lost"]) == (2, 1, 1)
    assert standings[BROKEN]["mean"] is None
    assert report["standings"][-1]["bot"] == BROKEN
    assert "random" in out.stderr and "failed_start" in out.stderr


def test_ctrl_c_keeps_the_finished_pairings_and_says_how_to_resume(tmp_path: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "arena", "tournament", "random", "heuristic", "random+heuristic", "--deals", "1",
         "--name", "cup", "--data", str(tmp_path), "--per-move", "0.05", "--concurrency", "1", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # noqa: PLW1509 - a SIGINT-ignoring parent
    try:
        assert process.stderr is not None
        seen = []
        for line in process.stderr:  # the line a finished pairing prints: then Ctrl-C
            seen.append(line)
            if line.startswith("finished 1/3"):
                process.send_signal(signal.SIGINT)
                break
        stdout, rest = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()
    err = "".join(seen) + rest
    assert process.returncode == 130, err
    assert stdout == ""
    finished = err.count("finished ")
    kept = sorted(p.name for p in (tmp_path / "tournaments" / "cup" / "results").iterdir())
    assert len(kept) == finished and 1 <= finished < 3, err
    assert f"interrupted: {finished} of 3 pairings finished" in err
    assert "tournament --resume cup --data" in err
    assert "Traceback" not in err
    # Resuming it (the cancelled pairing's partial record is played over) is
    # tests/referee/test_tournament_play.py's; a resume's command line, the test above.


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["tournament", *args])
    return result.exit_code, result.stderr


@pytest.mark.parametrize(("args", "message"), [
    (["random", "random"], "bot 'random' is named twice"),
    (["random", "heuristic", "--gauntlet", "random"], "bot 'random' is named twice"),
    (["random", "no-such-bot"], "unknown bot 'no-such-bot'"),
    (["random", "heuristic", "--concurrency", "0"], "Invalid value for '--concurrency': 0 is not in the range"),
    (["random", "heuristic", "--deals", "0"], "Invalid value for '--deals'"),
    (["random"], "at least two bots"),
    (["--gauntlet", "random"], "name at least one BOT"),
    (["random", "heuristic", "--name", "../up"], "tournament name '../up'"),
    (["random", "heuristic", "--preset", "whist"], "unknown preset 'whist'"),
    (["random", "heuristic", "--option", "deck=none"], "deck"),
    (["random", "a+b+c"], "expected BOT or BOT1+BOT2"),
    (["--resume", "nothing-here"], "--resume nothing-here: no tournament of that name"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    code, err = invoke(*args, "--data", str(tmp_path))
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err, err
    assert not (tmp_path / "tournaments").exists() or not any((tmp_path / "tournaments").iterdir())


@pytest.mark.parametrize(("args", "message"), [
    (["--deals", "4"], "--deals 4: the tournament in"),
    (["--seed", "9"], "--seed 9:"),
    (["--option", "deck=short32"], "--option deck=short32: the tournament in"),
    (["--gauntlet", "random"], "--gauntlet random:"),
    (["random", "search"], "BOT... random search: the tournament in"),
    (["--name", "other"], "give --name for a new tournament or --resume for an old one, not both"),
])
def test_resume_refuses_options_that_contradict_the_plan(tmp_path: Path, args: list[str], message: str) -> None:
    folder = tmp_path / "tournaments" / "cup"
    create_plan(folder, small_plan())
    plan_text = (folder / "plan.json").read_text()
    code, err = invoke("--resume", "cup", *args, "--data", str(tmp_path))
    assert code == 2, err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert message in err, err
    assert (folder / "plan.json").read_text() == plan_text


def test_an_existing_tournament_is_not_planned_over_and_a_broken_result_is_named(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments" / "cup"
    create_plan(folder, small_plan())
    code, err = invoke("random", "heuristic", "--name", "cup", "--data", str(tmp_path))
    assert code == 2 and "tournament 'cup' exists" in err and "--resume cup" in err, err
    broken = folder / "results" / "pairing-002.json"
    broken.write_text("{not json")
    code, err = invoke("--resume", str(folder), "--data", str(tmp_path / "elsewhere"))
    assert code == 2, err
    assert f"{broken}: not a pairing result" in err and err.count("\n") == 1, err
    assert broken.read_text() == "{not json"


def test_names_from_the_command_line_are_printed_literally(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments" / "cup"
    names = ["random", "[bold]x\x1b[2J"]
    plan = TournamentPlan(name="cup", entrants=tuple(Entrant(spec=n, name=n) for n in names), deals=1, seed=3,
                          preset="dehla-pakad", per_move=0.05, bank=1.0, release=MoveRelease.ON_REPLY,
                          policy=FaultPolicy.FORFEIT, pairings=make_pairings(names, None))
    create_plan(folder, plan)
    write_result(folder, PairingResult(index=1, a=names[0], b=names[1], status=OutcomeStatus.DONE,
                                       deal_scores=(1.0,), hands=2))
    env = {**os.environ, "COLUMNS": "200"}
    result = CliRunner().invoke(main, ["tournament", "--resume", "cup", "--data", str(tmp_path)], env=env)
    assert result.exit_code == 0, result.stderr
    assert "[bold]x\\x1b[2J" in result.stdout
    assert "\x1b[2J" not in result.stdout


def test_a_bot_folder_is_planned_by_its_absolute_path_so_a_resume_elsewhere_finds_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = scaffold_bot("mybot", tmp_path, "me")
    monkeypatch.chdir(tmp_path)
    for spec, durable in [("mybot", str(folder)), ("./mybot+random", f"{folder}+random"), ("random", "random")]:
        assert durable_spec(spec, resolve_partnership(spec)) == durable


def test_a_resume_whose_bot_now_has_another_name_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "tournaments" / "cup"
    plan = small_plan()
    renamed = plan.model_copy(update={"entrants": (Entrant(spec="random", name="random"),
                                                   Entrant(spec="search", name="heuristic"),
                                                   plan.entrants[2])})
    create_plan(folder, renamed)
    code, err = invoke("--resume", "cup", "--data", str(tmp_path))
    assert code == 2, err
    assert "'search' is 'search' now, not 'heuristic' as planned" in err and err.count("\n") == 1, err
    assert not (tmp_path / LOCAL_MATCHES).exists()  # nothing played


def test_a_twenty_eight_tournament_ranks_the_partnerships_on_deal_pair_game_points(tmp_path: Path) -> None:
    out = run_dehla("tournament", "random", "heuristic", "--preset", "twenty-eight", "--deals", "2", "--seed", "7",
                    "--name", "t28", "--json", *FAST, "--data", str(tmp_path))
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["complete"] and report["unit"] == "game points" and report["plan"]["preset"] == "twenty-eight"
    (match,) = report["matches"]
    lines = [json.loads(line) for line in Path(match["record"]).read_text().splitlines()]
    hands = [line["record"] for line in lines if line["type"] == "hand"]
    assert len(hands) == 4 and all(hand["game"] == "bidding" for hand in hands)
    # A deal pair's score: both plays' game points from partnership A's side (seats 0 and 2 in
    # each play's record), each play a deal of its own room.
    played = {}
    for line in lines:
        if line["type"] == "hand":
            result = line["record"]["result"]
            played[line["index"]] = result["game_points"] if result["bidder"] % 2 == 0 else -result["game_points"]
    assert match["deal_scores"] == [played[0] + played[1], played[2] + played[3]]
    cell = {(c["bot"], c["opponent"]): c for c in report["cross_table"]}[("random", "heuristic")]
    assert cell["mean"] == pytest.approx(sum(match["deal_scores"]) / 2, abs=1e-4)
    assert sorted(s["bot"] for s in report["standings"]) == ["heuristic", "random"]
