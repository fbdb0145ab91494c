"""A loop-lag probe for benchmarks: how long the event loop went without running a task
that asked to wake 5 ms later (the longest stretch the loop was busy elsewhere), in wall
time and in the CPU time of the loop's thread meanwhile (on a loaded machine the process
also waits for a core: wall time counts that, CPU time does not).

Started only when :data:`PROBE_ENV` names a file: every second one JSON line is appended
to it, ``{"t": unix seconds, "max_ms": the longest lag in that second (wall), "cpu_ms":
the most CPU the loop's thread used in one such stretch, "n": samples}``.
``benchmarks/bench_server.py`` reads it; a server people play on does not run it.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

__all__ = ["INTERVAL", "PROBE_ENV", "probe_path", "run_probe"]

#: The environment variable naming the file the probe appends to.
PROBE_ENV = "PRIMERO_LOOP_PROBE"
#: Seconds the probe sleeps between looks.
INTERVAL = 0.005


async def run_probe(path: Path) -> None:
    """Measure the loop's lag until cancelled, one line a second into ``path``."""
    worst, cpu_worst, samples, second = 0.0, 0.0, 0, time.time()
    with path.open("a", encoding="utf-8") as out:
        while True:
            began, cpu = time.perf_counter(), time.thread_time()
            await asyncio.sleep(INTERVAL)
            lag = time.perf_counter() - began - INTERVAL
            worst, samples = max(worst, lag), samples + 1
            cpu_worst = max(cpu_worst, time.thread_time() - cpu)
            now = time.time()
            if now - second >= 1.0:
                row = {"t": now, "max_ms": worst * 1000, "cpu_ms": cpu_worst * 1000, "n": samples}
                out.write(json.dumps(row) + "\n")
                out.flush()
                worst, cpu_worst, samples, second = 0.0, 0.0, 0, now


def probe_path() -> Path | None:
    """The file of :data:`PROBE_ENV`, or None (no probe)."""
    raw = os.environ.get(PROBE_ENV, "").strip()
    return Path(raw) if raw else None
