"""Private tables and a host in charge, in-process (FastAPI's TestClient, SQLite):
the lobby lists only listed tables, a join at an approval table waits for the host, the
host removes a person and passes the host role (docs/protocol.md "Private tables:
listed and approval", "Passing the host role", ``DELETE /api/tables/{id}/seats/{k}``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from primero.server.seatchange import REFUSED_WORDS, REMOVED_WORDS
from tests.client_policy import choose_line
from tests.server_helpers import until

pytestmark = pytest.mark.timeout(120)

TWO = {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", bot_pause=0)
    with TestClient(create_app(settings)) as c:
        yield c


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def _table(client: TestClient, **extra: Any) -> tuple[str, str]:
    r = client.post("/api/tables", json={**TWO, **extra})
    assert r.status_code == 201, r.text
    return r.json()["id"], r.json()["host_token"]


def _host_seat(client: TestClient, table: str, host: str, name: str = "Ana") -> str:
    """The host takes a seat with the host token: their own (``host_seat``)."""
    r = client.post(f"/api/tables/{table}/seats", json={"name": name}, headers=_bearer(host))
    assert r.status_code == 201, r.text
    assert r.json()["waiting"] is False
    return str(r.json()["token"])


def _state(ws: Any, pred: Any = lambda m: True) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "state" and pred(m))


def _act(ws: Any, m: dict[str, Any]) -> None:
    """Send a legal move of the seat ``m`` is the state of (chosen from its view)."""
    move = {"type": "action", "id": f"m{m['version']}", "line": choose_line(m)}
    ws.send_json({**move, "version": m["version"]})


def _summary(client: TestClient, table: str) -> dict[str, Any]:
    r = client.get(f"/api/tables/{table}")
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def test_a_table_is_unlisted_unless_created_or_patched_listed(client: TestClient) -> None:
    """The lobby lists only ``listed`` tables; a private one is reached by its link; the
    host lists it with PATCH (a request without the host token changes nothing)."""
    private, host = _table(client)
    public, _ = _table(client, listed=True, name="Open night")
    assert [t["id"] for t in client.get("/api/tables").json()] == [public]
    seen = _summary(client, private)
    assert (seen["listed"], seen["approval"], seen["host_seat"]) == (False, False, None)
    assert _summary(client, public)["listed"] is True
    r = client.patch(f"/api/tables/{private}", json={"listed": True})
    assert r.status_code == 401, r.text
    assert [t["id"] for t in client.get("/api/tables").json()] == [public]
    r = client.patch(f"/api/tables/{private}", json={"listed": True}, headers=_bearer(host))
    assert r.status_code == 200, r.text
    assert r.json()["listed"] is True and r.json()["approval"] is False
    assert [t["id"] for t in client.get("/api/tables").json()] == [public, private]  # newest first
    r = client.patch(f"/api/tables/{private}", json={"listed": False}, headers=_bearer(host))
    assert [t["id"] for t in client.get("/api/tables").json()] == [public]


def test_a_join_at_an_approval_table_waits_and_the_host_accepts(client: TestClient) -> None:
    """The request is stored and shown to the host only; the asker's page says they
    wait; Accept seats them with their own token and the match starts."""
    table, host = _table(client, approval=True)
    ana = _host_seat(client, table, host)  # the host's own seat: no approval
    assert _summary(client, table)["host_seat"] == 0
    r = client.post(f"/api/tables/{table}/seats", json={"name": "Ben"})
    assert r.status_code == 202, r.text
    assert r.json()["seat"] is None and r.json()["waiting"] is True
    ben = r.json()["token"]
    r = client.post(f"/api/tables/{table}/seats", json={"name": "ben"})
    assert r.status_code == 400 and "already at this table" in r.json()["detail"]
    assert _summary(client, table)["seats"][1]["kind"] == "open"  # nothing seated
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={ana}") as host_ws,
        client.websocket_connect(f"/ws/tables/{table}?token={ben}") as asker,
        client.websocket_connect(f"/ws/tables/{table}") as spectator,
    ):
        shown = _state(host_ws)
        assert len(shown["join_requests"]) == 1
        request = shown["join_requests"][0]
        assert (request["name"], request["text"]) == ("Ben", "Ben asks to join")
        waiting = _state(asker)
        assert waiting["notice"] == "You asked to join as Ben: waiting for the host to let you in."
        assert waiting["join_requests"] is None and waiting["your_seat"] is None
        watching = _state(spectator)
        assert watching["join_requests"] is None and watching["notice"] is None
        r = client.post(f"/api/tables/{table}/requests/{request['id']}/accept")
        assert r.status_code == 401
        r = client.post(
            f"/api/tables/{table}/requests/{request['id']}/accept", headers=_bearer(host)
        )
        assert r.status_code == 204, r.text
        seated = _state(asker, lambda m: m["your_seat"] == 1)
        assert seated["notice"] is None and seated["table"]["seats"][1]["name"] == "Ben"
        assert _state(host_ws, lambda m: m["join_requests"] == [])["table"]["status"] in (
            "playing",
            "paused",
        )
    r = client.post(f"/api/tables/{table}/requests/{request['id']}/accept", headers=_bearer(host))
    assert r.status_code == 404 and "no join request" in r.json()["detail"]


def test_a_refused_asker_is_told_and_nothing_else_changes(client: TestClient) -> None:
    table, host = _table(client, approval=True)
    _host_seat(client, table, host)
    r = client.post(f"/api/tables/{table}/seats", json={"name": "Cleo"})
    ben = r.json()["token"]
    with client.websocket_connect(f"/ws/tables/{table}?token={ben}") as asker:
        _state(asker)
        before = _summary(client, table)
        request = client.app.state.hub.tables[table].evening.requests[0].id  # type: ignore[attr-defined]
        r = client.post(f"/api/tables/{table}/requests/{request}/refuse", headers=_bearer(host))
        assert r.status_code == 204, r.text
        told = _state(asker, lambda m: m["notice"] == REFUSED_WORDS)
        assert told["your_seat"] is None
    after = _summary(client, table)
    assert after["seats"] == before["seats"] and after["status"] == "waiting"
    r = client.post(f"/api/tables/{table}/requests/{request}/accept", headers=_bearer(host))
    assert r.status_code == 404


def test_the_host_removes_a_person_and_bad_requests_change_nothing(client: TestClient) -> None:
    """In a hand in play the person's token stops at once and their page is told; the
    seat becomes the bot when the hand ends; their ledger row stays. Each bad request is
    answered in words and changes nothing."""
    table, host = _table(client, seats=["open", "open", "heuristic"], rules={"min_players": 3})
    ana = _host_seat(client, table, host)
    ben = client.post(f"/api/tables/{table}/seats", json={"name": "Ben"}).json()["token"]
    base = f"/api/tables/{table}/seats"
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ana_ws,
        client.websocket_connect(f"/ws/tables/{table}?token={ben}") as ben_ws,
    ):
        start = _state(ana_ws, lambda m: m["hand"] is not None)
        _state(ben_ws, lambda m: m["hand"] is not None)

        def who() -> Any:
            seen = _summary(client, table)
            return [(x["name"], x["kind"]) for x in seen["seats"]], seen["removed"]

        before = who()
        for path, headers, code, words in (
            (f"{base}/1", {}, 401, "Authorization"),
            (f"{base}/1", _bearer(ben), 403, "not this table's host token"),
            (f"{base}/7", _bearer(host), 404, "there is no seat 7 at this table"),
            (f"{base}/2", _bearer(host), 400, "a bot: only a person can be removed"),
            (f"{base}/0", _bearer(host), 400, "your own seat"),
            (f"{base}/1?bot=nobody", _bearer(host), 400, "unknown bot kind"),
        ):
            r = client.delete(path, headers=headers)
            assert r.status_code == code, (path, r.text)
            assert words in r.json()["detail"], r.text
        assert (
            who()
            == before
            == ([("Ana", "person"), ("Ben", "person"), ("Lorenzo", "heuristic")], [])
        )
        r = client.delete(f"{base}/1?bot=random", headers=_bearer(host))
        assert r.status_code == 204, r.text
        told = _state(ben_ws, lambda m: m["notice"] == REMOVED_WORDS)
        assert told["your_seat"] is None and told["legal"] is None
        ben_ws.send_json({"type": "action", "id": "late", "line": "f"})
        refused = until(ben_ws, lambda m: m["type"] == "error")
        assert "spectators may not act" in refused["message"]
        r = client.delete(f"{base}/1", headers=_bearer(host))
        assert r.status_code == 409 and "already being removed" in r.json()["detail"]
        m = start
        for _ in range(400):  # Ana plays the hand out; Ben's turns are the table's
            if m["table"]["seats"][1]["kind"] == "random":
                break
            if m["legal"] is not None:
                _act(ana_ws, m)
            m = _state(ana_ws)
        seat = m["table"]["seats"][1]
        assert seat["kind"] == "random" and seat["name"] != "Ben", seat
        assert seat["chips"] == 100 and seat["ledger"] == {"bought_in": 100, "net": 0}
        [row] = m["table"]["removed"]
        assert row["name"] == "Ben" and row["bought_in"] == 100
        assert row["net"] == row["chips"] - 100
    with client.websocket_connect(f"/ws/tables/{table}?token={ben}") as again:
        assert _state(again)["notice"] == REMOVED_WORDS  # a reload says it too


def test_the_host_role_goes_to_the_new_host_s_connection_only(client: TestClient) -> None:
    table, host = _table(client)
    ana = _host_seat(client, table, host)
    ben = client.post(f"/api/tables/{table}/seats", json={"name": "Ben"}).json()["token"]
    r = client.post(f"/api/tables/{table}/host", json={"seat": 1}, headers=_bearer(host))
    assert r.status_code == 409 and "no connection open" in r.json()["detail"]
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ana_ws,
        client.websocket_connect(f"/ws/tables/{table}?token={ben}") as ben_ws,
    ):
        _state(ana_ws)
        _state(ben_ws)
        r = client.post(f"/api/tables/{table}/host", json={"seat": 0}, headers=_bearer(host))
        assert r.status_code == 400 and "already hosts" in r.json()["detail"]
        r = client.post(f"/api/tables/{table}/host", json={"seat": 1}, headers=_bearer(host))
        assert r.status_code == 204, r.text
        given = until(ben_ws, lambda m: m["type"] == "host_token")
        new = given["token"]
        assert new != host and len(new) >= 22
        seen = _state(ana_ws, lambda m: m["table"]["host_seat"] == 1)
        assert "host_token" not in str(seen)
    r = client.patch(f"/api/tables/{table}", json={"listed": True}, headers=_bearer(host))
    assert r.status_code == 403
    r = client.patch(f"/api/tables/{table}", json={"listed": True}, headers=_bearer(new))
    assert r.status_code == 200 and r.json()["host_seat"] == 1


def test_a_person_out_of_the_hand_is_removed_at_once_and_the_seat_opens(
    client: TestClient,
) -> None:
    """Ben sits out before the first hand; with that hand in play (without him) the host
    removes him with no bot: the seat is open at once, his ledger row kept, and Cleo
    takes it mid-match with the table's stack, dealt in from the next hand."""
    table, host = _table(
        client, seats=["open", "open", "open", "heuristic"], rules={"min_players": 2}
    )
    ana = _host_seat(client, table, host)
    ben = client.post(f"/api/tables/{table}/seats", json={"name": "Ben"}).json()["token"]
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ana_ws,
        client.websocket_connect(f"/ws/tables/{table}?token={ben}") as ben_ws,
    ):
        _state(ben_ws)
        ben_ws.send_json({"type": "sit_out"})  # kept for the first hand
        _state(ben_ws, lambda m: m["table"]["seats"][1]["sitting_out"])
        r = client.post(f"/api/tables/{table}/seats", json={"name": "Dan"})
        assert r.status_code == 201, r.text  # the last open seat: the match starts
        dealt = _state(ana_ws, lambda m: m["hand"] is not None)
        assert 1 not in dealt["hand"]["table_seats"]
        r = client.delete(f"/api/tables/{table}/seats/1", headers=_bearer(host))
        assert r.status_code == 204, r.text
        told = _state(ben_ws, lambda m: m["notice"] == REMOVED_WORDS)
        seat = told["table"]["seats"][1]
        assert (seat["name"], seat["kind"], seat["chips"]) == (None, "open", 0)
        assert told["table"]["removed"] == [
            {"name": "Ben", "bought_in": 100, "chips": 100, "net": 0}
        ]
    r = client.post(f"/api/tables/{table}/seats", json={"name": "Cleo"})
    assert r.status_code == 201 and r.json()["seat"] == 1, r.text
    seat = _summary(client, table)["seats"][1]
    assert (seat["name"], seat["kind"], seat["chips"]) == ("Cleo", "person", 100)
    assert seat["ledger"] == {"bought_in": 100, "net": 0} and not seat["left"]
    assert not seat["sitting_out"]


def test_a_full_table_keeps_a_request_and_a_waiting_table_removes_at_once(
    client: TestClient,
) -> None:
    """Accept with no seat open is 409 and the request stays; at a table still waiting
    for players a removal is made at once (here a bot takes the seat)."""
    table, host = _table(client, seats=["open", "open", "open"], approval=True)
    _host_seat(client, table, host)
    asks = [client.post(f"/api/tables/{table}/seats", json={"name": n}) for n in ("Ben", "Cleo")]
    assert [r.status_code for r in asks] == [202, 202]
    ids = [r.id for r in client.app.state.hub.tables[table].evening.requests]  # type: ignore[attr-defined]
    base = f"/api/tables/{table}/requests"
    r = client.post(f"{base}/{ids[0]}/accept", headers=_bearer(host))
    assert r.status_code == 204, r.text
    r = client.delete(f"/api/tables/{table}/seats/1?bot=random", headers=_bearer(host))
    assert r.status_code == 204, r.text
    seen = _summary(client, table)
    assert [s["kind"] for s in seen["seats"]] == ["person", "random", "open"]
    assert seen["status"] == "waiting" and seen["seats"][1]["name"] != "Ben"
    assert seen["removed"] == [{"name": "Ben", "bought_in": 100, "chips": 100, "net": 0}]
    r = client.patch(f"/api/tables/{table}", json={"approval": False}, headers=_bearer(host))
    assert r.status_code == 200 and r.json()["approval"] is False
    dan = client.post(f"/api/tables/{table}/seats", json={"name": "Dan"})
    assert dan.status_code == 201 and dan.json()["seat"] == 2  # seated at once: full now
    r = client.post(f"{base}/{ids[1]}/accept", headers=_bearer(host))
    assert r.status_code == 409 and "no seat is open" in r.json()["detail"]
    assert [x.name for x in client.app.state.hub.tables[table].evening.requests] == ["Cleo"]  # type: ignore[attr-defined]


def test_a_seat_reopened_before_the_match_holds_the_stack_for_the_next_to_join(
    client: TestClient,
) -> None:
    """The host removes Ana before the match starts, leaving the seat open: whoever joins
    it plays with the table's stack (100), as at a new table, and owes nothing."""
    table, host = _table(client, seats=["open", "heuristic", "open", "random"])
    r = client.post(f"/api/tables/{table}/seats", json={"name": "Ana", "seat": 0})
    assert r.status_code == 201, r.text
    r = client.delete(f"/api/tables/{table}/seats/0", headers=_bearer(host))
    assert r.status_code == 204, r.text
    seat = _summary(client, table)["seats"][0]
    assert (seat["kind"], seat["chips"]) == ("open", 100)
    r = client.post(f"/api/tables/{table}/seats", json={"name": "Bob", "seat": 0})
    assert r.status_code == 201, r.text
    bob = _summary(client, table)["seats"][0]
    assert (bob["name"], bob["chips"], bob["ledger"]) == ("Bob", 100, {"bought_in": 100, "net": 0})
