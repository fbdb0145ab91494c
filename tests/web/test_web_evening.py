"""Game night in a real Chromium against a real ``primero serve``.

Two scenarios, one browser session each, each checking several items at 360×640,
390×844 and 1280×800 (screenshots in tests/artifacts/, looked at; the docs show some):

1. *The evening*: Ana creates a rebuy table on her phone and waits (share box first, QR
   code, open seats, her seat marked as hers); a table screen shows the public table with
   a QR code per open seat; Ben joins from a laptop; on Ana's turn her cards, the pot,
   whose turn and every legal move are on screen with no scrolling (fixed action bar); a
   double click is absorbed and no error with record notation appears; while offline the
   moves are disabled with the notice beside them; each seat shows its last move; the log
   ends with who won; the hands come from the server on another device; no card of
   another seat reaches Ana, Ben or the screen in the DOM or the frames (hands history
   included); the host ends with a rematch; axe finds no serious or critical violation.
2. *Coming and going*: sit out, sit in, the host seats a bot for a seat sat out, leave
   (confirmed) and the table ends when every person has left.
"""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from primero.engine.history import read_record
from primero.engine.views import view
from primero.play.tablemodel.sentences import result_sentences
from tests.web.test_web import TRACK_SOCKETS, button, dealt_to, move, record_hand, run_axe, version
from tests.webtools import (
    ARTIFACTS,
    SHARED_SEED,
    Server,
    resize,
    shared_browser,
    shared_server,
    wait_until,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.timeout(300)

SEED = 1
_CARD = re.compile(r"\b[A2-7JQK][cdhs]\b")
NAMES = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
SUITS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    """The test process's shared server (seed 1: :data:`SEED`)."""
    assert SHARED_SEED == SEED
    return shared_server(request)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Browser:
    """The module's Chromium (webtools.shared_browser): a new context per page."""
    return shared_browser(request)


def _faces(page: Page, selector: str) -> set[str]:
    """Card texts of every face-up card under ``selector`` (by accessible name)."""
    labels = page.eval_on_selector_all(
        selector,
        "els => els.map(e => e.getAttribute('aria-label') || "
        "(e.querySelector('.visually-hidden') || {}).textContent || '')",
    )
    out = set()
    for name in labels:
        rank, _, suit = str(name).partition(" of ")
        if suit in SUITS:
            out.add(NAMES.get(rank, rank) + SUITS[suit])
    return out


def _in_view(page: Page, selector: str) -> bool:
    """Whether every element of ``selector`` lies inside the viewport (no scrolling)."""
    return bool(
        page.evaluate(
            """sel => [...document.querySelectorAll(sel)].every(e => {
             const r = e.getBoundingClientRect();
             return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5
               && r.right <= innerWidth + 0.5 && r.width > 0; })""",
            selector,
        )
    )


def _frames(page: Page, sink: list[str], moves: list[str] | None = None) -> None:
    """Collect the frames the page receives in ``sink`` (and the action frames it sends
    in ``moves``)."""
    page.on("websocket", lambda ws: ws.on("framereceived", lambda f: sink.append(str(f))))
    if moves is not None:
        page.on(
            "websocket",
            lambda ws: ws.on(
                "framesent", lambda f: moves.append(str(f)) if '"action"' in str(f) else None
            ),
        )


def _create(page: Page, base: str, **kw: Any) -> str:
    page.goto(base + "/")
    page.get_by_label("Table name").fill(kw.get("name", "Friday"))
    page.locator("#c-player").fill(kw["player"])
    seats = kw["seats"]
    page.get_by_label("Seats", exact=True).select_option(str(len(seats)))
    for i, kind in enumerate(seats):
        page.locator(f"#c-seat-{i}").select_option(kind)
    page.get_by_label("Turn timer").fill(str(kw.get("timer", 0)))
    page.get_by_label("Hands in the match").fill(str(kw.get("hands", "")))
    if kw.get("rebuy"):
        page.get_by_label("Rebuys").check()
    if kw.get("pass_names"):
        page.locator("#c-pass").fill(kw["pass_names"])
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/"))
    page.wait_for_function("() => document.body.dataset.version")
    return str(page.url.rsplit("/", 1)[1]).split("?")[0]


def _turn_or_over(page: Page) -> bool:
    page.wait_for_function(
        "() => document.querySelector('#actions button') || "
        "document.querySelector('#turn').textContent.includes('match is over') || "
        "document.querySelector('#turn').textContent.includes(' to ')",
        timeout=20_000,
    )
    return page.locator("#actions button").count() > 0


@pytest.mark.soak
def test_the_evening(browser: Browser, server: Server, tmp_path: Path) -> None:
    ana_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ana_ctx.add_init_script(TRACK_SOCKETS)
    ana = ana_ctx.new_page()
    errors: list[str] = []
    ana.on("pageerror", lambda e: errors.append(str(e)))
    frames: dict[str, list[str]] = {"Ana": [], "Ben": [], "screen": []}
    sent: dict[str, list[str]] = {"Ana": [], "Ben": []}  # the action frames each page sends
    _frames(ana, frames["Ana"], sent["Ana"])
    table_id = _create(
        ana,
        server.base,
        player="Ana",
        seats=["open", "open", "heuristic", "heuristic"],
        timer=600,
        hands=2,
        rebuy=True,
    )
    # Item 8, the waiting room: the share box first, a QR code, the seats still open, and
    # the creator's seat marked as hers.
    ana.locator("#share-qr").wait_for()
    ana.wait_for_function("() => document.querySelector('#share-qr').naturalWidth > 0")
    assert ana.locator("#open-seats").inner_text() == "1 seat still open"
    assert ana.locator("#seats").get_by_text("Ana (you)").count() == 1
    share_y = ana.locator("#share").bounding_box()
    felt_y = ana.locator(".felt").bounding_box()
    assert share_y and felt_y and share_y["y"] < felt_y["y"]
    assert ana.locator("#host-box").is_visible()  # the creator hosts
    screenshot(ana, "evening-waiting-phone.png")
    assert run_axe(ana) == []
    # Item 9, the table screen: public, QR codes to join each open seat.
    screen_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    screen = screen_ctx.new_page()
    _frames(screen, frames["screen"])
    screen.goto(f"{server.base}/t/{table_id}?screen")
    screen.wait_for_function("() => document.body.dataset.version")
    screen.locator("#seat-qrs img").first.wait_for()
    assert screen.locator("#seat-qrs img").count() == 1
    assert screen.locator("#seat-qrs figcaption").inner_text() == "Seat 2"
    assert screen.locator("#mine").is_hidden() and screen.locator("#join-box").is_hidden()
    # Ben joins by the link on a laptop.
    ben_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ben = ben_ctx.new_page()
    _frames(ben, frames["Ben"], sent["Ben"])
    ben.goto(f"{server.base}/t/{table_id}")
    ben.get_by_label("Your name").fill("Ben")
    ben.get_by_role("button", name="Join the table").click()
    ben.wait_for_function("() => document.querySelector('#seats').textContent.includes('Ben')")
    screenshot(screen, "evening-screen.png")
    pages = {"Ana": ana, "Ben": ben}
    done: dict[str, list[str]] = {"Ana": [], "Ben": []}
    seen: dict[str, set[str]] = {"Ana": set(), "Ben": set(), "screen": set()}
    checked = {"phone": False, "double": False, "offline": False, "desktop": False}
    previous: list[str] = []  # Ben's result panel for hand 1, read during hand 2
    over = False
    while not over:
        over = True
        for who, page in pages.items():
            if not _turn_or_over(page):
                if "match is over" not in page.locator("#turn").inner_text():
                    over = False
                continue
            over = False
            seen[who] |= _faces(page, "#seats .card, #own-cards .card")
            seen["screen"] |= _faces(screen, "#seats .card")
            if who == "Ana" and not checked["phone"]:
                # Item 6: everything needed on the turn is on screen, no scrolling.
                checked["phone"] = True
                for size in ((390, 844), (360, 640)):
                    resize(page, *size)
                    assert page.evaluate("document.documentElement.scrollWidth") <= size[0]
                    for sel in ("#own-cards .card", "#actions button", "#bar-info", "#bar-time"):
                        assert _in_view(page, sel), (size, sel)
                    # whose turn, the pot and the time left, in the bar (the felt may be
                    # under it); the antes of 4 seats, 1 chip each (R3)
                    assert page.locator("#bar-info").inner_text() == "· your turn · Pot: 4 chips"
                    assert re.fullmatch(r"· \d+ s left", page.locator("#bar-time").inner_text())
                    screenshot(page, f"evening-turn-{size[0]}x{size[1]}.png")
                    _viewport_shot(page, f"evening-turn-{size[0]}x{size[1]}-screen.png")
                assert run_axe(page) == []
                page.set_viewport_size({"width": 390, "height": 844})
            if who == "Ana" and not checked["offline"]:
                # Item 7: while disconnected the moves are disabled, the notice beside them.
                checked["offline"] = True
                ana_ctx.set_offline(True)
                page.evaluate("window.__sockets.at(-1).close()")
                page.wait_for_function(
                    "() => document.querySelector('#action-status').textContent"
                    ".startsWith('Not connected')"
                )
                assert all(b.is_disabled() for b in page.locator("#actions button").all())
                screenshot(page, "evening-offline-phone.png")
                ana_ctx.set_offline(False)
                page.wait_for_function(
                    "() => document.querySelector('#conn').textContent === 'connected'",
                    timeout=20_000,
                )
                page.wait_for_function(
                    "() => !document.querySelector('#actions button') || [...document"
                    ".querySelectorAll('#actions button')].some(b => !b.disabled)"
                )
                assert page.locator("#action-status").inner_text() == ""
                if not page.locator("#actions button").count():
                    continue
            call = button(page, "^(Check|Call)")
            if not checked["double"] and call.count() and not page.locator("#amount-b").count():
                # Item 7: a double click sends one move; no error is shown.
                checked["double"] = True
                before = version(page)
                moves = len(sent[who])
                call.first.dblclick()
                page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
                # the second click never left the page, so no answer (or error) can follow
                assert len(sent[who]) == moves + 1, sent[who][moves:]
                assert page.locator("#action-error").inner_text() == ""
                done[who].append("call")
                continue
            if (
                who == "Ben"
                and not previous
                and page.locator("#phase").inner_text().startswith("Hand 2:")
            ):
                # During hand 2 the result panel shows hand 1 from GET /hands/1: the
                # server's sentences for Ben (compared with the record below).
                wait_until(
                    page,
                    "() => document.querySelector('#result-title').textContent"
                    " === 'Result of hand 1' && !document.querySelector('#result').hidden",
                    what="hand 1's result from the server during hand 2",
                )
                previous.extend(page.locator("#result .award").all_text_contents())
            if who == "Ben" and not checked["desktop"]:
                # Item 5/6 at 1280×800: the log beside the table, each seat's last move.
                checked["desktop"] = True
                assert _in_view(page, "#log")
                felt = page.locator(".felt").bounding_box()
                tops = [b for b in (s.bounding_box() for s in page.locator(".seat").all()) if b]
                assert felt and min(b["y"] for b in tops) >= felt["y"] + 6  # inside the edge
                assert _in_view(page, "#actions button")  # every move above the fold
                assert page.locator(".last-move").count() >= 1
                screenshot(page, "evening-desktop.png")
                assert run_axe(page) == []
            move(page, done[who])
    assert checked["phone"] and checked["offline"], checked
    # Item 5: the log ends each hand with who won what.
    last = ana.locator("#log li").last.inner_text()
    assert re.search(r"(wins?|split) (the main pot, |side pot \d+, )?\d+ chips?\b", last), last
    # Item 3: the ledger on the page.
    assert ana.locator("#ledger").is_visible()
    assert ana.locator("#ledger-rows tr").count() == 2
    # Settling up, once the match is over: the text to copy, and when the chips were counted.
    assert ana.locator("#ledger-chips").inner_text() == "final chips"
    # The match's end: the final standings at the top (most chips first), the last pot
    # cleared once awarded, and "the match is over" said once on the page.
    standing = ana.locator("#standings-rows li").all_inner_texts()
    assert len(standing) == 4 and all(re.fullmatch(r".+: \d+ chips?", s) for s in standing)
    counts = [int(s.rsplit(": ", 1)[1].split()[0]) for s in standing]
    assert counts == sorted(counts, reverse=True), standing
    top, felt = ana.locator("#standings").bounding_box(), ana.locator(".felt").bounding_box()
    assert top is not None and felt is not None and top["y"] < felt["y"]
    assert ana.locator("#pot").inner_text() == ""
    assert ana.locator("body").inner_text().lower().count("the match is over") == 1
    settled_text = ana.locator("#settle-text").inner_text()
    line = r"(Ana|Ben) pays (Ana|Ben|Bots) \d+ chips|Bots pay (Ana|Ben) \d+ chips"
    assert all(re.fullmatch(line, s) for s in settled_text.split("\n")), settled_text
    ana.get_by_role("button", name="Copy", exact=True).click()
    ana.get_by_text(
        re.compile("^(Copied|Select the lines above and copy them by hand)$")
    ).wait_for()
    assert run_axe(ana) == []
    ana.set_viewport_size({"width": 360, "height": 640})
    ana.locator("#settle").scroll_into_view_if_needed()
    _viewport_shot(ana, "evening-settle-360x640.png")
    ana.set_viewport_size({"width": 390, "height": 844})
    assert ben.locator("#settle-text").inner_text() == settled_text
    ben.locator("#settle").scroll_into_view_if_needed()
    _viewport_shot(ben, "evening-settle-1280x800.png")
    # Item 4: the hands from the server on a new device (Ben's private link).
    link = ben.locator("#device-url").inner_text()
    other_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    other = other_ctx.new_page()
    other.goto(link)
    other.wait_for_function("() => document.body.dataset.version")
    other.keyboard.press("p")
    dialog = other.locator("#d-replay")
    dialog.get_by_text(re.compile(r"^Step \d+ of \d+$")).wait_for()
    assert other.locator("#hand-pick option").count() == 2
    dialog.get_by_role("button", name="Start").click()
    assert re.match(r"Step 0 of", dialog.locator("[role=status]").last.inner_text())
    dialog.get_by_role("button", name="Step forward").click()
    hands_faces: set[str] = set()
    for n in ("1", "2"):
        other.locator("#hand-pick").select_option(n)
        dialog.locator(".hand-view").get_by_text(f"Hand {n}", exact=True).wait_for()
        dialog.get_by_role("button", name="End").click()
        hands_faces |= _faces(other, "#d-replay .card")
    screenshot(other, "evening-hands-phone.png")
    assert run_axe(other) == []
    other_ctx.close()
    # Leaks: every card a person saw (DOM, frames, hands dialog) was dealt to them or shown.
    paths = server.export(table_id, tmp_path / "export")
    assert len(paths) == 2
    ledger = json.loads((tmp_path / "export" / table_id / "ledger.json").read_text())
    people = {row["name"]: row for row in ledger["seats"] if row["kind"] == "person"}
    assert set(people) == {"Ana", "Ben"}
    assert sum(r["ledger"]["net"] for r in ledger["seats"]) == 0  # chips only move
    # Settling up: the transfers pay every person's net and the bots' (one party) exactly.
    owed = {name: row["ledger"]["net"] for name, row in people.items()}
    owed["Bots"] = sum(r["ledger"]["net"] for r in ledger["seats"] if r["kind"] != "person")
    for t in ledger["settle"]["transfers"]:
        owed[t["payer"]] += t["chips"]
        owed[t["payee"]] -= t["chips"]
    assert owed == {"Ana": 0, "Ben": 0, "Bots": 0}, ledger["settle"]
    assert len(ledger["settle"]["transfers"]) <= 2  # three parties
    assert settled_text == ledger["settle"]["text"]
    records = [read_record(p) for p in paths]
    # Item 4 again: the previous hand's result, as the server words it for Ben's seat.
    first, first_state = record_hand(paths[0])
    said = result_sentences(view(first_state, list(first.players).index("Ben")))
    assert said and previous == said, (previous, said)
    for who in ("Ana", "Ben"):
        allowed = set().union(*(dealt_to(r, who) for r in records))
        allowed |= _shown_cards(server, table_id)
        assert seen[who] <= allowed, (who, seen[who] - allowed)
        frame_cards = set(_CARD.findall(" ".join(_hand_parts(frames[who]))))
        assert frame_cards <= allowed, (who, frame_cards - allowed)
    assert hands_faces <= set().union(*(dealt_to(r, "Ben") for r in records)) | _shown_cards(
        server, table_id
    )
    screen_cards = set(_CARD.findall(" ".join(_hand_parts(frames["screen"]))))
    assert screen_cards <= _shown_cards(server, table_id)
    # Item 2: the host's rematch with the same people.
    ana.get_by_role("button", name="Rematch with the same people").click()
    ana.wait_for_url(re.compile(r"/t/(?!" + table_id + r")"))
    ana.wait_for_function("() => document.querySelector('#seats').textContent.includes('Ana')")
    assert ana.locator("#seats").get_by_text("Ana (you)").count() == 1
    # Ben follows to the rematch: his token holds his seat there.
    ben.get_by_role("button", name="Go to the rematch").click()
    ben.wait_for_url(re.compile(r"/t/(?!" + table_id + r")"))
    ben.wait_for_function("() => document.querySelector('#seats').textContent.includes('Ben')")
    assert ben.locator("#seats").get_by_text("Ben (you)").count() == 1
    assert errors == []
    for ctx in (ana_ctx, ben_ctx, screen_ctx):
        ctx.close()


def _viewport_shot(page: Page, name: str) -> None:
    """What the person sees without scrolling (the phone pictures of the docs)."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), animations="disabled")


def screenshot(page: Page, name: str) -> None:
    """The whole page, animations finished."""
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True, animations="disabled")


def _hand_parts(frames: list[str]) -> list[str]:
    """The card-bearing parts of state frames (hand, log, events), as text."""
    out: list[str] = []
    for text in frames:
        try:
            msg = json.loads(text)
        except ValueError:
            continue
        hand = msg.get("hand") if isinstance(msg, dict) else None
        if isinstance(hand, dict):
            out.append(json.dumps({k: hand.get(k) for k in ("hand", "log", "events")}))
    return out


def _own_cards(frames: list[str]) -> list[str]:
    """The reader's own cards (``hand.hand``) of every state frame, as text."""
    out: list[str] = []
    for text in frames:
        try:
            msg = json.loads(text)
        except ValueError:
            continue
        hand = msg.get("hand") if isinstance(msg, dict) else None
        if isinstance(hand, dict):
            out.append(" ".join(hand.get("hand") or []))
    return out


def _shown_cards(server: Server, table_id: str) -> set[str]:
    """Every card a showdown of the table showed (public: GET /hands)."""
    out: set[str] = set()
    for hand in server.get(f"/api/tables/{table_id}/hands"):
        for s in hand["shown"]:
            if s:
                out.update(s["cards"])
    return out


@pytest.mark.soak
def test_coming_and_going(browser: Browser, server: Server) -> None:
    ctx = browser.new_context(viewport={"width": 360, "height": 640})
    ctx.add_init_script(TRACK_SOCKETS)
    page = ctx.new_page()
    long_name = "Anastasia Wilhelmina Ko"  # 23 characters: cut, never wrapped (item 6)
    table_id = _create(
        page,
        server.base,
        player=long_name,
        name="Coming and going",
        seats=["open", "heuristic", "heuristic", "heuristic"],
        timer=0,
    )
    _turn_or_over(page)
    heights = page.eval_on_selector_all(".seat-name", "els => els.map(e => e.offsetHeight)")
    line = page.evaluate(
        "parseFloat(getComputedStyle(document.querySelector('.seat-name')).lineHeight) || 22"
    )
    assert max(heights) <= 1.5 * line, heights
    page.set_viewport_size({"width": 1280, "height": 800})
    page.get_by_role("button", name="Sit out").click()
    # she still plays the hand in progress, and the words say so (the server's seat_note)
    wait_until(
        page,
        "() => document.querySelector('#seat-note').textContent",
        seconds=20,
        what="the words of her sit out",
    )
    assert page.locator("#seat-note").inner_text() == (
        "You will sit out from the next hand: you still play this one."
    )
    # the next one is dealt without her
    while (
        page.locator("#actions button").count()
        or not page.locator("#seats").get_by_text("Sitting out").count()
    ):
        if page.locator("#actions button").count():
            move(page, [])
        else:
            wait_until(
                page,
                "() => document.querySelector('#actions button') || document"
                ".querySelector('#seats').textContent.includes('Sitting out')",
                seconds=20,
                what="a move for Ana, or her seat shown sitting out",
            )
    assert page.locator("#seat-note").inner_text() == (
        "You are sitting out: you are not dealt in until you sit in."
    )
    host = page.locator("#host-box")
    assert host.get_by_role("button", name=f"Let a bot play for {long_name}").is_visible()
    screenshot(page, "evening-sitting-out.png")
    frames: list[str] = []
    _frames(page, frames)  # the next socket's frames (it opens after the close below)
    # While disconnected the seat's buttons are disabled too (a tap would go nowhere):
    # read at the socket's close, before the page reconnects by itself
    disabled = page.evaluate("""() => new Promise((done) => {
      const socket = window.__sockets.at(-1);
      socket.addEventListener("close", () => done([...document.querySelectorAll(
        "#seat-actions button")].map((b) => b.disabled)));
      socket.close();
    })""")
    assert disabled and all(disabled), disabled
    wait_until(
        page,
        "() => document.querySelector('#conn').textContent === 'connected'",
        seconds=20,
        what="the page connected again",
    )
    # Seats kept warm: the host's bot plays for her; the seat, chips and ledger stay hers
    # dispatched, not clicked: the host page lays itself out again at every bot move, so
    # Playwright's "stable element" check can wait for ever
    warm = host.get_by_role("button", name=f"Let a bot play for {long_name}")
    warm.wait_for(state="visible", timeout=20_000)
    assert warm.is_enabled()
    warm.dispatch_event("click")
    wait_until(
        page,
        "() => document.querySelector('#seat-note').textContent.startsWith('A bot plays')",
        seconds=20,
        what="the words of the bot playing for her",
    )
    assert page.locator("#seat-note").inner_text() == (
        "A bot plays your seat while you sit out: your chips and ledger stay yours."
    )
    assert host.get_by_role("button", name=re.compile("bot")).count() == 0  # it cannot act
    seat = server.get(f"/api/tables/{table_id}")["seats"][0]
    assert (seat["name"], seat["kind"], seat["stand_in"]) == (long_name, "person", "heuristic")
    assert seat["ledger"]["bought_in"] == 100
    wait_until(
        page,
        "() => document.querySelector('#seats').textContent.includes('a bot plays for you')"
        " && !document.querySelector('#actions button')",
        seconds=20,
        what="her seat shown, no buttons for her",
    )
    screenshot(page, "evening-stand-in-desktop.png")
    page.set_viewport_size({"width": 360, "height": 640})
    _viewport_shot(page, "evening-stand-in-phone.png")
    screenshot(page, "evening-stand-in-phone-full.png")  # the seats: her name and marks
    # on the phone too (the seat's buttons are redrawn as the bot plays on: looked for
    # again until seen; unless the bot has meanwhile lost her last chip or ended the match)
    wait_until(
        page,
        "() => [...document.querySelectorAll('button')].some((b) => b.offsetParent !== null"
        " && b.textContent.trim() === 'Take my seat back')"
        " || /match is over|out of the match/.test(document.querySelector('#turn').textContent)",
        seconds=20,
        what="her Take my seat back button on the phone (or the match over for her)",
    )
    page.set_viewport_size({"width": 1280, "height": 800})
    wait_until(
        page,
        "() => document.querySelector('#conn').textContent === 'connected'",
        seconds=20,
        what="the page connected (its seat buttons enabled)",
    )
    # One tap: a sit in is applied to the table as it is, racing the bots or not. The bot
    # may meanwhile have lost her last chip or ended the match: then there is nothing to take
    wait_until(
        page,
        "() => [...document.querySelectorAll('button')].some((b) => !b.disabled"
        " && b.textContent.trim() === 'Take my seat back')"
        " || /match is over|out of the match/.test(document.querySelector('#turn').textContent)",
        seconds=20,
        what="her Take my seat back button enabled (or the match over for her)",
    )
    # found and clicked in one step of the page: the table moves under it as the bot plays
    sat_in = page.evaluate(
        "() => { const b = [...document.querySelectorAll('button')].find((b) => !b.disabled"
        " && b.textContent.trim() === 'Take my seat back'); if (b) b.click(); return !!b; }"
    )
    if sat_in:
        wait_until(
            page,
            "() => !document.querySelector('#seat-note').textContent"
            " || /match is over|out of the match/.test("
            "document.querySelector('#turn').textContent)",
            seconds=30,
            what="the sit in taken at the first tap (or the match over for her)",
        )
    summary = server.get(f"/api/tables/{table_id}")
    seat = summary["seats"][0]
    assert (seat["name"], seat["ledger"]["bought_in"]) == (long_name, 100)  # hers throughout
    # R9b: while the bot played her seat she read her own cards, no other seat's
    own = set(_CARD.findall(" ".join(_own_cards(frames))))
    frame_cards = set(_CARD.findall(" ".join(_hand_parts(frames))))
    assert frame_cards <= own | _shown_cards(server, table_id), frame_cards - own
    over = summary["status"] == "over"
    if not over and seat["chips"] == 0:  # the bot lost her last chip first (R9)
        pass
    elif not over:  # she took her seat back, with chips: then she leaves
        assert sat_in and seat["stand_in"] is None and not seat["sitting_out"]
        page.get_by_role("button", name="Leave").click()
        page.locator("#d-confirm").get_by_role("button", name="Yes").click()
        page.wait_for_function(
            "() => document.querySelector('#turn').textContent"
            ".includes('match is over') || document.querySelector("
            "'#seat-note').textContent.includes('You left')",
            timeout=30_000,
        )
        wait_until(
            page,
            "() => document.querySelector('#turn').textContent.includes('match is over')",
            seconds=30,
            what="the match is over once every person has left",
        )
        # "the match is over" is said once, in the turn line
        assert page.locator("#seat-note").inner_text() in (
            "You left this table: you may watch and chat.",
            "",
        )
        summary = server.get(f"/api/tables/{table_id}")
        assert summary["status"] == "over" and summary["seats"][0]["left"]
    else:
        # R9: the match ended with every chip in one seat, hers (the bot won for her) or
        # another's (the bot lost her last chip, then the rest went to one seat)
        assert seat["chips"] in (0, 400)
    # the lobby lists only tables worth joining: not this one
    page.goto(server.base + "/")
    page.wait_for_function(
        "() => document.querySelector('#lobby-status').textContent "
        "|| document.querySelector('#tables li')"
    )
    assert page.locator("#tables").get_by_text("Coming and going").count() == 0
    ctx.close()


def test_broke_at_a_rebuy_table_on_a_phone(browser: Browser, server: Server) -> None:
    """Item 3: a person out of chips sees their place and their choices (rebuy, watch,
    leave); the rebuy shows in the ledger. Stacks of 3 chips and an ante of 1: Ana, who
    opens with a bet of 2 (all in), goes broke; the next deal waits for her choice (the
    rebuy window, docs/protocol.md "Between hands") until she says "Not now"; the bots,
    who never rebuy, then play on until
    one of them holds all 12 chips but hers and the table pauses for want of a second
    player: Ana is then second of 4 (tied at 0 chips, the first seat of the three)."""
    table = server.post(
        "/api/tables",
        {
            "name": "Short stacks",
            "seats": ["open", "heuristic", "heuristic", "heuristic"],
            "stack": 3,
            "rebuy": True,
            "turn_seconds": 0,
            "max_hands": 30,
            "rebuy_seconds": 600,  # the window ends by her choice, not by the clock
        },
    )
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(f"{server.base}/t/{table['id']}")
    page.locator("#join-name").fill("Ana")
    page.locator("#join-form").get_by_role("button").click()
    note = page.locator("#seat-note")
    done: list[str] = []
    broke = (
        "() => document.querySelector('#seat-note').textContent.includes('out of chips')"
        " && document.querySelector('#phase').textContent.startsWith('Paused')"
    )
    window = "() => document.querySelector('#countdown').textContent.endsWith('rebuy?')"
    asked = False
    while True:
        wait_until(
            page,
            "() => document.querySelector('#actions button') || document"
            ".querySelector('#turn').textContent.includes('match is over') || (" + broke + ")()"
            " || (" + window + ")()",
            seconds=20,
            what="Ana's move, the rebuy window, the table paused with her broke, or the end",
        )
        if page.evaluate(window):  # the next deal waits for her: a countdown
            assert not asked, "the window opened twice"
            asked = True
            assert re.fullmatch(
                r"Next hand in \d+ s: rebuy\?", page.locator("#countdown").inner_text()
            )
            buttons = page.locator("#seat-actions button")
            assert buttons.all_inner_texts() == ["Rebuy 3 chips", "Not now", "Leave"]
            assert _in_view(page, "#seat-actions button") and _in_view(page, "#countdown")
            _viewport_shot(page, "evening-rebuy-window.png")
            page.get_by_role("button", name="Not now").click()
            wait_until(
                page,
                "() => !(" + window + ")()",
                what="the window closed by her choice",
            )
            continue
        if not page.locator("#actions button").count():
            break
        move(page, done)
        assert len(done) < 40, done
    assert asked, "the next deal did not wait for the broke person's choice"
    assert note.inner_text() == (
        "You are out of chips: place 2 of 4. You may rebuy 3 chips, watch, or leave."
    )
    # one coherent screen: out of chips, the table paused until someone can play, no
    # "the next hand starts shortly", and no Sit out (nothing to sit out of)
    assert page.locator("#seat-actions button").all_inner_texts() == ["Rebuy 3 chips", "Leave"]
    assert page.locator("#turn").inner_text() == "You are out of chips"
    assert page.locator("#phase").inner_text() == "Paused until a player sits in or rebuys"
    assert "starts shortly" not in page.locator("body").inner_text()
    assert _in_view(page, "#seat-note") and _in_view(page, "#seat-actions button")
    assert page.locator("#ledger-rows tr").all_inner_texts() == ["Ana\t3\t0\t-3"]
    _viewport_shot(page, "evening-broke-phone.png")
    assert run_axe(page) == []
    for width, height in ((360, 640), (1280, 800)):  # the same choices, small and large
        resize(page, width, height)
        _viewport_shot(page, f"evening-broke-{width}.png")
        assert _in_view(page, "#seat-note") and _in_view(page, "#seat-actions button")
    resize(page, 390, 844)
    page.get_by_role("button", name="Rebuy 3 chips").click()
    wait_until(
        page,
        "() => !document.querySelector('#seat-note').textContent",
        what="the broke note gone after the rebuy",
    )
    wait_until(
        page,
        "() => document.querySelector('#ledger-rows th + td').textContent === '6'",
        what="the ledger showing 6 chips bought in",
    )
    # the next hand may have begun (her ante paid): chips and net move together
    name, bought, chips, net = page.locator("#ledger-rows tr").inner_text().split("\t")
    assert (name, bought) == ("Ana", "6") and int(net) == int(chips) - 6, (chips, net)
    assert errors == []
    ctx.close()


def test_pass_and_play_on_one_device_and_a_guided_first_hand(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    table_id = _create(
        page,
        server.base,
        player="Ana",
        name="One phone",
        pass_names="Ben",
        seats=["open", "open", "heuristic", "heuristic"],
        timer=0,
        hands=1,
    )
    assert page.url.endswith("?pass")
    cover = page.locator("#pass-cover")
    seen: dict[str, set[str]] = {"Ana": set(), "Ben": set()}
    covered: set[str] = set()
    done: list[str] = []
    shot = False
    while True:
        page.wait_for_function(
            "() => !document.querySelector('#pass-cover').hidden || "
            "document.querySelector('#actions button') || "
            "document.querySelector('#turn').textContent.includes('match is over')",
            timeout=20_000,
        )
        if "match is over" in page.locator("#turn").inner_text():
            break
        if cover.is_hidden():  # the same player again (a declaration, then a bet)
            who = "Ana" if page.locator("#seats").get_by_text("Ana (you)").count() else "Ben"
            seen[who] |= _faces(page, "#own-cards .card")
            move(page, done)
            continue
        # Covered: the next player's cards are nowhere in the page.
        covered |= _faces(page, "#seats .card, #own-cards .card")
        who = "Ana" if "Ana" in page.locator("#pass-title").inner_text() else "Ben"
        if not shot:
            shot = True
            _viewport_shot(page, "evening-pass-cover.png")
            assert run_axe(page) == []
        page.get_by_role("button", name=f"I am {who}: show my cards").click()
        page.wait_for_function("() => document.querySelector('#actions button')", timeout=20_000)
        assert page.locator("#seats").get_by_text(f"{who} (you)").count() == 1
        seen[who] |= _faces(page, "#own-cards .card")
        move(page, done)
    records = [read_record(p) for p in server.export(table_id, tmp_path / "export")]
    assert covered <= _shown_cards(server, table_id)  # while covered: no private card
    for who in ("Ana", "Ben"):
        assert seen[who], who
        assert seen[who] <= set().union(*(dealt_to(r, who) for r in records)), who
    # A guided first hand against bots, from the lobby.
    page.goto(server.base + "/")
    page.get_by_role("button", name="Learn: a guided first hand").click()
    # the table made and the seat taken (or the lobby's words for what went wrong)
    wait_until(
        page,
        "() => location.search === '?learn' || (document.querySelector('#learn-error')"
        " || {}).textContent",
        seconds=40,
        what="the guided hand's table",
    )
    assert page.url.endswith("?learn"), page.locator("#learn-error").inner_text()
    page.wait_for_function("() => document.querySelector('#actions button')", timeout=20_000)
    guide = page.locator("#guide-text").inner_text()
    assert guide.startswith(("First round", "Someone bet", "A bet stands")), guide
    screenshot(page, "evening-learn-phone.png")
    assert run_axe(page) == []
    assert errors == []
    ctx.close()


def _as_host(server: Server, table_id: str, host: str, path: str, body: dict[str, Any]) -> Any:
    """POST ``body`` to ``/api/tables/{table_id}{path}`` with the host's token; the JSON
    answer (None for 204). An HTTP error raises."""
    ask = urllib.request.Request(
        f"{server.base}/api/tables/{table_id}{path}",
        data=json.dumps(body).encode(),
        method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {host}"},
    )
    with urllib.request.urlopen(ask, timeout=5) as answer:
        return json.load(answer) if answer.status != 204 else None


def _host_sits(server: Server, table_id: str, host: str, name: str) -> str:
    """The host takes a seat at their approval table (their host token lets them in at
    once, docs/protocol.md "Private tables"); the seat's token."""
    token: str = _as_host(server, table_id, host, "/seats", {"name": name})["token"]
    return token


def _approval_table(server: Server, name: str) -> tuple[str, str, dict[str, Any]]:
    """A table whose joins wait for the host's yes (two open seats, a bot, 3 players at
    least, no timer): its id, its host token and the creation's answer."""
    made = server.post(
        "/api/tables",
        {
            "name": name,
            "seats": ["open", "open", "heuristic"],
            "approval": True,
            "rules": {"min_players": 3},
            "turn_seconds": 0,
        },
    )
    return made["id"], made["host_token"], made


def test_the_host_is_asked_before_anyone_joins(browser: Browser, server: Server) -> None:
    """docs/protocol.md "Private tables": at an ``approval`` table the asker's page says
    they wait; the host's page shows "Ben asks to join" (the server's words) with Accept
    and Refuse; Accept seats Ben, and his page plays the seat."""
    table_id, host, made = _approval_table(server, "Ask first")
    assert made["listed"] is False and made["approval"] is True
    ana = _host_sits(server, table_id, host, "Ana")
    ben = server.post(f"/api/tables/{table_id}/seats", {"name": "Ben"})
    assert ben["seat"] is None and ben["waiting"] is True
    ctx = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        asker = ctx.new_page()
        asker.goto(f"{server.base}/t/{table_id}#token={ben['token']}")
        notice = asker.locator("#notice")
        notice.wait_for(state="visible", timeout=10_000)
        assert notice.inner_text() == (
            "You asked to join as Ben: waiting for the host to let you in."
        )
        asker.screenshot(path=str(ARTIFACTS / "join-waiting-360x640.png"))
        hosting = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            hosting.goto(f"{server.base}/t/{table_id}#token={ana}&host={host}")
            prompt = hosting.locator("#host-requests li")
            prompt.wait_for(timeout=10_000)
            assert prompt.locator("span").inner_text() == "Ben asks to join"
            assert prompt.get_by_role("button", name="Refuse Ben").is_visible()
            hosting.screenshot(path=str(ARTIFACTS / "join-request-1280x800.png"))
            prompt.get_by_role("button", name="Accept Ben").click()
            hosting.locator("#host-requests li").wait_for(state="detached", timeout=10_000)
        finally:
            hosting.close()
        wait_until(
            asker,
            "() => document.querySelector('#notice').hidden",
            seconds=15,
            what="Ben's page seated once the host accepts",
        )
        assert server.get(f"/api/tables/{table_id}")["seats"][1]["name"] == "Ben"
        assert (
            asker.evaluate(f"JSON.parse(localStorage.getItem('primero.seat.{table_id}')).seat") == 1
        )
    finally:
        ctx.close()


def test_a_join_request_is_offered_no_seat_link_waiting_or_refused(
    browser: Browser, server: Server
) -> None:
    """docs/protocol.md "Private tables": Dan's token names no seat while his request
    waits, nor once the host refuses it, so his page offers neither the invitation nor
    "Play this seat on another device" (no ``#token=`` link); Ana, seated, has hers."""
    table_id, host, _made = _approval_table(server, "Ask me")
    ana = _host_sits(server, table_id, host, "Ana")
    dan = server.post(f"/api/tables/{table_id}/seats", {"name": "Dan"})
    assert dan["seat"] is None and dan["waiting"] is True
    ctx = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        asker = ctx.new_page()
        asker.goto(f"{server.base}/t/{table_id}#token={dan['token']}")
        notice = asker.locator("#notice")
        notice.wait_for(state="visible", timeout=10_000)
        assert asker.locator("#share").is_hidden()  # no "Invite your friends"
        assert asker.locator("#device-box").is_hidden()
        hosting = browser.new_page(viewport={"width": 1280, "height": 800})
        try:
            hosting.goto(f"{server.base}/t/{table_id}#token={ana}&host={host}")
            prompt = hosting.locator("#host-requests li")
            prompt.wait_for(timeout=10_000)
            hosting.locator("#b-share").click()
            assert hosting.locator("#device-box").is_visible()  # Ana's seat: her link
            prompt.get_by_role("button", name="Refuse Dan").click()
            hosting.locator("#host-requests li").wait_for(state="detached", timeout=10_000)
        finally:
            hosting.close()
        wait_until(
            asker,
            "() => document.querySelector('#notice').textContent.startsWith('The host did not')",
            seconds=15,
            what="Dan's page told the host refused",
        )
        asker.locator("#b-share").click()  # the table's address, yet no seat's link
        assert asker.locator("#share").is_visible()
        assert asker.locator("#device-box").is_hidden()
        assert "#token=" not in asker.locator("#share").inner_text()
        asker.screenshot(path=str(ARTIFACTS / "join-refused-360x640.png"))
    finally:
        ctx.close()


def test_a_phone_shows_your_whole_name_and_no_empty_panel_at_the_end(
    browser: Browser, server: Server
) -> None:
    """At 360x640 your seat reads "Benedetta (you)" uncut ("(you)" goes under the name
    when the seat is too narrow for both), the host's bot "plays for you", and once the
    match is over no empty panel stands under "Your cards" (nothing to say nor to do)."""
    made = server.post(
        "/api/tables",
        {
            "name": "Phone end",
            "seats": ["open", "heuristic", "heuristic", "heuristic", "heuristic", "heuristic"],
            "turn_seconds": 0,
            "max_hands": 2,
            "stack": 30,
        },
    )
    table_id, host = made["id"], made["host_token"]

    def hosted(path: str, body: dict[str, Any]) -> Any:
        return _as_host(server, table_id, host, path, body)

    # Paused from the start: no hand is dealt (and the match cannot end) before her seat
    # is kept warm, however long the page takes on a loaded machine.
    hosted("/pause", {})
    token = hosted("/seats", {"name": "Benedetta"})["token"]
    ctx = browser.new_context(viewport={"width": 360, "height": 640})
    try:
        page = ctx.new_page()
        page.goto(f"{server.base}/t/{table_id}#token={token}&host={host}")
        page.get_by_role("button", name="Sit out").wait_for(timeout=15_000)
        page.get_by_role("button", name="Sit out").dispatch_event("click")
        wait_until(
            page,
            "() => [...document.querySelectorAll('#host-actions button')]"
            ".some((b) => b.textContent === 'Let a bot play for Benedetta')",
            seconds=20,
            what="the host's button to let a bot play for her",
        )
        hosted("/seats/0/bot", {"kind": "heuristic"})
        wait_until(
            page,
            "() => document.querySelector('#seats').textContent.includes('a bot plays for you')",
            seconds=20,
            what="her seat: a bot plays for you",
        )
        # her seat, before the first hand: not "watching"
        assert page.locator("#own-cards").inner_text() == "No cards yet: no hand has been dealt."
        page.screenshot(path=str(ARTIFACTS / "phone-stand-in-360x640.png"))
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        hosted("/resume", {})
        wait_until(
            page,
            "() => /match is over/.test(document.querySelector('#turn').textContent)",
            seconds=60,
            what="the match over (two hands of bots)",
        )
        name = page.locator("#seats .seat-name").first
        assert name.inner_text().split() == ["Benedetta", "(you)"]
        text = page.locator("#seats .seat-name-text").first
        assert text.evaluate("(e) => e.scrollWidth <= e.clientWidth")  # not cut
        assert "a bot plays for you" in page.locator("#seats .seat").first.inner_text()
        assert page.locator("#seat-box").is_hidden()  # nothing to say nor to do
        # the whole page fits the phone's width (no sideways scrolling)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        screenshot(page, "phone-match-over-360x640.png")
    finally:
        ctx.close()
