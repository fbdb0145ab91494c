"""What people read from the server, in-process (FastAPI's TestClient, SQLite): a move
the database did not take is followed by the unchanged state, spectators and the host
chat as spectators under the seated players' text rules and rate, and refusals are
said in words, never with seat labels or record lines (online.md "The WebSocket")."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from tests.client_policy import choose_line
from tests.server_helpers import settled, until

pytestmark = pytest.mark.timeout(120)

TWO = {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}
#: Record notation: a seat label, a quoted line, a verb letter in brackets.
NOTATION = re.compile(r"\bp[1-8]\b|'|\([xbrcfyn]\)|\bdc\b|\bb N\b")


class StillClock:
    """The frames' rate clock, standing still unless moved (no real waits)."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def app(tmp_path: Path) -> Iterator[tuple[TestClient, StillClock]]:
    clock = StillClock()
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'w.db'}", bot_pause=0, rate_clock=clock
    )
    with TestClient(create_app(settings)) as client:
        yield client, clock


def _two_people(client: TestClient) -> tuple[str, dict[str, str], str]:
    """A table of Ana and Ben, a person to act: (table, tokens, host token)."""
    r = client.post("/api/tables", json=TWO)
    assert r.status_code == 201, r.text
    table, host = r.json()["id"], r.json()["host_token"]
    tokens = {}
    for name in ("Ana", "Ben"):
        r = client.post(f"/api/tables/{table}/seats", json={"name": name})
        assert r.status_code == 201, r.text
        tokens[name] = r.json()["token"]
    return table, tokens, host


def _to_act(client: TestClient, table: str, tokens: dict[str, str]) -> str:
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens['Ana']}") as ws:
        m = until(ws, settled)
    return str(m["hand"]["players"][int(m["hand"]["to_act"][1:]) - 1])


def test_a_move_the_database_did_not_take_is_followed_by_the_unchanged_state(
    app: tuple[TestClient, StillClock],
) -> None:
    """``"retry": true``, then the state as it was (its ``legal`` again), so that the
    client's buttons come back; the same for a seat's sit out."""
    client, _clock = app
    table, tokens, _host = _two_people(client)
    name = _to_act(client, table, tokens)
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens[name]}") as ws:
        before = until(ws, settled)
        assert before["legal"] is not None
        writer = client.app.state.hub.writer  # type: ignore[attr-defined]
        real = writer.write

        async def refuse(*_a: Any, **_k: Any) -> Any:
            raise OSError("the database is away (test)")

        writer.write = refuse
        try:
            line = choose_line(before)
            ws.send_json({"type": "action", "id": "r1", "line": line, "version": before["version"]})
            err = ws.receive_json()
            assert err["type"] == "error" and err.get("retry") is True and err["id"] == "r1", err
            assert ws.receive_json() == before  # the unchanged state, its choices again
            ws.send_json({"type": "sit_out"})
            err = ws.receive_json()
            assert err["type"] == "error" and err["retry"] is True
            assert ws.receive_json() == before
        finally:
            writer.write = real
        ws.send_json({"type": "action", "id": "r1", "line": line, "version": before["version"]})
        after = until(ws, lambda m: m["type"] == "state")
        assert after["version"] == before["version"] + 1


def test_spectators_and_the_host_chat_as_spectators_under_the_same_rules(
    app: tuple[TestClient, StillClock],
) -> None:
    """online.md: spectators and the host may chat (1 to 300 characters, the text
    rules); their lines name them as spectators; the frame rate holds for them too; no
    version moves."""
    client, _clock = app
    table, tokens, host = _two_people(client)
    url = f"/ws/tables/{table}"
    with (
        client.websocket_connect(f"{url}?token={tokens['Ana']}") as ana,
        client.websocket_connect(url) as first,
        client.websocket_connect(url) as second,
        client.websocket_connect(f"{url}?token={host}") as hosting,
    ):
        before = until(ana, settled)
        for ws in (first, second, hosting):
            until(ws, settled)
        second.send_json({"type": "chat", "text": "Good luck, Ana"})
        line = {"type": "chat", "from": "Spectator 2", "text": "Good luck, Ana", "spectator": True}
        for ws in (ana, first, second, hosting):
            assert ws.receive_json() == line
        hosting.send_json({"type": "chat", "text": "Cafe\u0301 at nine"})
        line = {"type": "chat", "from": "Host", "text": "Caf\u00e9 at nine", "spectator": True}
        for ws in (ana, first, second, hosting):
            assert ws.receive_json() == line
        first.send_json({"type": "chat", "text": "hi \u202eyb"})
        err = first.receive_json()
        assert err["type"] == "error" and "U+202E" in err["message"]
        first.send_json({"type": "chat", "text": "x" * 301})
        assert first.receive_json()["type"] == "error"
        ana.send_json({"type": "chat", "text": "thanks"})
        assert first.receive_json() == {"type": "chat", "from": "Ana", "text": "thanks"}
        for _ in range(38):  # the rest of a burst of 40 (the clock stands still)
            first.send_json({"type": "chat", "text": "spam"})
            assert first.receive_json()["from"] == "Spectator 1"
        first.send_json({"type": "chat", "text": "spam"})
        err = first.receive_json()
        assert err["type"] == "error" and "at most 20 a second" in err["message"]
        ana.send_json({"type": "resync", "since": 0})
        now = until(ana, lambda m: m["type"] == "state")
        assert now["version"] == before["version"]


BAD_LINES = [
    "b 5000",
    "r 5000",
    "y",
    "n",
    "x",
    "x 7h 7h",
    "x Kc Qd Jh 2c 3c",
    "dc supremus",
    "zz",
    "d 7h",
    "b five",
    "c",
    "f",
    "b -1",
]


def test_refusals_are_said_in_words_without_seat_labels_or_record_lines(
    app: tuple[TestClient, StillClock],
) -> None:
    """Every refusal of a person's move says the move and what is allowed now in
    words (online.md: "never a record line"): ``b 5000`` reads "you may not bet 5000
    chips: you may … bet between 1 and N chips"; the state follows each."""
    client, _clock = app
    table, tokens, _host = _two_people(client)
    name = _to_act(client, table, tokens)
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens[name]}") as ws:
        before = until(ws, settled)
        legal = before["legal"]
        messages = {}
        for i, line in enumerate(BAD_LINES):
            ws.send_json({"type": "action", "id": f"w{i}", "line": line})
            err = ws.receive_json()
            if err["type"] == "state":  # a legal move after all (c, f): nothing to read
                break
            assert err["type"] == "error" and err["id"] == f"w{i}", err
            messages[line] = err["message"]
            assert ws.receive_json() == before  # the state follows; nothing changed
        for line, message in messages.items():
            assert not NOTATION.search(message), (line, message)
            assert " may " in message or "not understood" in message or "hold" in message
        lo, hi = legal["bet"]
        assert messages["b 5000"].startswith(
            f"you may not bet 5000 chips: you may exchange 1 or 2 cards or bet between {lo} "
            f"and {hi} chips"
        ), messages["b 5000"]
        assert messages["x"].startswith("you may not stand pat now: you may "), messages["x"]
        assert messages["y"].startswith("you cannot accept the bet now: you may ")
        assert messages["zz"].startswith("that move is not understood: you may ")
