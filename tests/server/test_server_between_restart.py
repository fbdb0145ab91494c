"""The waits between hands survive a restart (docs/protocol.md "Between hands"): the
result's pause and the rebuy window are kept as deadlines (unix seconds) with the hand's
end, and a server started again on the same database waits what is left of them, on its
clock (a ManualClock here: no real wait), instead of dealing at once; a ``no_rebuy`` is
kept too. The live server's own restart: tests/server/test_server_live_between.py."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from primero.server.clock import ManualClock
from primero.server.settings import TEST_SEED_ENV
from tests.server.test_server_protocol import _play_to
from tests.server_helpers import join_table, post_table, until

START = 1_000_000.0


def _settings(
    tmp_path: Path, clock: ManualClock, *, hand_pause: float = 0, rebuy_seconds: float = 0
) -> Settings:
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'between.db'}",
        bot_pause=0,
        clock=clock,
        bot_processes=0,
        hand_pause=hand_pause,
        rebuy_seconds=rebuy_seconds,
    )


def _went_broke(settings: Settings, clock: ManualClock) -> tuple[str, str, dict[str, Any]]:
    """A rebuy table, stacks of 3: hand 1 leaves Ana (seat 0) broke (the test seed 2).
    The table's id, her token, and the state with the window open; the server stops."""
    with TestClient(create_app(settings)) as client:
        body = {"seats": ["open", "random", "random", "random"], "stack": 3, "rebuy": True}
        t, _host = post_table(client, {**body, "turn_seconds": 0, "max_hands": 200})
        token = join_table(client, t["id"], "Ana")
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
            broke = _play_to(ws, lambda m: m["table"]["rebuy_wait"] == [0])
    return t["id"], token, broke


def _state(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "resync", "since": 0})
    return until(ws, lambda m: m["type"] == "state")


def test_a_restart_in_the_rebuy_window_waits_what_is_left_of_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ana goes broke when the clock shows T; the window closes at T + 30. The server
    stops and starts again at T + 12: the window still closes at T + 30 (not T + 42, not
    at once): at T + 29.5 the next hand is not dealt, at T + 30 it is."""
    monkeypatch.setenv(TEST_SEED_ENV, "2")
    clock = ManualClock(START)
    settings = _settings(tmp_path, clock, rebuy_seconds=30)
    table, token, broke = _went_broke(settings, clock)
    went_broke_at = clock.now()
    hands = broke["table"]["hands_played"]
    assert broke["table"]["next_hand_at"] == went_broke_at + 30
    clock.advance(12)  # the server is down 12 s
    with TestClient(create_app(settings)) as client:
        summary = client.get(f"/api/tables/{table}").json()
        assert (summary["rebuy_wait"], summary["next_hand_at"]) == ([0], went_broke_at + 30)
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
            clock.advance(17.5)  # T + 29.5
            still = _state(ws)
            assert still["table"]["hands_played"] == hands
            assert still["table"]["rebuy_wait"] == [0]
            assert still["table"]["next_hand_at"] == went_broke_at + 30
            assert still["hand"] is None or still["hand"]["number"] == hands
            clock.advance(0.5)  # T + 30: the window is over, Ana did not choose
            dealt = until(
                ws,
                lambda m: (
                    m["type"] == "state"
                    and m["hand"] is not None
                    and m["hand"]["number"] == hands + 1
                ),
            )
            assert dealt["table"]["rebuy_wait"] == [] and dealt["table"]["next_hand_at"] is None


def test_a_restart_keeps_the_results_pause_and_a_no_rebuy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The result stays 8 s and the window lasts 30 s; Ana says no_rebuy at once, so the
    next hand waits for the pause alone (T + 8). The server stops and starts again at
    T + 3: the window does not wait for Ana again (rebuy_wait stays []), and the pause
    still ends at T + 8: not dealt at T + 7.5, dealt at T + 8."""
    monkeypatch.setenv(TEST_SEED_ENV, "2")
    clock = ManualClock(START)
    settings = _settings(tmp_path, clock, hand_pause=8, rebuy_seconds=30)
    with TestClient(create_app(settings)) as client:
        body = {"seats": ["open", "random", "random", "random"], "stack": 3, "rebuy": True}
        t, _host = post_table(client, {**body, "turn_seconds": 0, "max_hands": 200})
        table = t["id"]
        token = join_table(client, table, "Ana")
        with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
            broke = _play_to(ws, lambda m: m["table"]["rebuy_wait"] == [0])
            ended_at = clock.now()
            assert broke["table"]["next_hand_at"] == ended_at + 30
            ws.send_json({"type": "no_rebuy"})
            chose = until(ws, lambda m: m["type"] == "state" and m["table"]["rebuy_wait"] == [])
            assert chose["table"]["next_hand_at"] == ended_at + 8  # the pause is left
    hands = broke["table"]["hands_played"]
    clock.advance(3)
    with (
        TestClient(create_app(settings)) as client,
        client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws,
    ):
        first = until(ws, lambda m: m["type"] == "state")
        assert first["table"]["rebuy_wait"] == []  # her no_rebuy was kept
        assert first["table"]["next_hand_at"] == ended_at + 8
        clock.advance(4.5)  # T + 7.5
        still = _state(ws)
        assert still["table"]["hands_played"] == hands
        assert still["table"]["next_hand_at"] == ended_at + 8
        clock.advance(0.5)  # T + 8
        until(
            ws,
            lambda m: (
                m["type"] == "state" and m["hand"] is not None and m["hand"]["number"] == hands + 1
            ),
        )
