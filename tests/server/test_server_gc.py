"""The garbage collector of ``primero serve`` (server/gctune.py): the
thresholds, start-up frozen, and what lives on frozen again every little while, so that
a full collection never walks the tables' whole heap while the event loop waits."""

from __future__ import annotations

import asyncio
import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app, gctune

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def collector() -> Iterator[None]:
    """The collector as it was, put back after the test (frozen objects unfrozen)."""
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_the_server_thresholds_and_a_settled_start_freeze_what_start_up_built(
    collector: None,
) -> None:
    gctune.tune()
    assert gc.get_threshold() == (10_000, 20, 100)
    gc.unfreeze()
    built = [[i] for i in range(1000)]  # tracked lists, as a loaded table's objects
    gctune.settle()
    assert gc.get_freeze_count() >= 1000
    assert gc.get_count()[0] < 100  # nothing young is left for the next collection
    del built


def test_keep_frozen_freezes_what_was_made_since(collector: None) -> None:
    gc.unfreeze()
    gctune.settle()
    before = gc.get_freeze_count()

    async def one_round() -> int:
        later = [[i] for i in range(500)]  # a table created after start-up
        task = asyncio.get_running_loop().create_task(gctune.keep_frozen(0.01))
        for _ in range(200):  # bounded: 2 s at most
            await asyncio.sleep(0.01)
            if gc.get_freeze_count() >= before + 500:
                break
        task.cancel()
        frozen = gc.get_freeze_count()
        del later
        return frozen

    assert asyncio.run(one_round()) >= before + 500, "the objects made later were not frozen"


def test_an_in_process_app_leaves_the_collector_alone(collector: None, tmp_path: Path) -> None:
    """Tests' in-process apps do not tune nor freeze (``Settings.tune_gc`` is False)."""
    gc.unfreeze()
    thresholds = gc.get_threshold()
    with TestClient(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'g.db'}"))) as c:
        assert c.get("/api/tables").status_code == 200
        assert gc.get_freeze_count() == 0 and gc.get_threshold() == thresholds


def test_the_hand_evaluator_is_ready_before_the_first_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its table is built on first use (40 ms of CPU): at start-up, in a thread, not by
    the first ``state`` built on the event loop."""
    from primero.engine import hands

    monkeypatch.setattr(hands, "_built", False)
    with TestClient(create_app(Settings(database_url=f"sqlite:///{tmp_path / 'h.db'}"))):
        assert hands._built
