"""Local best response (Lisý and Bowling 2017): a lower bound on an agent's exploitability.

An **exploiter** plays one seat against the agent in every other seat of a
``python_primero`` table (OpenSpiel; the extra ``research``). At each of its decisions it
plays the action with the best expected chips, where

- the **belief** over the cards it cannot see is a set of :attr:`LBRConfig.particles`
  states drawn behind its information
  (:meth:`primero.research.openspiel.PrimeroState.resample_from_infostate`: the same
  information state, every hidden card drawn anew), each weighted by the likelihood of
  the agent's own past decisions in it (Bayes' rule on the agent's policy; the
  probability of each decision is estimated from :attr:`LBRConfig.likelihood_samples`
  seeded copies of the agent, smoothed by half a count so no state is ruled out by
  sampling noise);
- the **value** of an action in a state is the exploiter's chips at the end of the hand
  played on from it, the agent answering as itself and the exploiter then **checking
  and calling** (and accepting every bet under vote, R8) to the end, as LBR assumes, with
  its exchanges and declarations (R4.6, R6) those of the heuristic bot. Every action is
  scored on the same states with the same cards to come (common random numbers).

The seats rotate: hand ``h`` puts the exploiter in seat ``h mod players``. Its mean
winnings per hand are an estimate of what *one* strategy (the LBR policy) wins against
the agent; a best response wins at least as much, so in a two-player zero-sum game whose
seats are rotated (value 0) the mean is a **lower bound on the agent's exploitability**
(OpenSpiel's ``exploitability``: the mean over seats of a best response's gain, chips a
hand), up to its sampling error, given as a 95 % interval (Student's t over the hands).
With more players it bounds what one deviating seat can take from the rest.

Everything is seeded from :attr:`LBRConfig.seed` and the hand's number (R10), so a
hand's result does not depend on the order hands are played in.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from primero.bots import make_bot
from primero.engine.match import Agent
from primero.engine.views import view
from primero.research.actionids import id_of
from primero.research.tournament import mean_ci, unit_seed
from primero.research.tournament_agents import CFR, check_entrant, make_agent

__all__ = ["LBRConfig", "LBRResult", "candidates", "lbr_hand", "run_lbr"]

_FOLD, _CALL, _ACCEPT = 0, 1, 2


@dataclass(frozen=True, slots=True, kw_only=True)
class LBRConfig:
    """What an LBR run measures.

    Attributes:
        agent: a bot kind (:data:`primero.bots.BOT_KINDS`; ``cfr`` with the mini preset)
            or an agent by import path (a class or function of a seat view).
        hands: hands to play (>= 2: an interval needs two).
        seed: the run's seed (>= 0, R10).
        players: seats (2..8, R3); the mini preset fixes 2.
        stack: every seat's starting chips (the mini preset fixes 2).
        preset: ``""`` or ``"mini"`` (Mini-Primero, :mod:`primero.research.mini`).
        particles: states in the exploiter's belief at each decision (>= 1).
        likelihood_samples: seeded copies of the agent asked at each of its past
            decisions to weigh a state (0: every state weighs the same).
        search_samples: samples per decision of a search agent (None: its default).

    Raises:
        ValueError: any attribute out of range, or an agent that does not load; the
            message says what is allowed.
    """

    agent: str
    hands: int
    seed: int = 1
    players: int = 2
    stack: int = 100
    preset: str = ""
    particles: int = 8
    likelihood_samples: int = 8
    search_samples: int | None = None

    def __post_init__(self) -> None:
        if self.preset not in ("", "mini"):
            raise ValueError(f"preset must be '' (the full game) or 'mini', not {self.preset!r}")
        if self.agent == CFR:
            if self.preset != "mini":
                raise ValueError("the cfr bot plays Mini-Primero only: give --preset mini")
        else:
            check_entrant(self.agent)
        if self.preset == "mini" and (self.players, self.stack) != (2, 2):
            raise ValueError("the mini preset fixes the table: 2 players, stacks of 2 chips")
        if self.hands < 2:
            raise ValueError(f"hands must be at least 2 (for an interval), not {self.hands}")
        if self.seed < 0:
            raise ValueError(f"the seed must be >= 0, not {self.seed}")
        if not 2 <= self.players <= 8:
            raise ValueError(f"players must be from 2 to 8 (R3), not {self.players}")
        if self.stack < 2:
            raise ValueError(f"the stack must be at least 2 chips, not {self.stack}")
        if self.particles < 1:
            raise ValueError(f"particles must be at least 1, not {self.particles}")
        if self.likelihood_samples < 0:
            raise ValueError(f"likelihood samples must be 0 or more, not {self.likelihood_samples}")

    def settings(self) -> dict[str, Any]:
        """The settings as JSON values."""
        return {
            "agent": self.agent,
            "hands": self.hands,
            "seed": self.seed,
            "players": self.players,
            "stack": self.stack,
            "preset": self.preset,
            "particles": self.particles,
            "likelihood_samples": self.likelihood_samples,
            "search_samples": self.search_samples,
        }


@cache
def _game(players: int, stack: int, preset: str) -> Any:
    import pyspiel

    import primero.research.openspiel  # noqa: F401  (registers python_primero)

    params: dict[str, Any] = {"preset": "mini"} if preset else {"players": players, "stack": stack}
    return pyspiel.load_game("python_primero", params)


def _agent(config: LBRConfig, seed: int) -> Agent:
    from primero.engine.rules import DEFAULT_RULES

    rules = DEFAULT_RULES
    if config.preset == "mini":
        from primero.research.mini import MINI_RULES

        rules = MINI_RULES
    agent = make_agent(
        config.agent,
        seed,
        players=config.players,
        stack=config.stack,
        rules=rules,
        search_samples=config.search_samples,
        preset=config.preset,
    )
    if hasattr(agent, "observe"):
        raise ValueError(
            f"agent {config.agent!r} is a pyspiel.Bot: LBR asks a callable of a seat view"
        )
    return agent


def _answer(agent: Agent, state: Any, stack: int) -> int:
    """The agent's action id at ``state`` (its seat's view only, R9b)."""
    seen = view(state.hand, state.current_player())
    return id_of(agent(seen), hand=seen.hand, max_stack=stack)


def candidates(legal: Sequence[int], pot: int, stack: int) -> list[int]:
    """The exploiter's actions tried at a decision: every id but bets and raises, and of
    those the least, about half the pot, about the pot, and the most.

    >>> candidates([0, 1, *range(21, 121)], pot=10, stack=100)  # bets of 1..100 chips
    [0, 1, 21, 25, 30, 120]
    """
    small = [a for a in legal if a < 20]
    bets = [a for a in legal if 20 <= a <= 20 + stack]
    raises = [a for a in legal if a > 20 + stack]
    out = list(small)
    for group, base in ((bets, 20), (raises, 21 + stack)):
        if not group:
            continue
        picks = {group[0], group[-1]}
        for share in (0.5, 1.0):
            want = base + round(share * pot)
            picks.add(min(group, key=lambda a: (abs(a - want), a)))
        out += sorted(picks)
    return out


def _calling(state: Any, me: int, helper: Agent, stack: int) -> int:
    """The exploiter's move after its decision: check or call, accept a bet under vote,
    else (an exchange or a declaration) the heuristic bot's."""
    legal = state.legal_actions()
    if _CALL in legal:
        return _CALL
    if _ACCEPT in legal:
        return _ACCEPT
    return _answer(helper, state, stack)


def _play_out(config: LBRConfig, state: Any, me: int, seed: int) -> float:
    """The exploiter's chips at the end of the hand played on from ``state``."""
    rand = random.Random(seed)
    agents: dict[int, Agent] = {}
    helper = make_bot("heuristic", unit_seed(seed, me))
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rand.choices(outcomes, probs)[0])
            continue
        seat = state.current_player()
        if seat == me:
            state.apply_action(_calling(state, me, helper, config.stack))
            continue
        if seat not in agents:
            agents[seat] = _agent(config, unit_seed(seed, seat))
        state.apply_action(_answer(agents[seat], state, config.stack))
    return float(state.returns()[me])


def _likelihood(config: LBRConfig, particle: Any, me: int, seed: int) -> float:
    """How likely the agent's past decisions are in ``particle`` (module docstring)."""
    samples = config.likelihood_samples
    if samples == 0:
        return 1.0
    game = _game(config.players, config.stack, config.preset)
    state = game.new_initial_state()
    weight = 1.0
    for step, action in enumerate(particle.history()):
        if not state.is_chance_node() and state.current_player() != me:
            hits = sum(
                _answer(_agent(config, unit_seed(seed, step, k)), state, config.stack) == action
                for k in range(samples)
            )
            weight *= (hits + 0.5) / (samples + 0.5)
        state.apply_action(action)
    return weight


def _decide(config: LBRConfig, state: Any, me: int, seed: int) -> int:
    """The LBR action at ``state`` (module docstring)."""
    seen = view(state.hand, me)
    tried = candidates(state.legal_actions(), seen.pot_total, config.stack)
    if len(tried) == 1:
        return tried[0]
    rand = random.Random(seed)
    particles = [state.resample_from_infostate(me, rand.random) for _ in range(config.particles)]
    weights = [_likelihood(config, p, me, unit_seed(seed, i)) for i, p in enumerate(particles)]
    total = sum(weights)
    best, best_value = tried[0], float("-inf")
    for action in tried:
        value = 0.0
        for i, (particle, weight) in enumerate(zip(particles, weights, strict=True)):
            child = particle.clone()
            child.apply_action(action)
            value += weight * _play_out(config, child, me, unit_seed(seed, 1_000 + i))
        value /= total
        if value > best_value:
            best, best_value = action, value
    return best


def lbr_hand(config: LBRConfig, hand: int) -> float:
    """The exploiter's chips won in hand ``hand`` (seat ``hand mod players``).

    Raises:
        ValueError: ``hand`` outside ``0..config.hands - 1``.
    """
    if not 0 <= hand < config.hands:
        raise ValueError(f"hand must be from 0 to {config.hands - 1}, not {hand}")
    me = hand % config.players
    game = _game(config.players, config.stack, config.preset)
    rand = random.Random(unit_seed(config.seed, hand))
    agents = {
        s: _agent(config, unit_seed(config.seed, hand, s)) for s in range(config.players) if s != me
    }
    state = game.new_initial_state()
    decision = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rand.choices(outcomes, probs)[0])
        elif state.current_player() == me:
            decision += 1
            seed = unit_seed(config.seed, hand, 100 + decision)
            state.apply_action(_decide(config, state, me, seed))
        else:
            state.apply_action(_answer(agents[state.current_player()], state, config.stack))
    return float(state.returns()[me])


@dataclass(frozen=True, slots=True)
class LBRResult:
    """An LBR run: the exploiter's chips per hand with its 95 % interval.

    Attributes:
        config: what was run.
        per_hand: the exploiter's chips in each hand, in hand order.
        mean, low, high: their mean and its 95 % interval (Student's t).
    """

    config: LBRConfig
    per_hand: tuple[float, ...]
    mean: float
    low: float
    high: float

    def to_json(self) -> dict[str, Any]:
        """The result as JSON values."""
        return {
            "method": "local best response (Lisy and Bowling 2017), rollout values, "
            "check/call after the decision",
            "settings": self.config.settings(),
            "lower_bound_chips_per_hand": round(self.mean, 6),
            "ci95": [round(self.low, 6), round(self.high, 6)],
            "per_hand": list(self.per_hand),
        }


def run_lbr(config: LBRConfig, progress: Callable[[int], None] | None = None) -> LBRResult:
    """Play every hand of ``config`` in order and summarize (``progress(1)`` after each).

    Raises:
        ValueError: the agent is a ``pyspiel.Bot`` (LBR asks a callable of a seat view).
        primero.research.tournament_agents.AgentError: never: an agent's illegal move
            is an ``IllegalActionError``-derived ``ValueError`` from the OpenSpiel state.
    """
    values = []
    for hand in range(config.hands):
        values.append(lbr_hand(config, hand))
        if progress is not None:
            progress(1)
    mean, low, high = mean_ci(values)
    return LBRResult(config, tuple(values), mean, low, high)
