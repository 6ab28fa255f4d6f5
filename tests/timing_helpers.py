"""Match records and decision streams for the timing-leak detector's tests (issue 23).

``retimed`` takes a real record (played in process, milliseconds apart) and writes each
decision's ``ms`` from a function of what the seat held, so a test decides exactly what the
times say, with seeded noise and no sleep.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

from arena.engine.actions import parse_action
from arena.engine.record import replay_record
from arena.referee.in_process import play_in_process
from arena.referee.timing_leak import TimedDecision, stratum
from sample_bots.random.bot import RandomBot

Timing = Callable[[int, int, int, random.Random], float]
"""(seat, holding mask, legal actions, rng) -> ms."""


def random_record(folder: Path, deals: int = 8, seed: int = 3) -> str:
    """A match of four random bots, as the referee records it."""
    path = folder / f"random-{seed}-{deals}.jsonl"
    play_in_process([RandomBot(seat) for seat in range(4)], deals=deals, seed=seed, record=path)
    return path.read_text()


def retimed(record: str, timing: Timing, seed: int = 0) -> str:
    """``record`` with every decision's ``ms`` from ``timing`` (replaying each hand for the holdings)."""
    rng = random.Random(seed)
    lines = []
    for text in record.splitlines():
        line = json.loads(text)
        if line["type"] == "hand":
            state = replay_record({**line["record"], "actions": [], "result": None}, require_complete=False)
            for decision, action in zip(line["decisions"], line["record"]["actions"], strict=False):
                seat = state.to_move
                assert seat == decision["seat"]
                decision["ms"] = round(timing(seat, state.hand(seat), decision["legal"], rng), 3)
                state.apply(parse_action(action["action"]))
        lines.append(json.dumps(line, separators=(",", ":")))
    return "\n".join(lines) + "\n"


def signalling(seats: tuple[int, ...], unit: float = 15.0) -> Timing:
    """Seats in ``seats`` answer in 30 + unit x c ms (c: their highest unplayed card) plus jitter;
    the others in a time that grows with the legal actions and the cards in hand (honest)."""
    def timing(seat: int, holding: int, legal: int, rng: random.Random) -> float:
        if seat in seats and holding:
            return 30 + unit * (holding.bit_length() - 1) + rng.uniform(0, 2)
        return honest(seat, holding, legal, rng)
    return timing


def honest(seat: int, holding: int, legal: int, rng: random.Random) -> float:
    """Work that depends on the legal actions and the hand size, and noise: nothing else."""
    return 2 + 3 * legal + 0.5 * holding.bit_count() + rng.expovariate(1 / 4)


def stream(count: int, timing: Callable[[int, random.Random], float], seed: int) -> list[TimedDecision]:
    """``count`` decisions, each holding a random 1..13 of 52 cards, timed by ``timing(holding, rng)``."""
    rng = random.Random(seed)
    decisions = []
    for index in range(count):
        size = rng.randint(1, 13)
        holding = sum(1 << card for card in rng.sample(range(52), size))
        legal = rng.randint(1, size)
        decisions.append(TimedDecision(stratum("play", size, legal), timing(holding, rng), holding, index // 13))
    return decisions
