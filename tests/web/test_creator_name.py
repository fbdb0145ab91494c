"""The lobby's create form, in Chromium at a phone's 360x640: a creator's name that
the server would refuse (only spaces, more than 24 characters) is refused before the
table is made, with the reason, and never cut or dropped (no table without its
creator is left in the lobby)."""

from __future__ import annotations

import json
import urllib.request

import pytest

from tests.webtools import ARTIFACTS, Server, shared_browser, shared_server

pytestmark = pytest.mark.timeout(90)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    return shared_server(request)


def tables(server: Server) -> list[str]:
    with urllib.request.urlopen(server.base + "/api/tables", timeout=5) as answer:
        body = json.loads(answer.read())
    rows = body["tables"] if isinstance(body, dict) else body
    return [str(t["name"]) for t in rows]


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("   ", "Your name is only spaces: type a name of 1 to 24 characters"),
        ("Bartholomew Montgomery III", "Your name must be 1 to 24 characters, not 26"),
    ],
)
def test_a_refused_creator_name_makes_no_table_and_says_why(
    request: pytest.FixtureRequest, server: Server, typed: str, said: str
) -> None:
    browser = shared_browser(request)
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    try:
        page.goto(server.base + "/")
        name = f"Refused {len(typed)}"
        page.get_by_label("Table name").fill(name)
        page.locator("#c-player").fill(typed)
        page.get_by_label("List this table in the lobby").check()  # a table made would show
        assert page.locator("#c-player").input_value() == typed  # nothing cut as typed
        page.get_by_role("button", name="Create table").click()
        error = page.locator("#create-error")
        error.wait_for(state="visible", timeout=10_000)
        assert error.inner_text() == said
        assert page.url == server.base + "/"  # still the lobby: no table was made
        assert name not in tables(server)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"creator-name-{len(typed)}-360x640.png"))
    finally:
        context.close()
