"""The rebuy window while too few players can be dealt in (docs/protocol.md "Between
hands"): every person goes broke in one hand, the table is paused for too few players,
and the first rebuy, which makes two seats dealable again, does not deal at once: the
next deal waits for each person the window waits for. On a ManualClock (no real wait;
the clock never moves here, so only the choices end the window)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from primero.server.clock import ManualClock
from primero.server.settings import TEST_SEED_ENV
from tests.client_policy import choose_line
from tests.server_helpers import join_table, post_table, until

PEOPLE = ("Ana", "Ben", "Cleo")


def _at_least(version: int) -> Callable[[dict[str, Any]], bool]:
    """A state of ``version`` or later."""
    return lambda m: m["type"] == "state" and m["version"] >= version


def _play_first_hand(socks: list[Any]) -> dict[str, Any]:
    """Answer each person's turns (the simple policy) until hand 1 is over: Ana's state
    then (every state goes to every seat: the others are read up to the same version)."""
    seen: list[dict[str, Any] | None] = [None] * len(socks)
    acted: set[tuple[int, int]] = set()
    for _ in range(500):
        m = until(socks[0], lambda x: x["type"] == "state")
        if m["table"]["hands_played"] >= 1:
            return m
        v = m["version"]
        latest = [m]
        for k in range(1, len(socks)):
            kept = seen[k]
            if kept is None or kept["version"] < v:
                kept = until(socks[k], _at_least(v))
                seen[k] = kept
            latest.append(kept)
        for k, s in enumerate(latest):
            if s["legal"] is not None and s["version"] == v and (k, v) not in acted:
                acted.add((k, v))
                line = choose_line(s)
                socks[k].send_json(
                    {"type": "action", "id": f"a{v}-{k}", "line": line, "version": v}
                )
    raise AssertionError("hand 1 did not end in 500 states")


def _state(ws: Any, pred: Any) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "state" and pred(m), limit=2000)


def test_the_first_rebuy_at_a_paused_table_waits_for_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stacks of 2 (the test seed 27): hand 1 leaves Ana, Ben and Cleo on 0 and the bot
    Lorenzo with all 8 chips; the table pauses (one seat dealable) and the window waits
    for the three (each page offers "Not now"). Ana rebuys: two seats are dealable, yet
    no hand is dealt; Ben, then Cleo rebuy: hand 2 is dealt to all four seats."""
    monkeypatch.setenv(TEST_SEED_ENV, "27")
    clock = ManualClock(1_000_000.0)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'broke.db'}",
        bot_pause=0,
        clock=clock,
        bot_processes=0,
        hand_pause=0,
        rebuy_seconds=30,
    )
    with TestClient(create_app(settings)) as client:
        body = {"seats": ["open", "open", "open", "random"], "stack": 2, "rebuy": True}
        t, _host = post_table(client, {**body, "turn_seconds": 0})
        tokens = [join_table(client, t["id"], name) for name in PEOPLE]
        url = f"/ws/tables/{t['id']}?token="
        with (
            client.websocket_connect(url + tokens[0]) as ana,
            client.websocket_connect(url + tokens[1]) as ben,
            client.websocket_connect(url + tokens[2]) as cleo,
        ):
            socks = [ana, ben, cleo]
            ended = _play_first_hand(socks)
            assert [s["chips"] for s in ended["table"]["seats"]] == [0, 0, 0, 8]
            for ws in socks:
                held = _state(ws, lambda m: m["table"]["status"] == "paused")
                assert held["table"]["paused_by"] == "players"
                assert held["table"]["rebuy_wait"] == [0, 1, 2]  # "Not now" for each
                assert held["table"]["next_hand_at"] == clock.now() + 30
            ana.send_json({"type": "rebuy"})
            rebought = _state(ana, lambda m: m["table"]["seats"][0]["chips"] == 2)
            assert rebought["table"]["rebuy_wait"] == [1, 2]
            assert rebought["table"]["hands_played"] == 1
            ben.send_json({"type": "rebuy"})
            _state(ben, lambda m: m["table"]["seats"][1]["chips"] == 2)
            cleo.send_json({"type": "rebuy"})
            dealt = _state(ana, lambda m: m["hand"] is not None and m["hand"]["number"] == 2)
            assert sorted(dealt["hand"]["table_seats"]) == [0, 1, 2, 3]
