"""A tournament's pairwise matrix, ratings and provenance (what ``results.json`` records).

Besides the **mixed field** (every entrant at one table, :mod:`primero.research.tournament`),
a tournament plays every **pair** of entrants heads-up at the same table size: two seats
each at 4 seats (``a b a b``, then ``b a b a``), with the same seed and so the same
deals. Entry ``(i, j)`` of the matrix is entrant ``i``'s chips won per 100 seat-hands
against ``j``, with its 95 % interval (Student's t over the units, as for the field);
the matrix is antisymmetric.

**Ratings** come from a maintained library, openskill (Weng-Lin Plackett-Luce, its
defaults, ``tau = 0``). **A rating match** (:data:`RATING_MATCH`) is a session of one
table: its consecutive whole units (in unit order) up to the first that reaches
:data:`SESSION_HANDS` hands, whose teams are the entrants at that table, ranked by the
chips each won in it (equal chips, equal rank). Sessions, not hands: ranked hand by hand,
a bluffer that steals many antes and loses a few big pots would rate high while losing
chips. The tables are rated in an order fixed by the entrants' names (the pairs sorted
by their two names, then the field) and the teams of a match are given sorted by name,
so the ratings, like every other figure, do not depend on the order of ``--bots``.
``ordinal`` is ``mu - 3 sigma``; the 95 % interval is ``mu +- 1.96 sigma`` (the model's
normal belief about the skill). openskill is in the extra ``research``; without it the
ratings are left out.

**Provenance**: the package version, the git commit and whether the checkout had
uncommitted changes when the package runs from one, Python, NumPy and the libraries
used (``None`` when not installed), and the seeds: the tournament seed and every unit's
deal seed (bots' seeds derive from it, :func:`primero.research.tournament.unit_seed`).
"""

from __future__ import annotations

import importlib
import platform
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

from primero.research.tournament import (
    TournamentConfig,
    TournamentResult,
    UnitResult,
    mean_ci,
    unit_seed,
)

__all__ = [
    "LIBRARIES",
    "RATING_MATCH",
    "SESSION_HANDS",
    "MatrixResult",
    "PairResult",
    "Rating",
    "environment",
    "pair_result",
    "ratings",
]

#: Hands in a rating session (rounded up to whole units).
SESSION_HANDS = 20

#: What one rating match is, in the words results.json and the docs use.
RATING_MATCH = (
    f"one session of one table: consecutive whole units (each one deal in every seating) "
    f"of at least {SESSION_HANDS} hands, the entrants at the table ranked by the chips "
    f"each won in it"
)

#: The normal quantile of a two-sided 95 % interval.
_Z95 = 1.959963984540054

#: Libraries whose versions ``results.json`` records.
LIBRARIES = ("numpy", "openskill", "open-spiel", "ray", "matplotlib", "gymnasium", "pettingzoo")


@dataclass(frozen=True, slots=True)
class PairResult:
    """Entrant ``a`` against entrant ``b`` (heads-up, 2 + 2 at 4 seats).

    Attributes:
        a, b: the entrants.
        hands: hands played.
        per_100: ``a``'s chips won per 100 seat-hands (``b``'s is its negative).
        ci_low, ci_high: its 95 % interval.
    """

    a: str
    b: str
    hands: int
    per_100: float
    ci_low: float
    ci_high: float


def pair_result(config: TournamentConfig, units: Sequence[UnitResult]) -> PairResult:
    """Summarize a two-entrant tournament (``config.bots == (a, b)``).

    Raises:
        ValueError: not two entrants, or not the units ``0..config.units - 1``.
    """
    if len(config.bots) != 2:
        raise ValueError(f"a pair has two entrants, not {len(config.bots)}")
    ordered = sorted(units, key=lambda r: r.unit)
    if [r.unit for r in ordered] != list(range(config.units)):
        raise ValueError(f"expected the results of units 0..{config.units - 1}")
    mean, low, high = mean_ci([sum(r.net[0]) / config.seat_hands_per_unit for r in ordered])
    a, b = config.bots
    return PairResult(a, b, config.hands_played, 100 * mean, 100 * low, 100 * high)


@dataclass(frozen=True, slots=True)
class Rating:
    """An entrant's openskill rating (Plackett-Luce): ``mu``, ``sigma``, the
    conservative ``ordinal = mu - 3 sigma`` and the 95 % interval of the skill,
    ``mu +- 1.96 sigma``."""

    bot: str
    mu: float
    sigma: float
    ordinal: float

    @property
    def ci95(self) -> tuple[float, float]:
        """The 95 % interval ``(mu - 1.96 sigma, mu + 1.96 sigma)``."""
        return self.mu - _Z95 * self.sigma, self.mu + _Z95 * self.sigma


def ratings(
    bots: Sequence[str], tables: Sequence[tuple[TournamentConfig, Sequence[UnitResult]]]
) -> list[Rating] | None:
    """openskill ratings from every hand of ``tables`` (see the module docstring: one
    match is :data:`RATING_MATCH`), best ordinal first (then by name); None when
    openskill is not installed. The result does not depend on the order of ``bots``,
    of ``tables`` or of each table's entrants.

    Args:
        bots: every entrant.
        tables: each table's config and unit results.
    """
    try:
        models = importlib.import_module("openskill.models")
    except ModuleNotFoundError:
        return None
    model = models.PlackettLuce(tau=0.0)
    current = {b: model.rating(name=b) for b in sorted(bots)}
    for config, units in sorted(tables, key=lambda t: (len(t[0].bots), sorted(t[0].bots))):
        ordered = sorted(units, key=lambda r: r.unit)
        names = sorted(config.bots)
        index = [config.bots.index(b) for b in names]
        size = -(-SESSION_HANDS // config.rotations)
        for start in range(0, len(ordered), size):
            session = ordered[start : start + size]
            chips = [sum(sum(u.net[i]) for u in session) for i in index]
            order = sorted(set(chips), reverse=True)
            ranks = [order.index(c) + 1 for c in chips]
            teams = [[current[b]] for b in names]
            rated = model.rate(teams, ranks=ranks)
            for b, team in zip(names, rated, strict=True):
                current[b] = team[0]
    out = [
        Rating(b, float(r.mu), float(r.sigma), float(r.mu - 3 * r.sigma))
        for b, r in current.items()
    ]
    return sorted(out, key=lambda r: (-r.ordinal, r.bot))


def _version(dist: str) -> str | None:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def environment() -> dict[str, Any]:
    """The versions a result was produced with (see the module docstring): ``commit`` and
    ``dirty`` (tracked files changed since it) of the checkout the package runs from,
    None outside one (:func:`primero.research.provenance.git_state`)."""
    from primero.research.provenance import git_state

    commit, dirty = git_state(Path(__file__).resolve().parent)
    return {
        "primero": _version("primero"),
        "commit": commit,
        "dirty": dirty,
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "libraries": {name: _version(name) for name in LIBRARIES},
    }


@dataclass(frozen=True, slots=True)
class MatrixResult:
    """A whole tournament: the mixed field, every pair, the ratings.

    Attributes:
        field: the mixed field's result.
        pairs: every pair, in the order of ``field.config.bots`` (``(0, 1), (0, 2), ...``).
        ratings: best ordinal first, or None without openskill.
    """

    field: TournamentResult
    pairs: tuple[PairResult, ...]
    ratings: tuple[Rating, ...] | None

    def matrix(self) -> list[list[PairResult | None]]:
        """Entry ``[i][j]``: entrant ``i`` against ``j`` (None on the diagonal), as a
        :class:`PairResult` from ``i``'s side."""
        bots = list(self.field.config.bots)
        out: list[list[PairResult | None]] = [[None] * len(bots) for _ in bots]
        for p in self.pairs:
            i, j = bots.index(p.a), bots.index(p.b)
            out[i][j] = p
            out[j][i] = PairResult(p.b, p.a, p.hands, -p.per_100, -p.ci_high, -p.ci_low)
        return out

    def to_json(self, versions: dict[str, Any] | None = None) -> dict[str, Any]:
        """The contents of ``results.json``: the field (as before: ``bots``), the seeds,
        the matrix, the ratings and ``versions`` (:func:`environment`)."""
        out = self.field.to_json()
        cfg = self.field.config
        out["seeds"] = {
            "tournament": cfg.seed,
            "deal_seed_of_unit": "unit_seed(seed, unit): SHA-256 of 'seed/unit'",
            "bot_seed_of_seat": "unit_seed(seed, unit, rotation, seat)",
            "deals": [unit_seed(cfg.seed, u) for u in range(cfg.units)],
        }
        rows = self.matrix()
        out["matrix"] = {
            "bots": list(cfg.bots),
            "seating": "heads-up pairs: two seats each at 4 seats (a b a b, b a b a)"
            if cfg.players == 4
            else f"heads-up pairs at {cfg.players} seats, rotated",
            "hands_per_pair": self.pairs[0].hands if self.pairs else 0,
            "chips_per_100_hands": [
                [None if e is None else round(e.per_100, 6) for e in row] for row in rows
            ],
            "ci95": [
                [None if e is None else [round(e.ci_low, 6), round(e.ci_high, 6)] for e in row]
                for row in rows
            ],
        }
        out["ratings"] = (
            None
            if self.ratings is None
            else {
                "library": "openskill",
                "model": "PlackettLuce(tau=0)",
                "match": RATING_MATCH,
                "interval": "ci95 = mu +- 1.96 sigma",
                "ratings": [
                    {
                        "bot": r.bot,
                        "mu": round(r.mu, 6),
                        "sigma": round(r.sigma, 6),
                        "ordinal": round(r.ordinal, 6),
                        "ci95": [round(r.ci95[0], 6), round(r.ci95[1], 6)],
                    }
                    for r in self.ratings
                ],
            }
        )
        if versions is not None:
            out["versions"] = versions
        return out
