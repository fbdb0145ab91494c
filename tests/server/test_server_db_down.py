"""While PostgreSQL cannot be reached, every REST route answers ``503`` with
``Retry-After`` (or what it knows from memory), never ``500``; and numbers out of the
database's range are ``404``, not ``500``."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from tests.server_helpers import (
    LiveServer,
    TcpProxy,
    create_table,
    join_table,
    postgres_url,
    wait_for,
)

pytestmark = [pytest.mark.timeout(180)]

TWO = {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}


def test_every_route_is_503_never_500_while_the_database_is_cut(tmp_path: Path) -> None:
    with postgres_url() as direct:
        proxy = TcpProxy(("127.0.0.1", 5432))
        url = direct.replace("127.0.0.1:5432", f"127.0.0.1:{proxy.port}")
        live = LiveServer(url, tmp_path, "--bot-processes", "0").start()
        try:
            table = create_table(live, TWO)
            join_table(live, table, "Ana")
            base = f"{live.http}/api/tables"
            requests = [
                ("GET", base, None),
                ("POST", base, TWO),
                ("GET", f"{base}/{table}", None),
                ("GET", f"{base}/0000dead", None),
                ("POST", f"{base}/{table}/seats", {"name": "Ben"}),
                ("GET", f"{base}/{table}/hands", None),
                ("GET", f"{base}/{table}/hands/1", None),
                ("GET", f"{base}/0000dead/hands", None),
            ]
            proxy.cut()
            answers = {
                (method, target): httpx.request(method, target, json=body, timeout=15)
                for method, target, body in requests
            }
            proxy.restore()
            for (method, target), r in answers.items():
                assert r.status_code != 500, (method, target, r.text)
                if r.status_code == 503:
                    assert r.headers["retry-after"] == "2", (method, target)
                    assert "database" in r.json()["detail"]
            for must in [("POST", base), ("GET", f"{base}/{table}/hands")]:
                assert answers[must].status_code == 503, (must, answers[must].text)
            assert answers[("GET", f"{base}/{table}/hands/1")].status_code == 503
            # and once it answers again, so does every route
            wait_for(
                lambda: httpx.get(f"{base}/{table}/hands", timeout=10).status_code == 200,
                15,
                "the hands answered again",
            )
        finally:
            if live.proc is not None and live.proc.poll() is None:
                live.kill()
            proxy.close()


def test_a_hand_number_past_the_database_range_is_404(tmp_path: Path) -> None:
    with postgres_url() as url:
        live = LiveServer(url, tmp_path, "--bot-processes", "0").start()
        try:
            table = create_table(live, TWO)
            for number in (2147483648, 2**63, 10**30, 0, -1):
                r = httpx.get(f"{live.http}/api/tables/{table}/hands/{number}", timeout=10)
                assert r.status_code == 404, (number, r.text)
                assert r.json()["detail"] == f"no finished hand {number} at this table"
        finally:
            live.kill()
