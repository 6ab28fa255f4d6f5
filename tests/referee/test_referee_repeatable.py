"""The same ``--seed`` replays the same match between deterministic bots (issue 12, section 7).

What may differ between two runs, and nothing else: the match id (it names the run), the
record's path, and per decision the random request id and the measured times (``ms`` and the
``bank_left`` they leave). The seat seeds in StartMatch come from the match seed alone, and
the sample bots draw from them, so every card played must be the same.

Negative control: before seat seeds the sample bots seeded themselves from the match id, so
the table test below (two match ids, one seed) failed at its first differing hand.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from arena.engine.chance import derive_seed
from arena.engine.deal import Deal
from arena.engine.rules import rules_for
from arena.referee.seeds import seat_seed
from tests.referee_helpers import RANDOM, run_table, table_config

RUN_VARIABLE = ("match_id", "record")
DECISION_VARIABLE = ("request_id", "ms", "bank_left")


def comparable(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A record without what legitimately differs between two runs of one seed."""
    out = []
    for line in lines:
        kept = {k: v for k, v in line.items() if k not in RUN_VARIABLE}
        if "decisions" in kept:
            kept["decisions"] = [{k: v for k, v in d.items() if k not in DECISION_VARIABLE}
                                 for d in kept["decisions"]]
        out.append(kept)
    return out


def read_record(path: Path) -> list[dict[str, Any]]:
    return [json.loads(text) for text in path.read_text().splitlines()]


def dehla_match(records: Path) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-m", "arena", "match", "random", "heuristic", "--seed", "7", "--deals", "2",
         "--json", "--records", str(records)],
        capture_output=True, text=True, check=False, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def test_two_cli_matches_with_one_seed_give_the_same_record(tmp_path: Path) -> None:
    first, second = dehla_match(tmp_path / "one"), dehla_match(tmp_path / "two")
    assert {k: v for k, v in first.items() if k not in RUN_VARIABLE} == \
        {k: v for k, v in second.items() if k not in RUN_VARIABLE}
    a, b = read_record(Path(first["record"])), read_record(Path(second["record"]))
    assert len(a) == 1 + 4 + 1, "match_start, four hands, match_end"
    assert comparable(a) == comparable(b)


def test_two_tables_with_other_match_ids_and_one_seed_play_the_same_cards(tmp_path: Path) -> None:
    async def both() -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        one = await run_table(table_config("run-one", match_format="duplicate:1"), [RANDOM] * 4, tmp_path / "1")
        two = await run_table(table_config("run-two", match_format="duplicate:1"), [RANDOM] * 4, tmp_path / "2")
        return one.record, two.record
    a, b = asyncio.run(both())
    assert comparable(a) == comparable(b)


def test_seat_seeds_differ_by_seat_and_match_seed() -> None:
    seeds = {seat_seed(match, seat) for match in range(50) for seat in range(4)}
    assert len(seeds) == 200
    assert seat_seed(7, 0) == seat_seed(7, 0)


@given(st.integers(min_value=-(2**70), max_value=2**70), st.integers(min_value=0, max_value=3))
def test_a_seat_seed_is_none_of_the_deal_seeds_of_its_match(seed: int, seat: int) -> None:
    """The seat seed is not a deal's seed (nor the first dealer's draw): a bot cannot feed it to
    the deal derivation. (That it reveals nothing at all rests on BLAKE2b being a keyed PRF.)"""
    mine = seat_seed(seed, seat)
    rules = rules_for("dehla-pakad")
    for number in range(4):
        deal_seed = derive_seed(seed, "deal", number)
        assert mine != deal_seed
        assert Deal.from_seed(rules, mine) != Deal.from_seed(rules, deal_seed)
    assert mine not in (seed, seed & (2**64 - 1))
