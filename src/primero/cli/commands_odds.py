"""``primero odds``: the exact odds of a seat's exchange choices and of its showdown.

``primero odds 7h 6h [--dead "Ah 2c"] [--opponents K] [--seed S] [--trials N] [--json]``

With 2 or 4 cards, a table of every exchange choice (R4.3, R4.6) from
:func:`primero.engine.odds.exchange_odds`: the probability of each category of the resulting
hand (with 2 cards, after the second deal), its expected points and its score, the best
choice marked ★. With 4 cards, also the chances of the hand as it stands against
``K`` random opponent hands (:func:`primero.engine.odds.showdown_odds`, R7): exact for one or
two opponents, a seeded Monte Carlo estimate for more.

Usage errors (a bad card, a card both held and dead, too many opponents) are one line on
standard error and exit status 2, never a traceback.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Final, NoReturn

import typer
from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text

from primero.cli.app import app, in_range
from primero.engine.cards import Card, CardError, format_cards
from primero.engine.hands import Category

if TYPE_CHECKING:  # primero.engine.odds (NumPy and its tables) loads when the command runs
    from primero.engine.odds import ExchangeChoice, ExchangeOdds, ShowdownOdds

__all__ = ["odds_command", "odds_json"]

#: Exit status of a usage error, as for bad options.
EXIT_USAGE: Final = 2


def _fail(message: str) -> NoReturn:
    typer.echo(f"primero: {message}", err=True)
    raise typer.Exit(EXIT_USAGE)


def _cards(cards: tuple[Card, ...]) -> list[str]:
    return [str(c) for c in cards]


def _choice_json(choice: ExchangeChoice, best: ExchangeChoice) -> dict[str, object]:
    return {
        "keep": _cards(choice.keep),
        "discard": _cards(choice.discard),
        "draws": choice.draws,
        "outcomes": choice.outcomes,
        "categories": {c.label: choice.probability(c) for c in Category},
        "expected_points": choice.expected_points,
        "score": choice.score,
        "best": choice is best,
    }


def _showdown_json(showdown: ShowdownOdds) -> dict[str, object]:
    return {
        "hand": _cards(showdown.hand),
        "category": showdown.value.category.label,
        "points": showdown.value.points,
        "opponents": showdown.opponents,
        "win": showdown.win,
        "tie": showdown.tie,
        "lose": showdown.lose,
        "equity": showdown.equity,
        "exact": showdown.exact,
        "trials": showdown.trials,
        "standard_error": showdown.standard_error,
        "seed": showdown.seed,
    }


def odds_json(exchange: ExchangeOdds, showdown: ShowdownOdds | None) -> dict[str, object]:
    """The JSON object ``primero odds --json`` prints.

    Args:
        exchange: the exchange odds of the seat's cards.
        showdown: the showdown odds of a 4-card hand, or None (2 cards).

    Returns:
        ``{"own", "dead", "unseen", "second_deal", "criterion", "choices", "best",
        "showdown"}``: cards as canonical text (R1); each choice with ``keep``,
        ``discard``, ``draws``, ``outcomes``, ``categories`` (category label ->
        probability), ``expected_points``, ``score`` and ``best``; ``best`` the index
        of the best choice; ``showdown`` null or the showdown figures (probabilities in
        0..1).
    """
    from primero.engine.odds import CRITERION

    return {
        "own": _cards(exchange.own),
        "dead": _cards(exchange.dead),
        "unseen": exchange.unseen,
        "second_deal": exchange.second_deal,
        "criterion": CRITERION,
        "choices": [_choice_json(c, exchange.best) for c in exchange.choices],
        "best": exchange.choices.index(exchange.best),
        "showdown": None if showdown is None else _showdown_json(showdown),
    }


def _percent(p: float) -> str:
    if p == 0:
        return "·"
    if p < 0.001:
        return "<0.1%"
    return f"{100 * p:.1f}%"


def _choice_text(choice: ExchangeChoice, *, second_deal: bool) -> str:
    if not choice.discard:
        return "keep both (bet)" if second_deal else "stand pat"
    return f"discard {format_cards(choice.discard, pretty=True)}"


def _print(exchange: ExchangeOdds, showdown: ShowdownOdds | None, opponents_asked: bool) -> None:
    from primero.engine.odds import CRITERION

    console = Console(highlight=False)
    head = Text()
    head.append("hand ", style="dim")
    head.append(format_cards(exchange.own, pretty=True), style="bold")
    if exchange.dead:
        head.append("   dead ", style="dim")
        head.append(format_cards(exchange.dead, pretty=True))
    head.append(f"   unseen {exchange.unseen}", style="dim")
    console.print(head)

    what = "after the second deal" if exchange.second_deal else "after the exchange"
    table = Table(
        title=f"Exchange choices: the hand {what}",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        padding=(0, 1),
        collapse_padding=True,
        pad_edge=False,
    )
    table.add_column("", width=1, no_wrap=True)
    table.add_column("choice", no_wrap=True)
    for category in Category:
        table.add_column(category.label, justify="right")
    table.add_column("points", justify="right")
    table.add_column("score", justify="right")
    for choice in exchange.choices:
        best = choice is exchange.best
        table.add_row(
            "★" if best else "",
            _choice_text(choice, second_deal=exchange.second_deal),
            *(_percent(choice.probability(c)) for c in Category),
            f"{choice.expected_points:.1f}",
            _percent(choice.score),
            style="bold green" if best else None,
        )
    console.print(table)
    console.print(Text(f"{CRITERION}.", style="dim"))

    if showdown is not None:
        k = showdown.opponents
        line = Text()
        line.append(f"As it stands ({showdown.value}) against {k} random hand")
        line.append("s: " if k > 1 else ": ")
        line.append(f"win {_percent(showdown.win)}", style="bold")
        line.append(f", tie {_percent(showdown.tie)}, lose {_percent(showdown.lose)}")
        line.append(f", equity {_percent(showdown.equity)}")
        if showdown.exact:
            line.append(" (exact)", style="dim")
        else:
            line.append(
                f" (Monte Carlo, {showdown.trials:,} deals, seed {showdown.seed}, "
                f"standard error {100 * showdown.standard_error:.2f} percentage points)",
                style="dim",
            )
        console.print(line)
    elif opponents_asked:
        console.print(
            Text(
                "--opponents: give four cards for showdown odds; with two cards, the "
                "exchange odds are shown.",
                style="dim",
            )
        )


@app.command(
    "odds",
    help="Exact odds of every exchange choice for 2 or 4 cards, and showdown chances.",
)
def odds_command(
    cards: Annotated[
        list[str],
        typer.Argument(
            help="The seat's 2 or 4 cards, e.g. 7h 6h, or one quoted string '7h 6h Ah 2c'.",
            show_default=False,
        ),
    ],
    dead: Annotated[
        list[str] | None,
        typer.Option(
            "--dead",
            help='Cards known not to be in the stock (e.g. your discards): "Ah 2c". '
            "May be repeated.",
            show_default=False,
        ),
    ] = None,
    opponents: Annotated[
        int | None,
        typer.Option(
            "--opponents",
            "-k",
            callback=in_range("--opponents", 1),
            help="Showdown odds against this many random hands, 1 or more (4 cards only). "
            "[default: 1]",
            show_default=False,
        ),
    ] = None,
    seed: Annotated[
        int, typer.Option("--seed", help="Seed of the Monte Carlo estimate (3+ opponents).")
    ] = 0,
    trials: Annotated[
        int,
        typer.Option(
            "--trials",
            callback=in_range("--trials", 2),
            help="Random deals of the Monte Carlo estimate, 2 or more.",
        ),
    ] = 100_000,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print one JSON object instead of tables.")
    ] = False,
) -> None:
    """Exact odds of every exchange choice for 2 or 4 cards, and showdown chances.

    Prints the exchange table of :func:`primero.engine.odds.exchange_odds` (R4.3, R4.6) and,
    for 4 cards, the showdown odds of :func:`primero.engine.odds.showdown_odds` (R7) against
    ``--opponents`` random hands; with ``--json``, the object of :func:`odds_json`.

    Raises:
        typer.Exit: status 2 when a card is unknown or repeated, a card is both held and
            dead, the seat holds neither 2 nor 4 cards, or the unseen cards cannot
            supply the draws or the opponents' hands; the message goes to standard
            error.
    """
    from primero.engine.odds import OddsError, exchange_odds, showdown_odds
    from primero.play.moveinput import InputError, read_cards

    try:  # typed leniently, as at the table (kc, 7H, 6♠️, A♡)
        own = read_cards(" ".join(cards).split())
        gone = read_cards(" ".join(dead or ()).split())
        exchange = exchange_odds(own, gone)
        showdown = None
        if len(own) == 4:
            showdown = showdown_odds(own, gone, opponents or 1, trials=trials, seed=seed)
    except (CardError, InputError, OddsError) as exc:
        _fail(str(exc))
    if as_json:
        typer.echo(json.dumps(odds_json(exchange, showdown), ensure_ascii=False))
        return
    _print(exchange, showdown, opponents is not None)
