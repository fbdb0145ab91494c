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
full (generation 2) collections, "gc2_freed": the objects they freed, "stuck": the
loop thread's stacks a watchdog thread saw while the loop had not beaten for 15 ms}``.
``benchmarks/bench_server.py`` reads it; a server people play on does not run it.
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import threading
import time
import traceback
from pathlib import Path
from typing import Any

__all__ = ["INTERVAL", "PROBE_ENV", "STUCK", "GcTimer", "Watchdog", "probe_path", "run_probe"]

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
        out = {
            "gc_ms": round(self.worst_ms, 3),
            "gc_gen": self.worst_gen,
            "gc_n": self.count,
            "gc2_n": self.full,
            "gc2_freed": self.freed,
        }
        self.worst_ms, self.worst_gen, self.count, self.full = 0.0, -1, 0, 0
        self.freed = 0
        return out


#: Seconds without a beat of the probe after which the watchdog looks at what the loop runs.
STUCK = 0.015


class Watchdog:
    """A thread that, when the loop has not beaten for :data:`STUCK` seconds, takes the
    stack of the loop's thread (where a long stretch really is) and keeps the most
    frequent ones (``{"stack": "file:line fn <- ...", "count": n}``)."""

    def __init__(self) -> None:
        self.beat = time.perf_counter()
        self.loop_thread = threading.get_ident()
        self.stacks: dict[str, int] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="loop-watchdog", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(0.003):
            if time.perf_counter() - self.beat < STUCK:
                continue
            frame = sys._current_frames().get(self.loop_thread)
            if frame is None:
                continue
            where = [
                f"{Path(f.filename).name}:{f.lineno} {f.name}"
                for f in traceback.extract_stack(frame)[-8:]
            ]
            key = " <- ".join(reversed(where))
            self.stacks[key] = self.stacks.get(key, 0) + 1

    def take(self) -> list[dict[str, Any]]:
        """The stacks seen since the last take, most frequent first (at most 5)."""
        out = sorted(self.stacks.items(), key=lambda kv: -kv[1])[:5]
        self.stacks = {}
        return [{"stack": k, "count": n} for k, n in out]

    def stop(self) -> None:
        """Stop the thread."""
        self._stop.set()


async def run_probe(path: Path) -> None:
    """Measure the loop's lag until cancelled, one line a second into ``path``."""
    worst, cpu_worst, samples, second = 0.0, 0.0, 0, time.time()
    timer = GcTimer()
    gc.callbacks.append(timer)
    dog = Watchdog()
    try:
        with path.open("a", encoding="utf-8") as out:
            while True:
                began, cpu = time.perf_counter(), time.thread_time()
                await asyncio.sleep(INTERVAL)
                dog.beat = time.perf_counter()
                lag = dog.beat - began - INTERVAL
                worst, samples = max(worst, lag), samples + 1
                cpu_worst = max(cpu_worst, time.thread_time() - cpu)
                now = time.time()
                if now - second >= 1.0:
                    row = {
                        "t": now,
                        "max_ms": worst * 1000,
                        "cpu_ms": cpu_worst * 1000,
                        "n": samples,
                        **timer.take(),
                        "stuck": dog.take(),
                    }
                    out.write(json.dumps(row) + "\n")
                    out.flush()
                    worst, cpu_worst, samples, second = 0.0, 0.0, 0, now
    finally:
        dog.stop()
        gc.callbacks.remove(timer)


def probe_path() -> Path | None:
    """The file of :data:`PROBE_ENV`, or None (no probe)."""
    raw = os.environ.get(PROBE_ENV, "").strip()
    return Path(raw) if raw else None
