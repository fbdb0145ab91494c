"""A real ``primero serve`` killed and started again while a table's rebuy window is
open (docs/protocol.md "Between hands"): the window is kept, so the table still waits
for the person who went broke; her rebuy ends the wait. The window lasts 300 s: nothing
here depends on how fast the machine is. The in-process tests of what is left of a wait
on a hand-moved clock: tests/server/test_server_between_restart.py."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.client_policy import choose_line
from tests.server_helpers import (
    LiveServer,
    join_table,
    open_table_ws,
    post_table,
    receive,
)

pytestmark = pytest.mark.timeout(300)  # a server that stops answering fails, not hangs

#: Hand 1 leaves Ana broke at stacks of 3 (as in the in-process tests).
SEED = {"PRIMERO_TEST_SEED": "2"}


def _start(url: str, cwd: Path) -> LiveServer:
    return LiveServer(url, cwd, "--bot-processes", "0", env=SEED).start()


@pytest.mark.soak
def test_a_killed_server_keeps_the_rebuy_window_and_a_rebuy_ends_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'window.db'}"
    live = _start(url, tmp_path)
    try:
        body = {
            "seats": ["open", "random", "random", "random"],
            "stack": 3,
            "rebuy": True,
            "rebuy_seconds": 300,
            "turn_seconds": 0,
            "max_hands": 200,
        }
        t, _host = post_table(live, body)
        table = t["id"]
        assert t["rebuy_seconds"] == 300
        token = join_table(live, table, "Ana")
        acted: set[int] = set()
        with open_table_ws(live, table, token) as ws:
            for _ in range(3000):
                m = receive(ws)
                if m["type"] != "state":
                    continue
                if m["table"]["rebuy_wait"] == [0]:
                    break
                if m["legal"] is not None and m["version"] not in acted:
                    acted.add(m["version"])
                    line = choose_line(m)
                    action = {"type": "action", "id": f"a{m['version']}", "line": line}
                    ws.send(json.dumps({**action, "version": m["version"]}))
            else:
                raise AssertionError("Ana never went broke")
        broke = m["table"]
        assert broke["seats"][0]["chips"] == 0 and broke["next_hand_at"] is not None
        hands = broke["hands_played"]
    finally:
        live.kill()  # kill -9: nothing is written on the way out
    live = _start(url, tmp_path)
    try:
        with open_table_ws(live, table, token) as ws:
            first = _next_state(ws)
            # still waiting for her: the same window, the next hand not dealt
            assert first["table"]["rebuy_wait"] == [0]
            assert first["table"]["next_hand_at"] == broke["next_hand_at"]
            assert first["table"]["hands_played"] == hands
            assert first["hand"] is None or first["hand"]["number"] == hands
            ws.send(json.dumps({"type": "rebuy"}))
            while True:  # until her rebuy is in: no hand dealt before it
                m = _next_state(ws)
                if m["table"]["seats"][0]["chips"] == 3:
                    break
                assert m["table"]["hands_played"] == hands
                assert m["hand"] is None or m["hand"]["number"] == hands, "dealt before she chose"
            assert m["table"]["seats"][0]["ledger"] == {"bought_in": 6, "net": -3}
            assert m["table"]["rebuy_wait"] == []
            assert m["hand"] is None or m["hand"]["number"] == hands
            # her rebuy ended the wait: the next hand comes without the window's 300 s
            while m["hand"] is None or m["hand"]["number"] == hands:
                m = _next_state(ws)
            assert m["hand"]["number"] == hands + 1 and m["table"]["next_hand_at"] is None
    finally:
        live.kill()


def _next_state(ws: Any) -> dict[str, Any]:
    """The next ``state`` frame (30 s at most, :func:`receive`)."""
    while True:
        m = receive(ws)
        if m["type"] == "state":
            return m
