"""The server's hints cache answers for the hand as it is now (docs/protocol.md, R9b).

``hints`` answers are cached per table, seat and version: asked twice at one version,
the odds are computed once; asked after the hand moved (a new version), they are
computed afresh. A cache key without the version survived a mutation sweep
(CONTRIBUTING.md "Mutation testing"): these tests ask, move the hand, and ask again.

The handler runs here against a stand-in for the table runtime (its command queue, version,
model, row id and the hub's worker pool: all the handler reads), with a real hand and the real odds.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, cast

import pytest

from primero.engine.history import HandRecord, replay
from primero.engine.state import HandState
from primero.engine.views import SeatView, view
from primero.play.hints import seat_hints
from primero.server import hints
from primero.server.actor import TableActor
from primero.server.runtime import TableRuntime

NAMES = ("Ana", "Ben", "Cleo", "Dev")
#: p1 holds 7h 6h, then Ah 2c from the second deal (docs/rules.md's seat order, R4).
LINES = [
    "d dh p1 7h 6h",
    "d dh p2 Ac 2d",
    "d dh p3 Ks Qs",
    "d dh p4 5h 5d",
    "p1 b 2",
    "p2 y",
    "p2 c",
    "p3 c",
    "p4 f",
    "d dh p1 Ah 2c",
    "d dh p2 3c 4c",
    "d dh p3 Js 2s",
]


def _hand(lines: list[str]) -> HandState:
    outcome = replay(HandRecord(NAMES, (20, 20, 20, 20), lines))
    assert outcome.error is None and outcome.state is not None
    return outcome.state


@dataclass
class _Model:
    hand: HandState | None

    def view_for(self, index: int) -> SeatView:
        assert self.hand is not None
        return view(self.hand, index)


@dataclass
class _Row:
    id: str


@dataclass
class _Bots:
    """The worker pool's ``hints`` as the server calls it, run here in-process, counting
    the views it is asked about."""

    calls: list[SeatView] = field(default_factory=list)

    async def hints(self, v: SeatView) -> dict[str, Any]:
        self.calls.append(v)
        return seat_hints(v)


@dataclass
class _Hub:
    bots: _Bots = field(default_factory=_Bots)


@dataclass
class _Runtime:
    model: _Model
    version: int
    row: _Row = field(default_factory=lambda: _Row("t-hints"))
    commands: TableActor = field(default_factory=TableActor)
    hub: _Hub = field(default_factory=_Hub)


@dataclass
class _Client:
    index: int | None
    sent: list[dict[str, Any]] = field(default_factory=list)

    def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)


def _ask(rt: _Runtime, client: _Client) -> dict[str, Any]:
    asyncio.run(hints.hints_handler(cast(TableRuntime, rt), client, hints.HintsIn(type="hints")))
    return client.sent[-1]


@pytest.fixture(autouse=True)
def _empty_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "_cache", {})


def test_hints_asked_the_hand_moved_hints_asked_again() -> None:
    rt = _Runtime(_Model(_hand(LINES[:4])), version=7)
    client = _Client(index=0)
    first = _ask(rt, client)
    assert first["version"] == 7
    assert first["exchange"]["second_deal"] is True  # 2 cards: the second deal is ahead
    assert first["showdown"] is None

    rt.model.hand = _hand(LINES)  # the hand moved on: p1 holds 7h 6h Ah 2c
    rt.version = 8
    again = _ask(rt, client)
    assert again["version"] == 8
    assert again["exchange"]["second_deal"] is False  # 4 cards now (R4.4)
    assert again["showdown"] is not None and again["showdown"]["opponents"] == 2


def test_hints_asked_twice_at_one_version_are_computed_once() -> None:
    rt = _Runtime(_Model(_hand(LINES[:4])), version=1)
    calls = rt.hub.bots.calls
    a, b = _Client(index=0), _Client(index=0)
    assert _ask(rt, a) == _ask(rt, b)
    assert len(calls) == 1
    other = _Client(index=1)  # another seat: its own cards, its own answer
    assert _ask(rt, other)["exchange"] != a.sent[-1]["exchange"]
    assert len(calls) == 2
