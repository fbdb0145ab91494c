"""A stalled PostgreSQL stalls no table for long: a move sent while the database does
not answer (a ``LOCK TABLE`` held by another session, or a connection that forwards
nothing) is answered ``"retry": true`` within 5 s (``lock_timeout``, ``statement_timeout``
and the writer's own deadline), and play goes on once the database answers."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server_helpers import (
    LiveServer,
    TcpProxy,
    cautious_line,
    postgres_url,
    recv_until,
)
from tests.server_helpers import create_table as _create
from tests.server_helpers import join_table as _join
from tests.server_helpers import open_table_ws as _open

pytestmark = [pytest.mark.timeout(180)]

TWO = {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}


def _to_act(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and m["legal"] is not None


def _move(ws: Any, state: dict[str, Any], action_id: str) -> None:
    line = cautious_line(state)
    ws.send(
        json.dumps({"type": "action", "id": action_id, "line": line, "version": state["version"]})
    )


def _table_to_act(live: LiveServer) -> tuple[str, str]:
    """A table of two people: (table, the token of the one to act)."""
    table = _create(live, TWO)
    tokens = {n: _join(live, table, n) for n in ("Ana", "Ben")}
    with _open(live, table, tokens["Ana"]) as ws:
        m = recv_until(
            ws,
            lambda m: m["type"] == "state" and (m["hand"] or {}).get("to_act", "") in ("p1", "p2"),
            20,
            "a state where a person is to act",
        )
    name = m["hand"]["players"][int(m["hand"]["to_act"][1:]) - 1]
    return table, tokens[name]


@pytest.mark.parametrize("how", ["lock", "stall"])
def test_a_stalled_database_gives_retry_within_5_s(how: str, tmp_path: Path) -> None:
    import psycopg

    with postgres_url() as direct:
        proxy = TcpProxy(("127.0.0.1", 5432))
        url = direct.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        live = LiveServer(url, tmp_path, "--bot-processes", "0").start()
        locker = psycopg.connect(direct.replace("postgresql+psycopg", "postgresql"))
        try:
            table, token = _table_to_act(live)
            with _open(live, table, token) as ws:
                before = recv_until(ws, _to_act, 10, "the state on connecting")
                if how == "lock":
                    locker.execute("LOCK TABLE lines IN ACCESS EXCLUSIVE MODE")
                else:
                    proxy.stall()
                _move(ws, before, "stalled-1")
                refused = recv_until(
                    ws, lambda m: m["type"] == "error", 5, "retry for a move to a stalled database"
                )
                assert refused["retry"] is True and refused["id"] == "stalled-1"
                locker.rollback()
                proxy.restore()
                # as the page does: the same move with the same id again, until it is
                # applied (once: a write that committed late is found by its id)
                deadline = time.monotonic() + 15
                while True:
                    assert time.monotonic() < deadline, "no move applied once the database answers"
                    _move(ws, before, "stalled-1")
                    m = recv_until(
                        ws,
                        lambda m: m["type"] in ("error", "state"),
                        15,
                        "an answer to the move sent again",
                    )
                    if m["type"] == "error":
                        assert m["retry"] is True, m
                        recv_until(ws, lambda m: m["type"] == "state", 10, "the state after it")
                        continue
                    if m["version"] > before["version"]:
                        break
                assert m["hand"] is not None, "a state with no hand in the middle of the match"
                assert m["hand"]["log"][: len(before["hand"]["log"])] == before["hand"]["log"]
                assert len(m["hand"]["log"]) == len(before["hand"]["log"]) + 1  # applied once
        finally:
            locker.close()
            if live.proc is not None and live.proc.poll() is None:
                live.kill()
            proxy.close()
