"""No hidden card reaches a page that may not see it (R9b), in a real Chromium against
the shared ``primero serve``: four people at one table with a bot (phones at 360×640 and
390×844, a tablet at 768×1024, a laptop at 1280×800), the TV screen (1280×720) and a
spectator play a match of two hands to the end, by clicking (tests/web/test_web.py's
``move``), a showdown included.

Every WebSocket frame each page receives (Playwright's own record of the socket) and the
page's text after each state is drawn are kept, then compared with the server's stored
records (``primero hands export``): a card dealt to another seat and not shown at that
hand's showdown must never be in a frame of that hand, nor on the table drawn for it, nor
anywhere on the page when that page never saw it at all. The TV and the spectator may
see the showdown's cards alone. At the end the settle-up text on a page is the exported
``ledger.json``'s, whose nets are checked by hand (chips minus bought in, summing to
zero) and whose transfers pay them, in chips and in money (0.10 EUR a chip).

The TV is shot at 1280×720 and 1920×1080 (looked at; docs/images/web-tv-over-*.png).
Cost: two hands, no real sleep (bot pause and hand pause 0: the shared server's waits).
"""

from __future__ import annotations

import json
import re
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from primero.engine.history import read_record, replay
from tests.server_helpers import wait_for
from tests.web.test_web import dealt_to, move
from tests.web.test_web_evening import _frames, _shown_cards
from tests.web.test_web_night import _fits
from tests.webtools import (
    ARTIFACTS,
    Server,
    resize,
    shared_browser,
    shared_server,
    wait_until,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.timeout(300)

#: After each state frame is drawn (the page draws it in its own message handler, so a
#: task queued from an earlier listener runs after it): the hand it is of, the cards on
#: the table (their accessible names) and every text of the page, with the accessible
#: names, titles and alternative texts (a card may be said there only). The last state
#: is ``window.__last``.
DOM_AT_EACH_STATE = """
(() => {
  const Native = window.WebSocket;
  window.__dom = [];
  window.__last = null;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", (event) => {
        let msg = null;
        try { msg = JSON.parse(String(event.data)); } catch { return; }
        if (!msg || msg.type !== "state") return;
        window.__last = msg;
        setTimeout(() => {
          const said = [...document.querySelectorAll("[aria-label], [title], [alt]")].map(
            (e) => ["aria-label", "title", "alt"].map((a) => e.getAttribute(a) || "").join(" "));
          const table = [...document.querySelectorAll("#seats .card, #own-cards .card")].map(
            (e) => e.getAttribute("aria-label")
              || (e.querySelector(".visually-hidden") || {}).textContent || "");
          window.__dom.push({hand: msg.hand ? msg.hand.number : null, table,
            text: document.body.innerText + "\\n" + said.join("\\n")});
        }, 0);
      });
    }
  };
})();
"""

PEOPLE = {  # name: viewport
    "Ana": (360, 640),
    "Ben": (390, 844),
    "Cleo": (1280, 800),
    "Dev": (768, 1024),
}
_RANKS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
_SUITS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}
_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s"}
_PLAIN = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK][cdhs])(?![A-Za-z0-9])")
_NAMED = re.compile(r"\b(ace|king|queen|jack|[2-7]) of (clubs|diamonds|hearts|spades)\b")
_SHORT = re.compile(r"(?<![A-Za-z0-9])([A2-7JQK])([♣♦♥♠])")


def cards_said(text: str) -> set[str]:
    """Every card ``text`` names, in any of the page's ways: ``7h``, ``7♥``, ``7 of
    hearts`` (as card text, ``7h``).

    >>> sorted(cards_said("Ana: ace of spades, 7♥ and Kc; 27h is not one"))
    ['7h', 'As', 'Kc']
    """
    out = set(_PLAIN.findall(text))
    out |= {_RANKS.get(r, r) + _SUITS[s] for r, s in _NAMED.findall(text)}
    out |= {r + _SYMBOLS[s] for r, s in _SHORT.findall(text)}
    return out


def hidden_from(records: dict[int, Any], viewer: str | None) -> dict[int, set[str]]:
    """For each hand (by number), the cards of the stored record that ``viewer`` (a
    player's name, None: the TV or a spectator) may not see: every card dealt to another
    seat, less those dealt to the viewer and those shown at the showdown (R9b)."""
    out: dict[int, set[str]] = {}
    for number, record in records.items():
        dealt = {name: dealt_to(record, name) for name in record.players}
        others = set().union(*(c for name, c in dealt.items() if name != viewer))
        mine = dealt.get(viewer, set()) if viewer is not None else set()
        out[number] = others - mine - shown_in(record)
    return out


def shown_in(record: Any) -> set[str]:
    """The cards shown at the record's showdown (none when one player was left)."""
    state = replay(record).state
    assert state is not None and state.result is not None
    return {str(c) for shown in state.result.shown_cards if shown is not None for c in shown}


def _page(browser: Browser, url: str, size: tuple[int, int], frames: list[str]) -> Page:
    ctx = browser.new_context(viewport={"width": size[0], "height": size[1]})
    ctx.add_init_script(DOM_AT_EACH_STATE)
    page = ctx.new_page()
    _frames(page, frames)
    page.goto(url)
    wait_until(page, "() => window.__last !== null", what=f"the first state at {url}")
    return page


def _last(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("window.__last")
    return state


def _play(people: dict[str, Page], watcher: Page) -> None:
    """Each person's moves by clicking, whoever the server says may move, until the
    match is over (a bot's moves and the deals come by themselves)."""
    done: dict[str, list[str]] = {name: [] for name in people}

    def over() -> bool:
        return bool(_last(watcher)["table"]["status"] == "over")

    def to_move() -> str | None:
        for name, page in people.items():
            if page.evaluate("window.__last && window.__last.legal !== null"):
                return name
        return None

    for _ in range(500):
        if over():
            return
        wait_for(lambda: over() or to_move() is not None, 30, "a person's move or the end")
        name = to_move()
        if name is None:
            continue
        page = people[name]
        wait_until(  # drawn, or taken back by a newer state (another's vote ended it)
            page,
            "() => document.querySelector('#actions button') || window.__last.legal === null",
            what=f"{name}'s moves",
        )
        if page.locator("#actions button").count():
            move(page, done[name])
    raise AssertionError("the match did not end within 500 moves")


@pytest.mark.soak
def test_no_page_sees_a_card_hidden_from_it(request: pytest.FixtureRequest, tmp_path: Path) -> None:
    server: Server = shared_server(request)
    browser = shared_browser(request)
    t = server.post(
        "/api/tables",
        {
            "name": "No peeking",
            "seats": ["open", "open", "open", "open", "heuristic"],
            "turn_seconds": 0,
            "max_hands": 2,
            "chip_value": "0.10",
            "currency": "EUR",
        },
    )
    table_id = t["id"]
    url = f"{server.base}/t/{table_id}"
    tokens = {
        name: server.post(f"/api/tables/{table_id}/seats", {"name": name})["token"]
        for name in PEOPLE
    }
    frames: dict[str | None, list[str]] = {name: [] for name in PEOPLE}
    frames["tv"], frames["spectator"] = [], []
    errors: list[str] = []
    pages: dict[str, Page] = {}
    for name, size in PEOPLE.items():
        pages[name] = _page(browser, f"{url}#token={tokens[name]}", size, frames[name])
    tv = _page(browser, f"{url}?screen", (1280, 720), frames["tv"])
    spectator = _page(browser, url, (1280, 800), frames["spectator"])
    watchers = {"tv": tv, "spectator": spectator}
    for page in [*pages.values(), *watchers.values()]:
        page.on("pageerror", lambda e: errors.append(str(e)))
    assert [_last(p)["your_seat"] for p in pages.values()] == [0, 1, 2, 3]
    assert _last(spectator)["your_seat"] is None and _last(tv)["your_seat"] is None
    _play(pages, spectator)
    for page in [*pages.values(), tv]:
        wait_until(
            page,
            "() => window.__last.table.status === 'over' && window.__dom.length"
            " && window.__dom.at(-1).text.includes('over')",
            what="the end of the match drawn",
        )
    # The stored records: what was dealt to whom, and what the showdowns showed.
    paths = server.export(table_id, tmp_path / "export")
    records = {int(p.stem): read_record(p) for p in paths}
    assert sorted(records) == [1, 2]
    shown = {n: shown_in(r) for n, r in records.items()}
    assert any(len(s) >= 8 for s in shown.values()), shown  # two hands shown at least once
    assert set().union(*shown.values()) == _shown_cards(server, table_id)
    viewers: dict[str, str | None] = {name: name for name in PEOPLE}
    viewers |= {"tv": None, "spectator": None}
    every_page = {**pages, **watchers}
    for who, viewer in viewers.items():
        hidden = hidden_from(records, viewer)
        own = set()
        if viewer is not None:
            own = set().union(*(dealt_to(r, viewer) for r in records.values()))
        never = set().union(*hidden.values()) - own - set().union(*shown.values())
        received = frames[who]
        assert received, who
        seen_in_frames: set[str] = set()
        for text in received:
            msg = json.loads(text)
            said = cards_said(text)
            seen_in_frames |= said
            hand = msg.get("hand") if msg.get("type") == "state" else None
            if hand is not None:
                leak = said & hidden[hand["number"]]
                assert not leak, (who, hand["number"], leak)
            else:
                assert not said & never, (who, msg.get("type"), said & never)
        # the frames did carry cards: the reader's own, and the showdowns'
        assert set().union(*shown.values()) <= seen_in_frames, who
        assert own <= seen_in_frames, (who, own - seen_in_frames)
        drawn = every_page[who].evaluate("window.__dom")
        assert len(drawn) >= 10, (who, len(drawn))
        on_table: set[str] = set()
        for snap in drawn:
            table_cards = cards_said("\n".join(snap["table"]))
            on_table |= table_cards
            if snap["hand"] is not None:
                leak = table_cards & hidden[snap["hand"]]
                assert not leak, (who, "table", snap["hand"], leak)
            leak = cards_said(snap["text"]) & never
            assert not leak, (who, "page", snap["hand"], leak)
        assert on_table, who  # the table was drawn with cards
    # Settling up: the page's text is the exported ledger's, checked by hand.
    ledger = json.loads((tmp_path / "export" / table_id / "ledger.json").read_text())
    rows = ledger["seats"]
    assert [r["name"] for r in rows if r["kind"] == "person"] == list(PEOPLE)
    for r in rows:
        assert r["ledger"]["bought_in"] == 100  # no rebuy at this table
        assert r["ledger"]["net"] == r["chips"] - 100, r
    assert sum(r["ledger"]["net"] for r in rows) == 0  # chips only move
    assert sum(r["chips"] for r in rows) == 500
    owed = {r["name"]: r["ledger"]["net"] for r in rows if r["kind"] == "person"}
    owed["Bots"] = sum(r["ledger"]["net"] for r in rows if r["kind"] != "person")
    lines = []
    for pay in ledger["settle"]["transfers"]:
        assert pay["chips"] > 0
        owed[pay["payer"]] += pay["chips"]
        owed[pay["payee"]] -= pay["chips"]
        money = (Decimal(pay["chips"]) * Decimal("0.10")).quantize(Decimal("0.01"))
        assert pay["money"] == str(money), pay
        verb = "pay" if pay["payer"] == "Bots" else "pays"
        count = "1 chip" if pay["chips"] == 1 else f"{pay['chips']} chips"
        lines.append(f"{pay['payer']} {verb} {pay['payee']} {count} ({money} EUR)")
    assert all(v == 0 for v in owed.values()), (owed, ledger["settle"])
    assert ledger["settle"]["transfers"], "two hands moved no chip"
    ana = pages["Ana"]
    ana.locator("#settle").scroll_into_view_if_needed()
    wait_until(ana, "() => !document.querySelector('#settle').hidden", what="Ana's settle up")
    on_page = ana.locator("#settle-text").inner_text()
    assert on_page == ledger["settle"]["text"]
    assert on_page == "\n".join([*lines, "1 chip = 0.10 EUR"])
    assert pages["Cleo"].locator("#settle-text").inner_text() == on_page
    # The TV at the end of the match: every seat in view, no scrolling, at both sizes.
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in ((1280, 720), (1920, 1080)):
        resize(tv, width, height)
        tv.screenshot(
            path=str(ARTIFACTS / f"leaks-tv-{width}x{height}-full.png"),
            full_page=True,
            animations="disabled",
        )
        assert _fits(tv), (width, height, _sizes(tv))
        tv.screenshot(path=str(ARTIFACTS / f"leaks-tv-{width}x{height}.png"), animations="disabled")
    for page in [*pages.values(), *watchers.values()]:
        page.context.close()
    assert errors == []


def _sizes(page: Page) -> dict[str, int]:
    """The page's scroll sizes and window (why it does not fit)."""
    sizes: dict[str, int] = page.evaluate(
        "() => ({sw: document.documentElement.scrollWidth, sh: "
        "document.documentElement.scrollHeight, w: innerWidth, h: innerHeight})"
    )
    return sizes
