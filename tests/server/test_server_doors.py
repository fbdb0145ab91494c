"""Doors a stranger cannot jam (server/doors.py), on the real server: 1,100 connections
from one address that send half a request head, on a process limited to 1,024 file
descriptors, leave everyone else playing; the cap is logged once; the head deadline
closes the half-open connections it admitted."""

from __future__ import annotations

import contextlib
import resource
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests import needs
from tests.server_helpers import NO_WAITS, PRIMERO, recv_until, wait_for

STRANGER = "127.0.0.9"  # any 127/8 address is this machine's loopback
HALF_HEAD = b"GET /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "


def _limit_descriptors() -> None:  # in the server's process, before exec
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


class Server:
    """``primero serve`` with 1,024 file descriptors, its output kept."""

    def __init__(self, url: str, cwd: Path, *extra: str) -> None:
        self.proc = subprocess.Popen(
            [
                *PRIMERO,
                "serve",
                "--port",
                "0",
                *NO_WAITS,
                "--database-url",
                url,
                *list(extra),
            ],
            cwd=cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            preexec_fn=_limit_descriptors,
        )
        self.log: list[str] = []
        self.port = 0
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.log.append(line)
            if "Uvicorn running on http://127.0.0.1:" in line:
                self.port = int(line.split("127.0.0.1:")[1].split()[0])
                threading.Thread(target=self._drain, daemon=True).start()
                return
        self.stop()
        raise AssertionError("the server did not start:\n" + "".join(self.log))

    def _drain(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.log.append(line)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(10)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@contextlib.contextmanager
def half_open(port: int, count: int) -> Iterator[list[socket.socket]]:
    """``count`` connections from :data:`STRANGER`, each having sent half a head."""
    socks: list[socket.socket] = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            socks.append(s)
            s.bind((STRANGER, 0))
            s.settimeout(5)
            try:
                s.connect(("127.0.0.1", port))
                s.sendall(HALF_HEAD)
            except OSError:
                continue  # refused or reset at once: that is the cap working
        yield socks
    finally:
        for s in socks:
            s.close()


def _closed_by_server(s: socket.socket) -> bool:
    s.setblocking(False)
    try:
        return s.recv(1) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True


@pytest.fixture(name="server")
def server_fixture(tmp_path: Path) -> Iterator[Server]:
    needs.check("descriptors")  # raises the limit where the hard one allows
    server = Server(f"sqlite:///{tmp_path / 'doors.db'}", tmp_path, "--head-timeout", "2")
    try:
        yield server
    finally:
        server.stop()


def test_a_slowloris_leaves_everyone_else_playing(server: Server) -> None:
    from websockets.sync.client import connect

    with half_open(server.port, 1100) as socks:
        # everyone else: the lobby, a new table, a seat, its WebSocket
        r = httpx.get(f"{server.http}/api/tables", timeout=5)
        assert r.status_code == 200, r.text
        body = {"seats": ["open", "random", "random", "random"]}
        r = httpx.post(f"{server.http}/api/tables", json=body, timeout=5)
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        r = httpx.post(f"{server.http}/api/tables/{table}/seats", json={"name": "Ana"}, timeout=5)
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}?token={token}") as ws:
            state = recv_until(ws, lambda m: m.get("type") == "state", 5, "a state")
            assert state["table"]["id"] == table
        refused = [line for line in server.log if f"{STRANGER} has 64 connections open" in line]
        # one line each time the address reaches the cap, never one per refused connection:
        # once, unless a slow machine let --head-timeout close all 64 while the rest were
        # still being opened (then the cap is reached again: at most 1,100 / 64 times)
        assert 1 <= len(refused) <= 1100 // 64, "".join(server.log[-20:])
        # the 64 it admitted never finish their head: closed after --head-timeout 2
        wait_for(
            lambda: sum(not _closed_by_server(s) for s in socks) == 0,
            15,
            "every half-open connection closed by the server",
        )


def test_a_text_frame_that_is_not_utf8_closes_with_1007_and_one_log_line(
    server: Server,
) -> None:
    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    body = {"seats": ["open", "random", "random", "random"]}
    r = httpx.post(f"{server.http}/api/tables", json=body, timeout=5)
    assert r.status_code == 201, r.text
    table = r.json()["id"]
    with connect(f"ws://127.0.0.1:{server.port}/ws/tables/{table}") as ws:
        recv_until(ws, lambda m: m.get("type") == "state", 5, "a state")
        ws.send(b"\xff\xfe{", text=True)
        with pytest.raises(ConnectionClosed) as info:
            recv_until(ws, lambda m: False, 5, "the close")
    assert info.value.rcvd is not None and info.value.rcvd.code == 1007
    wait_for(lambda: any("not UTF-8" in line for line in server.log), 5, "the log line")
    said = [line for line in server.log if "not UTF-8" in line]
    assert len(said) == 1 and "Traceback" not in "".join(server.log), "".join(server.log)
