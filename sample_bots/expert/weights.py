"""The numbers the expert's heuristic ranks its candidates and calls trumps with.

The expert plays the heuristic's best card unless its worlds clearly say otherwise, so the
heuristic's judgement is most of its play (session 19: the opening tricks and the call, where its
search changes nothing, hold most of what it gives up). These numbers were searched for by
``bench/tune_heuristic.py`` (duplicate deal pairs against the hand-set heuristic: the tens games'
on the default preset, the others on a preset of their own family; docs/bots.md, versions 24
to 25b, "Session 26" and "Session 27"). The expert's model of how the *other* seats play keeps
the hand-set numbers (``sample_bots/expert/model.py``), because that is how the heuristic it
models plays (modelling its partner with these instead measured no better: version 25a).
"""

from __future__ import annotations

from arena.engine.rules import HandResultRule, Rules, TrumpMethod
from sample_bots.heuristic.weights import Weights

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


TUNED_MENDIKOT = Weights(
    pile_keep=0.137,
    keep_master_scale=0.767,
    streak_edge_scale=0.7943,
    trick_scale=0.8032,
    follow_up_edge=0.382,
    opponent_edge=0.0308,
    rank_cost=0.0194,
    trump_cost=0.0482,
    trump_rank_cost=0.0609,
    master_cost=0.0443,
    short_suit_cost=0.0217,
    ace_before_ten=0.1696,
    bare_ten=0.1023,
    lead_length=-0.0576,
    lead_trumps=-0.0013,
    lead_master=0.0133,
    opponent_beat_scale=1.0546,
    partner_beat_scale=0.9006,
    trump_short_cost=0.0045,
    overtake_strength=0.5367,
    sure_lead=0.6377,
    last_tricks_keep=0.5011,
    show_cost=0.1594,
    ask_cost=0.0412,
    hidden_ruff=0.7838,
    call_length=2.7452,
    call_king=3.3708,
    call_queen=2.0529,
    call_jack=1.669,
    call_ten=1.4435,
)
"""Found on ``mendikot`` in one round of 300 iterations, 200 deal pairs each, from the hand-set
numbers (``python -m bench.tune_heuristic tune 300 200 mendikot 301 mk.json``; ``show_cost``,
``ask_cost`` and ``hidden_ruff`` are tuned there, the reveal's numbers), rounded to 4 places.
``TUNED_TENS`` measured no different from the hand-set numbers on Mendikot."""

TUNED_CUT = Weights(
    pile_keep=0.2159,
    keep_master_scale=1.1091,
    streak_edge_scale=0.1171,
    trick_scale=0.9801,
    follow_up_edge=0.1776,
    opponent_edge=0.1287,
    rank_cost=0.0137,
    trump_cost=0.1624,
    trump_rank_cost=0.1537,
    master_cost=0.0666,
    short_suit_cost=0.0001,
    cut_length=0.0756,
    cut_points=0.0251,
    ace_before_ten=0.0011,
    bare_ten=0.1559,
    lead_length=-0.0533,
    lead_trumps=0.0012,
    lead_master=-0.0118,
    opponent_beat_scale=0.9811,
    partner_beat_scale=0.9222,
    trump_short_cost=0.0009,
    overtake_strength=0.5631,
    sure_lead=0.6706,
    last_tricks_keep=0.5192,
    call_length=2.7814,
    call_king=2.1103,
    call_queen=1.9543,
    call_jack=0.068,
    call_ten=0.9466,
)
"""Found on ``dehla-pakad-cut`` in one round of 300 iterations, 200 deal pairs each, from
``TUNED_TENS`` (``python -m bench.tune_heuristic tune 300 200 dehla-pakad-cut 401 cut.json
tens.json``, tens.json holding ``TUNED_TENS``; ``cut_length`` and ``cut_points``, the first
discard's numbers, are tuned there), rounded to 4 places."""

TUNED_COURT_PIECE = Weights(
    pile_keep=0.2531,
    edge_no_claim=0.0,
    keep_master_scale=0.7864,
    streak_edge_scale=0.3279,
    trick_scale=0.3552,
    follow_up_edge=0.0751,
    opponent_edge=0.0093,
    rank_cost=0.0171,
    trump_cost=0.1562,
    trump_rank_cost=0.1123,
    master_cost=0.1097,
    short_suit_cost=0.0139,
    ace_before_ten=0.0821,
    bare_ten=0.2067,
    lead_length=-0.0902,
    lead_trumps=0.0329,
    lead_master=-0.0325,
    opponent_beat_scale=1.0051,
    partner_beat_scale=1.0705,
    trump_short_cost=0.0202,
    overtake_strength=0.5777,
    sure_lead=0.712,
    last_tricks_keep=0.5383,
    hidden_ruff=0.5166,
    call_length=2.4102,
    call_king=1.9302,
    call_queen=0.9312,
    call_jack=0.5781,
    call_ten=0.5187,
)
"""Found on ``court-piece-double-sir`` in one round of 300 iterations, 200 deal pairs each, from
``TUNED_TENS`` (``python -m bench.tune_heuristic tune 300 200 court-piece-double-sir 501 ds.json
tens.json``; ``edge_no_claim`` and ``hidden_ruff`` are tuned there), rounded to 4 places; also
better than ``TUNED_TENS`` on plain ``court-piece``, where a round of its own found nothing."""


def expert_weights(rules: Rules) -> Weights:
    """The tuned numbers of the game's family: each measured better than the hand-set ones
    against ``heuristic`` on its own games (docs/bots.md, "Session 26" and "Session 27")."""
    if rules.hand_result is HandResultRule.MENDIKOT:
        return TUNED_MENDIKOT
    if rules.hand_result is HandResultRule.SEVEN_TRICKS:
        return TUNED_COURT_PIECE
    if rules.trump is TrumpMethod.CUT:
        return TUNED_CUT
    return TUNED_TENS
