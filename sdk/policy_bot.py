"""A bot that plays a trained policy: the seat's view encoded as the learning environments encode
it (``sdk.encoding``), the network's highest-scoring legal action taken (an ensemble's: the
highest sum of its members' scores, ``sdk.policy_ensemble``).

Numpy only at play time (no learning library). The policy was trained on one-hand episodes,
whose observations carry no match score (the ``score`` block is zero during a hand), so the bot
encodes its view without the match score: the same vector the environment gave for the same
hand. The bidding games (Twenty-eight, Twenty-nine) have another action space; there the bot
plays ``Bot``'s defaults.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from arena.engine.action_ids import action_of
from arena.engine.actions import Action, PlayCard, RevealTrump
from arena.engine.cards import Card
from sdk.bot import Bot, BotView
from sdk.encoding import action_mask, encode
from sdk.policy_ensemble import Policy, load_policy
from sdk.policy_network import FloatArray

WEIGHTS_FILE = "policy.npz"
"""The weights' file name in a policy bot's folder (``dehla bot new NAME --template policy``)."""


class PolicyBot(Bot):
    """Plays ``network``'s choice at every decision of the trick-taking games."""

    name = "policy"

    def __init__(self, network: Policy) -> None:
        self.network = network

    @classmethod
    def from_folder(cls, folder: Path) -> PolicyBot:
        """The bot of the network or ensemble in ``folder/policy.npz`` (``PolicyFileError`` if it is wrong)."""
        return cls(load_policy(folder / WEIGHTS_FILE))

    @staticmethod
    def observation_vector(view: BotView) -> FloatArray:
        """The view as the one-hand training episodes encoded it: without the match score."""
        return encode(replace(view.observation, match=None))

    def choose(self, view: BotView) -> Action:
        """The network's legal action for this view."""
        mask = action_mask(view.observation)
        chosen = self.network.choose(self.observation_vector(view)[None, :], mask[None, :])
        return action_of(int(chosen[0]))

    def decide(self, view: BotView) -> Action:
        return self.choose(view)

    def play(self, view: BotView) -> Card | PlayCard | RevealTrump:
        """Only ``decide`` is called by the SDK; ``play`` gives the same choice of a card."""
        action = self.choose(view)
        return action if isinstance(action, PlayCard | RevealTrump) else view.legal_cards[0]
