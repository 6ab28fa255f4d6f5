"""Worlds consistent with the opponents' plays under their own deterministic policy (issue 26).

The heuristic is a deterministic function of its seat's view (no random stream; the same
observation gets the same card: ``tests/sdk/test_consistent_worlds.py`` checks it). So a world
(a placement of the cards a seat cannot see) is *consistent* when, replayed from its deal, every
modelled seat's view before each of its past card plays makes the policy choose exactly the card
it played (forced plays are free), and, where a modelled seat called trumps, some first packet
of its cards (which five, the others never learn) makes the policy call that suit. Under a
uniform deal the posterior given a deterministic policy is uniform over the consistent (world,
first packet) pairs, and that is what ``ConsistentWorlds`` draws, approximately:

1. a start: this seat's last world of the hand, repaired to the new view (the cards played since
   out, the new voids respected), or a uniform draw of the sampler; then a descent on the number
   of inconsistent plays by the chain's own proposals, annealed (a move that adds ``d``
   inconsistencies is taken with probability ``exp(-descent_beta * d)``), restarted from a
   uniform draw when it stalls;
2. a Metropolis chain on the consistent worlds: the proposal is, one time in four (``JUMP``), a
   fresh uniform draw of the sampler (an independence proposal: it lets the chain cross between
   consistent worlds no single swap connects, which late in a hand left it on one or two
   worlds), else a swap of two unseen cards between two hidden hands (chosen uniformly among the
   pairs in different hands), or, for a modelled caller, one time in four, a swap of one card of
   its first packet with another of its cards. Each kind is symmetric, so a proposal is taken
   exactly when the new state is consistent (the target is uniform); a world is kept every
   ``thin`` proposals.

The replay is ``sdk.inference``'s (``Inference.likelihood`` with an ``Agreement`` model: 1 where
the policy plays the card, ``MISS`` where not, so the likelihood is ``MISS ** mismatches``; its
cache keyed by the play and the seat's cards then saves the policy's answers across worlds and
decisions of a hand). The partner's plays are not weighted: its policy is not assumed (in the
bench it is the searching bot itself). A bench tool, not yet the SDK's: it measures what worlds
consistent with the heuristic's own play are worth to a search, without the clock.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields

from arena.engine.actions import Action
from arena.engine.cards import SUIT_MASKS, Card, CardMask, Suit, cards_of
from arena.engine.observation import Observation
from arena.engine.rules import TrumpMethod
from sdk.bot import Bot, BotView
from sdk.inference import Inference, LikelihoodCache, UnsupportedViewError
from sdk.sampling import Placement, Sampler

JUMP = 0.25
"""The share of the chain's proposals that are fresh uniform draws (``_Space.propose``)."""
THIN = 6
"""The chain's proposals a world by default (``ConsistentWorlds.thin``)."""
MISS = 0.5
"""The ``Agreement`` model's factor for a play the policy would not have made (exact in binary:
the likelihood is ``MISS ** mismatches``)."""


@dataclass(frozen=True, slots=True)
class Agreement:
    """A ``PlayModel`` that says whether ``policy`` would have made each play of ``seats``: 1 if
    it chooses that action on that view, ``MISS`` if not; every other seat's play counts 1."""

    policy: Bot
    seats: frozenset[int]

    def probability(self, view: BotView, action: Action) -> float:
        if view.observation.seat not in self.seats:
            return 1.0
        return 1.0 if self.policy.decide(view) == action else MISS


@dataclass(slots=True)
class ChainStats:
    """What the generator did, summed over its decisions (for the bench's report)."""

    decisions: int = 0
    worlds: int = 0
    inconsistent_worlds: int = 0
    """Worlds handed out although inconsistent (no consistent start found within the budget)."""
    uniform_starts: int = 0
    repaired_starts: int = 0
    descent_proposals: int = 0
    chain_proposals: int = 0
    chain_accepted: int = 0
    seconds: float = 0.0
    """CPU seconds (``time.process_time``) spent drawing worlds."""

    def add(self, other: ChainStats) -> None:
        for f in fields(self):
            setattr(self, f.name, getattr(self, f.name) + getattr(other, f.name))

    def to_json(self) -> dict[str, float]:
        return {
            "decisions": self.decisions, "worlds": self.worlds, "inconsistent_worlds": self.inconsistent_worlds,
            "uniform_starts": self.uniform_starts, "repaired_starts": self.repaired_starts,
            "descent_proposals": self.descent_proposals, "chain_proposals": self.chain_proposals,
            "chain_acceptance": round(self.chain_accepted / max(1, self.chain_proposals), 3),
            "cpu_ms_per_decision": round(1000 * self.seconds / max(1, self.decisions), 1),
            "cpu_ms_per_world": round(1000 * self.seconds / max(1, self.worlds), 2),
        }


@dataclass(frozen=True, slots=True)
class _State:
    """A chain state: the four hands (the seat's own as it is) and, for a modelled caller, the
    first packet it called on (``0`` when no call is modelled)."""

    hands: tuple[CardMask, CardMask, CardMask, CardMask]
    packet: CardMask


@dataclass(slots=True)
class ConsistentWorlds:
    """Draws placements consistent with ``seats``' plays under ``policy`` (one per bot seat; it
    keeps its last world and the policy's answers for the rest of the hand).

    ``call_rule``: the policy's trump call from its first packet (the heuristic's
    ``best_trump_suit``), or ``None`` to leave calls out."""

    policy: Bot
    seats: frozenset[int]
    call_rule: Callable[[tuple[Card, ...]], Suit] | None = None
    thin: int = THIN
    descent_beta: float = 2.0
    stall: int = 300
    """Descent proposals without a new best before a restart from a uniform draw."""
    budget: int = 3000
    """Descent proposals a decision may spend before it hands out its best inconsistent state."""
    stats: ChainStats = field(default_factory=ChainStats)
    _cache: LikelihoodCache = field(default_factory=LikelihoodCache)
    _last: _State | None = None
    _last_history: tuple[tuple[int, int | None], ...] = ()

    def draw(self, view: BotView, n: int, rng: random.Random) -> tuple[Sampler, list[Placement]]:
        """The sampler of ``view`` and ``n`` placements from the chain (``UnsupportedViewError``
        where the hand cannot be replayed or its placements are not hands alone)."""
        started = time.process_time()
        try:
            return self._draw(view, n, rng)
        finally:
            self.stats.seconds += time.process_time() - started

    def _draw(self, view: BotView, n: int, rng: random.Random) -> tuple[Sampler, list[Placement]]:
        obs = view.observation
        inference = Inference(view, Agreement(self.policy, self.seats), self._cache)
        space = _Space(obs, inference.sampler, self.seats, self.call_rule)
        chain = _Chain(space, inference, rng, self.descent_beta)
        history = _history(obs)
        start = None
        if self._last is not None and history[: len(self._last_history)] == self._last_history:
            start = space.repair(self._last, rng)
        if start is None:
            start = space.uniform(rng)
            self.stats.uniform_starts += 1
        else:
            self.stats.repaired_starts += 1
        state, energy = chain.descend(start, self.stall, self.budget)
        self.stats.descent_proposals += chain.proposals
        worlds: list[Placement] = []
        for _ in range(n):
            if energy == 0:
                before = chain.proposals
                for _ in range(self.thin):
                    state = chain.step_consistent(state)
                self.stats.chain_proposals += chain.proposals - before
            else:
                self.stats.inconsistent_worlds += 1
            worlds.append(space.placement(state))
        self.stats.chain_accepted += chain.accepted
        self.stats.decisions += 1
        self.stats.worlds += n
        self._last, self._last_history = (state if energy == 0 else None), history
        return inference.sampler, worlds

    def energy(self, view: BotView, placement: Placement, packet: CardMask | None = None) -> int:
        """How many of the modelled plays (and, given a first ``packet``, the call) ``placement``
        does not explain: 0 for a consistent world (for the tests and the bench's checks)."""
        inference = Inference(view, Agreement(self.policy, self.seats), self._cache)
        space = _Space(view.observation, inference.sampler, self.seats, None if packet is None else self.call_rule)
        state = _State(placement.hands, packet if packet is not None else 0)
        return _Chain(space, inference, random.Random(0), self.descent_beta).energy(state, math.inf)

    def packet_of(self, view: BotView, placement: Placement, rng: random.Random) -> CardMask:
        """A first packet for a modelled caller's cards in ``placement`` that explains its call,
        found by trying random ones (0 when no call is modelled or none was found in 2,000 tries)."""
        inference = Inference(view, Agreement(self.policy, self.seats), self._cache)
        space = _Space(view.observation, inference.sampler, self.seats, self.call_rule)
        if space.caller is None:
            return 0
        for _ in range(2000):
            packet = space.random_packet(placement.hands, rng)
            if space.call_explained(packet):
                return packet
        return 0


def _history(obs: Observation) -> tuple[tuple[int, int | None], ...]:
    plays = [(s, c) for t in obs.tricks for s, c in zip(t.seats, t.cards, strict=True)]
    return tuple((s, None if c is None else int(c)) for s, c in [*plays, *obs.current_trick])


class _Space:
    """The placements of one view: which cards move, where they may go, the call to explain."""

    def __init__(self, obs: Observation, sampler: Sampler, seats: frozenset[int],
                 call_rule: Callable[[tuple[Card, ...]], Suit] | None) -> None:
        tracker = sampler.tracker
        if any(tracker.cards_to_come) or (tracker.hidden_holder is not None and tracker.own_hidden is None) \
                or tracker.face_down_slots or sampler.limits:
            raise UnsupportedViewError("consistent worlds: only placements of the hands alone")
        self.sampler = sampler
        self.me = obs.seat
        self.unknown: CardMask = tracker.unknown
        self.hidden = tuple(s for s in range(4)
                            if s != obs.seat and tracker.hand_sizes[s] > tracker.known[s].bit_count())
        self.allowed = tuple(_suits(0xF & ~tracker.voids[s]) for s in range(4))
        self.known = tracker.known
        self.hand = tracker.hand
        self.sizes = tracker.hand_sizes
        played = [0, 0, 0, 0]
        for s, c in _history(obs):
            if c is not None:
                played[s] |= 1 << c
        self.played = played
        setting = obs.trump_setting
        self.caller: int | None = None
        self.called: Suit | None = None
        self.call_rule = call_rule
        if (call_rule is not None and obs.rules.trump is TrumpMethod.CALLED and setting is not None
                and setting.card is None and obs.first_player in seats and obs.first_player != obs.seat):
            self.caller, self.called = obs.first_player, setting.suit
        self.packet_size = obs.rules.packets[0]

    def placement(self, state: _State) -> Placement:
        return Placement(state.hands, (0, 0, 0, 0), None, ())

    def uniform(self, rng: random.Random) -> _State:
        hands = self.sampler.sample(rng).hands
        return _State(hands, self.random_packet(hands, rng) if self.caller is not None else 0)

    def random_packet(self, hands: tuple[CardMask, ...], rng: random.Random) -> CardMask:
        assert self.caller is not None
        cards = _bits(hands[self.caller] | self.played[self.caller])
        packet = 0
        for c in rng.sample(cards, self.packet_size):
            packet |= 1 << c
        return packet

    def call_explained(self, packet: CardMask) -> bool:
        assert self.call_rule is not None
        return self.call_rule(cards_of(packet)) == self.called

    def repair(self, last: _State, rng: random.Random) -> _State | None:
        """``last`` (a world of an earlier view of this hand) made a placement of this view: each
        hidden seat keeps its unknown cards that its voids allow, the rest go out at random."""
        keep = [0, 0, 0, 0]
        keep[self.me] = self.hand
        room = {}
        for s in self.hidden:
            mine = last.hands[s] & self.unknown & self.allowed[s]
            extra = mine.bit_count() + self.known[s].bit_count() - self.sizes[s]
            if extra > 0:
                for c in rng.sample(_bits(mine), extra):
                    mine &= ~(1 << c)
            keep[s] = mine
            room[s] = self.sizes[s] - self.known[s].bit_count() - mine.bit_count()
        for s in range(4):
            if s != self.me and s not in self.hidden:
                keep[s] = 0
        pool = _bits(self.unknown & ~(keep[0] | keep[1] | keep[2] | keep[3]))
        rng.shuffle(pool)
        pool.sort(key=lambda c: sum(self.allowed[s] >> c & 1 for s in self.hidden if room[s] > 0))
        for c in pool:
            places = [s for s in self.hidden if room[s] > 0 and self.allowed[s] >> c & 1]
            if not places:
                return None
            s = rng.choice(places)
            keep[s] |= 1 << c
            room[s] -= 1
        hands = tuple(keep[s] | self.known[s] if s != self.me else keep[s] for s in range(4))
        packet = 0
        if self.caller is not None:
            original = hands[self.caller] | self.played[self.caller]
            packet = last.packet & original
            missing = self.packet_size - packet.bit_count()
            if missing > 0:
                for c in rng.sample(_bits(original & ~packet), missing):
                    packet |= 1 << c
        return _State(hands, packet)  # type: ignore[arg-type]

    def propose(self, state: _State, rng: random.Random) -> _State | None:
        """A fresh uniform state (``JUMP`` of the time), or a swap of two unseen cards between
        hidden hands (or of a packet card, for a modelled caller, one time in four); ``None``
        when a swap breaks a void (the chain stays)."""
        if rng.random() < JUMP:
            return self.uniform(rng)
        if self.caller is not None and rng.random() < 0.25:
            original = state.hands[self.caller] | self.played[self.caller]
            out = rng.choice(_bits(state.packet))
            into = rng.choice(_bits(original & ~state.packet))
            return _State(state.hands, state.packet & ~(1 << out) | 1 << into)
        if len(self.hidden) < 2:
            return None  # the unseen cards all lie in one hand: nothing to swap
        movable = [(c, s) for s in self.hidden for c in _bits(state.hands[s] & self.unknown)]
        while True:
            (a, sa), (b, sb) = rng.sample(movable, 2)
            if sa != sb:
                break
        if not (self.allowed[sb] >> a & 1 and self.allowed[sa] >> b & 1):
            return None
        hands = list(state.hands)
        hands[sa] = hands[sa] & ~(1 << a) | 1 << b
        hands[sb] = hands[sb] & ~(1 << b) | 1 << a
        packet = state.packet
        if self.caller is not None:
            for gone, came, seat in ((a, b, sa), (b, a, sb)):
                if seat == self.caller and packet >> gone & 1:
                    packet = packet & ~(1 << gone) | 1 << came
        return _State(tuple(hands), packet)  # type: ignore[arg-type]


class _Chain:
    """The descent and the Metropolis chain over one view's ``_Space``."""

    def __init__(self, space: _Space, inference: Inference, rng: random.Random, beta: float) -> None:
        self.space = space
        self.inference = inference
        self.rng = rng
        self.beta = beta
        self.proposals = 0
        self.accepted = 0

    def energy(self, state: _State, ceiling: float) -> int:
        """Inconsistencies of ``state``, exactly up to ``ceiling`` (above it: some number above)."""
        space = self.space
        call = 0
        if space.caller is not None and not space.call_explained(state.packet):
            call = 1
        if call > ceiling:
            return call
        floor = MISS ** (ceiling - call + 0.5) if ceiling != math.inf else 0.0
        likelihood = self.inference.likelihood(space.placement(state), floor=floor)
        return call + round(-math.log2(likelihood)) if likelihood > 0 else call + 10**6

    def descend(self, start: _State, stall: int, budget: int) -> tuple[_State, int]:
        """From ``start`` toward a consistent state; the best state and its energy."""
        state, energy = start, self.energy(start, math.inf)
        best, best_energy, since = state, energy, 0
        while energy > 0 and self.proposals < budget:
            if since >= stall:
                state = self.space.uniform(self.rng)
                energy, since = self.energy(state, math.inf), 0
                continue
            self.proposals += 1
            since += 1
            proposal = self.space.propose(state, self.rng)
            if proposal is None:
                continue
            allowed = energy + int(-math.log(1.0 - self.rng.random()) / self.beta)
            new = self.energy(proposal, allowed)
            if new <= allowed:
                state, energy = proposal, new
                if energy < best_energy:
                    best, best_energy, since = state, energy, 0
        return (state, energy) if energy == 0 else (best, best_energy)

    def step_consistent(self, state: _State) -> _State:
        """One Metropolis step on the consistent states (uniform target, symmetric proposal)."""
        self.proposals += 1
        proposal = self.space.propose(state, self.rng)
        if proposal is None or self.energy(proposal, 0) != 0:
            return state
        self.accepted += 1
        return proposal


def _bits(mask: CardMask) -> list[int]:
    """The card indices of ``mask``, lowest first (the engine's ``cards_of`` order)."""
    return [int(card) for card in cards_of(mask)]


def _suits(suits: int) -> CardMask:
    """The cards of a set of suits (bit ``s`` for suit ``s``)."""
    return sum(SUIT_MASKS[s] for s in range(4) if suits >> s & 1)
