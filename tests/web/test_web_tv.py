"""The TV screen (``/t/<id>?screen``) at every moment of a match, in a real Chromium
against the shared ``primero serve``: it fits 1280×720 and 1920×1080 with no scrolling
and every panel inside the window, mid-hand, in the result's pause (the showdown and who
won what) and after the match (the final standings, the result, the ledger).

Tables of five and six seats (Ana, or Ana and Ben, and heuristic bots: the crowded
ovals, no seat box past the felt's edge), first with seats open (the invite box), a hand
pause of 600 s set at creation so the result stays while the
test looks (the server's waits are 0 otherwise), the money a chip is worth set so the
ledger has its money column. The people play hand 1 by clicking (tests/web/test_web.py's
``move``); the host ends the match in the pause. Each moment is awaited on the TV's own
state, never by a sleep. Screenshots in tests/artifacts/tv-*.png (looked at;
docs/images/web-tv-*.png show them). Cost: one hand a table.
"""

from __future__ import annotations

import urllib.request
from typing import TYPE_CHECKING, Any

import pytest

from tests.server_helpers import wait_for
from tests.web.test_web import move
from tests.webtools import ARTIFACTS, Server, resize, shared_browser, shared_server, wait_until

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.timeout(300)

SIZES = ((1280, 720), (1920, 1080))

#: Why the TV does not fit, as a list of sentences (empty: it fits). The page scrolls
#: neither way; every panel shown (the header, the invite box, the felt, the standings,
#: the result, the ledger, the log, the watch QR) is inside the window and shows all it
#: holds (the log alone gives up its oldest lines: its newest is in view); every seat box
#: is inside the felt's oval (the midpoints of its four sides inside the rounded
#: rectangle of ``border-radius: 50% / 40%``) and shows all it holds.
MISFITS = """() => {
  const out = [];
  const root = document.documentElement;
  if (root.scrollHeight > innerHeight) out.push(`page height ${root.scrollHeight}`);
  if (root.scrollWidth > innerWidth) out.push(`page width ${root.scrollWidth}`);
  const shown = (e) => e && e.getClientRects().length > 0
    && getComputedStyle(e).visibility !== "hidden";
  const panels = [".topbar", "#share", ".felt", "#standings", "#result", "#ledger", ".log",
    "#watch-qr"];
  for (const sel of panels) {
    const e = document.querySelector(sel);
    if (!shown(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.top < 0 || r.left < 0 || r.bottom > innerHeight + 0.5 || r.right > innerWidth + 0.5) {
      out.push(`${sel} at ${[r.left, r.top, r.right, r.bottom].map(Math.round)} is outside`);
    }
    if (sel !== ".log" && e.scrollHeight > e.clientHeight + 1) {
      out.push(`${sel} hides ${e.scrollHeight - e.clientHeight} px of its content`);
    }
  }
  const newest = document.querySelector("#log > li:last-child");
  const log = document.querySelector(".log").getBoundingClientRect();
  if (newest) {
    const r = newest.getBoundingClientRect();
    if (r.top < log.top || r.bottom > log.bottom + 0.5) out.push("the log's newest line is hidden");
  }
  const felt = document.querySelector(".felt");
  const f = felt.getBoundingClientRect();
  const cx = f.left + f.width / 2, cy = f.top + f.height / 2;
  const inside = (x, y) => {
    const dy = Math.max(0, Math.abs(y - cy) - 0.1 * f.height);
    const dx = Math.abs(x - cx);
    return (dx / (f.width / 2)) ** 2 + (dy / (0.4 * f.height)) ** 2 <= 1.0001;
  };
  for (const seat of document.querySelectorAll("#seats .seat")) {
    const r = seat.getBoundingClientRect();
    const name = seat.querySelector(".seat-name-text")?.textContent ?? "a seat";
    const sides = [[r.left, (r.top + r.bottom) / 2], [r.right, (r.top + r.bottom) / 2],
      [(r.left + r.right) / 2, r.top], [(r.left + r.right) / 2, r.bottom]];
    if (!sides.every(([x, y]) => inside(x, y))) {
      const box = [r.left, r.top, r.right, r.bottom].map(Math.round);
      out.push(`${name}'s box at ${box} pokes past the felt`);
    }
    if (seat.scrollHeight > seat.clientHeight + 1) out.push(`${name}'s box hides its content`);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def server(request: pytest.FixtureRequest) -> Server:
    """The test process's shared server."""
    return shared_server(request)


@pytest.fixture(scope="module")
def browser(request: pytest.FixtureRequest) -> Browser:
    """The module's Chromium (webtools.shared_browser): a new context per page."""
    return shared_browser(request)


def _host(server: Server, path: str, token: str) -> None:
    """A host's POST with no body (``/end``): 204 expected."""
    request = urllib.request.Request(
        server.base + path, method="POST", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=5) as answer:
        assert answer.status == 204, answer.status


def _check(tv: Page, moment: str) -> None:
    """The TV at both sizes at this ``moment`` (the screenshots' name): it fits."""
    ARTIFACTS.mkdir(exist_ok=True)
    for width, height in SIZES:
        resize(tv, width, height)
        tv.screenshot(
            path=str(ARTIFACTS / f"tv-{moment}-{width}x{height}.png"), animations="disabled"
        )
        misfits: list[str] = tv.evaluate(MISFITS)
        assert misfits == [], (moment, width, height, misfits)


@pytest.mark.parametrize(
    ("people_names", "seats"),
    [(("Ana",), 5), pytest.param(("Ana", "Ben"), 6, marks=pytest.mark.soak)],
    ids=["5-seats", "6-seats"],
)
def test_the_tv_fits_every_moment_of_a_match(
    browser: Browser, server: Server, people_names: tuple[str, ...], seats: int
) -> None:
    made: dict[str, Any] = server.post(
        "/api/tables",
        {
            "name": "Friday night",
            "seats": [*["open"] * len(people_names), *["heuristic"] * (seats - len(people_names))],
            "turn_seconds": 0,
            "hand_pause_seconds": 600,
            "chip_value": "0.10",
            "currency": "EUR",
        },
    )
    table_id, host = made["id"], made["host_token"]
    url = f"{server.base}/t/{table_id}"
    errors: list[str] = []
    tv_ctx = browser.new_context(viewport={"width": 1280, "height": 720})
    tv = tv_ctx.new_page()
    tv.on("pageerror", lambda e: errors.append(str(e)))
    tv.goto(f"{url}?screen")
    # Before the match: the invite box with its QR code, no watch QR yet.
    wait_until(
        tv,
        "() => !document.querySelector('#share').hidden"
        " && document.querySelector('#share-qr').naturalWidth > 0",
        what="the TV's invite box",
    )
    assert tv.locator("#watch-qr").is_hidden()
    _check(tv, f"invite-{seats}")
    people: dict[str, Page] = {}
    for name in people_names:
        token = server.post(f"/api/tables/{table_id}/seats", {"name": name})["token"]
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
        people[name] = ctx.new_page()
        people[name].on("pageerror", lambda e: errors.append(str(e)))
        people[name].goto(f"{url}#token={token}")
    # Mid-hand: a person to act in hand 1, the bots waiting (no timer).
    to_act = "() => document.querySelector('#actions button')"
    wait_until(
        tv,
        "n => /^(Ana|Ben) to act$/.test(document.querySelector('#turn').textContent)"
        " && document.querySelectorAll('#seats .seat').length === n",
        seats,
        what="the TV showing a person to act",
    )
    assert tv.locator("#share").is_hidden() and tv.locator("#watch-qr").is_visible()
    _check(tv, f"hand-{seats}")
    # The result's pause: Ana and Ben play the hand out; its result stays 600 s.
    pause = (
        "() => !document.querySelector('#result').hidden"
        " && document.querySelector('#countdown').textContent.startsWith('Next hand in')"
    )
    done: dict[str, list[str]] = {name: [] for name in people}

    def moving() -> str | None:
        """The person with a move now, "" once the result stays, else None."""
        if tv.evaluate(f"({pause})()"):
            return ""
        return next((n for n, p in people.items() if p.evaluate(f"({to_act})()")), None)

    for _ in range(60):
        wait_for(lambda: moving() is not None, 20, "a person's move or the hand's result")
        who = moving()
        if who == "":
            break
        assert who is not None
        move(people[who], done[who])
    else:
        raise AssertionError(f"hand 1 did not end after the moves {done}")
    assert tv.locator("#result-title").inner_text() == "Result of hand 1"
    assert tv.locator("#result-body .award").count() >= 1
    _check(tv, f"result-{seats}")
    # The host ends the match in the pause: standings, the last result and the ledger.
    _host(server, f"/api/tables/{table_id}/end", host)
    wait_until(
        tv,
        "() => document.body.classList.contains('over')"
        " && !document.querySelector('#standings').hidden"
        " && !document.querySelector('#settle').hidden",
        what="the TV after the match",
    )
    assert tv.locator("#standings-rows li").count() == seats
    assert tv.locator("#ledger-rows tr").count() == len(people)  # the people's rows
    assert tv.locator("#result").is_visible() and tv.locator("#watch-qr").is_hidden()
    _check(tv, f"over-{seats}")
    assert errors == []
    for page in [*people.values(), tv]:
        page.context.close()
