"""Matches on a Dask cluster: ``dehla ladder run --cluster tcp://HOST:PORT`` or ``--cluster local:N``.

The ladder already plays through a ``concurrent.futures.Executor``; a Dask client's
``get_executor(resources={"match": 1})`` is one, so each match takes one ``match`` slot of a
worker (``dehla worker`` gives a worker as many slots as threads). What this module adds:

- ``--cluster local:N`` starts a ``LocalCluster`` of N one-slot worker processes, stopped with
  the run. Its worker processes exit when the coordinator's end of a pipe closes (Dask's own
  parent-alive pipe), so a coordinator killed outright takes them along, and their bots die
  with them (``setpriv --pdeathsig`` / bubblewrap's ``--die-with-parent``).
- The scheduler of a local cluster never retries a match itself (``allowed_failures=0``): a
  worker that dies mid-match fails its task with ``KilledWorker`` at once, the coordinator
  gives the match back to the queue, and the ladder's own ``MAX_ATTEMPTS`` is the only retry
  budget. A Dask retry would replay the same attempt on another worker (still counted once,
  by the attempt guard), but a bot that kills its worker would then take up to four workers
  down per ladder attempt.
- Lost matches come back as ``WorkerLost`` (the worker died: counts as an attempt) or
  ``ClusterLost`` (cancelled by the scheduler or our connection to it: not the match's fault),
  so the loop needs no Dask import.
- ``slots()``: the cluster's total ``match`` resources right now, the number of matches to
  keep in flight.
- With a live folder, the executor subscribes to the workers' live states (``live_relay``) and
  writes each match's live file there while its future is open; it removes it when the future
  settles (also when the worker died), so a lost worker leaves no table behind.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping
from concurrent.futures import CancelledError, Executor, Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar
from urllib.parse import urlsplit

from arena.engine.errors import ArenaError
from ladder.execution.executors import ClusterLost, WorkerLost
from ladder.execution.live_relay import LIVE_TOPIC, LiveRelay, WorkerOutlet

P = ParamSpec("P")
T = TypeVar("T")

MATCH_RESOURCE = "match"
"""The Dask resource a match takes one of; a worker offers one per slot."""

MAX_LOCAL_SLOTS = 256
SCHEMES = ("tcp", "tls")
SLOT_POLL_SECONDS = 0.2
"""How often a run with nothing in flight asks the scheduler again for a worker with a free slot."""


def connect_seconds() -> float:
    """How long ``--cluster tcp://...`` and ``dehla worker`` wait for a scheduler to answer, and
    a coordinator's client reconnects to one it lost, before saying it cannot: Dask's own
    ``distributed.comm.timeouts.connect`` (30 s unless ``DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT``
    says otherwise)."""
    import dask  # noqa: PLC0415 - the cluster extra loads only with --cluster
    from dask.utils import parse_timedelta  # noqa: PLC0415

    return float(parse_timedelta(dask.config.get("distributed.comm.timeouts.connect"), default="s"))


class ClusterError(ArenaError):
    """A ``--cluster`` value that is not one, or a cluster that cannot be reached or started."""


@dataclass(frozen=True, slots=True)
class ClusterSpec:
    """Where matches run: a scheduler's address, or a local cluster of ``local_slots`` workers."""

    address: str | None = None
    local_slots: int | None = None

    @classmethod
    def parse(cls, text: str) -> ClusterSpec:
        """``local:N`` or ``tcp://HOST:PORT`` (``tls://`` too); anything else is a ``ClusterError``."""
        if text.startswith("local:"):
            count = text.removeprefix("local:")
            if not count.isascii() or not count.isdigit() or not 1 <= int(count) <= MAX_LOCAL_SLOTS:
                raise ClusterError(f"--cluster {text!r}: local:N takes a number of worker slots from 1 to "
                                   f"{MAX_LOCAL_SLOTS}")
            return cls(local_slots=int(count))
        parts = urlsplit(text)
        try:
            port = parts.port
        except ValueError:
            port = None
        if (parts.scheme not in SCHEMES or not parts.hostname or port is None or parts.username is not None
                or parts.password is not None or parts.path or parts.query or parts.fragment):
            raise ClusterError(f"--cluster {text!r}: give a scheduler's address, tcp://HOST:PORT (e.g. "
                               "tcp://scheduler:8786), or local:N for N worker processes on this machine")
        return cls(address=text)

    def __str__(self) -> str:
        return f"local:{self.local_slots}" if self.local_slots is not None else str(self.address)


RUNNING_CLIENT = "running"
CLOSED_CLIENT = ("closing", "closed")
"""A Dask client's states (``Client.status``) that end a run: it gave up reconnecting."""


class ClusterExecutor(Executor):
    """A Dask client's executor with ``match=1`` per job; closes its client (and local cluster).

    Each future it returns is already running (``cancel()`` is False, as for a match in play
    in a process pool); ``shutdown(cancel_futures=True)`` cancels the tasks instead and every
    future still open ends with ``ClusterLost``. ``live``: the relay that writes the live files
    of the match jobs it runs: each ``MatchJob`` is submitted with ``live_outlet=WorkerOutlet``
    (``play_match_job``'s), so its worker sends them to the relay."""

    def __init__(self, client: Any, cluster: Any | None = None, live: LiveRelay | None = None) -> None:
        self.client = client
        self.cluster = cluster
        self.live = live
        self._executor = client.get_executor(resources={MATCH_RESOURCE: 1}, pure=False, retries=0)
        self._open: set[Future[Any]] = set()
        self._lock = threading.Lock()
        if live is not None:
            client.subscribe_topic(LIVE_TOPIC, live.receive)

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        relayed = self._relayed(args)
        inner: Future[T]
        if relayed is not None and self.live is not None:
            self.live.expect(*relayed)
            inner = self._executor.submit(fn, *args, live_outlet=WorkerOutlet, **kwargs)
        else:
            inner = self._executor.submit(fn, *args, **kwargs)
        outer: Future[T] = Future()
        outer.set_running_or_notify_cancel()
        with self._lock:
            self._open.add(outer)
        inner.add_done_callback(lambda done: self._settle(outer, done, relayed))
        return outer

    def _relayed(self, args: tuple[Any, ...]) -> tuple[str, int] | None:
        """The match and attempt whose live states the relay writes (a match job, with a relay)."""
        from ladder.execution.jobs import MatchJob  # noqa: PLC0415 - the referee's modules only once jobs run

        job = args[0] if args else None
        if self.live is None or not isinstance(job, MatchJob):
            return None
        return job.key, job.attempt

    def _settle(self, outer: Future[T], inner: Future[T], relayed: tuple[str, int] | None = None) -> None:
        if relayed is not None and self.live is not None:
            self.live.settled(relayed[0])
        with self._lock:
            if outer not in self._open:
                return
            self._open.discard(outer)
        try:
            outer.set_result(inner.result())
        except CancelledError:
            outer.set_exception(ClusterLost("the scheduler cancelled the match (its connection was lost or it "
                                            "restarted)"))
        except Exception as exc:
            outer.set_exception(_lost(exc))

    def slots(self, wait: bool) -> int:
        """The cluster's ``match`` slots; with ``wait``, block until there is at least one. While
        the client reconnects to a scheduler it lost (its matches cancelled: back to the queue)
        there are none; once the client gives up, the run ends with ``ClusterError``."""
        while True:
            status = self._client_status()
            if status in CLOSED_CLIENT:
                raise ClusterError("lost the Dask scheduler (no answer within the reconnect time); the matches "
                                   "in play went back to the queue")
            count = self._count() if status == RUNNING_CLIENT else 0
            if count or not wait:
                return count
            time.sleep(SLOT_POLL_SECONDS)

    def _client_status(self) -> str:
        return str(getattr(self.client.status, "value", self.client.status))

    def _count(self) -> int:
        try:
            info = self.client.scheduler_info(n_workers=-1)
        except (OSError, TimeoutError) as exc:  # Dask's CommClosedError is an OSError
            raise ClusterError(f"lost the Dask scheduler ({type(exc).__name__}); the matches in play went back "
                               "to the queue") from None
        return total_slots(info)

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        try:
            if self._client_status() not in CLOSED_CLIENT:  # a closed client cancels nothing (and says so)
                self._executor.shutdown(wait=wait and not cancel_futures)
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()
        finally:
            if self.live is not None:
                self.live.close()
            with self._lock:
                left, self._open = self._open, set()
            for future in left:
                future.set_exception(ClusterLost("the run stopped the cluster before the match ended"))


def _lost(exc: Exception) -> Exception:
    """A ``KilledWorker`` as ``WorkerLost`` (naming no worker or task: one line for the store);
    any other error of the match as it came."""
    from distributed import KilledWorker  # noqa: PLC0415 - the cluster extra loads only with --cluster

    if isinstance(exc, KilledWorker):
        return WorkerLost("the worker playing this match died (KilledWorker)")
    return exc


def total_slots(info: Mapping[str, Any]) -> int:
    """The ``match`` resources of every worker in a scheduler's ``identity``."""
    workers = info.get("workers") or {}
    return int(sum(float((w.get("resources") or {}).get(MATCH_RESOURCE, 0)) for w in workers.values()))


def start_cluster(spec: ClusterSpec, worker_env: Mapping[str, str], live_folder: Path | None = None) -> ClusterExecutor:
    """Connect to the scheduler at ``spec.address``, or start a local cluster whose workers get
    ``worker_env`` (e.g. the data folder and database URL given to this run as options).
    ``live_folder``: where the workers' live states are written (``DATA/live``; None: nowhere)."""
    live = None if live_folder is None else LiveRelay(live_folder)
    try:
        from distributed import Client, LocalCluster  # noqa: PLC0415 - the cluster extra loads only with --cluster
    except ImportError:
        raise ClusterError("--cluster needs Dask's distributed package: pip install 'dehla-arena[cluster]'") from None
    quiet_dask()
    if spec.local_slots is None:
        try:
            client = Client(spec.address, timeout=connect_seconds(), set_as_default=False)  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise ClusterError(f"--cluster {spec}: no Dask scheduler answered there ({type(exc).__name__}); "
                               "start one (`dask scheduler`) or check the address") from None
        return ClusterExecutor(client, live=live)
    cluster = LocalCluster(n_workers=spec.local_slots, threads_per_worker=1, processes=True, host="127.0.0.1",
                           scheduler_port=0, dashboard_address=None, silence_logs=logging.CRITICAL,
                           resources={MATCH_RESOURCE: 1}, scheduler_kwargs={"allowed_failures": 0},
                           env=dict(worker_env), preload=[WORKER_SETUP])  # type: ignore[no-untyped-call]
    try:
        client = Client(cluster, set_as_default=False)  # type: ignore[no-untyped-call]
    except BaseException:
        cluster.close()
        raise
    return ClusterExecutor(client, cluster, live)


WORKER_SETUP = "ladder.execution.worker_setup"
"""Dask preload module run in each worker as it starts (``ladder/execution/worker_setup.py``)."""


WORKER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "2s",
    "distributed.nanny.pre-spawn-environ": {},
}
"""A match is one long task, not a Dask computation, so Dask's fine-grained watching of its
servers costs and gives nothing: the statistical profiler walks every thread's stack each 10 ms
(holding the GIL the referee and its gRPC seats need); each server checks its event loop's
health every 20 ms, samples its process every 500 ms, and each nanny and worker its memory every
100 ms: an idle ``local:8`` kept 0.8 of this machine's 2 cores busy with Dask's defaults for
these, 0.1 with ours, against 0.01 for an idle process pool (``bench/cluster.py --idle``,
``docs/performance.md``). And a local cluster's nannies set no environment for their workers
(Dask's default sets ``MALLOC_TRIM_THRESHOLD_=65536`` and the thread counts of numerical
libraries, in the coordinator's own environment too): the referee allocates no Dask data, and
``--runner local`` bots inherit their worker's environment, so a worker then runs them as the
process pool's workers do."""


def quiet_dask() -> None:
    """Dask logs each worker's start, stop and death at INFO to WARNING; the run's own summary
    says what happened to the matches, so the coordinator shows only Dask's critical lines.
    Also the workers' configuration (``WORKER_CONFIG``), which a local cluster's inherit."""
    import dask  # noqa: PLC0415 - the cluster extra loads only with --cluster

    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    dask.config.set(WORKER_CONFIG)


def cluster_factory(spec: ClusterSpec, worker_env: Mapping[str, str],
                    live_folder: Path | None = None) -> Callable[[], Executor]:
    def make() -> Executor:
        return start_cluster(spec, worker_env, live_folder)
    return make


__all__ = ["MATCH_RESOURCE", "ClusterError", "ClusterExecutor", "ClusterSpec", "cluster_factory", "start_cluster",
           "total_slots"]
