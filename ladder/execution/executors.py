"""Executors for match jobs: a local process pool by default, an inline one for tests and benches.

Any ``concurrent.futures.Executor`` works (``ladder/execution/cluster.py`` wraps a Dask cluster's): the
ladder only calls ``submit(play, job)`` with a top-level function and plain data, and
``shutdown``. An executor whose size changes while it runs (a cluster's workers come and go)
says how many matches it can play at once now (``SlotCounting``); one that can lose a match
says how (``WorkerLost``, ``ClusterLost``), so the loop needs no import of its library.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import ParamSpec, Protocol, TypeVar, runtime_checkable

from ladder.execution.lifetime import die_with_parent

P = ParamSpec("P")
T = TypeVar("T")


class WorkerLost(Exception):  # noqa: N818 - reads as what happened
    """The worker playing a match died (killed, its machine lost): the match goes back to the
    queue, and this counts as one of its attempts (the bot may be what killed it)."""


class ClusterLost(Exception):  # noqa: N818 - reads as what happened
    """A match cancelled by the cluster or by our connection to it: back to the queue, not
    counted against the match."""


@runtime_checkable
class SlotCounting(Protocol):
    def slots(self, wait: bool) -> int:
        """Matches this executor can play at once now; with ``wait``, block until at least one."""


class InlineExecutor(Executor):
    """Runs each job at once in the calling thread: deterministic, for tests and benches."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


def _start_worker(coordinator: int) -> None:
    """A new worker: dies with the coordinator (``ladder/execution/lifetime.py``), idle Ctrl-C ignored."""
    die_with_parent(coordinator)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _interruptible(fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """Run a job with Ctrl-C live (it ends the match in play, bots cleaned up); idle again after."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        return fn(*args, **kwargs)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)


class MatchPool(ProcessPoolExecutor):
    """A pool of fresh (spawned) worker processes: a worker that dies breaks only its futures.

    A terminal's Ctrl-C reaches the workers too. A worker playing a match gives it up (the
    coordinator puts it back in the queue); an idle worker ignores it, rather than dying with a
    traceback while it waits for its next job. A coordinator that is killed takes its workers
    with it. ``submit`` only from the main thread: it spawns workers, whose parent-death signal
    is tied to the spawning thread (``ladder/execution/lifetime.py``)."""

    def __init__(self, workers: int) -> None:
        super().__init__(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                         initializer=_start_worker, initargs=(os.getpid(),))

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        if threading.current_thread() is not threading.main_thread():
            raise RuntimeError("MatchPool.submit from the main thread only (it may spawn a worker, whose "
                               "parent-death signal would fire when the calling thread ends)")
        return super().submit(_interruptible, fn, *args, **kwargs)


def process_pool(workers: int) -> Executor:
    return MatchPool(workers)


ExecutorFactory = Callable[[], Executor]


def pool_factory(workers: int) -> ExecutorFactory:
    def make() -> Executor:
        return process_pool(workers)
    return make


def inline_factory() -> Executor:
    return InlineExecutor()


__all__ = ["ClusterLost", "ExecutorFactory", "InlineExecutor", "MatchPool", "SlotCounting", "WorkerLost",
           "inline_factory", "pool_factory", "process_pool"]
