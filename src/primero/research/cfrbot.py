"""The ``cfr`` bot: plays Mini-Primero (:mod:`primero.research.mini`) from a CFR+ policy.

The policy ships in the package (``primero/research/data/mini_cfr_policy.json.gz``); it
is the average policy of OpenSpiel's ``CFRPlusSolver`` over the whole tree of
``python_primero(preset=mini)``, written by ``tools/mini_cfr.py`` together with the
:func:`fingerprint` of everything it depends on (``tests/research/test_mini.py`` checks that it
is fresh). Its exploitability is in docs/research.md.

>>> from primero.engine.state import HandState
>>> from primero.engine.views import view
>>> from primero.research.mini import MINI_RULES
>>> hand = HandState(["p1", "p2"], [2, 2], MINI_RULES)
>>> for line in ("d dh p1 Ac Ad", "d dh p2 7c 7d"):
...     hand.apply(line)
>>> CFRBot(seed=1)(view(hand, 0)).line() in ("p1 b 1", "p1 x Ac", "p1 x Ad", "p1 x Ac Ad")
True

The bot reads only its seat's view (R9b): the information state is
:func:`primero.research.features.infostate_string` of that view, as in OpenSpiel.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import Final

from primero.engine.actions import Action, Deal
from primero.engine.cards import parse_cards
from primero.engine.views import SeatView
from primero.research.actionids import action_of, legal_ids
from primero.research.features import infostate_string
from primero.research.mini import MINI_DECK, MINI_PARAMS, MINI_RULES, MINI_STACK

__all__ = ["POLICY_PATH", "CFRBot", "fingerprint", "load_policy"]

#: Where the shipped policy lives (package data).
POLICY_PATH: Final = Path(__file__).resolve().parent / "data" / "mini_cfr_policy.json.gz"

#: Bump when the policy file's layout or the solver settings change.
POLICY_FORMAT: Final = 1

Policy = Mapping[str, Sequence[Sequence[float]]]


def fingerprint() -> str:
    """A SHA-256 of what the shipped policy depends on: the preset's parameters, deck
    and rules, the policy format, and the information-state strings and legal ids along
    a few fixed deals (so a change to the rules or the encoding shows too)."""
    from primero.engine.state import HandState
    from primero.engine.views import view

    probes: list[str] = []
    for p1, p2 in (("Ac Ad", "7c 7d"), ("7h 7s", "Ah As"), ("Ac 7c", "Ad 7d")):
        hand = HandState(["p1", "p2"], [MINI_STACK] * 2, MINI_RULES)
        hand.apply(Deal(0, parse_cards(p1.split())))
        hand.apply(Deal(1, parse_cards(p2.split())))
        v = view(hand, 0)
        assert v.legal is not None
        ids = legal_ids(v.legal, hand_size=len(v.hand), max_stack=MINI_STACK)
        probes.append(f"{infostate_string(v)} -> {ids}")
    inputs = {
        "format": POLICY_FORMAT,
        "params": MINI_PARAMS,
        "deck": [str(c) for c in MINI_DECK],
        "rules": repr(MINI_RULES),
        "probes": probes,
    }
    return hashlib.sha256(json.dumps(inputs, sort_keys=True).encode()).hexdigest()


@cache
def _shipped() -> tuple[dict[str, object], dict[str, list[list[float]]]]:
    with gzip.open(POLICY_PATH, "rt", encoding="utf-8") as f:
        data = json.load(f)
    return data["meta"], data["policy"]


def load_policy(path: Path | None = None) -> tuple[dict[str, object], Policy]:
    """The policy file's metadata and ``{information state: [[id, probability], ...]}``.

    Args:
        path: a policy file written by ``tools/mini_cfr.py``; None: the shipped one.

    Raises:
        FileNotFoundError: no such file.
    """
    if path is None:
        return _shipped()
    with gzip.open(path, "rt", encoding="utf-8") as f:
        data = json.load(f)
    return data["meta"], data["policy"]


class CFRBot:
    """A Mini-Primero player drawing each move from the CFR+ average policy.

    Args:
        seed: seed of the bot's own ``random.Random`` (R10); None draws a fresh one.
        policy: ``{information state: [[id, probability], ...]}``; None: the shipped one.

    Calling it with a seat's view (:data:`primero.engine.match.Agent`) returns an action.
    """

    name = "cfr"

    def __init__(self, seed: int | None = None, policy: Policy | None = None) -> None:
        self._rng = random.Random(seed)
        self._policy = load_policy()[1] if policy is None else policy

    def __call__(self, v: SeatView) -> Action:
        """The move for the seat of ``v``, drawn from the policy.

        Raises:
            ValueError: ``v`` is not a decision of a Mini-Primero hand (the policy has no
                such information state), or not this seat's move.
        """
        if v.seat is None or v.legal is None:
            raise ValueError("the cfr bot needs the view of the seat to act")
        stack = MINI_STACK
        legal = legal_ids(v.legal, hand_size=len(v.hand), max_stack=stack)
        pairs = self._policy.get(infostate_string(v))
        if pairs is None or sorted(int(a) for a, _ in pairs) != legal:
            raise ValueError(
                "the cfr bot plays Mini-Primero only (preset='mini'): this is not one of "
                "its positions"
            )
        r = self._rng.random() * sum(p for _, p in pairs)
        choice = int(pairs[-1][0])
        for action_id, p in pairs:
            r -= p
            if r < 0:
                choice = int(action_id)
                break
        return action_of(choice, seat=v.seat, hand=v.hand, max_stack=stack)
