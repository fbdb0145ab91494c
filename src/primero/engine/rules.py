"""The house rules in force for a hand or a match (R3–R8b), validated on construction.

>>> Rules().ante, Rules().ties
(1, 'eldest')
>>> Rules(ties="split", ante=0).ties
'split'
>>> Rules(min_players=7, max_players=6)
Traceback (most recent call last):
...
primero.engine.rules.RulesError: min_players (7) must not exceed max_players (6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Literal

__all__ = ["DEFAULT_RULES", "Rules", "RulesError"]


class RulesError(ValueError):
    """A house rule with an unknown name, a wrong type or a value out of range."""


_BOOL_RULES: Final = (
    "refusal",
    "last_round",
    "declarations",
    "first_round_stand",
    "first_round_zero_bet",
)


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """House rules (rules.md; defaults are the project's standard game).

    Attributes:
        ante: chips each player antes per hand (R4.1), >= 0; default 1.
        ties: ``"eldest"`` (the tied player earliest in seat order takes the pot) or
            ``"split"`` (equal shares, odd chips from p1) (R7); default eldest.
        refusal: bets may be refused by vote (R8); default on.
        last_round: play the last betting round (R4.7); default on.
        declarations: players declare a category in round 2 (R6); default on.
        first_round_stand: standing pat is allowed in round 1 (R4.3); default off.
        first_round_zero_bet: a bet of 0 is allowed in round 1 (R4.3); default off.
        min_raise: chips a raise must add to the current bet, >= 1 (R5); default 1.
        max_raises: cap on raises per betting round, >= 0, or None for no cap (R5).
        min_players, max_players: players at the start of a match, 2 <= min <= max <= 8
            (R3); defaults 4 and 6. A hand may hold 2 to max_players players.

    Raises:
        RulesError: on construction, for a value of the wrong type (a bool is not an
            integer) or out of range.
    """

    ante: int = 1
    ties: Literal["eldest", "split"] = "eldest"
    refusal: bool = True
    last_round: bool = True
    declarations: bool = True
    first_round_stand: bool = False
    first_round_zero_bet: bool = False
    min_raise: int = 1
    max_raises: int | None = None
    min_players: int = 4
    max_players: int = 6

    def __post_init__(self) -> None:
        _check_int("ante", self.ante, 0)
        if self.ties not in ("eldest", "split"):
            raise RulesError(f"ties must be 'eldest' or 'split', not {self.ties!r}")
        for name in _BOOL_RULES:
            value = getattr(self, name)
            if type(value) is not bool:
                raise RulesError(f"{name} must be true or false, not {value!r}")
        _check_int("min_raise", self.min_raise, 1)
        if self.max_raises is not None:
            _check_int("max_raises", self.max_raises, 0)
        _check_int("min_players", self.min_players, 2, 8)
        _check_int("max_players", self.max_players, 2, 8)
        if self.min_players > self.max_players:
            raise RulesError(
                f"min_players ({self.min_players}) must not exceed max_players ({self.max_players})"
            )

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> Rules:
        """Build rules from a record's ``rules`` table (docs/record-format.md).

        Args:
            data: rule names to values; absent keys take the defaults. A ``max_raises``
                of None means no cap.

        Returns:
            The validated rules.

        Raises:
            RulesError: an unknown key, or a wrong type or value.
        """
        known = {f.name for f in fields(cls)}
        for key in data:
            if key not in known:
                raise RulesError(f"unknown rule {key!r}: the rules are {', '.join(sorted(known))}")
        return cls(**dict(data))

    def overrides(self) -> dict[str, Any]:
        """The rules that differ from the defaults, as a record writes them.

        Returns:
            A dict of rule name to value, in declaration order; ``max_raises`` is present
            only when it is a number.
        """
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(DEFAULT_RULES, f.name):
                out[f.name] = value
        return out

    def check_match_players(self, count: int) -> None:
        """Check the number of players a match starts with (R3: ``min_players`` to
        ``max_players``).

        Raises:
            RulesError: ``count`` is outside min_players..max_players.
        """
        if not self.min_players <= count <= self.max_players:
            raise RulesError(
                f"a match starts with {self.min_players} to {self.max_players} players "
                f"(min_players/max_players), not {count}"
            )

    def check_players(self, count: int) -> None:
        """Check a hand's number of players (R3: 2 to ``max_players``).

        Raises:
            RulesError: ``count`` is outside 2..max_players.
        """
        if not 2 <= count <= self.max_players:
            raise RulesError(
                f"a hand holds 2 to {self.max_players} players (max_players), not {count}"
            )

    def check_stacks(self, stacks: Sequence[int]) -> None:
        """Check that these rules and starting stacks make a game (R4.1, R5), for a match
        or a table before its first hand.

        A game needs at least two players with chips left after the ante (otherwise every
        hand is all-in on the ante and nobody ever bets), and a raise of ``min_raise``
        must be within reach of someone (otherwise no raise could ever be made). The
        other house rules (refusal, declarations, the last round, the first-round
        options, ``max_raises``, the tie rule) make a game with any stacks. A single hand
        may still hold players with no more than the ante (R4.1): this check is for the
        start of a match.

        Args:
            stacks: each player's starting stack (chips, whole numbers >= 1).

        Raises:
            RulesError: fewer than two stacks exceed the ante, or ``min_raise`` is more
                than the largest stack minus the ante; the message names the numbers.
        """
        behind = sorted((chips - self.ante for chips in stacks), reverse=True)
        if len(behind) < 2 or behind[1] < 1:
            ranked = sorted(stacks, reverse=True)
            second = ranked[1] if len(ranked) > 1 else ranked[0] if ranked else 0
            raise RulesError(
                f"the ante ({_chips(self.ante)}) must be less than the starting stack "
                f"({_chips(second)}) of at least two players: otherwise everyone is all-in "
                "on the ante and nobody can bet (R4.1)"
            )
        if self.min_raise > behind[0]:
            raise RulesError(
                f"min_raise ({_chips(self.min_raise)}) is more than any player holds after "
                f"the ante ({_chips(behind[0])}): no raise could ever be made (R5); "
                f"use a min_raise of at most {behind[0]}"
            )


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _check_int(name: str, value: object, low: int, high: int | None = None) -> None:
    if type(value) is not int:
        raise RulesError(f"{name} must be a whole number, not {value!r}")
    if value < low or (high is not None and value > high):
        bound = f"at least {low}" if high is None else f"from {low} to {high}"
        raise RulesError(f"{name} must be {bound}, not {value}")


#: The standard game: every rule at its default.
DEFAULT_RULES: Final = Rules()
