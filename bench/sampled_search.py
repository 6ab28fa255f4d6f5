"""The clairvoyant's search on sampled worlds: its fair twin, with a fixed amount of work.

``bench.clairvoyant`` searches the true deal; ``SampledSearchBot`` searches ``worlds`` deals
drawn by the seat's own sampler (``sdk.sampling``: every placement consistent with what it has
seen, equally likely), the same way (each legal card, a playout per world, an exact solve near
the end; ``+model``: the heuristic's replies in the playouts) and plays the best mean, the
heuristic's card on ties. No clock: its strength does not move with the machine's load, so it
says what a playout policy is worth without the truth and without the time limit. Its trump
calls are the heuristic's (the ceiling found them worth little).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from arena.engine.actions import Action, DeclineTrump, PlayCard, RevealTrump
from arena.engine.cards import Card, Suit
from bench.clairvoyant import Clairvoyant, as_action, as_answer, card_options
from sample_bots.heuristic.bot import HeuristicBot
from sdk import MatchStart
from sdk.bot import Bot, BotView, seeded_rng
from sdk.sampling import Sampler


@dataclass
class SampledSearchBot(Bot):
    """Each legal card valued by ``search`` on ``worlds`` sampled deals; the best mean plays."""

    worlds: int = 16
    search: Clairvoyant = field(default_factory=Clairvoyant)
    seed: int = 0
    name = "sampled-search"

    def __post_init__(self) -> None:
        self._heuristic = HeuristicBot()
        self.rng = random.Random(self.seed)

    def on_match_start(self, start: MatchStart) -> None:
        self.rng = seeded_rng(start, self.seed)

    def call_trump(self, view: BotView) -> Suit | DeclineTrump:
        return self._heuristic.call_trump(view)

    def hide_trump(self, view: BotView) -> Card:
        return self._heuristic.hide_trump(view)

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        choice = as_action(self._heuristic.play(view))
        if len(view.observation.legal_actions) == 1:
            return as_answer(choice)
        options: list[Action] = card_options(view, choice)
        totals = [0.0] * len(options)
        sampler = Sampler(view.observation)
        for _ in range(self.worlds):
            judgement = self.search.judge(sampler.state(sampler.sample(self.rng)), options)
            totals = [t + v for t, v in zip(totals, judgement.values, strict=True)]
        return as_answer(options[totals.index(max(totals))])
