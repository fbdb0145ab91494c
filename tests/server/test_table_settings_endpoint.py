"""``GET /api/table-settings``: the lobby's form reads the evening's settings (the pause
after a hand, the rebuy window, the money a chip is worth) from the server, with the
bounds ``POST /api/tables`` checks and this server's defaults (docs/protocol.md)."""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from primero.server import Settings, create_app
from primero.server.pages import WEB_DIR


def test_the_settings_carry_the_servers_bounds_and_defaults(tmp_path: Path) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 's.db'}",
        bot_pause=0,
        bot_processes=0,
        hand_pause=5,
        rebuy_seconds=30,
    )
    with TestClient(create_app(settings)) as client:
        answer = client.get("/api/table-settings")
        assert answer.status_code == 200
        got = {s["key"]: s for s in answer.json()}
        assert list(got) == ["hand_pause_seconds", "rebuy_seconds", "chip_value", "currency"]
        assert got["hand_pause_seconds"] == {
            "key": "hand_pause_seconds",
            "type": "int",
            "default": 5,  # --hand-pause
            "min": 0,
            "max": 3600,
            "max_length": None,
            "pattern": None,
            "only_with": None,
            "label": "Seconds a hand's result stays",
            "help": "The cards shown and who won stay on the table this long before the next deal.",
        }
        rebuy = got["rebuy_seconds"]
        assert (rebuy["default"], rebuy["min"], rebuy["max"], rebuy["only_with"]) == (
            30,
            0,
            3600,
            "rebuy",
        )
        chip = got["chip_value"]
        assert (chip["type"], chip["default"], chip["max_length"]) == ("text", "", 12)
        assert chip["pattern"] == r"^([0-9]{1,7}([.,][0-9]{1,4})?)?$"
        assert (got["currency"]["max_length"], got["currency"]["pattern"]) == (
            8,
            r"^[A-Za-z]{0,8}$",
        )
        # the bounds are the ones POST /api/tables checks: one past them is refused
        body = {"seats": ["open", "random", "random", "random"], "hand_pause_seconds": 3601}
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 400
        # named by its label, as the form shows it (docs/protocol.md: player words)
        assert refused.json()["detail"] == "Seconds a hand's result stays must be at most 3600"
        assert "/api/table-settings" in client.get("/openapi.json").json()["paths"]


def test_the_web_client_writes_no_bound_of_the_settings() -> None:
    lobby = (WEB_DIR / "lobby.js").read_text(encoding="utf-8")
    assert '"/api/table-settings"' in lobby
    assert "3600" not in lobby and "Seconds a hand's result stays" not in lobby
