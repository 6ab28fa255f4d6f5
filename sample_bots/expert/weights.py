"""The numbers the expert's heuristic ranks its candidates and calls trumps with.

The expert plays the heuristic's best card unless its worlds clearly say otherwise, so the
heuristic's judgement is most of its play (session 19: the opening tricks and the call, where its
search changes nothing, hold most of what it gives up). These numbers were searched for by
``bench/tune_heuristic.py`` (duplicate deal pairs against the hand-set heuristic, on the default
preset; docs/bots.md, versions 24 and 24b and "Session 26"); the expert's model of how the *other* seats play keeps the
hand-set numbers (``sample_bots/expert/model.py``), because that is how the heuristic it models
plays.
"""

from __future__ import annotations

from arena.engine.rules import HandResultRule, Rules
from sample_bots.heuristic.weights import DEFAULT_WEIGHTS, Weights

TUNED_TENS = Weights(
    pile_keep=0.2139,
    keep_master_scale=0.9988,
    streak_edge_scale=0.0941,
    trick_scale=0.7237,
    follow_up_edge=0.1673,
    opponent_edge=0.1163,
    rank_cost=0.0004,
    trump_cost=0.1827,
    trump_rank_cost=0.0807,
    master_cost=0.0486,
    short_suit_cost=0.0031,
    ace_before_ten=0.0011,
    bare_ten=0.1754,
    lead_length=-0.0343,
    lead_trumps=0.0083,
    overtake_strength=0.6418,
    sure_lead=0.6768,
    last_tricks_keep=0.4798,
    call_length=2.3891,
    call_king=2.6405,
    call_queen=1.4245,
    call_jack=0.3114,
    call_ten=0.6787,
)
"""Found on the default preset in three rounds of 300 iterations, 200 deal pairs each, each round
starting from the last one's numbers on new deals (``python -m bench.tune_heuristic tune 300 200
dehla-pakad 101 r1.json``, then ``... 102 r2.json r1.json`` and ``... 103 r3.json r2.json``, the
third with ``lead_length`` and ``lead_trumps`` added), rounded to 4 places."""


def expert_weights(rules: Rules) -> Weights:
    """The tuned numbers where they measured better than the hand-set ones against ``heuristic``
    (the tens games and Court Piece), the hand-set ones elsewhere (Mendikot: no difference)."""
    if rules.hand_result is HandResultRule.MENDIKOT:
        return DEFAULT_WEIGHTS
    return TUNED_TENS
