"""Several ``primero serve`` processes on one PostgreSQL database and one Redis (online.md
"Several processes"): clients spread over three processes, whole matches with
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
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.sync.client import ClientConnection

from primero.engine.history import read_record
from primero.server.cluster import namespace
from tests import needs
from tests.paths import ROOT
from tests.server.test_server_live import _allowed_cards, _export
from tests.server_helpers import (
    PRIMERO,
    LiveServer,
    Player,
    cards_in,
    cautious_line,
    create_table,
    join_table,
    open_table_ws,
    postgres_url,
    redacted_equal,
    wait_for,
)

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
    needs.check("redis")
    return "redis://127.0.0.1:6379/11"


@pytest.fixture
def pg() -> Iterator[str]:
    with postgres_url() as url:
        yield url


def _start(url: str, cwd: Path, redis: str, n: int, *, pool: bool = False) -> list[LiveServer]:
    """``n`` processes on one database and Redis; the bots decide in threads unless
    ``pool`` (the real worker processes: 2.4 CPU seconds more to start each)."""
    threads = () if pool else ("--bot-processes", "0")
    servers = [
        LiveServer(url, cwd, "--redis-url", redis, "--lease-seconds", LEASE, *threads)
        for _ in range(n)
    ]
    with ThreadPoolExecutor(n) as starter:
        list(starter.map(LiveServer.start, servers))
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


def _replay_all(files: list[Path]) -> None:
    """``primero replay`` replays every record, each to its end (one process for all)."""
    done = subprocess.run(
        [*PRIMERO, "replay", "--json", *map(str, files)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    outcomes = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(outcomes) == len(files) and all(o["complete"] is True for o in outcomes)


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


@pytest.mark.soak
def test_three_processes_people_and_bots(pg: str, redis_url: str, tmp_path: Path) -> None:
    servers = _start(pg, tmp_path, redis_url, 3, pool=True)
    try:
        a, b, c = servers
        table = create_table(
            a, {"seats": ["open", "heuristic", "open", "random"], "max_hands": 3, "turn_seconds": 0}
        )
        ana = Player(servers, table, "Ana", join_table(b, table, "Ana"), first=1)
        ben = Player(servers, table, "Ben", join_table(c, table, "Ben"), first=2)
        spectator = Player(servers, table, "watcher", None)
        bots = create_table(
            b,
            {
                "seats": ["random", "random", "heuristic"],
                "rules": {"min_players": 3},
                "max_hands": 3,
            },
        )
        watcher = Player(servers, bots, "watcher2", None, first=2)
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
            ended = {
                m["hand"]["number"]
                for m in p.frames
                if m["type"] == "state" and m["hand"] and m["hand"]["final_stacks"]
            }
            assert ended == set(range(1, played + 1)), (p.name, ended)
            versions = [m["version"] for m in p.frames if m["type"] == "state"]
            assert versions == sorted(versions)
    finally:
        _stop_all(servers)


def test_redis_url_with_sqlite_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            *PRIMERO,
            "serve",
            "--port",
            "0",
            "--database-url",
            f"sqlite:///{tmp_path}/x.db",
            "--redis-url",
            "redis://127.0.0.1:6379/11",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        "primero: --redis-url needs a PostgreSQL --database-url "
        "(postgresql+psycopg://user@host:5432/name): several processes cannot share an "
        "SQLite file"
    ]
    assert not (tmp_path / "x.db").exists()


# --------------------------------------------------------------------------- failures


class Person:
    """A person at one process who plays cautiously, sends a move that got ``"retry":
    true`` again with the same id, and keeps every frame (with the time it came)."""

    def __init__(self, live: LiveServer, table: str, token: str) -> None:
        self.ws = open_table_ws(live, table, token)
        self.frames: list[tuple[float, dict[str, Any]]] = []
        self.n = 0
        self.pending: dict[str, Any] | None = None
        self.acted: set[tuple[int, int]] = set()
        self.last: dict[str, Any] | None = None
        self.sent_at = 0.0
        #: While True the person reads but does not move (a test holds a turn open).
        self.hold = False

    def step(self, seconds: float = 30) -> dict[str, Any] | None:
        """One frame (None: nothing for a while, the pending move was sent again)."""
        try:
            m: dict[str, Any] = json.loads(self.ws.recv(timeout=min(seconds, 0.5)))
        except TimeoutError:
            if self.pending is not None and time.monotonic() - self.sent_at > 1.0:
                self.ws.send(json.dumps(self.pending))  # no answer: the same id again
                self.sent_at = time.monotonic()
            return None
        self.frames.append((time.monotonic(), m))
        if m["type"] == "error" and m.get("retry"):
            self.sent_at = time.monotonic()
            return m  # sent again after a second with nothing heard
        if m["type"] != "state":
            return m
        self.last = m
        if self.pending is not None and self.pending["version"] != m["version"]:
            self.pending = None  # answered; at the same version it is sent again later
        key = (m["version"], len(m["hand"]["log"]) if m["hand"] else 0)
        if m["legal"] is not None and key not in self.acted and not self.hold:
            self.acted.add(key)
            self.n += 1
            self.pending = {
                "type": "action",
                "id": f"a{self.n}",
                "line": cautious_line(m),
                "version": m["version"],
            }
            self.ws.send(json.dumps(self.pending))
            self.sent_at = time.monotonic()
        return m

    def until(self, pred: Any, seconds: float, what: str) -> dict[str, Any]:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            m = self.step(deadline - time.monotonic())
            if m is not None and m["type"] == "state" and pred(m):
                return m
        tail = [
            (m["type"], m.get("version"), m.get("message"), m.get("hand") and m["hand"]["to_act"])
            for _t, m in self.frames[-6:]
        ]
        raise AssertionError(f"no {what} within {seconds:g} s; the last frames: {tail}")

    def states(self) -> list[dict[str, Any]]:
        return [m for _t, m in self.frames if m["type"] == "state"]


def _seen_logs_are_records(person: Person, files: list[Path]) -> None:
    """Every hand's log as the person last saw it is the start of its record: no move
    whose state was sent was lost, none applied twice."""
    by_number = {int(f.stem): read_record(f).actions for f in files}
    last: dict[int, list[str]] = {}
    for m in person.states():
        if m["hand"]:
            last[m["hand"]["number"]] = m["hand"]["log"]
    for number, log in last.items():
        record = by_number[number]
        assert len(log) <= len(record), number
        for seen, line in zip(log, record, strict=False):
            assert redacted_equal(seen, line), (number, seen, line)


@pytest.mark.soak
def test_owner_killed_mid_hand(pg: str, redis_url: str, tmp_path: Path) -> None:
    """kill -9 of the owner of a busy table mid-hand: another process takes it within the
    lease plus 2 s, the person's move sent meanwhile is applied once, versions keep
    growing, the bots-only table it drove goes on with nobody watching."""
    servers = _start(pg, tmp_path, redis_url, 2)
    try:
        a, b = servers
        table = create_table(
            a,
            {"seats": ["random", "open", "heuristic", "random"], "max_hands": 4, "turn_seconds": 0},
        )
        ana = Person(b, table, join_table(b, table, "Ana"))
        before = ana.until(
            lambda m: m["table"]["hands_played"] >= 1 and m["legal"] is not None,
            90,
            "a move of Ana's in hand 2",
        )
        made = httpx.post(
            f"{a.http}/api/tables",
            timeout=10,
            json={"seats": ["random", "heuristic"], "rules": {"min_players": 2}, "stack": 10**6},
        )
        bots, host = made.json()["id"], made.json()["host_token"]
        a.kill()  # mid-hand, with Ana's move just sent to it
        killed = time.monotonic()
        after = ana.until(
            lambda m: m["version"] > before["version"], 30, "a state after the owner died"
        )
        took = time.monotonic() - killed
        assert took < float(LEASE) + 2 + 8, took  # lease + 2 s, and slack for a loaded host
        ana.until(lambda m: m["table"]["status"] == "over", 120, "the end of the match")
        # the bots-only table is driven on by the survivor, nobody watching it
        wait_for(
            lambda: httpx.get(f"{b.http}/api/tables/{bots}", timeout=10).json()["version"] > 20,
            30,
            "the bots-only table going on",
        )  # a first hand is 15 or more
        ended = httpx.post(
            f"{b.http}/api/tables/{bots}/end",
            timeout=10,
            headers={"Authorization": f"Bearer {host}"},
        )
        assert ended.status_code in (204, 409)  # 409: one bot already held every chip
        versions = [m["version"] for m in ana.states()]
        assert versions == sorted(versions) and after["version"] > before["version"]
        files = [f for f in _export(pg, tmp_path / "out", tmp_path) if f.parent.name == table]
        assert [int(f.stem) for f in files] == list(range(1, len(files) + 1)) and files
        _replay_all(files)
        _seen_logs_are_records(ana, files)
        ana.ws.close()
    finally:
        _stop_all(servers)


def _lines(url: str, table: str) -> list[tuple[int, int, str]]:
    import psycopg

    with psycopg.connect(url.replace("postgresql+psycopg", "postgresql")) as conn:
        rows = conn.execute(
            "SELECT hand_number, idx, line FROM lines WHERE table_id = %s "
            "ORDER BY hand_number, idx",
            (table,),
        ).fetchall()
    return [(int(h), int(i), str(x)) for h, i, x in rows]


@pytest.mark.soak
def test_owner_paused_past_its_lease_applies_nothing(
    pg: str, redis_url: str, tmp_path: Path
) -> None:
    """SIGSTOP of an owner past its lease, then SIGCONT: the other process drove the
    table meanwhile; the paused one finds its lease gone and writes nothing more (its
    fence refuses before the database's version check is even reached)."""
    servers = _start(pg, tmp_path, redis_url, 2)
    try:
        a, b = servers
        created = httpx.post(
            f"{a.http}/api/tables",
            timeout=10,
            json={
                "seats": ["heuristic", "heuristic", "random"],
                "rules": {"min_players": 3},
                "stack": 10**6,
            },
        )
        assert created.status_code == 201
        table, host = created.json()["id"], created.json()["host_token"]
        assert a.proc is not None
        lease = f"{namespace(pg)}:lease:{table}"
        with (
            open_table_ws(b, table) as ws,
            redis.Redis.from_url(redis_url, decode_responses=True) as r,
        ):
            first = json.loads(ws.recv(timeout=30))
            paused = r.get(lease)  # a's process id: it created the table and drives it
            assert paused is not None
            os.kill(a.proc.pid, signal.SIGSTOP)
            stopped_lines = len(_lines(pg, table))
            # online.md: taken over within the lease plus 2 s (and slack for a loaded host)
            wait_for(
                lambda: r.get(lease) not in (None, paused),
                float(LEASE) + 2 + 8,
                "another process taking the paused owner's table",
            )
            m = first
            deadline = time.monotonic() + 60  # its bots' moves, on a loaded host
            while len(_lines(pg, table)) <= stopped_lines + 10:  # b took it and drives it
                assert time.monotonic() < deadline, "the table taken over did not go on"
                m = json.loads(ws.recv(timeout=30))
            log_mark = len(a.log)
            os.kill(a.proc.pid, signal.SIGCONT)
            wait_for(
                lambda: any("the lease is lost" in x for x in a.log[log_mark:]),
                20,
                "the paused owner seeing its lease gone",
            )
            r = httpx.post(
                f"{b.http}/api/tables/{table}/end",
                timeout=10,
                headers={"Authorization": f"Bearer {host}"},
            )
            assert r.status_code in (204, 409)  # 409: the match had ended by itself
            while m["table"]["status"] != "over":
                m = json.loads(ws.recv(timeout=30))
        after = a.log[log_mark:]
        assert not [x for x in after if "StaleVersion" in x or "IntegrityError" in x], after
        rows = _lines(pg, table)
        assert len({(h, i) for h, i, _x in rows}) == len(rows)
        files = [f for f in _export(pg, tmp_path / "out", tmp_path) if f.parent.name == table]
        _replay_all(files)
    finally:
        _stop_all(servers)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def _redis_server(port: int, cwd: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--bind",
            "127.0.0.1",
        ],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    wait_for(lambda: _redis_reachable(port), 10, "a private redis-server starting")
    return proc


@pytest.mark.soak
@pytest.mark.needs("redis-server")
def test_redis_restarted_mid_match(pg: str, tmp_path: Path) -> None:
    """Redis stops mid-match: moves get ``"retry": true``, nothing is applied twice; once
    Redis is back (empty), the tables are taken again and play goes on."""
    port = _free_port()
    redis = _redis_server(port, tmp_path)
    servers = _start(pg, tmp_path, f"redis://127.0.0.1:{port}/0", 2)
    try:
        a, b = servers
        table = create_table(
            a,
            {
                "seats": ["random", "open", "random"],
                "rules": {"min_players": 3},
                "max_hands": 3,
                "turn_seconds": 0,
            },
        )
        ana = Person(b, table, join_table(b, table, "Ana"))
        ana.hold = True  # her first turn stays open until Redis is gone
        before = ana.until(lambda m: m["legal"] is not None, 60, "Ana's first move")
        redis.terminate()
        redis.wait(10)
        ana.hold = False  # her move now goes to a process that cannot reach the owner
        ana.acted.add((before["version"], len(before["hand"]["log"])))
        ana.pending = {
            "type": "action",
            "id": "r1",
            "line": cautious_line(before),
            "version": before["version"],
        }
        ana.ws.send(json.dumps(ana.pending))
        ana.sent_at = time.monotonic()
        retried: dict[str, Any] | None = None
        deadline = time.monotonic() + 20
        while retried is None and time.monotonic() < deadline:
            m = ana.step()
            if m is not None and m["type"] == "error" and m.get("retry"):
                retried = m
        assert retried is not None, "no retry error while Redis was away"
        redis = _redis_server(port, tmp_path)
        ana.until(lambda m: m["version"] > before["version"], 30, "play after Redis is back")
        ana.until(lambda m: m["table"]["status"] == "over", 120, "the end of the match")
        files = [f for f in _export(pg, tmp_path / "out", tmp_path) if f.parent.name == table]
        _replay_all(files)
        _seen_logs_are_records(ana, files)
        ana.ws.close()
    finally:
        _stop_all(servers)
        redis.terminate()
        redis.wait(10)


# --------------------------------------------------------------------------- behind nginx


def _nginx_conf(folder: Path, port: int, upstreams: list[int]) -> str:
    """docs/operations.md's nginx configuration (the block between its markers), with
    this test's ports, inside the few lines a private nginx needs to run as a user."""
    doc = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    block = doc.split("<!-- nginx:begin -->")[1].split("<!-- nginx:end -->")[0]
    block = block.split("```nginx")[1].split("```")[0]
    block = block.replace("listen 80;", f"listen 127.0.0.1:{port};")
    block = block.replace("server 127.0.0.1:8001;", f"server 127.0.0.1:{upstreams[0]};")
    block = block.replace("server 127.0.0.1:8002;", f"server 127.0.0.1:{upstreams[1]};")
    return (
        f"worker_processes 1;\nerror_log {folder}/error.log;\npid {folder}/nginx.pid;\n"
        "events { worker_connections 64; }\n"
        f"http {{\n access_log off;\n client_body_temp_path {folder}/body;\n"
        f" proxy_temp_path {folder}/proxy;\n{block}\n}}\n"
    )


@pytest.mark.needs("nginx")
def test_two_processes_behind_nginx(pg: str, redis_url: str, tmp_path: Path) -> None:
    """The operator's page's nginx configuration in front of two processes: people join,
    play and finish a match through it, their connections spread over both."""
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    servers = _start(pg, tmp_path, redis_url, 2)
    port = _free_port()
    conf = tmp_path / "nginx.conf"
    conf.write_text(_nginx_conf(tmp_path, port, [s.port for s in servers]), encoding="utf-8")
    proc = subprocess.Popen(
        [binary, "-c", str(conf), "-p", str(tmp_path), "-g", "daemon off;"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.STDOUT,
    )
    proxy = LiveServer(pg, tmp_path)
    proxy.port = port
    try:

        def up() -> bool:
            try:
                return httpx.get(f"{proxy.http}/api/tables", timeout=2).status_code == 200
            except httpx.HTTPError:
                return False

        wait_for(up, 15, f"nginx answering (see {tmp_path}/error.log)")
        table = create_table(
            proxy,
            {
                "seats": ["open", "random", "open"],
                "rules": {"min_players": 3},
                "max_hands": 2,
                "turn_seconds": 0,
            },
        )
        people = [Person(proxy, table, join_table(proxy, table, n)) for n in ("Ana", "Ben")]
        done: set[int] = set()
        deadline = time.monotonic() + 120
        while len(done) < 2:
            assert time.monotonic() < deadline, "the match did not end through the proxy"
            for i, p in enumerate(people):
                if i in done:
                    continue
                m = p.step(0.2)
                if m is not None and m["type"] == "state" and m["table"]["status"] == "over":
                    done.add(i)
        summary = httpx.get(f"{proxy.http}/api/tables/{table}", timeout=10).json()
        assert summary["status"] == "over"
        for p in people:
            p.ws.close()
        for s in servers:  # the two processes each served a share of the requests
            assert any("/api/tables" in line for line in s.log), s.log[-5:]
    finally:
        proc.terminate()
        proc.wait(10)
        _stop_all(servers)
