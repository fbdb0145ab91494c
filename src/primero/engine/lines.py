"""The text of every record line, written once (docs/record-format.md, "Action lines").

Why it exists: the record's actions (:mod:`primero.engine.actions`, whose ``line()``
methods write a hand's record and whose :func:`~primero.engine.actions.parse_action`
reads it) and the random-playout kernel (:mod:`primero.research.fastsim`, which
writes the same lines from card ids and must not import the checked engine) each wrote
the lines' text. Both now call these functions, over plain seats, chips and card names,
so a line is spelled in one place; reading lines stays with
:func:`~primero.engine.actions.parse_action` and
:func:`~primero.engine.actions.parse_hidden`.

>>> deal_line(2, ["7h", "Kc"]), bet_line(0, 5, False), vote_line(3, False)
('d dh p3 7h Kc', 'p1 b 5', 'p4 n')
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "bet_line",
    "call_line",
    "deal_line",
    "declare_line",
    "exchange_line",
    "fold_line",
    "seat_name",
    "vote_line",
]


def seat_name(seat: int) -> str:
    """The record name of a 0-based seat: ``seat_name(0) == "p1"``."""
    return f"p{seat + 1}"


def deal_line(seat: int, cards: Sequence[str]) -> str:
    """A deal to 0-based ``seat`` of the cards named ``cards``: ``"d dh p3 7h Kc"``
    (R4.2, R4.4; a seat's view names hidden cards as :mod:`primero.engine.actions` says)."""
    return "d dh " + seat_name(seat) + "".join([" " + c for c in cards])


def exchange_line(seat: int, cards: Sequence[str]) -> str:
    """``seat`` discards ``cards``: ``"p3 x 7h Kc"``, ``"p3 x"`` to stand pat (R4.3, R4.6)."""
    return seat_name(seat) + " x" + "".join([" " + c for c in cards])


def bet_line(seat: int, amount: int, is_raise: bool) -> str:
    """A bet (``"p1 b 5"``) or a raise to ``amount`` chips in the round (``"p1 r 9"``, R5)."""
    return seat_name(seat) + (" r " if is_raise else " b ") + str(amount)


def call_line(seat: int) -> str:
    """A call, or a check when nothing is owed: ``"p2 c"`` (R5)."""
    return seat_name(seat) + " c"


def fold_line(seat: int) -> str:
    """A fold: ``"p2 f"`` (R5)."""
    return seat_name(seat) + " f"


def vote_line(seat: int, accept: bool) -> str:
    """A vote on the bet under vote: ``"p3 y"`` or ``"p3 n"`` (R8)."""
    return seat_name(seat) + (" y" if accept else " n")


def declare_line(seat: int, category: str) -> str:
    """A declaration of the category named ``category``: ``"p3 dc fluxus"`` (R6)."""
    return seat_name(seat) + " dc " + category
