"""A determinized Monte Carlo search bot: many samples of the hidden cards, one ply of
search over every betting, voting and declaring choice (R4-R8).

Where search helps in Primero: exchanges already have exact odds
(:func:`primero.engine.odds.exchange_outcomes`), so the bot exchanges as
:class:`~primero.bots.heuristic.HeuristicBot` does. The money is won or lost in the
betting, calling, voting and declaring decisions, which depend on the hands the
opponents may hold and on how they will answer a bet. For those the bot

1. **samples** ``samples`` determinizations of everything it cannot see, consistent with
   its own view only (R9b): the opponents' hands are drawn from the cards it has not seen
   (not its hand, not its own discards still out of play, R8b); an opponent who declared
   (R6) holds, at the time of declaring, a hand no higher than the declaration
   (rejection sampling); such an opponent who has since exchanged drew its public number of
   cards; the second deal and the exchanges still to come are dealt from the rest, every
   player keeping the cards with the best modelled chance
   (:class:`~primero.bots.strength.StrengthTable`); a sample in which an opponent made a
   real bet or raise with a hand it would not bet is down-weighted (:data:`BLUFF_WEIGHT`);
2. **evaluates** each candidate action in every sample (common random numbers): fold, call
   or check, bets and raises of a few pot fractions, accept or refuse (R8), and each
   allowed declaration followed by its best bet or call. Opponents answer a bet with the
   heuristic bot's pot-odds rule from the strength they believe they hold (given the
   declarations they face: declaring higher makes them fold and refuse more); a bet that
   every voter would refuse is withdrawn (R8); the hand is then scored at the showdown
   of the sampled final hands (R7 ties), the chips in the pot now and the calls;
3. **plays** the candidate with the best weighted mean (chips); ties go to the earlier
   candidate (fold/check before bets, smaller before larger, the true declaration first).

It is a one-ply search: later betting rounds are not searched (they scale every
candidate alike). Cost: about 0.1 ms per sample and decision on the development machine
(a declaration scores every allowed category: a few times that); the default
:data:`DEFAULT_SAMPLES` keeps a decision well under one second
(``benchmarks/bench_search.py``); tournaments may use fewer
(``primero tournament --search-samples N``).

Randomness (R10) comes only from its own ``random.Random``'s ``random()`` method: the
same seed and views give the same actions.

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> from primero.engine.views import view
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> s.apply(SearchBot(seed=1)(view(s, 0)))   # always legal
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

import numpy as np

from primero.bots.heuristic import HeuristicBot
from primero.bots.refusals import stepped_legal
from primero.bots.search_eval import Evaluation
from primero.bots.strength import canonical, hand_key, strength_table
from primero.engine.actions import Action, Bet, Call, Declare, Fold, Raise, Vote
from primero.engine.dealing import RandomSource
from primero.engine.hands import Category
from primero.engine.state import Phase
from primero.engine.views import SeatView

__all__ = ["BLUFF_WEIGHT", "DEFAULT_SAMPLES", "SearchBot"]

#: Samples per decision at the default setting (well under one second a decision on the
#: development machine; ``benchmarks/bench_search.py``).
DEFAULT_SAMPLES: Final = 400
#: Weight of a sample in which an opponent bet or raised with a hand it would not bet.
BLUFF_WEIGHT: Final = 0.15
#: Bet sizes tried, as shares of the pot (besides the smallest and the largest bet).
BET_FRACTIONS: Final = (0.33, 0.66, 1.0, 1.5)
#: Raise sizes tried, as shares of the pot after the call (besides min and max).
RAISE_FRACTIONS: Final = (0.5, 1.0)
#: Bets and raises of more than this many pots (an all-in into a small pot) are not tried:
#: bots at a table bet as people do.
MAX_POT_MULTIPLE: Final = 2
#: Raises in a betting round after which the bot only calls or folds.
MAX_ROUND_RAISES: Final = 2
#: Rejection-sampling tries for a hand consistent with a declaration (R6).
_TRIES: Final = 30


@dataclass(slots=True)
class _Sample:
    """One determinization: its weight, the final key of every seat still in (-1 for a
    seat that is out) and each opponent's current cards (for its believed strength)."""

    weight: float
    final: list[int]
    cards: dict[int, tuple[int, ...]]


@dataclass(frozen=True, slots=True)
class _Spot:
    """The public numbers of the decision (chips)."""

    me: int
    pot: int
    opponents: tuple[int, ...]
    stacks: tuple[int, ...]
    round_bets: tuple[int, ...]
    current_bet: int
    votes: bool
    ties_split: bool
    exchange_ahead: tuple[bool, ...]


class SearchBot:
    """Determinized Monte Carlo search over betting, voting and declaring (see the module
    docstring); exchanges as the heuristic bot (exact odds).

    Args:
        seed: seed of its own ``random.Random`` (R10); None draws a fresh one.
        samples: determinizations per decision (>= 1; default :data:`DEFAULT_SAMPLES`).
        rng: a random source to use instead of ``seed``.

    Raises:
        ValueError: ``samples`` < 1.
    """

    name = "search"

    def __init__(
        self,
        seed: int | None = None,
        samples: int = DEFAULT_SAMPLES,
        *,
        rng: RandomSource | None = None,
    ) -> None:
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples}")
        self.rng: RandomSource = rng if rng is not None else random.Random(seed)
        self.samples = samples
        self._heuristic = HeuristicBot(rng=self.rng)
        hand_key((0, 1, 2, 3))  # builds the evaluator's tables once per process (~0.5 s)

    def __call__(self, view: SeatView) -> Action:
        """Return a legal action for the seat of ``view`` (R4-R8).

        Raises:
            ValueError: the view is not this seat's move (``view.legal`` is None).
        """
        legal = view.legal
        me = view.seat
        if legal is None or me is None:
            raise ValueError("SearchBot was asked to act outside its turn")
        others = tuple(s for s in view.still_in if s != me)
        searchable = (
            view.phase in (Phase.FIRST_ROUND, Phase.DECLARE_ROUND, Phase.LAST_ROUND)
            and len(view.hand) in (2, 4)
            and others
            and not (legal.exchange and view.phase is Phase.FIRST_ROUND)
        )
        if not searchable:  # exchanges (exact odds) and the first-round opening
            return self._heuristic(view)
        spot = self._spot(view, me, others)
        samples = self._sample(view, spot)
        if legal.vote:
            return Vote(me, self._accepts(view, spot, samples))
        if legal.declare:
            return self._declare(view, spot, samples)
        return self._act(view, spot, samples, view.declared[me])

    # ------------------------------------------------------------------ the spot

    def _spot(self, v: SeatView, me: int, others: tuple[int, ...]) -> _Spot:
        phase = v.phase
        ahead = tuple(phase is not Phase.LAST_ROUND for _ in range(v.n))
        return _Spot(
            me=me,
            pot=v.pot_total,
            opponents=others,
            stacks=v.stacks,
            round_bets=v.round_bets,
            current_bet=v.current_bet if v.current_bet is not None else 0,
            votes=v.rules.refusal and len(v.still_in) >= 3,
            ties_split=v.rules.ties == "split",
            exchange_ahead=ahead,
        )

    # ------------------------------------------------------------------ sampling

    def _sample(self, v: SeatView, spot: _Spot) -> list[_Sample]:
        """``self.samples`` determinizations of the hidden cards (see the module doc)."""
        me = spot.me
        mine = [c.id for c in v.hand]
        seen = set(mine) | {c.id for c in v.discards}
        unseen = [i for i in range(40) if i not in seen]
        declared = v.declared if v.rules.declarations else (None,) * v.n
        second_exchange_done = v.phase is Phase.LAST_ROUND
        second_deal_ahead = v.phase is Phase.FIRST_ROUND
        drawn = {s: (v.exchanges[s][-1] if v.exchanges[s] else 0) for s in spot.opponents}
        aggressive = _aggression(v)
        play_table = strength_table(canonical([None] * len(spot.opponents)))
        rand = self.rng.random
        out: list[_Sample] = []
        for _ in range(self.samples):
            pool = unseen[:]
            cards: dict[int, tuple[int, ...]] = {}
            weight = 1.0
            for s in spot.opponents:
                size = v.hand_sizes[s]
                decl = declared[s]
                tries = 0
                while True:
                    hand = _draw(pool, size, rand)
                    if second_exchange_done and decl is not None and size == 4:
                        ok = hand_key(hand) < (int(decl) + 1) * 128
                        if ok or tries >= _TRIES:
                            n = drawn[s]
                            if n:
                                kept = play_table.best_keep(hand, exact=n)
                                pool.extend(c for c in hand if c not in kept)
                                hand = kept + _draw(pool, n, rand)
                            break
                    elif decl is not None and size == 4 and not second_exchange_done:
                        if hand_key(hand) < (int(decl) + 1) * 128 or tries >= _TRIES:
                            break
                    else:
                        break
                    pool.extend(hand)
                    tries += 1
                cards[s] = hand
            # weight: real bets and raises since the opponent's last new cards (R5)
            for s, kind in aggressive.items():
                if s not in cards:
                    continue
                table = strength_table(canonical(_facing(declared, s, v.still_in)))
                w = table.strength(cards[s], spot.exchange_ahead[s])
                need = (
                    max(0.55, 2.2 * table.baseline)
                    if kind == "r"
                    else min(1.5 * table.baseline, 0.6)
                )
                if w < need:
                    weight *= BLUFF_WEIGHT
            final = [-1] * v.n
            hands: dict[int, list[int]] = {s: list(c) for s, c in cards.items()}
            hands[me] = list(mine)
            order = sorted(hands)
            if second_deal_ahead:
                for s in order:
                    if len(hands[s]) == 2:
                        hands[s].extend(_draw(pool, 2, rand))
            if not second_exchange_done:
                discarded: list[int] = []
                for s in order:
                    held = hands[s]
                    if len(held) != 4:
                        continue
                    kept = play_table.best_keep(held)
                    n = 4 - len(kept)
                    if n:
                        if len(pool) < n:  # R8b: the discards come back
                            pool.extend(discarded)
                            discarded = []
                        discarded.extend(c for c in held if c not in kept)
                        hands[s] = [*kept, *_draw(pool, n, rand)]
            for s in order:
                if len(hands[s]) == 4:
                    final[s] = hand_key(hands[s])
            out.append(_Sample(weight, final, cards))
        return out

    # ------------------------------------------------------------------ evaluation

    def _evaluation(
        self, v: SeatView, spot: _Spot, samples: Sequence[_Sample], my_decl: Category | None
    ) -> Evaluation:
        """The samples as arrays, with each opponent's believed strength facing the
        declarations (``my_decl`` as this seat's)."""
        declared: list[Category | None] = list(v.declared) if v.rules.declarations else [None] * v.n
        if v.rules.declarations:
            declared[spot.me] = my_decl
        tables = [
            strength_table(canonical(_facing(declared, s, v.still_in))) for s in spot.opponents
        ]
        ahead = spot.exchange_ahead
        believed = np.array(
            [
                [
                    t.strength(x.cards[s], ahead[s])
                    for s, t in zip(spot.opponents, tables, strict=True)
                ]
                for x in samples
            ],
            dtype=np.float64,
        )
        return Evaluation(
            me=spot.me,
            opponents=spot.opponents,
            pot=spot.pot,
            stacks=spot.stacks,
            round_bets=spot.round_bets,
            ties_split=spot.ties_split,
            weights=np.array([x.weight for x in samples], dtype=np.float64),
            final=np.array([x.final for x in samples], dtype=np.int64),
            believed=believed,
            baseline=np.array([t.baseline for t in tables], dtype=np.float64),
        )

    def _bet_value(self, spot: _Spot, ev: Evaluation, to: int, fallback: int | None) -> float:
        """Mean value of raising the round's bet to ``to``; with votes (R8), where every
        voter would refuse, it is withdrawn: a bet of ``fallback`` instead."""
        values = ev.values(to)
        if fallback is not None and spot.votes and to > spot.current_bet:
            refused = ~ev.accepted(to, spot.round_bets[spot.me], spot.opponents)
            if refused.any():
                values = np.where(refused, ev.values(fallback), values)
        return ev.mean(values)

    def _candidates(self, v: SeatView, after_declaring: bool) -> list[tuple[str, int]]:
        """``(kind, round total)`` of each candidate action: f, c, b and r sizes. With
        ``after_declaring``, the moves the seat will have once it has declared (R4.5)."""
        assert v.legal is not None and v.seat is not None
        legal = stepped_legal(v)  # after a refusal: real steps, at most 3 re-bets (R8)
        me = v.seat
        fold, call, bet, raise_to = legal.fold, legal.call, legal.bet, legal.raise_to
        if after_declaring:
            stack, mine = v.stacks[me], v.round_bets[me]
            if v.current_bet is None:
                fold, call, bet, raise_to = False, None, (0, stack), None
            else:
                call = v.to_call
                low = v.current_bet + v.rules.min_raise
                raise_to = (low, mine + stack) if low <= mine + stack else None
        out: list[tuple[str, int]] = []
        if fold:
            out.append(("f", 0))
        if call is not None:
            out.append(("c", v.current_bet or 0))
        pot = v.pot_total
        if bet is not None:
            low, high = bet
            sizes = [low] + [int(pot * f) for f in BET_FRACTIONS]
            if high <= MAX_POT_MULTIPLE * pot:  # all-in only when it is not many pots
                sizes.append(high)
            out += [("b", a) for a in sorted({max(low, min(high, a)) for a in sizes})]
        if raise_to is not None and not _raised_this_round(v, me):
            low, high = raise_to
            current = v.current_bet or 0
            after_call = pot + (call or 0)
            sizes = [current + int(after_call * f) for f in RAISE_FRACTIONS]
            if high <= current + MAX_POT_MULTIPLE * after_call:
                sizes.append(high)
            out += [("r", a) for a in sorted({max(low, min(high, a)) for a in sizes})]
        return out

    def _best(
        self,
        v: SeatView,
        spot: _Spot,
        samples: Sequence[_Sample],
        my_decl: Category | None,
        after_declaring: bool = False,
    ) -> tuple[float, tuple[str, int]]:
        ev = self._evaluation(v, spot, samples, my_decl)
        candidates = self._candidates(v, after_declaring)
        smallest = min((a for k, a in candidates if k == "b"), default=None)
        best_value, best = float("-inf"), candidates[0]
        for kind, to in candidates:
            if kind == "f":
                value = 0.0
            elif kind == "b":
                value = self._bet_value(spot, ev, to, smallest)
            elif kind == "r":
                value = self._bet_value(spot, ev, to, spot.current_bet)
            else:
                value = ev.mean(ev.values(to))
            if value > best_value + 1e-9:
                best_value, best = value, (kind, to)
        return best_value, best

    def _act(
        self, v: SeatView, spot: _Spot, samples: Sequence[_Sample], my_decl: Category | None
    ) -> Action:
        _, (kind, to) = self._best(v, spot, samples, my_decl)
        me = spot.me
        if kind == "f":
            return Fold(me)
        if kind == "c":
            return Call(me)
        if kind == "b":
            return Bet(me, to)
        return Raise(me, to)

    def _declare(self, v: SeatView, spot: _Spot, samples: Sequence[_Sample]) -> Action:
        """Each allowed declaration (R6) scored by its best follow-up; fold without
        declaring (R4.5) when facing a bet and nothing beats 0 chips."""
        legal = v.legal
        assert legal is not None
        best_value, choice = float("-inf"), legal.declare[0]
        for category in legal.declare:
            value, _ = self._best(v, spot, samples, category, after_declaring=True)
            if value > best_value + 1e-9:
                best_value, choice = value, category
        if legal.fold and v.to_call > 0 and best_value < 0:
            return Fold(spot.me)
        return Declare(spot.me, choice)

    def _accepts(self, v: SeatView, spot: _Spot, samples: Sequence[_Sample]) -> bool:
        """R8 vote: accept when facing the bet is worth at least what refusing is worth
        (a refusal that a later voter overturns changes nothing; one that stands leaves
        the round's bet as it was)."""
        pending = v.pending_bet
        if pending is None:
            return True
        bettor, amount, _ = pending
        me = spot.me
        ev = self._evaluation(v, spot, samples, v.declared[me])
        n = v.n
        after = [(bettor + i) % n for i in range(1, n)]
        later = [s for s in after[after.index(me) + 1 :] if s in spot.opponents]
        facing = np.maximum(0.0, ev.values(amount, bettor))
        overturned = ev.accepted(amount, spot.round_bets[bettor], later)
        withdrawn = np.where(overturned, facing, ev.values(spot.current_bet))
        return ev.mean(facing) >= ev.mean(withdrawn)


def _raised_this_round(v: SeatView, seat: int) -> bool:
    """Whether ``seat`` may not raise now, as people at a friendly table do not: it raised
    already in the current betting round, or :data:`MAX_ROUND_RAISES` raises stand in it
    (no raise wars). Read from the public events (R9b)."""
    raises = 0
    for event in reversed(v.public_events):
        if event.kind in ("deal", "exchange"):
            break
        if event.kind == "raise":
            raises += 1
            if event.seat == seat:
                return True
    return raises >= MAX_ROUND_RAISES


def _draw(pool: list[int], count: int, rand: Callable[[], float]) -> tuple[int, ...]:
    """Remove ``count`` cards drawn uniformly from ``pool`` (random() only, R10)."""
    out: list[int] = []
    for _ in range(count):
        n = len(pool)
        i = min(int(rand() * n), n - 1)
        pool[i], pool[-1] = pool[-1], pool[i]
        out.append(pool.pop())
    return tuple(out)


def _facing(
    declared: Sequence[Category | None], seat: int, still_in: Sequence[int]
) -> list[Category | None]:
    """The declarations ``seat`` faces: one entry per other player still in."""
    return [declared[s] for s in still_in if s != seat]


def _aggression(v: SeatView) -> dict[int, str]:
    """Opponents who bet (more than 1 chip) or raised since they last got cards: ``"r"``
    for a raise, ``"b"`` for a bet (R5). Read from the public events (R9b)."""
    out: dict[int, str] = {}
    for event in v.public_events:
        seat = event.seat
        if event.kind == "deal":
            out.pop(seat, None)
            continue
        if seat == v.seat:
            continue
        if event.kind == "raise":
            out[seat] = "r"
        elif event.kind == "bet" and event.amount > 1:
            out.setdefault(seat, "b")
        elif event.kind == "exchange":
            out.pop(seat, None)
    return out
