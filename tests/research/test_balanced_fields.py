"""Balanced fields: with more entrants than seats every entrant meets every other equally
often in every two seats, and no figure depends on the order of ``--bots``."""

from __future__ import annotations

import json
from collections import Counter
from itertools import permutations
from pathlib import Path

import pytest
from typer.testing import CliRunner

from primero.cli import app
from primero.research.seating import DesignError, design_name, seatings
from primero.research.tournament import TournamentConfig, play_unit, summarize

FIVE = ("uniform", "random", "bluff", "heuristic", "search")


def _pair_counts(rows: tuple[tuple[str, ...], ...], i: int, j: int) -> Counter[tuple[str, str]]:
    return Counter((row[i], row[j]) for row in rows)


def test_eight_entrants_at_four_seats_meet_once_in_every_two_seats() -> None:
    names = tuple("hgfedcba")
    rows = seatings(names, 4)
    assert len(rows) == 56 and design_name(8, 4) == "affine GF(8)"
    ordered_pairs = set(permutations("abcdefgh", 2))  # 56 ordered pairs of entrants
    for i, j in permutations(range(4), 2):
        counts = _pair_counts(rows, i, j)
        assert set(counts) == ordered_pairs and set(counts.values()) == {1}
    for seat in range(4):  # every entrant 7 times in every seat
        assert Counter(row[seat] for row in rows) == {n: 7 for n in "abcdefgh"}
    for row in rows:
        assert len(set(row)) == 4


def test_six_entrants_at_four_seats_meet_four_times_in_every_two_seats() -> None:
    rows = seatings(tuple("abcdef"), 4)  # PGL(2, 5): 6 * 5 * 4 seatings
    assert len(rows) == 120 and design_name(6, 4) == "PGL(2, 5)"
    for i, j in permutations(range(4), 2):
        assert set(_pair_counts(rows, i, j).values()) == {4}
        assert len(_pair_counts(rows, i, j)) == 30


def test_the_design_does_not_depend_on_the_order_given() -> None:
    assert seatings(FIVE, 4) == seatings(tuple(reversed(FIVE)), 4) == seatings(sorted(FIVE), 4)


def test_a_field_that_cannot_be_balanced_is_refused_with_the_reason() -> None:
    with pytest.raises(DesignError) as caught:
        seatings(tuple("abcdefgh"), 4, hands=40)
    assert str(caught.value) == (
        "no balanced field of 8 entrants at 4 seats fits 40 hands: every entrant meets "
        "every other equally often in every two seats only over 56 seatings of each deal "
        "(the smallest balanced design here (affine GF(8)) has that many); ask for at "
        "least 56 hands, or enter at most 4 entrants"
    )
    with pytest.raises(DesignError, match=r"15 is neither a prime power nor one more than"):
        seatings(tuple("abcdefghijklmno"), 4, hands=30_000)  # every seating: 32,760
    with pytest.raises(ValueError, match=r"only over 20 seatings of each deal"):
        TournamentConfig(bots=FIVE, hands=19, seed=1)


def test_the_command_refuses_an_unbalanced_field_before_any_hand(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = CliRunner().invoke(
        app, ["tournament", "--bots", ",".join(FIVE), "--hands", "10", "--out", str(out)]
    )
    assert result.exit_code == 2
    said = " ".join(result.output.replace("│", " ").split())
    assert "no balanced field of 5 entrants at 4 seats fits 10 hands" in said
    assert "ask for at least 20 hands" in said
    assert not out.exists()


def test_swapped_entrants_get_the_same_figures_to_the_chip() -> None:
    one = TournamentConfig(bots=FIVE, hands=40, seed=3, search_samples=4)
    other = TournamentConfig(bots=tuple(reversed(FIVE)), hands=40, seed=3, search_samples=4)
    first = summarize(one, [play_unit(one, u) for u in range(one.units)])
    second = summarize(other, [play_unit(other, u) for u in range(other.units)])
    by_name = {b.bot: b for b in second.bots}
    assert sum(b.chips for b in first.bots) == 0
    for b in first.bots:
        assert b == by_name[b.bot]
    series = dict(zip(other.bots, second.cumulative, strict=True))
    for name, cumulative in zip(one.bots, first.cumulative, strict=True):
        assert series[name] == cumulative


def _run(tmp_path: Path, bots: str, name: str) -> dict[str, object]:
    out = tmp_path / name
    args = ["tournament", "--bots", bots, "--hands", "40", "--seed", "2"]
    args += ["--search-samples", "4", "--no-plots", "--out", str(out)]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads((out / "results.json").read_text())
    return doc


@pytest.mark.needs("openskill")
def test_results_and_ratings_do_not_depend_on_the_order_of_bots(tmp_path: Path) -> None:
    a = _run(tmp_path, ",".join(FIVE), "a")
    b = _run(tmp_path, "search,bluff,uniform,heuristic,random", "b")

    def field(doc: dict[str, object]) -> dict[str, object]:
        return {e["bot"]: e for e in doc["bots"]}  # type: ignore[attr-defined]

    def matrix(doc: dict[str, object]) -> dict[tuple[str, str], object]:
        m = doc["matrix"]
        names = m["bots"]  # type: ignore[index]
        return {
            (names[i], names[j]): (m["chips_per_100_hands"][i][j], m["ci95"][i][j])  # type: ignore[index]
            for i in range(len(names))
            for j in range(len(names))
        }

    assert field(a) == field(b)
    assert matrix(a) == matrix(b)
    assert a["ratings"] == b["ratings"]
    rated = a["ratings"]["ratings"]  # type: ignore[index]
    for r in rated:
        low, high = r["ci95"]
        assert low == pytest.approx(r["mu"] - 1.959964 * r["sigma"], abs=1e-5)
        assert high == pytest.approx(r["mu"] + 1.959964 * r["sigma"], abs=1e-5)
    assert a["settings"]["seating"]["design"] == "affine GF(5)"  # type: ignore[index]
    assert a["settings"]["seating"]["seatings_per_deal"] == 20  # type: ignore[index]
