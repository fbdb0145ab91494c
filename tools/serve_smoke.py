"""The installed wheel's server plays a table to its end (tools/check_release.sh).

Starts ``primero serve`` (the ``primero`` beside this Python) on a free port of
127.0.0.1 with an SQLite file in ``FOLDER``, makes a table of four random bots for two
hands, waits until the match is over, exports the hands and checks the first one's fair
deal with ``primero verify``, then stops the server with SIGTERM (exit status 0). Each
wait is bounded and says what it waited for.

Usage: python tools/serve_smoke.py FOLDER
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _get(url: str) -> Any:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return json.load(answer)


def _until(what: str, seconds: float, check: Any) -> Any:
    deadline = time.monotonic() + seconds
    while True:
        try:
            value = check()
        except OSError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise SystemExit(f"serve smoke: no {what} within {seconds:.0f} s")
        time.sleep(0.2)


def main(folder: Path) -> None:
    primero = str(Path(sys.executable).parent / "primero")
    port, url = _free_port(), f"sqlite:///{folder / 'smoke.db'}"
    base = f"http://127.0.0.1:{port}"
    log = (folder / "serve.log").open("w")
    args = ["--host", "127.0.0.1", "--port", str(port), "--database-url", url]
    server = subprocess.Popen(
        [primero, "serve", *args, "--bot-pause", "0", "--hand-pause", "0"],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        _until("answer from the server", 30, lambda: _get(f"{base}/api/tables") is not None)
        body = {"name": "Smoke", "seats": ["random"] * 4, "max_hands": 2, "turn_seconds": 0}
        ask = urllib.request.Request(
            f"{base}/api/tables",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(ask, timeout=5) as answer:
            table = json.load(answer)["id"]

        def over() -> bool:
            status = _get(f"{base}/api/tables/{table}")["status"]
            if status == "broken":
                raise SystemExit(f"serve smoke: table broken; see {folder / 'serve.log'}")
            return bool(status == "over")

        _until("end of the match (two hands of bots)", 60, over)
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(15)
        log.close()
    if code != 0:
        raise SystemExit(f"serve smoke: the server exited {code} on SIGTERM")
    out = folder / "export"
    subprocess.run(
        [primero, "hands", "export", "--database-url", url, "--table", table, "--out", str(out)],
        check=True,
    )
    hands = sorted((out / table).glob("*.prh"))
    if len(hands) != 2:
        raise SystemExit(f"serve smoke: {len(hands)} hands exported, not 2")
    subprocess.run([primero, "verify", str(hands[0])], check=True)
    print(f"serve smoke: a table of bots played 2 hands, verified, stopped (port {port})")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
