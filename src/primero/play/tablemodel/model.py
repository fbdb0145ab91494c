"""An I/O-free model of a match at a table: seats of people and bots, turns, deadlines, events.

The model owns a :class:`~primero.engine.match.Match` (R9). It has no clock and does no I/O:
time is passed in (``now``, in seconds), actions are passed in, and every applied
action comes out as an :class:`Event` whose sentence each seat reads with
:meth:`Event.text_for`. Rules stay in :class:`~primero.engine.state.HandState`; what a seat is
sent is built by :func:`primero.play.tablemodel.payload.seat_payload` from :func:`primero.view`.

>>> m = TableModel(["Ana", "Lorenzo", "Isabella", "Girolamo"],
...                [None, "random", "random", "random"], seed=5, max_hands=1)
>>> _ = m.start_hand()
>>> while (a := m.step()) is not None: pass   # deals and bot moves until a person acts
>>> m.person_to_act() == 0 or m.hand.complete
True
"""

from __future__ import annotations

import secrets
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace
from typing import Final

from primero.bots import BOT_KINDS, UNCAPPED_KINDS, make_bot
from primero.engine.actions import (
    Action,
    Call,
    Deal,
    Raise,
    Vote,
    parse_action,
)
from primero.engine.dealing import Dealer
from primero.engine.errors import IllegalActionError, PrimeroError, WrongTurnError
from primero.engine.history import HandRecord
from primero.engine.match import Agent
from primero.engine.rules import DEFAULT_RULES, Rules
from primero.engine.state import DEALER, HandState
from primero.engine.views import SeatView, view
from primero.play.tablemodel.presence import TableMatch
from primero.play.tablemodel.sentences import move_name, refusal_words, sentence
from primero.play.tablemodel.timeout import least_committal, unattended_move

__all__ = ["Event", "TableModel", "bot_seed", "move_words"]


def bot_seed(seed: int, index: int) -> int:
    """The seed of the bot at table ``index`` in a table seeded with ``seed`` (R10)."""
    return seed * 1_000_003 + 7_919 * (index + 1)


#: The verbs of a player's action line (the dealer's 'd dh' is not one).
PLAYER_VERBS: Final = ("x", "b", "r", "c", "f", "y", "n", "dc")


#: A player's action as the move a person chose (one copy: :mod:`.sentences`).
move_words = move_name


@dataclass(frozen=True, slots=True)
class Event:
    """One applied action (R9b: show :meth:`text_for`, never the action's cards).

    Attributes:
        action: the action; its ``seat`` is the 0-based seat of the hand.
        actor: the actor's name (the dealt-to player for a deal).
        call: for a call, the chips it put in; for a raise, the chips it had to call
            (0: over a bet of 0, the round's first bet, R5); else None.
        note: what it led to: a void deal (R4.3), a bet standing or withdrawn after a
            vote (R8); else "".
        index: the action's position in the hand's record lines (0-based).
    """

    action: Action
    actor: str
    call: int | None
    note: str
    index: int

    @property
    def seat(self) -> int:
        """The 0-based seat of the hand that acted (or was dealt to)."""
        return self.action.seat

    def text_for(self, viewer: int | None) -> str:
        """The sentence as seat ``viewer`` (None: a spectator) may read it, note included."""
        text = sentence(self.action, viewer=viewer, name=self.actor, call=self.call)
        return f"{text} — {self.note}" if self.note else text


class TableModel:
    """A match (R9) at a table of people and bots, without I/O or a clock.

    Args:
        names: the players' distinct names in table order (``names[0]`` is p1 of the first
            hand, ``names[-1]`` deals first).
        kinds: for each table index, None for a person or a bot kind of
            :data:`primero.bots.BOT_KINDS`.
        stack: every player's starting stack (chips, >= 1), or one per player.
        rules: the house rules.
        max_hands: end after this many hands (None: until one player holds every chip).
        seed: seeds the match's dealer and the bots reproducibly (R10); None: each hand's
            dealer seed is drawn from :mod:`secrets` and the bots are seeded freshly.
        turn_seconds: a person's time to act (seconds); None or 0 for no timer.
        rebuy: whether a broke person may rebuy (docs/protocol.md ``rebuy``; see
            :mod:`.presence`).
        friendly_bots: the bots' bets and raises are capped as people at a friendly
            table bet (:class:`primero.bots.friendly.FriendlyBets`: at most the pot and a
            quarter of the smallest stack in the hand); ``primero serve``'s game-night
            tables set it. Kept as :attr:`friendly_bots` for bots seated later.

    Raises:
        RulesError: as :class:`~primero.engine.match.Match` (player count, names, stacks,
            ``max_hands``).
        ValueError: ``kinds`` and ``names`` differ in length, or an unknown bot kind (the
            message lists the kinds).
    """

    def __init__(
        self,
        names: Sequence[str],
        kinds: Sequence[str | None],
        *,
        stack: int | Sequence[int] = 100,
        rules: Rules = DEFAULT_RULES,
        max_hands: int | None = None,
        seed: int | None = None,
        turn_seconds: float | None = None,
        rebuy: bool = False,
        friendly_bots: bool = False,
    ) -> None:
        if len(kinds) != len(names):
            raise ValueError(f"give one kind per player: {len(names)} names, {len(kinds)} kinds")
        for kind in kinds:
            if kind is not None and kind not in BOT_KINDS:
                raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")
        self.match = TableMatch(
            names,
            people={i for i, k in enumerate(kinds) if k is None},
            stacks=stack,
            rules=rules,
            max_hands=max_hands,
            seed=seed,
            rebuy=rebuy,
        )
        self.kinds: tuple[str | None, ...] = tuple(kinds)
        self.seed = seed
        self.turn_seconds = turn_seconds or None
        self.friendly_bots = friendly_bots
        self.agents: tuple[Agent | None, ...] = tuple(
            None if k is None else self._bot(k, None if seed is None else bot_seed(seed, i))
            for i, k in enumerate(kinds)
        )
        #: The bots playing for sitting-out people (:meth:`stand_in_agent`), by table index.
        self.stand_ins: dict[int, tuple[str, Agent]] = {}
        self.hand: HandState | None = None
        self.hand_seed: int | None = None
        self.events: list[Event] = []
        self.deadline: float | None = None

    def _bot(self, kind: str, seed: int | None) -> Agent:
        """A bot of ``kind`` for this table, wrapped in friendly bet sizes when the
        table has them (:attr:`friendly_bots`; never the exploiters,
        :data:`primero.bots.UNCAPPED_KINDS`)."""
        bot = make_bot(kind, seed)
        if not self.friendly_bots or kind in UNCAPPED_KINDS:
            return bot
        from primero.bots.friendly import FriendlyBets

        return FriendlyBets(bot)

    # ----------------------------------------------------------------- queries

    @property
    def names(self) -> tuple[str, ...]:
        """The players' names in table order."""
        return self.match.players

    @property
    def over(self) -> bool:
        """Whether the match is over (R9)."""
        return self.match.over

    @property
    def hand_number(self) -> int:
        """The 1-based number of the current hand (of the last one once closed); 0 before."""
        played = self.match.hands_played
        return played + 1 if self.match.hand is not None else played

    def hand_seat(self, index: int) -> int | None:
        """The 0-based seat of the current hand of table ``index``; None when that player is
        out of the match or no hand is open."""
        seats = self.match.seats if self.hand is not None else ()
        return seats.index(index) if index in seats else None

    def table_index(self, seat: int) -> int:
        """The table index of seat ``seat`` of the current hand.

        Raises:
            PrimeroError: no hand is open.
        """
        if self.hand is None:
            raise PrimeroError("no hand has been started")
        return self.match.seats[seat]

    def to_act_index(self) -> int | None:
        """The table index of the player to act; None when the dealer is due, the hand is
        over or no hand is open."""
        hand = self.hand
        if hand is None or hand.to_act is None or hand.to_act == DEALER:
            return None
        return self.match.seats[hand.to_act]

    def person_to_act(self) -> int | None:
        """The table index of the person to act now (and to move by themselves), or None."""
        index = self.to_act_index()
        if index is None or self.kinds[index] is not None or self.moves_for_absent(index):
            return None
        if self.match.presence[index].stand_in is not None:
            return None  # a bot plays for them
        return index

    def view_for(self, index: int | None) -> SeatView:
        """The view (R9b) of the current hand for table ``index``: the public view for a
        spectator (None) or a player out of the match.

        Raises:
            PrimeroError: no hand has been started.
        """
        if self.hand is None:
            raise PrimeroError("no hand has been started")
        if index is not None and self.match.presence[index].left:
            index = None  # a seat that left reads the public view
        return view(self.hand, None if index is None else self.hand_seat(index))

    # ----------------------------------------------------------------- playing

    def start_hand(
        self,
        seed: int | None = None,
        *,
        now: float | None = None,
        dealt: Collection[int] | None = None,
    ) -> HandState:
        """Start the next hand (ante taken, first deal due; R3, R4.1).

        Args:
            seed: the hand's dealer seed (:meth:`Dealer.seeded`); None: the match's seeded
                dealer goes on when the model has a seed, else a fresh seed is drawn from
                :mod:`secrets` (R10 live randomness, replayable from the record).
            now: the time (seconds) for the deadline, when there is a timer.
            dealt: the table indices to deal in (a stored hand rebuilt: who sat out may
                have changed during it); None: the seats dealable now.

        Raises:
            MatchOverError: the match is over.
            PrimeroError: the current hand is not finished.
            NotDealableError: fewer than two seats can be dealt in (``dealt`` None).
        """
        hand = self.match.start_hand(dealt)
        if seed is not None:
            self.match.dealer = Dealer.seeded(seed)
        elif self.seed is None:
            seed = secrets.randbits(63)
            self.match.dealer = Dealer.seeded(seed)
        else:
            seed = self.seed  # one seeded dealer deals the whole match (R10)
        self.hand, self.hand_seed = hand, seed
        self.events = []
        self._update_deadline(now)
        return hand

    def due(self) -> tuple[Agent | None, SeatView] | None:
        """What moves next when it is not a person: ``(agent, view)`` of the bot to act,
        ``(None, public view)`` when the dealer must deal; None when a person must act or
        the hand is over. Call the agent (possibly in another thread) and :meth:`apply`."""
        hand = self.hand
        if hand is None or hand.to_act is None:
            return None
        if hand.to_act == DEALER:
            return None, view(hand, None)
        index = self.match.seats[hand.to_act]
        agent = self.agents[index] or self.stand_in_agent(index)
        if agent is None:
            if not self.moves_for_absent(index):
                return None
            agent = unattended_move if self.unattended() else least_committal
        return agent, view(hand, hand.to_act)

    def unattended(self) -> bool:
        """Whether no seat still in the hand is a present person or a bot: every one is a
        person who left, is leaving or is away (docs/rules.md, table rule T1). The
        table's moves for them then end the hand (:func:`.timeout.unattended_move`)
        instead of the least committal ones, which could deal void for ever (R4.3)."""
        hand = self.hand
        if hand is None:
            return False
        for seat in hand.still_in():
            index = self.match.seats[seat]
            p = self.match.presence[index]
            if self.agents[index] is not None or p.stand_in is not None:
                return False
            if not (p.left or p.leaving or p.away):
                return False
        return True

    def stand_in_agent(self, index: int) -> Agent | None:
        """The bot playing for person ``index`` (``presence.stand_in``), or None: the one
        given with :meth:`set_stand_in`, else a new one of that kind (seeded as the
        seat's bot would be, R10)."""
        kind = self.match.presence[index].stand_in
        if kind is None:
            self.stand_ins.pop(index, None)
            return None
        kept = self.stand_ins.get(index)
        if kept is None or kept[0] != kind:
            seed = None if self.seed is None else bot_seed(self.seed, index)
            kept = (kind, self._bot(kind, seed))
            self.stand_ins[index] = kept
        return kept[1]

    def set_stand_in(self, index: int, kind: str, agent: Agent) -> None:
        """Keep ``agent`` (a bot of ``kind``, built off the event loop) as the stand-in
        of person ``index`` (its ``presence.stand_in`` set by the caller)."""
        self.stand_ins[index] = (kind, agent)

    def moves_for_absent(self, index: int) -> bool:
        """Whether the table makes the least committal moves of person ``index``: one
        who asked to leave during the hand, or one away at a table with no timer
        (docs/protocol.md "Presence")."""
        p = self.match.presence[index]
        return p.leaving or (p.away and self.turn_seconds is None)

    def deal(self, *, now: float | None = None) -> Event:
        """Apply the deal due now, its cards drawn by the hand's seeded dealer (R10).

        Raises:
            WrongTurnError: no deal is due.
        """
        hand = self._open_hand()
        action = self.match.dealer.deal(hand)
        return self._record(action, trusted=True, now=now)

    def step(self, *, now: float | None = None) -> Event | None:
        """Apply the deal due or one bot's move (decided here, in this thread); None when
        a person must act or the hand is over.

        Raises:
            PrimeroError: no hand has been started.
            IllegalActionError: a bot returned an illegal action (a bug in the bot).
        """
        self._open_hand()
        due = self.due()
        if due is None:
            return None
        agent, v = due
        if agent is None:
            return self.deal(now=now)
        return self.apply(agent(v), now=now)

    def apply(self, action: Action, *, now: float | None = None) -> Event:
        """Apply a player's action, checked by the rules (nothing changes on error).

        Args:
            action: the action, its seat a seat of the current hand.
            now: the time (seconds) for the next deadline.

        Returns:
            The event.

        Raises:
            PrimeroError: no hand has been started.
            WrongTurnError: it is not that seat's turn.
            IllegalActionError: the rules do not allow it now (the message says what is).
        """
        return self._record(action, trusted=False, now=now)

    def apply_line(self, line: str, index: int, *, now: float | None = None) -> Event:
        """Apply an action line without its seat (``"b 2"``, ``"x 7h Kc"``, ``"dc fluxus"``)
        for the player at table ``index``.

        Raises:
            WrongTurnError: that player is not to act (or not in the hand).
            IllegalActionError: the line is not understood or not legal now (the message
                says why); nothing changes.
        """
        return self.apply_person(self.parse_line(line, index), index, now=now)

    def parse_line(self, line: str, index: int) -> Action:
        """The action of :meth:`apply_line`, checked by the rules but not applied (a
        server stores it first); nothing changes.

        Raises:
            WrongTurnError, IllegalActionError: as :meth:`apply_line`.
        """
        hand = self._open_hand()
        seat = self.hand_seat(index)
        presence = self.match.presence[index]
        if presence.leaving or presence.left:  # said first: no turn of theirs will come
            raise WrongTurnError("you have left this table: you may watch and chat")
        if presence.stand_in is not None:
            raise WrongTurnError(
                "a bot plays your seat until this hand ends: Take my seat back to play the next"
            )
        if seat is None or hand.to_act != seat:
            raise WrongTurnError("it is not your turn")
        legal = hand.legal_actions()
        try:  # the record module reads the line: a verb not of PLAYER_VERBS is refused
            action = parse_action(f"p{seat + 1} {line.strip()}", hand.n)
        except ValueError:  # words for people (sentences.refusal_words)
            raise IllegalActionError(refusal_words(None, legal, None, seat)) from None
        if isinstance(action, Deal):
            raise IllegalActionError(refusal_words(None, legal, None, seat))
        try:
            hand.check(action)
        except WrongTurnError:  # the engine names the line; a person reads the move
            raise IllegalActionError(refusal_words(action, legal, None, seat)) from None
        except PrimeroError as exc:
            raise IllegalActionError(refusal_words(action, legal, exc, seat)) from None
        return action

    def apply_person(self, action: Action, index: int, *, now: float | None = None) -> Event:
        """Apply the action a person chose for table ``index`` (from :meth:`parse_line`);
        their count of timer moves in a row starts again (docs/protocol.md "Presence").

        Raises:
            PrimeroError, WrongTurnError, IllegalActionError: as :meth:`apply`.
        """
        event = self.apply(action, now=now)
        self.match.presence[index].timeouts = 0
        return event

    def replay_line(self, line: str) -> Event:
        """Re-apply a stored record line on resume: a deal line is drawn again from the
        hand's seeded dealer (so the cards to come stay the same) and must match.

        Raises:
            PrimeroError: the line does not follow (a different deal, or illegal).
        """
        hand = self._open_hand()
        if line.startswith("d "):
            event = self.deal()
            if event.action.line() != line:
                raise PrimeroError(
                    f"stored deal {line!r} differs from the seed's {event.action.line()!r}"
                )
            return event
        return self.apply(parse_action(line, hand.n))

    def timeout_action(self) -> Action:
        """The least committal move for the person to act (see :mod:`.timeout`).

        Raises:
            PrimeroError: no person is to act.
        """
        hand = self._open_hand()
        if self.person_to_act() is None:
            raise PrimeroError("no person is to act")
        assert hand.to_act is not None
        move = unattended_move if self.unattended() else least_committal
        return move(view(hand, hand.to_act))

    def time_out(self, *, now: float | None = None) -> Event:
        """Make the timer's move for the person to act (counted: twice in a row and the
        person is sat out when the hand ends; docs/protocol.md "Presence").

        Raises:
            PrimeroError: no person is to act.
        """
        index = self.person_to_act()
        action = self.timeout_action()
        assert index is not None
        event = self.apply(action, now=now)
        self.match.presence[index].timeouts += 1
        return event

    def timed_out(self, now: float) -> bool:
        """Whether the person to act has let the deadline pass at time ``now`` (seconds)."""
        return self.deadline is not None and now >= self.deadline

    def refresh_deadline(self, now: float | None) -> None:
        """Give the person to act a fresh deadline from ``now`` (after a restart)."""
        self._update_deadline(now)

    def finish_hand(self) -> HandRecord:
        """Close the complete hand (chips, the deal passes right; R3, R9).

        Returns:
            Its complete record, with the hand's dealer seed and ``hand_number``.

        Raises:
            PrimeroError: there is no complete hand to close.
        """
        record = self.match.finish_hand()
        self.deadline = None
        return replace(record, seed=self.hand_seed)

    # ----------------------------------------------------------------- internals

    def _open_hand(self) -> HandState:
        if self.hand is None:
            raise PrimeroError("no hand has been started")
        return self.hand

    def _update_deadline(self, now: float | None) -> None:
        if self.turn_seconds is None or now is None or self.person_to_act() is None:
            self.deadline = None
        else:
            self.deadline = now + self.turn_seconds

    def _record(self, action: Action, *, trusted: bool, now: float | None) -> Event:
        hand = self._open_hand()
        call = hand.legal_actions().call if isinstance(action, Call | Raise) else None
        voids = hand.void_deals
        index = len(hand.actions)
        if trusted:
            hand.apply_unchecked(action)
        else:
            hand.apply(action)
        note = ""
        if hand.void_deals > voids:
            note = "nobody bet: void deal, the cards are dealt again (R4.3)"
        if isinstance(action, Vote) and hand.vote is None and not hand.complete:
            note = "the bet stands (R8)" if action.accept else "refused by all: withdrawn (R8)"
        actor = self.names[self.match.seats[action.seat]]
        event = Event(action, actor, call, note, index)
        self.events.append(event)
        self._update_deadline(now)
        return event
