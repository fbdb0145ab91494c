"""The lobby's create form offers the evening's settings, in Chromium at a phone's
360x640 against the shared ``primero serve`` (docs/protocol.md "Between hands",
"Settling up"): the pause after a hand, the rebuy window (shown with Rebuys checked) and
the money a chip is worth, with the server's bounds and defaults (``GET
/api/table-settings``; the shared server runs with ``--hand-pause 0 --rebuy-seconds
0``); a value out of range is refused with the server's reason, no table made; a table
created through the form has them in its summary, and its host's settings show them
with the same bounds (a refusal there in the server's words too). Screenshot in
tests/artifacts/ (looked at)."""

from __future__ import annotations

import json
import urllib.request
from typing import TYPE_CHECKING

import pytest

from tests.webtools import ARTIFACTS, Server, shared_browser, shared_server, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Page

pytestmark = pytest.mark.timeout(120)


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    return shared_server(request)


def _listed(server: Server) -> list[str]:
    with urllib.request.urlopen(server.base + "/api/tables", timeout=5) as answer:
        return [str(t["name"]) for t in json.loads(answer.read())]


def _refused(page: Page, field: str, value: str, said: str, server: Server) -> None:
    """``value`` typed in ``field`` is refused with ``said``; the lobby stays, no table."""
    page.locator(field).fill(value)
    page.get_by_role("button", name="Create table").click()
    wait_until(
        page,
        "() => document.querySelector('#create-error').textContent !== ''",
        what=f"the refusal of {value!r}",
    )
    assert page.locator("#create-error").inner_text() == said
    assert page.url == server.base + "/"
    assert "Settings refused" not in _listed(server)


def test_the_form_creates_a_table_with_a_pause_a_rebuy_window_and_a_chip_value(
    request: pytest.FixtureRequest, server: Server
) -> None:
    assert server.get("/api/table-settings")[0]["default"] == 0  # --hand-pause 0
    browser = shared_browser(request)
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(server.base + "/")
        pause = page.get_by_label("Seconds a hand's result stays")
        pause.wait_for(state="visible", timeout=10_000)
        # the server's bounds and defaults (its schema, its --hand-pause 0)
        assert (pause.get_attribute("min"), pause.get_attribute("max")) == ("0", "3600")
        assert pause.input_value() == "0"
        assert page.locator("#s-hand_pause_seconds-help").inner_text() == (
            "The cards shown and who won stay on the table this long before the next deal. "
            "0 to 3600."
        )
        rebuy = page.get_by_label("Seconds to wait for a rebuy")
        assert not rebuy.is_visible()  # a rebuy window only at a rebuy table
        page.get_by_label("Rebuys").check()
        assert rebuy.is_visible() and rebuy.input_value() == "0"
        money = page.get_by_label("Money one chip is worth")
        assert money.get_attribute("maxlength") == "12"
        assert page.get_by_label("Currency").get_attribute("maxlength") == "8"
        page.get_by_label("Table name").fill("Settings refused")
        page.get_by_label("List this table in the lobby").check()  # a table made would show
        _refused(
            page,
            "#s-hand_pause_seconds",
            "3601",
            "Seconds a hand's result stays must be at most 3600",
            server,
        )
        pause.fill("7")
        _refused(
            page,
            "#s-rebuy_seconds",
            "-1",
            "Seconds to wait for a rebuy must be at least 0",
            server,
        )
        rebuy.fill("45")
        _refused(
            page,
            "#s-chip_value",
            "ten",
            'Money one chip is worth is a number such as "0.10" with at most 4 decimals, '
            "not 'ten'",
            server,
        )
        money.fill("0,25")
        page.get_by_label("Currency").fill("EUR")
        section = page.locator("#c-evening")
        section.scroll_into_view_if_needed()
        # nothing wider than the phone: no side scrolling, every field inside the screen
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        for field in ("#s-hand_pause_seconds", "#s-rebuy_seconds", "#s-chip_value", "#s-currency"):
            box = page.locator(field).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 360, field
        ARTIFACTS.mkdir(exist_ok=True)
        section.screenshot(path=str(ARTIFACTS / "create-settings-360x640.png"))
        page.screenshot(path=str(ARTIFACTS / "create-settings-page-360x640.png"))
        page.get_by_label("Table name").fill("Settings kept")
        page.get_by_role("button", name="Create table").click()
        page.wait_for_url("**/t/*", timeout=10_000)
        table_id = page.url.rsplit("/t/", 1)[1].split("?")[0].split("#")[0]
        made = server.get(f"/api/tables/{table_id}")
        assert made["name"] == "Settings kept" and made["rebuy"] is True
        assert (made["hand_pause_seconds"], made["rebuy_seconds"]) == (7, 45)
        assert (made["chip_value"], made["currency"]) == ("0.25", "EUR")
        # The creator hosts: the host's settings show them, with the server's bounds too.
        wait_until(
            page,
            "() => document.querySelector('#host-pause').value === '7'",
            what="the host's settings drawn",
        )
        host_pause = page.locator("#host-pause")
        assert (host_pause.get_attribute("min"), host_pause.get_attribute("max")) == ("0", "3600")
        assert page.locator("#host-rebuy").input_value() == "45"
        assert page.locator("#host-chip-value").get_attribute("maxlength") == "12"
        assert page.locator("#host-currency").input_value() == "EUR"
        host_pause.fill("3601")
        page.locator("#settings-form").get_by_role("button", name="Save").click()
        wait_until(
            page,
            "() => document.querySelector('#host-error').textContent !== ''",
            what="the refusal of the host's 3601",
        )
        assert page.locator("#host-error").inner_text() == (
            "Seconds a hand's result stays must be 0 to 3600, not 3601"
        )
        assert server.get(f"/api/tables/{table_id}")["hand_pause_seconds"] == 7
        # refused: the fields show the stored values again, not the refused ones
        assert host_pause.input_value() == "7"
        assert page.locator("#host-currency").input_value() == "EUR"
        assert errors == []
    finally:
        context.close()
