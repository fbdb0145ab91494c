"""Helpers shared by the server tests: a client's simple policy and card checks."""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from tests import needs
from tests.client_policy import choose_line

if TYPE_CHECKING:
    from fastapi.testclient import TestClient
    from websockets.sync.client import ClientConnection

CARD = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK][cdhs])(?![A-Za-z0-9])")


def redacted_equal(seen: str, line: str) -> bool:
    """Whether ``seen`` is the record ``line`` with some of its cards written ``??``."""
    a, b = seen.split(), line.split()
    return len(a) == len(b) and all(
        x == y or (x == "??" and CARD.fullmatch(y) is not None) for x, y in zip(a, b, strict=True)
    )


def cautious_line(state: dict[str, Any]) -> str:
    """Like the server's timer: accept, declare the truth, stand pat, check or bet 0, else
    fold; chips only where the rules leave no other move."""
    legal = state["legal"]
    if legal["vote"] or legal["declare"] or 0 in legal["exchange"]:
        return choose_line(state)
    if legal["call"] == 0:
        return "c"
    if legal["bet"] is not None and legal["bet"][0] == 0:
        return "b 0"
    if legal["fold"]:
        return "f"
    return choose_line(state)


def cards_in(message: Any) -> set[str]:
    """Every card text (``7h``) anywhere in a message's strings."""
    found: set[str] = set()
    if isinstance(message, str):
        found.update(CARD.findall(message))
    elif isinstance(message, dict):
        for value in message.values():
            found |= cards_in(value)
    elif isinstance(message, list):
        for value in message:
            found |= cards_in(value)
    return found


# --------------------------------------------------------------------------- databases


PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=test"


_TEMPLATE: list[str] = []


def _template(admin: Any) -> str:
    """A PostgreSQL database migrated to the newest schema, made once per test process
    (dropped at its exit): each test's database is a copy of it (``CREATE DATABASE ...
    TEMPLATE``), far faster than migrating a fresh one."""
    if _TEMPLATE:
        return _TEMPLATE[0]
    from primero.store import Store

    name = f"primero_tmpl_{os.getpid()}_{secrets.token_hex(3)}"
    admin.execute(f'CREATE DATABASE "{name}"')
    store = Store(f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}")
    try:
        store.migrate()
    finally:
        store.close()
    _TEMPLATE.append(name)

    def drop() -> None:
        import psycopg

        with (
            contextlib.suppress(psycopg.Error),
            psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True) as conn,
        ):
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    atexit.register(drop)
    return name


@contextmanager
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database with a random name, copied from a migrated template
    (dropped after), as an SQLAlchemy URL; ``needs("postgres")`` (tests/needs.py)."""
    import psycopg

    needs.check("postgres")
    admin = psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True)
    name = f"primero_test_{secrets.token_hex(6)}"
    try:
        admin.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_template(admin)}"')
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


#: The stores the tests' servers (real processes) run on: PostgreSQL, a hosted server's,
#: in the README's test command; SQLite, a home server's, again in ``make soak`` (the
#: browser tests' shared server and the in-process tests run on SQLite in both).
SERVER_STORES = [pytest.param("sqlite", marks=pytest.mark.soak), "postgresql"]


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """An SQLAlchemy URL of an empty database of ``kind`` (``sqlite`` or ``postgresql``)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / f'{secrets.token_hex(4)}.db'}"
    else:
        with postgres_url() as url:
            yield url


@pytest.fixture(
    name="db_url",
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.needs("postgres"))],
)
def db_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """The fixture ``db_url``: the same tests on an SQLite file and on a fresh PostgreSQL
    database (import it into the test module)."""
    with database(request.param, tmp_path) as url:
        yield url


@pytest.fixture(name="client")
def client_fixture(request: pytest.FixtureRequest, db_url: str) -> Iterator[TestClient]:
    """The fixture ``client``: the server in-process (FastAPI's TestClient) on ``db_url``,
    its bots pausing the test module's ``BOT_PAUSE`` seconds (0 when it has none)."""
    from fastapi.testclient import TestClient

    from primero.server import Settings, create_app

    pause = float(getattr(request.module, "BOT_PAUSE", 0))
    with TestClient(create_app(Settings(database_url=db_url, bot_pause=pause))) as c:
        yield c


# --------------------------------------------------------------------------- a live server

PRIMERO = [sys.executable, "-c", "from primero.cli import main; main()"]
#: ``primero serve``'s waits, all 0 unless a test is about them: a bot's pause, a finished
#: hand's pause and the rebuy window (a table may still set its own at creation).
NO_WAITS = ("--bot-pause", "0", "--hand-pause", "0", "--rebuy-seconds", "0")


class LiveServer:
    """A ``primero serve`` subprocess on 127.0.0.1 and a free port."""

    def __init__(self, url: str, cwd: Path, *extra: str, env: dict[str, str] | None = None) -> None:
        self.url = url
        self.cwd = cwd
        self.extra = extra
        self.env = env
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0
        self.log: list[str] = []

    def start(self) -> LiveServer:
        self.proc = subprocess.Popen(
            [
                *PRIMERO,
                "serve",
                "--port",
                "0",
                *NO_WAITS,
                "--database-url",
                self.url,
                *self.extra,
            ],
            cwd=self.cwd,
            env=None if self.env is None else {**os.environ, **self.env},
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 120  # a start on a machine loaded many times over
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.log.append(line)
            if "Uvicorn running on http://127.0.0.1:" in line:
                self.port = int(line.split("127.0.0.1:")[1].split()[0])
                threading.Thread(target=self._drain, daemon=True).start()
                return self
        self.proc.kill()  # never leave a server behind a failed start
        self.proc.wait(10)
        raise AssertionError("the server did not start:\n" + "".join(self.log))

    def _drain(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.append(line)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def kill(self) -> None:
        assert self.proc is not None
        self.proc.kill()
        self.proc.wait(10)

    def stop(self) -> float:
        """SIGTERM; the seconds it took to exit."""
        assert self.proc is not None
        began = time.monotonic()
        self.proc.terminate()
        self.proc.wait(15)
        return time.monotonic() - began


# --------------------------------------------------------------------------- waits


def recv_until(
    ws: ClientConnection, pred: Callable[[dict[str, Any]], bool], seconds: float, what: str
) -> dict[str, Any]:
    """The first message from ``ws`` for which ``pred`` holds, within ``seconds``;
    fails with ``what`` was awaited when it does not come in time."""
    deadline = time.monotonic() + seconds
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"no {what} within {seconds:g} s")
        try:
            m: dict[str, Any] = json.loads(ws.recv(timeout=left))
        except TimeoutError:
            raise AssertionError(f"no {what} within {seconds:g} s") from None
        if pred(m):
            return m


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``check`` every 50 ms until it holds; fail naming ``what`` after ``seconds``."""
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {seconds:g} s")
        time.sleep(0.05)


# --------------------------------------------------------------------------- a TCP proxy


class TcpProxy:
    """A TCP proxy on 127.0.0.1 to ``target`` that a test can cut (every connection
    closed, new ones refused at once) and restore: a database outage on demand.

    Args:
        target: ``(host, port)`` to forward to.
    """

    def __init__(self, target: tuple[str, int]) -> None:
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self.cut_off = False
        self._flowing = threading.Event()
        self._flowing.set()
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            if self.cut_off:
                client.close()
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=3)
            except OSError:
                client.close()
                continue
            upstream.settimeout(None)
            with self._lock:
                self._open |= {client, upstream}
            for a, b in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    def _pump(self, a: socket.socket, b: socket.socket) -> None:
        try:
            while data := a.recv(65536):
                self._flowing.wait()  # stalled: held, not forwarded
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)
            s.close()
        with self._lock:
            self._open -= {a, b}

    def cut(self) -> None:
        """Close every connection and refuse new ones until :meth:`restore`."""
        self.cut_off = True
        with self._lock:
            socks = list(self._open)
        for s in socks:
            with contextlib.suppress(OSError):
                s.shutdown(socket.SHUT_RDWR)

    def restore(self) -> None:
        """Forward new connections again (and the held bytes of a stall)."""
        self.cut_off = False
        self._flowing.set()

    def stall(self) -> None:
        """Keep every connection open but forward nothing until :meth:`restore`: a
        database that stopped answering (frozen, or a path that swallows packets)."""
        self._flowing.clear()

    def close(self) -> None:
        """Stop listening and close everything."""
        self._flowing.set()
        self.cut()
        self.listener.close()


def open_table_ws(live: LiveServer, table: str, token: str | None = None) -> ClientConnection:
    """The table's WebSocket as the seat of ``token`` (None: a spectator), 10 s to open."""
    from websockets.sync.client import connect

    query = "" if token is None else f"?token={token}"
    return connect(f"{live.ws}/ws/tables/{table}{query}", open_timeout=10, proxy=None)


class Player(threading.Thread):
    """A client at a table, in a thread of its own: it plays its seat's turns (a
    spectator, token None, watches) until the match is over, keeping every frame. Once a
    hand has been played (or the match is over) it drops its connection once and comes
    back with the same token through the next server of ``servers`` (the same one when
    there is one), asking for a resync. A move answered ``"retry": true`` is sent again
    with the same id (online.md: nothing was applied).

    Args:
        servers: the servers it goes through, in turn.
        table: the table's id.
        name: the player's name (its action ids are ``name-1``, ``name-2``, ...).
        token: the seat's token (None: a spectator).
        first: the index in ``servers`` of the server it connects to first.
        cautious: plays :func:`cautious_line` instead of :func:`choose_line`.
    """

    def __init__(
        self,
        servers: Sequence[LiveServer],
        table: str,
        name: str,
        token: str | None,
        *,
        first: int = 0,
        cautious: bool = False,
    ) -> None:
        super().__init__(daemon=True)
        self.servers, self.at, self.table = list(servers), first, table
        self.name, self.token, self.cautious = name, token, cautious
        self.frames: list[dict[str, Any]] = []
        self.error: BaseException | None = None
        self.reconnected = False

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _play(self) -> None:
        n = 0
        acted: set[tuple[int, int]] = set()
        since: int | None = None
        sent: dict[str, Any] | None = None
        while True:
            live = self.servers[self.at % len(self.servers)]
            with open_table_ws(live, self.table, self.token) as ws:
                if since is not None:
                    ws.send(json.dumps({"type": "resync", "since": since}))
                while True:
                    m: dict[str, Any] = json.loads(ws.recv(timeout=30))
                    self.frames.append(m)
                    if m["type"] == "error" and m.get("retry") and sent is not None:
                        ws.send(json.dumps(sent))  # not applied: the same id again
                        continue
                    if m["type"] != "state":
                        continue
                    over = m["table"]["status"] == "over"
                    if over and self.reconnected:
                        return
                    # A spectator of a bots-only table may see it end before it saw a
                    # hand played (bot pause 0): it comes back once all the same.
                    if not self.reconnected and (m["table"]["hands_played"] >= 1 or over):
                        self.reconnected, since = True, m["version"]
                        self.at += 1
                        break  # drop the connection, come back with the same token
                    key = (m["version"], len(m["hand"]["log"]) if m["hand"] else 0)
                    if self.token is not None and m["legal"] is not None and key not in acted:
                        acted.add(key)
                        n += 1
                        line = cautious_line(m) if self.cautious else choose_line(m)
                        sent = {
                            "type": "action",
                            "id": f"{self.name}-{n}",
                            "line": line,
                            "version": m["version"],
                        }
                        ws.send(json.dumps(sent))


# --------------------------------------------------------------------------- bots in threads


@pytest.fixture(name="client")
def thread_client_fixture(request: pytest.FixtureRequest, db_url: str) -> Iterator[TestClient]:
    """The fixture ``client`` of :func:`client_fixture`, its bots deciding in threads of
    the test process (``bot_processes=0``) instead of two worker processes started (and
    each importing the bots) for every test: for the tests of the protocol and of the
    evening, whose subject is not the pool. Live servers (``primero serve``, the browser
    and edge tests) keep the worker processes. Import one of the two, never both."""
    from fastapi.testclient import TestClient

    from primero.server import Settings, create_app

    pause = float(getattr(request.module, "BOT_PAUSE", 0))
    settings = Settings(database_url=db_url, bot_pause=pause, bot_processes=0)
    with TestClient(create_app(settings)) as c:
        yield c


# --------------------------------------------------------------------------- the API, shared


def _post(where: Any, path: str, body: dict[str, Any]) -> Any:
    """``POST path`` with the JSON ``body`` on a live server (a :class:`LiveServer`) or
    an in-process client (FastAPI's TestClient); the response, 10 s at most."""
    if isinstance(where, LiveServer):
        import httpx

        return httpx.post(f"{where.http}{path}", json=body, timeout=10)
    return where.post(path, json=body)


def post_table(where: Any, body: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """``POST /api/tables`` with ``body`` on ``where`` (a :class:`LiveServer` or a
    TestClient): the table's summary and its host token (shown once, at least 22
    characters; the summary never holds it). Fails unless 201."""
    r = _post(where, "/api/tables", body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    host: str = data.pop("host_token")
    assert len(host) >= 22, host
    return data, host


def create_table(where: Any, body: dict[str, Any]) -> str:
    """:func:`post_table`'s table id."""
    table: str = post_table(where, body)[0]["id"]
    return table


def join_table(where: Any, table: str, name: str) -> str:
    """Take the first open seat of ``table`` on ``where`` (a :class:`LiveServer` or a
    TestClient) as ``name``: the seat's token. Fails unless 201."""
    r = _post(where, f"/api/tables/{table}/seats", {"name": name})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


#: Seconds a live server's socket may stay silent before :func:`until` fails.
WAIT = 30.0


def receive(ws: Any) -> dict[str, Any]:
    """The next message of a WebSocket: TestClient's (``receive_json``), or a live
    server's (websockets' ``recv``, failing after :data:`WAIT` seconds of silence)."""
    if hasattr(ws, "receive_json"):
        message: dict[str, Any] = ws.receive_json()
        return message
    try:
        message = json.loads(ws.recv(timeout=WAIT))
    except TimeoutError:
        raise AssertionError(f"no message from the server within {WAIT} s") from None
    return message


def until(ws: Any, pred: Callable[[dict[str, Any]], bool], limit: int = 500) -> dict[str, Any]:
    """The first message of ``ws`` that ``pred`` accepts, reading at most ``limit``
    messages (a table of people with no timer sends nothing by itself once a person is
    to act, so a count bounds the wait) and, on a live server, at most :data:`WAIT`
    seconds in all."""
    deadline = time.monotonic() + WAIT
    for _ in range(limit):
        m = receive(ws)
        if pred(m):
            return m
        if time.monotonic() > deadline:
            break
    raise AssertionError(f"the awaited message did not come ({limit} messages, {WAIT} s)")


def settled(m: dict[str, Any]) -> bool:
    """A state where a person is to act (nothing moves until someone acts)."""
    return (
        m["type"] == "state"
        and m["hand"] is not None
        and (m["hand"]["to_act"] or "").startswith("p")
    )
