"""``sit_out``, ``sit_in`` and ``leave`` are taken from the moment a seat is taken: sent
while the table waits for players, they apply to the first hand (online.md "Presence");
and a seat's (re)connection is sent to the others at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app


@pytest.fixture(name="client")
def client_fixture(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'early.db'}", bot_pause=0)
    with TestClient(create_app(settings)) as c:
        yield c


def _until(ws: Any, ok: Any) -> dict[str, Any]:
    for _ in range(500):
        m: dict[str, Any] = ws.receive_json()
        if ok(m):
            return m
    raise AssertionError("not within 500 messages")


def _join(client: TestClient, table: str, name: str) -> str:
    r = client.post(f"/api/tables/{table}/seats", json={"name": name})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


def test_a_sit_out_before_the_first_hand_applies_to_it(client: TestClient) -> None:
    body = {"seats": ["open", "open", "open", "open", "open"], "turn_seconds": 0}
    table = client.post("/api/tables", json=body).json()["id"]
    ana = _join(client, table, "Ana")
    with client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ws:
        first = _until(ws, lambda m: m["type"] == "state")
        assert first["table"]["status"] == "waiting"
        ws.send_json({"type": "sit_out"})
        out = _until(ws, lambda m: m["type"] == "state" and m["version"] > first["version"])
        assert out["table"]["seats"][0]["sitting_out"] is True
        ws.send_json({"type": "sit_out"})  # already so: the same state, no new version
        again = _until(ws, lambda m: m["type"] == "state")
        assert again["version"] == out["version"]
        for name in ("Ben", "Cy", "Dee", "Eve"):
            _join(client, table, name)
        dealt = _until(ws, lambda m: m["type"] == "state" and m["hand"] is not None)
    assert dealt["table"]["status"] == "playing"
    assert dealt["table"]["seats"][0]["sitting_out"] is True
    assert "Ana" not in dealt["hand"]["players"]  # not dealt in: pays no ante


def test_a_sit_in_before_the_first_hand_undoes_it(
    client: TestClient,
) -> None:
    body = {"seats": ["open", "open", "open", "open"], "turn_seconds": 0}
    table = client.post("/api/tables", json=body).json()["id"]
    ana = _join(client, table, "Ana")
    with client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ws:
        _until(ws, lambda m: m["type"] == "state")
        ws.send_json({"type": "sit_out"})
        _until(ws, lambda m: m["type"] == "state" and m["table"]["seats"][0]["sitting_out"])
        ws.send_json({"type": "sit_in"})
        back = _until(
            ws, lambda m: m["type"] == "state" and not m["table"]["seats"][0]["sitting_out"]
        )
        assert back["table"]["status"] == "waiting"
        for name in ("Ben", "Cy", "Dee"):
            _join(client, table, name)
        dealt = _until(ws, lambda m: m["type"] == "state" and m["hand"] is not None)
    assert "Ana" in dealt["hand"]["players"]


def test_a_reconnection_is_broadcast_at_once_with_the_same_version(client: TestClient) -> None:
    body = {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}
    table = client.post("/api/tables", json=body).json()["id"]
    ana, ben = _join(client, table, "Ana"), _join(client, table, "Ben")
    with client.websocket_connect(f"/ws/tables/{table}?token={ana}") as a:
        seen = _until(a, lambda m: m["type"] == "state" and m["hand"] is not None)
        with client.websocket_connect(f"/ws/tables/{table}?token={ben}") as b:
            mine = _until(b, lambda m: m["type"] == "state")
            assert mine["table"]["seats"][1]["connected"] is True
            came = _until(a, lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"])
            assert came["version"] >= seen["version"]
        gone = _until(a, lambda m: m["type"] == "state" and not m["table"]["seats"][1]["connected"])
        with client.websocket_connect(f"/ws/tables/{table}?token={ben}") as b:
            _until(b, lambda m: m["type"] == "state")
            # the broadcast comes unasked; the hand may go on meanwhile (the table moves for
            # Ben while he is away), so its version is the latest Ana was sent, not a new one
            versions = [gone["version"]]

            def reconnected(m: dict[str, Any]) -> bool:
                if m["type"] != "state":
                    return False
                if not m["table"]["seats"][1]["connected"]:
                    versions.append(m["version"])
                    return False
                return True

            back = _until(a, reconnected)
            assert back["table"]["seats"][1]["connected"] is True
            assert back["version"] == max(versions)  # no change stored: the same version


def test_a_bot_the_host_seats_takes_no_name_alike_a_persons(client: TestClient) -> None:
    body = {"seats": ["open", "open", "open", "open"], "turn_seconds": 0}
    r = client.post("/api/tables", json=body)
    table, host = r.json()["id"], r.json()["host_token"]
    _join(client, table, "lorenzo")  # BOT_NAMES[0] "Lorenzo", case aside
    _join(client, table, "lsabella")  # "Isabella" with l for I: a look-alike (UTS #39)
    r = client.post(
        f"/api/tables/{table}/seats/2/bot",
        json={"kind": "random"},
        headers={"Authorization": f"Bearer {host}"},
    )
    assert r.status_code == 204, r.text
    names = [s["name"] for s in client.get(f"/api/tables/{table}").json()["seats"]]
    assert names[:3] == ["lorenzo", "lsabella", "Girolamo"]
