"""People coming and going at a table, without I/O (primero.play.tablemodel.presence;
online.md "The match with people coming and going", "sit_out", "leave", "rebuy",
"Absence"), and refusals a person reads (never record notation)."""

from __future__ import annotations

import re

import pytest

from primero.bots.random import RandomBot
from primero.engine.errors import IllegalActionError, PrimeroError
from primero.engine.match import Match, MatchOverError, play_hand
from primero.engine.views import view
from primero.play.tablemodel import TableModel, seat_payload
from primero.play.tablemodel.presence import NotDealableError, SeatPresence, TableMatch

NAMES = ["Ana", "Ben", "Cleo", "Dev"]


def _model(**kw: object) -> TableModel:
    """Ana and Ben are people, Cleo and Dev bots."""
    return TableModel(NAMES, [None, None, "random", "random"], seed=7, **kw)  # type: ignore[arg-type]


def _play_out(m: TableModel) -> None:
    """Finish the hand in progress: people make the timer's move."""
    assert m.hand is not None
    while not m.hand.complete:
        if m.step() is None and m.person_to_act() is not None:
            m.time_out()
    m.finish_hand()


def test_a_person_sitting_out_is_not_dealt_in_and_pays_no_ante() -> None:
    m = _model()
    m.match.sit_out(1)
    hand = m.start_hand()
    assert hand.players == ("Ana", "Cleo", "Dev")
    _play_out(m)
    assert m.match.chips[1] == 100  # Ben kept every chip: no ante (R4.1)
    m.match.sit_in(1)
    assert "Ben" in m.start_hand().players


def test_a_person_who_leaves_mid_hand_is_played_by_the_timer_rule_then_left() -> None:
    m = _model()
    m.start_hand()
    while m.person_to_act() is None:
        assert m.step() is not None
    who = m.person_to_act()
    assert who is not None
    assert m.match.leave(who) is False  # in the hand: leaves when it ends
    assert m.person_to_act() != who  # nobody waits for them: the table moves for them
    due = m.due()
    assert due is not None and due[0] is not None  # the least committal move is due
    with pytest.raises(IllegalActionError, match="you have left"):
        m.apply_line("f", who)
    _play_out(m)
    p = m.match.presence[who]
    assert p.left and not p.leaving
    payload, legal = seat_payload(m, who)  # a seat that left reads the public view
    assert payload is not None and payload["seat"] is None and payload["hand"] == []
    assert legal is None
    assert who not in m.match.dealt_in()
    m.start_hand()  # a hand without them: their move is refused as theirs no more
    with pytest.raises(IllegalActionError, match=r"^you have left this table"):
        m.apply_line("f", who)
    _play_out(m)
    other = 1 - who
    assert not m.over
    m.match.leave(other)  # every person has left: the match is over
    assert m.over


def test_r9_counts_only_seats_that_have_not_left() -> None:
    m = _model()
    m.match.presence[1].left = True
    m.match.chips[:] = [0, 150, 250, 0]  # Ben left with 150; Cleo holds every other chip
    assert m.over  # one seat that has not left holds every chip among them (R9)
    m.match.chips[:] = [10, 150, 240, 0]
    assert not m.over


def test_fewer_than_two_seats_to_deal_in_hold_the_table() -> None:
    m = _model()
    m.match.chips[:] = [100, 100, 0, 0]
    m.match.sit_out(0)
    assert not m.match.can_deal() and not m.over
    with pytest.raises(NotDealableError):
        m.start_hand()
    m.match.sit_in(0)
    assert m.match.can_deal()


def test_a_broke_person_rebuys_at_a_rebuy_table_and_the_ledger_counts_it() -> None:
    m = _model(rebuy=True)
    m.match.chips[:] = [0, 200, 100, 100]
    assert not m.over  # a broke person may rebuy: not out
    assert m.match.ask_rebuy(0) is True
    assert m.match.chips[0] == 100
    assert m.match.presence[0].bought_in == 200  # 100 at joining + 100 rebought
    with pytest.raises(PrimeroError, match="at least the stack"):
        m.match.ask_rebuy(0)
    with pytest.raises(PrimeroError, match="bots never rebuy"):
        m.match.ask_rebuy(2)
    plain = _model()
    with pytest.raises(PrimeroError, match="no rebuys"):
        plain.match.ask_rebuy(0)
    m.match.chips[:] = [0, 400, 0, 0]  # rebuy table: broke people stay, only bots are out
    assert not m.over and m.match.in_match() == [0, 1]


def test_a_rebuy_asked_during_a_hand_is_made_when_it_ends() -> None:
    m = _model(rebuy=True)
    m.match.chips[0] = 50
    m.match.presence[0].bought_in = 100
    hand = m.start_hand()
    seat = m.hand_seat(0)
    assert seat is not None
    assert m.match.ask_rebuy(0) is False  # in the hand: made when it ends
    assert m.match.chips[0] == 50
    _play_out(m)
    assert hand.result is not None
    final = hand.result.final_stacks[seat]
    assert m.match.chips[0] == max(final, 100)  # dropped when she won back to the stack
    assert m.match.presence[0].bought_in == 100 + max(0, 100 - final)


def test_two_timer_moves_in_a_row_sit_the_person_out_when_the_hand_ends() -> None:
    m = TableModel(NAMES, [None, "random", "random", "random"], seed=11, turn_seconds=30)
    m.start_hand(now=0.0)
    timed = 0
    assert m.hand is not None
    while not m.hand.complete:
        if m.step(now=0.0) is None and m.person_to_act() is not None:
            m.time_out(now=0.0)
            timed += 1
    m.finish_hand()
    assert m.match.presence[0].sitting_out == (timed >= 2)


def test_a_refused_move_is_said_in_words_never_as_a_record_line() -> None:
    m = TableModel(NAMES, [None, "random", "random", "random"], seed=11)
    m.start_hand()
    while m.step() is not None:
        pass
    assert m.person_to_act() == 0
    with pytest.raises(IllegalActionError) as err:
        m.apply_line("y", 0)  # a double click on "Accept the bet" after the vote ended
    message = str(err.value)
    assert message.startswith("you cannot accept the bet now: you may ")
    assert not re.search(r"'p\d|\bp\d\b", message), message
    hand = m.hand
    assert hand is not None
    v = view(hand, 0)
    assert v.legal is not None


def test_a_top_up_counts_the_chips_in_front_of_the_seat_during_a_hand() -> None:
    m = _model(rebuy=True)
    m.start_hand()  # the ante: 99 in front of Ana, 100 at the start of the hand
    assert m.match.holding(0) == 99 and m.match.chips[0] == 100
    assert m.match.ask_rebuy(0) is False  # a top-up of 1, due when the hand ends


def test_a_broke_seat_has_nothing_to_sit_out_and_a_rebuy_deals_it_in_again() -> None:
    """A person out of chips is offered rebuy (where allowed), watch or leave;
    a sit out is refused in words (nothing changes), and a rebuy sits them in."""
    m = _model(rebuy=True)
    m.match.chips[:] = [0, 200, 100, 100]
    assert m.match.broke(0) and not m.match.broke(1)
    with pytest.raises(PrimeroError) as err:
        m.match.sit_out(0)
    assert str(err.value) == (
        "you are out of chips, so there is nothing to sit out: rebuy to play on, or leave"
    )
    assert not m.match.presence[0].sitting_out
    m.match.presence[0].sitting_out = True  # sat out by the server (away) while broke
    m.match.presence[0].timeouts = 2
    assert m.match.ask_rebuy(0) is True
    p = m.match.presence[0]
    assert (p.sitting_out, p.timeouts, m.match.chips[0]) == (False, 0, 100)
    assert m.match.dealt_in() == [0, 1, 2, 3]
    plain = _model()
    plain.match.chips[:] = [0, 200, 100, 100]
    with pytest.raises(PrimeroError, match="out of the match, so there is nothing to sit out"):
        plain.match.sit_out(0)
    # all in during a hand is not broke yet: that hand may be won
    m = _model(rebuy=True)
    m.start_hand()
    m.match.chips[0] = 0
    assert not m.match.broke(0)
    m.match.sit_out(0)
    assert m.match.presence[0].sitting_out


# The survivors of a mutation sweep over play/tablemodel/presence.py (CONTRIBUTING.md
# "Mutation testing"): TableMatch's defaults, a seat of 1 chip, the host's end, each
# refusal's whole sentence, what finish_hand leaves on each seat, sit_in's reset.


def _bots() -> dict[str, RandomBot]:
    return {name: RandomBot(seed=k) for k, name in enumerate(NAMES)}


def test_a_table_match_defaults_to_stacks_of_100_and_no_rebuys() -> None:
    m = TableMatch(NAMES, people={0, 1})
    assert m.chips == [100, 100, 100, 100] and m.stack == 100
    assert (m.rebuy, m.ended, m.over) == (False, False, False)
    assert m.presence[0] == SeatPresence(bought_in=100)
    with pytest.raises(PrimeroError) as err:
        m.ask_rebuy(0)
    assert str(err.value) == "this table has no rebuys"


def test_the_stack_of_a_table_with_unequal_stacks_is_the_largest() -> None:
    m = TableMatch(NAMES, people={0}, stacks=[50, 120, 80, 100], rebuy=True)
    assert m.stack == 120  # the rebuy amount: max(50, 120, 80, 100)
    assert m.ask_rebuy(0) is True  # 50 -> 120: a top-up of 70
    assert (m.chips[0], m.presence[0].bought_in) == (120, 120)
    with pytest.raises(PrimeroError) as err:
        m.ask_rebuy(2)
    assert str(err.value) == "bots never rebuy"


def test_a_top_up_of_one_chip_is_made() -> None:
    m = TableMatch(NAMES, people={0}, stacks=[99, 100, 100, 100], rebuy=True)
    assert m.ask_rebuy(0) is True  # 100 - 99 = 1 missing
    assert (m.chips[0], m.presence[0].bought_in) == (100, 100)


def test_a_seat_holding_one_chip_is_dealt_in_and_still_in_the_match() -> None:
    m = TableMatch(NAMES, people={0, 1})
    m.chips[:] = [1, 100, 100, 0]
    assert m.dealable(0) and m.dealt_in() == [0, 1, 2]
    assert m.in_match() == [0, 1, 2]


def test_the_host_ends_the_match_and_no_hand_starts() -> None:
    m = TableMatch(NAMES, people={0, 1})
    m.end()
    assert m.ended is True and m.over
    with pytest.raises(MatchOverError) as err:
        m.start_hand()
    assert str(err.value) == "the match is over"


def test_a_second_hand_waits_for_the_first_to_finish() -> None:
    m = TableMatch(NAMES, people={0, 1})
    first = m.start_hand()
    with pytest.raises(PrimeroError) as err:
        m.start_hand()
    assert str(err.value) == "finish the current hand first"
    assert m.hand is first


def test_no_hand_with_one_seat_to_deal_says_so_in_words() -> None:
    m = TableMatch(NAMES, people={0, 1}, rebuy=True)
    m.chips[:] = [100, 0, 0, 0]  # a rebuy table: not over, but only Ana can be dealt in
    with pytest.raises(NotDealableError) as err:
        m.start_hand()
    assert str(err.value) == "fewer than two seats can be dealt in: waiting for players"


def test_a_hand_leaves_a_present_person_dealt_in_and_sits_out_the_twice_timed_out() -> None:
    m = TableMatch(NAMES, people={0, 1})
    m.presence[1].timeouts = 2  # two timer moves in a row (the table model counts them)
    m.presence[2].timeouts = 2  # a bot: never sat out
    m.play_hand(_bots())
    assert m.presence[0] == SeatPresence(bought_in=100)  # Ana played: nothing changes
    assert m.presence[1].sitting_out is True
    assert m.presence[2].sitting_out is False
    assert m.dealt_in() == [i for i in (0, 2, 3) if m.chips[i] > 0]


def test_one_timer_move_sits_nobody_out() -> None:
    m = TableMatch(NAMES, people={0, 1})
    m.presence[1].timeouts = 1
    m.play_hand(_bots())
    assert m.presence[1].sitting_out is False


def test_a_person_who_left_while_away_is_left_not_sitting_out() -> None:
    m = TableMatch(NAMES, people={0, 1})
    m.presence[1].away = True
    assert m.leave(1) is True  # in no hand: left at once
    m.play_hand(_bots())
    assert (m.presence[1].left, m.presence[1].sitting_out) == (True, False)
    for request in (m.sit_out, m.sit_in, m.leave):
        with pytest.raises(PrimeroError) as err:
            request(1)
        assert str(err.value) == "you have left this table: you may watch and chat"


def test_a_rebuy_made_at_the_end_of_a_hand_is_no_longer_due() -> None:
    m = TableMatch(NAMES, people={0, 1}, rebuy=True)
    m.chips[0] = 40
    hand = m.start_hand()
    assert m.ask_rebuy(0) is False  # in the hand: due when it ends
    bots = _bots()
    play_hand(hand, m.dealer, [bots[name] for name in hand.players])
    m.finish_hand()
    assert m.presence[0].rebuy_due is False  # made once, not again after the next hand
    assert m.chips[0] >= 100


def test_sitting_in_clears_away_and_the_timer_count() -> None:
    m = TableMatch(NAMES, people={0, 1})
    p = m.presence[1]
    p.sitting_out, p.away, p.timeouts = True, True, 1
    m.sit_in(1)
    assert p == SeatPresence(bought_in=100)  # sitting_out, away False, timeouts 0


def test_holding_during_a_hand_of_a_seat_not_dealt_in_is_its_chips() -> None:
    m = TableMatch(NAMES, people={0, 1})
    m.sit_out(1)
    m.start_hand()  # the ante: 1 from each of Ana, Cleo and Dev (R4.1)
    assert 1 not in m.seats
    assert m.holding(1) == 100  # Ben sat out: not in the hand's seats, no ante
    assert m.holding(0) == 99


def test_a_table_match_starts_hands_as_a_match_does() -> None:
    # One start of a hand: TableMatch changes only who is dealable (R3, R9).
    assert TableMatch.start_hand is Match.start_hand
    m = TableMatch(["Ana", "Ben", "Cleo", "Dev"], people={0, 1}, stacks=100, seed=2)
    m.sit_out(1)
    hand = m.start_hand()
    assert m.seats == (0, 2, 3) and hand.players == ("Ana", "Cleo", "Dev")
