"""Running bots: one ``Runner`` interface, chosen by configuration.

- ``local``: a plain subprocess, for an author's own development;
- ``sandbox``: bubblewrap namespaces, a per-seat uid, cgroups and rlimits (the ladder's default);
- ``container`` (engine by configuration), ``docker``, ``podman``: hardened containers.

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
    """The runner named ``kind`` with its host configuration (``DEHLA_SANDBOX_*``, ``DEHLA_CONTAINER_*``)."""
    kind = RunnerKind(kind)
    if kind is RunnerKind.SANDBOX:
        from arena.sandbox.bwrap import SandboxRunner  # noqa: PLC0415 - keeps the local path light

        return SandboxRunner()
    if kind in (RunnerKind.CONTAINER, RunnerKind.DOCKER, RunnerKind.PODMAN):
        from arena.sandbox.containers import ContainerConfig, ContainerRunner, Engine  # noqa: PLC0415

        engine = None if kind is RunnerKind.CONTAINER else Engine(kind.value)
        return ContainerRunner(ContainerConfig.from_env(engine=engine))
    return LocalRunner()
