"""How much a seat's move times say about its own unplayed cards (issue 23: the timing detector).

A bot can signal to its partner by delaying its replies (e.g. 30 + 15 x c ms for card c of its
hand). Honest bots' times vary too, but with the work a decision takes: its kind, the cards in
hand, the number of legal actions. So the times are ranked *within* strata of those
(``Stratum``), each rank becomes one of ``bins`` quantile bins, and the statistic is

    T = sum over cards c of I(bin ; seat holds c)      (plug-in mutual information, bits)

over the seat's decisions of a match. An honest time, once its stratum is known, is noise: its
bin is independent of the cards and the true T is 0. Two things make an honest T positive:

- the plug-in estimate's bias (about (bins - 1) / (2 N ln 2) bits per card held);
- anything that makes times differ from hand to hand (the machine busier for a while, a
  garbage collection): the cards held say which hand it is, so they "predict" the time.
  Measured over gRPC on a loaded machine, this alone gave honest bots 0.13-0.2 bits.

Both affect the other seats' cards exactly as much, and a signal about the seat's own cards
much less (another seat's holding of a card is only a third as correlated with ours). So the
estimate is ``T - mean over the other seats s of T_s`` (T with seat s's unplayed cards at the
same decisions, the *placebo*), less its mean over ``permutations`` shuffles of the bins within
a stratum and a run of ``block_hands`` hands (seeded: the result is deterministic). ``z`` is
that excess over the shuffles' spread, ``p_value`` the share of shuffles at least as large.
The price: a signal that only changes from one hand to the next is cancelled with the load
(the tests' highest-card signaller keeps about half its bits). Nothing here reads a file or a
clock: the ladder feeds it a stored record.

The times are the ones the other seats saw (``seen_ms``): the reply's own under on-reply release,
the slot's or the allowance's end under slot-end release, which hides everything else.

Counting is cheap: each decision's holding is one integer with a ``width``-bit counter per card,
so summing a bin's decisions counts all 52 cards at once, and ``x log2 x`` is a table.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from arena.contract.time_control import MoveRelease
from arena.engine.actions import parse_action
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_records import is_bidding_record, parse_bidding_action, replay_bidding_record
from arena.engine.errors import ArenaError, RecordError
from arena.engine.hand import HandState
from arena.engine.hand_records import read_hand_record, replay_record
from arena.referee.match_record_lines import DecisionEntry, HandLine, MatchStartLine, RecordedTimeControl, read_line
from arena.referee.match_recorder import match_record_lines

SEATS = 4
DECK = 52


class TimingLeakError(ValueError):
    """Settings or input the detector cannot use; the message is one line."""


@dataclass(frozen=True, slots=True)
class DetectorSettings:
    """The estimator's knobs; the defaults are the ones ``docs/ladder.md`` measured."""

    bins: int = 3
    """Quantile bins of the time within a stratum."""
    permutations: int = 32
    """Shuffles for the bias baseline and the p-value."""
    seed: int = 23
    """Of the shuffles: the same record always gives the same figures."""
    min_decisions: int = 24
    """Fewer timed decisions than this in a match: no estimate (too little to tell anything)."""
    block_hands: int = 2
    """Shuffles stay within runs of this many hands, so the shuffled values keep a slow drift of
    the machine's load over a match (the placebo takes out the rest)."""

    def __post_init__(self) -> None:
        if not 2 <= self.bins <= 16:
            raise TimingLeakError(f"bins must be 2..16, got {self.bins}")
        if not 1 <= self.permutations <= 10_000:
            raise TimingLeakError(f"permutations must be 1..10000, got {self.permutations}")
        if self.block_hands < 1:
            raise TimingLeakError(f"block_hands must be at least 1, got {self.block_hands}")
        if self.min_decisions < self.bins:
            raise TimingLeakError(f"min_decisions must be at least bins ({self.bins}), got {self.min_decisions}")


Stratum = tuple[str, int, int]
"""What an honest bot's time may depend on: (decision kind, hand-size bucket, legal-action bucket)."""


def _bucket(value: int, tops: Sequence[int]) -> int:
    for bucket, top in enumerate(tops):
        if value <= top:
            return bucket
    return len(tops)


def stratum(kind: str, hand_size: int, legal: int) -> Stratum:
    """Cards in hand in buckets 1-3 (the search bot's exact endgame), 4-6, 7-9, 10-12, 13+;
    legal actions in 1, 2, 3-4, 5-7, 8+: finer strata leave too few decisions to shuffle."""
    return kind, _bucket(hand_size, (3, 6, 9, 12)), _bucket(legal, (1, 2, 4, 7))


@dataclass(frozen=True, slots=True)
class TimedDecision:
    """One decision of a seat as the detector sees it."""

    stratum: Stratum
    ms: float
    holding: int
    """The seat's unplayed cards when it was asked (a ``CardMask``)."""
    hand: int = 0
    """The hand's index in the match (from 0)."""
    others: tuple[int, ...] = ()
    """The other seats' unplayed cards at the same moment: the placebo (see the module doc)."""


@dataclass(frozen=True, slots=True)
class LeakEstimate:
    """The detector's figures for one seat of one match (bits are per decision)."""

    decisions: int
    bits: float
    """Excess information: own cards less the placebos, less its shuffled mean (about 0 for an honest seat)."""
    observed_bits: float
    """T itself, the plug-in information about the seat's own cards."""
    baseline_bits: float
    """What ``bits`` took off ``observed_bits``: the placebos and the shuffled mean."""
    z: float
    """The excess in standard deviations of the shuffled values (0 when they do not vary)."""
    p_value: float
    """(1 + shuffles at least as large) / (1 + shuffles): 1/33 at the least with 32 shuffles."""

    def to_json(self) -> dict[str, Any]:
        return {"decisions": self.decisions, "bits": round(self.bits, 4),
                "observed_bits": round(self.observed_bits, 4), "baseline_bits": round(self.baseline_bits, 4),
                "z": round(self.z, 3), "p_value": round(self.p_value, 4)}


def timed_decisions(lines: Iterable[Mapping[str, Any]]) -> dict[int, list[TimedDecision]]:
    """Each seat's timed decisions in a match record's lines, its holdings from replaying each hand.
    A faulted or substituted decision is left out (its time is the referee's, not the bot's)."""
    seats: dict[int, list[TimedDecision]] = {seat: [] for seat in range(SEATS)}
    start: MatchStartLine | None = None
    for number, raw in enumerate(lines, start=1):
        line = read_line(dict(raw), f"line {number}")
        if isinstance(line, MatchStartLine):
            start = line
        elif isinstance(line, HandLine):
            for seat, decision in _hand_decisions(line, number, start):
                seats[seat].append(decision)
    return seats


def seen_ms(ms: float, control: RecordedTimeControl | None) -> float:
    """The time the other seats saw a reply take: the reply's own under on-reply release; under
    slot-end release only whether it came within the slot (``per_move``) or spent the bank, since
    the move is held to the slot's or the allowance's end whatever the bot did. Measuring the
    reply's own time there flagged honest bots whose thinking varies with their cards (the
    README's ladder flagged the heuristic) for a channel nobody could read."""
    if control is None or control.release is MoveRelease.ON_REPLY:
        return ms
    return control.per_move * 1000 if ms <= control.per_move * 1000 else (control.per_move + control.bank) * 1000


def _hand_decisions(line: HandLine, number: int,
                    start: MatchStartLine | None) -> Iterable[tuple[int, TimedDecision]]:
    """The hand replayed action by action: each decision's holding is the seat's hand just before."""
    where = f"line {number} (hand {line.index})"
    try:
        # The actions' shape is the same in a bidding game's record (its result's is not: not read here).
        record = read_hand_record({**line.record, "result": None})
        state = _dealt(line.record)
        for index, entry in enumerate(line.decisions):
            if index >= len(record.actions):
                break  # a forfeited decision: no action was applied
            seat = state.to_move
            if seat is None or entry.seat != seat or record.actions[index].seat != seat:
                raise RecordError(f"decision {index} is seat {entry.seat}'s but seat {seat} is to move")
            if _timed(entry):
                kind = state.decision.value if state.decision is not None else ""
                holding = state.hand(seat)
                legal = entry.legal if entry.legal is not None else len(state.legal_actions())
                control = None if start is None else start.time_control_of(seat)  # the seat's own clock
                yield seat, TimedDecision(stratum(kind, holding.bit_count(), legal), seen_ms(entry.ms, control),
                                          holding, line.index,
                                          tuple(state.hand(other) for other in range(SEATS) if other != seat))
            _apply(state, record.actions[index].action)
    except ArenaError as exc:
        raise RecordError(f"{where}: {exc}") from None


def _dealt(record: Mapping[str, Any]) -> HandState | BiddingHand:
    """The record's hand as dealt, before any action: a trick-taking game's or a bidding game's."""
    start = {**record, "actions": [], "result": None}
    if is_bidding_record(start):
        return replay_bidding_record(start, require_complete=False)
    return replay_record(start, require_complete=False)


def _apply(state: HandState | BiddingHand, text: str) -> None:
    if isinstance(state, BiddingHand):
        state.apply(parse_bidding_action(text))
    else:
        state.apply(parse_action(text))


def _timed(entry: DecisionEntry) -> bool:
    return entry.fault is None and not entry.substituted and math.isfinite(entry.ms) and entry.ms >= 0


def record_leaks(content: str, settings: DetectorSettings | None = None,
                 where: str = "record") -> dict[int, LeakEstimate]:
    """Per seat (those with enough timed decisions), the estimate from a match record's text."""
    decisions = timed_decisions(match_record_lines(content, where))
    found = {seat: leak_estimate(timed, settings) for seat, timed in decisions.items()}
    return {seat: estimate for seat, estimate in found.items() if estimate is not None}


def leak_estimate(decisions: Sequence[TimedDecision], settings: DetectorSettings | None = None) -> LeakEstimate | None:
    """The estimate for one seat's decisions, or None if there are fewer than ``min_decisions``."""
    settings = settings or DetectorSettings()
    if len(decisions) < settings.min_decisions:
        return None
    by_stratum: dict[Stratum, list[int]] = {}
    for index, decision in enumerate(decisions):
        by_stratum.setdefault(decision.stratum, []).append(index)
    label = [0] * len(decisions)
    for members in by_stratum.values():  # bins by the time's rank within its stratum, over the match
        for index, value in zip(members, _quantile_bins([decisions[i].ms for i in members], settings.bins),
                                strict=True):
            label[index] = value
    cells: dict[tuple[Stratum, int], list[int]] = {}  # shuffled within a stratum and a run of hands
    for index, decision in enumerate(decisions):
        cells.setdefault((decision.stratum, decision.hand // settings.block_hands), []).append(index)
    width = len(decisions).bit_length() + 1
    views = [[d.holding for d in decisions]]  # the seat's own cards, then each placebo
    if all(len(d.others) == len(decisions[0].others) for d in decisions):
        views += [[d.others[k] for d in decisions] for k in range(len(decisions[0].others))]
    ordered = [cells[key] for key in sorted(cells)]
    layout = _Cells(label, ordered, settings.bins)
    counters = [(layout.packed(view, width), _Counter(len(decisions), settings.bins, width, _held_counts(view),
                                                      layout.sizes)) for view in views]

    def statistic(labels: Sequence[int]) -> tuple[float, float]:
        """The own-card information, and that less the placebos' mean."""
        values = [counter.bits(layout.sums(packed, labels)) for packed, counter in counters]
        placebo = sum(values[1:]) / (len(values) - 1) if len(values) > 1 else 0.0
        return values[0], values[0] - placebo

    own, observed = statistic(layout.labels)
    rng = random.Random(settings.seed)
    shuffled_bits = [statistic(layout.shuffled(rng))[1] for _ in range(settings.permutations)]
    baseline = sum(shuffled_bits) / len(shuffled_bits)
    spread = math.sqrt(sum((value - baseline) ** 2 for value in shuffled_bits) / max(1, len(shuffled_bits) - 1))
    at_least = sum(value >= observed - 1e-12 for value in shuffled_bits)
    z = (observed - baseline) / spread if spread > 1e-12 else 0.0
    return LeakEstimate(len(decisions), observed - baseline, own, own - observed + baseline, z,
                        (1 + at_least) / (1 + settings.permutations))


def _held_counts(holdings: Sequence[int]) -> list[int]:
    """How many of the holdings hold each card."""
    counts = [0] * DECK
    for held in holdings:
        rest = held
        while rest:
            low = rest & -rest
            counts[low.bit_length() - 1] += 1
            rest ^= low
    return counts


def _packed(holding: int, width: int) -> int:
    """A ``width``-bit counter per card, 1 where the card is held: adding these counts every card."""
    value = 0
    while holding:
        low = holding & -holding
        value |= 1 << ((low.bit_length() - 1) * width)
        holding ^= low
    return value


def _quantile_bins(times: Sequence[float], bins: int) -> list[int]:
    """Each time's quantile bin among ``times`` by its mid-rank; equal times share a bin (a bot
    that always answers alike says nothing)."""
    order = sorted(range(len(times)), key=times.__getitem__)
    result = [0] * len(times)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and times[order[end + 1]] == times[order[start]]:
            end += 1
        mid = (start + end + 1) / 2  # the mid-rank, from 0.5
        label = min(bins - 1, int(mid * bins / len(times)))
        for position in range(start, end + 1):
            result[order[position]] = label
        start = end + 1
    return result


class _Cells:
    """The decisions by shuffle cell: a cell whose labels are all alike never changes, so its
    decisions are summed once; the others are kept flat, with their bounds, for an in-place shuffle."""

    def __init__(self, label: Sequence[int], cells: Sequence[Sequence[int]], bins: int) -> None:
        self.bins = bins
        self.sizes = [0] * bins
        """Decisions per label: the same under every shuffle within cells."""
        self.fixed: list[tuple[int, int]] = []
        """(decision, label) of the cells that never change."""
        self.moving: list[int] = []
        self.labels: list[int] = []
        self.bounds: list[tuple[int, int]] = []
        for members in cells:
            labels = [label[i] for i in members]
            for value in labels:
                self.sizes[value] += 1
            if len(set(labels)) < 2:
                self.fixed += zip(members, labels, strict=True)
                continue
            start = len(self.moving)
            self.moving += members
            self.labels += labels
            self.bounds.append((start, len(self.moving)))

    def packed(self, holdings: Sequence[int], width: int) -> tuple[list[int], list[int]]:
        """For one view of the cards: the fixed cells' sums per label, and the moving decisions' counters."""
        fixed = [0] * self.bins
        for index, value in self.fixed:
            fixed[value] += _packed(holdings[index], width)
        return fixed, [_packed(holdings[index], width) for index in self.moving]

    @staticmethod
    def sums(packed: tuple[list[int], list[int]], labels: Sequence[int]) -> list[int]:
        """Per label, the packed card counts of its decisions."""
        fixed, moving = packed
        sums = list(fixed)
        for value, label in zip(moving, labels, strict=True):
            sums[label] += value
        return sums

    def shuffled(self, rng: random.Random) -> list[int]:
        """The labels shuffled within each cell (Fisher-Yates on each cell's slice)."""
        labels = list(self.labels)
        draw = rng.random
        for start, end in self.bounds:
            for i in range(end - 1, start, -1):
                j = start + int(draw() * (i - start + 1))
                labels[i], labels[j] = labels[j], labels[i]
        return labels


class _Counter:
    """The mutual-information sum for one seat's decisions from its per-label card counts."""

    def __init__(self, total: int, bins: int, width: int, held: Sequence[int], sizes: Sequence[int]) -> None:
        self.total = total
        self.bins = bins
        self.width = width
        self.mask = (1 << width) - 1
        self.cards = [card for card in range(DECK) if 0 < held[card] < total]
        self.sizes = sizes
        f = self.xlogx = [0.0] + [n * math.log2(n) for n in range(1, total + 1)]
        per_bin = sum(f[size] for size in sizes)
        per_card = sum(f[held[card]] + f[total - held[card]] for card in self.cards)
        # I(B;H) = [sum f(n_bh) - sum f(n_b) - sum f(n_h) + f(N)] / N, summed over the cards: all
        # but the first sum are the same for every shuffle.
        self.constant = len(self.cards) * (per_bin - f[total]) + per_card

    def bits(self, sums: Sequence[int]) -> float:
        f, mask, sizes = self.xlogx, self.mask, self.sizes
        joint = 0.0
        for card in self.cards:
            shift = card * self.width
            for label in range(self.bins):
                inside = (sums[label] >> shift) & mask
                joint += f[inside] + f[sizes[label] - inside]
        return (joint - self.constant) / self.total
