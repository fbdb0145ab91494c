"""A bot that plays by hand strength: exact exchange odds, pot odds and honest-ish declarations.

The bot reads only its :class:`~primero.views.SeatView` (R9b): its own cards, its own
discards (dead cards it knows), the public bets, votes, declarations and exchanges.

Hand strength is a win probability ``w``: the chance that its final hand beats every
opponent still in. Each opponent's hand is modelled as a random four-card hand made a
little stronger by exchanges (percentile raised to :data:`EXCHANGE_ALPHA`), or, once it
has declared a category (R6), as a hand of that category (honest) or of a lower one
(bluff, with probability :data:`DECLARED_BLUFF`). Then:

* two cards (first round, R4.3): the expected ``w`` over every draw, for keeping both
  cards (then the two-card second deal), one, or none (cached per rank pattern);
* four cards before the second exchange (R4.5): the expected ``w`` of the best exchange
  over every stand-pat, 1-card and 2-card exchange and every draw from the cards it has
  not seen (at most 11 choices x 630 draws).

  Both come from :func:`primero.odds.exchange_outcomes`, the exact enumeration that
  :func:`primero.odds.exchange_odds` scores heads-up: it gives how many draws of each
  choice lead to each hand value, and the bot weights them by its own ``w`` per value
  (against several opponents and their declarations), in whole numbers (R10);
* four cards after it (R4.7): ``w`` of the hand held.

Bets and raises are sized from the pot and capped by a share of the stack that grows with
``w`` (no all-in with a weak hand); calls follow pot odds with a margin; votes (R8) let a
bet stand whenever the bot would call it, and also a modest one (relative to the pot) with a
middling hand, since accepting does not commit it (it still calls, raises or folds at its
turn): only a large bet against a weak hand, or one of a big share of its stack without
the odds to call, is refused; declarations are truthful, or one category higher at
``bluff_rate``. Randomness (R10) comes only from ``random.Random``'s
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
from functools import lru_cache
from typing import Final

import numpy as np
import numpy.typing as npt

from primero.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.batch import VALUE_CATEGORY, VALUE_POINTS
from primero.cards import DECK, Card
from primero.dealing import RandomSource
from primero.hands import VALUE_BY_MASK, Category, evaluate
from primero.odds import exchange_outcomes
from primero.state import LegalActions, Phase
from primero.views import SeatView

__all__ = [
    "BIG_CALL",
    "DECLARED_BLUFF",
    "EXCHANGE_ALPHA",
    "LARGE_BET",
    "MIDDLING",
    "MODEST_BET",
    "STRONG",
    "WEAK",
    "HeuristicBot",
    "best_exchange",
    "win_table",
]

#: Opponents' hands are modelled as random hands whose percentile is raised to this
#: power: they too exchange towards better hands.
EXCHANGE_ALPHA: Final = 1.5
#: The assumed chance that an opponent's declaration (R6) is a bluff.
DECLARED_BLUFF: Final = 0.2

# R8 votes (HeuristicBot._accepts). Hand strength is measured against the win chance of
# an average hand (1.0), bet sizes as a share of the pot before the bet.
#: A bet up to this share of the pot is modest: a middling hand always lets it stand.
MODEST_BET: Final = 0.5
#: A bet above this share of the pot is refused unless the bot would call it.
LARGE_BET: Final = 1.5
#: A call of this share of the stack or more is refused unless the bot would make it.
BIG_CALL: Final = 0.4
#: A middling hand, relative to an average one.
MIDDLING: Final = 0.85
#: Below this (relative to an average hand) a hand is weak: it refuses what it would not call.
WEAK: Final = 0.6
#: From this (relative to an average hand) a hand accepts a bet of MODEST_BET to LARGE_BET
#: of the pot as often as the bet's size allows.
STRONG: Final = 1.5

_NKEYS: Final = 5 * 128  # HandValue.key = category * 128 + points < 640


def _percentiles() -> tuple[list[float], list[list[float]], list[int], list[int]]:
    """Mid-rank percentile of every hand key among all hands, and within each category."""
    counts = Counter(v.key for v in VALUE_BY_MASK.values())
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
#: ``HandValue.key`` of each value rank of :func:`primero.odds.exchange_outcomes`.
_RANK_KEYS: Final = VALUE_CATEGORY.astype(np.intp) * 128 + VALUE_POINTS.astype(np.intp)

# Opponent models per key, built from +, *, sqrt only (IEEE-exact everywhere, R10).
_PCT_NP: Final = np.array(_PCT, dtype=np.float64)
_RANDOM_OPPONENT: Final = _PCT_NP * np.sqrt(_PCT_NP)  # percentile ** EXCHANGE_ALPHA
_DECLARED_OPPONENT: Final = tuple(
    (1 - DECLARED_BLUFF) * (c * np.sqrt(c)) + DECLARED_BLUFF * _RANDOM_OPPONENT
    for c in (np.array(t, dtype=np.float64) for t in _PCT_BY_CATEGORY)
)
#: Win chances are scaled to whole numbers for exact, machine-independent sums (R10).
_SCALE: Final = 1 << 24


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


def _scaled(wins: Sequence[float] | npt.NDArray[np.float64]) -> npt.NDArray[np.int64]:
    """Win chances per key, scaled to whole numbers (R10)."""
    scaled = np.rint(np.asarray(wins, dtype=np.float64) * _SCALE)
    ints: npt.NDArray[np.int64] = scaled.astype(np.int64)
    return ints


@lru_cache(maxsize=2048)
def _win_ints(opponents: tuple[Category | None, ...]) -> tuple[npt.NDArray[np.int64], list[int]]:
    """:func:`win_table` scaled to whole numbers: per value rank (an array) and per key
    (a list)."""
    ints = _scaled(win_table(opponents))
    return ints[_RANK_KEYS], ints.tolist()


def _choose(
    hand: tuple[Card, ...], dead: tuple[Card, ...], ints: npt.NDArray[np.int64], max_discard: int
) -> tuple[float, tuple[Card, ...]]:
    """The exchange of ``hand`` with the highest mean of ``ints`` (per value rank) over its
    draws, from :func:`primero.odds.exchange_outcomes`; ``(mean / _SCALE, discards)``.

    Means compare as exact fractions; on equal means the earlier choice (fewer discards)
    wins.
    """
    counts, dens, discards = _exchange_counts(hand, dead)
    nums: list[int] = (counts @ ints).tolist()
    best_num, best_den = 0, 0
    best: tuple[Card, ...] = ()
    for num, den, discard in zip(nums, dens, discards, strict=True):
        if den == 0 or len(discard) > max_discard:
            continue
        if best_den == 0 or num * best_den > best_num * den:
            best_num, best_den, best = num, den, discard
    return best_num / best_den / _SCALE, best


@lru_cache(maxsize=256)
def _exchange_counts(
    hand: tuple[Card, ...], dead: tuple[Card, ...]
) -> tuple[npt.NDArray[np.int64], tuple[int, ...], tuple[tuple[Card, ...], ...]]:
    """:func:`primero.odds.exchange_outcomes` of a 4-card hand as the bot uses it: the
    value rank counts, the number of draws and the discards of each choice. Cached: a
    bot asks several times per hand (declaration, bets, votes, the exchange)."""
    outcomes = exchange_outcomes(hand, dead)
    dens = tuple(outcomes.outcomes(i) for i in range(len(outcomes.keeps)))
    return outcomes.counts, dens, outcomes.discards


def best_exchange(
    hand: Sequence[Card],
    unseen: Sequence[Card],
    wins: Sequence[float] | npt.NDArray[np.float64],
    max_discard: int = 2,
) -> tuple[float, tuple[Card, ...]]:
    """The exchange of a 4-card hand with the best expected win chance (exact enumeration).

    Every choice of 0, 1 or 2 discards (R4.6) is scored by the mean of ``wins`` over every
    equally likely draw from ``unseen`` (the cards the seat has not seen: not its hand,
    not its own discards), as enumerated by :func:`primero.odds.exchange_outcomes`. Sums
    are exact (whole numbers, R10).

    Args:
        hand: the four cards held.
        unseen: the cards that may be drawn.
        wins: the win chance of each hand key (640 values, from :func:`win_table`).
        max_discard: the largest number of cards that may be discarded (0, 1 or 2).

    Returns:
        ``(expected win chance, cards to discard)``; on equal values fewer discards win.
    """
    held = tuple(hand)
    drawable = set(unseen)
    dead = tuple(c for c in DECK if c not in drawable and c not in held)
    return _choose(held, dead, _scaled(wins)[_RANK_KEYS], max_discard)


@lru_cache(maxsize=256)
def _pair_counts(r1: int, r2: int, suited: bool) -> tuple[npt.NDArray[np.int64], tuple[int, ...]]:
    """The value rank counts and draw counts of the 4 first-round choices (keep both,
    discard the first card, discard the second, discard both) of two cards of ranks r1,
    r2, from :func:`primero.odds.exchange_outcomes` (no dead cards)."""
    outcomes = exchange_outcomes((DECK[r1], DECK[r2 + (0 if suited else 10)]))
    return outcomes.counts, tuple(outcomes.outcomes(i) for i in range(4))


@lru_cache(maxsize=4096)
def _first_round_values(
    r1: int, r2: int, suited: bool, k: int
) -> tuple[float, float, float, float]:
    """Expected win chance against ``k`` undeclared opponents of keeping two cards of
    ranks r1 <= r2 (then the second deal), of keeping the r1 card only, the r2 card only,
    and of keeping none."""
    counts, dens = _pair_counts(r1, r2, suited)
    nums: list[int] = (counts @ _win_ints((None,) * k)[0]).tolist()
    both, keep_r2, keep_r1, none = (
        num / den / _SCALE for num, den in zip(nums, dens, strict=True)
    )
    return both, keep_r1, keep_r2, none


def _first_round(a: Card, b: Card, k: int) -> tuple[float, float, float, float]:
    """Expected win chance of keeping both of ``a``, ``b``, only ``a``, only ``b``, none."""
    if int(a.rank) <= int(b.rank):
        return _first_round_values(int(a.rank), int(b.rank), a.suit == b.suit, k)
    both, keep_b, keep_a, none = _first_round_values(
        int(b.rank), int(a.rank), a.suit == b.suit, k
    )
    return both, keep_a, keep_b, none


@lru_cache(maxsize=64)
def _no_card_value(k: int) -> float:
    """The win chance of an average hand (a random hand from the whole deck)."""
    wins: list[float] = win_table([None] * k).tolist()
    total = sum(_KEY_COUNTS)
    return sum(wins[key] * n for key, n in zip(_KEYS, _KEY_COUNTS, strict=True)) / total


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
            return _first_round(hand[0], hand[1], k)[0], None, baseline
        if len(hand) != 4:
            return baseline, None, baseline
        by_rank, by_key = _win_ints(tuple(opponents))
        if v.phase in (Phase.DECLARE_ROUND, Phase.SECOND_EXCHANGE):
            # its own discards are dead (R9b); a discard back in hand (R8b) is not
            dead = tuple(c for c in DECK if c in v.discards and c not in hand)
            w, cards = _choose(hand, dead, by_rank, 2)
            return w, cards, baseline
        return by_key[evaluate(hand).key] / _SCALE, None, baseline

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
        keep_both, keep_a, keep_b, keep_none = _first_round(a, b, k)
        options: list[tuple[float, tuple[Card, ...]]] = []
        if 0 in legal.exchange:
            options.append((keep_both, ()))
        if 1 in legal.exchange:
            options += [(keep_a, (b,)), (keep_b, (a,))]
        if 2 in legal.exchange:
            options.append((keep_none, (a, b)))
        best_value, discard = max(options, key=lambda o: o[0])
        baseline = _no_card_value(k)
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
        """R8 vote: whether to let the pending bet stand.

        Accepting only lets the bet stand: the bot still calls, raises or folds at its
        turn, so refusing merely spares a hand that would fold. The bot accepts

        * any bet it would call (:meth:`_call_ok`, pot odds);
        * a modest bet (up to :data:`MODEST_BET` of the pot before it) with a middling
          hand (``w`` at least :data:`MIDDLING` times the average hand's);
        * otherwise, with a hand not far below average (:data:`WEAK`), a bet of up to
          :data:`LARGE_BET` of the pot by chance, more often the stronger the hand and the
          smaller the bet (one ``random()`` draw, R10).

        It refuses a bet it would not call that costs :data:`BIG_CALL` of its stack or
        more, a larger bet, and any bet it would not call with a weak hand.
        """
        pending = v.pending_bet
        if pending is None:
            return True
        bettor, amount, _ = pending
        if v.stacks[me] == 0:  # all-in: the vote costs nothing; welcome chips if strong
            return w >= baseline
        call = min(amount - v.round_bets[me], v.stacks[me])
        extra = amount - v.round_bets[bettor]
        if self._call_ok(v, me, call, w, baseline, extra_pot=extra):
            return True
        if call >= v.stacks[me] * BIG_CALL:
            return False
        rel = w / max(1e-9, baseline)  # 1.0: an average hand
        size = extra / max(1, v.pot_total)  # the bet as a share of the pot before it
        if rel < WEAK or size > LARGE_BET:
            return False
        if size <= MODEST_BET and rel >= MIDDLING:
            return True
        strength = min(1.0, (rel - WEAK) / (STRONG - WEAK))
        smallness = min(1.0, (LARGE_BET - size) / (LARGE_BET - MODEST_BET))
        return self.rng.random() < (0.3 + 0.7 * strength) * smallness
