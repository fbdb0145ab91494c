"""Balanced seatings for a tournament: who sits where in each hand of a deal.

A tournament plays every deal once per **seating** of a design (a duplicate match: the
same dealer seed each time, so the luck of the cards largely cancels). The design is
**balanced**: for every two seats ``i != j`` and every two entrants ``u != w``, the
seatings with ``u`` at ``i`` and ``w`` at ``j`` are equally many. So every entrant sits
in every seat equally often and meets every other entrant equally often, in every
relative seat (who acts first, who deals: R4.1, R5). In design theory this is an
*ordered design* OD(2, k, v) of ``v`` entrants over ``k`` columns.

With ``B`` entrants at ``P`` seats:

- ``B`` a prime power (2, 3, 4, 5, 7, 8, 9, 11, 13, 16, ...): the affine maps
  ``x -> a x + b`` of the field GF(B) (``a != 0``) read at ``P`` points: ``B (B - 1)``
  seatings, each ordered pair of entrants once in each ordered pair of seats;
- ``B`` one more than a prime power (6, 10, 12, 14, ...): the maps
  ``x -> (a x + b) / (c x + d)`` of GF(B - 1) and the point at infinity (PGL(2, B - 1)):
  ``B (B - 1) (B - 2)`` seatings, each ordered pair ``B - 2`` times;
- otherwise every seating, ``B! / (B - P)!`` of them, when the hands asked hold one
  deal in each; when they do not, no balanced design is made and the tournament is
  refused with the reason (:class:`DesignError`).

With ``B <= P`` the design is over ``B`` columns and seat ``s`` takes column
``s mod B`` (two seats each for a pair at 4 seats: ``a b a b``, ``b a b a``): an
entrant holding several seats of a hand meets itself there, and balance holds for every
two seats of different columns.

The design is made over the entrants **sorted by name**, so it, every seed that derives
from its row numbers (:func:`primero.research.tournament.unit_seed`), and hence every
result do not depend on the order in which the entrants were given.

>>> seatings(("b", "a"), 4)
(('a', 'b', 'a', 'b'), ('b', 'a', 'b', 'a'))
>>> len(seatings(tuple("abcdefgh"), 4)), len(seatings(tuple("abcdef"), 4))
(56, 120)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import cache
from itertools import permutations
from typing import Final

__all__ = [
    "DesignError",
    "design",
    "design_name",
    "design_size",
    "seatings",
]

#: Monic irreducible polynomials for the prime-power fields that are not prime, lowest
#: coefficient first (without the leading 1): ``q -> (p, coefficients)``.
_IRREDUCIBLE: Final[dict[int, tuple[int, tuple[int, ...]]]] = {
    4: (2, (1, 1)),  # x^2 + x + 1
    8: (2, (1, 1, 0)),  # x^3 + x + 1
    9: (3, (1, 0)),  # x^2 + 1
    16: (2, (1, 1, 0, 0)),  # x^4 + x + 1
    25: (5, (2, 1)),  # x^2 + x + 2
    27: (3, (1, 2, 0)),  # x^3 + 2x + 1
    32: (2, (1, 0, 1, 0, 0)),  # x^5 + x^2 + 1
}


class DesignError(ValueError):
    """No balanced design can be made from the numbers given (the message says why and
    what would do)."""


def _is_prime(n: int) -> bool:
    return n >= 2 and all(n % d for d in range(2, math.isqrt(n) + 1))


def _field(q: int) -> tuple[list[list[int]], list[list[int]]] | None:
    """The addition and multiplication tables of GF(q) (elements 0..q-1, 0 and 1 the
    field's), or None when ``q`` is not a prime power this module knows."""
    if _is_prime(q):
        return (
            [[(x + y) % q for y in range(q)] for x in range(q)],
            [[(x * y) % q for y in range(q)] for x in range(q)],
        )
    if q not in _IRREDUCIBLE:
        return None
    p, low = _IRREDUCIBLE[q]
    m = len(low)

    def digits(x: int) -> list[int]:
        return [(x // p**i) % p for i in range(m)]

    def number(ds: Sequence[int]) -> int:
        return sum(d * p**i for i, d in enumerate(ds))

    def times(x: int, y: int) -> int:
        prod = [0] * (2 * m - 1)
        for i, a in enumerate(digits(x)):
            for j, b in enumerate(digits(y)):
                prod[i + j] = (prod[i + j] + a * b) % p
        for k in range(2 * m - 2, m - 1, -1):  # x^m = -(low coefficients)
            top, prod[k] = prod[k], 0
            for i, c in enumerate(low):
                prod[k - m + i] = (prod[k - m + i] - top * c) % p
        return number(prod[:m])

    add = [
        [number([(a + b) % p for a, b in zip(digits(x), digits(y), strict=True)]) for y in range(q)]
        for x in range(q)
    ]
    return add, [[times(x, y) for y in range(q)] for x in range(q)]


def _affine(q: int, points: int) -> list[tuple[int, ...]] | None:
    """Rows ``(a x + b for x in 0..points-1)`` over GF(q), ``a != 0``; None if no field."""
    tables = _field(q)
    if tables is None:
        return None
    add, mul = tables
    return [tuple(add[mul[a][x]][b] for x in range(points)) for a in range(1, q) for b in range(q)]


def _projective(q: int, points: int) -> list[tuple[int, ...]] | None:
    """Rows of PGL(2, q) on GF(q) and infinity (numbered ``q``), read at
    ``0..points-1``; None if no field."""
    tables = _field(q)
    if tables is None:
        return None
    add, mul = tables
    inverse = {x: next(y for y in range(1, q) if mul[x][y] == 1) for x in range(1, q)}
    negative = {x: next(y for y in range(q) if add[x][y] == 0) for x in range(q)}
    infinity = q
    rows: list[tuple[int, ...]] = []
    for a in range(1, q):  # x -> a x + b
        for b in range(q):
            rows.append(
                tuple(infinity if x == infinity else add[mul[a][x]][b] for x in range(points))
            )
    for d in range(q):  # x -> (a x + b) / (x + d), a d - b != 0
        for a in range(q):
            for b in range(q):
                if add[mul[a][d]][negative[b]] == 0:
                    continue
                row = []
                for x in range(points):
                    if x == infinity:
                        row.append(a)
                    elif add[x][d] == 0:
                        row.append(infinity)
                    else:
                        row.append(mul[add[mul[a][x]][b]][inverse[add[x][d]]])
                rows.append(tuple(row))
    return rows


def _choice(entrants: int, seats: int) -> tuple[str, int]:
    """The smallest design for ``entrants`` at ``seats``: its name and its seatings."""
    columns = min(entrants, seats)
    options = []
    if _field(entrants) is not None:
        options.append((entrants * (entrants - 1), 0, f"affine GF({entrants})"))
    if _field(entrants - 1) is not None:
        options.append((entrants * (entrants - 1) * (entrants - 2), 1, f"PGL(2, {entrants - 1})"))
    options.append((math.perm(entrants, columns), 2, "all seatings"))
    size, _, name = min(options)
    return name, size


def design_name(entrants: int, seats: int) -> str:
    """The design :func:`design` uses for ``entrants`` at ``seats``, in words: the
    smallest of those the module docstring lists.

    >>> design_name(8, 4), design_name(6, 4), design_name(15, 4), design_name(6, 2)
    ('affine GF(8)', 'PGL(2, 5)', 'all seatings', 'all seatings')
    """
    return _choice(entrants, seats)[0]


def design_size(entrants: int, seats: int) -> int:
    """Seatings (hands a deal) of the design for ``entrants`` at ``seats``.

    >>> design_size(2, 4), design_size(3, 2), design_size(8, 4), design_size(15, 4)
    (2, 6, 56, 32760)
    """
    return _choice(entrants, seats)[1]


@cache
def design(entrants: int, seats: int) -> tuple[tuple[int, ...], ...]:
    """The balanced design's rows: entry ``[r][s]`` is the entrant (an index into the
    entrants sorted by name) at seat ``s`` in seating ``r``.

    Raises:
        ValueError: fewer than 2 entrants or seats.
    """
    if entrants < 2 or seats < 2:
        raise ValueError(f"a design needs 2 or more entrants and seats, not {entrants}, {seats}")
    columns = min(entrants, seats)
    name = design_name(entrants, seats)
    rows: list[tuple[int, ...]] | None
    if name.startswith("affine"):
        rows = _affine(entrants, columns)
    elif name.startswith("PGL"):
        rows = _projective(entrants - 1, columns)
    else:
        rows = list(permutations(range(entrants), columns))
    assert rows is not None
    return tuple(tuple(row[s % columns] for s in range(seats)) for row in rows)


def seatings(
    entrants: Sequence[str], seats: int, hands: int | None = None
) -> tuple[tuple[str, ...], ...]:
    """The seatings of one deal: for each, the entrant at each seat (module docstring).

    Args:
        entrants: distinct names, in any order (the design sorts them).
        seats: seats at the table (>= 2).
        hands: the hands asked for, if the caller has a budget: with more entrants than
            seats, a budget that cannot hold one deal in every seating of the design is
            refused (with fewer, the caller rounds up to whole deals).

    Raises:
        DesignError: more entrants than seats and fewer ``hands`` than the design's
            seatings (the message says why and what would do).
        ValueError: fewer than 2 entrants or seats.
    """
    names = sorted(entrants)
    b = len(names)
    size = design_size(b, seats)
    if hands is not None and b > seats and size > hands:
        kind = design_name(b, seats)
        why = (
            f"{b} is neither a prime power nor one more than one, so the balanced design "
            f"here is every seating"
            if kind == "all seatings"
            else f"the smallest balanced design here ({kind}) has that many"
        )
        raise DesignError(
            f"no balanced field of {b} entrants at {seats} seats fits {hands:,} hands: "
            f"every entrant meets every other equally often in every two seats only over "
            f"{size:,} seatings of each deal ({why}); ask for at least {size:,} hands, or "
            f"enter at most {seats} entrants"
        )
    return tuple(tuple(names[i] for i in row) for row in design(b, seats))
