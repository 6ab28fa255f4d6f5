"""Imagined worlds: a playable ``HandState`` from one seat's view plus a placement of the cards it
cannot see, on the engine's own rules (``HandState.restore``).

The world plays on exactly like the real hand would with those cards, so a search bot can try
its actions on it. ``WorldBuilder`` restores one state per observation and copies it for every
further placement (``HandState.resampled``): much cheaper than restoring each time.
"""

from __future__ import annotations

from collections.abc import Sequence

from arena.engine.cards import CardMask, mask_of
from arena.engine.hand import HandState, PublicHand
from arena.engine.observation import Observation


def public_hand(obs: Observation) -> PublicHand:
    """The public facts of ``obs``'s hand: what every seat has seen."""
    return PublicHand(
        rules=obs.rules,
        dealer=obs.dealer,
        decision=obs.decision,
        to_move=obs.to_move,
        tricks=obs.tricks,
        current_trick=obs.current_trick,
        trump_in_force=obs.trump_in_force,
        trump_setting=obs.trump_setting,
        reveal=obs.reveal,
        pile=mask_of(obs.pile),
        pile_tricks=obs.pile_tricks,
        captured=(mask_of(obs.captured[0]), mask_of(obs.captured[1])),
        captured_tricks=obs.tricks_captured,
        streak_holder=obs.streak_holder,
        result=obs.result,
    )


def check_placement(
    obs: Observation, hands: Sequence[CardMask], undealt: Sequence[CardMask], hidden_card: int | None
) -> None:
    """Raise ``ValueError`` unless the placement fits what ``obs.seat`` sees."""
    if len(hands) != 4 or len(undealt) != 4:
        raise ValueError("a world needs four hands and four undealt sets")
    if hands[obs.seat] != mask_of(obs.hand):
        raise ValueError("the observing seat's own hand must be the one it sees")
    for seat in range(4):
        if hands[seat].bit_count() != obs.hand_sizes[seat]:
            raise ValueError(f"seat {seat} must hold {obs.hand_sizes[seat]} cards")
        if undealt[seat].bit_count() != obs.cards_to_come[seat]:
            raise ValueError(f"seat {seat} must have {obs.cards_to_come[seat]} cards to come")
    if (hidden_card is None) != (obs.hidden_trump_holder is None):
        raise ValueError("a hidden card must be placed exactly when one is face down")


def world_from_view(
    obs: Observation, hands: Sequence[CardMask], undealt: Sequence[CardMask], hidden_card: int | None
) -> HandState:
    """A playable state that ``obs.seat`` cannot tell from the real one.

    The seat's view fixes everything public; ``hands``, ``undealt`` and ``hidden_card`` place the
    cards it cannot see (its own hand must be its real one).
    """
    check_placement(obs, hands, undealt, hidden_card)
    return HandState.restore(public_hand(obs), hands, undealt, hidden_card)


class WorldBuilder:
    """Worlds of one observation: the first placement is restored, later ones copy it (the
    copy checks that the unseen cards and hand sizes are the same; here the rest is checked)."""

    __slots__ = ("_own", "_template", "_to_come", "observation")

    def __init__(self, obs: Observation) -> None:
        self.observation = obs
        self._own = mask_of(obs.hand)
        self._to_come = obs.cards_to_come
        self._template: HandState | None = None

    def world(self, hands: Sequence[CardMask], undealt: Sequence[CardMask], hidden_card: int | None) -> HandState:
        """A fresh, independent world for this placement."""
        template = self._template
        if template is None:
            template = self._template = world_from_view(self.observation, hands, undealt, hidden_card)
        elif hands[self.observation.seat] != self._own or any(
            u.bit_count() != n for u, n in zip(undealt, self._to_come, strict=True)
        ):
            check_placement(self.observation, hands, undealt, hidden_card)
        return template.resampled(list(hands), list(undealt), hidden_card)
