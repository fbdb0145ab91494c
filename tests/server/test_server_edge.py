"""The server's edge against a real ``primero serve`` subprocess on 127.0.0.1, on SQLite and on
PostgreSQL (docs/protocol.md "Text" and "Limits"): creation floods and ``--max-tables`` get 429,
a table takes a bounded number of connections (the next gets 1013) and the server still answers,
``Host`` is checked, a token sent as ``?tok%65n=`` is neither taken nor logged, look-alike names
are refused, a NUL in an action id is an ``error`` with nothing stored, stacks of 10^9 play."""

from __future__ import annotations

import asyncio
import json
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from websockets.asyncio.client import connect as aconnect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from primero.bots import BOT_NAMES
from tests.server_helpers import (
    NO_WAITS,
    PRIMERO,
    SERVER_STORES,
    LiveServer,
    database,
    post_table,
    receive,
    settled,
    until,
)

pytestmark = pytest.mark.timeout(180)  # a server that stops answering fails, not hangs

#: ``Settings.table_connections`` (documented in docs/protocol.md "Limits").
TABLE_CONNECTIONS = 100
WAIT = 30.0  # seconds any awaited thing may take before the test fails with a message


@pytest.fixture(scope="module", params=SERVER_STORES)
def db_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    with database(request.param, tmp_path_factory.mktemp("db")) as url:
        yield url


@pytest.fixture(scope="module")
def server(db_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server per database: no creation limit (the flood has its own server)."""
    live = LiveServer(
        db_url,
        tmp_path_factory.mktemp("srv"),
        "--create-rate",
        "0",
        "--allow-host",
        "play.example",
        "--bot-processes",
        "0",  # the edge, not the bots' workers
        "--connections-per-address",
        "0",  # 500 spectators from 127.0.0.1 meet the table's cap, not the address's
    ).start()
    yield live
    live.kill()


# --------------------------------------------------------------------------- limits


def test_creation_floods_and_max_tables_get_429(db_url: str, tmp_path: Path) -> None:
    """``--create-rate 2`` per client address, ``--max-tables 4``; the proxy at 127.0.0.1
    is trusted, so each X-Forwarded-For is a client of its own."""
    # a fresh database each: this server's own counts (one per database kind)
    with database("sqlite" if db_url.startswith("sqlite") else "postgresql", tmp_path) as url:
        live = LiveServer(
            url,
            tmp_path,
            "--create-rate",
            "2",
            "--max-tables",
            "4",
            "--forwarded-allow-ips",
            "127.0.0.1",
            "--bot-processes",
            "0",
        ).start()
        try:

            def create(client: str) -> httpx.Response:
                return httpx.post(
                    f"{live.http}/api/tables",
                    json={"seats": ["open"] * 4, "listed": True},  # the lobby counts them
                    timeout=10,
                    headers={"X-Forwarded-For": client},
                )

            codes = [create("203.0.113.1").status_code for _ in range(2)]
            flood = create("203.0.113.1")
            assert codes == [201, 201] and flood.status_code == 429, flood.text
            assert 1 <= int(flood.headers["retry-after"]) <= 60
            assert "at most 2 tables a minute" in flood.json()["detail"]
            assert [create("203.0.113.2").status_code for _ in range(2)] == [201, 201]
            full = create("203.0.113.3")  # a new client, but four tables are waiting
            assert full.status_code == 429 and int(full.headers["retry-after"]) >= 1
            assert "4 tables open" in full.json()["detail"]
            assert len(httpx.get(f"{live.http}/api/tables", timeout=10).json()) == 4
        finally:
            live.kill()


async def _spectators(url: str, n: int) -> tuple[int, list[int]]:
    """Open ``n`` spectator connections at once: how many got a state, and the close codes
    of those refused; the accepted ones stay open until the end."""

    async def one() -> Any:
        ws = await aconnect(url, open_timeout=WAIT, proxy=None)
        try:
            m = json.loads(await asyncio.wait_for(ws.recv(), WAIT))
        except ConnectionClosed as exc:
            return exc.rcvd.code if exc.rcvd is not None else -1
        assert m["type"] == "state" and m["legal"] is None
        return ws

    results = await asyncio.gather(*(one() for _ in range(n)))
    opened = [r for r in results if not isinstance(r, int)]
    codes = [r for r in results if isinstance(r, int)]
    await asyncio.gather(*(ws.close() for ws in opened))
    return len(opened), codes


def test_500_spectators_are_capped_and_the_server_still_answers(server: LiveServer) -> None:
    table = post_table(server, {"seats": ["open"] * 4})[0]["id"]
    url = f"{server.ws}/ws/tables/{table}"
    with connect(url, open_timeout=WAIT, proxy=None) as first:  # held through the flood
        assert receive(first)["type"] == "state"

        async def flood() -> tuple[int, list[int], int]:
            task = asyncio.ensure_future(_spectators(url, 499))
            await asyncio.sleep(0)
            async with httpx.AsyncClient(timeout=WAIT) as http:
                answered = (await http.get(f"{server.http}/api/tables/{table}")).status_code
            opened, codes = await task
            return opened, codes, answered

        opened, codes, answered = asyncio.run(flood())
    assert answered == 200  # REST answered while 500 connections came in
    assert opened == TABLE_CONNECTIONS - 1  # with `first`, the documented cap
    assert codes == [1013] * (499 - opened)
    r = httpx.get(f"{server.http}/api/tables/{table}", timeout=WAIT)
    assert r.status_code == 200
    with connect(url, open_timeout=WAIT, proxy=None) as again:  # the closed ones are gone
        assert receive(again)["type"] == "state"


# --------------------------------------------------------------------------- Host, tokens


def test_a_foreign_host_is_refused(server: LiveServer) -> None:
    api = f"{server.http}/api/tables"
    r = httpx.get(api, headers={"Host": "evil.example"}, timeout=10)
    assert r.status_code == 400 and "evil.example" in r.json()["detail"]
    for ok in ("localhost:1234", "127.0.0.1", "[::1]:80", "play.example:8000", "PLAY.example"):
        assert httpx.get(api, headers={"Host": ok}, timeout=10).status_code == 200, ok
    assert httpx.get(f"{server.http}/", headers={"Host": "evil.example"}).status_code == 400
    table = post_table(server, {"seats": ["open"] * 4})[0]["id"]
    with pytest.raises(InvalidStatus) as refused:  # a second Host header does not pass
        connect(
            f"{server.ws}/ws/tables/{table}",
            additional_headers={"Host": "evil.example"},
            open_timeout=10,
            proxy=None,
        )
    assert refused.value.response.status_code == 400
    with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
        raw.sendall(
            f"GET /ws/tables/{table} HTTP/1.1\r\nHost: evil.example\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert raw.recv(4096).startswith(b"HTTP/1.1 400")


def test_a_token_under_a_disguised_key_is_not_taken_nor_logged(server: LiveServer) -> None:
    t, _ = post_table(server, {"seats": ["open", "random", "random", "random"]})
    r = httpx.post(f"{server.http}/api/tables/{t['id']}/seats", json={"name": "Tok"}, timeout=10)
    token = r.json()["token"]
    disguised = f"{server.ws}/ws/tables/{t['id']}?tok%65n={token}"
    with connect(disguised, open_timeout=WAIT, proxy=None) as ws:
        state = receive(ws)
        assert state["legal"] is None  # a spectator: the key is not the literal `token`
        assert state["hand"] is None or state["hand"]["seat"] is None
    r = httpx.get(f"{server.http}/api/tables?tok%65n={token}&page=1", timeout=10)
    assert r.status_code == 200
    httpx.get(f"{server.http}/api/tables?t%6Fken={token}", timeout=10)
    with connect(f"{server.ws}/ws/tables/{t['id']}?token={token}", proxy=None) as ws:
        assert receive(ws)["type"] == "state"
    marker = f"marker-{time.monotonic_ns()}"
    httpx.get(f"{server.http}/api/tables/{marker}", timeout=10)
    deadline = time.monotonic() + WAIT
    while not any(marker in line for line in server.log):  # the log has caught up
        assert time.monotonic() < deadline, "the access log never showed the marker"
        time.sleep(0.05)
    log = "".join(server.log)
    assert "tok%65n=<hidden>" in log  # the requests were logged, the token hidden
    assert token not in log and token[:16] not in log


# --------------------------------------------------------------------------- text


def test_look_alike_names_are_refused(server: LiveServer) -> None:
    t, _ = post_table(server, {"seats": ["open", "open", "random", "random"]})
    seats = f"{server.http}/api/tables/{t['id']}/seats"
    assert httpx.post(seats, json={"name": "Ana"}, timeout=10).status_code == 201
    for name in ("ana", "\u0410na", "Ana\u200b", "\u202eAna", "L\u043erenzo", BOT_NAMES[0].upper()):
        r = httpx.post(seats, json={"name": name}, timeout=10)
        assert r.status_code == 400, name
    r = httpx.post(seats, json={"name": "\u0410na"}, timeout=10)
    assert "already at this table" in r.json()["detail"] and "'Ana'" in r.json()["detail"]
    r = httpx.post(seats, json={"name": "Ana\u200b"}, timeout=10)
    assert "U+200B" in r.json()["detail"] and "position 4" in r.json()["detail"]
    # a joiner between two letters is a name (Persian, Indic, emoji need them)
    assert httpx.post(seats, json={"name": "\u0645\u200c\u0646"}, timeout=10).status_code == 201


def test_a_nul_in_an_action_id_is_an_error_and_nothing_is_stored(
    server: LiveServer, db_url: str
) -> None:
    t, _ = post_table(
        server, {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}
    )
    seats = f"{server.http}/api/tables/{t['id']}/seats"
    tokens = [httpx.post(seats, json={"name": n}, timeout=10).json()["token"] for n in ("A", "B")]
    socks = [connect(f"{server.ws}/ws/tables/{t['id']}?token={k}", proxy=None) for k in tokens]
    try:
        before = until(socks[0], settled)  # a person is to act: nothing moves until then
        for ws in socks:  # the one to act and the other: refused before any turn check
            ws.send(json.dumps({"type": "action", "id": "x\u0000", "line": "c"}))
        for ws in socks:
            error = until(ws, lambda m: m["type"] == "error")
            assert "U+0000" in error["message"] and "position 2" in error["message"]
        socks[0].send(json.dumps({"type": "resync", "since": 0}))
        after = until(socks[0], lambda m: m["type"] == "state")
        assert after["version"] == before["version"] and after["hand"] == before["hand"]
    finally:
        for ws in socks:
            ws.close()
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            ids = (
                conn.execute(
                    sa.text("SELECT action_id FROM lines WHERE table_id = :t"), {"t": t["id"]}
                )
                .scalars()
                .all()
            )
    finally:
        engine.dispose()
    assert all(i is None or "\x00" not in i for i in ids)
    assert httpx.get(f"{server.http}/api/tables", timeout=10).status_code == 200


# --------------------------------------------------------------------------- chips


def test_stacks_of_a_billion_with_six_bots_play(server: LiveServer, db_url: str) -> None:
    billion = 1_000_000_000
    t, _ = post_table(
        server, {"seats": ["random", "heuristic"] * 3, "stack": billion, "max_hands": 1}
    )
    assert [s["chips"] for s in t["seats"]] == [billion] * 6
    deadline = time.monotonic() + WAIT
    summary = t
    while summary["status"] != "over":  # one hand, then the chips stand still to compare
        assert time.monotonic() < deadline, "the one-hand match did not end within 30 s"
        time.sleep(0.05)
        summary = httpx.get(f"{server.http}/api/tables/{t['id']}", timeout=10).json()
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            chips = (
                conn.execute(
                    sa.text("SELECT chips FROM seats WHERE table_id = :t ORDER BY idx"),
                    {"t": t["id"]},
                )
                .scalars()
                .all()
            )
            stack = conn.execute(
                sa.text("SELECT stack FROM tables WHERE id = :t"), {"t": t["id"]}
            ).scalar_one()
    finally:
        engine.dispose()
    assert stack == billion
    assert sum(chips) == 6 * billion  # the sum of the stacks: past 2^31, as the table holds
    assert summary["hands_played"] == 1
    assert [s["chips"] for s in summary["seats"]] == chips  # what the page says is stored


def test_any_host_on_0_0_0_0_without_allow_host_and_the_server_says_so(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [
            *PRIMERO,
            "serve",
            "--host",
            "0.0.0.0",
            "--port",
            "0",
            *NO_WAITS,
            "--database-url",
            f"sqlite:///{tmp_path / 'any.db'}",
        ],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        assert proc.stdout is not None
        lines: list[str] = []
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, "the server stopped:\n" + "".join(lines)
            lines.append(line)
            if "Uvicorn running on http://0.0.0.0:" in line:
                break
        else:
            raise AssertionError("the server did not start within 60 s:\n" + "".join(lines))
        port = int(lines[-1].split("0.0.0.0:")[1].split()[0])
        assert any("requests naming any host are accepted" in x for x in lines), lines
        r = httpx.get(f"http://127.0.0.1:{port}/api/tables", headers={"Host": "evil.example"})
        assert r.status_code == 200
        # by default X-Forwarded-For is not believed: ten tables a minute from 127.0.0.1
        codes = [
            httpx.post(
                f"http://127.0.0.1:{port}/api/tables",
                json={"seats": ["open"] * 4},
                headers={"X-Forwarded-For": f"203.0.113.{i}"},
                timeout=10,
            ).status_code
            for i in range(11)
        ]
        assert codes == [201] * 10 + [429]
    finally:
        proc.kill()
        proc.wait(10)


@pytest.mark.parametrize("db_url", ["postgresql"], indirect=True)  # no store involved: once
def test_a_reader_that_stops_reading_is_closed_and_forgotten(server: LiveServer) -> None:
    # six heuristic bots at pause 0: hundreds of states a second, for long (deep stacks)
    t, _ = post_table(server, {"seats": ["heuristic"] * 6, "stack": 10**9, "max_hands": 100_000})
    raw = socket.socket()
    raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # before connecting
    raw.settimeout(10)
    raw.connect(("127.0.0.1", server.port))
    try:
        raw.sendall(
            f"GET /ws/tables/{t['id']} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert raw.recv(12) == b"HTTP/1.1 101"
        # ... and never read again while the bots play on (a state after every move)
        closed = f"table {t['id']}: a connection was closed (1013): too slow"
        deadline = time.monotonic() + 60
        while not any(closed in line for line in server.log):
            assert time.monotonic() < deadline, "the slow reader was not closed within 60 s"
            time.sleep(0.1)
    finally:
        raw.close()
    r = httpx.get(f"{server.http}/api/tables/{t['id']}", timeout=10)
    assert r.status_code == 200  # the table and the server go on
