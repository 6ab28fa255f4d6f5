"""Running bots: one ``Runner`` interface, chosen by configuration.

- ``local``: a plain subprocess, for an author's own development;
- ``sandbox``: bubblewrap namespaces, a per-seat uid, cgroups and rlimits (the ladder's default);
- ``docker``: the hardened ``docker run`` equivalent for hosts that run containers.

See ``docs/sandbox.md`` for what each contains and what it does not.
"""

from __future__ import annotations

from arena.sandbox.limits import Limits, match_cpu_seconds
from arena.sandbox.runner import (
    LocalRunner,
    Program,
    Runner,
    RunnerKind,
    RunReport,
    SandboxError,
    SandboxUnavailable,
)

__all__ = [
    "Limits",
    "LocalRunner",
    "Program",
    "RunReport",
    "Runner",
    "RunnerKind",
    "SandboxError",
    "SandboxUnavailable",
    "match_cpu_seconds",
    "runner_for",
]


def runner_for(kind: str | RunnerKind) -> Runner:
    """The runner named ``kind`` with its host configuration (``DEHLA_SANDBOX_*``, ``DEHLA_DOCKER_*``)."""
    kind = RunnerKind(kind)
    if kind is RunnerKind.SANDBOX:
        from arena.sandbox.bwrap import SandboxRunner  # noqa: PLC0415 - keeps the local path light

        return SandboxRunner()
    if kind is RunnerKind.DOCKER:
        from arena.sandbox.docker import DockerRunner  # noqa: PLC0415

        return DockerRunner()
    return LocalRunner()
