"""The ceiling's ``ismcts`` arm: the expert's tree search (``sample_bots/expert/tree.py``) with a
fixed number of iterations a card decision instead of a clock, so that its strength does not
move with the machine's load; ``+consistent``: the iterations cycle through deals consistent
with every play of the heuristic seats (``bench.consistent_worlds``, the exact posterior
against them) instead of fresh uniform draws; ``cycled_worlds``: through that many uniform
draws, drawn once a decision (the control for ``+consistent``'s cycling); ``prior``: the
heuristic's card is expanded first and played unless another beats its mean by ``confidence``
standard errors (``override``); ``endgame_worlds``: from ``ENDGAME_TRICKS`` tricks left, the
``sampled`` arm's exact solves on that many uniform worlds instead of the tree; ``model``:
inside the tree the other team's seats play the heuristic's card on their own view of the
iteration's deal (the tree's ``Model``: a known opponent, as the ceiling's ``+model``, here on
sampled deals), not a choice of the tree. Its trump calls are the heuristic's.
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
from arena.engine.observation import observe
from bench.clairvoyant import ENDGAME_TRICKS, Clairvoyant, as_answer
from bench.consistent_worlds import THIN, ConsistentWorlds
from bench.heuristic_calls import HeuristicCalls
from bench.sampled_search import SampledSearchBot
from sample_bots.expert.replies import VIEW_CLOCK
from sample_bots.expert.tree import EXPLORATION, Grown, Model, as_searched, grow, most_visited
from sample_bots.heuristic.bot import HeuristicBot, best_trump_suit
from sdk.bot import Bot, BotView
from sdk.inference import UnsupportedViewError
from sdk.sampling import Placement, Sampler


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
    thin: int = THIN
    """The consistent worlds' chain keeps one state every ``thin`` proposals."""
    cycled_worlds: int = 0
    """Above 0 (and no ``consistent_worlds``): the iterations cycle through this many uniform draws."""
    prior: bool = False
    """The heuristic's card expanded first and kept unless ``override`` finds another surely better."""
    confidence: float = 1.0
    """``override``'s standard errors (with ``prior``)."""
    endgame_worlds: int = 0
    """Above 0: from ``ENDGAME_TRICKS`` tricks left, exact solves on this many uniform worlds."""
    exploration: float = EXPLORATION
    """The tree's UCB exploration constant."""
    model: bool = False
    """The other team's seats play the heuristic's card inside the tree."""
    name = "ismcts"

    def __post_init__(self) -> None:
        self._heuristic = HeuristicBot()
        self.endgame = SampledSearchBot(self.endgame_worlds, Clairvoyant(ENDGAME_TRICKS), self.seed) \
            if self.endgame_worlds else None
        self.rng = random.Random(self.seed)
        self.decisions = 0
        self.cpu_seconds = 0.0
        self.generator = ConsistentWorlds(HeuristicBot(), frozenset(), best_trump_suit, self.thin)

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
        grown = grow(view.observation, self.rng, math.inf, self.iterations, self._deals(view), preferred,
                     self.exploration, self._opponents(view.observation.seat) if self.model else None)
        action = override(grown, preferred, self.confidence) if preferred is not None else \
            most_visited(grown.root, grown.searched)
        assert action is not None
        return action

    def _opponents(self, me: int) -> Model:
        """The heuristic's card for the other team's seat to move, on its view of the deal."""
        heuristic = self._heuristic

        def answer(state: HandState) -> Action | None:
            seat = state.to_move
            if seat is None or (seat - me) % 2 == 0:
                return None
            return heuristic.decide(BotView(observe(state, seat), *VIEW_CLOCK))
        return answer

    def _deals(self, view: BotView) -> Callable[[int], HandState] | None:
        """The consistent worlds in turn, the cycled uniform ones, or ``None`` (the search's own
        fresh uniform draws)."""
        if not self.consistent_worlds:
            return self._cycled(view) if self.cycled_worlds else None
        me = view.observation.seat
        opponents = frozenset({(me + 1) % 4, (me + 3) % 4})
        if self.generator.seats != opponents:
            self.generator = ConsistentWorlds(HeuristicBot(), opponents, best_trump_suit, self.thin)
        try:
            sampler, worlds = self.generator.draw(view, self.consistent_worlds, self.rng)
        except UnsupportedViewError:
            return None
        return in_turn(sampler, worlds)

    def _cycled(self, view: BotView) -> Callable[[int], HandState]:
        sampler = Sampler(view.observation)
        return in_turn(sampler, [sampler.sample(self.rng) for _ in range(self.cycled_worlds)])


def in_turn(sampler: Sampler, worlds: list[Placement]) -> Callable[[int], HandState]:
    """The deal of each iteration: ``worlds`` in turn, over again."""
    return lambda iteration: sampler.state(worlds[iteration % len(worlds)])
