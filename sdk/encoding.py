"""One seat's view as a flat tensor: the observation layout of the learning environments.

``encode(obs)`` reads only an ``Observation`` (``arena.engine.observe``: what the seat may
know) and what ``CardTracker`` deduces from it, so it cannot leak a card the seat may not see;
``tests/learn/test_encoding.py`` checks that on states that differ only in hidden cards.
Seats are relative to the observer: ``0`` is the seat itself, ``2`` its partner, ``1`` and ``3``
the opponents (seat numbers, not the order of play). Cards are the engine's ints
(``suit * 13 + rank``), as in the action space (``arena.engine.action_ids``). Every value is in
``[0, 1]``: counts are divided by their largest value. ``BLOCKS`` is the layout, in order;
``docs/learning.md`` prints it.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from arena.engine.action_ids import NUM_ACTIONS, action_id
from arena.engine.hand import Decision
from arena.engine.match import KOT_RUN
from arena.engine.observation import Observation
from sdk.encoding_layout import Block, FloatArray, Layout
from sdk.tracker import CardTracker

MaskArray = npt.NDArray[np.int8]

CARDS_IN_DECK = 52
MAX_TRICKS = 13
SCORE_SCALE = 16
"""Match scores (kots, points, hands won, tens) are divided by this and capped at 1."""


BLOCKS: tuple[Block, ...] = (
    Block("hand", (52,), "the cards in this seat's hand"),
    Block("played", (4, 52), "per relative seat, the cards it has played that this seat saw (every trick so far)"),
    Block("trick", (4, 52), "per relative seat, its card in the trick in progress"),
    Block("trick_face_down", (4,), "per relative seat, it played face down to the trick in progress"),
    Block("trick_leader", (4,), "the relative seat that led the trick in progress (none before the lead)"),
    Block("pile", (52,), "the cards lying in the centre pile that this seat saw"),
    Block("pile_tricks", (1,), "tricks in the centre pile / 13"),
    Block("streak_holder", (4,), "the relative seat that would sweep the pile by winning this trick (sweep capture)"),
    Block("captured", (2, 52), "cards taken, by this seat's team (row 0) and the other team (row 1), as seen"),
    Block("captured_face_down", (2,), "per team, face-down cards taken that this seat may not see / 13"),
    Block("pile_face_down", (1,), "face-down cards in the pile that this seat may not see / 13"),
    Block("tens", (2,), "tens taken by each team (seen) / 4"),
    Block("tricks_won", (2,), "tricks won at the table by each team / 13"),
    Block("tricks_captured", (2,), "tricks captured by each team / 13"),
    Block("voids", (4, 4), "per relative seat and suit, the seat has shown it holds no unknown card of the suit"),
    Block("trump", (4,), "the trump suit as this seat knows it (none while hidden from it or not set)"),
    Block("trump_in_force", (4,), "the suit that counts as trumps for a card played now, as this seat knows it"),
    Block("hidden_suits", (4,), "the suits a face-down trump card may be of, as far as this seat can tell"),
    Block("hidden_holder", (4,), "the relative seat whose face-down trump card is down"),
    Block("own_hidden_card", (52,), "this seat's own face-down trump card while it is down"),
    Block("trump_flags", (3,), "trump set publicly, the face-down trump revealed, this seat must play a trump now"),
    Block("decision", (3,), "the decision in front of the seat to move: call trumps, hide a trump card, play"),
    Block("to_move", (4,), "the relative seat to move (none when the hand is over)"),
    Block("dealer", (4,), "the relative seat that dealt"),
    Block("first_player", (4,), "the relative seat that played first"),
    Block("hand_sizes", (4,), "cards in hand per relative seat / 13"),
    Block("cards_to_come", (4,), "cards still to be dealt per relative seat / 13"),
    Block("trick_number", (1,), "the trick in progress / 13"),
    Block("score", (2, 5), "per team (this seat's first): kots, points, hands won, tens in a tens race "
          f"(each / {SCORE_SCALE}, capped at 1), and its run of hands won / {KOT_RUN}"),
)
"""The layout, in order: each block's values follow the previous block's (row-major)."""

LAYOUT = Layout(BLOCKS)
OFFSETS = LAYOUT.offsets
OBSERVATION_SIZE = LAYOUT.size
"""The length of the observation vector."""
_AT = LAYOUT.starts

_DECISIONS = {Decision.CALL_TRUMP: 0, Decision.HIDE_TRUMP: 1, Decision.PLAY: 2}


def block_view(vector: FloatArray, name: str) -> FloatArray:
    """The block ``name`` of an observation vector, in its shape (a view: writes go through)."""
    return LAYOUT.view(vector, name)


def encode(obs: Observation) -> FloatArray:
    """The observation vector of ``obs`` (``OBSERVATION_SIZE`` float32 values in ``[0, 1]``)."""
    out = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
    me = obs.seat
    mine = me % 2
    tracker = CardTracker.from_view(obs)
    at = _AT
    # Every one-hot entry is collected as a flat index and set in one assignment at the end.
    ones = [at["hand"] + card for card in obs.hand]
    played = at["played"]
    for trick in obs.tricks:
        for seat, card in zip(trick.seats, trick.cards, strict=True):
            if card is not None:
                ones.append(played + (seat - me) % 4 * 52 + card)
    for position, (seat, card) in enumerate(obs.current_trick):
        r = (seat - me) % 4
        if position == 0:
            ones.append(at["trick_leader"] + r)
        if card is not None:
            ones.append(played + r * 52 + card)
            ones.append(at["trick"] + r * 52 + card)
        if position in obs.current_face_down:
            ones.append(at["trick_face_down"] + r)
    ones.extend(at["pile"] + card for card in obs.pile)
    if obs.streak_holder is not None:
        ones.append(at["streak_holder"] + (obs.streak_holder - me) % 4)
    for t in (0, 1):
        row = 0 if t == mine else 1
        ones.extend(at["captured"] + row * 52 + card for card in obs.captured[t])
        out[at["captured_face_down"] + row] = obs.captured_face_down[t] / MAX_TRICKS
        out[at["tens"] + row] = obs.tens[t] / 4
        out[at["tricks_won"] + row] = obs.tricks_won[t] / MAX_TRICKS
        out[at["tricks_captured"] + row] = obs.tricks_captured[t] / MAX_TRICKS
    out[at["pile_tricks"]] = obs.pile_tricks / MAX_TRICKS
    out[at["pile_face_down"]] = obs.pile_face_down / MAX_TRICKS
    for seat in range(4):
        voids = tracker.voids[seat]
        ones.extend(at["voids"] + (seat - me) % 4 * 4 + suit for suit in range(4) if voids >> suit & 1)
    ones.extend(at["hidden_suits"] + suit for suit in range(4) if tracker.hidden_suits >> suit & 1)
    if tracker.trump is not None:
        ones.append(at["trump"] + tracker.trump)
    if tracker.trump_in_force is not None:
        ones.append(at["trump_in_force"] + tracker.trump_in_force)
    if obs.hidden_trump_holder is not None:
        ones.append(at["hidden_holder"] + (obs.hidden_trump_holder - me) % 4)
    if obs.hidden_trump_card is not None:
        ones.append(at["own_hidden_card"] + obs.hidden_trump_card)
    flags = (obs.trump_setting is not None, obs.reveal is not None, obs.must_play_trump)
    ones.extend(at["trump_flags"] + i for i, flag in enumerate(flags) if flag)
    if obs.decision is not None:
        ones.append(at["decision"] + _DECISIONS[obs.decision])
    if obs.to_move is not None:
        ones.append(at["to_move"] + (obs.to_move - me) % 4)
    ones.append(at["dealer"] + (obs.dealer - me) % 4)
    ones.append(at["first_player"] + (obs.first_player - me) % 4)
    out[ones] = 1.0
    for seat in range(4):
        r = (seat - me) % 4
        out[at["hand_sizes"] + r] = obs.hand_sizes[seat] / MAX_TRICKS
        out[at["cards_to_come"] + r] = obs.cards_to_come[seat] / MAX_TRICKS
    out[at["trick_number"]] = min(obs.trick_number, MAX_TRICKS) / MAX_TRICKS
    if obs.match is not None:
        score = obs.match
        for t in (0, 1):
            row = at["score"] + (0 if t == mine else 5)
            for column, value in enumerate((score.kots[t], score.points[t], score.hands_won[t], score.tens[t])):
                out[row + column] = min(value, SCORE_SCALE) / SCORE_SCALE
            out[row + 4] = min(score.runs[t], KOT_RUN) / KOT_RUN
    return out


def action_mask(obs: Observation) -> MaskArray:
    """The legal actions of ``obs.seat`` now as a 0/1 vector over the action space (all zero
    when it is not this seat's turn)."""
    mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
    for action in obs.legal_actions:
        mask[action_id(action)] = 1
    return mask
