"""The server's limits of online.md "Limits" in process (no ``primero serve``): what the
mutation sweep of ``server/limits.py`` showed no fast test held (CONTRIBUTING.md,
"Mutation testing"). ``--max-tables`` and ``--create-rate`` through the REST API on
SQLite with a clock moved by hand; the body limit as bare ASGI calls."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from primero.server.limits import BODY_LIMIT, CREATE_WINDOW, FULL_RETRY, BodyLimit, TooMany

pytestmark = pytest.mark.timeout(60)

OPEN4 = {"seats": ["open"] * 4}


class Clock:
    """A clock the test moves by hand (unix seconds)."""

    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def _client(tmp_path: Path, clock: Clock, create_rate: int, max_tables: int) -> TestClient:
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'l.db'}",
            bot_pause=0,
            bot_processes=0,
            create_rate=create_rate,
            max_tables=max_tables,
            wall_clock=clock,
        )
    )
    return TestClient(app)


@pytest.fixture
def clock() -> Clock:
    return Clock(1_700_000_000.0)


def test_the_documented_values() -> None:
    assert (BODY_LIMIT, CREATE_WINDOW, FULL_RETRY) == (65_536, 60, 60)
    assert TooMany("x", 0).retry_after == 1 and TooMany("x", 7).retry_after == 7


def test_max_tables_counts_the_live_tables(tmp_path: Path, clock: Clock) -> None:
    with _client(tmp_path, clock, create_rate=0, max_tables=2) as client:
        listed = {**OPEN4, "listed": True}  # the lobby lists them
        assert [client.post("/api/tables", json=listed).status_code for _ in range(2)] == [201, 201]
        full = client.post("/api/tables", json=OPEN4)
        assert full.status_code == 429
        assert full.headers["retry-after"] == "60"
        assert full.json()["detail"] == ("the server has 2 tables open, its limit: try again later")
        # A minute later the two tables are still waiting: still full.
        clock.now += 3600
        assert client.post("/api/tables", json=OPEN4).status_code == 429
        assert len(client.get("/api/tables").json()) == 2


def test_a_max_tables_of_one_says_table_in_the_singular(tmp_path: Path, clock: Clock) -> None:
    with _client(tmp_path, clock, create_rate=0, max_tables=1) as client:
        assert client.post("/api/tables", json=OPEN4).status_code == 201
        full = client.post("/api/tables", json=OPEN4)
        assert full.status_code == 429 and full.headers["retry-after"] == "60"
        assert full.json()["detail"] == "the server has 1 table open, its limit: try again later"


def test_no_limit_when_both_are_0(tmp_path: Path, clock: Clock) -> None:
    with _client(tmp_path, clock, create_rate=0, max_tables=0) as client:
        codes = [client.post("/api/tables", json=OPEN4).status_code for _ in range(4)]
        assert codes == [201] * 4


def test_a_create_rate_of_one_says_table_in_the_singular(tmp_path: Path, clock: Clock) -> None:
    with _client(tmp_path, clock, create_rate=1, max_tables=0) as client:
        assert client.post("/api/tables", json=OPEN4).status_code == 201
        clock.now += 15
        r = client.post("/api/tables", json=OPEN4)
        # Created at second 0, now second 15: the window frees it at second 60.
        assert r.status_code == 429 and r.headers["retry-after"] == "45"
        assert r.json()["detail"] == (
            "at most 1 table a minute from one address: try again in 45 seconds"
        )


def test_a_create_rate_of_three_says_tables(tmp_path: Path, clock: Clock) -> None:
    with _client(tmp_path, clock, create_rate=3, max_tables=0) as client:
        for _ in range(3):
            assert client.post("/api/tables", json=OPEN4).status_code == 201
        clock.now += 0.5  # half a second later: the first frees 59.5 s on, said as 60
        r = client.post("/api/tables", json=OPEN4)
        assert r.status_code == 429 and r.headers["retry-after"] == "60"
        assert r.json()["detail"] == (
            "at most 3 tables a minute from one address: try again in 60 seconds"
        )


# --------------------------------------------------------------------------- body limit


class _App:
    """An ASGI app that reads the whole body, then answers 200 with what it read."""

    def __init__(self) -> None:
        self.calls = 0
        self.read: list[dict[str, Any]] = []

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.calls += 1
        if scope["type"] != "http":
            await send({"type": "websocket.accept"})
            return
        while True:
            message = await receive()
            self.read.append(message)
            if message["type"] != "http.request" or not message.get("more_body"):
                break
        if self.read[-1]["type"] == "http.disconnect":  # asked again (as a listener for
            self.read.append(await receive())  # the client leaving does): still gone
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"ok"})


def _call(
    limit: int, chunks: list[bytes], headers: list[tuple[bytes, bytes]], kind: str = "http"
) -> tuple[_App, list[dict[str, Any]]]:
    app = _App()
    queue = [
        {"type": "http.request", "body": c, "more_body": i < len(chunks) - 1}
        for i, c in enumerate(chunks)
    ]
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return queue.pop(0) if queue else {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {"type": kind, "headers": headers}
    asyncio.run(BodyLimit(app, limit)(scope, receive, send))
    return app, sent


def _refusal(limit_kib: int) -> list[dict[str, Any]]:
    body = json.dumps({"detail": f"the request body is over {limit_kib} KiB: send less"}).encode()
    return [
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        },
        {"type": "http.response.body", "body": body},
    ]


def test_a_content_length_over_the_limit_is_413_before_the_app() -> None:
    app, sent = _call(2048, [b"x" * 2049], [(b"content-length", b"2049")])
    assert app.calls == 0
    assert sent == _refusal(2)
    body = json.loads(sent[1]["body"])
    assert body == {"detail": "the request body is over 2 KiB: send less"}


def test_a_body_of_exactly_the_limit_is_taken() -> None:
    app, sent = _call(2048, [b"x" * 1024, b"x" * 1024], [(b"content-length", b"2048")])
    assert app.calls == 1
    assert sent[0]["status"] == 200 and sent[1]["body"] == b"ok"
    assert sum(len(m["body"]) for m in app.read) == 2048


def test_a_body_without_a_length_is_counted_as_it_is_read() -> None:
    # 1024 + 1024 + 1 bytes with no Content-Length (or one that is not a number): the
    # third chunk passes 2048; the app sees the client leave, its answer is dropped.
    for headers in ([], [(b"content-length", b"ten")], [(b"x-other", b"9999")]):
        app, sent = _call(2048, [b"x" * 1024, b"x" * 1024, b"x"], headers)
        assert app.calls == 1
        assert [m["type"] for m in app.read] == [
            "http.request",
            "http.request",
            "http.disconnect",
            "http.disconnect",
        ]
        assert sent == _refusal(2)


def test_a_websocket_passes_through_untouched() -> None:
    app, sent = _call(10, [], [(b"content-length", b"999")], kind="websocket")
    assert app.calls == 1 and sent == [{"type": "websocket.accept"}]
