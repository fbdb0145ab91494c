"""``/t/{id}`` for an id that names no table, on a real ``primero serve`` (the test
process's shared server, webtools.shared_server): a ``404`` page in the site's style that
says there is no table at this address, with a link back to the lobby; a real table's
page is still served, with every query the client uses (``?screen``, ``?pass``,
``?learn``, ``?seat=k``)."""

from __future__ import annotations

import urllib.error
import urllib.request

import pytest

from tests.webtools import Server, shared_server

pytestmark = pytest.mark.timeout(60)

#: What the not-found page says, word for word (src/primero/web/missing.html).
MISSING_WORDS = (
    "There is no table at this address",
    "The link may be mistyped, or the table may have ended and no longer be kept here.",
    '<a href="/" class="button primary">Back to the lobby</a>',
)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    """The test process's shared server."""
    return shared_server(request)


def _page(server: Server, path: str) -> tuple[int, str, str]:
    """``GET path``: the status, the content type and the body (an error status too)."""
    try:
        with urllib.request.urlopen(server.base + path, timeout=5) as answer:
            return answer.status, answer.headers["Content-Type"], answer.read().decode()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers["Content-Type"], error.read().decode()


def test_an_address_that_names_no_table_is_a_404_page(server: Server) -> None:
    for path in ("/t/nosuchtable1", "/t/nosuchtable1?screen", "/t/ffffffff00?seat=0"):
        status, kind, body = _page(server, path)
        assert status == 404, path
        assert kind == "text/html; charset=utf-8", path
        for words in MISSING_WORDS:
            assert words in body, (path, words)
        assert '<link rel="stylesheet" href="/static/style.css">' in body
        assert "table.js" not in body  # not the table page with a small line in it


@pytest.mark.parametrize("table_id", [
    "a" * 33,  # longer than an id may be
    "x" * 5000,
    "%C3%A9t%C3%A9",  # letters, but not ASCII ones
    "a.b", "a%20b", "%3Cb%3E", "..%2Fapi", "%00", "", "a/b", "a/qr.svg/x",
])  # fmt: skip
def test_a_malformed_id_gets_the_same_404_page_and_no_traceback(
    server: Server, table_id: str
) -> None:
    status, kind, body = _page(server, f"/t/{table_id}")
    assert (status, kind) == (404, "text/html; charset=utf-8"), table_id
    assert MISSING_WORDS[0] in body and "Traceback" not in body


def test_a_real_table_still_gets_its_page_with_every_query(server: Server) -> None:
    table = server.post(
        "/api/tables",
        {
            "name": "Real table",
            "turn_seconds": 0,
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
        },
    )
    for query in ("", "?screen", "?pass", "?learn", "?seat=0"):
        status, kind, body = _page(server, f"/t/{table['id']}{query}")
        assert (status, kind) == (200, "text/html; charset=utf-8"), query
        assert '<script type="module" src="/static/table.js"></script>' in body
        assert MISSING_WORDS[0] not in body
