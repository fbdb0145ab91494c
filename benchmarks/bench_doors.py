"""Benchmark of ``primero serve``'s doors under attack (one process, bot pause 0): scripted
people at their own tables (one person and three random bots each) beside ``--tables``
busy bot-only tables, first as they are (the baseline), then, in the same run, with a
slowloris (``--slowloris`` connections from one address, each having sent half a request
head, opened again as the server closes them) and a chat flood (``--spectators``
spectators of one table, from other addresses, each sending ``--chat-rate`` chat frames
a second, under the frame limit, with the table's spectators' chat opened by the host).

For each phase it prints a person's action-to-state latency (p50, p99, max), the event
loop's longest stall and the changes applied a second (as ``bench_server.py``), and for
the attacked phase what the attackers got: half-open connections the server held, chat
lines relayed and refused. Everything goes to 127.0.0.1 (other 127/8 addresses are the
same loopback) and stops by itself after the phases.

    python benchmarks/bench_doors.py [--database sqlite|postgresql] [--tables 200]
        [--clients 8] [--seconds 30] [--slowloris 1100] [--spectators 60] [--chat-rate 15]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import (  # the same people, phases and report
    BOT_SEATS,
    LOG,
    PRIMERO,
    Phase,
    _report,
    _run_phase,
)

STRANGER = "127.0.0.9"  # the slowloris's address
HALF_HEAD = b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
PG_ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=test"


@contextlib.contextmanager
def _database(kind: str, tmp: Path) -> Iterator[str]:
    if kind == "sqlite":
        yield f"sqlite:///{tmp / 'bench.db'}"
        return
    import psycopg

    name = f"primero_bench_{secrets.token_hex(4)}"
    with psycopg.connect(PG_ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def _start(url: str, probe: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            *PRIMERO,
            "serve",
            "--port",
            "0",
            "--bot-pause",
            "0",
            "--database-url",
            url,
            "--create-rate",
            "0",
            "--max-tables",
            "0",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "PRIMERO_LOOP_PROBE": str(probe)},
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        LOG.append(line)
        if "Uvicorn running on http://127.0.0.1:" in line:
            port = int(line.split("127.0.0.1:")[1].split()[0])
            threading.Thread(target=lambda: LOG.extend(proc.stdout or ()), daemon=True).start()
            return proc, f"127.0.0.1:{port}"
    raise SystemExit("the server did not start:\n" + "".join(LOG))


class Slowloris(threading.Thread):
    """Keeps ``count`` connections from :data:`STRANGER`, each with half a head sent,
    opening a new one for each the server closes, until ``stop``."""

    def __init__(self, port: int, count: int, stop: float) -> None:
        super().__init__(daemon=True)
        self.port, self.count, self.stop = port, count, stop
        self.opened = 0
        self.held_max = 0

    def _open(self) -> socket.socket | None:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.bind((STRANGER, 0))
        s.settimeout(2)
        try:
            s.connect(("127.0.0.1", self.port))
            s.sendall(HALF_HEAD)
        except OSError:
            s.close()
            return None
        s.setblocking(False)
        self.opened += 1
        return s

    def _alive(self, s: socket.socket) -> bool:
        try:
            return s.recv(1) != b""
        except BlockingIOError:
            return True
        except OSError:
            return False

    def run(self) -> None:
        socks: list[socket.socket] = []
        while time.monotonic() < self.stop:
            kept = []
            for s in socks:
                if self._alive(s):
                    kept.append(s)
                else:
                    s.close()
            socks = kept
            self.held_max = max(self.held_max, len(socks))
            while len(socks) < self.count and time.monotonic() < self.stop:
                fresh = self._open()
                if fresh is not None:
                    socks.append(fresh)
                if len(socks) % 100 == 0:
                    break  # look at the others now and then
            time.sleep(0.2)
        for s in socks:
            s.close()


class ChatFlood:
    """``n`` spectators of one table, each sending ``rate`` chat frames a second."""

    def __init__(self, addr: str, table: str, n: int, rate: float, stop: float) -> None:
        self.addr, self.table, self.n, self.rate, self.stop = addr, table, n, rate, stop
        self.relayed = 0
        self.refused = 0
        self.sent = 0
        self._lock = threading.Lock()
        self.threads = [
            threading.Thread(target=self._one, args=(i,), daemon=True) for i in range(n)
        ]

    def start(self) -> None:
        for t in self.threads:
            t.start()

    def join(self) -> None:
        for t in self.threads:
            t.join()

    def _one(self, i: int) -> None:
        host, port = self.addr.split(":")
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind((f"127.0.0.{10 + i % 50}", 0))  # spectators come from many addresses
        sock.connect((host, int(port)))
        with connect(f"ws://{self.addr}/ws/tables/{self.table}", sock=sock, proxy=None) as ws:
            next_at = time.monotonic()
            k = 0
            while time.monotonic() < self.stop:
                now = time.monotonic()
                if now >= next_at:
                    ws.send(json.dumps({"type": "chat", "text": f"spam {i} {k}"}))
                    k += 1
                    next_at += 1 / self.rate
                    with self._lock:
                        self.sent += 1
                try:
                    m = json.loads(ws.recv(timeout=max(0.001, next_at - time.monotonic())))
                except TimeoutError:
                    continue
                with self._lock:
                    if m["type"] == "chat":
                        self.relayed += 1
                    elif m["type"] == "error":
                        self.refused += 1


def _attacked(
    addr: str, http: httpx.Client, args: argparse.Namespace, probe: Path, bots: set[str], pid: int
) -> tuple[Phase, Slowloris, ChatFlood]:
    r = http.post("/api/tables", json={"seats": ["open"] * 4, "turn_seconds": 0})
    r.raise_for_status()
    table, host = r.json()["id"], r.json()["host_token"]
    http.patch(
        f"/api/tables/{table}",
        json={"spectator_chat": True},
        headers={"Authorization": f"Bearer {host}"},
    ).raise_for_status()
    stop = time.monotonic() + args.seconds + 8
    loris = Slowloris(int(addr.split(":")[1]), args.slowloris, stop)
    flood = ChatFlood(addr, table, args.spectators, args.chat_rate, stop)
    loris.start()
    flood.start()
    time.sleep(2)  # both under way before the people start
    phase = _run_phase("attacked", addr, http, args, probe, bots, pid)
    loris.join()
    flood.join()
    return phase, loris, flood


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", choices=["sqlite", "postgresql"], default="sqlite")
    parser.add_argument("--tables", type=int, default=200, help="busy bot-only tables")
    parser.add_argument("--clients", type=int, default=8, help="scripted people")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase's length")
    parser.add_argument("--slowloris", type=int, default=1100, help="half-open connections")
    parser.add_argument("--spectators", type=int, default=60, help="spectators chatting")
    parser.add_argument("--chat-rate", type=float, default=15.0, help="frames a second each")
    args = parser.parse_args()
    print(
        f"{args.database}; load before: {os.getloadavg()[0]:.2f} (1 min) on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as tmp, _database(args.database, Path(tmp)) as url:
        probe = Path(tmp) / "probe.jsonl"
        proc, addr = _start(url, probe)
        try:
            http = httpx.Client(base_url=f"http://{addr}", timeout=60)
            time.sleep(2)  # the bot workers start
            bots: set[str] = set()
            for _ in range(args.tables):
                r = http.post(
                    "/api/tables", json={"seats": BOT_SEATS, "stack": 10_000, "max_hands": 10_000}
                )
                r.raise_for_status()
                bots.add(r.json()["id"])
            time.sleep(3)
            base = _run_phase("baseline", addr, http, args, probe, bots, proc.pid)
            attacked, loris, flood = _attacked(addr, http, args, probe, bots, proc.pid)
            answered = http.get("/api/tables").status_code
        finally:
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
    refusals = sum("connections open, the most one address may hold" in x for x in LOG)
    print(f"{args.clients} scripted people beside {args.tables} busy bot-only tables:")
    print("baseline:")
    _report(base)
    print(
        f"with a slowloris of {args.slowloris} connections and {args.spectators} spectators "
        f"chatting {args.chat_rate:g} frames a second each:"
    )
    _report(attacked)
    print(
        f"  slowloris: {loris.opened} connections opened, at most {loris.held_max} open at "
        f"once on its side; {refusals} cap line(s) logged"
    )
    print(
        f"  chat flood: {flood.sent} lines sent, {flood.relayed} chat frames received by the "
        f"spectators, {flood.refused} refusals; the lobby answered {answered} after"
    )


if __name__ == "__main__":
    main()
