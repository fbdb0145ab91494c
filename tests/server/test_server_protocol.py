"""The server's protocol in-process (FastAPI's TestClient): every message type and every
error, each refused message leaving the version and the state unchanged (online.md)."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from primero.engine.cards import parse_card
from primero.engine.hands import evaluate
from primero.engine.history import parse_record, replay
from primero.server import Settings, create_app
from primero.server.clock import ManualClock
from primero.server.models import HandOut, StateOut
from primero.server.settings import TEST_SEED_ENV
from primero.store import Store
from tests.client_policy import choose_line

# the fixtures ``client`` and ``db_url`` (SQLite and PostgreSQL)
from tests.server_helpers import (  # noqa: F401
    cards_in,
    create_table,
    database,
    db_url_fixture,
    join_table,
    post_table,
    settled,
    thread_client_fixture,
    until,
)

pytestmark = pytest.mark.timeout(120)  # a server that stops answering fails, not hangs

TWO = {"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0}


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def shared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[TestClient]:
    """One in-process server per database kind for the refusal tests: a refused request
    changes nothing, which each of them checks against the state just before it, so they
    need no database of their own (dozens of cases, one server start each otherwise).
    No creation limits: the cases together create more tables than one address may in a
    minute (the limits have tests of their own, test_server_limits.py)."""
    with database(request.param, tmp_path_factory.mktemp("shared")) as url:
        settings = Settings(
            database_url=url, bot_pause=0, create_rate=0, max_tables=0, bot_processes=0
        )
        with TestClient(create_app(settings)) as c:
            yield c


def _resync(ws: Any) -> dict[str, Any]:
    ws.send_json({"type": "resync", "since": 0})
    return until(ws, lambda m: m["type"] == "state")


# --------------------------------------------------------------------------- REST


def test_create_list_get_and_join(client: TestClient) -> None:
    body = {"name": "Friday", "seats": ["open", "heuristic", "random", "open"], "listed": True}
    t, _ = post_table(client, body)
    assert t["name"] == "Friday" and t["status"] == "waiting" and t["hands_played"] == 0
    assert [s["kind"] for s in t["seats"]] == ["open", "heuristic", "random", "open"]
    assert {k: t["seats"][0][k] for k in ("name", "kind", "chips")} == {
        "name": None,
        "kind": "open",
        "chips": 100,
    }
    assert t["seats"][1]["name"] and t["seats"][2]["name"]
    assert client.get(f"/api/tables/{t['id']}").json()["id"] == t["id"]
    assert [x["id"] for x in client.get("/api/tables").json()] == [t["id"]]
    r = client.post(f"/api/tables/{t['id']}/seats", json={"name": "Ana"})
    assert r.status_code == 201 and r.json()["seat"] == 0 and len(r.json()["token"]) >= 22
    r = client.post(f"/api/tables/{t['id']}/seats", json={"name": "Ben"})
    assert r.json()["seat"] == 3
    summary = client.get(f"/api/tables/{t['id']}").json()
    assert summary["status"] == "playing"
    assert [s["kind"] for s in summary["seats"]] == ["person", "heuristic", "random", "person"]
    r = client.post(f"/api/tables/{t['id']}/seats", json={"name": "Cleo"})
    assert r.status_code == 409 and "no seat is open" in r.json()["detail"]
    assert client.get("/api/tables/nope").status_code == 404
    assert client.post("/api/tables/nope/seats", json={"name": "X"}).status_code == 404


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "1 to 24"),
        ("x" * 25, "1 to 24"),
        ("   ", "start or end with white space"),
        (" Ana", "white space"),
        ("Ana\x07", "control"),
        ("Lorenzo", "already at this table"),
        # the table's own labels: a person would pass for a spectator, the host
        ("Spectator 1", "the table uses 'Spectator' for people watching"),
        ("spectator", "the table uses 'Spectator' for people watching"),
        ("Host", "the table uses 'Host' for the host watching"),
        ("DEALER", "the table uses 'Dealer' for the dealer"),
    ],
)
def test_bad_names_are_refused(shared: TestClient, name: str, words: str) -> None:
    client = shared
    t, _ = post_table(client, {"seats": ["open", "random", "random", "random"]})
    r = client.post(f"/api/tables/{t['id']}/seats", json={"name": name})
    assert r.status_code == 400 and words in r.json()["detail"]
    assert client.get(f"/api/tables/{t['id']}").json() == t  # nothing changed


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"seats": ["open"]}, "at least 2 items"),
        ({"seats": ["open"] * 3}, "Seats must be 4 to 6 (the rules' Fewest players to Most"),
        ({"seats": ["open", "robot", "random", "random"]}, "'open', 'random', 'heuristic'"),
        ({"seats": "open"}, "seats"),
        ({"seats": ["open"] * 4, "stack": 0}, "Stack must be at least 1"),
        ({"seats": ["open"] * 4, "stack": 10**10}, "Stack must be at most 1000000000"),
        ({"seats": ["open"] * 4, "turn_seconds": 86401}, "Turn timer must be at most 86400"),
        (
            {"seats": ["open"] * 4, "rules": {"min_players": 9}},
            "Fewest players must be 2 to 8, not 9",
        ),
        (
            {"seats": ["open"] * 4, "rules": {"max_players": 3}},
            "Most players (3) must be at least Fewest players (4)",
        ),
        (
            {"seats": ["open"] * 4, "name": "\u200bA"},
            "The table name must not hold U+200B ZERO WIDTH SPACE",
        ),
        ({"seats": ["open"] * 4, "rules": {"colour": 1}}, "'colour' is not a house rule"),
        ({"seats": ["open"] * 4, "turn_seconds": -1}, "Turn timer must be at least 0"),
        ({"seats": ["open"] * 4, "name": ""}, "The table name is empty: type a name of 1 to 40"),
        # settings that make no game (docs/rules.md 24): a 1-chip stack is all-in on the
        # default 1-chip ante (R4.1); an ante of the whole stack; a min_raise beyond it (R5)
        ({"seats": ["random"] * 4, "stack": 1}, "nobody can bet"),
        ({"seats": ["open"] * 4, "stack": 1}, "nobody can bet"),
        ({"seats": ["random"] * 4, "stack": 5, "rules": {"ante": 5}}, "ante (5 chips)"),
        (
            {"seats": ["random"] * 4, "stack": 5, "rules": {"min_raise": 10}},
            "use a Minimum raise of at most 4",
        ),
        ({}, "seats"),
    ],
)
def test_bad_tables_are_refused(shared: TestClient, body: dict[str, Any], words: str) -> None:
    client = shared
    before = client.get("/api/tables").json()  # newest first: a new table would lead it
    r = client.post("/api/tables", json={**body, "listed": True})  # listed: the lobby shows it
    assert r.status_code == 400 and words in r.json()["detail"], r.text
    assert client.get("/api/tables").json() == before  # nothing was created


@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("", "Your name is empty: type a name of 1 to 24 characters"),
        (
            "Ana\u200b",
            "Your name must not hold U+200B ZERO WIDTH SPACE (an invisible format "
            "character) at position 4",
        ),
    ],
)
def test_a_bad_name_in_the_join_box_is_said_as_the_lobby_says_it(
    shared: TestClient, name: str, words: str
) -> None:
    r = shared.post("/api/tables", json={"seats": ["open"] * 4})
    assert r.status_code == 201, r.text
    r = shared.post(f"/api/tables/{r.json()['id']}/seats", json={"name": name})
    assert r.status_code == 400 and r.json()["detail"] == words, r.text


def test_a_body_that_is_not_json_is_400(shared: TestClient) -> None:
    r = shared.post("/api/tables", content=b"{", headers={"content-type": "application/json"})
    assert r.status_code == 400
    assert r.json()["detail"] == "the body is not valid JSON: send one JSON object"


# --------------------------------------------------------------------------- WebSocket


def _two_people(client: TestClient) -> tuple[str, str, str]:
    t, _ = post_table(client, TWO)
    return t["id"], join_table(client, t["id"], "Ana"), join_table(client, t["id"], "Ben")


def test_state_messages_follow_the_contract(client: TestClient) -> None:
    table, ana, _ben = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ws:
        m = until(ws, settled)
        StateOut.model_validate(m)
        hand = m["hand"]
        # HandOut names every field the server sends (the web client's types come from it)
        assert set(hand) == set(HandOut.model_fields)
        assert hand["players"] == ["Ana", "Ben"] or hand["players"] == ["Ben", "Ana"]
        assert hand["table_seats"] == [0, 1] or hand["table_seats"] == [1, 0]
        me = hand["table_seats"].index(0)
        assert hand["seat"] == f"p{me + 1}" and len(hand["hand"]) == 2
        assert hand["log"][me].endswith(" ".join(hand["hand"]))
        other = 1 - me
        assert hand["log"][other].endswith("?? ??")
        assert m["table"]["status"] == "playing" and m["deadline"] is None
        assert (m["legal"] is not None) == (hand["to_act"] == hand["seat"])
    with client.websocket_connect(f"/ws/tables/{table}") as spectator:
        s = until(spectator, settled)
        assert s["hand"]["seat"] is None and s["hand"]["hand"] == [] and s["legal"] is None
        assert all(line.endswith("?? ??") for line in s["hand"]["log"])


def _to_act_and_waiting(client: TestClient, table: str, tokens: dict[str, str]) -> tuple[str, str]:
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens['Ana']}") as ws:
        m = until(ws, settled)
    players = m["hand"]["players"]
    to_act = players[int(m["hand"]["to_act"][1:]) - 1]
    waiting = next(n for n in players if n != to_act)
    return to_act, waiting


REFUSED: list[tuple[str, str]] = [
    ('"a string"', "not a JSON object"),
    ("[1, 2]", "not a JSON object"),
    (json.dumps({"type": "chat", "text": "x" * 5000}), "over 4 KiB"),
    (json.dumps({"type": "dance"}), "unknown type 'dance'"),
    (json.dumps({"no": "type"}), "unknown type None"),
    (json.dumps({"type": "action", "id": 5, "line": "c"}), "id"),
    (json.dumps({"type": "action", "id": "a", "line": 3}), "The move must be text"),
    (json.dumps({"type": "action", "id": "a", "line": ""}), "The move is empty"),
    (json.dumps({"type": "action", "id": "", "line": "c"}), "id"),
    (json.dumps({"type": "action", "line": "c"}), "id"),
    (json.dumps({"type": "resync", "since": "x"}), "since"),
    (json.dumps({"type": "chat", "text": ""}), "A chat line must be 1 to 300 characters"),
    (json.dumps({"type": "chat", "text": "a\x00b"}), "control"),
    (json.dumps({"type": "action", "id": "b1", "line": "b 99999"}), ""),
    (json.dumps({"type": "action", "id": "b2", "line": "fly away"}), ""),
]


def test_every_refused_frame_gets_an_error_and_changes_nothing(client: TestClient) -> None:
    table, ana, ben = _two_people(client)
    tokens = {"Ana": ana, "Ben": ben}
    to_act, _ = _to_act_and_waiting(client, table, tokens)
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens[to_act]}") as ws:
        before = until(ws, settled)
        for frame, words in REFUSED[:9]:
            ws.send_text(frame)
            err = ws.receive_json()
            assert err["type"] == "error" and words in err["message"], (frame, err)
        assert _resync(ws) == before  # nine refused frames: still open, nothing changed
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens[to_act]}") as ws:
        assert until(ws, settled) == before
        for frame, words in REFUSED[9:]:
            ws.send_text(frame)
            err = ws.receive_json()
            assert err["type"] == "error" and words in err["message"], (frame, err)
            if '"id": "b' in frame:
                assert err["id"] == json.loads(frame)["id"]
                assert ws.receive_json() == before  # a refused action: the state follows
            ws.send_json({"type": "resync", "since": 0})
            assert until(ws, lambda m: m["type"] == "state") == before


def test_an_unknown_verb_lists_the_players_verbs_and_what_is_legal_now(
    client: TestClient,
) -> None:
    table, ana, ben = _two_people(client)
    tokens = {"Ana": ana, "Ben": ben}
    to_act, _ = _to_act_and_waiting(client, table, tokens)
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens[to_act]}") as ws:
        before = until(ws, settled)
        ws.send_json({"type": "action", "id": "z1", "line": "zz"})
        err = ws.receive_json()
        message = err["message"]
        assert err["type"] == "error" and err["id"] == "z1"
        assert message.startswith("that move is not understood: you may ")
        assert "d dh" not in message and "dealer" not in message and "(" not in message
        # The first betting round opens with the exchange of 0-2 cards (R4) or a bet.
        assert "exchange" in message
        assert ws.receive_json() == before  # a refused action: the state follows
        ws.send_json({"type": "action", "id": "z2", "line": "b five"})
        err = ws.receive_json()
        assert ws.receive_json() == before
        assert ": you may " in err["message"], err
        assert _resync(ws) == before


def test_an_action_after_the_match_is_over_says_so(client: TestClient) -> None:
    t, _ = post_table(
        client,
        {
            "seats": ["random", "open"],
            "rules": {"min_players": 2},
            "max_hands": 1,
            "turn_seconds": 0,
        },
    )
    token = join_table(client, t["id"], "Ana")
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
        last = _play(ws, "ana", [])
        assert last["table"]["status"] == "over"
        ws.send_json({"type": "action", "id": "late", "line": "c"})
        err = until(ws, lambda m: m["type"] == "error")
    assert err["id"] == "late"
    assert err["message"] == "the match is over: no action is possible"


def test_ten_refused_frames_in_ten_seconds_close_with_1008(client: TestClient) -> None:
    table, ana, _ben = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ws:
        until(ws, settled)
        for _ in range(10):
            ws.send_text("[]")
        errors = 0
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                m = ws.receive_json()
                errors += m["type"] == "error"
        assert info.value.code == 1008 and errors == 10


def test_a_frame_that_is_not_json_closes_with_1007_and_one_log_line(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="primero.server")
    table, ana, _ben = _two_people(client)
    with client.websocket_connect(f"/ws/tables/{table}?token={ana}") as ws:
        until(ws, settled)
        ws.send_text("nope")
        ws.send_text("nope again")
        with pytest.raises(WebSocketDisconnect) as info:
            while True:
                assert ws.receive_json()["type"] != "error"
        assert info.value.code == 1007
    said = [r for r in caplog.records if "not JSON: closed (1007)" in r.getMessage()]
    assert len(said) == 1


def test_out_of_turn_spectator_and_wrong_token(client: TestClient) -> None:
    table, ana, ben = _two_people(client)
    tokens = {"Ana": ana, "Ben": ben}
    _to_act, waiting = _to_act_and_waiting(client, table, tokens)
    with client.websocket_connect(f"/ws/tables/{table}?token={tokens[waiting]}") as ws:
        before = until(ws, settled)
        assert before["legal"] is None
        ws.send_json({"type": "action", "id": "w1", "line": "c"})
        err = ws.receive_json()
        assert err == {"type": "error", "id": "w1", "message": "it is not your turn"}
        assert ws.receive_json() == before  # a refused action: the state follows
        assert _resync(ws) == before
    with client.websocket_connect(f"/ws/tables/{table}") as spectator:
        before = until(spectator, settled)
        spectator.send_json({"type": "action", "id": "s1", "line": "c"})
        err = spectator.receive_json()
        assert err["type"] == "error" and "spectators may not act" in err["message"]
        assert spectator.receive_json() == before
        spectator.send_json({"type": "chat", "text": "hello"})  # until the host opens it
        assert spectator.receive_json() == {
            "type": "error",
            "id": None,
            "message": "the chat is closed to spectators at this table: the host may open it",
        }
        assert _resync(spectator) == before
    for token in ("wrong", ana + "x", ""):
        with (
            client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws,
            pytest.raises(WebSocketDisconnect) as info,
        ):
            ws.receive_json()  # no state is sent before the close
        assert info.value.code == 1008


def test_foreign_origin_is_refused_own_and_allowed_are_taken(tmp_path: Path) -> None:
    app = create_app(
        Settings(
            database_url=f"sqlite:///{tmp_path / 'o.db'}",
            bot_pause=0,
            allow_origins=("https://friends.example",),
            bot_processes=0,
        )
    )
    with TestClient(app) as client:
        table = post_table(client, TWO)[0]["id"]
        with (
            pytest.raises(WebSocketDisconnect) as info,
            client.websocket_connect(
                f"/ws/tables/{table}", headers={"origin": "https://evil.example"}
            ),
        ):
            pass
        assert info.value.code == 1008
        for origin in ("http://testserver", "https://friends.example"):
            with client.websocket_connect(f"/ws/tables/{table}", headers={"origin": origin}) as ws:
                assert ws.receive_json()["type"] == "state"


def test_chat_reaches_everyone_and_changes_no_version(client: TestClient) -> None:
    table, ana, ben = _two_people(client)
    with (
        client.websocket_connect(f"/ws/tables/{table}?token={ana}") as a,
        client.websocket_connect(f"/ws/tables/{table}?token={ben}") as b,
    ):
        until(b, settled)
        # Ben's connection is sent to Ana at once (a state of the same version)
        before = until(a, lambda m: settled(m) and all(x["connected"] for x in m["table"]["seats"]))
        a.send_json({"type": "chat", "text": "<b>hi</b> Ben", "extra": 1})
        expected = {"type": "chat", "from": "Ana", "text": "<b>hi</b> Ben"}
        assert a.receive_json() == expected and b.receive_json() == expected
        assert _resync(a)["version"] == before["version"]


def test_an_action_id_is_applied_once_across_connections(client: TestClient) -> None:
    table, ana, ben = _two_people(client)
    tokens = {"Ana": ana, "Ben": ben}
    to_act, _ = _to_act_and_waiting(client, table, tokens)
    url = f"/ws/tables/{table}?token={tokens[to_act]}"
    with client.websocket_connect(url) as one, client.websocket_connect(url) as two:
        before = until(one, settled)
        until(two, settled)
        line = choose_line(before)
        one.send_json({"type": "action", "id": "same", "line": line})
        two.send_json({"type": "action", "id": "same", "line": line})
        after_one = until(one, lambda m: m["type"] == "state")
        v = before["version"]
        assert after_one["version"] == v + 1
        seen = until(two, lambda m: m["type"] == "state")
        assert seen["version"] == v + 1
        # two's duplicate: two alone gets the current state, nothing is applied again
        dup = until(two, lambda m: m["type"] == "state")
        assert dup["version"] == v + 1
        assert _resync(one)["version"] == v + 1
        assert len(_resync(one)["hand"]["log"]) == len(before["hand"]["log"]) + 1


def _play(ws: Any, seat_token_name: str, frames: list[dict[str, Any]]) -> dict[str, Any]:
    """Play every turn of this seat until the match is over; keep every frame."""
    n = 0
    acted: set[tuple[int, int]] = set()
    while True:
        m = ws.receive_json()
        frames.append(m)
        if m["type"] != "state":
            continue
        if m["table"]["status"] == "over":
            over: dict[str, Any] = m
            return over
        if m["legal"] is not None and (m["version"], len(m["hand"]["log"])) not in acted:
            acted.add((m["version"], len(m["hand"]["log"])))
            n += 1
            ws.send_json({"type": "action", "id": f"{seat_token_name}-{n}", "line": choose_line(m)})


def test_a_whole_match_against_bots_is_stored_and_replays(client: TestClient, db_url: str) -> None:
    t, _ = post_table(
        client,
        {"seats": ["random", "open", "heuristic", "random"], "max_hands": 3, "turn_seconds": 0},
    )
    token = join_table(client, t["id"], "Ana")
    frames: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
        last = _play(ws, "ana", frames)
    # Three hands, or fewer when the match ends sooner by R9 (every chip in one stack).
    played = last["table"]["hands_played"]
    assert last["table"]["status"] == "over" and 1 <= played <= 3
    if played < 3:
        assert sum(1 for s in last["table"]["seats"] if s["chips"] > 0) == 1, last["table"]
    store = Store(db_url)
    records = list(store.finished_hands(t["id"]))
    store.close()
    assert [n for _t, n, _r in records] == list(range(1, played + 1))
    for _table, number, text in records:
        record = parse_record(text)
        outcome = replay(record)
        assert outcome.error is None and outcome.complete
        finals = [
            m
            for m in frames
            if m["type"] == "state"
            and m["hand"]
            and m["hand"]["number"] == number
            and m["hand"]["final_stacks"]
        ]
        assert outcome.state is not None
        result = outcome.state.result
        assert result is not None
        assert finals and finals[-1]["hand"]["final_stacks"] == list(result.final_stacks)
        # Ana's frames of this hand name only her own cards and the cards shown (none of
        # her own once she is out of the match: she sees the public view).
        me = record.players.index("Ana") if "Ana" in record.players else -9
        mine = {
            c
            for line in record.actions
            if line.startswith((f"d dh p{me + 1} ", f"p{me + 1} x "))
            for c in cards_in(line)
        }
        shown = {c for m in finals for s in (m["hand"]["shown"] or []) if s for c in s["cards"]}
        for m in frames:
            if m["type"] == "state" and m["hand"] and m["hand"]["number"] == number:
                assert cards_in(m["hand"]) <= mine | shown


def _expected_timeout_line(state: dict[str, Any]) -> str:
    """online.md's least committal move, worked out from the seat's legal moves by hand."""
    legal, cards = state["legal"], state["hand"]["hand"]
    if legal["vote"]:
        return "y"
    if legal["declare"]:
        return f"dc {evaluate(cards).category.label}"
    if 0 in legal["exchange"]:
        return "x"
    if 1 in legal["exchange"]:
        assert len(cards) == 2  # the first round: keep the card of more points
        a, b = (parse_card(c) for c in cards)
        return f"x {b if a.points > b.points else a}"
    if legal["bet"] is not None and legal["bet"][0] == 0:
        return "b 0"
    if legal["call"] == 0:
        return "c"
    return "f"


def test_the_timer_makes_the_least_committal_move(db_url: str) -> None:
    clock = ManualClock(1_000_000.0)  # the server's clock: no real wait for the timer
    app = create_app(Settings(database_url=db_url, bot_pause=0, clock=clock, bot_processes=0))
    with TestClient(app) as client:
        _timer_moves(client, clock)


def _timer_moves(client: TestClient, clock: ManualClock) -> None:
    t, _ = post_table(client, {"seats": ["open", "random", "random", "random"], "turn_seconds": 60})
    token = join_table(client, t["id"], "Ana")
    with client.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
        waiting = until(ws, lambda m: m["type"] == "state" and m["legal"] is not None)
        assert waiting["deadline"] == clock.now() + 60  # the clock has not moved
        clock.advance(59)
        _resync(ws)  # not yet: nothing moved
        assert _resync(ws)["version"] == waiting["version"]
        clock.advance(1)
        expected = f"{waiting['hand']['seat']} {_expected_timeout_line(waiting)}"
        moved = until(ws, lambda m: m["type"] == "state" and m["version"] > waiting["version"])
        line = moved["hand"]["log"][len(waiting["hand"]["log"])]
        a, b = (parse_card(c) for c in waiting["hand"]["hand"])
        if len(expected.split()) == 3 and expected.split()[1] == "x" and a.points == b.points:
            assert line in {f"{expected.split()[0]} x {a}", f"{expected.split()[0]} x {b}"}
        else:
            assert line == expected
        others = until(ws, lambda m: m["type"] == "state" and m["legal"] is None)
        assert others["deadline"] is None  # only a person to act has a deadline


def test_a_failing_bot_makes_the_timer_move_and_the_table_goes_on(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from primero.bots import make_bot

    calls: list[int] = []

    def broken(kind: str, seed: int | None) -> Any:
        if kind == "random":
            return make_bot(kind, seed)

        def agent(view: Any) -> Any:
            calls.append(1)
            raise RuntimeError("a bug in the bot")

        return agent

    monkeypatch.setattr("primero.play.tablemodel.model.make_bot", broken)
    app = create_app(  # bots in threads of this process, where the patch holds
        Settings(database_url=f"sqlite:///{tmp_path / 'b.db'}", bot_pause=0, bot_processes=0)
    )
    with TestClient(app) as client:
        t, _ = post_table(
            client, {"seats": ["random", "random", "random", "heuristic"], "max_hands": 2}
        )
        with client.websocket_connect(f"/ws/tables/{t['id']}") as ws:
            over = until(
                ws, lambda m: m["type"] == "state" and m["table"]["status"] == "over", 5000
            )
    assert calls  # the broken bot was asked, failed, and the table went on to the end
    assert over["table"]["hands_played"] == 2 and over["hand"]["final_stacks"] is not None
    assert sum(over["hand"]["final_stacks"]) == sum(s["chips"] for s in over["table"]["seats"])


def test_a_stored_table_that_makes_no_game_does_not_stop_the_server(db_url: str) -> None:
    """A table stored before tables were checked (stack 1: all-in on the ante, R4.1) is
    "broken", listed with ``?status=broken`` and its detail, not resumed; the server
    starts and serves the others."""
    from primero.store.store import SeatRow, TableRow

    store = Store(db_url)
    try:
        store.migrate()
        row = TableRow(
            id="bad00001",
            name="no game",
            stack=1,
            rules={},
            turn_seconds=60,
            max_hands=None,
            status="playing",
            version=1,
            hands_played=0,
            dealer_index=0,
            created=1,
            seats=[SeatRow(i, f"Bot{i}", "random", None, 1) for i in range(4)],
        )
        with store.transaction() as conn:
            store.create_table(conn, row)
    finally:
        store.close()
    app = create_app(Settings(database_url=db_url, bot_pause=0, bot_processes=0))
    with TestClient(app) as c:
        assert c.get("/api/tables").json() == []
        listed = c.get("/api/tables", params={"status": "broken"}).json()
        assert [t["id"] for t in listed] == ["bad00001"]
        assert listed[0]["hands_played"] == 0 and listed[0]["status"] == "broken"
        assert "cannot be resumed" in listed[0]["detail"] and "R4.1" in listed[0]["detail"]
        made, _ = post_table(c, {"seats": ["random"] * 4, "turn_seconds": 0, "max_hands": 1})
        assert made["status"] == "playing"


def _play_to(ws: Any, pred: Any, limit: int = 3000) -> dict[str, Any]:
    """Read states, answering this seat's turns by the simple policy, until ``pred``."""
    acted: set[int] = set()
    for _ in range(limit):
        m: dict[str, Any] = ws.receive_json()
        if m["type"] != "state":
            continue
        if pred(m):
            return m
        if m["legal"] is not None and m["version"] not in acted:
            acted.add(m["version"])
            line = choose_line(m)
            ws.send_json(
                {"type": "action", "id": f"a{m['version']}", "line": line, "version": m["version"]}
            )
    raise AssertionError("the awaited state never came")


def test_the_result_stays_hand_pause_seconds_on_the_servers_clock(tmp_path: Path) -> None:
    """docs/protocol.md "Between hands": the finished hand stays until the server's clock
    has moved on by the table's hand_pause_seconds (no real wait: a ManualClock), whatever
    --bot-pause is (0 here); a table of bots alone does not wait."""
    clock = ManualClock(1_000_000.0)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'pause.db'}",
        bot_pause=0,
        clock=clock,
        bot_processes=0,
        hand_pause=5,
    )
    with TestClient(create_app(settings)) as client:
        bots, _ = post_table(client, {"seats": ["random"] * 4, "turn_seconds": 0, "stack": 1000})
        assert bots["hand_pause_seconds"] == 5  # the server's default
        t, host = post_table(
            client, {"seats": ["open", "random", "random", "random"], "turn_seconds": 0}
        )
        tid, auth = t["id"], {"Authorization": f"Bearer {host}"}
        for body, words in (
            (
                {"hand_pause_seconds": 3601},
                "Seconds a hand's result stays must be 0 to 3600, not 3601",
            ),
            ({"rebuy_seconds": -1}, "Seconds to wait for a rebuy must be 0 to 3600, not -1"),
            (
                {"chip_value": "ten"},
                'Money one chip is worth is a number such as "0.10" with at most 4 decimals, '
                "not 'ten'",
            ),
            (
                {"chip_value": "0"},
                "Money one chip is worth must be more than 0 and at most 1000000",
            ),
            ({"currency": "E1"}, "Currency is 1 to 8 letters, such as \"EUR\", not 'E1'"),
            (
                {"turn_seconds": 86401},
                "Turn timer must be 0 to 86400 seconds (0: none), not 86401",
            ),
            ({"hand_pause_seconds": "5"}, "Seconds a hand's result stays must be a whole number"),
        ):
            r = client.patch(f"/api/tables/{tid}", json=body, headers=auth)
            # every field named by its label in the host's form, the JSON shape kept
            assert (r.status_code, r.json()) == (400, {"detail": words}), r.text
        r = client.patch(
            f"/api/tables/{tid}",
            json={
                "hand_pause_seconds": 8,
                "rebuy_seconds": 12,
                "chip_value": "0,25",
                "currency": "EUR",
            },
            headers=auth,
        )
        assert r.status_code == 200, r.text
        got = r.json()
        assert (got["hand_pause_seconds"], got["rebuy_seconds"]) == (8, 12)
        assert (got["chip_value"], got["currency"], got["name"]) == ("0.25", "EUR", t["name"])
        token = join_table(client, tid, "Ana")
        with client.websocket_connect(f"/ws/tables/{tid}?token={token}") as ws:
            done = _play_to(ws, lambda m: m["table"]["hands_played"] == 1)  # stored as over
            assert done["hand"]["number"] == 1 and done["hand"]["result"] != []
            assert done["table"]["next_hand_at"] == clock.now() + 8
            clock.advance(7.5)
            ws.send_json({"type": "resync", "since": 0})
            still = until(ws, lambda m: m["type"] == "state")
            assert still["version"] == done["version"] and still["hand"]["number"] == 1
            assert still["hand"]["result"] == done["hand"]["result"]  # the result stays
            clock.advance(0.5)
            nxt = _play_to(ws, lambda m: m["hand"] is not None and m["hand"]["number"] == 2)
            assert nxt["table"]["next_hand_at"] is None
        # the money can be taken away again ("": chips only)
        r = client.patch(f"/api/tables/{tid}", json={"chip_value": ""}, headers=auth)
        assert r.json()["chip_value"] is None and r.json()["currency"] == "EUR"
        for _ in range(2000):  # the bots' table went on meanwhile, the clock never moved
            if client.get(f"/api/tables/{bots['id']}").json()["hands_played"] >= 2:
                break
            time.sleep(0.01)  # polling a server in another thread, not a timed wait
        else:
            raise AssertionError("the table of bots alone waited for the clock")


def test_the_rebuy_window_waits_for_who_went_broke_and_ends_when_she_chooses(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/protocol.md "Between hands": stacks of 3 at a rebuy table; once Ana goes
    broke the next deal waits for her choice (rebuy_wait, next_hand_at 30 s on), not for
    the clock, once she says no_rebuy; she stays in the ledger, broke: bought in 3, net -3."""
    monkeypatch.setenv(TEST_SEED_ENV, "2")  # Ana goes broke in hand 1
    clock = ManualClock(1_000_000.0)
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'rebuy.db'}",
        bot_pause=0,
        clock=clock,
        bot_processes=0,
        rebuy_seconds=30,
    )
    with TestClient(create_app(settings)) as client:
        body = {"seats": ["open", "random", "random", "random"], "stack": 3, "rebuy": True}
        t, _host = post_table(client, {**body, "turn_seconds": 0, "max_hands": 200})
        assert (t["rebuy_seconds"], t["hand_pause_seconds"]) == (30, 0)
        token = join_table(client, t["id"], "Ana")
        with client.websocket_connect(f"/ws/tables/{t['id']}?token={token}") as ws:
            broke = _play_to(ws, lambda m: m["table"]["rebuy_wait"] == [0])
            table = broke["table"]
            assert table["next_hand_at"] == clock.now() + 30
            assert table["seats"][0]["chips"] == 0 and table["status"] == "playing"
            assert table["seats"][0]["ledger"] == {"bought_in": 3, "net": -3}
            hands = table["hands_played"]
            ws.send_json({"type": "no_rebuy"})
            free = until(ws, lambda m: m["type"] == "state" and m["table"]["rebuy_wait"] == [])
            assert free["version"] == broke["version"]  # in memory: no new version
            assert free["table"]["next_hand_at"] is None
            # the next deal came without the clock moving
            until(ws, lambda m: m["type"] == "state" and m["table"]["hands_played"] > hands)
            ws.send_json({"type": "no_rebuy"})
            refused = until(ws, lambda m: m["type"] == "error")
            assert refused["message"] == (
                "the next hand is not waiting for you to rebuy: there is nothing to decline"
            )
