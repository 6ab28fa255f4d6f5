"""Random legal self-play: a quick way to exercise every rule and preset end to end."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

from arena.engine.chance import choose_index, derive_seed
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.match import MatchScore
from arena.engine.outcome import HandResult
from arena.engine.rules import Rules

_Action = TypeVar("_Action")


class _Playable(Protocol[_Action]):
    """A hand random self-play can play: a trick-taking game's or a bidding game's."""

    @property
    def is_over(self) -> bool: ...

    def legal_actions(self) -> tuple[_Action, ...]: ...

    def apply(self, action: _Action, /) -> None: ...


def play_randomly(state: _Playable[_Action], rng: random.Random, limit: int | None = None) -> None:
    """Play uniformly random legal actions until the hand is over (or ``limit`` actions)."""
    played = 0
    while not state.is_over and (limit is None or played < limit):
        actions = state.legal_actions()
        state.apply(actions[rng.randrange(len(actions))])
        played += 1


@dataclass
class SelfPlaySummary:
    """Tallies of a self-play run, for the CLI and tests."""

    hands: int = 0
    hands_won: list[int] = field(default_factory=lambda: [0, 0])
    draws: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    hand_kots: list[int] = field(default_factory=lambda: [0, 0])
    tens: list[int] = field(default_factory=lambda: [0, 0])
    final: MatchScore | None = None

    def add(self, result: HandResult) -> None:
        self.hands += 1
        self.outcomes[result.outcome.value] += 1
        self.tens[0] += result.tens[0]
        self.tens[1] += result.tens[1]
        if result.winner is None:
            self.draws += 1
            return
        self.hands_won[result.winner] += 1
        self.hand_kots[result.winner] += int(result.kot)


def selfplay_hands(rules: Rules, hands: int, seed: int) -> Iterator[tuple[HandState, MatchScore]]:
    """Play ``hands`` random hands as one match (dealer rotation and scoring applied).

    Yields each finished hand with the match score after it.
    """
    rng = random.Random(derive_seed(seed, "players"))
    score = MatchScore(dealer=choose_index(4, seed, "first-dealer"))
    for number in range(hands):
        state = HandState(rules, Deal.from_seed(rules, derive_seed(seed, "deal", number)), score.dealer)
        play_randomly(state, rng)
        assert state.result is not None
        score = score.after(rules, state.result)
        yield state, score
