"""The trick in progress finished as the heuristic would finish it, before a greedy playout.

A greedy playout (``sample_bots/expert/playout.py``) lets every seat of an imagined world play
knowing every hand: a seat wins a trick exactly when it surely can, and a candidate is judged
against replies no real opponent makes. The ceiling's measurement (``bench/ceiling.py``,
docs/bots.md "How far a bot can get") found that even on the true deal this costs the most:
a clairvoyant whose playouts let the heuristic's seats answer with the heuristic's own cards for
the rest of the trick in progress beats ``heuristic`` far more often than one whose playouts are
greedy throughout. ``finish_trick`` plays those replies in an imagined world: the seats after the
mover, each on its own view of that world, play the heuristic's card (the opponents it models;
its partner, which mostly plays the heuristic's card too).
"""

from __future__ import annotations

from arena.engine.hand import Decision, HandState
from arena.engine.observation import observe
from sample_bots.heuristic.bot import HeuristicBot
from sdk.bot import BotView

VIEW_CLOCK = (1.0, 30.0)
"""The per-move limit and bank an imagined seat's view carries (the heuristic reads neither)."""


def finish_trick(world: HandState, heuristic: HeuristicBot) -> None:
    """Play the rest of ``world``'s trick in progress with ``heuristic``'s cards, each seat on its
    own view of ``world``; nothing where no trick is in progress, and it stops at any decision
    but a plain card play (a reveal, a face-down trump: the greedy playout's to settle)."""
    while world.trick_cards and not world.is_over:
        seat = world.to_move
        assert seat is not None
        if world.decision is not Decision.PLAY or world.hidden_card is not None:
            return
        mask = world.legal_mask()
        if mask & (mask - 1) == 0:
            world.play(mask.bit_length() - 1)
            continue
        world.apply(heuristic.decide(BotView(observe(world, seat), *VIEW_CLOCK)))
