"""``bench.deal_pairs``: the deal-pair scores of real match records (in-process bots), pooled
and compared deal by deal, and a record it cannot read refused by name, line and reason."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

import pytest

from arena.contract.faults import FaultPolicy
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.deal_pairs import play_deal_pairs
from arena.referee.in_process import InProcessSeat
from arena.referee.match_recorder import MatchRecorder
from arena.referee.stats import mean_interval
from arena.referee.table_values import TableConfig
from bench.ceiling import main as ceiling_main
from bench.deal_pairs import DealPairsError, deal_scores, main, numbered_scores, paired, pool
from sample_bots.heuristic.bot import HeuristicBot
from sample_bots.random.bot import RandomBot
from sdk.bot import Bot

DEALS = 4


def play(record: Path, make_b: Callable[[], Bot], seed: int) -> list[float]:
    """A duplicate match of ``DEALS`` deals, the heuristic against ``make_b``'s bots, recorded at
    ``record``; the deal-pair scores the referee returned."""
    config = TableConfig("pairs", rules_for(), "dehla-pakad", MatchFormat.parse(f"duplicate:{DEALS}"), seed,
                         policy=FaultPolicy.FORFEIT)
    seats = [[InProcessSeat(HeuristicBot()), InProcessSeat(make_b()), InProcessSeat(HeuristicBot()),
              InProcessSeat(make_b())]]
    return list(asyncio.run(play_deal_pairs(config, [seats], MatchRecorder(record))).deal_scores)


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[float]]]:
    """Two matches on the same deals (seed 3) and one on others (seed 4), each record with the
    scores the referee returned."""
    folder = tmp_path_factory.mktemp("records")
    out = {}
    makers: tuple[tuple[str, Callable[[], Bot], int], ...] = (
        ("random", RandomBot, 3), ("heuristic", HeuristicBot, 3), ("other", RandomBot, 4))
    for name, make_b, seed in makers:
        path = folder / f"{name}.jsonl"
        out[name] = (path, play(path, make_b, seed))
    return out


def test_the_scores_are_the_referees(records: dict[str, tuple[Path, list[float]]]) -> None:
    for path, scores in records.values():
        assert deal_scores(path) == scores and len(scores) == DEALS
    assert any(records["random"][1])  # the heuristic against random wins some pairs


def test_pool_takes_every_records_pairs(records: dict[str, tuple[Path, list[float]]]) -> None:
    (a, first), (b, second) = records["random"], records["other"]
    stats = mean_interval(first + second)
    result = pool([a, b])
    assert result["pairs"] == 2 * DEALS and result["mean"] == round(stats.mean, 3)
    assert result["won"] + result["drawn"] + result["lost"] == 2 * DEALS  # type: ignore[operator]


def test_paired_compares_deal_by_deal(records: dict[str, tuple[Path, list[float]]]) -> None:
    (a, first), (b, second) = records["random"], records["heuristic"]
    differences = [x - y for x, y in zip(first, second, strict=True)]
    result = paired([(a, b)])
    assert result["pairs"] == DEALS and result["difference"] == round(mean_interval(differences).mean, 3)
    twice = paired([(a, b), (a, b)])
    assert twice["pairs"] == 2 * DEALS and twice["difference"] == result["difference"]


def test_a_record_without_its_end_is_refused_by_name(records: dict[str, tuple[Path, list[float]]],
                                                     tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "running.jsonl"
    cut.write_text("\n".join(records["random"][0].read_text().splitlines()[:-1]) + "\n")
    with pytest.raises(DealPairsError, match=r"running\.jsonl: no match_end line"):
        deal_scores(cut)
    assert main(["pool", str(cut)]) == 1
    assert "running.jsonl" in capsys.readouterr().err


def test_a_tampered_end_is_refused_with_its_line(records: dict[str, tuple[Path, list[float]]], tmp_path: Path) -> None:
    lines = records["random"][0].read_text().splitlines()
    end = json.loads(lines[-1])
    end["deal_scores"] = ["<script>"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    with pytest.raises(DealPairsError, match=rf"bad\.jsonl:{len(lines)}: match_end line"):
        deal_scores(bad)
    bad.write_text("\n".join([*lines[:-1], "[1, 2]"]) + "\n")
    with pytest.raises(DealPairsError, match=rf"bad\.jsonl:{len(lines)}: expected an object"):
        deal_scores(bad)


def ceiling_output(folder: Path, slices: str, capsys: pytest.CaptureFixture[str]) -> Path:
    """What ``python -m bench.ceiling SLICE dehla-pakad 3 sampled+tuned+w0`` prints (the tuned
    heuristic alone, in process) for each slice, concatenated into one file."""
    path = folder / f"ceiling-{slices}.log"
    text = ""
    for piece in slices.split(","):
        ceiling_main([piece, "dehla-pakad", "3", "sampled+tuned+w0"])
        text += capsys.readouterr().out
    path.write_text(text)
    return path


def test_ceiling_slices_pair_by_deal_number(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = ceiling_output(tmp_path, "0..4", capsys)
    halves = ceiling_output(tmp_path, "2..4,0..2", capsys)
    shifted = ceiling_output(tmp_path, "1..4", capsys)
    scores = numbered_scores(whole)
    assert sorted(scores) == [0, 1, 2, 3] and numbered_scores(halves) == scores
    assert any(scores.values())  # the tuned heuristic wins or loses some of these pairs
    same = paired([(halves, whole)])
    assert same["pairs"] == 4 and same["difference"] == 0.0
    assert paired([(shifted, whole)])["pairs"] == 3  # deals 1 to 3 only, each against itself
    assert paired([(shifted, whole)])["difference"] == 0.0
    assert pool([whole])["mean"] == round(mean_interval(list(scores.values())).mean, 3)


def test_a_ceiling_output_with_a_deal_scored_twice_differently_is_refused(tmp_path: Path) -> None:
    twice = tmp_path / "twice.log"
    twice.write_text("  deal 0: +1\n  deal 1: -1\n  deal 0: +2\n")
    with pytest.raises(DealPairsError, match=r"twice\.log:3: deal 0 again"):
        numbered_scores(twice)
    neither = tmp_path / "neither.log"
    neither.write_text("deal zero: +1\n")
    with pytest.raises(DealPairsError, match=r"neither\.log: neither a match record"):
        numbered_scores(neither)
