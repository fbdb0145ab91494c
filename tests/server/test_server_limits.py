"""The server's edge in-process, with injected clocks (no real waits): the text rules of
online.md, the ``Host`` rule, token reading and log redaction, a connection's limits
(slow reader, refused frames, rate), the create-rate window, the lobby's pages, and the
64-bit chips migration on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from fastapi.testclient import TestClient
from uvicorn.logging import AccessFormatter

from primero.play.text import TextError, check_name, clean, name_key, problem
from primero.server import Settings, create_app
from primero.server.security import (
    RedactTokens,
    bearer_token,
    host_allowed,
    query_token,
    redact,
)
from primero.server.wsclient import Client, admit
from primero.store import Store
from tests.server_helpers import database

pytestmark = pytest.mark.timeout(120)


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, now: float = 1_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


# --------------------------------------------------------------------------- text


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("Ana", "ana"),
        ("Ana", "\u0410na"),  # Cyrillic capital A
        ("Lorenzo", "L\u043erenzo"),  # Cyrillic small o
        ("\u00c1na", "A\u0301na"),  # NFC: one name, composed or not
        ("rn", "m"),  # UTS #39: r + n looks like m
        ("Ma\u200dria", "Maria"),  # joiners do not make a name new
    ],
)
def test_look_alike_names_have_one_key(a: str, b: str) -> None:
    assert name_key(a) == name_key(b)


@pytest.mark.parametrize(("a", "b"), [("Ana", "Ann"), ("Ana", "Anna"), ("Bo", "Bob")])
def test_different_names_have_different_keys(a: str, b: str) -> None:
    assert name_key(a) != name_key(b)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("Ana\x00", "U+0000 (a control character) at position 4"),
        (
            "\u202eAna",
            "U+202E RIGHT-TO-LEFT OVERRIDE (an invisible format character) at position 1",
        ),
        ("A\u200bna", "U+200B ZERO WIDTH SPACE (an invisible format character) at position 2"),
        ("Ana\ue000", "U+E000 (a private-use character) at position 4"),
        ("A\u0378", "U+0378 (an unassigned code point) at position 2"),
        ("A\ud800", "U+D800 (a surrogate) at position 2"),
        (
            "\u200dAna",
            "U+200D ZERO WIDTH JOINER (a joiner, allowed only between two other "
            "characters) at position 1",
        ),
        ("Ana\u200c", "at position 4"),
        ("A\u200c\u200dna", "at position 2"),
    ],
)
def test_refused_characters_are_named_with_their_position(text: str, words: str) -> None:
    found = problem(text, "a name")
    assert found is not None and found.startswith("A name must not hold U+")
    assert found.endswith(words)
    with pytest.raises(TextError, match="position"):
        clean(text, "a name")


def test_joiners_between_two_characters_and_emoji_are_taken() -> None:
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    assert clean(family, "a name") == family
    assert clean("\u0645\u200c\u0646", "a name") == "\u0645\u200c\u0646"


def test_names_are_nfc_and_bounded() -> None:
    assert check_name("A\u0301na") == "\u00c1na"
    assert check_name("x" * 24) == "x" * 24
    for bad, words in [
        ("", "1 to 24"),
        ("x" * 25, "1 to 24"),
        (" Ana", "white space"),
        ("Ana ", "white space"),
        ("  ", "white space"),
    ]:
        with pytest.raises(TextError, match=words):
            check_name(bad)


# --------------------------------------------------------------------------- Host, tokens


@pytest.mark.parametrize(
    ("host", "listen", "allowed", "ok"),
    [
        ("localhost:8000", "127.0.0.1", (), True),
        ("127.0.0.1:1", "127.0.0.1", (), True),
        ("[::1]:8000", "127.0.0.1", (), True),
        ("LOCALHOST", "127.0.0.1", (), True),
        ("evil.example", "127.0.0.1", (), False),
        ("localhost.evil.example", "127.0.0.1", (), False),
        ("192.168.1.5:8000", "192.168.1.5", (), True),
        ("evil.example", "0.0.0.0", (), True),  # any host, said at start
        ("evil.example", "0.0.0.0", ("play.example",), False),
        ("play.example:443", "0.0.0.0", ("play.example",), True),
        ("[fe80::1]:8000", "fe80::1", (), True),
        (None, "127.0.0.1", (), False),
    ],
)
def test_host_rule(host: str | None, listen: str, allowed: tuple[str, ...], ok: bool) -> None:
    assert host_allowed(host, listen, allowed) is ok


def test_tokens_come_only_from_the_literal_key_and_bearer() -> None:
    assert query_token(b"token=a%2Db&x=1") == "a-b"
    assert query_token(b"x=1&token=abc") == "abc"
    for disguised in (b"tok%65n=abc", b"TOKEN=abc", b"token", b"t=abc", b""):
        assert query_token(disguised) is None
    assert bearer_token("Bearer abc") == bearer_token("bEaReR  abc ") == "abc"
    for bad in (None, "Basic abc", "Bearer", "Bearer ", "abc"):
        assert bearer_token(bad) is None


SECRET = "q1W2e3R4t5Y6u7I8o9P0a1S2d3F4g5H6j7K8l9Z0x1C"  # shaped like a real token


@pytest.mark.parametrize(
    "line",
    [
        f"/ws/tables/ab?tok%65n={SECRET}",
        f"/ws/tables/ab?token={SECRET}",
        f"/ws/tables/ab?%74oken={SECRET}&x=1",
        f"/ws/tables/ab?t={SECRET}&host=h0st",
        "/ws/tables/ab?session=s3cr3t",
        f"/api/tables?x={SECRET}",
        f"Authorization: Bearer {SECRET}",
        f"a token {SECRET} in words",
    ],
)
def test_redact_hides_anything_token_like(line: str) -> None:
    out = redact(line)
    assert SECRET not in out and "s3cr3t" not in out and "h0st" not in out
    assert "<hidden>" in out


def test_the_access_log_record_is_redacted_and_still_formats() -> None:
    record = logging.LogRecord(
        "uvicorn.access",
        logging.INFO,
        __file__,
        1,
        '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", f"/api/tables?tok%65n={SECRET}&page=2", "1.1", 200),
        None,
    )
    assert RedactTokens().filter(record)
    line = AccessFormatter('%(client_addr)s - "%(request_line)s" %(status_code)s').format(record)
    assert line == '127.0.0.1:5 - "GET /api/tables?tok%65n=<hidden>&page=2 HTTP/1.1" 200 OK'


def test_a_traceback_is_redacted() -> None:
    try:
        raise ValueError(f"bad url /ws?token={SECRET}")
    except ValueError:
        record = logging.LogRecord(
            "primero.server", logging.ERROR, __file__, 1, "failed", (), sys.exc_info()
        )
    RedactTokens().filter(record)
    assert SECRET not in logging.Formatter().format(record)


# --------------------------------------------------------------------------- a connection


class StuckSocket:
    """A WebSocket whose peer never reads: every send waits for ever."""

    def __init__(self) -> None:
        self.sent = 0

    async def send_text(self, _text: str) -> None:
        self.sent += 1
        await asyncio.Event().wait()


class Table:
    def __init__(self) -> None:
        self.conns: set[Any] = set()


def test_a_slow_reader_is_dropped_and_forgotten() -> None:
    async def run() -> None:
        table = Table()
        settings = Settings(send_queue=8, table_connections=64)
        client = Client(StuckSocket(), None, settings, forget=table.conns.discard)  # type: ignore[arg-type]
        assert admit(table, client)
        pump = asyncio.ensure_future(client.pump())
        client.send({"type": "state", "n": 0})
        for _ in range(3):
            await asyncio.sleep(0)  # the pump takes it and is stuck sending it
        assert client.ws.sent == 1  # type: ignore[attr-defined]
        for i in range(8):
            client.send({"type": "state", "n": i + 1})
        assert client.dropped is None and client.queue.qsize() == 8
        client.send({"type": "state", "n": 9})
        assert client.dropped == (1013, "too slow: over 8 messages unsent")
        assert table.conns == set() and client.done.is_set()
        assert client.queue.qsize() == 1  # only the stop sign: nothing kept for it
        client.send({"type": "state"})
        assert client.queue.qsize() == 1
        pump.cancel()

    asyncio.run(run())


def test_a_table_takes_its_documented_number_of_connections() -> None:
    table = Table()
    settings = Settings(table_connections=64)
    clients = [Client(None, None, settings) for _ in range(65)]  # type: ignore[arg-type]
    assert [admit(table, c) for c in clients] == [True] * 64 + [False]
    assert Settings().table_connections >= 64


def test_ten_refused_frames_within_ten_seconds_close_and_older_ones_expire() -> None:
    clock = Clock()
    client = Client(None, None, Settings(rate_clock=clock))  # type: ignore[arg-type]
    assert not any(client.refused() for _ in range(9))
    clock.now += 10.0  # the nine are now ten seconds old: out of the window
    assert not any(client.refused() for _ in range(9))
    assert client.refused()  # the tenth within ten seconds


def test_the_rate_allows_bursts_of_20_and_10_a_second() -> None:
    clock = Clock()
    client = Client(None, None, Settings(rate_clock=clock))  # type: ignore[arg-type]
    burst = 0
    while client.allow():
        burst += 1
    assert burst >= 20
    for _ in range(10):  # a second of ten frames, sustained
        clock.now += 1.0
        assert sum(client.allow() for _ in range(10)) == 10


# --------------------------------------------------------------------------- REST limits


@pytest.fixture
def app_client(tmp_path: Path) -> Iterator[tuple[TestClient, Clock]]:
    clock = Clock(1_700_000_000.0)
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'l.db'}",
            bot_pause=0,
            bot_processes=0,
            create_rate=3,
            max_tables=0,
            wall_clock=clock,
        )
    )
    with TestClient(app) as c:
        yield c, clock


OPEN4 = {"seats": ["open"] * 4}


def test_the_create_rate_window_is_a_minute(app_client: tuple[TestClient, Clock]) -> None:
    client, clock = app_client
    for _ in range(3):
        assert client.post("/api/tables", json=OPEN4).status_code == 201
        clock.now += 10
    r = client.post("/api/tables", json=OPEN4)
    assert r.status_code == 429 and r.headers["retry-after"] == "30"  # the first + 60 s
    clock.now += 29
    assert client.post("/api/tables", json=OPEN4).status_code == 429
    clock.now += 1
    assert client.post("/api/tables", json=OPEN4).status_code == 201


def test_the_lobby_is_paged_newest_first_without_finished_tables(tmp_path: Path) -> None:
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'p.db'}",
            bot_pause=0,
            create_rate=0,
            bot_processes=0,
        )
    )
    with TestClient(app) as client:
        over = client.post(
            "/api/tables", json={"seats": ["random"] * 4, "max_hands": 1, "listed": True}
        ).json()["id"]
        listed = {**OPEN4, "listed": True}  # the lobby lists only listed tables
        ids = [client.post("/api/tables", json=listed).json()["id"] for _ in range(51)]
        first = [t["id"] for t in client.get("/api/tables").json()]
        assert first == ids[::-1][:50]
        assert client.get("/api/tables?page=1").json() == client.get("/api/tables").json()
        assert [t["id"] for t in client.get("/api/tables?page=2").json()] == [ids[0]]
        assert client.get("/api/tables?page=3").json() == []
        for bad in ("0", "-1", "x", "1.5"):
            r = client.get(f"/api/tables?page={bad}")
            assert r.status_code == 400 and "page" in r.json()["detail"], bad
        assert client.get("/api/tables?status=playing").status_code == 400
        for _ in range(2000):  # the bots' one hand (bot pause 0): a bounded wait
            if client.get(f"/api/tables/{over}").json()["status"] == "over":
                break
            asyncio.run(asyncio.sleep(0.01))
        assert client.get(f"/api/tables/{over}").json()["status"] == "over"
        assert [t["id"] for t in client.get("/api/tables?status=over").json()] == [over]
        assert over not in {t["id"] for t in client.get("/api/tables?page=2").json()}


# --------------------------------------------------------------------------- migration


@pytest.mark.parametrize("kind", ["sqlite", "postgresql"])
def test_the_chips_migration_keeps_values_and_holds_64_bits(kind: str, tmp_path: Path) -> None:
    with database(kind, tmp_path) as url:
        engine = sa.create_engine(url)
        try:
            with engine.begin() as conn:  # the first schema, with a table in it
                config = Config()
                config.set_main_option(
                    "script_location", str(resources.files("primero.store") / "migrations")
                )
                config.attributes["connection"] = conn
                command.upgrade(config, "0001")
                conn.execute(
                    sa.text(
                        "INSERT INTO tables (id, name, stack, rules, turn_seconds, max_hands, "
                        "status, version, hands_played, dealer_index, created) VALUES "
                        "('t1', 'Old', 1000000000, '{}', 60, NULL, 'playing', 7, 2, 1, 5)"
                    )
                )
                conn.execute(
                    sa.text(
                        "INSERT INTO seats (table_id, idx, name, kind, token_hash, chips) VALUES "
                        "('t1', 0, 'Ana', 'person', NULL, 2147483647), "
                        "('t1', 1, 'Lorenzo', 'random', NULL, 0)"
                    )
                )
            store = Store(url)
            store.migrate()
            store.migrate()  # once at the newest: nothing more to do
            with store.transaction() as conn:
                conn.execute(sa.text("UPDATE seats SET chips = 8000000000 WHERE idx = 1"))
            (row,) = [r for r in store.load() if r.id == "t1"]
            store.close()
            assert row.stack == 1_000_000_000 and row.version == 7
            assert [(s.name, s.chips) for s in row.seats] == [
                ("Ana", 2_147_483_647),
                ("Lorenzo", 8_000_000_000),
            ]
            if kind == "postgresql":
                with engine.connect() as conn:
                    types: dict[str, str] = dict(
                        conn.execute(
                            sa.text(
                                "SELECT table_name || '.' || column_name, data_type FROM "
                                "information_schema.columns WHERE column_name IN ('stack', 'chips')"
                                " AND table_name IN ('tables', 'seats')"
                            )
                        ).all()
                    )
                assert types == {"tables.stack": "bigint", "seats.chips": "bigint"}
        finally:
            engine.dispose()


def test_a_body_over_64_kib_is_413(app_client: tuple[TestClient, Clock]) -> None:
    client, _clock = app_client
    big = {"seats": ["open"] * 4, "rules": {}, "pad": "x" * 70_000}
    r = client.post("/api/tables", json=big)
    assert r.status_code == 413 and "64 KiB" in r.json()["detail"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it is read
        yield b'{"seats": ["open", "open", "open", "open"], "listed": true, "pad": "'
        for _ in range(70):
            yield b"x" * 1024
        yield b'"}'

    r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
    assert r.status_code == 413
    assert client.get("/api/tables").json() == []
    assert client.post("/api/tables", json=OPEN4).status_code == 201


def test_chat_follows_the_text_rules(app_client: tuple[TestClient, Clock]) -> None:
    client, _clock = app_client
    table = client.post(
        "/api/tables", json={"seats": ["open", "open"], "rules": {"min_players": 2}}
    ).json()["id"]
    token = client.post(f"/api/tables/{table}/seats", json={"name": "Ana"}).json()["token"]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
        assert ws.receive_json()["type"] == "state"
        ws.send_json({"type": "chat", "text": "hi \u202eyb"})
        error = ws.receive_json()
        assert error["type"] == "error" and "U+202E" in error["message"]
        assert "position 4" in error["message"]
        ws.send_json({"type": "chat", "text": "Cafe\u0301 \U0001f469\u200d\U0001f467"})
        assert ws.receive_json() == {
            "type": "chat",
            "from": "Ana",
            "text": "Caf\u00e9 \U0001f469\u200d\U0001f467",
        }


def test_frames_over_the_rate_get_errors_but_do_not_close(tmp_path: Path) -> None:
    clock = Clock()
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'r.db'}",
            bot_pause=0,
            rate_clock=clock,
            bot_processes=0,
        )
    )
    with TestClient(app) as client:
        table = client.post("/api/tables", json=OPEN4).json()["id"]
        with client.websocket_connect(f"/ws/tables/{table}") as ws:
            assert ws.receive_json()["type"] == "state"
            for _ in range(40):  # the burst: every one answered
                ws.send_json({"type": "resync", "since": 0})
                assert ws.receive_json()["type"] == "state"
            for _ in range(15):  # the clock stands still: over the rate, not malformed
                ws.send_json({"type": "resync", "since": 0})
                reply = ws.receive_json()
                assert reply["type"] == "error" and "at most 20 a second" in reply["message"]
            clock.now += 1.0  # a second later: 20 more
            for _ in range(20):
                ws.send_json({"type": "resync", "since": 0})
                assert ws.receive_json()["type"] == "state"
