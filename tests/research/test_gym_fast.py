"""The Gymnasium environment on the flat stepper against the engine-backed one it
replaced, and its random bots against :class:`~primero.bots.random.RandomBot`.

``data/gym_episodes.json`` holds, step by step, digests of the observations, the masks,
the rewards and the ends of seeded episodes as the engine-backed environment gave them
(``tests/research/gym_episodes.py`` wrote it before the change): the environment must
give the very same (R9b observations, R10 seeding). A few hundred learner steps.

Needs the ``research`` extra; tests/needs.py.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from primero.bots.random import RandomBot
from primero.engine.cards import Card
from primero.engine.state import HandState
from primero.engine.views import view
from primero.research.actionids import id_of
from primero.research.stepper import CHANCE, TERMINAL, Stepper, replay
from tests.needs import require
from tests.research.gym_episodes import CASES, run_case
from tests.strategies import random_rules

require("gymnasium")

RECORD = json.loads((Path(__file__).parent / "data" / "gym_episodes.json").read_text())


@pytest.mark.parametrize(
    ("seed", "case"), list(enumerate(CASES, start=101)), ids=[c[0] for c in CASES]
)
def test_flat_env_gives_what_the_engine_backed_env_gave(
    seed: int, case: tuple[str, dict[str, object], int]
) -> None:
    name, kwargs, episodes = case
    got = json.loads(json.dumps(run_case(kwargs, episodes, seed)))
    want = RECORD[name]
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g == w, f"{name}: step {i}"


def test_random_id_draws_as_the_random_bot() -> None:
    """Seeded hands under random house rules: at every seat's move the stepper's
    ``random_id`` plays what ``RandomBot`` plays from the seat's view, with the same
    draws (the two sources stay equal)."""
    meta = random.Random(4_242)
    moves = 0
    for _ in range(20):
        n = meta.choice([2, 3, 4, 5, 6])
        stacks = [meta.randint(1, 12) for _ in range(n)]
        rules = random_rules(meta, n)
        stack = max(stacks)
        step = Stepper(stacks, rules, stack)
        hand = HandState([f"p{i + 1}" for i in range(n)], list(stacks), rules)
        pending: list[Card] = []
        synced = 0
        deal = random.Random(meta.random()).random
        seed = meta.randrange(2**31)
        mine, theirs = random.Random(seed), random.Random(seed)
        bot = RandomBot(rng=theirs)
        while step.player != TERMINAL:
            if step.player == CHANCE:
                step.deal_due(deal)
            else:
                seat = step.player
                chosen = step.random_id(mine.random)
                expected = id_of(bot(view(hand, seat)), hand=hand.hands[seat], max_stack=stack)
                assert chosen == expected
                assert mine.getstate() == theirs.getstate()
                step.apply(chosen)
                moves += 1
            replay(hand, step.log[synced:], pending, stack)
            synced = len(step.log)
        assert hand.result is not None
        assert [s - t for s, t in zip(hand.stacks, stacks, strict=True)] == step.net
    assert moves > 200
