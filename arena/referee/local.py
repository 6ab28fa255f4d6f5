"""Local head-to-head matches: start the bots with a runner, play, clean up.

Partnership A sits at seats 0 and 2, partnership B at 1 and 3. A duplicate match is played in
two rooms, each with its own four bots (``arena.referee.deal_pairs``), so no bot process plays
both plays of a deal. Each bot serves on a unix socket in its own folder of a private temporary
folder; its log goes next to the match record.
The runner decides how bots are started: plain processes (``local``, the default for an
author's own machine), bubblewrap sandboxes (``sandbox``) or docker containers (``docker``).
Sandboxed bots get their manifest's resources and a CPU-time budget sized for this match.
"""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

from arena.engine.match import FormatKind
from arena.referee.deal_pairs import PairCallback, play_deal_pairs
from arena.referee.grpc_seat import GrpcSeat
from arena.referee.launcher import BotCommand, BotProcess
from arena.referee.live_view import LiveBoard, LiveOutlet, live_path
from arena.referee.match_recorder import MatchRecorder
from arena.referee.referee_clock import MONOTONIC, SHARED_LOOP
from arena.referee.rooms import seat_log_name
from arena.referee.scratch import ScratchKind, make_scratch, sweep_stale
from arena.referee.table import NOTIFY_TIMEOUT, Table
from arena.referee.table_values import MatchOutcome, OnHand, TableConfig
from arena.sandbox import Limits, LocalRunner, Runner, match_cpu_seconds


def match_hands(config: TableConfig) -> int:
    """The most hands one bot process plays in the match: a duplicate match's count of deals (its
    room plays one play of each), else the most hands the match can last."""
    match_format = config.match_format
    if match_format.kind is FormatKind.DUPLICATE:
        return match_format.count
    if match_format.kind is FormatKind.HANDS:
        return match_format.count
    return config.max_hands


def seat_limits(command: BotCommand, config: TableConfig, seat: int) -> Limits:
    """The bot's manifest resources, with RLIMIT_CPU sized for this match and its seat's clock."""
    control = config.time_control_of(seat)
    cpu = match_cpu_seconds(command.resources.cpus, match_hands(config), control.per_move + control.grace,
                            control.bank, control.startup, NOTIFY_TIMEOUT)
    return command.resources.limits(cpu)


async def play_local_match(
    partnership_a: tuple[BotCommand, BotCommand],
    partnership_b: tuple[BotCommand, BotCommand],
    config: TableConfig,
    records: Path,
    on_hand: OnHand | None = None,
    runner: Runner | None = None,
    live_folder: Path | None = None,
    live_outlet: LiveOutlet | None = None,
) -> MatchOutcome:
    """Run one match between two partnerships of bots started by ``runner`` (default: local): a
    duplicate match in two rooms of four bots each (``play_local_pairs``), any other format at
    one table. ``live_folder``: where its live file goes (``arena.referee.live_view``; None: none);
    ``live_outlet``: where its live states go instead (a cluster worker's channel)."""
    if config.match_format.kind is FormatKind.DUPLICATE:
        return await play_local_pairs(partnership_a, partnership_b, config, records, 1, None, on_hand, runner,
                                      live_folder, live_outlet)
    sweep_stale()
    sockets = make_scratch(ScratchKind.SOCKETS)
    seats: list[GrpcSeat] = []
    live = live_board(partnership_a, partnership_b, config, live_folder, live_outlet)
    try:
        seats = table_seats(partnership_a, partnership_b, config, records, sockets, runner or LocalRunner())
        recorder = MatchRecorder(records / f"{config.match_id}.jsonl")
        return await Table(config, seats, recorder, on_hand, live=live).run()
    finally:
        if live is not None:
            live.close()
        await close_all(seats)
        shutil.rmtree(sockets, ignore_errors=True)


async def play_local_pairs(
    partnership_a: tuple[BotCommand, BotCommand],
    partnership_b: tuple[BotCommand, BotCommand],
    config: TableConfig,
    records: Path,
    tables: int = 1,
    on_pair: PairCallback | None = None,
    on_hand: OnHand | None = None,
    runner: Runner | None = None,
    live_folder: Path | None = None,
    live_outlet: LiveOutlet | None = None,
) -> MatchOutcome:
    """A duplicate match played as deal pairs in two rooms of ``tables`` tables each, every table
    with its own four bots (``arena.referee.deal_pairs``): 8 x ``tables`` bots, and no bot plays
    both plays of a deal. Room 0's first table's bots log where ``play_local_match``'s do, the
    others' as ``arena.referee.rooms.seat_log_name`` says (``MATCH.room1.seatN.log``, ...).
    The tables share this event loop: with one table a room, a ``slot-end`` move is held
    precisely (blocking the loop for its last few ms, which may delay the other room's by as
    much: ``PRECISE_HOLD``); with more, on the loop's timer (``SHARED_LOOP``)."""
    sweep_stale()
    sockets = make_scratch(ScratchKind.SOCKETS)
    rooms: list[list[list[GrpcSeat]]] = [[], []]
    live = live_board(partnership_a, partnership_b, config, live_folder, live_outlet)
    try:
        for room, tables_in_room in enumerate(rooms):
            for table in range(tables):
                folder = sockets / f"room{room}.table{table}"
                folder.mkdir()
                tables_in_room.append(table_seats(partnership_a, partnership_b, config, records, folder,
                                                  runner or LocalRunner(), room, table))
        recorder = MatchRecorder(records / f"{config.match_id}.jsonl")
        clock = MONOTONIC if tables == 1 else SHARED_LOOP
        return await play_deal_pairs(config, rooms, recorder, on_pair, on_hand, clock, live)
    finally:
        if live is not None:
            live.close()
        await close_all([seat for room in rooms for table in room for seat in table])
        shutil.rmtree(sockets, ignore_errors=True)


def live_board(partnership_a: tuple[BotCommand, BotCommand], partnership_b: tuple[BotCommand, BotCommand],
               config: TableConfig, folder: Path | None, outlet: LiveOutlet | None = None) -> LiveBoard | None:
    """The match's live file in ``folder`` (``MATCH.live.json``; ``dehla match``: beside its
    record), or its states sent to ``outlet``, withdrawn when the match ends; None without either."""
    if folder is None and outlet is None:
        return None
    names = [partnership_a[0].name, partnership_b[0].name, partnership_a[1].name, partnership_b[1].name]
    path = None if folder is None else live_path(folder, config.match_id)
    return LiveBoard(path, config.match_id, names, outlet=outlet)


def table_seats(partnership_a: tuple[BotCommand, BotCommand], partnership_b: tuple[BotCommand, BotCommand],
                config: TableConfig, records: Path, sockets: Path, runner: Runner, room: int = 0,
                table: int = 0) -> list[GrpcSeat]:
    """One table's four seats (A at 0 and 2), each bot to be started by ``runner`` on a socket
    in its own folder under ``sockets``, logging next to the record (``seat_log_name``)."""
    commands = [partnership_a[0], partnership_b[0], partnership_a[1], partnership_b[1]]
    seats = []
    for seat, command in enumerate(commands):
        folder = sockets / f"seat{seat}"
        folder.mkdir()
        log = records / seat_log_name(config.match_id, seat, room, table)
        process = BotProcess(command, f"unix:{folder}/bot.sock", log, runner=runner,
                             limits=seat_limits(command, config, seat))
        seats.append(GrpcSeat(command.name, process.address, process))
    return seats


async def close_all(seats: list[GrpcSeat]) -> None:
    """Close every seat, stopping its bot, even when the match is cancelled meanwhile (a Ctrl-C
    that lands as the match ends): a seat whose close was cut short would leave its bot running
    past the match, and its pipes to be closed by the collector after the event loop is gone
    (``Exception ignored ... Event loop is closed`` on the terminal). The cancellation is raised
    once every seat is closed."""
    closing = asyncio.gather(*(seat.close() for seat in seats), return_exceptions=True)
    cancelled = False
    while not closing.done():
        try:
            await asyncio.shield(closing)
        except asyncio.CancelledError:
            cancelled = True
    if cancelled:
        raise asyncio.CancelledError
