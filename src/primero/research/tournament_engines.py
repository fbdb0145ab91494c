"""Engines that play a tournament's units: in this process, in worker processes
(:mod:`multiprocessing`), or on a Ray cluster (local by default).

Every engine plays the same units (:func:`primero.research.tournament.play_units`) and the results
are aggregated in unit order, so all engines give identical results (R10). Ray is
imported only when the Ray engine runs (optional extra ``research``).
"""

from __future__ import annotations

import importlib
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

from primero.research.tournament import TournamentConfig, UnitResult, chunks, play_units

__all__ = ["Progress", "chunk_size", "run_local", "run_processes", "run_ray"]

#: Called with the number of units just finished (for a progress bar).
Progress = Callable[[int], None]


def _noop(_: int) -> None:
    return None


def chunk_size(units: int, workers: int) -> int:
    """Units per task: about 16 tasks per worker (load balance, progress), at most 64.

    >>> chunk_size(1000, 2), chunk_size(10, 4)
    (31, 1)
    """
    return max(1, min(64, units // (16 * max(1, workers))))


def run_local(config: TournamentConfig, progress: Progress = _noop) -> list[UnitResult]:
    """Play every unit in this process, in order."""
    out: list[UnitResult] = []
    for start, stop in chunks(config.units, chunk_size(config.units, 1)):
        out += play_units(config, start, stop)
        progress(stop - start)
    return out


def run_processes(
    config: TournamentConfig, workers: int, progress: Progress = _noop
) -> list[UnitResult]:
    """Play the units in ``workers`` worker processes (started with ``spawn``).

    The first task to fail (an agent by import path that misbehaves raises
    :class:`~primero.research.tournament_agents.AgentError` in its worker) stops the
    tournament at once: the tasks not started are cancelled and the worker processes
    killed, so its error is raised here without waiting for the other workers' tasks
    (``multiprocessing.Pool.terminate()`` could hang there).

    Raises:
        ValueError: ``workers`` < 1.
        AgentError: (from a worker) an agent by import path misbehaved.
        concurrent.futures.process.BrokenProcessPool: a worker process died.
    """
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    executor = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    finished = False
    try:
        futures = [
            executor.submit(play_units, config, a, b)
            for a, b in chunks(config.units, chunk_size(config.units, workers))
        ]
        out: list[UnitResult] = []
        for future in as_completed(futures):
            results = future.result()
            out += results
            progress(len(results))
        finished = True
        return out
    finally:
        if not finished:
            _kill_workers(executor)
        executor.shutdown(wait=True, cancel_futures=True)


def _kill_workers(executor: ProcessPoolExecutor) -> None:
    """Kill the executor's worker processes (a task failed or we were interrupted): their
    running tasks are abandoned, and ``shutdown`` then returns at once. Python 3.11 has no
    public call for it (3.14's ``kill_workers``), so the executor's process table is read."""
    kill = getattr(executor, "kill_workers", None)  # Python >= 3.14
    if kill is not None:
        kill()
        return
    processes: dict[int, Any] = getattr(executor, "_processes", None) or {}
    for process in list(processes.values()):
        if process.is_alive():
            process.kill()


def _ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            "--ray needs the ray package: pip install -e '.[research]'"
        ) from exc


def run_ray(
    config: TournamentConfig,
    address: str | None = None,
    workers: int | None = None,
    progress: Progress = _noop,
) -> list[UnitResult]:
    """Play the units as Ray tasks.

    Args:
        config: the tournament.
        address: a Ray cluster to join (``ray.init(address=...)``, e.g. ``"auto"`` or
            ``"ray://host:10001"``); None starts a local Ray (or uses one already
            initialised in this process).
        workers: CPUs of a local Ray (None: Ray's default, every core); ignored when
            joining a cluster.
        progress: called as tasks finish.

    Raises:
        ModuleNotFoundError: ray is not installed.
        ConnectionError: (from Ray) the address cannot be reached.
    """
    ray = _ray()
    started = False
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if address is not None:
            kwargs["address"] = address
        elif workers is not None:
            kwargs["num_cpus"] = workers
        ray.init(**kwargs)
        started = True
    try:
        remote = ray.remote(play_units)
        size = chunk_size(config.units, int(ray.cluster_resources().get("CPU", 1)))
        pending = [remote.remote(config, a, b) for a, b in chunks(config.units, size)]
        out: list[UnitResult] = []
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                results: list[UnitResult] = ray.get(ref)
                out += results
                progress(len(results))
        return out
    finally:
        if started:
            ray.shutdown()
