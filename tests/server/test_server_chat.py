"""Chat bounded per table (server/chat.py, online.md "Chat"): spectators' chat is closed
until the host opens it, and the lines one connection, and one table, relay are bounded
(a ManualClock-like rate clock: no real waits)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from primero.server.chat import CLOSED_WORDS, SENDER_WORDS, TABLE_WORDS


class Tick:
    """A rate clock the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(name="setup")
def setup_fixture(tmp_path: Path) -> Iterator[tuple[TestClient, Tick]]:
    tick = Tick()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'chat.db'}", bot_pause=0, rate_clock=tick
    )
    with TestClient(create_app(settings)) as client:
        yield client, tick


def _table(client: TestClient) -> tuple[str, str, list[str]]:
    body = {"seats": ["open"] * 4, "turn_seconds": 0}
    r = client.post("/api/tables", json=body)
    assert r.status_code == 201, r.text
    table, host = r.json()["id"], r.json()["host_token"]
    tokens = []
    for name in ("Ana", "Ben", "Cy", "Dee"):
        r = client.post(f"/api/tables/{table}/seats", json={"name": name})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["token"])
    return table, host, tokens


def _until(ws: Any, kind: str) -> dict[str, Any]:
    for _ in range(200):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == kind:
            return m
    raise AssertionError(f"no {kind} in 200 messages")


def test_spectators_chat_only_once_the_host_opens_it(setup: tuple[TestClient, Tick]) -> None:
    client, tick = setup
    table, host, tokens = _table(client)
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={tokens[0]}") as ana,
        client.websocket_connect(f"/ws/tables/{table}") as watcher,
    ):
        _until(ana, "state")
        _until(watcher, "state")
        watcher.send_text(json.dumps({"type": "chat", "text": "hello all"}))
        assert _until(watcher, "error")["message"] == CLOSED_WORDS
        r = client.patch(
            f"/api/tables/{table}",
            json={"spectator_chat": True},
            headers={"Authorization": f"Bearer {host}"},
        )
        assert r.status_code == 200 and r.json()["spectator_chat"] is True, r.text
        tick.now += 10
        watcher.send_text(json.dumps({"type": "chat", "text": "hello now"}))
        line = _until(ana, "chat")
        assert line["text"] == "hello now" and line["spectator"] is True
        ana.send_text(json.dumps({"type": "chat", "text": "hi"}))
        assert _until(ana, "chat")["from"] == "Ana"
    # closed again: kept in the database, shown in the summary
    r = client.patch(
        f"/api/tables/{table}",
        json={"spectator_chat": False},
        headers={"Authorization": f"Bearer {host}"},
    )
    assert r.json()["spectator_chat"] is False
    assert client.get(f"/api/tables/{table}").json()["spectator_chat"] is False


def test_a_sender_and_a_table_are_bounded(setup: tuple[TestClient, Tick]) -> None:
    client, tick = setup
    table, _host, tokens = _table(client)
    conns = [client.websocket_connect(f"/ws/tables/{table}?token={t}") for t in tokens]
    socks = [c.__enter__() for c in conns]
    try:
        for ws in socks:
            _until(ws, "state")
        ana = socks[0]
        # three at once (the burst), the fourth refused: nothing relayed for it
        for i in range(3):
            ana.send_text(json.dumps({"type": "chat", "text": f"a{i}"}))
            assert _until(ana, "chat")["text"] == f"a{i}"
        ana.send_text(json.dumps({"type": "chat", "text": "a3"}))
        assert _until(ana, "error")["message"] == SENDER_WORDS
        tick.now += 1.0  # one more line a second
        ana.send_text(json.dumps({"type": "chat", "text": "a4"}))
        assert _until(ana, "chat")["text"] == "a4"
        # the table: 8 lines at once in all, 4 more a second. a0-a2 took 3 (5 left), a second
        # gave 4 back (8, the burst), a4 took one: 7 left for the 9 the others send now
        # a refusal is told once a second at most: Dee's second refused line is silent
        relayed, told = 0, 0
        for n, ws in enumerate(socks[1:]):
            for i in range(3):
                text = f"x{n}{i}"
                ws.send_text(json.dumps({"type": "chat", "text": text}))
                # a marker: a blank line, always refused in words (text rules come first)
                ws.send_text(json.dumps({"type": "chat", "text": " "}))
                while "white space" not in (m := ws.receive_json()).get("message", ""):
                    if m["type"] == "error":
                        assert m["message"] == TABLE_WORDS
                        told += 1
                    elif m["type"] == "chat" and m["text"] == text:
                        relayed += 1
        assert (relayed, told) == (7, 1)
    finally:
        for c in conns:
            c.__exit__(None, None, None)
