"""Seats kept warm, without I/O (primero.play.tablemodel; docs/protocol.md "REST: the
lobby" ``seats/{k}/bot`` and "Presence" ``sit_in``): a bot plays a sitting-out person's
seat for them; the seat, its chips and its ledger stay theirs; ``sit_in`` gives it back
from the next hand; the person reads only their own seat's cards (R9b)."""

from __future__ import annotations

import json
import re

import pytest

from primero.engine.errors import PrimeroError
from primero.play.tablemodel import TableModel, seat_payload

NAMES = ["Ana", "Ben", "Cleo", "Dev"]
_CARD = re.compile(r"\b[A2-7JQK][cdhs]\b")


def _model() -> TableModel:
    """Ana and Ben are people, Cleo and Dev bots (seeded: R10)."""
    return TableModel(NAMES, [None, None, "random", "random"], seed=7)


def _play_out(m: TableModel) -> list[int]:
    """Finish the hand: bots and Ben's stand-in move, Ana takes the timer's move. Returns
    the table indices a person was asked to move for."""
    assert m.hand is not None
    asked: list[int] = []
    while not m.hand.complete:
        if m.step() is None:
            who = m.person_to_act()
            assert who is not None
            asked.append(who)
            m.time_out()
    m.finish_hand()
    return asked


def _warm(m: TableModel) -> None:
    m.match.sit_out(1)
    m.match.stand_in_for(1, "random")


def test_a_stand_in_deals_the_sitting_out_person_in_and_plays_for_them() -> None:
    m = _model()
    _warm(m)
    assert m.match.dealt_in() == [0, 1, 2, 3]  # sitting out, yet dealt in
    hand = m.start_hand()
    assert "Ben" in hand.players  # the seat keeps its name
    asked = _play_out(m)
    assert 1 not in asked  # nobody waits for Ben
    assert sum(m.match.chips) == 400  # chips move between the four seats only
    p = m.match.presence[1]
    assert p.bought_in == 100 and p.sitting_out and p.stand_in == "random"
    assert m.match.players[1] == "Ben" and 1 in m.match.people  # still his seat
    m.start_hand()
    assert "Ben" in m.hand.players if m.hand else False  # warm from hand to hand


def test_a_person_with_a_stand_in_reads_only_their_seat_and_cannot_move() -> None:
    m = _model()
    _warm(m)
    m.start_hand()
    assert m.hand is not None
    while m.to_act_index() != 1:  # up to the stand-in's first turn (Ana: the timer's)
        if m.step() is None:
            assert m.person_to_act() == 0
            m.time_out()
    hand, legal = seat_payload(m, 1)
    assert hand is not None and legal is None  # no buttons: the bot plays
    own = [str(c) for c in m.hand.hands[m.hand_seat(1) or 0]]
    assert hand["hand"] == own and len(own) >= 2  # his own cards, and no other (R9b)
    assert set(_CARD.findall(json.dumps(hand))) == set(own)
    with pytest.raises(PrimeroError, match="a bot plays your seat until this hand ends"):
        m.apply_line("f", 1)
    spectator, _ = seat_payload(m, None)
    assert spectator is not None and spectator["hand"] == []


def test_sit_in_gives_the_seat_back_from_the_next_hand() -> None:
    m = _model()
    _warm(m)
    m.start_hand()
    m.match.sit_in(1)  # during the hand: the stand-in plays it to its end
    p = m.match.presence[1]
    assert not p.sitting_out and p.stand_in == "random"
    assert 1 not in _play_out(m)
    assert p.stand_in is None and m.stand_in_agent(1) is None  # back from this hand on
    m.start_hand()
    assert 1 in _play_out(m)  # Ben is asked for his moves again


def test_sit_in_between_hands_ends_the_stand_in_at_once() -> None:
    m = _model()
    _warm(m)
    m.match.sit_in(1)
    assert m.match.presence[1].stand_in is None


def test_a_stand_in_is_refused_in_words_for_a_person_who_plays_a_bot_or_twice() -> None:
    m = _model()
    with pytest.raises(PrimeroError, match="Ben is playing: a bot may play for a person who"):
        m.match.stand_in_for(1, "random")
    with pytest.raises(PrimeroError, match="that seat is not a person's"):
        m.match.stand_in_for(2, "random")
    _warm(m)
    with pytest.raises(PrimeroError, match="a random bot already plays for Ben"):
        m.match.stand_in_for(1, "heuristic")
    m.match.leave(0)
    with pytest.raises(PrimeroError, match="you have left"):
        m.match.stand_in_for(0, "random")


def test_the_same_seed_plays_a_warm_seat_the_same_way() -> None:
    """R10: the stand-in is seeded as the seat's bot would be."""

    def run() -> list[int]:
        m = _model()
        _warm(m)
        for _ in range(3):
            m.start_hand()
            _play_out(m)
        return list(m.match.chips)

    assert run() == run()
