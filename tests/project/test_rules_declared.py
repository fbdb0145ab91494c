"""House rules declared once: every front end's rules are made from ``Rules``'s fields.

Each test names a place that used to list the rules by hand (the server's schema, the
command line, OpenSpiel's parameters, the tournament settings, the kernel, the docs'
table) and checks that it now holds exactly the declared rules, with their defaults,
bounds and words.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.rule_options import RULE_OPTIONS, rules_from_options
from primero.engine.rules import RULES, Rules, RulesError
from primero.research.fastsim_tables import params
from primero.research.tournament import TournamentConfig
from primero.server.models import RulesSchema

ROOT = Path(__file__).resolve().parents[2]
TABLE_RULES = [spec.name for spec in RULES if spec.name not in ("min_players", "max_players")]


def test_every_field_of_rules_carries_its_words_bounds_and_section() -> None:
    assert [f.name for f in dataclasses.fields(Rules)] == [spec.name for spec in RULES]
    for spec in RULES:
        assert re.fullmatch(r"R\d+(\.\d+)?", spec.info.section), spec
        assert spec.info.label and spec.info.help.endswith("."), spec
        assert getattr(Rules(), spec.name) == spec.default
    assert {spec.name: spec.kind for spec in RULES}["ties"] == "choice"
    assert next(s for s in RULES if s.name == "max_raises").optional


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"ante": -1}, "ante must be at least 0, not -1"),
        ({"min_raise": 0}, "min_raise must be at least 1, not 0"),
        ({"max_players": 9}, "max_players must be from 2 to 8, not 9"),
        ({"ties": "coin"}, "ties must be 'eldest' or 'split', not 'coin'"),
        ({"refusal": 1}, "refusal must be true or false, not 1"),
        ({"max_raises": True}, "max_raises must be a whole number, not True"),
    ],
)
def test_a_rule_out_of_its_declared_bounds_is_refused_in_words(
    changes: dict[str, object], words: str
) -> None:
    with pytest.raises(RulesError) as caught:
        Rules(**changes)  # type: ignore[arg-type]
    assert str(caught.value) == words


def test_the_docs_table_is_made_from_the_declarations() -> None:
    from rules_table import markdown_table

    table = markdown_table()
    assert "| `ante` | 1 | whole number ≥ 0 | Chips each player puts in the pot" in table
    assert "| `max_raises` | none (no cap) | none or whole number ≥ 0 |" in table
    docs = ROOT / "docs"
    for path in (
        docs / "rules.md",
        docs / "getting-started.md",
        ROOT / "src/primero/data/rules.md",
    ):
        assert table in path.read_text(encoding="utf-8"), f"run tools/rules_table.py: {path}"


def test_the_server_schema_is_made_from_the_declarations() -> None:
    schema = RulesSchema.model_json_schema()
    assert list(schema["properties"]) == [spec.name for spec in RULES]
    assert schema["additionalProperties"] is False
    ante = schema["properties"]["ante"]
    assert (ante["default"], ante["minimum"], ante["type"]) == (1, 0, "integer")
    assert schema["properties"]["ties"]["enum"] == ["eldest", "split"]
    assert schema["properties"]["max_players"]["maximum"] == 8
    assert "(R8)" in schema["properties"]["refusal"]["description"]


def test_the_command_line_has_one_option_per_rule_of_a_table() -> None:
    assert [o.spec.name for o in RULE_OPTIONS] == TABLE_RULES
    flags = {o.spec.name: o.flag for o in RULE_OPTIONS}
    assert flags["refusal"] == "--no-refusal"  # on by default: the flag switches it off
    assert flags["first_round_stand"] == "--first-round-stand"
    out = CliRunner().invoke(app, ["play", "--help"], env={"COLUMNS": "200"}).stdout
    for flag in flags.values():
        assert f" {flag} " in out, flag
    defaults = {o.param: o.default for o in RULE_OPTIONS}
    assert rules_from_options(defaults) == Rules()
    assert rules_from_options({**defaults, "no_refusal": True, "ante": 3}) == Rules(
        refusal=False, ante=3
    )


@pytest.mark.needs("pyspiel")
def test_openspiel_parameters_are_the_declared_rules() -> None:
    from primero.research.openspiel.game import DEFAULT_PARAMS, rule_params, rules_of

    assert [k for k in DEFAULT_PARAMS if k in {s.name for s in RULES}] == TABLE_RULES
    assert DEFAULT_PARAMS["max_raises"] == -1  # OpenSpiel has no None
    rules = Rules(ante=2, ties="split", max_raises=3, min_players=2, max_players=8)
    assert rules_of(rule_params(rules)) == rules
    assert rules_of({}) == Rules(min_players=2, max_players=8)


def test_tournament_settings_and_the_kernel_read_every_rule() -> None:
    settings = TournamentConfig(
        bots=("random", "heuristic"), hands=2, seed=1, rules=Rules(ante=4)
    ).settings()
    assert list(settings["rules"]) == TABLE_RULES
    assert settings["rules"]["ante"] == 4
    kernel = params(Rules(ties="split", first_round_zero_bet=True))
    assert kernel.rules.ties == "split" and kernel.split and kernel.first_low == 0
