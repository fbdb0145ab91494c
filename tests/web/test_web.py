"""The web table in a real Chromium against a real ``primero serve``.

One server subprocess for the module (temporary SQLite file, bot pause 0, the test-only
``PRIMERO_TEST_SEED`` so that the bots and the deals are the same on every run); Debian's
Chromium driven by Playwright. Cards seen in the page are checked against the hands
exported with ``primero hands export`` (R9b: a seat sees only its own cards until the
showdown).
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from primero.engine.actions import parse_action
from primero.engine.cards import parse_card
from primero.engine.history import read_record, replay
from primero.engine.state import HandState
from primero.engine.views import view
from primero.play.tablemodel.sentences import result_sentences, won_awards

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

from tests.webtools import (
    ARTIFACTS,
    AXE,
    SHARED_SEED,
    Server,
    resize,
    shared_browser,
    shared_server,
    wait_until,
)

pytestmark = pytest.mark.timeout(300)  # a stuck browser or server fails instead of hanging

#: The test-only seed: with it the first hand against three heuristic bots has an
#: exchange, a bet and a declaration for the person at seat 1 who plays by the simple
#: policy below, and the hand at VOTE_SEATS has two votes for them. A change to the bots
#: or the deal can move these moments: the tests then say which one is missing, and
#: another seed (try 1, 2, 3…) or other bots restore them.
SEED = 1

RANKS = {"ace": "A", "jack": "J", "queen": "Q", "king": "K"}
SUITS = {"clubs": "c", "diamonds": "d", "hearts": "h", "spades": "s"}

# Records every WebSocket the page opens, so a test can drop the connection.
TRACK_SOCKETS = """
(() => {
  const Native = window.WebSocket;
  window.__sockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.__sockets.push(this); }
  };
})();
"""


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    """The test process's shared server (seed 1: :data:`SEED`)."""
    assert SHARED_SEED == SEED
    return shared_server(request)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Browser:
    """The module's Chromium (webtools.shared_browser): a new context per page."""
    return shared_browser(request)


def card_text(name: str) -> str:
    """ "7 of hearts" -> "7h" (the accessible name of online.md back to card text)."""
    rank, _, suit = name.partition(" of ")
    return RANKS.get(rank, rank) + SUITS[suit]


def names(page: Page, selector: str) -> list[str]:
    """The accessible names of the cards (an image's label, or a card button's text)."""
    return list(
        page.eval_on_selector_all(
            selector,
            "els => els.map(e => e.getAttribute('aria-label') || "
            "e.querySelector('.visually-hidden').textContent)",
        )
    )


def own_cards(page: Page) -> list[str]:
    return [card_text(n) for n in names(page, "#own-cards .card")]


def visible_faces(page: Page) -> set[str]:
    """Every face-up card on the table and in the person's hand (not the last result)."""
    labels = names(page, "#seats .card, #own-cards .card")
    return {card_text(n) for n in labels if n != "hidden card"}


def version(page: Page) -> int:
    return int(page.evaluate("document.body.dataset.version || '-1'"))


def my_turn_or_over(page: Page, timeout: float = 15_000) -> bool:
    """Wait until the person has a move (True) or the match is over (False)."""
    page.wait_for_function(
        "() => document.querySelector('#actions button') || "
        "document.querySelector('#turn').textContent.includes('match is over')",
        timeout=timeout,
    )
    return bool(page.locator("#actions button").count() > 0)


def button(page: Page, pattern: str) -> Locator:
    return page.locator("#actions").get_by_role("button", name=re.compile(pattern))


def move(
    page: Page, done: list[str], *, keys: bool = False, raising: bool = False, seconds: float = 15
) -> str:
    """One move by a simple policy, by clicking (or with the keyboard shortcuts when
    ``keys``); waits until the server applied it.

    Accept a bet under vote (with ``keys``, refuse the first one); with ``raising``, raise
    by the least amount once; declare the lowest category allowed (the true one); exchange
    one card once per hand when allowed; open with a bet of 2 when possible; else call or
    check, stand pat, or fold.
    """
    before = version(page)
    kind: str
    if page.locator("#own-cards button.card").count():  # an exchange is open to this seat
        phase = page.locator("#phase").inner_text()
        # R4.3: no standing pat in the first round (default rules); R4.6: allowed after
        stand = button(page, "^Stand pat$").count()
        assert stand == (0 if "First round" in phase else 1), phase
    if button(page, "^Accept the bet").count():
        if keys and "refuse" not in done:  # refuse the first bet put to a vote (R8)
            page.keyboard.press("n")
            kind = "refuse"
        else:
            if keys:
                page.keyboard.press("y")
            else:
                button(page, "^Accept the bet").first.click()
            kind = "vote"
    elif raising and "raise" not in done and page.locator("#amount-r").count():
        amount = page.locator("#amount-r")
        low = int(amount.get_attribute("min") or 0)
        # "Raise to" over a bet of more than 0; over a bet of 0 the raise is said as a bet
        submit = page.locator("form:has(#amount-r)").get_by_role("button")
        assert re.fullmatch(rf"(Raise to|Bet) {low}", submit.inner_text()), submit.inner_text()
        submit.click()
        kind = "raise"
    elif button(page, "^Declare ").count():
        button(page, "^Declare ").first.click()
        kind = "declare"
    elif page.locator("#own-cards button.card").count() and "exchange" not in done:
        if keys:  # pick the first card with 1, exchange with e
            page.keyboard.press("1")
            assert button(page, "^Exchange 1 card$").is_enabled()
            page.keyboard.press("e")
        else:
            page.locator("#own-cards button.card").first.click()
            exchange = button(page, "^Exchange 1 card$")
            assert exchange.is_enabled()
            exchange.click()
        kind = "exchange"
    elif page.locator("#amount-b").count():
        amount = page.locator("#amount-b")
        low, high = int(amount.get_attribute("min") or 0), int(amount.get_attribute("max") or 0)
        value = str(min(max(2, low), high))
        if keys:  # b focuses the amount, Enter bets it
            page.keyboard.press("b")
            page.keyboard.type(value)
            page.keyboard.press("Enter")
        else:
            amount.fill(str(high + 1))  # over the legal range: no bet can be sent
            assert button(page, "^Bet ").is_disabled()
            assert button(page, "^Bet ").inner_text() == f"Bet ({low} to {high})"
            amount.fill(value)
            assert button(page, "^Bet ").inner_text() == f"Bet {value}"
            button(page, "^Bet ").click()
        kind = "bet"
    elif button(page, "^(Call|Check)").count():
        page.keyboard.press("c")  # the terminal table's key for call or check
        kind = "call"
    elif button(page, "^Stand pat$").count():
        button(page, "^Stand pat$").click()
        kind = "stand"
    else:
        button(page, "^Fold$").click()
        kind = "fold"
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) > {before}", timeout=seconds * 1000
    )
    done.append(kind)
    return kind


def create_table(
    page: Page, base: str, *, player: str, seats: list[str], timer: int = 0, listed: bool = False
) -> str:
    """Create a table through the lobby form (one hand); returns its id. The lobby is
    loaded unless the page shows it already. ``listed``: tick "List this table in the
    lobby" (a table is private otherwise: docs/protocol.md "Private tables")."""
    if page.url != base + "/":
        page.goto(base + "/")
    page.get_by_label("Table name").fill(f"{player}'s table")
    # the create form's own field: a waiting table in the lobby has a "Your name" of its
    # own (a join field), which may come first
    page.locator("#c-player").fill(player)
    page.get_by_label("Seats", exact=True).select_option(str(len(seats)))
    for i, kind in enumerate(seats):
        page.locator(f"#c-seat-{i}").select_option(kind)
    page.get_by_label("Turn timer").fill(str(timer))
    page.get_by_label("Hands in the match").fill("1")
    if listed:
        page.get_by_label("List this table in the lobby").check()
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/t/"))
    return str(page.url.rsplit("/", 1)[1])


def run_axe(page: Page) -> list[dict[str, Any]]:
    """axe-core in the page: the serious and critical violations. axe (650 kB) is loaded
    once per document: later checks of the same page only run it."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(_axe_source() + "\n;undefined")
    result = page.evaluate("axe.run(document).then(r => r.violations)")
    return [
        {"id": v["id"], "impact": v["impact"], "targets": [n["target"] for n in v["nodes"]]}
        for v in result
        if v["impact"] in ("serious", "critical")
    ]


@functools.cache
def _axe_source() -> str:
    return AXE.read_text(encoding="utf-8")


def screenshot(page: Page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return path


def record_hand(path: Path) -> tuple[Any, HandState]:
    record = read_record(path)
    state = HandState(record.players, record.starting_stacks, record.rules)
    for line in record.actions:
        state.apply(parse_action(line, len(record.players)))
    return record, state


def dealt_to(record: Any, name: str) -> set[str]:
    """Every card the record deals to ``name`` (first deal, replacements, second deal)."""
    label = f"p{list(record.players).index(name) + 1}"
    out: set[str] = set()
    for line in record.actions:
        words = line.split()
        if words[:3] == ["d", "dh", label]:
            out.update(str(parse_card(w)) for w in words[3:])
    return out


def test_a_person_plays_a_whole_hand_against_three_bots(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(TRACK_SOCKETS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.base + "/")
    assert run_axe(page) == []
    table_id = create_table(
        page, server.base, player="Ana", seats=["open", "heuristic", "heuristic", "heuristic"]
    )
    done: list[str] = []
    reloaded = dropped = shot = marks_seen = False
    while my_turn_or_over(page):
        if not shot and button(page, "^Declare ").count():
            # mid-hand, the person to declare: the pictures and the accessibility check
            shot = True
            screenshot(page, "table-desktop.png")
            resize(page, 390, 844)
            assert page.evaluate("document.documentElement.scrollWidth") <= 390
            screenshot(page, "table-phone.png")
            resize(page, 360, 740)  # the smallest phones
            assert page.evaluate("document.documentElement.scrollWidth") <= 360
            page.set_viewport_size({"width": 390, "height": 844})
            assert run_axe(page) == []
            page.set_viewport_size({"width": 1280, "height": 800})
            # Hints on a key press: four cards before the second exchange, so every way to
            # throw 0, 1 or 2 of them: 1 + 4 + 6 = 11 choices, one marked best.
            page.keyboard.press("h")
            hints = page.locator("#d-hints")
            hints.locator("table.odds").wait_for()
            assert hints.locator("tbody tr").count() == 11
            assert hints.locator("tbody tr.best").count() == 1
            assert run_axe(page) == []
            page.keyboard.press("Escape")
            page.keyboard.press("?")
            assert page.locator("#d-cheat").get_by_text("four of a rank").is_visible()
            assert run_axe(page) == []
            page.keyboard.press("Escape")
            assert not page.locator("#d-cheat").is_visible()
        declared = page.locator("#seats .seat:not(.to-act) .mark.declared")
        if not marks_seen and declared.count():
            # On the smallest phones the other seats' declarations stay on the table (they
            # decide the betting; found by a fresh-user pass: every mark was hidden there).
            marks_seen = True
            resize(page, 360, 740)
            assert all(m.is_visible() for m in declared.all())
            screenshot(page, "table-phone-declared.png")
            resize(page, 1280, 800)
        if done and not reloaded:  # a reload mid-hand keeps the seat and the cards
            reloaded = True
            cards = own_cards(page)
            page.reload()
            page.wait_for_function("() => document.querySelector('#actions button')")
            assert own_cards(page) == cards
            assert page.locator("#seats").get_by_text("Ana (you)").count() == 1
        if len(done) >= 2 and not dropped:
            # The connection drops just as the person moves: the page reconnects within its
            # first retries (the 30 s wake-up is only the fallback), resyncs, and sends the
            # unanswered move again with the same id; the server applies it once.
            dropped = True
            page.evaluate("window.__sockets.at(-1).close()")
            move(page, done, seconds=40)  # a reconnection, a resync and the move again
            assert page.evaluate("window.__sockets.length") == 2
            assert page.locator("#conn").text_content() == "connected"
            continue
        move(page, done)
    # with today's bots this seeded hand asks Ana for no vote (the vote buttons
    # are clicked in test_a_person_refuses_then_accepts_a_bet_on_a_phone)
    assert {"exchange", "bet", "declare"} <= set(done), done
    assert reloaded and dropped and shot and marks_seen and errors == []
    # The result: who won which pot, the hands shown; it agrees with the exported record.
    result = page.locator("#result")
    assert result.is_visible()
    (path,) = server.export(table_id, tmp_path / "export")
    record, state = record_hand(path)
    outcome = replay(record)
    result_of_hand = state.result
    assert result_of_hand is not None
    assert outcome.complete
    text = result.text_content() or ""
    # What the chips did, in the server's sentences for Ana's seat (sentences.py), one
    # paragraph each and in order; the client has no wording of its own for a pot.
    said = result_sentences(view(state, list(record.players).index("Ana")))
    assert said and page.locator("#result .award").all_text_contents() == said
    assert "The main pot of" not in text and "wins it" not in text
    chips_now = ", ".join(
        f"{name} {stack}"
        for name, stack in zip(record.players, result_of_hand.final_stacks, strict=True)
    )
    assert f"Chips now: {chips_now}" in text
    for award in won_awards(view(state, None)):  # each pot won is said, from the record
        assert f" {award.pot.amount} chip" in " ".join(said), (award, said)
    # The hands of the match from the server step through the same hand: one sentence per
    # record line, then who won each pot.
    page.keyboard.press("p")
    dialog = page.locator("#d-replay")
    assert dialog.is_visible()
    steps = len(record.actions) + len(result_of_hand.awards)
    dialog.get_by_text(f"Step {steps} of {steps}").wait_for()
    dialog.get_by_role("button", name="Start").click()
    assert f"Step 0 of {steps}" in (dialog.text_content() or "")
    assert run_axe(page) == []  # the result, the finished table and the viewer
    context.close()


def test_two_people_at_one_table_each_see_only_their_own_cards(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    ana_ctx = browser.new_context(viewport={"width": 390, "height": 844})
    ana_ctx.add_init_script(TRACK_SOCKETS)
    ben_ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ana, ben = ana_ctx.new_page(), ben_ctx.new_page()
    table_id = create_table(  # listed: Ben finds it in the lobby
        ana,
        server.base,
        player="Ana",
        seats=["open", "heuristic", "open", "random"],
        timer=600,
        listed=True,
    )
    ana.wait_for_function("() => document.body.dataset.version")
    # Ana's connection drops while Ben joins; back online, her page resyncs by itself.
    ana_ctx.set_offline(True)
    ana.evaluate("window.__sockets.at(-1).close()")
    ben.goto(server.base + "/")
    ben.locator(f"#join-{table_id}").fill("Ben")
    ben.locator(".table-item").filter(has=ben.locator(f"#join-{table_id}")).get_by_role(
        "button", name=re.compile(r"^Join ")
    ).click()
    ben.wait_for_url(re.compile(rf"/t/{table_id}$"))
    ana_ctx.set_offline(False)
    ana.wait_for_function("() => document.querySelector('#seats').textContent.includes('Ben')")
    # Chat is plain text: markup in a message is shown as typed, never made into elements.
    ben.get_by_label("Message").fill("<b>hello</b> Ana")
    ben.get_by_role("button", name="Send").click()
    line = ana.locator("#chat-list li").filter(has_text="hello")
    line.wait_for()
    assert line.text_content() == "Ben: <b>hello</b> Ana"
    assert ana.locator("#chat-list li b").count() == 1  # only the sender's name is bold
    watch_ctx = browser.new_context()
    watcher = watch_ctx.new_page()
    watcher.goto(f"{server.base}/t/{table_id}")
    watcher.wait_for_function("() => document.body.dataset.version")
    assert watcher.locator("#mine").is_hidden()  # a spectator has no cards and no moves
    seen: dict[str, set[str]] = {"Ana": set(), "Ben": set(), "watcher": set()}
    finals: dict[str, list[str]] = {}
    done: dict[str, list[str]] = {"Ana": [], "Ben": []}
    pages = {"Ana": ana, "Ben": ben}
    over = False
    while not over:
        over = True
        for who, page in pages.items():
            page.wait_for_function(
                "() => document.querySelector('#actions button') || "
                "document.querySelector('#turn').textContent.includes('match is over') || "
                "document.querySelector('#turn').textContent.includes(' to ')",
                timeout=15_000,
            )
            if "match is over" in (page.locator("#turn").text_content() or ""):
                continue
            over = False
            if page.locator("#actions button").count():  # mid-hand: this person's move
                seen[who] |= visible_faces(page)
                seen["watcher"] |= visible_faces(watcher)
                assert page.title().startswith("● Your turn")
                # the turn timer counts down (600 s at most)
                left = re.fullmatch(r"You have (\d+) s", page.locator("#countdown").inner_text())
                assert left is not None and 0 < int(left.group(1)) <= 600
                move(page, done[who], keys=who == "Ben", raising=who == "Ana")
    for who, page in pages.items():
        finals[who] = own_cards(page)
    # Ben's private link (#token=T) opens his seat on another device; the token leaves the
    # address at once (it stays in that browser's storage).
    link = ben.locator("#device-url").text_content() or ""
    assert link.startswith(f"{server.base}/t/{table_id}#token=")
    other_ctx = browser.new_context()
    other = other_ctx.new_page()
    other.goto(link)
    other.wait_for_function("() => document.body.dataset.version")
    assert other.url == f"{server.base}/t/{table_id}"
    assert other.locator("#seats").get_by_text("Ben (you)").count() == 1
    assert own_cards(other) == finals["Ben"]
    other_ctx.close()
    (path,) = server.export(table_id, tmp_path / "export")
    record, state = record_hand(path)
    for who in ("Ana", "Ben"):
        assert seen[who], f"{who} saw no cards"
        assert seen[who] <= dealt_to(record, who), who  # never another seat's card (R9b)
        seat = list(record.players).index(who)
        assert sorted(finals[who]) == sorted(str(c) for c in state.hands[seat])
    assert seen["watcher"] == set()  # before the showdown a spectator sees no card face
    # Both people played (Ben only with keys); which moments came depends on the bots.
    assert done["Ana"] and done["Ben"], done
    assert {"exchange", "call"} <= set(done["Ben"]), done  # keys: 1 and e; c
    # The turn sound is on by default (it sounds once the person has interacted); m mutes
    # it, visibly, and the choice survives a reload.
    sound = watcher.locator("#b-sound")
    assert sound.get_attribute("aria-pressed") == "true"
    watcher.keyboard.press("m")
    assert sound.get_attribute("aria-pressed") == "false"
    assert (sound.text_content() or "").startswith("Muted")
    watcher.reload()
    watcher.wait_for_function("() => document.body.dataset.version")
    assert sound.get_attribute("aria-pressed") == "false"
    assert watcher.locator("#turn").text_content() == "The match is over"
    watch_ctx.close()
    ana_ctx.close()
    ben_ctx.close()


def test_lobby_on_a_phone_has_no_horizontal_scrolling(browser: Browser, server: Server) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(server.base + "/")
    page.wait_for_function("() => document.querySelectorAll('#c-seats select').length === 4")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(page, "lobby-phone.png")
    resize(page, 360, 740)
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    response = page.request.get(server.base + "/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    # Bad input gets a clear error and creates nothing.
    before = len(server.get("/api/tables"))
    page.get_by_label("Stack (chips per player)").fill("0")
    page.get_by_role("button", name="Create table").click()
    assert page.locator("#create-error").text_content() == (
        "The stack must be a whole number of at least 1"
    )
    page.get_by_label("Stack (chips per player)").fill("100")
    page.locator("#c-player").fill("Ana")
    for i in range(4):
        page.locator(f"#c-seat-{i}").select_option("random")
    page.get_by_role("button", name="Create table").click()
    assert "at least one seat open" in (page.locator("#create-error").text_content() or "")
    assert len(server.get("/api/tables")) == before
    # Every card's accessible name as online.md spells it (R1: 40 cards, no 8, 9, 10).
    ranks = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
    suits = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}
    texts = [r + s for s in "cdhs" for r in "A234567JQK"]
    got = page.evaluate(
        "texts => import('/static/common.js').then(m => texts.map(m.cardName))", [*texts, "??"]
    )
    assert got == [f"{ranks.get(t[0], t[0])} of {suits[t[1]]}" for t in texts] + ["hidden card"]
    # A table that does not exist says so: a 404 page of its own, with the way back.
    answer = page.goto(server.base + "/t/nosuchtable")
    assert answer is not None and answer.status == 404
    assert page.get_by_role("heading", level=1).inner_text() == (
        "There is no table at this address"
    )
    assert run_axe(page) == []
    page.get_by_role("link", name="Back to the lobby").click()
    page.wait_for_url(server.base + "/")
    context.close()


#: The seats of the vote test: with SEED the first hand asks the person (seat 1, p1) to
#: vote twice on the bluffer's raises (R8): first on an all-in raise to 99 that everyone
#: refuses, then on the smaller raise to 50 that follows it.
VOTE_SEATS = ["open", "heuristic", "heuristic", "bluff"]

#: Shows the vote buttons' boxes: each inside the viewport, the page not scrolled.
ON_SCREEN = """() => {
  const boxes = [...document.querySelectorAll('#actions button.move')].map(b => {
    const r = b.getBoundingClientRect();
    return {name: b.textContent, top: r.top, bottom: r.bottom, left: r.left, right: r.right};
  });
  return {boxes, scrollY: window.scrollY, height: innerHeight, width: innerWidth};
}"""


def next_move(page: Page, before: int) -> None:
    """Wait until the server answered the last move (a newer version) and the person has
    a move again (an enabled move button)."""
    page.wait_for_function(
        f"() => Number(document.body.dataset.version) > {before} && "
        "document.querySelector('#actions button.move:not([disabled])')",
        timeout=15_000,
    )


def log_lines(page: Page) -> list[str]:
    return [t.strip() for t in page.locator("#log li").all_text_contents()]


def test_a_person_refuses_then_accepts_a_bet_on_a_phone(
    browser: Browser, server: Server, tmp_path: Path
) -> None:
    """R8 in the browser at 360×640: the vote buttons are on screen without scrolling;
    a double click on Refuse sends one vote; the refusal by all
    withdraws the raise and the bettor raises less; Accept makes that raise stand."""
    table = server.post(
        "/api/tables", {"name": "Vote", "seats": VOTE_SEATS, "max_hands": 1, "turn_seconds": 0}
    )
    table_id = table["id"]
    bluffer = table["seats"][3]["name"]
    first, second = table["seats"][1]["name"], table["seats"][2]["name"]
    context = browser.new_context(viewport={"width": 360, "height": 640})
    context.add_init_script(TRACK_SOCKETS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    sent: list[dict[str, Any]] = []  # the action frames the page sends
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framesent",
            lambda payload: (
                sent.append(json.loads(payload)) if '"action"' in str(payload) else None
            ),
        ),
    )
    page.goto(f"{server.base}/t/{table_id}")
    page.locator("#join-name").fill("Ana")
    page.locator("#join-form").get_by_role("button").click()
    next_move(page, -1)
    # The first round (R4.3): Ana (p1) exchanges her first card; the others act; the
    # bluffer's raise to 99 comes to a vote, Ana first (the voter after the bettor).
    before = version(page)
    page.locator("#own-cards button.card").first.click()
    button(page, "^Exchange 1 card$").click()
    next_move(page, before)
    refuse = button(page, "^Refuse the bet")
    accept = button(page, "^Accept the bet")
    assert page.locator("#turn").inner_text() == f"Your vote: {bluffer} raises to 99 chips"
    assert refuse.inner_text() == f"Refuse the bet (raise to 99 chips by {bluffer})"
    assert accept.inner_text() == f"Accept the bet (raise to 99 chips by {bluffer})"
    # Both vote buttons are on screen with nothing scrolled, on
    # the smallest phone (the screenshot), a larger one and a laptop; axe finds nothing.
    for width, height in ((390, 844), (1280, 800), (360, 640)):
        page.set_viewport_size({"width": width, "height": height})
        shown = page.evaluate(ON_SCREEN)
        assert shown["scrollY"] == 0 and shown["height"] == height, shown
        assert [b["name"] for b in shown["boxes"]] == [accept.inner_text(), refuse.inner_text()]
        for box in shown["boxes"]:
            assert 0 <= box["top"] < box["bottom"] <= shown["height"], shown
            assert 0 <= box["left"] < box["right"] <= shown["width"], shown
    # the bar says it is Ana's vote (a vote is not a turn, R8) and the pot: 4 antes, the
    # bet of 1 and its call (the raise under the vote is not in it)
    assert page.locator("#bar-info").inner_text() == "· your vote · Pot: 6 chips"
    assert run_axe(page) == []
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "vote-phone.png"))  # the viewport, as seen
    # A double click on Refuse: one vote leaves the page, no error is shown.
    before = version(page)
    refuse.dblclick()
    next_move(page, before)
    assert [f["line"] for f in sent] == ["x 6c", "n"], sent  # 6c: Ana's first card
    assert page.locator("#action-error").text_content() == ""
    # Everyone refuses: the raise to 99 is withdrawn and the bluffer raises less (R8).
    log = log_lines(page)
    refusals = [
        "You refuse the bet",
        f"{first} refuses the bet",
        f"{second} refuses the bet — refused by all: withdrawn (R8)",
        f"{bluffer} raises to 50",
    ]
    assert log[-4:] == refusals, log
    assert page.locator("#turn").inner_text() == f"Your vote: {bluffer} raises to 50 chips"
    # A raise under vote is not in the pot yet: 4 antes + the bet of 1 and its call.
    assert page.locator("#pot").inner_text() == "Pot: 6 chips"
    before = version(page)
    button(page, "^Accept the bet").click()
    next_move(page, before)
    assert log_lines(page)[-1] == "You accept the bet — the bet stands (R8)"
    assert page.locator("#pot").inner_text() == "Pot: 56 chips"  # the raise to 50 stands
    # The raise stands: Ana, who voted, still acts at her turn (R8): she calls 50.
    before = version(page)
    button(page, "^Call 50$").click()
    next_move(page, before)
    before = version(page)  # the declare round: the others folded; Ana and the bluffer
    button(page, "^Declare numerus$").click()
    next_move(page, before)
    before = version(page)
    # R5: the opener must bet, and 0 is a bet: the server names it "Check"; the bet
    # control starts at 1, and no "Bet 0" is offered
    assert button(page, "^Bet 0$").count() == 0
    assert page.locator("#amount-b").get_attribute("min") == "1"
    # An amount being typed survives a new state within the turn (here the reconnection's
    # resync): the field and its button keep it.
    page.locator("#amount-b").fill("7")
    assert button(page, "^Bet ").inner_text() == "Bet 7"
    sockets = page.evaluate("window.__sockets.length")
    page.evaluate("window.__sockets.at(-1).close()")
    wait_until(
        page,
        "n => window.__sockets.length > n && document.querySelector('#conn').textContent"
        " === 'connected' && document.querySelector('#actions button.move:not([disabled])')",
        sockets,
        what="the reconnection's resync",
        seconds=40,
    )
    assert page.locator("#amount-b").input_value() == "7"
    assert button(page, "^Bet ").inner_text() == "Bet 7"
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "check-button-phone.png"))
    button(page, "^Check$").click()
    next_move(page, before)
    before = version(page)
    button(page, r"^Call 49 \(all in\)$").click()  # the bluffer raised to 49: all in
    next_move(page, before)
    button(page, "^Stand pat$").click()
    page.locator("#result").wait_for(state="visible", timeout=15_000)
    # Ana wins every chip put in: 4 antes, 1 + 1 in the first bets, 50 + 50, 49 + 49.
    text = page.locator("#result").text_content() or ""
    # One pot (Ana and the bluffer both put in all 100 of theirs) and no uncalled bet:
    # the server's one sentence for Ana, with the hand she showed (sentences.py).
    page.locator("#result").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "result-phone.png"))  # the viewport, as seen
    awards = page.locator("#result .award").all_text_contents()
    assert len(awards) == 1 and re.fullmatch(r"You win 204 chips \([a-z]+ \d+\)", awards[0]), text
    assert f"Chips now: Ana 204, {first} 98, {second} 98, {bluffer} 0" in text, text
    assert errors == [] and page.locator("#action-error").text_content() == ""
    (path,) = server.export(table_id, tmp_path / "export")
    record, state = record_hand(path)
    votes = [line for line in record.actions if line.split()[1] in ("y", "n")]
    assert votes == ["p3 y", "p1 n", "p2 n", "p3 n", "p1 y"], record.actions  # Ana once each
    assert state.result is not None and list(state.result.final_stacks) == [204, 98, 98, 0]
    context.close()
