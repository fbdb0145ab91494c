"""Tournaments between bot kinds: seeded, rotated, split into units any engine can run (R10).

A tournament of ``B`` entrants at a table of ``P`` seats is a list of **units**. Unit
``u`` is one seeded deal played once per **seating** ``r`` of a balanced design
(:mod:`primero.research.seating`: every entrant meets every other equally often, in
every two seats; a duplicate match: every seating gets the same dealer seed, so luck of
the cards largely cancels). The design is made over the entrants sorted by name, so
nothing depends on the order they were given in. Over a unit each entrant plays the
same number of seat-hands (:attr:`TournamentConfig.seat_hands_per_unit`). Every hand
starts from fresh stacks (``stack`` chips each, standard rules unless given): hands are
independent, and so are units.

Everything random in unit ``u`` (the dealer, each bot) is seeded from ``(seed, u, r, s)``
alone (SHA-256 of the text, R10), so a unit's result does not depend on which process,
worker or machine plays it, nor on the order units are played: ``--workers 1``,
``--workers 2`` and Ray give identical results. Results are aggregated in unit order.

Statistics: the per-unit mean chips of an entrant per seat-hand are independent and equally
distributed across units; the mean over ``U`` units, times 100, is the kind's chips
won per 100 hands, and its 95 % confidence interval is ``mean +- t(0.975, U-1) * sd /
sqrt(U)`` (Student's t; :func:`t975`), also times 100.

This module is pure (no Ray, no matplotlib, no printing); the ``primero tournament``
command (:mod:`primero.cli.commands_tournament`) runs units in processes or on Ray,
draws the plots and prints the table.

>>> cfg = TournamentConfig(bots=("random", "heuristic"), hands=4, seed=1, players=4)
>>> units = [play_unit(cfg, u) for u in range(cfg.units)]
>>> [len(u.net) for u in units], sum(sum(u.net[b]) for u in units for b in range(2))
([2, 2], 0)
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Final

from primero.bots import BOT_KINDS
from primero.engine.actions import Action
from primero.engine.dealing import Dealer
from primero.engine.errors import IllegalActionError
from primero.engine.match import Agent, play_hand
from primero.engine.rules import DEFAULT_RULES, Rules
from primero.research.seating import design_name, seatings
from primero.research.tournament_agents import (
    CFR,
    CheckedAgent,
    check_entrant,
    is_import_path,
    make_agent,
)

__all__ = [
    "BotResult",
    "TournamentConfig",
    "TournamentResult",
    "UnitResult",
    "check_bots",
    "chunks",
    "mean_ci",
    "play_unit",
    "play_units",
    "summarize",
    "t975",
    "unit_seed",
]

#: Student's t quantile t(0.975, df) for df = 1..30 (the tables' three decimals).
_T975: Final = (
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.160,
    2.145,
    2.131,
    2.120,
    2.110,
    2.101,
    2.093,
    2.086,
    2.080,
    2.074,
    2.069,
    2.064,
    2.060,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
)
_Z975: Final = 1.959963984540054

if TYPE_CHECKING:
    from primero.engine.state import HandState


def t975(df: int) -> float:
    """Student's t quantile at 0.975 for ``df`` degrees of freedom (two-sided 95 %).

    Tabled for df <= 30; beyond, the Cornish-Fisher expansion in ``1/df`` (within 0.001
    of the exact value).

    Raises:
        ValueError: ``df`` < 1.

    >>> t975(1), t975(30), round(t975(1000), 3)
    (12.706, 2.042, 1.962)
    """
    if df < 1:
        raise ValueError(f"a t quantile needs df >= 1, not {df}")
    if df <= 30:
        return _T975[df - 1]
    z = _Z975
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def mean_ci(values: Sequence[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its two-sided 95 % confidence interval (Student's t).

    Returns:
        ``(mean, low, high)``; with a single value the interval is that value.

    Raises:
        ValueError: no values.

    >>> [round(x, 4) for x in mean_ci([1.0, 2.0, 3.0])]  # sd 1: 2 +- 4.303 / sqrt(3)
    [2.0, -0.4843, 4.4843]
    """
    n = len(values)
    if n == 0:
        raise ValueError("a mean needs at least one value")
    mean = math.fsum(values) / n
    if n == 1:
        return mean, mean, mean
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t975(n - 1) * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _kinds_text(preset: str) -> str:
    """The entrants allowed, in words: the bot kinds (cfr with the mini preset) and agents."""
    kinds = [*BOT_KINDS, CFR] if preset == "mini" else list(BOT_KINDS)
    text = f"the kinds are {', '.join(kinds[:-1])} and {kinds[-1]}"
    if preset != "mini":
        text += f" ({CFR} too, with --preset mini)"
    return text + ", or an agent by import path (module:Name)"


def _example(bots: Sequence[str]) -> str:
    """Two or more distinct entrants like ``bots``: its kinds once each, and a built-in kind
    added when that leaves fewer than two (``random,heuristic`` for ``random``)."""
    kinds = list(dict.fromkeys(bots))
    kinds += [k for k in BOT_KINDS if k not in kinds][: max(0, 2 - len(kinds))]
    return ",".join(kinds)


def check_bots(bots: Sequence[str], preset: str = "") -> None:
    """Check a tournament's entrants: each a bot kind (:data:`primero.bots.BOT_KINDS`;
    ``cfr`` with the mini preset only) or an agent by import path that loads, each named
    once, and at least two of them (the field is rotated among the entrants and the matrix
    pairs them: with one entrant every result would be zero).

    Args:
        bots: the entrants' names, in order.
        preset: ``""`` (the full game) or ``"mini"``.

    Raises:
        ValueError: an unknown kind, an import path that does not load, ``cfr`` without the
            mini preset, a name given twice, or fewer than two entrants; the message says
            what was wrong, gives an example and lists the kinds.

    >>> check_bots(("random", "heuristic"))
    >>> check_bots(("random",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: a tournament needs at least two kinds of bot, not only random: --bots random,...
    """
    for kind in bots:
        if kind == CFR:
            if preset != "mini":
                raise ValueError(
                    "the cfr bot plays Mini-Primero only: give the mini preset (--preset mini)"
                )
            continue
        check_entrant(kind)
    twice = [k for i, k in enumerate(bots) if k in bots[:i]]
    if twice:
        raise ValueError(
            f"{twice[0]} is named more than once: a tournament plays each kind of bot once "
            f"(rotated over the seats), and needs at least two different kinds: "
            f"--bots {_example(bots)}, for example; {_kinds_text(preset)}"
        )
    if len(bots) < 2:
        given = f"only {bots[0]}" if bots else "none"
        raise ValueError(
            f"a tournament needs at least two kinds of bot, not {given}: "
            f"--bots {_example(bots)}, for example; {_kinds_text(preset)}"
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class TournamentConfig:
    """What a tournament plays (everything that decides its results).

    Attributes:
        bots: distinct entrants, at least two (:func:`check_bots`): bot kinds
            (:data:`primero.bots.BOT_KINDS`) or agents by import path, ``"module:Name"``
            (:mod:`primero.research.tournament_agents`).
        hands: hands wanted (>= 1); rounded up to whole units, one deal in every
            seating of the design (:attr:`hands_played`, :meth:`rounding`).
        seed: the tournament seed (>= 0, R10).
        players: seats at the table (2..``rules.max_players``, R3).
        stack: chips each seat starts every hand with (>= 1, and more than the ante
            with the rules' ``min_raise`` in reach: :meth:`Rules.check_stacks`).
        rules: the house rules (default: the standard game).
        search_samples: samples per decision of search bots (None: their default).
        preset: ``""`` (the game given by the attributes above) or ``"mini"``
            (Mini-Primero, :mod:`primero.research.mini`: ``players``, ``stack`` and
            ``rules`` must then be the preset's, 2, 2 and ``MINI_RULES``); the ``cfr``
            bot (:mod:`primero.research.cfrbot`) is an entrant of the mini preset only.

    Raises:
        ValueError: any attribute out of range; the message says what is allowed.
        primero.research.seating.DesignError: (a ValueError) no balanced seating of the
            entrants at ``players`` seats fits ``hands``; the message says why.
    """

    bots: tuple[str, ...]
    hands: int
    seed: int
    players: int = 4
    stack: int = 100
    rules: Rules = field(default=DEFAULT_RULES)
    search_samples: int | None = None
    preset: str = ""

    def __post_init__(self) -> None:
        if self.preset not in ("", "mini"):
            raise ValueError(f"preset must be '' (the full game) or 'mini', not {self.preset!r}")
        if self.preset == "mini":
            from primero.research.mini import MINI_PLAYERS, MINI_RULES, MINI_STACK

            if (self.players, self.stack, self.rules) != (MINI_PLAYERS, MINI_STACK, MINI_RULES):
                raise ValueError(
                    f"the mini preset fixes the table: {MINI_PLAYERS} players, stacks of "
                    f"{MINI_STACK} chips and its own rules"
                )
        check_bots(self.bots, self.preset)
        if self.hands < 1:
            raise ValueError(f"hands must be at least 1, not {self.hands}")
        if self.seed < 0:
            raise ValueError(f"the seed must be >= 0, not {self.seed}")
        if not 2 <= self.players <= self.rules.max_players:
            raise ValueError(
                f"players must be from 2 to {self.rules.max_players} (R3), not {self.players}"
            )
        if self.stack < 1:
            raise ValueError(f"the stack must be at least 1 chip, not {self.stack}")
        self.rules.check_stacks([self.stack] * self.players)  # RulesError, a ValueError
        if self.search_samples is not None and self.search_samples < 1:
            raise ValueError(f"search samples must be at least 1, not {self.search_samples}")
        seatings(self.bots, self.players, self.hands)  # DesignError when none fits

    @property
    def seatings(self) -> tuple[tuple[str, ...], ...]:
        """The seatings of a deal (:func:`primero.research.seating.seatings`): entry
        ``[r][s]`` is the entrant at seat ``s`` in the unit's hand ``r``."""
        return seatings(self.bots, self.players)

    @property
    def seat_hands_per_unit(self) -> int:
        """Seat-hands each entrant plays in a unit (the same for all: the design is
        balanced)."""
        return self.rotations * self.players // len(self.bots)

    @property
    def rotations(self) -> int:
        """Hands per unit: one per seating of the design."""
        return len(self.seatings)

    @property
    def units(self) -> int:
        """Units played: ``ceil(hands / rotations)``."""
        return -(-self.hands // self.rotations)

    @property
    def hands_played(self) -> int:
        """Hands actually played (whole units)."""
        return self.units * self.rotations

    def rounding(self) -> str | None:
        """Why more hands are played than asked, in words; None when exactly ``hands`` are.

        A unit is one deal played once per seating of the balanced design, so that every
        entrant meets every other equally often in every two seats: only whole units are
        played, and the hands played are ``hands`` rounded up to a multiple of the
        design's seatings.

        >>> TournamentConfig(bots=("random", "heuristic", "search"), hands=200, seed=1,
        ...                  players=2, stack=2).rounding()  # doctest: +ELLIPSIS
        '204 hands, not the 200 asked: rounded up to a multiple of 6, the seatings of...'
        """
        if self.hands_played == self.hands:
            return None
        b = self.rotations
        return (
            f"{self.hands_played:,} hands, not the {self.hands:,} asked: rounded up to a "
            f"multiple of {b}, the seatings of {len(self.bots)} entrants at "
            f"{self.players} seats, because each deal is played once in every seating, so "
            f"that every entrant meets every other equally often in every two seats"
        )

    @property
    def effective_search_samples(self) -> int | None:
        """Samples per decision of the search bots (None when no search bot plays)."""
        if "search" not in self.bots:
            return None
        if self.search_samples is not None:
            return self.search_samples
        from primero.bots.search import DEFAULT_SAMPLES

        return DEFAULT_SAMPLES

    def pair(self, a: str, b: str) -> TournamentConfig:
        """The same tournament between two of its entrants only (two seats each at 4
        seats: every unit seats them ``a b a b`` and ``b a b a``, the two sorted by name),
        with the same seeds, hence the same deals (R10)."""
        return replace(self, bots=(a, b))

    def settings(self) -> dict[str, Any]:
        """The settings as JSON values."""
        rules = self.rules
        return {
            "bots": list(self.bots),
            "players": self.players,
            "stack": self.stack,
            "rotations": self.rotations,
            "seating": {
                "design": design_name(len(self.bots), self.players),
                "seatings_per_deal": self.rotations,
                "seat_hands_per_entrant_per_deal": self.seat_hands_per_unit,
                "order": "entrants sorted by name; results do not depend on the order given",
            },
            "units": self.units,
            "search_samples": self.effective_search_samples,
            "preset": self.preset,
            "rules": {
                name: value
                for name, value in rules.to_mapping().items()
                if name not in ("min_players", "max_players")
            },
        }


def unit_seed(seed: int, *parts: int) -> int:
    """A 63-bit seed derived from the tournament seed and indices (SHA-256, R10).

    >>> unit_seed(1, 2) == unit_seed(1, 2) != unit_seed(2, 1)
    True
    """
    text = "/".join(str(p) for p in (seed, *parts))
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big") >> 1


@dataclass(frozen=True, slots=True)
class UnitResult:
    """One unit's result.

    Attributes:
        unit: its index.
        net: per entrant (in ``bots`` order), its chips won in each seating's hand
            (summed over the seats it held; negative: lost).
    """

    unit: int
    net: tuple[tuple[int, ...], ...]


def play_unit(config: TournamentConfig, unit: int) -> UnitResult:
    """Play unit ``unit``: one seeded deal once per seating (see the module docstring).

    Raises:
        ValueError: ``unit`` outside ``0..config.units - 1``.
        primero.research.tournament_agents.AgentError: an agent by import path raised,
            returned no move, or returned a move the rules refuse (one sentence naming
            the agent, the hand and its seat).
    """
    if not 0 <= unit < config.units:
        raise ValueError(f"unit must be from 0 to {config.units - 1}, not {unit}")
    from primero.engine.state import HandState

    bots = config.bots
    players = [f"p{s + 1}" for s in range(config.players)]
    deal_seed = unit_seed(config.seed, unit)
    net = [[0] * config.rotations for _ in bots]
    for rotation, kinds in enumerate(config.seatings):
        hand = unit * config.rotations + rotation + 1
        agents: list[Agent] = [
            _checked(
                kind,
                make_agent(
                    kind,
                    unit_seed(config.seed, unit, rotation, seat),
                    players=config.players,
                    stack=config.stack,
                    rules=config.rules,
                    search_samples=config.search_samples,
                    preset=config.preset,
                ),
                f"hand {hand} of the tournament between {', '.join(bots)} "
                f"(seed {config.seed}, seat {players[seat]})",
            )
            for seat, kind in enumerate(kinds)
        ]
        watchers = [a.observe for a in agents if hasattr(a, "observe")]

        def tell(state: HandState, action: Action, watchers: list[Any] = watchers) -> None:
            for observe in watchers:
                observe(state, action)

        state = HandState(players, [config.stack] * config.players, config.rules)
        try:
            if config.preset == "mini":
                _play_mini(state, Dealer.seeded(deal_seed), agents, tell)
            else:
                play_hand(
                    state,
                    Dealer.seeded(deal_seed),
                    agents,
                    on_action=tell if watchers else None,
                )
        except IllegalActionError as exc:
            culprit = agents[state.to_act] if state.to_act is not None else None
            if not isinstance(culprit, CheckedAgent):
                raise
            raise culprit.fail(
                f"returned {culprit.last!r}, which is not legal now: {exc}"
            ) from None
        if state.result is None:  # a mini hand stopped at its void deal: no chips move
            continue
        for seat, kind in enumerate(kinds):
            net[bots.index(kind)][rotation] += state.result.net[seat]
    return UnitResult(unit, tuple(tuple(n) for n in net))


def _play_mini(
    state: HandState,
    dealer: Dealer,
    agents: Sequence[Agent],
    on_action: Callable[[HandState, Action], None],
) -> None:
    """Play a Mini-Primero hand (:mod:`primero.research.mini`) as the environments do:
    the stock kept to the preset's deck, the second exchange stood pat, and the hand
    stopped at its first void deal (R4.3) with no result (every seat's net 0, as the
    environments' truncation). Each agent's move is checked by the engine.

    Raises:
        IllegalActionError: an agent's move is not legal (the hand is left before it).
    """
    from primero.engine.views import view
    from primero.research.mini import MINI_MAX_VOID_DEALS, forced_move, restrict_stock

    while not state.complete and state.void_deals < MINI_MAX_VOID_DEALS:
        if state.stock_count == 40:  # a new hand (R4.3: a void deal ends it here)
            restrict_stock(state)
        action: Action
        if state.deals_due:
            action = dealer.deal(state)
            state.apply_unchecked(action)  # drawn from the engine's pool (R8b)
        else:
            forced = forced_move(state)
            if forced is None:
                seat = state.to_act
                assert seat is not None
                action = agents[seat](view(state, seat))
                state.apply(action)
            else:
                action = forced
                state.apply_unchecked(forced)
        on_action(state, action)


def _checked(kind: str, agent: Agent, where: str) -> Agent:
    """An agent by import path wrapped in its checks; a built-in bot as it is."""
    return CheckedAgent(kind, agent, where) if is_import_path(kind) else agent


def play_units(config: TournamentConfig, start: int, stop: int) -> list[UnitResult]:
    """Units ``start..stop-1`` in order (a chunk of work for a process or a Ray task)."""
    return [play_unit(config, u) for u in range(start, stop)]


@dataclass(frozen=True, slots=True)
class BotResult:
    """One bot kind's result.

    Attributes:
        bot: the kind.
        seat_hands: hands it played, counting each seat it held.
        chips: chips it won in all (negative: lost).
        per_100: chips won per 100 seat-hands.
        ci_low, ci_high: the 95 % confidence interval of ``per_100``.
    """

    bot: str
    seat_hands: int
    chips: int
    per_100: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finished tournament: the config, each kind's result and each kind's cumulative
    chips after each hand (for plots; hand ``i`` is rotation ``i mod B`` of unit
    ``i // B``)."""

    config: TournamentConfig
    bots: tuple[BotResult, ...]
    cumulative: tuple[tuple[int, ...], ...]

    def to_json(self) -> dict[str, Any]:
        """The contents of ``results.json`` (identical whatever engine played it)."""
        from primero.research.benchmark import benchmark_of

        cfg = self.config
        bench = benchmark_of(cfg.players, cfg.stack, cfg.rules, cfg.preset)
        return {
            "seed": cfg.seed,
            "hands": cfg.hands_played,
            "hands_requested": cfg.hands,
            "benchmark": None if bench is None else bench.to_json(),
            "settings": cfg.settings(),
            "bots": [
                {
                    "bot": b.bot,
                    "seat_hands": b.seat_hands,
                    "chips": b.chips,
                    "chips_per_100_hands": round(b.per_100, 6),
                    "ci95": [round(b.ci_low, 6), round(b.ci_high, 6)],
                }
                for b in self.bots
            ],
        }


def summarize(config: TournamentConfig, units: Sequence[UnitResult]) -> TournamentResult:
    """Aggregate unit results (in unit order, whatever order they came in).

    Raises:
        ValueError: the units are not exactly ``0..config.units - 1``.
    """
    ordered = sorted(units, key=lambda r: r.unit)
    if [r.unit for r in ordered] != list(range(config.units)):
        raise ValueError(f"expected the results of units 0..{config.units - 1}")
    results: list[BotResult] = []
    cumulative: list[tuple[int, ...]] = []
    for b, kind in enumerate(config.bots):
        per_unit = [sum(r.net[b]) / config.seat_hands_per_unit for r in ordered]
        mean, low, high = mean_ci(per_unit)
        running, series = 0, []
        for r in ordered:
            for chips in r.net[b]:
                running += chips
                series.append(running)
        results.append(
            BotResult(
                bot=kind,
                seat_hands=config.units * config.seat_hands_per_unit,
                chips=running,
                per_100=100 * mean,
                ci_low=100 * low,
                ci_high=100 * high,
            )
        )
        cumulative.append(tuple(series))
    return TournamentResult(config, tuple(results), tuple(cumulative))


def chunks(units: int, size: int) -> list[tuple[int, int]]:
    """``(start, stop)`` of consecutive chunks of at most ``size`` units.

    >>> chunks(5, 2)
    [(0, 2), (2, 4), (4, 5)]
    """
    return [(start, min(units, start + size)) for start in range(0, units, size)]
