"""A bot that plays by hand strength: exact exchange odds, pot odds and honest-ish declarations.

The bot reads only its :class:`~primero.views.SeatView` (R9b): its own cards, its own
discards (dead cards it knows), the public bets, votes, declarations and exchanges.

Hand strength is a win probability ``w``: the chance that its final hand beats every
opponent still in. Each opponent's hand is modelled as a random four-card hand made a
little stronger by exchanges (percentile raised to :data:`EXCHANGE_ALPHA`), or, once it
has declared a category (R6), as a hand of that category (honest) or of a lower one
(bluff, with probability :data:`DECLARED_BLUFF`). Then:

* two cards (first round, R4.3): the expected ``w`` over every two-card second deal, for
  keeping both cards, one, or none (cached per rank pattern);
* four cards before the second exchange (R4.5): the expected ``w`` of the best exchange,
  by exact enumeration of every stand-pat, 1-card and 2-card exchange over every draw from
  the cards it has not seen (at most 11 choices x 630 draws, ~0.05 ms with whole-number
  sums). This is the bot's own enumeration rather than :func:`primero.odds.exchange_odds`:
  it scores hands against several opponents and their declarations, not heads-up, and
  it is dozens of times faster, which matters in ``primero simulate``; the tests check
  that both agree on every category's best probability;
* four cards after it (R4.7): ``w`` of the hand held.

Bets and raises are sized from the pot and capped by a share of the stack that grows with
``w`` (no all-in with a weak hand); calls follow pot odds with a margin; votes (R8) accept
a bet the bot would call and refuse one it would not; declarations are truthful, or one
category higher at ``bluff_rate``. Randomness (R10) comes only from ``random.Random``'s
``random()`` method.

>>> from primero.state import HandState
>>> from primero.dealing import Dealer
>>> from primero.views import view
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> action = HeuristicBot(seed=1)(view(s, 0))
>>> s.apply(action)   # always legal
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache
from itertools import combinations
from typing import Final

import numpy as np
import numpy.typing as npt

from primero.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.cards import DECK, Card
from primero.dealing import RandomSource
from primero.hands import _TABLE, Category
from primero.state import LegalActions, Phase
from primero.views import SeatView

__all__ = ["DECLARED_BLUFF", "EXCHANGE_ALPHA", "HeuristicBot", "best_exchange", "win_table"]

#: Opponents' hands are modelled as random hands whose percentile is raised to this
#: power: they too exchange towards better hands.
EXCHANGE_ALPHA: Final = 1.5
#: The assumed chance that an opponent's declaration (R6) is a bluff.
DECLARED_BLUFF: Final = 0.2

_NKEYS: Final = 5 * 128  # HandValue.key = category * 128 + points < 640


def _percentiles() -> tuple[list[float], list[list[float]], list[int], list[int]]:
    """Mid-rank percentile of every hand key among all hands, and within each category."""
    counts = Counter(v.key for v in _TABLE.values())
    keys = sorted(counts)
    total = sum(counts.values())
    pct = [0.0] * _NKEYS
    below = 0
    for key in keys:
        pct[key] = (below + counts[key] / 2) / total
        below += counts[key]
    by_cat: list[list[float]] = []
    for cat in Category:
        lo, hi = int(cat) * 128, int(cat) * 128 + 128
        cat_keys = [k for k in keys if lo <= k < hi]
        cat_total = sum(counts[k] for k in cat_keys)
        table = [0.0] * _NKEYS
        for k in keys:
            if k >= hi:
                table[k] = 1.0
        below = 0
        for k in cat_keys:
            table[k] = (below + counts[k] / 2) / cat_total
            below += counts[k]
        by_cat.append(table)
    return pct, by_cat, keys, [counts[k] for k in keys]


_PCT, _PCT_BY_CATEGORY, _KEYS, _KEY_COUNTS = _percentiles()
_BIT: Final = tuple(1 << i for i in range(40))
_KEY_OF: Final[dict[int, int]] = {mask: v.key for mask, v in _TABLE.items()}

# Opponent models per key, built from +, *, sqrt only (IEEE-exact everywhere, R10).
_PCT_NP: Final = np.array(_PCT, dtype=np.float64)
_RANDOM_OPPONENT: Final = _PCT_NP * np.sqrt(_PCT_NP)  # percentile ** EXCHANGE_ALPHA
_DECLARED_OPPONENT: Final = tuple(
    (1 - DECLARED_BLUFF) * (c * np.sqrt(c)) + DECLARED_BLUFF * _RANDOM_OPPONENT
    for c in (np.array(t, dtype=np.float64) for t in _PCT_BY_CATEGORY)
)
#: Win chances are scaled to whole numbers for exact, machine-independent sums (R10).
_SCALE: Final = 1 << 24

# Every pair of card ids (x < y), for the 2-card draws of the second exchange.
_PAIRS: Final = tuple(combinations(range(40), 2))
_PAIR_X: Final = np.array([x for x, _ in _PAIRS], dtype=np.intp)
_PAIR_Y: Final = np.array([y for _, y in _PAIRS], dtype=np.intp)


def win_table(opponents: Sequence[Category | None]) -> npt.NDArray[np.float64]:
    """The modelled chance that a hand of each key beats every opponent (indexed by
    ``HandValue.key``).

    Each undeclared opponent holds a random hand improved by exchanges (its percentile
    raised to :data:`EXCHANGE_ALPHA`); a declared one (R6) holds a hand of the declared
    category (likewise improved within it), or with probability :data:`DECLARED_BLUFF`
    a random hand.

    Args:
        opponents: one entry per opponent still in: its declared category, or None when
            it has not declared.

    Returns:
        An array of 640 probabilities in 0..1 (0 for keys no hand has).
    """
    table = np.ones(_NKEYS, dtype=np.float64)
    for declared in opponents:
        table *= _RANDOM_OPPONENT if declared is None else _DECLARED_OPPONENT[declared]
    return table


@lru_cache(maxsize=2048)
def _win_ints(opponents: tuple[Category | None, ...]) -> tuple[npt.NDArray[np.int64], list[int]]:
    """:func:`win_table` scaled to whole numbers, as an array and as a list."""
    ints = np.rint(win_table(opponents) * _SCALE).astype(np.int64)
    return ints, ints.tolist()


@lru_cache(maxsize=64)
def _undeclared_table(k: int) -> tuple[float, ...]:
    return tuple(win_table([None] * k).tolist())


@cache
def _pair_keys(a: int, b: int) -> npt.NDArray[np.intp]:
    """For kept cards ``a``, ``b``: the key of the hand with each drawn pair (0 if the
    pair overlaps them)."""
    keep = _BIT[a] | _BIT[b]
    key_of = _KEY_OF
    return np.array(
        [0 if x in (a, b) or y in (a, b) else key_of[keep | _BIT[x] | _BIT[y]] for x, y in _PAIRS],
        dtype=np.intp,
    )


def best_exchange(
    hand: Sequence[Card],
    unseen: Sequence[Card],
    wins: Sequence[float] | npt.NDArray[np.float64],
    max_discard: int = 2,
) -> tuple[float, tuple[Card, ...]]:
    """The exchange of a 4-card hand with the best expected win chance (exact enumeration).

    Every choice of 0, 1 or 2 discards (R4.6) is scored by the mean of ``wins`` over every
    equally likely draw from ``unseen`` (the cards the seat has not seen: not its hand,
    not its own discards). Sums are exact (whole numbers, R10).

    Args:
        hand: the four cards held.
        unseen: the cards that may be drawn.
        wins: the win chance of each hand key (640 values, from :func:`win_table`).
        max_discard: the largest number of cards that may be discarded (0, 1 or 2).

    Returns:
        ``(expected win chance, cards to discard)``; on equal values fewer discards win.
    """
    ints = np.rint(np.asarray(wins, dtype=np.float64) * _SCALE).astype(np.int64)
    return _best_exchange(hand, [c.id for c in unseen], ints, ints.tolist(), max_discard)


def _best_exchange(
    hand: Sequence[Card],
    unseen: list[int],
    ints: npt.NDArray[np.int64],
    ints_list: list[int],
    max_discard: int = 2,
) -> tuple[float, tuple[Card, ...]]:
    full = 0
    for c in hand:
        full |= _BIT[c.id]
    key_of = _KEY_OF
    # candidates compare as exact fractions num / den
    best_num, best_den = ints_list[key_of[full]], 1
    best: tuple[Card, ...] = ()
    n = len(unseen)
    if max_discard >= 1 and n:
        draws = [_BIT[i] for i in unseen]
        for card in hand:
            keep = full ^ _BIT[card.id]
            num = sum([ints_list[key_of[keep | m]] for m in draws])
            if num * best_den > best_num * n:
                best_num, best_den, best = num, n, (card,)
    if max_discard >= 2 and n >= 2:
        mask = np.zeros(40, dtype=np.int64)
        mask[unseen] = 1
        valid = mask[_PAIR_X] * mask[_PAIR_Y]
        den = n * (n - 1) // 2
        for pair in combinations(hand, 2):
            a, b = (c.id for c in hand if c not in pair)
            keys = _pair_keys(min(a, b), max(a, b))
            num = int(ints[keys] @ valid)
            if num * best_den > best_num * den:
                best_num, best_den, best = num, den, pair
    return best_num / best_den / _SCALE, best


@lru_cache(maxsize=4096)
def _two_card_value(r1: int, r2: int, suited: bool, k: int) -> float:
    """Expected win chance of keeping two cards (ranks r1, r2) through a 2-card deal."""
    a = DECK[r1]
    b = DECK[r2 + (0 if suited else 10)]
    wins = _undeclared_table(k)
    keep = _BIT[a.id] | _BIT[b.id]
    rest = [_BIT[c.id] for c in DECK if c is not a and c is not b]
    values = [wins[_KEY_OF[keep | x | y]] for x, y in combinations(rest, 2)]
    return sum(values) / len(values)


@lru_cache(maxsize=512)
def _one_card_value(rank: int, k: int) -> float:
    """Expected win chance of keeping one card of ``rank`` and drawing three."""
    a = DECK[rank]
    wins = _undeclared_table(k)
    rest = [_BIT[c.id] for c in DECK if c is not a]
    total = 0.0
    count = 0
    for x, y, z in combinations(rest, 3):
        total += wins[_KEY_OF[_BIT[a.id] | x | y | z]]
        count += 1
    return total / count


@lru_cache(maxsize=64)
def _no_card_value(k: int) -> float:
    wins = _undeclared_table(k)
    total = sum(_KEY_COUNTS)
    return sum(wins[key] * n for key, n in zip(_KEYS, _KEY_COUNTS, strict=True)) / total


def _pair_value(a: Card, b: Card, k: int) -> float:
    r1, r2 = sorted((int(a.rank), int(b.rank)))
    return _two_card_value(r1, r2, a.suit == b.suit, k)


class HeuristicBot:
    """Plays by hand strength, pot odds and stack (see the module docstring).

    Args:
        seed: seed of its own ``random.Random`` (R10); None draws a fresh one.
        bluff_rate: chance (0..1) of declaring one category above its hand (R6), and half
            of it the chance of a pot-sized bluff bet when opening with a weak hand.
        caution: margin (win-chance units) added to pot odds before calling (default 0.04).
        aggression: scale of bet and raise sizes relative to the pot (default 1.0).
        rng: a random source to use instead of ``seed``.

    Raises:
        ValueError: ``bluff_rate`` outside 0..1 or a negative ``aggression``.
    """

    name = "heuristic"

    def __init__(
        self,
        seed: int | None = None,
        bluff_rate: float = 0.15,
        *,
        caution: float = 0.04,
        aggression: float = 1.0,
        rng: RandomSource | None = None,
    ) -> None:
        if not 0.0 <= bluff_rate <= 1.0:
            raise ValueError(f"bluff_rate must be from 0 to 1, not {bluff_rate}")
        if aggression < 0:
            raise ValueError(f"aggression must be >= 0, not {aggression}")
        self.rng: RandomSource = rng if rng is not None else random.Random(seed)
        self.bluff_rate = bluff_rate
        self.caution = caution
        self.aggression = aggression

    # ----------------------------------------------------------------- strength

    def _opponents(self, v: SeatView, me: int) -> list[Category | None]:
        use = v.rules.declarations
        return [
            (v.declared[s] if use else None)
            for s in range(v.n)
            if s != me and not v.folded[s]
        ]

    def _strength(self, v: SeatView, me: int) -> tuple[float, tuple[Card, ...] | None, float]:
        """``(w, exchange, baseline)``: win chance, the best exchange if one is to come,
        and the win chance of an average hand (for thresholds)."""
        opponents = self._opponents(v, me)
        k = max(1, len(opponents))
        baseline = _no_card_value(k)
        hand = v.hand
        if len(hand) == 2:
            return _pair_value(hand[0], hand[1], k), None, baseline
        if len(hand) != 4:
            return baseline, None, baseline
        ints, ints_list = _win_ints(tuple(opponents))
        if v.phase in (Phase.DECLARE_ROUND, Phase.SECOND_EXCHANGE):
            known = {c.id for c in hand} | {c.id for c in v.discards}
            unseen = [i for i in range(40) if i not in known]
            w, cards = _best_exchange(hand, unseen, ints, ints_list)
            return w, cards, baseline
        mask = sum(_BIT[c.id] for c in hand)
        return ints_list[_KEY_OF[mask]] / _SCALE, None, baseline

    # ----------------------------------------------------------------- decisions

    def __call__(self, view: SeatView) -> Action:
        """Return a legal action for the seat of ``view`` (R4–R8).

        Raises:
            ValueError: the view is not this seat's move (``view.legal`` is None).
        """
        legal = view.legal
        me = view.seat
        if legal is None or me is None:
            raise ValueError("HeuristicBot was asked to act outside its turn")
        if legal.exchange and view.phase is Phase.SECOND_EXCHANGE:
            w, cards, _ = self._strength(view, me)
            return Exchange(me, cards or ())
        if view.phase is Phase.FIRST_ROUND and legal.exchange and view.current_bet is None:
            return self._first_round_open(view, me, legal)
        w, _, baseline = self._strength(view, me)
        if legal.vote:
            return Vote(me, self._accepts(view, me, w, baseline))
        if legal.declare:
            # facing a bet, a weak hand folds without declaring (R4.5); never for free
            call = view.to_call
            if legal.fold and call > 0 and not self._call_ok(view, me, call, w, baseline):
                return Fold(me)
            choice = legal.declare[0]  # the true category (R6: never lower)
            if len(legal.declare) > 1 and self.rng.random() < self.bluff_rate:
                choice = legal.declare[1]
            return Declare(me, choice)
        if view.current_bet is None:
            return self._open(view, me, legal, w, baseline)
        action = self._facing(view, me, legal, w, baseline)
        return action if action is not None else Fold(me)

    def _first_round_open(self, v: SeatView, me: int, legal: LegalActions) -> Action:
        """No bet stands in the first round: bet on a strong pair, else exchange (R4.3)."""
        a, b = v.hand[0], v.hand[1]
        k = max(1, len(v.still_in) - 1)
        keep_both = _pair_value(a, b, k)
        keep_a = _one_card_value(int(a.rank), k)
        keep_b = _one_card_value(int(b.rank), k)
        keep_none = _no_card_value(k)
        options: list[tuple[float, tuple[Card, ...]]] = []
        if 0 in legal.exchange:
            options.append((keep_both, ()))
        if 1 in legal.exchange:
            options += [(keep_a, (b,)), (keep_b, (a,))]
        if 2 in legal.exchange:
            options.append((keep_none, (a, b)))
        best_value, discard = max(options, key=lambda o: o[0])
        baseline = keep_none
        if legal.bet is not None and keep_both >= best_value and keep_both > baseline:
            return Bet(me, self._bet_size(v, me, legal.bet, keep_both, baseline))
        if legal.bet is not None and not options:
            return Bet(me, legal.bet[0])
        return Exchange(me, discard)

    def _bet_size(
        self, v: SeatView, me: int, bounds: tuple[int, int], w: float, baseline: float
    ) -> int:
        """A bet of a share of the pot growing with strength, capped by a share of the
        stack (chips), within ``bounds``."""
        low, high = bounds
        edge = max(0.0, min(1.0, (w - baseline) / max(1e-9, 1.0 - baseline)))
        size = v.pot_total * self.aggression * (0.25 + 0.75 * edge)
        stack = v.stacks[me]
        share = 0.15 if edge < 0.25 else 0.35 if edge < 0.5 else 0.6
        if edge >= 0.85 and w >= 0.75:
            share = 1.0
        amount = int(min(size, stack * share))
        return max(low, min(high, amount))

    def _open(
        self, v: SeatView, me: int, legal: LegalActions, w: float, baseline: float
    ) -> Action:
        """Opening a betting round (rounds 2 and 3 must bet, 0 allowed; R5)."""
        if legal.bet is None:
            if legal.exchange:
                return Exchange(me, v.hand[: legal.exchange[0]])
            return Fold(me) if legal.fold else Call(me)
        low, high = legal.bet
        if w >= baseline * 1.5 or w >= 0.6:
            return Bet(me, self._bet_size(v, me, legal.bet, w, baseline))
        if self.rng.random() < self.bluff_rate / 2:
            return Bet(me, max(low, min(high, v.pot_total // 2, v.stacks[me] // 5)))
        return Bet(me, low)

    def _call_ok(
        self, v: SeatView, me: int, call: int, w: float, baseline: float, extra_pot: int = 0
    ) -> bool:
        """Pot odds with a margin, and no big call of the stack with a weak hand; a token
        call (1 chip or 2% of the stack) with an average hand is fine: the pot is then too
        small for pot odds to mean much (e.g. with no ante)."""
        if call <= 0:
            return True
        if call <= max(1, v.stacks[me] // 50) and w >= baseline * 0.7:
            return True
        pot = v.pot_total + extra_pot
        need = call / (pot + call)
        # bets signal strength: discount the estimate when facing one
        w_adj = w * 0.85
        if w_adj < need + self.caution:
            return False
        stack = v.stacks[me]
        return not (call >= stack * 0.4 and w_adj < max(0.35, need + 0.1))

    def _facing(
        self, v: SeatView, me: int, legal: LegalActions, w: float, baseline: float
    ) -> Action | None:
        """Facing an open bet: raise, call or check, or None to fold (R5)."""
        call = legal.call if legal.call is not None else 0
        rng = legal.raise_to
        strong = w >= max(0.55, baseline * 2.2)
        if rng is not None and strong:
            low, high = rng
            current = v.current_bet or 0
            pot_after = v.pot_total + call
            edge = max(0.0, min(1.0, (w - baseline) / max(1e-9, 1.0 - baseline)))
            target = current + int(pot_after * self.aggression * (0.4 + 0.6 * edge))
            all_in_ok = edge >= 0.85 and w >= 0.75
            total_cap = v.round_bets[me] + int(
                v.stacks[me] * (0.35 if edge < 0.6 else 1.0 if all_in_ok else 0.6)
            )
            to = max(low, min(high, target, total_cap))
            if low <= to <= high and to <= total_cap:
                return Raise(me, to)
        if legal.call is not None and self._call_ok(v, me, call, w, baseline):
            return Call(me)
        if legal.call is not None and call == 0:
            return Call(me)
        return None

    def _accepts(self, v: SeatView, me: int, w: float, baseline: float) -> bool:
        """R8 vote: accept a bet the bot would call, refuse one it would not."""
        pending = v.pending_bet
        if pending is None:
            return True
        bettor, amount, _ = pending
        if v.stacks[me] == 0:  # all-in: the vote costs nothing; welcome chips if strong
            return w >= baseline
        call = min(amount - v.round_bets[me], v.stacks[me])
        extra = amount - v.round_bets[bettor]
        return self._call_ok(v, me, call, w, baseline, extra_pot=extra)
