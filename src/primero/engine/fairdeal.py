"""Deals anyone can check: the committed-seed dealer of online tables (docs/fair-deals.md).

The scheme, in short (the page above is the contract; this module is its Python
implementation and must agree with it byte for byte):

- a table's secret **server seed** is 32 bytes from the operating system (:func:`new_server_seed`);
  its **commitment** is the SHA-256 of those 32 bytes in lower-case hex (:func:`commitment`);
- every player dealt in brings a public **client seed** (:func:`check_client_seed`), or the
  public default :data:`DEFAULT_CLIENT_SEED`;
- shuffle ``k`` of hand ``h`` (k = 0 for the hand's first deck, then one more for every
  later shuffle: a void deal's new deck, R4.3, or a reshuffle of the discards, R8b) reads
  the byte stream HMAC-SHA256(server seed, :func:`stream_message`) for counters 0, 1, 2…;
- an unbiased Fisher–Yates shuffle (:func:`shuffle`, rejection sampling) orders the cards,
  which are dealt from the top (R10: live games are dealt from a secure source; the server
  seed is that source, and nobody holding only the commitment can compute a card, R9b).

Offline play keeps :meth:`Dealer.seeded <primero.engine.dealing.Dealer.seeded>` unchanged.

>>> seed = bytes(range(32))
>>> commitment(seed)
'630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'
>>> [str(c) for c in deck_order(seed, ["alpha", "beta"], 1)[:5]]
['2s', 'Jd', 'Js', '4c', 'Ks']
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterator, Sequence
from typing import Final, TypeVar

from primero.engine.actions import Deal
from primero.engine.cards import DECK, Card
from primero.engine.dealing import Dealer
from primero.engine.errors import PrimeroError, WrongTurnError
from primero.engine.state import HandState

__all__ = [
    "CLIENT_SEED_MAX",
    "DEFAULT_CLIENT_SEED",
    "SCHEME",
    "ClientSeedError",
    "FairDealer",
    "byte_stream",
    "check_client_seed",
    "client_seeds_or_default",
    "commitment",
    "deck_order",
    "keyed_shuffle",
    "new_server_seed",
    "parse_server_seed",
    "shuffle",
    "stream_message",
    "uniform",
]

T = TypeVar("T")

#: The scheme's name, the first line of every stream message and the ``scheme`` field
#: of a record's proof (docs/record-format.md).
SCHEME: Final = "primero-fair-1"
#: The client seed of a player who brought none (public, docs/fair-deals.md).
DEFAULT_CLIENT_SEED: Final = "primero-default"
#: The most characters a client seed may hold.
CLIENT_SEED_MAX: Final = 64


class ClientSeedError(PrimeroError, ValueError):
    """A client seed that is too long or holds a character that is not printable ASCII;
    the message says which, in words a player reads."""


def new_server_seed() -> bytes:
    """A new secret server seed: 32 bytes from the operating system (:mod:`secrets`, R10)."""
    return secrets.token_bytes(32)


def commitment(server_seed: bytes) -> str:
    """The public commitment to a server seed: SHA-256 of its 32 bytes, 64 lower-case
    hex characters.

    Raises:
        ValueError: the seed is not 32 bytes.
    """
    if len(server_seed) != 32:
        raise ValueError(f"a server seed is 32 bytes, not {len(server_seed)}")
    return hashlib.sha256(server_seed).hexdigest()


def parse_server_seed(text: str) -> bytes:
    """A server seed from its 64 hex characters (either case).

    Raises:
        ValueError: not 64 hex characters (the message says so).
    """
    if len(text) != 64 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError("a server seed is written as 64 hexadecimal characters")
    return bytes.fromhex(text)


def check_client_seed(seed: str) -> str:
    """``seed`` if it may be a client seed: 1 to 64 characters, each printable ASCII
    (space to ``~``, U+0020-U+007E).

    Raises:
        ClientSeedError: empty, longer than 64 characters, or a character outside that
            range (the message names its position).
    """
    if not seed:
        raise ClientSeedError("a client seed needs at least one character")
    if len(seed) > CLIENT_SEED_MAX:
        raise ClientSeedError(
            f"a client seed holds at most {CLIENT_SEED_MAX} characters, not {len(seed)}"
        )
    for i, ch in enumerate(seed, start=1):
        if not " " <= ch <= "~":
            raise ClientSeedError(
                f"a client seed holds only printable ASCII characters (letters, digits, "
                f"punctuation, spaces); character {i} ({ch!r}) is not one"
            )
    return seed


def client_seeds_or_default(seeds: Sequence[str | None]) -> list[str]:
    """The client seeds in use: each checked, a missing or empty one replaced by
    :data:`DEFAULT_CLIENT_SEED`.

    Raises:
        ClientSeedError: a seed that is not valid (:func:`check_client_seed`).
    """
    return [check_client_seed(s) if s else DEFAULT_CLIENT_SEED for s in seeds]


def stream_message(
    client_seeds: Sequence[str], hand: int, shuffle_index: int, counter: int
) -> bytes:
    """The HMAC message of one 32-byte block: the ASCII text, lines joined by ``\\n``
    (no final newline), ``primero-fair-1``, the hand number, the shuffle index, the
    counter, the number of client seeds, then each client seed in seat order p1…pN.

    >>> stream_message(["a", "b c"], 3, 0, 1)
    b'primero-fair-1\\n3\\n0\\n1\\n2\\na\\nb c'
    """
    parts = [SCHEME, str(hand), str(shuffle_index), str(counter), str(len(client_seeds))]
    return "\n".join([*parts, *client_seeds]).encode("ascii")


def byte_stream(
    server_seed: bytes, client_seeds: Sequence[str], hand: int, shuffle_index: int
) -> Iterator[int]:
    """The bytes of shuffle ``shuffle_index`` of hand ``hand``: HMAC-SHA256 keyed by the
    server seed over :func:`stream_message` for counter 0, 1, 2…, the 32 bytes of each
    block in order (endless)."""
    counter = 0
    while True:
        message = stream_message(client_seeds, hand, shuffle_index, counter)
        yield from hmac.new(server_seed, message, hashlib.sha256).digest()
        counter += 1


def uniform(stream: Iterator[int], n: int) -> int:
    """A whole number uniformly drawn from ``0..n-1`` (1 <= n <= 256) by rejection: a
    byte ``b`` is taken when ``b < 256 - 256 % n`` and gives ``b % n``; otherwise the next
    byte is read (no modulo bias).

    Raises:
        ValueError: ``n`` outside 1..256.
    """
    if not 1 <= n <= 256:
        raise ValueError(f"uniform needs 1 <= n <= 256, not {n}")
    limit = 256 - 256 % n
    for b in stream:
        if b < limit:
            return b % n
    raise AssertionError("the stream is endless")  # pragma: no cover


def shuffle(items: Sequence[T], stream: Iterator[int]) -> list[T]:
    """Fisher–Yates (Durstenfeld): for ``i`` from ``len - 1`` down to 1, swap item ``i``
    with item ``uniform(stream, i + 1)``. The top of the deck is item 0."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = uniform(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


#: ``_LIMITS[n]``: the bytes below it are taken by :func:`uniform` for ``n``.
_LIMITS: Final = [0] + [256 - 256 % n for n in range(1, 257)]


def keyed_shuffle(
    items: Sequence[T],
    server_seed: bytes,
    client_seeds: Sequence[str],
    hand: int,
    shuffle_index: int,
) -> list[T]:
    """:func:`shuffle` of ``items`` by :func:`byte_stream` ``(server_seed, client_seeds,
    hand, shuffle_index)``: the same result, computed without a generator per byte (the
    dealer's and the verifier's path; the two are tested equal)."""
    head = f"{SCHEME}\n{hand}\n{shuffle_index}\n".encode("ascii")
    tail = "\n".join(["", str(len(client_seeds)), *client_seeds]).encode("ascii")
    out = list(items)
    block, pos, counter = b"", 32, 0
    for i in range(len(out) - 1, 0, -1):
        n = i + 1
        limit = _LIMITS[n]
        while True:
            if pos == 32:
                block = hmac.digest(server_seed, head + str(counter).encode() + tail, "sha256")
                pos, counter = 0, counter + 1
            b = block[pos]
            pos += 1
            if b < limit:
                break
        j = b % n
        out[i], out[j] = out[j], out[i]
    return out


def deck_order(
    server_seed: bytes, client_seeds: Sequence[str], hand: int, shuffle_index: int = 0
) -> list[Card]:
    """The 40 cards of a full shuffle, top first: the deck in card-id order (Ac…Ks, R1)
    shuffled by stream ``shuffle_index`` of ``hand``."""
    return keyed_shuffle(DECK, server_seed, client_seeds, hand, shuffle_index)


class FairDealer(Dealer):
    """Deals one hand from the committed seed and the players' client seeds.

    Cards come from the top of the current shuffle in order. The hand's first deck is
    shuffle 0; a void deal (R4.3) takes a new full shuffle and, when the stock runs out
    (R8b), the last stock cards are dealt and then the cards that form the new stock
    (:meth:`HandState.recyclable`), taken in card-id order, are shuffled; each new shuffle
    has the next index.

    Args:
        server_seed: the table's 32-byte secret.
        client_seeds: the hand's client seeds in seat order p1…pN (checked).
        hand: the hand's number in the match (1 for the first).

    Raises:
        ValueError: a server seed that is not 32 bytes, or hand < 1.
        ClientSeedError: an invalid client seed.
    """

    def __init__(self, server_seed: bytes, client_seeds: Sequence[str], hand: int) -> None:
        commitment(server_seed)  # checks the length
        if hand < 1:
            raise ValueError(f"hands are numbered from 1, not {hand}")
        super().__init__(_NoRandom())
        self.server_seed = server_seed
        self.client_seeds = tuple(check_client_seed(s) for s in client_seeds)
        self.hand = hand
        self.shuffles: int = 0  # the index of the current shuffle
        self.voids: int = 0  # the void deals seen
        self.order: list[Card] = deck_order(server_seed, self.client_seeds, hand, 0)

    def draft(self) -> FairDealer:
        """A copy at the same place in the same shuffles (see :meth:`Dealer.draft`)."""
        other = FairDealer(self.server_seed, self.client_seeds, self.hand)
        other.shuffles, other.voids, other.order = self.shuffles, self.voids, list(self.order)
        return other

    def _next_shuffle(self, pool: Sequence[Card]) -> list[Card]:
        self.shuffles += 1
        return keyed_shuffle(
            sorted(pool, key=lambda c: c.id),
            self.server_seed,
            self.client_seeds,
            self.hand,
            self.shuffles,
        )

    def deal(self, state: HandState) -> Deal:
        """The deal the hand is due now, from the top of the current shuffle; the dealer
        moves on (deal from a :meth:`draft` to keep it where it is).

        Raises:
            WrongTurnError: no deal is due.
            PrimeroError: the hand has cards in its stock this dealer did not leave there
                (it was dealt by another dealer).
        """
        due = state.deal_due()
        if due is None:
            raise WrongTurnError("no deal is due now")
        if state.n != len(self.client_seeds):
            raise PrimeroError(
                f"{len(self.client_seeds)} client seeds for a hand of {state.n} players"
            )
        if state.void_deals != self.voids:  # R4.3: all cards back, a new deck
            self.voids = state.void_deals
            self.order = self._next_shuffle(DECK)
        seat, count = due
        stock = {c.id for c in state.stock()}
        if stock != {c.id for c in self.order}:
            raise PrimeroError("the hand's stock is not the one this dealer left")
        cards = self.order[:count]
        self.order = self.order[count:]
        if len(cards) < count:  # R8b: the stock first, then the reshuffled discards
            self.order = self._next_shuffle(state.recyclable(seat))
            rest = count - len(cards)
            cards, self.order = cards + self.order[:rest], self.order[rest:]
        return Deal(seat, tuple(cards))


class _NoRandom:
    """The random source of a :class:`FairDealer`: it has none (its cards come from the
    stream), so asking one is a bug."""

    def random(self) -> float:
        raise PrimeroError("a fair dealer draws from its seed stream, not from random()")
