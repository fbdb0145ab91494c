"""The table model: same seed, same game; its notes, deadlines and errors (R4.3, R8, R10).

Written for the survivors of a mutation sweep over ``play/tablemodel/model.py`` (issue
20, item 7): a model that dropped its seed, seeded its bots otherwise than
``primero simulate``, lost a hand's dealer seed from its record, wrote no note after a
vote or a void deal, or forgot ``now`` when setting a deadline passed every test.
"""

from __future__ import annotations

import pytest

from primero.engine.actions import Bet, Vote
from primero.engine.dealing import derive_seed
from primero.engine.errors import IllegalActionError, PrimeroError, WrongTurnError
from primero.engine.rules import Rules
from primero.play.tablemodel import TableModel
from primero.play.tablemodel.model import bot_seed

NAMES = ["Ana", "Lorenzo", "Isabella", "Girolamo"]
BOTS = [None, "random", "heuristic", "random"]


def _play_match(seed: int | None, hands: int = 3) -> list[list[str]]:
    """The record lines of ``hands`` hands: bots everywhere, the person's moves by the timer."""
    m = TableModel(NAMES, BOTS, seed=seed, max_hands=hands, stack=30)
    assert m.match.chips == [30, 30, 30, 30]
    played = []
    while not m.over:
        m.start_hand()
        assert m.hand is not None
        while not m.hand.complete:
            if m.step() is None:  # the person is to act: the timer's move
                m.apply(m.timeout_action())
        played.append(m.hand.lines())
        record = m.finish_hand()
        assert record.seed == m.hand_seed  # the record names the hand's dealer seed
        if seed is not None:
            assert record.seed == seed
    return played


def test_the_same_seed_plays_the_same_match() -> None:  # R10
    first = _play_match(7)
    assert first == _play_match(7)
    assert first != _play_match(8)
    assert len(first) == 3


def test_an_unseeded_table_draws_a_fresh_dealer_seed_per_hand() -> None:
    m = TableModel(NAMES, BOTS, max_hands=2)
    assert m.to_act_index() is None and m.person_to_act() is None  # no hand yet
    m.start_hand()
    assert m.hand_seed is not None and 0 <= m.hand_seed < 2**63
    assert m.hand is not None
    while not m.hand.complete:
        if m.step() is None:
            m.apply(m.timeout_action())
    assert m.finish_hand().seed == m.hand_seed  # the record replays with its seed


def test_the_bots_are_seeded_as_primero_simulate_seeds_them() -> None:  # R10
    # derive_seed(1, 0) = 1 * 1_000_003 + 7_919 * 1 (engine/dealing.py, hand-checked there)
    assert bot_seed(1, 0) == derive_seed(1, 0) == 1_007_922
    for seed, index in [(0, 0), (5, 3), (123_456, 7), (2**40, 2)]:
        assert bot_seed(seed, index) == derive_seed(seed, index)


def test_the_default_stack_is_100_chips() -> None:
    assert TableModel(NAMES, BOTS).match.chips == [100, 100, 100, 100]


def test_bad_kinds_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match=r"^give one kind per player: 4 names, 3 kinds$"):
        TableModel(NAMES, BOTS[:3])
    kinds = "random, heuristic, search, bluff, uniform, reference"
    with pytest.raises(ValueError, match=rf"^unknown bot kind 'genius': one of {kinds}$"):
        TableModel(NAMES, [None, "genius", "random", "random"])


def _to_person(m: TableModel, now: float | None = None) -> None:
    while m.step(now=now) is not None:
        pass


def test_votes_and_void_deals_leave_a_note() -> None:  # R4.3, R8
    rules = Rules(first_round_stand=True)
    m = TableModel(NAMES, [None, None, None, None], seed=3, rules=rules)
    m.start_hand()
    _to_person(m)
    assert m.hand is not None and m.person_to_act() == 0
    m.apply_line("b 3", 0)  # p1 bets; p2, p3, p4 vote in turn (R8)
    assert [e.note for e in m.events[-1:]] == [""]
    m.apply_line("n", 1)
    assert m.events[-1].note == ""  # the vote goes on
    m.apply_line("n", 2)
    m.apply_line("n", 3)
    assert m.events[-1].action == Vote(3, False)
    assert m.events[-1].note == "refused by all: withdrawn (R8)"
    m.apply_line("b 2", 0)
    m.apply_line("y", 1)
    assert m.events[-1].note == "the bet stands (R8)"
    assert m.events[-1].actor == "Lorenzo" and m.events[-1].index == len(m.hand.actions) - 1

    void = TableModel(NAMES, [None, None, None, None], seed=3, rules=rules)
    void.start_hand()
    _to_person(void)
    for index in range(4):  # everyone stands pat in the first round: a void deal (R4.3)
        void.apply_line("x", index)
    assert void.events[-1].note == "nobody bet: void deal, the cards are dealt again (R4.3)"
    assert void.hand is not None and void.hand.void_deals == 1


def test_calls_are_recorded_with_their_chips() -> None:
    m = TableModel(NAMES, [None, None, None, None], seed=3)
    m.start_hand()
    _to_person(m)
    m.apply(Bet(0, 3))
    m.apply_line("y", 1)
    event = m.apply_line("c", 1)
    assert event.call == 3 and event.note == ""
    assert m.events[-1] is event
    assert [e.call for e in m.events if e.action.line().split()[1] in ("b", "y")] == [None, None]


def test_deadlines_run_from_now() -> None:
    m = TableModel(NAMES, [None, "random", "random", "random"], seed=5, turn_seconds=30)
    m.start_hand(now=1000.0)
    _to_person(m, now=1010.0)
    assert m.person_to_act() == 0
    assert m.deadline == 1040.0
    assert not m.timed_out(1039.9) and m.timed_out(1040.0)
    assert m.view_for(None).seat is None and m.view_for(0).seat == m.hand_seat(0)
    m.apply(m.timeout_action(), now=1050.0)
    assert m.person_to_act() is None and m.deadline is None  # the bots' turns: no timer
    while m.to_act_index() is None and m.step(now=1055.0) is not None:
        pass  # the deal of the person's exchange
    assert m.to_act_index() == 1 and m.person_to_act() is None  # a bot: no timer
    _to_person(m, now=1060.0)
    assert m.person_to_act() == 0 and m.deadline == 1090.0
    m.refresh_deadline(2000.0)  # after a restart
    assert m.deadline == 2030.0
    assert TableModel(NAMES, BOTS, seed=5).deadline is None


def test_errors_are_said_in_words() -> None:
    m = TableModel(NAMES, [None, None, None, None], seed=3)
    with pytest.raises(PrimeroError, match=r"^no hand has been started$"):
        m.view_for(0)
    with pytest.raises(PrimeroError, match=r"^no hand has been started$"):
        m.timeout_action()
    m.start_hand()
    with pytest.raises(PrimeroError, match=r"^no person is to act$"):
        m.timeout_action()  # the dealer is due
    _to_person(m)
    with pytest.raises(WrongTurnError, match=r"^it is not your turn$"):
        m.apply_line("b 2", 1)
    not_understood = r"^that move is not understood: you may exchange 1 or 2 cards"
    with pytest.raises(IllegalActionError, match=not_understood):
        m.apply_line("z", 0)  # no record notation ("x (exchange), b N (bet)")
    with pytest.raises(IllegalActionError, match=not_understood):
        m.apply_line("b x", 0)  # what the person may do, in words (never 'p1 ...')
