"""The server's game-night adapter without a server (primero.server.seating; online.md
"A summary", "sit_out", "leave", "rebuy"): the summary's seat and table fields, why no
hand starts, the presence put back after a restart, each request's change.

Written for a mutmut sweep over ``server/seating.py`` (CONTRIBUTING.md "Mutation
testing"): the server tests reach these functions only through whole matches, and read
few of their fields. The runtime is a stand-in holding just what these functions read
(``model``, ``evening``, ``conns``, ``row``); the table model is the real one.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from primero.engine.errors import PrimeroError
from primero.play.tablemodel import TableModel
from primero.server import seating
from primero.store.evening import Between, EveningRow, FormerRow, PresenceRow

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
KINDS = ["person", "person", "random", "open"]


def _runtime(model: TableModel | None, evening: EveningRow, status: str = "playing") -> Any:
    seats = [
        SimpleNamespace(
            idx=i, kind=k, name=None if k == "open" else NAMES[i], chips=[90, 120, 100, 0][i]
        )
        for i, k in enumerate(KINDS)
    ]
    conns = [SimpleNamespace(index=1), SimpleNamespace(index=None), SimpleNamespace(index=2)]
    return SimpleNamespace(
        model=model,
        evening=evening,
        conns=conns,
        status=status,
        row=SimpleNamespace(seats=seats, stack=100, status=status),
        hub=SimpleNamespace(settings=SimpleNamespace(hand_pause=5.0, rebuy_seconds=30.0)),
    )


def _model(**kw: Any) -> TableModel:
    return TableModel(NAMES, [None, None, "random", "random"], seed=3, **kw)


def test_the_summary_of_a_table_in_play_reads_the_match() -> None:
    model = _model(rebuy=True)
    model.match.chips[:] = [60, 150, 100, 90]
    model.match.presence[0].bought_in = 200  # Ana rebought once
    model.match.sit_out(1)
    model.match.presence[3].left = True
    ev = EveningRow(rebuy=True, next_table="t2")
    extras = seating.summary_extras(_runtime(model, ev))
    assert extras == {
        "seat_extras": [
            {
                "sitting_out": False,
                "left": False,
                "connected": False,
                "stand_in": None,
                "ledger": {"bought_in": 200, "net": -140},
            },  # 60 - 200
            {
                "sitting_out": True,
                "left": False,
                "connected": True,  # a person, connected
                "stand_in": None,
                "ledger": {"bought_in": 100, "net": 50},
            },
            {
                "sitting_out": False,
                "left": False,
                "connected": False,  # a bot: never
                "stand_in": None,
                "ledger": {"bought_in": 100, "net": 0},
            },
            {
                "sitting_out": False,
                "left": True,
                "connected": False,  # an open seat
                "stand_in": None,
                "ledger": {"bought_in": 0, "net": 0},
            },
        ],
        # -140 + 50 + 0: chips set by hand that no table could hold
        "settle": {
            "transfers": [],
            "text": "The nets do not add up (-90 chips): nothing can be settled.",
        },
        "pending": None,  # no hand in progress
        "paused_by": None,
        "rebuy": True,
        "next_table": "t2",
        "spectator_chat": False,
        # docs/protocol.md "Private tables": an EveningRow stored before them is listed
        "listed": True,
        "approval": False,
        "host_seat": None,
        "removed": [],
        "hand_pause_seconds": 5,  # the server's defaults
        "rebuy_seconds": 30,
        "next_hand_at": None,
        "rebuy_wait": [],
        "chip_value": None,
        "currency": None,
        "former": [],
    }


def test_the_summary_settles_the_people_and_the_bots() -> None:
    model = _model(rebuy=True)
    # Ana bought in 200 (one rebuy) and holds 60: -140; Ben +130; the bot Cleo +10.
    model.match.chips[:] = [60, 230, 110, 0]
    model.match.presence[0].bought_in = 200
    extras = seating.summary_extras(_runtime(model, EveningRow()))
    assert extras["settle"] == {
        "transfers": [
            {"payer": "Ana", "payee": "Ben", "chips": 130, "money": None},
            {"payer": "Ana", "payee": "Bots", "chips": 10, "money": None},
        ],
        "text": "Ana pays Ben 130 chips\nAna pays Bots 10 chips",
    }


def test_the_summary_before_the_match_reads_the_stored_presence() -> None:
    ev = EveningRow(seats=[PresenceRow(0, True, False, 150), PresenceRow(1, False, True, 0)])
    extras = seating.summary_extras(_runtime(None, ev, status="waiting"))
    seats = extras["seat_extras"]
    # Ana: stored, bought in 150, 90 chips; Ben: stored with no ledger: the stack, 100
    assert seats[0] == {
        "sitting_out": True,
        "left": False,
        "connected": False,
        "stand_in": None,
        "ledger": {"bought_in": 150, "net": -60},
    }
    assert seats[1] == {
        "sitting_out": False,
        "left": True,
        "connected": True,
        "stand_in": None,
        "ledger": {"bought_in": 100, "net": 20},
    }
    # Cleo: nothing stored: neither sitting out nor left, the stack
    assert seats[2] == {
        "sitting_out": False,
        "left": False,
        "connected": False,
        "stand_in": None,
        "ledger": {"bought_in": 100, "net": 0},
    }
    assert (extras["pending"], extras["paused_by"], extras["rebuy"]) == (None, None, False)


@pytest.mark.parametrize(
    ("paused", "ended", "status", "pending", "paused_by"),
    [
        (False, True, "playing", "end", None),  # the host ended it: after this hand
        (True, False, "playing", "pause", None),  # the host paused it: after this hand
        (True, True, "playing", "end", None),  # ending wins over pausing
        (True, False, "paused", None, "host"),
        (False, False, "paused", None, "players"),  # too few to deal in
    ],
)
def test_pending_and_paused_by(
    paused: bool, ended: bool, status: str, pending: str | None, paused_by: str | None
) -> None:
    model = _model()
    model.start_hand()
    rt = _runtime(model, EveningRow(paused=paused, ended=ended), status=status)
    extras = seating.summary_extras(rt)
    assert (extras["pending"], extras["paused_by"]) == (pending, paused_by)


def test_merge_summary_puts_each_seats_fields_on_its_seat() -> None:
    summary = {"seats": [{"name": "Ana"}, {"name": "Ben"}], "status": "playing"}
    extras = {"seat_extras": [{"left": False}, {"left": True}], "rebuy": True}
    merged = seating.merge_summary(summary, extras)
    assert merged == {
        "seats": [{"name": "Ana", "left": False}, {"name": "Ben", "left": True}],
        "status": "playing",
        "rebuy": True,
    }


def test_hold_reason() -> None:
    model = _model()
    assert seating.hold_reason(_runtime(model, EveningRow())) is None
    assert seating.hold_reason(_runtime(model, EveningRow(paused=True))) == "host"
    assert seating.hold_reason(_runtime(None, EveningRow())) is None  # no match yet
    model.match.chips[:] = [100, 0, 0, 0]
    assert seating.hold_reason(_runtime(model, EveningRow())) == "players"
    assert seating.hold_reason(_runtime(model, EveningRow(paused=True))) == "host"


def test_presence_rows_are_every_seats_stored_fields() -> None:
    model = _model()
    model.match.sit_out(1)
    model.match.presence[2].bought_in = 250
    assert seating.presence_rows(model) == [
        PresenceRow(0, False, False, 100),
        PresenceRow(1, True, False, 100),
        PresenceRow(2, False, False, 250),
        PresenceRow(3, False, False, 100),
    ]


def test_restore_puts_the_stored_presence_back() -> None:
    model = _model()
    ev = EveningRow(
        ended=True,
        seats=[
            PresenceRow(0, True, False, 300),
            PresenceRow(1, False, True, 0),
            PresenceRow(4, True, True, 50),
            PresenceRow(-1, True, True, 50),
        ],  # no such seats
    )
    seating.restore(model, ev)
    p = model.match.presence
    assert (p[0].sitting_out, p[0].left, p[0].bought_in) == (True, False, 300)
    assert (p[1].sitting_out, p[1].left, p[1].bought_in) == (False, True, 100)  # 0: kept
    assert model.match.ended and model.over
    fresh = _model()
    seating.restore(fresh, EveningRow(seats=[PresenceRow(0, False, False, 0)]))
    assert not fresh.match.ended


@pytest.mark.parametrize("what", ["sit_out", "sit_in", "leave", "rebuy"])
def test_each_request_changes_what_it_names(what: str) -> None:
    model = _model(rebuy=True)
    model.match.chips[1] = 40
    model.match.presence[1].away = True
    change = seating._change(model.match, what, 1)
    if what == "rebuy":
        assert change() is True and model.match.chips[1] == 100
        return
    change()
    p = model.match.presence[1]
    assert (p.sitting_out, p.away, p.left) == {
        "sit_out": (True, True, False),
        "sit_in": (False, False, False),
        "leave": (False, True, True),
    }[what]


def test_a_refused_request_changes_nothing() -> None:
    model = _model()  # no rebuys at this table
    with pytest.raises(PrimeroError, match=r"^this table has no rebuys$"):
        seating._change(model.match, "rebuy", 0)()
    assert model.match.chips == [100, 100, 100, 100]
    assert model.match.presence[0].bought_in == 100


# --------------------------------------------------------------------------- between hands


def test_the_result_stays_and_the_rebuy_window_waits_for_who_just_went_broke() -> None:
    # docs/protocol.md "Between hands": Ana (a person) and the bot Cleo end the hand with
    # no chips; the result stays 5 s, the window waits 30 s for Ana alone (bots never rebuy)
    model = _model(rebuy=True)
    model.match.chips[:] = [0, 250, 0, 150]
    rt = _runtime(model, EveningRow(rebuy=True, hand_pause=5, rebuy_seconds=30))
    seating.open_between(rt, set(), 1000.0)
    assert rt.evening.between == Between(1005.0, 1030.0, frozenset({0}))
    assert seating.next_hand_at(rt) == 1030.0
    extras = seating.summary_extras(rt)
    assert (extras["next_hand_at"], extras["rebuy_wait"]) == (1030.0, [0])
    model.match.ask_rebuy(0)  # between hands: at once
    assert model.match.chips[0] == 100 and seating.still_waited(rt) == set()
    assert seating.next_hand_at(rt) == 1005.0  # the result still stays its 5 s
    assert seating.summary_extras(rt)["rebuy_wait"] == []
    seating.close_between(rt)
    assert seating.next_hand_at(rt) is None and seating.summary_extras(rt)["next_hand_at"] is None


def test_the_rebuy_window_ends_with_no_rebuy_or_leave_and_skips_the_broke_before() -> None:
    model = _model(rebuy=True)
    model.match.chips[:] = [0, 0, 200, 200]
    rt = _runtime(model, EveningRow(rebuy=True, hand_pause=0, rebuy_seconds=20))
    seating.open_between(rt, {1}, 50.0)  # Ben was broke before this hand: not waited for
    assert rt.evening.between == Between(None, 70.0, frozenset({0}))
    assert seating.next_hand_at(rt) == 70.0
    rt.evening.between = Between(None, 70.0, frozenset())  # her no_rebuy
    assert seating.next_hand_at(rt) is None
    seating.open_between(rt, set(), 50.0)
    assert rt.evening.between.rebuy_wait == {0, 1}
    model.match.leave(0)  # between hands: left at once
    assert seating.still_waited(rt) == {1} and seating.next_hand_at(rt) == 70.0


def test_no_window_without_rebuys_and_no_pause_with_no_person_seated() -> None:
    model = _model()  # no rebuys
    model.match.chips[:] = [0, 200, 100, 100]
    rt = _runtime(model, EveningRow(hand_pause=7, rebuy_seconds=30))
    seating.open_between(rt, set(), 10.0)
    assert rt.evening.between == Between(17.0, None, frozenset())
    assert seating.next_hand_at(rt) == 17.0
    model = _model(rebuy=True)
    model.match.chips[:] = [0, 200, 100, 100]
    rt = _runtime(model, EveningRow(rebuy=True, hand_pause=7, rebuy_seconds=0))
    seating.open_between(rt, set(), 10.0)  # a window of 0 s: none
    assert (rt.evening.between.rebuy_until, seating.next_hand_at(rt)) == (None, 17.0)
    model.match.leave(0)
    model.match.leave(1)
    rt = _runtime(model, EveningRow(rebuy=True))  # the server's 5 s and 30 s
    seating.open_between(rt, set(), 10.0)  # every person left: bots alone skip the pause
    assert seating.next_hand_at(rt) is None
    assert (seating.hand_pause(rt), seating.rebuy_seconds(rt)) == (5, 30)
    model = _model(rebuy=True)
    model.match.chips[:] = [0, 300, 0, 0]
    model.match.end()  # the last hand: the match is over, no next deal to wait for
    rt = _runtime(model, EveningRow(rebuy=True, hand_pause=7, rebuy_seconds=30))
    seating.open_between(rt, set(), 10.0)
    assert rt.evening.between == Between()
    assert seating.next_hand_at(rt) is None


def test_a_person_whose_seat_a_bot_took_stays_in_the_ledger_and_settles_in_money() -> None:
    # Ana bought in 100 and left with 60; the bot Lorenzo took her seat with those 60
    # chips (bought in 60) and holds 100 now: +40; Ben 100 -> 120: +20; the bot Cleo
    # 100 -> 80: -20; Dev's seat is open. The seats hold the 300 chips Ana, Ben and Cleo
    # bought. Nets: Ana -40, Ben +20, Bots +40 - 20 = +20: they sum to zero.
    model = _model()
    model.match.chips[:] = [100, 120, 80, 0]
    model.match.presence[0].bought_in = 60
    ev = EveningRow(
        former=[FormerRow(0, "Ana", "h" * 64, 100, 60)], chip_value="0.10", currency="EUR"
    )
    rt = _runtime(model, ev)
    rt.row.seats[0].kind, rt.row.seats[0].name = "heuristic", "Lorenzo"
    extras = seating.summary_extras(rt)
    assert extras["former"] == [
        {"seat": 0, "name": "Ana", "chips": 60, "ledger": {"bought_in": 100, "net": -40}}
    ]
    nets = [s["ledger"]["net"] for s in extras["seat_extras"]]
    assert nets == [40, 20, -20, 0] and sum(nets) + extras["former"][0]["ledger"]["net"] == 0
    assert extras["settle"] == {
        "transfers": [
            {"payer": "Ana", "payee": "Ben", "chips": 20, "money": "2.00"},
            {"payer": "Ana", "payee": "Bots", "chips": 20, "money": "2.00"},
        ],
        "text": "Ana pays Ben 20 chips (2.00 EUR)\nAna pays Bots 20 chips (2.00 EUR)\n"
        "1 chip = 0.10 EUR",
    }
    assert (extras["chip_value"], extras["currency"]) == ("0.10", "EUR")


def test_too_few_players_keeps_the_rebuy_window_for_every_person_who_went_broke() -> None:
    # docs/protocol.md "Between hands": Ana and Ben (people) and the bot Dev end one hand
    # with no chips; the bot Cleo alone can be dealt: paused by the players. Ana's rebuy
    # makes two seats dealable, yet the next deal still waits for Ben up to the window's
    # end (1030), not at once; his rebuy (or no_rebuy) ends the wait.
    model = _model(rebuy=True)
    model.match.chips[:] = [0, 0, 400, 0]
    rt = _runtime(model, EveningRow(rebuy=True, hand_pause=5, rebuy_seconds=30), "paused")
    seating.open_between(rt, set(), 1000.0)
    assert seating.held(rt) == "players"
    assert rt.evening.between == Between(1005.0, 1030.0, frozenset({0, 1}))
    assert seating.summary_extras(rt)["rebuy_wait"] == [0, 1]  # the page offers "Not now"
    model.match.ask_rebuy(0)
    assert seating.held(rt) is None
    assert seating.still_waited(rt) == {1} and seating.next_hand_at(rt) == 1030.0
    model.match.ask_rebuy(1)
    assert seating.still_waited(rt) == set() and seating.next_hand_at(rt) == 1005.0
    rt.evening.paused = True  # the host's pause drops the waits
    assert seating.held(rt) == "host" and seating.next_hand_at(rt) is None
