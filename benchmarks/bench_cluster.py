"""Benchmark of several ``primero serve`` processes: ``--tables`` busy bot-only
tables (four random bots each, bot pause 0) on PostgreSQL, first driven by one process,
then by three processes sharing the database and Redis, in one run; scripted people play
at tables of their own meanwhile (three random bots each).

For each phase it prints the changes applied per second over every table (each applied
line, hand started or ended bumps a table's version; from the database), the lines
applied per second (moves and deals), and a person's action-to-state latency (p50, p99,
max). With three processes one person sits at a table its own process drives and one at
a table another process drives (its moves forwarded through Redis).

    python benchmarks/bench_cluster.py [--tables 1000] [--seconds 30] [--lease 5]

Needs PostgreSQL at 127.0.0.1:5432 (user postgres) and Redis at 127.0.0.1:6379.
"""

from __future__ import annotations

import argparse
import json
import os
import secrets
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the package tests
from tests.client_policy import choose_line  # the tests' client policy: one copy of it

PRIMERO = [sys.executable, "-c", "from primero.cli import main; main()"]
ADMIN = "host=127.0.0.1 port=5432 user=postgres dbname=test"
BOTS = ["random", "random", "random"]


class Server:
    """One ``primero serve`` subprocess."""

    def __init__(self, url: str, redis: str | None, lease: float) -> None:
        extra = [] if redis is None else ["--redis-url", redis, "--lease-seconds", str(lease)]
        self.log: list[str] = []
        self.proc = subprocess.Popen(
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
                *extra,
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.append(line)
            if "Uvicorn running on http://127.0.0.1:" in line:
                self.addr = f"127.0.0.1:{int(line.split('127.0.0.1:')[1].split()[0])}"
                threading.Thread(target=self._drain, daemon=True).start()
                return
        raise SystemExit("a server did not start:\n" + "".join(self.log))

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        self.log.extend(self.proc.stdout)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)


def _totals(dsn: str) -> tuple[int, int]:
    """(sum of every table's version, lines stored) in the database now."""
    with psycopg.connect(dsn) as conn:
        versions = conn.execute("SELECT COALESCE(SUM(version), 0) FROM tables").fetchone()
        lines = conn.execute("SELECT COUNT(*) FROM lines").fetchone()
    assert versions is not None and lines is not None
    return int(versions[0]), int(lines[0])


def _person(addr: str, owner_addr: str, stop: float, out: list[float], refused: list[int]) -> None:
    """A person: a table created through ``owner_addr`` (which drives it), played through
    ``addr``; each action's time until the state that shows it."""
    http = httpx.Client(timeout=60)
    while time.monotonic() < stop:
        table = http.post(
            f"http://{owner_addr}/api/tables",
            json={"seats": ["open", *BOTS], "turn_seconds": 0, "stack": 1000},
        ).json()["id"]
        token = http.post(f"http://{addr}/api/tables/{table}/seats", json={"name": "Bench"}).json()[
            "token"
        ]
        n, sent = 0, 0.0
        with connect(f"ws://{addr}/ws/tables/{table}?token={token}", proxy=None) as ws:
            m = json.loads(ws.recv(timeout=60))
            while time.monotonic() < stop:
                if m["type"] == "state" and m["table"]["status"] == "over":
                    break
                if m["type"] != "state" or m["legal"] is None:
                    m = json.loads(ws.recv(timeout=60))
                    continue
                n += 1
                time.sleep(max(0.0, sent + 0.05 - time.monotonic()))  # 20 frames a second
                sent = time.monotonic()
                began = time.perf_counter()
                ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "id": str(n),
                            "line": choose_line(m),
                            "version": m["version"],
                        }
                    )
                )
                while True:
                    answer = json.loads(ws.recv(timeout=60))
                    if answer["type"] == "state" and answer["version"] > m["version"]:
                        out.append(time.perf_counter() - began)
                        m = answer
                        break
                    if answer["type"] == "error":
                        if not (answer.get("retry") or answer.get("stale")):
                            raise RuntimeError(f"refused: {answer}")
                        refused[0] += 1
                        m = json.loads(ws.recv(timeout=60)) if not answer.get("retry") else m
                        break


def _quantiles(lat: list[float]) -> str:
    if not lat:
        return "no samples"
    lat = sorted(lat)
    q = statistics.quantiles(lat, n=100, method="inclusive") if len(lat) >= 2 else [lat[0]] * 99
    return (
        f"n={len(lat)}, p50 {q[49] * 1000:.1f} ms, p99 {q[98] * 1000:.1f} ms, "
        f"max {lat[-1] * 1000:.1f} ms"
    )


def _phase(processes: int, args: argparse.Namespace, redis: str) -> dict[str, Any]:
    name = f"primero_bench_{secrets.token_hex(4)}"
    with psycopg.connect(ADMIN, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    url = f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    dsn = f"host=127.0.0.1 port=5432 user=postgres dbname={name}"
    servers: list[Server] = []
    try:
        servers = [Server(url, redis if processes > 1 else None, args.lease)]
        if processes > 1:  # the first one migrated the database; the others start at once
            with ThreadPoolExecutor(processes - 1) as pool:
                servers += list(
                    pool.map(lambda _i: Server(url, redis, args.lease), range(processes - 1))
                )
        began = time.monotonic()
        with ThreadPoolExecutor(8) as pool:  # tables spread over the processes

            def make(i: int) -> None:
                addr = servers[i % len(servers)].addr
                r = httpx.post(
                    f"http://{addr}/api/tables",
                    timeout=120,
                    json={"seats": [*BOTS, "random"], "stack": 10_000, "max_hands": 10_000},
                )
                r.raise_for_status()

            list(pool.map(make, range(args.tables)))
        setup = time.monotonic() - began
        time.sleep(3)
        v0, l0, t0 = *_totals(dsn), time.monotonic()
        stop = t0 + args.seconds
        lat_own: list[float] = []
        lat_other: list[float] = []
        refused = [0]
        a = servers[0].addr
        b = servers[-1].addr
        people = [threading.Thread(target=_person, args=(a, a, stop, lat_own, refused))]
        if processes > 1:  # a table driven by the first process, played through the last
            people.append(threading.Thread(target=_person, args=(b, a, stop, lat_other, refused)))
        else:
            people.append(threading.Thread(target=_person, args=(a, a, stop, lat_other, refused)))
        for p in people:
            p.start()
        for p in people:
            p.join()
        v1, l1, t1 = *_totals(dsn), time.monotonic()
        errors = [x for s in servers for x in s.log if "Traceback" in x or "broken" in x]
        return {
            "processes": processes,
            "setup": setup,
            "seconds": t1 - t0,
            "changes": (v1 - v0) / (t1 - t0),
            "lines": (l1 - l0) / (t1 - t0),
            "own": lat_own,
            "other": lat_other,
            "refused": refused[0],
            "errors": len(errors),
        }
    finally:
        for s in servers:
            s.stop()
        with psycopg.connect(ADMIN, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=1000, help="busy bot-only tables")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase's length")
    parser.add_argument("--lease", type=float, default=5.0, help="--lease-seconds")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/12")
    parser.add_argument("--processes", default="1,3", help="the phases: process counts")
    args = parser.parse_args()
    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
        f"{os.getloadavg()[2]:.2f} (1, 5, 15 min) on {os.cpu_count()} cores"
    )
    for n in (int(x) for x in args.processes.split(",")):
        r = _phase(n, args, args.redis)
        print(
            f"{n} process{'es' if n > 1 else ''}, {args.tables} bot-only tables "
            f"(created in {r['setup']:.0f} s), {r['seconds']:.0f} s measured:"
        )
        print(
            f"  changes applied: {r['changes']:,.0f} per second; lines (moves and deals): "
            f"{r['lines']:,.0f} per second; server errors logged: {r['errors']}"
        )
        print(f"  person at a table its process drives: {_quantiles(r['own'])}")
        where = "another process drives (forwarded)" if n > 1 else "its process drives"
        print(f"  person at a table {where}: {_quantiles(r['other'])}")
        print(f"  moves refused as stale or to retry: {r['refused']}")
    print(f"load after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
