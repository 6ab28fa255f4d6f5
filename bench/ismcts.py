"""The ceiling's ``ismcts`` arm: the expert's tree search (``sample_bots/expert/tree.py``) with a
fixed number of iterations a card decision instead of a clock, so that its strength does not
move with the machine's load; ``+consistent``: the iterations cycle through deals consistent
with every play of the heuristic seats (``bench.consistent_worlds``, the exact posterior
against them) instead of fresh uniform draws. Its trump calls are the heuristic's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from arena.engine.actions import PlayCard, RevealTrump
from arena.engine.cards import Card
from arena.engine.hand import HandState
from bench.clairvoyant import as_answer
from bench.consistent_worlds import ConsistentWorlds
from bench.heuristic_calls import HeuristicCalls
from sample_bots.expert.tree import tree_search
from sample_bots.heuristic.bot import HeuristicBot, best_trump_suit
from sdk.bot import Bot, BotView
from sdk.inference import UnsupportedViewError


@dataclass
class IsmctsBot(HeuristicCalls, Bot):
    """Each card decision with a choice: ``iterations`` of IS-MCTS; the most visited card plays."""

    iterations: int = 400
    seed: int = 0
    consistent_worlds: int = 0
    """Above 0: the iterations cycle through this many consistent deals (uniform draws where the
    view cannot be replayed)."""
    name = "ismcts"

    def __post_init__(self) -> None:
        self._heuristic = HeuristicBot()
        self.rng = random.Random(self.seed)
        self.decisions = 0
        self.cpu_seconds = 0.0
        self.generator = ConsistentWorlds(HeuristicBot(), frozenset(), best_trump_suit)

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        legal = view.observation.legal_actions
        if len(legal) == 1:
            return as_answer(legal[0])
        started = time.process_time()
        action, _ = tree_search(view.observation, self.rng, math.inf, self.iterations, self._consistent(view))
        assert action is not None
        self.decisions += 1
        self.cpu_seconds += time.process_time() - started
        return as_answer(action)

    def _consistent(self, view: BotView) -> Callable[[int], HandState] | None:
        """The consistent worlds in turn, or ``None`` (the search's own uniform draws)."""
        if not self.consistent_worlds:
            return None
        me = view.observation.seat
        opponents = frozenset({(me + 1) % 4, (me + 3) % 4})
        if self.generator.seats != opponents:
            self.generator = ConsistentWorlds(HeuristicBot(), opponents, best_trump_suit)
        try:
            sampler, worlds = self.generator.draw(view, self.consistent_worlds, self.rng)
        except UnsupportedViewError:
            return None
        return lambda iteration: sampler.state(worlds[iteration % len(worlds)])
