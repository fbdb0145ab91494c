"""The server's write path against a real ``primero serve`` subprocess on SQLite and
PostgreSQL (online.md "What is kept": writing comes first):
a frame the database refuses bricks nothing, a database cut of a few seconds is lived
through with no restart and the cut move not applied, stale moves are refused, a stored
table that cannot be replayed is "broken" and the others resume, a bot that raises or
hangs stops no table, and stacks of 10^9 do not overflow."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import text

from primero.store import Store
from tests.client_policy import choose_line
from tests.server_helpers import (
    SERVER_STORES,
    LiveServer,
    TcpProxy,
    cautious_line,
    database,
    postgres_url,
    recv_until,
    wait_for,
)
from tests.server_helpers import (
    create_table as _create,
)
from tests.server_helpers import (
    join_table as _join,
)
from tests.server_helpers import (
    open_table_ws as _open,
)

pytestmark = [pytest.mark.timeout(180)]

BOTS = {
    "seats": ["random", "random", "random", "random"],
    "turn_seconds": 0,
    "stack": 10_000,
    "max_hands": 10_000,
    "listed": True,  # the lobby lists them (the restart tests find them there)
}
TWO = {
    "seats": ["open", "open"],
    "rules": {"min_players": 2},
    "turn_seconds": 0,
    "listed": True,
}


#: The servers here test the write path, not the bots' worker processes (the bot fault
#: test below, the live and the cluster tests run them): bots decide in threads.
THREADS = ("--bot-processes", "0")


@pytest.fixture(params=SERVER_STORES)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    with database(request.param, tmp_path) as url:
        yield url


def _version(live: LiveServer, table: str) -> int:
    r = httpx.get(f"{live.http}/api/tables/{table}", timeout=10)
    assert r.status_code == 200, r.text
    v: int = r.json()["version"]
    return v


def _moved_on(live: LiveServer, table: str, mark: int, by: int) -> bool:
    """Whether the table's version passed ``mark + by``, or its match is over (random
    bots can lose every chip in a few hands)."""
    r = httpx.get(f"{live.http}/api/tables/{table}", timeout=10)
    assert r.status_code == 200, r.text
    return bool(r.json()["version"] > mark + by or r.json()["status"] == "over")


def _to_act(m: dict[str, Any]) -> bool:
    return m["type"] == "state" and m["legal"] is not None


def _people_table(live: LiveServer) -> tuple[str, dict[str, str], str, dict[str, Any]]:
    """A table of two people, waiting for one of them: (table, tokens, name to act, state)."""
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
    return table, tokens, name, m


@pytest.fixture
def server(db_url: str, tmp_path: Path) -> Iterator[LiveServer]:
    live = LiveServer(db_url, tmp_path, *THREADS).start()
    yield live
    if live.proc is not None and live.proc.poll() is None:
        live.kill()


def test_a_nul_in_an_action_id_bricks_nothing(db_url: str, tmp_path: Path) -> None:
    """``{"type":"action","id":"x\\u0000",...}`` (PostgreSQL refuses the NUL)
    is answered, the table and every other table go on, and a restart works."""
    live = LiveServer(db_url, tmp_path, *THREADS).start()
    try:
        bots = [_create(live, BOTS) for _ in range(3)]
        table, tokens, name, _m = _people_table(live)
        with _open(live, table, tokens[name]) as ws:
            before = recv_until(ws, _to_act, 10, "the state on connecting")
            line = cautious_line(before)
            ws.send(json.dumps({"type": "action", "id": "x\u0000", "line": line}))
            answer = recv_until(ws, lambda m: m["type"] in ("error", "state"), 10, "an answer")
            if answer["type"] == "error":  # refused (a text rule) or not stored (retry)
                ws.send(json.dumps({"type": "resync", "since": before["version"]}))
                now = recv_until(ws, lambda m: m["type"] == "state", 10, "the resync's state")
                assert now["version"] == before["version"]  # nothing was applied
                assert now["hand"]["log"] == before["hand"]["log"]
                ws.send(json.dumps({"type": "action", "id": "ok-1", "line": line}))
                answer = recv_until(
                    ws,
                    lambda m: m["type"] == "state" and m["version"] > before["version"],
                    10,
                    "the state after a good move",
                )
            after = answer  # SQLite stores the NUL: the move was applied at once
        assert len(after["hand"]["log"]) > len(before["hand"]["log"])
        marks = {t: _version(live, t) for t in bots}
        wait_for(
            lambda: all(_moved_on(live, t, marks[t], 5) for t in bots),
            20,
            "every bots-only table goes on",
        )
        seen = _version(live, table)
        live.stop()
        live = LiveServer(db_url, tmp_path, *THREADS).start()  # a restart works: nothing is bricked
        assert _version(live, table) == seen
        assert table in {t["id"] for t in httpx.get(f"{live.http}/api/tables", timeout=10).json()}
        resumed = _create(live, BOTS)
        wait_for(lambda: _moved_on(live, resumed, 1, 10), 20, "a new table plays after the restart")
    finally:
        if live.proc is not None and live.proc.poll() is None:
            live.kill()


@pytest.mark.soak
def test_a_database_cut_of_seconds_is_lived_through(tmp_path: Path) -> None:
    """A cut of the database (PostgreSQL through a TCP proxy the test controls): a move
    sent meanwhile gets ``"retry": true`` and is not applied; once the database answers
    again every table goes on by itself within 5 s, with no restart."""
    with postgres_url() as direct:
        proxy = TcpProxy(("127.0.0.1", 5432))
        url = direct.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        live = LiveServer(url, tmp_path, *THREADS).start()
        try:
            bots = [_create(live, BOTS) for _ in range(3)]
            table, tokens, name, _m = _people_table(live)
            with _open(live, table, tokens[name]) as ws, _open(live, bots[0]) as watch:
                before = recv_until(ws, _to_act, 10, "the state on connecting")
                proxy.cut()
                ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "id": "cut-1",
                            "line": cautious_line(before),
                            "version": before["version"],
                        }
                    )
                )
                refused = recv_until(
                    ws,
                    lambda m: m["type"] == "error",
                    15,
                    "an error for the move sent during the cut",
                )
                assert refused["retry"] is True and refused["id"] == "cut-1"
                follow = recv_until(
                    ws,
                    lambda m: m["type"] == "state",
                    10,
                    "the unchanged state after the retry error",
                )
                assert follow["version"] == before["version"]  # the buttons come back
                assert follow["hand"]["log"] == before["hand"]["log"]
                proxy.restore()
                # the bots-only tables go on by themselves within 5 s of the database
                moving = recv_until(watch, lambda m: m["type"] == "state", 15, "any state")
                marks = {t: _version(live, t) for t in bots}
                wait_for(
                    lambda: all(_moved_on(live, t, marks[t], 0) for t in bots),
                    5,
                    "every bots-only table moves again after the database came back",
                )
                assert moving["version"] >= 1
                ws.send(json.dumps({"type": "resync", "since": before["version"]}))
                now = recv_until(ws, lambda m: m["type"] == "state", 10, "the resync's state")
                assert now["version"] == before["version"]  # the cut move was not applied
                assert now["hand"]["log"] == before["hand"]["log"]
                ws.send(
                    json.dumps(
                        {
                            "type": "action",
                            "id": "cut-1",
                            "line": cautious_line(before),
                            "version": before["version"],
                        }
                    )
                )
                again = recv_until(ws, lambda m: m["type"] == "state", 10, "the applied move")
                assert again["version"] == before["version"] + 1
                assert len(again["hand"]["log"]) == len(before["hand"]["log"]) + 1
        finally:
            if live.proc is not None and live.proc.poll() is None:
                live.kill()
            proxy.close()


def test_a_stale_version_is_refused_and_an_applied_id_is_not(server: LiveServer) -> None:
    """online.md: an action whose ``version`` is not the current one is refused (``error``
    with ``"stale": true``, then the current state); an id already applied gets the state
    and no error, whatever its version."""
    table, tokens, name, _m = _people_table(server)
    with _open(server, table, tokens[name]) as ws:
        m = recv_until(ws, _to_act, 10, "the state on connecting")
        v = m["version"]
        line = cautious_line(m)
        ws.send(json.dumps({"type": "action", "id": "s1", "line": line, "version": v - 1}))
        err = recv_until(ws, lambda x: True, 10, "the answer to a stale move")
        assert err["type"] == "error" and err["stale"] is True and err["id"] == "s1"
        assert "retry" not in err
        state = recv_until(ws, lambda x: True, 10, "the state after the stale error")
        assert state["type"] == "state" and state["version"] == v
        assert state["hand"]["log"] == m["hand"]["log"]
        ws.send(json.dumps({"type": "action", "id": "s1", "line": line, "version": v}))
        applied = recv_until(ws, lambda x: x["type"] == "state", 10, "the applied move")
        assert applied["version"] == v + 1
        # the same id again with a stale version: the current state, no error
        ws.send(json.dumps({"type": "action", "id": "s1", "line": line, "version": v}))
        again = recv_until(ws, lambda x: True, 10, "the answer to an applied id")
        assert again["type"] == "state" and again["version"] >= v + 1


def _corrupt_a_line(url: str, table: str) -> None:
    from sqlalchemy import update

    from primero.store import Store
    from primero.store.schema import lines

    store = Store(url)
    try:
        with store.transaction() as conn:
            conn.execute(
                update(lines)
                .where(lines.c.table_id == table, lines.c.idx == 0)
                .values(line="d dh p1 7h 7d")  # not the seed's deal: the engine names p1
            )
    finally:
        store.close()


def test_a_table_that_cannot_be_replayed_is_broken_and_the_rest_resume(
    db_url: str, tmp_path: Path
) -> None:
    """online.md: no stored table stops the server from starting; one whose lines cannot
    be replayed is "broken", listed with ``?status=broken`` and its detail."""
    live = LiveServer(db_url, tmp_path, *THREADS).start()
    try:
        table, tokens, _name, m = _people_table(live)  # a hand in progress, lines stored
        good = _create(live, BOTS)
        live.kill()
        _corrupt_a_line(db_url, table)
        live = LiveServer(db_url, tmp_path, *THREADS).start()
        listed = httpx.get(f"{live.http}/api/tables", timeout=10).json()
        assert [t["id"] for t in listed] == [good]
        broken = httpx.get(
            f"{live.http}/api/tables", params={"status": "broken"}, timeout=10
        ).json()
        assert [t["id"] for t in broken] == [table]
        assert broken[0]["status"] == "broken" and "cannot be resumed" in broken[0]["detail"]
        assert "p1" not in broken[0]["detail"] and "7h" not in broken[0]["detail"]
        mark = _version(live, good)
        wait_for(lambda: _moved_on(live, good, mark, 5), 20, "the good table resumes")
        with _open(live, table, tokens["Ana"]) as ws:
            state = recv_until(ws, lambda x: x["type"] == "state", 10, "a broken table's state")
            assert state["table"]["status"] == "broken"
            ws.send(json.dumps({"type": "action", "id": "b1", "line": "c"}))
            err = recv_until(ws, lambda x: x["type"] == "error", 10, "a refusal")
            assert "broken" in err["message"]
            assert not re.search(r"\bp[1-8]\b|'[^']+'", err["message"]), err  # no notation
        assert m["version"] >= 1
    finally:
        if live.proc is not None and live.proc.poll() is None:
            live.kill()


@pytest.mark.parametrize(
    "fault", ["raise:heuristic", pytest.param("sleep:heuristic:4", marks=pytest.mark.soak)]
)
def test_a_bot_that_raises_or_hangs_stops_no_table(fault: str, tmp_path: Path) -> None:
    """A bot whose decisions raise, or take 4 s (injected with PRIMERO_TEST_BOT_FAULT in
    the worker processes): its table goes on with the timer's move (after the server's
    limit for a bot's decision, ``--bot-timeout 1`` here) and every other table goes on
    meanwhile."""
    with database("sqlite", tmp_path) as url:
        live = LiveServer(
            url, tmp_path, "--bot-timeout", "1", env={"PRIMERO_TEST_BOT_FAULT": fault}
        ).start()
        try:
            faulty = _create(
                live,
                {
                    "seats": ["heuristic", "random", "random", "random"],
                    "turn_seconds": 0,
                    "stack": 10_000,
                },
            )
            others = [_create(live, BOTS) for _ in range(2)]
            with _open(live, faulty) as ws:
                first = recv_until(
                    ws,
                    lambda m: m["type"] == "state" and m["hand"] is not None,
                    20,
                    "the first hand",
                )
                marks = {t: _version(live, t) for t in others}
                # every seat acts in a betting round: past 8 changes the bot has acted
                recv_until(
                    ws,
                    lambda m: m["type"] == "state" and m["version"] > first["version"] + 8,
                    30,
                    "the faulty bot's table going on",
                )
            assert all(_moved_on(live, t, marks[t], 8) for t in others)
            assert "a bot failed" in "".join(live.log)
        finally:
            if live.proc is not None and live.proc.poll() is None:
                live.kill()


def test_stacks_of_a_billion_with_six_bots(server: LiveServer, db_url: str) -> None:
    """Stacks of 10^9 with six bots: the sum of the stacks (6 x 10^9) is kept whole (the
    64-bit chip columns of migration v0002 on PostgreSQL)."""
    table = _create(
        server, {"seats": ["random"] * 6, "stack": 1_000_000_000, "max_hands": 3, "turn_seconds": 0}
    )
    with _open(server, table) as ws:
        over = recv_until(
            ws,
            lambda m: m["type"] == "state" and m["table"]["status"] in ("over", "broken"),
            60,
            "the end of the match",
        )
    assert over["table"]["status"] == "over", over["table"].get("detail")
    assert sum(s["chips"] for s in over["table"]["seats"]) == 6_000_000_000
    if db_url.startswith("sqlite"):
        path = db_url.removeprefix("sqlite:///")
        with sqlite3.connect(path) as conn:
            total = conn.execute(
                "SELECT SUM(chips) FROM seats WHERE table_id = ?", (table,)
            ).fetchone()[0]
        assert total == 6_000_000_000
    assert choose_line is not None


def test_a_postgresql_session_left_idle_in_a_transaction_is_ended(tmp_path: Path) -> None:
    """A process stopped between a write and its commit holds the table's row lock; the
    server's sessions ask PostgreSQL to end such a session after 10 s, so the process that
    took its tables over is not blocked for as long as the stopped one stays stopped
    (PostgreSQL's ``idle_in_transaction_session_timeout``, set on every connection)."""
    with database("postgresql", tmp_path) as url:
        store = Store(url)
        try:
            with store.engine.connect() as conn:
                shown = conn.execute(text("SHOW idle_in_transaction_session_timeout")).scalar()
            assert shown == "10s"
        finally:
            store.engine.dispose()
