"""Match records and decision streams for the timing-leak detector's tests (issue 23).

``retimed`` takes a real record (played in process, milliseconds apart) and writes each
decision's ``ms`` from a function of what the seat held, so a test decides exactly what the
times say, with seeded noise and no sleep.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sqlalchemy import select

from arena.contract.status import OutcomeStatus
from arena.engine.actions import Action, parse_action
from arena.engine.hand_records import replay_record
from arena.referee.in_process import play_in_process
from arena.referee.timing_leak import TimedDecision, stratum
from ladder.coordinator.queue import MatchSettings, enqueue, lease
from ladder.coordinator.results import record_report
from ladder.execution.jobs import MatchReport
from ladder.rating.ratings import RatingEnv
from ladder.rating.scheduler import Pairing
from ladder.store.database import Store
from ladder.store.report_files import ReportFile, record_name
from ladder.store.schema import BotVersion
from sample_bots.random.bot import RandomBot
from sdk.bot import Bot, BotView, DelegatingBot

Timing = Callable[[int, int, int, random.Random], float]
"""(seat, holding mask, legal actions, rng) -> ms."""


def random_record(folder: Path, deals: int = 8, seed: int = 3) -> str:
    """A match of four random bots, as the referee records it. Played on a thread of its own: a
    browser test earlier in the same run (Playwright's sync API) leaves an event loop running on
    the main thread, where ``asyncio.run`` refuses to start."""
    path = folder / f"random-{seed}-{deals}.jsonl"
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(play_in_process, [RandomBot(seat) for seat in range(4)], deals=deals, seed=seed,
                    record=path).result()
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
                assert seat is not None and seat == decision["seat"]
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


def versions(store: Store, names: tuple[str, ...] = ("leaky", "honest")) -> dict[str, int]:
    """The store's versions by ``names``, in submission order."""
    with store.reading() as session:
        ids = sorted(session.scalars(select(BotVersion.id)))
    return dict(zip(names, ids, strict=True))


def play(store: Store, pairing: Pairing, content: bytes | None, seed: int = 7) -> int:
    """Queue, lease and report (to ``record_report``, as the ladder's loop does) one match whose
    record is ``content`` (None: a report without one)."""
    with store.transaction() as session:
        match_id = enqueue(session, RatingEnv(), pairing, seed, MatchSettings()).id
    with store.transaction() as session:
        attempt = lease(session, match_id, "me")
        assert attempt is not None
        files = (ReportFile(record_name(match_id), content),) if content is not None else ()
        report = MatchReport(match_id, attempt, OutcomeStatus.DONE, 0, (3.0, 1.0), 16, files=files)
        assert record_report(session, RatingEnv(), report)
    return match_id


class VirtualClock:
    """Seconds that pass only when a bot says so (``advance``): the referee's clock in a test
    (``Table(..., clock=)``, a ``RefereeClock``), so a match's times are exact and repeatable and
    a hold to a slot's end takes no time at all."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def now(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += max(0.0, seconds)

    async def hold_until(self, moment: float) -> None:
        self.seconds = max(self.seconds, moment)


class PacedBot(DelegatingBot):
    """``inner``'s moves, each taking (on ``clock``) what an honest bot's work would: more with
    more legal actions and more cards in hand, plus seeded noise."""

    def __init__(self, inner: Bot, clock: VirtualClock, seed: int) -> None:
        super().__init__(inner)
        self.clock = clock
        self.rng = random.Random(seed)

    def decide(self, view: BotView) -> Action:
        action = self.inner.decide(view)
        hand = sum(1 << int(card) for card in view.hand)
        self.clock.advance(honest(0, hand, len(view.observation.legal_actions), self.rng) / 1000)
        return action
