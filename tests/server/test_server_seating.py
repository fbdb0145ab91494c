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
from primero.store.evening import EveningRow, PresenceRow

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
    }


def test_the_summary_settles_the_people_and_the_bots() -> None:
    model = _model(rebuy=True)
    # Ana bought in 200 (one rebuy) and holds 60: -140; Ben +130; the bot Cleo +10.
    model.match.chips[:] = [60, 230, 110, 0]
    model.match.presence[0].bought_in = 200
    extras = seating.summary_extras(_runtime(model, EveningRow()))
    assert extras["settle"] == {
        "transfers": [
            {"payer": "Ana", "payee": "Ben", "chips": 130},
            {"payer": "Ana", "payee": "Bots", "chips": 10},
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
