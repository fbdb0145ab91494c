"""Game night's server side in-process (FastAPI's TestClient, SQLite and PostgreSQL):
host controls, sit out / sit in / leave, stale moves, the hands of the match (online.md
"Tables", "sit_out", "leave", "action")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from primero.engine.history import parse_record
from primero.server import Settings, create_app
from primero.server.actor import Command
from primero.server.models import HandRecordOut
from primero.server.settings import TEST_SEED_ENV
from primero.store import Store
from tests.client_policy import choose_line

# the fixtures ``client`` and ``db_url`` (SQLite and PostgreSQL)
from tests.server_helpers import (  # noqa: F401
    create_table,
    db_url_fixture,
    join_table,
    post_table,
    thread_client_fixture,
    until,
)

pytestmark = pytest.mark.timeout(120)

#: Bots pause 5 ms (the ``client`` fixture): a test thread slowed by a busy machine still
#: reads every state before the server's bound on unsent frames drops it as a client that
#: stopped reading.
BOT_PAUSE = 0.005
BOTS3 = ["open", "random", "random", "random"]
_CARD = re.compile(r"\b[A2-7JQK][cdhs]\b")


def _play_until(ws: Any, pred: Any, limit: int = 3000) -> dict[str, Any]:
    """Read states, answering every turn of this seat by the simple policy (with the
    state's version), until ``pred(state)``."""
    acted: set[int] = set()
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] != "state":
            continue
        if pred(m):
            return m
        if m["table"]["status"] == "over":  # nothing more will come: fail now, not hang
            raise AssertionError(f"the match ended before the awaited state: {m['table']}")
        if m["legal"] is not None and m["version"] not in acted:
            acted.add(m["version"])
            ws.send_json(
                {
                    "type": "action",
                    "id": f"a{m['version']}",
                    "line": choose_line(m),
                    "version": m["version"],
                }
            )
    raise AssertionError("the awaited state never came")


def _act(ws: Any, m: dict[str, Any]) -> None:
    """Answer ``m`` when it is this seat's turn (a state taken by :func:`_play_until`)."""
    if m["legal"] is not None:
        ws.send_json(
            {
                "type": "action",
                "id": f"b{m['version']}",
                "line": choose_line(m),
                "version": m["version"],
            }
        )


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_the_host_pauses_resumes_changes_the_timer_ends_and_starts_a_rematch(
    client: TestClient,
) -> None:
    t, host = post_table(
        client,
        {"seats": BOTS3, "turn_seconds": 0, "name": "Friday", "chip_value": "0.05"},
    )
    tid = t["id"]
    assert (t["chip_value"], t["currency"], t["hand_pause_seconds"]) == ("0.05", None, 0)
    assert client.post(f"/api/tables/{tid}/pause").status_code == 401
    assert client.post(f"/api/tables/{tid}/pause", headers=_auth("nope")).status_code == 403
    assert (
        client.post(
            f"/api/tables/{tid}/pause", headers={"Authorization": f"bearer {host}"}
        ).status_code
        == 204
    )
    assert client.post(f"/api/tables/{tid}/resume", headers=_auth(host)).status_code == 204
    ana = join_table(client, tid, "Ana")
    with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
        _play_until(ws, lambda m: m["hand"] is not None and m["legal"] is not None)
        assert client.post(f"/api/tables/{tid}/pause", headers=_auth(host)).status_code == 204
        assert client.get(f"/api/tables/{tid}").json()["pending"] == "pause"
        paused = _play_until(ws, lambda m: m["table"]["status"] == "paused")
        assert paused["table"]["paused_by"] == "host" and paused["table"]["hands_played"] == 1
        assert paused["deadline"] is None
        r = client.patch(f"/api/tables/{tid}", json={"turn_seconds": 90000}, headers=_auth(host))
        assert r.status_code == 400 and "0 to 86400" in r.json()["detail"]
        r = client.patch(f"/api/tables/{tid}", json={"turn_seconds": 45}, headers=_auth(host))
        assert r.status_code == 200 and r.json()["turn_seconds"] == 45
        assert client.post(f"/api/tables/{tid}/resume", headers=_auth(host)).status_code == 204
        _play_until(ws, lambda m: m["hand"] is not None and m["hand"]["number"] == 2)
        assert client.post(f"/api/tables/{tid}/end", headers=_auth(host)).status_code == 204
        over = _play_until(ws, lambda m: m["table"]["status"] == "over")
        assert over["table"]["hands_played"] == 2  # the hand in progress played to its end
    assert client.post(f"/api/tables/{tid}/pause", headers=_auth(host)).status_code == 409
    r = client.post(f"/api/tables/{tid}/rematch", headers=_auth(host))
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["id"] != tid and new["name"] == "Friday" and new["turn_seconds"] == 45
    assert new["chip_value"] == "0.05"  # the host's settings carry over
    assert [s["kind"] for s in new["seats"]] == ["person", "random", "random", "random"]
    assert client.get(f"/api/tables/{tid}").json()["next_table"] == new["id"]
    assert client.post(f"/api/tables/{tid}/rematch", headers=_auth(host)).status_code == 409
    # Ana's token holds her seat at the rematch; the host token hosts it too.
    with client.websocket_connect(f"/ws/tables/{new['id']}?token={ana}") as ws:
        m = _play_until(ws, lambda m: m["hand"] is not None)
        assert m["hand"]["seat"] is not None
    assert client.post(f"/api/tables/{new['id']}/pause", headers=_auth(host)).status_code == 204


def test_sit_out_sit_in_leave_and_a_stale_click(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seeded deals and bots (R10): the random bots must not all go broke before Ana,
    # back from sitting out, is dealt in again (with secrets' seeds they sometimes did).
    monkeypatch.setenv(TEST_SEED_ENV, "1")
    t, _host = post_table(client, {"seats": BOTS3, "turn_seconds": 0})
    tid = t["id"]
    ana = join_table(client, tid, "Ana")
    with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
        turn = _play_until(ws, lambda m: m["legal"] is not None)
        v = turn["version"]
        # A click chosen in an older state (a double click): refused as stale, no words
        # of record notation, then the current state; nothing changed.
        ws.send_json({"type": "action", "id": "old", "line": "f", "version": v - 1})
        err = ws.receive_json()
        assert err["type"] == "error" and err["stale"] is True and err["id"] == "old"
        assert not re.search(r"'p\d", err["message"])
        again = ws.receive_json()
        assert again["type"] == "state" and again["version"] == v
        # A move not allowed now is said in words (never "'p1 y' is not allowed").
        if not turn["legal"]["vote"]:
            ws.send_json({"type": "action", "id": "y1", "line": "y", "version": v})
            err = ws.receive_json()
            assert err["message"].startswith("you cannot accept the bet now: you may "), err
        ws.send_json({"type": "sit_out"})
        m = _play_until(ws, lambda m: m["table"]["seats"][0]["sitting_out"])
        assert m["version"] > v
        # her turn is still to play (the bots wait for it): she sits out from the next hand
        assert m["seat_note"] == "You will sit out from the next hand: you still play this one."
        _act(ws, m)
        # the next hand is dealt without her: she reads the public view
        m = _play_until(
            ws,
            lambda m: (
                m["table"]["status"] == "paused"
                or (m["hand"] is not None and m["hand"]["number"] == 2)
            ),
        )
        if m["table"]["status"] == "paused":  # the bots went broke: too few to deal in
            assert m["table"]["paused_by"] == "players"
        else:
            assert m["hand"]["seat"] is None and m["hand"]["hand"] == [] and m["legal"] is None
        assert (
            m["table"]["seats"][0]["chips"]
            == m["table"]["seats"][0]["ledger"]["bought_in"]
            + m["table"]["seats"][0]["ledger"]["net"]
        )
        assert m["seat_note"] == "You are sitting out: you are not dealt in until you sit in."
        ws.send_json({"type": "sit_in"})
        m = _play_until(ws, lambda m: m["hand"] is not None and m["hand"]["seat"] is not None)
        assert not m["table"]["seats"][0]["sitting_out"] and m["seat_note"] is None
        _act(ws, m)
        ws.send_json({"type": "leave"})
        m = _play_until(ws, lambda m: m["table"]["status"] == "over")
        seat = m["table"]["seats"][0]
        assert seat["left"] and m["hand"]["seat"] is None  # the public view from then on
        assert seat["ledger"]["bought_in"] == 100
        assert seat["ledger"]["net"] == seat["chips"] - 100
        ws.send_json({"type": "sit_in"})
        ws.send_json({"type": "resync", "since": 0})
        # an answer to a move sent late (an error, then its state) may come first
        replies = [ws.receive_json()]
        while "not in play" not in replies[-1].get("message", "") and len(replies) < 8:
            replies.append(ws.receive_json())
        assert "not in play" in replies[-1].get("message", ""), replies


def test_a_seat_given_up_while_waiting_is_open_again(client: TestClient) -> None:
    t, _host = post_table(client, {"seats": ["open", "open", "random", "random"]})
    ana = join_table(client, t["id"], "Ana")
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={ana}") as ws:
        ws.receive_json()
        ws.send_json({"type": "leave"})
        m = ws.receive_json()
        assert m["table"]["seats"][0]["kind"] == "open" and m["table"]["status"] == "waiting"
    url = f"/ws/tables/{t['id']}?token={ana}"
    with pytest.raises(WebSocketDisconnect), client.websocket_connect(url) as ws:
        ws.receive_json()  # the token holds no seat any more


def test_the_hands_come_from_the_server_as_each_seat_saw_them(
    client: TestClient, db_url: str
) -> None:
    t, _host = post_table(
        client, {"seats": ["open", "random", "open", "random"], "turn_seconds": 0, "max_hands": 1}
    )
    tid = t["id"]
    ana, ben = join_table(client, tid, "Ana"), join_table(client, tid, "Ben")
    url = f"/ws/tables/{tid}?token="
    with (
        client.websocket_connect(url + ana) as wa,
        client.websocket_connect(url + ben) as wb,
        client.websocket_connect(f"/ws/tables/{tid}") as spectator,
    ):
        people = {"Ana": wa, "Ben": wb}
        while True:  # the spectator says whose turn it is; that person reads and acts
            m = spectator.receive_json()
            if m["type"] != "state":
                continue
            if m["table"]["status"] == "over":
                break
            hand = m["hand"]
            if hand is None or not (hand["to_act"] or "").startswith("p"):
                continue
            name = hand["players"][int(hand["to_act"][1:]) - 1]
            if name not in people:
                continue
            ws = people[name]
            theirs = ws.receive_json()
            while theirs.get("version", -1) < m["version"]:
                theirs = ws.receive_json()
            if theirs["legal"] is not None and theirs["version"] == m["version"]:
                ws.send_json(
                    {
                        "type": "action",
                        "id": f"v{m['version']}",
                        "line": choose_line(theirs),
                        "version": m["version"],
                    }
                )
    listed = client.get(f"/api/tables/{tid}/hands").json()
    assert [h["number"] for h in listed] == [1]
    assert sum(p["amount"] for p in listed[0]["pots"]) > 0
    store = Store(db_url)
    try:
        ((_tid, _n, text),) = list(store.finished_hands(tid))
    finally:
        store.close()
    record = parse_record(text)
    assert "seed" not in client.get(f"/api/tables/{tid}/hands/1").text
    public = client.get(f"/api/tables/{tid}/hands/1").json()
    shown = {c for s in public["shown"] if s for c in s["cards"]}
    assert set(_CARD.findall(" ".join(public["actions"] + public["events"]))) == set()
    for name, token in (("Ana", ana), ("Ben", ben)):
        hand = client.get(f"/api/tables/{tid}/hands/1", headers=_auth(token)).json()
        seat = list(record.players).index(name)
        label = f"p{seat + 1}"
        mine: set[str] = set()
        for line in record.actions:
            words = line.split()
            if words[:3] == ["d", "dh", label] or words[:2] == [label, "x"]:
                mine.update(w for w in words if _CARD.fullmatch(w))
        seen = set(_CARD.findall(" ".join(hand["actions"])))
        assert seen and seen <= mine, (name, seen - mine)  # never another seat's card
        assert hand["seat"] == label and hand["final_stacks"] == public["final_stacks"]
        assert len(hand["actions"]) == len(record.actions)
        assert hand["own_cards"][-1] == [] or set(hand["own_cards"][-1]) <= mine | shown
        assert set(hand) == set(HandRecordOut.model_fields)  # the response model's fields
        assert hand["result"] and hand["events"][-len(hand["result"]) :] == hand["result"]
        last = hand["events"][-1]
        assert re.search(r" (wins?|split) (the main pot, |side pot \d+, )?\d+ chips?\b", last), last
    assert client.get(f"/api/tables/{tid}/hands/1", headers=_auth("x" * 30)).status_code == 403
    assert client.get(f"/api/tables/{tid}/hands/2").status_code == 404


def test_an_absent_person_is_sat_out_and_an_idle_table_ends(client: TestClient) -> None:
    """The sweep (online.md "Absence"), with the clock given: no waiting."""
    import time

    from primero.server import seating

    t, _host = post_table(client, {"seats": BOTS3, "turn_seconds": 0})
    tid = t["id"]
    ana = join_table(client, tid, "Ana")
    with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
        _play_until(ws, lambda m: m["legal"] is not None)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    rt = hub.get(tid)
    away = hub.settings.away_seconds
    now = time.time()
    client.portal.call(seating.sweep, hub, now + away - 1)  # type: ignore[union-attr]
    assert not rt.model.match.presence[0].away
    client.portal.call(seating.sweep, hub, now + away + 1)  # type: ignore[union-attr]
    assert rt.model.match.presence[0].away
    # No timer: the table makes her moves; when the hand ends she is sitting out.
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        m = _play_until(ws, lambda m: m["table"]["seats"][0]["sitting_out"])
    assert m["table"]["status"] in ("playing", "paused")
    client.portal.call(seating.sweep, hub, now + seating.IDLE_SECONDS + 5)  # type: ignore[union-attr]
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["status"] == "over" or summary["pending"] == "end"  # after the hand
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        _play_until(ws, lambda m: m["table"]["status"] == "over")


def test_a_top_up_at_a_rebuy_table_and_a_bot_for_a_seat_sat_out(client: TestClient) -> None:
    t, host = post_table(client, {"seats": BOTS3, "turn_seconds": 0, "rebuy": True})
    tid = t["id"]
    assert t["rebuy"] is True
    plain, _h = post_table(client, {"seats": BOTS3, "turn_seconds": 0})
    ana = join_table(client, tid, "Ana")
    with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
        m = _play_until(ws, lambda m: m["legal"] is not None)
        assert m["hand"]["stacks"][m["hand"]["table_seats"].index(0)] == 99  # after the ante
        ws.send_json({"type": "rebuy"})  # a top-up, due when the hand ends
        m = _play_until(ws, lambda m: m["hand"] is not None and m["hand"]["number"] == 2)
        seat = m["table"]["seats"][0]
        first = client.get(f"/api/tables/{tid}/hands/1", headers=_auth(ana)).json()
        final = first["final_stacks"][first["players"].index("Ana")]
        assert seat["chips"] == max(final, 100)  # dropped if she won back to the stack
        assert seat["ledger"]["bought_in"] == 100 + max(0, 100 - final)
        _act(ws, m)
        ws.send_json({"type": "sit_out"})
        m = _play_until(ws, lambda m: m["table"]["seats"][0]["sitting_out"])
        _act(ws, m)
        bought = m["table"]["seats"][0]["ledger"]["bought_in"]
        r = client.post(
            f"/api/tables/{tid}/seats/0/bot", json={"kind": "heuristic"}, headers=_auth(host)
        )
        assert r.status_code == 204, r.text  # at once, in a hand or between hands
        again = client.post(
            f"/api/tables/{tid}/seats/0/bot", json={"kind": "random"}, headers=_auth(host)
        )
        assert again.status_code == 409 and "already plays for Ana" in again.json()["detail"]
        m = _play_until(ws, lambda m: m["table"]["seats"][0]["stand_in"] == "heuristic")
        seat = m["table"]["seats"][0]
        assert (seat["name"], seat["kind"], seat["sitting_out"]) == ("Ana", "person", True)
        assert seat["ledger"]["bought_in"] == bought  # the seat and ledger stay hers
        assert m["seat_note"].startswith("A bot plays your seat while you sit out")
        # the stand-in is dealt in for her: she reads her seat, never gets buttons
        m = _play_until(ws, lambda m: m["hand"] is not None and m["hand"]["hand"])
        number = m["hand"]["number"]
        assert m["legal"] is None and m["hand"]["seat"] is not None
        ws.send_json({"type": "sit_in"})  # "Take my seat back": from the next hand
        m = _play_until(ws, lambda m: m["table"]["seats"][0]["stand_in"] is None)
        assert m["hand"] is None or m["hand"]["number"] > number or m["hand"]["result"]
        m = _play_until(ws, lambda m: m["legal"] is not None)  # her turns are hers again
        assert m["table"]["seats"][0]["name"] == "Ana"
    with client.websocket_connect(f"/ws/tables/{plain['id']}") as ws:
        ws.receive_json()
        ws.send_json({"type": "rebuy"})
        assert "spectators" in ws.receive_json()["message"]


def test_each_evening_change_is_stored_first_and_grows_the_version_by_one(
    client: TestClient,
) -> None:
    """online.md "Writing comes first" for game night's changes: sit out, the host's timer
    and pause each move the version on by exactly one; a change the database does not
    take gets ``"retry": true`` and changes nothing anyone sees. A seat asked for by
    number is that seat (``POST /seats {"name", "seat"}``)."""
    t, host = post_table(client, {"seats": ["open"] * 4, "turn_seconds": 0})
    tid = t["id"]
    r = client.post(f"/api/tables/{tid}/seats", json={"name": "Ben", "seat": 1})
    assert r.status_code == 201 and r.json()["seat"] == 1
    ben = r.json()["token"]
    r = client.post(f"/api/tables/{tid}/seats", json={"name": "Cleo", "seat": 1})
    assert r.status_code == 409, r.text
    r = client.post(f"/api/tables/{tid}/seats", json={"name": "Cleo", "seat": 9})
    assert r.status_code == 400, r.text
    ana = join_table(client, tid, "Ana")
    assert client.get(f"/api/tables/{tid}").json()["seats"][0]["name"] == "Ana"
    join_table(client, tid, "Cleo")
    join_table(client, tid, "Dan")  # the last open seat: the match starts
    url = f"/ws/tables/{tid}?token="
    with client.websocket_connect(url + ana) as wa, client.websocket_connect(url + ben) as wb:
        # the deal is done and a person is to act: nothing moves by itself now
        start = until(
            wa,
            lambda m: (
                m["type"] == "state"
                and m["hand"] is not None
                and (m["hand"]["to_act"] or "").startswith("p")
            ),
        )
        v = client.get(f"/api/tables/{tid}").json()["version"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        writer = hub.writer
        real = writer.write

        async def refuse(*_a: Any, **_k: Any) -> Any:
            raise RuntimeError("the database is away (test)")

        writer.write = refuse
        try:
            wb.send_json({"type": "sit_out"})
            err = until(wb, lambda m: m["type"] == "error")
            assert err["retry"] is True
            r = client.patch(f"/api/tables/{tid}", json={"turn_seconds": 30}, headers=_auth(host))
            assert r.status_code == 503 and r.headers["Retry-After"]
        finally:
            writer.write = real
        summary = client.get(f"/api/tables/{tid}").json()
        assert summary["version"] == v and summary["turn_seconds"] == 0
        assert not summary["seats"][1]["sitting_out"]
        wb.send_json({"type": "sit_out"})
        m = until(wb, lambda m: m["type"] == "state" and m["version"] > v)
        assert m["version"] == v + 1 and m["table"]["seats"][1]["sitting_out"]
        r = client.patch(f"/api/tables/{tid}", json={"turn_seconds": 30}, headers=_auth(host))
        assert r.status_code == 200 and r.json()["version"] == v + 2
        assert client.post(f"/api/tables/{tid}/pause", headers=_auth(host)).status_code == 204
        after = client.get(f"/api/tables/{tid}").json()
        assert after["version"] == v + 3 and after["pending"] == "pause"
        seen = until(wa, lambda m: m["type"] == "state" and m["version"] == v + 3)
        assert seen["hand"]["log"] == start["hand"]["log"]  # no move was made meanwhile


def test_a_presence_change_applies_though_the_stored_version_moved_on(
    client: TestClient,
) -> None:
    """A sit out (sit in, leave, rebuy) does not depend on the state the person
    saw. When the table's stored version moved on under the server (here: the move of
    the person to act stored but not applied, as a bot's write racing it or a change cut
    short leaves it), the change is still applied, at once, to the table as stored: the
    stored move is there and the version grew by exactly two. A move chosen in the older
    state is still refused as stale."""
    t, _host = post_table(client, {"seats": ["open"] * 4, "turn_seconds": 0})
    tid = t["id"]
    ana, ben = join_table(client, tid, "Ana"), join_table(client, tid, "Ben")
    join_table(client, tid, "Cleo")
    join_table(client, tid, "Dan")  # the last open seat: the match starts
    url = f"/ws/tables/{tid}?token="
    with client.websocket_connect(url + ana) as wa, client.websocket_connect(url + ben) as wb:
        start = until(
            wa,
            lambda m: (
                m["type"] == "state"
                and m["hand"] is not None
                and (m["hand"]["to_act"] or "").startswith("p")
            ),
        )
        until(wb, lambda m: m["type"] == "state" and m["version"] == start["version"])
        v = start["version"]
        hub = client.app.state.hub  # type: ignore[attr-defined]
        rt = hub.tables[tid]
        portal = client.portal
        assert portal is not None

        async def stored_not_applied() -> None:
            async with rt.commands.command(Command.TIMER):
                model = rt.model
                seat = model.person_to_act()
                action = model.timeout_action()
                await rt.owner.store_change(
                    rt.owner.line_write(model, action, seat, "cut"), urgent=True
                )

        portal.call(stored_not_applied)
        assert rt.row.version == v  # memory is one write behind the store
        wb.send_json({"type": "sit_out", "version": v - 1})  # an old version: no matter
        # the table read back (v + 1: the stored move) may be sent first; no error comes
        m = until(
            wb, lambda m: m["type"] == "error" or (m["type"] == "state" and m["version"] > v + 1)
        )
        assert m["type"] == "state", m  # not "retry": the one tap took effect
        assert m["version"] == v + 2 and m["table"]["seats"][1]["sitting_out"]
        assert len(m["hand"]["log"]) == len(start["hand"]["log"]) + 1  # the stored move
        stored = client.get(f"/api/tables/{tid}").json()  # (the dealer may deal next)
        assert stored["version"] >= v + 2 and stored["seats"][1]["sitting_out"]
        # a move is still checked against the version it was chosen in
        wa.send_json({"type": "action", "id": "late", "line": "f", "version": v})
        err = until(wa, lambda m: m["type"] == "error")
        assert err["stale"] is True and err["id"] == "late", err
        again = until(wa, lambda m: m["type"] == "state")
        assert again["version"] >= v + 2


def test_the_migrations_are_one_chain_with_one_head() -> None:
    """Game night's ``v0004_evening`` follows the server edge's ``0002`` (one head, so
    every start's ``upgrade head`` works)."""
    from alembic.config import Config
    from alembic.script import ScriptDirectory

    from primero.store import store as store_module

    config = Config()
    config.set_main_option("script_location", str(store_module._MIGRATIONS))
    script = ScriptDirectory.from_config(config)
    assert script.get_heads() == ["0011"]
    chain = [r.revision for r in script.walk_revisions()]
    assert chain == ["0011", "0010", "0009", "0008", "0007", "0006", "0005", "0004", "0002", "0001"]


def test_a_hand_sat_out_during_goes_on_after_a_restart(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A person who sits out on their turn is still in the hand being played; after a
    restart that hand is rebuilt with the seats it was dealt to (``hands.seats``), not
    with those dealable now: the table goes on and is not "broken" (a new user's report:
    "WrongTurnError: no deal is due now")."""
    monkeypatch.setenv(TEST_SEED_ENV, "1")
    settings = Settings(database_url=db_url, bot_pause=BOT_PAUSE, bot_processes=0)
    with TestClient(create_app(settings)) as client:
        t, _host = post_table(client, {"seats": BOTS3, "turn_seconds": 0})
        tid = t["id"]
        ana = join_table(client, tid, "Ana")
        with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
            _play_until(ws, lambda m: m["legal"] is not None)
            ws.send_json({"type": "sit_out"})
            before = _play_until(ws, lambda m: m["table"]["seats"][0]["sitting_out"])
    assert before["hand"] is not None and before["legal"] is not None  # still her turn
    with TestClient(create_app(settings)) as client:
        info = client.get(f"/api/tables/{tid}").json()
        assert info["status"] == "playing", info
        with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
            after = _play_until(ws, lambda m: True)
    assert after["hand"]["number"] == before["hand"]["number"]
    assert after["hand"]["log"] == before["hand"]["log"]
    assert after["table"]["seats"][0]["sitting_out"] is True


def test_a_repeated_sit_out_changes_nothing_and_keeps_the_version(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """online.md "version": it grows with every change. A second "sit out" of a seat
    already sitting out (a double tap) is no change: the same state comes back, the
    version as it was, so the move the person chose meanwhile is not made stale."""
    monkeypatch.setenv(TEST_SEED_ENV, "1")
    t, _host = post_table(client, {"seats": BOTS3, "turn_seconds": 0})
    tid = t["id"]
    ana = join_table(client, tid, "Ana")
    with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
        _play_until(ws, lambda m: m["legal"] is not None)  # her turn: the table waits
        ws.send_json({"type": "sit_out"})
        first = _play_until(ws, lambda m: m["table"]["seats"][0]["sitting_out"])
        ws.send_json({"type": "sit_out"})
        again = ws.receive_json()
        assert again["type"] == "state"
        assert again["version"] == first["version"]
        assert again["table"]["seats"][0]["sitting_out"] is True
        ws.send_json({"type": "sit_in"})
        back = _play_until(ws, lambda m: not m["table"]["seats"][0]["sitting_out"])
        assert back["version"] == first["version"] + 1


def test_a_refused_request_names_the_field_and_what_is_allowed_in_words(
    client: TestClient,
) -> None:
    """No validation library's wording ("Input should be ...", "Field required") and no
    0-based list index reaches a person: the field, then what it must be."""
    cases = [
        (
            {"seats": ["open", "dragon", "random", "random"]},
            "seats, item 2 must be one of 'open', 'random', 'heuristic', 'search', 'bluff', "
            "'uniform' or 'reference'",
        ),
        ({"seats": BOTS3, "stack": "x"}, "Stack must be a whole number"),
        ({}, "seats is missing"),
    ]
    for body, said in cases:
        r = client.post("/api/tables", json=body)
        assert (r.status_code, r.json()["detail"]) == (400, said)
    assert client.get("/api/tables?page=x").json()["detail"] == "page must be a whole number"
    t, _host = post_table(client, {"seats": BOTS3})
    for seat, said in ((9, "seat must be at most 7"), (-1, "seat must be at least 0")):
        r = client.post(f"/api/tables/{t['id']}/seats", json={"name": "Ana", "seat": seat})
        assert (r.status_code, r.json()["detail"]) == (400, said)
    assert client.get(f"/api/tables/{t['id']}").json()["version"] == t["version"]


def test_lists_bodies_and_frames_of_the_wrong_shape_are_refused_in_words(
    client: TestClient,
) -> None:
    """The shapes a fresh-user pass found said in pydantic's words ("List should have at
    most 8 items after validation", "Input should be a valid dictionary", "version: Input
    should be a valid integer", "id: Field required"): the field, then what it must be."""
    nine = {"seats": ["open"] + ["random"] * 8}
    for body, said in (
        (nine, "seats must have at most 8 items"),
        ([], "the request body must be a JSON object"),
        ({"seats": BOTS3, "name": 7}, "name must be text"),
    ):
        r = client.post("/api/tables", json=body)
        assert (r.status_code, r.json()["detail"]) == (400, said)
    t, _host = post_table(client, {"seats": BOTS3})
    ana = join_table(client, t["id"], "Ana")
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={ana}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state"
        for frame, said in (
            (
                {"type": "action", "id": "a1", "line": "c", "version": "x"},
                "version must be a whole number",
            ),
            ({"type": "action", "line": "c", "version": first["version"]}, "id is missing"),
        ):
            ws.send_json(frame)
            answer = ws.receive_json()
            while answer["type"] != "error":  # states of the bots' moves meanwhile
                answer = ws.receive_json()
            assert answer["message"] == said


def test_a_person_who_left_stays_in_the_ledger_when_a_bot_takes_her_seat(
    client: TestClient,
) -> None:
    """docs/protocol.md "Settling up": Ana plays, leaves, and the host seats a bot in her
    place; she stays in the ledger (``former``) with what she bought in and left with,
    the bot counts as buying in the chips her seat held, every net sums to zero, and
    settling up says the money at the host's rate (summary and ledger.json alike)."""
    from primero.store.evening import ledgers

    seats = ["open", "open", "random", "random"]
    t, host = post_table(client, {"seats": seats, "turn_seconds": 0, "stack": 200})
    tid = t["id"]
    ben = join_table(client, tid, "Ben")  # seat 0; he sits out from the first hand
    with client.websocket_connect(f"/ws/tables/{tid}?token={ben}") as ws:
        ws.receive_json()
        ws.send_json({"type": "sit_out"})
        until(ws, lambda m: m["type"] == "state" and m["table"]["seats"][0]["sitting_out"])
    r = client.patch(
        f"/api/tables/{tid}", json={"chip_value": "0.10", "currency": "EUR"}, headers=_auth(host)
    )
    assert r.status_code == 200 and r.json()["settle"]["text"] == "Nobody owes anybody anything."
    ana = join_table(client, tid, "Ana")
    with client.websocket_connect(f"/ws/tables/{tid}?token={ana}") as ws:
        m = _play_until(ws, lambda m: m["legal"] is not None)
        ws.send_json({"type": "leave"})
        m = _play_until(ws, lambda m: m["table"]["seats"][1]["left"])
    chips = m["table"]["seats"][1]["chips"]  # hers as she left: out of every hand
    r = client.post(f"/api/tables/{tid}/seats/1/bot", json={"kind": "random"}, headers=_auth(host))
    assert r.status_code == 204, r.text
    summary = client.get(f"/api/tables/{tid}").json()
    assert summary["seats"][1]["kind"] == "random" and summary["seats"][1]["name"] != "Ana"
    assert summary["seats"][0]["ledger"] == {"bought_in": 200, "net": 0}  # Ben sat out
    assert summary["former"] == [
        {"seat": 1, "name": "Ana", "chips": chips, "ledger": {"bought_in": 200, "net": chips - 200}}
    ]
    nets = [s["ledger"]["net"] for s in summary["seats"]] + [chips - 200]
    assert sum(nets) == 0, summary["seats"]
    # Ana against the bots, as one party: she is paid or pays what she won or lost
    expected = (
        []
        if chips == 200
        else [
            {
                "payer": "Ana" if chips < 200 else "Bots",
                "payee": "Bots" if chips < 200 else "Ana",
                "chips": abs(chips - 200),
                "money": f"{abs(chips - 200) / 10:.2f}",
            }
        ]
    )
    assert summary["settle"]["transfers"] == expected
    if expected:
        assert summary["settle"]["text"].endswith("1 chip = 0.10 EUR")
    kept = ledgers(client.app.state.hub.store.engine, tid)[tid]  # type: ignore[attr-defined]
    assert kept["former"] == summary["former"]
    assert (kept["chip_value"], kept["currency"]) == ("0.10", "EUR")
    assert sum(s["ledger"]["net"] for s in kept["seats"]) + chips - 200 == 0
    assert kept["settle"]["transfers"] == expected


def test_every_field_of_a_summary_is_in_the_protocol_document(client: TestClient) -> None:
    """docs/protocol.md "The table summary" names every field the server sends in a
    summary (and the answer to POST /api/tables), and no field it names is missing."""
    from tests.paths import ROOT

    text = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = text.split("### The table summary", 1)[1].split("\n\n| field", 2)
    rows = section[1].split("\n\n", 1)[0]  # the first table: the summary's fields
    documented = set(re.findall(r"^\| `(\w+)` \|", "| field" + rows, re.MULTILINE))
    made = client.post("/api/tables", json={"seats": ["open", "random", "random", "random"]})
    assert made.status_code == 201, made.text
    sent = set(made.json())
    assert sent - documented == set(), "fields sent but not in docs/protocol.md"
    assert documented - sent == set(), "fields in docs/protocol.md that are not sent"
