"""A match: hands in a row between the same players, the deal passing right (R3, R9).

Players are given in table order for the first hand: ``players[0]`` sits on the dealer's
right (p1 of the first hand) and ``players[-1]`` deals first. After each hand the deal
passes to the dealer's right (the old p1 deals), skipping players who are out.

>>> from primero.bots.random import RandomBot
>>> m = Match(["Ana", "Ben", "Cleo", "Dev"], seed=3, max_hands=2)
>>> bots = {name: RandomBot(seed=i) for i, name in enumerate(m.players)}
>>> while not m.over:
...     _ = m.play_hand(bots)
>>> m.hands_played, sum(m.chips)
(2, 400)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Final

from primero.engine.actions import Action
from primero.engine.dealing import Dealer
from primero.engine.errors import EndlessHandError, PrimeroError
from primero.engine.history import HandRecord, record_of
from primero.engine.legal import line_limit
from primero.engine.names import check_player_names
from primero.engine.rules import DEFAULT_RULES, Rules, RulesError
from primero.engine.state import DEALER, HandState
from primero.engine.views import SeatView, view

__all__ = [
    "MAX_VOID_DEALS",
    "Agent",
    "Match",
    "MatchOverError",
    "NotDealableError",
    "Standing",
    "play_hand",
]

#: The most void deals (R4.3) :func:`play_hand` lets one hand have before it stops it.
MAX_VOID_DEALS: Final = 1000

#: A decision maker: given its seat's view (with ``legal`` set), returns its action.
Agent = Callable[[SeatView], Action]


class MatchOverError(PrimeroError):
    """A new hand was asked of a match that is over."""


class NotDealableError(PrimeroError):
    """No hand can start: fewer than two seats can be dealt in (at a table, paused by the
    players until a seat can play again)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place at the end (or so far) of a match (R9).

    Attributes:
        place: 1 for the most chips; equal chips share a place.
        name: the player's name.
        chips: the player's chips.
    """

    place: int
    name: str
    chips: int


def play_hand(
    state: HandState,
    dealer: Dealer,
    agents: Sequence[Agent],
    *,
    on_action: Callable[[HandState, Action], None] | None = None,
    max_void_deals: int = MAX_VOID_DEALS,
) -> None:
    """Play a hand to its end: the dealer deals, each seat's agent decides from its view.

    A guard stops a hand that cannot end: one deal of a hand has at most
    :func:`~primero.engine.legal.line_limit` lines (R4–R8), so going past it means a rule bug
    (say, a refused bettor allowed to repeat the refused bet for ever, R8). Void deals
    (R4.3) are unlimited in the rules; agents that void ``max_void_deals`` deals in a
    row in one hand are stopped too.

    Args:
        state: the hand (at any point before its end).
        dealer: supplies the cards of every deal.
        agents: one agent per seat, in seat order.
        on_action: called after each applied action with the state and the action.
        max_void_deals: the most void deals allowed in this hand (default
            :data:`MAX_VOID_DEALS`).

    Raises:
        IllegalActionError: an agent returned an illegal action (the hand is left as it
            was before that action).
        EndlessHandError: the hand went past the most lines a deal can have, or past
            ``max_void_deals`` void deals (the hand is left where it stopped).
    """
    limit = line_limit(state.n, max(state.starting_stacks))
    voids = state.void_deals
    start = len(state.actions)
    while not state.complete:
        if state.void_deals != voids:
            voids = state.void_deals
            start = len(state.actions)
            if voids > max_void_deals:
                raise EndlessHandError(
                    f"{voids} void deals in one hand, more than the {max_void_deals} allowed"
                )
        if len(state.actions) - start > limit:
            raise EndlessHandError(
                f"the hand went past {limit} lines in one deal, more than the rules allow "
                f"for {state.n} players with stacks up to {max(state.starting_stacks)} "
                "chips (R4-R8): a rule bug"
            )
        seat = state.to_act
        assert seat is not None
        action = dealer.deal(state) if seat == DEALER else agents[seat](view(state, seat))
        state.apply(action)
        if on_action is not None:
            on_action(state, action)


class Match:
    """A series of hands between the same players (R9).

    Args:
        players: distinct names in table order (``players[0]`` is p1 of the first hand,
            ``players[-1]`` its dealer); ``rules.min_players`` to ``rules.max_players`` of them.
        stacks: the starting stack of every player (chips, default 100), or one per player.
        rules: the house rules.
        max_hands: end the match after this many hands (None: until one player has every
            chip).
        seed: seed of the dealer (R10); None deals from a secure source (live play).

    Raises:
        RulesError: a wrong number of players, a name that is not a valid player name
            (:func:`primero.engine.names.check_player_names`) or repeated, stacks < 1, rules and
            stacks that make no game (:meth:`~primero.engine.rules.Rules.check_stacks`: an ante
            not below the stacks, a ``min_raise`` beyond them), or ``max_hands`` < 1.
    """

    def __init__(
        self,
        players: Sequence[str],
        *,
        stacks: int | Sequence[int] = 100,
        rules: Rules = DEFAULT_RULES,
        max_hands: int | None = None,
        seed: int | None = None,
    ) -> None:
        names = tuple(players)
        rules.check_match_players(len(names))
        check_player_names(names)
        chips = [stacks] * len(names) if isinstance(stacks, int) else list(stacks)
        if len(chips) != len(names) or any(type(c) is not int or c < 1 for c in chips):
            raise RulesError("stacks must be whole numbers >= 1, one per player")
        rules.check_stacks(chips)
        if max_hands is not None and (type(max_hands) is not int or max_hands < 1):
            raise RulesError(f"max_hands must be a whole number >= 1, not {max_hands!r}")
        self.players = names
        self.chips = chips
        self.rules = rules
        self.max_hands = max_hands
        self.seed = seed
        self.dealer = Dealer.live() if seed is None else Dealer.seeded(seed)
        self.dealer_index = len(names) - 1
        self.hands_played = 0
        self.hand: HandState | None = None
        self.seats: tuple[int, ...] = ()
        self.records: list[HandRecord] = []

    @property
    def over(self) -> bool:
        """Whether the match has ended (one player holds every chip, or max_hands reached)."""
        alive = sum(1 for c in self.chips if c > 0)
        if alive <= 1:
            return True
        return self.max_hands is not None and self.hands_played >= self.max_hands

    def in_match(self) -> list[int]:
        """Table indices of the players still in the match (chips > 0)."""
        return [i for i, c in enumerate(self.chips) if c > 0]

    def dealable(self, index: int) -> bool:
        """Whether table ``index`` would be dealt in the next hand: it holds chips (R9).

        The one hook of :meth:`start_hand`: a table whose seats may sit out or leave
        (:class:`primero.play.tablemodel.presence.TableMatch`) narrows it.
        """
        return self.chips[index] > 0

    def dealt_in(self) -> list[int]:
        """The table indices that would be dealt in the next hand, in table order."""
        return [i for i in range(len(self.players)) if self.dealable(i)]

    def can_deal(self) -> bool:
        """Whether at least two seats can be dealt in."""
        return len(self.dealt_in()) >= 2

    def start_hand(self, dealt: Collection[int] | None = None) -> HandState:
        """Start the next hand: the seats dealt in, from the dealer's right round to the
        dealer (R3).

        Args:
            dealt: the table indices to deal in (a stored hand rebuilt after a restart:
                who was dealable then may differ from now); None: those :meth:`dealable`
                now.

        Returns:
            The new hand (ante taken, first deal due). :attr:`seats` maps its seats to
            table indices.

        Raises:
            MatchOverError: the match is over.
            NotDealableError: fewer than two seats can be dealt in (``dealt`` None).
            PrimeroError: the previous hand is not finished.
        """
        if self.over:
            raise MatchOverError("the match is over")
        if self.hand is not None and not self.hand.complete:
            raise PrimeroError("finish the current hand first")
        if dealt is None and not self.can_deal():
            raise NotDealableError("fewer than two seats can be dealt in: waiting for players")
        n = len(self.players)
        order = [(self.dealer_index + i) % n for i in range(1, n + 1)]
        self.seats = tuple(i for i in order if (self.dealable(i) if dealt is None else i in dealt))
        self.hand = HandState(
            [self.players[i] for i in self.seats],
            [self.chips[i] for i in self.seats],
            self.rules,
        )
        return self.hand

    def finish_hand(self) -> HandRecord:
        """Close the finished hand: update chips, record it, pass the deal right (R3, R9).

        Returns:
            The hand's record (also appended to :attr:`records`).

        Raises:
            PrimeroError: there is no finished hand to close.
        """
        hand = self.hand
        if hand is None or hand.result is None:
            raise PrimeroError("no finished hand to close")
        for seat, table_index in enumerate(self.seats):
            self.chips[table_index] = hand.result.final_stacks[seat]
        record = record_of(hand, seed=self.seed, extra={"hand_number": self.hands_played + 1})
        self.records.append(record)
        self.hands_played += 1
        # R3: the old p1 deals next, or the next player still in to the old dealer's right.
        n = len(self.players)
        for i in range(1, n + 1):
            candidate = (self.dealer_index + i) % n
            if self.chips[candidate] > 0:
                self.dealer_index = candidate
                break
        self.hand = None
        return record

    def play_hand(self, agents: Mapping[str, Agent]) -> HandRecord:
        """Start, play and close one hand with an agent per player name.

        Args:
            agents: an agent for every player still in the match, by name.

        Returns:
            The hand's record.

        Raises:
            MatchOverError: the match is over.
            KeyError: a player still in has no agent.
            IllegalActionError: an agent returned an illegal action.
        """
        hand = self.start_hand()
        play_hand(hand, self.dealer, [agents[name] for name in hand.players])
        return self.finish_hand()

    def standings(self) -> list[Standing]:
        """Players ranked by chips, most first; equal chips share a place (R9)."""
        ranked = sorted(range(len(self.players)), key=lambda i: (-self.chips[i], i))
        out: list[Standing] = []
        for pos, i in enumerate(ranked):
            place = pos + 1
            if out and out[-1].chips == self.chips[i]:
                place = out[-1].place
            out.append(Standing(place, self.players[i], self.chips[i]))
        return out
