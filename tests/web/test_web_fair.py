"""The browser's verifier of fair deals (src/primero/web/fairverify.js, WebCrypto) gives
the answers of ``primero verify`` on the same records: the known-answer vectors, random
hands (reshuffles and void deals among them), and every kind of tampering; and "Verify
this match" in the hands viewer of a finished fair table, looked at on a phone and a
laptop (docs/fair-deals.md)."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from primero.bots.random import RandomBot
from primero.engine.fairdeal import FairDealer, commitment
from primero.engine.fairverify import proof_fields, verify_record
from primero.engine.history import HandRecord, dump_record, record_of
from primero.engine.match import play_hand
from primero.engine.rules import Rules
from primero.engine.state import HandState
from tests.webtools import ARTIFACTS, Server, shared_browser, shared_server


@pytest.fixture(name="server", scope="module")
def server_fixture(request: pytest.FixtureRequest) -> Server:
    """The shared server (webtools.shared_server): its pages serve fairverify.js."""
    return shared_server(request)


@pytest.fixture(name="browser", scope="module")
def browser_fixture(request: pytest.FixtureRequest) -> Any:
    """The module's Chromium (webtools.shared_browser)."""
    return shared_browser(request)


VERIFY = (
    "async (records) => { const m = await import('/static/fairverify.js'); "
    "const out = []; for (const r of records) out.push(await m.verifyRecord(r)); return out; }"
)


SEED1 = bytes(range(32)).hex()

pytestmark = pytest.mark.timeout(300)  # a stuck server or browser fails, not hangs
SEED2 = "1df3939630cdc1805fcf40b611d91df95e6149d92e403c9aa7eb095fd57b4571"
COMMIT1 = "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"
# docs/fair-deals.md "Known-answer vectors"
DECK1 = (
    "2s Jd Js 4c Ks 6c 6d 7d 6h Jh 2c 2d 5s 4h 3d Qs Qd 2h Ad Qc "
    "7c Kc Kh 5c 4s 5d Qh 7s Ac 7h Jc 3s As Ah 5h 3c 3h Kd 4d 6s"
)
DECK2 = (
    "3c 2c Ah 7c Qs 5d Jh 3s 5h 7h 7d 5c 4c 3d Qh 6s Kh 5s Js 6c "
    "Ac 3h Qc Ks 4s 6d Ad Jd 2d 4h 7s Qd 2s Kd 4d Kc Jc 2h As 6h"
)
VECTORS = """async ([s1, s2]) => {
  const m = await import('/static/fairverify.js');
  const d2 = ['primero-default', 'primero-default', "Lucrezia's seed ~ 42"];
  return [await m.commitmentOf(s1), (await m.deckOrder(s1, ['alpha', 'beta'], 1)).join(' '),
          (await m.deckOrder(s2, d2, 7)).join(' ')];
}"""


def records(count: int) -> list[HandRecord]:
    """Random fair hands of 2 to 8 players, and tampered copies of some."""
    rng = random.Random(77)
    out: list[HandRecord] = []
    for number in range(1, count + 1):
        n = rng.choice([2, 4, 6, 8, 8, 8])
        seed = rng.randbytes(32)
        seeds = [f"c{rng.randrange(10**6)}" for _ in range(n)]
        state = HandState([f"P{i}" for i in range(n)], [20] * n, Rules(max_players=8))
        bots = [RandomBot(seed=rng.randrange(10**9)) for _ in range(n)]
        dealer = FairDealer(seed, seeds, number)
        play_hand(state, dealer, bots)
        fair = proof_fields(commitment(seed), seeds, number, seed)
        out.append(record_of(state, extra={"fair": fair}))
    return out


def tampered(record: HandRecord, rng: random.Random) -> list[tuple[str, HandRecord]]:
    """Copies of ``record``, each with one kind of tampering, and the verdict it must get."""
    lines = list(record.actions)
    fair = record.extra["fair"]
    deals = [i for i, line in enumerate(lines) if line.startswith("d ")]
    i = rng.choice(deals)
    words = lines[i].split()
    card = [*lines]
    other = next(c for c in ("Ks", "Ah", "7d", "2c") if c not in words)
    card[i] = " ".join([*words[:3], other, *words[4:]])
    pairs = [j for j in deals if len(lines[j].split()) > 4]
    swap = [*lines]
    w = lines[pairs[0]].split()
    swap[pairs[0]] = " ".join([*w[:3], w[4], w[3], *w[5:]])
    first = fair["server_seed"][0]
    wrong = dict(fair, server_seed=("1" if first == "0" else "0") + fair["server_seed"][1:])
    seeds = list(fair["client_seeds"])
    seeds[-1] += "x"
    hidden = {k: v for k, v in fair.items() if k != "server_seed"}
    cases = [
        ("differs", card, fair),
        ("differs", swap, fair),
        ("differs", lines, wrong),
        ("differs", lines, dict(fair, client_seeds=seeds)),
        ("not verifiable", lines, hidden),
    ]
    out = [
        (
            want,
            HandRecord(record.players, record.starting_stacks, x, record.rules, None, {"fair": f}),
        )
        for want, x, f in cases
    ]
    out.append(
        ("not verifiable", HandRecord(record.players, record.starting_stacks, lines, record.rules))
    )
    return out


def reshuffle_tampered(record: HandRecord) -> HandRecord | None:
    """``record`` with the last card of the deal line during which the stock ran out
    (R8b: a card of the reshuffled discards) swapped with the next deal line's first card,
    when the hand had such a line, no void deal and a deal line after it; else None."""
    lines, dealt = list(record.actions), 0
    for i, line in enumerate(lines):
        if line.startswith("d "):
            dealt += len(line.split()) - 3
            if dealt > 40:
                later = [j for j in range(i + 1, len(lines)) if lines[j].startswith("d ")]
                if not later:
                    return None
                words, after = lines[i].split(), lines[later[0]].split()
                words[-1], after[3] = after[3], words[-1]
                lines[i], lines[later[0]] = " ".join(words), " ".join(after)
                fair = record.extra["fair"]
                return HandRecord(
                    record.players, record.starting_stacks, lines, record.rules, None,
                    {"fair": fair},
                )  # fmt: skip
    return None


def as_json(record: HandRecord) -> Any:
    return json.loads(dump_record(record, "json"))


def test_browser_and_python_agree(browser: Any, server: Server) -> None:
    recs = records(300)
    wants = ["verified"] * len(recs)
    rng = random.Random(3)
    reshuffled = [t for t in map(reshuffle_tampered, recs) if t is not None]
    assert len(reshuffled) >= 3, len(reshuffled)
    recs.extend(reshuffled)
    wants.extend(["differs"] * len(reshuffled))
    for r in recs[:60]:
        for want, copy in tampered(r, rng):
            recs.append(copy)
            wants.append(want)
    page = browser.new_page()
    try:
        page.goto(server.base + "/")
        vectors = page.evaluate(VECTORS, [SEED1, SEED2])
        assert vectors == [COMMIT1, DECK1, DECK2]
        got = page.evaluate(VERIFY, [as_json(r) for r in recs])
    finally:
        page.close()
    for r, want, g in zip(recs, wants, got, strict=True):
        e = verify_record(r)
        assert e.status == want, dump_record(r)
        assert (g["status"], g["reason"], g["line"]) == (e.status, e.reason, e.line), dump_record(r)
    # among the random hands: reshuffles of the discards (R8b) and void deals (R4.3)
    dealt = [sum(len(x.split()) - 3 for x in r.actions if x.startswith("d ")) for r in recs[:300]]
    assert sum(d > 40 for d in dealt) >= 5


@pytest.mark.soak
def test_verify_this_match(browser: Any, tmp_path: Path) -> None:
    srv = Server(tmp_path, seed=None)
    try:
        table = srv.post(
            "/api/tables", {"seats": ["random"] * 4, "max_hands": 2, "turn_seconds": 0}
        )
        deadline = time.monotonic() + 60
        while srv.get(f"/api/tables/{table['id']}")["status"] != "over":
            assert time.monotonic() < deadline, "the bots' match did not end within 60 s"
            time.sleep(0.2)
        ARTIFACTS.mkdir(exist_ok=True)
        for width, height in ((360, 640), (1280, 800)):
            page = browser.new_page(viewport={"width": width, "height": height})
            try:
                page.goto(f"{srv.base}/t/{table['id']}")
                page.wait_for_selector("#fair-line .fair", timeout=10_000)
                assert table["fair"]["commitment"] in (page.text_content("#fair-line") or "")
                assert "the seed is revealed" in page.inner_text("#fair-line")
                page.screenshot(path=str(ARTIFACTS / f"fair-table-{width}.png"))
                page.click("#b-replay")
                page.click("#b-verify")
                page.wait_for_selector(".verify .ok", timeout=20_000)
                text = page.inner_text(".verify")
                assert "All 2 hands verified" in text
                assert text.count(": verified: ") == 2
                page.locator(".verify").scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"fair-verify-{width}.png"))
            finally:
                page.close()
        # the lobby and the join form of a waiting table
        waiting = srv.post(
            "/api/tables",
            {"seats": ["open", "random", "random", "random"], "turn_seconds": 0, "listed": True},
        )
        for width, height in ((360, 640), (1280, 800)):
            page = browser.new_page(viewport={"width": width, "height": height})
            try:
                page.goto(f"{srv.base}/")
                page.wait_for_selector(".table-item .fair", timeout=10_000)
                fair = page.locator(".table-item .fair").first
                assert waiting["fair"]["commitment"] in (fair.text_content() or "")
                assert "revealed when the match ends" in fair.inner_text()
                page.click(".seed-box summary")
                seed = page.input_value(".seed-box input")
                assert len(seed) == 32 and all(c in "0123456789abcdef" for c in seed)
                page.locator(".table-item .fair").first.scroll_into_view_if_needed()
                page.screenshot(path=str(ARTIFACTS / f"fair-lobby-{width}.png"))
            finally:
                page.close()
    finally:
        srv.stop()
