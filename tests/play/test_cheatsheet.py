"""The cheat sheet agrees with the evaluator and the rules (R1, R2), in every format."""

from __future__ import annotations

import sys
from itertools import combinations

import pytest

from primero.engine.cards import DECK, POINTS, Rank
from primero.engine.errors import MissingExtraError
from primero.engine.hands import Category, evaluate
from primero.play.cheatsheet import (
    FORMATS,
    PLAY_STEPS,
    RULE_LINES,
    SheetFormat,
    category_stats,
    cheatsheet,
    examples,
    points_groups,
    sheet_tables,
)

#: The PDF needs fpdf2 (the ``pdf`` extra).
NEEDS_PDF = pytest.mark.needs("fpdf")

# rules.md R2: reference counts and point ranges (Cardano's figures).
EXPECTED = {
    Category.CHORUS: (10, 40, 84),
    Category.FLUXUS: (840, 42, 70),
    Category.SUPREMUS: (120, 55, 55),
    Category.PRIMERO: (9_990, 40, 81),
    Category.NUMERUS: (80_430, 20, 54),
}


def test_category_counts_and_ranges_match_rules() -> None:
    stats = category_stats()
    assert [s.category for s in stats] == sorted(Category, reverse=True)
    assert {s.category: (s.hands, s.min_points, s.max_points) for s in stats} == EXPECTED
    assert sum(s.hands for s in stats) == 91_390
    assert category_stats() is stats  # cached


def test_category_counts_match_a_fresh_count_with_evaluate() -> None:
    counts = dict.fromkeys(Category, 0)
    for hand in combinations(DECK, 4):
        counts[evaluate(hand).category] += 1
    assert {s.category: s.hands for s in category_stats()} == counts


def test_points_ranges_are_printed() -> None:
    text = {s.category: s.points_range for s in category_stats()}
    assert text[Category.SUPREMUS] == "55"
    assert text[Category.NUMERUS] == "20–54"


def test_examples_evaluate_to_their_category() -> None:
    exs = examples()
    assert [e.value.category for e in exs] == sorted(Category, reverse=True)
    for ex in exs:
        assert evaluate(ex.cards) == ex.value
        assert set(ex.value.counting) <= set(ex.cards)
    supremus = next(e for e in exs if e.value.category is Category.SUPREMUS)
    assert supremus.value.points == 55


def test_points_table_comes_from_points() -> None:
    groups = points_groups()
    assert [p for _, p in groups] == [21, 18, 16, 15, 14, 13, 12, 10]
    assert groups[-1][0] == (Rank.JACK, Rank.QUEEN, Rank.KING)
    for ranks, points in groups:
        assert all(POINTS[r] == points for r in ranks)
    assert sorted(r for ranks, _ in groups for r in ranks) == list(Rank)


def test_tables_are_rectangular() -> None:
    for table in sheet_tables():
        n = len(table.headers)
        assert len(table.align) == n
        assert len(table.widths) == n
        assert sum(table.widths) <= 180  # A4 less the margins
        assert all(len(row) == n for row in table.rows)


def test_markdown_holds_the_tables_and_the_order_of_play() -> None:
    md = cheatsheet("md")
    assert md.startswith("# Primero cheat sheet")
    for stats in category_stats():
        assert f"| **{stats.category.label}** | {stats.hands:,} |" in md
    assert "| **Points** | 21 | 18 | 16 | 15 | 14 | 13 | 12 | 10 |" in md
    assert "**A♠** **6♠** **7♠** 3♦ | 55 |" in md
    for step in (*PLAY_STEPS, *RULE_LINES):
        assert f"**{step.name}.** {step.text}" in md
    names = [s.name for s in PLAY_STEPS]
    assert names == [
        "Ante",
        "First deal",
        "Bet or exchange",
        "Second deal",
        "Declare and bet",
        "Second exchange",
        "Last round",
        "Showdown",
    ]
    assert [s.name for s in RULE_LINES] == ["Refusal", "Ties"]


def test_html_is_a_self_contained_page_with_print_css() -> None:
    page = cheatsheet("html")
    assert page.startswith("<!DOCTYPE html>")
    assert "@media print" in page and "@page" in page
    assert "<script" not in page and "http" not in page  # nothing fetched
    assert "80,430" in page and "7♠" in page
    assert page.rstrip().endswith("</html>")


@NEEDS_PDF
def test_pdf_is_one_page() -> None:
    pdf = cheatsheet("pdf")
    assert isinstance(pdf, bytes)
    assert pdf.startswith(b"%PDF")
    assert b"/Type /Pages" in pdf
    assert b"/Count 1\n" in pdf  # the page tree holds a single page
    assert pdf.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize(
    "fmt", [pytest.param(f, marks=NEEDS_PDF) if f == "pdf" else f for f in FORMATS]
)
def test_every_format_is_non_empty(fmt: SheetFormat) -> None:
    out = cheatsheet(fmt)
    assert len(out) > 500


def test_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown cheat sheet format"):
        cheatsheet("txt")  # type: ignore[call-overload]


@NEEDS_PDF
def test_the_pdf_is_reproducible() -> None:
    # The creation date is fixed, so the same code gives the same bytes.
    assert cheatsheet("pdf") == cheatsheet("pdf")


def test_without_the_pdf_extra_a_pdf_is_refused_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "fpdf", None)  # import fpdf now fails as if missing
    monkeypatch.delitem(sys.modules, "primero.play.cheatsheet_pdf", raising=False)
    with pytest.raises(MissingExtraError, match=r"pip install -e '\.\[pdf\]'"):
        cheatsheet("pdf")
    assert cheatsheet("md").startswith("# Primero cheat sheet")  # the rest still works
