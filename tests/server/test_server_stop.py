"""``primero serve`` stops cleanly on Ctrl-C and SIGTERM while tables play: exit status 0
within 5 s, nothing on standard error but uvicorn's own lines (no traceback from a bot
worker, no leaked-semaphore warning), and the tables go on at the next start."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from tests.server_helpers import NO_WAITS, PRIMERO, wait_for

BOTS = {"seats": ["heuristic", "heuristic", "heuristic", "heuristic"], "stack": 1000}


def _start(url: str, cwd: Path) -> tuple[subprocess.Popen[str], int]:
    """A server in a process group of its own (as a terminal's foreground job), with one
    bot worker process (the pool whose workers once printed tracebacks); its port."""
    proc = subprocess.Popen(
        [
            *PRIMERO,
            "serve",
            "--port",
            "0",
            *NO_WAITS,
            "--bot-processes",
            "1",
            "--database-url",
            url,
        ],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    assert proc.stderr is not None
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        if "Uvicorn running on http://127.0.0.1:" in line:
            return proc, int(line.split("127.0.0.1:")[1].split()[0])
    proc.kill()
    proc.wait(10)
    raise AssertionError("the server did not start")


def _hands(port: int, table: str) -> int:
    r = httpx.get(f"http://127.0.0.1:{port}/api/tables/{table}", timeout=10)
    assert r.status_code == 200, r.text
    played: int = r.json()["hands_played"]
    return played


@pytest.mark.soak
@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_serve_stops_cleanly_and_tables_resume(how: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'stop.db'}"
    proc, port = _start(url, tmp_path)
    try:
        r = httpx.post(f"http://127.0.0.1:{port}/api/tables", json=BOTS, timeout=10)
        assert r.status_code == 201, r.text
        table = r.json()["id"]
        wait_for(lambda: _hands(port, table) >= 1, 60, "a hand played by the bots")
        if how == "ctrl-c":  # the terminal sends SIGINT to the whole foreground group
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM)
        try:
            _out, err = proc.communicate(timeout=5)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"the server did not exit within 5 s of {how}") from None
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
    assert proc.returncode == 0, err
    assert "Traceback" not in err, err
    assert "KeyboardInterrupt" not in err, err
    assert "leaked" not in err, err
    assert "Finished server process" in err, err
    stopped_at = None
    proc, port = _start(url, tmp_path)
    try:
        stopped_at = _hands(port, table)
        wait_for(lambda: _hands(port, table) > stopped_at, 60, "the table going on")
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=15)
    assert proc.returncode == 0
