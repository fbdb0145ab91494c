"""The pages and the ``hints`` message in-process (FastAPI's TestClient; no browser)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from primero.bots import BOT_KINDS
from primero.server import Settings, create_app
from primero.server.pages import WEB_DIR

TABLE = {"seats": ["open", "heuristic", "heuristic", "heuristic"], "turn_seconds": 0}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", bot_pause=0, bot_processes=0)
    )
    with TestClient(app) as c:
        yield c


def test_the_pages_carry_a_strict_content_security_policy(client: TestClient) -> None:
    table = client.post("/api/tables", json=TABLE).json()["id"]
    for path, status in (
        ("/", 200),
        (f"/t/{table}", 200),
        ("/t/anything", 404),
        ("/static/table.js", 200),
        ("/static/style.css", 200),
    ):
        answer = client.get(path)
        assert answer.status_code == status, path
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "default-src 'none'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert answer.headers["x-content-type-options"] == "nosniff"
    assert client.get("/").headers["content-type"].startswith("text/html")
    assert client.get("/static/table.js").headers["content-type"].startswith("text/javascript")


def test_the_lobby_gets_the_bot_kinds_from_the_server(client: TestClient) -> None:
    answer = client.get("/api/bots")
    assert answer.status_code == 200
    kinds = answer.json()["kinds"]
    assert kinds[:2] == ["random", "heuristic"]  # the two built-in kinds, then any later one
    assert kinds == list(BOT_KINDS)  # every kind of the registry, in its order
    assert "/api/bots" in client.get("/openapi.json").json()["paths"]


def test_only_the_clients_own_files_are_served(client: TestClient) -> None:
    for path in (
        "/static/nothing.js",
        "/static/..%2Fhints.py",
        "/static/README.md",
        "/static/%2e%2e%2f__init__.py",
    ):
        assert client.get(path).status_code == 404, path


def test_every_asset_is_local_and_text_is_never_set_as_html() -> None:
    """No request leaves the origin (no http(s):// asset, no CDN) and no innerHTML."""
    files = sorted(WEB_DIR.glob("*.*"))
    assert {f.name for f in files} >= {"index.html", "table.html", "table.js", "style.css"}
    for file in files:
        text = file.read_text(encoding="utf-8")
        assert "innerHTML" not in text and "insertAdjacentHTML" not in text, file.name
        assert "document.write" not in text, file.name
        for url in re.findall(r"""(?:src|href)=["']([^"']+)""", text):
            assert url.startswith("/"), (file.name, url)
        assert not re.search(r"""(?:import|from)\s*["']https?:""", text), file.name
        assert "url(http" not in text, file.name


def _state(ws: Any) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == "state" and m["legal"] is not None:
            return m


def test_hints_answer_the_seat_from_its_own_view(client: TestClient) -> None:
    table = client.post("/api/tables", json=TABLE).json()
    token = client.post(f"/api/tables/{table['id']}/seats", json={"name": "Ana"}).json()["token"]
    with client.websocket_connect(f"/ws/tables/{table['id']}?token={token}") as ws:
        state = _state(ws)  # the person's first turn (bots act at once with pause 0)
        own = state["hand"]["hand"]
        ws.send_json({"type": "hints"})
        m = ws.receive_json()
        while m["type"] != "hints":
            m = ws.receive_json()
        assert m["version"] == state["version"]
        if len(own) == 2:  # first round: keep both, throw either card, throw both (R4.3)
            choices = m["exchange"]["choices"]
            assert sorted(sorted(c["discard"]) for c in choices) == sorted(
                [[], [own[0]], [own[1]], sorted(own)]
            )
            assert m["exchange"]["second_deal"] is True
        else:  # four cards: 1 + 4 + 6 ways to throw 0, 1 or 2 of them, or no exchange left
            assert m["exchange"] is None or len(m["exchange"]["choices"]) == 11
        # asking again at the same version gives the same answer; nothing changed
        ws.send_json({"type": "hints"})
        again = ws.receive_json()
        assert again == m
        ws.send_json({"type": "resync", "since": state["version"]})
        assert ws.receive_json()["version"] == state["version"]


def test_a_spectator_gets_an_error_for_hints(client: TestClient) -> None:
    table = client.post("/api/tables", json=TABLE).json()
    with client.websocket_connect(f"/ws/tables/{table['id']}") as ws:
        first = ws.receive_json()
        ws.send_json({"type": "hints"})
        m = ws.receive_json()
        assert m == {
            "type": "error",
            "id": None,
            "message": "hints are for a seated player, not a spectator",
        }
        ws.send_json({"type": "resync", "since": first["version"]})
        assert ws.receive_json()["version"] == first["version"]


def test_the_api_docs_pages_load_every_file_from_this_server(client: TestClient) -> None:
    """``/docs`` and ``/redoc`` name no other host (a LAN without internet gets them):
    their scripts and styles are under ``/docs-assets/``, served with their types."""
    for path, assets in (
        ("/docs", ["swagger-ui-bundle.js", "swagger-ui.css"]),
        ("/redoc", ["redoc.standalone.js"]),
    ):
        page = client.get(path)
        assert page.status_code == 200, path
        assert page.headers["content-type"].startswith("text/html")
        urls = re.findall(r"""(?:src|href|url)\s*[=:]\s*['"]([^'"]+)['"]""", page.text)
        assert urls, path
        assert [u for u in urls if "//" in u] == [], path  # no absolute address at all
        for name in assets:
            assert f"/docs-assets/{name}" in urls, (path, name)
    assert "'/openapi.json'" in client.get("/docs").text
    assert '"validatorUrl": null' in client.get("/docs").text  # no badge from another host
    js = client.get("/docs-assets/swagger-ui-bundle.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]
    assert len(js.content) > 100_000  # the bundle itself, not a stub
    assert client.get("/docs-assets/swagger-ui.css").headers["content-type"].startswith("text/css")
    assert client.get("/docs-assets/redoc.standalone.js").status_code == 200
    assert client.get("/docs-assets/../pages.py").status_code == 404
    assert "/docs" not in client.get("/openapi.json").json()["paths"]


def test_without_the_assets_package_the_api_docs_name_where_the_api_is_described(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An environment not reinstalled since fastapi-offline became a dependency still
    starts; ``/docs`` is then a page of text (no script, no CDN) naming the contract."""
    from primero.server import apidocs

    monkeypatch.setattr(apidocs, "ASSETS_DIR", None)
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", bot_pause=0, bot_processes=0)
    )
    with TestClient(app) as c:
        for path in ("/docs", "/redoc"):
            page = c.get(path)
            assert page.status_code == 200, path
            assert "<script" not in page.text and "//" not in page.text, path
            assert 'href="/openapi.json"' in page.text and "docs/protocol.md" in page.text
        assert c.get("/docs-assets/swagger-ui.css").status_code == 404
