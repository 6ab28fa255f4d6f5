"""Golden transcripts: one fixed deal per preset, played by a fixed policy, with what every seat
sees at every decision.

A transcript pins the whole observable behaviour of a preset (legal actions, trick winners,
sweeps, reveals, results, the JSON shape of observations) in reviewable text. The test
(``tests/engine/test_golden.py``) regenerates them in memory and compares; ``tools/regen_golden.py``
rewrites the files when a change is intended. Both use this module, so they cannot drift.

Format, one item per line::

    decision N: seat S to DECISION       one block per decision, in order
    obs K {...}                          observe(state, K).to_json() for K = 0..3, compact, sorted keys
    legal A | B | ...                    the legal actions of the seat to move
    action A                             the action the policy took
    end                                  after the last action: the four final observations
"""

from __future__ import annotations

import json
from pathlib import Path

from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_observation import observe_bidding
from arena.engine.bidding_rules import BIDDING_PRESETS, bidding_rules_for
from arena.engine.chance import choose_index
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.observation import observe
from arena.engine.rules import PRESETS, rules_for
from arena.engine.seats import SEATS

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"
REGEN_HINT = "run python tools/regen_golden.py if the change is intended"

DEALER = 0
DEAL_SEEDS: dict[str, int] = {
    # Chosen so that each transcript shows its preset's special rules at work: sweeps, a cut
    # trump set by a void, a reveal on void, reveals on request, an on_play trump winning tricks
    # while still face down, a face-down discard (see test_golden.py).
    "dehla-pakad": 1,
    "dehla-pakad-cut": 5,
    "dehla-pakad-hidden": 7,
    "mendikot": 4,
    "mendikot-closed": 17,
    "court-piece": 1,
    "court-piece-double-sir": 9,
}
assert set(DEAL_SEEDS) == set(PRESETS), "every preset needs a golden deal"
BIDDING_DEAL_SEEDS: dict[str, int] = {
    # Chosen so that the auction goes several rounds and the trump is exposed on another seat's
    # call (not a void hand); see test_golden.py.
    "twenty-eight": 8,
    "twenty-nine": 37,
}
assert set(BIDDING_DEAL_SEEDS) == set(BIDDING_PRESETS), "every bidding preset needs a golden deal"
GOLDEN_PRESETS: tuple[str, ...] = (*PRESETS, *BIDDING_PRESETS)
"""Every preset with a transcript: the engine's presets and the bidding game's (engine only)."""


def golden_path(preset: str) -> Path:
    return GOLDEN_DIR / f"{preset}.txt"


def _line(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def play_golden(preset: str) -> tuple[HandState, list[str]]:
    """Play the preset's golden hand; return the finished state and the transcript lines.

    The policy picks among the legal actions with ``arena.engine.chance.choose_index`` (BLAKE2b of
    the seed and the step), so it is the same on every machine and Python version.
    """
    seed = DEAL_SEEDS[preset]
    rules = rules_for(preset)
    state = HandState(rules, Deal.from_seed(rules, seed), DEALER)
    lines = [
        f"# Golden transcript of preset {preset}: deal seed {seed}, dealer {DEALER}, "
        f"policy choose_index(len(legal), {seed}, 'golden', step).",
        f"# {REGEN_HINT}.",
        f"rules {_line(rules.options())}",
    ]
    step = 0
    while not state.is_over:
        step += 1
        decision = state.decision
        assert decision is not None
        lines.append(f"decision {step}: seat {state.to_move} to {decision.value}")
        lines += [f"obs {seat} {_line(observe(state, seat).to_json())}" for seat in SEATS]
        actions = state.legal_actions()
        lines.append("legal " + " | ".join(str(a) for a in actions))
        action = actions[choose_index(len(actions), seed, "golden", step)]
        lines.append(f"action {action}")
        state.apply(action)
    lines.append("end")
    lines += [f"obs {seat} {_line(observe(state, seat).to_json())}" for seat in SEATS]
    return state, lines


def play_bidding_golden(preset: str) -> tuple[BiddingHand, list[str]]:
    """``play_golden`` for a Twenty-eight preset: the same format and policy, its own views."""
    seed = BIDDING_DEAL_SEEDS[preset]
    rules = bidding_rules_for(preset)
    hand = BiddingHand(rules, Deal.from_seed(rules.deal_rules, seed), DEALER)
    lines = [
        f"# Golden transcript of preset {preset}: deal seed {seed}, dealer {DEALER}, "
        f"policy choose_index(len(legal), {seed}, 'golden', step).",
        f"# {REGEN_HINT}.",
        f"rules {_line(rules.options())}",
    ]
    step = 0
    while not hand.is_over:
        step += 1
        decision = hand.decision
        assert decision is not None
        lines.append(f"decision {step}: seat {hand.to_move} to {decision.value}")
        lines += [f"obs {seat} {_line(observe_bidding(hand, seat).to_json())}" for seat in SEATS]
        actions = hand.legal_actions()
        lines.append("legal " + " | ".join(str(a) for a in actions))
        action = actions[choose_index(len(actions), seed, "golden", step)]
        lines.append(f"action {action}")
        hand.apply(action)
    lines.append("end")
    lines += [f"obs {seat} {_line(observe_bidding(hand, seat).to_json())}" for seat in SEATS]
    return hand, lines


def transcript(preset: str) -> str:
    """The golden transcript text of ``preset`` as it should be stored."""
    lines = play_bidding_golden(preset)[1] if preset in BIDDING_PRESETS else play_golden(preset)[1]
    return "\n".join(lines) + "\n"


def describe_difference(expected: str, actual: str, name: str) -> str:
    """A short account of how ``actual`` differs from the stored ``expected`` transcript.

    Observation lines are long, so the first differing line is named by its decision and its
    label (``obs 2``), and for JSON lines only the fields that differ are shown, clipped.
    """
    old, new = expected.splitlines(), actual.splitlines()
    common = min(len(old), len(new))
    differing = [i for i in range(common) if old[i] != new[i]]
    first = differing[0] if differing else common
    where = next((ln for ln in reversed(new[: first + 1]) if ln.startswith("decision ")), "the header")
    out = [
        f"{name}: {len(differing)} of {common} lines differ, {len(old)} stored, {len(new)} now; "
        f"first at line {first + 1} ({where})"
    ]
    before = old[first] if first < len(old) else "(end of file)"
    after = new[first] if first < len(new) else "(end of file)"
    fields = _differing_fields(before, after)
    if fields:
        out.append(f"  {before.partition(' {')[0]}:")
        out += [f"    {key}: stored {_clip(a)}, now {_clip(b)}" for key, a, b in fields[:8]]
    else:
        out += [f"  - {_clip(before)}", f"  + {_clip(after)}"]
    return "\n".join(out)


def _clip(value: object, width: int = 100) -> str:
    text = value if isinstance(value, str) else _line(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _differing_fields(old: str, new: str) -> list[tuple[str, object, object]]:
    """(field, stored value, new value) for two ``label {json}`` lines with the same label."""
    head_old, _, body_old = old.partition(" {")
    head_new, _, body_new = new.partition(" {")
    if head_old != head_new or not body_old or not body_new:
        return []
    try:
        a, b = json.loads("{" + body_old), json.loads("{" + body_new)
    except json.JSONDecodeError:
        return []
    return [(k, a.get(k), b.get(k)) for k in sorted(a.keys() | b.keys()) if a.get(k) != b.get(k)]
