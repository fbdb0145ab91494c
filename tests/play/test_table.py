"""The person-vs-bots controller (primero.play.table): set-up, input syntax, turns, records."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from primero.bots import BOT_NAMES
from primero.bots.random import RandomBot
from primero.engine.actions import Action, Bet, Call, Deal, Declare, Exchange, Fold, Raise, Vote
from primero.engine.errors import IllegalActionError, PrimeroError, WrongTurnError
from primero.engine.hands import Category, evaluate
from primero.engine.history import read_record, replay
from primero.engine.match import MatchOverError
from primero.engine.rules import Rules, RulesError
from primero.engine.state import Phase
from primero.engine.views import SeatView
from primero.play.moveinput import input_help
from primero.play.table import InputError, Table, TableConfig

Policy = Callable[[SeatView], Action]


def _first_turn(seed: int = 5, **kw: object) -> Table:
    table = Table(TableConfig(seed=seed, **kw))  # type: ignore[arg-type]
    table.start_hand()
    table.advance()
    assert table.waiting_for_human()
    return table


def _play_until(table: Table, policy: Policy, stop: Callable[[SeatView], bool]) -> bool:
    """Play the person's turns with ``policy`` until ``stop(view)`` holds at one of them
    (True) or the match ends (False)."""
    while not table.over:
        if table.hand is None or table.hand.complete:
            if table.hand is not None:
                table.finish_hand()
                if table.over:
                    return False
            table.start_hand()
        table.advance()
        if table.waiting_for_human():
            v = table.view()
            if stop(v):
                return True
            table.act(policy(v))
    return False


def _passive(v: SeatView) -> Action:
    """Accept, declare the truth, call or check, stand pat, bet 0 or exchange one card."""
    legal = v.legal
    assert legal is not None and v.seat is not None
    seat = v.seat
    if legal.vote:
        return Vote(seat, True)
    if legal.declare:
        return Declare(seat, legal.declare[0])
    if legal.call is not None:
        return Call(seat)
    if 0 in legal.exchange:
        return Exchange(seat, ())
    if legal.bet is not None and legal.bet[0] == 0:
        return Bet(seat, 0)
    if legal.exchange:
        return Exchange(seat, v.hand[: legal.exchange[0]])
    assert legal.bet is not None
    return Bet(seat, legal.bet[0])


# --------------------------------------------------------------------------- set-up


def test_config_defaults_and_bot_names() -> None:
    table = Table(TableConfig(seed=1))
    players = table.match.players
    assert players[0] == "You"
    assert len(players) == 4 and len(set(players)) == 4
    assert players[1:] == BOT_NAMES[:3]
    assert table.kinds == (None, "heuristic", "heuristic", "heuristic")
    assert table.label(1) == "Lorenzo (heuristic)"
    assert table.label(0) == "You"
    assert table.hand is None and table.human_seat is None
    assert table.match.chips == [100, 100, 100, 100]


def test_bot_kinds_cycle_and_name_clash_avoided() -> None:
    table = Table(TableConfig(human_name="Lorenzo", players=6, bots=("random", "heuristic")))
    assert table.match.players[0] == "Lorenzo"
    assert len(set(table.match.players)) == 6
    assert table.kinds[1:] == ("random", "heuristic", "random", "heuristic", "random")


@pytest.mark.parametrize("players", [3, 7])
def test_players_outside_rules_range(players: int) -> None:
    with pytest.raises(RulesError, match="4 to 6"):
        Table(TableConfig(players=players))


def test_players_range_follows_rules() -> None:
    rules = Rules(min_players=2, max_players=8)
    assert len(Table(TableConfig(players=2, rules=rules)).match.players) == 2
    assert len(Table(TableConfig(players=8, rules=rules)).match.players) == 8


def test_unknown_bot_kind_lists_kinds() -> None:
    with pytest.raises(ValueError, match="random, heuristic"):
        Table(TableConfig(bots=("genius",)))


def test_no_hand_yet() -> None:
    table = Table(TableConfig(seed=1))
    with pytest.raises(PrimeroError):
        table.view()
    with pytest.raises(PrimeroError):
        table.advance()
    assert not table.waiting_for_human()
    with pytest.raises(InputError, match="not your turn"):
        table.parse_input("c")


# --------------------------------------------------------------------------- turns


def test_first_turn_is_the_persons_and_view_hides_others() -> None:
    table = _first_turn()
    v = table.view()
    assert table.human_seat == 0  # table index 0 is p1 of the first hand
    assert v.seat == 0 and v.legal is not None
    assert v.phase is Phase.FIRST_ROUND
    assert len(v.hand) == 2
    assert sorted(v.legal.kinds()) == ["b", "x1", "x2"]
    # the dealer dealt 2 cards to each of the 4 players before the person's turn
    assert [type(e.action) for e in table.events] == [Deal] * 4
    assert table.events[0].text.startswith("You are dealt ")
    for event in table.events[1:]:
        assert "is dealt 2 cards" in event.text
        for card in event.action.cards:  # type: ignore[union-attr]
            assert card.pretty not in event.text and str(card) not in event.text


def test_advance_returns_nothing_while_waiting() -> None:
    table = _first_turn()
    assert table.advance() == []
    assert table.step() is None


def test_act_applies_and_bots_follow() -> None:
    table = _first_turn()
    v = table.view()
    table.act(Exchange(0, (v.hand[0],)))
    assert not table.waiting_for_human() or table.view().legal is not None
    applied = table.advance()
    assert applied, "the replacement deal at least"
    assert applied[0] == Deal(0, applied[0].cards)  # type: ignore[union-attr]
    assert table.events[4].text.startswith("You exchange ")


# --------------------------------------------------------------------------- input syntax


def test_parse_input_bets_and_exchanges() -> None:
    table = _first_turn()
    v = table.view()
    a, b = v.hand
    assert table.parse_input("b 5") == Bet(0, 5)
    assert table.parse_input("  BET   7 ") == Bet(0, 7)
    assert table.parse_input(f"x {a}") == Exchange(0, (a,))
    assert table.parse_input(f"x {a} {b}") == Exchange(0, (a, b))
    assert table.parse_input(f"x {a},{b}") == Exchange(0, (a, b))
    assert table.parse_input(f"x {str(a).lower()}") == Exchange(0, (a,))  # "kc" is Kc
    assert table.parse_input(f"exchange {a.pretty}") == Exchange(0, (a,))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "nothing typed"),
        ("zz", "unknown command 'zz'"),
        ("b", "takes one amount"),
        ("b five", "not a whole number"),
        ("b 0", "you may not bet 0"),
        ("b 500", "you may not bet 500"),
        ("r 5", "you cannot raise now"),
        ("c", "you cannot call or check now"),
        ("f", "you cannot fold now"),
        ("y", "you cannot vote"),
        ("dc n", "you cannot declare now"),
        ("x", "you may not exchange 0 cards now"),
        ("x 8h", "unknown card '8h'"),
    ],
)
def test_parse_input_errors_say_why_list_allowed_and_change_nothing(text: str, reason: str) -> None:
    table = _first_turn()
    hand = table.hand
    assert hand is not None
    before = (hand.lines(), list(hand.stacks), table.view())
    with pytest.raises(InputError) as info:
        table.parse_input(text)
    message = str(info.value)
    assert reason in message
    assert "allowed now: exchange 1 or 2 cards or bet between 1 and 99 chips" in message
    assert "x CARDS" in message and "b N" in message
    assert (hand.lines(), list(hand.stacks), table.view()) == before


def test_exchange_of_cards_not_held() -> None:
    table = _first_turn()
    held = set(table.view().hand)
    other = next(c for c in ("7h", "7c", "7d", "7s") if all(str(h) != c for h in held))
    pretty = other[0] + {"h": "♥", "c": "♣", "d": "♦", "s": "♠"}[other[1]]
    with pytest.raises(InputError, match=f"^you do not hold {pretty}: you hold "):
        table.parse_input(f"x {other}")


def test_act_illegal_changes_nothing_and_wrong_seat() -> None:
    table = _first_turn()
    hand = table.hand
    assert hand is not None
    lines = hand.lines()
    with pytest.raises(IllegalActionError):
        table.act(Bet(0, 1000))
    with pytest.raises(IllegalActionError):
        table.act(Call(0))
    with pytest.raises(WrongTurnError):
        table.act(Bet(1, 1))
    assert hand.lines() == lines
    assert table.waiting_for_human()


def test_declare_prefixes_votes_and_checks() -> None:
    table = Table(TableConfig(seed=11, bots=("random",)))
    found = _play_until(table, _passive, lambda v: v.legal is not None and bool(v.legal.declare))
    assert found
    v = table.view()
    assert v.legal is not None and v.seat is not None
    true_category = evaluate(v.hand).category
    seat = v.seat
    assert table.parse_input(f"dc {true_category.label}") == Declare(seat, true_category)
    assert table.parse_input("dc ch") == Declare(seat, Category.CHORUS)
    assert table.parse_input("declare F") == Declare(seat, Category.FLUXUS)
    with pytest.raises(InputError, match="not a category"):
        table.parse_input("dc x")
    with pytest.raises(InputError, match="takes one category"):
        table.parse_input("dc")
    if true_category > Category.NUMERUS:
        with pytest.raises(InputError, match="lower"):
            table.parse_input("dc numerus")
    assert input_help(v.legal)[0].startswith("dc CAT")

    found = _play_until(table, _passive, lambda v: v.legal is not None and v.legal.vote)
    assert found
    voter = table.human_seat
    assert voter is not None
    assert table.parse_input("y") == Vote(voter, True)
    assert table.parse_input("refuse") == Vote(voter, False)
    with pytest.raises(InputError, match="allowed now: accept"):
        table.parse_input("c")


def test_c_checks_with_a_bet_of_zero_when_opening_later_rounds() -> None:
    table = Table(TableConfig(seed=2, bots=("random",)))

    def opening(v: SeatView) -> bool:
        return (
            v.legal is not None
            and v.phase in (Phase.DECLARE_ROUND, Phase.LAST_ROUND)
            and v.legal.bet is not None
            and v.legal.call is None
        )

    assert _play_until(table, _passive, opening)
    seat = table.human_seat
    assert seat is not None
    assert table.parse_input("c") == Bet(seat, 0)
    assert table.parse_input("check") == Bet(seat, 0)


# --------------------------------------------------------------------------- whole matches


def _play_match(table: Table, agent: Policy) -> int:
    hands = 0
    total = sum(table.match.chips)
    while not table.over:
        table.start_hand()
        while True:
            table.advance()
            hand = table.hand
            assert hand is not None
            if hand.complete:
                assert sum(hand.stacks) == total  # R7: chips never change
                break
            assert sum(hand.stacks) + hand.pot_total() == total
            assert table.waiting_for_human()
            table.act(agent(table.view()))
        record = table.finish_hand()
        hands += 1
        assert sum(table.match.chips) == total
        assert record.extra["hand_number"] == hands
    return hands


def test_seeded_match_random_person_vs_bots_conserves_chips(tmp_path: Path) -> None:
    config = TableConfig(
        players=5,
        bots=("heuristic", "random"),
        seed=7,
        stack=30,
        max_hands=40,
        save_dir=tmp_path / "hands",
    )
    table = Table(config)
    hands = _play_match(table, RandomBot(seed=3))
    assert hands == table.match.hands_played
    assert table.over
    assert sum(table.match.chips) == 5 * 30
    with pytest.raises(MatchOverError):
        table.start_hand()
    files = sorted((tmp_path / "hands").glob("*.prh"))
    assert len(files) == hands == len(table.saved)
    assert all(f"hand{i + 1:03d}" in f.name for i, f in enumerate(files))
    for path, record in zip(files, table.match.records, strict=True):
        outcome = replay(read_record(path))
        assert outcome.complete
        assert outcome.state is not None and outcome.state.result is not None
        assert read_record(path).actions == record.actions
        assert read_record(path).seed == 7


def test_same_seed_same_match() -> None:
    def run() -> list[list[str]]:
        table = Table(TableConfig(seed=21, max_hands=5, bots=("random", "heuristic")))
        _play_match(table, RandomBot(seed=1))
        return [list(r.actions) for r in table.match.records]

    assert run() == run()


def _reckless(v: SeatView) -> Action:
    legal = v.legal
    assert legal is not None and v.seat is not None
    if legal.vote:
        return Vote(v.seat, True)
    if legal.declare:
        return Declare(v.seat, legal.declare[-1])
    if legal.raise_to is not None:
        return Raise(v.seat, legal.raise_to[1])
    if legal.bet is not None:
        return Bet(v.seat, legal.bet[1])
    if legal.call is not None:
        return Call(v.seat)
    if legal.exchange:
        return Exchange(v.seat, v.hand[: legal.exchange[-1]])
    return Fold(v.seat)


def test_person_out_watches_as_spectator() -> None:
    for seed in range(40):
        table = Table(TableConfig(seed=seed, stack=3, bots=("heuristic",)))
        while not table.human_out and not table.over:
            table.start_hand()
            while True:
                table.advance()
                if table.hand is not None and table.hand.complete:
                    break
                table.act(_reckless(table.view()))
            table.finish_hand()
        if table.human_out and not table.over:
            break
    else:
        pytest.fail("the reckless person never lost everything before the match ended")
    assert table.match.chips[0] == 0
    table.start_hand()
    assert table.human_seat is None
    assert table.advance()
    assert table.hand is not None and table.hand.complete
    assert table.view().seat is None
    assert not table.waiting_for_human()


# --------------------------------------------------------------------------- grammar


def test_input_errors_address_the_person_in_the_second_person() -> None:
    t = Table(TableConfig(seed=5))
    t.start_hand()
    t.advance()
    assert [str(c) for c in t.view().hand] == ["5h", "Kh"]
    with pytest.raises(InputError) as info:
        t.parse_input("x Ac")
    first = str(info.value).splitlines()[0]
    assert first == "you do not hold A♣: you hold 5♥ K♥"


def test_personal_message_rewrites_the_persons_seat_only() -> None:
    from primero.play.moveinput import personal_message

    assert (
        personal_message("p1 holds a primero and may not declare numerus", 0)
        == "you hold a primero and may not declare numerus"
    )
    assert personal_message("p1 may not exchange 1 cards now", 0) == (
        "you may not exchange 1 card now"
    )
    assert personal_message("p2 is due 2 distinct cards", 0) == "p2 is due 2 distinct cards"
    assert personal_message("p3 has folded", 2) == "you have folded"


def test_acting_out_of_turn_says_your_turn() -> None:
    t = Table(TableConfig(seed=5))
    t.start_hand()
    with pytest.raises(WrongTurnError, match=r"^it is not your turn$"):
        t.act(Call(0))
