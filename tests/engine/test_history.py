"""Hand records (hand-history.md): header and line errors, formats, canonical rewrite."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from primero.engine.history import (
    HandRecord,
    RecordError,
    dump_record,
    load_record,
    parse_record,
    read_record,
    record_of,
    replay,
    write_record,
)
from primero.engine.rules import Rules

FORMAT = Path(__file__).resolve().parents[2] / "docs" / "record-format.md"

DEALS = ["d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d"]
# A complete hand: p1 bets 1, p2 accepts, everyone folds: p1 takes the 4 antes.
FOLDS = [*DEALS, "p1 b 1", "p2 y", "p2 f", "p3 f", "p4 f"]


def toml_text(
    *,
    header: str = 'variant = "primero"',
    players: str = '["Ana", "Ben", "Cleo", "Dev"]',
    stacks: str = "[20, 20, 20, 20]",
    actions: list[str] | None = None,
    tail: str = "",
) -> str:
    lines = DEALS if actions is None else actions
    body = ",\n".join(f"  {json.dumps(line, ensure_ascii=False)}" for line in lines)
    return (
        f"{header}\nplayers = {players}\nstarting_stacks = {stacks}\nactions = [\n{body}\n]\n{tail}"
    )


def base_data(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "variant": "primero",
        "players": ["Ana", "Ben", "Cleo", "Dev"],
        "starting_stacks": [20, 20, 20, 20],
        "actions": list(DEALS),
    }
    data.update(overrides)
    return data


def error_of(
    lines: list[Any], stacks: tuple[int, ...] = (20, 20, 20, 20), rules: Rules | None = None
) -> RecordError:
    names = ("Ana", "Ben", "Cleo", "Dev", "Eve", "Finn")[: len(stacks)]
    record = HandRecord(names, stacks, lines, rules or Rules())
    outcome = replay(record)
    assert outcome.error is not None, "expected an invalid record"
    assert not outcome.complete and outcome.to_act is None and outcome.legal == []
    return outcome.error


# ---------------------------------------------------------------- header errors

BAD_HEADERS = {
    "unknown rule": toml_text(tail="[rules]\nblinds = 2\n"),
    "bool as int (ante)": toml_text(tail="[rules]\nante = true\n"),
    "bool as int (min_raise)": toml_text(tail="[rules]\nmin_raise = true\n"),
    "bool as int (max_raises)": toml_text(tail="[rules]\nmax_raises = false\n"),
    "bool as int (max_players)": toml_text(tail="[rules]\nmax_players = true\n"),
    "20.0 as int (ante)": toml_text(tail="[rules]\nante = 20.0\n"),
    "2.0 as int (min_raise)": toml_text(tail="[rules]\nmin_raise = 2.0\n"),
    "int as bool": toml_text(tail="[rules]\nrefusal = 1\n"),
    "string as bool": toml_text(tail='[rules]\ndeclarations = "yes"\n'),
    "bad ties": toml_text(tail='[rules]\nties = "random"\n'),
    "negative ante": toml_text(tail="[rules]\nante = -1\n"),
    "min_raise 0": toml_text(tail="[rules]\nmin_raise = 0\n"),
    "negative max_raises": toml_text(tail="[rules]\nmax_raises = -1\n"),
    "max_players 9": toml_text(tail="[rules]\nmax_players = 9\n"),
    "min_players 1": toml_text(tail="[rules]\nmin_players = 1\n"),
    "min > max players": toml_text(tail="[rules]\nmin_players = 5\nmax_players = 4\n"),
    "max_players 3 below the default min 4": toml_text(tail="[rules]\nmax_players = 3\n"),
    "rules not a table": toml_text(header='variant = "primero"\nrules = 3'),
    "stack 0": toml_text(stacks="[20, 0, 20, 20]"),
    "negative stack": toml_text(stacks="[20, -5, 20, 20]"),
    "stack 20.0": toml_text(stacks="[20.0, 20, 20, 20]"),
    "stack bool": toml_text(stacks="[true, 20, 20, 20]"),
    "stack string": toml_text(stacks='["20", 20, 20, 20]'),
    "too few stacks": toml_text(stacks="[20, 20, 20]"),
    "too many stacks": toml_text(stacks="[20, 20, 20, 20, 20]"),
    "stacks not an array": toml_text(stacks="20"),
    "one player": toml_text(players='["Ana"]', stacks="[20]"),
    "seven players (max 6)": toml_text(
        players='["A", "B", "C", "D", "E", "F", "G"]', stacks="[9, 9, 9, 9, 9, 9, 9]"
    ),
    "five players with max_players 4": toml_text(
        players='["A", "B", "C", "D", "E"]',
        stacks="[9, 9, 9, 9, 9]",
        tail="[rules]\nmin_players = 2\nmax_players = 4\n",
    ),
    "duplicate names": toml_text(players='["Ana", "Ben", "Ana", "Dev"]'),
    "empty name": toml_text(players='["Ana", "", "Cleo", "Dev"]'),
    "name not a string": toml_text(players='["Ana", 2, "Cleo", "Dev"]'),
    "players not an array": toml_text(players='"Ana"'),
    "variant missing": toml_text(header=""),
    "variant poker": toml_text(header='variant = "poker"'),
    "variant capitalised": toml_text(header='variant = "Primero"'),
    "seed 3.0": toml_text(header='variant = "primero"\nseed = 3.0'),
    "seed bool": toml_text(header='variant = "primero"\nseed = true'),
    "seed string": toml_text(header='variant = "primero"\nseed = "7"'),
    "not TOML": 'variant = "primero"\nplayers = [\n',
}


@pytest.mark.parametrize("text", BAD_HEADERS.values(), ids=list(BAD_HEADERS))
def test_header_errors_have_index_none(text: str) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.index is None
    assert info.value.line == ""
    assert info.value.to_json()["index"] is None
    assert info.value.to_json()["line"] == ""
    assert info.value.message


@pytest.mark.parametrize(
    "data",
    [
        {k: v for k, v in base_data().items() if k != "actions"},
        base_data(actions="d dh p1 7h 6h"),
        base_data(players=None),
        base_data(starting_stacks=None),
        base_data(rules={"max_raises": 1.5}),
        base_data(rules={"ante": None}),
        base_data(seed=None),
    ],
    ids=[
        "actions missing",
        "actions a string",
        "players null",
        "stacks null",
        "max_raises 1.5",
        "ante null",
        "seed null",
    ],
)
def test_json_header_errors_have_index_none(data: dict[str, Any]) -> None:
    with pytest.raises(RecordError) as info:
        parse_record(json.dumps(data), "json")
    assert info.value.index is None


def test_json_null_max_raises_means_no_cap() -> None:
    record = parse_record(json.dumps(base_data(rules={"max_raises": None})), "json")
    assert record.rules.max_raises is None
    record = parse_record(json.dumps(base_data(rules={"max_raises": 0})), "json")
    assert record.rules.max_raises == 0


def test_header_is_checked_before_the_lines() -> None:
    text = toml_text(stacks="[20, 0, 20, 20]", actions=["p9 zz", ""])
    with pytest.raises(RecordError) as info:
        parse_record(text)
    assert info.value.index is None


def test_replay_reports_a_bad_header_with_index_none() -> None:
    bad = [
        HandRecord(("Ana",), (20,), list(DEALS)),
        HandRecord(("Ana", "Ana"), (20, 20), []),
        HandRecord(("Ana", "Ben"), (20, 0), ["p1 zz"]),
        HandRecord(tuple("ABCDEFG"), (9,) * 7, []),
    ]
    for record in bad:
        outcome = replay(record)
        assert outcome.error is not None
        assert outcome.error.index is None
        assert outcome.to_json() == {
            "error": {"index": None, "line": "", "message": outcome.error.message}
        }


def test_rules_from_the_header_are_in_force() -> None:
    text = toml_text(tail='[rules]\nante = 2\nties = "split"\nmax_raises = 3\nmin_raise = 2\n')
    record = parse_record(text)
    assert record.rules == Rules(ante=2, ties="split", max_raises=3, min_raise=2)
    outcome = replay(record)
    assert outcome.state is not None
    assert outcome.state.stacks == [18, 18, 18, 18]


def test_seed_is_information_only() -> None:
    with_seed = parse_record(toml_text(header='variant = "primero"\nseed = -42'))
    assert with_seed.seed == -42
    outcome = replay(with_seed)
    assert outcome.error is None and outcome.to_act == "p1"


# ---------------------------------------------------------------- line errors

BAD_LINES = {
    "double space": "p1  b 2",
    "double space in a deal": "d dh p1 Ah  2c",
    "tab between words": "p1\tb 2",
    "empty": "",
    "blank": "   ",
    "comment only": "# p1 bets",
    "unknown card 8h": "d dh p1 8h 6c",
    "unknown card 10h": "d dh p1 10h 6c",
    "lower-case rank": "d dh p1 ah 6c",
    "repeated card": "d dh p1 Ah Ah",
    "deal without cards": "d dh p1",
    "deal verb upper case": "d DH p1 Ah 2c",
    "leading zero": "p1 b 02",
    "double zero": "p1 b 00",
    "plus sign": "p1 b +2",
    "minus sign": "p1 b -2",
    "decimal amount": "p1 b 2.0",
    "no amount": "p1 b",
    "two amounts": "p1 b 2 3",
    "seat p01": "p01 b 2",
    "seat p0": "p0 b 2",
    "seat p5 of four": "p5 b 2",
    "seat upper case": "P1 b 2",
    "verb upper case": "p1 B 2",
    "unknown verb": "p1 bet 2",
    "seat alone": "p1",
    "call with an argument": "p1 c 2",
    "three cards exchanged": "p1 x 7h 6h Ac",
    "category capitalised": "p1 dc Fluxus",
    "unknown category": "p1 dc flush",
    "not a line": "hello",
}


@pytest.mark.parametrize("line", BAD_LINES.values(), ids=list(BAD_LINES))
def test_line_errors_give_their_index(line: str) -> None:
    error = error_of([*DEALS, line, "p2 c"])
    assert error.index == 4
    assert error.line == line
    assert error.to_json() == {"index": 4, "line": line, "message": error.message}


@pytest.mark.parametrize("index", [0, 2, 3])
def test_an_error_among_the_deals(index: int) -> None:
    lines = list(DEALS)
    lines[index] = lines[index].replace(" ", "  ", 1)
    assert error_of(lines).index == index


def test_line_after_the_hand_is_over() -> None:
    error = error_of([*FOLDS, "p1 b 1"])
    assert error.index == len(FOLDS)
    assert error.line == "p1 b 1"
    error = error_of([*FOLDS, "# a comment"])
    assert error.index == len(FOLDS)


@pytest.mark.parametrize("entry", [5, None, ["p1", "b", "1"], {"line": "p1 b 1"}, 2.5])
def test_non_string_entry_is_an_error_at_its_index(entry: Any) -> None:
    error = error_of([*DEALS[:2], entry, *DEALS[2:]])
    assert error.index == 2
    assert error.line == ""


def test_non_string_entry_read_from_json() -> None:
    data = base_data(actions=[*DEALS, 7])
    record = parse_record(json.dumps(data), "json")
    outcome = replay(record)
    assert outcome.error is not None and outcome.error.index == 4
    assert outcome.to_json()["error"]["line"] == ""


def test_illegal_but_well_formed_line_gives_its_index() -> None:
    error = error_of([*DEALS, "p1 b 0"])  # a bet of 0 in the first round
    assert error.index == 4
    error = error_of([*DEALS, "p2 b 1"])  # not p2's turn
    assert error.index == 4
    error = error_of([*DEALS, "p1 x 7h", "d dh p1 7h"])  # 7h was just discarded
    assert error.index == 5


def test_accepted_spellings_whitespace_and_comments() -> None:
    lines = [
        "  d dh p1 7H 6♥  ",
        "d dh p2 A♣ 2♢ # p2's cards",
        "d dh p3 KS QS\t",
        "d dh p4 5♡ 5♦",
        "p1 b 1 #bet",
        "p2 y",
        "p2 f",
        "p3 f",
        "p4 f",
    ]
    outcome = replay(HandRecord(("Ana", "Ben", "Cleo", "Dev"), (20, 20, 20, 20), lines))
    assert outcome.complete
    assert outcome.state is not None
    assert outcome.state.lines() == FOLDS
    assert outcome.to_json()["final_stacks"] == [23, 19, 19, 19]


def test_deal_cards_in_any_order() -> None:
    outcome = replay(HandRecord(("A", "B"), (5, 5), ["d dh p1 6h 7h", "d dh p2 2d Ac"]))
    assert outcome.error is None and outcome.to_act == "p1"


# ---------------------------------------------------------------- outcomes


def test_three_outcomes_in_json() -> None:
    done = replay(parse_record(toml_text(actions=FOLDS)))
    payload = done.to_json()
    assert payload["complete"] is True
    assert payload["final_stacks"] == [23, 19, 19, 19]
    assert payload["net"] == [3, -1, -1, -1]
    # p1's bet of 1 nobody called goes back (R7): the pot won is the four antes
    assert payload["pots"] == [{"amount": 4, "eligible": ["p1"], "winners": ["p1"], "shares": [4]}]
    assert payload["uncalled"] == {"seat": "p1", "chips": 1}
    assert payload["shown"] == {}
    json.dumps(payload)
    pending = replay(parse_record(toml_text(actions=[*DEALS, "p1 b 3"])))
    payload = pending.to_json()
    assert payload["complete"] is False
    assert payload["to_act"] == "p2"
    assert sorted(payload["legal"]) == ["n", "y"]
    dealer = replay(parse_record(toml_text(actions=DEALS[:2])))
    assert dealer.to_json()["to_act"] == "dealer"
    assert dealer.to_json()["legal"] == ["d"]


def test_showdown_json_lists_hands_and_declarations() -> None:
    lines = [
        *DEALS,
        "p1 b 2",
        "p2 y",
        "p2 c",
        "p3 f",
        "p4 f",
        "d dh p1 Ah 2c",
        "d dh p2 3c 4c",
        "p1 dc supremus",
        "p1 b 0",
        "p2 dc fluxus",
        "p2 c",
        "p1 x",
        "p2 x 2d",
        "d dh p2 Jc",
        "p1 b 0",
        "p2 c",
    ]
    outcome = replay(HandRecord(("Ana", "Ben", "Cleo", "Dev"), (20, 20, 20, 20), lines))
    payload = outcome.to_json()
    assert payload["complete"] is True
    # p2 exchanged 2d for Jc: Ac 3c 4c Jc is a fluxus of 16 + 13 + 14 + 10 = 53.
    assert payload["shown"]["p2"] == {
        "cards": ["Ac", "3c", "4c", "Jc"],
        "category": "fluxus",
        "points": 53,
    }
    assert payload["shown"]["p1"]["category"] == "supremus"
    assert payload["shown"]["p1"]["points"] == 55
    assert payload["declarations"] == {"p1": "supremus", "p2": "fluxus"}
    # p2's fluxus beats p1's supremus: pot 3 + 3 + 1 + 1 = 8.
    assert payload["final_stacks"] == [17, 25, 19, 19]


# ---------------------------------------------------------------- formats

MESSY = """# A hand written by hand: comments, odd spellings, explicit default rules.
variant = "primero"   # always
players = ["Ana", "Ben", "Cleo", "Dev"]
starting_stacks = [20, 20, 20, 20]
seed = 7
event = "Club night"
actions = [
  "d dh p1 7H 6♥",     # p1's cards
  "  d dh p2 Ac 2d ",
  "d dh p3 KS Q♠ # a comment inside the string",
  "d dh p4 5h 5d",
  "p1 b 1",
  "p2 y", "p2 f", "p3 f", "p4 f",
]

[rules]
ante = 1
ties = "split"
min_raise = 1

[expected]
complete = true
final_stacks = [23, 19, 19, 19]
"""


def test_rewrite_is_canonical_drops_comments_and_keeps_extra_keys() -> None:
    record = parse_record(MESSY)
    assert record.extra == {
        "event": "Club night",
        "expected": {"complete": True, "final_stacks": [23, 19, 19, 19]},
    }
    text = dump_record(record)
    assert "#" not in text
    assert "♥" not in text and "7H" not in text
    again = parse_record(text)
    assert again.actions == FOLDS
    assert again.extra == record.extra
    assert again.seed == 7
    assert again.rules == Rules(ties="split")
    # Only rules that differ from the defaults are written.
    assert "ante" not in text and "min_raise" not in text
    assert re.search(r'ties = "split"', text)
    assert dump_record(again) == text
    assert replay(again).to_json()["final_stacks"] == [23, 19, 19, 19]


@pytest.mark.parametrize("fmt", ["toml", "json"])
def test_dump_parse_round_trip_is_identical(fmt: str) -> None:
    assert fmt in ("toml", "json")
    f: Any = fmt
    record = parse_record(MESSY)
    first = dump_record(record, f)
    second = dump_record(parse_record(first, f), f)
    assert first == second
    assert parse_record(second, f).actions == FOLDS


def test_round_trip_of_every_rule() -> None:
    rules = Rules(
        ante=0,
        ties="split",
        refusal=False,
        last_round=False,
        declarations=False,
        first_round_stand=True,
        first_round_zero_bet=True,
        min_raise=3,
        max_raises=2,
        min_players=2,
        max_players=8,
    )
    record = HandRecord(("A", "B"), (5, 7), ["d dh p1 7h 6h"], rules, seed=3, extra={"table": "t1"})
    for fmt in ("toml", "json"):
        f: Any = fmt
        text = dump_record(record, f)
        back = parse_record(text, f)
        assert back.rules == rules
        assert back.players == ("A", "B") and back.starting_stacks == (5, 7)
        assert back.seed == 3 and back.extra == {"table": "t1"}
        assert dump_record(back, f) == text


def test_default_rules_are_not_written() -> None:
    record = HandRecord(("A", "B"), (5, 7), [])
    assert "rules" not in dump_record(record)
    assert "rules" not in json.loads(dump_record(record, "json"))


def test_json_and_toml_files_both_read(tmp_path: Path) -> None:
    record = parse_record(MESSY)
    toml_path = write_record(record, tmp_path / "hand.prh")
    json_path = write_record(record, tmp_path / "hand.json")
    upper_path = write_record(record, tmp_path / "HAND.JSON")
    json.loads(json_path.read_text(encoding="utf-8"))
    json.loads(upper_path.read_text(encoding="utf-8"))
    a, b, c = read_record(toml_path), read_record(json_path), read_record(upper_path)
    for other in (b, c):
        assert (a.players, a.starting_stacks, a.actions, a.rules, a.seed, a.extra) == (
            other.players,
            other.starting_stacks,
            other.actions,
            other.rules,
            other.seed,
            other.extra,
        )
    assert replay(a).to_json() == replay(b).to_json()


def test_read_record_errors_have_index_none(tmp_path: Path) -> None:
    with pytest.raises(RecordError) as info:
        read_record(tmp_path / "missing.prh")
    assert info.value.index is None
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(bad)
    assert info.value.index is None
    binary = tmp_path / "bin.prh"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError) as info:
        read_record(binary)
    assert info.value.index is None


def test_dump_refuses_a_line_that_is_not_record_grammar() -> None:
    record = HandRecord(("A", "B"), (5, 5), ["d dh p1 7h 6h", "p1  b 2"])
    with pytest.raises(RecordError) as info:
        dump_record(record)
    assert info.value.index == 1


def test_record_of_a_state_round_trips() -> None:
    outcome = replay(HandRecord(("Ana", "Ben", "Cleo", "Dev"), (20, 20, 20, 20), FOLDS))
    assert outcome.state is not None
    rec = record_of(outcome.state, seed=11, extra={"hand_number": 3})
    back = parse_record(dump_record(rec))
    assert back.actions == FOLDS and back.seed == 11 and back.extra == {"hand_number": 3}
    assert replay(back).to_json() == outcome.to_json()


def test_load_record_rejects_a_non_table() -> None:
    with pytest.raises(RecordError) as info:
        load_record([1, 2])  # type: ignore[arg-type]
    assert info.value.index is None


# ---------------------------------------------------------------- the spec's example

EXAMPLE = """\
variant = "primero"
players = ["Ana", "Ben", "Cleo", "Dev"]   # Dev deals
starting_stacks = [100, 100, 100, 100]
actions = [
  "d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d",
  "p1 x 6h", "d dh p1 Ah",        # p1 exchanges one card
  "p2 b 3",                       # first bet: exchanges are over
  "p3 y",                         # p3 accepts the bet, so it is good
  "p3 c", "p4 f", "p1 c",
  "d dh p1 6d 3c", "d dh p2 7c 5c", "d dh p3 Kh 4d",
  "p1 dc numerus", "p1 b 0",
  "p2 dc fluxus", "p2 c",         # p2 holds numerus and bluffs upward
  "p3 dc primero", "p3 c",
  "p1 x 3c", "d dh p1 Jd", "p2 x 2d", "d dh p2 5s", "p3 x",
  "p1 b 0", "p2 b 0",              # invalid: p1 opened with 0, so p2 must call, raise or fold
]
"""


def test_the_spec_example_errors_at_index_26() -> None:
    record = parse_record(EXAMPLE)
    outcome = replay(record)
    assert outcome.error is not None
    assert outcome.error.index == 26
    assert outcome.error.line == "p2 b 0"
    # Everything before it is valid: without the last line, p2 is to act.
    record.actions.pop()
    pending = replay(record)
    assert pending.error is None
    assert pending.to_act == "p2"
    assert set(pending.legal) == {"r", "c", "f"}


def test_the_examples_of_the_record_format_page_replay_as_it_says() -> None:
    """docs/record-format.md: the first example is complete with final stacks 32, 69, 49
    (worked out there by hand); the second is invalid at index 26."""
    toml = re.findall(r"```toml\n(.*?)```", FORMAT.read_text(encoding="utf-8"), re.S)
    blocks = [b for b in toml if b.startswith("variant")]  # whole records, not fragments
    assert len(blocks) == 2
    complete = replay(parse_record(blocks[0]))
    assert complete.error is None and complete.complete
    assert complete.to_json()["final_stacks"] == [32, 69, 49]
    assert complete.to_json()["net"] == [-18, 19, -1]
    outcome = replay(parse_record(blocks[1]))
    assert outcome.error is not None and outcome.error.index == 26


@pytest.mark.parametrize(
    ("text", "source", "target"),
    [
        (toml_text(header='variant = "primero"\ndate = 2024-05-01'), "toml", "json"),
        (json.dumps(base_data(note=None)), "json", "toml"),
    ],
    ids=["toml date to json", "json null to toml"],
)
def test_extra_keys_survive_a_rewrite_in_the_other_format(
    text: str, source: str, target: str
) -> None:
    src: Any = source
    dst: Any = target
    record = parse_record(text, src)
    try:
        out = dump_record(record, dst)
    except RecordError:
        return  # a documented refusal would be acceptable
    back = parse_record(out, dst)
    assert set(back.extra) == set(record.extra)


# --- error paths ------------------------------------------------------


def test_dump_record_refuses_an_action_that_is_not_a_string() -> None:
    record = HandRecord(("A", "B", "C", "D"), (10,) * 4, ["d dh p1 7h 6h", 42])
    with pytest.raises(RecordError, match="an action is a string, not 42") as info:
        dump_record(record, "json")
    assert info.value.index == 1


def test_json_writes_toml_dates_as_iso_strings_and_refuses_other_objects() -> None:
    import datetime

    record = HandRecord(
        ("A", "B", "C", "D"),
        (10,) * 4,
        [],
        extra={"played": datetime.date(2026, 3, 1), "at": datetime.time(14, 5)},
    )
    data = json.loads(dump_record(record, "json"))
    assert data["played"] == "2026-03-01" and data["at"] == "14:05:00"
    bad = HandRecord(("A", "B", "C", "D"), (10,) * 4, [], extra={"tags": {1, 2}})
    with pytest.raises(TypeError, match="set cannot be written as JSON"):
        dump_record(bad, "json")


def test_an_empty_record_is_said_to_be_empty(tmp_path: Path) -> None:
    """An empty file (or only blank lines) is said as such, not as a wrong variant (found
    by a fresh-user pass: 'variant must be "primero"')."""
    for text in ("", "\n  \n"):
        path = tmp_path / "empty.prh"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(RecordError) as caught:
            read_record(path)
        assert caught.value.message.startswith("it is empty: a record holds at least")
        assert caught.value.index is None


#: The worked example of docs/record-format.md up to its deliberate error: p1 opened the
#: last round with a bet of 0, so p2 may raise (``r``), call (``c``) or fold, not bet.
_OPENED_WITH_ZERO = [
    *("d dh p1 7h 6h", "d dh p2 Ac 2d", "d dh p3 Ks Qs", "d dh p4 5h 5d"),
    *("p1 x 6h", "d dh p1 Ah", "p2 b 3", "p3 y", "p3 c", "p4 f", "p1 c"),
    *("d dh p1 6d 3c", "d dh p2 7c 5c", "d dh p3 Kh 4d"),
    *("p1 dc numerus", "p1 b 0", "p2 dc fluxus", "p2 c", "p3 dc primero", "p3 c"),
    *("p1 x 3c", "d dh p1 Jd", "p2 x 2d", "d dh p2 5s", "p3 x", "p1 b 0"),
]


@pytest.mark.parametrize("wrong", ["p2 b 0", "p2 b 5"])
def test_an_illegal_line_is_answered_with_the_record_lines_allowed(wrong: str) -> None:
    """The player's words say "bet" for a first raise over a bet of 0; the error about a
    record line also names the lines the file may hold there (R5: the bet stands at 0)."""
    record = HandRecord(("Ana", "Ben", "Cleo", "Dev"), (100,) * 4, [*_OPENED_WITH_ZERO, wrong])
    outcome = replay(record)
    assert outcome.error is not None and outcome.error.index == 26
    assert outcome.error.message.endswith("(as record lines: p2 r 1..96, p2 c or p2 f)")
    fixed = replay(
        HandRecord(record.players, record.starting_stacks, [*_OPENED_WITH_ZERO, "p2 r 5"])
    )
    assert fixed.error is None
