"""Moves in words, once, for every front end (R9b): the terminal, the plain prompt, the
``watch`` viewer and the server's ``events`` all show these sentences; no client parses
record lines.

The one entry point is :func:`hand_sentences`: a hand as one seat sees it (a
:class:`~primero.engine.views.SeatView`) in, one sentence per record line out, then, once
the hand is over, one sentence per uncalled bet returned and per pot won. Other seats'
cards are never named (the view holds them as ``??``): ``"Lorenzo exchanges 2 cards"``.
A bet or call of 0 chips reads "checks" (R5: a check is a bet of 0 with no bet open, or
a call of 0); a bet, raise or call that leaves the player with no chips says "and is all
in"; the last refusal of a bet every voter refused says it is withdrawn (R8). Chips that
nobody called come back to the bettor (R7): they are said as "uncalled bet of N
returned", never as a pot or a win (:func:`uncalled_bet`, :func:`won_awards`).

>>> from primero.engine.actions import Bet
>>> sentence(Bet(1, 0), viewer=0, name="Ben")
'Ben checks'
>>> sentence(Bet(0, 5), viewer=0, name="Ana")
'You bet 5'
>>> line_sentences(["p1 b 4", "p2 n", "p3 n", "p1 b 0"], ("Ana", "Ben", "Cy"), viewer=None)
['Ana bets 4', 'Ben refuses the bet', 'Cy refuses the bet: it is withdrawn (R8)', 'Ana checks']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from primero.engine.actions import (
    Action,
    Bet,
    Call,
    Declare,
    Exchange,
    Fold,
    Raise,
    Vote,
)
from primero.engine.cards import format_cards
from primero.engine.errors import BadAmountError, BadCardsError, BadDeclarationError
from primero.engine.hands import HandValue
from primero.engine.legal import LegalActions
from primero.engine.pots import Award
from primero.engine.state import Phase
from primero.engine.uncalled import Uncalled
from primero.engine.uncalled import uncalled_bet as engine_uncalled_bet
from primero.engine.uncalled import won_awards as engine_won_awards
from primero.engine.views import LogEvent, SeatView, parse_event, redact_event
from primero.engine.words import (
    BET,
    EXCHANGE,
    RAISE,
    allowed_words,
    capital,
    exchange_name,
    is_raise_over,
    move_name,
    plural,
)
from primero.play.moveinput import personal_message, strip_allowed

__all__ = [
    "Uncalled",
    "allowed_words",
    "bet_words",
    "hand_sentences",
    "line_sentences",
    "move_name",
    "move_words",
    "phase_name",
    "refusal_words",
    "result_sentences",
    "section_marker",
    "sentence",
    "shown_words",
    "sitting_out_words",
    "uncalled_bet",
    "won_awards",
]

#: Verbs of a seat's line in the third person and, for "You", the second.
_VERBS = {
    "deal": ("is dealt", "are dealt"),
    "x": ("exchanges", "exchange"),
    "pat": ("stands pat", "stand pat"),
    "b": ("bets", "bet"),
    "r": ("raises to", "raise to"),
    "c": ("calls", "call"),
    "check": ("checks", "check"),
    "f": ("folds", "fold"),
    "y": ("accepts the bet", "accept the bet"),
    "n": ("refuses the bet", "refuse the bet"),
    "dc": ("declares", "declare"),
    "win": ("wins", "win"),
}


def phase_name(view: SeatView) -> str:
    """The name of the hand's phase as every front end shows it (R4): the state's own
    name, except that without declarations (house rule ``declarations`` off, R6) the
    declare round is only a betting round: "second round"; a complete hand is "the hand
    is over". The server sends it capitalised as the state message's ``phase_words``.

    >>> from primero.engine.state import HandState
    >>> from primero.engine.views import view
    >>> phase_name(view(HandState(["A", "B", "C", "D"], [9] * 4), 0))
    'first deal'
    """
    if view.phase is Phase.DECLARE_ROUND and not view.rules.declarations:
        return "second round"
    if view.phase is Phase.COMPLETE:
        return "the hand is over"
    return str(view.phase.value)


def move_words(
    legal: LegalActions,
    current_bet: int | None,
    pending: tuple[str, int, bool] | None = None,
) -> dict[str, Any]:
    """The names of the moves a seat may make now, as its buttons show them: one place
    for every front end (R4–R8), each made of :func:`primero.engine.words.move_name`.

    Args:
        legal: what the seat may do.
        current_bet: the round's bet to match (chips), None when no bet is open.
        pending: the bet under a vote (R8) as ``(bettor's name, chips, is a raise)``,
            named on the vote's buttons; None when no vote is held.

    Returns:
        ``bet`` names the ``b`` move ("Bet", its amount written after it); ``check`` is
        "Check" where a bet of 0 is allowed with no bet standing (the move ``b 0``),
        else None; ``raise`` names the ``r`` move: "Raise to" over a bet of more than 0,
        "Bet" over a bet of 0 (everyone so far checked), None when no raise is legal;
        ``call`` is "Check" for a call of 0, "Call N" otherwise, None when no call is
        legal; ``fold`` "Fold" or None; ``exchange`` one name per count of
        ``legal.exchange``, in its order ("Stand pat", "Exchange 1 card", …) and
        ``pick`` the exchange button's name before any card is picked (None when no
        exchange is legal); ``declare`` one name per category of ``legal.declare``
        ("Declare primero"); ``accept`` and ``refuse`` the vote's buttons, naming the
        bet ("Accept the bet (raise to 12 chips by Ana)"), or None.

    >>> from primero.engine.legal import LegalActions
    >>> w = move_words(LegalActions(0, bet=(0, 9)), None)
    >>> w["bet"], w["check"], w["raise"], w["call"], w["fold"]
    ('Bet', 'Check', None, None, None)
    >>> w = move_words(LegalActions(1, raise_to=(1, 9), call=0, fold=True), 0)
    >>> w["bet"], w["check"], w["raise"], w["call"], w["fold"]
    ('Bet', None, 'Bet', 'Check', 'Fold')
    >>> move_words(LegalActions(1, raise_to=(4, 9), call=3, fold=True), 3)["call"]
    'Call 3'
    >>> move_words(LegalActions(0, exchange=(0, 1, 2)), None)["exchange"]
    ['Stand pat', 'Exchange 1 card', 'Exchange 2 cards']
    >>> move_words(LegalActions(2, vote=True), 5, ("Ana", 5, False))["refuse"]
    'Refuse the bet (bet of 5 chips by Ana)'
    """
    check = legal.bet is not None and legal.bet[0] == 0 and legal.call is None
    raise_word = None
    if legal.raise_to is not None:
        raise_word = capital(BET if current_bet == 0 else RAISE)
    call = None
    if legal.call is not None:
        call = capital(move_name(Call(0), to_call=legal.call))
    accept = refuse = None
    if legal.vote:
        accept, refuse = (capital(move_name(Vote(0, yes))) for yes in (True, False))
        if pending is not None:
            name, amount, is_raise = pending
            is_raise = is_raise_over(is_raise, current_bet)  # over 0: the first bet (R5)
            what = f"{RAISE if is_raise else 'bet of'} {plural(amount, 'chip')} by {name}"
            accept, refuse = f"{accept} ({what})", f"{refuse} ({what})"
    return {
        "bet": capital(BET),
        "check": capital(move_name(Bet(0, 0))) if check else None,
        "raise": raise_word,
        "call": call,
        "fold": capital(move_name(Fold(0))) if legal.fold else None,
        "exchange": [capital(exchange_name(k)) for k in legal.exchange],
        "pick": f"{capital(EXCHANGE)} (pick cards first)" if any(legal.exchange) else None,
        "declare": [capital(move_name(Declare(0, c))) for c in legal.declare],
        "accept": accept,
        "refuse": refuse,
    }


def shown_words(value: HandValue) -> str:
    """A hand shown at the showdown, in words (R2): ``"primero, 72 points"``.

    >>> from primero.engine.cards import parse_cards
    >>> from primero.engine.hands import evaluate
    >>> shown_words(evaluate(parse_cards("7h 6s Ac 5d")))
    'primero, 70 points'
    """
    return f"{value.category.label}, {plural(value.points, 'point')}"


def bet_words(name: str, amount: int, is_raise: bool) -> str:
    """A bet under a vote (R8) as its voters read it: ``"Ana raises to 12 chips"``,
    ``"Ben bets 5 chips"``.

    >>> bet_words("Ana", 12, True), bet_words("Ben", 1, False)
    ('Ana raises to 12 chips', 'Ben bets 1 chip')
    """
    verb = _VERBS["r" if is_raise else "b"][0]
    return f"{name} {verb} {plural(amount, 'chip')}"


class _Chips:
    """The chips of a hand followed line by line (R4.1 antes, R5 rounds, R8 votes)."""

    def __init__(self, start: Sequence[int], ante: int) -> None:
        self.left = [s - min(ante, s) for s in start]
        self.current: int | None = None
        self.put = [0] * len(start)

    def new_round(self) -> None:
        self.current = None
        self.put = [0] * len(self.left)

    def to(self, seat: int, total: int) -> int:
        """Bring the seat's chips in this round up to ``total`` (capped by its stack)."""
        chips = min(max(total - self.put[seat], 0), self.left[seat])
        self.left[seat] -= chips
        self.put[seat] += chips
        return chips


#: The most seats of a hand (R3): record lines given without names are read with these.
_MAX_SEATS = 8

#: The events a betting round is made of (R5, R8): after one, a deal starts a new stage.
_BETTING = ("bet", "raise", "call", "fold", "vote")


def _events(lines: Sequence[str | LogEvent], players: int) -> list[LogEvent | str]:
    """Each entry as a typed event (record lines read by the record module,
    :func:`primero.engine.views.parse_event`); a line off the grammar stays a string."""
    out: list[LogEvent | str] = []
    for line in lines:
        if isinstance(line, str):
            try:
                out.append(parse_event(line, players))
            except ValueError:
                out.append(line)
        else:
            out.append(line)
    return out


def _vote(events: Sequence[LogEvent | str], index: int, vote_open: bool) -> tuple[str, int]:
    """How the vote on the bet at ``events[index]`` went (R8): ``"stands"`` (accepted, or
    no vote held), ``"withdrawn"`` (every voter refused) or ``"open"`` (still voting:
    the votes run to the end of ``events`` and ``vote_open``); and the index of its last
    vote (``index`` when none)."""
    last = index
    refused = False
    for k in range(index + 1, len(events)):
        vote = events[k]
        if isinstance(vote, LogEvent) and vote.kind == "vote" and vote.accept:
            return "stands", k
        if not isinstance(vote, LogEvent) or vote.kind != "vote":
            return ("withdrawn" if refused else "stands"), last
        refused, last = True, k
    if vote_open and last == len(events) - 1:
        return "open", last
    return ("withdrawn" if refused else "stands"), last


def _seen_cards(event: LogEvent) -> str:
    """The cards of a deal or an exchange as the reader sees them: named (``7♥ K♣``) when
    they are the reader's, else counted (``2 cards``; R9b)."""
    if event.cards is None:
        return plural(event.n_cards, "card")
    return format_cards(event.cards, pretty=True)


def line_sentences(
    lines: Sequence[str | LogEvent],
    names: Sequence[str],
    *,
    viewer: int | None,
    starting_stacks: Sequence[int] | None = None,
    ante: int = 0,
    vote_open: bool = False,
) -> list[str]:
    """One sentence per event (or record line) of a hand as ``viewer`` reads it.

    Args:
        lines: the hand's events as the seat sees them (``SeatView.events``: others'
            cards hidden, R9b), or its record lines (docs/record-format.md; others' cards
            ``??``), read by :func:`primero.engine.views.parse_event`.
        names: the players' names, p1…pN.
        viewer: the 0-based seat reading (its lines say "You" with the verb's second
            person), or None for a spectator or a record read by its names (a player
            named "You", the person's default name, still gets the second person).
        starting_stacks: each seat's chips before the ante (to say who is all in and how
            much a call puts in); None: calls are said without an amount.
        ante: the ante of the hand's rules (chips).
        vote_open: the last bet or raise is still being voted on (R8): its votes so far
            are said as they are, not yet as a withdrawal.

    Returns:
        A list as long as ``lines``; a line that does not follow the grammar is returned
        as it is.
    """
    chips = _Chips(starting_stacks, ante) if starting_stacks is not None else None
    events = _events(lines, len(names))
    out: list[str] = []
    withdrawn_at: dict[int, int] = {}  # last refusal's index -> the withdrawn bet's
    for i, event in enumerate(events):
        if isinstance(event, str) or event.seat >= len(names):
            out.append(event if isinstance(event, str) else str(lines[i]))
            continue
        seat = event.seat
        name = names[seat]
        you = (viewer is not None and seat == viewer) or name == "You"  # the person
        who = "You" if you else name
        tail = ""
        kind = event.kind
        if kind in ("deal", "exchange") and chips is not None:
            chips.new_round()
        if kind == "deal":
            verb = "deal"
            tail = f" {_seen_cards(event)}"
        elif kind == "exchange":
            verb = "x" if event.n_cards else "pat"
            if event.n_cards:
                tail = f" {_seen_cards(event)}"
        elif kind in ("bet", "raise"):
            verb = "b" if kind == "bet" else "r"
            amount = event.amount
            if verb == "r" and chips is not None and not chips.current:
                verb = "b"  # over a bet of 0 (everyone checked) a raise is the first bet
            outcome, last = _vote(events, i, vote_open)
            refused = outcome != "stands"
            if outcome == "withdrawn":
                withdrawn_at[last] = i
            elif outcome == "stands" and chips is not None:
                chips.to(seat, amount)
                chips.current = amount
            if amount == 0 and verb == "b":
                verb = "check"
            else:
                tail = f" {amount}"
                if not refused and chips is not None and chips.left[seat] == 0:
                    tail += " and is all in" if not you else " and are all in"
        elif kind == "call":
            verb = "c"
            if chips is not None:
                put = chips.to(seat, chips.current or 0)
                if put == 0:
                    verb = "check"
                else:
                    tail = f" {put}"
                    if chips.left[seat] == 0:
                        tail += " and is all in" if not you else " and are all in"
        elif kind == "declare" and event.category is not None:
            verb = "dc"
            tail = f" {event.category.label}"
        elif kind == "vote":
            verb = "y" if event.accept else "n"
        else:  # a fold
            verb = "f"
        third, second = _VERBS[verb]
        text = f"{who} {second if you else third}{tail}"
        if i in withdrawn_at:
            text += ": it is withdrawn (R8)"
        out.append(text)
    return out


def uncalled_bet(view: SeatView) -> Uncalled | None:
    """The uncalled part of a finished hand's top bet, or None (R7); see
    :func:`primero.engine.uncalled.uncalled_bet`.

    >>> from primero.engine.state import HandState
    >>> from primero.engine.views import view
    >>> s = HandState(["A", "B"], [10, 30])
    >>> for line in ["d dh p1 7h Kc", "d dh p2 2s 3s", "p1 b 2", "p2 r 20", "p1 f"]:
    ...     s.apply(line)
    >>> uncalled_bet(view(s, None))
    Uncalled(seat=1, chips=18)
    """
    if view.final_stacks is None:
        return None
    return engine_uncalled_bet(view.contributed, view.folded)


def won_awards(view: SeatView) -> list[Award]:
    """The pots of a finished hand as won: the awards less the uncalled bet (R7); see
    :func:`primero.engine.uncalled.won_awards`. Empty when the hand is not over."""
    return engine_won_awards(view.awards, uncalled_bet(view))


def result_sentences(
    view: SeatView, names: Sequence[str] | None = None, *, you: bool = True
) -> list[str]:
    """What a finished hand's chips did, one sentence each (R7, R9b): the uncalled bet
    returned first, then who won each pot and how many chips.

    Args:
        view: the seat's view; empty result when the hand is not over.
        names: names per seat (default the view's players).
        you: say "You" for the viewing seat (False: by its name).

    Returns:
        E.g. ``["Uncalled bet of 10 returned to Lorenzo", "Lorenzo wins 4 chips"]``;
        ``"Ana wins the main pot, 12 chips (primero 72)"``; ``"Ana and Ben split 8 chips:
        4 each"``. A winner's category and points are named only when the hand was shown.
    """
    if view.final_stacks is None:
        return []
    names = tuple(names) if names is not None else view.players

    def who(seat: int) -> str:
        return "You" if you and seat == view.seat else names[seat]

    out: list[str] = []
    back = uncalled_bet(view)
    if back is not None:
        to = "you" if you and back.seat == view.seat else names[back.seat]
        out.append(f"Uncalled bet of {plural(back.chips, 'chip')} returned to {to}")
    awards = won_awards(view)
    for i, award in enumerate(awards):
        label = plural(award.pot.amount, "chip")
        if len(awards) > 1:
            label = ("the main pot, " if i == 0 else f"side pot {i}, ") + label
        if len(award.winners) == 1:
            seat = award.winners[0]
            value = view.shown[seat]
            how = f" ({value.category.label} {value.points})" if value is not None else ""
            verb = _VERBS["win"][1 if who(seat) == "You" else 0]
            out.append(f"{who(seat)} {verb} {label}{how}")
        else:
            players = " and ".join(who(s) for s in award.winners)
            if len(set(award.shares)) == 1:
                shares = f"{award.shares[0]} each"
            else:
                shares = ", ".join(
                    f"{who(s)} {c}" for s, c in zip(award.winners, award.shares, strict=True)
                )
            out.append(f"{players} split {label}: {shares}")
    return out


def hand_sentences(
    view: SeatView, names: Sequence[str] | None = None, *, you: bool = True
) -> list[str]:
    """A hand as the seat of ``view`` reads it: what the terminal and the server show.

    Args:
        view: the seat's (or a spectator's) view of the hand (R9b), at any point.
        names: names per seat, p1…pN (default ``view.players``).
        you: say "You" for the viewing seat (False: by its name, as ``watch`` does).

    Returns:
        :func:`line_sentences` of ``view.events`` (one per record line, same order), then,
        when the hand is over, :func:`result_sentences`.

    >>> from primero.engine.state import HandState
    >>> from primero.engine.views import view
    >>> s = HandState(["Ana", "Ben"], [10, 30])
    >>> for line in ["d dh p1 7h Kc", "d dh p2 2s 3s", "p1 b 2", "p2 r 20", "p1 f"]:
    ...     s.apply(line)
    >>> hand_sentences(view(s, 0))  # doctest: +NORMALIZE_WHITESPACE
    ['You are dealt 7♥ K♣', 'Ben is dealt 2 cards', 'You bet 2', 'Ben raises to 20',
     'You fold', 'Uncalled bet of 18 chips returned to Ben', 'Ben wins 6 chips']
    """
    names = tuple(names) if names is not None else view.players
    said = line_sentences(
        view.events,
        names,
        viewer=view.seat if you else None,
        starting_stacks=starting_stacks(view),
        ante=view.rules.ante,
        vote_open=view.pending_bet is not None,
    )
    return said + result_sentences(view, names, you=you)


def starting_stacks(view: SeatView) -> list[int]:
    """Each seat's chips before the hand's ante, read from a view (public, R9b).

    During the hand a seat's chips are its stack plus what it put in; once the hand is
    over the stacks are the final ones, so what each seat won of the pots (an uncalled bet
    returned included) is taken off again (R7).

    Args:
        view: any seat's or a spectator's view, at any point of the hand.

    Returns:
        Chips per seat, p1…pN.

    >>> from primero.engine.state import HandState
    >>> from primero.engine.views import view
    >>> s = HandState(["Ana", "Ben"], [301, 99])
    >>> for line in ["d dh p1 Ks Js", "d dh p2 Ah 7d", "p1 b 300", "p2 c"]:
    ...     s.apply(line)
    >>> starting_stacks(view(s, 1))
    [301, 99]
    >>> for line in ["d dh p1 Kc 2c", "d dh p2 Ac Kd", "p1 x", "p2 x"]:
    ...     s.apply(line)
    >>> s.complete, view(s, 1).stacks, starting_stacks(view(s, 1))
    (True, (202, 198), [301, 99])
    """
    won = [0] * view.n
    for award in view.awards:  # empty while the hand goes on
        for seat, share in zip(award.winners, award.shares, strict=True):
            won[seat] += share
    return [s + c - w for s, c, w in zip(view.stacks, view.contributed, won, strict=True)]


def sentence(action: Action, *, viewer: int | None, name: str, call: int | None = None) -> str:
    """The sentence for one applied ``action`` as the seat ``viewer`` may read it (R9b),
    in the words of :func:`line_sentences`.

    Args:
        action: the applied action (its seat is the 0-based seat of the hand that acted,
            or was dealt to).
        viewer: the 0-based seat reading it (``"You"`` when it is the actor), or None for
            a spectator.
        name: the actor's name.
        call: for a :class:`~primero.engine.actions.Call`, the chips it put in (0 or None: a check);
            for a :class:`~primero.engine.actions.Raise`, the chips it had to call: 0 says
            it as the round's first bet ("Ana bets 5", R5).

    Returns:
        E.g. ``"Lorenzo raises to 12"``, ``"You are dealt 7♥ 6♥"``, ``"Isabella exchanges
        2 cards"``, ``"Ben checks"``; only the viewer's own cards are named.
    """
    you = viewer is not None and action.seat == viewer
    event = redact_event(action, viewer)  # the one place cards are hidden (views)
    names = [name] * (action.seat + 1)
    if isinstance(action, Call):
        who = "You" if you else name
        if not call:
            return f"{who} {_VERBS['check'][int(you)]}"
        return f"{who} {_VERBS['c'][int(you)]} {call}"
    if isinstance(action, Raise) and call == 0:  # over a bet of 0: the first bet (R5)
        event = redact_event(Bet(action.seat, action.amount), viewer)
    return line_sentences([event], names, viewer=viewer)[0]


_VOID = "void deal: all cards back, the same dealer deals again (R4.3)"


def section_marker(lines: Sequence[str | LogEvent], index: int) -> str | None:
    """A heading to show before ``lines[index]`` when a new stage of the hand starts there.

    Read from the events alone (``SeatView.events``, or record lines read by the record
    module; R4): a two-card deal right after an exchange's replacement deal is the redeal
    after a void deal (R4.3); a two-card deal after a betting event is the second deal
    (R4.4); the first declaration opens the declare round (R4.5); an exchange after its
    betting, the second exchange (R4.6); an opening bet after that exchange, the last
    round (R4.7). A two-card deal right after a player stood pat (``p3 x``, house rule
    ``first_round_stand``) is the redeal too: no replacement deal comes between.

    >>> section_marker(["p4 x ??", "d dh p4 ??", "d dh p1 ?? ??"], 2)
    'void deal: all cards back, the same dealer deals again (R4.3)'
    >>> section_marker(["d dh p3 ??", "p4 x", "d dh p1 ?? ??"], 2)
    'void deal: all cards back, the same dealer deals again (R4.3)'
    """
    events = _events(lines[: index + 1], _MAX_SEATS)
    line = events[index]
    if isinstance(line, str):
        return None
    kinds = [e.kind if isinstance(e, LogEvent) else "" for e in events]
    before = events[max(0, index - 2) : index]
    prev = before[-1] if before else None
    if line.kind == "deal" and line.n_cards == 2 and isinstance(prev, LogEvent):
        if prev.kind == "deal":
            # The last exchanger's replacements (same seat, cards discarded), then this.
            first = before[0] if len(before) == 2 else None
            if (
                isinstance(first, LogEvent)
                and first.kind == "exchange"
                and first.n_cards > 0
                and first.seat == prev.seat
            ):
                return _VOID
            return None
        if prev.kind == "exchange" and prev.n_cards == 0:  # stood pat (first_round_stand)
            return _VOID
        if prev.kind in _BETTING:
            return "second deal (R4.4)"
    seen_dc = "declare" in kinds[:index]
    if line.kind == "declare" and not seen_dc:
        return "declare and bet (R4.5)"
    if line.kind == "exchange" and index > 0 and seen_dc and kinds[index - 1] in _BETTING:
        return "second exchange (R4.6)"
    if line.kind == "bet" and index > 0 and seen_dc and kinds[index - 1] in ("deal", "exchange"):
        return "last round (R4.7)"
    return None


# --------------------------------------------------------------------------- refusals


#: Record notation a refusal must never show: a seat label (``p2``) or a quoted line.
_NOTATION = re.compile(r"\bp[1-8]\b|'[^']*'")


def refusal_words(
    action: Action | None, legal: LegalActions, error: Exception | None, seat: int
) -> str:
    """Why a person's proposed move is refused, in words a player reads: the move, why,
    and what they may do now (R4–R8); never a seat label or a record line (docs/protocol.md
    "error").

    Args:
        action: the move as understood (None: the text was not understood).
        legal: what the seat may do now.
        error: the rules' refusal of ``action`` (None: the move is not of a kind allowed now).
        seat: the person's seat in the hand (0-based; the engine's messages name it ``p1``…).

    >>> refusal_words(Bet(0, 5000), LegalActions(0, bet=(1, 40), fold=True),
    ...               BadAmountError("p1 may not bet 5000: p1 may bet 1-40"), 0)
    'you may not bet 5000 chips: you may bet between 1 and 40 chips or fold'
    """
    allowed = allowed_words(legal)
    if action is None:
        return f"that move is not understood: {allowed}"
    if isinstance(error, BadAmountError) and isinstance(action, Bet | Raise):
        what = BET if isinstance(action, Bet) else RAISE
        return f"you may not {what} {action.amount} chips: {allowed}"
    if isinstance(action, Exchange) and (error is None or len(action.cards) not in legal.exchange):
        return f"you may not {move_name(action)} now: {allowed}"
    if isinstance(error, BadCardsError | BadDeclarationError):
        text = personal_message(strip_allowed(str(error)), seat)
        if not _NOTATION.search(text):
            return f"{text}: {allowed}" if isinstance(error, BadDeclarationError) else text
    return f"you cannot {move_name(action, to_call=legal.call)} now: {allowed}"


def sitting_out_words(*, in_hand: bool) -> str:
    """What sitting out means for the person who asked, in words (docs/protocol.md ``sit_out``:
    from the next hand on the seat is not dealt in; it keeps its chips and pays no ante).

    Args:
        in_hand: whether the seat is dealt in the hand in progress (it plays that hand to
            its end: sitting out starts with the next one).

    Returns:
        The sentence for the reader's seat, in the second person.

    >>> sitting_out_words(in_hand=True)
    'You will sit out from the next hand: you still play this one.'
    >>> sitting_out_words(in_hand=False)
    'You are sitting out: you are not dealt in until you sit in.'
    """
    if in_hand:
        return "You will sit out from the next hand: you still play this one."
    return "You are sitting out: you are not dealt in until you sit in."
