"""Pydantic models of every message in and out of the server (REST bodies, WebSocket
frames); docs/protocol.md shows an example of each."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

__all__ = [
    "ActionIn",
    "ChatIn",
    "ChatOut",
    "CreateTable",
    "CreatedTable",
    "ErrorOut",
    "HandOut",
    "JoinTable",
    "LegalOut",
    "ResyncIn",
    "SeatOut",
    "SeatTaken",
    "ShownOut",
    "StateOut",
    "TableSummary",
]


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


# --------------------------------------------------------------------------- REST


class CreateTable(_In):
    """A new table: its seats in table order, each ``"open"`` for a person or a bot kind."""

    seats: list[StrictStr] = Field(
        description='each seat in table order: "open" (for a person) or a bot kind such as '
        '"random" or "heuristic"; 2 to 8 seats within the rules\' min_players/max_players',
        examples=[["open", "heuristic", "heuristic", "random"]],
    )
    name: StrictStr | None = Field(
        None, description="1 to 40 characters; default given by the server"
    )
    stack: StrictInt = Field(100, description="every player's starting stack, chips (>= 1)")
    rules: dict[str, Any] = Field(
        default_factory=dict,
        description="house-rule overrides, the [rules] table of hand-history.md",
        examples=[{"ante": 2, "ties": "split"}],
    )
    turn_seconds: StrictInt = Field(
        60, description="seconds a person has to act (0 = no timer), at most 86400"
    )
    max_hands: StrictInt | None = Field(
        None, description="end the match after this many hands (R9); null: until one player "
        "holds every chip"
    )
    rebuy: bool = Field(False, description="whether a broke person may rebuy to the stack")


class JoinTable(_In):
    """A person asking for the first open seat."""

    name: StrictStr = Field(
        description="1 to 24 characters, at least one not white space, no control "
        "characters, no leading or trailing white space, not a name already at the table",
        examples=["Ana"],
    )


class SeatOut(BaseModel):
    """One seat of a table summary."""

    name: str | None = Field(description="the player's name; null while the seat is open")
    kind: str = Field(description='"open", "person", or the bot kind')
    chips: int = Field(description="chips before the current hand")
    sitting_out: bool = Field(False, description="not dealt in from the next hand on")
    left: bool = Field(False, description="gave the seat up: out of the match")
    connected: bool = Field(False, description="a person with an open connection")
    ledger: dict[str, int] = Field(
        default_factory=dict, description='{"bought_in": chips, "net": chips}'
    )


class TableSummary(BaseModel):
    """What the lobby shows of a table."""

    id: str
    name: str
    status: Literal["waiting", "playing", "paused", "over", "broken"] = Field(
        description='"waiting" until every seat is taken, then "playing"; "over" when the '
        "match ends (R9)"
    )
    hands_played: int
    version: int = Field(description="the table's version (see the WebSocket state message)")
    seats: list[SeatOut]
    stack: int
    turn_seconds: int
    max_hands: int | None
    rules: dict[str, Any] = Field(description="the house-rule overrides in force")
    pending: str | None = Field(None, description='"pause" or "end" asked during a hand')
    paused_by: str | None = Field(None, description='"host" or "players" while paused')
    rebuy: bool = Field(False, description="whether a broke person may rebuy")
    next_table: str | None = Field(None, description="the rematch's table id, else null")
    detail: str | None = Field(None, description="why a broken table cannot go on")


class CreatedTable(TableSummary):
    """The answer to ``POST /api/tables``: the summary and the host token, shown once."""

    host_token: str = Field(description="the proof of hosting, shown once: keep it secret")


class SeatTaken(BaseModel):
    """The answer to a join: the seat's 0-based table index and its secret token."""

    seat: int
    token: str = Field(description="the only proof of the seat; keep it secret")


# --------------------------------------------------------------------------- WebSocket in


class ActionIn(_In):
    """``{"type": "action", "id": str, "line": str}``: propose an action line without its
    seat (``"b 2"``, ``"c"``, ``"x 7h Kc"``, ``"dc fluxus"``)."""

    type: Literal["action"]
    id: StrictStr = Field(min_length=1, max_length=64)
    line: StrictStr = Field(min_length=1, max_length=200)
    version: StrictInt | None = Field(
        None, description="the version of the state the move was chosen in (stale: refused)"
    )


class ResyncIn(_In):
    """``{"type": "resync", "since": v}``: ask for the current state."""

    type: Literal["resync"]
    since: StrictInt = Field(ge=0)


class ChatIn(_In):
    """``{"type": "chat", "text": str}``: 1 to 300 characters of plain text."""

    type: Literal["chat"]
    text: StrictStr = Field(min_length=1, max_length=300)


# --------------------------------------------------------------------------- WebSocket out


class LegalOut(BaseModel):
    """What the seat to act may do (the fields of ``LegalActions``)."""

    kinds: list[str]
    exchange: list[int]
    bet: list[int] | None
    raise_to: list[int] | None
    call: int | None
    fold: bool
    vote: bool
    declare: list[str]


class ShownOut(BaseModel):
    """A hand shown at the showdown."""

    category: str
    points: int
    cards: list[str]


class HandOut(BaseModel):
    """The current (or just finished) hand as one seat may see it (R9b)."""

    model_config = ConfigDict(extra="allow")

    number: int
    seat: str | None
    table_seats: list[int]
    players: list[str]
    hand: list[str]
    to_act: str | None
    phase: str
    stacks: list[int]
    pot_total: int
    declared: list[str | None]
    folded: list[bool]
    log: list[str]
    events: list[str]
    shown: list[ShownOut | None] | None
    final_stacks: list[int] | None


class StateOut(BaseModel):
    """``state``: sent on connecting and after every change at the table."""

    type: Literal["state"] = "state"
    version: int
    table: TableSummary
    hand: HandOut | None
    legal: LegalOut | None
    deadline: float | None = Field(description="unix seconds, or null")


class ErrorOut(BaseModel):
    """``error``: a message the server could not take; nothing changed."""

    type: Literal["error"] = "error"
    id: str | None
    message: str


class ChatOut(BaseModel):
    """``chat``: a line of chat from a seated player."""

    type: Literal["chat"] = "chat"
    from_: str = Field(alias="from")
    text: str

    model_config = ConfigDict(populate_by_name=True)
