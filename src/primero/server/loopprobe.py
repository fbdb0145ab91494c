"""A loop-lag probe for benchmarks: how long the event loop went without running a task
that asked to wake 5 ms later (the longest stretch the loop was busy elsewhere), in wall
time and in the CPU time of the loop's thread meanwhile (on a loaded machine the process
also waits for a core: wall time counts that, CPU time does not), and the garbage
collector's pauses (``gc.callbacks``: every collection holds the GIL, so it stops the
loop whatever thread it runs in).

Started only when :data:`PROBE_ENV` names a file: every second one JSON line is appended
to it, ``{"t": unix seconds, "max_ms": the longest lag in that second (wall), "cpu_ms":
the most CPU the loop's thread used in one such stretch, "n": samples, "gc_ms": the
longest collection (wall ms), "gc_gen": its generation, "gc_n": collections, "gc2_n":
full (generation 2) collections, "gc2_freed": the objects they freed}``.
``benchmarks/bench_server.py`` reads it; a server people play on does not run it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import time
from pathlib import Path
from typing import Any

__all__ = ["INTERVAL", "PROBE_ENV", "GcTimer", "probe_path", "run_probe"]

#: The environment variable naming the file the probe appends to.
PROBE_ENV = "PRIMERO_LOOP_PROBE"
#: Seconds the probe sleeps between looks.
INTERVAL = 0.005


class GcTimer:
    """Times every garbage collection while installed (``gc.callbacks``).

    Attributes:
        worst_ms: the longest collection since the last :meth:`take` (wall ms).
        worst_gen: its generation (0, 1 or 2; -1 when none ran).
        count: collections since the last :meth:`take`.
        full: generation-2 collections since the last :meth:`take`.
        freed: objects those full collections found unreachable (cyclic garbage).
    """

    def __init__(self) -> None:
        self._began = 0.0
        self.worst_ms, self.worst_gen, self.count, self.full = 0.0, -1, 0, 0
        self.freed = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        """The ``gc.callbacks`` hook: ``phase`` is ``"start"`` or ``"stop"``."""
        if phase == "start":
            self._began = time.perf_counter()
            return
        ms = (time.perf_counter() - self._began) * 1000
        gen = int(info.get("generation", -1))
        self.count += 1
        self.full += gen == 2
        if gen == 2:
            self.freed += int(info.get("collected", 0))
        if ms > self.worst_ms:
            self.worst_ms, self.worst_gen = ms, gen

    def take(self) -> dict[str, Any]:
        """The figures since the last take, then start again."""
        out = {"gc_ms": round(self.worst_ms, 3), "gc_gen": self.worst_gen,
               "gc_n": self.count, "gc2_n": self.full, "gc2_freed": self.freed}
        self.worst_ms, self.worst_gen, self.count, self.full = 0.0, -1, 0, 0
        self.freed = 0
        return out


async def run_probe(path: Path) -> None:
    """Measure the loop's lag until cancelled, one line a second into ``path``."""
    worst, cpu_worst, samples, second = 0.0, 0.0, 0, time.time()
    timer = GcTimer()
    gc.callbacks.append(timer)
    try:
        with path.open("a", encoding="utf-8") as out:
            while True:
                began, cpu = time.perf_counter(), time.thread_time()
                await asyncio.sleep(INTERVAL)
                lag = time.perf_counter() - began - INTERVAL
                worst, samples = max(worst, lag), samples + 1
                cpu_worst = max(cpu_worst, time.thread_time() - cpu)
                now = time.time()
                if now - second >= 1.0:
                    row = {"t": now, "max_ms": worst * 1000, "cpu_ms": cpu_worst * 1000,
                           "n": samples, **timer.take()}
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    worst, cpu_worst, samples, second = 0.0, 0.0, 0, now
    finally:
        gc.callbacks.remove(timer)


def probe_path() -> Path | None:
    """The file of :data:`PROBE_ENV`, or None (no probe)."""
    raw = os.environ.get(PROBE_ENV, "").strip()
    return Path(raw) if raw else None
