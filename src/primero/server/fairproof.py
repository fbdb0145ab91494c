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
import hmac
import json
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fastapi import APIRouter, Request

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

if TYPE_CHECKING:
    from primero.play.tablemodel import TableModel
    from primero.store import TableRow

__all__ = [
    "REVEAL_WORDS",
    "client_seeds",
    "epoch_of",
    "epoch_seed",
    "install_dealer",
    "is_fair",
    "record_proof",
    "revealed_epochs",
    "revealed_record",
    "rotation_words",
    "router",
    "summary_fields",
]

#: What the lobby and the table say next to the commitment (docs/fair-deals.md "The
#: reveal").
REVEAL_WORDS = (
    "The server seed is revealed when the match ends; then anyone can check every deck, "
    "and every hand's cards (folded ones too) can be seen."
)


def rotation_words(hands: int) -> str:
    """The reveal in words for a table whose seed changes every ``hands`` hands."""
    every = "hand" if hands == 1 else f"{hands} hands"
    return (
        f"A new server seed every {every}: the old one is revealed then, so anyone can "
        "check those hands' decks, and their cards (folded ones too) can be seen."
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


def epoch_of(row: TableRow, number: int) -> int:
    """The seed period of hand ``number`` (from 1): 0 without rotation."""
    return 0 if not row.seed_rotation else (number - 1) // row.seed_rotation


def epoch_seed(row: TableRow, epoch: int) -> bytes:
    """The server seed of period ``epoch``: the stored secret itself without rotation,
    else HMAC-SHA256(stored secret, ``primero-fair-1 epoch <epoch>``) (docs/fair-deals.md
    "The reveal": revealing one period's seed reveals nothing of the others)."""
    assert row.server_seed is not None
    master = parse_server_seed(row.server_seed)
    if not row.seed_rotation:
        return master
    return hmac.digest(master, f"{SCHEME} epoch {epoch}".encode("ascii"), "sha256")


def revealed_epochs(row: TableRow) -> int:
    """How many seed periods are revealed: all of them once the match is over (R9, or
    the host ended it); with rotation, those before the period of the hand now due."""
    last = epoch_of(row, max(row.hands_played, 1))
    if row.status == "over":
        return last + 1
    return epoch_of(row, row.hands_played + 1)


def summary_fields(row: TableRow) -> dict[str, Any] | None:
    """The ``fair`` object of the table summary (None for a table without a commitment)."""
    if not is_fair(row):
        return None
    shown = revealed_epochs(row)
    current = epoch_of(row, row.hands_played + 1)
    if row.status == "over":
        current = epoch_of(row, max(row.hands_played, 1))
    seed = epoch_seed(row, current)
    revealed = []
    for e in range(shown):
        rot = row.seed_rotation
        first, last = (1, row.hands_played) if not rot else (e * rot + 1, (e + 1) * rot)
        s = epoch_seed(row, e)
        revealed.append(
            {
                "first_hand": first,
                "last_hand": min(last, row.hands_played),
                "commitment": commitment(s),
                "server_seed": s.hex(),
            }
        )
    return {
        "scheme": SCHEME,
        "commitment": commitment(seed),
        "client_seeds": client_seeds(row),
        "server_seed": seed.hex() if current < shown else None,
        "rotation": row.seed_rotation,
        "revealed": revealed,
        "note": rotation_words(row.seed_rotation) if row.seed_rotation else REVEAL_WORDS,
    }


def install_dealer(
    model: TableModel, row: TableRow, seeds: Sequence[str], number: int
) -> list[str]:
    """Make the fair dealer the dealer of the hand just started in ``model`` (hand
    ``number``), with the client seeds ``seeds`` (table order) of the players dealt in.

    Returns:
        The hand's client seeds in seat order p1…pN (the record's order).
    """
    hand_seeds = [seeds[i] for i in model.match.seats]
    seed = epoch_seed(row, epoch_of(row, number))
    model.match.dealer = FairDealer(seed, hand_seeds, number)
    return hand_seeds


def record_proof(row: TableRow, model: TableModel, number: int) -> dict[str, Any] | None:
    """The ``fair`` table for the record of the finished hand ``number`` (not revealed:
    the seed is added when the record is read after its reveal)."""
    dealer = model.match.dealer
    if row.server_seed is None or not isinstance(dealer, FairDealer):
        return None
    seed = epoch_seed(row, epoch_of(row, number))
    return proof_fields(commitment(seed), list(dealer.client_seeds), number)


def revealed_record(text: str, row: TableRow) -> HandRecord:
    """A stored record, with its server seed in its proof once that seed is revealed.

    Raises:
        RecordError: the stored text is not a record.
    """
    record = parse_record(text)
    fair = record.extra.get("fair")
    if row.server_seed is None or not isinstance(fair, dict):
        return record
    number = fair.get("hand")
    if type(number) is int and number >= 1 and epoch_of(row, number) < revealed_epochs(row):
        record.extra["fair"] = dict(fair, server_seed=epoch_seed(row, epoch_of(row, number)).hex())
    return record


def _proof(rt: Any) -> dict[str, Any]:
    """The proof of ``rt`` (a :class:`~primero.server.runtime.TableRuntime`; read in a
    thread: it reads the store)."""
    row = rt.row
    stored = rt.store.hand_records(row.id)  # (number, .prh text), in order
    fair = summary_fields(row)
    hands: list[dict[str, Any]] = []
    for number, text in stored:
        record = revealed_record(text, row)
        proof = record.extra.get("fair")
        if not isinstance(proof, dict):
            continue
        entry: dict[str, Any] = {
            "number": number,
            "commitment": proof["commitment"],
            "client_seeds": proof["client_seeds"],
        }
        if "server_seed" in proof:  # R9b: every card only once its seed is public
            entry["record"] = json.loads(dump_record(record, "json"))
        hands.append(entry)
    return {
        "table": row.id,
        "scheme": SCHEME,
        "commitment": None if fair is None else fair["commitment"],
        "client_seeds": None if fair is None else fair["client_seeds"],
        "server_seed": None if fair is None else fair["server_seed"],
        "revealed": fair is not None and row.status == "over",
        "rotation": row.seed_rotation,
        "note": REVEAL_WORDS if fair is None else fair["note"],
        "hands": hands,
    }


@router.get(
    "/{table_id}/proof",
    summary="What anyone needs to check the deals (docs/fair-deals.md)",
    description="The table's commitment, the client seeds in use (table order) and, for "
    "every finished hand, its number, commitment and client seeds (seat order p1…pN). "
    "For every hand whose seed is revealed (the match is over, or with `seed_rotation` "
    "its period has passed): its complete record (JSON, with its `fair` proof and the "
    "seed). No other card is in it (R9b).",
    responses={404: {"description": "no such table"}},
)
async def proof(table_id: str, request: Request) -> dict[str, Any]:
    """The table's proof (public: it holds nothing a seat may not see)."""
    rt = await request.app.state.hub.look(table_id)
    return await asyncio.to_thread(_proof, rt)
