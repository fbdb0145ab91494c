"""The tournament's plots as PNG files (matplotlib, from the optional extra ``research``).

matplotlib is imported when a plot is drawn, never at import time, so ``import primero``
and doctest collection work without the extra.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from primero.research.tournament import TournamentResult

__all__ = ["CUMULATIVE_PNG", "PER_100_PNG", "write_plots"]

#: File names of the plots inside the output folder.
CUMULATIVE_PNG = "cumulative.png"
PER_100_PNG = "per100.png"


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only Agg backend.

    Raises:
        ModuleNotFoundError: matplotlib is missing; the message names the extra.
    """
    try:
        matplotlib = importlib.import_module("matplotlib")
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(
            "the tournament plots need matplotlib: pip install -e '.[research]'"
        ) from exc
    matplotlib.use("Agg")
    return importlib.import_module("matplotlib.pyplot")


def write_plots(result: TournamentResult, out: Path) -> list[Path]:
    """Draw the cumulative chips of each bot kind by hand, and each kind's chips per 100
    hands with its 95 % confidence interval as error bars.

    Args:
        result: the finished tournament.
        out: an existing folder; the files :data:`CUMULATIVE_PNG` and
            :data:`PER_100_PNG` are written (replaced) in it.

    Returns:
        The paths written.

    Raises:
        ModuleNotFoundError: matplotlib is missing.
        OSError: a file cannot be written.
    """
    plt = _pyplot()
    cfg = result.config
    title = (
        f"{', '.join(cfg.bots)}: {cfg.hands_played:,} hands, {cfg.players} seats, seed {cfg.seed}"
    )
    paths = [out / CUMULATIVE_PNG, out / PER_100_PNG]

    fig, ax = plt.subplots(figsize=(8, 4.5), dpi=100)
    for bot, series in zip(result.bots, result.cumulative, strict=True):
        ax.plot(range(1, len(series) + 1), series, label=bot.bot, linewidth=1.2)
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_xlabel("hands")
    ax.set_ylabel("cumulative chips won")
    ax.set_title(title, fontsize=10)
    ax.legend()
    fig.tight_layout()
    fig.savefig(paths[0])
    plt.close(fig)

    fig, ax = plt.subplots(figsize=(6, 4.5), dpi=100)
    names = [b.bot for b in result.bots]
    means = [b.per_100 for b in result.bots]
    errors = [
        [b.per_100 - b.ci_low for b in result.bots],
        [b.ci_high - b.per_100 for b in result.bots],
    ]
    ax.bar(names, means, yerr=errors, capsize=8, color="#6a8caf")
    ax.axhline(0, color="grey", linewidth=0.6)
    ax.set_ylabel("chips won per 100 hands (95 % CI)")
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    fig.savefig(paths[1])
    plt.close(fig)
    return paths
