"""One person playing a match against bots: the controller behind ``primero play`` and the TUI.

A :class:`Table` owns a :class:`~primero.match.Match` (R9) in which the person sits at
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
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from primero.actions import (
    Action,
    Bet,
    Call,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
    seat_name,
)
from primero.bots import BOT_KINDS
from primero.cards import CardError, parse_card, parse_cards
from primero.errors import IllegalActionError, PrimeroError, WrongTurnError
from primero.hands import Category
from primero.history import HandRecord, write_record
from primero.match import Standing
from primero.rules import DEFAULT_RULES, Rules, RulesError
from primero.state import HandState, LegalActions
from primero.tablemodel import TableModel
from primero.views import SeatView

__all__ = [
    "BOT_NAMES",
    "InputError",
    "Table",
    "TableConfig",
    "TableEvent",
    "derive_seed",
    "input_help",
    "personal_message",
]

#: Names given to the bots, in order (Italian Renaissance; Girolamo for Cardano).
BOT_NAMES: Final[tuple[str, ...]] = (
    "Lorenzo",
    "Isabella",
    "Girolamo",
    "Lucrezia",
    "Baldassare",
    "Vittoria",
    "Ludovico",
    "Caterina",
    "Cesare",
    "Beatrice",
)


class InputError(ValueError):
    """The person's input is not a legal action now.

    The message says what was wrong and lists what is allowed now (from
    :meth:`~primero.state.LegalActions.describe`) with the short input syntax.
    """


def derive_seed(seed: int, index: int) -> int:
    """The seed of the bot at table ``index`` in a table seeded with ``seed`` (R10).

    Distinct from ``seed`` itself (the dealer's) and from the other bots' seeds.
    """
    return seed * 1_000_003 + 7_919 * (index + 1)


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
    """

    human_name: str = "You"
    players: int = 4
    bots: tuple[str, ...] = ("heuristic",)
    seed: int | None = None
    rules: Rules = DEFAULT_RULES
    stack: int = 100
    max_hands: int | None = None
    save_dir: Path | None = None


@dataclass(frozen=True, slots=True)
class TableEvent:
    """One applied action and its sentence as the person may read it (R9b).

    Attributes:
        action: the action (it may hold other seats' cards: show ``text``, not the cards).
        text: e.g. ``"Lorenzo raises to 12"``, ``"You are dealt 7♥ 6♥"``,
            ``"Isabella exchanges 2 cards"``; other seats' cards are never named.
        seat: the 0-based seat of the hand that acted (the dealt-to seat for a deal).
        note: what the action led to, also at the end of ``text``: a void deal (R4.3), a
            bet standing or withdrawn after a vote (R8); else "".
    """

    action: Action
    text: str
    seat: int
    note: str = ""


class Table:
    """A person (table index 0) playing a match (R9) against bots.

    A thin front over :class:`~primero.tablemodel.TableModel`, the one table model that
    every front end (the Textual table, the plain prompt, the server) uses.

    Args:
        config: the set-up.

    Raises:
        RulesError: ``players`` outside ``rules.min_players..rules.max_players``, an
            empty human name, a stack < 1 or ``max_hands`` < 1.
        ValueError: an unknown bot kind or an empty ``bots`` tuple (the message lists
            the kinds).

    Attributes:
        config: the set-up.
        model: the table model.
        match: the match; ``match.players[0]`` is the person.
        kinds: each table index's bot kind (None for the person).
        saved: the paths of the records written so far.
    """

    def __init__(self, config: TableConfig) -> None:
        rules = config.rules
        if not rules.min_players <= config.players <= rules.max_players:
            raise RulesError(
                f"players must be from {rules.min_players} to {rules.max_players} "
                f"(min_players/max_players), not {config.players}"
            )
        if not config.human_name or not config.human_name.strip():
            raise RulesError("the person's name must not be empty")
        if not config.bots:
            raise ValueError(f"give at least one bot kind: {', '.join(BOT_KINDS)}")
        for kind in config.bots:
            if kind not in BOT_KINDS:
                raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")
        self.config: Final = config
        names = [n for n in BOT_NAMES if n != config.human_name][: config.players - 1]
        kinds: list[str | None] = [None]
        kinds += [config.bots[i % len(config.bots)] for i in range(len(names))]
        self.model: Final = TableModel(
            [config.human_name, *names],
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

    # ----------------------------------------------------------------- queries

    @property
    def hand(self) -> HandState | None:
        """The current hand, or None before the first :meth:`start_hand`."""
        return self.model.hand

    @property
    def human_seat(self) -> int | None:
        """The person's 0-based seat in the current hand; None when out of it (eliminated)
        or before the first hand."""
        return self.model.hand_seat(0)

    @property
    def events(self) -> list[TableEvent]:
        """The actions of the current hand with their sentences as the person reads them."""
        seat = self.human_seat
        return [TableEvent(e.action, e.text_for(seat), e.seat, e.note) for e in self.model.events]

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

    def seat_label(self, seat: int) -> str:
        """:meth:`label` of the player at 0-based ``seat`` of the current hand.

        Raises:
            PrimeroError: no hand has been started.
        """
        return self.label(self.model.table_index(seat))

    @property
    def human_out(self) -> bool:
        """Whether the person has lost every chip and is out of the match (R9)."""
        return self.match.chips[0] == 0

    def waiting_for_human(self) -> bool:
        """Whether the current hand waits for the person's action (a move, a vote or a
        declaration)."""
        return self.model.person_to_act() == 0

    def view(self) -> SeatView:
        """The person's view of the current hand (R9b); a spectator's view when the person
        is out of the match. ``legal`` is set when the person must act.

        Raises:
            PrimeroError: no hand has been started.
        """
        return self.model.view_for(0)

    def standings(self) -> list[Standing]:
        """Players ranked by chips so far (R9)."""
        return self.match.standings()

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
        return None if event is None else event.action

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
        legal = hand.legal_actions()
        try:
            action = _parse(text, seat, legal)
            kind = _KIND_NAMES.get(type(action).__name__)
            if kind is not None and not _kind_allowed(action, legal):
                raise InputError(f"you cannot {kind} now")
            hand.check(action)
        except (InputError, IllegalActionError, CardError) as exc:
            message = personal_message(_strip_allowed(str(exc)), seat)
            raise InputError(f"{message}\n{_allowed(legal)}") from None
        return action

    def finish_hand(self) -> HandRecord:
        """Close the complete hand in the match (chips, deal passes right; R3, R9).

        Writes the record to ``config.save_dir`` (created if needed) as
        ``<session>-hand<NNN>.prh`` when set.

        Returns:
            The hand's record.

        Raises:
            PrimeroError: there is no complete hand to close.
            OSError: the record cannot be written.
        """
        human = self.human_seat
        record = self.model.finish_hand()
        number = self.match.hands_played
        if human is not None:
            record.extra["human"] = seat_name(human)
        record.extra["bots"] = {
            name: kind for name, kind in zip(self.match.players, self.kinds, strict=True)
            if kind is not None
        }
        save_dir = self.config.save_dir
        if save_dir is not None:
            save_dir.mkdir(parents=True, exist_ok=True)
            path = save_dir / f"{self._session}-hand{number:03d}.prh"
            k = 2
            while path.exists():
                path = save_dir / f"{self._session}-hand{number:03d}-{k}.prh"
                k += 1
            self.saved.append(write_record(record, path))
        return record


# --------------------------------------------------------------------- input parsing

_VERBS: Final[dict[str, str]] = {
    "b": "b", "bet": "b",
    "r": "r", "raise": "r",
    "c": "c", "call": "c", "check": "c", "k": "c",
    "f": "f", "fold": "f",
    "y": "y", "yes": "y", "accept": "y",
    "n": "n", "no": "n", "refuse": "n",
    "x": "x", "exchange": "x", "discard": "x", "stand": "x",
    "dc": "dc", "declare": "dc",
}


_KIND_NAMES: Final[dict[str, str]] = {
    "Bet": "bet",
    "Raise": "raise",
    "Call": "call or check",
    "Fold": "fold",
    "Vote": "vote (y/n)",
    "Exchange": "exchange",
    "Declare": "declare",
}


def _kind_allowed(action: Action, legal: LegalActions) -> bool:
    if isinstance(action, Vote):
        return legal.vote
    if legal.vote:
        return False
    if isinstance(action, Declare):
        return bool(legal.declare)
    if isinstance(action, Fold):
        return legal.fold
    if legal.declare:
        return False
    if isinstance(action, Bet):
        return legal.bet is not None
    if isinstance(action, Raise):
        return legal.raise_to is not None
    if isinstance(action, Call):
        return legal.call is not None
    if isinstance(action, Exchange):
        return bool(legal.exchange)
    return True


def _amount(word: str) -> int:
    if not word.isdigit():
        raise InputError(f"{word!r} is not a whole number of chips")
    return int(word)


def _card_word(word: str) -> str:
    return word[:1].upper() + word[1:]


def _parse(text: str, seat: int, legal: LegalActions) -> Action:
    words = text.replace(",", " ").split()
    if not words:
        raise InputError("nothing typed")
    verb = _VERBS.get(words[0].lower())
    args = words[1:]
    if verb is None:
        raise InputError(f"unknown command {words[0]!r}")
    if verb in ("b", "r"):
        if len(args) != 1:
            raise InputError(f"'{words[0]}' takes one amount, e.g. '{verb} 5'")
        amount = _amount(args[0])
        return Bet(seat, amount) if verb == "b" else Raise(seat, amount)
    if args and verb in ("c", "f", "y", "n"):
        raise InputError(f"'{words[0]}' takes nothing after it")
    if verb == "c":
        if legal.call is None and legal.bet is not None and legal.bet[0] == 0:
            return Bet(seat, 0)  # a check with no bet open is a bet of 0 (R5)
        return Call(seat)
    if verb == "f":
        return Fold(seat)
    if verb in ("y", "n"):
        return Vote(seat, verb == "y")
    if verb == "x":
        if words[0].lower() == "stand" and args and args[0].lower() == "pat":
            args = args[1:]
        return Exchange(seat, parse_cards([_card_word(w) for w in args]))
    # declare
    if len(args) != 1:
        raise InputError("'dc' takes one category, e.g. 'dc numerus' or 'dc n'")
    prefix = args[0].lower()
    matches = [c for c in Category if c.label.startswith(prefix)]
    if len(matches) != 1:
        raise InputError(
            f"{args[0]!r} is not a category: chorus, fluxus, supremus, primero, numerus"
        )
    return Declare(seat, matches[0])


#: Third-person verbs of the engine's messages and their second-person forms.
_YOU_VERBS: Final[dict[str, str]] = {
    "holds": "hold",
    "does": "do",
    "is": "are",
    "has": "have",
    "was": "were",
}
_CARD_WORD: Final = re.compile(r"(?<![\w♣♦♥♠])([A2-7JQK][cdhs])(?![\w])")
_ONE_CARDS: Final = re.compile(r"\b1 cards\b")


def personal_message(message: str, seat: int) -> str:
    """An engine message about the person's ``seat`` said to the person (second person),
    cards in Unicode, plurals agreeing.

    >>> personal_message("p1 does not hold 7h: holds 5h Kh", 0)
    'you do not hold 7♥: you hold 5♥ K♥'
    >>> personal_message("p2 holds a primero and may not declare numerus", 1)
    'you hold a primero and may not declare numerus'
    >>> personal_message("p1 may not exchange 1 cards now", 0)
    'you may not exchange 1 card now'
    """
    words = message.split(" ")
    me = seat_name(seat)
    out: list[str] = []
    for i, word in enumerate(words):
        if word == me:
            out.append("you")
            continue
        prev = out[-1] if out else ""
        if prev == "you" or (prev.endswith(":") and i > 0 and word in ("holds", "has")):
            if prev != "you":
                out.append("you")
            out.append(_YOU_VERBS.get(word, word))
            continue
        out.append(word)
    text = " ".join(out)
    text = _CARD_WORD.sub(lambda m: parse_card(m.group(1)).pretty, text)
    return _ONE_CARDS.sub("1 card", text)


def _strip_allowed(message: str) -> str:
    """Drop an engine message's ': p1 may …' tail; the allowed list follows separately."""
    for marker in (": p", ": the dealer may"):
        pos = message.find(marker)
        if pos != -1 and " may " in message[pos:]:
            return message[:pos]
    return message


def input_help(legal: LegalActions) -> list[str]:
    """The short input syntax for each kind of action allowed now, one line each.

    Args:
        legal: what the seat may do (from its view's ``legal``).

    Returns:
        Lines such as ``"b N      bet N chips (1 to 99)"``; empty when nothing is allowed.
    """
    out: list[str] = []
    if legal.vote:
        return ["y        accept the bet", "n        refuse the bet (R8)"]
    if legal.declare:
        names = ", ".join(c.label for c in legal.declare)
        out.append(f"dc CAT   declare one of {names} (prefix ok: dc {legal.declare[0].label[0]})")
        if legal.fold:
            out.append("f        fold")
        return out
    if legal.exchange:
        counts = " or ".join(str(k) for k in legal.exchange)
        example = "x 7h Kc" if 0 not in legal.exchange else "x 7h Kc, or x to stand pat"
        out.append(f"x CARDS  exchange {counts} cards, e.g. {example}")
    if legal.bet is not None:
        low, high = legal.bet
        out.append(f"b N      bet N chips ({low} to {high})")
        if low == 0 and legal.call is None:
            out.append("c        check (bet 0)")
    if legal.raise_to is not None:
        low, high = legal.raise_to
        out.append(f"r N      raise the bet to N chips this round ({low} to {high})")
    if legal.call is not None:
        out.append("c        check" if legal.call == 0 else f"c        call {legal.call}")
    if legal.fold:
        out.append("f        fold")
    return out


def _allowed(legal: LegalActions) -> str:
    what = legal.describe().split(" may ", 1)[-1]
    return f"allowed now: {what}\n" + "\n".join("  " + line for line in input_help(legal))
