"""The covert bot (``bots/covert.py``) run standalone in a sandbox, with pipes to its stdin and
its reports; and the sandbox's command line as it was before the ``/proc`` masks and before the
seccomp filter refused the counter calls, for the negative controls
(``tests/sandbox/test_sandbox_covert.py``, ``bench/covert.py``)."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from arena.sandbox import Limits, Program, seccomp
from arena.sandbox.bwrap import SandboxConfig, SandboxLaunch, SandboxRunner
from tests.hostile.harness import BOTS, MARK

LIMITS = Limits(memory_mb=256, processes=96, disk_mb=8, open_files=256, cpu_seconds=120)
"""Room for the load role's 64 threads; one CPU's share, like a bot's default."""


def old_filter(folder: Path) -> Path:
    """The seccomp filter as it was before it refused the calls that read host-wide counters
    (``sysinfo``, ``statfs``; ``setsid``, pidfds: issue 23)."""
    abi = seccomp.host_abi()
    assert abi is not None, "no seccomp filter on this architecture"
    path = folder / "seccomp-old.bpf"
    path.write_bytes(seccomp.build_filter(dataclasses.replace(abi, counters={}, pidfds=None)))
    return path


def unmasked(argv: Sequence[str], folder: Path) -> list[str]:
    """The command line without the binds over ``/proc`` files and with the old seccomp filter
    (written into ``folder``): the sandbox before the masks."""
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


@functools.cache
def runner() -> SandboxRunner:
    """The runner as the referee makes it, ``DEHLA_SANDBOX_*`` included: a private runtime
    folder (and uid range) keeps another referee on the host from swapping in its own filter."""
    return SandboxRunner(SandboxConfig.from_env())


class Sandboxed:
    """One covert bot in its own sandbox (``--standalone``: it does not serve); ``prefix`` goes
    before the command chain (``taskset -c N`` to pin it to a CPU). Its stdout goes to
    ``folder/bot.log``, as the referee writes a bot's log on the host's disk."""

    def __init__(self, folder: Path, *args: str, masked: bool = True, limits: Limits = LIMITS,
                 prefix: Sequence[str] = ()) -> None:
        program = Program((sys.executable, f"{BOTS}/covert.py", *args, "--standalone"), code=str(BOTS))
        folder.mkdir(parents=True, exist_ok=True)
        launch = runner().prepare(program, f"unix:{folder}/bot.sock", limits)
        assert isinstance(launch, SandboxLaunch)
        self.launch = launch
        argv = [*prefix, *(launch.argv if masked else unmasked(launch.argv, folder))]
        self.log = folder / "bot.log"
        with self.log.open("wb") as log:
            self.process = subprocess.Popen(argv, env=launch.env, stdin=subprocess.PIPE, stderr=subprocess.PIPE,
                                            stdout=log, text=True)

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
