"""``GET /api/rules``: the lobby's form reads every house rule from the server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from primero.engine.rules import RULES
from primero.server import Settings, create_app
from primero.server.pages import WEB_DIR


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", bot_pause=0, bot_processes=0)
    )
    with TestClient(app) as c:
        yield c


def test_the_lobby_gets_every_house_rule_from_the_server(client: TestClient) -> None:
    answer = client.get("/api/rules")
    assert answer.status_code == 200
    rules = answer.json()
    assert [r["key"] for r in rules] == [spec.name for spec in RULES]
    ante = rules[0]
    assert ante == {
        "key": "ante",
        "type": "int",
        "default": 1,
        "min": 0,
        "max": None,
        "choices": [],
        "label": "Ante",
        "help": "Chips each player puts in the pot before the first deal.",
        "section": "R4.1",
    }
    ties = next(r for r in rules if r["key"] == "ties")
    assert (ties["type"], ties["choices"], ties["default"]) == (
        "choice",
        ["eldest", "split"],
        "eldest",
    )
    assert "/api/rules" in client.get("/openapi.json").json()["paths"]


def test_the_web_client_writes_no_house_rule_of_its_own() -> None:
    lobby = (WEB_DIR / "lobby.js").read_text(encoding="utf-8")
    assert '"/api/rules"' in lobby
    for spec in RULES:  # no rule's words or default typed into the client
        assert spec.info.help not in lobby and f'key: "{spec.name}"' not in lobby
