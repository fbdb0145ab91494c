"""One I/O-free model of a match at a table, used by every front end.

- :class:`TableModel` (:mod:`.model`): seats of people and bots, the match of R9, whose
  turn it is, deadlines as data, events out, actions in.
- :func:`seat_payload` (:mod:`.payload`): the one function that builds what a seat (or a
  spectator) is sent, from :func:`primero.view`; :func:`seat_note`: the reader's sitting
  out in words.
- :func:`least_committal` (:mod:`.timeout`): the timer's move for a person;
  :func:`unattended_move`: the table's move for an absent seat of an unattended hand.
- :func:`sentence` (:mod:`.sentences`): an action as a seat reads it.
"""

from primero.play.tablemodel.model import Event, TableModel, bot_seed
from primero.play.tablemodel.payload import legal_payload, seat_guide, seat_note, seat_payload
from primero.play.tablemodel.sentences import sentence
from primero.play.tablemodel.timeout import least_committal, unattended_move, weakest_card

__all__ = [
    "Event",
    "TableModel",
    "bot_seed",
    "least_committal",
    "legal_payload",
    "seat_guide",
    "seat_note",
    "seat_payload",
    "sentence",
    "unattended_move",
    "weakest_card",
]
