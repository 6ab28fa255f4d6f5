"""Which runner starts submitted bots: ``sandbox`` (the default), ``container`` or, by explicit
choice, ``local``.

``container`` runs each stored version in its own image (``ladder.versions.images``), under the engine
``$DEHLA_CONTAINER_ENGINE`` names (podman where installed, else docker). The runners come from
``arena.sandbox``. Where it is missing or this host cannot run it, the
ladder refuses to run submitted bots, and says so, unless the operator chooses ``--runner
local`` (plain processes with the operator's own rights: only for bots you trust).
"""

from __future__ import annotations

import functools
import os
from typing import Any

from arena.engine.errors import ArenaError
from arena.sandbox.runner import RunnerKind

RUNNERS = (RunnerKind.SANDBOX, RunnerKind.CONTAINER, RunnerKind.LOCAL)
"""The runners the ladder starts submitted bots with (``docker`` and ``podman`` are ``container``
under ``$DEHLA_CONTAINER_ENGINE``)."""
DEFAULT_RUNNER = RunnerKind.SANDBOX
"""The one default of every path that starts submitted bots: ``--runner`` of ``dehla ladder run``,
``submit``, ``serve`` and ``worker``, a ladder's ``MatchSettings`` and its jobs."""
RUNNER_ENV = "DEHLA_RUNNER"
WORKER_RUNNER_ENV = "DEHLA_WORKER_RUNNER"
"""Set by ``dehla worker --runner``: the one runner this worker's operator lets jobs use."""


class RunnerUnavailable(ArenaError):  # noqa: N818 - reads as a state
    """The chosen runner cannot run here; the message says why and what to do."""


def ladder_runner(name: str) -> RunnerKind:
    """One of ``RUNNERS`` by its name (a member, or its value as plain data), else ``RunnerUnavailable``."""
    try:
        kind = RunnerKind(name)
    except ValueError:
        kind = None
    if kind is None or kind not in RUNNERS:
        raise RunnerUnavailable(f"unknown runner {str(name)!r} (choose {' or '.join(RUNNERS)})")
    return kind


def make_runner(name: RunnerKind) -> Any | None:
    """The runner object for ``play_local_match`` (None: the referee's default local processes)."""
    kind = ladder_runner(name)
    if kind is RunnerKind.LOCAL:
        return None
    from arena.sandbox import SandboxUnavailable, runner_for  # noqa: PLC0415 - loaded only to start bots
    if kind is RunnerKind.CONTAINER:
        from arena.sandbox.containers import ContainerConfig  # noqa: PLC0415

        try:
            return _container_runner(ContainerConfig.from_env())
        except SandboxUnavailable as exc:
            raise RunnerUnavailable(f"the container runner cannot run here ({exc}); pass --runner local to run "
                                    "submitted bots as plain, unconfined processes") from None
    return runner_for(RunnerKind.SANDBOX)


@functools.cache
def _container_runner(config: Any) -> Any:
    """One container runner per configuration in a process, checked here, before any table: its
    first check asks the engine (``info``, the base image, the sweep) for seconds, which must
    not come out of the first seat's start-up budget, nor block the referee's event loop then."""
    from arena.sandbox.containers import ContainerRunner  # noqa: PLC0415
    from ladder.versions.images import VersionImages  # noqa: PLC0415

    runner = ContainerRunner(config, VersionImages(config))
    runner.check()
    return runner


def check_runner(name: RunnerKind) -> None:
    """Raise ``RunnerUnavailable`` unless ``name`` can start bots on this host."""
    runner = make_runner(name)
    if runner is None:
        return
    try:
        runner.check()
    except Exception as exc:  # SandboxUnavailable and friends: say why, never a traceback
        raise RunnerUnavailable(
            f"the {name} runner cannot run here ({exc}); pass --runner local to run submitted bots "
            "as plain, unconfined processes"
        ) from None


def check_job_runner(requested: RunnerKind) -> None:
    """Refuse a job whose runner this worker's operator did not choose (``dehla worker
    --runner``): a coordinator never makes a sandboxed worker run bots unconfined."""
    allowed = os.environ.get(WORKER_RUNNER_ENV)
    if allowed is not None and requested != allowed:
        raise RunnerUnavailable(f"this worker plays only {allowed} matches (dehla worker --runner {allowed}); "
                                f"the job asked for {str(requested)!r}")
