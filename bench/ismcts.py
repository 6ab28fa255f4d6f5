"""The ceiling's ``ismcts`` arm: the expert's tree search (``sample_bots/expert/tree.py``) with a
fixed number of iterations a card decision instead of a clock, so that its strength does not
move with the machine's load; ``+consistent``: the iterations cycle through deals consistent
with every play of the heuristic seats (``bench.consistent_worlds``, the exact posterior
against them) instead of fresh uniform draws; ``prior``: the heuristic's card is expanded first
and played unless another beats its mean by ``confidence`` standard errors (``override``);
``endgame_worlds``: from ``ENDGAME_TRICKS`` tricks left, the ``sampled`` arm's exact solves on
that many uniform worlds instead of the tree. Its trump calls are the heuristic's.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from arena.engine.actions import Action, PlayCard, RevealTrump
from arena.engine.cards import Card
from arena.engine.hand import HandState
from bench.clairvoyant import ENDGAME_TRICKS, Clairvoyant, as_answer
from bench.consistent_worlds import ConsistentWorlds
from bench.heuristic_calls import HeuristicCalls
from bench.sampled_search import SampledSearchBot
from sample_bots.expert.tree import EXPLORATION, Grown, as_searched, grow, most_visited
from sample_bots.heuristic.bot import HeuristicBot, best_trump_suit
from sdk.bot import Bot, BotView
from sdk.inference import UnsupportedViewError


def override(grown: Grown, preferred: Action, confidence: float) -> Action:
    """``preferred`` (the heuristic's card, searched face down where it may go so) unless the
    root's action of the best mean beats its mean by ``confidence`` standard errors of the
    difference (the candidates' search's override rule, on the root's statistics)."""
    root, searched = grown.root, grown.searched
    preferred = as_searched(preferred, searched)
    tried = [action for action in searched if action in root.children]
    if preferred not in tried:
        return most_visited(root, searched) or preferred
    best = max(tried, key=lambda a: root.children[a].mean())
    mine, theirs = root.children[best], root.children[preferred]
    spread = math.sqrt(mine.variance_of_mean() + theirs.variance_of_mean())
    return best if mine.mean() - theirs.mean() > confidence * spread else preferred


@dataclass
class IsmctsBot(HeuristicCalls, Bot):
    """Each card decision with a choice: ``iterations`` of IS-MCTS; the most visited card plays
    (``prior``: ``override``'s choice; ``endgame_worlds``: the exact solves' near the end)."""

    iterations: int = 400
    seed: int = 0
    consistent_worlds: int = 0
    """Above 0: the iterations cycle through this many consistent deals (uniform draws where the
    view cannot be replayed)."""
    prior: bool = False
    """The heuristic's card expanded first and kept unless ``override`` finds another surely better."""
    confidence: float = 1.0
    """``override``'s standard errors (with ``prior``)."""
    endgame_worlds: int = 0
    """Above 0: from ``ENDGAME_TRICKS`` tricks left, exact solves on this many uniform worlds."""
    exploration: float = EXPLORATION
    """The tree's UCB exploration constant."""
    name = "ismcts"

    def __post_init__(self) -> None:
        self._heuristic = HeuristicBot()
        self.endgame = SampledSearchBot(self.endgame_worlds, Clairvoyant(ENDGAME_TRICKS), self.seed) \
            if self.endgame_worlds else None
        self.rng = random.Random(self.seed)
        self.decisions = 0
        self.cpu_seconds = 0.0
        self.generator = ConsistentWorlds(HeuristicBot(), frozenset(), best_trump_suit)

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        legal = view.observation.legal_actions
        if len(legal) == 1:
            return as_answer(legal[0])
        started = time.process_time()
        obs = view.observation
        if self.endgame is not None and obs.rules.hand_size - len(obs.tricks) <= ENDGAME_TRICKS:
            self.endgame.rng = self.rng
            answer = self.endgame.play(view)
        else:
            answer = as_answer(self._tree_choice(view))
        self.decisions += 1
        self.cpu_seconds += time.process_time() - started
        return answer

    def _tree_choice(self, view: BotView) -> Action:
        preferred = self._heuristic.decide(view) if self.prior else None
        grown = grow(view.observation, self.rng, math.inf, self.iterations, self._consistent(view), preferred,
                     self.exploration)
        action = override(grown, preferred, self.confidence) if preferred is not None else \
            most_visited(grown.root, grown.searched)
        assert action is not None
        return action

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
