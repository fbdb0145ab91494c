"""The table settings a person sets in a form, in that person's words: each setting's
label and one sentence of help (``GET /api/table-settings`` serves them to the lobby's
and the host's forms), and the label a refusal names the field by (docs/protocol.md: bad
input gets a clear error in player words, so "Seconds a hand's result stays must be 0 to
3600, not 3601", never ``hand_pause_seconds``).

>>> labelled("rebuy_seconds")
'Seconds to wait for a rebuy'
>>> labelled("seats")
'seats'
"""

from __future__ import annotations

from typing import Final

from primero.play.settle import CHIP_VALUE_LABEL, CURRENCY_LABEL

__all__ = ["SETTING_WORDS", "STACK_LABEL", "TURN_TIMER_LABEL", "labelled"]

#: Each setting of a new table beside the house rules: its label and one sentence (the
#: schema has the rest), in the order the forms show them.
SETTING_WORDS: Final[dict[str, tuple[str, str]]] = {
    "hand_pause_seconds": (
        "Seconds a hand's result stays",
        "The cards shown and who won stay on the table this long before the next deal.",
    ),
    "rebuy_seconds": (
        "Seconds to wait for a rebuy",
        "The next deal waits this long for a player who just ran out of chips to choose "
        "to rebuy or not.",
    ),
    "chip_value": (
        CHIP_VALUE_LABEL,
        "For settling up: with 0.10, 40 chips are 4.00. Empty: the ledger counts chips only.",
    ),
    "currency": (CURRENCY_LABEL, 'The money\'s name, 1 to 8 letters, such as "EUR". Empty: none.'),
}

#: The starting stack's name in the forms (chips per player).
STACK_LABEL: Final = "Stack"
#: The turn timer's name in the forms (seconds a person has for a move, 0: no timer).
TURN_TIMER_LABEL: Final = "Turn timer"

_LABELS: Final[dict[str, str]] = {
    **{key: label for key, (label, _help) in SETTING_WORDS.items()},
    "turn_seconds": TURN_TIMER_LABEL,
    "stack": STACK_LABEL,
    "max_hands": "Hands in the match",
    "line": "The move",
}


def labelled(field: str) -> str:
    """The label a form shows for the API field ``field`` (``"hand_pause_seconds"``), or
    ``field`` itself when no form shows it (str, never raises)."""
    return _LABELS.get(field, field)
