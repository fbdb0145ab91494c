"""The lobby's form shows the house rules the server declares (``GET /api/rules``), and a
pot-limit table made with it offers bets up to the pot only (R5), in a real Chromium
against a real ``primero serve``."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import pytest

from tests.webtools import ARTIFACTS, Server, shared_browser, shared_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [pytest.mark.timeout(300), pytest.mark.needs("chromium", "playwright")]


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    return shared_server(request)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Browser:
    return shared_browser(request)


def test_a_pot_limit_table_from_the_lobby_bets_up_to_the_pot(
    browser: Browser, server: Server
) -> None:
    context = browser.new_context(viewport={"width": 360, "height": 640})
    page = context.new_page()
    page.goto(server.base + "/")
    limit = page.locator("#r-bet_limit")
    limit.wait_for(state="attached", timeout=10_000)  # made from the server's rules
    page.get_by_text("House rules", exact=True).click()  # open the folded section
    assert limit.locator("option").all_inner_texts() == ["none", "pot"]
    assert (
        "no bet or raise beyond the pot after calling"
        in page.locator("#r-bet_limit-help").inner_text()
    )
    limit.select_option("pot")
    page.locator("#r-bet_limit").scroll_into_view_if_needed()
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "lobby-pot-limit-360.png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    page.get_by_label("Table name").fill("Pot limit")
    page.locator("#c-player").fill("Ana")
    page.get_by_label("Seats", exact=True).select_option("4")
    for i in range(1, 4):
        page.locator(f"#c-seat-{i}").select_option("heuristic")
    page.get_by_label("Turn timer").fill("0")
    page.get_by_label("Hands in the match").fill("1")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/"))
    amount = page.locator("#amount-b")
    amount.wait_for(timeout=15_000)  # Ana (p1) opens the first round
    # four antes of 1: the pot is 4, so p1 may bet 1 to 4 (without the limit: to 99)
    assert (amount.get_attribute("min"), amount.get_attribute("max")) == ("1", "4")
    context.close()
