"""``primero simulate``: many hands of bot play and a table of results (R9, R10).

Bots of the given kinds are cycled over the seats; hands are played in matches (R9), a
new match starting whenever one ends (one player holds every chip), so every hand has
all the table's bots even as players drop out within a match. The same seed, players and
bots give the same table on every machine (R10).

The hot loop is :func:`simulate`: it deals with the trusted dealer path, asks each bot
for its action from its view, checks it with :meth:`HandState.apply`, and keeps only
counters (no records). When every bot is random it hands the whole run to the trusted
kernel :func:`primero.research.fastsim.simulate_random` instead (~15x faster), which plays the
identical hands: same seeds, same counters.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console, Group
from rich.table import Table

from primero.bots import BOT_KINDS, BOT_NAMES
from primero.cli.app import app, check_stack, in_range, output_folder
from primero.engine.hands import Category
from primero.engine.rules import DEFAULT_RULES, Rules, RulesError

if TYPE_CHECKING:  # the command imports these when it runs, so that the CLI starts fast
    from primero.engine.match import Agent, Match
    from primero.engine.state import HandState

__all__ = [
    "MAX_HANDS",
    "SimulationResult",
    "check_simulation",
    "parse_bots",
    "results_table",
    "simulate",
    "simulate_command",
]


#: The most hands ``primero simulate --hands`` plays in one run: some 20 minutes of the
#: default bots (about 1,000 hands a second), half a minute of random ones. The function
#: :func:`simulate` itself has no such limit.
MAX_HANDS = 1_000_000


@dataclass(slots=True)
class SimulationResult:
    """Counters of a simulation.

    Attributes:
        names: the players' names, table order.
        kinds: each player's bot kind.
        seed: the seed used (R10).
        hands: hands played.
        matches: matches started.
        net: chips won (negative: lost) by each player over all hands.
        pots_won: hands in which each player won at least one pot (chips of its own bet
            that nobody called come back to it: not a pot won).
        showdowns: hands that reached a showdown (R4.8).
        shown: hands shown at showdowns, per category (R2).
        won_with: pots won at showdowns, per category of the winning hand.
    """

    names: tuple[str, ...]
    kinds: tuple[str, ...]
    seed: int
    hands: int = 0
    matches: int = 0
    net: list[int] = field(default_factory=list)
    pots_won: list[int] = field(default_factory=list)
    showdowns: int = 0
    shown: dict[Category, int] = field(default_factory=lambda: dict.fromkeys(Category, 0))
    won_with: dict[Category, int] = field(default_factory=lambda: dict.fromkeys(Category, 0))


def parse_bots(text: str) -> tuple[str, ...]:
    """Parse a comma-separated list of bot kinds (``"random,heuristic"``).

    Raises:
        ValueError: an empty list, an empty entry (``"random,,heuristic"``) or an
            unknown kind (the message lists the kinds).
    """
    kinds = tuple(k.strip() for k in text.split(","))
    if not any(kinds):
        raise ValueError(f"give at least one bot kind: {', '.join(BOT_KINDS)}")
    if not all(kinds):
        raise ValueError(
            f"empty bot kind in {text!r}: give kinds separated by single commas, "
            f"each one of {', '.join(BOT_KINDS)}"
        )
    for kind in kinds:
        if kind not in BOT_KINDS:
            raise ValueError(f"unknown bot kind {kind!r}: one of {', '.join(BOT_KINDS)}")
    return kinds


def check_simulation(players: int, hands: int, rules: Rules, stack: int) -> None:
    """Check the arguments of ``primero simulate`` before anything is played.

    Args:
        players: seats at the table.
        hands: hands to play.
        rules: the house rules.
        stack: the starting stack (chips).

    Raises:
        ValueError: ``hands`` < 1.
        RulesError: a number of players the rules do not allow (R3), or a stack that is not
            a whole number >= 1 (chips).
    """
    if hands < 1:
        raise ValueError(f"hands must be at least 1, not {hands}")
    if not rules.min_players <= players <= rules.max_players:
        raise RulesError(
            f"players must be from {rules.min_players} to {rules.max_players}, not {players}"
        )
    if type(stack) is not int or stack < 1:
        raise RulesError(f"the starting stack is a whole number >= 1, not {stack!r}")


def _kernel_hand(
    state: HandState, rules: Rules, dealer_rng: random.Random, bot_rngs: list[random.Random]
) -> None:
    """Play ``state`` (a new hand, ante taken) with the trusted kernel and its record
    lines, each line checked by the engine as it is applied (R4–R9).

    Raises:
        RuntimeError: the kernel's hand ends otherwise than the engine's (a kernel bug).
    """
    from primero.research.fastsim import play_random_hand

    played = play_random_hand(list(state.starting_stacks), rules, dealer_rng, bot_rngs, record=True)
    assert played.lines is not None
    for line in played.lines:
        state.apply(line)
    result = state.result
    if result is None or tuple(result.final_stacks) != tuple(played.final_stacks):
        raise RuntimeError("the kernel's hand and the engine's replay of it differ")


def simulate(
    hands: int,
    players: int,
    bots: Sequence[str],
    seed: int,
    *,
    rules: Rules = DEFAULT_RULES,
    stack: int = 100,
    on_hand: Callable[[int], None] | None = None,
    fast: bool = True,
    save_dir: Path | None = None,
) -> SimulationResult:
    """Play ``hands`` hands of bot play and count the results (R4–R9).

    Args:
        hands: number of hands, >= 1.
        players: seats at the table (within the rules' min_players..max_players, R3).
        bots: bot kinds, cycled over the seats.
        seed: seed of every match's dealer and every bot (R10).
        rules: the house rules.
        stack: starting stack of every player in every match (chips).
        on_hand: called with the number of hands played after each hand (progress).
        fast: when every bot is random, play with the trusted kernel
            :func:`primero.research.fastsim.simulate_random` (the same hands and counters as the
            checked engine); False always plays with the checked engine.
        save_dir: write each hand's record (docs/record-format.md) there as
            ``simulate-<seed>-<hand number>.prh`` (``--save-dir``). With random bots the
            kernel still plays every hand (:func:`primero.research.fastsim.play_random_hand`,
            record lines on, the same seeds as :func:`~primero.research.fastsim.simulate_random`)
            and each record is replayed into the checked engine before it is written, so
            every written record replays (``primero replay``).

    Returns:
        The counters.

    Raises:
        ValueError: ``hands`` < 1 or an unknown bot kind.
        RulesError: a number of players the rules do not allow, a stack < 1, or rules
            and stacks that make no game (:meth:`primero.engine.rules.Rules.check_stacks`).
    """
    check_simulation(players, hands, rules, stack)
    rules.check_stacks([stack] * players)
    kinds = tuple(bots[i % len(bots)] for i in range(players))
    names = tuple(
        BOT_NAMES[i % len(BOT_NAMES)] + ("" if i < len(BOT_NAMES) else str(i))
        for i in range(players)
    )
    if fast and save_dir is None and all(k == "random" for k in kinds):
        from primero.research.fastsim import simulate_random

        summary = simulate_random(players, hands, seed, rules=rules, stack=stack, on_hand=on_hand)
        return SimulationResult(
            names,
            kinds,
            seed,
            hands=summary.hands,
            matches=summary.matches,
            net=list(summary.net),
            pots_won=list(summary.pots_won),
            showdowns=summary.showdowns,
            shown={c: summary.shown[c] for c in Category},
            won_with={c: summary.won_with[c] for c in Category},
        )
    from primero.bots import make_bot
    from primero.engine.dealing import derive_seed
    from primero.engine.history import write_record
    from primero.engine.match import Match
    from primero.engine.state import DEALER
    from primero.engine.views import view
    from primero.play.tablemodel.sentences import won_awards

    agents: list[Agent] = [make_bot(k, derive_seed(seed, i)) for i, k in enumerate(kinds)]
    kernel = fast and all(k == "random" for k in kinds)  # with save_dir: recorded hands
    bot_rngs = [random.Random(derive_seed(seed, i)) for i in range(players)]
    dealer_rng = random.Random()
    result = SimulationResult(names, kinds, seed, net=[0] * players, pots_won=[0] * players)
    net, pots_won, shown, won_with = result.net, result.pots_won, result.shown, result.won_with
    match: Match | None = None
    played = 0
    while played < hands:
        if match is None or match.over:
            match_seed = derive_seed(seed, 100 + result.matches)
            match = Match(names, stacks=stack, rules=rules, seed=match_seed)
            dealer_rng = random.Random(match_seed)  # the kernel's dealer of this match
            result.matches += 1
        state = match.start_hand()
        seats = match.seats
        if kernel:
            _kernel_hand(state, rules, dealer_rng, [bot_rngs[i] for i in seats])
        hand_agents = [agents[i] for i in seats]
        dealer = match.dealer
        while not state.complete:
            seat = state.to_act
            if seat == DEALER:
                dealer.deal_into(state)
            else:
                assert seat is not None
                state.apply(hand_agents[seat](view(state, seat)))
        outcome = state.result
        assert outcome is not None
        for s, chips in enumerate(outcome.net):
            net[seats[s]] += chips
        # chips nobody called come back to the bettor: not a pot won
        winners = {w for award in won_awards(view(state, None)) for w in award.winners}
        for s in winners:
            pots_won[seats[s]] += 1
        if not outcome.uncontested:
            result.showdowns += 1
            for value in outcome.shown:
                if value is not None:
                    shown[value.category] += 1
            for award in outcome.awards:
                if len(award.pot.eligible) > 1:
                    value = outcome.shown[award.winners[0]]
                    assert value is not None
                    won_with[value.category] += 1
        record = match.finish_hand()
        match.records.clear()  # records are not kept here: keep memory flat
        played += 1
        if save_dir is not None:
            write_record(record, save_dir / f"simulate-{seed}-{played:06d}.prh")
        if on_hand is not None:
            on_hand(played)
    result.hands = played
    return result


def results_table(result: SimulationResult) -> Group:
    """The results as Rich tables: one row per seat (and per kind), then the showdowns.

    Args:
        result: the counters from :func:`simulate`.

    Returns:
        A table of chips won (total and per 100 hands) and hands won per seat, with a
        total per bot kind when there are several kinds; and a table of how often each
        category (R2) was shown and won contested pots at showdowns. Each table's caption
        says why its counts can exceed the hands (side pots and split pots, R7).
    """
    hands = max(1, result.hands)
    table = Table(
        title=f"{result.hands} hands, {len(result.names)} players, {result.matches} "
        f"match{'es' if result.matches != 1 else ''}, seed {result.seed}",
        title_justify="left",
    )
    table.add_column("player")
    table.add_column("bot")
    table.add_column("chips won", justify="right")
    table.add_column("per 100 hands", justify="right")
    table.add_column("hands won", justify="right")
    for name, kind, net, won in zip(
        result.names, result.kinds, result.net, result.pots_won, strict=True
    ):
        style = "green" if net > 0 else "red" if net < 0 else ""
        table.add_row(
            name,
            kind,
            f"[{style}]{net:+d}[/]" if style else "0",
            f"{100 * net / hands:+.1f}",
            str(won),
        )
    table.caption = (
        "hands won: hands in which the seat took a pot. Split pots (R7 ties) and side "
        "pots give one hand several winners, so the column can add up to more than the "
        "hands played."
    )
    table.caption_justify = "left"
    by_kind: dict[str, list[int]] = {}
    for kind, net in zip(result.kinds, result.net, strict=True):
        by_kind.setdefault(kind, []).append(net)
    if len(by_kind) > 1:
        table.add_section()
        for kind, nets in by_kind.items():
            total = sum(nets)
            table.add_row(
                f"all {kind}",
                f"{len(nets)} seat{'' if len(nets) == 1 else 's'}",
                f"{total:+d}",
                f"{100 * total / hands:+.1f}",
                "",
            )
    shown_total = max(1, sum(result.shown.values()))
    cats = Table(
        title=f"Showdowns: {result.showdowns} of {result.hands} hands "
        f"({100 * result.showdowns / hands:.1f}%)",
        title_justify="left",
    )
    cats.caption = (
        "pots won: contested pots (two or more players eligible) taken by a hand of the "
        "category. One hand can take the main pot and side pots (R7), so a category can "
        "win more pots than it showed hands."
    )
    cats.caption_justify = "left"
    cats.add_column("category")
    cats.add_column("hands shown", justify="right")
    cats.add_column("% of shown", justify="right")
    cats.add_column("pots won", justify="right")
    for cat in sorted(Category, reverse=True):
        count = result.shown[cat]
        cats.add_row(
            cat.label,
            str(count),
            f"{100 * count / shown_total:.1f}%",
            str(result.won_with[cat]),
        )
    return Group(table, cats)


@app.command("simulate")
def simulate_command(
    hands: Annotated[
        int,
        typer.Option(
            "--hands",
            "-n",
            callback=in_range("--hands", 1, MAX_HANDS),
            help="Hands to play, 1 to 1,000,000.",
        ),
    ] = 1000,
    players: Annotated[int, typer.Option("--players", "-p", help="Seats at the table.")] = 6,
    seed: Annotated[
        int | None,
        typer.Option(
            "--seed",
            "-s",
            callback=in_range("--seed", 0),  # seeds are whole numbers 0 or more (R10)
            help="Seed (R10), >= 0; default: a fresh one, shown in the title.",
        ),
    ] = None,
    bots: Annotated[
        str,
        typer.Option(
            "--bots", "-b", help=f"Bot kinds cycled over the seats: {', '.join(BOT_KINDS)}."
        ),
    ] = "heuristic,random",
    stack: Annotated[
        int,
        typer.Option("--stack", callback=check_stack, help="Starting stack (chips, 1 to 10^9)."),
    ] = 100,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only the results table.")
    ] = False,
    save_dir: Annotated[
        Path | None,
        typer.Option(
            "--save-dir",
            help="Write each hand's record (.prh) into this folder, as "
            "simulate-SEED-NUMBER.prh; every one replays with primero replay.",
        ),
    ] = None,
) -> None:
    """Play N hands of bot play (a new match whenever one ends) and print the results.

    The table gives each seat's chips won, total and per 100 hands, the hands in which
    it took a pot, and how often each category (R2) was shown and won at showdowns. The
    same seed, players and bots give the same table (R10), with or without
    ``--save-dir``. At most 1,000,000 hands. While they are played a progress bar is
    drawn on standard error when it is a terminal (not with ``--quiet``); standard output
    holds only the results.
    """
    try:
        kinds = parse_bots(bots)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots") from None
    try:
        check_simulation(players, hands, DEFAULT_RULES, stack)
        DEFAULT_RULES.check_stacks([stack] * players)
    except RulesError as exc:
        typer.echo(f"primero: {exc}", err=True)
        raise typer.Exit(2) from None
    if seed is None:
        import secrets

        seed = secrets.randbelow(2**31)
    if save_dir is not None:
        output_folder(save_dir, "--save-dir")
    console = Console(highlight=False)
    # the progress bar goes to standard error, so that standard output holds the results
    # alone; only on a terminal (piped or in tests, Rich would still write a blank line)
    errors = Console(stderr=True, highlight=False)
    started = time.perf_counter()
    try:
        if quiet or not errors.is_terminal:
            result = simulate(hands, players, kinds, seed, stack=stack, save_dir=save_dir)
        else:
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeRemainingColumn,
            )

            with Progress(
                TextColumn("simulating"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeRemainingColumn(),
                console=errors,
                transient=True,
                redirect_stdout=False,
                redirect_stderr=False,
            ) as progress:
                task = progress.add_task("hands", total=hands)
                step = max(1, hands // 200)

                def tick(done: int) -> None:
                    if done % step == 0 or done == hands:
                        progress.update(task, completed=done)

                result = simulate(
                    hands, players, kinds, seed, stack=stack, on_hand=tick, save_dir=save_dir
                )
    except RulesError as exc:
        raise typer.BadParameter(str(exc), param_hint="--players") from None
    except OSError as exc:
        typer.echo(f"primero: cannot write a record in {save_dir}: {exc}", err=True)
        raise typer.Exit(1) from None
    console.print(results_table(result))
    if not quiet:
        elapsed = time.perf_counter() - started
        rate = hands / max(elapsed, 1e-9)
        noun = "hand" if hands == 1 else "hands"
        console.print(f"{hands} {noun} in {elapsed:.2f} s ({rate:.0f} hands/s)")
