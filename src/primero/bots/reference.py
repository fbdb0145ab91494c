"""The reference agent: a small trained network over hand-strength features, in NumPy.

Every money decision (bet, raise, call, fold, vote, declaration; R4-R8) is a choice among
a few **moves** (:data:`MOVES`): fold, call or check, a bet or raise of the least, a
quarter, half or one pot, all-in, accept or refuse a bet, declare the truth or higher,
exchange. The agent describes the moment by :data:`FEATURES` numbers read from its seat's
view only (R9b): the win chance ``w`` of :class:`~primero.bots.heuristic.HeuristicBot`'s
model against the opponents who matter (every opponent still in to open; the bettor and
those in for the bet to call, raise or vote), the average hand's chance, the pot odds,
the pot and the call against its stack, the phase, the kind of decision, the bet's size,
the raises this round, the declarations it faces. A two-layer network (``tanh``) scores
each move; the legal moves are drawn by their softmax with the agent's own
``random.Random`` (R10), so it mixes (a pure policy is easier to exploit).

Exchanges, where the odds are exact (R4.3, R4.7), are the heuristic bot's: the one
with the best expected win chance. The weights are data (``bots/data/reference.json``),
trained by ``tools/train_reference.py`` (docs/research.md, "The reference agent"): a
decision costs well under a millisecond (``benchmarks/bench_reference.py``).

>>> from primero.engine.state import HandState
>>> from primero.engine.dealing import Dealer
>>> from primero.engine.views import view
>>> s = HandState(["Ana", "Ben", "Cleo", "Dev"], [20, 20, 20, 20])
>>> Dealer.seeded(1).deal_into(s)
>>> s.apply(ReferenceBot(seed=1)(view(s, 0)))   # always legal
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Final

import numpy as np
import numpy.typing as npt

from primero.bots.heuristic import HeuristicBot, _raises_this_round, accepted_bet
from primero.bots.refusals import stepped_legal
from primero.bots.winmodel import average_value, first_round_values
from primero.engine.actions import Action, Bet, Call, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import Card
from primero.engine.dealing import RandomSource
from primero.engine.hands import evaluate
from primero.engine.legal import LegalActions
from primero.engine.state import Phase
from primero.engine.views import SeatView

__all__ = ["FEATURES", "MOVES", "Decision", "Policy", "ReferenceBot", "decide", "load_policy"]

#: The moves the network scores, by index.
MOVES: Final = (
    "fold",
    "call",  # call or check
    "least",  # the least bet or raise allowed
    "quarter",  # a bet of 1/4 pot, or a raise to the bet plus 1/4 pot
    "half",
    "pot",
    "all-in",  # the most allowed
    "accept",  # R8 vote
    "refuse",
    "declare",  # the true category (R6)
    "declare higher",  # a higher category, drawn uniformly
    "exchange",  # the heuristic bot's best exchange (first round, R4.3)
)

#: Pot fractions of the sized moves (``quarter``, ``half``, ``pot``).
_FRACTIONS: Final = ((3, 0.25), (4, 0.5), (5, 1.0))

#: The numbers describing a decision, by index (see the module docstring).
FEATURES: Final = (
    "bias",
    "w",
    "baseline",
    "w - baseline",
    "pot odds",
    "w - pot odds",
    "call / stack",
    "pot / stack",
    "stack / starting stack",
    "share of players in",
    "first round",
    "declare round",
    "last round",
    "kind: first-round open",
    "kind: open",
    "kind: facing a bet",
    "kind: vote",
    "kind: declare",
    "bet / pot",
    "raises this round",
    "accepted this bet",
    "highest declaration faced",
    "own category",
    "exchange value",
)


@dataclass(frozen=True)
class Policy:
    """The network's weights: ``tanh(x @ w1 + b1) @ w2 + b2`` gives a score per move.

    Attributes:
        w1: ``(len(FEATURES), hidden)`` float64.
        b1: ``(hidden,)``.
        w2: ``(hidden, len(MOVES))``.
        b2: ``(len(MOVES),)``.
    """

    w1: npt.NDArray[np.float64]
    b1: npt.NDArray[np.float64]
    w2: npt.NDArray[np.float64]
    b2: npt.NDArray[np.float64]

    def scores(self, x: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The score of each move (``len(MOVES)``) for features ``x``."""
        out: npt.NDArray[np.float64] = np.tanh(x @ self.w1 + self.b1) @ self.w2 + self.b2
        return out

    def to_json(self) -> dict[str, list[list[float]] | list[float]]:
        """The weights as JSON lists (the format of ``bots/data/reference.json``)."""
        return {
            "w1": self.w1.tolist(),
            "b1": self.b1.tolist(),
            "w2": self.w2.tolist(),
            "b2": self.b2.tolist(),
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Policy:
        """The policy of :meth:`to_json`'s output.

        Raises:
            ValueError: a shape does not fit :data:`FEATURES` and :data:`MOVES`.
        """
        w1 = np.asarray(data["w1"], dtype=np.float64)
        b1 = np.asarray(data["b1"], dtype=np.float64)
        w2 = np.asarray(data["w2"], dtype=np.float64)
        b2 = np.asarray(data["b2"], dtype=np.float64)
        hidden = b1.shape[0] if b1.ndim == 1 else -1
        if (
            w1.shape != (len(FEATURES), hidden)
            or w2.shape != (hidden, len(MOVES))
            or b2.shape != (len(MOVES),)
        ):
            raise ValueError(
                f"reference weights of shapes {w1.shape}, {b1.shape}, {w2.shape}, "
                f"{b2.shape} do not fit {len(FEATURES)} features and {len(MOVES)} moves"
            )
        return cls(w1, b1, w2, b2)


@cache
def load_policy() -> Policy:
    """The shipped weights (``primero/bots/data/reference.json``), read once."""
    text = resources.files("primero.bots").joinpath("data/reference.json").read_text()
    return Policy.from_json(json.loads(text)["policy"])


@dataclass(frozen=True)
class Decision:
    """One decision as the network sees it: the features and the legal moves.

    Attributes:
        features: ``len(FEATURES)`` float64.
        options: ``(move index, action)`` of each legal move, no action twice.
    """

    features: npt.NDArray[np.float64]
    options: tuple[tuple[int, Action], ...]


def _sized(low: int, high: int, amount: float) -> int:
    return max(low, min(high, int(amount)))


def _add(options: list[tuple[int, Action]], move: int, action: Action) -> None:
    if all(action != a for _, a in options):
        options.append((move, action))


class ReferenceBot(HeuristicBot):
    """The reference agent (see the module docstring).

    Args:
        seed: seed of its own ``random.Random`` (R10); None draws a fresh one.
        policy: the weights (default: the shipped ones, :func:`load_policy`).
        greedy: play the best-scored move instead of drawing one (for analysis).
        rng: a random source to use instead of ``seed``.

    Raises:
        ValueError: (when called) the view is not this seat's move.
    """

    name = "reference"

    def __init__(
        self,
        seed: int | None = None,
        policy: Policy | None = None,
        *,
        greedy: bool = False,
        rng: RandomSource | None = None,
    ) -> None:
        super().__init__(seed, rng=rng)
        self.policy = policy if policy is not None else load_policy()
        self.greedy = greedy

    def __call__(self, view: SeatView) -> Action:
        """Return a legal action for the seat of ``view`` (R4-R8).

        Raises:
            ValueError: the view is not this seat's move (``view.legal`` is None).
        """
        decision = self.decision(view)
        if isinstance(decision, Action):
            return decision
        return decision.options[self.choose(decision)][1]

    def choose(self, decision: Decision) -> int:
        """The index in ``decision.options`` of the move played (drawn by softmax)."""
        scores = self.policy.scores(decision.features)
        picked = [float(scores[m]) for m, _ in decision.options]
        if self.greedy:
            return max(range(len(picked)), key=picked.__getitem__)
        top = max(picked)
        weights = [math.exp(s - top) for s in picked]
        r = self.rng.random() * sum(weights)
        for i, weight in enumerate(weights):
            r -= weight
            if r < 0:
                return i
        return len(weights) - 1

    def decision(self, v: SeatView) -> Decision | Action:
        """The decision at this view, or the action itself where there is no choice for
        the network (an exchange, a forced move).

        Raises:
            ValueError: the view is not this seat's move.
        """
        me = v.seat
        if v.legal is None or me is None:
            raise ValueError("ReferenceBot was asked to act outside its turn")
        legal = stepped_legal(v)
        if legal.exchange and v.phase is Phase.SECOND_EXCHANGE:
            _, cards, _ = self._strength(v, me, self._everyone(v, me))
            return Exchange(me, cards or ())
        options: list[tuple[int, Action]] = []
        x = np.zeros(len(FEATURES))
        if v.phase is Phase.FIRST_ROUND and legal.exchange and v.current_bet is None:
            a, b = v.hand[0], v.hand[1]
            everyone = self._everyone(v, me) or [None]
            values = first_round_values(a, b, everyone)
            choices: list[tuple[float, tuple[Card, ...]]] = []
            if 0 in legal.exchange:
                choices.append((values[0], ()))
            if 1 in legal.exchange:
                choices += [(values[1], (b,)), (values[2], (a,))]
            if 2 in legal.exchange:
                choices.append((values[3], (a, b)))
            best, discard = max(choices, key=lambda o: o[0])
            options.append((11, Exchange(me, discard)))
            w, base = values[0], average_value(everyone)
            x[13] = 1.0
            x[23] = best
            self._bets(v, me, legal, options)
            return self._done(v, me, x, w, base, 0, options)
        if legal.vote:
            pending = v.pending_bet
            assert pending is not None
            bettor, amount, _ = pending
            opponents = self._in_for(v, me, bettor, amount, v.pot_total)
            w, _, base = self._strength(v, me, opponents)
            call = min(amount - v.round_bets[me], v.stacks[me])
            x[16] = 1.0
            x[18] = (amount - v.round_bets[bettor]) / max(1, v.pot_total)
            options += [(7, Vote(me, True)), (8, Vote(me, False))]
            pot = v.pot_total + amount - v.round_bets[bettor]  # the bet, if it stands
            return self._done(v, me, x, w, base, call, options, pot)
        if legal.declare:
            if v.to_call > 0:
                w, base = self._facing_strength(v, me)
            else:
                w, _, base = self._strength(v, me, self._everyone(v, me))
            x[17] = 1.0
            options.append((9, Declare(me, legal.declare[0])))
            if len(legal.declare) > 1:
                up = legal.declare[1 + int(self.rng.random() * (len(legal.declare) - 1))]
                options.append((10, Declare(me, up)))
            if legal.fold and v.to_call > 0:
                options.append((0, Fold(me)))
            return self._done(v, me, x, w, base, v.to_call, options)
        if v.current_bet is None:
            if legal.bet is None:
                return super().__call__(v)  # no bet allowed: exchange, call or fold
            w, _, base = self._strength(v, me, self._everyone(v, me))
            x[14] = 1.0
            self._bets(v, me, legal, options)
            return self._done(v, me, x, w, base, 0, options)
        w, base = self._facing_strength(v, me)
        x[15] = 1.0
        x[18] = (v.current_bet or 0) / max(1, v.pot_total)
        if legal.fold:
            options.append((0, Fold(me)))
        if legal.call is not None:
            options.append((1, Call(me)))
        if legal.raise_to is not None:
            low, high = legal.raise_to
            current = v.current_bet or 0
            pot_after = v.pot_total + v.to_call
            _add(options, 2, Raise(me, low))
            for move, fraction in _FRACTIONS:
                _add(options, move, Raise(me, _sized(low, high, current + pot_after * fraction)))
            _add(options, 6, Raise(me, high))
        if not options:
            return super().__call__(v)
        return self._done(v, me, x, w, base, v.to_call, options)

    @staticmethod
    def _bets(v: SeatView, me: int, legal: LegalActions, options: list[tuple[int, Action]]) -> None:
        if legal.bet is None:
            return
        low, high = legal.bet
        _add(options, 2, Bet(me, low))
        for move, fraction in _FRACTIONS:
            _add(options, move, Bet(me, _sized(low, high, v.pot_total * fraction)))
        _add(options, 6, Bet(me, high))

    def _done(
        self,
        v: SeatView,
        me: int,
        x: npt.NDArray[np.float64],
        w: float,
        base: float,
        call: int,
        options: list[tuple[int, Action]],
        pot: int | None = None,
    ) -> Decision | Action:
        """The decision of these options, with the features of the moment (``pot``:
        the chips in the pots a call would join, default all of them now)."""
        if len(options) == 1:
            return options[0][1]
        stack = v.stacks[me]
        start = max(1, stack + v.contributed[me])
        if pot is None:
            pot = v.pot_total
        need = call / (pot + call) if call > 0 else 0.0
        x[0] = 1.0
        x[1] = w
        x[2] = base
        x[3] = w - base
        x[4] = need
        x[5] = w - need
        x[6] = min(1.0, call / max(1, stack)) if call > 0 else 0.0
        x[7] = min(4.0, pot / start)
        x[8] = stack / start
        x[9] = len(v.still_in) / v.n
        x[10] = v.phase is Phase.FIRST_ROUND
        x[11] = v.phase is Phase.DECLARE_ROUND
        x[12] = v.phase is Phase.LAST_ROUND
        x[19] = min(2, _raises_this_round(v, me))
        x[20] = accepted_bet(v, me) is not None
        faced = [int(c) + 1 for s, c in enumerate(v.declared) if c is not None and s != me]
        x[21] = max(faced, default=0) / 5
        if len(v.hand) == 4:
            x[22] = (int(evaluate(v.hand).category) + 1) / 5
        return Decision(x, tuple(options))


def decide(bot: ReferenceBot, view: SeatView) -> tuple[Action, Decision | None, int]:
    """The bot's action with the decision and the option index behind it (for training):
    ``(action, None, -1)`` where the network had no choice."""
    decision = bot.decision(view)
    if isinstance(decision, Action):
        return decision, None, -1
    i = bot.choose(decision)
    return decision.options[i][1], decision, i
