"""The sandbox's parts, without running a sandbox: limits, the command lines the runners build,
the host view, cgroup set-up on fake v1 and v2 trees, uid leases and the seccomp filter."""

from __future__ import annotations

import dataclasses
import errno
import os
import shutil
import socket
import struct
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from arena.bots.manifest import Resources
from arena.contract.time_control import TimeControl
from arena.engine.match import MatchFormat
from arena.engine.rules import rules_for
from arena.referee.launcher import BotCommand
from arena.referee.local import match_hands, seat_limits
from arena.referee.table_values import TableConfig
from arena.sandbox import (
    Limits,
    LocalRunner,
    Program,
    RunnerKind,
    RunReport,
    SandboxError,
    cgroups,
    runner_for,
    seccomp,
    sockets,
)
from arena.sandbox.bwrap import (
    INSIDE_CODE,
    SandboxConfig,
    SandboxRunner,
    SeatPlan,
    Tools,
    bot_environment,
    inside_argv,
    sandbox_argv,
)
from arena.sandbox.containers import ContainerConfig, ContainerLaunch, ContainerRunner, Engine, container_argv
from arena.sandbox.host_binds import FORBIDDEN, build_host_binds, package_folders
from arena.sandbox.limits import MIB, match_cpu_seconds
from arena.sandbox.runner import describe_exit, unix_path
from arena.sandbox.uids import UidPool

TOOLS = Tools("/bin/unshare", "/bin/sh", "/bin/mount", "/bin/prlimit", "/bin/setpriv", "/bin/bwrap")
LIMITS = Limits(memory_mb=256, cpus=0.5, processes=20, disk_mb=16, open_files=64, cpu_seconds=90)
CODE = "/srv/bots/alice"
PROGRAM = Program((sys.executable, f"{CODE}/bot.py", "--depth", "3"), (("ALICE_MODE", "fast"),), CODE)


def option(argv: list[str], flag: str) -> str:
    return argv[argv.index(flag) + 1]


def pairs(argv: list[str], flag: str) -> list[tuple[str, str]]:
    return [(argv[i + 1], argv[i + 2]) for i, a in enumerate(argv) if a == flag]


# ----------------------------------------------------------------------- limits
def test_limits_come_from_the_manifest_with_a_cpu_budget() -> None:
    resources = Resources(memory_mb=300, cpus=1.5, processes=10, disk_mb=5, open_files=50)
    limits = resources.limits(cpu_seconds=77)
    assert (limits.memory_bytes, limits.cpus, limits.tasks, limits.disk_bytes, limits.open_files,
            limits.cpu_seconds) == (300 * MIB, 1.5, 12, 5 * MIB, 50, 77)


def test_the_cpu_budget_covers_the_longest_match_at_the_bots_cpu_share() -> None:
    one = match_cpu_seconds(1.0, hands=1, per_move=1.0, bank=10.0, startup=10.0)
    assert one >= 10 + 4 * 14 * 1.0 + 10
    assert match_cpu_seconds(0.5, 1, 1.0, 10.0, 10.0) == pytest.approx(one / 2, abs=1)
    assert match_cpu_seconds(1.0, 40, 1.0, 10.0, 10.0) > 20 * one


def test_seat_limits_are_sized_for_the_match_format() -> None:
    def config(text: str) -> TableConfig:
        return TableConfig("m", rules_for("dehla-pakad"), "dehla-pakad", MatchFormat.parse(text), 1,
                           TimeControl(per_move=0.5, bank=5, startup=5))
    assert match_hands(config("duplicate:10")) == 10  # each room's bots play one play of each deal
    assert match_hands(config("hands:7")) == 7
    assert match_hands(config("kots:3")) == config("kots:3").max_hands
    bot = BotCommand("b", ("x",), resources=Resources(memory_mb=100, cpus=2.0))
    limits = seat_limits(bot, config("duplicate:10"), 0)
    assert limits.memory_mb == 100 and limits.cpus == 2.0
    assert limits.cpu_seconds == match_cpu_seconds(2.0, 10, 0.5 + 0.05, 5, 5)


# ---------------------------------------------------------------------- reports
def test_exit_codes_are_explained() -> None:
    assert describe_exit(0) == "exit code 0"
    assert describe_exit(-9) == "exit code -9 (killed by SIGKILL)"
    assert describe_exit(128 + 24) == "exit code 152 (killed by SIGXCPU)"
    report = RunReport(RunnerKind.SANDBOX, 1234, events={"oom_kill": 1, "pids_max": 0}, notes=["no cpu cgroup"])
    assert report.summary(137) == ("runner sandbox; uid 1234; exit code 137 (killed by SIGKILL); oom_kill 1; "
                                   "no cpu cgroup")


def test_runners_are_chosen_by_name() -> None:
    assert isinstance(runner_for("local"), LocalRunner)
    assert isinstance(runner_for("sandbox"), SandboxRunner)
    for kind, engine in ((RunnerKind.DOCKER, Engine.DOCKER), (RunnerKind.PODMAN, Engine.PODMAN)):
        container = runner_for(kind)
        assert isinstance(container, ContainerRunner) and container.config.engine is engine
    with pytest.raises(ValueError):
        runner_for("chroot")


def test_sandboxed_runners_serve_only_on_absolute_unix_paths() -> None:
    assert unix_path("unix:/run/x/bot.sock") == "/run/x/bot.sock"
    for address in ("127.0.0.1:5000", "unix:relative.sock"):
        with pytest.raises(SandboxError):
            unix_path(address)


def test_the_local_runner_passes_the_referees_environment_and_the_address(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REFEREE_ONLY", "1")
    launch = LocalRunner().prepare(PROGRAM, "unix:/tmp/s/bot.sock", LIMITS)
    assert launch.argv[-len(PROGRAM.argv):] == PROGRAM.argv and launch.cwd == CODE
    if shutil.which("setpriv"):  # the bot dies with the process that started it
        assert launch.argv[:4] == (shutil.which("setpriv"), "--pdeathsig", "KILL", "--")
    assert launch.env["REFEREE_ONLY"] == "1" and launch.env["ALICE_MODE"] == "fast"
    assert launch.env["DEHLA_BOT_ADDRESS"] == "unix:/tmp/s/bot.sock"


# ----------------------------------------------------------------- sandbox argv
def test_the_bot_sees_its_code_at_bot_and_none_of_the_referees_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_PASSWORD", "hunter2")
    env = bot_environment(PROGRAM)
    assert "DATABASE_PASSWORD" not in env
    assert env["DEHLA_BOT_ADDRESS"] == "unix:/run/dehla/bot.sock" and env["ALICE_MODE"] == "fast"
    assert inside_argv(PROGRAM) == [sys.executable, "/bot/bot.py", "--depth", "3"]


def test_the_sandbox_chain_joins_cgroups_drops_to_the_seat_uid_and_isolates() -> None:
    plan = SeatPlan(1_900_000_007, "/run/dehla-sandbox/stage", ("/cg/memory/s/cgroup.procs", "/cg/pids/s/cgroup.procs"),
                    seccomp="/run/dehla-sandbox/seccomp.bpf")
    view = build_host_binds()
    argv = sandbox_argv(TOOLS, PROGRAM, LIMITS, plan, view)
    steps = [argv.index(tool) for tool in ("/bin/unshare", "/bin/sh", "/bin/prlimit", "/bin/setpriv", "/bin/bwrap")]
    assert steps == sorted(steps)
    script_args = argv[argv.index("/bin/sh") + 4:argv.index("/bin/prlimit")]
    assert script_args[:3] == ["2", "/cg/memory/s/cgroup.procs", "/cg/pids/s/cgroup.procs"]
    assert script_args[3:5] == ["/run/dehla-sandbox/stage", "1900000007"]
    setpriv = argv[argv.index("/bin/setpriv"):argv.index("/bin/bwrap")]
    for flag in ("--reuid=1900000007", "--regid=1900000007", "--clear-groups", "--inh-caps=-all",
                 "--bounding-set=-all", "--no-new-privs"):
        assert flag in setpriv
    prlimit = argv[argv.index("/bin/prlimit"):argv.index("/bin/setpriv")]
    assert "--nofile=64:64" in prlimit and f"--fsize={16 * MIB}:{16 * MIB}" in prlimit
    assert "--cpu=90:91" in prlimit and "--core=0:0" in prlimit
    assert not [a for a in prlimit if a.startswith("--as=")]  # the memory cgroup limits memory
    bwrap = argv[argv.index("/bin/bwrap"):]
    for flag in ("--unshare-all", "--unshare-user", "--disable-userns", "--die-with-parent", "--new-session",
                 "--clearenv"):
        assert flag in bwrap
    assert option(bwrap, "--cap-drop") == "ALL" and option(bwrap, "--seccomp") == "9"
    assert "--share-net" not in bwrap
    tmpfs = [(bwrap[i - 3], bwrap[i + 1]) for i, a in enumerate(bwrap) if a == "--tmpfs"]
    assert tmpfs == [(str(16 * MIB), "/tmp"), (str(16 * MIB), "/dev/shm")]
    ro = pairs(bwrap, "--ro-bind")
    assert all(source.startswith("/run/dehla-sandbox/stage/") for source, _ in ro)
    dests = [dest for _, dest in ro]
    assert INSIDE_CODE in dests and "/usr" in dests and sys.base_prefix in dests
    assert not set(dests) & set(FORBIDDEN)
    assert pairs(bwrap, "--bind") == [("/run/dehla-sandbox/stage/sock", "/run/dehla")]
    end = bwrap.index("--")
    assert bwrap[end - 4:end] == ["--remount-ro", "/", "--chdir", "/bot"]
    assert bwrap[end + 1:] == inside_argv(PROGRAM)


def test_without_cgroups_the_rlimits_stand_alone() -> None:
    plan = SeatPlan(4242, "/stage", memory_cgroup=False, pids_cgroup=False)
    argv = sandbox_argv(TOOLS, Program(("/usr/bin/true",)), LIMITS, plan, build_host_binds())
    prlimit = argv[argv.index("/bin/prlimit"):argv.index("/bin/setpriv")]
    assert f"--nproc={LIMITS.tasks}:{LIMITS.tasks}" in prlimit
    assert [a for a in prlimit if a.startswith("--as=")]
    assert "--seccomp" not in argv
    assert option(argv[argv.index("/bin/bwrap"):], "--chdir") == "/tmp"


def test_the_host_view_shows_python_and_the_arena_but_nothing_private() -> None:
    view = build_host_binds(extra=["/root", "/etc"])
    dests = [b.dest for b in view.binds]
    assert not set(dests) & set(FORBIDDEN)
    assert view.shows(sys.executable) and view.shows(os.path.realpath(sys.executable))
    for folder in package_folders():
        assert view.shows(folder)
    repo = Path(__file__).resolve().parents[2]
    assert not view.shows(str(repo)) and not view.shows(str(repo / "tests"))
    assert not view.shows("/home") and not view.shows("/root/.ssh")


def test_sandbox_settings_come_from_the_environment() -> None:
    config = SandboxConfig.from_env({"DEHLA_SANDBOX_UIDS": "500000:64", "DEHLA_SANDBOX_CGROUP": "/dehla.slice",
                                     "DEHLA_SANDBOX_EXTRA_RO": "/srv/models:/srv/books"})
    assert (config.first_uid, config.uid_count, config.cgroup) == (500000, 64, "/dehla.slice")
    assert config.extra_ro == ("/srv/models", "/srv/books")
    with pytest.raises(SandboxError):
        SandboxConfig.from_env({"DEHLA_SANDBOX_UIDS": "lots"})


# ---------------------------------------------------------------------- cgroups
V1_MOUNTINFO = """\
32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
"""
V1_SELF = "8:pids:/\n4:memory:/jobs/ref\n1:cpu:/\n0::/\n"
V2_MOUNTINFO = "29 23 0:26 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate\n"


def fake_tree(root: Path, folders: list[str]) -> None:
    for folder in folders:
        (root / folder).mkdir(parents=True)


def test_cgroup_mounts_and_membership_are_parsed() -> None:
    container = "50 23 0:40 /docker/abc /sys/fs/cgroup/x rw - cgroup cgroup rw,memory\n"
    mounts = cgroups.parse_mounts(V1_MOUNTINFO + container)
    assert [(m.version, str(m.mountpoint), sorted(m.controllers)) for m in mounts[:4]] == [
        (1, "/sys/fs/cgroup/cpu", ["cpu"]), (1, "/sys/fs/cgroup/memory", ["memory"]),
        (1, "/sys/fs/cgroup/pids", ["pids"]), (2, "/sys/fs/cgroup/unified", [])]
    assert mounts[4].root == "/docker/abc"
    assert cgroups.parse_membership(V1_SELF) == {"pids": "/", "memory": "/jobs/ref", "cpu": "/", "": "/"}


def test_cgroup_v1_seat_groups_get_the_limits(tmp_path: Path) -> None:
    fake_tree(tmp_path, ["sys/fs/cgroup/cpu", "sys/fs/cgroup/memory/jobs/ref", "sys/fs/cgroup/pids",
                         "sys/fs/cgroup/unified"])
    host = cgroups.detect(mountinfo=V1_MOUNTINFO, self_cgroup=V1_SELF, pid=77, prefix=tmp_path)
    assert host.controllers == {"memory", "pids", "cpu"} and host.missing == {}
    seat = host.create("seat-1", LIMITS)
    memory = tmp_path / "sys/fs/cgroup/memory/jobs/ref/dehla-sandbox-77/seat-1"
    assert (memory / "memory.limit_in_bytes").read_text() == str(256 * MIB)
    assert (tmp_path / "sys/fs/cgroup/pids/dehla-sandbox-77/seat-1/pids.max").read_text() == "22"
    assert (tmp_path / "sys/fs/cgroup/cpu/dehla-sandbox-77/seat-1/cpu.cfs_quota_us").read_text() == "50000"
    assert memory / "cgroup.procs" in seat.procs_files
    (memory / "memory.oom_control").write_text("oom_kill_disable 0\nunder_oom 0\noom_kill 2\n")
    (memory / "memory.failcnt").write_text("5\n")
    (tmp_path / "sys/fs/cgroup/pids/dehla-sandbox-77/seat-1/pids.events").write_text("max 3\n")
    events = seat.events()
    assert (events["oom_kill"], events["memory_max"], events["pids_max"]) == (2, 5, 3)
    cpu_parent = tmp_path / "sys/fs/cgroup/cpu/dehla-sandbox-77"
    other = host.create("seat-2", LIMITS)
    assert (cpu_parent / "cpu.shares").read_text() == "2048"  # a process's weight per live seat
    for group in (seat, other):
        for _, folder in group.groups:
            for child in folder.iterdir():
                child.unlink()
        group.remove()
    assert (cpu_parent / "cpu.shares").read_text() == "1024" and host.active == 0


def test_cgroup_v2_enables_the_controllers_and_writes_the_limits(tmp_path: Path) -> None:
    base = tmp_path / "sys/fs/cgroup/dehla.slice"
    base.mkdir(parents=True)
    (base / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (base / "cgroup.subtree_control").write_text("")
    host = cgroups.detect("/dehla.slice", mountinfo=V2_MOUNTINFO, self_cgroup="0::/user.slice/x\n", pid=5,
                          prefix=tmp_path)
    assert host.controllers == {"memory", "pids", "cpu"}
    assert (base / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"
    host.create("seat-9", LIMITS)
    parent = base / "dehla-sandbox-5"
    assert (parent / "cgroup.subtree_control").read_text() == "+cpu +memory +pids"
    seat = parent / "seat-9"
    assert (seat / "memory.max").read_text() == str(256 * MIB)
    assert (seat / "pids.max").read_text() == "22"
    assert (seat / "cpu.max").read_text() == "50000 100000"


def test_missing_controllers_are_reported_with_the_reason(tmp_path: Path) -> None:
    fake_tree(tmp_path, ["sys/fs/cgroup"])
    (tmp_path / "sys/fs/cgroup/cgroup.controllers").write_text("cpu io\n")
    host = cgroups.detect("/", mountinfo=V2_MOUNTINFO, self_cgroup="0::/\n", pid=5, prefix=tmp_path)
    assert host.controllers == {"cpu"}
    assert set(host.missing) == {"memory", "pids"}
    assert all("does not offer" in why for why in host.missing.values())
    off = cgroups.detect("off")
    assert off.hierarchies == [] and set(off.missing) == {"memory", "pids", "cpu"}


# ------------------------------------------------------------------------- uids
def test_uid_leases_are_unique_across_pools_until_released(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.sandbox.uids.uids_in_use", lambda: {700_001})
    first, second = UidPool(700_000, 4, tmp_path), UidPool(700_000, 4, tmp_path)
    a, b = first.lease(), second.lease()
    c = first.lease()
    assert len({a.uid, b.uid, c.uid}) == 3 and 700_001 not in {a.uid, b.uid, c.uid}
    with pytest.raises(SandboxError, match="no free sandbox uid"):
        second.lease()
    b.release()
    assert second.lease().uid == b.uid
    with pytest.raises(SandboxError):
        UidPool(0, 10, tmp_path)


# ---------------------------------------------------------------------- seccomp
def run_filter(program: bytes, nr: int, arch: int, arg1: int = 0, arg0: int = 0, arg2: int = 0) -> int:
    """A tiny classic-BPF interpreter for the five instructions the filter uses."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, arg0, arg1, arg2, 0, 0, 0)
    code = [struct.unpack("=HBBI", program[i:i + 8]) for i in range(0, len(program), 8)]
    pc, accumulator = 0, 0
    while True:
        op, jt, jf, k = code[pc]
        if op == seccomp.LD_W_ABS:
            (accumulator,) = struct.unpack_from("=I", data, k)
        elif op == seccomp.RET_K:
            return int(k)
        elif op in (seccomp.JEQ_K, seccomp.JGE_K, seccomp.JSET_K):
            taken = {seccomp.JEQ_K: accumulator == k, seccomp.JGE_K: accumulator >= k,
                     seccomp.JSET_K: bool(accumulator & k)}[op]
            pc += jt if taken else jf
        pc += 1


@pytest.mark.parametrize("name", sorted(seccomp.ABIS))
def test_the_seccomp_filter_refuses_locks_and_notifications_only(name: str) -> None:
    abi = seccomp.ABIS[name]
    program = seccomp.build_filter(abi)
    deny = seccomp.RET_ERRNO | errno.EPERM
    for number in abi.denied.values():
        assert run_filter(program, number, abi.audit_arch) == deny
    for command in seccomp.FCNTL_LOCKS.values():
        assert run_filter(program, abi.fcntl, abi.audit_arch, command) == deny
    for command in (0, 1, 2, 3, 4, 1030):  # F_DUPFD, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_DUPFD_CLOEXEC
        assert run_filter(program, abi.fcntl, abi.audit_arch, command) == seccomp.RET_ALLOW
    for number in (0, 1, 3, 57, 59, 231):
        if number not in abi.denied.values() and number != abi.fcntl:
            assert run_filter(program, number, abi.audit_arch) == seccomp.RET_ALLOW
    assert run_filter(program, 0, 0x40000003) == deny  # another ABI (i386 int 0x80)
    if abi.x32_bit:
        assert run_filter(program, seccomp.X32_BIT | 73, abi.audit_arch) == deny


@pytest.mark.parametrize("name", sorted(seccomp.ABIS))
def test_the_seccomp_filter_refuses_new_sessions_and_pidfds_only(name: str) -> None:
    """setsid numbers an autogroup, a pidfd's inode the host's pids: both host-wide counters."""
    abi = seccomp.ABIS[name]
    assert abi.pidfds is not None
    program = seccomp.build_filter(abi)
    deny = seccomp.RET_ERRNO | errno.EPERM
    for call in ("setsid", "pidfd_open", "open_by_handle_at"):
        assert run_filter(program, abi.counters[call], abi.audit_arch) == deny
    assert run_filter(program, abi.pidfds.clone3, abi.audit_arch) == seccomp.RET_ERRNO | errno.ENOSYS
    assert run_filter(program, abi.pidfds.clone, abi.audit_arch, arg0=0x11 | seccomp.CLONE_PIDFD) == deny
    assert run_filter(program, abi.pidfds.clone, abi.audit_arch, arg0=0x3D0F00) == seccomp.RET_ALLOW  # a thread
    assert run_filter(program, abi.pidfds.getsockopt, abi.audit_arch, arg2=seccomp.SO_PEERPIDFD) == deny
    assert run_filter(program, abi.pidfds.setsockopt, abi.audit_arch, arg2=seccomp.SO_PASSPIDFD) == deny
    for option in (3, 7, 17):  # SO_TYPE, SO_SNDBUF, SO_PEERCRED
        for call in (abi.pidfds.getsockopt, abi.pidfds.setsockopt):
            assert run_filter(program, call, abi.audit_arch, arg2=option) == seccomp.RET_ALLOW
    old = seccomp.build_filter(dataclasses.replace(abi, counters={}, pidfds=None))
    assert run_filter(old, abi.counters["setsid"], abi.audit_arch) == seccomp.RET_ALLOW


# ----------------------------------------------------------------------- docker
def test_the_docker_command_is_hardened(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_PASSWORD", "hunter2")
    argv = container_argv(ContainerConfig(Engine.DOCKER, image="bots:1"), PROGRAM, LIMITS, 1_900_000_003,
                          "dehla-bot-x", "/run/seats/s0")
    assert argv[:3] == ["docker", "run", "--pull=never"]
    assert option(argv, "--network") == "none" and "--read-only" in argv and "--init" in argv
    assert option(argv, "--cap-drop") == "ALL" and option(argv, "--security-opt") == "no-new-privileges"
    assert option(argv, "--user") == "1900000003:1900000003"
    assert option(argv, "--pids-limit") == "22"
    assert option(argv, "--memory") == option(argv, "--memory-swap") == "256m"
    assert option(argv, "--cpus") == "0.5" and option(argv, "--log-driver") == "none"
    ulimits = [argv[i + 1] for i, a in enumerate(argv) if a == "--ulimit"]
    assert {"nofile=64:64", "nproc=22:22", f"fsize={16 * MIB}:{16 * MIB}", "cpu=90:91", "core=0:0"} == set(ulimits)
    assert option(argv, "--tmpfs") == "/tmp:rw,nosuid,nodev,size=16m,mode=1777" and option(argv, "--shm-size") == "16m"
    mounts = [argv[i + 1] for i, a in enumerate(argv) if a == "--mount"]
    assert mounts == ["type=bind,source=/run/seats/s0,target=/run/dehla",
                      f"type=bind,source={os.path.realpath(CODE)},target=/bot,readonly"]
    envs = [argv[i + 1] for i, a in enumerate(argv) if a == "--env"]
    assert "DEHLA_BOT_ADDRESS=unix:/run/dehla/bot.sock" in envs and "ALICE_MODE=fast" in envs
    assert not [e for e in envs if "hunter2" in e]
    assert argv[argv.index("bots:1"):] == ["bots:1", "/bot/bot.py", "--depth", "3"]
    assert option(argv, "--entrypoint") == "python"  # the command, never the image's ENTRYPOINT


# ------------------------------------------------------------------ the bot's socket
SEAT_UID = 1_900_200_000


@pytest.fixture
def seat_folder(tmp_path: Path) -> Iterator[tuple[Path, int]]:
    """A seat's socket folder (as the seat uid would own it) and an O_PATH descriptor of it."""
    folder = tmp_path / "seat"
    folder.mkdir()
    root = os.open("/", sockets.DIRECTORY_FLAGS)
    fd = sockets.walk(root, str(folder))
    os.close(root)
    try:
        yield folder, fd
    finally:
        os.close(fd)


def bind_socket(path: Path, uid: int | None = None) -> socket.socket:
    server = socket.socket(socket.AF_UNIX)
    server.bind(str(path))
    server.listen(1)
    if uid is not None:
        os.chown(path, uid, uid)
    return server


def test_the_bound_socket_is_held_and_dialled_through_its_descriptor(seat_folder: tuple[Path, int]) -> None:
    folder, fd = seat_folder
    assert sockets.open_bound_socket(fd, "bot.sock", os.getuid()) is None  # not bound yet
    with bind_socket(folder / "bot.sock") as server:
        held = sockets.open_bound_socket(fd, "bot.sock", os.getuid())
        assert held is not None
        try:
            (folder / "bot.sock").rename(folder / "elsewhere")  # whatever the bot renames later
            (folder / "bot.sock").symlink_to("/nowhere")
            with socket.socket(socket.AF_UNIX) as client:
                client.connect(sockets.fd_address(held).removeprefix("unix:"))
                server.accept()[0].close()
        finally:
            os.close(held)


@pytest.mark.parametrize("make, problem", [
    (lambda f: (f / "bot.sock").symlink_to(f / "real.sock"), "is a symbolic link"),
    (lambda f: (f / "bot.sock").write_text("x"), "is a regular file"),
    (lambda f: (f / "bot.sock").mkdir(), "is a folder"),
    (lambda f: os.mkfifo(f / "bot.sock"), "is a named pipe"),
])
def test_anything_but_a_socket_at_the_name_is_refused(seat_folder: tuple[Path, int], make: Any, problem: str) -> None:
    folder, fd = seat_folder
    with bind_socket(folder / "real.sock"):
        make(folder)
        with pytest.raises(sockets.UntrustedSocket, match=f"^bot.sock in the bot's socket folder {problem}, not a"):
            sockets.open_bound_socket(fd, "bot.sock", os.getuid())


@pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")
def test_a_socket_of_another_uid_is_refused(seat_folder: tuple[Path, int]) -> None:
    folder, fd = seat_folder
    refused = f"owned by uid {SEAT_UID + 1}, not the seat's uid {SEAT_UID}"
    with bind_socket(folder / "bot.sock", uid=SEAT_UID + 1), pytest.raises(sockets.UntrustedSocket, match=refused):
        sockets.open_bound_socket(fd, "bot.sock", SEAT_UID)


def test_the_walk_follows_no_link(tmp_path: Path) -> None:
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    root = os.open("/", sockets.DIRECTORY_FLAGS)
    try:
        os.close(sockets.walk(root, str(tmp_path / "real")))
        with pytest.raises(OSError) as caught:
            sockets.walk(root, str(tmp_path / "link"))
        assert caught.value.errno in (errno.ELOOP, errno.ENOTDIR)
        with pytest.raises(ValueError):
            sockets.walk(root, str(tmp_path / "real" / ".."))
    finally:
        os.close(root)


@pytest.mark.skipif(os.geteuid() != 0, reason="chown needs root")
def test_the_docker_runner_dials_only_the_socket_its_bot_bound(tmp_path: Path) -> None:
    lease = UidPool(SEAT_UID, 1, tmp_path / "uids").lease()
    launch = ContainerLaunch(["docker"], RunReport(RunnerKind.CONTAINER), ContainerConfig(), lease, "n",
                             str(tmp_path), False, str(tmp_path))
    try:
        assert launch.dial_address("unix:ignored") is None
        with bind_socket(tmp_path / "bot.sock", uid=lease.uid):
            address = launch.dial_address("unix:ignored")
            assert address is not None and address.startswith("unix:/proc/self/fd/")
        launch.abandon()
        (tmp_path / "bot.sock").unlink()
        (tmp_path / "bot.sock").symlink_to("/run/docker.sock")
        launch = ContainerLaunch(["docker"], RunReport(RunnerKind.CONTAINER), ContainerConfig(),
                              UidPool(SEAT_UID, 1, tmp_path / "uids").lease(), "n", str(tmp_path), False,
                                  str(tmp_path))
        with pytest.raises(sockets.UntrustedSocket, match="is a symbolic link"):
            launch.dial_address("unix:ignored")
    finally:
        launch.abandon()
