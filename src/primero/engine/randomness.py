"""The random sources of a game and their seeds (R10), apart from the dealer so that the
random-playout kernel reads them without the checked engine.

>>> derive_seed(1, 0)
1007922
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["RandomSource", "derive_seed", "randbelow"]


class RandomSource(Protocol):
    """Anything with a ``random()`` method returning a float in [0, 1)."""

    def random(self) -> float:
        """A float uniformly drawn from [0, 1)."""
        ...


def randbelow(rng: RandomSource, n: int) -> int:
    """A whole number uniformly drawn from ``0..n-1`` using only ``rng.random()`` (R10).

    Args:
        rng: the random source.
        n: the bound, >= 1 (small: at most a few thousand here, so the float's 53 bits
            leave no measurable bias).

    Raises:
        ValueError: ``n`` < 1.
    """
    if n < 1:
        raise ValueError(f"randbelow needs n >= 1, not {n}")
    return min(int(rng.random() * n), n - 1)


def derive_seed(seed: int, index: int) -> int:
    """The seed of source ``index`` of a game seeded with ``seed`` (R10).

    The seeding scheme of ``primero play`` and ``primero simulate``: the bot at table
    index ``i`` gets ``derive_seed(seed, i)`` (the person's table counts from 1), match
    ``m`` of a simulation is dealt by ``derive_seed(seed, 100 + m)``. Distinct from
    ``seed`` itself and from the other indices' seeds.

    >>> derive_seed(1, 0), derive_seed(1, 1)
    (1007922, 1015841)
    """
    return seed * 1_000_003 + 7_919 * (index + 1)
