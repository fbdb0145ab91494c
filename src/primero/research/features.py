"""Observations for learning agents: fixed-size vectors and strings built from one seat's view.

Everything here reads a :class:`~primero.engine.views.SeatView` (R9b), never the hand state, so
an agent trained on these observations sees exactly what a player at the table sees.

The vector has ``observation_size(n) == 15 * n + 103`` float32 entries in [0, 1] for a
hand of ``n`` seats, chips scaled by the game's largest starting stack ``S``:

==========================  =====  ========================================================
block                       size   meaning
==========================  =====  ========================================================
seat                        n      one-hot: the observing seat (p1 first)
phase                       7      one-hot, :class:`~primero.engine.state.Phase` order
flags                       4      my move; a vote is due from me; a bet is open; hand over
hand                        40     my cards (by card id, ``primero.DECK``)
discards                    40     my own discards still out of play (R8b, R9b)
my category                 6      one-hot category of my 4 cards (numerus..chorus), points/84
per seat (x n)              14     stack/S, chips in this hand/S, chips in this round/S,
                                   folded, declared category one-hot (5), cards held/4,
                                   cards in its 1st and 2nd exchange ((k+1)/3, 0 = none),
                                   to act, bettor under vote
table                       6      open bet/S, bet under vote/S, my cap after a refusal/S,
                                   pot/(n*S), stock cards/40, void deals (capped at 10)/10
==========================  =====  ========================================================

The information-state vector (:func:`infostate_vector`) follows it with the seat's
memory of the hand: the last ``16 * n`` public record lines other than deal lines
(``history_size(n) == 16 * n * (n + 15)`` entries), oldest first, zero-padded at the
end, each as the acting seat (one-hot, n), the kind of line (one-hot, 14: exchange of 0,
1 or 2 cards, bet, raise, call, fold, accept, refuse, declare numerus..chorus) and the
amount of a bet or raise / S. Deal lines are left out: who is dealt what number of
cards follows from the other lines.

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> from primero.engine.views import view
>>> s = HandState(["p1", "p2", "p3", "p4"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> observation_vector(view(s, 0), max_stack=20).shape
(163,)
>>> infostate_vector(view(s, 0), max_stack=20).shape
(1379,)
"""

from __future__ import annotations

from struct import Struct
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from primero.engine.actions import Deal, Exchange, seat_name
from primero.engine.cards import format_cards
from primero.engine.hands import evaluate
from primero.engine.state import Phase
from primero.engine.views import LogEvent, SeatView, parse_event

__all__ = [
    "HISTORY_KINDS",
    "PER_SEAT",
    "canonical_line",
    "history_size",
    "history_vector",
    "infostate_size",
    "infostate_string",
    "infostate_vector",
    "observation_size",
    "observation_string",
    "observation_vector",
]

_PHASES: Final = tuple(Phase)
#: Entries per seat in the per-seat block.
PER_SEAT: Final = 14
_FIXED: Final = len(_PHASES) + 4 + 40 + 40 + 6 + 6


def observation_size(players: int) -> int:
    """Length of :func:`observation_vector` for a hand of ``players`` seats (15n + 103)."""
    return players + _FIXED + PER_SEAT * players


#: Packers of float32 vectors by length (native order, as ``np.float32``).
_PACKERS: Final[dict[int, Struct]] = {}


class FloatSlots(Protocol):
    """Where an observation is written: a list of floats, or a float32 ``memoryview``."""

    def __setitem__(self, index: int, value: float, /) -> None: ...


def seat_rows(
    out: FloatSlots,
    i: int,
    inv: float,
    stacks: list[int],
    contributed: list[int],
    round_bets: list[int],
    folded: list[bool],
    declared: list[int],
    sizes: list[int],
    exchanges: list[list[int]] | list[tuple[int, ...]],
    to_act: int,
    bettor: int,
) -> int:
    """Write the :data:`PER_SEAT` entries of every seat into ``out`` (zeros already there)
    from index ``i``, in seat order; the index after them. Shared by
    :func:`observation_vector` and the flat stepper
    (:meth:`primero.research.stepper.Stepper.observation`).

    Args:
        out: the observation being filled (every entry 0.0 beforehand).
        i: the first seat's first entry.
        inv: 1 / the chips that scale to 1.0.
        stacks, contributed, round_bets: chips per seat (lists: a compiled build reads
            them natively).
        folded: per seat.
        declared: the category declared per seat (R6), -1 where none.
        sizes: the cards each seat holds (0 to 4).
        exchanges: the cards each seat exchanged per round (R4.4, R4.6).
        to_act: the seat to act, or a negative number (the dealer, or nobody).
        bettor: the seat whose bet is under a refusal vote (R8), or -1.
    """
    for s in range(len(stacks)):  # 0 entries are left as they are (already 0.0)
        chips = stacks[s]  # chips scaled by the largest starting stack, capped at 1
        if chips:
            x = chips * inv
            out[i] = x if x < 1.0 else 1.0
        chips = contributed[s]
        if chips:
            x = chips * inv
            out[i + 1] = x if x < 1.0 else 1.0
        chips = round_bets[s]
        if chips:
            x = chips * inv
            out[i + 2] = x if x < 1.0 else 1.0
        if folded[s]:
            out[i + 3] = 1.0
        category = declared[s]
        if category >= 0:
            out[i + 4 + category] = 1.0
        size = sizes[s]
        if size:
            out[i + 9] = size / 4.0
        made = exchanges[s]
        if made:
            out[i + 10] = (made[0] + 1) / 3.0
            if len(made) > 1:
                out[i + 11] = (made[1] + 1) / 3.0
        if to_act == s:
            out[i + 12] = 1.0
        if bettor == s:
            out[i + 13] = 1.0
        i += PER_SEAT
    return i


def _as_array(values: list[float]) -> npt.NDArray[np.float32]:
    """``values`` as a new, writable float32 array: packed as C floats and viewed by
    NumPy, about twice as fast as ``np.array(values, dtype=np.float32)``."""
    n = len(values)
    packer = _PACKERS.get(n)
    if packer is None:
        packer = _PACKERS[n] = Struct(f"{n}f")
    return np.frombuffer(bytearray(packer.pack(*values)), dtype=np.float32)


def observation_vector(v: SeatView, *, max_stack: int) -> npt.NDArray[np.float32]:
    """The fixed-size observation of one seat (see the module table).

    Args:
        v: the seat's view (``v.seat`` must be a seat, not a spectator).
        max_stack: chips that scale to 1.0 (the game's largest starting stack, >= 1).

    Returns:
        A float32 array of shape ``(observation_size(v.n),)``, entries in [0, 1].

    Raises:
        ValueError: ``v`` is a spectator's view.
    """
    if v.seat is None:
        raise ValueError("observations are per seat: this is a spectator's view")
    n, seat, scale = v.n, v.seat, float(max_stack)
    inv = 1.0 / scale
    out = [0.0] * observation_size(n)  # filled as a list: far cheaper than numpy items
    out[seat] = 1.0
    i = n
    out[i + _PHASES.index(v.phase)] = 1.0  # by identity: an Enum's hash is slow
    i += len(_PHASES)
    to_act = v.to_act
    if to_act == seat:
        out[i] = 1.0
    if v.legal is not None and v.legal.vote:
        out[i + 1] = 1.0
    if v.current_bet is not None:
        out[i + 2] = 1.0
    if v.phase is Phase.COMPLETE:
        out[i + 3] = 1.0
    i += 4
    for card in v.hand:
        out[i + card.id] = 1.0
    i += 40
    for card in v.discards:
        out[i + card.id] = 1.0
    i += 40
    if len(v.hand) == 4:
        value = evaluate(v.hand)
        out[i + int(value.category)] = 1.0
        out[i + 5] = value.points / 84.0
    i += 6
    pending = v.pending_bet
    i = seat_rows(
        out,
        i,
        inv,
        list(v.stacks),
        list(v.contributed),
        list(v.round_bets),
        list(v.folded),
        [-1 if c is None else int(c) for c in v.declared],
        list(v.hand_sizes),
        list(v.exchanges),
        -2 if to_act is None else to_act,
        -1 if pending is None else pending[0],
    )
    out[i] = min((v.current_bet or 0) * inv, 1.0)
    out[i + 1] = 0.0 if pending is None else min(pending[1] * inv, 1.0)
    out[i + 2] = 0.0 if v.cap is None else min(v.cap * inv, 1.0)
    out[i + 3] = min(v.pot_total / (n * scale), 1.0)
    out[i + 4] = v.stock_count / 40.0
    out[i + 5] = min(v.void_deals, 10) / 10.0
    return _as_array(out)


def observation_string(v: SeatView) -> str:
    """What the seat sees now, in one line (not the history: see :func:`infostate_string`).

    Raises:
        ValueError: ``v`` is a spectator's view.
    """
    if v.seat is None:
        raise ValueError("observations are per seat: this is a spectator's view")

    def seats(values: tuple[object, ...]) -> str:
        return " ".join("-" if x is None else str(x) for x in values)

    declared = tuple(None if c is None else c.label for c in v.declared)
    to_act = "none" if v.to_act is None else ("dealer" if v.to_act < 0 else seat_name(v.to_act))
    parts = [
        f"{seat_name(v.seat)} of {v.n}",
        f"phase {v.phase.value}",
        f"to act {to_act}",
        f"hand {format_cards(sorted(v.hand, key=lambda c: c.id)) or '-'}",
        f"discards {format_cards(sorted(v.discards, key=lambda c: c.id)) or '-'}",
        f"stacks {seats(v.stacks)}",
        f"in hand {seats(v.contributed)}",
        f"round {seats(v.round_bets)}",
        f"bet {'-' if v.current_bet is None else v.current_bet}",
        f"vote {'-' if v.pending_bet is None else seats(v.pending_bet)}",
        f"cap {'-' if v.cap is None else v.cap}",
        f"folded {''.join('f' if f else '.' for f in v.folded)}",
        f"declared {seats(declared)}",
        f"exchanges {' '.join(''.join(map(str, e)) or '-' for e in v.exchanges)}",
        f"stock {v.stock_count}",
        f"void {v.void_deals}",
    ]
    return " | ".join(parts)


def infostate_string(v: SeatView) -> str:
    """The seat's whole information (perfect recall): its seat and the record so far, with
    the cards it may not see written ``??`` (R9b).

    Raises:
        ValueError: ``v`` is a spectator's view.
    """
    if v.seat is None:
        raise ValueError("information states are per seat: this is a spectator's view")
    lines = (_canonical(e, line) for e, line in zip(v.events, v.log, strict=True))
    return f"{seat_name(v.seat)} of {v.n}: " + "; ".join(lines)


def _canonical(event: LogEvent, line: str) -> str:
    """The record ``line`` of ``event`` with its shown cards in deck order (by card id)."""
    if not event.cards or event.kind not in ("deal", "exchange"):
        return line  # no cards, or hidden ones (``??``)
    cards = tuple(sorted(event.cards, key=lambda c: c.id))
    action = Deal(event.seat, cards) if event.kind == "deal" else Exchange(event.seat, cards)
    return action.line()


def canonical_line(line: str) -> str:
    """A record line with the cards of a deal or exchange line in deck order (by card id,
    ``primero.DECK``), so two deal orders of the same cards give one information state.

    >>> canonical_line("d dh p2 7h Kc"), canonical_line("p1 x 7h 2c"), canonical_line("p3 b 4")
    ('d dh p2 Kc 7h', 'p1 x 2c 7h', 'p3 b 4')

    Hidden cards (``??``) and other lines are returned unchanged (read by the record
    module, :func:`primero.engine.views.parse_event`).
    """
    try:
        event = parse_event(line, _MAX_SEATS)
    except ValueError:
        return line
    return _canonical(event, line)


#: The most seats of a hand (R3): a line given alone is read with these.
_MAX_SEATS: Final = 8


#: The kinds of record line in the history block, in one-hot order.
HISTORY_KINDS: Final = (
    "x0",
    "x1",
    "x2",
    "b",
    "r",
    "c",
    "f",
    "y",
    "n",
    "dc numerus",
    "dc primero",
    "dc supremus",
    "dc fluxus",
    "dc chorus",
)
_KIND_INDEX: Final = {kind: i for i, kind in enumerate(HISTORY_KINDS)}
#: The one-hot kind of a bet, a raise, a call and a fold (docs/record-format.md's verbs).
_VERB: Final = {"bet": "b", "raise": "r", "call": "c", "fold": "f"}


def _history_lines(players: int) -> int:
    return 16 * players


def history_size(players: int) -> int:
    """Length of :func:`history_vector` for ``players`` seats: 16n lines of n + 15."""
    return _history_lines(players) * (players + len(HISTORY_KINDS) + 1)


def infostate_size(players: int) -> int:
    """Length of :func:`infostate_vector`: observation plus history."""
    return observation_size(players) + history_size(players)


def history_vector(v: SeatView, *, max_stack: int) -> npt.NDArray[np.float32]:
    """The seat's last ``16 * n`` public record lines other than deals, encoded (module
    docstring); public lines only, so the same for every seat but for its own seat's
    place in the observation.

    Args:
        v: any seat's view (or a spectator's).
        max_stack: chips that scale to 1.0.

    Returns:
        A float32 array of shape ``(history_size(v.n),)``, entries in [0, 1].
    """
    n = v.n
    width = n + len(HISTORY_KINDS) + 1
    out = np.zeros((_history_lines(n), width), dtype=np.float32)
    events = [e for e in v.public_events if e.kind != "deal"]
    for row, event in enumerate(events[-_history_lines(n) :]):
        if event.kind == "exchange":
            kind = f"x{event.n_cards}"
        elif event.kind == "declare" and event.category is not None:
            kind = f"dc {event.category.label}"
        elif event.kind == "vote":
            kind = "y" if event.accept else "n"
        else:
            kind = _VERB[event.kind]
        out[row, event.seat] = 1.0
        out[row, n + _KIND_INDEX[kind]] = 1.0
        if event.kind in ("bet", "raise"):
            out[row, width - 1] = min(event.amount / max_stack, 1.0)
    return out.reshape(-1)


def infostate_vector(v: SeatView, *, max_stack: int) -> npt.NDArray[np.float32]:
    """:func:`observation_vector` followed by :func:`history_vector`.

    Raises:
        ValueError: ``v`` is a spectator's view.
    """
    return np.concatenate(
        [observation_vector(v, max_stack=max_stack), history_vector(v, max_stack=max_stack)]
    )
