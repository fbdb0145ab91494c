"""House rules sent by a form, checked and refused in the form's words: each rule by its
label (:class:`primero.engine.rules.RuleInfo`, as ``GET /api/rules`` serves it), never
its API field name (docs/protocol.md: bad input gets a clear error in player words).

>>> rules_from_form({"max_players": 3})
Traceback (most recent call last):
...
primero.engine.rules.RulesError: Most players (3) must be at least Fewest players (4)
>>> rules_from_form({"min_players": 9})
Traceback (most recent call last):
...
primero.engine.rules.RulesError: Fewest players must be 2 to 8, not 9
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from primero.engine.rules import DEFAULT_RULES, RULES, Rules, RulesError, RuleSpec

__all__ = ["rule_label", "rules_from_form", "stacks_words"]

_SPECS: Final[dict[str, RuleSpec]] = {spec.name: spec for spec in RULES}


def rule_label(name: str) -> str:
    """The form's label of the house rule ``name`` (``"min_players"``: "Fewest players"),
    or ``name`` itself for no rule."""
    spec = _SPECS.get(name)
    return name if spec is None else spec.info.label


def _value_words(spec: RuleSpec, value: object) -> str | None:
    """Why ``value`` may not be the rule's, by its label, or None when it may."""
    label, info = spec.info.label, spec.info
    try:
        spec.check(value)
    except RulesError:
        pass
    else:
        return None
    if spec.kind == "bool":
        return f"{label} must be on or off (true or false)"
    if spec.kind == "choice":
        return f"{label} must be one of {', '.join(info.choices)}, not {value!r}"
    if type(value) is not int:
        return f"{label} must be a whole number"
    low = info.low or 0
    if info.high is None:
        return f"{label} must be at least {low}, not {value}"
    return f"{label} must be {low} to {info.high}, not {value}"


def rules_from_form(data: Mapping[str, Any]) -> Rules:
    """The house rules ``data`` overrides (rule names to values, as ``POST /api/tables``
    sends them), checked.

    Raises:
        RulesError: an unknown rule, a value out of range or of the wrong kind, Fewest
            players above Most players, a pot limit with no ante (R3, R4.1, R5); the
            message names each rule by its label.
    """
    for key, value in data.items():
        spec = _SPECS.get(key)
        if spec is None:
            raise RulesError(f"{key!r} is not a house rule")
        said = _value_words(spec, value)
        if said is not None:
            raise RulesError(said)
    least = data.get("min_players", DEFAULT_RULES.min_players)
    most = data.get("max_players", DEFAULT_RULES.max_players)
    if least > most:
        raise RulesError(
            f"{rule_label('max_players')} ({most}) must be at least "
            f"{rule_label('min_players')} ({least})"
        )
    if data.get("bet_limit", DEFAULT_RULES.bet_limit) == "pot" and not data.get(
        "ante", DEFAULT_RULES.ante
    ):
        raise RulesError(
            f"a {rule_label('bet_limit')} of pot needs an {rule_label('ante')} of at least "
            "1 chip: with nothing in the pot no bet could be made (R5)"
        )
    return Rules.from_mapping(data)


def stacks_words(message: str) -> str:
    """A refusal of :meth:`~primero.engine.rules.Rules.check_stacks` with each rule named
    by its label ("Minimum raise (9 chips) is more than ...")."""
    said = message.replace("min_raise", rule_label("min_raise"))
    return said[:1].upper() + said[1:]
