"""Draw the bots' before/after figures from the JSON files
that ``bench_table_bets.py`` and ``bench_refusals.py`` write.

Run as ``python benchmarks/plot_bots.py [DIR]`` (default ``docs/figures/bots``). Reads
``table-bets-{before,after,friendly}-{heuristic,search}.json`` (``friendly``: the
bots wrapped in friendly bet sizes, ``bench_table_bets.py --friendly``) and
``refusals-{before,after}.json`` in DIR and writes ``table-bets.png`` and
``refusals.png`` there (matplotlib, extra ``research``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any


def _load(path: Path) -> Any:
    return json.loads(path.read_text())


def main(folder: Path) -> None:
    """Write the two figures into ``folder``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(13, 4.8), dpi=100)
    for ax, kind in zip(axes, ("heuristic", "search"), strict=True):
        data, labels = [], []
        notes = []
        for when in ("before", "after", "friendly"):
            doc = _load(folder / f"table-bets-{when}-{kind}.json")
            for name, bets in doc["bets"].items():
                data.append(bets["amounts"] or [0])
                labels.append(f"{name}\n{when}")
            notes.append(f"{when}: broke after {doc['hands_until_broke']['median']:g} hands")
        box = ax.boxplot(data, tick_labels=labels, showfliers=True, patch_artist=True)
        for i, patch in enumerate(box["boxes"]):
            patch.set_facecolor(("#d9a5a5", "#a5c8d9", "#a5d9ad")[i // 3])
        ax.set_yscale("symlog", linthresh=10)
        ax.set_ylabel("bet or raise (chips)")
        ax.set_title(f"4 {kind} bots, 100 chips, 200 hands\nmedian {'; '.join(notes)}", fontsize=8)
        ax.tick_params(axis="x", labelsize=7)
    fig.suptitle(
        "Bets and raises per betting round: before, after, and with friendly bet sizes",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(folder / "table-bets.png")
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4), dpi=100)
    before = _load(folder / "refusals-before.json")
    after = _load(folder / "refusals-after.json")
    for ax, kind in zip(axes, ("heuristic", "search"), strict=True):
        b = {int(k): v for k, v in before["rebets_per_turn"][kind].items()}
        a = {int(k): v for k, v in after["rebets_per_turn"][kind].items()}
        top = max([*b, *a, 3])
        xs = list(range(top + 1))
        ax.bar(
            [x - 0.2 for x in xs],
            [b.get(x, 0) for x in xs],
            width=0.4,
            label=f"before (most {before['max_rebets'][kind]})",
            color="#d9a5a5",
        )
        ax.bar(
            [x + 0.2 for x in xs],
            [a.get(x, 0) for x in xs],
            width=0.4,
            label=f"after (most {after['max_rebets'][kind]})",
            color="#a5c8d9",
        )
        ax.axvline(3.5, color="grey", linewidth=0.8, linestyle="--")
        ax.set_xlabel("re-bets at one turn after refusals")
        ax.set_ylabel("turns")
        ax.set_title(f"{kind} bots", fontsize=9)
        ax.legend(fontsize=8)
    fig.suptitle(
        f"{after['hands']:,} seeded hands, a person refusing bets above {after['threshold']} chips",
        fontsize=10,
    )
    fig.tight_layout()
    fig.savefig(folder / "refusals.png")
    plt.close(fig)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/figures/bots"))
