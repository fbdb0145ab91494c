"""The one function that builds what a seat (or a spectator) is sent about a hand (R9b).

Everything comes from :func:`primero.view` for that seat, so no card a seat may not see
can reach it: the server's ``state`` messages, and any other front end that sends a
hand over a wire, use :func:`seat_payload`.
"""

from __future__ import annotations

from typing import Any

from primero.engine.actions import Deal, seat_name
from primero.engine.legal import LegalActions
from primero.engine.state import DEALER
from primero.engine.words import is_raise_over
from primero.play.lessons import guide_text
from primero.play.tablemodel.model import TableModel
from primero.play.tablemodel.sentences import (
    bet_words,
    move_words,
    phase_name,
    result_sentences,
    shown_words,
    sitting_out_words,
)

__all__ = ["legal_payload", "seat_guide", "seat_note", "seat_payload"]


def legal_payload(
    legal: LegalActions,
    current_bet: int | None = None,
    pending: tuple[str, int, bool] | None = None,
) -> dict[str, Any]:
    """The ``legal`` object of docs/protocol.md: the fields of :class:`LegalActions`,
    ``kinds`` as in docs/record-format.md, categories by name, ranges as ``[lo, hi]``
    (chips), and the moves' names (``words``:
    :func:`~primero.play.tablemodel.sentences.move_words` with the round's bet to match,
    ``current_bet`` chips or None, and the bet under a vote, ``pending``: its bettor's
    name, chips and whether it is a raise, or None)."""
    return {
        "kinds": legal.kinds(),
        "exchange": list(legal.exchange),
        "bet": None if legal.bet is None else list(legal.bet),
        "raise_to": None if legal.raise_to is None else list(legal.raise_to),
        "call": legal.call,
        "fold": legal.fold,
        "vote": legal.vote,
        "declare": [c.label for c in legal.declare],
        "words": move_words(legal, current_bet, pending),
    }


def seat_guide(model: TableModel | None, index: int | None) -> str:
    """The ``guide`` of a ``state`` message: the web page's lesson for this moment of the
    hand (``?learn``; :func:`primero.play.lessons.guide_text`), made here so that the
    client words no lesson itself.

    Args:
        model: the table, or None before it has one.
        index: the reader's 0-based table index, or None for a spectator.
    """
    if model is None or model.hand is None:
        return guide_text(None)
    stand_in = index is not None and model.match.presence[index].stand_in is not None
    return guide_text(model.view_for(index), may_act=not stand_in)


def seat_note(model: TableModel, index: int | None) -> str | None:
    """The ``seat_note`` of a ``state`` message: the reader's sitting out in words
    (docs/protocol.md ``sit_out``: from the next hand on the seat is not dealt in), said here
    once so that no client words it itself.

    Args:
        model: the table.
        index: the reader's 0-based table index, or None for a spectator.

    Returns:
        ``"You will sit out from the next hand: you still play this one."`` while the
        seat sits out but is dealt in the hand in progress; ``"You are sitting out: you
        are not dealt in until you sit in."`` once no hand in progress holds it; None for
        a spectator, a seat not sitting out, or one that left or is leaving. With a
        stand-in: ``"A bot plays your seat while you sit out: your chips and ledger stay
        yours."``, and after ``sit_in`` during its hand ``"A bot finishes this hand for
        you: your seat is yours again from the next hand."``.
    """
    if index is None:
        return None
    p = model.match.presence[index]
    if p.stand_in is not None and not (p.left or p.leaving):
        if p.sitting_out:
            return "A bot plays your seat while you sit out: your chips and ledger stay yours."
        return "A bot finishes this hand for you: your seat is yours again from the next hand."
    if not p.sitting_out or p.left or p.leaving:
        return None
    return sitting_out_words(in_hand=model.match.in_hand(index))


def seat_payload(
    model: TableModel, index: int | None
) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
    """The ``hand`` and ``legal`` of a ``state`` message for table ``index`` (docs/protocol.md).

    Args:
        model: the table.
        index: the reader's 0-based table index, or None for a spectator. A player out of
            the match gets the public view, as a spectator does.

    Returns:
        ``(hand, legal)``: ``hand`` None before the first hand; ``legal`` non-None only
        for the seat to act. ``hand`` holds ``seat`` (this seat's ``p`` label or null),
        ``table_seats`` (each ``p`` seat's 0-based table index), ``players``, ``hand``
        (own cards as card texts), ``hand_sizes``, ``to_act`` (a ``p`` label, ``"dealer"``
        or null), ``phase``, ``stacks``, ``contributed``, ``round_bets``, ``current_bet``,
        ``pot_total`` (chips), ``pending_bet``, ``declared``, ``folded``, ``exchanges``,
        ``log`` (record lines, hidden cards ``??``), ``events`` (sentences as this seat
        reads them, ending with who won what), ``result`` (those closing sentences
        alone: the uncalled bet returned and who won each pot; empty until the hand is
        over), ``last_moves`` (each seat's last move in
        words, or null), ``number``, and once the hand is over ``shown`` and
        ``final_stacks`` (else null).
    """
    if model.hand is None:
        return None, None
    v = model.view_for(index)
    to_act: str | None
    if v.to_act is None:
        to_act = None
    elif v.to_act == DEALER:
        to_act = "dealer"
    else:
        to_act = seat_name(v.to_act)
    over = v.final_stacks is not None
    shown: list[dict[str, Any] | None] | None = None
    if over:
        shown = []
        for value, cards in zip(v.shown, v.shown_cards, strict=True):
            if value is None or cards is None:
                shown.append(None)
            else:
                shown.append(
                    {
                        "category": value.category.label,
                        "points": value.points,
                        "cards": [str(c) for c in cards],
                        "words": shown_words(value),
                    }
                )
    pending = v.pending_bet
    if pending is not None:  # a raise over a bet of 0 is the round's first bet (R5)
        pending = (pending[0], pending[1], is_raise_over(pending[2], v.current_bet))
    result = result_sentences(v)  # said once: the web client shows these, never its own words
    hand = {
        "number": model.hand_number,
        "seat": None if v.seat is None else seat_name(v.seat),
        "table_seats": list(model.match.seats),
        "players": list(v.players),
        "hand": [str(c) for c in v.hand],
        "hand_sizes": list(v.hand_sizes),
        "to_act": to_act,
        "phase": v.phase.name.lower(),
        "phase_words": phase_name(v).capitalize(),
        "stacks": list(v.stacks),
        "contributed": list(v.contributed),
        "round_bets": list(v.round_bets),
        "current_bet": v.current_bet,
        "pot_total": v.pot_total,
        "pending_bet": None
        if pending is None
        else {
            "seat": seat_name(pending[0]),
            "amount": pending[1],
            "raise": pending[2],
            "words": bet_words(v.players[pending[0]], pending[1], pending[2]),
        },
        "declared": [None if c is None else c.label for c in v.declared],
        "folded": list(v.folded),
        "exchanges": [list(e) for e in v.exchanges],
        "log": list(v.log),
        "events": [e.text_for(v.seat) for e in model.events] + result,
        "result": result,
        "shown": shown,
        "final_stacks": None if v.final_stacks is None else list(v.final_stacks),
        "winners": [
            {
                "amount": a.pot.amount,
                "winners": [seat_name(w) for w in a.winners],
                "shares": list(a.shares),
            }
            for a in v.awards
        ],
    }
    last: list[str | None] = [None] * len(v.players)
    for e in model.events:  # each seat's last move, as this reader reads it
        if not isinstance(e.action, Deal):
            last[e.seat] = e.text_for(v.seat)
    hand["last_moves"] = last
    voted = None if pending is None else (v.players[pending[0]], pending[1], pending[2])
    legal = None if v.legal is None else legal_payload(v.legal, v.current_bet, voted)
    if index is not None and model.match.presence[index].stand_in is not None:
        legal = None  # a bot plays this seat for the person (docs/protocol.md "Presence")
    return hand, legal
