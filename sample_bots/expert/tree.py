"""Information-set Monte Carlo tree search for the card play (single observer: Cowling, Powley
and Whitehouse, 2012), the expert's ``--tree`` search.

Determinized search (the expert's default) values each candidate on each sampled deal as if the
deal were known, then averages: it assumes it will see the hidden cards later (strategy fusion).
Here one tree is grown over the actions from the decision on, each iteration on a new deal from
the seat's sampler: a node's children are only the actions legal in that iteration's deal, each
chosen by UCB over the iterations in which it was available; a new action is expanded, then the
expert's greedy playout finishes the hand, and its value (zero-sum) goes back up the path, each
node counting it for the team that moved into it. The card played is the root's most visited
(a card that may go face down is searched face down, as the bot plays it).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from arena.engine.actions import DOWN, Action, PlayCard
from arena.engine.hand import HandState
from arena.engine.observation import Observation
from sample_bots.expert.playout import playout
from sample_bots.search.bot import reward
from sdk.sampling import Sampler

EXPLORATION = 1.5
"""UCB's exploration constant, in the playout's reward (a hand's points, about 1 to 3)."""


@dataclass
class Node:
    """An action's statistics: ``total`` for the team that chose it."""

    visits: int = 0
    total: float = 0.0
    squares: float = 0.0
    """The sum of the squared values (``variance_of_mean``)."""
    available: int = 0
    children: dict[Action, Node] = field(default_factory=dict)

    def ucb(self, exploration: float) -> float:
        return self.total / self.visits + exploration * math.sqrt(math.log(self.available) / self.visits)

    def mean(self) -> float:
        return self.total / self.visits

    def variance_of_mean(self) -> float:
        """The squared standard error of ``mean`` (its values as independent draws)."""
        if self.visits < 2:
            return math.inf
        mean = self.mean()
        return max(0.0, self.squares / self.visits - mean * mean) / (self.visits - 1)


def root_actions(legal: tuple[Action, ...]) -> tuple[Action, ...]:
    """The decision's actions as the bot would send them: a card that may go face down once, face
    down (``BotView.unseen_if_allowed``: such a discard cannot win either way), so that the tree
    does not split one card's visits between its two forms."""
    return tuple(action for action in legal
                 if not (isinstance(action, PlayCard) and not action.face_down and DOWN[action.card] in legal))


def as_searched(action: Action, searched: tuple[Action, ...]) -> Action:
    """``action`` as the root searches it: a card that may go face down, face down (``root_actions``)."""
    return DOWN[action.card] if isinstance(action, PlayCard) and action not in searched else action


Model = Callable[[HandState], Action | None]
"""A model of the other team's play inside the tree: the action the seat to move in this deal
plays (its own view of it), or ``None`` where the tree chooses (the searching team's seats)."""


def iterate(root: Node, state: HandState, rng: random.Random, exploration: float = EXPLORATION,
            at_root: tuple[Action, ...] | None = None, first: Action | None = None,
            model: Model | None = None) -> None:
    """One iteration on ``state`` (a sampled deal at the decision; consumed); ``at_root``: the
    decision's actions to search (by default every legal one); ``first``: the root's action
    expanded before the others (the heuristic's card); ``model``: where it answers, the tree
    follows its action instead of choosing."""
    node = root
    path: list[tuple[Node, int]] = []
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        modelled = model(state) if model is not None and node is not root else None
        if modelled is not None:
            legal: tuple[Action, ...] = (modelled,)
        else:
            legal = at_root if at_root is not None and node is root else state.legal_actions()
        untried = [action for action in legal if action not in node.children]
        for action in legal:
            child = node.children.get(action)
            if child is not None:
                child.available += 1
        if untried:
            action = first if node is root and first in untried else rng.choice(untried)
            child = node.children[action] = Node(available=1)
            state.apply(action)
            path.append((child, mover & 1))
            break
        action = max(legal, key=lambda a: node.children[a].ucb(exploration))
        node = node.children[action]
        state.apply(action)
        path.append((node, mover & 1))
    value = reward(state.rules, state, 0) if state.is_over else playout(state, state.rules, 0)
    for visited, team in path:
        visited.visits += 1
        visited.total += value if team == 0 else -value
        visited.squares += value * value


def most_visited(root: Node, legal: tuple[Action, ...]) -> Action | None:
    """The legal action tried most often (``None`` before any iteration)."""
    tried = [action for action in legal if action in root.children]
    return max(tried, key=lambda a: root.children[a].visits) if tried else None


@dataclass(frozen=True, slots=True)
class Grown:
    """A searched decision: its tree, the actions searched at its root, and the iterations run."""

    root: Node
    searched: tuple[Action, ...]
    iterations: int


def grow(observation: Observation, rng: random.Random, deadline: float, iterations: int | None = None,
         deals: Callable[[int], HandState] | None = None, first: Action | None = None,
         exploration: float = EXPLORATION, model: Model | None = None) -> Grown:
    """The tree of a decision: iterations until ``deadline`` (``perf_counter`` time) or
    ``iterations``, each on ``deals(i)`` (by default a fresh draw of the seat's sampler);
    ``first``: the root's action expanded before the others; ``model``: ``iterate``'s."""
    if deals is None:
        sampler = Sampler(observation)

        def deals(_: int) -> HandState:
            return sampler.state(sampler.sample(rng))

    searched = root_actions(observation.legal_actions)
    if first is not None:
        first = as_searched(first, searched)
    root = Node()
    done = 0
    while (iterations is None or done < iterations) and time.perf_counter() < deadline:
        iterate(root, deals(done), rng, exploration, searched, first, model)
        done += 1
    return Grown(root, searched, done)


def tree_search(observation: Observation, rng: random.Random, deadline: float, iterations: int | None = None,
                deals: Callable[[int], HandState] | None = None) -> tuple[Action | None, int]:
    """The action to play (the root's most visited) and the iterations run (``grow``'s)."""
    grown = grow(observation, rng, deadline, iterations, deals)
    return most_visited(grown.root, grown.searched), grown.iterations
