"""Named, versioned benchmark configurations: what a published figure was measured on.

A result that says ``primero-4p-v1`` was measured on exactly that table: the seats, the
starting stacks, the house rules (R1-R10 with the options of :class:`primero.Rules`),
the preset, the cut-off for void deals (R4.3) and the scale of the rewards. A version is
never changed once published: a different table is a new name or a new version.

``results.json`` of ``primero tournament`` records the configuration its table matches
(``"benchmark"``, or null), and ``primero tournament --benchmark NAME`` plays it.

>>> BENCHMARKS["primero-4p-v1"].players, BENCHMARKS["primero-mini-v1"].stack
(4, 2)
>>> benchmark_of(4, 100, DEFAULT_RULES, "").name
'primero-4p-v1'
>>> benchmark_of(3, 100, DEFAULT_RULES, "") is None
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from primero.engine.rules import DEFAULT_RULES, Rules

__all__ = ["BENCHMARKS", "Benchmark", "benchmark_of", "get_benchmark"]


@dataclass(frozen=True, slots=True, kw_only=True)
class Benchmark:
    """One benchmark configuration.

    Attributes:
        name: ``"primero-4p-v1"``: the game, the table, the version.
        version: the version number in the name.
        players: seats at the table (R3).
        stack: every seat's starting chips, every hand.
        rules: the house rules (:class:`primero.Rules`).
        preset: ``""`` (the full game) or ``"mini"`` (:mod:`primero.research.mini`).
        max_void_deals: the void deal (R4.3) at which the environments cut a hand off
            (every return 0, ``truncated``).
        reward_scale: the chips one unit of reward stands for: a return is the seat's
            final stack minus its starting stack (the ante included), divided by this.
        about: one line on what it is for.
    """

    name: str
    version: int
    players: int
    stack: int
    rules: Rules
    preset: str
    max_void_deals: int
    reward_scale: float
    about: str

    def to_json(self) -> dict[str, Any]:
        """The configuration as JSON values (``results.json``'s ``"benchmark"``)."""
        r = self.rules
        return {
            "name": self.name,
            "version": self.version,
            "players": self.players,
            "stack": self.stack,
            "preset": self.preset,
            "max_void_deals": self.max_void_deals,
            "reward": "chips won in the hand (final minus starting stack), divided by reward_scale",
            "reward_scale": self.reward_scale,
            "rules": {
                "ante": r.ante,
                "ties": r.ties,
                "refusal": r.refusal,
                "last_round": r.last_round,
                "declarations": r.declarations,
                "first_round_stand": r.first_round_stand,
                "first_round_zero_bet": r.first_round_zero_bet,
                "min_raise": r.min_raise,
                "max_raises": r.max_raises,
            },
            "about": self.about,
        }


def _mini() -> Benchmark:
    from primero.research.mini import MINI_MAX_VOID_DEALS, MINI_PLAYERS, MINI_RULES, MINI_STACK

    return Benchmark(
        name="primero-mini-v1",
        version=1,
        players=MINI_PLAYERS,
        stack=MINI_STACK,
        rules=MINI_RULES,
        preset="mini",
        max_void_deals=MINI_MAX_VOID_DEALS,
        reward_scale=1.0,
        about="Mini-Primero: 2 players, stacks of 2, the 8 aces and sevens; solved by "
        "CFR+ (exact exploitability)",
    )


#: The published configurations by name.
BENCHMARKS: Final[dict[str, Benchmark]] = {
    "primero-4p-v1": Benchmark(
        name="primero-4p-v1",
        version=1,
        players=4,
        stack=100,
        rules=DEFAULT_RULES,
        preset="",
        max_void_deals=20,
        reward_scale=1.0,
        about="the full game: 4 seats, 100 chips each, the standard rules",
    ),
    "primero-mini-v1": _mini(),
}


def get_benchmark(name: str) -> Benchmark:
    """The configuration called ``name``.

    Raises:
        ValueError: no such name; the message lists the names.
    """
    try:
        return BENCHMARKS[name]
    except KeyError:
        raise ValueError(
            f"no benchmark called {name!r}: the benchmarks are {', '.join(BENCHMARKS)}"
        ) from None


def benchmark_of(players: int, stack: int, rules: Rules, preset: str) -> Benchmark | None:
    """The published configuration a table matches, or None."""
    for b in BENCHMARKS.values():
        if (b.players, b.stack, b.rules, b.preset) == (players, stack, rules, preset):
            return b
    return None
