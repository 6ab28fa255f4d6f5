"""Golden transcripts: every seat's observation at every decision of one fixed hand per preset.

A difference means the engine's observable behaviour changed. If that is intended, run
``python tools/regen_golden.py`` and review the diff of ``tests/golden/`` like code.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from arena.engine.actions import REVEAL, PlayCard
from arena.engine.auction import Bid
from arena.engine.bidding_rules import BIDDING_PRESETS
from arena.engine.rules import PRESETS, Capture, MakerDiscard, Reveal, TrumpMethod
from arena.engine.trump import RevealReason
from tests.golden_transcript import (
    GOLDEN_DIR,
    GOLDEN_PRESETS,
    REGEN_HINT,
    describe_difference,
    golden_path,
    play_bidding_golden,
    play_golden,
    transcript,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("preset", GOLDEN_PRESETS)
def test_transcript_matches_the_stored_golden(preset: str) -> None:
    path = golden_path(preset)
    if not path.exists():
        pytest.fail(f"{path.name} is missing; {REGEN_HINT}", pytrace=False)
    stored = path.read_text(encoding="utf-8")
    now = transcript(preset)
    if now != stored:
        pytest.fail(f"{describe_difference(stored, now, path.name)}\n{REGEN_HINT}", pytrace=False)


def test_no_golden_file_without_a_preset() -> None:
    stale = sorted(p.name for p in GOLDEN_DIR.glob("*.txt") if p.stem not in GOLDEN_PRESETS)
    assert not stale, f"golden files of unknown presets: {stale}; {REGEN_HINT}"


def test_transcripts_do_not_depend_on_the_process() -> None:
    """A second interpreter with other string hashing (set and dict order of ``str``) writes the
    same transcripts as this one: nothing in the engine depends on the process it runs in."""
    script = ("import sys, json; from tests.golden_transcript import transcript; "
              "sys.stdout.write(json.dumps({p: transcript(p) for p in sys.argv[1:]}))")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run([sys.executable, "-c", script, *GOLDEN_PRESETS], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=120, check=True)
    assert json.loads(out.stdout) == {preset: transcript(preset) for preset in GOLDEN_PRESETS}


@pytest.mark.parametrize("preset", list(PRESETS))
def test_golden_hand_shows_the_presets_special_rules(preset: str) -> None:
    # The golden deals were picked for these; a new deal or policy must keep them.
    state, lines = play_golden(preset)
    rules = state.rules
    setting, reveal = state.trump_setting, state.reveal
    assert state.result is not None and setting is not None
    if rules.capture is Capture.SWEEP:
        assert any(t.tricks_taken > 1 for t in state.tricks), "no sweep of two or more tricks"
    if rules.trump is TrumpMethod.CUT:
        assert setting.seat is not None and setting.trick > 1, "trumps should be cut after trick 1"
    if rules.reveal is Reveal.ON_PLAY:
        assert reveal is not None and reveal.reason is RevealReason.PLAYED and reveal.trick > 1
        assert REVEAL not in [a for _, a in state.history]
        trump = reveal.card.suit
        secret_ruffs = [t for t in state.tricks[:reveal.trick - 1]
                        if t.cards[0].suit != trump == t.cards[t.seats.index(t.winner)].suit]
        assert secret_ruffs, "no trick won by the trump suit while it was face down"
    elif rules.trump is TrumpMethod.HIDDEN:
        assert reveal is not None
        expected = RevealReason.REQUEST if rules.reveal is Reveal.ON_REQUEST else RevealReason.VOID
        assert reveal.reason is expected and reveal.trick > 1
        assert (REVEAL in [a for _, a in state.history]) == (expected is RevealReason.REQUEST)
    if rules.maker_discard is MakerDiscard.FACE_DOWN:
        assert state.face_down_cards, "no face-down discard"
        assert any(isinstance(a, PlayCard) and a.face_down for _, a in state.history)
        assert any(re.search(r"\[\d,null\]", line) for line in lines if line.startswith("obs ")), (
            "no other seat's view shows the face-down card as unknown"
        )


@pytest.mark.parametrize("preset", list(BIDDING_PRESETS))
def test_bidding_golden_hand_shows_the_auction_and_both_phases(preset: str) -> None:
    # The golden deals were picked for these: several rounds of bids, the trump exposed on an
    # other seat's call after the first trick, a full hand of eight tricks.
    hand, lines = play_bidding_golden(preset)
    contract, reveal, result = hand.contract, hand.reveal, hand.result
    assert contract is not None and reveal is not None and result is not None
    assert len(hand.auction.calls) > 4 and any(isinstance(a, Bid) for _, a in hand.auction.calls[1:])
    assert reveal.reason is RevealReason.REQUEST and reveal.trick > 1
    assert reveal.seat != contract.bidder
    assert not result.void and sum(result.points) == hand.rules.total_points
    hidden = f'"{reveal.card}"'
    before = lines[: next(i for i, ln in enumerate(lines) if ln == "action reveal")]
    others = [ln for ln in before if ln.startswith("obs ") and not ln.startswith(f"obs {contract.bidder} ")]
    assert others and not any(hidden in ln or '"trump":null' not in ln for ln in others), (
        "another seat's view names the face-down card or the trump before the exposure"
    )


def test_describe_difference_names_the_decision_and_the_fields() -> None:
    stored = transcript("dehla-pakad")
    lines = stored.splitlines()
    index = next(i for i, ln in enumerate(lines) if ln.startswith("obs 2 ") and '"trick_number":5' in ln)
    lines[index] = lines[index].replace('"trick_number":5', '"trick_number":6')
    message = describe_difference(stored, "\n".join(lines) + "\n", "dehla-pakad.txt")
    assert f"1 of {len(lines)} lines differ" in message and f"line {index + 1} (decision " in message
    assert "    trick_number: stored 5, now 6" in message
    assert len(message.splitlines()) == 3
