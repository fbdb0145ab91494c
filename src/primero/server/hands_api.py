"""The hands of a match from the server (docs/protocol.md "The hands of the match"):
``GET /api/tables/{id}/hands`` (public, R9b) and ``GET /api/tables/{id}/hands/{n}`` (as
the seat of ``Authorization: Bearer <seat token>`` saw it, else the public view).

Every card a reader did not see is ``??``: the lines and sentences come from
:func:`primero.engine.views.view` of the replayed hand for that seat; a showdown's cards
appear only in ``shown``. The dealer's seed is never sent. This is where "the last hand"
comes from, never from what one browser happened to see.
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, HTTPException, Request

from primero.engine.actions import Call, Raise, parse_action, seat_name
from primero.engine.history import HandRecord, parse_record
from primero.engine.state import HandState
from primero.engine.views import SeatView, view
from primero.play.tablemodel import sentence
from primero.play.tablemodel.sentences import result_sentences, shown_words
from primero.server.hub import Hub
from primero.server.models import HandRecordOut, HandSummaryOut, PotWonOut, ShownOut
from primero.server.runtime import TableRuntime
from primero.server.security import bearer_token

__all__ = ["hand_for", "router"]

router = APIRouter(prefix="/api/tables", tags=["hands"])


def _records(hub: Hub, table_id: str, number: int | None) -> list[tuple[int, str]]:
    return hub.store.hand_records(table_id, number)


def _replayed(record: HandRecord) -> tuple[HandState, list[int | None]]:
    """The finished hand, and for each line the chips a call put in, or a raise had to
    call (0: the round's first bet, R5), else None."""
    state = HandState(record.players, record.starting_stacks, record.rules)
    calls: list[int | None] = []
    for line in record.actions:
        action = parse_action(line, state.n)
        calls.append(state.legal_actions().call if isinstance(action, Call | Raise) else None)
        state.apply(action)
    return state, calls


def _shown(state: HandState, seat: int | None) -> list[ShownOut | None]:
    v = view(state, seat)
    out: list[ShownOut | None] = []
    for value, cards in zip(v.shown, v.shown_cards, strict=True):
        if value is None or cards is None:
            out.append(None)
        else:
            out.append(
                ShownOut(
                    category=value.category.label,
                    points=value.points,
                    cards=[str(c) for c in cards],
                    words=shown_words(value),
                )
            )
    return out


def _pots(v: SeatView) -> list[PotWonOut]:
    return [
        PotWonOut(amount=a.pot.amount, winners=[seat_name(w) for w in a.winners]) for a in v.awards
    ]


def public_hand(number: int, record: HandRecord) -> HandSummaryOut:
    """A finished hand's public summary (R9b): players, pots and winners, shown hands,
    final stacks."""
    state, _calls = _replayed(record)
    v = view(state, None)
    return HandSummaryOut(
        number=number,
        players=list(record.players),
        pots=_pots(v),
        shown=_shown(state, None),
        final_stacks=None if v.final_stacks is None else list(v.final_stacks),
    )


def hand_for(number: int, record: HandRecord, seat: int | None) -> HandRecordOut:
    """Hand ``number`` as ``seat`` (0-based seat of the hand; None: public) saw it: its
    lines with unseen cards as ``??``, its sentences, the closing ones also alone as
    ``result`` (the words the web client's result panel shows), and this seat's cards
    after each line (``own_cards``, empty lists for the public view)."""
    state, calls = _replayed(record)
    replay = HandState(record.players, record.starting_stacks, record.rules)
    own: list[list[str]] = []
    events: list[str] = []
    for line, call in zip(record.actions, calls, strict=True):
        action = parse_action(line, replay.n)
        replay.apply(action)
        events.append(
            sentence(
                action,
                viewer=seat,
                name=record.players[action.seat] if action.seat >= 0 else "the dealer",
                call=call,
            )
        )
        # the seat's cards as its view shows them (R9b), never the hand's own lists
        own.append([str(c) for c in view(replay, seat).hand] if seat is not None else [])
    v = view(state, seat)
    result = result_sentences(v)
    return HandRecordOut(
        number=number,
        variant="primero",
        seat=None if seat is None else seat_name(seat),
        players=list(record.players),
        starting_stacks=list(record.starting_stacks),
        actions=list(v.log),
        events=events + result,
        result=result,
        pots=_pots(v),
        own_cards=own,
        shown=_shown(state, seat),
        final_stacks=None if v.final_stacks is None else list(v.final_stacks),
    )


#: The largest hand number there can be (the database's hand numbers are 32-bit).
LAST_HAND = 2**31 - 1


async def _table(request: Request, table_id: str) -> tuple[Hub, TableRuntime]:
    hub: Hub = request.app.state.hub
    return hub, await hub.look(table_id)


@router.get(
    "/{table_id}/hands",
    summary="The finished hands (public)",
    responses={404: {"description": "no such table"}},
)
async def list_hands(table_id: str, request: Request) -> list[HandSummaryOut]:
    """Every finished hand, oldest first, numbered from 1: public information only."""
    hub, _rt = await _table(request, table_id)
    rows = await asyncio.to_thread(_records, hub, table_id, None)
    return await asyncio.to_thread(lambda: [public_hand(n, parse_record(text)) for n, text in rows])


@router.get(
    "/{table_id}/hands/{number}",
    summary="One finished hand as your seat saw it",
    responses={
        403: {"description": "a token that is no seat of this table"},
        404: {"description": "no such table, or no such finished hand"},
    },
)
async def get_hand(table_id: str, number: int, request: Request) -> HandRecordOut:
    """Hand ``number``; with ``Authorization: Bearer <seat token>`` as that seat saw it if
    it was dealt in, else the public view."""
    hub, rt = await _table(request, table_id)
    if not 1 <= number <= LAST_HAND:  # the database's integers are 32-bit
        raise HTTPException(404, f"no finished hand {number} at this table")
    token = bearer_token(request.headers.get("authorization"))
    name: str | None = None
    if token is not None:
        index = rt.seat_of(token)
        if index is not None:
            name = rt.row.seats[index].name
        else:  # a person whose seat a bot took keeps the hands they were dealt
            former = rt.former_seat(token)
            if former is None:
                raise HTTPException(403, "that token is no seat of this table")
            name = former[1]
    rows = await asyncio.to_thread(_records, hub, table_id, number)
    if not rows:
        raise HTTPException(404, f"no finished hand {number} at this table")
    record = parse_record(rows[0][1])
    seat: int | None = None
    if name is not None and name in record.players:
        seat = list(record.players).index(name)
    return await asyncio.to_thread(hand_for, number, record, seat)
