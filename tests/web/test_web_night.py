"""Connection truth, links all evening, the TV screen and chat on a phone, in a real
Chromium against a real ``primero serve`` (the shared server of the browser tests).

1. *Heartbeat*: with the page's clock installed (Playwright's fake timers, no real
   sleeps), a socket that silently stops answering is found after two pings (30 s of
   page time), the header says "reconnecting…", a move clicked into the dead socket says
   it waits for the connection, and after the reconnection it is made once; the browser's
   offline event alone says "reconnecting…" too.
2. *Links, chat, TV*: with every seat taken the Share / devices menu is one tap away in
   the header (invite link, TV screen, this seat on another device); a chat line from
   Ben shows an unread count in Ana's header at 360×640, the Chat button brings the chat
   into view and clears it, and a reload shows the line again (the server keeps it); the
   TV screen fits 1280×720 and 1920×1080 with no scrolling, every seat in view, and a
   small watch QR instead of the invite box.

Screenshots in tests/artifacts/ (looked at; docs/images/ shows some).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import pytest

from tests.webtools import ARTIFACTS, Server, shared_browser, shared_server, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.timeout(300)

#: A network that dies silently: while ``window.__dead`` is true, the page's sockets send
#: nothing and hear nothing (no close, no error: as a dropped Wi-Fi looks), and a new
#: socket finds no server. Counts the
#: frames the page meant to send by type in ``window.__sent``, the action ids in
#: ``window.__ids``.
DEAD_LINK = """
(() => {
  const Native = window.WebSocket;
  window.__dead = false;
  window.__sent = {};
  window.__ids = [];
  window.WebSocket = class extends Native {
    constructor(url, ...rest) {
      super(url, ...rest);
      if (window.__dead) queueMicrotask(() => this.close());  // no way through
      this.addEventListener("message", (e) => { if (window.__dead) e.stopImmediatePropagation(); });
    }
    send(data) {
      const msg = JSON.parse(data);
      window.__sent[msg.type] = (window.__sent[msg.type] || 0) + 1;
      if (msg.type === "action") window.__ids.push(msg.id);
      if (!window.__dead) super.send(data);
    }
  };
})();
"""

#: Four seats, no timer: nothing moves while a person is to act.
TABLE: dict[str, Any] = {"name": "Night", "turn_seconds": 0}


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    """The test process's shared server."""
    return shared_server(request)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Browser:
    """The module's Chromium (webtools.shared_browser): a new context per page."""
    return shared_browser(request)


def _table(server: Server, seats: list[str], names: list[str]) -> tuple[str, list[str]]:
    """A table with these seats, the people ``names`` seated in the open ones in order."""
    t = server.post("/api/tables", {**TABLE, "seats": seats})
    tokens = [server.post(f"/api/tables/{t['id']}/seats", {"name": n})["token"] for n in names]
    return str(t["id"]), tokens


def _shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), animations="disabled")


def _conn(page: Page) -> str:
    return str(page.locator("#conn").inner_text())


def test_a_silent_drop_is_found_and_a_move_waits_for_the_connection(
    browser: Browser, server: Server
) -> None:
    table_id, (ana,) = _table(server, ["open", "heuristic", "heuristic", "heuristic"], ["Ana"])
    ctx = browser.new_context(viewport={"width": 360, "height": 640})
    ctx.add_init_script(DEAD_LINK)
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.clock.install()
    page.goto(f"{server.base}/t/{table_id}#token={ana}")
    wait_until(page, "() => document.querySelector('#actions button')", what="Ana's turn")
    assert _conn(page) == "connected"
    version = int(page.evaluate("document.body.dataset.version"))
    page.evaluate("window.__dead = true")
    move = page.locator("#actions button:not([disabled])", has_text=re.compile(r"^(Bet|Check)"))
    label = move.first.inner_text()
    move.first.click()
    assert page.locator("#action-status").inner_text() == "Sending your move…"
    page.clock.run_for(20_000)  # two pings, no answer: not yet taken for dead
    assert _conn(page) == "connected"
    assert page.evaluate("window.__sent.ping") == 2
    page.clock.run_for(10_000)  # the third beat finds both unanswered
    assert _conn(page) == "reconnecting…"
    assert page.locator("#action-status").inner_text() == (
        "Your move waits for the connection: reconnecting…"
    )
    _shot(page, "night-reconnecting-360x640.png")
    page.evaluate("window.__dead = false")
    # The network is back: time flows again (the back-off's attempts are real sockets).
    page.clock.resume()
    wait_until(
        page,
        "v => Number(document.body.dataset.version) > v",
        version,
        what=f"the move {label!r} made after the reconnection",
    )
    wait_until(
        page,
        "() => document.querySelector('#conn').textContent === 'connected'",
        what="connected again",
    )
    assert page.locator("#action-status").inner_text() == ""
    # the same move sent again with its id after the reconnection: made once
    assert page.evaluate("window.__sent.action") == 2
    assert page.evaluate("new Set(window.__ids).size") == 1
    # The browser's offline event: "reconnecting…" at once, no ping needed.
    ctx.set_offline(True)
    wait_until(
        page,
        "() => document.querySelector('#conn').textContent === 'reconnecting…'",
        what="reconnecting on the offline event",
    )
    ctx.set_offline(False)
    wait_until(
        page,
        "() => document.querySelector('#conn').textContent === 'connected'",
        what="connected when the network is back",
    )
    assert errors == []
    ctx.close()


def _fits(page: Page) -> bool:
    """No scrolling either way, and every seat's box inside the window."""
    return bool(
        page.evaluate(
            """() => document.documentElement.scrollHeight <= innerHeight
              && document.documentElement.scrollWidth <= innerWidth
              && [...document.querySelectorAll('#seats .seat')].every(e => {
                const r = e.getBoundingClientRect();
                return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight
                  && r.right <= innerWidth; })"""
        )
    )


def test_links_chat_and_the_tv_with_every_seat_taken(browser: Browser, server: Server) -> None:
    table_id, (ana, ben) = _table(
        server, ["open", "open", "heuristic", "heuristic"], ["Ana", "Ben"]
    )
    url = f"{server.base}/t/{table_id}"
    ana_ctx = browser.new_context(viewport={"width": 360, "height": 640})
    page = ana_ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{url}#token={ana}")
    wait_until(page, "() => document.body.dataset.version", what="Ana's first state")
    # Every seat taken: no invite box by itself, the Share / devices menu one tap away.
    assert page.locator("#share").is_hidden()
    page.get_by_role("button", name="Share / devices").click()
    assert page.locator("#share").is_visible()
    assert page.locator("#share-title").inner_text() == "Share / devices"
    assert page.locator("#share-url").inner_text() == url
    assert page.locator("#screen-link").get_attribute("href") == f"/t/{table_id}?screen"
    assert page.locator("#device-box").is_visible()  # this seat on another device
    assert page.locator("#device-url").text_content() == f"{url}#token={ana}"
    _shot(page, "night-share-360x640.png")
    page.locator("#b-share-close").click()
    assert page.locator("#share").is_hidden()
    # Ben says something; Ana's chat is out of sight: an unread count in her header.
    ben_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ben_page = ben_ctx.new_page()
    ben_page.goto(f"{url}#token={ben}")
    wait_until(ben_page, "() => document.body.dataset.version", what="Ben's first state")
    ben_page.locator("#chat-text").fill("pizza is here")
    ben_page.get_by_role("button", name="Send").click()
    wait_until(
        page,
        "() => document.querySelector('#chat-unread').textContent === '1'",
        what="one unread chat line in Ana's header",
    )
    assert page.locator("#b-chat").get_attribute("aria-label") == "Chat, 1 unread line"
    _shot(page, "night-chat-unread-360x640.png")
    page.get_by_role("button", name="Chat, 1 unread line").click()
    wait_until(
        page, "() => document.querySelector('#chat-unread').hidden", what="the count cleared"
    )
    assert page.locator("#chat-list").inner_text() == "Ben: pizza is here"
    # A reload keeps the conversation: the server sends its last lines.
    page.reload()
    wait_until(
        page,
        "() => document.querySelector('#chat-list').textContent === 'Ben: pizza is here'",
        what="the chat line after a reload",
    )
    # The TV: no scrolling at 1280x720 and 1920x1080, a small watch QR, no invite box.
    for width, height in ((1280, 720), (1920, 1080)):
        tv_ctx = browser.new_context(viewport={"width": width, "height": height})
        tv = tv_ctx.new_page()
        tv.goto(f"{url}?screen")
        wait_until(tv, "() => document.body.dataset.version", what="the TV's first state")
        wait_until(
            tv,
            "() => document.querySelector('#watch-qr-img').naturalWidth > 0",
            what="the watch QR code",
        )
        assert tv.locator("#share").is_hidden()
        assert _fits(tv), (width, height)
        _shot(tv, f"night-tv-{width}x{height}.png")
        tv_ctx.close()
    assert errors == []
    ana_ctx.close()
    ben_ctx.close()
