"""The hand log in words: each record line of the seat's view, said for a person.

>>> describe_line("p2 r 12", ("Ana", "Ben"))
'Ben raises to 12'
>>> describe_line("d dh p1 ?? ??", ("Ana", "Ben"))
'Ana is dealt 2 cards'
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from primero.engine.actions import HIDDEN
from primero.engine.cards import CardError, parse_card
from primero.engine.views import SeatView
from primero.tui.cardart import card_span

__all__ = [
    "award_lines",
    "check_lines",
    "describe_line",
    "describe_lines",
    "log_text",
    "section_marker",
    "sentence_text",
]


def _seat(word: str, names: Sequence[str]) -> str:
    try:
        return names[int(word[1:]) - 1]
    except (ValueError, IndexError):
        return word


_YOU_FORMS = {
    "is": "are",
    "exchanges": "exchange",
    "discards": "discard",
    "stands": "stand",
    "calls": "call",
    "checks": "check",
    "folds": "fold",
    "accepts": "accept",
    "refuses": "refuse",
    "bets": "bet",
    "raises": "raise",
    "declares": "declare",
    "wins": "win",
}


def check_lines(lines: Sequence[str]) -> set[int]:
    """The indices of the lines of a hand that are checks: a call (``c``) with nothing to
    put in, or an opening bet of 0 (R5). Read from the lines alone (public ones do): a
    betting round starts after a deal or exchange line; a bet or raise stands unless
    every vote on it refuses it (R8).

    >>> sorted(check_lines(["p1 b 0", "p2 c", "p3 r 4", "p1 n", "p2 n", "p3 c", "d dh p1 ??"]))
    [0, 1, 5]
    """
    checks: set[int] = set()
    current = 0
    put: dict[str, int] = {}
    for i, line in enumerate(lines):
        words = line.split()
        if len(words) < 2 or words[0] == "d" or words[1] == "x":
            current, put = 0, {}
            continue
        seat, verb = words[0], words[1]
        if verb in ("b", "r") and len(words) == 3 and words[2].isascii() and words[2].isdigit():
            votes = []
            for after in lines[i + 1 :]:
                vote = after.split()[1:2]
                if vote not in (["y"], ["n"]):
                    break
                votes.append(vote[0])
            if votes and "y" not in votes:
                continue  # refused by all: withdrawn (R8)
            current = int(words[2])
            put[seat] = current
            if verb == "b" and current == 0:
                checks.add(i)
        elif verb == "c":
            if put.get(seat, 0) >= current:
                checks.add(i)
            put[seat] = current
    return checks


def describe_lines(lines: Sequence[str], names: Sequence[str]) -> list[str]:
    """Every line of a hand in words (:func:`describe_line`), checks said as checks."""
    checks = check_lines(lines)
    return [describe_line(line, names, check=i in checks) for i, line in enumerate(lines)]


def sentence_text(sentence: str) -> Text:
    """A sentence with its cards shown as cards with suit symbols (``7♥``, in colour)."""
    return _colour_cards(sentence)


def describe_line(line: str, names: Sequence[str], *, check: bool = False) -> str:
    """A record line (hand-history.md) in plain words, with seat names for ``p1``….

    A seat named "You" gets the verb without ``s`` ("You discard 7♥"). Lines that do
    not follow the grammar are returned unchanged. With ``check`` (the line is a call
    with nothing to put in, or an opening bet of 0: :func:`check_lines`), the line says
    "checks".

    >>> describe_line("p1 x 7h", ("You", "Ben"))
    'You discard 7h'
    >>> describe_line("p2 c", ("You", "Ben"), check=True)
    'Ben checks'
    """
    words = line.split()
    if check and len(words) >= 2 and words[1] in ("b", "c"):
        line = f"{words[0]} check"
    sentence = _describe(line, names)
    if sentence.startswith("You "):
        verb, _, rest = sentence[4:].partition(" ")
        sentence = f"You {_YOU_FORMS.get(verb, verb)} {rest}".rstrip()
    return sentence


def _describe(line: str, names: Sequence[str]) -> str:
    words = line.split()
    if len(words) >= 3 and words[0] == "d":
        who, cards = _seat(words[2], names), words[3:]
        if all(c == HIDDEN for c in cards):
            return f"{who} is dealt {len(cards)} card{'s' if len(cards) != 1 else ''}"
        return f"{who} is dealt {' '.join(cards)}"
    if len(words) < 2:
        return line
    who, verb, args = _seat(words[0], names), words[1], words[2:]
    if verb == "x":
        if not args:
            return f"{who} stands pat"
        if all(c == HIDDEN for c in args):
            return f"{who} exchanges {len(args)} card{'s' if len(args) != 1 else ''}"
        return f"{who} discards {' '.join(args)}"
    simple = {
        "c": "calls",
        "check": "checks",
        "f": "folds",
        "y": "accepts the bet",
        "n": "refuses the bet",
    }
    if verb in simple:
        return f"{who} {simple[verb]}"
    if verb == "b" and args:
        return f"{who} bets {args[0]}"
    if verb == "r" and args:
        return f"{who} raises to {args[0]}"
    if verb == "dc" and args:
        return f"{who} declares {args[0]}"
    return line


def section_marker(lines: Sequence[str], index: int) -> str | None:
    """A heading to show before ``lines[index]`` when a new stage of the hand starts there.

    Derived from the lines alone (R4): a two-card deal right after an exchange's
    replacement deal is the redeal after a void deal (R4.3); a two-card deal after a
    betting line is the second deal (R4.4); the first declaration opens the declare
    round (R4.5).

    >>> section_marker(["p4 x ??", "d dh p4 ??", "d dh p1 ?? ??"], 2)
    'void deal: all cards back, the same dealer deals again (R4.3)'
    """
    line = lines[index].split()
    before = [w.split() for w in lines[max(0, index - 2) : index]]
    if line[:2] == ["d", "dh"] and len(line) == 5 and before:
        prev = before[-1]
        if prev[:2] == ["d", "dh"]:
            if len(before) == 2 and len(before[0]) >= 2 and before[0][1] == "x":
                return "void deal: all cards back, the same dealer deals again (R4.3)"
            return None
        if len(prev) >= 2 and prev[1] in ("b", "r", "c", "f", "y", "n"):
            return "second deal (R4.4)"
    if (
        len(line) >= 2
        and line[1] == "dc"
        and not any(len(w.split()) > 1 and w.split()[1] == "dc" for w in lines[:index])
    ):
        return "declare and bet (R4.5)"
    if len(line) >= 2 and line[1] == "x" and index > 0:
        prev_words = lines[index - 1].split()
        seen_dc = any(len(w.split()) > 1 and w.split()[1] == "dc" for w in lines[:index])
        if seen_dc and len(prev_words) >= 2 and prev_words[1] in ("b", "r", "c", "f", "y", "n"):
            return "second exchange (R4.6)"
    return None


def _colour_cards(sentence: str) -> Text:
    out = Text()
    for i, word in enumerate(sentence.split(" ")):
        if i:
            out.append(" ")
        try:
            card = parse_card(word)
        except CardError:
            out.append(word)
        else:
            out.append_text(card_span(card))
    return out


def award_lines(view: SeatView, names: Sequence[str]) -> list[str]:
    """Who won each pot of a finished hand, one sentence per pot (R7, R9b).

    A winner's category and points are named only when the hand was shown; folded and
    unshown hands are never named. Empty when the hand is not over.

    Args:
        view: the seat's view.
        names: display names per seat.
    """
    if view.final_stacks is None:
        return []
    out: list[str] = []
    for i, award in enumerate(view.awards):
        if len(view.awards) == 1:
            label = f"{award.pot.amount}"
        else:
            label = "the main pot" if i == 0 else f"side pot {i}"
            label += f", {award.pot.amount}"
        if len(award.winners) == 1:
            seat = award.winners[0]
            value = view.shown[seat]
            how = f" ({value.category.label} {value.points})" if value is not None else ""
            out.append(describe_line(f"{names[seat]} wins {label}{how}", names))
        else:
            shares = " and ".join(
                f"{names[s]} {chips}" for s, chips in zip(award.winners, award.shares, strict=True)
            )
            out.append(f"split {label}: {shares}")
    return out


def log_text(view: SeatView, names: Sequence[str], *, last: int | None = None) -> Text:
    """The hand log as the seat sees it (R9b), one numbered sentence per line.

    Args:
        view: the seat's view; its ``log`` hides others' cards as ``??``.
        names: display names per seat.
        last: keep only the last ``last`` lines (None: all).

    Returns:
        The log (checks said as checks, :func:`check_lines`), the seat's own lines in
        bold. A finished
        hand ends with who won each pot (:func:`award_lines`).
    """
    lines = list(enumerate(view.log))
    if last is not None:
        lines = lines[-last:] if last > 0 else []
    out = Text()
    mine = f"p{view.seat + 1}" if view.seat is not None else None
    full = view.log
    checks = check_lines(full)
    for k, (index, line) in enumerate(lines):
        if k:
            out.append("\n")
        marker = section_marker(full, index)
        if marker is not None:
            out.append(f"── {marker}\n", style="yellow")
        out.append(f"{index + 1:>3} ", style="dim")
        sentence = _colour_cards(describe_line(line, names, check=index in checks))
        words = line.split()
        if mine is not None and (words[:1] == [mine] or words[2:3] == [mine]):
            sentence.stylize("bold")
        out.append_text(sentence)
    if not lines:
        out.append("(nothing yet)", style="dim")
    won = award_lines(view, names)
    if won:
        out.append("\n── result (R7)", style="yellow")
        for won_line in won:
            out.append("\n    ")
            out.append(won_line, style="bold green")
    return out
