"""``primero lbr``: local best response against an agent, a lower bound on its
exploitability (:mod:`primero.research.lbr`; the extra ``research``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape

from primero.bots import BOT_KINDS
from primero.cli.app import app, output_folder

__all__ = ["lbr_command"]


@app.command("lbr")
def lbr_command(
    agent: Annotated[
        str,
        typer.Option(
            "--agent",
            "-a",
            help=f"The agent measured: a bot kind ({', '.join(BOT_KINDS)}; cfr with "
            "--preset mini) or an agent by import path (module:Name, a class or a "
            "function of a seat view).",
        ),
    ],
    hands: Annotated[
        int, typer.Option("--hands", "-n", help="Hands (at least 2), the seats rotated.")
    ] = 200,
    seed: Annotated[int, typer.Option("--seed", "-s", help="Seed (R10), >= 0.")] = 1,
    players: Annotated[int, typer.Option("--players", "-p", help="Seats (2 to 8).")] = 2,
    stack: Annotated[int, typer.Option("--stack", help="Chips per seat, every hand.")] = 100,
    preset: Annotated[
        str, typer.Option("--preset", help="'mini': Mini-Primero (2 players, stacks of 2).")
    ] = "",
    particles: Annotated[
        int, typer.Option("--particles", help="States in the exploiter's belief a decision.")
    ] = 8,
    likelihood_samples: Annotated[
        int,
        typer.Option(
            "--likelihood-samples",
            help="Seeded copies of the agent that weigh each state (0: none).",
        ),
    ] = 8,
    search_samples: Annotated[
        int | None, typer.Option("--search-samples", help="Samples a decision of search.")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Folder for lbr.json.")] = None,
) -> None:
    """Local best response (Lisy and Bowling 2017): an exploiter's chips a hand against
    the agent, a lower bound on its exploitability, with a 95 % interval."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn

    from primero.research.lbr import LBRConfig, run_lbr

    if preset == "mini":
        players, stack = 2, 2
    try:
        config = LBRConfig(
            agent=agent,
            hands=hands,
            seed=seed,
            players=players,
            stack=stack,
            preset=preset,
            particles=particles,
            likelihood_samples=likelihood_samples,
            search_samples=search_samples,
        )
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None
    if out is not None:
        output_folder(out, "--out", create=False)
    console = Console(highlight=False)
    with Progress(
        TextColumn("lbr"), BarColumn(), MofNCompleteColumn(), console=console, transient=True
    ) as progress:
        task = progress.add_task("hands", total=hands)
        try:
            result = run_lbr(config, lambda n: progress.advance(task, n))
        except ValueError as exc:
            progress.stop()
            typer.echo(f"primero: {exc}", err=True)
            raise typer.Exit(2) from None
    console.print(
        escape(
            f"LBR against {agent}: {result.mean:+.4f} chips a hand (95 % interval "
            f"{result.low:+.4f} .. {result.high:+.4f}) over {hands:,} hands, "
            f"{config.players} seats, stack {config.stack}"
            f"{', mini' if preset else ''}: a lower bound on its exploitability"
        )
    )
    if out is not None:
        folder = output_folder(out, "--out")
        (folder / "lbr.json").write_text(json.dumps(result.to_json(), indent=2) + "\n")
