"""One person playing a match against bots: the controller behind ``primero play`` and the TUI.

A :class:`Table` owns a :class:`~primero.engine.match.Match` (R9) in which the person sits at
table index 0 and every other seat is a bot. The user interface drives it hand by hand:

>>> t = Table(TableConfig(players=4, seed=5, max_hands=1))
>>> t.start_hand()
>>> applied = t.advance()            # the dealer deals, bots act until the person must act
>>> t.waiting_for_human()
True
>>> v = t.view()                     # the person's SeatView: the only way a UI sees the hand
>>> len(v.hand)
2
>>> t.act(t.parse_input("x " + str(v.hand[0])))   # exchange one card (R4.3)
>>> _ = t.advance()

The interface sees the hand only through :meth:`Table.view` (R9b); the person's input
goes through :meth:`Table.parse_input` (short syntax, checked against the rules before
anything changes) and :meth:`Table.act`.

**Pass and play** (``primero play --hot-seat Ana,Ben``): with
``TableConfig.hot_seat`` several people share the screen, at table indices 0, 1, ... in
the order named, bots in the other seats. :attr:`Table.viewer` is then whose view
:meth:`Table.view` gives: None (the public view, no private card) between turns, a
person only after they said they alone are looking (:meth:`Table.show_to`); after their
move the public view comes back unless the same person acts again at once
(:meth:`Table.act`). :meth:`Table.pass_to` says who must get the screen next.

>>> t = Table(TableConfig(hot_seat=("Ana", "Ben"), players=4, seed=5, max_hands=1))
>>> t.start_hand()
>>> _ = t.advance()
>>> t.viewer is None and t.view().hand == ()   # the public view: no card on screen
True
>>> who = t.pass_to()
>>> t.match.players[who] in ("Ana", "Ben"), t.waiting_for_human()
(True, False)
>>> t.show_to(who)
>>> len(t.view().hand), t.waiting_for_human()
(2, True)
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from primero.bots import BOT_KINDS, BOT_NAMES
from primero.engine.actions import Action, seat_name
from primero.engine.errors import PrimeroError, WrongTurnError
from primero.engine.history import HandRecord, write_record
from primero.engine.match import Match, Standing
from primero.engine.rules import DEFAULT_RULES, Rules, RulesError
from primero.engine.state import HandState
from primero.engine.views import SeatView
from primero.play import moveinput
from primero.play.moveinput import InputError
from primero.play.tablemodel import TableModel
from primero.play.tablemodel.sentences import hand_sentences, phase_name
from primero.play.text import check_person_name, name_key

__all__ = [
    "BOT_NAMES",
    "HOT_SEAT_MOST",
    "InputError",
    "Table",
    "TableConfig",
    "TableEvent",
    "ordinal",
    "pass_lines",
    "phase_name",
    "ranked_standings",
]


#: The one person's name when none is given: their own seat, as the table says it.
_YOU: Final = "You"


@dataclass(frozen=True, kw_only=True)
class TableConfig:
    """How a person's match against bots is set up (R3, R9, R10).

    Attributes:
        human_name: the person's name (non-empty).
        players: total seats including the person, within ``rules.min_players`` to
            ``rules.max_players`` (R3).
        bots: bot kinds (see :data:`primero.bots.BOT_KINDS`), cycled over the bot seats.
        seed: seed of the dealer and bots (R10); None deals live from a secure source.
        rules: the house rules.
        stack: every player's starting stack, in chips (>= 1).
        max_hands: end the match after this many hands (None: until one holds every chip).
        save_dir: folder where each hand's ``.prh`` record is written (None: not saved).
        session: the name that starts the record files (default: the date and time, and
            the seed); a resumed match keeps its own.
        hot_seat: pass and play: the names of the 2 to 6 people sharing this screen
            (table indices 0, 1, ... in this order; ``human_name`` is then unused and
            ``players`` counts them and the bots); empty for one person.
    """

    human_name: str = _YOU
    players: int = 4
    bots: tuple[str, ...] = ("heuristic",)
    seed: int | None = None
    rules: Rules = DEFAULT_RULES
    stack: int = 100
    max_hands: int | None = None
    save_dir: Path | None = None
    session: str | None = None
    hot_seat: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One applied action and its sentence as the person may read it (R9b).

    Attributes:
        action: the action (it may hold other seats' cards: show ``text``, not the cards).
        text: e.g. ``"Lorenzo raises to 12"``, ``"You are dealt 7♥ 6♥"``,
            ``"Isabella exchanges 2 cards"``; other seats' cards are never named.
        seat: the 0-based seat of the hand that acted (the dealt-to seat for a deal).
        note: what the action led to: a void deal (R4.3), a bet standing or withdrawn
            after a vote (R8); else "" (``text`` says a withdrawn bet itself, and the
            stage headings of :func:`~primero.play.tablemodel.sentences.section_marker`
            the void deal).
        index: the action's place in the hand's record lines (0-based).
    """

    action: Action
    text: str
    seat: int
    note: str = ""
    index: int = 0


#: The most people at one screen (pass and play; more do not fit at a terminal table).
HOT_SEAT_MOST: Final = 6
#: The longest name of a person (docs/protocol.md: a player name is 1 to 24 characters).
NAME_MOST: Final = 24


def _check_hot_seat(config: TableConfig) -> list[str]:
    """The pass-and-play names, checked (empty for one person).

    Raises:
        ValueError: fewer than 2 or more than :data:`HOT_SEAT_MOST` names, an empty,
            too long or repeated name, or more people than ``players``.
    """
    names = [n.strip() for n in config.hot_seat]
    if not names:
        return []
    if not 2 <= len(names) <= HOT_SEAT_MOST:
        raise ValueError(
            f"pass and play is for 2 to {HOT_SEAT_MOST} people, not {len(names)}: "
            "give their names separated by commas, e.g. Ana,Ben"
        )
    seen: set[str] = set()
    for name in names:
        if not name or len(name) > NAME_MOST:
            raise ValueError(f"each name must be 1 to {NAME_MOST} characters, not {name!r}")
        check_person_name(name, f"the name {name!r}")  # the server's rules, one check
        if name_key(name) in seen:  # case, accents and look-alikes, as the server
            raise ValueError(f"two people are called {name}: give each a different name")
        seen.add(name_key(name))
    if len(names) > config.players:
        raise ValueError(
            f"{len(names)} people need at least {len(names)} seats, not {config.players}"
        )
    return names


def pass_lines(name: str) -> tuple[str, str]:
    """Pass and play: the title and the line of the screen that hides the table while
    the device goes to ``name``, worded as the browser's cover (``web/table.js``).

    >>> pass_lines("Ana")
    ('Pass the device to Ana', 'Ana, press Enter when only you can see the screen.')
    """
    return (
        f"Pass the device to {name}",
        f"{name}, press Enter when only you can see the screen.",
    )


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``… ``11th``, ``21st``.

    >>> [ordinal(k) for k in (1, 2, 3, 4, 11, 12, 13, 21, 22)]
    ['1st', '2nd', '3rd', '4th', '11th', '12th', '13th', '21st', '22nd']
    """
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{({1: 'st', 2: 'nd', 3: 'rd'}).get(n % 10, 'th')}"


def ranked_standings(match: Match) -> list[Standing]:
    """The match's players ranked (R9): by chips, most first; players out of chips by
    when they went out, a later exit ranking higher (they outlasted the others); equal
    chips, or going out in the same hand, share a place.

    The hand a player went out in is read from the match's records (the last hand each
    name was dealt into), so a resumed match ranks the same.

    >>> from primero.engine.match import Match
    >>> m = Match(["A", "B", "C", "D"], stacks=5)
    >>> m.chips[:] = [5, 0, 0, 3]  # no hand recorded: B and C share the last place
    >>> [(s.place, s.name) for s in ranked_standings(m)]
    [(1, 'A'), (2, 'D'), (3, 'B'), (3, 'C')]
    """
    last_hand: dict[str, int] = {}
    for k, record in enumerate(match.records):
        for name in record.players:
            last_hand[name] = k
    players, chips = match.players, match.chips

    def key(i: int) -> tuple[int, int]:
        return (-chips[i], -last_hand.get(players[i], -1) if chips[i] == 0 else 0)

    ranked = sorted(range(len(players)), key=lambda i: (key(i), i))
    out: list[Standing] = []
    for pos, i in enumerate(ranked):
        place = pos + 1
        if out and key(ranked[pos - 1]) == key(i):
            place = out[-1].place
        out.append(Standing(place, players[i], chips[i]))
    return out


class Table:
    """A person (table index 0) playing a match (R9) against bots.

    The local front over :class:`~primero.play.tablemodel.TableModel`, the one table model
    that every front end (the Textual table, the plain prompt, the server) uses. It adds
    what only a screen here needs: the set-up's checks (bot kinds, pass-and-play names),
    whose view is on the screen (:attr:`viewer`), the person's typed input
    (:meth:`parse_input`), each hand's record file, and :attr:`listeners` (the save file).

    Args:
        config: the set-up.

    Raises:
        RulesError: ``players`` outside ``rules.min_players..rules.max_players``, an
            empty human name, a stack < 1 or ``max_hands`` < 1.
        ValueError: an unknown bot kind or an empty ``bots`` tuple (the message lists
            the kinds); for pass and play, fewer than 2 or more than
            :data:`HOT_SEAT_MOST` names, an empty or repeated name, or more people than
            ``players``.

    Attributes:
        config: the set-up.
        model: the table model.
        match: the match; ``match.players[0]`` is the person.
        kinds: each table index's bot kind (None for the person).
        saved: the paths of the records written so far.
        people: the table indices of the people at this screen (``(0,)`` but for pass
            and play).
        viewer: whose view :meth:`view` gives: a person's table index, or None for the
            public view (pass and play between turns).
    """

    def __init__(self, config: TableConfig) -> None:
        rules = config.rules
        people = _check_hot_seat(config)
        if not rules.min_players <= config.players <= rules.max_players:
            raise RulesError(
                f"--players must be {rules.min_players} to {rules.max_players}, "
                f"not {config.players}"
            )
        if not people and (not config.human_name or not config.human_name.strip()):
            raise RulesError("the person's name must not be empty")
        if not people and config.human_name != _YOU:  # "You" is the terminal's own seat
            check_person_name(config.human_name, "your name")  # the server's rules
        if not config.bots:
            raise ValueError(f"give at least one bot kind: {', '.join(BOT_KINDS)}")
        for kind in config.bots:
            if kind not in BOT_KINDS:
                raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")
        self.config: Final = config
        people = people or [config.human_name]
        taken = {name_key(n) for n in people}  # no bot beside a look-alike of its name
        names = [n for n in BOT_NAMES if name_key(n) not in taken][: config.players - len(people)]
        kinds: list[str | None] = [None] * len(people)
        kinds += [config.bots[i % len(config.bots)] for i in range(len(names))]
        self.people: Final[tuple[int, ...]] = tuple(range(len(people)))
        self.viewer: int | None = None if config.hot_seat else 0
        self.model: Final = TableModel(
            [*people, *names],
            kinds,
            stack=config.stack,
            rules=rules,
            max_hands=config.max_hands,
            seed=config.seed,
        )
        self.kinds: Final[tuple[str | None, ...]] = tuple(kinds)
        self.match: Final = self.model.match
        self.saved: list[Path] = []
        stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
        self._session = stamp if config.seed is None else f"{stamp}-seed{config.seed}"
        if config.session is not None:
            self._session = config.session
        #: Called with no argument after every applied action and closed hand (saving).
        self.listeners: list[Callable[[], None]] = []

    @property
    def hot_seat(self) -> bool:
        """Whether several people share this screen (pass and play)."""
        return bool(self.config.hot_seat)

    @property
    def session(self) -> str:
        """The name that starts this match's record files."""
        return self._session

    def _changed(self) -> None:
        for listener in self.listeners:
            listener()

    # ----------------------------------------------------------------- queries

    @property
    def hand(self) -> HandState | None:
        """The current hand, or None before the first :meth:`start_hand`."""
        return self.model.hand

    @property
    def human_seat(self) -> int | None:
        """The viewing person's 0-based seat in the current hand; None when out of it
        (eliminated), before the first hand, or for the public view of pass and play."""
        return None if self.viewer is None else self.model.hand_seat(self.viewer)

    def in_hand(self) -> bool:
        """Whether a person of this screen is dealt into the current hand (leaving then
        asks first)."""
        return any(self.model.hand_seat(i) is not None for i in self.people)

    def pass_to(self) -> int | None:
        """Pass and play: the table index of the person who must be given the screen
        now (a person to act who is not the viewer); None when nobody is (a bot or the
        dealer to act, the hand over, or the viewer to act)."""
        index = self.model.person_to_act()
        return None if index is None or index == self.viewer else index

    def show_to(self, index: int | None) -> None:
        """Show the table as person ``index`` sees it (their cards: call only once they
        said they alone are looking), or None for the public view.

        Raises:
            ValueError: ``index`` is not a person of this screen.
        """
        if index is not None and index not in self.people:
            raise ValueError(f"table index {index} is not a person at this screen")
        self.viewer = index

    @property
    def events(self) -> list[TableEvent]:
        """The actions of the current hand with their sentences as the person reads them
        (:func:`~primero.play.tablemodel.sentences.hand_sentences`)."""
        events = self.model.events
        if not events:
            return []
        said = hand_sentences(self.view())
        out = []
        for e in events:
            text = said[e.index] if e.index < len(said) else e.text_for(self.human_seat)
            out.append(TableEvent(e.action, text, e.seat, e.note, e.index))
        return out

    @property
    def over(self) -> bool:
        """Whether the match is over (one player holds every chip, or max_hands reached; R9)."""
        return self.model.over

    @property
    def hand_number(self) -> int:
        """The 1-based number in the match of the current hand (of the last one once it is
        closed); 0 before the first hand."""
        return self.model.hand_number

    def label(self, table_index: int) -> str:
        """A player's name with the bot kind, e.g. ``"Lorenzo (heuristic)"``; the person's
        name alone."""
        name, kind = self.match.players[table_index], self.kinds[table_index]
        return name if kind is None else f"{name} ({kind})"

    @property
    def people_names(self) -> str:
        """The people of this screen in words: ``"Ana"``, ``"Ana and Ben"``,
        ``"Ana, Ben and Cleo"``."""
        names = [self.match.players[i] for i in self.people]
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    def seat_label(self, seat: int) -> str:
        """:meth:`label` of the player at 0-based ``seat`` of the current hand.

        Raises:
            PrimeroError: no hand has been started.
        """
        return self.label(self.model.table_index(seat))

    @property
    def leave_note(self) -> str:
        """What leaving in the middle of a hand means for this match, one sentence for
        every front end: saved (``primero play --resume`` continues it) or not saved
        (``--no-save``: leaving ends it)."""
        if self.config.save_dir is None:
            return "This match is not saved (--no-save): leaving ends it."
        return "The match is saved: primero play --resume continues it."

    def left_mid_hand_text(self) -> str:
        """The line printed after the person left in the middle of a hand (both front
        ends, first leave or after a resume alike)."""
        return (
            "You left the table in the middle of a hand (the hand in progress is not counted "
            "below). " + self.leave_note
        )

    @property
    def human_out(self) -> bool:
        """Whether the person (pass and play: every person) has lost every chip and is
        out of the match (R9)."""
        return all(self.match.chips[i] == 0 for i in self.people)

    def waiting_for_human(self) -> bool:
        """Whether the current hand waits for the viewing person's action (a move, a vote
        or a declaration); never for the public view of pass and play."""
        return self.viewer is not None and self.model.person_to_act() == self.viewer

    def view(self) -> SeatView:
        """The viewing person's view of the current hand (R9b); a spectator's view when
        the person is out of the match or, in pass and play, between turns
        (:attr:`viewer` None). ``legal`` is set when the person must act.

        Raises:
            PrimeroError: no hand has been started.
        """
        return self.model.view_for(self.viewer)

    def standings(self) -> list[Standing]:
        """Players ranked by chips so far; those out by when they went out (R9:
        :func:`ranked_standings`)."""
        return ranked_standings(self.match)

    def out_text(self) -> str:
        """The person's exit in words, e.g. ``"You are out: 4th of 4"`` (R9); "" while
        they have chips."""
        if not self.human_out:
            return ""
        if self.hot_seat:
            places = ", ".join(
                f"{self.match.players[i]} {ordinal(self.place_of(i)[0])}" for i in self.people
            )
            return f"Everyone at this screen is out: {places} of {len(self.match.players)}"
        place, players = self.place_of(0)
        return f"You are out: {ordinal(place)} of {players}"

    def place_of(self, table_index: int) -> tuple[int, int]:
        """``(place, players)``: where the player at ``table_index`` stands now (R9)."""
        name = self.match.players[table_index]
        place = next(s.place for s in self.standings() if s.name == name)
        return place, len(self.match.players)

    # ----------------------------------------------------------------- playing

    def start_hand(self) -> None:
        """Start the next hand of the match (ante taken, first deal due; R4.1, R3).

        Raises:
            MatchOverError: the match is over.
            PrimeroError: the current hand is not finished and closed (:meth:`finish_hand`).
        """
        self.model.start_hand()

    def step(self) -> Action | None:
        """Apply one dealer deal or bot action, unless the person must act or the hand is
        complete.

        Returns:
            The action applied (also appended to :attr:`events`), or None when nothing
            was applied.

        Raises:
            PrimeroError: no hand has been started.
            IllegalActionError: a bot returned an illegal action (a bug in the bot).
        """
        event = self.model.step()
        if event is None:
            return None
        self._changed()
        return event.action

    def advance(self) -> list[Action]:
        """Apply the dealer's deals and the bots' actions until the person must act or
        the hand is complete.

        Returns:
            The actions applied, in order (empty when the person must act now or the hand
            is over). They are raw actions and may hold other seats' cards: a screen shows
            the matching :attr:`events` texts instead (R9b).

        Raises:
            PrimeroError: no hand has been started.
            IllegalActionError: a bot returned an illegal action (a bug in the bot).
        """
        applied: list[Action] = []
        while (action := self.step()) is not None:
            applied.append(action)
        return applied

    def act(self, action: Action) -> None:
        """Apply the person's action (validated by :meth:`HandState.apply`).

        Args:
            action: an action of the person's seat.

        Raises:
            WrongTurnError: it is not the person's turn, or the action names another seat.
            IllegalActionError: the rules do not allow it now (the hand is left unchanged;
                the message says what is allowed).
            PrimeroError: no hand has been started.
        """
        if self.hand is None:
            raise PrimeroError("no hand has been started")
        if not self.waiting_for_human():
            raise WrongTurnError("it is not your turn")
        if action.seat != self.human_seat:
            raise WrongTurnError("the action names another seat than the person's")
        self.model.apply(action)
        if self.hot_seat and self.model.person_to_act() != self.viewer:
            self.viewer = None  # their move is made: the public view until the next pass
        self._changed()

    def apply_recorded(self, action: Action) -> None:
        """Apply an action read back from this hand's own saved record (resuming a match):
        a deal as the record has it, or any seat's action, checked by the rules (R4–R8).

        Raises:
            PrimeroError: no hand has been started.
            IllegalActionError: the action is not legal now (the record does not belong
                to this hand).
        """
        self.model.apply(action)
        self._changed()

    def parse_input(self, text: str) -> Action:
        """Turn the person's short input into an action legal now (nothing is applied).

        Syntax (case-insensitive words; cards as in R1, e.g. ``7h``, ``kc``, ``7♥``):
        ``b N`` bet N chips; ``r N`` raise the round's bet to N; ``c`` call, or check (with
        no bet open in rounds 2 and 3 ``c`` bets 0, R5); ``f`` fold; ``y`` / ``n`` accept /
        refuse a bet (R8); ``x CARDS`` exchange those cards, ``x`` alone stands pat (R4.3,
        R4.6); ``dc CATEGORY`` declare (R6), any unambiguous prefix: ``dc f`` = fluxus.
        Long words work too: bet, raise, call, check, fold, yes, no, accept, refuse,
        exchange, declare.

        Args:
            text: what the person typed.

        Returns:
            The action, checked against the rules (R4–R8) without changing the hand.

        Raises:
            InputError: the text is not understood or the action is not legal now; the
                message says why and lists what is allowed now with the syntax.
        """
        hand = self.hand
        if hand is None or not self.waiting_for_human():
            raise InputError("it is not your turn")
        seat = self.human_seat
        assert seat is not None
        return moveinput.parse_move(text, seat, hand.legal_actions(), hand.check)

    def finish_hand(self, *, save: bool = True) -> HandRecord:
        """Close the complete hand in the match (chips, deal passes right; R3, R9).

        Writes the record to ``config.save_dir`` (created if needed) as
        ``<session>-hand<NNN>.prh`` when set and ``save`` is true (a resumed match
        replays hands already written with ``save=False``).

        Returns:
            The hand's record.

        Raises:
            PrimeroError: there is no complete hand to close.
            OSError: the record cannot be written.
        """
        human = self.human_seat
        record = self.model.finish_hand()
        number = self.match.hands_played
        if human is not None and not self.hot_seat:
            record.extra["human"] = seat_name(human)
        record.extra["bots"] = {
            name: kind
            for name, kind in zip(self.match.players, self.kinds, strict=True)
            if kind is not None
        }
        save_dir = self.config.save_dir
        if save_dir is not None and save:
            save_dir.mkdir(parents=True, exist_ok=True)
            path = save_dir / f"{self._session}-hand{number:03d}.prh"
            k = 2
            while path.exists():
                path = save_dir / f"{self._session}-hand{number:03d}-{k}.prh"
                k += 1
            self.saved.append(write_record(record, path))
        self._changed()
        return record


# --------------------------------------------------------------------- input parsing
# The person-input parsing lives in primero.play.moveinput; these names stay for callers.

_parse = moveinput._parse
_amount = moveinput.read_number
_card_word = moveinput._card_word
_allowed = moveinput.allowed_text
