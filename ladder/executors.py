"""Executors for match jobs: a local process pool by default, an inline one for tests and benches.

Any ``concurrent.futures.Executor`` works (a later issue adds a Dask cluster's): the ladder only
calls ``submit(play, job)`` with a top-level function and plain data, and ``shutdown``.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")


class InlineExecutor(Executor):
    """Runs each job at once in the calling thread: deterministic, for tests and benches."""

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        future: Future[T] = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as exc:
            future.set_exception(exc)
        return future


def process_pool(workers: int) -> Executor:
    """A pool of fresh (spawned) worker processes: a worker that dies breaks only its futures."""
    return ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))


ExecutorFactory = Callable[[], Executor]


def pool_factory(workers: int) -> ExecutorFactory:
    def make() -> Executor:
        return process_pool(workers)
    return make


def inline_factory() -> Executor:
    return InlineExecutor()


__all__ = ["ExecutorFactory", "InlineExecutor", "inline_factory", "pool_factory", "process_pool"]
