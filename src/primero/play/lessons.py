"""The words of the guided first hand: one short explanation per moment of the hand,
for ``primero learn`` (:data:`LESSONS`, a scripted hand) and the web page's ``?learn``
(:data:`GUIDE`, a hand against bots, sent in each ``state`` message as ``guide``:
:func:`guide_text`). The web client writes none of these words itself.

Kept as data, in one place, so that tests can check every lesson is shown by the
guided hand, cites the rules section it explains (rules.md R1–R10), and uses only the
placeholders the lesson screen fills in (:data:`PLACEHOLDERS`); the docs can quote them.
The cards' points come from the engine's table (:func:`primero.engine.words.points_words`).

Each text is a sentence or two. ``{name}`` fields are filled from the person's view
of the hand at that moment.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from primero.engine.state import DEALER, Phase
from primero.engine.views import SeatView
from primero.engine.words import plural, points_words

__all__ = ["GUIDE", "LESSONS", "PLACEHOLDERS", "Lesson", "guide_text"]


@dataclass(frozen=True, slots=True)
class Lesson:
    """One explanation of the guided hand.

    Attributes:
        key: the lesson's id, used by the script (:mod:`primero.tui.learn_script`).
        title: a short heading.
        text: one to three sentences; may hold ``{placeholder}`` fields.
        rules: the rules.md sections it explains, e.g. ``("R4.1",)``.
    """

    key: str
    title: str
    text: str
    rules: tuple[str, ...]


#: Fields a lesson text may use, and what the lesson screen puts there.
PLACEHOLDERS: Final[dict[str, str]] = {
    "you": "the person's name",
    "hand": "the person's cards",
    "value": "the category and points of the person's four cards, or 'no category yet'",
    "suggest": "the move the lesson suggests, in words",
    "keys": "the keys that make the suggested move",
    "pot": "the chips in the pot",
    "bettor": "the player whose bet is pending or open",
    "amount": "the chips of that bet",
    "declared": "what that player declared",
    "showdown": "the hands shown, with category and points",
    "winner": "who took the pot",
    "dealer": "the dealer's name",
}

_LESSONS: Final = (
    Lesson(
        "welcome",
        "Welcome to Primero",
        "Primero is the Renaissance ancestor of poker, played with 40 cards (no 8s, 9s or "
        "10s). You sit on the dealer's right, first to act, with three others; this hand "
        "is set up to show every moment of the game. Press space to go on.",
        ("R1", "R3"),
    ),
    Lesson(
        "ante",
        "The ante",
        "Before any card is dealt, everyone puts an ante of 1 chip in the pot: {pot} chips "
        "are already there to be won. Each card is worth points: " + points_words() + ".",
        ("R4.1", "R1"),
    ),
    Lesson(
        "first_deal",
        "Two cards each",
        "The dealer ({dealer}, marked D) gives two cards to each player, starting with you. "
        "You hold {hand}. A hand is only judged when it has four cards.",
        ("R4.2", "R2"),
    ),
    Lesson(
        "bet_or_exchange",
        "Bet or exchange",
        "In the first round each player either bets (at least 1 chip) or exchanges one or "
        "two cards for new ones. Once someone bets, nobody may exchange any more. Let's "
        "{suggest}, your lowest card: {keys}.",
        ("R4.3", "R5"),
    ),
    Lesson(
        "void_deal",
        "A void deal",
        "Everybody exchanged and nobody bet, so the deal was void: all cards went back, "
        "the deck was shuffled and dealt again. The antes stay in the pot ({pot} chips). "
        "You now hold {hand}.",
        ("R4.3",),
    ),
    Lesson(
        "exchange_again",
        "Exchange again",
        "Same choice as before: bet, or exchange one or two cards. Let's exchange once "
        "more and see what the others do. Let's {suggest}: {keys}.",
        ("R4.3",),
    ),
    Lesson(
        "refusal",
        "Refusing a bet",
        "{bettor} bet {amount}. With three or more players still in, the others vote in "
        "turn: accept (y) or refuse (n). The two before you refused; if you refuse too, the "
        "bet is withdrawn and {bettor} must bet less. Refuse it: {keys}.",
        ("R8",),
    ),
    Lesson(
        "call",
        "Call, raise or fold",
        "{bettor} bet again, less this time, and someone accepted, so the bet stands. Now "
        "everyone still in must call (match it), raise or fold, even those who "
        "exchanged. Call the {amount}: {keys}.",
        ("R5", "R8"),
    ),
    Lesson(
        "second_deal",
        "Two more cards",
        "The first round is over and two more cards went to each player still in. You "
        "hold {hand}: {value}. The categories, best first: chorus (four of a rank), "
        "fluxus (four of a suit), supremus (A, 6, 7 of a suit + a card of another "
        "suit), primero (one of each suit), numerus (the rest, scored by its best suit).",
        ("R4.4", "R2"),
    ),
    Lesson(
        "declare",
        "Declare your category",
        "In this round each player first declares a category: the true one or a higher "
        "one (a bluff), never a lower one. You hold {value}, so let's {suggest}: {keys}.",
        ("R4.5", "R6"),
    ),
    Lesson(
        "open_bet",
        "Open the betting",
        "You speak first and no bet is open, so you must bet; 0 is allowed in this round "
        "and costs nothing. Let's {suggest}: {keys}.",
        ("R5",),
    ),
    Lesson(
        "bluff",
        "Bluffing upward",
        "{bettor} declared {declared} and bet {amount}. Declarations are public but "
        "bind nobody: only the cards shown at the end count. Is it true, or a bluff "
        "upward? Call to find out: {keys}.",
        ("R6", "R5"),
    ),
    Lesson(
        "second_exchange",
        "The second exchange",
        "Everyone still in may now throw zero, one or two cards and draw as many. You hold "
        "{hand}: {value}. Keep the cards that count and let's {suggest}: {keys}.",
        ("R4.6",),
    ),
    Lesson(
        "last_round",
        "The last round",
        "One more betting round, without declarations. You open; a bet of 0 costs "
        "nothing if everyone calls. Let's {suggest}: {keys}.",
        ("R4.7", "R5"),
    ),
    Lesson(
        "showdown",
        "The showdown",
        "The hands still in are shown: {showdown}. Category first, then points: "
        "the pot goes to {winner}. Equal hands go to the eldest (the first in seat order).",
        ("R4.8", "R2", "R7"),
    ),
    Lesson(
        "next_steps",
        "Your turn now",
        "That is the whole game. Play a real table with `primero play`, read the rules "
        "with `primero rules`, and press h at the table for the odds of your exchanges. "
        "Press q to leave.",
        ("R9",),
    ),
)

#: Every lesson, by key, in the order the guided hand shows them.
LESSONS: Final[dict[str, Lesson]] = {lesson.key: lesson for lesson in _LESSONS}

_GUIDE: Final = (
    Lesson(
        "welcome",
        "Welcome to Primero",
        "Welcome to Primero, the Renaissance ancestor of poker: 40 cards (no 8, 9 or 10). "
        "Everyone puts an ante of 1 chip in the pot, then the dealer gives two cards each.",
        ("R1", "R4.1"),
    ),
    Lesson(
        "showdown",
        "The showdown",
        "The showdown: the best category wins (chorus, fluxus, supremus, primero, numerus), "
        "then the most points. The log says who won what; p shows the whole hand again.",
        ("R4.8", "R2"),
    ),
    Lesson(
        "vote",
        "Refusing a bet",
        "Someone bet: with three or more players in, the others vote in turn. Accept lets "
        "the bet stand; if everyone refuses, it is withdrawn and the bettor must bet less "
        "(R8).",
        ("R8",),
    ),
    Lesson(
        "declare",
        "Declare your category",
        "Declare a category: the true one or a higher one (a bluff), never lower. The "
        "buttons list what you may declare; the first is the truth (R6).",
        ("R6",),
    ),
    Lesson(
        "first_round",
        "Bet or exchange",
        "First round: bet at least 1 chip, or exchange one or two cards for new ones (pick "
        "them, then Exchange). Once someone bets nobody may exchange any more. Card points: "
        + points_words()
        + ".",
        ("R4.3", "R5", "R1"),
    ),
    Lesson(
        "second_exchange",
        "The second exchange",
        "Second exchange: throw 0, 1 or 2 cards (Stand pat keeps them all). Press h for the "
        "exact odds of each choice.",
        ("R4.6",),
    ),
    Lesson(
        "call",
        "Call, raise or fold",
        "A bet stands: call it (match {amount}), raise, or fold and lose what you put in.",
        ("R5",),
    ),
    Lesson(
        "bet",
        "Your bet",
        "Your turn to bet: check (a bet of 0 where allowed) or bet chips. Higher categories "
        "beat lower ones whatever the points.",
        ("R5", "R2"),
    ),
    Lesson(
        "second_deal",
        "Two more cards",
        "Two more cards each: your four cards now make a category. Chorus (four of a rank) "
        "beats fluxus (four of a suit), then supremus, primero (one of each suit), numerus.",
        ("R4.4", "R2"),
    ),
    Lesson(
        "waiting",
        "Another player's turn",
        "{player} is thinking. Watch the seats: each shows its last move.",
        ("R3",),
    ),
)

#: The web page's lessons (``?learn``), by key: one per moment of a hand against bots.
GUIDE: Final[dict[str, Lesson]] = {lesson.key: lesson for lesson in _GUIDE}


def guide_text(v: SeatView | None, *, may_act: bool = True) -> str:
    """The web page's lesson for the moment of a hand (``?learn``), for its reader (R9b):
    what the ``guide`` of a ``state`` message says (docs/protocol.md).

    Args:
        v: the reader's view of the hand in progress or just over; None before the
            first hand.
        may_act: False when the reader's moves are not theirs to make now (a bot plays
            the seat for them): the lesson then reads as if it were not their turn.

    Returns:
        One of :data:`GUIDE`'s texts, its fields filled: the chips to call, the name of
        the player to act (the dealer's while dealing).

    >>> guide_text(None).startswith("Welcome to Primero")
    True
    """
    if v is None:
        return GUIDE["welcome"].text
    legal = v.legal if may_act else None
    if v.final_stacks is not None:
        key = "showdown"
    elif legal is not None and legal.vote:
        key = "vote"
    elif legal is not None and legal.declare:
        key = "declare"
    elif legal is not None and legal.exchange:
        key = "first_round" if v.phase is Phase.FIRST_ROUND else "second_exchange"
    elif legal is not None and legal.call:
        key = "call"
    elif legal is not None:
        key = "bet"
    elif v.phase in (Phase.SECOND_DEAL, Phase.DECLARE_ROUND):
        key = "second_deal"
    else:
        key = "waiting"
    seat = v.to_act
    who = v.players[-1] if seat is None or seat == DEALER else v.players[seat]
    amount = plural(legal.call, "chip") if legal is not None and legal.call else ""
    return GUIDE[key].text.format(player=who, amount=amount)
