"""Exact exchange and showdown odds (primero.engine.odds): hand-computed cases and brute force."""

from __future__ import annotations

import dataclasses
import doctest
import random
from collections import Counter
from fractions import Fraction
from itertools import combinations
from math import comb

import numpy as np
import numpy.typing as npt
import pytest

import primero.engine.odds.combinatorics
import primero.engine.odds.opponent
from primero.engine.batch import VALUE_CATEGORY, VALUE_POINTS, ranks_of_valid
from primero.engine.cards import DECK, Card, CardError, parse_cards
from primero.engine.hands import Category, evaluate
from primero.engine.odds import (
    CRITERION,
    ExchangeChoice,
    ExchangeOdds,
    OddsError,
    exchange_odds,
    exchange_outcomes,
    showdown_odds,
)


def choice(odds: ExchangeOdds, discard: str) -> ExchangeChoice:
    """The choice of ``odds`` that discards exactly the cards ``discard``."""
    wanted = set(parse_cards(discard))
    return next(c for c in odds.choices if set(c.discard) == wanted)


def unseen_cards(own: tuple[Card, ...], dead: tuple[Card, ...]) -> list[Card]:
    return [c for c in DECK if c not in own and c not in dead]


def brute_force_exchange(
    own: tuple[Card, ...], dead: tuple[Card, ...]
) -> dict[frozenset[Card], tuple[Fraction, list[Fraction], Fraction]]:
    """Score, category probabilities and expected points of every keep, by enumeration."""
    unseen = unseen_cards(own, dead)
    result = {}
    for thrown in range(3):
        for discard in combinations(own, thrown):
            keep = tuple(c for c in own if c not in discard)
            score = Fraction(0)
            categories = [0] * 5
            points = 0
            draws = list(combinations(unseen, 4 - len(keep)))
            for drawn in draws:
                value = evaluate(keep + drawn)
                rest = [c for c in unseen if c not in drawn]
                beaten = [
                    Fraction(1) if value > other else Fraction(1 if value == other else 0, 2)
                    for other in map(evaluate, combinations(rest, 4))
                ]
                score += sum(beaten, Fraction(0)) / len(beaten)
                categories[value.category] += 1
                points += value.points
            result[frozenset(keep)] = (
                score / len(draws),
                [Fraction(c, len(draws)) for c in categories],
                Fraction(points, len(draws)),
            )
    return result


# -- exchanges with four cards (R4.6) -------------------------------------------------


def test_four_cards_have_eleven_choices_in_order() -> None:
    odds = exchange_odds("6h 6c 6d 2s")
    assert len(odds.choices) == 11
    assert [len(c.discard) for c in odds.choices] == [0, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2]
    assert [str(c.discard[0]) for c in odds.choices[1:5]] == ["6h", "6c", "6d", "2s"]
    assert odds.choices[0].label == "stand pat"
    assert odds.choices[4].label == "discard 2s"
    assert odds.unseen == 36
    assert not odds.second_deal
    for c in odds.choices:
        assert set(c.keep) | set(c.discard) == set(odds.own)
        assert c.draws == len(c.discard)
        assert c.outcomes == comb(36, c.draws)
        assert sum(c.category_probabilities) == pytest.approx(1.0, abs=1e-12)


def test_one_specific_card_makes_a_chorus() -> None:
    # 6h 6c 6d 2s, discard 2s: only 6s (1 of 36 unseen) makes a chorus of sixes (72);
    # a spade other than 6s and 2s (8 of them) makes a primero; the rest a numerus
    c = choice(exchange_odds("6h 6c 6d 2s"), "2s")
    assert c.probability(Category.CHORUS) == pytest.approx(1 / 36)
    assert c.probability(Category.PRIMERO) == pytest.approx(8 / 36)
    assert c.probability(Category.NUMERUS) == pytest.approx(27 / 36)
    assert c.probability(Category.FLUXUS) == 0.0
    assert c.probability(Category.SUPREMUS) == 0.0
    # points: chorus 72; primero 54 + the spade; numerus 18 + the card matching a six
    spades = [16, 13, 14, 15, 21, 10, 10, 10]  # A 3 4 5 7 J Q K
    others = 3 * [16, 12, 13, 14, 15, 21, 10, 10, 10]  # the 27 non-six, non-spade cards
    expected = Fraction(72 + sum(54 + p for p in spades) + sum(18 + p for p in others), 36)
    assert c.expected_points == pytest.approx(float(expected))


def test_dead_cards_are_excluded() -> None:
    # the same hand when the 6s is known dead: no chorus; 35 unseen cards
    odds = exchange_odds("6h 6c 6d 2s", dead="6s")
    assert odds.unseen == 35
    assert odds.dead == parse_cards("6s")
    c = choice(odds, "2s")
    assert c.outcomes == 35
    assert c.probability(Category.CHORUS) == 0.0
    assert c.probability(Category.PRIMERO) == pytest.approx(8 / 35)
    # two other dead cards: the chance of the one card is 1 / unseen
    odds = exchange_odds("6h 6c 6d 2s", dead=["Kc", "Qd", "Jh"])
    assert choice(odds, "2s").probability(Category.CHORUS) == pytest.approx(1 / 33)


def test_flush_draw() -> None:
    # Ah 2h 3h Kc, discard Kc: 7 hearts of 36 unseen make a fluxus of 41 + the heart
    c = choice(exchange_odds("Ah 2h 3h Kc"), "Kc")
    assert c.probability(Category.FLUXUS) == pytest.approx(7 / 36)
    assert c.probability(Category.NUMERUS) == pytest.approx(29 / 36)
    hearts = [14, 15, 18, 21, 10, 10, 10]  # 4 5 6 7 J Q K
    assert c.expected_points == pytest.approx((29 * 41 + sum(41 + p for p in hearts)) / 36)


def test_stand_pat_is_certain_and_scores_like_the_showdown() -> None:
    odds = exchange_odds("7h 6h Ah 2c", dead="Kd")
    pat = odds.choices[0]
    assert pat.outcomes == 1
    assert pat.probability(Category.SUPREMUS) == 1.0
    assert pat.expected_points == 55.0
    heads_up = showdown_odds("7h 6h Ah 2c", dead="Kd")
    assert pat.score == pytest.approx(heads_up.equity, abs=1e-12)
    # throwing the 2c keeps the supremus and adds a chance of a fluxus: 7 hearts of 35
    best = choice(odds, "2c")
    assert best.probability(Category.FLUXUS) == pytest.approx(7 / 35)
    assert best.probability(Category.SUPREMUS) == pytest.approx(28 / 35)
    assert best.score > pat.score
    assert odds.best is best


def test_best_is_the_highest_score() -> None:
    odds = exchange_odds("Jc Qd 2h 3s")
    top = max(c.score for c in odds.choices)
    assert odds.best.score == top
    assert odds.best in odds.choices
    assert "beats" in CRITERION


@pytest.mark.parametrize("seed", [1, 2])
def test_four_cards_equal_brute_force(seed: int) -> None:
    deck = random.Random(seed).sample(DECK, 40)
    own, dead = tuple(deck[:4]), tuple(deck[4 : 31 - seed])  # 11 or 10 unseen
    expected = brute_force_exchange(own, dead)
    odds = exchange_odds(own, dead)
    assert odds.unseen == 36 - len(dead)
    for c in odds.choices:
        score, categories, points = expected[frozenset(c.keep)]
        assert c.score == pytest.approx(float(score), abs=1e-12)
        assert c.category_probabilities == pytest.approx([float(p) for p in categories])
        assert c.expected_points == pytest.approx(float(points))


# -- the first round: two cards and the second deal (R4.3, R4.4) ------------------------


def test_two_cards_have_four_choices() -> None:
    odds = exchange_odds("Ah Ac")
    assert odds.second_deal
    assert odds.unseen == 38
    assert [c.label for c in odds.choices] == [
        "keep both",
        "discard Ah",
        "discard Ac",
        "discard Ah Ac",
    ]
    assert [c.draws for c in odds.choices] == [2, 3, 3, 4]
    assert [c.outcomes for c in odds.choices] == [
        comb(38, 2),
        comb(38, 3),
        comb(38, 3),
        comb(38, 4),
    ]
    # keeping both aces, the second deal must bring exactly Ad and As for a chorus
    assert odds.choices[0].probability(Category.CHORUS) == pytest.approx(1 / comb(38, 2))
    # discarding both: a random hand against a random hand, exactly even
    assert odds.choices[3].score == 0.5
    for c in odds.choices:
        assert sum(c.category_probabilities) == pytest.approx(1.0, abs=1e-12)


def test_two_cards_keep_one_chorus_chance() -> None:
    # keep Ah (discard 2c): a chorus needs Ac Ad As among 3 draws from 38: 1 / C(38, 3)
    c = choice(exchange_odds("Ah 2c"), "2c")
    assert c.keep == parse_cards("Ah")
    assert c.probability(Category.CHORUS) == pytest.approx(1 / comb(38, 3))


@pytest.mark.parametrize("seed", [3, 4])
def test_two_cards_equal_brute_force(seed: int) -> None:
    deck = random.Random(seed).sample(DECK, 40)
    own, dead = tuple(deck[:2]), tuple(deck[2:31])  # 9 unseen
    expected = brute_force_exchange(own, dead)
    odds = exchange_odds(own, dead)
    for c in odds.choices:
        score, categories, points = expected[frozenset(c.keep)]
        assert c.score == pytest.approx(float(score), abs=1e-12)
        assert c.category_probabilities == pytest.approx([float(p) for p in categories])
        assert c.expected_points == pytest.approx(float(points))


# -- showdowns (R7) --------------------------------------------------------------------


def test_one_opponent_exact_by_enumeration() -> None:
    own, dead = parse_cards("Qc 4c 6c 4s"), parse_cards("7c 7d 7h Ad Ah As Jd Qd Kd")
    value = evaluate(own)
    others = [evaluate(o) for o in combinations(unseen_cards(own, dead), 4)]
    odds = showdown_odds(own, dead)
    assert odds.exact and odds.trials == 0 and odds.standard_error == 0.0 and odds.seed is None
    assert odds.value == value
    assert odds.win == pytest.approx(sum(o < value for o in others) / len(others))
    assert odds.tie == pytest.approx(sum(o == value for o in others) / len(others))
    assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)
    assert odds.equity == pytest.approx(odds.win + odds.tie / 2)


def test_two_opponents_exact_by_enumeration() -> None:
    deck = random.Random(11).sample(DECK, 40)
    own, dead = tuple(deck[:4]), tuple(deck[4:28])  # 12 unseen
    value = evaluate(own)
    unseen = unseen_cards(own, dead)
    win = tie = deals = 0
    share = Fraction(0)
    for first in combinations(unseen, 4):
        rest = [c for c in unseen if c not in first]
        for second in combinations(rest, 4):
            values = [evaluate(first), evaluate(second)]
            deals += 1
            if max(values) < value:
                win += 1
                share += 1
            elif max(values) == value:
                tie += 1
                share += Fraction(1, 1 + values.count(value))
    odds = showdown_odds(own, dead, opponents=2)
    assert odds.exact
    assert odds.win == pytest.approx(win / deals, abs=1e-12)
    assert odds.tie == pytest.approx(tie / deals, abs=1e-12)
    assert odds.equity == pytest.approx(float(share / deals), abs=1e-12)


def test_the_best_hand_always_wins() -> None:
    for opponents in (1, 2, 3):
        odds = showdown_odds("7c 7d 7h 7s", opponents=opponents, trials=500)
        assert (odds.win, odds.tie, odds.lose, odds.equity) == (1.0, 0.0, 0.0, 1.0)


def test_monte_carlo_is_seeded_and_agrees_with_exact() -> None:
    exact = showdown_odds("Kh Qh 5h 2d", dead="Ac", opponents=2)
    one = showdown_odds("Kh Qh 5h 2d", dead="Ac", opponents=2, method="monte-carlo", seed=5)
    again = showdown_odds("Kh Qh 5h 2d", dead="Ac", opponents=2, method="monte-carlo", seed=5)
    other = showdown_odds("Kh Qh 5h 2d", dead="Ac", opponents=2, method="monte-carlo", seed=6)
    assert one == again
    assert one.equity != other.equity
    assert not one.exact and one.trials == 100_000 and one.seed == 5
    assert 0 < one.standard_error < 0.01
    assert abs(one.equity - exact.equity) < 5 * one.standard_error
    assert abs(one.win - exact.win) < 0.01


def test_three_opponents_use_monte_carlo() -> None:
    odds = showdown_odds("Ah 6h 7h 2c", opponents=3, trials=2_000, seed=1)
    assert not odds.exact and odds.trials == 2_000
    assert odds.win + odds.tie + odds.lose == pytest.approx(1.0)
    assert 0.5 < odds.win < 1.0


def test_module_doctest() -> None:
    assert doctest.testmod(primero.engine.odds).failed == 0


def test_results_are_frozen() -> None:
    odds = exchange_odds("7h 6h")
    with pytest.raises(dataclasses.FrozenInstanceError):
        odds.best.score = 1.0  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        showdown_odds("7h 6h Ah 2c").win = 0.0  # type: ignore[misc]


# -- errors ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("own", "dead", "message"),
    [
        ("7h 8h", "", "unknown card '8h'"),
        ("7h 7h", "", "card 7h is named twice"),
        ("7h 6h", "Ah 6h", "card 6h is both in the seat's hand and among the dead cards"),
        ("7h 6h", "Ah Ah", "card Ah is named twice"),
        ("7h 6h 5h", "", "must hold 2 or 4 cards, got 3"),
        ("7h", "", "must hold 2 or 4 cards, got 1"),
        ("7h 6h 5h 4h 3h", "", "got 5"),
        ("7h 6h", "10c", "unknown card '10c'"),
    ],
)
def test_exchange_card_errors(own: str, dead: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        exchange_odds(own, dead)


def test_not_enough_unseen_cards() -> None:
    deck = list(DECK)
    with pytest.raises(OddsError, match="only 5 unseen cards"):
        exchange_odds(deck[:4], deck[4:35])
    with pytest.raises(OddsError, match="needs 8"):
        exchange_odds(deck[:2], deck[2:33])


def test_showdown_errors() -> None:
    with pytest.raises(CardError, match="must hold 4 cards, got 2"):
        showdown_odds("7h 6h")
    with pytest.raises(CardError, match="both in the seat's hand"):
        showdown_odds("7h 6h Ah 2c", dead="2c")
    with pytest.raises(OddsError, match="at least 1"):
        showdown_odds("7h 6h Ah 2c", opponents=0)
    with pytest.raises(OddsError, match="10 opponents need 40 unseen cards, there are only 36"):
        showdown_odds("7h 6h Ah 2c", opponents=10)
    with pytest.raises(OddsError, match="one or two opponents"):
        showdown_odds("7h 6h Ah 2c", opponents=3, method="exact")
    with pytest.raises(OddsError, match="at least 2 trials"):
        showdown_odds("7h 6h Ah 2c", opponents=3, trials=1)
    with pytest.raises(OddsError, match="unknown method"):
        showdown_odds("7h 6h Ah 2c", method="guess")  # type: ignore[arg-type]
    assert issubclass(OddsError, ValueError)


# -- the command line: primero odds ----------------------------------------------------


def test_cli_odds_text() -> None:
    from typer.testing import CliRunner

    from primero.cli import app

    result = CliRunner().invoke(app, ["odds", "7h", "6h", "Ah", "2c", "--dead", "Kd"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "7♥ 6♥ A♥ 2♣" in out and "unseen 35" in out
    assert "stand pat" in out and "discard 2♣" in out and "★" in out
    assert "against 1 random hand: win" in out and "(exact)" in out
    two = CliRunner().invoke(app, ["odds", "7h 6h", "-k", "2"])
    assert two.exit_code == 0, two.output
    assert "keep both (bet)" in two.stdout and "after the second deal" in two.stdout
    assert "Showdown odds need 4 cards" not in two.stdout
    assert (
        "--opponents: give four cards for showdown odds; with two cards, the exchange odds "
        "are shown." in " ".join(two.stdout.split())
    )


def test_cli_odds_json() -> None:
    import json

    from typer.testing import CliRunner

    from primero.cli import app

    args = ["odds", "Kh Qh 5h 2d", "--dead", "Ac", "--dead", "As 2s", "--opponents", "3"]
    result = CliRunner().invoke(app, [*args, "--seed", "9", "--trials", "2000", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["own"] == ["Kh", "Qh", "5h", "2d"]
    assert data["dead"] == ["Ac", "As", "2s"]
    assert data["unseen"] == 33 and data["second_deal"] is False
    odds = exchange_odds("Kh Qh 5h 2d", "Ac As 2s")
    assert len(data["choices"]) == 11
    assert data["choices"][data["best"]]["discard"] == [str(c) for c in odds.best.discard]
    assert data["choices"][data["best"]]["best"] is True
    assert [c["score"] for c in data["choices"]] == [c.score for c in odds.choices]
    flush_draw = data["choices"][4]
    assert flush_draw["discard"] == ["2d"]
    assert flush_draw["categories"]["fluxus"] == pytest.approx(7 / 33)
    showdown = data["showdown"]
    expected = showdown_odds("Kh Qh 5h 2d", "Ac As 2s", 3, trials=2000, seed=9)
    assert showdown["exact"] is False and showdown["seed"] == 9 and showdown["trials"] == 2000
    assert showdown["equity"] == expected.equity
    assert showdown["win"] + showdown["tie"] + showdown["lose"] == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["7h", "8h"], "unknown card '8h'"),
        (["7h", "6h", "--dead", "6h"], "both in the seat's hand"),
        (["7h", "6h", "Ah"], "2 or 4 cards, got 3"),
        (["7h 6h Ah 2c", "-k", "10"], "10 opponents need 40 unseen cards"),
    ],
)
def test_cli_odds_errors_exit_2(args: list[str], message: str) -> None:
    from typer.testing import CliRunner

    from primero.cli import app

    result = CliRunner().invoke(app, ["odds", *args])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "Traceback" not in result.output


# -- the shared enumeration: exchange_outcomes ------------------------------------------


_VALUE_KEYS = [int(c) * 128 + int(p) for c, p in zip(VALUE_CATEGORY, VALUE_POINTS, strict=True)]
#: The rank of each value key (its index in :data:`_VALUE_KEYS`).
_VALUE_RANK = {key: rank for rank, key in enumerate(_VALUE_KEYS)}


def brute_force_outcomes(
    own: tuple[Card, ...], dead: tuple[Card, ...]
) -> list[tuple[tuple[Card, ...], tuple[Card, ...], list[int]]]:
    """``(keep, discard, value rank of every draw)`` of every choice, draws in colex order
    of the unseen cards (by the largest card id first), with the scalar evaluator."""
    unseen = sorted(unseen_cards(own, dead), key=lambda c: c.id)
    result = []
    for thrown in range(3):
        for discard in combinations(own, thrown):
            keep = tuple(c for c in own if c not in discard)
            draws = sorted(
                combinations(unseen, 4 - len(keep)), key=lambda d: [c.id for c in reversed(d)]
            )
            ranks = [_VALUE_RANK[evaluate(keep + draw).key] for draw in draws]
            result.append((keep, discard, ranks))
    return result


def _random_deals() -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
    rng = random.Random(2025)
    deals = []
    for i in range(36):
        own = 4 if i < 24 else 2
        dead = rng.choice([0, 1, 2, 4, 8]) if own == 4 else rng.choice([0, 3, 12, 20, 26])
        cards = rng.sample(DECK, own + dead)
        deals.append((tuple(cards[:own]), tuple(cards[own:])))
    return deals


@pytest.mark.parametrize(("own", "dead"), _random_deals())
def test_exchange_outcomes_equal_brute_force(own: tuple[Card, ...], dead: tuple[Card, ...]) -> None:
    out = exchange_outcomes(own, dead)
    expected = brute_force_outcomes(own, dead)
    assert out.own == own and out.dead == dead
    assert out.unseen == tuple(sorted(unseen_cards(own, dead), key=lambda c: c.id))
    assert len(out.keeps) == len(out.discards) == len(out.ranks) == len(expected)
    assert out.counts.shape == (len(expected), len(VALUE_CATEGORY))
    for i, (keep, discard, ranks) in enumerate(expected):
        assert out.keeps[i] == keep and out.discards[i] == discard
        assert out.draws(i) == 4 - len(keep)
        assert out.outcomes(i) == len(ranks) == comb(len(out.unseen), out.draws(i))
        assert out.ranks[i].tolist() == ranks
        tally = Counter(ranks)
        assert out.counts[i].tolist() == [tally[r] for r in range(len(VALUE_CATEGORY))]


def test_exchange_outcomes_are_read_only_and_match_exchange_odds() -> None:
    out = exchange_outcomes("Kh Qh 5h 2d", "Ac As 2s")
    odds = exchange_odds("Kh Qh 5h 2d", "Ac As 2s")
    assert [c.keep for c in odds.choices] == list(out.keeps)
    assert [c.discard for c in odds.choices] == list(out.discards)
    assert [c.outcomes for c in odds.choices] == [int(n) for n in out.counts.sum(axis=1)]
    with pytest.raises(ValueError, match="read-only"):
        out.counts[0, 0] = 1
    with pytest.raises(ValueError, match="read-only"):
        out.ranks[5][0] = 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        out.counts = out.counts  # type: ignore[misc]


def test_exchange_outcomes_with_too_few_unseen_cards() -> None:
    # one unseen card: the single discards draw it, the pairs of discards have no draw
    deck = list(DECK)
    out = exchange_outcomes(deck[:4], deck[4:39])
    assert len(out.unseen) == 1
    assert [out.outcomes(i) for i in range(11)] == [1] * 5 + [0] * 6
    assert [len(r) for r in out.ranks] == [1] * 5 + [0] * 6
    assert out.counts[5:].sum() == 0
    with pytest.raises(CardError, match="both in the seat's hand"):
        exchange_outcomes("7h 6h", "6h")


def exact_exchange(
    own: tuple[Card, ...], dead: tuple[Card, ...]
) -> dict[frozenset[Card], tuple[Fraction, tuple[Fraction, ...], Fraction]]:
    """Score, category probabilities and expected points of every keep, derived from the
    definition (:data:`CRITERION`) with the scalar evaluator (R2) and exact fractions.

    The same enumeration as :func:`brute_force_exchange`, fast enough for full decks:
    every opponent hand of the unseen cards is evaluated once, and for each draw the
    opponent hands that share no card with it are counted with NumPy bit masks.
    """
    unseen = [c for c in DECK if c not in own and c not in dead]
    opponents = list(combinations(unseen, 4))
    masks = np.array([sum(1 << c.id for c in h) for h in opponents], dtype=np.int64)
    keys = np.array([evaluate(h).key for h in opponents], dtype=np.int64)
    result = {}
    for thrown in range(3):
        for discard in combinations(own, thrown):
            keep = tuple(c for c in own if c not in discard)
            doubled = others = 0
            categories = [0] * 5
            points = 0
            draws = list(combinations(unseen, 4 - len(keep)))
            for drawn in draws:
                value = evaluate(keep + drawn)
                categories[value.category] += 1
                points += value.points
                if not keep:  # two random hands of the same cards: 1/2 by symmetry
                    continue
                free = (masks & sum(1 << c.id for c in drawn)) == 0
                theirs = keys[free]
                others = len(theirs)  # the same for every draw: C(unseen - drawn, 4)
                doubled += 2 * int(np.count_nonzero(theirs < value.key))
                doubled += int(np.count_nonzero(theirs == value.key))
            score = Fraction(1, 2) if not others else Fraction(doubled, 2 * others * len(draws))
            result[frozenset(keep)] = (
                score,
                tuple(Fraction(c, len(draws)) for c in categories),
                Fraction(points, len(draws)),
            )
    return result


# Deals of every kind: a made supremus, three of a rank, a flush draw, few unseen cards,
# and the first round's two cards (R4.3, R4.4, R4.6).
EXCHANGE_EXAMPLES = [
    ("7h 6h Ah 2c", "Kd"),
    ("6h 6c 6d 2s", ""),
    ("Kh Qh 5h 2d", "Ac As 2s"),
    ("Jc Qd 2h 3s", "7c 7d 7h 7s 6c 6d"),
    ("Ah Ac", "2c 3c 4c 5c 2d 3d 4d 5d 2h 3h 4h 5h 2s 3s"),
    ("7h Kc", "Kd Ks 2c 3c 4c 5c 2d 3d 4d 5d 2h 3h"),
    ("5c 5d", "2c 3c 4c Jd Qd Kd Ah 2h 3h 4h 6s 7s Js Qs"),
]


@pytest.mark.parametrize(("own", "dead"), EXCHANGE_EXAMPLES)
def test_exchange_odds_equal_the_exact_definition(own: str, dead: str) -> None:
    # Every figure is an exact fraction rounded once: equal to the last bit.
    own_cards, dead_cards = parse_cards(own), parse_cards(dead) if dead else ()
    expected = exact_exchange(own_cards, dead_cards)
    odds = exchange_odds(own, dead)
    assert odds.unseen == 40 - len(own_cards) - len(dead_cards)
    assert len(odds.choices) == len(expected) == (11 if len(own_cards) == 4 else 4)
    for c in odds.choices:
        score, categories, points = expected[frozenset(c.keep)]
        assert c.outcomes == comb(odds.unseen, 4 - len(c.keep))
        assert c.score == float(score), c.label
        assert c.category_probabilities == tuple(float(p) for p in categories), c.label
        assert c.expected_points == float(points), c.label

    # best: the highest score, then the higher expected points, then fewer cards drawn,
    # then the earlier choice (ExchangeOdds.best)
    def rank(i: int) -> tuple[Fraction, Fraction, int, int]:
        c = odds.choices[i]
        score, _, points = expected[frozenset(c.keep)]
        return (score, points, len(c.keep), -i)

    assert odds.choices.index(odds.best) == max(range(len(odds.choices)), key=rank)


@pytest.mark.parametrize("known", [2, 3, 6, 12, 30])
def test_opponent_tables_equal_direct_counts(known: int) -> None:
    # the opponent's histograms per card and per pair, derived from a constant table
    # by removing the hands with a known card, against counting every unseen hand
    rng = random.Random(known)
    gone = {c.id for c in rng.sample(DECK, known)}
    unseen = np.array([i for i in range(40) if i not in gone], dtype=np.uint8)
    n = len(unseen)
    geometry = primero.engine.odds.combinatorics._geometry(n)
    opponent = primero.engine.odds.opponent._Opponent(unseen, geometry)
    hands = list(combinations(range(n), 4))
    ranks = [int(r) for r in ranks_of_valid(unseen[np.array(hands, dtype=np.intp)])]
    pair_rank = {pair: i for i, pair in enumerate(map(tuple, geometry.pairs.tolist()))}
    values = len(VALUE_CATEGORY)
    by_card = np.zeros((values, n), dtype=np.int64)
    by_pair = np.zeros((values, len(pair_rank)), dtype=np.int64)
    for hand, rank in zip(hands, ranks, strict=True):
        for x in hand:
            by_card[rank, x] += 1
        for pair in combinations(hand, 2):
            by_pair[rank, pair_rank[pair]] += 1

    def doubled(counts: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        result: npt.NDArray[np.int64] = 2 * np.cumsum(counts, axis=0) - counts
        return result

    assert (opponent.below0 == doubled(by_card.sum(axis=1) // 4)).all()
    assert (opponent.below1 == doubled(by_card)).all()
    assert (opponent.below2 == doubled(by_pair)).all()
