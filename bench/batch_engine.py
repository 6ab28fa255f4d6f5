"""The batched engine against ``arena.engine``: random legal play of one preset, on one core.

Both engines deal the same seeds (``Deal.from_seed``; seed ``base + i``, dealer ``seed % 4``)
and take the same choices: the batched engine draws them (``BatchTables.step_keyed``: one call
per step for all the tables of a chunk, which draws a uniformly random legal action per table
from one integer key and applies it) and records them, and the scalar engine replays them hand
by hand (``HandState.play``; a call, hide, reveal or face-down discard through ``apply``), the
way ``bench/engine.py`` plays.
Dealing is timed on both sides. The replayed hands are then compared with the batched ones
trick by trick (``differential.compare_end``): ``mismatches``. The same hands are also played
through the checked API (``random_actions`` then ``step``, two calls a step, every action
checked before any is applied): ``checked_hands_per_s``.

Compile time is reported apart (``compile_s``: the first use of the kernels in this process,
which loads numba's cache, or compiles when the cache is stale). Each engine runs ``--rounds``
times and its best run counts (the machine is shared). Times are this process's CPU
time (steadier than the wall clock on a shared machine; the kernels use one thread).

The bidding presets (``twenty-eight``, ``twenty-nine``) run ``BiddingBatchTables`` against
``BiddingHand`` the same way (a card through ``BiddingHand.play``, calls, hides and the call for
the trump through ``apply``; ``bidding_differential.compare_end``).

Run: ``python bench/batch_engine.py [--hands N] [--tables T] [--compare C] [--preset P]``.
The last line is one JSON object.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from arena.batch import BatchTables, BiddingBatchTables
from arena.batch.bidding_differential import compare_end as compare_end_bidding
from arena.batch.differential import compare_end as compare_end_hand
from arena.engine.action_ids import action_of, bidding_action_of
from arena.engine.bidding_hand import BiddingHand
from arena.engine.bidding_rules import BIDDING_PRESETS, BiddingRules, bidding_rules_for
from arena.engine.deal import Deal
from arena.engine.hand import HandState
from arena.engine.rules import DEFAULT_PRESET, Rules, rules_for


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000, help="hands the batched engine plays")
    parser.add_argument("--tables", type=int, default=32_768, help="tables stepped together (a chunk)")
    parser.add_argument("--compare", type=int, default=20_000, help="hands the scalar engine replays (<= --tables)")
    parser.add_argument("--preset", default=DEFAULT_PRESET)
    parser.add_argument("--base", type=int, default=1, help="the first deal's seed")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each engine; the best of each counts")
    args = parser.parse_args()
    if not 0 < args.compare <= args.tables:
        raise SystemExit("--compare must be between 1 and --tables")
    game = bidding_game(args.preset) if args.preset in BIDDING_PRESETS else trick_game(args.preset)
    make_tables, replay, compare_end = game.make_tables, game.replay, game.compare_end

    start = time.process_time()
    warm = make_tables(4)
    warm.reset([0, 1, 2, 3])
    warm.step(warm.random_actions(warm.keyed_uniforms(0)))
    while not warm.over.all():
        warm.step_keyed(0)
    warm.legal_mask()
    compile_s = time.process_time() - start

    batch_times, scalar_times = [], []
    for _ in range(args.rounds):
        start = time.process_time()
        kept, choices = play_batch(make_tables, args)
        batch_times.append(time.process_time() - start)
    checked_times = []
    for _ in range(args.rounds):
        start = time.process_time()
        play_checked(make_tables, args)
        checked_times.append(time.process_time() - start)
    columns = choices.T.tolist()
    for _ in range(args.rounds):
        start = time.process_time()
        replay(args.base, columns, keep=False)
        scalar_times.append(time.process_time() - start)
    batch_s, scalar_s = min(batch_times), min(scalar_times)
    states = replay(args.base, columns, keep=True)

    mismatches = 0
    first_problem = None
    for t, state in enumerate(states):
        problem = compare_end(state, kept, t, args.base + t) if state is not None else "an illegal choice"
        if problem is not None:
            mismatches += 1
            first_problem = first_problem or str(problem)

    batch_rate = args.hands / batch_s
    checked_rate = args.hands / min(checked_times)
    scalar_rate = args.compare / scalar_s
    print(f"batched: {args.hands} hands in {batch_s:.2f} s CPU ({batch_rate:,.0f} hands/s, {args.tables} tables "
          f"a step); scalar: {args.compare} hands in {scalar_s:.2f} s ({scalar_rate:,.0f} hands/s); "
          f"compile/cache load {compile_s:.2f} s; checked API (random_actions + step): {checked_rate:,.0f} hands/s")
    if first_problem:
        print(f"first mismatch: {first_problem}")
    print(json.dumps({
        "preset": args.preset, "hands": args.hands, "tables": args.tables,
        "batch_hands_per_s": round(batch_rate), "scalar_hands_per_s": round(scalar_rate),
        "ratio": round(batch_rate / scalar_rate, 1), "hands_compared": args.compare, "mismatches": mismatches,
        "compile_s": round(compile_s, 2), "clock": "process_cpu", "rounds": args.rounds,
        "checked_hands_per_s": round(checked_rate), "checked_ratio": round(checked_rate / scalar_rate, 1),
    }))


class Tables(Protocol):
    """What the bench asks of ``BatchTables`` and ``BiddingBatchTables``."""

    size: int

    @property
    def over(self) -> npt.NDArray[np.bool_]: ...

    def reset(self, seeds: npt.NDArray[np.int64], dealers: npt.NDArray[np.int64]) -> None: ...

    def step(self, actions: npt.NDArray[np.int64]) -> None: ...

    def step_keyed(self, key: int) -> npt.NDArray[np.int64]: ...

    def keyed_uniforms(self, key: int) -> npt.NDArray[np.float64]: ...

    def random_actions(self, uniforms: npt.NDArray[np.float64]) -> npt.NDArray[np.int64]: ...

    def legal_mask(self) -> npt.NDArray[np.bool_]: ...


@dataclass(frozen=True)
class Game:
    """One preset's batched tables, its scalar replay and its end-of-hand comparison."""

    make_tables: Callable[[int], Any]
    replay: Callable[[int, list[list[int]], bool], list[Any]]
    compare_end: Callable[[Any, Any, int, int], object]


def trick_game(preset: str) -> Game:
    rules = rules_for(preset)
    return Game(lambda size: BatchTables(rules, size),
                lambda base, choices, keep: replay_hands(rules, base, choices, keep), compare_end_hand)


def bidding_game(preset: str) -> Game:
    """Twenty-eight, Twenty-nine: ``BiddingBatchTables`` against ``BiddingHand`` (cards by
    ``BiddingHand.play``, calls, hides and the call for the trump through ``apply``)."""
    rules = bidding_rules_for(preset)
    return Game(lambda size: BiddingBatchTables(rules, size),
                lambda base, choices, keep: replay_bidding(rules, base, choices, keep), compare_end_bidding)


def play_batch(make_tables: Callable[[int], Tables], args: argparse.Namespace) -> tuple[Tables, np.ndarray]:
    """Every hand through the batched engine, a chunk of ``--tables`` at a time; returns the
    first chunk's tables and the choices of its first ``--compare`` hands (``choices[s, t]``)."""
    tables = make_tables(args.tables)
    recorded: list[np.ndarray] = []
    kept: Tables | None = None
    for first in range(0, args.hands, args.tables):
        count = min(args.tables, args.hands - first)
        if count != tables.size:
            tables = make_tables(count)
        seeds = np.arange(args.base + first, args.base + first + count, dtype=np.int64)
        tables.reset(seeds, seeds % 4)
        key = (args.base + first) << 8
        while not tables.over.all():
            actions = tables.step_keyed(key)
            key += 1
            if first == 0:
                recorded.append(actions[:args.compare])
        if first == 0:
            kept, tables = tables, make_tables(args.tables)
    assert kept is not None
    return kept, np.array(recorded)


def play_checked(make_tables: Callable[[int], Tables], args: argparse.Namespace) -> None:
    """The same hands through the checked API: ``random_actions`` then ``step`` (which checks
    every action against the mask before it applies any), two calls a step."""
    tables = make_tables(args.tables)
    for first in range(0, args.hands, args.tables):
        count = min(args.tables, args.hands - first)
        if count != tables.size:
            tables = make_tables(count)
        seeds = np.arange(args.base + first, args.base + first + count, dtype=np.int64)
        tables.reset(seeds, seeds % 4)
        key = (args.base + first) << 8
        while not tables.over.all():
            tables.step(tables.random_actions(tables.keyed_uniforms(key)))
            key += 1


def replay(start: Callable[[int], Any], apply_id: Callable[[Any, int], None], base: int,
           choices: list[list[int]], keep: bool) -> list[Any]:
    """Each hand (``start(seed)``) through the scalar engine, with the batched engine's choices:
    a card by the hand's ``play`` (as ``bench/engine.py`` plays), anything else by ``apply_id``
    (``None``: a choice the scalar engine refused). ``keep``: return the finished hands (the timed
    pass keeps none, so that the garbage collector's passes over them are not counted)."""
    out: list[Any] = []
    for t, column in enumerate(choices):
        hand = start(base + t)
        play = hand.play
        try:
            for action in column:
                if action < 0:
                    break
                if action < 52:
                    play(action)
                else:
                    apply_id(hand, action)
        except ValueError:
            out.append(None)
            continue
        if keep:
            out.append(hand)
    return out


def replay_hands(rules: Rules, base: int, choices: list[list[int]], keep: bool) -> list[HandState | None]:
    """``replay`` on ``HandState``: a call, hide, reveal or face-down discard through ``apply``."""
    return replay(lambda seed: HandState(rules, Deal.from_seed(rules, seed), seed % 4),
                  lambda hand, action: hand.apply(action_of(action)), base, choices, keep)


def replay_bidding(rules: BiddingRules, base: int, choices: list[list[int]], keep: bool) -> list[BiddingHand | None]:
    """``replay`` on ``BiddingHand``: the auction, the hide and the call for the trump through ``apply``."""
    deal_rules = rules.deal_rules
    return replay(lambda seed: BiddingHand(rules, Deal.from_seed(deal_rules, seed), seed % 4),
                  lambda hand, action: hand.apply(bidding_action_of(action)), base, choices, keep)


if __name__ == "__main__":
    main()
