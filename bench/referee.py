"""Referee speed: the decision round trip against a raw gRPC echo, and hands per second.

Three figures, measured in one process with the baselines alternating with the real thing
(round by round) and best-of-rounds reported, because this machine is noisy:

(a) the raw gRPC round trip on this machine, same transport as the referee: a ``grpc.aio``
    client with the referee's ``CHANNEL_OPTIONS`` over a unix socket, to a synchronous
    ``grpc.server`` served like a bot (``bench/echo_server.py``) in another process. Three
    shapes: a tiny echo (8 bytes each way), a Decide-shaped call (a request the size of a
    typical serialized DecideRequest, a reply the size of a DecideResponse), and the same
    Decide-shaped call cycling over four server processes as a table does over its four bots;
(b) the referee's decision round trip: four sample bots as real processes (``sdk.server``),
    driven by the real ``Table`` and ``GrpcSeat``; the time is what ``Table`` itself measures
    and records in ``MatchOutcome.decision_times`` (request encoding, the call, reply
    decoding). Also with four ``bench/lean_bot.py`` bots (served the same way, but answering
    from the raw protobuf without the SDK's decoding): the referee's share alone;
(c) hands per second for one table and for ``--tables`` tables in one event loop
    (``asyncio.gather`` of ``Table.run``), each table with its own four bot processes. All
    tables are held at a barrier until every bot has started, so the window measured (from
    the barrier to the first table that finishes) has every table playing. The same
    concurrency is measured for the raw echo (``--tables`` callers, one server each): the
    scaling ceiling of the transport itself on this machine.

It also reports where the time goes: CPU per decision of the referee and of the bots (from
``time.process_time`` and ``/proc``), and per-step costs of a decision measured in-process
(observation, protobuf conversion on both sides, the bot servicer). ``--profile`` adds a
split of the referee's event-loop CPU over one extra single-table match, step by step.

Run: ``python bench/referee.py [--rounds R] [--calls N] [--deals D] [--tables T] [--profile]
[--no-flood-guard]`` (the last: seats dial their bots directly, as before the flood guard).
Progress goes to stderr; the last line on stdout is one JSON object.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import inspect
import json
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc

import arena.referee.hand_kinds as hand_kinds_module
from arena.contract.messages import DecisionReply, DecisionRequest, HandEnd, MatchStart
from arena.contract.status import OutcomeStatus
from arena.contract.time_control import TimeControl
from arena.engine.actions import parse_action
from arena.engine.deal import Deal
from arena.engine.hand import Decision as DecisionKind
from arena.engine.hand import HandState
from arena.engine.match import MatchFormat, MatchScore
from arena.engine.observation import observe
from arena.engine.rules import Rules, rules_for
from arena.referee.grpc_seat import CHANNEL_OPTIONS, GrpcSeat
from arena.referee.launcher import BotCommand, BotProcess, resolve_bot
from arena.referee.match_recorder import MatchRecorder
from arena.referee.table import Table
from arena.referee.table_values import DecisionLog, MatchOutcome, TableConfig
from protocol import convert
from sample_bots.random.bot import RandomBot
from sdk.server import BotServicer

HERE = Path(__file__).resolve().parent
ECHO = "/bench.Echo/Echo"
REPLY = "/bench.Echo/Reply"
CALL_TIMEOUT = 5.0
TIME_CONTROL = TimeControl(per_move=5.0, bank=60.0, startup=60.0)
"""Generous clocks: 32 bots starting at once on 2 cores must never fault; speed is unaffected."""
TICKS = os.sysconf("SC_CLK_TCK")


def log(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def percentile(sorted_values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile of an already sorted list."""
    index = min(len(sorted_values) - 1, max(0, math.ceil(q * len(sorted_values)) - 1))
    return sorted_values[index]


def latency_ms(samples: list[float]) -> dict[str, float]:
    values = sorted(samples)
    return {"p50": round(percentile(values, 0.50) * 1e3, 4), "p99": round(percentile(values, 0.99) * 1e3, 4),
            "mean": round(statistics.fmean(values) * 1e3, 4), "n": len(values)}


def proc_cpu(pid: int) -> float:
    """User + system CPU seconds of a live process, from /proc (0 if it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICKS


def machine_cpu() -> tuple[float, float, float]:
    """(busy seconds of all cores, steal seconds, this process and its reaped children's CPU)."""
    with open("/proc/stat") as stat:
        ticks = [int(x) for x in stat.readline().split()[1:]]
    idle = ticks[3] + ticks[4]  # idle + iowait
    steal = ticks[7] if len(ticks) > 7 else 0
    own = sum(getattr(resource.getrusage(who), field)
              for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN) for field in ("ru_utime", "ru_stime"))
    return (sum(ticks[:8]) - idle - steal) / TICKS, steal / TICKS, own


# ----------------------------------------------------------------- typical decisions
Decision = tuple[HandState, int, MatchScore]
"""A decision of a sample hand: the state before it, the seat to move, the match score."""
FinishedHand = tuple[HandState, Deal, MatchScore]


def sample_hands(rules: Rules, hands: int, seed: int) -> tuple[list[Decision], list[FinishedHand]]:
    """``hands`` random hands: every decision in them, and each hand at its end."""
    rnd = random.Random(seed)
    decisions: list[Decision] = []
    finished: list[FinishedHand] = []
    for i in range(hands):
        deal = Deal.from_seed(rules, seed + i)
        state = HandState(rules, deal, i % 4)
        score = MatchScore(dealer=i % 4, hands_played=i)
        while not state.is_over:
            seat = state.to_move
            assert seat is not None
            decisions.append((state.clone(), seat, score))
            state.apply(rnd.choice(state.legal_actions()))
        finished.append((state, deal, score))
    return decisions, finished


def request_of(state: HandState, seat: int, score: MatchScore) -> DecisionRequest:
    """The request the referee builds (``Table._decide``): a 16-hex-digit id, the default clock."""
    return DecisionRequest("0123456789abcdef", 0, observe(state, seat, score), 1.0, 30.0)


def message_sizes(samples: list[Decision]) -> dict[str, int]:
    requests = [convert.decision_to_pb(request_of(*s), "match-20261129-120000-1").SerializeToString()
                for s in samples]
    legal = samples[0][0].legal_actions()
    reply = convert.reply_to_pb(DecisionReply("0123456789abcdef", legal[0])).SerializeToString()
    sizes = sorted(len(r) for r in requests)
    return {"decide_request_median": sizes[len(sizes) // 2], "decide_request_max": sizes[-1],
            "decide_response": len(reply)}


# ------------------------------------------------------------------------- (a) echo
class EchoServers:
    """``count`` echo server processes (``bench/echo_server.py``), each on its own unix socket."""

    def __init__(self, count: int, folder: Path, reply_bytes: int) -> None:
        self.addresses = [f"unix:{folder}/echo{i}.sock" for i in range(count)]
        self.processes = [
            subprocess.Popen([sys.executable, str(HERE / "echo_server.py"), "--address", address,
                              "--reply-bytes", str(reply_bytes)],
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, start_new_session=True)
            for address in self.addresses
        ]
        for process in self.processes:
            assert process.stdout is not None
            if process.stdout.readline().strip() != b"serving":
                raise SystemExit("echo server did not start")

    def cpu(self, indices: Sequence[int]) -> float:
        return sum(proc_cpu(self.processes[i].pid) for i in indices)

    def close(self) -> None:
        for process in self.processes:
            assert process.stdin is not None
            process.stdin.close()
        for process in self.processes:
            try:
                process.wait(5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def echo_latency(servers: EchoServers, indices: Sequence[int], method: str, payload: bytes,
                       calls: int) -> dict[str, Any]:
    """``calls`` sequential unary calls cycling over ``indices``: latency and CPU per call."""
    channels = [grpc.aio.insecure_channel(servers.addresses[i], options=CHANNEL_OPTIONS) for i in indices]
    try:
        stubs = [channel.unary_unary(method) for channel in channels]
        for stub in stubs:  # connect and warm up
            for _ in range(50):
                await stub(payload, timeout=CALL_TIMEOUT)
        times: list[float] = []
        n = len(stubs)
        clock = time.perf_counter
        server_cpu, client_cpu, loop_cpu, start = servers.cpu(indices), time.process_time(), time.thread_time(), clock()
        for i in range(calls):
            t0 = clock()
            await stubs[i % n](payload, timeout=CALL_TIMEOUT)
            times.append(clock() - t0)
        wall = clock() - start
        client_cpu = time.process_time() - client_cpu
        loop_cpu = time.thread_time() - loop_cpu
        server_cpu = servers.cpu(indices) - server_cpu
    finally:
        for channel in channels:
            await channel.close()
    return {**latency_ms(times), "calls_per_s": round(calls / wall),
            "client_cpu_us": round(client_cpu / calls * 1e6, 1),
            "client_loop_thread_cpu_us": round(loop_cpu / calls * 1e6, 1),
            "server_cpu_us": round(server_cpu / calls * 1e6, 1)}


async def echo_concurrent(servers: EchoServers, callers: int, method: str, payload: bytes,
                          calls: int) -> float:
    """``callers`` sequential callers at once in this event loop, one server each: calls/s."""
    channels = [grpc.aio.insecure_channel(servers.addresses[i], options=CHANNEL_OPTIONS) for i in range(callers)]
    try:
        stubs = [channel.unary_unary(method) for channel in channels]

        async def run(stub: Any, n: int) -> None:
            for _ in range(n):
                await stub(payload, timeout=CALL_TIMEOUT)

        await asyncio.gather(*(run(stub, 50) for stub in stubs))
        start = time.perf_counter()
        await asyncio.gather(*(run(stub, calls) for stub in stubs))
        return callers * calls / (time.perf_counter() - start)
    finally:
        for channel in channels:
            await channel.close()


# ----------------------------------------------------------------- (b), (c) tables
class Barrier:
    """Released when every seat of every table has started (or failed to)."""

    def __init__(self, seats: int) -> None:
        self.left = seats
        self.event = asyncio.Event()
        self.released_at = 0.0
        self.referee_cpu = 0.0
        self.loop_cpu = 0.0
        self.bot_cpu: dict[int, float] = {}
        self.pids: list[int] = []

    def arrive(self) -> None:
        self.left -= 1
        if self.left == 0:
            self.bot_cpu = {pid: proc_cpu(pid) for pid in self.pids}
            self.referee_cpu = time.process_time()
            self.loop_cpu = time.thread_time()
            self.released_at = time.perf_counter()
            self.event.set()

    @staticmethod
    def pids_of(seats: Sequence[GrpcSeat]) -> list[int]:
        return [s.process.process.pid for s in seats if s.process is not None and s.process.process is not None]


class BarrierSeat(GrpcSeat):
    """The real gRPC seat; its ``start`` returns only when all tables' bots are up."""

    def __init__(self, name: str, address: str, process: BotProcess, barrier: Barrier) -> None:
        super().__init__(name, address, process)
        self.barrier = barrier

    async def start(self, start: MatchStart, timeout: float) -> None:
        try:
            await super().start(start, timeout)
            assert self.process is not None and self.process.process is not None
            self.barrier.pids.append(self.process.process.pid)
        finally:
            self.barrier.arrive()
        await self.barrier.event.wait()


@dataclasses.dataclass
class TableRun:
    hands_per_s: float
    hands_in_window: int
    window_s: float
    decisions: int
    decision_ms: dict[str, float]
    referee_cpu_us: float
    """All threads of the referee process (the event loop and gRPC's own threads)."""
    referee_loop_thread_cpu_us: float
    """The event loop's thread alone."""
    bots_cpu_us: float


async def run_tables(bot: BotCommand, tables: int, deals: int, seed: int, folder: Path) -> TableRun:
    """``tables`` duplicate matches of ``deals`` deals at once, each with its own four bots."""
    rules = rules_for("dehla-pakad")
    barrier = Barrier(4 * tables)
    total = 2 * deals
    stamps: list[list[float]] = [[] for _ in range(tables)]
    referee_done = [0.0] * tables
    loop_done = [0.0] * tables
    bots_done: list[dict[int, float]] = [{} for _ in range(tables)]
    seats: list[list[BarrierSeat]] = []
    for t in range(tables):
        row = []
        for s in range(4):
            process = BotProcess(bot, f"unix:{folder}/t{t}s{s}.sock", folder / f"t{t}s{s}.log")
            row.append(BarrierSeat(bot.name, process.address, process, barrier))
        seats.append(row)

    def on_hand(t: int) -> Callable[[int, Any], None]:
        def record(index: int, result: Any) -> None:
            stamps[t].append(time.perf_counter())
            if index == total - 1:  # the table's last hand: book the CPU used before the bots exit
                referee_done[t] = time.process_time()
                loop_done[t] = time.thread_time()
                bots_done[t] = {pid: proc_cpu(pid) for pid in barrier.pids_of(seats[t])}
        return record

    async def play(t: int) -> MatchOutcome:
        config = TableConfig(f"bench-{seed}-t{t}", rules, "dehla-pakad", MatchFormat.parse(f"duplicate:{deals}"),
                             seed + t, TIME_CONTROL)
        recorder = MatchRecorder(folder / f"t{t}.jsonl")
        try:
            return await Table(config, seats[t], recorder, on_hand(t)).run()
        finally:
            await asyncio.gather(*(seat.close() for seat in seats[t]), return_exceptions=True)

    outcomes = await asyncio.gather(*(play(t) for t in range(tables)))
    for outcome in outcomes:
        if outcome.status != "done" or outcome.faults or len(outcome.hands) != total:
            raise SystemExit(f"table {outcome.match_id} did not play cleanly: {outcome.to_json()}")
    start = barrier.released_at
    end = min(row[-1] for row in stamps)
    hands = sum(1 for row in stamps for stamp in row if start < stamp <= end)
    times = [x for outcome in outcomes for seat in outcome.decision_times for x in seat]
    referee_cpu = max(referee_done) - barrier.referee_cpu
    loop_cpu = max(loop_done) - barrier.loop_cpu
    bots_cpu = sum(cpu - barrier.bot_cpu[pid] for done in bots_done for pid, cpu in done.items())
    return TableRun(hands / (end - start), hands, end - start, len(times), latency_ms(times),
                    referee_cpu / len(times) * 1e6, loop_cpu / len(times) * 1e6, bots_cpu / len(times) * 1e6)


# ---------------------------------------------------------------- where the time goes
def step_costs(samples: list[Decision], finished: list[FinishedHand], folder: Path,
               reps: int = 11) -> dict[str, float]:
    """In-process cost (µs per decision, mean over every decision of the sample hands) of each
    step of one decision, in the order they happen; then the referee's once-a-hand work (four
    EndHand messages, the record line) spread over the hand's decisions. The steps are timed
    in turn, ``reps`` times over, and the best time of each is kept (the machine is noisy)."""
    match_id = "match-20261129-120000-1"
    requests = [request_of(*s) for s in samples]
    no_history = [dataclasses.replace(r, observation=dataclasses.replace(r.observation, tricks=()))
                  for r in requests]
    messages = [convert.decision_to_pb(r, match_id) for r in requests]
    wire = [m.SerializeToString() for m in messages]
    request_type = type(messages[0])
    decoded = [request_type.FromString(w) for w in wire]
    stripped = []
    for m in decoded:
        copy = request_type()
        copy.CopyFrom(m)
        del copy.observation.tricks[:]
        stripped.append(copy)
    servicer = BotServicer(RandomBot(1), lambda: None)
    replies = [servicer.Decide(m, None) for m in decoded]
    reply_wire = [r.SerializeToString() for r in replies]
    reply_type = type(replies[0])
    rules = samples[0][0].rules
    recorder = MatchRecorder(folder / "steps.jsonl")
    played = parse_action("play 10H")
    logs = [DecisionLog(0, seat, "0123456789abcdef", DecisionKind.PLAY, len(state.legal_actions()), played, 0.001,
                        30.0, None, False) for state, seat, _ in samples[:53]]

    def end_hand(hand: FinishedHand) -> None:
        state, deal, score = hand
        assert state.result is not None
        after = score.after(rules, state.result)
        for seat in range(4):
            convert.hand_end_to_pb(HandEnd(0, state.result, deal.hands, observe(state, seat, score), after),
                                   match_id)

    per_hand = len(samples) / len(finished)
    steps: list[tuple[str, Callable[[Any], Any], Sequence[Any]]] = [
        ("referee_legal_actions", lambda s: s[0].legal_actions(), samples),
        ("referee_observe", lambda s: observe(s[0], s[1], s[2]), samples),
        ("referee_decision_to_pb", lambda r: convert.decision_to_pb(r, match_id), requests),
        ("referee_decision_to_pb_without_trick_history", lambda r: convert.decision_to_pb(r, match_id), no_history),
        ("referee_rules_to_pb", lambda r: convert.rules_to_pb(rules), requests),
        ("referee_serialize_request", lambda m: m.SerializeToString(), messages),
        ("bot_parse_request", request_type.FromString, wire),
        ("bot_decision_from_pb", convert.decision_from_pb, decoded),
        ("bot_decision_from_pb_without_trick_history", convert.decision_from_pb, stripped),
        ("bot_rules_from_pb", lambda m: convert.rules_from_pb(m.observation.rules), decoded),
        ("bot_servicer_decide_total", lambda m: servicer.Decide(m, None), decoded),
        ("bot_serialize_reply", lambda r: r.SerializeToString(), replies),
        ("referee_parse_and_reply_from_pb", lambda w: convert.reply_from_pb(reply_type.FromString(w)), reply_wire),
        ("referee_end_hand_messages_per_decision", end_hand, finished),
        ("referee_record_line_per_decision", lambda h: recorder.hand(0, h[0], logs), finished),
    ]
    best = {name: float("inf") for name, _, _ in steps}
    clock = time.perf_counter
    for _ in range(reps):
        for name, fn, items in steps:
            start = clock()
            for item in items:
                fn(item)
            best[name] = min(best[name], clock() - start)
    recorder.match_end(MatchOutcome("steps", OutcomeStatus.DONE, None, (0.0, 0.0)))
    return {name: round(best[name] / len(items) * 1e6 / (per_hand if name.endswith("_per_decision") else 1), 1)
            for name, _, items in steps}


class SectionTimers:
    """Thread-CPU timers wrapped around the referee's steps, in place, for one match.

    Used by ``--profile`` only (never during the timed rounds). It rebinds the names the
    referee calls through (``arena.referee.hand_kinds.observe``, ``protocol.convert.*``, methods of
    ``Table``, ``GrpcSeat`` and ``MatchRecorder``) and restores them afterwards; the files are
    not touched. ``time.thread_time`` counts the event loop thread's CPU only, so waiting for
    a bot costs nothing; the total of an ``async`` step includes whatever else the loop ran
    while it was suspended (with one table: the gRPC completions of that very call)."""

    def __init__(self) -> None:
        self.cpu: dict[str, float] = {}
        self.calls: dict[str, int] = {}
        self._undo: list[tuple[Any, str, Any]] = []

    def _book(self, label: str, seconds: float) -> None:
        self.cpu[label] = self.cpu.get(label, 0.0) + seconds
        self.calls[label] = self.calls.get(label, 0) + 1

    def wrap(self, owner: Any, name: str, label: str) -> None:
        original = getattr(owner, name)
        book, clock = self._book, time.thread_time
        if inspect.iscoroutinefunction(original):
            async def timed_async(*args: Any, **kwargs: Any) -> Any:
                start = clock()
                try:
                    return await original(*args, **kwargs)
                finally:
                    book(label, clock() - start)
            setattr(owner, name, timed_async)
        else:
            def timed(*args: Any, **kwargs: Any) -> Any:
                start = clock()
                try:
                    return original(*args, **kwargs)
                finally:
                    book(label, clock() - start)
            setattr(owner, name, timed)
        self._undo.append((owner, name, original))

    def __enter__(self) -> SectionTimers:
        self.wrap(hand_kinds_module, "observe", "observe")
        self.wrap(convert, "decision_to_pb", "decision_to_pb")
        self.wrap(convert, "reply_from_pb", "reply_from_pb")
        self.wrap(convert, "hand_end_to_pb", "hand_end_to_pb")
        self.wrap(GrpcSeat, "decide", "GrpcSeat.decide")
        self.wrap(Table, "_notify_all", "Table._notify_all")
        self.wrap(Table, "_decide", "Table._decide")
        self.wrap(MatchRecorder, "hand", "MatchRecorder.hand")
        return self

    def __exit__(self, *exc: object) -> None:
        for owner, name, original in reversed(self._undo):
            setattr(owner, name, original)


async def profile_referee(bot: BotCommand, deals: int, folder: Path) -> dict[str, Any]:
    """One more single-table match with ``SectionTimers``: the event loop thread's CPU per
    decision, split into the referee's steps."""
    with SectionTimers() as timers:
        run = await run_tables(bot, 1, deals, 7777, folder)
    n = run.decisions
    us = {label: cpu / n * 1e6 for label, cpu in timers.cpu.items()}
    get = us.get
    in_decide = n / max(1, timers.calls.get("observe", 1))  # one observe per decision, four per hand end
    split = {
        "observe for the decision (arena/engine/observation.py)": get("observe", 0.0) * in_decide,
        "decision_to_pb (protocol/convert.py)": get("decision_to_pb", 0.0),
        "grpc aio Decide call (GrpcSeat.decide less encoding and decoding)":
            get("GrpcSeat.decide", 0.0) - get("decision_to_pb", 0.0) - get("reply_from_pb", 0.0),
        "reply_from_pb (protocol/convert.py)": get("reply_from_pb", 0.0),
        "Table._decide bookkeeping (less observe and the seat call)":
            get("Table._decide", 0.0) - get("GrpcSeat.decide", 0.0) - get("observe", 0.0) * in_decide,
        "observe x4 per hand for EndHand": get("observe", 0.0) * (1 - in_decide),
        "hand_end_to_pb x4 per hand (protocol/convert.py)": get("hand_end_to_pb", 0.0),
        "grpc aio EndHand x4 per hand and EndMatch (Table._notify_all less encoding)":
            get("Table._notify_all", 0.0) - get("hand_end_to_pb", 0.0),
        "MatchRecorder.hand (record line)": get("MatchRecorder.hand", 0.0),
    }
    accounted = sum(split.values())
    split["everything else on the loop thread (asyncio between calls, Table.run, HandState)"] = (
        run.referee_loop_thread_cpu_us - accounted)
    return {"decisions": n, "p50_ms": run.decision_ms["p50"],
            "loop_thread_cpu_us_per_decision": round(run.referee_loop_thread_cpu_us, 1),
            "process_cpu_us_per_decision": round(run.referee_cpu_us, 1),
            "loop_thread_split_us_per_decision": {k: round(v, 1) for k, v in split.items()},
            "calls": timers.calls}


# ------------------------------------------------------------------------------ main
async def bench_round(servers: EchoServers, args: argparse.Namespace, bot: BotCommand, sizes: dict[str, int],
                      folder: Path, number: int) -> dict[str, Any]:
    decide_payload = b"q" * sizes["decide_request_median"]
    shapes: list[tuple[str, list[int], str, bytes]] = [
        ("echo_tiny", [0], ECHO, b"e" * 8),
        ("echo_decide_shaped", [0], REPLY, decide_payload),
        ("echo_decide_shaped_4_servers", [0, 1, 2, 3], REPLY, decide_payload),
    ]
    out: dict[str, Any] = {}
    for key, indices, method, payload in shapes[number % 3:] + shapes[:number % 3]:  # rotate the order
        out[key] = await echo_latency(servers, indices, method, payload, args.calls)
    out["echo_concurrent_calls_per_s"] = await echo_concurrent(servers, args.tables, REPLY, decide_payload,
                                                               max(50, args.calls // 4))
    lean = BotCommand("lean", (sys.executable, str(HERE / "lean_bot.py")))
    for key, player, tables in (("one_table", bot, 1), ("one_table_lean_bots", lean, 1),
                                ("many_tables", bot, args.tables)):
        sub = folder / f"r{number}-{key}"
        sub.mkdir()
        out[key] = dataclasses.asdict(await run_tables(player, tables, args.deals, 1000 * number + 1, sub))
        shutil.rmtree(sub, ignore_errors=True)
    return out


async def run_rounds(servers: EchoServers, args: argparse.Namespace, bot: BotCommand, sizes: dict[str, int],
                     folder: Path) -> tuple[list[dict[str, Any]], dict[str, Any] | None]:
    rounds: list[dict[str, Any]] = []
    for number in range(args.rounds):
        result = await bench_round(servers, args, bot, sizes, folder, number)
        rounds.append(result)
        log(f"round {number + 1}/{args.rounds}: echo p50 tiny {result['echo_tiny']['p50']:.3f} ms, "
            f"decide-shaped {result['echo_decide_shaped']['p50']:.3f} ms, 4 servers "
            f"{result['echo_decide_shaped_4_servers']['p50']:.3f} ms; decision p50 "
            f"{result['one_table']['decision_ms']['p50']:.3f} ms p99 "
            f"{result['one_table']['decision_ms']['p99']:.3f} ms (lean bots p50 "
            f"{result['one_table_lean_bots']['decision_ms']['p50']:.3f} ms); hands/s 1 table "
            f"{result['one_table']['hands_per_s']:.1f}, {args.tables} tables "
            f"{result['many_tables']['hands_per_s']:.1f} (echo x{args.tables} callers "
            f"{result['echo_concurrent_calls_per_s']:.0f} calls/s vs "
            f"{result['echo_decide_shaped']['calls_per_s']} alone)")
    profile = None
    if args.profile:
        sub = folder / "profile"
        sub.mkdir()
        profile = await profile_referee(bot, args.deals, sub)
    return rounds, profile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (best of them is reported)")
    parser.add_argument("--calls", type=int, default=2000, help="echo calls per timed echo run")
    parser.add_argument("--deals", type=int, default=10, help="duplicate deals per table (2 hands each)")
    parser.add_argument("--tables", type=int, default=8, help="tables in the concurrent run")
    parser.add_argument("--bot", default="random", help="sample bot name or bot command line")
    parser.add_argument("--profile", action="store_true",
                        help="also split the referee's CPU by step over one extra match")
    parser.add_argument("--no-flood-guard", action="store_true",
                        help="seats dial their bots directly, bypassing the flood guard (its cost, by difference)")
    args = parser.parse_args()
    if args.no_flood_guard:
        GrpcSeat._guarded = lambda self, address: address  # type: ignore[method-assign]
    began = time.perf_counter()
    bot = resolve_bot(args.bot)
    rules = rules_for("dehla-pakad")
    samples, finished = sample_hands(rules, 10, 11)
    sizes = message_sizes(samples)
    log(f"typical DecideRequest {sizes['decide_request_median']} bytes (max {sizes['decide_request_max']}), "
        f"DecideResponse {sizes['decide_response']} bytes")
    folder = Path(tempfile.mkdtemp(prefix="dehla-bench-"))
    servers = EchoServers(max(4, args.tables), folder, sizes["decide_response"])
    started = time.perf_counter()
    busy0, steal0, own0 = machine_cpu()
    try:
        rounds, profile = asyncio.run(run_rounds(servers, args, bot, sizes, folder))
    finally:
        servers.close()
        shutil.rmtree(folder, ignore_errors=True)
    busy1, steal1, own1 = machine_cpu()
    capacity = (time.perf_counter() - started) * (os.cpu_count() or 1)
    machine = {"bench_share_of_all_cores": round((own1 - own0) / capacity, 3),
               "other_processes_share_of_all_cores": round(max(0.0, busy1 - busy0 - (own1 - own0)) / capacity, 3),
               "steal_share": round((steal1 - steal0) / capacity, 3)}
    log(f"machine during the rounds: {machine}")
    with tempfile.TemporaryDirectory(prefix="dehla-bench-") as scratch:
        costs = step_costs(samples, finished, Path(scratch))

    def best(path: Sequence[str], pick: Callable[[Sequence[float]], float] = min) -> float:
        values = []
        for result in rounds:
            value: Any = result
            for key in path:
                value = value[key]
            values.append(value)
        return pick(values)

    decision_p50 = best(("one_table", "decision_ms", "p50"))
    loop = best(("one_table", "referee_loop_thread_cpu_us"))
    engine_and_codec = sum(costs[k] for k in (
        "referee_legal_actions", "referee_observe", "referee_decision_to_pb", "referee_serialize_request",
        "referee_parse_and_reply_from_pb", "referee_end_hand_messages_per_decision",
        "referee_record_line_per_decision"))
    accounting = {
        "measured_one_table": round(loop, 1),
        "observe_encode_decode_end_hand_record_in_process": round(engine_and_codec, 1),
        "rest_grpc_aio_asyncio_and_table_bookkeeping": round(loop - engine_and_codec, 1),
        "echo_client_loop_thread_cpu_per_call_for_comparison": best(("echo_decide_shaped",
                                                                      "client_loop_thread_cpu_us")),
    }
    echo_p50 = {shape: best((shape, "p50"))
                for shape in ("echo_tiny", "echo_decide_shaped", "echo_decide_shaped_4_servers")}
    one = best(("one_table", "hands_per_s"), max)
    many = best(("many_tables", "hands_per_s"), max)
    echo_one = best(("echo_decide_shaped", "calls_per_s"), max)
    echo_many = best(("echo_concurrent_calls_per_s",), max)
    ratios = {shape: round(decision_p50 / p50, 3) for shape, p50 in echo_p50.items()}
    figures = {
        "bench": "referee",
        "bot": bot.name,
        "rounds": args.rounds,
        "calls_per_echo_run": args.calls,
        "deals_per_table": args.deals,
        "tables": args.tables,
        "cpus": os.cpu_count(),
        "machine_load_during_rounds": machine,
        "message_bytes": sizes,
        "a_echo_p50_ms": echo_p50,
        "a_echo_p99_ms": {shape: best((shape, "p99")) for shape in echo_p50},
        "a_echo_calls_per_s": {shape: best((shape, "calls_per_s"), max) for shape in echo_p50},
        "a_echo_cpu_us_per_call": {side: best(("echo_decide_shaped", f"{side}_cpu_us"))
                                   for side in ("client", "client_loop_thread", "server")},
        "b_decision_p50_ms": decision_p50,
        "b_decision_p99_ms": best(("one_table", "decision_ms", "p99")),
        "b_decision_mean_ms": best(("one_table", "decision_ms", "mean")),
        "b_decision_p50_ms_lean_bots": best(("one_table_lean_bots", "decision_ms", "p50")),
        "b_decision_p99_ms_lean_bots": best(("one_table_lean_bots", "decision_ms", "p99")),
        "b_over_a_p50": ratios,
        "b_p50_ladder_ms": {  # each step adds one thing to the one before
            "echo_decide_shaped_1_server": echo_p50["echo_decide_shaped"],
            "echo_decide_shaped_4_servers_round_robin": echo_p50["echo_decide_shaped_4_servers"],
            "table_lean_bots_referee_encoding_and_real_service": best(("one_table_lean_bots", "decision_ms", "p50")),
            f"table_{bot.name}_bots_sdk_decoding_too": decision_p50,
        },
        "b_over_a_p50_per_round": [
            {shape: round(r["one_table"]["decision_ms"]["p50"] / r[shape]["p50"], 3) for shape in echo_p50}
            for r in rounds],
        "c_hands_per_s_one_table": round(one, 2),
        "c_hands_per_s_one_table_lean_bots": round(best(("one_table_lean_bots", "hands_per_s"), max), 2),
        "c_hands_per_s_many_tables": round(many, 2),
        "c_many_over_one": round(many / one, 3),
        "c_many_over_one_per_round": [round(r["many_tables"]["hands_per_s"] / r["one_table"]["hands_per_s"], 3)
                                      for r in rounds],
        "c_decision_ms_many_tables": {k: best(("many_tables", "decision_ms", k)) for k in ("p50", "p99")},
        "echo_concurrency_ceiling": round(echo_many / echo_one, 3),
        "echo_calls_per_s_one_vs_concurrent": [round(echo_one), round(echo_many)],
        "cpu_us_per_decision": {
            key: {"referee": round(best((key, "referee_cpu_us"))),
                  "referee_loop_thread": round(best((key, "referee_loop_thread_cpu_us"))),
                  "bots": round(best((key, "bots_cpu_us")))}
            for key in ("one_table", "one_table_lean_bots", "many_tables")
        },
        "step_costs_us": costs,
        "referee_loop_thread_accounting_us_per_decision": accounting,
        "targets": {
            "b_p50_at_most_1_5x_a": {shape: ratio <= 1.5 for shape, ratio in ratios.items()},
            "many_tables_at_least_3x_one": many / one >= 3.0,
        },
        "seconds": round(time.perf_counter() - began, 1),
        "flood_guard": not args.no_flood_guard,
    }
    if profile is not None:
        figures["referee_profile"] = profile
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
