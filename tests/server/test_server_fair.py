"""Fair deals at a real server (docs/fair-deals.md): the commitment before the first
card and in every state message, client seeds (refused with the reason when bad,
never changed), nothing that computes a card before the reveal (R9b), the proof
endpoint, exported hands that ``primero verify`` verifies, and kill -9 mid-hand
keeping the same deck (the seeds are stored before the first card)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import httpx
import pytest

from primero.engine.fairdeal import commitment, parse_server_seed
from primero.engine.fairverify import verify_record
from primero.engine.history import load_record
from tests.server_helpers import (
    PRIMERO,
    LiveServer,
    Player,
    create_table,
    database,
    open_table_ws,
    recv_until,
    wait_for,
)

SEED = "3f9a0c61d2b84e7a9c0d1e2f3a4b5c6d"

pytestmark = pytest.mark.timeout(300)  # a stuck server or browser fails, not hangs


@pytest.fixture(name="db")
def db_fixture(tmp_path: Path) -> Any:
    with database("postgresql", tmp_path) as url:
        yield url


def summary(live: LiveServer, table: str) -> dict[str, Any]:
    got: dict[str, Any] = httpx.get(f"{live.http}/api/tables/{table}", timeout=10).json()
    return got


def proof(live: LiveServer, table: str) -> dict[str, Any]:
    r = httpx.get(f"{live.http}/api/tables/{table}/proof", timeout=10)
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()
    return got


def test_fair_table_end_to_end(db: str, tmp_path: Path) -> None:
    live = LiveServer(db, tmp_path, "--bot-processes", "0").start()
    try:
        body = {
            "seats": ["open", "random", "random", "random"],
            "max_hands": 3,
            "turn_seconds": 0,
            "listed": True,  # found in the lobby below
        }
        table = create_table(live, body)
        before = summary(live, table)["fair"]
        assert before["scheme"] == "primero-fair-1"
        assert len(before["commitment"]) == 64
        assert before["server_seed"] is None
        assert before["client_seeds"] == ["primero-default"] * 4
        assert "revealed when the match ends" in before["note"]
        lobby = httpx.get(f"{live.http}/api/tables", timeout=10).json()
        assert any(t["fair"] == before for t in lobby)
        seats = f"{live.http}/api/tables/{table}/seats"
        # bad client seeds: refused with the reason, nothing changes
        r = httpx.post(seats, json={"name": "Ana", "client_seed": "x" * 65}, timeout=10)
        assert r.status_code == 400
        assert "at most 64 characters, not 65" in r.text
        r = httpx.post(seats, json={"name": "Ana", "client_seed": "tab\there"}, timeout=10)
        assert r.status_code == 400
        assert "character 4 ('\\\\t') is not one" in r.text
        assert summary(live, table)["seats"][0]["kind"] == "open"
        r = httpx.post(seats, json={"name": "Ana", "client_seed": SEED}, timeout=10)
        assert r.status_code == 201, r.text
        token = r.json()["token"]
        with open_table_ws(live, table, token) as ws:
            state = recv_until(ws, lambda m: m.get("type") == "state", 20, "a state")
        fair = state["table"]["fair"]
        assert fair["commitment"] == before["commitment"]
        assert fair["client_seeds"] == [
            SEED,
            "primero-default",
            "primero-default",
            "primero-default",
        ]
        # R9b: before the reveal no proof holds the seed or a record
        early = proof(live, table)
        assert early["server_seed"] is None and early["revealed"] is False
        assert all("record" not in h for h in early["hands"])
        ana = Player([live], table, "Ana", token, cautious=True)
        ana.start()
        ana.join(150)
        assert ana.error is None and not ana.is_alive(), ana.error
        states = [m for m in ana.frames if m["type"] == "state"]
        assert all(m["table"]["fair"]["commitment"] == before["commitment"] for m in states)
        hidden = [m for m in states if m["table"]["status"] != "over"]
        seen = [json.dumps(m) for m in hidden]
        done = proof(live, table)
        seed_hex = done["server_seed"]
        assert done["revealed"] is True
        assert commitment(parse_server_seed(seed_hex)) == before["commitment"]
        assert not any(seed_hex in text for text in seen)
        assert [h["number"] for h in done["hands"]] == [1, 2, 3]
        for h in done["hands"]:
            record = load_record(h["record"])
            assert verify_record(record).status == "verified"
            assert SEED in record.extra["fair"]["client_seeds"]
        out = tmp_path / "export"
        subprocess.run(
            [
                *PRIMERO,
                "hands",
                "export",
                "--out",
                str(out),
                "--database-url",
                db,
                "--table",
                table,
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        files = sorted((out / table).glob("*.prh"))
        assert len(files) == 3
        run = subprocess.run(
            [*PRIMERO, "verify", *map(str, files)], capture_output=True, text=True, timeout=60
        )
        assert run.returncode == 0, run.stdout + run.stderr
        assert run.stdout.count(": verified: ") == 3
    finally:
        live.kill()


def test_kill_mid_hand_keeps_the_deck(db: str, tmp_path: Path) -> None:
    """kill -9 while Ana is to act: the restarted server rebuilds the same dealer from
    what was stored before the first card, so her cards and every card still to come
    are the committed deck's (the finished record verifies)."""
    live = LiveServer(db, tmp_path, "--bot-processes", "0").start()
    body = {"seats": ["open", "random", "random", "random"], "max_hands": 1, "turn_seconds": 0}
    try:
        table = create_table(live, body)
        commit = summary(live, table)["fair"]["commitment"]
        r = httpx.post(
            f"{live.http}/api/tables/{table}/seats",
            json={"name": "Ana", "client_seed": SEED},
            timeout=10,
        )
        token = r.json()["token"]
        with open_table_ws(live, table, token) as ws:
            m = recv_until(ws, lambda m: m.get("legal") is not None, 60, "Ana's turn")
        cards = m["hand"]["hand"]
        assert len(cards) >= 2
    finally:
        live.kill()  # SIGKILL: no shutdown of any kind
    live = LiveServer(db, tmp_path, "--bot-processes", "0").start()
    try:
        with open_table_ws(live, table, token) as ws:
            again = recv_until(ws, lambda m: m.get("legal") is not None, 60, "Ana's turn")
        assert again["hand"]["hand"] == cards
        assert again["table"]["fair"]["commitment"] == commit
        ana = Player([live], table, "Ana", token, cautious=True)
        ana.start()
        ana.join(120)
        assert ana.error is None and not ana.is_alive(), ana.error
        done = proof(live, table)
        assert done["commitment"] == commit and done["revealed"]
        (hand,) = done["hands"]
        record = load_record(hand["record"])
        assert verify_record(record).status == "verified"
        seat = record.players.index("Ana")
        first = next(a for a in record.actions if a.startswith(f"d dh p{seat + 1} "))
        assert sorted(first.split()[3:]) == sorted(cards)
    finally:
        live.kill()


def test_seed_rotation_reveals_each_period(db: str, tmp_path: Path) -> None:
    """``seed_rotation`` 2: hands 1-2 and 3 have different commitments; the first seed is
    revealed once hand 2 is over (before the match ends), the second at the end; every
    hand verifies against its own commitment; the summary says so in words."""
    live = LiveServer(db, tmp_path, "--bot-processes", "0").start()
    try:
        body = {"seats": ["random"] * 4, "max_hands": 3, "turn_seconds": 0, "seed_rotation": 2}
        table = create_table(live, body)
        first = summary(live, table)["fair"]
        assert first["rotation"] == 2 and first["revealed"] == []
        assert "A new server seed every 2 hands: the old one is revealed then" in first["note"]
        assert "folded ones too" in first["note"]
        wait_for(lambda: summary(live, table)["status"] == "over", 90, "the end of the match")
        done = proof(live, table)
        hands = {h["number"]: h for h in done["hands"]}
        assert hands[1]["commitment"] == hands[2]["commitment"] == first["commitment"]
        assert hands[3]["commitment"] != first["commitment"]
        for h in hands.values():
            assert verify_record(load_record(h["record"])).status == "verified"
        fair = summary(live, table)["fair"]
        periods = [(r["first_hand"], r["last_hand"], r["commitment"]) for r in fair["revealed"]]
        assert periods == [(1, 2, first["commitment"]), (3, 3, hands[3]["commitment"])]
    finally:
        live.kill()
