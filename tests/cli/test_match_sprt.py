"""``dehla match --sprt`` and ``--concurrency``: the verdict and its figures, significance before a
winner, how drawn pairs count, no infinite interval, and every bad option refused in one line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from arena.cli import main
from arena.referee.commands import match_command


def run(*args: str) -> Any:
    return CliRunner().invoke(main, ["match", *args])


@pytest.mark.parametrize(("args", "fragment"), [
    (["--sprt", "--alpha", "0"], "'--alpha': 0.0 is not in the range 0<x<1"),
    (["--sprt", "--alpha", "1"], "'--alpha': 1.0 is not in the range 0<x<1"),
    (["--sprt", "--beta", "0"], "'--beta': 0.0 is not in the range 0<x<1"),
    (["--sprt", "--alpha", "nan"], "'--alpha': 'nan' is not a finite number"),
    (["--sprt", "--alpha", "0.6", "--beta", "0.5"], "--sprt: alpha 0.6 + beta 0.5: expected a sum below 1"),
    (["--sprt", "--h0", "0.3", "--h1", "0.2"], "--sprt: bounds 0.3, 0.2: expected H0's below H1's"),
    (["--sprt", "--h0", "0.2", "--h1", "0.2"], "bounds 0.2, 0.2: expected H0's below H1's"),
    (["--sprt", "--h1", "inf"], "'--h1'"),
    (["--sprt", "--max-deals", "0"], "'--max-deals': 0 is not in the range 1<=x<=1000000"),
    (["--sprt", "--deals", "5"], "--sprt plays until the test decides: give --max-deals, not --deals"),
    (["--sprt", "--format", "hands:3"], "--sprt tests deal pairs until it decides: leave --format at duplicate"),
    (["--sprt", "--format", "duplicate:9"], "leave --format at duplicate (not duplicate:9)"),
    (["--alpha", "0.1"], "--alpha is an option of --sprt (add --sprt)"),
    (["--max-deals", "50"], "--max-deals is an option of --sprt (add --sprt)"),
    (["--concurrency", "0"], "'--concurrency': 0 is not in the range 1<=x<=64"),
    (["--concurrency", "two"], "'--concurrency': 'two' is not a valid integer"),
    (["--concurrency", "2", "--format", "kots:1"], "only duplicate matches are played on several tables"),
])
def test_bad_options_are_refused_in_one_line(tmp_path: Path, args: list[str], fragment: str) -> None:
    result = run("random", "random", "--records", str(tmp_path), *args)
    assert result.exit_code == 2, result.output
    assert result.output.startswith("error: ")
    assert result.output.count("\n") == 1, result.output
    assert fragment in result.output, result.output
    assert not list(tmp_path.glob("*.jsonl"))  # refused before any bot started


def dehla(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", "match", *args], capture_output=True, text=True,
                          timeout=300, check=False)


def test_sprt_defaults_suit_the_authors_question() -> None:
    """Is A better than B by 0.2 sd per deal pair, wrong at most 2.5% of the time either way (the
    rates at which the test needs under half the fixed test's deals: docs/sprt.md)."""
    defaults = {p.name: p.default for p in match_command.params}
    assert (defaults["alpha"], defaults["beta"], defaults["h0"], defaults["h1"]) == (0.025, 0.025, 0.0, 0.2)
    assert defaults["max_deals"] == 1000 and defaults["concurrency"] == 1


def test_sprt_decides_for_the_stronger_bot_and_reports_every_figure(tmp_path: Path) -> None:
    out = dehla("heuristic", "random", "--sprt", "--h1", "0.6", "--max-deals", "200", "--seed", "2",
                "--records", str(tmp_path), "--json")
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    sprt = report["sprt"]
    assert sprt["verdict"] == "H1 accepted"
    assert sprt["llr"] >= sprt["upper"] > 0 > sprt["lower"]
    assert (sprt["alpha"], sprt["beta"], sprt["h0"], sprt["h1"], sprt["max_deals"]) == (0.025, 0.025, 0.0, 0.6, 200)
    assert sprt["pairs"] == report["units"] < 200  # stopped at the verdict, not the cap
    assert sprt["effect"] > 0.6 and report["winner"] == "A" and report["ci95"][0] > 0
    assert report["hands"] == 2 * sprt["pairs"]
    lines = [json.loads(line) for line in Path(report["record"]).read_text().splitlines()]
    assert [line["index"] for line in lines[1:-1]] == list(range(report["hands"]))
    assert lines[-1]["deal_scores"] and len(lines[-1]["deal_scores"]) == sprt["pairs"]


def test_sprt_undecided_at_the_cap_says_so_in_text(tmp_path: Path) -> None:
    out = dehla("heuristic", "heuristic+random", "--sprt", "--max-deals", "2", "--records", str(tmp_path))
    assert out.returncode == 0, out.stderr
    assert "SPRT: undecided at the cap after 2 deal pairs: no verdict within 2 deal pairs" in " ".join(
        out.stdout.split())
    assert "LLR" in out.stderr  # the live line (stderr is not a terminal here: a plain line)


def test_a_one_deal_match_has_no_infinite_interval_and_names_no_winner(tmp_path: Path) -> None:
    out = dehla("heuristic", "random", "--deals", "1", "--records", str(tmp_path))
    assert out.returncode == 0, out.stderr
    text = " ".join(out.stdout.split())
    assert "inf" not in text
    assert "(no interval from 1 deal pair)" in text
    assert "winner: none: no significant difference" in text
    assert "a drawn deal pair counting half" in text


def test_concurrency_two_gives_the_record_of_one(tmp_path: Path) -> None:
    """Real bot processes on two tables: the deterministic heuristic against itself with another
    partner; the record's hands are those of one table, in deal order."""
    reports = []
    for tables in ("1", "2"):
        out = dehla("heuristic", "heuristic", "--deals", "3", "--seed", "7", "--concurrency", tables,
                    "--records", str(tmp_path / tables), "--json")
        assert out.returncode == 0, out.stderr
        reports.append(json.loads(out.stdout))
    records = []
    for report in reports:
        lines = [json.loads(line) for line in Path(report["record"]).read_text().splitlines()]
        records.append([(line["index"], line["record"], [d["action"] for d in line["decisions"]])
                        for line in lines[1:-1]])
    assert records[0] == records[1] and len(records[0]) == 6
    assert [r["mean_difference"] for r in reports] == [reports[0]["mean_difference"]] * 2
    assert (tmp_path / "2" / f"{Path(reports[1]['record']).stem}.table1.seat0.log").exists()
