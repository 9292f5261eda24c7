"""A pool of worker processes that runs tasks in order, with a bounded number in flight.

`Workers(jobs).ordered(fn, items)` runs `fn` on each task in worker processes and yields the
results in the order of the tasks, so the caller (the one process that writes the database) sees
them as a single process would have produced them: the tables do not depend on `jobs`. At most
`IN_FLIGHT_PER_JOB * jobs` tasks are submitted and not yet consumed, and the items are pulled
lazily, so memory stays flat however long the input is. An item whose task is None is a barrier:
every task before it is consumed first, then the item is yielded with no result, and only then is
the next item pulled (ingest uses this when a file must wait for earlier ones to be written).

Workers are forked from a `forkserver` that has imported `pipeline.workers` once (no database or
dashboard library, and no threads of the parent), ignore Ctrl-C (the parent stops them) and exit
on their own when the parent dies. The pool starts only when there are two tasks to run; with
`jobs=1`, or for a single task, `fn` runs in this process.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from itertools import chain
from pathlib import Path
from typing import TypeVar

from evaluator.catalog import HOUSE_FOLDERS, add_games

C = TypeVar("C")
T = TypeVar("T")
R = TypeVar("R")

IN_FLIGHT_PER_JOB = 2  # enough to keep every worker busy while the parent writes
# How often a wait for a result checks that the workers are all alive. The pool notices a dead
# worker by itself in most cases, but not all (a worker killed while it held the task queue's lock
# leaves the others blocked on it), and an ingest that waits forever is worse than one that stops.
HEALTH_CHECK_SECONDS = 1.0
# What the forkserver imports once for all the workers it forks: their module, and pandas, which
# pyarrow imports the first time it converts Python values (a second and some 40 MB in each
# worker otherwise, though no pandas object is ever made).
PRELOAD = ["pipeline.workers", "pandas"]
TERMINATE_SECONDS = 5.0  # a worker asked to stop that has not within this is killed
_DIED = "a worker process stopped unexpectedly (killed, or out of memory?)"


class WorkerError(RuntimeError):
    """A worker process died (killed, out of memory); what it was doing is lost."""


def default_jobs() -> int:
    return os.cpu_count() or 1


def jobs_arg(text: str) -> int:
    """`--jobs N` on the command line: a whole number of processes, at least 1."""
    import argparse  # only the command line needs it

    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"at least 1 process, not {value}")
    return value


def _exit_with_parent() -> None:
    parent = multiprocessing.parent_process()
    if parent is not None:
        parent.join()  # returns when the parent process is gone (its end of a pipe closes)
    os._exit(1)  # the parent was killed: nobody will read what this worker does


def fewer_collections() -> None:
    """Run the cyclic garbage collector a tenth as often. Reading a chunk makes hundreds of
    thousands of short-lived objects (tokens, actions, rows) and almost no cycles, and at the
    default thresholds the collections, which find nothing, cost about a tenth of a hand's CPU
    time (`benchmarks.profile`); reference counting still frees everything at once."""
    gc.set_threshold(10_000, 50, 100)


def _init_worker(house_games: tuple[str, ...]) -> None:
    add_games([Path(folder) for folder in house_games])  # as the parent did (docs/games.md)
    fewer_collections()
    gc.freeze()  # what the forkserver imported lives as long as the worker: never scan it
    # Ctrl-C reaches the whole process group; the parent alone decides what to do about it.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A worker holds the forkserver open, so neither would notice by itself that the parent died.
    threading.Thread(target=_exit_with_parent, daemon=True).start()


def _context() -> multiprocessing.context.BaseContext:
    if "forkserver" not in multiprocessing.get_all_start_methods():  # not on this platform
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(PRELOAD)
    return context


class Workers:
    """Up to `jobs` worker processes running one function; a context manager that stops them."""

    def __init__(self, jobs: int) -> None:
        if jobs < 1:
            raise ValueError(f"jobs must be at least 1, not {jobs}")
        self.jobs = jobs
        self._pool: ProcessPoolExecutor | None = None

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, kind: type[BaseException] | None, *rest: object) -> None:
        self.close(cancel=kind is not None)

    def close(self, cancel: bool = False) -> None:
        """Stop the workers and the pool's threads; with `cancel`, without waiting for their tasks.

        Nothing of the pool outlives this call. A pool shut down without waiting keeps its
        manager thread, which the interpreter joins at exit; after a worker was killed that thread
        can block for ever on the queue the dead worker was reading, and the process then never
        exits (cpython issues 83386 and 132969). So the workers are ended here, and the pool's
        shutdown waits for a manager thread that has nobody left to wait for.

        A worker killed halfway through sending a result leaves that thread reading the rest of
        the message, which never comes: this process holds the pipe's other end too (it never
        writes on it), so the read would wait for ever. Closing that end once the workers are
        gone ends the read, and the thread then finds the pool broken and stops."""
        if self._pool is None:
            return
        pool, self._pool = self._pool, None
        if cancel:  # nothing they do will be read: stop them now rather than after their task
            processes = _processes(pool)
            for process in processes:
                process.terminate()
            for process in processes:
                process.join(TERMINATE_SECONDS)
                if process.is_alive():
                    process.kill()
                    process.join()
            results = getattr(pool, "_result_queue", None)  # private, stable since 3.2 like _processes
            if results is not None:
                results._writer.close()
        pool.shutdown(wait=True, cancel_futures=cancel)

    def pids(self) -> list[int]:
        """The worker processes' ids (none before the pool has started)."""
        return [p.pid for p in _processes(self._pool) if p.pid is not None] if self._pool else []

    def _start(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(self.jobs, mp_context=_context(), initializer=_init_worker,
                                             initargs=(tuple(HOUSE_FOLDERS),))
        return self._pool

    def ordered(self, fn: Callable[[T], R], items: Iterable[tuple[C, T | None]]
                ) -> Iterator[tuple[C, T | None, R | None]]:
        """(context, task, fn(task)) for every item, in order; a None task is a barrier."""
        source = iter(items)
        if self.jobs == 1:
            for context, task in source:
                yield context, task, None if task is None else fn(task)
            return
        while True:
            head = list(_take_tasks(source, 2))
            if sum(task is not None for _, task in head) == 2:
                break
            # One task before a barrier or the end: not worth starting the pool for.
            for context, task in head:
                yield context, task, None if task is None else fn(task)
            if not head or head[-1][1] is not None:
                return
        pool = self._start()
        window: deque[tuple[C, T, Future[R]]] = deque()
        limit = IN_FLIGHT_PER_JOB * self.jobs
        for context, task in chain(head, source):
            if task is None:
                while window:
                    done = _next(window, pool)
                    yield done
                yield context, None, None
                continue
            try:
                window.append((context, task, pool.submit(fn, task)))
            except BrokenProcessPool:
                raise WorkerError(_DIED) from None
            if len(window) > limit:
                done = _next(window, pool)
                yield done
        while window:
            done = _next(window, pool)
            yield done


def _processes(pool: ProcessPoolExecutor) -> list[multiprocessing.process.BaseProcess]:
    # The executor keeps no public list of its processes; this attribute has been stable since 3.2.
    processes: dict[int, multiprocessing.process.BaseProcess] = getattr(pool, "_processes", None) or {}
    return list(processes.values())


def _next(window: deque[tuple[C, T, Future[R]]], pool: ProcessPoolExecutor) -> tuple[C, T, R]:
    """The oldest task of the window, with its result once it is done."""
    context, task, future = window.popleft()
    while True:
        try:
            return context, task, future.result(timeout=HEALTH_CHECK_SECONDS)
        except BrokenProcessPool:
            raise WorkerError(_DIED) from None
        except TimeoutError:
            if not all(process.is_alive() for process in _processes(pool)):
                raise WorkerError(_DIED) from None


def _take_tasks(source: Iterator[tuple[C, T | None]], count: int) -> Iterator[tuple[C, T | None]]:
    """Items from `source` up to and including the `count`-th task, stopping at a barrier."""
    for seen, (context, task) in enumerate(source, 1):
        yield context, task
        if task is None or seen == count:
            return
