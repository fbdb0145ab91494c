"""The house rules in force for a hand or a match (R3–R8b), validated on construction.

Each rule is declared once, here: its field carries its default and a :class:`RuleInfo`
(label, help, bounds or choices, rule section). The server's schema, the command-line
options, the lobby's form (``GET /api/rules``), OpenSpiel's parameters, the tournament
settings, the environments' keywords and the docs' table are made from :data:`RULES`.

>>> Rules().ante, Rules().ties
(1, 'eldest')
>>> Rules(ties="split", ante=0).ties
'split'
>>> Rules(min_players=7, max_players=6)
Traceback (most recent call last):
...
primero.engine.rules.RulesError: min_players (7) must not exceed max_players (6)
>>> [spec.name for spec in RULES][:3]
['ante', 'ties', 'refusal']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Final, Literal

__all__ = ["DEFAULT_RULES", "RULES", "RuleInfo", "RuleSpec", "Rules", "RulesError"]


class RulesError(ValueError):
    """A house rule with an unknown name, a wrong type or a value out of range."""


@dataclass(frozen=True, slots=True)
class RuleInfo:
    """What a house rule means, as every front end shows it.

    Attributes:
        label: a short name for a form ("Minimum raise").
        help: one sentence a player reads, ending with a full stop.
        section: the rules.md section it changes ("R5").
        low, high: a whole-number rule's bounds (inclusive; None: unbounded).
        choices: a choice rule's values (the default first).
        unit: ``"chips"`` for an amount of chips, else ``""``.
        off: for an on/off rule that is on by default: what switching it off means (the
            command line's ``--no-...`` flag).
        none: for a whole-number rule that may be None: what None means ("no cap").
    """

    label: str
    help: str
    section: str
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    unit: str = ""
    off: str = ""
    none: str = ""


@dataclass(frozen=True, slots=True)
class RuleSpec:
    """One house rule as declared on :class:`Rules`: its name, default, kind and words.

    Attributes:
        name: the field's name, as records and the server write it (``"min_raise"``).
        default: its default value.
        kind: ``"int"``, ``"bool"`` or ``"choice"``.
        info: its :class:`RuleInfo`.
    """

    name: str
    default: Any
    kind: Literal["int", "bool", "choice"]
    info: RuleInfo

    @property
    def optional(self) -> bool:
        """A whole-number rule that may be None (``max_raises``)."""
        return self.kind == "int" and self.default is None

    def check(self, value: object) -> None:
        """Check one value of this rule.

        Raises:
            RulesError: a wrong type (a bool is not a whole number) or a value out of
                range or not among the choices, in words that name the rule.
        """
        if self.kind == "bool":
            if type(value) is not bool:
                raise RulesError(f"{self.name} must be true or false, not {value!r}")
        elif self.kind == "choice":
            if value not in self.info.choices:
                said = " or ".join(repr(c) for c in self.info.choices)
                raise RulesError(f"{self.name} must be {said}, not {value!r}")
        elif not (value is None and self.optional):
            _check_int(self.name, value, self.info.low or 0, self.info.high)

    def to_json(self) -> dict[str, Any]:
        """The rule as the lobby's form reads it (``GET /api/rules``): ``key``, ``type``,
        ``default``, ``min``, ``max``, ``choices``, ``label``, ``help``, ``section``."""
        return {
            "key": self.name,
            "type": self.kind,
            "default": self.default,
            "min": self.info.low,
            "max": self.info.high,
            "choices": list(self.info.choices),
            "label": self.info.label,
            "help": self.info.help,
            "section": self.info.section,
        }


def _rule(default: Any, info: RuleInfo) -> Any:
    return field(default=default, metadata={"rule": info})


@dataclass(frozen=True, kw_only=True, slots=True)
class Rules:
    """House rules (rules.md; defaults are the project's standard game).

    Each field's :class:`RuleInfo` (``dataclasses.fields(Rules)[i].metadata["rule"]``,
    or :data:`RULES`) says what it changes, its bounds and its rules.md section; the
    docs' table of house rules is made from them.

    Raises:
        RulesError: on construction, for a value of the wrong type (a bool is not an
            integer) or out of range, or ``min_players`` above ``max_players``.
    """

    ante: int = _rule(
        1,
        RuleInfo(
            "Ante",
            "Chips each player puts in the pot before the first deal.",
            "R4.1",
            low=0,
            unit="chips",
        ),
    )
    ties: Literal["eldest", "split"] = _rule(
        "eldest",
        RuleInfo(
            "Ties",
            "eldest (among equal best hands the first in seat order takes the pot) or "
            "split (the tied players share it).",
            "R7",
            choices=("eldest", "split"),
        ),
    )
    refusal: bool = _rule(
        True,
        RuleInfo(
            "Bets may be refused",
            "With three or more players still in, the others may vote to refuse a bet of "
            "more than 0.",
            "R8",
            off="Bets cannot be refused.",
        ),
    )
    last_round: bool = _rule(
        True,
        RuleInfo(
            "Last betting round",
            "A betting round after the second exchange.",
            "R4.7",
            off="No betting after the second exchange.",
        ),
    )
    declarations: bool = _rule(
        True,
        RuleInfo(
            "Declarations",
            "Each player declares a category before betting in the second round.",
            "R6",
            off="No declarations.",
        ),
    )
    first_round_stand: bool = _rule(
        False,
        RuleInfo(
            "Stand pat in round 1",
            "In the first round a player may keep both cards instead of betting or exchanging.",
            "R4.3",
        ),
    )
    first_round_zero_bet: bool = _rule(
        False,
        RuleInfo(
            "Bet 0 in round 1",
            "In the first round an opening bet of 0 chips is allowed; it stands without a vote.",
            "R4.3",
        ),
    )
    min_raise: int = _rule(
        1,
        RuleInfo(
            "Minimum raise",
            "A raise must add at least this many chips to the bet.",
            "R5",
            low=1,
            unit="chips",
        ),
    )
    bet_limit: Literal["none", "pot"] = _rule(
        "none",
        RuleInfo(
            "Bet limit",
            "none (a bet or raise may be any amount up to the stack) or pot (no bet or "
            "raise beyond the pot after calling).",
            "R5",
            choices=("none", "pot"),
        ),
    )
    max_raises: int | None = _rule(
        None,
        RuleInfo(
            "Raises per round",
            "The most raises in one betting round.",
            "R5",
            low=0,
            none="no cap",
        ),
    )
    min_players: int = _rule(
        4,
        RuleInfo(
            "Fewest players",
            "Fewest players to start a match, at most max_players.",
            "R3",
            low=2,
            high=8,
        ),
    )
    max_players: int = _rule(
        6,
        RuleInfo("Most players", "Most players at the table.", "R3", low=2, high=8),
    )

    def __post_init__(self) -> None:
        for spec in RULES:
            spec.check(getattr(self, spec.name))
        if self.bet_limit == "pot" and self.ante == 0:
            raise RulesError(
                "bet_limit 'pot' needs an ante of at least 1 chip: with nothing in the pot "
                "no bet could be made (R5)"
            )
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

    def to_mapping(self) -> dict[str, Any]:
        """Every rule by name, in declaration order (a tournament's settings, a game's
        parameters); ``max_raises`` is None when there is no cap.

        >>> Rules(ante=2).to_mapping()["ante"]
        2
        """
        return {spec.name: getattr(self, spec.name) for spec in RULES}

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


def _specs() -> tuple[RuleSpec, ...]:
    out: list[RuleSpec] = []
    for f in fields(Rules):
        info = f.metadata["rule"]
        kind: Literal["int", "bool", "choice"] = (
            "choice" if info.choices else "bool" if type(f.default) is bool else "int"
        )
        out.append(RuleSpec(f.name, f.default, kind, info))
    return tuple(out)


#: Every house rule in declaration order, with its default, kind and words.
RULES: Final[tuple[RuleSpec, ...]] = _specs()

#: The standard game: every rule at its default.
DEFAULT_RULES: Final = Rules()
