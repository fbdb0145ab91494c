"""The terminal tests: Textual's pilot settles in finer steps.

Textual's pilot waits after each key and pause until the process stops using the CPU,
sleeping 20 ms at a time (``textual._wait``), and a screen repaints at most 60 times a
second: at least 40 ms a key, most of these tests' time. Here the screen may repaint
every 4 ms and the pilot looks every 5 ms, counting the process idle below 0.25 ms of
CPU in a step: the same test of idleness at a quarter of the scale. The pilot's own
deterministic part (every pending message handled) is unchanged.
"""

from __future__ import annotations

import pytest
from textual import _wait, screen


@pytest.fixture(autouse=True)
def _fine_idle_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(screen, "UPDATE_PERIOD", 1 / 250)
    monkeypatch.setattr(_wait, "SLEEP_GRANULARITY", 0.005)
    monkeypatch.setattr(_wait, "SLEEP_IDLE", 0.00025)
