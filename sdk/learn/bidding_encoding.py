"""A seat's view of a Twenty-eight or Twenty-nine hand as a flat tensor (the bidding games' layout).

As ``encoding`` for the trick-taking games: built only from the seat's ``observe_bidding()``
view, seats relative to the observer (``0`` itself, ``2`` its partner), cards as the engine's
ints, every value in ``[0, 1]``. ``BIDDING_BLOCKS`` is the layout; ``docs/learning.md`` prints it.
"""

from __future__ import annotations

import numpy as np

from arena.engine.action_ids import NUM_BIDDING_ACTIONS, bidding_action_id
from arena.engine.auction import Bid
from arena.engine.bidding_hand import BiddingDecision
from arena.engine.bidding_observation import BiddingObservation
from sdk.encoding import MAX_TRICKS, MaskArray
from sdk.encoding_layout import Block, FloatArray, Layout

BIDDING_BLOCKS: tuple[Block, ...] = (
    Block("hand", (52,), "the cards in this seat's hand"),
    Block("played", (4, 52), "per relative seat, the cards it has played (every trick so far)"),
    Block("trick", (4, 52), "per relative seat, its card in the trick in progress"),
    Block("trick_leader", (4,), "the relative seat that led the trick in progress (none before the lead)"),
    Block("bids", (4,), "per relative seat, its highest bid so far / the rules' highest bid (0: none)"),
    Block("passed", (4,), "per relative seat, its last call was a pass"),
    Block("high_bidder", (4,), "the relative seat of the highest bid so far"),
    Block("contract", (5,), "the auction's winner (relative seat, one-hot) and its bid / the rules' highest bid"),
    Block("voids", (4, 4), "per relative seat and suit, the seat failed to follow the suit"),
    Block("trump", (4,), "the trump suit if this seat may know it (the bidder's own, or exposed)"),
    Block("hidden_holder", (4,), "the relative seat whose face-down trump card is down (the bidder)"),
    Block("own_hidden_card", (52,), "this seat's own face-down trump card while it is down"),
    Block("trump_flags", (3,), "the trump exposed, a trick led with trumps (seen), this seat must play a trump now"),
    Block("decision", (3,), "the decision in front of the seat to move: bid, hide the trump card, play"),
    Block("to_move", (4,), "the relative seat to move (none when the hand is over)"),
    Block("dealer", (4,), "the relative seat that dealt"),
    Block("first_player", (4,), "the relative seat that speaks and plays first"),
    Block("hand_sizes", (4,), "cards in hand per relative seat / 13"),
    Block("cards_to_come", (4,), "cards still to be dealt per relative seat / 13"),
    Block("trick_number", (1,), "the trick in progress / 13"),
    Block("points", (2,), "card points taken by each team (this seat's first) / the hand's total points"),
    Block("score", (2,), "game points per team (this seat's first), from -target to +target mapped onto 0..1"),
)
"""The layout, in order: each block's values follow the previous block's (row-major)."""

BIDDING_LAYOUT = Layout(BIDDING_BLOCKS)
BIDDING_OBSERVATION_SIZE = BIDDING_LAYOUT.size
"""The length of a bidding game's observation vector."""
_AT = BIDDING_LAYOUT.starts
_DECISIONS = {BiddingDecision.BID: 0, BiddingDecision.HIDE_TRUMP: 1, BiddingDecision.PLAY: 2}


def encode_bidding(obs: BiddingObservation) -> FloatArray:
    """The observation vector of ``obs`` (``BIDDING_OBSERVATION_SIZE`` float32 values in ``[0, 1]``)."""
    out = np.zeros(BIDDING_OBSERVATION_SIZE, dtype=np.float32)
    rules, me, at = obs.rules, obs.seat, _AT
    mine = me % 2
    ones = [at["hand"] + card for card in obs.hand]
    plays = [(t.seats, t.cards) for t in obs.tricks]
    if obs.current_trick:
        plays.append((tuple(s for s, _ in obs.current_trick), tuple(c for _, c in obs.current_trick)))
    for seats, cards in plays:
        led = cards[0] // 13 if cards[0] is not None else None
        for seat, card in zip(seats, cards, strict=True):
            if card is None:
                continue
            ones.append(at["played"] + (seat - me) % 4 * 52 + card)
            if led is not None and card // 13 != led:
                ones.append(at["voids"] + (seat - me) % 4 * 4 + led)
    for position, (seat, card) in enumerate(obs.current_trick):
        if position == 0:
            ones.append(at["trick_leader"] + (seat - me) % 4)
        ones.append(at["trick"] + (seat - me) % 4 * 52 + card)
    best: tuple[int, int] | None = None
    for seat, call in obs.calls:
        r = (seat - me) % 4
        if isinstance(call, Bid):
            out[at["bids"] + r] = max(out[at["bids"] + r], call.amount / rules.max_bid)
            if best is None or call.amount > best[1]:
                best = (r, call.amount)
        out[at["passed"] + r] = float(not isinstance(call, Bid))
    if best is not None:
        ones.append(at["high_bidder"] + best[0])
    if obs.contract is not None:
        ones.append(at["contract"] + (obs.contract.bidder - me) % 4)
        out[at["contract"] + 4] = obs.contract.bid / rules.max_bid
    if obs.trump is not None:
        ones.append(at["trump"] + obs.trump)
    if obs.hidden_trump_holder is not None:
        ones.append(at["hidden_holder"] + (obs.hidden_trump_holder - me) % 4)
    if obs.hidden_trump_card is not None:
        ones.append(at["own_hidden_card"] + obs.hidden_trump_card)
    flags = (obs.reveal is not None, obs.trump_led, obs.must_play_trump)
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
    total = rules.total_points
    for t in (0, 1):
        row = 0 if t == mine else 1
        out[at["points"] + row] = min(obs.points[t], total) / total
        if obs.match is not None:
            target = rules.target
            points = max(-target, min(obs.match.points[t], target))
            out[at["score"] + row] = (points + target) / (2 * target)
        else:
            out[at["score"] + row] = 0.5
    return out


def bidding_action_mask(obs: BiddingObservation) -> MaskArray:
    """The legal actions of ``obs.seat`` now as a 0/1 vector over the bidding games' action space."""
    mask = np.zeros(NUM_BIDDING_ACTIONS, dtype=np.int8)
    for action in obs.legal_actions:
        mask[bidding_action_id(action)] = 1
    return mask
