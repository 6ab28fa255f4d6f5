"""``bench.deal_pairs``: the deal-pair scores of real match records (in-process bots), pooled
and compared deal by deal, and a record it cannot read refused by name, line and reason."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.referee.stats import mean_interval
from bench.deal_pairs import DealPairsError, deal_scores, main, paired, pool
from sample_bots.heuristic.bot import HeuristicBot
from tests.referee.test_deal_pairs import play

DEALS = 4


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[float]]]:
    """Two matches on the same deals (seed 3) and one on others (seed 4), each record with the
    scores the referee returned."""
    folder = tmp_path_factory.mktemp("records")
    out = {}
    for name, make_b, seed in (("lowest", None, 3), ("heuristic", HeuristicBot, 3), ("other", None, 4)):
        path = folder / f"{name}.jsonl"
        outcome = play(1, DEALS, path, seed=seed) if make_b is None else play(1, DEALS, path, make_b, seed=seed)
        out[name] = (path, list(outcome.deal_scores))
    return out


def test_the_scores_are_the_referees(records: dict[str, tuple[Path, list[float]]]) -> None:
    for path, scores in records.values():
        assert deal_scores(path) == scores and len(scores) == DEALS
    assert any(records["lowest"][1])  # the heuristic against the lowest card wins some pairs


def test_pool_takes_every_records_pairs(records: dict[str, tuple[Path, list[float]]]) -> None:
    (a, first), (b, second) = records["lowest"], records["other"]
    stats = mean_interval(first + second)
    result = pool([a, b])
    assert result["pairs"] == 2 * DEALS and result["mean"] == round(stats.mean, 3)
    assert result["won"] + result["drawn"] + result["lost"] == 2 * DEALS  # type: ignore[operator]


def test_paired_compares_deal_by_deal(records: dict[str, tuple[Path, list[float]]]) -> None:
    (a, first), (b, second) = records["lowest"], records["heuristic"]
    differences = [x - y for x, y in zip(first, second, strict=True)]
    result = paired([(a, b)])
    assert result["pairs"] == DEALS and result["difference"] == round(mean_interval(differences).mean, 3)
    twice = paired([(a, b), (a, b)])
    assert twice["pairs"] == 2 * DEALS and twice["difference"] == result["difference"]


def test_a_record_without_its_end_is_refused_by_name(records: dict[str, tuple[Path, list[float]]],
                                                     tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = tmp_path / "running.jsonl"
    cut.write_text("\n".join(records["lowest"][0].read_text().splitlines()[:-1]) + "\n")
    with pytest.raises(DealPairsError, match=r"running\.jsonl: no match_end line"):
        deal_scores(cut)
    assert main(["pool", str(cut)]) == 1
    assert "running.jsonl" in capsys.readouterr().err


def test_a_tampered_end_is_refused_with_its_line(records: dict[str, tuple[Path, list[float]]], tmp_path: Path) -> None:
    lines = records["lowest"][0].read_text().splitlines()
    end = json.loads(lines[-1])
    end["deal_scores"] = ["<script>"]
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join([*lines[:-1], json.dumps(end)]) + "\n")
    with pytest.raises(DealPairsError, match=rf"bad\.jsonl:{len(lines)}: match_end line"):
        deal_scores(bad)
    bad.write_text("\n".join([*lines[:-1], "[1, 2]"]) + "\n")
    with pytest.raises(DealPairsError, match=rf"bad\.jsonl:{len(lines)}: expected an object"):
        deal_scores(bad)
