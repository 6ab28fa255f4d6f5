"""Playing a tournament's pairings: each one duplicate match (``play_local_match``), up to
``concurrency`` at once in one event loop, each result written to the folder as its match ends.
Each match publishes its public table beside its record while it runs (``MATCH.live.json``, as
``dehla match`` does), so ``dehla serve`` shows it live (``/local/{id}/live``).

Every pairing plays the same seed's deals, so every partnership meets the same cards. Cancelled
(Ctrl-C: ``asyncio.run`` cancels the main task), the running matches stop their bots and write no
result, so a resumed tournament plays them again; the finished ones are on disk already.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from arena.contract.messages import AnyRules
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.referee.launcher import BotCommand
from arena.referee.local import play_local_match
from arena.referee.table_values import AnyResult, TableConfig
from arena.referee.tournament.plan import Pairing, PairingResult, TournamentPlan, write_result
from arena.sandbox import Runner

Partnership = tuple[BotCommand, BotCommand]


class PairingEvents(Protocol):
    """What a display hears while pairings play."""

    def started(self, pairing: Pairing) -> None: ...

    def hand_played(self, pairing: Pairing, index: int, result: AnyResult) -> None: ...

    def finished(self, pairing: Pairing, result: PairingResult) -> None: ...


class Silent:
    """No display."""

    def started(self, pairing: Pairing) -> None:
        pass

    def hand_played(self, pairing: Pairing, index: int, result: AnyResult) -> None:
        pass

    def finished(self, pairing: Pairing, result: PairingResult) -> None:
        pass


@dataclass(frozen=True, slots=True)
class TournamentSetup:
    """What the pairings are played with: the plan and the things the plan names, resolved."""

    plan: TournamentPlan
    folder: Path
    records: Path
    """Where the matches' records and logs go: the data folder's local matches."""
    rules: AnyRules
    partnerships: Mapping[str, Partnership]
    runner: Runner
    concurrency: int

    def config(self, pairing: Pairing) -> TableConfig:
        plan = self.plan
        return TableConfig(pairing.record_id(plan.name), self.rules, plan.preset,
                           MatchFormat.parse(f"duplicate:{plan.deals}"), plan.seed,
                           TimeControl(per_move=plan.per_move, bank=plan.bank, release=plan.release), plan.policy)


async def play_pairings(setup: TournamentSetup, pending: Sequence[Pairing],
                        events: PairingEvents | None = None) -> list[PairingResult]:
    """Play ``pending`` in plan order, ``setup.concurrency`` at a time; each result is written as
    its match ends. Returns the results in the order the matches ended."""
    if setup.concurrency < 1:
        raise ValueError("concurrency must be at least 1")
    events = events or Silent()
    gate = asyncio.Semaphore(setup.concurrency)
    done: list[PairingResult] = []
    records = setup.records
    records.mkdir(parents=True, exist_ok=True)

    async def play(pairing: Pairing) -> None:
        async with gate:
            events.started(pairing)

            def on_hand(index: int, result: AnyResult) -> None:
                events.hand_played(pairing, index, result)

            outcome = await play_local_match(setup.partnerships[pairing.a], setup.partnerships[pairing.b],
                                             setup.config(pairing), records, on_hand, setup.runner,
                                             live_folder=records)
            result = PairingResult.of(pairing, outcome)
            write_result(setup.folder, result)
            done.append(result)
            events.finished(pairing, result)

    async with asyncio.TaskGroup() as group:
        for pairing in pending:
            group.create_task(play(pairing))
    return done
