"""Ray for the cluster ingest: joining or starting a cluster, and running a function over many items as
Ray tasks with retries and backpressure.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any


class ClusterError(RuntimeError):
    """The cluster cannot be reached or a task failed for good; the message says what to do."""


IN_FLIGHT_PER_CPU = 2  # parts submitted and not yet finished, per CPU of the cluster


TASK_RETRIES = 5  # a task whose worker died is run again this many times


def start_ray(address: str | None, cpus: int | None) -> int:
    """Connect to the cluster at `address`, or start a local one on `cpus` cores; return its CPUs."""
    import logging

    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster ray needs Ray: pip install 'barge-hands[cluster]'") from None

    if not ray.is_initialized():
        try:
            ray.init(address=address, num_cpus=cpus if address is None else None, include_dashboard=False,
                     log_to_driver=False, logging_level=logging.ERROR, configure_logging=False)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            raise ClusterError(f"cannot start or reach the Ray cluster{f' at {address}' if address else ''}: "
                               f"{exc}") from None
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    return max(1, int(resources.get("CPU", 1)))


def run_tasks(fn: Callable[[Any], Any], items: Iterable[Any], cpus: int,
         done: Callable[[Any, Any], None]) -> None:
    """Run `fn` on each item as Ray tasks, at most `IN_FLIGHT_PER_CPU * cpus` at once, calling
    `done(item, result)` as each finishes (in any order: nothing downstream depends on it)."""
    import ray

    remote = ray.remote(max_retries=TASK_RETRIES, retry_exceptions=False)(fn)
    pending: dict[Any, Any] = {}
    items = iter(items)
    exhausted = False
    while pending or not exhausted:
        while not exhausted and len(pending) < IN_FLIGHT_PER_CPU * cpus:
            item = next(items, None)
            if item is None:
                exhausted = True
                break
            pending[remote.remote(item)] = item
        if not pending:
            break
        ready, _ = ray.wait(list(pending), num_returns=1)
        for ref in ready:
            item = pending.pop(ref)
            try:
                result = ray.get(ref)
            except ray.exceptions.RayError as exc:
                raise ClusterError(f"a cluster task failed for good ({type(exc).__name__}): {exc}") from None
            done(item, result)
