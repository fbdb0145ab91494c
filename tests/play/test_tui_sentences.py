"""Moves in words (play/tablemodel/sentences.py): the one function the terminal, the
plain prompt, ``watch`` and the server's ``events`` share, with the
end of a hand said as chips won and uncalled bets returned (R7)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from primero.engine.state import HandState
from primero.engine.views import SeatView, view
from primero.play.tablemodel.sentences import (
    Uncalled,
    hand_sentences,
    result_sentences,
    uncalled_bet,
    won_awards,
)

DEAL3 = ["d dh p1 7h Kc", "d dh p2 2s 3s", "d dh p3 4s 5s"]


def _hand(players: list[str], stacks: list[int], lines: list[str]) -> HandState:
    s = HandState(players, stacks)
    for line in lines:
        s.apply(line)
    return s


def test_everyone_folds_the_bet_comes_back_as_uncalled_not_won() -> None:
    # antes 1 each; Ana bets 6, both fold: 6 uncalled, Ana wins the 3 antes (R7).
    s = _hand(["Ana", "Ben", "Cy"], [20, 20, 20], [*DEAL3, "p1 b 6", "p2 y", "p2 f", "p3 f"])
    v = view(s, 0)
    assert uncalled_bet(v) == Uncalled(0, 6)
    assert [a.pot.amount for a in won_awards(v)] == [3]
    said = hand_sentences(v)
    assert said[-2:] == ["Uncalled bet of 6 chips returned to you", "You win 3 chips"]
    assert said[3:7] == ["You bet 6", "Ben accepts the bet", "Ben folds", "Cy folds"]
    assert "You bet" not in " ".join(hand_sentences(view(s, 1)))
    assert hand_sentences(view(s, 1))[-1] == "Ana wins 3 chips"


def test_all_in_calls_and_a_side_pot_of_uncalled_chips() -> None:
    # Cy has 5: antes 1, Ana bets 9 (all in from 10), Ben calls 9, Cy calls 4 all in.
    lines = [*DEAL3, "p1 b 9", "p2 y", "p2 c", "p3 c"]
    s = _hand(["Ana", "Ben", "Cy"], [10, 30, 5], lines)
    said = hand_sentences(view(s, 2))
    assert said[3] == "Ana bets 9 and is all in"
    assert said[5] == "Ben calls 9"
    assert said[6] == "You call 4 and are all in"


def test_a_refused_bet_puts_nothing_in() -> None:
    lines = [*DEAL3, "p1 b 9", "p2 y", "p2 r 25", "p3 n", "p1 n", "p2 r 20", "p3 y"]
    s = _hand(["Ana", "Ben", "Cy"], [10, 30, 5], lines)
    said = hand_sentences(view(s, None))
    assert said[7] == "Ana refuses the bet: it is withdrawn (R8)"
    assert said[8] == "Ben raises to 20"  # not all in: 29 - 20 = 9 left


def _finished_view(seed: int, players: int) -> SeatView:
    import random

    from primero.bots import make_bot
    from primero.engine.dealing import Dealer
    from primero.engine.match import play_hand

    rng = random.Random(seed)
    stacks = [rng.choice([3, 5, 12, 40]) for _ in range(players)]
    s = HandState([f"P{i}" for i in range(players)], stacks)
    bots = [make_bot("random", seed + i) for i in range(players)]
    play_hand(s, Dealer.seeded(seed), bots)
    return view(s, None)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_chips_said_add_up_to_the_chips_put_in(seed: int, players: int) -> None:
    v = _finished_view(seed, players)
    back = uncalled_bet(v)
    won = sum(a.pot.amount for a in won_awards(v))
    assert won + (back.chips if back else 0) == sum(v.contributed)
    # nobody but the top bettor put in the uncalled chips: no other seat reached them
    if back is not None:
        others = [c for s, c in enumerate(v.contributed) if s != back.seat]
        assert v.contributed[back.seat] - back.chips == max(others)
    said = result_sentences(v)
    assert len(said) == len(won_awards(v)) + (back is not None)
    assert all(" 0 chips" not in line for line in said)


def test_a_bet_nobody_could_call_is_no_win_in_the_summary() -> None:
    """You bet 10, Ben and Cy call all in for 2; Cy wins the 9-chip
    main pot; the 8 uncalled chips come back: no pot won, no hand won."""
    from primero.play.session import SessionSummary

    lines = [
        "d dh p1 4s Kh", "d dh p2 6d Kc", "d dh p3 Ah 7d",
        "p1 b 10", "p2 y", "p2 c", "p3 c",
        "d dh p1 2s 2d", "d dh p2 Kd 5h", "d dh p3 Js Qd",
        "p1 x", "p2 x", "p3 x",
    ]  # fmt: skip
    s = _hand(["You", "Ben", "Cy"], [20, 3, 3], lines)
    v = view(s, 0)
    assert [a.pot.amount for a in v.awards] == [9, 8]  # the engine's pots (R7)
    assert hand_sentences(v)[-2:] == [
        "Uncalled bet of 8 chips returned to you",
        "Cy wins 9 chips (numerus 31)",
    ]
    summary = SessionSummary(start_chips=20)
    summary.add(v)
    assert (summary.hands_played, summary.hands_won, summary.biggest_pot) == (1, 0, 0)
    assert summary.lines(s.result.final_stacks[0] if s.result else 0)[0] == (
        "This session: 1 hand played, 0 won"
    )


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10_000))
def test_standings_rank_those_out_by_when_they_went_out(seed: int) -> None:
    """R9: a player who went out later ranks higher; out in the same
    hand, the same place. The exits are watched hand by hand, not read from records."""
    from primero.bots import make_bot
    from primero.engine.match import Match
    from primero.play.table import ranked_standings

    names = ["A", "B", "C", "D", "E"]
    match = Match(names, stacks=6, seed=seed, max_hands=60)
    bots = {n: make_bot("random", seed + i) for i, n in enumerate(names)}
    out_at: dict[str, int] = {}
    while not match.over:
        match.play_hand({n: bots[n] for n in names if match.chips[names.index(n)] > 0})
        for i, n in enumerate(names):
            if match.chips[i] == 0 and n not in out_at:
                out_at[n] = match.hands_played
    place = {s.name: s.place for s in ranked_standings(match)}
    for a in names:
        for b in names:
            ca, cb = match.chips[names.index(a)], match.chips[names.index(b)]
            if ca > cb:
                assert place[a] < place[b]
            elif ca == cb == 0:
                if out_at[a] > out_at[b]:
                    assert place[a] < place[b]
                elif out_at[a] == out_at[b]:
                    assert place[a] == place[b]
            elif ca == cb:
                assert place[a] == place[b]


def test_a_vote_under_way_is_not_said_withdrawn() -> None:
    # R8: Ben refused, Cy has not voted yet: the bet is neither standing nor withdrawn
    s = _hand(["Ana", "Ben", "Cy"], [20, 20, 20], [*DEAL3, "p1 b 6", "p2 n"])
    said = hand_sentences(view(s, 2))
    assert said[-2:] == ["Ana bets 6", "Ben refuses the bet"]
    s.apply("p3 n")  # every voter refused: withdrawn, Ana acts again
    assert hand_sentences(view(s, 2))[-1] == "You refuse the bet: it is withdrawn (R8)"


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(2, 5))
def test_sentences_never_name_a_card_the_seat_may_not_see(seed: int, players: int) -> None:
    """R9b, the new path (hand_sentences): at every step of a hand, seat 0's sentences
    name only its own cards, and others' cards only once shown at the showdown."""
    from primero.engine.actions import Deal, Exchange

    done = _finished_view(seed, players)
    stacks = [s + c for s, c in zip(done.stacks, done.contributed, strict=True)]
    full = HandState(list(done.players), stacks)
    from primero.bots import make_bot
    from primero.engine.dealing import Dealer
    from primero.engine.match import play_hand

    bots = [make_bot("random", seed + i) for i in range(players)]
    play_hand(full, Dealer.seeded(seed), bots)
    replayed = HandState(list(done.players), stacks)
    own: set[str] = set()  # every card seat 0 was dealt or threw (void deals reuse cards)
    for action in full.actions:
        replayed.apply(action)
        if isinstance(action, Deal | Exchange) and action.seat == 0:
            own |= {c.pretty for c in action.cards}
        v = view(replayed, 0)
        text = " ".join(hand_sentences(v))
        seen = set(own)
        for cards in v.shown_cards:
            seen |= {c.pretty for c in cards or ()}
        for other in full.actions:
            if isinstance(other, Deal | Exchange) and other.seat != 0:
                for card in other.cards:
                    if card.pretty not in seen:
                        assert card.pretty not in text, (card, text)


def test_a_player_named_you_reads_in_the_second_person_by_name_too() -> None:
    from primero.play.tablemodel.sentences import line_sentences

    said = line_sentences(
        ["d dh p1 ?? ??", "p1 b 0", "p2 c"], ("You", "Ben"), viewer=None, starting_stacks=[5, 5]
    )
    assert said == ["You are dealt 2 cards", "You check", "Ben checks"]
