"""Fair deals at online tables (docs/fair-deals.md): the dealer of each hand, the
commitment in the table summary (so in the lobby and in every state message), the proof
fields of each record, the reveal when the match is over, and
``GET /api/tables/{id}/proof``.

A table stored before fair deals (no server seed) keeps the seeded dealer, and so does a
server run with the test-only fixed seed (:data:`~primero.server.settings.TEST_SEED_ENV`),
whose tests count on the seeded cards.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request
from sqlalchemy import select

from primero.engine.fairdeal import (
    DEFAULT_CLIENT_SEED,
    SCHEME,
    FairDealer,
    commitment,
    parse_server_seed,
)
from primero.engine.fairverify import proof_fields
from primero.engine.history import HandRecord, dump_record, parse_record
from primero.server.settings import fixed_test_seed
from primero.store.schema import hands as hands_table

if TYPE_CHECKING:
    from primero.play.tablemodel import TableModel
    from primero.server.hub import Hub
    from primero.server.runtime import TableRuntime
    from primero.store import TableRow

__all__ = [
    "REVEAL_WORDS",
    "client_seeds",
    "install_dealer",
    "is_fair",
    "record_proof",
    "revealed_record",
    "router",
    "summary_fields",
]

#: What the lobby and the table say next to the commitment (docs/fair-deals.md "The
#: reveal").
REVEAL_WORDS = (
    "The server seed is revealed when the match ends; then anyone can check every deck, "
    "and every hand's cards (folded ones too) can be seen."
)

router = APIRouter(prefix="/api/tables", tags=["hands"])


def is_fair(row: TableRow) -> bool:
    """Whether the table's hands are dealt from its committed seed."""
    return row.server_seed is not None and fixed_test_seed() is None


def client_seeds(row: TableRow) -> list[str]:
    """The client seed of every seat in table order: a person's own, else the public
    default (bots, open seats, people who sent none)."""
    return [
        s.client_seed if s.kind == "person" and s.client_seed else DEFAULT_CLIENT_SEED
        for s in row.seats
    ]


def revealed(row: TableRow) -> bool:
    """Whether the server seed is public: the match is over (R9) or the host ended it."""
    return row.status == "over"


def summary_fields(row: TableRow) -> dict[str, Any] | None:
    """The ``fair`` object of the table summary (None for a table without a commitment)."""
    if not is_fair(row):
        return None
    assert row.server_seed is not None
    seed = parse_server_seed(row.server_seed)
    return {
        "scheme": SCHEME,
        "commitment": commitment(seed),
        "client_seeds": client_seeds(row),
        "server_seed": seed.hex() if revealed(row) else None,
        "note": REVEAL_WORDS,
    }


def install_dealer(
    model: TableModel, row: TableRow, seeds: Sequence[str], number: int
) -> list[str]:
    """Make the fair dealer the dealer of the hand just started in ``model`` (hand
    ``number``), with the client seeds ``seeds`` (table order) of the players dealt in.

    Returns:
        The hand's client seeds in seat order p1…pN (the record's order).
    """
    assert row.server_seed is not None
    hand_seeds = [seeds[i] for i in model.match.seats]
    model.match.dealer = FairDealer(parse_server_seed(row.server_seed), hand_seeds, number)
    return hand_seeds


def record_proof(row: TableRow, model: TableModel, number: int) -> dict[str, Any] | None:
    """The ``fair`` table for the record of the finished hand ``number`` (not revealed:
    the seed is added when the record is read after the reveal)."""
    dealer = model.match.dealer
    if row.server_seed is None or not isinstance(dealer, FairDealer):
        return None
    seed = parse_server_seed(row.server_seed)
    return proof_fields(commitment(seed), list(dealer.client_seeds), number)


def revealed_record(text: str, server_seed: str | None, over: bool) -> HandRecord:
    """A stored record, with the server seed in its proof when it is revealed.

    Raises:
        RecordError: the stored text is not a record.
    """
    record = parse_record(text)
    fair = record.extra.get("fair")
    if over and server_seed is not None and isinstance(fair, dict):
        record.extra["fair"] = dict(fair, server_seed=server_seed.lower())
    return record


def _proof(rt: TableRuntime) -> dict[str, Any]:
    row = rt.row
    query = (
        select(hands_table.c.number, hands_table.c.record, hands_table.c.client_seeds)
        .where(hands_table.c.table_id == row.id, hands_table.c.record.is_not(None))
        .order_by(hands_table.c.number)
    )
    with rt.store.engine.connect() as conn:
        stored = list(conn.execute(query))
    fair = summary_fields(row)
    over = revealed(row)
    hands: list[dict[str, Any]] = []
    for r in stored:
        record = revealed_record(r.record, row.server_seed, over)
        proof = record.extra.get("fair")
        if not isinstance(proof, dict):
            continue
        entry: dict[str, Any] = {"number": r.number, "client_seeds": proof["client_seeds"]}
        if over:  # R9b: every card only once the seed is public
            entry["record"] = json.loads(dump_record(record, "json"))
        hands.append(entry)
    return {
        "table": row.id,
        "scheme": SCHEME,
        "commitment": None if fair is None else fair["commitment"],
        "client_seeds": None if fair is None else fair["client_seeds"],
        "server_seed": None if fair is None else fair["server_seed"],
        "revealed": over and fair is not None,
        "note": REVEAL_WORDS,
        "hands": hands,
    }


@router.get(
    "/{table_id}/proof",
    summary="What anyone needs to check the deals (docs/fair-deals.md)",
    description="The table's commitment, the client seeds in use (table order) and, for "
    "every finished hand, its number and client seeds (seat order p1…pN). Once the "
    "match is over: the server seed and every finished hand's complete record (JSON, "
    "with its `fair` proof). Before that, no card is in it (R9b).",
)
async def proof(table_id: str, request: Request) -> dict[str, Any]:
    """The table's proof (public: it holds nothing a seat may not see)."""
    hub: Hub = request.app.state.hub
    rt = await hub.look(table_id)
    return await asyncio.to_thread(_proof, rt)
