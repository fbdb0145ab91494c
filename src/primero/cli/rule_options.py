"""The command line's house-rule options, made from the rules' declarations.

Every field of :class:`primero.Rules` becomes one option, named and explained by its
:class:`~primero.engine.rules.RuleInfo` (rules.md R3–R8): a whole-number rule takes
``--min-raise N``, a choice ``--ties RULE``, a rule that is off by default is switched on
by ``--first-round-stand``, one that is on by default switched off by ``--no-refusal``.
A rule added to :class:`~primero.Rules` is an option of every command that takes them.

>>> [option.flag for option in RULE_OPTIONS][:3]
['--ante', '--ties', '--no-refusal']
"""

from __future__ import annotations

import functools
import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Final

import typer

from primero.cli.app import in_range, one_of
from primero.engine.rules import RULES, Rules, RuleSpec

__all__ = ["RULE_OPTIONS", "RuleOption", "rules_from_options", "with_rule_options"]


@dataclass(frozen=True, slots=True)
class RuleOption:
    """One house rule as a command-line option.

    Attributes:
        spec: the rule's declaration.
        param: the Python parameter's name (``"no_refusal"``).
        flag: the option (``"--no-refusal"``).
        default: the option's default (False for a flag).
        annotation: the parameter's annotation, ``Annotated[type, typer.Option(...)]``.
    """

    spec: RuleSpec
    param: str
    flag: str
    default: Any
    annotation: Any

    def value(self, given: Any) -> Any:
        """The rule's value for the option's value ``given`` (a ``--no-...`` flag inverts)."""
        if self.spec.kind == "bool" and self.spec.default is True:
            return not given
        if isinstance(given, StrEnum):
            return given.value
        return given


def _sentence(help_text: str, tail: str) -> str:
    return f"{help_text.rstrip('.')}{tail}."


def _option(spec: RuleSpec) -> RuleOption:
    info = spec.info
    dashed = spec.name.replace("_", "-")
    section = f" ({info.section})"
    if spec.kind == "bool":
        if spec.default:
            flag = f"--no-{dashed}"
            option = typer.Option(flag, help=_sentence(info.off, section))
        else:
            flag = f"--{dashed}"
            option = typer.Option(flag, help=_sentence(info.help, section))
        param = flag[2:].replace("-", "_")
        return RuleOption(spec, param, flag, False, Annotated[bool, option])
    flag = f"--{dashed}"
    if spec.kind == "choice":
        option = typer.Option(
            flag,
            metavar="RULE",  # a narrow type column, wide help
            callback=one_of(flag, info.choices),  # refused in words listing the choices
            help=f"{info.label} ({info.section}): {info.help}",
        )
        return RuleOption(spec, spec.name, flag, spec.default, Annotated[str, option])
    low = info.low or 0
    unit = f" {info.unit}" if info.unit else ""
    bounds = (
        f", {low} to {info.high}"
        if info.high is not None
        else f", {low}{' chip' if unit and low == 1 else unit} or more"
    )
    option = typer.Option(
        flag,
        callback=in_range(flag, low, info.high, unit=info.unit),
        help=_sentence(info.help, bounds + section),
    )
    kind = int | None if spec.optional else int
    return RuleOption(spec, spec.name, flag, spec.default, Annotated[kind, option])


#: The options of the house rules the commands offer (``min_players`` and
#: ``max_players`` are a table's, set by ``--players``).
RULE_OPTIONS: Final[tuple[RuleOption, ...]] = tuple(
    _option(spec) for spec in RULES if spec.name not in ("min_players", "max_players")
)


def rules_from_options(given: Mapping[str, Any], **fixed: Any) -> Rules:
    """The house rules from the options' values (by parameter name); ``fixed`` rules
    (e.g. ``min_players``) added.

    Raises:
        RulesError: a value out of range (e.g. a negative ante) or clashing rules.
    """
    values = {o.spec.name: o.value(given[o.param]) for o in RULE_OPTIONS if o.param in given}
    return Rules(**values, **fixed)


def changed_options(given: Mapping[str, Any]) -> list[str]:
    """The rule options given a value other than their default (e.g. ``["--ante"]``)."""
    return [o.flag for o in RULE_OPTIONS if given.get(o.param, o.default) != o.default]


def with_rule_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add every rule option to a Typer command: the command declares a last keyword
    parameter ``rule_options: dict[str, Any]`` and receives the options' values in it
    (by parameter name; read them with :func:`rules_from_options`)."""
    signature = inspect.signature(command)
    resolved = typing.get_type_hints(command, include_extras=True)
    kept = [
        p.replace(annotation=resolved[p.name])
        for p in signature.parameters.values()
        if p.name != "rule_options"
    ]
    added = [
        inspect.Parameter(
            o.param, inspect.Parameter.KEYWORD_ONLY, default=o.default, annotation=o.annotation
        )
        for o in RULE_OPTIONS
    ]
    names = {o.param for o in RULE_OPTIONS}

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        options = {k: kwargs.pop(k) for k in list(kwargs) if k in names}
        return command(**kwargs, rule_options=options)

    # Typer reads the parameters from the signature and their types from the
    # annotations: both are the command's own (resolved) and the rules' options
    hints = {p.name: p.annotation for p in [*kept, *added]}
    full = signature.replace(parameters=[*kept, *added], return_annotation=resolved.get("return"))
    setattr(wrapper, "__signature__", full)  # noqa: B010
    wrapper.__annotations__ = {**hints, "return": resolved.get("return")}
    delattr(wrapper, "__wrapped__")
    return wrapper
