"""Check a hand's deals against its proof (docs/fair-deals.md "Verifying").

A record dealt by :class:`~primero.engine.fairdeal.FairDealer` carries a ``fair`` table
(docs/record-format.md): the scheme, the commitment, the client seeds in seat order, the
hand number and, once revealed, the server seed. :func:`verify_record` recomputes every
deal line from them and gives one :class:`Verdict`:

- ``"verified"``: the seed matches the commitment and every dealt card is the deck's;
- ``"differs"``: the seed does not match the commitment, or the first card that differs
  (which line, which card, what the deck gives);
- ``"not verifiable"``: the proof fields are missing or malformed (a record from before
  the reveal, or from a dealer that is not this scheme's), or the lines do not replay.

>>> from primero.engine.history import HandRecord
>>> verify_record(HandRecord(("Ana", "Ben"), (5, 5), [])).status
'not verifiable'
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal

from primero.engine.actions import Deal, parse_action
from primero.engine.cards import Card
from primero.engine.errors import PrimeroError
from primero.engine.fairdeal import SCHEME, ClientSeedError, FairDealer, check_client_seed
from primero.engine.history import HandRecord
from primero.engine.state import HandState

__all__ = ["EXIT_CODES", "Proof", "Verdict", "proof_fields", "proof_of", "verify_record"]

Status = Literal["verified", "differs", "not verifiable"]

#: The exit status of ``primero verify`` for each verdict.
EXIT_CODES: Final[Mapping[str, int]] = {"verified": 0, "differs": 1, "not verifiable": 2}

_HEX: Final = frozenset("0123456789abcdef")


@dataclass(frozen=True, slots=True)
class Verdict:
    """What checking one hand found.

    Attributes:
        status: ``"verified"``, ``"differs"`` or ``"not verifiable"``.
        reason: one sentence a player reads (for ``"verified"``: how many cards).
        line: the 0-based index in ``actions`` of the line that differs, else None.
    """

    status: Status
    reason: str
    line: int | None = None


@dataclass(frozen=True, slots=True)
class Proof:
    """A record's proof fields (docs/record-format.md, the ``fair`` table).

    Attributes:
        commitment: SHA-256 of the server seed, 64 lower-case hex characters.
        client_seeds: one per player, seat order p1…pN.
        hand: the hand's number in the match (>= 1).
        server_seed: the revealed seed (32 bytes), or None before the reveal.
    """

    commitment: str
    client_seeds: tuple[str, ...]
    hand: int
    server_seed: bytes | None


def proof_fields(
    commitment: str, client_seeds: list[str], hand: int, server_seed: bytes | None = None
) -> dict[str, Any]:
    """The ``fair`` table of a record (docs/record-format.md): ``server_seed`` only once
    it is revealed."""
    fields: dict[str, Any] = {
        "scheme": SCHEME,
        "commitment": commitment,
        "client_seeds": list(client_seeds),
        "hand": hand,
    }
    if server_seed is not None:
        fields["server_seed"] = server_seed.hex()
    return fields


def _is_hex(text: object, length: int) -> bool:
    return isinstance(text, str) and len(text) == length and set(text) <= _HEX


def proof_of(record: HandRecord) -> Proof | str:
    """The record's proof, or why it has none (a sentence)."""
    fair = record.extra.get("fair")
    if not isinstance(fair, Mapping):
        return "the record has no proof fields (the fair table): it was not dealt from a commitment"
    if fair.get("scheme") != SCHEME:
        return f"the proof's scheme is not {SCHEME!r}"
    if not _is_hex(fair.get("commitment"), 64):
        return "the proof's commitment is not 64 lower-case hexadecimal characters"
    seeds: Any = fair.get("client_seeds")
    if not isinstance(seeds, list) or len(seeds) != len(record.players):
        return f"the proof needs one client seed per player ({len(record.players)})"
    try:
        client_seeds = tuple(check_client_seed(s) if isinstance(s, str) else "" for s in seeds)
        if "" in client_seeds:
            raise ClientSeedError("a client seed is not text")
    except ClientSeedError:
        return "the proof's client seeds are not valid"
    hand = fair.get("hand")
    if type(hand) is not int or hand < 1:
        return "the proof's hand number is not a whole number >= 1"
    revealed = fair.get("server_seed")
    if revealed is None:
        return Proof(fair["commitment"], client_seeds, hand, None)
    if not _is_hex(revealed, 64):
        return "the revealed server seed is not 64 lower-case hexadecimal characters"
    return Proof(fair["commitment"], client_seeds, hand, bytes.fromhex(revealed))


def verify_record(record: HandRecord) -> Verdict:
    """Check every deal line of ``record`` against its proof (docs/fair-deals.md).

    Never raises for a bad record: a record that cannot be checked is ``"not verifiable"``.
    """
    proof = proof_of(record)
    if isinstance(proof, str):
        return Verdict("not verifiable", proof)
    if proof.server_seed is None:
        return Verdict(
            "not verifiable", "the server seed is not revealed yet (it is when the match ends)"
        )
    if hashlib.sha256(proof.server_seed).hexdigest() != proof.commitment:
        return Verdict(
            "differs",
            "the revealed server seed does not match the commitment (its SHA-256 differs)",
        )
    try:
        state = HandState(record.players, record.starting_stacks, record.rules)
    except PrimeroError as exc:
        return Verdict("not verifiable", f"the record's header does not make a hand: {exc}")
    dealer = FairDealer(proof.server_seed, proof.client_seeds, proof.hand)
    cards = 0
    for index, line in enumerate(record.actions):
        try:
            action = parse_action(line, state.n)
            if isinstance(action, Deal):
                expected = dealer.deal(state)
                found = _first_difference(action, expected)
                if found is not None:
                    return Verdict("differs", f"line {index + 1} ({line!r}): {found}", index)
                cards += len(action.cards)
            state.apply(action)
        except PrimeroError as exc:
            return Verdict("not verifiable", f"line {index + 1} ({line!r}) does not replay: {exc}")
    return Verdict(
        "verified", f"hand {proof.hand}: all {cards} dealt cards are the committed deck's"
    )


def _first_difference(found: Deal, expected: Deal) -> str | None:
    if found.seat != expected.seat:
        return f"the deck deals to p{expected.seat + 1} here, not p{found.seat + 1}"
    got: list[Card | None] = [*found.cards]
    want: list[Card | None] = [*expected.cards]
    for i in range(max(len(got), len(want))):
        g = got[i] if i < len(got) else None
        w = want[i] if i < len(want) else None
        if g != w:
            return (
                f"card {i + 1} is {g if g is not None else 'missing'}, "
                f"the committed deck gives {w if w is not None else 'no card'}"
            )
    return None
