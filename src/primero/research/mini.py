"""Mini-Primero: a research variant small enough for exact CFR (``preset="mini"``).

This is **not** a house rule of rules.md: it is a smaller game for algorithms that walk
the whole game tree (CFR, exact best responses), as Leduc poker is to Texas hold'em. The
rules are still the engine's (:class:`~primero.engine.state.HandState`, R4–R8b); the
variant only changes what the engine is given and skips one decision:

* **2 players**, each with a **stack of 2 chips**, **ante 1** (R4.1): the one chip left
  makes every bet all-in, so after the first round nothing is left to bet (R5: the
  declare round and the last round are skipped; nobody declares, R4.5).
* **Ties split** (house rule ``ties="split"``, R7): with the eldest taking ties, p1
  would bet every hand and p2 fold every one (the two hands hold all 8 cards between
  them, so equal hands are common).
* **A deck of 8 cards**, the aces and sevens of the four suits (:data:`MINI_DECK`): the
  cards outside it are never in the stock. Hands can be chorus (four aces or four
  sevens), primero (one card of each suit) or numerus (R2); the stock runs out in the
  second deal after a first-round exchange, and R8b then deals the exchanged cards
  again.
* **The second exchange is stood pat** (R4.6, no decision): every player keeps the
  four cards of the second deal.
* **``max_void_deals = 1``**: the first void deal (R4.3, both players exchanged) ends
  the hand, truncated, every return 0.
* In OpenSpiel the cards of a deal line are drawn **in deck order** (each next card
  above the last, with the probabilities that make every set of cards equally likely),
  so one set of cards is one chance history, not one per order.

What is left is Primero's first round: bet the last chip or exchange one or two cards,
call or fold, then the showdown. Its whole tree (about 0.5 million nodes) is walked by
``tools/mini_cfr.py``.

>>> [str(c) for c in MINI_DECK]
['Ac', '7c', 'Ad', '7d', 'Ah', '7h', 'As', '7s']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from primero.engine.actions import Exchange
from primero.engine.cards import DECK, Card
from primero.engine.dealing import Dealer
from primero.engine.rules import Rules
from primero.engine.state import HandState, Phase

__all__ = [
    "MINI_DECK",
    "MINI_MAX_VOID_DEALS",
    "MINI_PARAMS",
    "MINI_PLAYERS",
    "MINI_RULES",
    "MINI_STACK",
    "PRESETS",
    "advance",
    "apply_preset",
    "forced_move",
    "restrict_stock",
]

#: The 8 cards of Mini-Primero, in deck order.
MINI_DECK: Final[tuple[Card, ...]] = tuple(c for c in DECK if c.rank.char in "A7")

#: The OpenSpiel parameters the ``mini`` preset fixes.
MINI_PLAYERS: Final = 2
MINI_STACK: Final = 2
MINI_MAX_VOID_DEALS: Final = 1
MINI_PARAMS: Final[dict[str, int | str]] = {
    "players": MINI_PLAYERS,
    "stack": MINI_STACK,
    "ante": 1,
    "ties": "split",
    "max_void_deals": MINI_MAX_VOID_DEALS,
}

#: The house rules of Mini-Primero: the defaults but ``ties="split"`` (R7), 2 players.
MINI_RULES: Final = Rules(ante=1, ties="split", min_players=2, max_players=8)

#: Preset names: ``""`` (the full game, the parameters as given) and ``"mini"``.
PRESETS: Final = ("", "mini")

_OUTSIDE: Final = tuple(c.id for c in DECK if c not in MINI_DECK)


def restrict_stock(hand: HandState) -> None:
    """Take the cards outside :data:`MINI_DECK` out of the hand's stock: they are never
    dealt (call it on a new hand, and again after each void deal, which puts all 40
    cards back, R4.3)."""
    for card_id in _OUTSIDE:
        hand.in_stock[card_id] = False
    hand.stock_count = sum(hand.in_stock)


def forced_move(hand: HandState) -> Exchange | None:
    """The move Mini-Primero makes for a player, or None when the player decides: in
    the second exchange (R4.6) every player stands pat."""
    if hand.phase is Phase.SECOND_EXCHANGE and hand.to_act is not None and hand.to_act >= 0:
        return Exchange(hand.to_act, ())
    return None


def advance(hand: HandState, dealer: Dealer, *, mini: bool) -> None:
    """Deal every card due (R4.2, R4.4, exchanges, R8b) and, with ``mini``, make the
    variant's forced moves and keep the stock to :data:`MINI_DECK` (also after a void
    deal), until a player must decide or the hand is over.

    Args:
        hand: the hand (changed in place).
        dealer: the environment's dealer (R10).
        mini: whether the hand is Mini-Primero.
    """
    while not hand.complete:
        if mini and hand.stock_count == 40:  # a new hand or a void deal (R4.3)
            restrict_stock(hand)
        if hand.deals_due:  # one line at a time: a void deal refills the stock (R4.3)
            hand.apply_unchecked(dealer.deal(hand))  # drawn from the engine's pool (R8b)
            continue
        forced = forced_move(hand) if mini else None
        if forced is None:
            return
        hand.apply_unchecked(forced)


def apply_preset(
    preset: str,
    players: int,
    stack: int,
    stacks: Sequence[int] | None,
    max_void_deals: int,
    rules: dict[str, Any],
    *,
    defaults: tuple[int, int, int],
) -> tuple[int, int, Sequence[int] | None, int, dict[str, Any]]:
    """An environment's ``players, stack, stacks, max_void_deals, rules`` under a preset.

    Args:
        preset: ``""`` (returns the arguments unchanged) or ``"mini"``.
        players, stack, stacks, max_void_deals, rules: as the environment was given them.
        defaults: the environment's own defaults of ``players, stack, max_void_deals``,
            which the mini preset replaces.

    Raises:
        ValueError: an unknown preset, or with ``"mini"`` a value other than the default
            or the preset's (``stacks`` and house rules cannot be given with it).
    """
    if preset == "":
        return players, stack, stacks, max_void_deals, rules
    if preset != "mini":
        raise ValueError(f"preset must be '' (the full game) or 'mini', not {preset!r}")
    fixed = (MINI_PLAYERS, MINI_STACK, MINI_MAX_VOID_DEALS)
    given = (players, stack, max_void_deals)
    names = ("players", "stack", "max_void_deals")
    wrong = [n for n, g, d, m in zip(names, given, defaults, fixed, strict=True) if g not in (d, m)]
    if stacks is not None:
        wrong.append("stacks")
    wrong.extend(sorted(rules))
    if wrong:
        raise ValueError(f"the mini preset fixes every parameter: leave out {', '.join(wrong)}")
    rules = {"ante": MINI_RULES.ante, "ties": MINI_RULES.ties}
    return MINI_PLAYERS, MINI_STACK, None, MINI_MAX_VOID_DEALS, rules
