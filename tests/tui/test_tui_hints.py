"""Hints on demand (primero.tui.hints): odds from the seat's own view only."""

from __future__ import annotations

import asyncio
import io

from rich.console import Console, RenderableType

from primero.engine.actions import parse_action
from primero.engine.hands import Category
from primero.engine.odds import exchange_odds
from primero.engine.state import HandState
from primero.engine.views import view
from primero.play.table import TableConfig
from primero.tui.hints import hints_text, percent
from primero.tui.play import TableApp
from primero.tui.screentext import screen_text


def plain(renderable: RenderableType) -> str:
    console = Console(file=io.StringIO(), width=100, color_system=None, record=True)
    console.print(renderable)
    return console.export_text()


def first_round(lines: list[str]) -> HandState:
    state = HandState(["A", "B", "C", "D"], [20] * 4)
    for line in lines:
        state.apply(parse_action(line, 4))
    return state


DEAL = ["d dh p1 7h 2c", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d"]


def test_the_hint_shows_the_exact_odds_of_every_choice() -> None:
    v = view(first_round(DEAL), 0)
    text = plain(hints_text(v))
    odds = exchange_odds(v.hand, v.discards)
    assert len(odds.choices) == 4
    for choice in odds.choices:
        assert f"{choice.expected_points:.1f}" in text
        assert percent(choice.score) in text
    assert "keep both" in text and "discard 2♣" in text and "★" in text
    numerus = odds.choices[0].probability(Category.NUMERUS)
    assert percent(numerus) in text


def test_the_hint_uses_only_the_seats_own_cards_and_discards() -> None:
    state = first_round([*DEAL, "p1 x 2c", "d dh p1 3c"])
    v = view(state, 0)
    assert v.discards == tuple(c for c in state.own_discards[0])
    text = plain(hints_text(v))
    expected = exchange_odds(v.hand, v.discards)  # 2c is dead for p1
    assert f"the {expected.unseen} cards" in text and expected.unseen == 37
    # another seat's hand changes nothing in p1's hint
    other = first_round(["d dh p1 7h 2c", "d dh p2 Kc Kd", "d dh p3 6s As", "d dh p4 4h 4d"])
    other.apply(parse_action("p1 x 2c", 4))
    other.apply(parse_action("d dh p1 3c", 4))
    assert plain(hints_text(view(other, 0))) == text


def test_no_hint_for_a_spectator_or_a_folded_seat() -> None:
    state = first_round(DEAL)
    assert "No exchange" in plain(hints_text(view(state, None)))


def test_h_shows_and_hides_the_hints_at_the_table() -> None:
    async def body() -> None:
        app = TableApp(TableConfig(seed=5, max_hands=1), bot_delay=0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert "Hints:" not in screen_text(app)
            await pilot.press("h")
            text = screen_text(app)
            assert "Hints: exact odds" in text and "keep both" in text and "★" in text
            await pilot.press("h")
            assert "Hints:" not in screen_text(app)

    asyncio.run(body())


def test_no_exchange_table_once_no_exchange_is_left() -> None:
    # Heads-up after the first round; the second exchange is done, the last round is on.
    state = first_round(
        [
            *DEAL,
            "p1 b 2",
            "p2 y",
            "p2 c",
            "p3 f",
            "p4 f",
            "d dh p1 7d 6h",
            "d dh p2 3c 4c",
            "p1 dc numerus",
            "p1 b 0",
            "p2 dc numerus",
            "p2 c",
            "p1 x",
            "p2 x",
        ]
    )
    text = plain(hints_text(view(state, 0)))
    assert "No exchange is left" in text
    assert "best:" not in text
    assert "Showdown now against 1 random hand" in text


def test_the_second_exchange_shows_no_stale_bet() -> None:
    # R5: the round's bet belongs to its round; in the second exchange nothing is open.
    state = first_round(
        [
            *DEAL,
            "p1 b 2",
            "p2 y",
            "p2 c",
            "p3 f",
            "p4 f",
            "d dh p1 7d 6h",
            "d dh p2 3c 4c",
            "p1 dc numerus",
            "p1 b 3",
            "p2 dc numerus",
            "p2 c",
        ]
    )
    v = view(state, 0)
    assert v.current_bet is None
    assert v.round_bets == (0, 0, 0, 0)
    assert v.contributed == (6, 6, 1, 1)
    assert "best:" in plain(hints_text(v))  # the second exchange is still ahead


# ------------------------------------------------------------------ phase by phase (R4)


def test_hints_first_round_before_a_bet_keeping_both_means_betting() -> None:
    # R4.3: in the first round a player bets or exchanges 1 or 2; keeping both is a bet.
    text = plain(hints_text(view(first_round(DEAL), 0)))
    assert "keep both and bet" in text
    assert "best:" in text
    assert "No exchange" not in text and "A bet stands" not in text


def test_hints_first_round_stand_pat_allowed_by_house_rule() -> None:
    from primero.engine.rules import Rules

    state = HandState(["A", "B", "C", "D"], [20] * 4, Rules(first_round_stand=True))
    for line in DEAL:
        state.apply(parse_action(line, 4))
    assert "keep both (stand pat or bet)" in plain(hints_text(view(state, 0)))


def test_hints_while_voting_in_the_first_round_the_second_exchange_is_ahead() -> None:
    # R8: p1's bet is under vote; p2 votes. R4.6: the second exchange is still to come.
    state = first_round([*DEAL, "p1 b 2"])
    v = view(state, 1)
    assert v.legal is not None and v.legal.vote
    text = plain(hints_text(v))
    assert "No exchange is left" not in text and "only the showdown" not in text
    assert "A bet stands: no exchange in this round (R4.3)" in text
    assert "second exchange (R4.6)" in text
    assert "keep both (no exchange now)" in text
    # no exchange is allowed, so none is offered or marked best
    assert "★" not in text and "discard " not in text
    assert "num pri sup flu cho: the chance to end with a numerus" in text


def test_hints_while_calling_with_two_cards_the_second_exchange_is_ahead() -> None:
    # R8: p2 accepts, the bet stands; R5: p2 must call, raise or fold, with two cards.
    state = first_round([*DEAL, "p1 b 2", "p2 y"])
    v = view(state, 1)
    assert v.legal is not None and v.legal.call == 2 and len(v.hand) == 2
    text = plain(hints_text(v))
    assert "No exchange is left" not in text
    assert "A bet stands: no exchange in this round (R4.3)" in text
    assert "second exchange (R4.6)" in text


def test_hints_in_the_declare_round_the_second_exchange_is_ahead() -> None:
    state = first_round(
        [*DEAL, "p1 b 2", "p2 y", "p2 c", "p3 f", "p4 f", "d dh p1 7d 6h", "d dh p2 3c 4c"]
    )
    v = view(state, 0)
    assert v.legal is not None and v.legal.declare
    text = plain(hints_text(v))
    assert "The second exchange (R4.6) is still ahead" in text
    assert "stand pat" in text and "★ best at the second exchange:" in text


def test_hints_in_the_second_exchange_offer_the_exchange_now() -> None:
    state = first_round(
        [
            *DEAL,
            "p1 b 2",
            "p2 y",
            "p2 c",
            "p3 f",
            "p4 f",
            "d dh p1 7d 6h",
            "d dh p2 3c 4c",
            "p1 dc numerus",
            "p1 b 0",
            "p2 dc numerus",
            "p2 c",
        ]
    )
    v = view(state, 0)
    assert v.legal is not None and v.legal.exchange == (0, 1, 2)
    text = plain(hints_text(v))
    assert "still ahead" not in text and "No exchange" not in text
    assert "stand pat" in text and "best:" in text


def test_hints_in_the_last_round_no_exchange_is_left() -> None:
    state = first_round(
        [
            *DEAL,
            "p1 b 2",
            "p2 y",
            "p2 c",
            "p3 f",
            "p4 f",
            "d dh p1 7d 6h",
            "d dh p2 3c 4c",
            "p1 dc numerus",
            "p1 b 0",
            "p2 dc numerus",
            "p2 c",
            "p1 x",
            "p2 x",
        ]
    )
    text = plain(hints_text(view(state, 0)))
    assert "No exchange is left in this hand (R4.6)" in text
    assert "last round of betting (R4.7)" in text
    assert "best:" not in text


def test_hints_for_a_folded_seat() -> None:
    state = first_round([*DEAL, "p1 b 2", "p2 y", "p2 c", "p3 f"])
    assert "No exchange to weigh now." in plain(hints_text(view(state, 2)))
