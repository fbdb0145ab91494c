"""Benchmark of ``primero serve``: 200 bot-only tables in one server process (bot pause 0)
and a few tables with one scripted client each.

Prints: applied changes per second over all tables (each applied line, hand start and hand
end bumps a table's version), the p50/p99 latency from a scripted client's action to the
``state`` that answers it, and the server's resident memory per table.

    python benchmarks/bench_server.py [--tables 200] [--clients 8] [--seconds 30]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from client_policy import choose_line  # the tests' client policy: one copy of it

LOG: list[str] = []
PRIMERO = [sys.executable, "-c", "from primero.cli import main; main()"]


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def _start(db: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [*PRIMERO, "serve", "--port", "0", "--bot-pause", "0", "--database-url", f"sqlite:///{db}",
         "--create-rate", "0"],  # one address creates every table
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        if "Uvicorn running on http://127.0.0.1:" in line:
            port = int(line.split("127.0.0.1:")[1].split()[0])
            threading.Thread(target=lambda: LOG.extend(proc.stdout or ()), daemon=True).start()
            return proc, f"127.0.0.1:{port}"
    raise SystemExit("the server did not start")


def _versions(http: httpx.Client) -> int:
    return sum(t["version"] for t in http.get("/api/tables").json())


def _client(addr: str, http: httpx.Client, stop: float, out: list[float]) -> None:
    while time.monotonic() < stop:  # a new table whenever the match is over
        _one_table(addr, http, stop, out)


def _one_table(addr: str, http: httpx.Client, stop: float, out: list[float]) -> None:
    table = http.post(
        "/api/tables",
        json={"seats": ["open", "random", "random", "random"], "turn_seconds": 0},
    ).json()["id"]
    token = http.post(f"/api/tables/{table}/seats", json={"name": "Bench"}).json()["token"]
    n = 0
    sent = 0.0
    with connect(f"ws://{addr}/ws/tables/{table}?token={token}", proxy=None) as ws:
        m = json.loads(ws.recv(timeout=60))
        while time.monotonic() < stop:
            if m["type"] == "state" and m["table"]["status"] == "over":
                return
            if m["type"] != "state" or m["legal"] is None:
                m = json.loads(ws.recv(timeout=60))
                continue
            n += 1
            # at most 20 frames a second, the server's limit (docs/protocol.md): an idle
            # server answers within a millisecond, and a client may not outrun it
            time.sleep(max(0.0, sent + 0.05 - time.monotonic()))
            sent = time.monotonic()
            began = time.perf_counter()
            ws.send(json.dumps({"type": "action", "id": str(n), "line": choose_line(m)}))
            while True:
                answer = json.loads(ws.recv(timeout=60))
                if answer["type"] == "state" and answer["version"] > m["version"]:
                    out.append(time.perf_counter() - began)
                    m = answer  # it may be this seat's turn again (declare, then bet)
                    break
                if answer["type"] == "error":
                    raise RuntimeError(f"refused: {answer}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument(
        "--bots", default="random,heuristic,random,random", help="the bot-only tables' seats"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, addr = _start(Path(tmp) / "bench.db")
        try:
            http = httpx.Client(base_url=f"http://{addr}", timeout=60)
            time.sleep(1)
            rss0 = _rss_kib(proc.pid)
            bot_table = {"seats": args.bots.split(","), "stack": 10_000, "max_hands": 10_000}
            bot_ids: set[str] = set()
            for _ in range(args.tables):
                r = http.post("/api/tables", json=bot_table)
                r.raise_for_status()
                bot_ids.add(r.json()["id"])
            time.sleep(3)
            rss1 = _rss_kib(proc.pid)
            latencies: list[float] = []
            stop = time.monotonic() + args.seconds
            threads = [
                threading.Thread(target=_client, args=(addr, http, stop, latencies))
                for _ in range(args.clients)
            ]
            v0, t0 = _versions(http), time.monotonic()
            for t in threads:
                t.start()
            refills = 0
            while any(t.is_alive() for t in threads):  # keep `--tables` bot tables busy
                time.sleep(1)
                over = {t["id"] for t in http.get("/api/tables").json() if t["status"] == "over"}
                for _ in bot_ids & over:
                    r = http.post("/api/tables", json=bot_table)
                    bot_ids.add(r.json()["id"])
                    refills += 1
                bot_ids -= over
            for t in threads:
                t.join()
            v1, t1 = _versions(http), time.monotonic()
            playing = sum(t["status"] == "playing" for t in http.get("/api/tables").json())
            rss2 = _rss_kib(proc.pid)
        finally:
            proc.terminate()
            proc.wait(15)
    errors = [line for line in LOG if "Traceback" in line or "stopped" in line]
    if errors:
        print("server errors:", "".join(LOG[-40:]))
    q = statistics.quantiles(latencies, n=100) if len(latencies) >= 2 else [0.0] * 99
    print(
        f"tables: {args.tables} bot-only + {args.clients} with one scripted client "
        f"({playing} playing at the end; {refills} started as others ended)"
    )
    print(f"changes applied: {(v1 - v0) / (t1 - t0):,.0f} per second over {t1 - t0:.0f} s")
    print(
        f"client action -> state: n={len(latencies)}, p50 {q[49] * 1000:.1f} ms, "
        f"p99 {q[98] * 1000:.1f} ms, max {max(latencies, default=0) * 1000:.1f} ms"
    )
    print(
        f"memory: {rss0 / 1024:.0f} MiB idle, {(rss1 - rss0) / args.tables:.0f} KiB per "
        f"table after creating them, {rss2 / 1024:.0f} MiB at the end"
    )


if __name__ == "__main__":
    main()
