"""A bot that plays by hand strength: exact exchange odds, opponent ranges and pot odds.

The bot reads only its :class:`~primero.engine.views.SeatView` (R9b): its own cards, its own
discards (dead cards it knows), the public bets, votes, declarations and exchanges.

Hand strength is a win probability ``w`` (:mod:`primero.bots.winmodel`): the chance that
its final hand beats every opponent it models, from the exact enumeration of its
exchanges (:func:`primero.engine.odds.exchange_outcomes`):

* two cards (first round, R4.3): the expected ``w`` over every draw, for keeping both
  cards (then the two-card second deal), one, or none;
* four cards before the second exchange (R4.5): the expected ``w`` of its best exchange;
* four cards after it (R4.7): ``w`` of the hand held.

Which opponents it models depends on the decision, each as a
:class:`~primero.bots.winmodel.Range`. To open (bet or exchange) it models every opponent
still in. To call, raise or vote on a bet (R5, R8) it models the players who are *in for
that bet*: the bettor or raiser, read by the size of its bet as a mix of value hands and
bluffs (:func:`~primero.bots.winmodel.bluff_share`: ``bet / (pot + 2 bet)``, so an all-in
of many pots is half bluffs and cannot make it fold its good hands), the players who
already matched it (half bluffs), and the players all-in. Players yet to answer the bet
are left out in the first round (two cards are worth little yet: most fold, and a caller
adds chips to the pot too) and count as folding half the time after it
(:data:`~primero.bots.winmodel.YET_FOLDS`). A declaration (R6) is the truth or higher, so
it caps an opponent's range from above and from nowhere else: a chorus says nothing.

Bets are a quarter to three fifths of the pot, growing with ``w``, capped by 8 to 25 %
of the stack (all in only with :data:`NUTS`); it raises at most once a round, and not
after two raises (a friendly table). A call is made when ``w`` beats the pot
odds (``call / (pot + call)``) by the margin ``caution``, with no big share of the stack
(:data:`BIG_CALL`) without a further margin. A vote (R8) accepts a bet exactly when the
bot would call or raise it at its turn, since letting a bet stand that it will not call
only gives the bettor its chips; and a bot that accepted a bet calls that same bet at its
turn (it folds only if a raise stood in between). Refused, it bets again in the real
steps of :mod:`primero.bots.refusals` (at most three re-bets a turn). Declarations are
truthful, or at ``bluff_rate`` (half the time with a numerus, which a true declaration
gives away) one of the higher categories. Randomness (R10) comes only from
``random.Random``'s ``random()`` method.

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> from primero.engine.views import view
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> action = HeuristicBot(seed=1)(view(s, 0))
>>> s.apply(action)   # always legal
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Final

from primero.bots.refusals import stepped_legal
from primero.bots.winmodel import (
    DECLARED_BLUFF,
    EXCHANGE_ALPHA,
    Opponent,
    Range,
    average_value,
    best_exchange,
    bluff_share,
    choose_exchange,
    first_round_values,
    win_ints,
    win_table,
)
from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import DECK, Card
from primero.engine.dealing import RandomSource
from primero.engine.hands import Category, evaluate
from primero.engine.state import LegalActions, Phase
from primero.engine.views import SeatView

__all__ = [
    "BIG_CALL",
    "DECLARED_BLUFF",
    "EXCHANGE_ALPHA",
    "HeuristicBot",
    "accepted_bet",
    "best_exchange",
    "win_table",
]

#: The win chance of "the nuts": only such a hand bets or raises its whole stack.
NUTS: Final = 0.95

#: A call of this share of the stack or more needs ``w`` of at least 0.3 and 0.05 above
#: the pot odds (no big call of the stack with a weak hand).
BIG_CALL: Final = 0.4


def accepted_bet(v: SeatView, seat: int) -> int | None:
    """The round total of the bet ``seat`` accepted by vote (R8) in the current betting
    round, if that bet still stands unchanged (no raise stood since); else None.

    Read from the public events (R9b): the betting round starts after the last deal or
    exchange; the accepted amount is that of the bet or raise voted on.

    Args:
        v: a view of the hand.
        seat: the 0-based seat.

    Returns:
        The accepted bet (chips, a round total) when it is the bet open now, else None.
    """
    log = v.public_events
    for i in range(len(log) - 1, -1, -1):
        event = log[i]
        if event.kind in ("deal", "exchange"):
            return None  # a deal or an exchange: an earlier round
        if event.seat == seat and event.kind == "vote" and event.accept:
            for j in range(i - 1, -1, -1):
                before = log[j]
                if before.kind in ("bet", "raise"):
                    return before.amount if v.current_bet == before.amount else None
            return None
    return None


def _raises_this_round(v: SeatView, seat: int) -> int:
    """How many raises ``seat`` made in the current betting round (public log, R9b); 1
    too when two raises by anyone stand in it already (no raise wars). Read from the
    public events."""
    count = raises = 0
    for event in reversed(v.public_events):
        if event.kind in ("deal", "exchange"):
            break
        if event.kind == "raise":
            raises += 1
            count += event.seat == seat
    return max(count, 1 if raises >= 2 else 0)


class HeuristicBot:
    """Plays by hand strength, pot odds and stack (see the module docstring).

    Args:
        seed: seed of its own ``random.Random`` (R10); None draws a fresh one.
        bluff_rate: chance (0..1) of declaring a category above its hand (R6; at least
            0.5 with a numerus), and half of it the chance of a bluff bet when opening
            with a weak hand.
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

    @staticmethod
    def _cap(v: SeatView, seat: int) -> Category | None:
        """The seat's declaration (R6: its hand was no higher), or None."""
        return v.declared[seat] if v.rules.declarations else None

    def _everyone(self, v: SeatView, me: int) -> list[Opponent]:
        """Every opponent still in: random hands, capped by their declarations."""
        return [Range(self._cap(v, s)) for s in v.still_in if s != me]

    def _in_for(
        self, v: SeatView, me: int, bettor: int, amount: int, pot: int | None = None
    ) -> list[Opponent]:
        """The opponents in for a bet of ``amount`` (round total) made by ``bettor``: the
        bettor (a mix of value and bluffs by the bet's size against ``pot``, the chips
        in the pots without the bet), those who already matched it (callers: half
        bluffs), those all-in, and after the first round those yet to answer it (see
        the module docstring)."""
        if pot is None:
            pot = v.pot_total - v.round_bets[bettor]
        out: list[Opponent] = []
        for s in v.still_in:
            if s == me:
                continue
            cap = self._cap(v, s)
            if amount > 0 and s == bettor:
                out.append(Range(cap, "bet", bluff_share(amount, pot)))
            elif amount > 0 and v.round_bets[s] >= amount:
                out.append(Range(cap, "bet", 0.5))
            elif s == bettor or v.stacks[s] == 0:
                out.append(Range(cap))
            elif v.phase is not Phase.FIRST_ROUND:
                out.append(Range(cap, "yet"))
        return out or [Range(self._cap(v, bettor))]

    def _strength(
        self, v: SeatView, me: int, opponents: Sequence[Opponent]
    ) -> tuple[float, tuple[Card, ...] | None, float]:
        """``(w, exchange, baseline)``: win chance against ``opponents``, the best exchange
        if one is to come, and the win chance of an average hand (for thresholds)."""
        if not opponents:
            opponents = [None]
        baseline = average_value(opponents)
        hand = v.hand
        if len(hand) == 2:
            return first_round_values(hand[0], hand[1], opponents)[0], None, baseline
        if len(hand) != 4:
            return baseline, None, baseline
        by_rank, by_key = win_ints(opponents)
        if v.phase in (Phase.DECLARE_ROUND, Phase.SECOND_EXCHANGE):
            # its own discards are dead (R9b); a discard back in hand (R8b) is not
            dead = tuple(c for c in DECK if c in v.discards and c not in hand)
            w, cards = choose_exchange(hand, dead, by_rank, 2)
            return w, cards, baseline
        return by_key[evaluate(hand).key] / (1 << 24), None, baseline

    def _bettor(self, v: SeatView) -> int:
        """The seat whose bet or raise is the one open now (the last that stood)."""
        current = v.current_bet or 0
        for event in reversed(v.public_events):
            if event.kind in ("bet", "raise") and event.amount == current:
                return event.seat
        return next(s for s in v.still_in if v.round_bets[s] == current)

    # ----------------------------------------------------------------- decisions

    def __call__(self, view: SeatView) -> Action:
        """Return a legal action for the seat of ``view`` (R4–R8).

        Raises:
            ValueError: the view is not this seat's move (``view.legal`` is None).
        """
        me = view.seat
        if view.legal is None or me is None:
            raise ValueError("HeuristicBot was asked to act outside its turn")
        legal = stepped_legal(view)  # after a refusal: real steps, at most 3 re-bets (R8)
        if legal.exchange and view.phase is Phase.SECOND_EXCHANGE:
            _, cards, _ = self._strength(view, me, self._everyone(view, me))
            return Exchange(me, cards or ())
        if view.phase is Phase.FIRST_ROUND and legal.exchange and view.current_bet is None:
            return self._first_round_open(view, me, legal)
        if legal.vote:
            return Vote(me, self._accepts(view, me))
        if legal.declare:
            # facing a bet, a hand that would not call folds without declaring (R4.5)
            if legal.fold and view.to_call > 0:
                w, baseline = self._facing_strength(view, me)
                if not self._continues(view, me, w, baseline):
                    return Fold(me)
            return Declare(me, self._declaration(legal.declare))
        if view.current_bet is None:
            w, _, baseline = self._strength(view, me, self._everyone(view, me))
            return self._open(view, me, legal, w, baseline)
        action = self._facing(view, me, legal)
        return action if action is not None else Fold(me)

    def _declaration(self, allowed: Sequence[Category]) -> Category:
        """The true category (``allowed[0]``, R6: never lower), or at ``bluff_rate`` (half
        the time with a numerus, which a true declaration would give away: it is the one
        declaration that bounds a hand tightly) one of the higher ones, uniformly."""
        rate = max(0.5, self.bluff_rate) if allowed[0] is Category.NUMERUS else self.bluff_rate
        if len(allowed) > 1 and self.rng.random() < rate:
            return allowed[1 + int(self.rng.random() * (len(allowed) - 1))]
        return allowed[0]

    def _first_round_open(self, v: SeatView, me: int, legal: LegalActions) -> Action:
        """No bet stands in the first round: bet on a strong pair, else exchange (R4.3)."""
        a, b = v.hand[0], v.hand[1]
        everyone = self._everyone(v, me) or [None]
        keep_both, keep_a, keep_b, keep_none = first_round_values(a, b, everyone)
        options: list[tuple[float, tuple[Card, ...]]] = []
        if 0 in legal.exchange:
            options.append((keep_both, ()))
        if 1 in legal.exchange:
            options += [(keep_a, (b,)), (keep_b, (a,))]
        if 2 in legal.exchange:
            options.append((keep_none, (a, b)))
        best_value, discard = max(options, key=lambda o: o[0])
        baseline = average_value(everyone)
        if legal.bet is not None and keep_both >= best_value and keep_both > baseline:
            return Bet(me, self._bet_size(v, me, legal.bet, keep_both, baseline))
        return Exchange(me, discard)

    def _bet_size(
        self, v: SeatView, me: int, bounds: tuple[int, int], w: float, baseline: float
    ) -> int:
        """A bet of a share of the pot growing with strength, capped by a share of the
        stack (chips), within ``bounds``."""
        low, high = bounds
        edge = max(0.0, min(1.0, (w - baseline) / max(1e-9, 1.0 - baseline)))
        size = v.pot_total * self.aggression * (0.25 + 0.35 * edge)  # 1/4 to 3/5 of the pot
        stack = v.stacks[me]
        # a share of the stack, as at a friendly table: the whole stack only with the nuts
        share = 0.08 if edge < 0.25 else 0.15 if edge < 0.5 else 0.25
        if edge >= 0.9 and w >= NUTS:
            share = 1.0
        amount = int(min(size, stack * share))
        return max(low, min(high, amount))

    def _open(self, v: SeatView, me: int, legal: LegalActions, w: float, baseline: float) -> Action:
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

    def _call_ok(self, stack: int, pot: int, call: int, w: float, baseline: float) -> bool:
        """Whether a call of ``call`` chips into ``pot`` chips (the bet included) is worth
        it with win chance ``w``: the pot odds ``call / (pot + call)`` plus ``caution``,
        and no call of :data:`BIG_CALL` of the ``stack`` or more without ``w`` >= 0.35
        and 0.1 above the pot odds. A token call (1 chip or 2% of the stack) with a hand
        not far below average (0.7 ``baseline``) is fine: the pot is then too small for
        pot odds to mean much (e.g. with no ante)."""
        if call <= 0:
            return True
        if call <= max(1, stack // 50) and w >= baseline * 0.7:
            return True
        need = call / (pot + call)
        if w < need + self.caution:
            return False
        return not (call >= stack * BIG_CALL and w < max(0.3, need + 0.05))

    def _raise_to(
        self,
        v: SeatView,
        me: int,
        raise_to: tuple[int, int] | None,
        call: int,
        w: float,
        baseline: float,
    ) -> int | None:
        """A raise (round total, chips) with a strong hand, or None."""
        if raise_to is None or w < max(0.55, baseline * 2.2):
            return None
        low, high = raise_to
        current = v.current_bet or 0
        pot_after = v.pot_total + call
        edge = max(0.0, min(1.0, (w - baseline) / max(1e-9, 1.0 - baseline)))
        if _raises_this_round(v, me):
            return None  # one raise a round, as people at a friendly table
        target = current + int(pot_after * self.aggression * (0.25 + 0.35 * edge))
        all_in_ok = edge >= 0.9 and w >= NUTS
        total_cap = v.round_bets[me] + int(
            v.stacks[me] * (0.15 if edge < 0.6 else 1.0 if all_in_ok else 0.25)
        )
        to = max(low, min(high, target, total_cap))
        return to if low <= to <= high and to <= total_cap else None

    def _facing(self, v: SeatView, me: int, legal: LegalActions) -> Action | None:
        """Facing an open bet: raise, call or check, or None to fold (R5). A bet this
        seat accepted by vote and that still stands is called (or raised), never folded.
        """
        w, baseline = self._facing_strength(v, me)
        to = self._raise_to(v, me, legal.raise_to, v.to_call, w, baseline)
        if to is not None:
            return Raise(me, to)
        if legal.call is not None and self._continues(v, me, w, baseline):
            return Call(me)
        return None

    def _facing_strength(self, v: SeatView, me: int) -> tuple[float, float]:
        """``(w, baseline)`` against the opponents in for the open bet."""
        current = v.current_bet or 0
        w, _, baseline = self._strength(v, me, self._in_for(v, me, self._bettor(v), current))
        return w, baseline

    def _continues(self, v: SeatView, me: int, w: float, baseline: float) -> bool:
        """Whether to stay in against the open bet: a check, a bet it accepted by vote
        (still standing), a strong hand, or a call with the odds (:meth:`_call_ok`)."""
        call = v.to_call
        if call == 0 or accepted_bet(v, me) is not None:
            return True
        if self._strong(w, baseline, call, v.pot_total):
            return True
        return self._call_ok(v.stacks[me], v.pot_total, call, w, baseline)

    def _strong(self, w: float, baseline: float, call: int, pot: int) -> bool:
        """A hand strong enough to raise (``w`` >= 0.55 and 2.2 times the average hand's),
        which also beats the pot odds of the call (``call`` chips into ``pot``)."""
        return w >= max(0.55, baseline * 2.2) and w >= call / max(1, pot + call) + self.caution

    def _accepts(self, v: SeatView, me: int) -> bool:
        """R8 vote: let the pending bet stand exactly when the bot would call or raise it
        at its turn (the same pot odds as :meth:`_facing`, against the bettor and those
        all-in); an all-in voter, who cannot be asked for chips, welcomes a bet with a hand
        at least average."""
        pending = v.pending_bet
        if pending is None:
            return True
        bettor, amount, _ = pending
        opponents = self._in_for(v, me, bettor, amount, v.pot_total)
        w, _, baseline = self._strength(v, me, opponents)
        if v.stacks[me] == 0:
            return w >= baseline
        call = min(amount - v.round_bets[me], v.stacks[me])
        pot = v.pot_total + amount - v.round_bets[bettor]
        if self._strong(w, baseline, call, pot):  # it would raise, or at least call
            return True
        return self._call_ok(v.stacks[me], pot, call, w, baseline)
