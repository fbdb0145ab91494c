"""Helpers shared by the server tests: a client's simple policy and card checks."""

from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from client_policy import choose_line

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


def in_ci() -> bool:
    """Whether missing services must fail instead of skip (``PRIMERO_CI=1``)."""
    return os.environ.get("PRIMERO_CI") == "1"


@contextmanager
def postgres_url() -> Iterator[str]:
    """A fresh PostgreSQL database with a random name (dropped after), as an SQLAlchemy
    URL; skips (fails under PRIMERO_CI=1) when 127.0.0.1:5432 is not reachable."""
    import psycopg

    try:
        admin = psycopg.connect(PG_ADMIN, connect_timeout=3, autocommit=True)
    except psycopg.Error as exc:
        reason = f"PostgreSQL not reachable at 127.0.0.1:5432 (user postgres, db test): {exc}"
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    name = f"primero_test_{secrets.token_hex(6)}"
    try:
        admin.execute(f'CREATE DATABASE "{name}"')
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.close()


@contextmanager
def database(kind: str, tmp_path: Path) -> Iterator[str]:
    """An SQLAlchemy URL of an empty database of ``kind`` (``sqlite`` or ``postgresql``)."""
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / f'{secrets.token_hex(4)}.db'}"
    else:
        with postgres_url() as url:
            yield url


# --------------------------------------------------------------------------- a live server

PRIMERO = [sys.executable, "-c", "from primero.cli import main; main()"]


class LiveServer:
    """A ``primero serve`` subprocess on 127.0.0.1 and a free port."""

    def __init__(self, url: str, cwd: Path, *extra: str) -> None:
        self.url = url
        self.cwd = cwd
        self.extra = extra
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
                "--bot-pause",
                "0",
                "--database-url",
                self.url,
                *self.extra,
            ],
            cwd=self.cwd,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        assert self.proc.stdout is not None
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            line = self.proc.stdout.readline()
            if not line:
                break
            self.log.append(line)
            if "Uvicorn running on http://127.0.0.1:" in line:
                self.port = int(line.split("127.0.0.1:")[1].split()[0])
                threading.Thread(target=self._drain, daemon=True).start()
                return self
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
