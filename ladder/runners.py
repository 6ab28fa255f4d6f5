"""Which runner starts submitted bots: ``sandbox`` (the default) or, by explicit choice, ``local``.

The sandbox comes from ``arena.sandbox``. Where it is missing or this host cannot run it, the
ladder refuses to run submitted bots, and says so, unless the operator chooses ``--runner
local`` (plain processes with the operator's own rights: only for bots you trust).
"""

from __future__ import annotations

from typing import Any

from arena.engine.errors import ArenaError

RUNNERS = ("sandbox", "local")
DEFAULT_RUNNER = "sandbox"
RUNNER_ENV = "DEHLA_RUNNER"


class RunnerUnavailable(ArenaError):  # noqa: N818 - reads as a state
    """The chosen runner cannot run here; the message says why and what to do."""


def make_runner(name: str) -> Any | None:
    """The runner object for ``play_local_match`` (None: the referee's default local processes)."""
    if name == "local":
        return None
    if name != "sandbox":
        raise RunnerUnavailable(f"unknown runner {name!r} (choose {' or '.join(RUNNERS)})")
    try:
        from arena.sandbox import runner_for  # noqa: PLC0415 - optional until the sandbox lands
    except ImportError:
        raise RunnerUnavailable(
            "the sandbox runner is not installed (no arena.sandbox); submitted bots would run unconfined: "
            "pass --runner local to run them as plain processes anyway"
        ) from None
    return runner_for("sandbox")


def check_runner(name: str) -> None:
    """Raise ``RunnerUnavailable`` unless ``name`` can start bots on this host."""
    runner = make_runner(name)
    if runner is None:
        return
    try:
        runner.check()
    except Exception as exc:  # SandboxUnavailable and friends: say why, never a traceback
        raise RunnerUnavailable(
            f"the sandbox runner cannot run here ({exc}); pass --runner local to run submitted bots "
            "as plain, unconfined processes"
        ) from None
