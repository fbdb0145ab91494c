"""``HandState.copy()`` is independent of the original in every attribute.

The oracle is :func:`copy.deepcopy` of the state's attributes, taken when the copy is
made: whatever the original does afterwards, the copy must still equal that snapshot,
and playing the copy on with the same actions must give the same hand.
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import pickle
import random
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primero.bots.random import RandomBot
from primero.engine import flow
from primero.engine.actions import Action, Bet, Call, Deal, Declare, Exchange, Fold, Raise, Vote
from primero.engine.cards import DECK
from primero.engine.dealing import Dealer
from primero.engine.flow import FLOW_FIELDS
from primero.engine.frozen import by_fields
from primero.engine.hands import Category
from primero.engine.legal import LegalActions
from primero.engine.pots import Award, Pot
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandResult, HandState
from primero.engine.views import view

NAMES = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn")


def attributes(state: HandState) -> dict[str, object]:
    """Every attribute of ``state`` but the views' cache (``view_cache``), by name: from
    ``__dict__``, or the attribute list of the mypyc-compiled class (which has none)."""
    names = getattr(type(state), "__mypyc_attrs__", None) or vars(state)
    return {name: getattr(state, name) for name in names if name != "view_cache"}


def snapshot(state: HandState) -> dict[str, object]:
    """Every attribute of ``state``, deep-copied (not through ``HandState.copy``)."""
    return copy.deepcopy(attributes(state))


def next_action(state: HandState, dealer: Dealer, bots: list[RandomBot]) -> Action:
    seat = state.to_act
    assert seat is not None
    return dealer.deal(state) if seat == DEALER else bots[seat](view(state, seat))


def test_copy_taken_during_a_vote_does_not_follow_the_original() -> None:
    s = HandState(["A", "B", "C", "D"], [20] * 4)
    for line in ["d dh p1 7s 6h", "d dh p2 7h 6s", "d dh p3 Kc Qd", "d dh p4 2c 3d", "p1 b 5"]:
        s.apply(line)
    assert s.vote is not None and s.to_act == 1  # R8: p2 votes first
    c = s.copy()
    lines, hands, actions = c.lines(), [list(h) for h in c.hands], list(c.actions)
    s.apply("p2 n")  # the original's vote moves on to p3 ...
    assert s.to_act == 2
    assert c.to_act == 1  # ... the copy's does not
    s.apply("p3 n")
    s.apply("p4 n")  # refused by all: p1 acts again below 5 (R8)
    s.apply("p1 x 7s")
    assert (c.lines(), c.hands, c.actions) == (lines, hands, actions)
    assert c.to_act == 1 and c.vote is not None and c.vote.index == 0
    assert c.cap is None and s.cap is None
    c.apply("p2 y")  # the copy plays on by itself: the bet stands
    assert c.round_bets[0] == 5 and c.stacks[0] == 14
    assert s.round_bets[0] == 0 and s.stacks[0] == 19


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(3, 6),
    top=st.sampled_from([3, 10, 40]),
    copy_at=st.lists(st.floats(0, 1), min_size=1, max_size=4),
)
def test_copies_at_random_points_are_independent(
    seed: int, n: int, top: int, copy_at: list[float]
) -> None:
    """A copy equals the original's attributes at the time of copying, whatever the
    original does next, and replaying the original's later actions on it gives the
    same hand (every mutable attribute: stacks, bets, hands, discards, logs, the vote)."""
    rng = random.Random(seed)
    state = HandState(
        NAMES[:n],
        [rng.randint(1, top) for _ in range(n)],
        Rules(min_players=2, max_players=6, refusal=True),
    )
    dealer = Dealer.seeded(seed)
    bots = [RandomBot(seed=seed + i) for i in range(n)]
    copies: list[tuple[HandState, dict[str, object], int]] = []
    step = 0
    while not state.complete:
        first_decision = not copies and state.to_act != DEALER
        if (
            first_decision
            or state.vote is not None
            or any(abs(rng.random() - p) < 0.08 for p in copy_at)
        ):
            copies.append((state.copy(), snapshot(state), len(state.actions)))
        state.apply(next_action(state, dealer, bots))
        step += 1
        assert step < 10_000
    assert copies
    for c, before, _ in copies:
        assert attributes(c) == before, "the copy changed when the original played on"
    for c, _, taken in copies:
        for action in state.actions[taken:]:
            c.apply(action)
        assert c.lines() == state.lines()
        assert c.result == state.result
        assert attributes(c) == attributes(state)


def _flow_method_source(name: str) -> str:
    """The source of ``HandFlow.<name>``, read from flow.py beside the module (a method
    compiled by mypyc has no source for :func:`inspect.getsource`)."""
    text = Path(flow.__file__ or "").with_name("flow.py").read_text(encoding="utf-8")
    tree = ast.parse(text)
    cls = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "HandFlow")
    method = next(n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == name)
    source = ast.get_source_segment(text, method)
    assert source is not None
    return source


def test_the_flow_fields_are_every_field_the_flow_sets_and_copies() -> None:
    """FLOW_FIELDS is written once: HandFlow's constructor sets exactly these (and n,
    rules) and copy_flow_into copies exactly these, so a field added to the flow and
    left out of the copy or the pickle fails here."""
    init = _flow_method_source("__init__")
    set_in_init = set(re.findall(r"self\.(\w+)(?::[^=\n]+)? = ", init))
    copied = set(re.findall(r"other\.(\w+) = ", _flow_method_source("copy_flow_into")))
    assert set_in_init - {"n", "rules"} == set(FLOW_FIELDS)
    assert copied == set(FLOW_FIELDS)
    assert len(FLOW_FIELDS) == 17


def test_a_copy_mid_hand_has_every_flow_field_and_shares_no_list() -> None:
    s = HandState(["a", "b", "c"], [10, 10, 10])
    for line in ("d dh p1 7s 6h", "d dh p2 7h 6s", "d dh p3 Kc Qd", "p1 b 2", "p2 n"):
        s.apply(line)
    c = s.copy()
    assert s.vote_bettor == 0 and s.vote_index == 1  # p3 votes next (R8)
    for name in FLOW_FIELDS:
        assert getattr(c, name) == getattr(s, name), name
    c.stacks[0] = 99
    c.folded[1] = True
    c.due.append((0, 2))
    assert s.stacks[0] == 9 and not s.folded[1] and s.due == []


FROZEN_VALUES = [
    Deal(2, (DECK[7], DECK[26])),
    Exchange(0, (DECK[3],)),
    Exchange(1, ()),
    Bet(0, 5),
    Raise(3, 12),
    Call(1),
    Fold(2),
    Vote(1, False),
    Declare(0, Category.FLUXUS),
    LegalActions(0, 0, (0, 1, 2), (1, 9), None, 0, True, False, ()),
    Pot(12, (0, 2)),
    Award(Pot(12, (0, 2)), (2,), (12,)),
    HandResult(
        (94, 106), (-6, 6), (Award(Pot(12, (0, 1)), (1,), (12,)),), (None, None), (None, None), True
    ),
]


@pytest.mark.parametrize("value", FROZEN_VALUES, ids=lambda v: type(v).__name__)
def test_a_frozen_value_pickles_and_copies_by_its_fields(value: object) -> None:
    """The compiled frozen classes pickle and copy through their constructor, the
    arguments read from their one field list (engine/frozen.py)."""
    cls, args = by_fields(value)
    assert cls is type(value)
    names = [f.name for f in dataclasses.fields(value)]  # type: ignore[arg-type]
    assert args == tuple(getattr(value, name) for name in names)
    for twin in (copy.copy(value), copy.deepcopy(value), pickle.loads(pickle.dumps(value))):
        assert twin == value and type(twin) is type(value)


def test_by_fields_gives_the_constructor_and_its_arguments() -> None:
    assert by_fields(Raise(3, 12)) == (Raise, (3, 12))
    assert by_fields(Award(Pot(12, (0, 2)), (2,), (12,))) == (
        Award,
        (Pot(12, (0, 2)), (2,), (12,)),
    )
