"""A steppable flat hand: the state a research interface steps one action id at a time.

Why it exists: the pyspiel game and the PettingZoo environment ran
every move through the checked engine's object layer (a
:class:`~primero.engine.state.HandState`, its :class:`~primero.engine.legal.LegalActions`,
an action object per id, a :class:`~primero.engine.views.SeatView` per observation).
:class:`Stepper` holds the same hand as plain ints, bools and lists (card ids, chips,
seats) and answers what those interfaces ask at every move: the player to move, the
legal action ids (:mod:`primero.research.actionids`), the chance outcomes of the next
card (R4.2, R4.4, R8b), applying an id or a card, whether the hand is over, the returns,
and a seat's observation vector (:func:`primero.research.features.observation_vector`).

It holds no rule of its own and no transition of its own: it is a subclass of
:class:`primero.engine.flow.HandFlow`, the hand's phase transitions written once, which
``HandState`` runs too; it adds only its cards (as ids). The ranges, the declarations
and the reshuffle come from :mod:`primero.engine.rulebook`, the pots from
:func:`primero.engine.pots.settle`, hand values from the evaluator's table
(:func:`primero.engine.hands.value_by_mask`), as in the random-playout kernel
(:mod:`primero.research.fastsim`). Anything else (record lines, views, information-state
strings) is built from a ``HandState`` replayed from :attr:`Stepper.log`, through the
one hiding path (:mod:`primero.engine.views`).

It is *trusted*: :meth:`Stepper.apply` and :meth:`Stepper.draw` take only ids that
:meth:`Stepper.legal_ids` and :meth:`Stepper.chance_outcomes` give (the interfaces
check ids against them first). ``tests/research/test_stepper.py`` checks on thousands of seeded
random hands (2 to 8 players, small stacks, random house rules) that after every move
it gives the same player, legal ids, chance outcomes, observation vectors of every seat
and returns as the engine's ``HandState`` through the previous implementation
(:class:`primero.research.openspiel.table._Table`, :func:`primero.engine.views.view`).

Compiled by mypyc in a wheel build (``setup.py``), like the kernel.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from types import BuiltinFunctionType
from typing import Any, Final

from librt.strings import BytesWriter, write_f32_le

from primero.bots.random_moves import EXCHANGE as _EXCHANGE_KIND
from primero.bots.random_moves import FOLD as _FOLD_KIND
from primero.bots.random_moves import RAISE as _RAISE_KIND
from primero.bots.random_moves import (
    random_cards,
    random_declaration,
    random_facing,
    random_opening,
    random_vote,
)
from primero.engine.actions import Deal
from primero.engine.cards import DECK, Card
from primero.engine.flow import (
    COMPLETE,
    DECLARE_ROUND,
    FIRST_ROUND,
    SECOND_EXCHANGE,
    HandFlow,
)
from primero.engine.pots import settle
from primero.engine.rulebook import (
    declarable,
    first_round_options,
    limit_pot,
    opening_range,
    raise_range,
    reshuffle_pool,
)
from primero.engine.rules import Rules
from primero.engine.state import HandState
from primero.research.actionids import (
    ACCEPT,
    BET0,
    CALL,
    DECLARE0,
    EXCHANGE0,
    EXCHANGE_POSITIONS,
    FOLD,
    REFUSE,
    action_of,
    mask_of,
)
from primero.research.fastsim_tables import BIT, VALUE, showdown_keys
from primero.research.features import observation_size, seat_rows

__all__ = [
    "CHANCE",
    "COMPILED",
    "ILLEGAL",
    "OVER",
    "TERMINAL",
    "Stepper",
    "observe_tables",
    "replay",
]

#: The player to move at a chance node and at the end (OpenSpiel's ids, as
#: :mod:`primero.research.openspiel.table`).
CHANCE: Final = -1
TERMINAL: Final = -4
#: :meth:`Stepper.play_counted`'s answers beside a seat: the id was not legal; the hand
#: is over for the environment.
ILLEGAL: Final = -1
OVER: Final = -2

#: ``_OUTCOME[n][i]``: the chance outcome ``(i, 1 / n)``, built once (typed ``Any`` so
#: that compiled code hands the tuples on as they are).
_OUTCOME: Final[list[list[Any]]] = [
    [(i, 1.0 / n if n else 0.0) for i in range(40)] for n in range(41)
]


def _exchange_ids(counts: tuple[int, ...], hand_size: int) -> list[int]:
    return [
        EXCHANGE0 + i
        for i, positions in enumerate(EXCHANGE_POSITIONS)
        if len(positions) in counts and all(p < hand_size for p in positions)
    ]


#: ``_EXCHANGES[any][hand_size]``: the exchange ids of a hand of ``hand_size`` cards
#: (0..4) that may exchange 1 or 2 cards (``any`` 0) or 0, 1 or 2 (``any`` 1).
_EXCHANGES: Final[list[list[list[int]]]] = [
    [_exchange_ids((1, 2), k) for k in range(5)],
    [_exchange_ids((0, 1, 2), k) for k in range(5)],
]
#: The counts of cards the second exchange offers (R4.6), as the engine's legal actions.
_ANY: Final[tuple[int, ...]] = (0, 1, 2)
#: Bytes per observation entry (a float32).
_FLOAT: Final = 4
#: The ids 0, 1, 2...: a run of bet or raise ids is a slice of it (a copy of the
#: pointers, cheaper than counting the ints of a ``range``).
_IDS: Final[list[int]] = list(range(2048))


def _ids(start: int, stop: int) -> list[int]:
    """``list(range(start, stop))``."""
    if stop <= len(_IDS):
        return _IDS[start:stop]
    return list(range(start, stop))


def _one(out: BytesWriter, entry: int) -> None:
    """Set float32 entry ``entry`` (already written, 0.0) of ``out`` to 1.0: its
    little-endian bytes are ``00 00 80 3f``."""
    at = _FLOAT * entry
    out[at + 2] = 0x80
    out[at + 3] = 0x3F


#: Whether this module is compiled by mypyc (its functions are then C functions).
COMPILED: Final = isinstance(_ids, BuiltinFunctionType)
#: Compiled on a little-endian machine (the float32 bytes of ``numpy.float32``): the
#: observation is then written with native stores (:meth:`Stepper.observation`).
_IN_ORDER: Final = COMPILED and sys.byteorder == "little"


class Stepper(HandFlow):
    """One hand of Primero as flat state, stepped one action id or card at a time (R4–R8b).

    Args:
        stacks: each seat's chips before the ante, p1 first (2 to 8 seats, each >= 1;
            not checked: the interfaces check them).
        rules: the house rules.
        max_stack: the game's largest starting stack (the bet and raise ids).
        max_void: void deals (R4.3) that stop the hand (:attr:`truncated`).

    The ante is taken at once (R4.1); the first card is then due (:attr:`player` is
    :data:`CHANCE`). Read the attributes; change the hand only through :meth:`apply`,
    :meth:`draw` and :meth:`deal_line`.

    Attributes:
        player: the seat to move, :data:`CHANCE` (a card is due) or :data:`TERMINAL`.
        log: every move so far as :class:`~primero.research.openspiel.table._Table`'s
            ``apply`` takes it (an action id of the seat to move, or a card id at a
            chance node): replaying it rebuilds the engine's hand.
        truncated: the hand was stopped at ``max_void`` void deals (every return 0).
        net: each seat's final minus starting stack once the hand is complete, else None.
    """

    def __init__(
        self,
        stacks: list[int] | tuple[int, ...],
        rules: Rules,
        max_stack: int,
        max_void: int = 1 << 30,
    ) -> None:
        n = len(stacks)
        self.max_stack = max_stack
        self.max_void = max_void
        self.raise0 = BET0 + max_stack + 1
        exchange, low = first_round_options(rules)
        self.first_any = 1 if 0 in exchange else 0
        self.first_exchange: tuple[int, ...] = exchange
        self.first_low = low
        self.start: list[int] = list(stacks)
        self.hands: list[list[int]] = [[] for _ in range(n)]
        self.own: list[list[int]] = [[] for _ in range(n)]
        self.exchanges: list[list[int]] = [[] for _ in range(n)]
        self.declared: list[int] = [-1] * n
        self.in_stock: list[bool] = [True] * 40
        self.stock_count = 40
        self.discard_pile: list[int] = []
        self.just_thrown: list[int] = []
        self.net: list[int] | None = None
        self.pending: list[int] = []
        self.truncated = False
        self.player = CHANCE
        self.legal: list[int] | None = None
        self.log: list[int] = []
        #: compiled: the writer of :meth:`_observation_in_order`, made at the first
        #: observation (never copied: a copy makes its own), and its zeros up to the
        #: category's points (n + 96 entries)
        self.obs_writer: BytesWriter | None = None
        self.obs_prefix = b""
        super().__init__(stacks, rules)  # R4.1 ante, the first deal queued

    # -------------------------------------------------------------- copying

    def copy(self) -> Stepper:
        """An independent copy (OpenSpiel clones states)."""
        o = Stepper(self.start, self.rules, self.max_stack, self.max_void)
        self.copy_flow_into(o)
        o.hands = [list(h) for h in self.hands]
        o.own = [list(d) for d in self.own]
        o.exchanges = [list(e) for e in self.exchanges]
        o.declared = list(self.declared)
        o.in_stock = list(self.in_stock)
        o.stock_count = self.stock_count
        o.discard_pile = list(self.discard_pile)
        o.just_thrown = list(self.just_thrown)
        o.net = None if self.net is None else list(self.net)
        o.pending = list(self.pending)
        o.truncated = self.truncated
        o.player = self.player
        o.legal = self.legal
        o.log = list(self.log)
        return o

    def __deepcopy__(self, memo: dict[int, Any]) -> Stepper:
        return self.copy()

    def __reduce__(self) -> tuple[object, ...]:
        """Pickle as the moves from the start (a compiled class is built by its
        constructor): the hand is replayed on unpickling."""
        return (_replay, (self.start, self.rules, self.max_stack, self.max_void, self.log))

    # -------------------------------------------------------------- queries

    def legal_ids(self) -> list[int]:
        """The legal action ids of the seat to move, ascending (kept for the move: do not
        change the list); empty at a chance node or at the end. The ids of
        :func:`primero.research.actionids.legal_ids` of ``HandState.legal_actions()``."""
        legal = self.legal
        if legal is None:
            legal = self._legal_ids()
            self.legal = legal
        return legal

    def _legal_ids(self) -> list[int]:
        seat = self.player
        if seat < 0:
            return []
        if self.vote_bettor >= 0:
            return [ACCEPT, REFUSE]
        phase = self.stage
        hand = self.hands[seat]
        if phase == SECOND_EXCHANGE:
            return list(_EXCHANGES[1][len(hand)])
        stack = self.stacks[seat]
        facing = self.current >= 0
        if phase == DECLARE_ROUND and self.rules.declarations and self.declared[seat] < 0:
            a, b, c, d = hand
            held = VALUE[BIT[a] | BIT[b] | BIT[c] | BIT[d]].key >> 7
            ids = [DECLARE0 + int(cat) for cat in declarable(held)]
            return [FOLD, *ids] if facing else ids
        cap = None if self.cap_below < 0 else self.cap_below
        if not facing:
            if phase == FIRST_ROUND:
                out = list(_EXCHANGES[self.first_any][len(hand)])
                low = self.first_low
            else:
                out = []
                low = 0
            bet = opening_range(low, stack, cap, limit_pot(self.rules, self.contributed))
            if bet is not None:
                out.extend(_ids(BET0 + bet[0], BET0 + bet[1] + 1))
            return out
        raise_to = self._raise_to(seat, stack, cap)
        if raise_to is None:
            return [FOLD, CALL]
        r0 = self.raise0
        out = [FOLD, CALL]
        out.extend(_ids(r0 + raise_to[0], r0 + raise_to[1] + 1))
        return out

    # OpenSpiel's per-move queries, answered in compiled code: ``python_primero``'s state
    # binds them as its own methods (no Python frame between pyspiel and the hand)

    def current_player(self) -> int:
        """The player to move: a seat, :data:`CHANCE` or :data:`TERMINAL`."""
        return self.player

    def is_terminal(self) -> bool:
        """Whether the hand is over (or stopped at ``max_void`` void deals)."""
        return self.player == TERMINAL

    def is_chance_node(self) -> bool:
        """Whether a card is to be dealt."""
        return self.player == CHANCE

    def is_player_node(self) -> bool:
        """Whether a seat is to act."""
        return self.player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal ids of ``player`` (default: the one to move), ascending, a new list;
        at a chance node the card ids that may be dealt; empty for anyone else."""
        current = self.player
        if player is not None and player != current:
            return []
        if current == CHANCE:
            return self.pool_ids()
        return list(self.legal_ids())

    def legal_actions_of(self, player: int) -> list[int]:
        """The legal ids of seat ``player``: empty unless it is to move."""
        if player != self.player or player < 0:
            return []
        return list(self.legal_ids())

    def is_legal(self, action: int) -> bool:
        """Whether ``action`` is a legal id of the seat to move (False at a chance node)."""
        legal = self.legal_ids()  # ascending: a binary search, in native ints
        lo = 0
        hi = len(legal)
        while lo < hi:
            mid = (lo + hi) >> 1
            if legal[mid] < action:
                lo = mid + 1
            else:
                hi = mid
        return lo < len(legal) and legal[lo] == action

    def mask(self, size: int) -> bytearray:
        """A new mask of ``size`` bytes, 1 at each legal id of the seat to move
        (:func:`primero.research.actionids.mask_of`)."""
        return mask_of(self.legal_ids(), size)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Each card the next draw may give with its probability, all equal (R8b), card
        ids ascending; empty when no card is due. A new list."""
        if self.player != CHANCE:
            return []
        stock_count = self.stock_count
        if stock_count >= self.due[0][1]:  # the common cases: from the stock
            in_stock = self.in_stock
            pending = self.pending
            drawn = -1
            if pending:
                if len(pending) > 1:
                    return self._outcomes_of_pool()
                drawn = pending[0]  # the second card of a line: one is drawn already
                stock_count -= 1
            row: list[Any] = _OUTCOME[stock_count]
            out: list[Any] = [None] * stock_count  # filled in place: no appends
            k = 0
            for i in range(40):
                if in_stock[i] and i != drawn:
                    out[k] = row[i]
                    k += 1
            return out
        return self._outcomes_of_pool()

    def _outcomes_of_pool(self) -> list[tuple[int, float]]:
        """The chance outcomes over :meth:`pool_ids` (a line drawn partly from the
        reshuffled discards, R8b)."""
        pool = self.pool_ids()
        row_: list[Any] = _OUTCOME[len(pool)]
        return [row_[i] for i in pool]

    def pool_ids(self) -> list[int]:
        """The ids of the cards the next draw may give, ascending (R8b): the stock cards
        not yet drawn into the line, or once the stock is used up, the reshuffled
        discards (less the cards of the line)."""
        count = self.due[0][1]
        in_stock = self.in_stock
        pending = self.pending
        if pending:  # flags, not a search of the line at each card
            free = list(in_stock)
            for card in pending:
                free[card] = False
            stock = [i for i in range(40) if free[i]]
        else:
            stock = [i for i in range(40) if in_stock[i]]
        if self.stock_count >= count or stock:
            return stock
        return sorted(
            c for c in reshuffle_pool(self.discard_pile, self.just_thrown) if c not in pending
        )

    def returns(self) -> list[float]:
        """Chips won (+) or lost (-) by each seat: final minus starting stack; 0 for
        everyone until the end and when :attr:`truncated`."""
        net = self.net
        if net is None:
            return [0.0] * self.n
        return [float(x) for x in net]

    # -------------------------------------------------------------- moves

    def apply(self, action: int) -> int:
        """Apply legal id ``action`` of the seat to move (a card id at a chance node:
        :meth:`draw`); the player to move next. Unchecked: take ids from
        :meth:`legal_ids` or :meth:`chance_outcomes`."""
        if self.player == CHANCE:
            self.draw(action)
            return self.player
        self.log.append(action)
        seat = self.player
        if action in (ACCEPT, REFUSE):
            self._vote(action == ACCEPT)
        elif action == FOLD:
            self._fold(seat)
        elif action == CALL:
            self._call(seat)
        elif action < EXCHANGE0:
            self.declared[seat] = action - DECLARE0
        elif action < BET0:
            self._exchange(seat, EXCHANGE_POSITIONS[action - EXCHANGE0])
        else:
            is_raise = action >= self.raise0
            self._bet(seat, action - (self.raise0 if is_raise else BET0), is_raise)
        return self._after()

    def step(self, action: int) -> int:
        """Check and apply id ``action`` of the player to move (a card id at a chance
        node); the player to move next.

        Raises:
            ValueError: the id is not legal now (a card that cannot be dealt, or an
                action id not among :meth:`legal_ids`, which the message lists); nothing
                changes.
        """
        player = self.player
        if player == CHANCE:
            if not self.legal_card(action):
                raise ValueError(f"card id {action} cannot be dealt now")
            self.draw(action)
            return self.player
        if player < 0 or not self.is_legal(action):
            raise ValueError(
                f"action {action} is not legal now: legal ids are {list(self.legal_ids())}"
            )
        return self.apply(action)

    def legal_card(self, card: int) -> bool:
        """Whether card id ``card`` may be dealt next (a chance outcome, R8b)."""
        if self.player != CHANCE or not 0 <= card < 40:
            return False
        if self.stock_count >= self.due[0][1]:  # the common case: from the stock
            # not yet drawn into the line (a loop over native ints, not list.__contains__)
            return self.in_stock[card] and all(drawn != card for drawn in self.pending)
        return card in self.pool_ids()

    def play(self, action: int, rand: Callable[[], float]) -> bool:
        """Apply id ``action`` of the seat to move if it is legal, then deal every line
        due with :meth:`deal_due` (``rand``); False (and nothing changes) if it is not."""
        if self.player < 0 or not self.is_legal(action):
            return False
        self.apply(action)
        if self.player == CHANCE:
            self.deal_due(rand)
        return True

    def play_counted(
        self,
        action: int,
        rand: Callable[[], float],
        moves: list[int],
        max_moves: int,
        max_void: int,
    ) -> int:
        """:meth:`play` for an environment that counts each seat's moves (PettingZoo's
        ``max_cycles``): apply id ``action`` of the seat to move and deal what is then
        due (``rand``), add the move to ``moves[seat]``; the seat to move next, or
        :data:`ILLEGAL` (the id is not legal: nothing changes, ``moves`` included) or
        :data:`OVER` (the hand is complete or :attr:`truncated`, that seat has now made
        ``max_moves`` moves, or the hand has had ``max_void`` void deals, R4.3: the
        lines then due are dealt first, as the engine's dealer deals them)."""
        seat = self.player
        if not self.play(action, rand):
            return ILLEGAL
        made = moves[seat] + 1
        moves[seat] = made
        player = self.player
        if player >= 0 and made < max_moves and self.void_deals < max_void:
            return player
        return OVER

    def _raise_to(self, seat: int, stack: int, cap: int | None) -> tuple[int, int] | None:
        """The round totals ``seat`` may raise to, facing a bet (R5, R8's ``cap``), or
        None: :func:`~primero.engine.rulebook.raise_range` with the seats still in that
        hold chips."""
        folded, stacks = self.folded, self.stacks
        others = 0
        for s in range(self.n):
            if s != seat and not folded[s] and stacks[s] > 0:
                others += 1
        rules = self.rules
        return raise_range(
            self.current,
            rules.min_raise,
            self.round_bets[seat],
            stack,
            cap,
            self.raises,
            rules.max_raises,
            others,
            limit_pot(rules, self.contributed),
        )

    def random_id(self, rand: Callable[[], float]) -> int:
        """The id :class:`~primero.bots.random.RandomBot` plays for the seat to move, drawing
        from ``rand`` (the bot's ``random``) the very numbers it draws, in the same order:
        :func:`~primero.bots.random.random_move` over the kinds of move of the seat's
        :class:`~primero.engine.legal.LegalActions`, then the amount, the declaration
        or the cards (:func:`~primero.bots.random.random_cards` over its hand in hand
        order), R10. Only at a seat's move (:attr:`player` >= 0)."""
        seat = self.player
        if self.vote_bettor >= 0:  # kinds y n
            return ACCEPT if random_vote(rand) else REFUSE
        phase = self.stage
        hand = self.hands[seat]
        if phase == SECOND_EXCHANGE:  # the engine offers 0, 1 or 2 cards (R4.6)
            return self._random_exchange(hand, random_opening(rand, _ANY, None)[1], rand)
        facing = self.current >= 0
        if phase == DECLARE_ROUND and self.rules.declarations and self.declared[seat] < 0:
            a, b, c, d = hand
            allowed = declarable(VALUE[BIT[a] | BIT[b] | BIT[c] | BIT[d]].key >> 7)
            kind, value = random_declaration(rand, len(allowed), facing)
            if kind == _FOLD_KIND:
                return FOLD
            return DECLARE0 + int(allowed[value])
        stack = self.stacks[seat]
        cap = None if self.cap_below < 0 else self.cap_below
        rules = self.rules
        if not facing:
            exchange: tuple[int, ...] = ()
            low = 0
            if phase == FIRST_ROUND:
                exchange = self.first_exchange
                low = self.first_low
            bet = opening_range(low, stack, cap, limit_pot(rules, self.contributed))
            kind, value = random_opening(rand, exchange, bet)
            if kind == _EXCHANGE_KIND:
                return self._random_exchange(hand, value, rand)
            return BET0 + value
        raise_to = self._raise_to(seat, stack, cap)
        kind, value = random_facing(rand, raise_to)
        if kind == _RAISE_KIND:
            return self.raise0 + value
        return FOLD if kind == _FOLD_KIND else CALL

    def _random_exchange(self, hand: list[int], count: int, rand: Callable[[], float]) -> int:
        """The exchange id of ``count`` cards taken from ``hand`` as the random bot takes
        them (:func:`~primero.bots.random.random_cards`, hand order)."""
        thrown = random_cards(rand, list(hand), count)
        ordered = sorted(hand)
        positions = sorted([ordered.index(card) for card in thrown])
        return EXCHANGE0 + EXCHANGE_POSITIONS.index(tuple(positions))

    def run(
        self,
        learner: int,
        rands: list[Callable[[], float] | None],
        deal: Callable[[], float],
        max_void: int,
    ) -> int:
        """Deal what is due (:meth:`deal_due` with ``deal``) and play every seat whose
        ``rands`` entry is a random source as :class:`~primero.bots.random.RandomBot`
        with it (:meth:`random_id`), until seat ``learner`` or a seat whose entry is None
        is to move, the hand is over, or it has had ``max_void`` void deals (R4.3: the
        lines then due are dealt first, as the engine's dealer deals them). Returns the
        player to move then (:data:`TERMINAL` once the hand is over)."""
        while True:
            if self.player == CHANCE:
                self.deal_due(deal)
            player = self.player
            if player < 0 or player == learner or self.void_deals >= max_void:
                return player
            rand = rands[player]
            if rand is None:
                return player
            self.apply(self.random_id(rand))

    def observe(self, seat: int, size: int) -> tuple[bytearray, bytearray]:
        """``seat``'s :meth:`observation` and its mask of ``size`` bytes (:meth:`mask`
        when ``seat`` is to move, else all 0), in one call."""
        mask = self.mask(size) if seat == self.player else bytearray(size)
        return self.observation(seat), mask

    def draw(self, card: int) -> None:
        """Deal card id ``card`` (a legal chance outcome) into the deal line due; the line
        is dealt once it holds every card due (R4.2, R4.4, R8b)."""
        self.log.append(card)
        pending = self.pending
        pending.append(card)
        seat, count = self.due[0]
        if len(pending) == count:
            self.pending = []
            self._deal(seat, pending)
        self._after()

    def deal_line(self, cards: list[int]) -> None:
        """Deal the whole line due (every card of it, stock cards first, R8b)."""
        for card in cards:
            self.log.append(card)
        self._deal(self.due[0][0], cards)
        self._after()

    def deal_due(self, rand: Callable[[], float]) -> None:
        """Deal every line due now, drawing as :class:`~primero.engine.dealing.Dealer` does
        from the same random source (``rand`` is its ``random``): the stock in card id
        order, each card popped at ``min(int(rand() * len(pool)), len(pool) - 1)``;
        short of cards, the whole stock first, then the reshuffled discards (R8b). The
        same source gives the same cards as the dealer into a ``HandState``."""
        while self.player == CHANCE:
            count = self.due[0][1]
            pool = self.stock_ids()
            if len(pool) >= count:
                cards: list[int] = []
            else:  # R8b: the whole stock, then from the reshuffled discards
                cards = pool
                pool = self.recyclable()
            while len(cards) < count:
                size = len(pool)
                at = int(rand() * size)
                cards.append(pool.pop(at if at < size else size - 1))
            self.deal_line(cards)

    def due_line(self) -> tuple[int, int]:
        """The deal due now as ``(seat, cards)``."""
        return self.due[0]

    def stock_ids(self) -> list[int]:
        """The stock's card ids, ascending (the stock has no order, R9b)."""
        in_stock = self.in_stock
        return [i for i in range(40) if in_stock[i]]

    def recyclable(self) -> list[int]:
        """The card ids of a new stock if the stock runs out dealing the line due (R8b)."""
        return reshuffle_pool(self.discard_pile, self.just_thrown)

    # -------------------------------------------------------------- internals

    def _after(self) -> int:
        self.legal = None
        if self.void_deals >= self.max_void:
            self.truncated = True
        if self.stage == COMPLETE or self.truncated:
            player = TERMINAL
        elif self.due:
            player = CHANCE
        elif self.vote_bettor >= 0:
            player = self.vote_voters[self.vote_index]
        else:
            player = self.turn_seat
        self.player = player
        return player

    def _deal(self, seat: int, cards: list[int]) -> None:
        count = len(cards)
        if self.stock_count < count:  # R8b: the discards become the new stock
            recycled = reshuffle_pool(self.discard_pile, self.just_thrown)
            for card in recycled:
                self.in_stock[card] = True
            self.stock_count += len(recycled)
            self.discard_pile = list(self.just_thrown)
            for own in self.own:  # shuffled back: no longer known dead
                own[:] = [c for c in own if c not in recycled]
        for card in cards:
            self.in_stock[card] = False
        self.stock_count -= count
        self.hands[seat].extend(cards)
        self.just_thrown = []
        self._dealt(seat)

    def _exchange(self, seat: int, positions: tuple[int, ...]) -> None:
        hand = self.hands[seat]
        ordered = sorted(hand)
        thrown = [ordered[p] for p in positions]
        for card in thrown:
            hand.remove(card)
        self.discard_pile.extend(thrown)
        self.own[seat].extend(thrown)
        self.exchanges[seat].append(len(thrown))
        if thrown:
            self.just_thrown = thrown
        self._exchanged(seat, len(thrown))

    def _muck(self, seat: int) -> None:
        self.hands[seat] = []

    def _collect(self) -> None:
        n = self.n
        self.hands = [[] for _ in range(n)]
        self.own = [[] for _ in range(n)]
        self.exchanges = [[] for _ in range(n)]
        self.in_stock = [True] * 40
        self.stock_count = 40
        self.discard_pile = []
        self.just_thrown = []

    def _settle(self) -> None:
        """Award every pot (R4.8, R7) into :attr:`net`."""
        n = self.n
        folded = self.folded
        if folded.count(False) > 1:  # the kernel's showdown step
            keys = showdown_keys(self.hands, folded)
            settle(self.contributed, folded, keys, self.rules.ties == "split", self.stacks)
        else:  # R4.8: the last player still in takes every pot unseen
            settle(self.contributed, folded, [None] * n, self.rules.ties == "split", self.stacks)
        self.net = [self.stacks[s] - self.start[s] for s in range(n)]

    # -------------------------------------------------------------- observation

    def observation(self, seat: int) -> bytearray:
        """``seat``'s observation vector as native float32 bytes (``numpy.frombuffer(b,
        dtype=numpy.float32)`` views it): the entries of
        :func:`primero.research.features.observation_vector` of ``view(hand, seat)``
        (R9b: the seat's own cards and discards, and what is public), each computed as
        there and rounded to float32 by the same C cast.

        Compiled, it is written in order into a :class:`librt.strings.BytesWriter`
        (:meth:`_observation_in_order`: native stores, a third of the cost); in pure
        Python, entry by entry into a float32 ``memoryview`` (fewer calls there)."""
        if _IN_ORDER:
            return self._observation_in_order(seat)
        n = self.n
        scale = float(self.max_stack)
        inv = 1.0 / scale
        buf = bytearray(_FLOAT * observation_size(n))
        out = memoryview(buf).cast("f")
        out[seat] = 1.0
        phase = self.stage
        out[n + phase] = 1.0
        i = n + 7
        # the engine's seat to act: -2 (None) once complete, -1 (DEALER) when a deal is due
        to_act = self.seat_to_act()
        if to_act == seat:
            out[i] = 1.0
            if self.vote_bettor >= 0:
                out[i + 1] = 1.0
        if self.current >= 0:
            out[i + 2] = 1.0
        if phase == COMPLETE:
            out[i + 3] = 1.0
        i += 4
        hand = self.hands[seat]
        for card in hand:
            out[i + card] = 1.0
        i += 40
        for card in self.own[seat]:
            out[i + card] = 1.0
        i += 40
        if len(hand) == 4:
            a, b, c, d = hand
            value = VALUE[BIT[a] | BIT[b] | BIT[c] | BIT[d]]
            out[i + (value.key >> 7)] = 1.0
            out[i + 5] = value.points / 84.0
        i += 6
        bettor = self.vote_bettor
        contributed = self.contributed
        i = seat_rows(
            out,
            i,
            inv,
            self.stacks,
            contributed,
            self.round_bets,
            self.folded,
            self.declared,
            [len(h) for h in self.hands],
            self.exchanges,
            to_act,
            bettor,
        )
        if self.current > 0:
            x = self.current * inv
            out[i] = x if x < 1.0 else 1.0
        if bettor >= 0:
            x = self.vote_amount * inv
            out[i + 1] = x if x < 1.0 else 1.0
        if self.cap_below >= 0 and seat == self.turn_seat and bettor < 0:
            x = self.cap_below * inv
            out[i + 2] = x if x < 1.0 else 1.0
        x = sum(contributed) / (n * scale)
        out[i + 3] = x if x < 1.0 else 1.0
        out[i + 4] = self.stock_count / 40.0
        if self.void_deals:
            out[i + 5] = (self.void_deals if self.void_deals < 10 else 10) / 10.0
        out.release()
        return buf

    def _observation_in_order(self, seat: int) -> bytearray:
        """:meth:`observation` written block by block, in order (the layout of
        :mod:`primero.research.features`): the one-hot blocks as zeros with the 1.0 entries
        set byte by byte (:func:`_one`), then every later entry appended as a
        little-endian float32."""
        out = self.obs_writer
        if out is None:
            out = self.obs_writer = BytesWriter()
        else:
            out.truncate(0)
        self._write_observation(seat, out, 0)
        return bytearray(out.getvalue())

    def _write_observation(self, seat: int, out: BytesWriter, at: int) -> None:
        """Append :meth:`observation`'s entries to ``out``, which holds ``at`` float32
        entries already (:meth:`_observation_in_order`, :func:`observe_tables`)."""
        n = self.n
        scale = float(self.max_stack)
        inv = 1.0 / scale
        prefix = self.obs_prefix
        if not prefix:
            prefix = self.obs_prefix = bytes(_FLOAT * (n + 96))
        out.write(prefix)  # zeros up to the category's points
        phase = self.stage
        _one(out, at + seat)
        _one(out, at + n + phase)
        i = n + 7
        to_act = self.seat_to_act()
        if to_act == seat:
            _one(out, at + i)
            if self.vote_bettor >= 0:
                _one(out, at + i + 1)
        if self.current >= 0:
            _one(out, at + i + 2)
        if phase == COMPLETE:
            _one(out, at + i + 3)
        i += 4
        hand = self.hands[seat]
        for card in hand:
            _one(out, at + i + card)
        i += 40
        for card in self.own[seat]:
            _one(out, at + i + card)
        i += 40
        points = 0.0
        if len(hand) == 4:
            a, b, c, d = hand
            value = VALUE[BIT[a] | BIT[b] | BIT[c] | BIT[d]]
            _one(out, at + i + (value.key >> 7))
            points = value.points / 84.0
        write_f32_le(out, points)
        bettor = self.vote_bettor
        stacks, contributed, round_bets = self.stacks, self.contributed, self.round_bets
        folded, declared, exchanges, hands = self.folded, self.declared, self.exchanges, self.hands
        for s in range(n):  # the rows of features.seat_rows
            x = stacks[s] * inv
            write_f32_le(out, x if x < 1.0 else 1.0)
            x = contributed[s] * inv
            write_f32_le(out, x if x < 1.0 else 1.0)
            x = round_bets[s] * inv
            write_f32_le(out, x if x < 1.0 else 1.0)
            write_f32_le(out, 1.0 if folded[s] else 0.0)
            category = declared[s]
            for k in range(5):
                write_f32_le(out, 1.0 if k == category else 0.0)
            write_f32_le(out, float(len(hands[s])) / 4.0)
            made = exchanges[s]
            write_f32_le(out, float(made[0] + 1) / 3.0 if made else 0.0)
            write_f32_le(out, float(made[1] + 1) / 3.0 if len(made) > 1 else 0.0)
            write_f32_le(out, 1.0 if to_act == s else 0.0)
            write_f32_le(out, 1.0 if bettor == s else 0.0)
        x = self.current * inv if self.current > 0 else 0.0
        write_f32_le(out, x if x < 1.0 else 1.0)
        x = self.vote_amount * inv if bettor >= 0 else 0.0
        write_f32_le(out, x if x < 1.0 else 1.0)
        cap = self.cap_below
        x = cap * inv if cap >= 0 and seat == self.turn_seat and bettor < 0 else 0.0
        write_f32_le(out, x if x < 1.0 else 1.0)
        x = sum(contributed) / (n * scale)
        write_f32_le(out, x if x < 1.0 else 1.0)
        write_f32_le(out, float(self.stock_count) / 40.0)
        write_f32_le(out, float(self.void_deals if self.void_deals < 10 else 10) / 10.0)


def observe_tables(
    tables: list[Stepper], seats: list[int], size: int, max_void: int
) -> tuple[bytes, bytes]:
    """Each table's :meth:`Stepper.observation` of ``seats[i]``, one after the other, and
    its mask of ``size`` bytes (:meth:`Stepper.mask` when that seat is to move and the
    hand has had fewer than ``max_void`` void deals, else all 0): the float32 bytes of a
    ``(len(tables), observation_size)`` array and the bytes of a ``(len(tables), size)``
    one."""
    obs = BytesWriter()
    masks = BytesWriter()
    zeros = bytes(size)
    entries = 0
    for i in range(len(tables)):
        table = tables[i]
        seat = seats[i]
        if _IN_ORDER:
            table._write_observation(seat, obs, entries)
            entries += observation_size(table.n)
        else:
            obs.write(table.observation(seat))
        if table.player == seat and table.void_deals < max_void:
            masks.write(mask_of(table.legal_ids(), size))
        else:
            masks.write(zeros)
    return obs.getvalue(), masks.getvalue()


def _replay(
    stacks: list[int], rules: Rules, max_stack: int, max_void: int, log: list[int]
) -> Stepper:
    """The stepper :meth:`Stepper.__reduce__` describes: ``log`` replayed from the start."""
    stepper = Stepper(stacks, rules, max_stack, max_void)
    for move in log:
        stepper.apply(move)
    return stepper


def replay(hand: HandState, moves: Sequence[int], pending: list[Card], max_stack: int) -> None:
    """Apply a stepper's moves (entries of :attr:`Stepper.log`) to the engine's ``hand``,
    each checked by :meth:`HandState.apply`: a card id goes into the deal line due (the
    line is applied once ``pending``, its cards so far, holds every card due); an action
    id is the action of :func:`primero.research.actionids.action_of` for the seat to act.

    Raises:
        IllegalActionError: a move the engine does not allow (the stepper and the engine
            disagree: a bug).
    """
    for move in moves:
        due = hand.deal_due()
        if due is not None:
            pending.append(DECK[move])
            if len(pending) == due[1]:
                hand.apply(Deal(due[0], tuple(pending)))
                pending.clear()
        else:
            seat = hand.to_act
            assert seat is not None
            hand.apply(action_of(move, seat=seat, hand=hand.hands[seat], max_stack=max_stack))
