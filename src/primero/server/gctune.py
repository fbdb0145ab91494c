"""The garbage collector of a long-running ``primero serve`` (the event
loop never runs more than 20 ms of CPU at a stretch while 200 tables play).

A full (generation 2) collection walks every object the collector tracks and holds the
GIL meanwhile, so it stops the event loop: with 200 busy tables in memory one took
146 ms in ``benchmarks/bench_server.py`` (the loop probe's ``gc_ms``, 89 ms of it the
loop's own CPU): the "109-110 ms at a stretch" of the earlier runs. Three changes make
collections short:

- :func:`settle`, once the server has started (imports done, tables loaded): a
  collection, then ``gc.freeze()``: what start-up built lives as long as the process and
  is never walked again;
- :func:`keep_frozen`, every :data:`FREEZE_SECONDS`: the youngest generation collected
  (a few milliseconds), then ``gc.freeze()`` again, so that the older generations hold
  only what survived the last two seconds: no collection walks the tables' heap
  (200 tables created at once were one collection of generation 1 of 139 ms while
  freezing every 30 s);
- :data:`THRESHOLDS`: the youngest generation is collected after 10,000 net
  allocations instead of 700, so that a move's short-lived objects (views, states,
  messages) die by reference counting before they are promoted.

The price: an object frozen is still freed by reference counting, but a reference cycle
among frozen objects that becomes garbage is never collected. The engine makes few
(measured: 1.6 objects a hand, 16 per table model discarded), so what is kept is a few
kilobytes an hour at 200 busy tables, against a stop of every table for a tenth of a
second at each full collection.

In-process apps (tests) leave the collector alone (``Settings.tune_gc`` is False); the
command ``primero serve`` sets it.
"""

from __future__ import annotations

import asyncio
import gc

__all__ = ["FREEZE_SECONDS", "THRESHOLDS", "keep_frozen", "settle", "tune"]

#: ``gc.set_threshold`` of a server: generation 0 after 10,000 net allocations,
#: generation 1 after 20 of those, generation 2 after 100 of generation 1's (and only
#: when the objects promoted since the last full collection are a quarter of those it
#: kept, CPython's own rule).
THRESHOLDS = (10_000, 20, 100)
#: Seconds between two freezes of what is alive (:func:`keep_frozen`).
FREEZE_SECONDS = 2.0


def tune() -> None:
    """Set :data:`THRESHOLDS` (before the server starts)."""
    gc.set_threshold(*THRESHOLDS)


def settle() -> None:
    """After start-up: collect once, then freeze every object alive (``gc.freeze()``):
    later collections never walk them again. Objects frozen are still freed by
    reference counting when nothing refers to them any more."""
    gc.collect()
    gc.freeze()


async def keep_frozen(seconds: float = FREEZE_SECONDS) -> None:
    """Every ``seconds``: collect the youngest generation (at most
    ``THRESHOLDS[0]`` objects: a few milliseconds), then freeze what is alive, until
    cancelled (see the module's docstring for the price)."""
    while True:
        await asyncio.sleep(seconds)
        gc.collect(0)
        gc.freeze()
