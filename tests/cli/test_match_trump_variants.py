"""``dehla match search heuristic`` under seed 003's trump variants (rules.md, "Trumps"): real bot
processes play a short match per variant with no fault, and every hand's record replays.

- ``trump_card=later``: "the trump caller, if unwilling to choose a suit on the basis of five
  cards, can specify some later card such as the 7th or the 10th";
- ``decline=second_packet``: "trumps are determined by turning over one card at random from the
  second batch of cards dealt to the trump caller";
- ``hidden_blind=true``: "the trump indicator card is selected at random from the first
  player's first five cards without looking".
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from arena.engine.hand_records import replay_record
from arena.referee.match_record_lines import HandLine, read_line
from arena.referee.match_recorder import read_match_record
from tests.cli_helpers import run_dehla

SEED = "1"
"""Its four deals give the heuristic caller a hand with no three cards of a suit (so it declines)."""


@pytest.mark.parametrize(("preset", "options", "action"), [
    ("court-piece", ["trump_card=later", "trump_card_index=10"], "decline"),
    ("court-piece", ["decline=second_packet"], "decline"),
    ("court-piece-double-sir", ["hidden_blind=true"], None),
])
def test_search_and_heuristic_play_each_trump_variant_without_fault(
    tmp_path: Path, preset: str, options: list[str], action: str | None
) -> None:
    # A bank of 5 s: the clock is not what is tested, and under load a 1 s bank ran dry (a timeout).
    args = ["match", "search", "heuristic", "--preset", preset, "--format", "hands:4", "--seed", SEED,
            "--per-move", "0.05", "--bank", "5", "--records", str(tmp_path), "--json"]
    for option in options:
        args += ["--option", option]
    out = run_dehla(*args)
    assert out.returncode == 0, out.stderr
    report = json.loads(out.stdout)
    assert report["status"] == "done"
    assert report["faults"] == [] and report["substitutions"] == [0, 0, 0, 0]
    record = Path(report["record"])
    lines = [read_line(line, f"{record}:{n}") for n, line in enumerate(read_match_record(record), 1)]
    hands = [line for line in lines if isinstance(line, HandLine)]
    assert len(hands) == 4
    kinds: set[str] = set()
    for line in hands:
        replayed = replay_record(line.record)  # checks every action and the written result
        assert replayed.is_over
        assert all(name in replayed.rules.options() for name in (o.split("=")[0] for o in options))
        kinds |= {str(a).split()[0] for _, a in replayed.history}
    replay = run_dehla("replay", str(record))
    assert replay.returncode == 0, replay.stderr
    if action is not None:
        assert action in kinds
        assert "declines to choose trumps on five cards" in replay.stdout
    if preset == "court-piece-double-sir":
        assert "hide" not in kinds  # a blind card is put down by nobody
        assert "face down as trumps" not in replay.stdout
