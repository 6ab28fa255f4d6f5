"""Hostile bots in the sandbox: each is a real bot that attacks at start-up or at its first
decision and reports what it achieved (``tests/hostile/bots``). Every attack must be contained,
recorded as the right fault (or none, when the bot plays on), and leave the referee, the other
bots, the host and the store unharmed. Side channels owned by the test (secrets the bot must
not find, folders it must not write, listeners it must not reach, processes it must not kill)
check the bots' own reports; negative controls run some attacks unsandboxed to prove that the
attacks work and the assertions would fail without the sandbox.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from arena.contract.faults import FaultKind, FaultPolicy
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.launcher import ADDRESS_ENV, BotCommand, BotProcess, resolve_bot
from arena.referee.local import seat_limits
from arena.referee.table_values import TableConfig
from arena.sandbox.uids import processes_of
from ladder.store.paths import ArenaData
from sample_bots.random.bot import RandomBot
from tests.database import database_url
from tests.hostile.harness import (
    BOTS,
    LOCAL,
    MARK,
    RANDOM,
    SMALL,
    WatchedProcess,
    alone,
    copy_bots,
    following_runner,
    hostile,
    monitor_socket,
    play,
    sandbox_runner,
    socket_folder,
    table_config,
    wait_gone,
)
from tests.web_helpers import match_file

pytestmark = pytest.mark.usefixtures("sandbox_available")

SNAPPY = TimeControl(per_move=0.4, bank=0.2, startup=20.0)
"""For bots that are meant to time out: the timeout costs 0.6 s."""


def outcomes(findings: list[dict[str, object]], attack: str) -> list[object]:
    return [f["outcome"] for f in findings if f["attack"] == attack]


def assert_all_gone(uid: int) -> None:
    assert processes_of(uid) == [], f"processes of sandbox uid {uid} survived the match"


# --------------------------------------------------------------------------- reading
@pytest.fixture
def secrets_on_host(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[dict[str, Path | str]]:
    """A victim bot folder, a store and a file in /root, each holding a secret token; the same
    token in the referee's environment."""
    marker = f"DEHLA-SECRET-{secrets.token_hex(6)}"
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "bot.toml").write_text('name = "victim"\nversion = "1.0"\nauthor = "test"\n'
                                     'command = ["python", "-m", "sample_bots.random"]\n')
    (victim / "secret.txt").write_text(f"my strategy: {marker}\n")
    store = tmp_path / "store"
    store.mkdir()
    (store / "arena.sqlite").write_text(f"ratings {marker}\n")
    root_secret = Path("/root") / f".dehla-test-{marker}"
    root_secret.write_text(f"root only {marker}\n")
    monkeypatch.setenv("DEHLA_TEST_SECRET", marker)
    try:
        yield {"marker": marker, "victim": victim, "store": store, "root": root_secret}
    finally:
        root_secret.unlink()


def snoop(marker: str, paths: list[Path | str], sockets: Path) -> BotCommand:
    args = ["--marker", marker.removesuffix(marker.rsplit("-", 1)[1])]
    for path in paths:
        args += ["--path", str(path)]
    # At its first decision, when the bot at seat 1 is surely serving on its socket.
    return hostile("snoop", *args, "--socket", f"{sockets}/s1/bot.sock", "--at", "decide")


def test_a_bot_cannot_read_another_bots_folder_the_store_root_or_the_referees_secrets(
        tmp_path: Path, secrets_on_host: dict[str, Path | str]) -> None:
    marker = str(secrets_on_host["marker"])
    sockets = socket_folder()
    paths = [secrets_on_host["victim"], secrets_on_host["store"], "/root", tmp_path, "/work", "/home"]
    victim = resolve_bot(str(secrets_on_host["victim"]))
    played = play(table_config("snoop"), [snoop(marker, paths, sockets), victim, RandomBot(2), RandomBot(3)],
                  tmp_path / "records", sockets=sockets)
    findings = played.findings(0)
    assert played.outcome.status == "done" and played.outcome.faults == []
    assert played.escapes(0) == []
    assert len(outcomes(findings, "read")) == len(paths)
    assert outcomes(findings, "connect-socket") == ["contained"]
    assert marker not in played.log(0)
    listing = next(f for f in findings if f["attack"] == "listing")
    assert set(listing["root"]) <= {"bin", "bot", "dev", "etc", "lib", "lib32", "lib64", "libx32", "proc",
                                    "root", "run", "sbin", "tmp", "usr", *Path(sys.prefix).parts[1:2],
                                    *Path(sys.base_prefix).parts[1:2]}


# --------------------------------------------------------------------------- writing
def test_a_bot_cannot_write_outside_its_tmp_nor_get_privileges(tmp_path: Path) -> None:
    name = f"dehla-scribble-{secrets.token_hex(4)}"
    host = tmp_path / "host"
    host.mkdir()
    bot = hostile("scribble", "--name", name, "--folder", str(host), "--at", "start")
    played = play(table_config("scribble"), alone(bot), tmp_path / "records")
    findings = played.findings(0)
    assert played.outcome.faults == []
    assert played.escapes(0) == []
    assert len(outcomes(findings, "write")) >= 10
    for attack in ("mknod", "mount", "unshare-user", "setuid-0"):
        assert outcomes(findings, attack) == ["contained"], attack
    for folder in (host, Path("/"), Path("/usr"), Path("/etc"), Path("/root"), Path("/var/tmp"), BOTS,
                   Path(sys.modules["arena.sandbox"].__file__ or "").parents[1]):
        assert not (folder / name).exists(), folder


# --------------------------------------------------------------------------- network
@pytest.fixture
def listeners() -> Iterator[tuple[socket.socket, socket.socket]]:
    """A TCP listener and a UDP socket on the host's loopback, owned by the test."""
    tcp = socket.create_server(("127.0.0.1", 0))
    tcp.setblocking(False)
    udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    udp.bind(("127.0.0.1", 0))
    udp.setblocking(False)
    try:
        yield tcp, udp
    finally:
        tcp.close()
        udp.close()


def test_a_bot_has_no_network_at_all(tmp_path: Path, listeners: tuple[socket.socket, socket.socket]) -> None:
    tcp, udp = listeners
    tcp_target = f"127.0.0.1:{tcp.getsockname()[1]}"
    bot = hostile("network", "--tcp", tcp_target, "--tcp", "1.1.1.1:53", "--udp", f"127.0.0.1:{udp.getsockname()[1]}",
                  "--udp", "8.8.8.8:53", "--dns", "example.com", "--at", "start")
    played = play(table_config("network"), alone(bot), tmp_path / "records")
    findings = played.findings(0)
    assert played.outcome.faults == []
    assert played.escapes(0) == []
    assert outcomes(findings, "tcp") == ["contained", "contained"]
    assert outcomes(findings, "dns") == ["contained"]
    assert next(f for f in findings if f["attack"] == "interfaces")["names"] == ["lo"]
    with pytest.raises(BlockingIOError):
        tcp.accept()
    with pytest.raises(BlockingIOError):
        udp.recv(100)


# ----------------------------------------------------------------------- processes
def test_a_fork_bomb_is_contained_by_the_pids_cgroup(tmp_path: Path) -> None:
    played = play(table_config("bomb"), alone(hostile("fork_bomb")), tmp_path / "records")
    report = next(f for f in played.findings(0) if f["attack"] == "fork-bomb")
    assert played.outcome.faults == [] and report["outcome"] == "contained"
    assert report["born"] < SMALL.processes
    if "pids" in sandbox_runner().cgroups.controllers:
        assert played.events(0)["pids_max"] > 0
    assert_all_gone(played.uid(0))
    assert subprocess.run(["true"], check=False).returncode == 0  # the host can still fork


def test_a_fork_bomb_is_contained_by_the_seat_uid_alone_without_cgroups(tmp_path: Path) -> None:
    played = play(table_config("bomb-rlimit"), alone(hostile("fork_bomb")), tmp_path / "records",
                  sandbox_runner("off"))
    report = next(f for f in played.findings(0) if f["attack"] == "fork-bomb")
    assert played.outcome.faults == [] and report["outcome"] == "contained"
    assert report["born"] < SMALL.processes and report["refused"] > 0
    assert played.uid(0) >= 1000
    assert "no pids cgroup" in played.log(0)
    assert_all_gone(played.uid(0))


def test_control_as_root_rlimit_nproc_does_not_stop_a_fork_bomb() -> None:
    """Why each seat needs its own unprivileged uid: root ignores RLIMIT_NPROC."""
    done = subprocess.run(["prlimit", "--nproc=16:16", "--", sys.executable, "fork_bomb.py", "--standalone",
                           "--ceiling", "48", "--seconds", "5"], cwd=BOTS, capture_output=True, text=True,
                          timeout=60, check=False)
    assert '"outcome": "escaped"' in done.stderr, done.stderr


def test_a_bot_cannot_signal_the_referee_its_parent_or_other_processes(tmp_path: Path) -> None:
    sentinel = subprocess.Popen(["sleep", "120"])
    try:
        bot = hostile("signaller", "--pid", str(os.getpid()), "--pid", str(sentinel.pid))
        played = play(table_config("signal"), [bot, RANDOM, RandomBot(2), RandomBot(3)], tmp_path / "records")
        assert played.outcome.status == "done" and played.outcome.faults == []
        assert played.escapes(0) == []
        assert sentinel.poll() is None
        visible = next(f for f in played.findings(0) if f["attack"] == "process-list")["visible"]
        assert len(visible) <= 3  # its init, itself, maybe a thread's child
        assert played.process(1).report is not None
    finally:
        sentinel.kill()
        sentinel.wait()


def test_a_child_left_running_dies_with_the_sandbox(tmp_path: Path) -> None:
    played = play(table_config("orphan"), alone(hostile("orphan")), tmp_path / "records")
    assert played.outcome.faults == []
    assert_all_gone(played.uid(0))


def test_control_the_orphan_survives_its_bot_when_unsandboxed(tmp_path: Path) -> None:
    pidfile = tmp_path / "orphan.pid"
    played = play(table_config("orphan-local"), alone(hostile("orphan", "--pidfile", str(pidfile))),
                  tmp_path / "records", LOCAL)
    assert played.outcome.faults == []
    orphan = int(pidfile.read_text())
    try:
        assert wait_gone([orphan], 0.2) == [orphan]
    finally:
        os.kill(orphan, signal.SIGKILL)
        assert wait_gone([orphan], 5) == []


# ------------------------------------------------------------------------ resources
def test_a_memory_hog_is_killed_at_its_limit_and_recorded_as_a_crash(tmp_path: Path) -> None:
    bot = hostile("memory_hog", resources=SMALL.model_copy(update={"memory_mb": 64}))
    played = play(table_config("memory"), alone(bot), tmp_path / "records")
    assert played.outcome.status == "done"
    assert played.fault_kinds(0) == [FaultKind.CRASH]
    assert [f.seat for f in played.faults()] == [0]
    assert played.escapes(0) == []
    if "memory" in sandbox_runner().cgroups.controllers:
        assert played.events(0)["oom_kill"] >= 1 or played.events(0)["memory_max"] > 0
        assert "SIGKILL" in played.log(0)
    assert_all_gone(played.uid(0))


def test_a_memory_hog_meets_the_address_space_rlimit_without_cgroups(tmp_path: Path) -> None:
    bot = hostile("memory_hog", resources=SMALL.model_copy(update={"memory_mb": 64}))
    clock = TimeControl(per_move=30.0, bank=0.0, startup=30.0)
    played = play(table_config("memory-rlimit", time_control=clock), alone(bot), tmp_path / "records",
                  sandbox_runner("off"))
    report = next(f for f in played.findings(0) if f["attack"] == "memory")
    assert report["outcome"] == "contained" and report["allocated_mb"] < 2048
    assert played.outcome.faults == []


def test_a_bot_spinning_in_a_decision_times_out_and_is_stopped(tmp_path: Path) -> None:
    config = table_config("spin", policy=FaultPolicy.FORFEIT, time_control=SNAPPY)
    played = play(config, alone(hostile("cpu_spin", "--mode", "decide")), tmp_path / "records")
    assert played.fault_kinds(0) == [FaultKind.TIMEOUT]
    assert played.outcome.forfeit_team == 0
    assert_all_gone(played.uid(0))


@pytest.mark.alone("the spinners must find idle CPU to exceed their share: under another test's load they "
                   "may get less than the share and never be throttled (failed so with the machine loaded)")
def test_background_spinners_are_throttled_to_the_bots_cpu_share(tmp_path: Path) -> None:
    bot = hostile("cpu_spin", "--mode", "background", "--workers", "3",
                  resources=SMALL.model_copy(update={"cpus": 0.5}))
    played = play(table_config("spin-background", match_format="hands:2"), alone(bot), tmp_path / "records")
    assert played.outcome.faults == []
    if "cpu" in sandbox_runner().cgroups.controllers:
        assert played.events(0)["cpu_throttled"] > 0
    assert_all_gone(played.uid(0))


def test_the_cpu_time_rlimit_ends_a_bot_that_burns_its_match_budget(tmp_path: Path) -> None:
    clock = TimeControl(per_move=120.0, bank=0.0, startup=30.0)  # the rlimit must end it, not the clock
    limits = SMALL.limits(cpu_seconds=2)
    played = play(table_config("burn", time_control=clock), alone(hostile("cpu_spin", "--mode", "burn")),
                  tmp_path / "records", limits={0: limits})
    assert played.fault_kinds(0) == [FaultKind.CRASH]
    assert "SIGXCPU" in played.log(0) or "SIGKILL" in played.log(0)
    assert played.escapes(0) == []


def test_a_disk_filler_fills_only_its_own_small_tmpfs(tmp_path: Path) -> None:
    host = tmp_path / "host"
    host.mkdir()
    before = os.statvfs(tmp_path)
    bot = hostile("disk_fill", "--folder", str(host), "--at", "start")
    played = play(table_config("disk"), alone(bot), tmp_path / "records")
    assert played.outcome.faults == []
    assert played.escapes(0) == []
    written = {f["target"]: f["written_mb"] for f in played.findings(0) if f["attack"] == "disk"}
    assert written["/tmp"] <= SMALL.disk_mb and written["/dev/shm"] <= SMALL.disk_mb
    assert written["/run/dehla"] <= 0.0625
    assert written["/bot"] == 0 and written[str(host)] == 0
    assert list(host.iterdir()) == []
    after = os.statvfs(tmp_path)
    assert (before.f_bavail - after.f_bavail) * after.f_frsize < 64 * 1024 * 1024


def test_a_flood_of_output_is_capped_and_slows_nobody_else(tmp_path: Path) -> None:
    played = play(table_config("flood", match_format="hands:2"), alone(hostile("flood")), tmp_path / "records")
    assert played.outcome.status == "done" and played.outcome.faults == []
    process = played.process(0)
    assert process.dropped > 0
    assert process.log_path.stat().st_size <= process.log_cap + 1024
    assert "log capped" in played.log(0)
    assert played.closed_after < 30


def test_a_bot_sleeping_before_it_serves_fails_to_start_and_is_killed(tmp_path: Path) -> None:
    clock = TimeControl(per_move=1.0, bank=0.0, startup=2.0)  # it never serves: a short budget
    played = play(table_config("sleep-start", time_control=clock), alone(hostile("sleeper", "--mode", "start")),
                  tmp_path / "records")
    assert played.fault_kinds(0) == [FaultKind.FAILED_START]
    assert played.closed_after < 2.0 + 5.0
    assert_all_gone(played.uid(0))


def test_a_bot_sleeping_in_a_decision_times_out_and_is_killed(tmp_path: Path) -> None:
    config = table_config("sleep-decide", policy=FaultPolicy.FORFEIT, time_control=SNAPPY)
    played = play(config, alone(hostile("sleeper", "--mode", "decide")), tmp_path / "records")
    assert played.fault_kinds(0) == [FaultKind.TIMEOUT]
    assert_all_gone(played.uid(0))


# ------------------------------------------------------------------ negative control
def test_control_unsandboxed_the_same_attacks_succeed(
        tmp_path: Path, secrets_on_host: dict[str, Path | str], listeners: tuple[socket.socket, socket.socket]) -> None:
    """Four attackers at one table with the local runner: reading, writing, the network and
    signals all get through, so the assertions above would fail without the sandbox."""
    marker = str(secrets_on_host["marker"])
    sockets = socket_folder()
    paths = [secrets_on_host["victim"], secrets_on_host["store"], "/root"]
    host = tmp_path / "host"
    host.mkdir()
    name = f"dehla-scribble-{secrets.token_hex(4)}"
    tcp, _ = listeners
    sentinel = subprocess.Popen(["sleep", "120"])
    try:
        lineup = [snoop(marker, paths, sockets),
                  hostile("scribble", "--name", name, "--folder", str(host), "--only-given"),
                  hostile("network", "--tcp", f"127.0.0.1:{tcp.getsockname()[1]}"),
                  hostile("signaller", "--signal", "0", "--pid", str(os.getpid()), "--pid", str(sentinel.pid))]
        played = play(table_config("control"), lineup, tmp_path / "records", LOCAL, sockets=sockets)
    finally:
        sentinel.kill()
        sentinel.wait()
    escapes = {(f["attack"], f.get("target")) for f in played.escapes(0)}
    assert {("read", str(p)) for p in paths} <= escapes
    assert ("environment", None) in escapes
    assert ("connect-socket", f"{sockets}/s1/bot.sock") in escapes
    assert [f["target"] for f in played.escapes(1)] == [str(host / name)] and (host / name).exists()
    assert outcomes(played.findings(2), "tcp") == ["escaped"]
    connection, _ = tcp.accept()
    connection.close()
    assert {f.get("target") for f in played.escapes(3) if f["attack"] == "signal-pid"} == {os.getpid(), sentinel.pid}


# ------------------------------------------------------------------------ collusion
def partner_hands(played_record: list[dict[str, object]]) -> list[list[str]]:
    hand = next(line for line in played_record if line["type"] == "hand")
    record = hand["record"]
    assert isinstance(record, dict)
    return [list(cards) for cards in record["deal"]["hands"]]


@pytest.fixture
def collusion_tag() -> Iterator[str]:
    tag = secrets.token_hex(4)
    try:
        yield tag
    finally:  # what an unsandboxed run may leave on the host
        for folder in ("/tmp", "/dev/shm", "/var/tmp", "/"):
            for path in Path(folder).glob(f"dehla-collude-{tag}-*"):
                path.unlink()
        key = zlib.crc32(tag.encode()) & 0x7FFFFFF0
        for seat in range(4):
            subprocess.run(["ipcrm", "-M", str(key | seat)], capture_output=True, check=False)


def test_partners_cannot_pass_their_hands_to_each_other(tmp_path: Path, collusion_tag: str) -> None:
    colluder = hostile("colluder", "--tag", collusion_tag)
    played = play(table_config("collude"), [colluder, RandomBot(1), colluder, RandomBot(3)], tmp_path / "records")
    assert played.outcome.status == "done" and played.outcome.faults == []
    for seat in (0, 2):
        assert played.escapes(seat) == []
        channels = {f["channel"] for f in played.findings(seat) if f["outcome"] == "contained"}
        assert {"file:/tmp", "file:/dev/shm", "abstract-socket", "unix-socket", "tcp-localhost", "sysv-shm",
                "process-list", "signals", "flock", "inotify"} <= channels
    assert played.uid(0) != played.uid(2)


def test_control_partners_pass_their_hands_when_unsandboxed(tmp_path: Path, collusion_tag: str) -> None:
    colluder = hostile("colluder", "--tag", collusion_tag)
    played = play(table_config("collude-local"), [colluder, RandomBot(1), colluder, RandomBot(3)],
                  tmp_path / "records", LOCAL)
    hands = partner_hands(played.record)
    for seat in (0, 2):
        escapes = {f["channel"]: f for f in played.escapes(seat)}
        assert {"file:/tmp", "file:/dev/shm", "abstract-socket", "unix-socket", "tcp-localhost", "sysv-shm",
                "process-list", "flock", "inotify"} <= set(escapes)
        cards = escapes["file:/tmp"]["cards"]
        assert isinstance(cards, list) and set(cards) <= set(hands[seat ^ 2])



# --------------------------------------------------------------- the referee's dial
@dataclass
class HostPool:
    """A ``pool`` bot served on the host, outside any sandbox, by the test."""

    path: Path
    server: subprocess.Popen[str]

    def findings(self) -> list[dict[str, object]]:
        """Stops the server (if the match has not) and returns its reports."""
        self.server.terminate()
        _, stderr = self.server.communicate(timeout=30)
        return [json.loads(line[line.index(MARK) + len(MARK):]) for line in stderr.splitlines() if MARK in line]

    def seats(self) -> list[object]:
        return [f["seat"] for f in self.findings() if f["attack"] == "seat"]


@pytest.fixture
def host_pool() -> Iterator[HostPool]:
    folder = socket_folder()
    path = folder / "host.sock"
    server = subprocess.Popen([sys.executable, "pool.py"], cwd=BOTS, env={**os.environ, ADDRESS_ENV: f"unix:{path}"},
                              stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        assert server.stderr is not None
        assert "pool serving on" in server.stderr.readline()  # its socket is bound and listening
        yield HostPool(path, server)
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(folder, ignore_errors=True)


def swap_to_host(host: HostPool) -> BotCommand:
    return hostile("socket_swap", "--target", str(host.path))


def test_a_bot_cannot_have_the_referee_play_its_seat_through_a_socket_on_the_host(
        tmp_path: Path, host_pool: HostPool) -> None:
    played = play(table_config("swap-host"), alone(swap_to_host(host_pool)), tmp_path / "records")
    assert played.fault_kinds(0) == [FaultKind.FAILED_START]
    detail = played.faults(0)[0].detail
    assert "bot.sock in the bot's socket folder is a symbolic link, not a socket the bot bound" in detail
    assert str(host_pool.path) not in detail  # the referee's own words, not the bot's link
    assert [f["target"] for f in played.findings(0) if f["attack"] == "socket-swap"] == [str(host_pool.path)]
    assert host_pool.seats() == []
    assert_all_gone(played.uid(0))


def test_control_the_old_dial_by_name_plays_the_seat_through_the_host_socket(
        tmp_path: Path, host_pool: HostPool) -> None:
    played = play(table_config("swap-host-old"), alone(swap_to_host(host_pool)), tmp_path / "records",
                  following_runner())
    assert played.outcome.status == "done" and played.outcome.faults == []
    assert host_pool.seats() == [0]


@dataclass
class PartnerPipe:
    """A named pipe in the colluders' code folder (``/bot`` inside) and the test's end of it."""

    code: Path
    writer: int

    def lineup(self) -> list[BotCommand | RandomBot]:
        """Seat 0 points its ``bot.sock`` at seat 2's socket; seat 2 serves a pool on its own."""
        return [hostile("socket_swap", "--target-from", "/bot/partner.pipe", code=self.code), RandomBot(1),
                hostile("pool", code=self.code), RandomBot(3)]

    async def point_at_partner(self, processes: list[BotProcess | None]) -> None:
        """Once seat 2 runs, hand seat 0 the path of seat 2's socket through its monitor's root."""
        partner = processes[2]
        assert isinstance(partner, WatchedProcess)
        await partner.up.wait()
        os.write(self.writer, f"{monitor_socket(partner)}\n".encode())


@pytest.fixture
def partner_pipe(tmp_path: Path) -> Iterator[PartnerPipe]:
    code = copy_bots(tmp_path / "code", "socket_swap", "pool")
    os.mkfifo(code / "partner.pipe")
    (code / "partner.pipe").chmod(0o644)
    writer = os.open(code / "partner.pipe", os.O_RDWR | os.O_NONBLOCK)  # never blocks; keeps the pipe open
    try:
        yield PartnerPipe(code, writer)
    finally:
        os.close(writer)


def test_partners_cannot_pool_both_hands_through_the_referee(tmp_path: Path, partner_pipe: PartnerPipe) -> None:
    played = play(table_config("swap-partner"), partner_pipe.lineup(), tmp_path / "records",
                  during=partner_pipe.point_at_partner)
    assert played.fault_kinds(0) == [FaultKind.FAILED_START]
    assert "symbolic link" in played.faults(0)[0].detail
    assert [f["target"].startswith("/proc/") for f in played.findings(0) if f["attack"] == "socket-swap"] == [True]
    assert [f["seat"] for f in played.findings(2) if f["attack"] == "seat"] == [2]
    assert played.escapes(2) == []


def test_control_the_old_dial_by_name_lets_one_process_play_both_partners(
        tmp_path: Path, partner_pipe: PartnerPipe) -> None:
    played = play(table_config("swap-partner-old"), partner_pipe.lineup(), tmp_path / "records",
                  following_runner(), during=partner_pipe.point_at_partner)
    assert played.outcome.status == "done" and played.outcome.faults == []  # no fault recorded
    assert sorted(f["seat"] for f in played.findings(2) if f["attack"] == "seat") == [0, 2]
    pooled = next(f for f in played.escapes(2) if f["attack"] == "pooled")
    hands = partner_hands(played.record)
    for seat in (0, 2):
        assert set(pooled["hands"][str(seat)]) <= set(hands[seat])


def dehla(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "arena", *args, "--data", str(data)], capture_output=True,
                          text=True, timeout=600, check=False)


def test_a_rated_ladder_match_records_the_swap_as_a_fault_and_no_pooled_play(
        tmp_path: Path, host_pool: HostPool) -> None:
    """The attacker passes ``dehla submit`` (it plays honestly in the short validation matches,
    told apart by their CPU budget) and points both partners' ``bot.sock`` at a pool on the
    host in the rated match: that is a failed start, forfeited and rated, and nobody is served."""
    validation = TableConfig("v", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse("duplicate:1"), 1,
                             TimeControl(), FaultPolicy.FORFEIT)
    rated = TableConfig("r", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse("duplicate:2"), 1,
                        TimeControl(per_move=1.0, bank=30.0), FaultPolicy.FORFEIT)
    plain = BotCommand("swapper", ("python",))
    budget = seat_limits(plain, validation, 0).cpu_seconds
    assert seat_limits(plain, rated, 0).cpu_seconds > budget
    folder = copy_bots(tmp_path / "swapper", "socket_swap", "pool")
    command = ["python", "socket_swap.py", "--target", str(host_pool.path), "--cpu-above", str(budget)]
    manifest = f'name = "swapper"\nversion = "1.0"\nauthor = "t"\ncommand = {json.dumps(command)}\n'
    (folder / "bot.toml").write_text(manifest)
    data = tmp_path / "arena"
    for args in (["submit", str(folder)], ["submit", "--sample", "random"]):
        out = dehla(*args, "--runner", "sandbox", data=data)
        assert out.returncode == 0 and "accepted" in out.stdout, out.stderr
    run = dehla("ladder", "run", "--matches", "1", "--deals", "2", "--seed", "1", "--runner", "sandbox", data=data)
    assert run.returncode == 0 and "counted" in run.stderr, run.stderr
    [match] = json.loads(dehla("ladder", "matches", "--json", data=data).stdout)
    assert match["status"] == "done" and match["faults"] >= 1
    stored = match_file(ArenaData(data.resolve(), database_url(data.resolve())), match["match_id"], match["record"])
    record = [json.loads(line) for line in stored.decode().splitlines()]
    faults = [fault for line in record for fault in line.get("faults", []) if isinstance(fault, dict)]
    assert faults and all(f["kind"] == "failed_start" and "symbolic link" in f["detail"] for f in faults), record
    show = {row["bot"]: row for row in json.loads(dehla("ladder", "show", "--json", data=data).stdout)}
    assert show["swapper"]["matches"] == show["random"]["matches"] == 1
    assert show["random"]["rating"] > show["swapper"]["rating"]
    assert host_pool.seats() == []
