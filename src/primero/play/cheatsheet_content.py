"""The cheat sheet's content as plain data, generated from the code (R1, R2, R4, R7, R8).

Nothing on the sheet is typed in twice: the example hands are evaluated with
:func:`primero.engine.hands.evaluate`, the category counts and point ranges are counted by the
evaluator over all C(40,4) = 91,390 hands, and the points table is read from
:data:`primero.engine.cards.POINTS`. :mod:`primero.play.cheatsheet` renders it as Markdown and HTML,
:mod:`primero.play.cheatsheet_pdf` as a PDF, ``primero rules`` with Rich.

>>> [s.hands for s in category_stats()]
[10, 840, 120, 9990, 80430]
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import combinations, groupby
from math import comb
from typing import Final

from primero.engine.cards import POINTS, Card, Rank, parse_cards
from primero.engine.hands import Category, HandValue, evaluate, evaluate_ids

__all__ = [
    "FOOTER",
    "PLAY_STEPS",
    "RULE_LINES",
    "TITLE",
    "CategoryStats",
    "Cell",
    "Example",
    "PlayStep",
    "SheetTable",
    "Span",
    "category_stats",
    "examples",
    "points_groups",
    "sheet_tables",
]

TITLE: Final = "Primero cheat sheet"
_TOTAL_HANDS: Final = comb(40, 4)


@dataclass(frozen=True, slots=True)
class CategoryStats:
    """How many of the 91,390 four-card hands fall in a category, and their points (R2).

    Attributes:
        category: the :class:`~primero.engine.hands.Category`.
        hands: the number of hands of that category.
        min_points: the fewest points such a hand scores.
        max_points: the most points such a hand scores.
    """

    category: Category
    hands: int
    min_points: int
    max_points: int

    @property
    def share(self) -> float:
        """The fraction of all C(40,4) hands that are of this category (0..1)."""
        return self.hands / _TOTAL_HANDS

    @property
    def points_range(self) -> str:
        """The points as text: ``"20–54"``, or ``"55"`` when every hand scores the same."""
        if self.min_points == self.max_points:
            return str(self.min_points)
        return f"{self.min_points}–{self.max_points}"


@cache
def category_stats() -> tuple[CategoryStats, ...]:
    """Count every 4-card hand by category with the evaluator (R2); cached after one call.

    Returns:
        One :class:`CategoryStats` per category, high to low (chorus first); the counts
        add up to C(40,4) = 91,390.
    """
    counts = dict.fromkeys(Category, 0)
    lows = dict.fromkeys(Category, 10**9)
    highs = dict.fromkeys(Category, -1)
    for a, b, c, d in combinations(range(40), 4):
        value = evaluate_ids(a, b, c, d)
        cat = value.category
        counts[cat] += 1
        lows[cat] = min(lows[cat], value.points)
        highs[cat] = max(highs[cat], value.points)
    return tuple(
        CategoryStats(cat, counts[cat], lows[cat], highs[cat])
        for cat in sorted(Category, reverse=True)
    )


@dataclass(frozen=True, slots=True)
class Example:
    """An example hand of a category, with the engine's value of it (R2).

    Attributes:
        cards: the four cards, in the order shown.
        value: ``evaluate(cards)``: category, points and counting cards.
        definition: what the category is, in one line.
    """

    cards: tuple[Card, ...]
    value: HandValue
    definition: str


# The seed's own examples where it gives one (four sixes; 2 4 A 6 of hearts; ...).
_EXAMPLES: Final[tuple[tuple[str, str], ...]] = (
    ("6c 6d 6h 6s", "Four cards of one rank. All four count."),
    ("2h 4h Ah 6h", "Four cards of one suit. All four count."),
    ("As 6s 7s 3d", "A, 6 and 7 of one suit and any other card. The A 6 7 count: always 55."),
    ("3h 5d Ks 7c", "One card of each suit. All four count."),
    (
        "Qc 4c 6c 4s",
        "Anything else: 2 or 3 cards of one suit, and those count "
        "(two suits of two: the pair with more points).",
    ),
)


@cache
def examples() -> tuple[Example, ...]:
    """One example hand per category, high to low, each evaluated by the engine (R2).

    Returns:
        Five :class:`Example` values, chorus first.

    Raises:
        RuntimeError: an example does not evaluate to the category it illustrates (the
            sheet would then be wrong, so it is not produced).
    """
    result = []
    for (text, definition), expected in zip(_EXAMPLES, sorted(Category, reverse=True), strict=True):
        cards = parse_cards(text)
        value = evaluate(cards)
        if value.category is not expected:
            raise RuntimeError(
                f"example {text!r} is a {value.category.label}, not {expected.label}"
            )
        result.append(Example(cards, value, definition))
    return tuple(result)


def points_groups() -> tuple[tuple[tuple[Rank, ...], int], ...]:
    """The points table of R1 read from :data:`~primero.engine.cards.POINTS`, high to low.

    Returns:
        ``((ranks, points), ...)``, ranks with equal points grouped in deck order:
        ``((7,), 21), ((6,), 18), ((A,), 16), ... ((J, Q, K), 10)``.
    """
    ranks = sorted(Rank, key=lambda r: (-POINTS[r], r))
    return tuple(
        (tuple(group), points) for points, group in groupby(ranks, key=lambda r: POINTS[r])
    )


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of a table cell: a text, or a card shown with its suit symbol.

    Attributes:
        text: the text (ignored when ``card`` is set).
        card: a card to show as rank and suit symbol, hearts and diamonds in red.
        bold: set for the counting cards of an example and for emphasis.
    """

    text: str = ""
    card: Card | None = None
    bold: bool = False


#: A table cell: spans written one after the other, separated by nothing.
Cell = tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class SheetTable:
    """One table of the sheet, independent of the output format.

    Attributes:
        title: the heading above the table, ending with its rules section: ``"... (R2)"``.
        headers: the column headings.
        rows: the cells, row by row.
        align: one letter per column, ``"l"`` (left) or ``"r"`` (right).
        widths: column widths in millimetres for the PDF (they add up to the text width).
        note: a line printed under the table, or ``""``.
    """

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    align: str
    widths: tuple[float, ...]
    note: str = ""


def _text(text: str, *, bold: bool = False) -> Cell:
    return (Span(text, bold=bold),)


def _hand_cell(example: Example) -> Cell:
    spans: list[Span] = []
    for i, card in enumerate(example.cards):
        if i:
            spans.append(Span(" "))
        spans.append(Span(card=card, bold=card in example.value.counting))
    return tuple(spans)


@cache
def sheet_tables() -> tuple[SheetTable, ...]:
    """The sheet's three tables: hand ranks, how often, card points (R1, R2).

    Returns:
        The rank table (definition, evaluated example, its points), the frequency table
        (counts, shares and point ranges from :func:`category_stats`) and the points
        table (from :func:`points_groups`), in that order.

    Raises:
        RuntimeError: as :func:`examples`.
    """
    ranks = SheetTable(
        title="Hands, high to low (R2)",
        headers=("Hand", "What it is", "Example", "Points"),
        rows=tuple(
            (
                _text(ex.value.category.label, bold=True),
                _text(ex.definition),
                _hand_cell(ex),
                _text(str(ex.value.points)),
            )
            for ex in examples()
        ),
        align="lllr",
        widths=(24, 104, 34, 18),
        note=(
            "Counting cards in bold. A higher category always wins; in the same category, "
            "more points win; equal points tie (see Ties)."
        ),
    )
    freq = SheetTable(
        title=f"How often, over all {_TOTAL_HANDS:,} four-card hands (R2)",
        headers=("Hand", "Hands", "Share", "Points"),
        rows=tuple(
            (
                _text(s.category.label, bold=True),
                _text(f"{s.hands:,}"),
                _text(f"{100 * s.share:.3f} %"),
                _text(s.points_range),
            )
            for s in category_stats()
        ),
        align="lrrr",
        widths=(24, 30, 30, 30),
    )
    groups = points_groups()
    points = SheetTable(
        title="Card points (R1)",
        headers=("Card", *(" ".join(r.char for r in ranks_) for ranks_, _ in groups)),
        rows=((_text("Points", bold=True), *(_text(str(p)) for _, p in groups)),),
        align="l" + "r" * len(groups),
        widths=(24, *([18.0] * len(groups))),
        note=(
            "Only the counting cards score. The deck: A 2 3 4 5 6 7 J Q K in four suits, 40 cards."
        ),
    )
    return (ranks, freq, points)


@dataclass(frozen=True, slots=True)
class PlayStep:
    """One line of the order of play (R4) or of the rules summary.

    Attributes:
        name: the step's name, e.g. ``"Ante"``.
        text: what happens, in one line.
        section: the rules section(s) it summarises, e.g. ``"R4.1"``.
    """

    name: str
    text: str
    section: str


#: The order of play, one line per step (R4).
PLAY_STEPS: Final[tuple[PlayStep, ...]] = (
    PlayStep("Ante", "Everyone puts the ante in the pot (house rule ante, default 1).", "R4.1"),
    PlayStep(
        "First deal",
        "Two cards each, from the dealer's right (p1) round to the dealer.",
        "R4.2",
    ),
    PlayStep(
        "Bet or exchange",
        "From p1, each bets (at least 1) or exchanges 1 or 2 cards; the first bet that "
        "stands ends the exchanges, then call, raise or fold. Everyone exchanged and "
        "nobody bet: void deal, same dealer deals again, antes stay.",
        "R4.3",
    ),
    PlayStep("Second deal", "Two more cards to each player still in.", "R4.4"),
    PlayStep(
        "Declare and bet",
        "Each names a category, true or higher (never lower), then bets; the opener "
        "must bet, 0 allowed.",
        "R4.5, R6",
    ),
    PlayStep(
        "Second exchange",
        "From p1, each player still in discards 0, 1 or 2 cards and gets as many.",
        "R4.6",
    ),
    PlayStep(
        "Last round",
        "One more betting round, no declarations (house rule last_round can drop it).",
        "R4.7",
    ),
    PlayStep(
        "Showdown",
        "Highest category wins, then most points; the declarations do not count.",
        "R4.8, R7",
    ),
)

#: Refusal and ties, one line each (R8, R7).
RULE_LINES: Final[tuple[PlayStep, ...]] = (
    PlayStep(
        "Refusal",
        "With 3 or more players still in, a bet above 0 is put to the others; if all "
        "refuse, it is withdrawn and the bettor must bet less. Two players: no refusal.",
        "R8",
    ),
    PlayStep(
        "Ties",
        "Same category and points: the eldest (earliest seat from the dealer's right) "
        'wins; house rule ties = "split" shares the pot.',
        "R7",
    ),
)

FOOTER: Final = (
    "Generated by primero from its hand evaluator. Full rules: docs/rules.md "
    "or the command primero rules (sections R1-R10)."
)
