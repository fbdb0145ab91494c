"""``primero eval``, ``primero rules`` and ``primero cheatsheet`` through Typer's CliRunner."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.cli.commands_info import rules_section, rules_text
from tests.paths import ROOT

#: The PDF needs fpdf2 (the ``pdf`` extra).
NEEDS_PDF = pytest.mark.needs("fpdf")

runner = CliRunner()


@pytest.mark.parametrize("args", [["7h", "6h", "Ah", "2c"], ["7h 6h Ah 2c"], ["7♥ 6♥", "A♥ 2♣"]])
def test_eval_text(args: list[str]) -> None:
    result = runner.invoke(app, ["eval", *args])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "supremus" in out
    assert "55" in out
    assert "7♥ 6♥ A♥ 2♣" in out  # the hand, with Unicode suits
    assert "A♥ 6♥ 7♥" in out  # the counting cards


def test_eval_json() -> None:
    result = runner.invoke(app, ["eval", "7h 6h Ah 2c", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "cards": ["7h", "6h", "Ah", "2c"],
        "category": "supremus",
        "points": 55,
        "counting": ["Ah", "6h", "7h"],
    }


def test_eval_json_numerus_two_pairs_counts_the_better_pair() -> None:
    result = runner.invoke(app, ["eval", "--json", "Kc", "Qc", "7d", "6d"])
    data = json.loads(result.stdout)
    assert (data["category"], data["points"], data["counting"]) == ("numerus", 39, ["6d", "7d"])
    # equal pairs: the pair of the earlier suit in deck order counts (docs/rules.md)
    data = json.loads(runner.invoke(app, ["eval", "--json", "Kd Jd Kc Qc"]).stdout)
    assert (data["points"], data["counting"]) == (20, ["Qc", "Kc"])


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["7h", "6h", "8h", "2c"], "'8h'"),
        (["7h 6h Ax 2c"], "'Ax'"),
        (["7h", "6h", "10h", "2c"], "'10h'"),
        (["7h", "7h", "Ah", "2c"], "7h"),
        (["7h", "6h", "Ah"], "4 cards"),
    ],
)
def test_eval_bad_input_exits_2_with_a_message(args: list[str], needle: str) -> None:
    result = runner.invoke(app, ["eval", *args])
    assert result.exit_code == 2
    assert needle in result.stderr
    assert "Traceback" not in result.output
    assert result.stdout == ""
    assert isinstance(result.exception, SystemExit)  # a clean exit, not a crash


def test_rules_prints_rules_and_cheat_sheet() -> None:
    result = runner.invoke(app, ["rules"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    for heading in ("R1 Cards", "R2 Hand categories", "R8 Refusing a bet", "R10 Randomness"):
        assert heading in out
    assert "Decisions where the source is silent" in out
    assert "80,430" in out  # the cheat sheet's counts, from the evaluator
    assert "Order of play (R4)" in out


def test_rules_section() -> None:
    result = runner.invoke(app, ["rules", "--section", "r8b"])
    assert result.exit_code == 0, result.output
    assert "R8b When the stock runs out" in result.stdout
    assert "R9 A match" not in result.stdout
    bad = runner.invoke(app, ["rules", "--section", "R42"])
    assert bad.exit_code == 2
    assert "R42" in bad.stderr


def test_rules_sections_r1_to_r10_all_exist() -> None:
    for sid in ("R1", "R2", "R3", "R4", "R5", "R6", "R7", "R8", "R8b", "R9", "R9b", "R10"):
        section = rules_section(sid)
        assert section is not None and section.startswith(f"## {sid} "), sid


def test_packaged_rules_are_docs_rules() -> None:
    docs = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    packaged = (ROOT / "src" / "primero" / "data" / "rules.md").read_text(encoding="utf-8")
    assert packaged == docs, "src/primero/data/rules.md must be a copy of docs/rules.md"
    assert rules_text() == docs


def test_rules_name_every_house_rule_and_setting() -> None:
    text = rules_text()
    for name in (
        "ante",
        "ties",
        '"eldest"',
        '"split"',
        "refusal",
        "last_round",
        "declarations",
        "first_round_stand",
        "first_round_zero_bet",
        "min_raise",
        "max_raises",
        "min_players",
        "max_players",
        "max_hands",
    ):
        assert f"`{name}`" in text, name
    assert "starting stack" in text


def test_cheatsheet_md_to_stdout() -> None:
    result = runner.invoke(app, ["cheatsheet"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("# Primero cheat sheet")
    assert "| **numerus** | 80,430 |" in result.stdout


@NEEDS_PDF
def test_cheatsheet_html_and_pdf_to_files(tmp_path: Path) -> None:
    page = tmp_path / "sheet.html"
    result = runner.invoke(app, ["cheatsheet", "--format", "html", "--output", str(page)])
    assert result.exit_code == 0, result.output
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    pdf = tmp_path / "sheet.pdf"
    result = runner.invoke(app, ["cheatsheet", "-f", "pdf", "-o", str(pdf)])
    assert result.exit_code == 0, result.output
    assert pdf.read_bytes().startswith(b"%PDF")


@NEEDS_PDF
def test_cheatsheet_pdf_to_a_pipe() -> None:
    result = runner.invoke(app, ["cheatsheet", "--format", "pdf"])
    assert result.exit_code == 0
    assert result.stdout_bytes.startswith(b"%PDF")


def test_cheatsheet_unknown_format() -> None:
    result = runner.invoke(app, ["cheatsheet", "--format", "docx"])
    assert result.exit_code == 2


def test_cheatsheet_pdf_without_the_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "fpdf", None)  # as if fpdf2 were not installed
    monkeypatch.delitem(sys.modules, "primero.play.cheatsheet_pdf", raising=False)
    out = tmp_path / "sheet.pdf"
    result = runner.invoke(app, ["cheatsheet", "--format", "pdf", "-o", str(out)])
    assert result.exit_code == 1
    assert "the PDF cheat sheet needs fpdf2, the 'pdf' extra" in result.stderr
    assert "pip install -e '.[pdf]'" in result.stderr
    assert not out.exists()


def test_version_option_prints_the_installed_version() -> None:
    import importlib.metadata

    import primero

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout == f"primero {importlib.metadata.version('primero')}\n"
    assert primero.__version__ == importlib.metadata.version("primero")
