"""The tournament's plots as PNG files (matplotlib, from the optional extra ``research``).

matplotlib is imported when a plot is drawn, never at import time, so ``import primero``
and doctest collection work without the extra.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from primero.research.tournament import TournamentResult

if TYPE_CHECKING:
    from primero.research.tournament_matrix import MatrixResult

__all__ = ["CUMULATIVE_PNG", "MATRIX_PNG", "PER_100_PNG", "write_matrix_plot", "write_plots"]

#: File names of the plots inside the output folder.
CUMULATIVE_PNG = "cumulative.png"
PER_100_PNG = "per100.png"
MATRIX_PNG = "matrix.png"


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


def write_matrix_plot(result: MatrixResult, out: Path) -> Path:
    """Draw the pairwise matrix as a heat map (row against column: the row's chips won per
    100 hands, its 95 % interval under it; green won, red lost, grey within the
    interval's reach of 0), with the ratings' ordinals in the row labels.

    Args:
        result: the tournament with its pairs.
        out: an existing folder; :data:`MATRIX_PNG` is written (replaced) in it.

    Returns:
        The path written.

    Raises:
        ModuleNotFoundError: matplotlib is missing.
        OSError: the file cannot be written.
    """
    plt = _pyplot()
    cfg = result.field.config
    bots = list(cfg.bots)
    rows = result.matrix()
    n = len(bots)
    hands = result.pairs[0].hands if result.pairs else 0
    values = [[0.0 if e is None else e.per_100 for e in row] for row in rows]
    limit = max(1.0, max(abs(v) for row in values for v in row))
    fig, ax = plt.subplots(figsize=(1.6 * n + 2.4, 1.1 * n + 1.6), dpi=100)
    ax.imshow(values, cmap="RdYlGn", vmin=-limit, vmax=limit)
    for i, row in enumerate(rows):
        for j, e in enumerate(row):
            if e is None:
                ax.text(j, i, "—", ha="center", va="center", color="grey")
                continue
            sure = e.ci_low > 0 or e.ci_high < 0
            ax.text(
                j,
                i,
                f"{e.per_100:+,.0f}\n{e.ci_low:+,.0f}..{e.ci_high:+,.0f}",
                ha="center",
                va="center",
                fontsize=8,
                fontweight="bold" if sure else "normal",
            )
    ordinal = {r.bot: r.ordinal for r in result.ratings or ()}
    labels = [f"{b}\n(rating {ordinal[b]:.1f})" if b in ordinal else b for b in bots]
    ax.set_xticks(range(n), [b if len(b) < 14 else b[:12] + "…" for b in bots])
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("against")
    ax.set_title(
        f"chips per 100 hands, row against column (95 % interval)\n"
        f"{hands:,} hands a pair, 2 + 2 at {cfg.players} seats, seed {cfg.seed}",
        fontsize=9,
    )
    fig.tight_layout()
    path = out / MATRIX_PNG
    fig.savefig(path)
    plt.close(fig)
    return path
