"""``dehla worker tcp://SCHEDULER:8786``: a Dask worker that plays ladder matches.

One process, ``--slots`` threads, as many ``match`` resources (``ladder/execution/cluster.py``): each
slot plays one match at a time. The bots of a match are started from the slot's thread, with
a parent-death signal (``setpriv --pdeathsig`` for the local runner, bubblewrap's
``--die-with-parent``): the kernel ties that signal to the thread that started them, which
lives until the match ends, so they die with the worker however it dies (``kill -9``
included) and never outlive their match. SIGTERM or Ctrl-C closes the worker at once (the scheduler
gives its matches to other workers; the bots die as the process ends).

The worker finds the store from its own environment or ``--data`` (``DEHLA_DATA``,
``DEHLA_DATABASE_URL``), never from a job. Its runner is its operator's choice (``--runner``,
the sandbox by default), checked before it joins; a job asking for another is refused.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

import click

from arena.console.data import DATA_ENV
from arena.console.errors import fail
from arena.console.options import EnumChoice
from arena.sandbox.runner import RunnerKind
from ladder.execution.cluster import MATCH_RESOURCE, ClusterError, ClusterSpec, connect_seconds, quiet_dask
from ladder.execution.runners import DEFAULT_RUNNER, RUNNERS, WORKER_RUNNER_ENV, RunnerUnavailable, check_runner

MAX_SLOTS = 256
STOP_FLUSH_SECONDS = 2.0
"""How long a stopping worker tries to send the scheduler its last messages."""
STOP_SECONDS = 5.0
"""How long a stopping worker's close may take before the process ends outright."""


@click.command("worker")
@click.argument("scheduler", metavar="tcp://HOST:PORT")
@click.option("--slots", type=click.IntRange(min=1, max=MAX_SLOTS), default=1, show_default=True,
              help="Matches this worker plays at once (one thread each).")
@click.option("--name", default=None, help="The worker's name on the scheduler (default: its address).")
@click.option("--host", default=None, help="The address the worker listens on (default: Dask's choice).")
@click.option("--port", type=click.IntRange(min=0, max=65535), default=0, show_default=True,
              help="The port the worker listens on (0: any free one).")
@click.option("--contact", "contact", default=None, metavar="tcp://HOST:PORT",
              help="The address others reach this worker at, when not the one it listens on (NAT, containers).")
@click.option("--runner", type=EnumChoice(RUNNERS), default=DEFAULT_RUNNER.value, show_default=True,
              help="The only runner this worker starts bots with, checked before it joins; a job asking for "
                   "another fails (a coordinator cannot make it run bots unconfined).")
@click.option("--data", "data", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="The arena's data folder (default: $DEHLA_DATA or ~/.local/share/dehla-arena).")
def worker_command(scheduler: str, slots: int, name: str | None, host: str | None, port: int, contact: str | None,
                   runner: RunnerKind, data: Path | None) -> None:
    """Play ladder matches for the Dask scheduler at SCHEDULER (`dehla ladder run --cluster SCHEDULER`)."""
    try:
        spec = ClusterSpec.parse(scheduler)
    except ClusterError as exc:
        fail(str(exc).replace("--cluster", "SCHEDULER", 1))
    if spec.address is None:
        fail(f"SCHEDULER {scheduler!r}: a worker joins a running scheduler, tcp://HOST:PORT "
             "(local:N is for `dehla ladder run --cluster`)")
    try:
        from distributed import Worker  # noqa: PLC0415 - the cluster extra loads only here
    except ImportError:
        fail("dehla worker needs Dask's distributed package: pip install 'dehla-arena[cluster]'")
    try:
        check_runner(runner)
    except RunnerUnavailable as exc:
        fail(f"--runner {runner}: {exc}")
    os.environ[WORKER_RUNNER_ENV] = runner.value  # read by each job (ladder/execution/jobs.py)
    if data is not None:
        os.environ[DATA_ENV] = str(data.resolve())  # what the jobs' code reads (never the job itself)
    quiet_dask()

    async def serve() -> None:
        worker = Worker(spec.address, nthreads=slots, resources={MATCH_RESOURCE: slots}, name=name, host=host,
                        port=port, contact_address=contact, death_timeout=connect_seconds())
        loop = asyncio.get_running_loop()
        for stop in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(stop, lambda: asyncio.ensure_future(stop_now(worker)))
        try:
            await worker
        except (OSError, TimeoutError) as exc:
            fail(f"SCHEDULER {scheduler}: no Dask scheduler answered there ({type(exc).__name__}); start one "
                 "(`dask scheduler`) or check the address")
        click.echo(f"dehla worker {worker.address}: {slots} match slot(s) for {scheduler}", err=True)
        await worker.finished()  # type: ignore[no-untyped-call]

    asyncio.run(serve())


async def stop_now(worker: Any) -> None:
    """Close without waiting for the matches in play: the scheduler has given them to other
    workers, and playing one out for nobody held a stopped worker up to its whole move clock.
    The slot threads are daemons, so the process ends at once, and its bots with it.

    A worker that lost its scheduler is closing already, on Dask's own terms (waiting for its
    matches); if the close does not end within ``STOP_SECONDS`` the process ends outright, as
    a ``kill -9`` would (the store's writes are transactions: nothing is half-written)."""
    closing = worker.close(timeout=STOP_FLUSH_SECONDS, reason="dehla-worker-stopped", executor_wait=False)
    try:
        await asyncio.wait_for(asyncio.shield(closing), STOP_SECONDS)
    except TimeoutError:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(0)
