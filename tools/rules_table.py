"""The docs' table of house rules, made from the rules' declarations.

Usage::

    python tools/rules_table.py          # prints the table of docs/rules.md

docs/rules.md (and its packaged copy, src/primero/data/rules.md) holds, under "House
rules and match settings", the table this prints: one row per field of
:class:`primero.Rules`, from its :class:`~primero.engine.rules.RuleInfo`.
``tests/engine/test_rules_declared.py`` checks that the docs hold it, so a rule added to
``Rules`` fails the tests until the docs show it.
"""

from __future__ import annotations

from primero.engine.rules import RULES, RuleSpec

__all__ = ["markdown_table"]


def _default(spec: RuleSpec) -> str:
    if spec.kind == "bool":
        return "on" if spec.default else "off"
    if spec.kind == "choice":
        return f'`"{spec.default}"`'
    if spec.default is None:
        return f"none ({spec.info.none})"
    return str(spec.default)


def _allowed(spec: RuleSpec) -> str:
    info = spec.info
    if spec.kind == "bool":
        return "on / off"
    if spec.kind == "choice":
        return ", ".join(f'`"{c}"`' for c in info.choices)
    if info.high is not None:
        return f"{info.low}..{info.high}"
    return f"{'none or ' if spec.optional else ''}whole number ≥ {info.low}"


def markdown_table() -> str:
    """The table of every house rule: name, default, allowed values, effect, section."""
    rows = [
        "| name | default | allowed values | effect | section |",
        "|---|---|---|---|---|",
    ]
    for spec in RULES:
        effect = spec.info.help.rstrip(".")
        rows.append(
            f"| `{spec.name}` | {_default(spec)} | {_allowed(spec)} | {effect} "
            f"| {spec.info.section} |"
        )
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
