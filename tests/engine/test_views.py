"""What each seat sees of a hand (R9b): its own cards, public actions, hidden cards as ??."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from collections.abc import Sequence
from pathlib import Path

import pytest

import primero.engine.views
from primero.engine.actions import Action, Deal, Exchange, parse_action
from primero.engine.cards import parse_card, parse_cards
from primero.engine.hands import Category
from primero.engine.history import HandRecord, replay
from primero.engine.pots import Pot
from primero.engine.rules import Rules
from primero.engine.state import DEALER, HandState, Phase
from primero.engine.views import (
    HIDDEN,
    LogEvent,
    SeatView,
    parse_event,
    redact,
    redact_event,
    view,
)

NAMES = ("Ana", "Ben", "Cleo", "Dev")
DEALS = ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d"]


def play(
    lines: Sequence[str], stacks: Sequence[int] = (20, 20, 20, 20), rules: Rules | None = None
) -> HandState:
    outcome = replay(HandRecord(NAMES[: len(stacks)], tuple(stacks), list(lines), rules or Rules()))
    assert outcome.error is None, str(outcome.error)
    assert outcome.state is not None
    return outcome.state


def act(state: HandState, *lines: str) -> None:
    for line in lines:
        state.apply(parse_action(line, state.n))


def test_each_seat_sees_its_own_cards_only() -> None:
    s = play(DEALS)
    v = view(s, 0)
    assert v.seat == 0 and v.players == NAMES
    assert v.hand == parse_cards("7h 6h")
    assert v.log == ("d dh p1 7h 6h", "d dh p2 ?? ??", "d dh p3 ?? ??", "d dh p4 ?? ??")
    assert view(s, 2).log == ("d dh p1 ?? ??", "d dh p2 ?? ??", "d dh p3 Ks Qs", "d dh p4 ?? ??")
    assert view(s, 2).hand == parse_cards("Ks Qs")
    spectator = view(s, None)
    assert spectator.hand == () and spectator.discards == ()
    assert spectator.log == tuple(f"d dh p{i} ?? ??" for i in range(1, 5))
    assert spectator.legal is None
    for seat in range(4):
        assert view(s, seat).hand_sizes == (2, 2, 2, 2)
        assert view(s, seat).public_log == spectator.log


def test_the_public_view_is_what_every_seats_view_has_in_common() -> None:
    s = play([*DEALS, "p1 b 3", "p2 y", "p2 r 5", "p3 y", "p3 c"])
    private = {
        "seat",
        "legal",
        "hand",
        "discards",
        "private_log",
        "cap",
        "events",
        "private_events",
    }
    public = view(s, None)
    assert (public.seat, public.legal, public.hand, public.discards) == (None, None, (), ())
    assert public.private_log == () and public.log == public.public_log
    assert public.private_events == () and public.events == public.public_events
    for seat in range(4):
        v = view(s, seat)
        for field in dataclasses.fields(SeatView):
            if field.name not in private:
                assert getattr(v, field.name) == getattr(public, field.name), field.name


def test_public_table_state() -> None:
    s = play([*DEALS, "p1 b 3", "p2 y", "p2 r 5", "p3 y", "p3 c"])
    for seat in (0, 1, 2, 3, None):
        v = view(s, seat)
        assert v.stacks == (16, 14, 14, 19)
        assert v.contributed == (4, 6, 6, 1)
        assert v.round_bets == (3, 5, 5, 0)
        assert v.current_bet == 5
        # Nobody is all-in, so bets not yet called make no side pot (live_pots):
        # one pot of 4 antes + 3 + 5 + 5 = 17 that every player still in may win.
        assert v.pots == (Pot(17, (0, 1, 2, 3)),)
        assert v.pot_total == 17
        assert v.to_act == 3
        assert v.phase is Phase.FIRST_ROUND
        assert v.stock_count == 32
        assert v.folded == (False,) * 4
        assert v.still_in == (0, 1, 2, 3)
        assert v.n == 4
        assert v.rules == Rules()
        assert v.log[4:] == ("p1 b 3", "p2 y", "p2 r 5", "p3 y", "p3 c")
        assert v.final_stacks is None and v.awards == ()
    assert view(s, 3).to_call == 5
    assert view(s, 0).to_call == 2
    assert view(s, None).to_call == 0
    assert view(s, 3).legal == s.legal_actions()
    assert all(view(s, seat).legal is None for seat in (0, 1, 2, None))


def test_exchanges_show_their_size_but_not_their_cards() -> None:
    s = play([*DEALS, "p1 x 6h", "d dh p1 Ah", "p2 x Ac 2d", "d dh p2 3c 4c"])
    mine = view(s, 0)
    assert mine.discards == parse_cards("6h")
    assert mine.hand == parse_cards("7h Ah")
    assert mine.log[4:] == ("p1 x 6h", "d dh p1 Ah", "p2 x ?? ??", "d dh p2 ?? ??")
    theirs = view(s, 1)
    assert theirs.discards == parse_cards("Ac 2d")
    assert theirs.log[4:] == ("p1 x ??", "d dh p1 ??", "p2 x Ac 2d", "d dh p2 3c 4c")
    for seat in (0, 1, 2, 3, None):
        v = view(s, seat)
        assert v.exchanges == ((1,), (2,), (), ())
        assert v.hand_sizes == (2, 2, 2, 2)
    assert view(s, 2).discards == ()


def test_dealer_to_act_and_the_views_of_a_pending_deal() -> None:
    s = play([*DEALS, "p1 x 6h"])
    assert s.to_act == DEALER
    for seat in (0, 1, None):
        v = view(s, seat)
        assert v.to_act == DEALER and v.legal is None
    assert view(s, 0).hand_sizes == (1, 2, 2, 2)


def test_vote_pending_bet_and_cap() -> None:
    s = play([*DEALS, "p1 b 10", "p2 n"])
    for seat in (0, 1, 2, 3):
        v = view(s, seat)
        assert v.pending_bet == (0, 10, False)
        assert v.current_bet is None
        assert v.stacks == (19, 19, 19, 19)
    voter = view(s, 2)
    assert voter.legal is not None and voter.legal.vote
    assert voter.legal.kinds() == ["y", "n"]
    act(s, "p3 n", "p4 n")
    assert view(s, 0).pending_bet is None
    assert view(s, 0).cap == 10
    assert view(s, 1).cap is None and view(s, None).cap is None
    act(s, "p1 b 2", "p2 y", "p2 r 4")
    assert view(s, 3).pending_bet == (1, 4, True)


def test_declarations_are_public() -> None:
    s = play(
        [
            *DEALS,
            "p1 b 1",
            "p2 y",
            "p2 c",
            "p3 c",
            "p4 c",
            "d dh p1 Ah 2c",
            "d dh p2 3c 4c",
            "d dh p3 Js 2s",
            "d dh p4 3d 4d",
            "p1 dc supremus",
            "p1 b 0",
            "p2 dc chorus",
        ]
    )
    for seat in (0, 1, 2, 3, None):
        assert view(s, seat).declared == (Category.SUPREMUS, Category.CHORUS, None, None)
    legal = view(s, 1).legal
    assert legal is not None and legal.kinds() == ["r", "c", "f"]
    act(s, "p2 c")
    legal = view(s, 2).legal
    assert legal is not None and legal.kinds() == ["dc", "f"]
    assert legal.declare == (Category.FLUXUS, Category.CHORUS)


SHOWDOWN = [
    *DEALS,
    "p1 b 2",
    "p2 y",
    "p2 c",
    "p3 c",
    "p4 f",
    "d dh p1 Ah 2c",
    "d dh p2 3c 4c",
    "d dh p3 Js 2s",
    "p1 dc supremus",
    "p1 b 0",
    "p2 dc numerus",
    "p2 c",
    "p3 dc fluxus",
    "p3 c",
    "p1 x",
    "p2 x 2d",
    "d dh p2 Kd",
    "p3 x",
    "p1 b 0",
    "p2 c",
    "p3 c",
]


def test_showdown_shows_the_hands_still_in_and_never_a_folded_one() -> None:
    s = play(SHOWDOWN)
    assert s.complete and s.result is not None
    # p3 fluxus 42 beats p1 supremus 55 and p2 numerus 43: pot 3 x 3 + 1 = 10.
    assert s.result.final_stacks == (17, 17, 27, 19)
    for seat in (0, 1, 2, 3, None):
        v = view(s, seat)
        assert v.phase is Phase.COMPLETE and v.to_act is None and v.legal is None
        assert v.final_stacks == (17, 17, 27, 19)
        assert [x is not None for x in v.shown] == [True, True, True, False]
        assert v.shown_cards[0] == parse_cards("7h 6h Ah 2c")
        assert v.shown_cards[1] == parse_cards("Ac 3c 4c Kd")
        assert v.shown_cards[2] == parse_cards("Ks Qs Js 2s")
        assert v.shown_cards[3] is None
        shown = v.shown[2]
        assert shown is not None and shown.category is Category.FLUXUS and shown.points == 42
        assert [(a.pot.amount, a.winners) for a in v.awards] == [(10, (2,))]
    # The folded p4 sees nothing of its own hand any more, and no one else's deals.
    assert view(s, 3).hand == ()
    assert view(s, 3).log[3] == "d dh p4 5h 5d"
    assert view(s, 0).log[3] == "d dh p4 ?? ??"
    # Discards stay private even after the showdown.
    assert view(s, 0).log[SHOWDOWN.index("p2 x 2d")] == "p2 x ??"


def test_a_lone_winner_does_not_show() -> None:
    s = play([*DEALS, "p1 b 1", "p2 y", "p2 f", "p3 f", "p4 f"])
    assert s.result is not None and s.result.uncontested
    for seat in (0, 1, 2, 3, None):
        v = view(s, seat)
        assert v.shown == (None,) * 4
        assert v.shown_cards == (None,) * 4
        assert v.final_stacks == (23, 19, 19, 19)
    assert view(s, 0).hand == parse_cards("7h 6h")
    assert view(s, 1).hand == ()


def test_void_deal_in_the_view() -> None:
    lines = [
        *DEALS,
        "p1 x 6h",
        "d dh p1 Ah",
        "p2 x 2d",
        "d dh p2 3d",
        "p3 x Ks",
        "d dh p3 Kh",
        "p4 x 5h",
        "d dh p4 4c",
    ]
    s = play(lines)
    v = view(s, 0)
    assert v.void_deals == 1
    assert v.hand == () and v.discards == ()
    assert v.exchanges == ((), (), (), ())
    assert v.stock_count == 40
    assert v.log[:6] == (
        "d dh p1 7h 6h",
        "d dh p2 ?? ??",
        "d dh p3 ?? ??",
        "d dh p4 ?? ??",
        "p1 x 6h",
        "d dh p1 Ah",
    )
    act(s, *DEALS)
    assert view(s, 0).log[-4:] == (
        "d dh p1 7h 6h",
        "d dh p2 ?? ??",
        "d dh p3 ?? ??",
        "d dh p4 ?? ??",
    )
    assert view(s, 0).hand == parse_cards("7h 6h")


def test_a_view_is_a_frozen_snapshot() -> None:
    s = play(DEALS)
    v = view(s, 0)
    act(s, "p1 b 3")
    assert v.stacks == (19, 19, 19, 19) and len(v.log) == 4
    assert v.legal is not None and v.legal.bet == (1, 19)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.seat = 1  # type: ignore[misc]


def test_bad_seat() -> None:
    s = play(DEALS)
    for seat in (-1, 4, 10):
        with pytest.raises(ValueError):
            view(s, seat)


def test_redact() -> None:
    deal = Deal(2, parse_cards("7h Kc"))
    assert redact(deal, 2) == "d dh p3 7h Kc"
    assert redact(deal, 0) == f"d dh p3 {HIDDEN} {HIDDEN}"
    assert redact(deal, None) == "d dh p3 ?? ??"
    stand = Exchange(1, ())
    assert redact(stand, 0) == "p2 x"
    assert redact(Exchange(1, parse_cards("Ac")), 0) == "p2 x ??"
    assert redact(parse_action("p2 r 12", 4), 0) == "p2 r 12"


def test_standing_pat_in_the_second_exchange_is_public() -> None:
    s = play(SHOWDOWN[: SHOWDOWN.index("p3 x") + 1])
    assert view(s, 0).log[-1] == "p3 x"
    assert view(s, 0).exchanges == ((0,), (1,), (0,), ())


def test_every_field_is_filled_for_every_seat() -> None:
    s = play(SHOWDOWN[:12])
    for seat in (0, 1, 2, 3, None):
        v = view(s, seat)
        assert isinstance(v, SeatView)
        assert len(v.stacks) == len(v.folded) == len(v.declared) == len(v.hand_sizes) == 4
        assert v.log == tuple(
            line
            if seat is not None and line.startswith((f"d dh p{seat + 1} ", f"p{seat + 1} x"))
            else _hidden(line)
            for line in s.lines()
        )


def _hidden(line: str) -> str:
    """``line`` with the cards of a deal or an exchange written ``??`` (hand-history.md)."""
    words = line.split()
    if words[:2] == ["d", "dh"]:
        return " ".join(words[:3] + ["??"] * (len(words) - 3))
    if len(words) >= 2 and words[1] == "x":
        return " ".join(words[:2] + ["??"] * (len(words) - 2))
    return line


def test_the_hand_state_keeps_no_redacted_log() -> None:
    """One place hides cards (R9b): the state keeps every action whole, only views hide."""
    s = play(SHOWDOWN[:12])
    assert not hasattr(s, "public_log") and not hasattr(s, "private_log")
    engine = Path(primero.engine.views.__file__).parent
    writers = sorted(
        path.name
        for path in engine.rglob("*.py")
        if path.name not in ("views.py", "actions.py")
        and any(token in path.read_text(encoding="utf-8") for token in ("HIDDEN", '"??'))
    )
    assert writers == [], writers


def test_a_voter_does_not_see_the_bettors_cap_as_its_own() -> None:
    s = play([*DEALS, "p1 b 10", "p2 n", "p3 n", "p4 n", "p1 b 5"])
    assert s.to_act == 1  # p2 votes on p1's lower bet
    legal = view(s, 1).legal
    assert legal is not None and legal.vote
    assert view(s, 1).cap is None


def _expected_log(s: HandState, seat: int | None) -> tuple[str, ...]:
    """The record as ``seat`` sees it, written from the full lines by hand (R9b)."""
    own = () if seat is None else (f"d dh p{seat + 1} ", f"p{seat + 1} x")
    return tuple(line if own and line.startswith(own) else _hidden(line) for line in s.lines())


def test_a_view_after_more_actions_shows_them() -> None:
    """Viewed, moved on, viewed again: the later view has the new lines (R9b)."""
    s = play(SHOWDOWN[:9])
    before = {seat: view(s, seat).log for seat in (0, 1, None)}
    for line in SHOWDOWN[9:17]:  # the second deal and declarations
        s.apply(line)
        for seat in (0, 1, 2, None):
            assert view(s, seat).log == _expected_log(s, seat)
    assert view(s, 1).log[:9] == before[1] and len(view(s, 1).log) == 17
    assert view(s, 1).private_log[-1] == (10, "d dh p2 3c 4c")


def test_a_copy_and_its_original_are_viewed_apart() -> None:
    s = play(SHOWDOWN[:19])
    assert view(s, 1).log == _expected_log(s, 1)
    c = s.copy()
    s.apply("p2 x 2d")  # the original: p2 throws 2d
    c.apply("p2 x")  # the copy: p2 stands pat
    assert view(s, 1).log[-1] == "p2 x 2d" and view(s, 0).log[-1] == "p2 x ??"
    assert view(c, 1).log[-1] == "p2 x" and view(c, 0).log[-1] == "p2 x"
    assert view(c, 1).log == _expected_log(c, 1)
    assert view(s, 1).private_log[-1] == (19, "p2 x 2d")
    assert view(c, 1).private_log[-1] == (19, "p2 x")


def test_a_replayed_hand_of_the_same_length_is_viewed_afresh() -> None:
    """A log is reused only for the very actions it was written from."""
    s = play(SHOWDOWN[:21])
    assert view(s, 1).log[-1] == "d dh p2 Kd"
    s.actions[-1] = parse_action("d dh p2 Qd", 4)  # another action, the same count
    assert view(s, 1).log[-1] == "d dh p2 Qd"
    assert view(s, 0).log == _expected_log(s, 0)


def test_a_bad_seat_is_named_with_the_seats_there_are() -> None:
    s = play(DEALS)
    with pytest.raises(ValueError, match=r"^no seat 4: this hand has seats 0\.\.3$"):
        view(s, 4)


def test_nothing_is_shown_before_the_showdown() -> None:
    s = play(SHOWDOWN[:12])
    for seat in (0, 3, None):
        v = view(s, seat)
        assert v.shown == (None, None, None, None)
        assert v.shown_cards == (None, None, None, None)
        assert v.awards == () and v.final_stacks is None


# counts calls through the module's name, which compiled code does not look up
@pytest.mark.needs("pure_build")
def test_each_record_line_is_redacted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A view per decision does not rewrite the whole record: only the new lines."""
    calls: list[str] = []
    real = primero.engine.views.redact

    def counting(action: Action, seat: int | None) -> str:
        calls.append(action.line())
        return real(action, seat)

    monkeypatch.setattr(primero.engine.views, "redact", counting)
    s = play(SHOWDOWN[:9])
    view(s, 0)
    assert len(calls) == 9
    view(s, 1)
    view(s, None)
    assert len(calls) == 9  # nothing new: nothing rewritten
    s.apply(SHOWDOWN[9])
    assert view(s, 2).log[-1] == "d dh p1 ?? ??"
    assert calls[9:] == [SHOWDOWN[9]]


def test_the_pots_of_a_finished_hand_are_the_awarded_ones() -> None:
    # SHOWDOWN: antes 1 each, p1-p3 put in 3 and p4 1 before folding: one pot of
    # 3 + 3 + 3 + 1 = 10 that p1, p2 and p3 may win (p3 took it).
    s = play(SHOWDOWN)
    for seat in (0, 3, None):
        assert view(s, seat).pots == (Pot(10, (0, 1, 2)),)
    # A lone winner: p1's ante and bet of 1, three antes: 5 chips, only p1 may win them.
    s = play([*DEALS, "p1 b 1", "p2 y", "p2 f", "p3 f", "p4 f"])
    assert view(s, None).pots == (Pot(5, (0,)),)


def test_a_view_copies_and_pickles_whole() -> None:
    # A view is a value an agent may copy or pickle (by SeatView.__reduce__, which keeps
    # that working when the class is compiled by mypyc).
    s = play(SHOWDOWN[:12])
    v = view(s, 1)
    for twin in (copy.copy(v), copy.deepcopy(v), pickle.loads(pickle.dumps(v))):
        assert twin == v and twin is not v
        assert twin.hand == parse_cards("Ac 2d 3c 4c") and twin.seat == 1
        assert twin.log == v.log


# --- the typed log: SeatView.events hides what SeatView.log hides (R9b) ------------------


def test_the_events_hide_what_the_log_hides_for_every_seat() -> None:
    # a void deal (R4.3), then a hand to its showdown: deals and exchanges of every seat
    void = [*DEALS, "p1 x 6h", "d dh p1 Ah", "p2 x 2d", "d dh p2 3d", "p3 x Ks"]
    void += ["d dh p3 Kh", "p4 x 5h", "d dh p4 4c"]
    s = play([*void, *SHOWDOWN])
    actions = s.actions
    for seat in (0, 1, 2, 3, None):
        v = view(s, seat)
        assert len(v.events) == len(v.log) == len(actions)
        for event, line, action in zip(v.events, v.log, actions, strict=True):
            assert event.seat == action.seat
            # the event says what the line says, no more: read back from the line itself
            assert event == parse_event(line, 4), line
            if isinstance(action, Deal | Exchange):
                assert event.n_cards == len(action.cards)  # their number is public
                mine = seat is not None and action.seat == seat
                assert event.cards == (action.cards if mine or not action.cards else None)
            else:
                assert event.cards == ()
        # the public events name no card at all; only the seat's own events add them
        assert all(e.cards is None or e.cards == () for e in v.public_events)
        assert all(e.seat == seat for _, e in v.private_events)
    # Ana's own cards and nobody else's, by hand: 7h 6h, her discard 6h and Ah, then
    # after the void deal 7h 6h again and Ah 2c (she stands pat in the second exchange)
    ana = [c for e in view(s, 0).events if e.cards for c in e.cards]
    assert ana == [parse_card(w) for w in ["7h", "6h", "6h", "Ah", "7h", "6h", "Ah", "2c"]]


def test_an_event_is_redacted_as_its_line_is() -> None:
    deal = parse_action("d dh p2 7h Kc", 4)
    assert isinstance(deal, Deal)
    assert redact_event(deal, 0) == LogEvent("deal", 1, n_cards=2, cards=None)
    assert redact_event(deal, 1) == LogEvent("deal", 1, n_cards=2, cards=deal.cards)
    assert redact_event(deal, None) == parse_event(redact(deal, None), 4)
    pat = parse_action("p3 x", 4)
    assert redact_event(pat, 0) == LogEvent("exchange", 2, n_cards=0, cards=())  # public
    assert parse_event("p1 dc fluxus", 4) == LogEvent("declare", 0, category=Category.FLUXUS)
    assert parse_event("p4 n", 4) == LogEvent("vote", 3, accept=False)
    assert parse_event("p2 r 12", 4) == LogEvent("raise", 1, amount=12)
    for bad in ("p1 b ??", "d dh p5 ?? ??", "p1 x 7h ??", "zz"):
        with pytest.raises(ValueError):
            parse_event(bad, 4)
