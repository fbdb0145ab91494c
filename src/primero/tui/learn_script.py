"""The guided first hand of ``primero learn``: a seeded deal and a scripted table.

The cards come from a seeded dealer (:data:`LEARN_SEED`, R10) and every move is
scripted: the bots' moves and the person's (the lesson suggests a move and only that
move goes on). The seed was chosen so that, with this script, the hand shows every
moment the lessons explain: the ante, bet or exchange, a void deal, a refused bet, a
call, the declarations with a bluff upward, the second exchange, the last round and a
showdown the person wins. ``tests/tui/test_tui_learn.py`` checks it still does.

>>> g = GuidedHand()
>>> g.step_kind()
'lesson'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import Card
from primero.engine.dealing import Dealer
from primero.engine.errors import IllegalActionError
from primero.engine.hands import Category, evaluate
from primero.engine.state import DEALER, HandState
from primero.engine.views import SeatView, view
from primero.engine.words import move_name
from primero.tui.actionpad import declare_key

__all__ = [
    "LEARN_PLAYERS",
    "LEARN_SEED",
    "SCRIPT",
    "Bot",
    "DealCards",
    "GuidedHand",
    "NotTheLessonMove",
    "Teach",
    "You",
    "describe_move",
    "keys_for",
    "story_holds",
]

#: The seed of the guided hand's dealer (R10), chosen with :func:`story_holds`.
LEARN_SEED: Final = 60
#: The players, in seat order: the person is p1, the dealer p4.
LEARN_PLAYERS: Final = ("You", "Bianca", "Carlo", "Dario")
#: Every player's starting stack.
LEARN_STACK: Final = 20

Chooser = Callable[[SeatView], Action]


class NotTheLessonMove(IllegalActionError):
    """The person's move is not the one the lesson asks for (nothing was changed)."""


@dataclass(frozen=True, slots=True)
class Teach:
    """Pause and show the lesson ``key`` of :data:`primero.play.lessons.LESSONS`."""

    key: str


@dataclass(frozen=True, slots=True)
class You:
    """The person acts: ``choose`` gives the move the lesson suggests."""

    choose: Chooser


@dataclass(frozen=True, slots=True)
class Bot:
    """The seat to act (a bot) plays ``choose(its view)``."""

    choose: Chooser


@dataclass(frozen=True, slots=True)
class DealCards:
    """The dealer deals every card due now (the first deal: R4.2)."""


Step = Teach | You | Bot | DealCards


def _seat(v: SeatView) -> int:
    assert v.seat is not None
    return v.seat


def _low_card(cards: tuple[Card, ...]) -> Card:
    return min(cards, key=lambda c: (c.points, c.id))


def exchange_low(v: SeatView) -> Action:
    """Exchange the card with the fewest points (R1, R4.3)."""
    return Exchange(_seat(v), (_low_card(v.hand),))


def improve(v: SeatView) -> Action:
    """Second exchange (R4.6): stand pat on primero or better, else throw (at most two,
    lowest first) the cards that do not count in the numerus."""
    value = evaluate(v.hand)
    if value.category >= Category.PRIMERO:
        return Exchange(_seat(v), ())
    others = sorted((c for c in v.hand if c not in value.counting), key=lambda c: (c.points, c.id))
    return Exchange(_seat(v), tuple(others[:2]))


def bet(amount: int) -> Chooser:
    """Bet ``amount`` (R5)."""
    return lambda v: Bet(_seat(v), amount)


def raise_to(amount: int) -> Chooser:
    """Raise the round's bet to ``amount`` (R5)."""
    return lambda v: Raise(_seat(v), amount)


def vote(accept: bool) -> Chooser:
    """Accept or refuse the pending bet (R8)."""
    return lambda v: Vote(_seat(v), accept)


def call(v: SeatView) -> Action:
    """Call the open bet (R5)."""
    return Call(_seat(v))


def fold(v: SeatView) -> Action:
    """Fold (R5)."""
    return Fold(_seat(v))


def declare_true(v: SeatView) -> Action:
    """Declare the category held (R6)."""
    assert v.legal is not None
    return Declare(_seat(v), v.legal.declare[0])


def declare(category: Category) -> Chooser:
    """Declare ``category`` (a bluff upward when it is above the hand held, R6)."""
    return lambda v: Declare(_seat(v), category)


#: The guided hand, step by step. After the first deal, deals happen as soon as due.
SCRIPT: Final[tuple[Step, ...]] = (
    Teach("welcome"),
    Teach("ante"),
    DealCards(),
    Teach("first_deal"),
    Teach("bet_or_exchange"),
    You(exchange_low),
    Bot(exchange_low),  # Bianca
    Bot(exchange_low),  # Carlo
    Bot(exchange_low),  # Dario: everyone exchanged, nobody bet: void deal
    Teach("void_deal"),
    Teach("exchange_again"),
    You(exchange_low),
    Bot(bet(4)),  # Bianca bets 4: a vote (R8)
    Bot(vote(False)),  # Carlo refuses
    Bot(vote(False)),  # Dario refuses
    Teach("refusal"),
    You(vote(False)),  # withdrawn
    Bot(bet(2)),  # Bianca bets less
    Bot(vote(True)),  # Carlo accepts: the bet stands
    Bot(call),  # Carlo
    Bot(fold),  # Dario
    Teach("call"),
    You(call),
    Teach("second_deal"),
    Teach("declare"),
    You(declare_true),
    Teach("open_bet"),
    You(bet(0)),
    Bot(declare(Category.FLUXUS)),  # Bianca bluffs upward
    Bot(raise_to(3)),
    Bot(vote(True)),  # Carlo accepts the raise
    Bot(fold),  # Carlo folds without declaring
    Teach("bluff"),
    You(call),
    Teach("second_exchange"),
    You(improve),
    Bot(improve),  # Bianca
    Teach("last_round"),
    You(bet(0)),
    Bot(call),
    Teach("showdown"),
    Teach("next_steps"),
)


def describe_move(action: Action, v: SeatView) -> str:
    """The move in words, as the lesson asks for it: :func:`primero.engine.words.move_name`
    with the cards named (``"exchange 2♣"``) and a call's chips from the seat's view
    ``v`` (``"check"``, ``"call 2"``)."""
    return move_name(action, to_call=v.to_call, card_text=lambda c: c.pretty)


def keys_for(action: Action, v: SeatView) -> list[str]:
    """The keys of :class:`~primero.tui.actionpad.ActionPad` that make ``action``.

    Args:
        action: a move of the viewing seat.
        v: the seat's view when it makes the move (for card and category positions).

    Returns:
        Key names, e.g. ``["e", "1", "enter"]``.
    """
    if isinstance(action, Exchange):
        return ["e", *(str(v.hand.index(c) + 1) for c in action.cards), "enter"]
    if isinstance(action, Bet | Raise):
        return ["b" if isinstance(action, Bet) else "r", *str(action.amount), "enter"]
    if isinstance(action, Call):
        return ["c"]
    if isinstance(action, Fold):
        return ["f"]
    if isinstance(action, Vote):
        return ["y" if action.accept else "n"]
    if isinstance(action, Declare):
        return ["d", declare_key(action.category)]  # the same key in every hand
    return []


class GuidedHand:
    """The guided hand in progress: the script, the hand and its seeded dealer.

    Args:
        seed: the dealer's seed (R10); the default is the one the lessons were written for.
        script: the steps.

    Attributes:
        index: the next step of the script.
    """

    def __init__(self, seed: int = LEARN_SEED, script: tuple[Step, ...] = SCRIPT) -> None:
        self.state = HandState(LEARN_PLAYERS, [LEARN_STACK] * len(LEARN_PLAYERS))
        self.dealer = Dealer.seeded(seed)
        self.script = script
        self.index = 0

    def _deal(self) -> None:
        while self.state.to_act == DEALER:
            self.state.apply(self.dealer.deal(self.state))

    def view(self) -> SeatView:
        """The person's view (p1, R9b)."""
        return view(self.state, 0)

    @property
    def step(self) -> Step | None:
        """The current step, or None at the end of the script."""
        return self.script[self.index] if self.index < len(self.script) else None

    def step_kind(self) -> str:
        """``"lesson"``, ``"you"``, ``"bot"`` (a bot's move or a deal) or ``"end"``."""
        step = self.step
        if isinstance(step, Teach):
            return "lesson"
        if isinstance(step, You):
            return "you"
        return "bot" if isinstance(step, Bot | DealCards) else "end"

    def run_bots(self) -> list[Action]:
        """Play the bots' scripted moves (and deals) up to the next lesson, person's move
        or the end.

        Returns:
            The moves applied (deals not included).

        Raises:
            IllegalActionError: the script does not fit the cards (a wrong seed).
        """
        done: list[Action] = []
        while isinstance(self.step, Bot | DealCards):
            if isinstance(self.step, DealCards):
                self._deal()
                self.index += 1
                continue
            seat = self.state.to_act
            assert seat is not None and seat >= 0
            action = self.step.choose(view(self.state, seat))
            self.state.apply(action)
            self._deal()
            done.append(action)
            self.index += 1
        return done

    def next_lesson(self) -> None:
        """Leave the current lesson.

        Raises:
            ValueError: the current step is not a lesson.
        """
        if not isinstance(self.step, Teach):
            raise ValueError("the current step is not a lesson")
        self.index += 1

    def suggestion(self) -> Action:
        """The person's move the current step asks for.

        Raises:
            ValueError: the current step is not the person's move.
        """
        step = self.step
        if not isinstance(step, You):
            raise ValueError("the current step is not the person's move")
        return step.choose(self.view())

    def act(self, action: Action) -> None:
        """Apply the person's move if it is the suggested one.

        Raises:
            NotTheLessonMove: another move (the message says which one to make).
            IllegalActionError: the move is illegal (cannot happen for the suggestion).
        """
        wanted = self.suggestion()
        if action != wanted:
            keys = " ".join(keys_for(wanted, self.view()))
            raise NotTheLessonMove(
                f"in this lesson, please {describe_move(wanted, self.view())} (keys: {keys})"
            )
        self.state.apply(action)
        self._deal()
        self.index += 1


def story_holds(hand: GuidedHand) -> list[str]:
    """Check that a finished guided hand told the story the lessons tell.

    Args:
        hand: a guided hand played to the end of its script (lessons passed, the
            person's suggested moves made).

    Returns:
        What went wrong, as sentences (empty when the story holds): the hand must be
        over with the person winning the pot at a showdown, one void deal, a refused
        bet, Bianca's fluxus declared above the hand she held (a bluff), and the person
        exchanging cards in the second exchange.
    """
    problems: list[str] = []
    s = hand.state
    if not s.complete or s.result is None:
        return ["the hand is not over at the end of the script"]
    r = s.result
    if r.uncontested or r.shown[0] is None:
        problems.append("no showdown with the person")
    if any(a.winners != (0,) for a in r.awards):
        problems.append("the person does not win every pot")
    if s.void_deals != 1:
        problems.append(f"{s.void_deals} void deals instead of 1")
    shown = r.shown[1]
    if shown is None or shown.category >= Category.FLUXUS:
        problems.append("Bianca's fluxus is not shown to be a bluff")
    lines = s.lines()
    if "p1 n" not in lines:
        problems.append("the person did not refuse a bet")
    second = [k for k in s.exchanges[0][1:]]
    if not second or second[-1] == 0:
        problems.append("the person does not exchange in the second exchange")
    return problems
