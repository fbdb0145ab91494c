"""One name check for every front end (docs/protocol.md "Text: names, chat, action ids"):
``primero play`` refuses what the server refuses, in the same words, and names are
compared with their accents and look-alike letters ignored."""

from __future__ import annotations

import pytest

from primero.play.table import Table, TableConfig
from primero.play.text import TextError, bot_mark, check_person_name, name_key


@pytest.mark.parametrize(
    ("name", "words"),
    [
        (
            "\u200b",
            "Your name must not hold U+200B ZERO WIDTH SPACE (an invisible format character) "
            "at position 1",
        ),
        (
            "Lorenzo (heuristic)",
            "Your name may not carry '(heuristic)': the table marks its bots that way; "
            "choose a name without it",
        ),
        (
            "Host",
            "Your name may not be 'Host': the table uses 'Host' for the host watching; "
            "choose another",
        ),
    ],
)
def test_the_terminal_refuses_a_name_as_the_server_does(name: str, words: str) -> None:
    with pytest.raises(ValueError) as caught:
        Table(TableConfig(human_name=name, seed=1))
    assert str(caught.value) == words
    with pytest.raises(TextError) as said:
        check_person_name(name, "your name")  # the server's check, the same words
    assert str(said.value) == words


def test_accents_are_look_alikes_and_a_bot_never_sits_beside_its_look_alike() -> None:
    assert name_key("Ana\u0301") == name_key("Ana") == name_key("ana") == name_key("\u0410na")
    assert name_key("Aná") == name_key("Ana")  # precomposed á too
    assert name_key("Bea") != name_key("Ana")
    with pytest.raises(ValueError, match="two people are called Ana\u0301"):
        Table(TableConfig(hot_seat=("Ana", "Ana\u0301"), seed=1))
    table = Table(TableConfig(human_name="Lorénzo", players=4, seed=1))
    assert list(table.model.names) == ["Lorénzo", "Isabella", "Girolamo", "Lucrezia"]


def test_a_bot_mark_is_found_in_any_brackets_and_case() -> None:
    assert bot_mark("Ana [Random]") == "random"
    assert bot_mark("Ana (friend)") is None
    assert bot_mark("You (you)") is None
    assert Table(TableConfig(seed=1)).model.names[0] == "You"  # the default name stays
