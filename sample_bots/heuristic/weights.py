"""The heuristic's judgement in numbers: what a card costs, what a streak is worth, how it calls.

``Weights()`` holds the hand-set values the heuristic bot has always played with (they are its
default, and every bot that models the heuristic uses them). Why a value: so that a bot built on
the heuristic's reasoning can play with other numbers (``bench/tune_heuristic.py`` searches for
them by duplicate matches against the hand-set ones) without a second copy of the reasoning.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict, dataclass, fields

from arena.engine.rules import Rules


@dataclass(frozen=True, slots=True)
class Weights:
    """Every number of ``sample_bots.heuristic.bot``'s card values and trump call."""

    pile_keep: float = 0.15
    """Sweep games: the master trump is also worth this share of the pile already in the centre."""
    edge_no_claim: float = 0.1
    """Streak edge when the next trick cannot claim the pile (Court Piece limits)."""
    keep_master_scale: float = 1.0
    """Multiplies the rules' cost of spending the master trump (``Values.keep_master_trump``)."""
    streak_edge_scale: float = 1.0
    """Multiplies the rules' share of a pile gained by holding the streak (``Values.streak_edge``)."""
    trick_scale: float = 1.0
    """Multiplies the rules' value of a trick beside its tens (``Values.trick``)."""
    follow_up_edge: float = 0.35
    """Extra streak edge of a win that another likely winner can follow."""
    opponent_edge: float = 0.05
    """Extra streak edge an opponent's win gives away."""
    rank_cost: float = 0.01
    """Cost of a card by its rank (an ace's; a two's is nothing)."""
    trump_cost: float = 0.06
    """Cost of spending any trump."""
    trump_rank_cost: float = 0.05
    """Cost of a trump by its rank (an ace's)."""
    master_cost: float = 0.05
    """Cost of spending a master card of jack or above off trumps."""
    short_suit_cost: float = 0.03
    """Cost of a discard per card short of three in its suit (short suits guard tens)."""
    cut_length: float = 0.08
    """Cut trump: a first card off the led suit sets trumps; per card of its suit, its gain."""
    cut_points: float = 0.02
    """Cut trump: the same per high-card point of its suit."""
    ace_before_ten: float = 0.12
    """Leading a master above ten while holding its ten (in tens)."""
    bare_ten: float = 0.1
    """Leading a ten that is not the master (in tens, a cost)."""
    lead_length: float = 0.0
    """Leading a plain suit, per card held in it beyond three (negative: lead short suits)."""
    lead_trumps: float = 0.0
    """Leading trumps, per trump held beyond three (drawing the opponents' trumps)."""
    lead_master: float = 0.0
    """Leading a master card of a plain suit (cashing a sure winner), in stakes units."""
    opponent_beat_scale: float = 1.0
    """Multiplies the odds that an opponent can beat the card on top (at most 1)."""
    partner_beat_scale: float = 1.0
    """Multiplies the odds that the partner can beat an opponent's card on top (at most 1)."""
    trump_short_cost: float = 0.0
    """Cost of spending a trump, per trump short of four in the hand (few trumps are dear)."""
    overtake_strength: float = 0.5
    """How much surer a later seat must be to beat a card already beaten once in the trick."""
    sure_lead: float = 0.75
    """Odds a lead is not beaten from which it counts as a follow-up winner."""
    last_tricks_keep: float = 0.5
    """Share of the master trump's keep left in the hand's last two tricks."""
    show_cost: float = 0.15
    """Hidden trump on request: what showing our own trump suit gives away, in stakes units."""
    ask_cost: float = 0.05
    """Hidden trump on request: what asking for the reveal gives away (a trump is then due if able)."""
    hidden_ruff: float = 0.55
    """Hidden trump not yet shown: the odds that a seat out of the led suit can ruff (a reveal may follow)."""
    call_length: float = 2.5
    """Trump call: points per card of the suit (an ace is 4)."""
    call_king: float = 3.0
    """Trump call: points for the suit's king (and below, its queen, jack and ten)."""
    call_queen: float = 2.0
    call_jack: float = 1.0
    call_ten: float = 1.0

    def to_json(self) -> dict[str, float]:
        return asdict(self)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(f.name for f in fields(cls))


DEFAULT_WEIGHTS = Weights()
"""The hand-set values: the heuristic bot's, and the model other bots have of it."""


WeightsFor = Callable[[Rules], Weights]
"""Which numbers to play a game's rules with."""


def hand_set(rules: Rules) -> Weights:
    """The hand-set numbers, whatever the rules."""
    return DEFAULT_WEIGHTS
