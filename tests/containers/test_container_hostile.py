"""The hostile-bot suite's containment cases with the bots in podman containers: network,
filesystem (reading and writing), environment, pids, memory, disk and leftover processes.
Each defence that is the container runner's own has a negative control: the same attack with
that one option left out of the ``run`` command line gets through."""

from __future__ import annotations

import asyncio
import functools
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from arena.contract.faults import FaultKind
from arena.referee.launcher import BotCommand
from arena.sandbox import Program
from arena.sandbox.containers import BASE_IMAGE, LABEL, REFEREE_LABEL, ContainerLaunch, ContainerRunner, sweep
from arena.sandbox.limits import Limits
from arena.sandbox.uids import processes_of
from sample_bots.random.bot import RandomBot
from sdk.bot import Bot
from tests.containers.conftest import PODMAN, WithoutRunner
from tests.hostile.harness import BOTS, SMALL, Played, alone, hostile, play, socket_folder, table_config

MARKER = "DEHLA-SECRET-"


def outcomes(played: Played, attack: str, seat: int = 0) -> list[object]:
    return [f["outcome"] for f in played.findings(seat) if f["attack"] == attack]


def assert_all_gone(played: Played, seat: int = 0) -> None:
    uid = played.uid(seat)
    assert processes_of(uid) == [], f"processes of seat uid {uid} survived the match"
    listed = subprocess.run(PODMAN.command("ps", "--all", "--quiet", "--filter", f"label={LABEL}",
                                           "--filter", f"name=dehla-bot-{uid}-"),
                            capture_output=True, text=True, check=True).stdout
    assert listed.strip() == "", "the seat's container was not removed"


# --------------------------------------------------------------------------- network
@pytest.fixture
def listener() -> Iterator[socket.socket]:
    tcp = socket.create_server(("127.0.0.1", 0))
    tcp.setblocking(False)
    try:
        yield tcp
    finally:
        tcp.close()


def network_bot(listener: socket.socket) -> list[BotCommand | Bot]:
    return alone(hostile("network", "--tcp", f"127.0.0.1:{listener.getsockname()[1]}", "--tcp", "1.1.1.1:53",
                         "--dns", "example.com", "--at", "start"))


def test_a_contained_bot_has_no_network(tmp_path: Path, podman: ContainerRunner, listener: socket.socket) -> None:
    played = play(table_config("c-network"), network_bot(listener), tmp_path / "records", podman)
    assert played.outcome.faults == [] and played.escapes(0) == []
    assert outcomes(played, "tcp") == ["contained", "contained"]
    assert outcomes(played, "dns") == ["contained"]
    assert next(f for f in played.findings(0) if f["attack"] == "interfaces")["names"] == ["lo"]
    with pytest.raises(BlockingIOError):
        listener.accept()


def test_control_without_network_none_the_container_has_a_network(
        tmp_path: Path, base_image: str, listener: socket.socket) -> None:
    played = play(table_config("c-network-control"), network_bot(listener), tmp_path / "records",
                  WithoutRunner(("--network",)))
    assert next(f for f in played.findings(0) if f["attack"] == "interfaces")["names"] != ["lo"]


# --------------------------------------------------------------- reading, environment
@pytest.fixture
def secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, list[str]]]:
    """A secret in a victim folder, a store, /root and the referee's proxy variable (which
    podman copies into containers by default): the marker and the paths."""
    marker = f"{MARKER}{secrets.token_hex(6)}"
    for folder in ("victim", "store"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "secret.txt").write_text(f"{marker}\n")
    root_secret = Path("/root") / f".dehla-test-{marker}"
    root_secret.write_text(f"{marker}\n")
    monkeypatch.setenv("DEHLA_TEST_SECRET", marker)
    monkeypatch.setenv("http_proxy", f"http://arena:{marker}@proxy.invalid:3128")
    try:
        yield marker, [str(tmp_path / "victim"), str(tmp_path / "store"), "/root", str(tmp_path), "/work"]
    finally:
        root_secret.unlink()


def snoop(paths: list[str]) -> list[BotCommand | Bot]:
    args = ["--marker", MARKER]
    for path in paths:
        args += ["--path", path]
    return alone(hostile("snoop", *args, "--at", "start"))


def test_a_contained_bot_reads_no_host_file_and_no_referee_secret(
        tmp_path: Path, podman: ContainerRunner, secret: tuple[str, list[str]]) -> None:
    marker, paths = secret
    played = play(table_config("c-snoop"), snoop(paths), tmp_path / "records", podman)
    assert played.outcome.faults == [] and played.escapes(0) == []
    assert outcomes(played, "read") == ["contained"] * len(paths)
    assert outcomes(played, "environment") == ["contained"]
    assert outcomes(played, "process-environment") == ["contained"]
    assert marker not in played.log(0)


def test_control_podman_copies_the_hosts_proxy_variables_without_http_proxy_false(
        tmp_path: Path, base_image: str, secret: tuple[str, list[str]]) -> None:
    played = play(table_config("c-snoop-control"), snoop([]), tmp_path / "records",
                  WithoutRunner(("--http-proxy=false",)))
    assert outcomes(played, "environment") == ["escaped"]


# --------------------------------------------------------------------------- writing
def scribble(tmp_path: Path, name: str) -> list[BotCommand | Bot]:
    host = tmp_path / "host"
    host.mkdir(exist_ok=True)
    return alone(hostile("scribble", "--name", name, "--folder", str(host), "--at", "start"))


def test_a_contained_bot_writes_only_its_tmp_and_gets_no_privileges(tmp_path: Path, podman: ContainerRunner) -> None:
    name = f"dehla-scribble-{secrets.token_hex(4)}"
    played = play(table_config("c-scribble"), scribble(tmp_path, name), tmp_path / "records", podman)
    assert played.outcome.faults == [] and played.escapes(0) == []
    assert len(outcomes(played, "write")) >= 10
    for attack in ("mknod", "mount", "unshare-user", "setuid-0"):
        assert outcomes(played, attack) == ["contained"], attack
    for folder in (tmp_path / "host", Path("/"), Path("/usr"), Path("/etc"), Path("/root"), Path("/var/tmp"), BOTS):
        assert not (folder / name).exists(), folder
    assert_all_gone(played)


def test_control_podman_gives_a_read_only_container_writable_tmpfs_without_read_only_tmpfs_false(
        tmp_path: Path, base_image: str) -> None:
    name = f"dehla-scribble-{secrets.token_hex(4)}"
    played = play(table_config("c-scribble-control"), scribble(tmp_path, name), tmp_path / "records",
                  WithoutRunner(("--read-only-tmpfs=false",)))
    assert {f["target"] for f in played.escapes(0) if f["attack"] == "write"} == {f"/var/tmp/{name}"}


def test_control_podmans_own_seccomp_profile_lets_a_bot_make_a_user_namespace(tmp_path: Path, base_image: str) -> None:
    name = f"dehla-scribble-{secrets.token_hex(4)}"
    played = play(table_config("c-scribble-seccomp"), scribble(tmp_path, name), tmp_path / "records",
                  WithoutRunner(("--security-opt seccomp=",)))
    assert outcomes(played, "unshare-user") == ["escaped"]


def test_a_disk_filler_fills_only_its_own_small_tmpfs(tmp_path: Path, podman: ContainerRunner) -> None:
    host = tmp_path / "host"
    host.mkdir()
    before = os.statvfs(tmp_path)
    bot = hostile("disk_fill", "--folder", str(host), "--at", "start")
    played = play(table_config("c-disk"), alone(bot), tmp_path / "records", podman)
    assert played.outcome.faults == [] and played.escapes(0) == []
    written = {f["target"]: f["written_mb"] for f in played.findings(0) if f["attack"] == "disk"}
    assert written["/tmp"] <= SMALL.disk_mb and written["/dev/shm"] <= SMALL.disk_mb
    assert written["/run/dehla"] <= 0.0625
    assert written["/bot"] == 0 and written[str(host)] == 0
    after = os.statvfs(tmp_path)
    assert (before.f_bavail - after.f_bavail) * after.f_frsize < 64 * 1024 * 1024


# ----------------------------------------------------------------------- processes
def test_a_fork_bomb_is_contained_by_the_pids_limit(tmp_path: Path, podman: ContainerRunner) -> None:
    played = play(table_config("c-bomb"), alone(hostile("fork_bomb")), tmp_path / "records", podman)
    report = next(f for f in played.findings(0) if f["attack"] == "fork-bomb")
    assert played.outcome.faults == [] and report["outcome"] == "contained"
    assert report["born"] < SMALL.processes
    assert_all_gone(played)
    assert subprocess.run(["true"], check=False).returncode == 0  # the host can still fork


def test_control_without_the_pids_and_nproc_limits_the_fork_bomb_reaches_its_ceiling(tmp_path: Path,
                                                                                     base_image: str) -> None:
    bomb = hostile("fork_bomb", "--ceiling", "64", "--seconds", "5")
    played = play(table_config("c-bomb-control"), alone(bomb), tmp_path / "records",
                  WithoutRunner(("--pids-limit",), {"nproc=": "nproc=4096:4096"}))
    report = next(f for f in played.findings(0) if f["attack"] == "fork-bomb")
    assert report["outcome"] == "escaped" and report["born"] >= 63


def test_a_child_left_running_dies_with_the_container(tmp_path: Path, podman: ContainerRunner) -> None:
    played = play(table_config("c-orphan"), alone(hostile("orphan")), tmp_path / "records", podman)
    assert played.outcome.faults == []
    assert_all_gone(played)


SLEEPER = Program((sys.executable, "-c", "import signal; print('up', flush=True); signal.pause()"))
"""A bot that says it is up, then waits for a signal that never comes (the test reads "up")."""


def spawn(launch: ContainerLaunch) -> subprocess.Popen[str]:
    client = subprocess.Popen(launch.argv, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              start_new_session=True)
    assert client.stdout is not None
    assert client.stdout.readline() == "up\n"  # the container runs
    return client


def running(name: str) -> bool:
    listed = subprocess.run(PODMAN.command("ps", "--quiet", "--filter", f"name=^{name}$"), capture_output=True,
                            text=True, check=True)
    return listed.stdout.strip() != ""


def test_a_container_outlives_its_killed_client_until_finish_removes_it(tmp_path: Path,
                                                                          podman: ContainerRunner) -> None:
    """The referee's SIGKILL reaches only the ``podman run`` client: the container (and every
    process in it) lives on, which is why ``finish`` removes it by name."""
    launch = podman.prepare(SLEEPER, f"unix:{socket_folder()}/s0/bot.sock", Limits())
    assert isinstance(launch, ContainerLaunch)
    uid = launch.uid
    try:
        client = spawn(launch)
        os.killpg(client.pid, signal.SIGKILL)
        client.wait()
        assert running(launch.name) and processes_of(uid) != []  # the control: the kill alone leaves it
    finally:
        asyncio.run(launch.finish())
    assert not running(launch.name) and processes_of(uid) == []


def test_the_sweep_removes_containers_of_dead_referees_only(tmp_path: Path, podman: ContainerRunner) -> None:
    mine = podman.prepare(SLEEPER, f"unix:{socket_folder()}/s0/bot.sock", Limits())
    orphaned = podman.prepare(SLEEPER, f"unix:{socket_folder()}/s1/bot.sock", Limits())
    assert isinstance(mine, ContainerLaunch) and isinstance(orphaned, ContainerLaunch)
    label = next(a for a in orphaned.argv if a.startswith(f"{REFEREE_LABEL}="))
    orphaned.argv = tuple(f"{REFEREE_LABEL}=999999999:0" if a == label else a for a in orphaned.argv)
    clients = []
    try:
        clients = [spawn(mine), spawn(orphaned)]
        assert orphaned.name in sweep(PODMAN)
        assert running(mine.name) and not running(orphaned.name)
    finally:
        for client in clients:
            client.kill()
            client.wait()
        asyncio.run(mine.finish())
        asyncio.run(orphaned.finish())


# ------------------------------------------------------------------------ resources
def memory_hog() -> list[BotCommand | Bot]:
    return alone(hostile("memory_hog", "--ceiling-mb", "384", resources=SMALL.model_copy(update={"memory_mb": 64})))


def test_a_memory_hog_is_killed_at_its_limit_and_recorded_as_a_crash(tmp_path: Path, podman: ContainerRunner,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    referee_folder = tmp_path / "referee"
    referee_folder.mkdir()
    monkeypatch.chdir(referee_folder)
    played = play(table_config("c-memory"), memory_hog(), tmp_path / "records", podman)
    assert played.fault_kinds(0) == [FaultKind.CRASH]
    assert list(referee_folder.iterdir()) == []  # conmon's `oom` marker stays in the runner's folder
    assert played.escapes(0) == []
    # Podman 4.3 on this VM's cgroup v1 never sets State.OOMKilled (checked: false after an OOM
    # kill, and the container's cgroup is gone by then), so the kill shows as the exit code only.
    assert "container exit code 137 (killed by SIGKILL)" in played.log(0)
    assert_all_gone(played)


@functools.cache
def oom_reported() -> bool:
    """Whether this host's podman tells an OOM kill (``State.OOMKilled``) of a probe container."""
    name = f"dehla-oom-probe-{secrets.token_hex(4)}"
    try:
        probe = subprocess.run(PODMAN.command("run", "--name", name, "--memory", "16m", "--memory-swap", "16m",
                                              "--ulimit", "nofile=64:64", "--ulimit", "nproc=16:16",
                                              "--network", "none", BASE_IMAGE,
                                              "python", "-c", "bytearray(256 * 1024 * 1024)"),
                               capture_output=True, timeout=120, check=False, cwd=tempfile.gettempdir())
        assert probe.returncode == 137, f"the probe was not killed: exit {probe.returncode}"
        state = subprocess.run(PODMAN.command("inspect", "--type", "container", "--format", "{{.State.OOMKilled}}",
                                              name), capture_output=True, text=True, check=False).stdout
        return state.strip() == "true"
    finally:
        subprocess.run(PODMAN.command("rm", "--force", name), capture_output=True, check=False)


def test_an_oom_kill_is_reported_as_an_event(tmp_path: Path, podman: ContainerRunner) -> None:
    if not oom_reported():
        pytest.skip("podman here never sets State.OOMKilled after an OOM kill (podman 4.3.1, cgroup v1, cgroupfs: "
                    "a probe container killed at 16m reads false), so the kill is only its exit code 137")
    played = play(table_config("c-memory-event"), memory_hog(), tmp_path / "records", podman)
    assert played.events(0)["oom_kill"] == 1


def test_control_without_the_memory_limit_the_hog_gets_what_it_asks(tmp_path: Path, base_image: str) -> None:
    played = play(table_config("c-memory-control"), memory_hog(), tmp_path / "records",
                  WithoutRunner(("--memory", "--memory-swap")))
    assert outcomes(played, "memory") == ["escaped"]
    assert played.outcome.faults == []


# ------------------------------------------------------------------------ collusion
@pytest.fixture
def collusion_tag() -> str:
    return secrets.token_hex(4)


def colluders(tag: str) -> list[BotCommand | Bot]:
    colluder = hostile("colluder", "--tag", tag)
    return [colluder, RandomBot(1), colluder, RandomBot(3)]


def test_partners_in_containers_cannot_pass_their_hands(tmp_path: Path, podman: ContainerRunner,
                                                        collusion_tag: str) -> None:
    played = play(table_config("c-collude"), colluders(collusion_tag), tmp_path / "records", podman)
    assert played.outcome.status == "done" and played.outcome.faults == []
    for seat in (0, 2):
        assert played.escapes(seat) == []
        channels = {f["channel"] for f in played.findings(seat) if f["outcome"] == "contained"}
        assert {"file:/tmp", "file:/dev/shm", "abstract-socket", "unix-socket", "tcp-localhost", "sysv-shm",
                "process-list", "signals", "flock", "inotify"} <= channels


def test_control_under_podmans_own_seccomp_profile_partners_signal_through_the_images_files(
        tmp_path: Path, base_image: str, collusion_tag: str) -> None:
    """The image's files lie in one lower layer under every container made from it: a file one
    partner opens raises an inotify event in the other's watch, unless the profile refuses
    ``inotify``. (``flock`` does not cross here: each container's overlay has its own inodes.)"""
    played = play(table_config("c-collude-control"), colluders(collusion_tag), tmp_path / "records",
                  WithoutRunner(("--security-opt seccomp=",)))
    for seat in (0, 2):
        assert "inotify" in {f["channel"] for f in played.escapes(seat)}
