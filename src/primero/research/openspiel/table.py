"""The Python side of a ``python_primero`` state: the engine's hand, the cards of a deal
line being drawn, the chance outcomes (R4.2, R4.4, R8b; see
:mod:`primero.research.openspiel`), and a whole move: the checks of an action id, the
engine action it stands for, the player to move next and the legal ids, kept per move.

Compiled by mypyc in a wheel build (``setup.py``): a pyspiel move is then one call from
the state's ``_apply_action`` into this module, with the rules still only the engine's
(:meth:`HandState.apply_unchecked` of an action taken from its own legal actions)."""

from __future__ import annotations

from math import comb
from typing import Any, Final

from primero.engine.actions import Deal
from primero.engine.cards import DECK, Card
from primero.engine.state import HandState, Phase
from primero.research.abstraction import env_action, env_legal_ids
from primero.research.actionids import action_of, legal_ids
from primero.research.mini import forced_move, restrict_stock

__all__ = ["CHANCE", "TERMINAL", "_Table"]

#: OpenSpiel's player ids of a chance node and of a terminal state
#: (``pyspiel.PlayerId.CHANCE``, ``pyspiel.PlayerId.TERMINAL``; ``game.py`` checks them).
CHANCE: Final = -1
TERMINAL: Final = -4
#: ``_OUTCOME[n][i]`` is the chance outcome ``(i, 1 / n)``: card ``i`` of ``n`` equally
#: likely ones, built once rather than at every chance node. Typed ``Any`` so that
#: mypyc hands the tuples on as they are (a ``tuple[int, float]`` would be unboxed and
#: boxed anew at each use, which cost as much as building them).
_OUTCOME: Final[list[list[Any]]] = [
    [(i, 1.0 / n if n else 0.0) for i in range(40)] for n in range(41)
]


class _Table:
    """The Python side of a state: the engine's hand and the cards of a deal in progress.

    Copied with :meth:`HandState.copy` (OpenSpiel clones a state by deep-copying this);
    pickled through its constructor (the class is compiled by mypyc in a wheel build,
    ``setup.py``, and such a class is neither built without its arguments nor given its
    fields one by one by pickle)."""

    def __init__(
        self,
        hand: HandState,
        stack: int = 1,
        max_void: int = 1 << 30,
        mini: bool = False,
        abstract: bool = False,
    ) -> None:
        self.hand = hand
        #: the game's largest starting stack (the bet and raise ids), the void deals that
        #: stop the hand, the Mini-Primero preset, the abstract action ids
        self.stack = stack
        self.max_void = max_void
        self.mini = mini
        self.abstract = abstract
        #: the player to move (a seat, CHANCE or TERMINAL), its legal ids and the chance
        #: outcomes, kept until the next move (None: not computed yet)
        self.player = CHANCE
        self.legal: list[int] | None = None
        self.outcomes: list[tuple[int, float]] | None = None
        self.pending: list[Card] = []
        self.truncated = False
        #: per chance move so far: the card id, the seat dealt to, whether the card was a
        #: stock card, and the void deals before it (R4.3: a void deal puts every card back)
        self.draw_card: list[int] = []
        self.draw_seat: list[int] = []
        self.draw_from_stock: list[bool] = []
        self.draw_cycle: list[int] = []

    def __deepcopy__(self, memo: dict[int, Any]) -> _Table:
        other = _Table(self.hand.copy(), self.stack, self.max_void, self.mini, self.abstract)
        other.player = self.player
        other.pending = list(self.pending)
        other.truncated = self.truncated
        other.draw_card = list(self.draw_card)
        other.draw_seat = list(self.draw_seat)
        other.draw_from_stock = list(self.draw_from_stock)
        other.draw_cycle = list(self.draw_cycle)
        return other

    def __reduce__(self) -> tuple[object, ...]:
        return (
            _restore,
            (
                self.hand,
                {name: getattr(self, name) for name in _FIELDS},
                self.stack,
                self.max_void,
                self.mini,
                self.abstract,
            ),
        )

    # -- a move ------------------------------------------------------------------------

    def after_move(self) -> int:
        """Bring the per-move state up to date after the hand changed (the ``mini``
        preset's forced moves made, ``max_void`` applied); the player to move now."""
        hand = self.hand
        if self.mini:
            forced = forced_move(hand)
            while forced is not None:
                hand.apply_unchecked(forced)
                forced = forced_move(hand)
            if hand.stock_count == 40:  # a void deal put every card back (R4.3)
                restrict_stock(hand)
        if hand.void_deals >= self.max_void:
            self.truncated = True
        self.legal = None
        self.outcomes = None
        if hand.phase is Phase.COMPLETE or self.truncated:
            player = TERMINAL
        elif hand.deals_due:
            player = CHANCE
        else:
            to_act = hand.to_act
            assert to_act is not None
            player = to_act
        self.player = player
        return player

    def legal_ids(self) -> list[int]:
        """The legal ids of the seat to move, ascending (kept for the move: do not change
        the list); empty at a chance node or at the end."""
        legal = self.legal
        if legal is None:
            seat = self.player
            if seat < 0:
                legal = []
            else:
                hand = self.hand
                if self.abstract:
                    legal = env_legal_ids(
                        hand.legal_actions(),
                        hand_size=len(hand.hands[seat]),
                        max_stack=self.stack,
                        abstract=True,
                    )
                else:
                    legal = legal_ids(
                        hand.legal_actions(),
                        hand_size=len(hand.hands[seat]),
                        max_stack=self.stack,
                    )
            self.legal = legal
        return legal

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The chance outcomes of the next draw (kept for the move: do not change the
        list): uniform over the pool (R8b), or in deck order within a deal line with the
        ``mini`` preset (:meth:`sorted_outcomes`)."""
        outcomes = self.outcomes
        if outcomes is None:
            outcomes = self.sorted_outcomes() if self.mini else self.stock_outcomes()
            self.outcomes = outcomes
        return outcomes

    def apply(self, action: int) -> int:
        """Apply action id ``action`` of the player to move (a card id at a chance node);
        the player to move next.

        Raises:
            ValueError: the id is not legal now (a card that cannot be dealt, an action
                id not among the legal ids, which the message lists); nothing changes.
        """
        player = self.player
        if player == CHANCE:
            # the common case (a stock card not yet drawn) needs no outcome list
            if (self.mini or not 0 <= action < 40 or not self.usual_draw(action)) and all(
                action != i for i, _ in self.chance_outcomes()
            ):
                raise ValueError(f"card id {action} cannot be dealt now")
            self.draw(action)  # a card of the engine's own pool (R8b)
        else:
            if player < 0 or action not in self.legal_ids():
                raise ValueError(
                    f"action {action} is not legal now: legal ids are {list(self.legal_ids())}"
                )
            hand = self.hand
            if self.abstract:
                move = env_action(
                    action,
                    hand.legal_actions(),
                    seat=player,
                    hand=hand.hands[player],
                    pot=hand.pot_total(),
                    current_bet=hand.current_bet or 0,
                    max_stack=self.stack,
                    abstract=True,
                )
            else:
                move = action_of(action, seat=player, hand=hand.hands[player], max_stack=self.stack)
            hand.apply_unchecked(move)  # an id from the engine's own legal actions
        return self.after_move()

    def draw(self, card_id: int) -> None:
        """Deal card ``card_id`` (a legal chance outcome) into the deal line due, and apply
        the line once it holds every card due (R4.2, R4.4, R8b: the cards come from the
        engine's own pool, so the line is applied unchecked)."""
        hand = self.hand
        seat, count = hand.deals_due[0]
        self.draw_card.append(card_id)
        self.draw_seat.append(seat)
        self.draw_from_stock.append(hand.in_stock[card_id])
        self.draw_cycle.append(hand.void_deals)
        pending = self.pending
        pending.append(DECK[card_id])
        if len(pending) == count:
            self.pending = []
            hand.apply_unchecked(Deal(seat, tuple(pending)))

    def usual_draw(self, card_id: int) -> bool:
        """Whether ``card_id`` is a stock card not yet drawn while the stock holds the deal
        due: the common case, a legal draw without building the outcomes (R8b)."""
        hand = self.hand
        return (
            hand.stock_count >= hand.deals_due[0][1]
            and hand.in_stock[card_id]
            and DECK[card_id] not in self.pending
        )

    def stock_outcomes(self) -> list[tuple[int, float]]:
        """Each card the next draw may give with its probability, all equal (R8b)."""
        hand = self.hand
        if not self.pending and hand.stock_count >= hand.deals_due[0][1]:
            # the common case: the first card of a line, from the stock (a loop over the
            # flags, no intermediate list)
            in_stock = hand.in_stock
            row: list[Any] = _OUTCOME[hand.stock_count]
            return [row[i] for i in range(40) if in_stock[i]]
        pool = self.pool_ids()
        row_: list[Any] = _OUTCOME[len(pool)]
        return [row_[i] for i in pool]

    def pool_ids(self) -> list[int]:
        """The ids of the cards the next chance draw may give, ascending (R8b): the stock
        cards not yet drawn, or once the stock is used up, the reshuffled discards."""
        hand = self.hand
        seat, count = hand.deals_due[0]
        in_stock = hand.in_stock
        pending = self.pending
        if pending:
            drawn = [c.id for c in pending]
            stock = [i for i in range(40) if in_stock[i] and i not in drawn]
        else:
            drawn = []
            stock = [i for i in range(40) if in_stock[i]]
        if hand.stock_count >= count or stock:
            return stock
        return sorted(c.id for c in hand.recyclable(seat) if c.id not in drawn)

    def pool(self) -> list[Card]:
        """The cards the next chance draw may give, in deck order (R8b)."""
        return [DECK[i] for i in self.pool_ids()]

    def sorted_outcomes(self) -> list[tuple[int, float]]:
        """The next card of a deal line drawn in deck order (the ``mini`` preset): only
        cards above the last one drawn from the same source (stock or reshuffled
        discards), card ``c`` with probability ``C(a, r - 1) / C(m, r)`` where ``m``
        cards may come, ``a`` of them above ``c``, and ``r`` are still due from this
        source: every set of cards is then as likely as in an unordered draw."""
        hand = self.hand
        count = hand.deals_due[0][1]
        in_stock = hand.in_stock
        from_stock = hand.stock_count >= count or any(
            in_stock[i] and all(c.id != i for c in self.pending) for i in range(40)
        )
        mine = [c.id for c in self.pending if in_stock[c.id] == from_stock]
        if from_stock and hand.stock_count < count:
            due = hand.stock_count - len(mine)  # R8b: every stock card first
        else:
            due = count - len(self.pending)
        last = max(mine, default=-1)
        ids = [i for i in self.pool_ids() if i > last]
        total = comb(len(ids), due)
        out = []
        for k, card_id in enumerate(ids):
            ways = comb(len(ids) - k - 1, due - 1)
            if ways:
                out.append((card_id, ways / total))
        return out


#: The fields of a :class:`_Table` beside its hand, set after its constructor on unpickling.
_FIELDS: Final = (
    "player",
    "pending",
    "truncated",
    "draw_card",
    "draw_cycle",
    "draw_from_stock",
    "draw_seat",
)


def _restore(
    hand: HandState,
    fields: dict[str, Any],
    stack: int = 1,
    max_void: int = 1 << 30,
    mini: bool = False,
    abstract: bool = False,
) -> _Table:
    """The table :meth:`_Table.__reduce__` describes."""
    table = _Table(hand, stack, max_void, mini, abstract)
    for name, value in fields.items():
        setattr(table, name, value)
    return table
