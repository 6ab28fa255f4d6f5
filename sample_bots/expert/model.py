"""The expert's model of how the other seats play: the heuristic bot's values as a softmax policy.

The sample opponents (and most authors' first bots) play close to the heuristic's best card, so
"a seat plays a card with probability ∝ exp(value / temperature)" explains their plays well; a
share of uniform play (``mix``) keeps a world alive when a seat plays against the heuristic.
"""

from __future__ import annotations

from arena.engine.actions import PlayCard
from sample_bots.heuristic.bot import Thinking
from sdk.bot import BotView
from sdk.inference import SoftmaxModel

REVEAL_MARGIN = 1.0
"""How far a reveal the heuristic would (or would not) ask for lies above (below) its best card."""


def heuristic_scores(view: BotView) -> list[float]:
    """The heuristic's value of each legal action, in ``legal_actions`` order."""
    think = Thinking(view)
    legal = view.observation.legal_actions
    values = {a.card: think.value(a.card, think.active) for a in legal if isinstance(a, PlayCard)}
    best = max(values.values())
    out: list[float] = []
    for action in legal:
        if isinstance(action, PlayCard):
            out.append(values[action.card])
        else:  # a reveal: the heuristic's own yes or no, as a clear preference
            out.append(best + (REVEAL_MARGIN if think.should_reveal() else -REVEAL_MARGIN))
    return out


def heuristic_policy(temperature: float = 0.1, mix: float = 0.05) -> SoftmaxModel:
    """The heuristic's values as a softmax policy (with a ``mix`` of uniform play)."""
    return SoftmaxModel(heuristic_scores, temperature, mix)
