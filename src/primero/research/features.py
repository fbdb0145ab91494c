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

The information-state vector (:func:`infostate_vector`, perfect recall) follows it with
the seat's whole record of the hand, so that two information states with one tensor are
one information state (the tests check it on thousands of random hands, void deals
included):

==========================  ========  ====================================================
block                       size      meaning
==========================  ========  ====================================================
history                     L x w     every public record line, deal lines included, in
                                      order (``L = history_lines(n, V)`` rows, zero rows
                                      after the last line): the acting or dealt seat
                                      (one-hot, n), the kind (one-hot, 15:
                                      :data:`HISTORY_KINDS`), the amount of a bet or
                                      raise / S or the cards of a deal / 4
private history             K x 40    the cards of the seat's own deal and exchange lines,
                                      the k-th of them in slot k, by card id
                                      (``K = private_slots(V)``)
outcome                     42n + 1   at the end: the cards each seat showed (40 each),
                                      its return ``(r + S) / (n S)``, whether it took
                                      chips; whether the hand was stopped (truncated)
==========================  ========  ====================================================

with ``w = n + 16`` and ``V`` the hand's ``max_void_deals`` (default 20): ``L = (V + 1) 4n
+ 24n`` (432 rows for 4 seats) and ``K = 3 (V + 1) + 3`` (66). A record longer than
``L`` lines (it takes refusals, R8, over and over) keeps its first ``L``.

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> from primero.engine.views import view
>>> s = HandState(["p1", "p2", "p3", "p4"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> observation_vector(view(s, 0), max_stack=20).shape
(163,)
>>> infostate_vector(view(s, 0), max_stack=20).shape
(11612,)
"""

from __future__ import annotations

from functools import lru_cache
from struct import Struct
from typing import Final, Protocol

import numpy as np
import numpy.typing as npt

from primero.engine.actions import Deal, Exchange, seat_name
from primero.engine.cards import DECK, Card, format_cards
from primero.engine.hands import evaluate
from primero.engine.state import Phase
from primero.engine.views import LogEvent, SeatView, parse_event

__all__ = [
    "DEFAULT_MAX_VOID_DEALS",
    "HISTORY_KINDS",
    "PER_SEAT",
    "canonical_line",
    "hand_returns",
    "history_lines",
    "history_size",
    "history_vector",
    "history_width",
    "infostate_size",
    "infostate_string",
    "infostate_vector",
    "observation_size",
    "observation_string",
    "observation_vector",
    "outcome_size",
    "outcome_string",
    "outcome_vector",
    "private_history_size",
    "private_history_vector",
    "private_slots",
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
        v: the seat's view, or the public view (``view(state, None)``: no seat, R9b):
            then the seat, the private block (cards, discards, category) and the
            seat's own flags (my move, my vote, my cap) are 0.
        max_stack: chips that scale to 1.0 (the game's largest starting stack, >= 1).

    Returns:
        A float32 array of shape ``(observation_size(v.n),)``, entries in [0, 1].
    """
    n, seat, scale = v.n, v.seat, float(max_stack)
    inv = 1.0 / scale
    out = [0.0] * observation_size(n)  # filled as a list: far cheaper than numpy items
    if seat is not None:
        out[seat] = 1.0
    i = n
    out[i + _PHASES.index(v.phase)] = 1.0  # by identity: an Enum's hash is slow
    i += len(_PHASES)
    to_act = v.to_act
    if seat is not None and to_act == seat:
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


def _whose(v: SeatView, player: int | None) -> int:
    """The seat a string or tensor is for: ``player``, else the view's seat."""
    seat = v.seat if player is None else player
    if seat is None:
        raise ValueError(
            "the public view (no seat) needs the player the observation is for: pass player="
        )
    return seat


def observation_string(
    v: SeatView, *, player: int | None = None, public: bool = True, private: bool = True
) -> str:
    """What the seat sees now, in one line (not the history: see :func:`infostate_string`).

    Args:
        v: the seat's view, or the public view (``view(state, None)``, R9b).
        player: the seat named first (``"p2 of 4"``); default ``v.seat``.
        public: include what every seat sees (phase, chips, bets, declarations...).
        private: include the seat's cards and discards (not in the public view).

    Raises:
        ValueError: no seat to name (a public view without ``player``).
    """
    seat = _whose(v, player)

    def seats(values: tuple[object, ...]) -> str:
        return " ".join("-" if x is None else str(x) for x in values)

    parts = [f"{seat_name(seat)} of {v.n}"]
    if public:
        to_act = v.to_act
        who = "none" if to_act is None else ("dealer" if to_act < 0 else seat_name(to_act))
        parts += [f"phase {v.phase.value}", f"to act {who}"]
    if private and v.seat is not None:  # the public view has no cards
        parts += [
            f"hand {format_cards(sorted(v.hand, key=lambda c: c.id)) or '-'}",
            f"discards {format_cards(sorted(v.discards, key=lambda c: c.id)) or '-'}",
        ]
    if public:
        declared = tuple(None if c is None else c.label for c in v.declared)
        parts += [
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


def hand_returns(v: SeatView) -> tuple[int, ...]:
    """Each seat's return of a finished hand (chips: what it took from the pots minus what
    it put in, the ante included; R7), from the view: all 0 before the end."""
    if v.final_stacks is None:
        return (0,) * v.n
    won = [0] * v.n
    for award in v.awards:
        for seat, share in zip(award.winners, award.shares, strict=True):
            won[seat] += share
    return tuple(w - c for w, c in zip(won, v.contributed, strict=True))


def outcome_string(v: SeatView) -> str:
    """The end of a finished hand as every seat sees it (R7, R9b): the hands shown at a
    showdown, the seats that took chips, and each seat's return in chips; ``""`` before
    the end: for example ``"over: shown p1 7c 7d 7h 7s, p3 Ac 2c 3c 4c; won p1;
    returns +5 -1 -3 -1"``, or ``"over: won p2; returns -1 +3 -1 -1"`` when the others
    folded.
    """
    if v.final_stacks is None:
        return ""
    shown = [
        f"{seat_name(s)} {format_cards(sorted(cards, key=lambda c: c.id))}"
        for s, cards in enumerate(v.shown_cards)
        if cards is not None
    ]
    winners = sorted(
        {s for a in v.awards for s, share in zip(a.winners, a.shares, strict=True) if share}
    )
    text = "over: "
    if shown:
        text += "shown " + ", ".join(shown) + "; "
    text += "won " + (" ".join(seat_name(s) for s in winners) or "-")
    return text + "; returns " + " ".join(f"{r:+d}" for r in hand_returns(v))


def infostate_string(
    v: SeatView, *, player: int | None = None, public: bool = True, private: bool = True
) -> str:
    """The seat's whole information (perfect recall): its seat and the record so far, with
    the cards it may not see written ``??`` (R9b), and at the end the outcome
    (:func:`outcome_string`).

    Args:
        v: the seat's view, or the public view (``view(state, None)``).
        player: the seat named first; default ``v.seat``.
        public: include every public record line (cards as ``??``) and the outcome.
        private: include the cards of the seat's own deal and exchange lines; alone
            (``public=False``) the string holds only those lines.

    Raises:
        ValueError: no seat to name (a public view without ``player``).
    """
    seat = _whose(v, player)
    if public:
        lines = v.log if private else v.public_log
    else:
        lines = tuple(line for _, line in v.private_log)
    text = f"{seat_name(seat)} of {v.n}: " + "; ".join(canonical_line(x) for x in lines)
    if public and v.final_stacks is not None:
        text += "; " + outcome_string(v)
    return text


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


#: The kinds of record line in the history block, in one-hot order (``d``: a deal line).
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
    "d",
)
_KIND_INDEX: Final = {kind: i for i, kind in enumerate(HISTORY_KINDS)}
_DEAL_KIND: Final = _KIND_INDEX["d"]

#: The default ``max_void_deals`` of the environments (R4.3): the tensors' sizes follow it.
DEFAULT_MAX_VOID_DEALS: Final = 20


def history_lines(players: int, max_void_deals: int = DEFAULT_MAX_VOID_DEALS) -> int:
    """Rows of the history block: ``4n`` a void deal (R4.3) and ``24n`` for the played
    deal, ``(max_void_deals + 1) * 4 * n + 24 * n`` (432 for 4 seats and 20 void deals).

    Every line of a record up to this length has its row, so the information-state
    tensor is injective on such records; a longer record (it takes refusals over and
    over: none in 10,000 random hands, docs/research.md) keeps its first lines only.
    """
    return (max_void_deals + 1) * 4 * players + 24 * players


def private_slots(max_void_deals: int = DEFAULT_MAX_VOID_DEALS) -> int:
    """Slots of the private history: the seat's own deal and exchange lines, at most three
    a deal (its deal, its exchange, its new cards: R4.2, R4.3) and three more after the
    first round (R4.4, R4.6): ``3 * (max_void_deals + 1) + 3``."""
    return 3 * (max_void_deals + 1) + 3


def history_width(players: int) -> int:
    """Entries of one history row: the seat (n), the kind (15), the amount."""
    return players + len(HISTORY_KINDS) + 1


def history_size(players: int, max_void_deals: int = DEFAULT_MAX_VOID_DEALS) -> int:
    """Length of :func:`history_vector`: :func:`history_lines` rows of :func:`history_width`."""
    return history_lines(players, max_void_deals) * history_width(players)


def private_history_size(max_void_deals: int = DEFAULT_MAX_VOID_DEALS) -> int:
    """Length of :func:`private_history_vector`: 40 card entries a slot."""
    return private_slots(max_void_deals) * len(DECK)


def outcome_size(players: int) -> int:
    """Length of :func:`outcome_vector`: shown cards (40 a seat), returns, winners, stopped."""
    return players * (len(DECK) + 2) + 1


def infostate_size(players: int, max_void_deals: int = DEFAULT_MAX_VOID_DEALS) -> int:
    """Length of :func:`infostate_vector`: observation, history, private history, outcome
    (11,612 for 4 seats and 20 void deals)."""
    return (
        observation_size(players)
        + history_size(players, max_void_deals)
        + private_history_size(max_void_deals)
        + outcome_size(players)
    )


_VERBS: Final = {"bet": "b", "raise": "r", "call": "c", "fold": "f"}


@lru_cache(maxsize=8192)
def _history_row(event: LogEvent, max_stack: int) -> tuple[int, int, float]:
    """A public event's row of the history block: (seat, kind, value)."""
    if event.kind == "deal":
        return event.seat, _DEAL_KIND, event.n_cards / 4.0
    if event.kind == "exchange":
        kind = f"x{event.n_cards}"
    elif event.kind == "declare":
        assert event.category is not None
        kind = f"dc {event.category.label}"
    elif event.kind == "vote":
        kind = "y" if event.accept else "n"
    else:
        kind = _VERBS[event.kind]
    value = min(event.amount / max_stack, 1.0) if event.kind in ("bet", "raise") else 0.0
    return event.seat, _KIND_INDEX[kind], value


def history_vector(
    v: SeatView,
    *,
    max_stack: int,
    max_void_deals: int = DEFAULT_MAX_VOID_DEALS,
    dealing: tuple[int, int] | None = None,
) -> npt.NDArray[np.float32]:
    """Every public record line so far, deal lines included, one row each in order: the
    acting (or dealt) seat one-hot, the kind one-hot (:data:`HISTORY_KINDS`), and the
    amount of a bet or raise / ``max_stack`` or the cards of a deal / 4 (module
    docstring). The same for every seat (public lines only).

    Args:
        v: any seat's view, or the public view.
        max_stack: chips that scale to 1.0.
        max_void_deals: the rows follow it (:func:`history_lines`).
        dealing: ``(seat, cards drawn)`` of a deal line being drawn card by card (the
            OpenSpiel game), written as one more deal row.

    Returns:
        A float32 array of shape ``(history_size(v.n, max_void_deals),)``, in [0, 1].
    """
    n = v.n
    width = history_width(n)
    rows = history_lines(n, max_void_deals)
    out = np.zeros((rows, width), dtype=np.float32)
    events = v.public_events[:rows]
    if events:
        coded = [_history_row(event, max_stack) for event in events]
        at = np.arange(len(coded))
        seats, kinds, values = zip(*coded, strict=True)
        out[at, seats] = 1.0
        out[at, np.add(kinds, n)] = 1.0
        out[at, width - 1] = values
    if dealing is not None and len(v.public_log) < rows:
        row = len(v.public_log)
        out[row, dealing[0]] = 1.0
        out[row, n + _DEAL_KIND] = 1.0
        out[row, width - 1] = dealing[1] / 4.0
    return out.reshape(-1)


def private_history_vector(
    v: SeatView,
    *,
    max_void_deals: int = DEFAULT_MAX_VOID_DEALS,
    dealing: tuple[Card, ...] = (),
) -> npt.NDArray[np.float32]:
    """The cards of the seat's own deal and exchange lines (R9b), the k-th of them in slot
    k (40 entries by card id, ``primero.DECK``); the history block says where each line
    stands in the record.

    Args:
        v: the seat's view (a public view has no private lines: all 0).
        max_void_deals: the slots follow it (:func:`private_slots`).
        dealing: the cards drawn so far of a deal line to this seat being drawn card by
            card (the OpenSpiel game), written in the next slot.

    Returns:
        A float32 array of shape ``(private_history_size(max_void_deals),)``.
    """
    slots = private_slots(max_void_deals)
    out = np.zeros((slots, len(DECK)), dtype=np.float32)
    private = v.private_events
    for slot, (_, event) in enumerate(private[:slots]):
        for card in event.cards or ():
            out[slot, card.id] = 1.0
    if dealing and len(private) < slots:
        for card in dealing:
            out[len(private), card.id] = 1.0
    return out.reshape(-1)


def outcome_vector(
    v: SeatView, *, max_stack: int, truncated: bool = False
) -> npt.NDArray[np.float32]:
    """The end of the hand as every seat sees it (all 0 before it): each seat's shown cards
    (40 a seat, by card id; R9b), each seat's return ``(r + S) / (n S)`` with
    ``S = max_stack`` (in [0, 1]), whether it took chips, and whether the hand was
    stopped at ``max_void_deals`` (``truncated``, R4.3).

    Returns:
        A float32 array of shape ``(outcome_size(v.n),)``.
    """
    n = v.n
    out = np.zeros(outcome_size(n), dtype=np.float32)
    if v.final_stacks is not None:
        for seat, cards in enumerate(v.shown_cards):
            for card in cards or ():
                out[seat * len(DECK) + card.id] = 1.0
        i = n * len(DECK)
        for seat, r in enumerate(hand_returns(v)):
            out[i + seat] = (r + max_stack) / (n * max_stack)
        for award in v.awards:
            for seat, share in zip(award.winners, award.shares, strict=True):
                if share:
                    out[i + n + seat] = 1.0
    if truncated:
        out[-1] = 1.0
    return out


def infostate_vector(
    v: SeatView,
    *,
    max_stack: int,
    max_void_deals: int = DEFAULT_MAX_VOID_DEALS,
    truncated: bool = False,
) -> npt.NDArray[np.float32]:
    """The information state (perfect recall): :func:`observation_vector`,
    :func:`history_vector`, :func:`private_history_vector` and :func:`outcome_vector`.
    Injective: two records of up to :func:`history_lines` lines with the same tensor are
    the same information state (:func:`infostate_string`).
    """
    return np.concatenate(
        [
            observation_vector(v, max_stack=max_stack),
            history_vector(v, max_stack=max_stack, max_void_deals=max_void_deals),
            private_history_vector(v, max_void_deals=max_void_deals),
            outcome_vector(v, max_stack=max_stack, truncated=truncated),
        ]
    )
