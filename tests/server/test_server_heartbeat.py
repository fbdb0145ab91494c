"""The heartbeat and the chat kept for later connections (docs/protocol.md: ``ping`` and
``pong``, ``chat_history``), through the real app in-process on SQLite."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from primero.server.models import ChatHistoryOut
from primero.server.table import CHAT_KEPT
from tests.server_helpers import database, join_table, post_table, settled, until

#: Two people, two heuristic bots, no timer: nothing moves until a person acts.
TABLE = {"name": "Night", "seats": ["open", "open", "heuristic", "heuristic"], "turn_seconds": 0}


class Tick:
    """The chat's rate clock, moved by hand (seconds): no real waits."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def tick() -> Tick:
    return Tick()


@pytest.fixture
def client(tmp_path: Path, tick: Tick) -> Iterator[TestClient]:
    """The app on a fresh SQLite file; a frame rate high enough for 55 chat lines in a row,
    and a chat rate clock the test moves (one line a second is within the chat's bounds)."""
    with database("sqlite", tmp_path) as url:
        settings = Settings(
            database_url=url, bot_pause=0, bot_processes=0, rate=1000.0, rate_clock=tick
        )
        with TestClient(create_app(settings)) as c:
            yield c


#: Two people and no bot: once a person is to act, nothing moves by itself.
PEOPLE = {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}


def test_a_ping_is_answered_by_a_pong_to_that_connection_only(client: TestClient) -> None:
    t, _ = post_table(client, PEOPLE)
    ana = join_table(client, t["id"], "Ana")
    join_table(client, t["id"], "Ben")
    with (
        client.websocket_connect(f"/ws/tables/{t['id']}?token={ana}") as a,
        client.websocket_connect(f"/ws/tables/{t['id']}") as watcher,
    ):
        version = until(a, settled)["version"]
        until(watcher, settled)
        a.send_json({"type": "ping"})
        assert until(a, lambda m: m["type"] != "state") == {"type": "pong"}
        # the watcher got no pong: the next frame it reads is the answer to its own resync
        watcher.send_json({"type": "resync", "since": 0})
        after = watcher.receive_json()
        assert after["type"] == "state" and after["version"] == version  # nothing changed
        # a ping with a stray field is still a ping (unknown fields are ignored)
        a.send_json({"type": "ping", "n": 3})
        assert until(a, lambda m: m["type"] != "state") == {"type": "pong"}


def test_the_last_50_chat_lines_reach_a_connection_opened_later(
    client: TestClient, tick: Tick
) -> None:
    t, _ = post_table(client, TABLE)
    ana = join_table(client, t["id"], "Ana")
    ben = join_table(client, t["id"], "Ben")
    url = f"/ws/tables/{t['id']}"
    with client.websocket_connect(f"{url}?token={ana}") as a:
        first = a.receive_json()
        assert first["type"] == "state"
        a.send_json({"type": "ping"})  # no chat yet: no chat_history before the pong
        assert until(a, lambda m: m["type"] != "state") == {"type": "pong"}
        for n in range(1, 56):
            tick.now += 1.0  # a line a second: within the chat's bounds
            a.send_json({"type": "chat", "text": f"line {n}"})
            line = until(a, lambda m: m["type"] != "state")
            assert line == {"type": "chat", "from": "Ana", "text": f"line {n}"}
    with client.websocket_connect(f"{url}?token={ben}") as b:
        assert b.receive_json()["type"] == "state"
        history = b.receive_json()  # right after the first state
        ChatHistoryOut.model_validate(history)
        assert CHAT_KEPT == 50
        # lines 6 to 55, oldest first: the first five fell off
        assert history == {
            "type": "chat_history",
            "lines": [{"type": "chat", "from": "Ana", "text": f"line {n}"} for n in range(6, 56)],
        }
    with client.websocket_connect(url) as watcher:  # a spectator gets them too
        assert watcher.receive_json()["type"] == "state"
        assert watcher.receive_json()["lines"][-1]["text"] == "line 55"
