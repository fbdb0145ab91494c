"""The text rules of online.md ("Text, chips, hosts, tokens") at their bounds: what the
mutation sweep of ``server/text.py`` (now ``play/text.py``) showed no test held
(CONTRIBUTING.md, "Mutation testing"). Pure functions and Pydantic types: no server, no database."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from primero.play.text import TextError, check_name, check_person_name, name_key, problem
from primero.server.models import ActionId, ChatText, PersonName, TableName


@pytest.mark.parametrize(
    ("kind", "longest", "what"),
    [
        (PersonName, 24, "Your name"),
        (TableName, 40, "The table name"),
        (ActionId, 64, "An action id"),
        (ChatText, 300, "A chat line"),
    ],
)
def test_each_kind_of_text_takes_its_longest_and_not_one_more(
    kind: Any, longest: int, what: str
) -> None:
    adapter: TypeAdapter[str] = TypeAdapter(kind)
    assert adapter.validate_python("x" * longest) == "x" * longest
    with pytest.raises(ValidationError, match=f"{what} must be 1 to {longest} characters"):
        adapter.validate_python("x" * (longest + 1))


def test_the_length_is_counted_after_nfc() -> None:
    # 24 letters each with a combining acute accent: 48 code points typed, 24 after NFC.
    typed = "a\u0301" * 24
    assert check_name(typed) == "\u00e1" * 24
    chat: TypeAdapter[str] = TypeAdapter(ChatText)
    assert chat.validate_python("e\u0301" * 300) == "\u00e9" * 300


def test_a_one_character_name_is_a_name() -> None:
    assert check_name("A") == "A"
    assert check_name("x" * 40, "a table name", 40) == "x" * 40


def test_the_length_error_says_the_bounds_and_the_length() -> None:
    with pytest.raises(TextError) as caught:
        check_name("x" * 25)
    assert str(caught.value) == "A name must be 1 to 24 characters, not 25"
    with pytest.raises(TextError) as caught:
        check_name("x" * 41, "a table name", 40)
    assert str(caught.value) == "A table name must be 1 to 40 characters, not 41"
    with pytest.raises(TextError) as caught:
        check_name(" Ana")
    assert str(caught.value) == "A name must not start or end with white space"


def test_the_whole_refusal_sentence() -> None:
    assert problem("Ana\x07", "a chat line") == (
        "A chat line must not hold U+0007 (a control character) at position 4"
    )
    assert problem("\u200dAna", "a name") == (
        "A name must not hold U+200D ZERO WIDTH JOINER (a joiner, allowed only between two "
        "other characters) at position 1"
    )
    # A code point above U+FFFF is written with all its hex digits.
    assert problem("A\U000e0001", "a name") == (
        "A name must not hold U+E0001 LANGUAGE TAG (an invisible format character) at position 2"
    )


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("\u200c", 1),  # a joiner alone: first and last
        ("A\u200d", 2),  # last
        ("\u200cA", 1),  # first
        ("A\u200d\u200dB", 2),  # two in a row: the first is refused
        ("AB\u200c\u200c", 3),
    ],
)
def test_a_joiner_not_between_two_other_characters_is_refused(text: str, position: int) -> None:
    found = problem(text, "a name")
    assert found is not None and found.endswith(f"at position {position}")


def test_a_joiner_between_two_others_is_taken_anywhere_inside() -> None:
    assert problem("A\u200cB", "a name") is None
    assert problem("AB\u200dC", "a name") is None
    assert problem("A\u200cB\u200dC", "a name") is None


def test_name_keys_ignore_joiners_and_case_but_not_letters() -> None:
    assert name_key("An\u200ca") == name_key("ANA") == name_key("ana")
    assert name_key("Ana") != name_key("Ana2")


def test_a_taken_joiner_does_not_end_the_check() -> None:
    # The joiner at 2 is taken; the override at 4 after it is still refused.
    assert problem("A\u200cB\u202e", "a name") == (
        "A name must not hold U+202E RIGHT-TO-LEFT OVERRIDE (an invisible format character) "
        "at position 4"
    )
    with pytest.raises(TextError, match="position 4"):
        check_name("\U0001f469\u200d\U0001f467\x00")


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("Spectator 1", "Spectator"),
        ("spectator 12", "Spectator"),
        ("\u0405pectator l", "Spectator"),  # a Cyrillic Ѕ and an l for the 1: look-alikes
        ("Spectator #3", "Spectator"),
        ("Spectator", "Spectator"),
        ("host", "Host"),
        ("Dealer", "Dealer"),
        ("open-seat", "Open seat"),
        ("YOU", "You"),
    ],
)
def test_a_person_may_not_take_a_label_of_the_table(name: str, label: str) -> None:
    """A seat named ``Spectator 1`` would pass for a spectator in chat (the
    server names spectators so), ``Host`` for the host; the refusal says why."""
    with pytest.raises(TextError) as caught:
        check_person_name(name)
    start = f"A name may not be {name!r}: the table uses {label!r} for "
    assert str(caught.value).startswith(start)
    assert str(caught.value).endswith("; choose another")
    adapter: TypeAdapter[str] = TypeAdapter(PersonName)
    with pytest.raises(ValidationError, match="the table uses"):
        adapter.validate_python(name)


@pytest.mark.parametrize(
    "name", ["Ana", "Spectators", "Spectator Bob", "Hostess", "Yousef", "Dealer Dan"]
)
def test_names_that_only_start_like_a_label_are_names(name: str) -> None:
    assert check_person_name(name) == name
    assert check_name(name, "a table name", 40) == name
