"""The covert bot (``bots/covert.py``) run standalone in a sandbox or a podman container, with
pipes to its stdin and its reports; the reader/loader exchange both runners' tests share; and
each runner's command line as it was before the ``/proc`` masks and before seccomp refused the
counter calls, for the negative controls (``tests/sandbox/test_sandbox_covert.py``,
``tests/containers/test_container_covert.py``, ``bench/covert.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from arena.sandbox import Limits, Program, seccomp
from arena.sandbox.bwrap import SandboxConfig, SandboxLaunch, SandboxRunner
from arena.sandbox.containers import ContainerConfig, ContainerLaunch, ContainerRunner, Engine, seccomp_profile
from arena.sandbox.runner import Launch
from tests.hostile.harness import BOTS, MARK

LIMITS = Limits(memory_mb=256, processes=96, disk_mb=8, open_files=256, cpu_seconds=120)
"""Room for the load role's 64 threads; one CPU's share, like a bot's default."""
LOAD = {"threads": 64, "pipes": 8192, "sessions": 64, "log_bytes": 1024 * 4096}
"""What the load role says it holds (``bots/covert.py``)."""


def old_abi() -> seccomp.Abi:
    """The host's ABI as the filters saw it before they refused the calls that read host-wide
    counters (``sysinfo``, ``statfs``; ``setsid``, pidfds: issue 23)."""
    abi = seccomp.host_abi()
    assert abi is not None, "no seccomp filter on this architecture"
    return dataclasses.replace(abi, counters={}, pidfds=None)


def old_filter(folder: Path) -> Path:
    """The sandbox's seccomp filter before it refused the counter calls."""
    path = folder / "seccomp-old.bpf"
    path.write_bytes(seccomp.build_filter(old_abi()))
    return path


def unmasked(argv: Sequence[str], folder: Path) -> list[str]:
    """The sandbox's command line without the binds over ``/proc`` files and with the old seccomp
    filter (written into ``folder``): the sandbox before the masks."""
    out: list[str] = []
    index = 0
    while index < len(argv):
        if argv[index] == "--ro-bind" and argv[index + 2].startswith("/proc/"):
            index += 3
            continue
        out.append(argv[index])
        index += 1
    filters = [index for index, arg in enumerate(out) if arg.startswith("/") and arg.endswith(".bpf")]
    assert len(filters) == 1, "the start-up script takes the seccomp filter's path once"
    out[filters[0]] = str(old_filter(folder))
    return out


def unmasked_container(argv: Sequence[str], folder: Path, base: str) -> list[str]:
    """Podman's command line as before issue 23: no binds over ``/proc`` files, no ``mask``,
    and the profile narrowed from podman's ``base`` without the host-counter calls of issue 23
    (``setsid``, pidfds); ``sysinfo`` was refused already, and stays so."""
    out: list[str] = []
    index = 0
    while index < len(argv):
        arg, value = argv[index], argv[index + 1] if index + 1 < len(argv) else ""
        if (arg == "--mount" and ",target=/proc/" in value) or (arg == "--security-opt" and value.startswith("mask=")):
            index += 2
            continue
        if arg == "--security-opt" and value.startswith("seccomp="):
            with open(base, encoding="utf-8") as handle:
                default = json.load(handle)
            abi = seccomp.host_abi()
            assert abi is not None
            before = dataclasses.replace(abi, counters={k: v for k, v in abi.counters.items()
                                                        if k not in ("setsid", "pidfd_open")}, pidfds=None)
            profile = folder / "container-seccomp-old.json"
            profile.write_text(json.dumps(seccomp_profile(default, before)))
            out += [arg, f"seccomp={profile}"]
            index += 2
            continue
        out.append(arg)
        index += 1
    return out


@functools.cache
def runner() -> SandboxRunner:
    """The runner as the referee makes it, ``DEHLA_SANDBOX_*`` included: a private runtime
    folder (and uid range) keeps another referee on the host from swapping in its own filter."""
    return SandboxRunner(SandboxConfig.from_env())


@functools.cache
def podman() -> ContainerRunner:
    runner = ContainerRunner(ContainerConfig(Engine.PODMAN))
    runner.check()
    return runner


def covert_program(args: Sequence[str]) -> Program:
    return Program((sys.executable, f"{BOTS}/covert.py", *args, "--standalone"), code=str(BOTS))


class CovertBot:
    """One covert bot (``--standalone``: it does not serve) started from ``argv``; its stdout goes
    to ``log``, as the referee writes a bot's log on the host's disk."""

    def __init__(self, launch: Launch, argv: Sequence[str], log: Path) -> None:
        self.launch = launch
        self.log = log
        with log.open("wb") as handle:
            self.process = subprocess.Popen(argv, env=launch.env, stdin=subprocess.PIPE, stderr=subprocess.PIPE,
                                            stdout=handle, text=True)

    def next_report(self, attack: str) -> dict[str, Any]:
        """Block on the pipe until the bot's next report of ``attack``."""
        assert self.process.stderr is not None
        for line in self.process.stderr:
            if MARK in line:
                found: dict[str, Any] = json.loads(line[line.index(MARK) + len(MARK):])
                if found["attack"] == attack:
                    return found
        raise AssertionError(f"the covert bot ended without a {attack} report (exit {self.process.wait()})")

    def go(self) -> None:
        """One line on its stdin: the next step."""
        assert self.process.stdin is not None
        self.process.stdin.write("go\n")
        self.process.stdin.flush()

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        for pipe in (self.process.stdin, self.process.stderr):
            if pipe is not None:
                pipe.close()
        asyncio.run(self.launch.finish())


class Sandboxed(CovertBot):
    """The covert bot in a sandbox; ``prefix`` goes before the command chain (``taskset -c N``)."""

    def __init__(self, folder: Path, *args: str, masked: bool = True, limits: Limits = LIMITS,
                 prefix: Sequence[str] = ()) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        launch = runner().prepare(covert_program(args), f"unix:{folder}/bot.sock", limits)
        assert isinstance(launch, SandboxLaunch)
        argv = [*prefix, *(launch.argv if masked else unmasked(launch.argv, folder))]
        super().__init__(launch, argv, folder / "bot.log")


class Contained(CovertBot):
    """The covert bot in a podman container (``-i``: its stdin is the test's pipe); ``folder``
    must be short (the seat's socket path is limited to 107 bytes)."""

    def __init__(self, folder: Path, *args: str, masked: bool = True, limits: Limits = LIMITS,
                 prefix: Sequence[str] = ()) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        launch = podman().prepare(covert_program(args), f"unix:{folder}/seat/bot.sock", limits)
        assert isinstance(launch, ContainerLaunch)
        base = podman().config.seccomp_base
        argv = list(launch.argv if masked else unmasked_container(launch.argv, folder, base))
        argv.insert(argv.index("run") + 1, "-i")
        super().__init__(launch, [*prefix, *argv], folder / "bot.log")


Start = Callable[..., CovertBot]
"""``Sandboxed`` or ``Contained``."""


@dataclass(frozen=True, slots=True)
class Readings:
    before: dict[str, Any]
    after: dict[str, Any]
    unmask: list[dict[str, Any]]
    log: Path
    """The loader's log, which the runner writes on the host's disk."""

    def change(self, name: str) -> int:
        return int(self.after["values"][name]) - int(self.before["values"][name])


def read_around_load(folder: Path, masked: bool, start: Start = Sandboxed) -> Readings:
    """The reader's reports before and after the loader's load, and its unmask reports. No
    sleeps: each step waits on the other's pipe."""
    reader = start(folder / "read", "--role", "read", masked=masked)
    loader: CovertBot | None = None
    try:
        before = reader.next_report("covert-read")
        loader = start(folder / "load", "--role", "load", masked=masked)
        load = loader.next_report("covert-load")
        assert {key: load[key] for key in LOAD} == LOAD
        reader.go()
        after = reader.next_report("covert-read")
        unmask = [reader.next_report("unmask") for _ in range(3)]
        loader.go()
        assert loader.process.wait(timeout=60) == 0
        return Readings(before, after, unmask, loader.log)
    finally:
        reader.close()
        if loader is not None:
            loader.close()
