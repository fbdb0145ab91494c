"""``primero tournament``: bot kinds against each other over many seeded, rotated hands.

The tournament logic is :mod:`primero.research.tournament` (units, rotation, statistics); the
engines are :mod:`primero.research.tournament_engines` (this process, worker processes, Ray); the
plots :mod:`primero.research.tournament_plots`. This command wires them up, shows a progress bar,
prints a Rich table and writes the output folder:

- ``results.json``: the mixed field's chips won per bot per 100 hands with 95 %
  confidence intervals, hands played, seeds and settings, the pairwise matrix (every
  pair heads-up, :mod:`primero.research.tournament_matrix`) and the openskill ratings,
  and the versions (package, commit, Python, NumPy, libraries); identical for every
  engine and worker count (R10);
- ``run.json``: how it ran (engine, workers, seconds, hands per second);
- ``cumulative.png``, ``per100.png`` and ``matrix.png``: the plots (matplotlib, extra
  ``research``).

Entrants are bot kinds or agents by import path (``--bots heuristic,my_pkg.agents:Strong``,
:mod:`primero.research.tournament_agents`).
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from primero.bots import BOT_KINDS
from primero.cli.app import app, check_stack, in_range, output_folder

if TYPE_CHECKING:  # the command imports these when it runs, so that the CLI starts fast
    from primero.research.tournament import TournamentConfig, TournamentResult, UnitResult
    from primero.research.tournament_matrix import MatrixResult

__all__ = [
    "hands_notes",
    "hands_total",
    "matrix_table",
    "ratings_table",
    "ray_flag_args",
    "results_table",
    "tournament_command",
    "write_results",
]

_LOCAL = "local"


def ray_flag_args(args: list[str]) -> list[str]:
    """Command-line arguments with a bare ``--ray`` of ``primero tournament`` (no address
    after it: the end, or another option next) made ``--ray local`` (Typer has no options
    with an optional value).

    >>> ray_flag_args(["tournament", "--ray", "--hands", "9"])
    ['tournament', '--ray', 'local', '--hands', '9']
    >>> ray_flag_args(["tournament", "--ray", "auto"])
    ['tournament', '--ray', 'auto']
    """
    if not args or args[0] != "tournament":
        return args
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg == "--ray" and (i + 1 == len(args) or args[i + 1].startswith("-")):
            out.append(_LOCAL)
    return out


def results_table(result: TournamentResult) -> Table:
    """The Rich table of a tournament: each bot kind's chips per 100 hands and 95 % CI."""
    cfg = result.config
    table = Table(
        title=f"Tournament: {cfg.hands_played:,} hands, {cfg.players} seats, "
        f"stack {cfg.stack}, seed {cfg.seed}",
        title_justify="left",
    )
    table.add_column("bot")
    table.add_column("seat-hands", justify="right")
    table.add_column("chips won", justify="right")
    table.add_column("per 100 hands", justify="right")
    table.add_column("95 % CI", justify="right")
    for b in sorted(result.bots, key=lambda b: -b.per_100):
        style = "green" if b.ci_low > 0 else "red" if b.ci_high < 0 else ""
        per = f"{b.per_100:+.1f}"
        table.add_row(
            b.bot,
            f"{b.seat_hands:,}",
            f"{b.chips:+,}",
            f"[{style}]{per}[/]" if style else per,
            f"{b.ci_low:+.1f} .. {b.ci_high:+.1f}",
        )
    return table


def matrix_table(result: MatrixResult) -> Table:
    """The Rich table of the pairwise matrix: row against column, chips per 100 hands
    of the row's entrant, and the 95 % interval."""
    bots = list(result.field.config.bots)
    table = Table(
        title="Pairs heads-up (row against column): chips per 100 hands, 95 % interval",
        title_justify="left",
    )
    table.add_column("")
    for b in bots:
        table.add_column(escape(b), justify="right")
    for b, row in zip(bots, result.matrix(), strict=True):
        cells = []
        for e in row:
            if e is None:
                cells.append("")
                continue
            style = "green" if e.ci_low > 0 else "red" if e.ci_high < 0 else ""
            text = f"{e.per_100:+.0f}\n{e.ci_low:+.0f}..{e.ci_high:+.0f}"
            cells.append(f"[{style}]{text}[/]" if style else text)
        table.add_row(escape(b), *cells)
    return table


def ratings_table(result: MatrixResult) -> Table | None:
    """The Rich table of the openskill ratings, or None without them."""
    if result.ratings is None:
        return None
    table = Table(title="Ratings (openskill Plackett-Luce)", title_justify="left")
    for name in ("bot", "mu", "95 % interval", "sigma", "ordinal"):
        table.add_column(name, justify="left" if name == "bot" else "right")
    for r in result.ratings:
        low, high = r.ci95
        table.add_row(
            escape(r.bot),
            f"{r.mu:.2f}",
            f"{low:.2f} .. {high:.2f}",
            f"{r.sigma:.2f}",
            f"{r.ordinal:.2f}",
        )
    return table


def hands_total(config: TournamentConfig, pairs: list[TournamentConfig]) -> str:
    """The hands played, in words: the total, and with the pairs' tables the mixed field's
    and each pair's share (``"801 hands (201 in the mixed field, 200 for each of the 3
    pairs heads-up)"``)."""
    total = config.hands_played + sum(p.hands_played for p in pairs)
    if not pairs:
        return f"{total:,} hands"
    return (
        f"{total:,} hands ({config.hands_played:,} in the mixed field, "
        f"{pairs[0].hands_played:,} for each of the {len(pairs)} pairs heads-up)"
    )


def hands_notes(config: TournamentConfig, pairs: list[TournamentConfig]) -> list[tuple[str, str]]:
    """Why a table played more hands than ``--hands``: ``(where, why)`` for the mixed
    field and for the pairs (all alike), when rounded up
    (:meth:`primero.research.tournament.TournamentConfig.rounding`)."""
    notes: list[tuple[str, str]] = []
    field_note = config.rounding()
    if field_note is not None:
        notes.append(("the mixed field: " if pairs else "", field_note))
    pair_note = pairs[0].rounding() if pairs else None
    if pair_note is not None:
        notes.append(("each pair heads-up: ", pair_note))
    return notes


def write_results(
    result: TournamentResult | MatrixResult,
    out: Path,
    run: dict[str, Any],
    versions: dict[str, Any] | None = None,
    agents: list[dict[str, Any]] | None = None,
) -> None:
    """Write ``results.json`` and ``run.json`` into ``out`` (created if missing);
    ``agents``: the records of the entrants by import path
    (:func:`primero.research.provenance.agent_record`).

    Raises:
        OSError: the folder or a file cannot be written.
    """
    from primero.research.tournament_matrix import MatrixResult

    out.mkdir(parents=True, exist_ok=True)
    data = result.to_json(versions) if isinstance(result, MatrixResult) else result.to_json()
    if agents is not None:
        data["agents"] = agents
    (out / "results.json").write_text(json.dumps(data, indent=2) + "\n")
    (out / "run.json").write_text(json.dumps(run, indent=2) + "\n")


@app.command("tournament")
def tournament_command(
    bots: Annotated[
        str,
        typer.Option(
            "--bots",
            "-b",
            help=f"Two or more distinct entrants, each named once: bot kinds "
            f"({', '.join(BOT_KINDS)}; cfr with --preset mini) or agents by import path "
            "(module:Name: a class or a function of a seat view, or a pyspiel.Bot).",
        ),
    ] = "random,heuristic,search",
    hands: Annotated[
        int,
        typer.Option(
            "--hands",
            "-n",
            help="Hands a table, rounded up to whole deals: each deal is played once in "
            "every seating of a balanced design (every entrant meets every other equally "
            "often in every two seats; each pair's table: 2 seatings).",
        ),
    ] = 3000,
    seed: Annotated[
        int,
        typer.Option(
            "--seed", "-s", callback=in_range("--seed", 0), help="Tournament seed (R10), >= 0."
        ),
    ] = 1,
    players: Annotated[int, typer.Option("--players", "-p", help="Seats at the table.")] = 4,
    stack: Annotated[
        int,
        typer.Option(
            "--stack", callback=check_stack, help="Chips per seat, every hand (1 to 10^9)."
        ),
    ] = 100,
    search_samples: Annotated[
        int | None,
        typer.Option("--search-samples", help="Samples per decision of search bots."),
    ] = None,
    benchmark: Annotated[
        str | None,
        typer.Option(
            "--benchmark",
            help="A named benchmark configuration (primero-4p-v1, primero-mini-v1): its "
            "seats, stacks, rules and preset, recorded in results.json.",
        ),
    ] = None,
    preset: Annotated[
        str,
        typer.Option(
            "--preset",
            help="'mini': Mini-Primero, a research variant (2 players, stacks of 2, "
            "the 8 aces and sevens) where the cfr bot plays.",
        ),
    ] = "",
    workers: Annotated[
        int | None,
        typer.Option(
            "--workers",
            "-w",
            help="Worker processes (default 1); with --ray, CPUs of a local Ray.",
        ),
    ] = None,
    ray: Annotated[
        str | None,
        typer.Option(
            "--ray",
            help="Run on Ray: alone (or 'local'), a local Ray (ray.init()); with an "
            "ADDRESS, join that cluster.",
            metavar="[ADDRESS]",
        ),
    ] = None,
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Output folder (results.json, run.json, PNGs).")
    ] = Path("tournament"),
    plots: Annotated[bool, typer.Option(help="Write the PNG plots.")] = True,
    matrix: Annotated[
        bool,
        typer.Option(help="Also play every pair heads-up (the matrix) and rate the entrants."),
    ] = True,
) -> None:
    """Seeded bot tournament: every kind sits in every seat; results with 95 % CIs.

    Each unit is one seeded deal played once per rotation of the kinds over the seats;
    the same seed gives the same results.json whatever --workers or --ray.
    """
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeRemainingColumn,
    )

    from primero.research.tournament import TournamentConfig, check_bots, summarize
    from primero.research.tournament_agents import AgentError
    from primero.research.tournament_engines import run_local, run_processes, run_ray
    from primero.research.tournament_matrix import (
        MatrixResult,
        environment,
        pair_result,
        ratings,
    )

    kinds = tuple(k.strip() for k in bots.split(","))
    if benchmark is not None:
        from primero.research.benchmark import get_benchmark

        try:
            bench = get_benchmark(benchmark)
        except ValueError as exc:
            raise typer.BadParameter(str(exc), param_hint="--benchmark") from None
        if (players, stack) != (4, 100) or preset not in ("", bench.preset):
            raise typer.BadParameter(
                f"{bench.name} fixes the table ({bench.players} players, stacks of "
                f"{bench.stack}{', preset ' + bench.preset if bench.preset else ''}): leave "
                "out --players, --stack and --preset",
                param_hint="--benchmark",
            )
        players, stack, preset = bench.players, bench.stack, bench.preset
    try:  # before anything is played or written: one entrant, or one twice, is refused
        check_bots(kinds, preset)
    except ValueError as exc:
        raise typer.BadParameter(str(exc), param_hint="--bots") from None
    rules_kw: dict[str, Any] = {}
    if preset == "mini":
        from primero.research.mini import MINI_PLAYERS, MINI_RULES, MINI_STACK

        if (players, stack) not in ((4, 100), (MINI_PLAYERS, MINI_STACK)):
            raise typer.BadParameter(
                f"the mini preset fixes the table ({MINI_PLAYERS} players, stacks of "
                f"{MINI_STACK}): leave out --players and --stack",
                param_hint="--preset",
            )
        players, stack, rules_kw = MINI_PLAYERS, MINI_STACK, {"rules": MINI_RULES}
    try:
        config = TournamentConfig(
            bots=kinds,
            hands=hands,
            seed=seed,
            players=players,
            stack=stack,
            search_samples=search_samples,
            preset=preset,
            **rules_kw,
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    if workers is not None and workers < 1:
        raise typer.BadParameter(
            f"workers must be at least 1, not {workers}", param_hint="--workers"
        )
    output_folder(out, "--out", create=False)  # before the run: a bad folder costs no hands
    if ray is None:
        engine = "local" if (workers or 1) == 1 else "processes"
    else:
        engine = "ray" if ray == _LOCAL else f"ray {ray}"
    pairs = (
        [config.pair(a, b) for i, a in enumerate(kinds) for b in kinds[i + 1 :]]
        if matrix and len(kinds) > 2
        else []
    )
    tables = [config, *pairs]
    console = Console(highlight=False)
    started = time.perf_counter()
    played: list[list[UnitResult]] = []
    with Progress(
        TextColumn(f"tournament ({engine})"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("hands"),
        TimeRemainingColumn(),
        console=console,
        transient=True,
    ) as progress:
        task = progress.add_task("hands", total=sum(t.hands_played for t in tables))
        for table_config in tables:

            def tick(units: int, rotations: int = table_config.rotations) -> None:
                progress.advance(task, units * rotations)

            try:
                if ray is not None:
                    units = run_ray(table_config, None if ray == _LOCAL else ray, workers, tick)
                elif engine == "processes":
                    assert workers is not None
                    units = run_processes(table_config, workers, tick)
                else:
                    units = run_local(table_config, tick)
            except ModuleNotFoundError as exc:
                raise typer.BadParameter(str(exc), param_hint="--ray") from None
            except AgentError as exc:  # before anything is written to --out
                progress.stop()
                cause = getattr(exc, "cause", exc)  # Ray wraps it (RayTaskError)
                typer.echo(f"primero: {cause}", err=True)
                raise typer.Exit(2) from None
            played.append(units)
    seconds = time.perf_counter() - started
    result = summarize(config, played[0])
    run = {
        "engine": engine,
        "workers": workers,
        "seconds": round(seconds, 2),
        "hands": sum(t.hands_played for t in tables),
        "hands_per_second": round(sum(t.hands_played for t in tables) / max(seconds, 1e-9), 2),
    }
    full: MatrixResult | None = None
    if matrix and len(kinds) >= 2:
        pair_tables: list[tuple[TournamentConfig, list[UnitResult]]] = (
            list(zip(pairs, played[1:], strict=True)) if pairs else [(config, played[0])]
        )
        rated = ratings(kinds, [*pair_tables, *([(config, played[0])] if pairs else [])])
        if rated is None:  # said on screen, as the missing plots are
            note = (
                'no ratings (results.json has "ratings": null): openskill is missing: '
                "pip install -e '.[research]'"
            )
            console.print(f"[yellow]{escape(note)}[/]")
        full = MatrixResult(
            field=result,
            pairs=tuple(pair_result(c, u) for c, u in pair_tables),
            ratings=None if rated is None else tuple(rated),
        )
    from primero.research.provenance import agent_record
    from primero.research.tournament_agents import is_import_path

    agents = [agent_record(k, tables) for k in kinds if is_import_path(k)]
    write_results(full or result, output_folder(out, "--out"), run, environment(), agents)
    console.print(results_table(result))
    if full is not None:
        console.print(matrix_table(full))
        rating_table = ratings_table(full)
        if rating_table is not None:
            console.print(rating_table)
    for where, note in hands_notes(config, pairs):
        console.print(escape(f"{where}{note}"))
    written = [out / "results.json", out / "run.json"]
    if plots:
        from primero.research.tournament_plots import write_matrix_plot, write_plots

        try:
            written += write_plots(result, out)
            if full is not None:
                written.append(write_matrix_plot(full, out))
        except ModuleNotFoundError as exc:
            console.print(f"[yellow]no plots: {escape(str(exc))}[/]")
    console.print(
        f"{hands_total(config, pairs)} in {seconds:.1f} s "
        f"({run['hands_per_second']} hands/s, {engine}); wrote "
        + escape(", ".join(str(p) for p in written))
    )
