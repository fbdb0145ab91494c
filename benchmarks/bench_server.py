"""Benchmark of ``primero serve`` in one process (SQLite, bot pause 0): scripted people
at their own tables (one person and three random bots each), first alone, then beside
``--tables`` busy bot-only tables (random and heuristic bots; ``--search`` of them with a
search bot), in the same run.

For each phase it prints: a person's action-to-state latency (p50, p99 and max over
every sample; p99 is an inclusive quantile, never above the max), the event loop's
longest stall (the server's loop-lag probe, :mod:`primero.server.loopprobe`: wall time,
the loop's own CPU at a stretch, the longest garbage collection), changes applied per
second over every table (each applied line, hand started or ended bumps a table's
version), the server process's CPU (cores, and milliseconds a change: a figure the
machine's load does not inflate as much as wall time), and the server's resident
memory per bot-only table. ``--keep-probe FILE`` keeps the probe's lines, with the loop
thread's stacks its watchdog saw during each long stretch.

    python benchmarks/bench_server.py [--tables 200] [--search 10] [--clients 8]
                                      [--seconds 30] [--keep-probe FILE] [--keep-log FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the package tests
from tests.client_policy import choose_line  # the tests' client policy: one copy of it

LOG: list[str] = []
PRIMERO = [sys.executable, "-c", "from primero.cli import main; main()"]
BOT_SEATS = ["random", "heuristic", "random", "heuristic"]
SEARCH_SEATS = ["search", "heuristic", "random", "random"]


def _rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _cpu_s(pid: int) -> float:
    """CPU seconds (user and system) the process ``pid`` has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    try:
        return [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _start(db: Path, probe: Path) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [
            *PRIMERO,
            "serve",
            "--port",
            "0",
            "--bot-pause",
            "0",
            "--database-url",
            f"sqlite:///{db}",
            "--create-rate",
            "0",
        ],  # one address creates every table
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


def _lobby(http: httpx.Client, status: str | None) -> list[dict[str, Any]]:
    """The lobby's tables of ``status`` (None: those not over nor broken), every page
    (50 a page)."""
    out: list[dict[str, Any]] = []
    page = 1
    while True:
        params: dict[str, Any] = {"page": page}
        if status is not None:
            params["status"] = status
        got = http.get("/api/tables", params=params).json()
        out += got
        if len(got) < 50:
            return out
        page += 1


def _all_tables(http: httpx.Client) -> list[dict[str, Any]]:
    """Every table, page by page."""
    return [t for status in (None, "over", "broken") for t in _lobby(http, status)]


def _versions(http: httpx.Client) -> int:
    return sum(t["version"] for t in _all_tables(http))


def _stall_ms(probe: Path, began: float, ended: float) -> tuple[float, float, float, int]:
    """The loop's longest stall in the window: (wall ms, CPU ms of the loop's thread,
    the longest garbage collection in ms, full collections)."""
    wall = cpu = gc_ms = 0.0
    full = 0
    for line in probe.read_text().splitlines():
        row = json.loads(line)
        if began < row["t"] <= ended + 1:
            wall, cpu = max(wall, row["max_ms"]), max(cpu, row["cpu_ms"])
            gc_ms, full = max(gc_ms, row.get("gc_ms", 0.0)), full + row.get("gc2_n", 0)
    return wall, cpu, gc_ms, full


@dataclass
class Phase:
    """What one phase measured."""

    name: str
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    changes: int = 0
    stall_ms: tuple[float, float, float, int] = (0.0, 0.0, 0.0, 0)
    cpu_s: float = 0.0
    refused: int = 0


def _client(addr: str, http: httpx.Client, stop: float, phase: Phase) -> None:
    while time.monotonic() < stop:  # a new table whenever the match is over
        _one_table(addr, http, stop, phase)


def _one_table(addr: str, http: httpx.Client, stop: float, phase: Phase) -> None:
    table = http.post(
        "/api/tables",
        json={"seats": ["open", "random", "random", "random"], "turn_seconds": 0, "stack": 1000},
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
            # at most 20 frames a second, the server's limit (docs/protocol.md)
            time.sleep(max(0.0, sent + 0.05 - time.monotonic()))
            sent = time.monotonic()
            began = time.perf_counter()
            frame = {
                "type": "action",
                "id": str(n),
                "line": choose_line(m),
                "version": m["version"],
            }
            ws.send(json.dumps(frame))
            while True:
                answer = json.loads(ws.recv(timeout=60))
                if answer["type"] == "state" and answer["version"] > m["version"]:
                    phase.latencies.append(time.perf_counter() - began)
                    m = answer  # it may be this seat's turn again (declare, then bet)
                    break
                if answer["type"] == "error":
                    if not (answer.get("retry") or answer.get("stale")):
                        raise RuntimeError(f"refused: {answer}")
                    phase.refused += 1
                    m = json.loads(ws.recv(timeout=60))  # the state after it
                    break


def _run_phase(
    name: str,
    addr: str,
    http: httpx.Client,
    args: argparse.Namespace,
    probe: Path,
    bot_ids: set[str],
    pid: int,
) -> Phase:
    phase = Phase(name)
    stop = time.monotonic() + args.seconds
    threads = [
        threading.Thread(target=_client, args=(addr, http, stop, phase), daemon=True)
        for _ in range(args.clients)
    ]
    # The lobby's whole list (hundreds of summaries in one answer) is itself a stall of
    # the server's loop until it is paged: it is asked for only outside the window the
    # probe is read in, and measured on its own (main).
    v0 = _versions(http)
    cpu0 = _cpu_s(pid)
    time.sleep(1.5)
    t0, w0 = time.monotonic(), time.time()
    for t in threads:
        t.start()
    while any(t.is_alive() for t in threads):  # keep the bot-only tables busy
        time.sleep(2)
        if not bot_ids:
            continue
        live = {t["id"] for t in _lobby(http, None)}  # a few pages, not a GET per table
        for table in bot_ids - live:  # over: another one starts
            bot_ids.discard(table)
            r = http.post(
                "/api/tables", json={"seats": BOT_SEATS, "stack": 10_000, "max_hands": 10_000}
            )
            bot_ids.add(r.json()["id"])
    for t in threads:
        t.join()
    phase.seconds = time.monotonic() - t0
    w1 = time.time()
    time.sleep(1.2)  # the probe's last line of the phase
    phase.stall_ms = _stall_ms(probe, w0, w1 - 1)
    phase.cpu_s = _cpu_s(pid) - cpu0  # the server process's CPU over the same stretch
    phase.changes = _versions(http) - v0  # changes over the window and the 2.7 s around it
    phase.seconds += 2.7
    return phase


def _report(phase: Phase) -> None:
    lat = sorted(phase.latencies)
    if len(lat) >= 2:
        q = statistics.quantiles(lat, n=100, method="inclusive")
        p50, p99 = q[49], q[98]
    else:
        p50 = p99 = lat[0] if lat else 0.0
    enough = "" if len(lat) >= 1000 else "  (fewer than 1,000 samples: p99 is rough)"
    print(
        f"  person action -> state: n={len(lat)}, p50 {p50 * 1000:.1f} ms, "
        f"p99 {p99 * 1000:.1f} ms, max {max(lat, default=0) * 1000:.1f} ms{enough}"
    )
    wall, cpu, gc_ms, full = phase.stall_ms
    print(
        f"  event loop's longest stall: {wall:.1f} ms of wall time; the most CPU the loop "
        f"ran at a stretch: {cpu:.1f} ms; the longest garbage collection {gc_ms:.1f} ms "
        f"({full} full collections)"
    )
    print(
        f"  changes applied: {phase.changes / phase.seconds:,.0f} per second over "
        f"{phase.seconds:.0f} s ({phase.refused} moves refused as stale or to retry); "
        f"the server process's CPU: {phase.cpu_s / phase.seconds:.2f} cores, "
        f"{1000 * phase.cpu_s / max(1, phase.changes):.2f} ms a change"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="busy bot-only tables")
    parser.add_argument("--search", type=int, default=10, help="of them, with a search bot")
    parser.add_argument("--clients", type=int, default=8, help="scripted people")
    parser.add_argument("--seconds", type=float, default=30.0, help="each phase's length")
    parser.add_argument(
        "--keep-probe",
        type=Path,
        default=None,
        help="copy the loop probe's lines (one a second) to this file",
    )
    parser.add_argument(
        "--keep-log", type=Path, default=None, help="write the server's log to this file"
    )
    args = parser.parse_args()
    print(
        f"load before: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} "
        f"{os.getloadavg()[2]:.2f} (1, 5, 15 min) on {os.cpu_count()} cores"
    )
    with tempfile.TemporaryDirectory() as tmp:
        probe = Path(tmp) / "probe.jsonl"
        proc, addr = _start(Path(tmp) / "bench.db", probe)
        try:
            http = httpx.Client(base_url=f"http://{addr}", timeout=60)
            time.sleep(2)  # the bot workers start
            alone = _run_phase("alone", addr, http, args, probe, set(), proc.pid)
            rss0 = _rss_kib(proc.pid)
            bot_ids: set[str] = set()
            for i in range(args.tables):
                seats = SEARCH_SEATS if i < args.search else BOT_SEATS
                r = http.post(
                    "/api/tables", json={"seats": seats, "stack": 10_000, "max_hands": 10_000}
                )
                r.raise_for_status()
                bot_ids.add(r.json()["id"])
            time.sleep(3)
            rss1 = _rss_kib(proc.pid)
            busy = _run_phase("busy", addr, http, args, probe, bot_ids, proc.pid)
            workers = sum(_rss_kib(c) for c in _children(proc.pid))
            rss2 = _rss_kib(proc.pid)
            began = time.perf_counter()
            listed = len(http.get("/api/tables").json())
            lobby_ms = (time.perf_counter() - began) * 1000
        finally:
            stopping = time.monotonic()
            proc.terminate()
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)
                print("the server did not stop within 15 s of SIGTERM: killed")
            stop_s = time.monotonic() - stopping
            if args.keep_probe is not None:
                args.keep_probe.write_text(probe.read_text())
            if args.keep_log is not None:
                args.keep_log.write_text("".join(LOG))
    errors = [line for line in LOG if "Traceback" in line or " is broken" in line]
    if errors:
        print("server errors:", "".join(LOG[-40:]))
    print(f"{args.clients} scripted people, each at a table with three random bots:")
    print("alone (no other table):")
    _report(alone)
    print(
        f"beside {args.tables} busy bot-only tables "
        f"({min(args.search, args.tables)} with a search bot):"
    )
    _report(busy)
    per_table = f"{(rss1 - rss0) / args.tables:.0f} KiB" if args.tables else "n/a"
    print(
        f"memory: server {rss0 / 1024:.0f} MiB before the bot tables, {per_table} per bot "
        f"table, {rss2 / 1024:.0f} MiB at the end; bot workers {workers / 1024:.0f} MiB"
    )
    print(f"the lobby's first page ({listed} tables): {lobby_ms:.0f} ms")
    print(f"SIGTERM to exit: {stop_s:.1f} s")
    print(f"load after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
