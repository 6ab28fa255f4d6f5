"""Imagined worlds: a playable ``HandState`` from one seat's view plus a placement of the cards it
cannot see, on the engine's own rules (``HandState.restore``).

The world plays on exactly like the real hand would with those cards, so a search bot can try
its actions on it. ``WorldBuilder`` restores one state per observation and copies it for every
further placement (``HandState.resampled``): much cheaper than restoring each time. A view with
face-down discards it may not see (``None`` cards) is restored for every placement instead, as
the placement names those cards too (where they lie: the trick, the pile or a captured pile).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from arena.engine.cards import CARDS, Card, CardMask, mask_of
from arena.engine.hand import HandState, PublicHand
from arena.engine.observation import Observation
from arena.engine.outcome import Trick


def unseen_face_down(obs: Observation) -> int:
    """How many face-down discards ``obs.seat`` may not see (``None`` cards in its view)."""
    return sum(c is None for t in obs.tricks for c in t.cards) + sum(c is None for _, c in obs.current_trick)


def public_hand(obs: Observation, face_down: Sequence[int] = ()) -> PublicHand:
    """The public facts of ``obs``'s hand: what every seat has seen, with ``face_down`` naming
    the face-down discards the seat did not see (in the order played) where they lie."""
    if len(face_down) != unseen_face_down(obs):
        raise ValueError(f"{unseen_face_down(obs)} unseen face-down cards to place, got {len(face_down)}")
    if face_down:
        return _with_face_down(obs, face_down)
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
        current_face_down=obs.current_face_down,
    )


def _with_face_down(obs: Observation, face_down: Sequence[int]) -> PublicHand:
    """``public_hand`` with the unseen face-down cards filled in: in their trick, and in the pile
    or the captured pile their trick went to (a trick lies in the centre until a later trick
    takes the pile; under direct capture each trick goes to its winner's team)."""
    cards = iter(CARDS[c] for c in face_down)
    pile = mask_of(obs.pile)
    captured = [mask_of(obs.captured[0]), mask_of(obs.captured[1])]
    tricks: list[Trick] = []
    waiting = 0  # face-down cards of tricks still lying in the centre
    for seen in obs.tricks:
        trick = seen
        if any(c is None for c in seen.cards):
            filled: tuple[Card | None, ...] = tuple(next(cards) if c is None else c for c in seen.cards)
            for old, new in zip(seen.cards, filled, strict=True):
                if old is None and new is not None:
                    waiting |= 1 << new
            trick = replace(seen, cards=filled)
        if trick.taken_by is not None:
            captured[trick.taken_by] |= waiting
            waiting = 0
        tricks.append(trick)
    current = tuple((s, next(cards) if c is None else c) for s, c in obs.current_trick)
    return PublicHand(
        rules=obs.rules,
        dealer=obs.dealer,
        decision=obs.decision,
        to_move=obs.to_move,
        tricks=tuple(tricks),
        current_trick=current,
        trump_in_force=obs.trump_in_force,
        trump_setting=obs.trump_setting,
        reveal=obs.reveal,
        pile=pile | waiting,
        pile_tricks=obs.pile_tricks,
        captured=(captured[0], captured[1]),
        captured_tricks=obs.tricks_captured,
        streak_holder=obs.streak_holder,
        result=obs.result,
        current_face_down=obs.current_face_down,
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
    obs: Observation, hands: Sequence[CardMask], undealt: Sequence[CardMask], hidden_card: int | None,
    face_down: Sequence[int] = (),
) -> HandState:
    """A playable state that ``obs.seat`` cannot tell from the real one.

    The seat's view fixes everything public; ``hands``, ``undealt``, ``hidden_card`` and
    ``face_down`` (its unseen face-down discards, in the order played) place the cards it cannot
    see (its own hand must be its real one).
    """
    check_placement(obs, hands, undealt, hidden_card)
    return HandState.restore(public_hand(obs, face_down), hands, undealt, hidden_card)


class WorldBuilder:
    """Worlds of one observation: the first placement is restored, later ones copy it (the
    copy checks that the unseen cards and hand sizes are the same; here the rest is checked)."""

    __slots__ = ("_own", "_template", "_to_come", "_veiled", "observation")

    def __init__(self, obs: Observation) -> None:
        self.observation = obs
        self._own = mask_of(obs.hand)
        self._to_come = obs.cards_to_come
        self._template: HandState | None = None
        self._veiled = unseen_face_down(obs) > 0

    def world(
        self, hands: Sequence[CardMask], undealt: Sequence[CardMask], hidden_card: int | None,
        face_down: Sequence[int] = (),
    ) -> HandState:
        """A fresh, independent world for this placement."""
        if self._veiled:  # the placement changes the played cards: no template to copy
            return world_from_view(self.observation, hands, undealt, hidden_card, face_down)
        template = self._template
        if template is None:
            template = self._template = world_from_view(self.observation, hands, undealt, hidden_card)
        elif hands[self.observation.seat] != self._own or any(
            u.bit_count() != n for u, n in zip(undealt, self._to_come, strict=True)
        ):
            check_placement(self.observation, hands, undealt, hidden_card)
        return template.resampled(list(hands), list(undealt), hidden_card)
