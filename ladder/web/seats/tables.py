"""Tables where a person plays seat 0 against three bots: what may be chosen, the match each
plays (in a thread of the service, with the referee of ``dehla match``), and who may open one.

A table is ``dehla match``'s one-table match with one seat changed: seat 0 is a ``PersonBot``
served over the protocol on a unix socket of this process (``sdk.server.serve``), dialled by a
plain ``GrpcSeat``; the other three are bot processes started by a runner exactly as
``arena.referee.local.table_seats`` starts them (``BotProcess``, the manifest's limits sized by
``seat_limits``). The referee (``Table``), its clocks and fault policy and the recorder are the
ones every match uses, so the record lands in ``DATA/local-matches/`` like any other and lists
with its replay; a person's table is never rated. Spectators see its public table a trick late
(``arena.referee.delayed_live``). Each seat has its own clock: the person's is
generous, the bots' is the ladder's (``TableConfig.seat_time_controls``), so a bot thinks as long
as it would in a ladder match.
"""

from __future__ import annotations

import asyncio
import secrets
import shutil
import sys
import threading
import time
from dataclasses import dataclass, field, replace
from enum import StrEnum
from pathlib import Path

from arena.console.serving import LOCAL_MATCHES
from arena.contract.faults import FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.bidding_rules import BIDDING_PRESETS, game_rules_for
from arena.engine.errors import MatchFormatError
from arena.engine.match import MatchFormat
from arena.engine.rules import PRESETS
from arena.referee.delayed_live import DelayedBoard
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.launcher import BotCommand, BotProcess
from arena.referee.live_view import LiveBoard, live_path
from arena.referee.local import close_all, seat_limits
from arena.referee.match_recorder import MatchRecorder
from arena.referee.rooms import seat_log_name
from arena.referee.scratch import ScratchKind, make_scratch, sweep_stale
from arena.referee.table import Table
from arena.referee.table_values import MatchOutcome, TableConfig
from arena.sandbox import Runner, RunnerKind, SandboxError, runner_for
from ladder.coordinator.queue import MatchSettings
from ladder.execution.runners import RunnerUnavailable, make_runner
from ladder.web.seats.person import PersonBot
from sdk.server import serve

PERSON_SEAT = 0
"""The person sits at seat 0 (partnership A, with the bot at seat 2), drawn at the bottom."""

TABLE_ID_BYTES = 12
"""A table's id: 24 hex digits, unguessable (on a local service the address is the key)."""

FLUSH_WAIT = 2.0
"""Seconds the person's decision waits at most for the spectators' file to be written (the table's
loop is idle then, waiting for the person: it takes a millisecond)."""

TRICK_PRESETS: tuple[str, ...] = tuple(PRESETS)
"""The trick-taking games' presets."""
BIDDING_GAME_PRESETS: tuple[str, ...] = tuple(BIDDING_PRESETS)
"""The bidding games' presets (Twenty-eight, Twenty-nine): an auction, then the play."""
PLAYABLE_PRESETS: tuple[str, ...] = TRICK_PRESETS + BIDDING_GAME_PRESETS
"""The presets a person may play: every game."""


class MatchLength(StrEnum):
    """How long a person's match lasts: a few hands, or to 3, 5 or 8 kots (match points where the
    rules count points), as seed 002 describes."""

    ONE_HAND = "hands:1"
    TWO_HANDS = "hands:2"
    FOUR_HANDS = "hands:4"
    KOTS_3 = "kots:3"
    KOTS_5 = "kots:5"
    KOTS_8 = "kots:8"


class BotChoice(StrEnum):
    """The sample bots a person may sit with (beside the ladder's, ``ladder_bots``), the expert at
    each level. The search bot and level 5 think for a share of their clock: the ladder's, as
    every bot at the table has (``SeatSettings.bot_per_move``)."""

    RANDOM = "random"
    HEURISTIC = "heuristic"
    SEARCH = "search"
    EXPERT_1 = "expert-1"
    EXPERT_2 = "expert-2"
    EXPERT_3 = "expert-3"
    EXPERT_4 = "expert-4"
    EXPERT_5 = "expert-5"

    def command(self) -> BotCommand:
        """How ``dehla match`` would start it (``python -m sample_bots.NAME``, a level for the expert)."""
        name, _, level = self.value.partition("-")
        argv = (sys.executable, "-m", f"sample_bots.{name}") + (("--level", level) if level else ())
        return BotCommand(self.value, argv)


class TableRefusedError(Exception):
    """Why a table cannot be opened now (a limit reached): one line for the person."""


class BotsUnavailableError(Exception):
    """This host cannot start bots with the service's runner (``Runner.check``): no table opens."""


class NoTableError(LookupError):
    """No such table (or not this person's)."""


@dataclass(frozen=True, slots=True)
class SeatPick:
    """One of the three bots: its name at the table and in the record, how to start it, and
    whether it is a ladder bot (started with the service's runner) or a sample bot."""

    name: str
    command: BotCommand
    from_ladder: bool = False

    @classmethod
    def sample(cls, choice: BotChoice) -> SeatPick:
        return cls(choice.value, choice.command())


@dataclass(frozen=True, slots=True)
class TableChoice:
    """What the person chose: checked against the closed sets above (and the ladder's playable
    bots, ``ladder_bots``) before anything starts."""

    preset: str
    length: MatchLength
    partner: SeatPick
    left: SeatPick
    """Seat 1, on the person's left (next clockwise: after the person in a clockwise game)."""
    right: SeatPick
    """Seat 3, on the person's right (after the person in an anticlockwise game)."""

    def __post_init__(self) -> None:
        if self.preset not in PLAYABLE_PRESETS:
            raise ValueError(f"preset {self.preset!r}: choose one of {', '.join(PLAYABLE_PRESETS)}")
        if self.bidding and not self.length.value.startswith("hands:"):
            raise MatchFormatError(f"length {self.length.value}: a bidding game plays to its target in game "
                                   "points; choose hands:N (N hands at most)")

    @property
    def bidding(self) -> bool:
        """A bidding game (Twenty-eight, Twenty-nine): its decisions are calls, the trump, cards and reveals."""
        return self.preset in BIDDING_GAME_PRESETS

    def bots(self) -> tuple[SeatPick, SeatPick, SeatPick]:
        """Seats 1, 2 and 3."""
        return (self.left, self.partner, self.right)


_LADDER = MatchSettings()
"""How the ladder plays its matches: the bots' clock comes from it."""


@dataclass(frozen=True, slots=True)
class SeatSettings:
    """Who may play and on what clock (``docs/web.md``, "Play a seat")."""

    public: bool = False
    """A public service (not on a loopback address): only signed-in authors may play."""
    tables_per_author: int = 2
    """Open tables per signed-in author on a public service."""
    max_tables: int = 8
    """Open tables on the whole service (each runs three bot processes)."""
    per_move: float = 60.0
    """The person's clock per decision, seconds: generous."""
    bank: float = 120.0
    """The person's time bank, seconds. A person gone longer than per move + bank times out: with
    the forfeit policy the match ends there, recorded (the abandoned table's end)."""
    bot_per_move: float = _LADDER.per_move
    """The bots' clock per decision, seconds: the ladder's (``MatchSettings``), so they play as there."""
    bot_bank: float = _LADDER.bank
    """The bots' time bank, seconds: the ladder's."""
    runner: RunnerKind = RunnerKind.LOCAL
    """How sample bots are started: ``dehla serve`` passes its ``--runner``, as the ladder starts
    every bot (the default here, for tests, is plain local processes)."""
    ladder_runner: RunnerKind = RunnerKind.SANDBOX
    """How the ladder's bots are started: the service's ``--runner``, as the ladder runs them."""
    keep_finished: float = 900.0
    """Seconds a finished table stays on its page (then its record and replay remain)."""
    seed: int | None = None
    """The deals' seed of every table (tests); ``None``: a fresh random seed per table."""

    def bots_time_control(self) -> TimeControl:
        """The table's clock, which every bot plays on (moves released on reply: a person should not
        wait out a slot, and a table a person sits at is not rated)."""
        return TimeControl(per_move=self.bot_per_move, bank=self.bot_bank)

    def seat_time_controls(self) -> tuple[TimeControl, TimeControl, TimeControl, TimeControl]:
        """Seats 0 to 3's clocks: the person's generous one at ``PERSON_SEAT``, the bots' elsewhere."""
        bots = self.bots_time_control()
        person = replace(bots, per_move=self.per_move, bank=self.bank)
        controls = [person if seat == PERSON_SEAT else bots for seat in range(4)]
        return (controls[0], controls[1], controls[2], controls[3])


def _match_id(table_id: str) -> str:
    return f"person-{time.strftime('%Y%m%d-%H%M%S')}-{table_id[:8]}"


@dataclass
class PersonTable:
    """One table: its match runs on a thread of its own (an event loop of its own), started by ``start``."""

    table_id: str
    owner: int | None
    choice: TableChoice
    config: TableConfig
    records: Path
    runners: tuple[Runner, Runner, Runner]
    """Seats 1, 2 and 3's."""
    person: PersonBot = field(default_factory=lambda: PersonBot(PERSON_SEAT))
    outcome: MatchOutcome | None = None
    failure: str | None = None
    finished_at: float | None = None
    _thread: threading.Thread | None = None
    _loop: asyncio.AbstractEventLoop | None = None
    _task: asyncio.Task[MatchOutcome] | None = None
    _ready: threading.Event = field(default_factory=threading.Event)

    @property
    def match_id(self) -> str:
        return self.config.match_id

    @property
    def finished(self) -> bool:
        return self.finished_at is not None

    @property
    def seat_names(self) -> tuple[str, str, str, str]:
        left, partner, right = self.choice.bots()
        return ("you", left.name, partner.name, right.name)

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name=f"table-{self.table_id[:8]}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:
            self.failure = self.failure or f"{type(exc).__name__}: {exc}"
        finally:
            self.finished_at = time.monotonic()
            self.person.changed.set()
            self._ready.set()

    async def _main(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.current_task()
        self._ready.set()
        self.outcome = await self._play()

    async def _play(self) -> MatchOutcome:
        sweep_stale()
        sockets = make_scratch(ScratchKind.SEAT)
        seats: list[GrpcSeat] = []
        server = None
        live = self.spectators()
        self.person.on_asked = lambda: self._flush(live)
        try:
            address = f"unix:{sockets}/person.sock"
            server, _ = serve(self.person, address)
            seats.append(GrpcSeat(PersonBot.name, address))
            for seat, (bot, runner) in enumerate(zip(self.choice.bots(), self.runners, strict=True), start=1):
                command = bot.command
                folder = sockets / f"seat{seat}"
                folder.mkdir()
                process = BotProcess(command, f"unix:{folder}/bot.sock",
                                     self.records / seat_log_name(self.match_id, seat), runner=runner,
                                     limits=seat_limits(command, self.config, seat))
                seats.append(GrpcSeat(command.name, process.address, process))
            recorder = MatchRecorder(self.records / f"{self.match_id}.jsonl")
            return await Table(self.config, seats, recorder, live=live).run()
        finally:
            live.close()
            await close_all(seats)
            if server is not None:
                server.stop(grace=0.5).wait()
            shutil.rmtree(sockets, ignore_errors=True)

    def spectators(self) -> DelayedBoard:
        """The match's live file beside its record, a trick behind the table (``delayed_live``):
        the record's seat names, the person's seat as ``person``."""
        names = [PersonBot.name, *(bot.name for bot in self.choice.bots())]
        return DelayedBoard(LiveBoard(live_path(self.records, self.match_id), self.match_id, names))

    def _flush(self, live: DelayedBoard) -> None:
        """(The person's thread, as the person is asked.) Write the spectators' file on the table's
        loop, which now waits for the person, and wait for it: while the person thinks, spectators
        see exactly the state ``SPECTATOR_DELAY_MOVES`` old, though the board's writes are limited."""
        loop, done = self._loop, threading.Event()
        if loop is None:
            return

        def flush() -> None:
            try:
                live.flush()
            finally:
                done.set()

        try:
            loop.call_soon_threadsafe(flush)
        except RuntimeError:  # the loop has closed: the match is over, its file removed
            return
        done.wait(FLUSH_WAIT)

    def wait(self, timeout: float) -> bool:
        """Wait until the match has ended (True) or ``timeout`` seconds have passed (False)."""
        if self._thread is not None:
            self._thread.join(timeout)
        return self.finished

    def stop(self, wait: float = 10.0) -> None:
        """End the table now (the service stops): frees the person's decision, cancels the match
        (its bots are stopped by ``close_all``) and waits for the thread."""
        self.person.stop()
        self._ready.wait(wait)
        loop, task = self._loop, self._task
        if loop is not None and task is not None and not self.finished:
            self.failure = "the service stopped; the match was not finished"
            loop.call_soon_threadsafe(task.cancel)
        if self._thread is not None:
            self._thread.join(wait)


def _ladder_runner(kind: RunnerKind) -> Runner:
    """The runner the ladder starts its bots with (``None`` from ``make_runner``: plain local
    processes, the referee's default)."""
    made = make_runner(kind)
    return made if made is not None else runner_for(RunnerKind.LOCAL)


@dataclass
class TableRegistry:
    """The service's tables by id: opening one (within the limits), finding one, ending them all."""

    records_root: Path
    settings: SeatSettings = field(default_factory=SeatSettings)
    _tables: dict[str, PersonTable] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def runners_for(self, choice: TableChoice) -> tuple[Runner, Runner, Runner]:
        """The runners that start the three bots, each checked: a ladder bot's is the ladder's own
        (``make_runner``: under ``container`` each version in its own image), a sample bot's the
        service's ``--runner``. ``BotsUnavailableError`` where one cannot run here."""
        made: dict[tuple[bool, RunnerKind], Runner] = {}
        picked: list[Runner] = []
        for bot in choice.bots():
            kind = self.settings.ladder_runner if bot.from_ladder else self.settings.runner
            key = (bot.from_ladder, kind)
            if key not in made:
                try:
                    made[key] = _ladder_runner(kind) if bot.from_ladder else runner_for(kind)
                    made[key].check()
                except (SandboxError, RunnerUnavailable) as exc:
                    raise BotsUnavailableError(f"this service cannot start bots with --runner {kind}: "
                                               f"{exc}") from None
            picked.append(made[key])
        return (picked[0], picked[1], picked[2])

    def open(self, choice: TableChoice, owner: int | None) -> PersonTable:
        """A new table for ``owner`` (an author's id; ``None`` on a local service), started;
        ``TableRefusedError`` past a limit, ``BotsUnavailableError`` where the runner cannot run here."""
        settings = self.settings
        seat_runners = self.runners_for(choice)
        with self._lock:
            self._forget_old()
            live = [t for t in self._tables.values() if not t.finished]
            if len(live) >= settings.max_tables:
                raise TableRefusedError(f"this service already runs {len(live)} tables with a person "
                                        f"(at most {settings.max_tables}): finish one or try later")
            if settings.public:
                mine = [t for t in live if t.owner == owner]
                if len(mine) >= settings.tables_per_author:
                    raise TableRefusedError(f"you already have {len(mine)} open tables (at most "
                                            f"{settings.tables_per_author} each): finish one or let it time out")
            table_id = secrets.token_hex(TABLE_ID_BYTES)
            rules = game_rules_for(choice.preset, {})
            match_format = MatchFormat.parse(choice.length.value)
            match_format.check(rules)
            config = TableConfig(_match_id(table_id), rules, choice.preset, match_format,
                                 secrets.randbelow(2**31) if settings.seed is None else settings.seed,
                                 settings.bots_time_control(), FaultPolicy.FORFEIT,
                                 seat_time_controls=settings.seat_time_controls())
            records = self.records_root / LOCAL_MATCHES
            records.mkdir(parents=True, exist_ok=True)
            table = PersonTable(table_id, owner, choice, config, records, seat_runners)
            self._tables[table_id] = table
        table.start()
        return table

    def get(self, table_id: str, owner: int | None) -> PersonTable:
        """The table ``table_id`` if ``owner`` may play it (on a public service, its author only)."""
        with self._lock:
            table = self._tables.get(table_id)
        if table is None or (self.settings.public and table.owner != owner):
            raise NoTableError(f"no table {table_id} (it may have ended and been cleared: see Local matches)")
        return table

    def of(self, owner: int | None) -> list[PersonTable]:
        """The tables ``owner`` may see, newest first (everyone's on a local service)."""
        with self._lock:
            self._forget_old()
            tables = [t for t in self._tables.values() if not self.settings.public or t.owner == owner]
        return tables[::-1]

    def _forget_old(self) -> None:
        now = time.monotonic()
        for table_id, table in list(self._tables.items()):
            if table.finished_at is not None and now - table.finished_at > self.settings.keep_finished:
                del self._tables[table_id]

    def stop_all(self) -> None:
        with self._lock:
            tables = list(self._tables.values())
        for table in tables:
            table.stop()
