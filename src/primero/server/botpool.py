"""Bot decisions and hints in worker processes, off the server's event loop (and its GIL).

A bot is a pure function of a picklable view with its own ``random.Random``: the worker
gets ``(agent, view)`` and answers ``(action, agent)``, the agent as it is after deciding
(its random state moved on), so the table keeps the bot's state and a match stays
reproducible from its seeds (R10) wherever the decision ran. Hints
(:func:`primero.play.hints.seat_hints`) run in the same workers, at most
:data:`HINTS_AT_ONCE` at a time. The random bot (microseconds a decision) decides in the
server's process: :data:`INLINE_KINDS`.

A decision that takes longer than ``timeout`` seconds is abandoned: the workers are
stopped (a stuck process cannot be interrupted otherwise) and started afresh, and the
caller gets :class:`TimeoutError` (the runtime then makes the seat's least committal
move). Decisions of other tables that were running in the stopped workers get
:class:`~concurrent.futures.process.BrokenProcessPool` and are asked again by their tables.

A decision is timed only once the workers have started: every caller waits for the
start of the workers in use (after a restart, the new ones), not only the first. Were
the others timed from their call, a start slower than ``timeout`` (a loaded host: several
seconds to start Python and import the bots) would time out every other table's decision
and restart the workers again before they were ready, each restart killing the next
start, and no heuristic bot would decide again (each of its moves waiting ``timeout``
for the least committal move).

TEST ONLY: :data:`FAULT_ENV` (``"raise:KIND"`` or ``"sleep:KIND:SECONDS"``) makes every
decision of bots of kind ``KIND`` raise, or sleep first, in the workers;
``"start:SECONDS"`` makes each worker's start take that much longer.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from typing import Any, TypeVar

__all__ = ["FAULT_ENV", "HINTS_AT_ONCE", "INLINE_KINDS", "BotPool", "decide", "hints"]

T = TypeVar("T")

#: TEST ONLY: inject a fault into bots' decisions (see the module docstring).
FAULT_ENV = "PRIMERO_TEST_BOT_FAULT"
#: Hints computed at the same time at most (each is up to ~100 ms of CPU).
HINTS_AT_ONCE = 2
#: Bot kinds that decide in microseconds: they decide in the server's process, since
#: sending them to a worker would cost a hundred times more than deciding.
INLINE_KINDS = frozenset({"random"})
#: Seconds the workers may take to start before decisions are timed all the same.
STARTING = 60.0


def _fault(agent: Any) -> None:
    spec = os.environ.get(FAULT_ENV, "")
    if not spec:
        return
    parts = spec.split(":")
    if parts[0] == "start" or getattr(agent, "name", None) != parts[1]:
        return
    if parts[0] == "raise":
        raise RuntimeError(f"{FAULT_ENV}: a bot of kind {parts[1]} raises (test fault)")
    if parts[0] == "sleep":
        time.sleep(float(parts[2]))


def decide(agent: Callable[[Any], Any], view: Any) -> tuple[Any, Callable[[Any], Any]]:
    """In a worker: ``(agent(view), agent)``, the agent as it is after deciding."""
    _fault(agent)
    return agent(view), agent


def hints(view: Any) -> dict[str, Any]:
    """In a worker: :func:`primero.play.hints.seat_hints` of ``view``."""
    from primero.play.hints import seat_hints

    return seat_hints(view)


@contextlib.contextmanager
def _no_interrupt() -> Iterator[None]:
    """Block SIGINT in this thread while it starts worker processes: a spawned worker
    inherits the mask, so a Ctrl-C during its start (the imports take a second) waits
    until :func:`_warm` ignores it instead of printing a ``KeyboardInterrupt`` traceback.
    A SIGINT meant for the server arrives once the mask is restored."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _noop() -> None:
    """Nothing: submitted once per worker so that each starts at once."""


def _orphaned(parent: int) -> None:
    """In a worker: exit as soon as the server is gone (killed with ``kill -9``, its
    workers would otherwise wait for work forever)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _warm(parent: int) -> None:
    """A worker's start: ignore Ctrl-C (the terminal sends it to the whole process group;
    the server stops its workers itself), watch the server, and import the bots (the
    heuristic's tables) before the first call."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    threading.Thread(target=_orphaned, args=(parent,), daemon=True).start()
    spec = os.environ.get(FAULT_ENV, "").split(":")
    if spec[0] == "start":  # TEST ONLY: a slow start (a loaded host)
        time.sleep(float(spec[1]))
    from primero.bots import make_bot

    make_bot("heuristic", 0)


class BotPool:
    """The workers of one server.

    Args:
        processes: worker processes (0: threads of this process, for in-process tests).
        timeout: seconds a decision may take before it is abandoned.
    """

    def __init__(self, processes: int, timeout: float) -> None:
        self.processes = processes
        self.timeout = timeout
        self._pool: Executor = self._new()
        self._hints = asyncio.Semaphore(HINTS_AT_ONCE)
        self._ready: list[Future[None]] = []

    def _new(self) -> Executor:
        if self.processes <= 0:
            return ThreadPoolExecutor(max_workers=4, thread_name_prefix="primero-bot")
        return ProcessPoolExecutor(
            max_workers=self.processes,
            mp_context=multiprocessing.get_context("spawn"),  # no fork of a threaded server
            initializer=_warm,
            initargs=(os.getpid(),),
        )

    def prestart(self) -> None:
        """Start every worker now (each imports the bots), not at the first decision; a
        decision's time limit counts only once the workers have started."""
        if isinstance(self._pool, ProcessPoolExecutor):
            with _no_interrupt():
                self._ready = [self._pool.submit(_noop) for _ in range(self.processes)]

    async def _started(self) -> None:
        """Wait until the workers in use have started (at most :data:`STARTING` seconds
        each time), again when they were replaced meanwhile: every caller waits, not
        only the first, so that no decision is timed while the workers start."""
        while True:
            pool, ready = self._pool, self._ready
            waiting = [asyncio.wrap_future(f) for f in ready if not f.done()]
            if not waiting:
                return
            # a slow machine may take seconds to start Python and import the bots
            done, _ = await asyncio.wait(waiting, timeout=STARTING)
            for f in done:  # a start cut by a restart is no error of this decision
                if not f.cancelled():
                    f.exception()
            if pool is self._pool:
                return  # started (or STARTING passed: the decision is timed all the same)

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        await self._started()
        loop = asyncio.get_running_loop()
        pool = self._pool
        with _no_interrupt():  # a submit may start a worker
            future = loop.run_in_executor(pool, fn, *args)
        try:
            return await asyncio.wait_for(future, self.timeout)
        except TimeoutError:
            self._restart(pool)
            raise

    def _restart(self, pool: Executor) -> None:
        """Stop the workers of ``pool`` (one of them is stuck) and start new ones."""
        if pool is not self._pool:
            return  # already restarted
        self._pool = self._new()
        self.prestart()
        if isinstance(pool, ProcessPoolExecutor):
            for proc in list(getattr(pool, "_processes", {}).values()):
                with contextlib.suppress(Exception):
                    proc.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    async def decide(
        self, agent: Callable[[Any], Any], view: Any
    ) -> tuple[Any, Callable[[Any], Any]]:
        """A bot's decision in a worker: ``(action, agent after deciding)``.

        Raises:
            TimeoutError: it took over ``timeout`` seconds (the workers were restarted).
            BrokenProcessPool: a worker died meanwhile (ask again).
            Exception: whatever the bot raised.
        """
        if getattr(agent, "name", None) in INLINE_KINDS:
            return decide(agent, view)
        return await self._run(decide, agent, view)

    async def hints(self, view: Any) -> dict[str, Any]:
        """The hints of ``view`` in a worker, at most :data:`HINTS_AT_ONCE` at a time.

        Raises:
            TimeoutError: they took over ``timeout`` seconds.
        """
        async with self._hints:
            return await self._run(hints, view)

    def close(self) -> None:
        """Stop the workers at once (running decisions are abandoned: they hold nothing
        worth keeping), so that the server's exit never waits for a bot."""
        pool = self._pool
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in processes:
            with contextlib.suppress(Exception):
                proc.kill()
