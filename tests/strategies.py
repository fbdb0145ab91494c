"""Random set-ups shared by the tests: house rules and stacks (R3, R4.1, R5, R6, R8).

One distribution, in two forms: seeded draws from a :class:`random.Random` (for loops
over many seeded hands: :func:`random_rules`, :func:`random_stacks`) and Hypothesis
strategies over the same values (:func:`rules`, :func:`stacks`). Values listed twice
are drawn more often: the usual settings weigh more than the extreme ones, which are
still met. A test imports this module as it imports ``referee`` (not from a
``tests/conftest.py``, whose module name would clash with ``src/conftest.py``).
"""

from __future__ import annotations

import random
from typing import Final

from hypothesis import strategies as st

from primero.engine.rules import Rules

#: Antes (R4.1, chips).
ANTES: Final = (0, 1, 1, 1, 2, 3, 5)
#: Ties at a showdown (R7).
TIES: Final = ("eldest", "split")
#: Minimum raises (R5, chips): 25 makes most raises impossible with small stacks.
MIN_RAISES: Final = (1, 1, 1, 2, 3, 5, 25)
#: Raise caps per round (R5); None: no cap.
MAX_RAISES: Final = (None, None, 0, 1, 2, 3)
#: Chances that each optional rule is on: refusal votes (R8), the last betting round
#: (R4.7), declarations (R6), standing pat and a zero bet in the first round (R4.3).
P_REFUSAL, P_LAST_ROUND, P_DECLARATIONS, P_STAND, P_ZERO_BET = 0.75, 0.8, 0.8, 0.3, 0.3
#: The largest starting stacks of a table (chips): tiny ones force all-ins and side pots.
STACK_TOPS: Final = (2, 3, 6, 15, 40, 120)


def random_rules(rng: random.Random, n: int = 8) -> Rules:
    """House rules drawn at random, every rule varying, for hands of ``n`` (2..8) players
    or fewer: ``max_players`` is drawn from ``n`` to 8 (8 when ``n`` is 8)."""
    return Rules(
        ante=rng.choice(ANTES),
        ties=rng.choice(TIES),
        refusal=rng.random() < P_REFUSAL,
        last_round=rng.random() < P_LAST_ROUND,
        declarations=rng.random() < P_DECLARATIONS,
        first_round_stand=rng.random() < P_STAND,
        first_round_zero_bet=rng.random() < P_ZERO_BET,
        min_raise=rng.choice(MIN_RAISES),
        max_raises=rng.choice(MAX_RAISES),
        min_players=2,
        max_players=rng.randint(n, 8),
    )


def random_stacks(rng: random.Random, n: int) -> list[int]:
    """``n`` starting stacks up to a top drawn from :data:`STACK_TOPS` (chips, >= 1)."""
    top = rng.choice(STACK_TOPS)
    return [rng.randint(1, top) for _ in range(n)]


def rules(n: int = 8) -> st.SearchStrategy[Rules]:
    """House rules as :func:`random_rules` draws them, as a Hypothesis strategy."""
    return st.builds(
        Rules,
        ante=st.sampled_from(ANTES),
        ties=st.sampled_from(TIES),
        refusal=st.booleans(),
        last_round=st.booleans(),
        declarations=st.booleans(),
        first_round_stand=st.booleans(),
        first_round_zero_bet=st.booleans(),
        min_raise=st.sampled_from(MIN_RAISES),
        max_raises=st.sampled_from(MAX_RAISES),
        min_players=st.just(2),
        max_players=st.integers(n, 8),
    )


def stacks(n: int) -> st.SearchStrategy[list[int]]:
    """``n`` starting stacks of 1 to 120 chips, as a Hypothesis strategy."""
    return st.lists(st.integers(1, max(STACK_TOPS)), min_size=n, max_size=n)
