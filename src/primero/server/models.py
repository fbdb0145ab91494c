"""Pydantic models of every message in and out of the server (REST bodies, WebSocket
frames); docs/protocol.md shows an example of each."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    WithJsonSchema,
    create_model,
)
from pydantic_core import PydanticCustomError

from primero.bots import BOT_KINDS
from primero.engine.rules import RULES, RuleSpec
from primero.play import text

__all__ = [
    "ActionIn",
    "AwardOut",
    "ChatHistoryOut",
    "ChatIn",
    "ChatOut",
    "CreateTable",
    "CreatedTable",
    "ErrorOut",
    "HandOut",
    "HostTokenOut",
    "HouseRuleOut",
    "JoinRequestOut",
    "JoinTable",
    "LegalOut",
    "PendingBetOut",
    "PingIn",
    "PongOut",
    "RemovedOut",
    "ResyncIn",
    "SeatOut",
    "SeatTaken",
    "ShownOut",
    "StateOut",
    "TableSettingOut",
    "TableSummary",
]


#: What ``chip_value`` and ``currency`` may be (docs/protocol.md "Settling up"), in the
#: OpenAPI document; "" is none. A chip value must also be above 0 and at most 10⁶.
CHIP_VALUE_PATTERN = r"^([0-9]{1,7}([.,][0-9]{1,4})?)?$"
CURRENCY_PATTERN = r"^[A-Za-z]{0,8}$"


class _In(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)


def _whole(value: object) -> object:
    """A JSON number with no fraction (``5.0``) is the whole number JSON Schema says it is;
    anything else is left for the strict check (``true`` is not 1, ``"5"`` is not 5)."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _whole_rules(rules: dict[str, Any]) -> dict[str, Any]:
    return {k: _whole(v) for k, v in rules.items()}


#: A whole number in JSON (``5`` or ``5.0``; never a boolean or a string).
Whole = Annotated[StrictInt, BeforeValidator(_whole)]

#: The largest stack, chips (docs/protocol.md); every chip column is 64-bit.
MAX_STACK = 1_000_000_000
MAX_TURN_SECONDS = 86_400
MAX_HANDS = 1_000_000
#: The longest pause between hands and rebuy window a table may set (seconds).
MAX_BETWEEN_SECONDS = 3600
#: ``max_hands`` when given (the bounds inside, so the schema states them under null too).
#: A 0-based seat in table order (a whole number, 0 to 7; ``5.0`` is 5).
SeatIndex = Annotated[StrictInt, Field(ge=0, le=7), BeforeValidator(_whole)]
HandCount = Annotated[StrictInt, Field(ge=1, le=MAX_HANDS), BeforeValidator(_whole)]
#: Seconds between hands (the result's pause, the rebuy window), when given.
BetweenSeconds = Annotated[StrictInt, Field(ge=0, le=MAX_BETWEEN_SECONDS), BeforeValidator(_whole)]

_TEXT_RULES = (
    "NFC-normalized; no character of Unicode category Cc, Cs, Co, Cn, nor Cf except U+200C "
    "and U+200D between two other characters"
)


def _checked(what: str, name: bool, longest: int, person: bool = False) -> AfterValidator:
    """The text rules as a validator (its words are the error); the lengths are stated in
    the schema (``minLength``/``maxLength``) and checked here, after NFC. ``person``: a
    person's name, which may not be one of the table's own labels either."""

    def check(value: str) -> str:
        try:
            if person:
                return text.check_person_name(value, what)
            if name:
                return text.check_name(value, what, longest)
            value = text.clean(value, what)
        except text.TextError as exc:
            raise PydanticCustomError("text", "{reason}", {"reason": str(exc)}) from None
        if not 1 <= len(value) <= longest:
            raise PydanticCustomError(
                "text",
                "{reason}",
                {"reason": f"{what[:1].upper()}{what[1:]} must be 1 to {longest} characters"},
            )
        return value

    return AfterValidator(check)


#: A person's name (docs/protocol.md "Text: names, chat, action ids"): 1 to 24 characters.
PersonName = Annotated[
    StrictStr,
    Field(
        json_schema_extra={"minLength": 1, "maxLength": text.NAME_LONGEST},
        description=f"1 to {text.NAME_LONGEST} characters, {_TEXT_RULES}; no leading or "
        "trailing white space; differs from every other name at the table (bots' "
        "included) as casefold(UTS #39 skeleton(name)): `Ana`, `ana` and `Аna` (Cyrillic "
        "А) are one name; not a label the table shows for others, compared the same way "
        "without spaces and punctuation: "
        + ", ".join(text.SYSTEM_LABELS)
        + " (Spectator with or without a number)",
    ),
    _checked("your name", True, text.NAME_LONGEST, person=True),
]
#: A table's name: 1 to 40 characters.
TableName = Annotated[
    StrictStr,
    Field(
        json_schema_extra={"minLength": 1, "maxLength": text.TABLE_NAME_LONGEST},
        description=f"1 to {text.TABLE_NAME_LONGEST} characters, {_TEXT_RULES}; no leading "
        "or trailing white space",
    ),
    _checked("the table name", True, text.TABLE_NAME_LONGEST),
]
ActionId = Annotated[
    StrictStr,
    Field(
        json_schema_extra={"minLength": 1, "maxLength": text.ID_LONGEST},
        description=f"1 to {text.ID_LONGEST} characters chosen by the client, {_TEXT_RULES}",
    ),
    _checked("an action id", False, text.ID_LONGEST),
]
ChatText = Annotated[
    StrictStr,
    Field(
        json_schema_extra={"minLength": 1, "maxLength": text.CHAT_LONGEST},
        description=f"1 to {text.CHAT_LONGEST} characters of plain text, {_TEXT_RULES}",
    ),
    _checked("a chat line", False, text.CHAT_LONGEST),
]
SeatKind = Literal["open", *BOT_KINDS]  # type: ignore[valid-type]


def _rule_field(spec: RuleSpec) -> tuple[Any, Any]:
    """One house rule as a Pydantic field: its type, default, bounds and words, all from
    its declaration on :class:`primero.engine.rules.Rules`."""
    info = spec.info
    words = info.help.rstrip(".") + f" ({info.section})"
    if spec.kind == "bool":
        return StrictBool, Field(spec.default, description=words)
    if spec.kind == "choice":
        return Literal[info.choices], Field(spec.default, description=words)
    if spec.optional:
        return StrictInt | None, Field(
            spec.default, ge=info.low, le=info.high, description=f"{words}; null: {info.none}"
        )
    return StrictInt, Field(spec.default, ge=info.low, le=info.high, description=words)


#: The ``[rules]`` table of docs/record-format.md as the OpenAPI document states it (the server
#: checks it with :meth:`primero.engine.rules.Rules.from_mapping`, whose words are the
#: error): every rule optional, unknown ones refused; made from :data:`RULES`.
_RULE_FIELDS: dict[str, Any] = {spec.name: _rule_field(spec) for spec in RULES}
RulesSchema: type[BaseModel] = create_model(
    "RulesSchema",
    __config__=ConfigDict(extra="forbid", title="Rules"),
    __doc__="The ``[rules]`` table of docs/record-format.md as the OpenAPI document states it "
    "(the server checks it with :meth:`primero.engine.rules.Rules.from_mapping`, whose "
    "words are the error): every rule optional, unknown ones refused.",
    __module__=__name__,
    **_RULE_FIELDS,
)


class HouseRuleOut(BaseModel):
    """A house rule as the lobby's form shows it (``GET /api/rules``), from its
    declaration on :class:`primero.engine.rules.Rules`."""

    key: str = Field(description="its name in a table's rules")
    type: Literal["int", "bool", "choice"] = Field(description="the kind of field")
    default: int | bool | str | None = Field(description="its default; null: none (no cap)")
    min: int | None = Field(description="a whole-number rule's lowest value")
    max: int | None = Field(description="a whole-number rule's highest value; null: none")
    choices: list[str] = Field(description="a choice rule's values")
    label: str = Field(description="a short name for the form")
    help: str = Field(description="one sentence a player reads")
    section: str = Field(description='the rules.md section, e.g. "R5"')


class TableSettingOut(BaseModel):
    """A table setting of ``POST /api/tables`` beside the house rules, as the lobby's form
    shows it (``GET /api/table-settings``): its bounds taken from :class:`CreateTable`'s
    schema, its default from the server's options."""

    key: str = Field(description="its field in the body of POST /api/tables")
    type: Literal["int", "text"] = Field(description="a whole number, or text")
    default: int | str = Field(description='what a table gets without it ("": none)')
    min: int | None = Field(description="a whole number's lowest value")
    max: int | None = Field(description="a whole number's highest value")
    max_length: int | None = Field(description="a text's most characters")
    pattern: str | None = Field(description="a text's form, a regular expression")
    only_with: str | None = Field(
        description='the checkbox field it belongs to ("rebuy"), or null: always'
    )
    label: str = Field(description="a short name for the form")
    help: str = Field(description="one sentence a player reads")


# --------------------------------------------------------------------------- REST


class CreateTable(_In):
    """A new table: its seats in table order, each ``"open"`` for a person or a bot kind."""

    seats: list[SeatKind] = Field(
        min_length=2,
        max_length=8,
        description='each seat in table order: "open" (for a person) or a bot kind; 2 to 8 '
        "seats, and from the rules' min_players to their max_players (default 4 to 6)",
        examples=[["open", "heuristic", "heuristic", "random"]],
    )
    name: TableName | None = Field(None, description="default given by the server")
    stack: Whole = Field(
        100,
        ge=1,
        le=MAX_STACK,
        description=f"every player's starting stack, chips, 1 to {MAX_STACK}; it must make "
        "a game under the rules: more than the ante, and the ante plus min_raise at most "
        "(docs/rules.md decision 24)",
    )
    rules: Annotated[
        dict[str, Any],
        AfterValidator(_whole_rules),
        WithJsonSchema(
            {
                **RulesSchema.model_json_schema(),
                "description": "house-rule overrides, the [rules] table of "
                "docs/record-format.md; unknown rules are refused; min_players <= max_players",
            }
        ),
    ] = Field(default_factory=dict, examples=[{"ante": 2, "ties": "split"}])
    turn_seconds: Whole = Field(
        60,
        ge=0,
        le=MAX_TURN_SECONDS,
        description=f"seconds a person has to act, 0 to {MAX_TURN_SECONDS} (0 = no timer)",
    )
    max_hands: HandCount | None = Field(
        None,
        description=f"end the match after this many hands, 1 to {MAX_HANDS} (R9); null: "
        "until one player holds every chip",
    )
    rebuy: bool = Field(False, description="whether a broke person may rebuy to the stack")
    hand_pause_seconds: BetweenSeconds | None = Field(
        None,
        description=f"seconds a finished hand's result stays before the next deal, 0 to "
        f"{MAX_BETWEEN_SECONDS}; null: the server's --hand-pause (5)",
    )
    rebuy_seconds: BetweenSeconds | None = Field(
        None,
        description=f"at a rebuy table, seconds the next deal waits for a person who just "
        f"went broke to choose, 0 to {MAX_BETWEEN_SECONDS}; null: the server's "
        "--rebuy-seconds (30)",
    )
    chip_value: StrictStr | None = Field(
        None,
        max_length=12,
        pattern=CHIP_VALUE_PATTERN,
        description="the money one chip is worth for settling up, a decimal number as a "
        'string ("0.10"), above 0, at most 1000000, at most 4 decimals; null or "": chips '
        "only",
        examples=["0.10"],
    )
    currency: StrictStr | None = Field(
        None,
        max_length=8,
        pattern=CURRENCY_PATTERN,
        description='the money\'s name, 1 to 8 letters ("EUR"); null or "": none',
    )
    seed_rotation: HandCount | None = Field(
        None,
        description="fair deals (docs/fair-deals.md): a new server seed every this many "
        "hands, the old one revealed then, so those hands' cards (folded ones too) can be "
        "seen; null: one seed, revealed when the match ends",
    )
    listed: StrictBool = Field(
        False,
        description="whether the lobby lists the table; false (the default): private, "
        "reached only by its link",
    )
    approval: StrictBool = Field(
        False, description="whether a person's join waits for the host to accept it"
    )


class JoinTable(_In):
    """A person asking for a seat: seat ``seat`` (0-based table order), or the first open
    one."""

    name: PersonName = Field(examples=["Ana"])
    seat: SeatIndex | None = Field(
        None,
        description="the 0-based seat in table order (0 to 7); default the first open seat",
    )
    client_seed: str | None = Field(
        None,
        max_length=1000,
        description="the seat's client seed for fair deals (docs/fair-deals.md): 1 to 64 "
        "printable ASCII characters; the web page sends 32 random hex characters; null or "
        'absent: the public default "primero-default". Kept for the whole stay: the '
        "server cannot change it.",
        examples=["3f9a0c61d2b84e7a9c0d1e2f3a4b5c6d"],
    )


class SeatOut(BaseModel):
    """One seat of a table summary."""

    name: str | None = Field(description="the player's name; null while the seat is open")
    kind: str = Field(description='"open", "person", or the bot kind')
    chips: int = Field(description="chips before the current hand")
    sitting_out: bool = Field(False, description="not dealt in from the next hand on")
    left: bool = Field(False, description="gave the seat up: out of the match")
    connected: bool = Field(False, description="a person with an open connection")
    stand_in: str | None = Field(
        None, description="the kind of the bot playing a sitting-out person's seat, else null"
    )
    ledger: dict[str, int] = Field(
        default_factory=dict, description='{"bought_in": chips, "net": chips}'
    )


class FairOut(BaseModel):
    """The proof of fair deals of a table (docs/fair-deals.md)."""

    scheme: str = Field(description='"primero-fair-1"')
    commitment: str = Field(description="SHA-256 of the secret server seed, 64 hex characters")
    client_seeds: list[str] = Field(
        description="each seat's client seed in table order (the public default "
        '"primero-default" for a seat that brought none)'
    )
    server_seed: str | None = Field(
        description="the server seed, 64 hex characters, once the match is over; else null"
    )
    rotation: int | None = Field(
        None, description="a new seed every this many hands (null: one for the match)"
    )
    revealed: list[dict[str, Any]] = Field(
        default_factory=list,
        description='the seeds revealed so far: [{"first_hand", "last_hand", "commitment", '
        '"server_seed"}]',
    )
    note: str = Field(description="when the seed is revealed and what that shows, in words")


class TransferOut(BaseModel):
    """One transfer of settling up: ``payer`` pays ``payee`` ``chips`` chips."""

    payer: str = Field(description='a person\'s name, or "Bots" for every bot')
    payee: str = Field(description='a person\'s name, or "Bots" for every bot')
    chips: int = Field(description="chips, more than 0")
    money: str | None = Field(
        None, description='the chips in money at the table\'s chip_value ("4.00"), or null'
    )


class SettleOut(BaseModel):
    """Who pays whom so that every net of the ledger is settled (at most one fewer
    transfer than parties with a nonzero net)."""

    transfers: list[TransferOut] = Field(description="in the order to read them")
    text: str = Field(
        description='the same as lines to copy, "Ben pays Ana 40 chips (4.00 EUR)", and the '
        'rate\'s line "1 chip = 0.10 EUR" where there is one'
    )


class FormerOut(BaseModel):
    """A person who bought in and whose seat a bot now plays (docs/protocol.md
    "Settling up"): they stay in the ledger."""

    seat: int = Field(description="the 0-based seat they held")
    name: str
    chips: int = Field(description="the chips they left with")
    ledger: dict[str, int] = Field(description='{"bought_in": chips, "net": chips}')


class TableSummary(BaseModel):
    """What the lobby shows of a table."""

    id: str
    name: str
    status: Literal["waiting", "playing", "paused", "over", "broken"] = Field(
        description='"waiting" until every seat is taken, then "playing"; "paused" while no '
        'hand may start (see `paused_by`); "over" when the match ends (R9); "broken": a '
        "stored table that cannot go on (see `detail`)"
    )
    detail: str | None = Field(None, description="why a broken table is broken, in words")
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
    settle: SettleOut | None = Field(
        None, description='settling up (docs/protocol.md "Settling up")'
    )
    fair: FairOut | None = Field(
        None, description="the commitment and client seeds of fair deals; null: seeded dealer"
    )
    spectator_chat: bool = Field(
        False, description="whether spectators may chat (the host opens it: PATCH)"
    )
    listed: bool = Field(False, description="whether the lobby lists the table")
    approval: bool = Field(False, description="whether a join waits for the host's yes")
    host_seat: int | None = Field(
        None, description="the seat of the person who hosts, or null (none known)"
    )
    removed: list[RemovedOut] = Field(
        default_factory=list, description="the ledger rows of the people the host removed"
    )
    hand_pause_seconds: int = Field(
        0, description="seconds a finished hand's result stays before the next deal"
    )
    rebuy_seconds: int = Field(
        0, description="seconds the next deal waits for a person who just went broke"
    )
    next_hand_at: float | None = Field(
        None,
        description="unix seconds: the next hand is dealt by then, while a finished hand's "
        "result stays or the rebuy window is open; else null",
    )
    rebuy_wait: list[int] = Field(
        default_factory=list,
        description="the seats whose choice to rebuy or not the next deal waits for",
    )
    chip_value: str | None = Field(None, description='the money one chip is worth ("0.10")')
    currency: str | None = Field(None, description='the money\'s name ("EUR")')
    former: list[FormerOut] = Field(
        default_factory=list,
        description="people who bought in and whose seat a bot now plays, with their ledger",
    )


class CreatedTable(TableSummary):
    """The answer to ``POST /api/tables``: the summary and the host token, shown once."""

    host_token: str = Field(description="the proof of hosting, shown once: keep it secret")


class SeatTaken(BaseModel):
    """The answer to a join: the seat's 0-based table index and its secret token; at an
    ``approval`` table, ``seat`` null and ``waiting`` true until the host accepts."""

    seat: int | None = Field(description="the 0-based seat; null while the host decides")
    token: str = Field(description="the only proof of the seat; keep it secret")
    waiting: bool = Field(
        False, description="true: a join request the host has to accept (HTTP 202)"
    )


class RemovedOut(BaseModel):
    """The ledger row of a person the host removed (chips)."""

    name: str
    bought_in: int
    chips: int = Field(description="their chips when the seat changed hands")
    net: int = Field(description="chips minus bought_in")


class JoinRequestOut(BaseModel):
    """A join request waiting for the host (docs/protocol.md "Private tables")."""

    id: int
    name: str
    text: str = Field(description='the request in words: "Ben asks to join"')


class HostTokenOut(BaseModel):
    """``host_token``: the new host's token, to the connections of their seat only."""

    type: Literal["host_token"] = "host_token"
    token: str


# --------------------------------------------------------------------------- WebSocket in


class ActionIn(_In):
    """``{"type": "action", "id": str, "line": str}``: propose an action line without its
    seat (``"b 2"``, ``"c"``, ``"x 7h Kc"``, ``"dc fluxus"``)."""

    type: Literal["action"]
    id: ActionId
    line: StrictStr = Field(min_length=1, max_length=200)
    version: StrictInt | None = Field(
        None,
        description="the version of the state the move was chosen in; when given and not "
        'the current version, the move is refused as stale (`error` with `"stale": true`)',
    )


class ResyncIn(_In):
    """``{"type": "resync", "since": v}``: ask for the current state."""

    type: Literal["resync"]
    since: StrictInt = Field(ge=0)


class PingIn(_In):
    """``{"type": "ping"}``: the client's heartbeat (every 10 s), answered with ``pong``."""

    type: Literal["ping"]


class ChatIn(_In):
    """``{"type": "chat", "text": str}``: 1 to 300 characters of plain text."""

    type: Literal["chat"]
    text: ChatText


# --------------------------------------------------------------------------- WebSocket out


class MoveWordsOut(BaseModel):
    """The names of the moves, as the buttons show them
    (``primero.play.tablemodel.sentences.move_words``): ``bet`` of the ``b`` move,
    ``check`` ("Check": ``b 0``) where a bet of 0 is allowed with no bet standing,
    ``raise`` of the ``r`` move ("Raise to", or "Bet" over a bet of 0), ``call`` ("Check"
    or "Call N"), ``fold``; ``exchange`` one name per entry of ``legal.exchange``
    ("Stand pat", "Exchange 2 cards"), ``pick`` the exchange button before any card is
    picked; ``declare`` one per entry of ``legal.declare`` ("Declare primero");
    ``accept`` and ``refuse`` the vote's buttons, naming the bet; null (or empty) where
    the move is not legal (R4–R8)."""

    bet: str
    check: str | None
    # "raise" is a Python keyword: the field is named raise_ and sent as "raise"
    raise_: str | None = Field(alias="raise")
    call: str | None
    fold: str | None
    exchange: list[str]
    pick: str | None
    declare: list[str]
    accept: str | None
    refuse: str | None

    model_config = ConfigDict(populate_by_name=True, serialize_by_alias=True)


class LegalOut(BaseModel):
    """What the seat to act may do (the fields of ``LegalActions``) and the moves'
    names."""

    kinds: list[str]
    exchange: list[int]
    bet: list[int] | None
    raise_to: list[int] | None
    call: int | None
    fold: bool
    vote: bool
    declare: list[str]
    words: MoveWordsOut


class ShownOut(BaseModel):
    """A hand shown at the showdown; ``words``: its category and points in words
    ("primero, 72 points")."""

    category: str
    points: int
    cards: list[str]
    words: str


class PendingBetOut(BaseModel):
    """The bet under a refusal vote (R8): who made it, its amount (chips), a raise or not,
    and in words ("Ana raises to 12 chips")."""

    seat: str
    amount: int
    raise_: bool = Field(alias="raise")
    words: str


class AwardOut(BaseModel):
    """One pot of a finished hand: its amount (chips), its winners and their shares."""

    amount: int
    winners: list[str]
    shares: list[int]


class HandOut(BaseModel):
    """The current (or just finished) hand as one seat may see it (R9b).

    Every field :func:`primero.play.tablemodel.payload.seat_payload` writes (per ``p``
    seat of the hand where a list; chips where an amount).
    """

    number: int
    seat: str | None
    table_seats: list[int]
    players: list[str]
    hand: list[str]
    hand_sizes: list[int]
    to_act: str | None
    phase: str
    phase_words: str = Field(
        description='the phase in words ("First round", "Second round" where declarations '
        "are off): what the page shows (R4)"
    )
    stacks: list[int]
    contributed: list[int]
    round_bets: list[int]
    current_bet: int | None = Field(description="the bet to match (chips), or null if none")
    pot_total: int
    pending_bet: PendingBetOut | None
    declared: list[str | None]
    folded: list[bool]
    exchanges: list[list[int]]
    log: list[str]
    events: list[str]
    last_moves: list[str | None] = Field(description="each seat's last move in words, or null")
    shown: list[ShownOut | None] | None
    final_stacks: list[int] | None
    winners: list[AwardOut] = Field(description="the pots once the hand is over, else empty")
    result: list[str] = Field(
        description="once the hand is over, what its chips did, in words for this seat "
        "(R7): the uncalled bet returned, then who won each pot; the last sentences of "
        "events; else empty"
    )


class PotWonOut(BaseModel):
    """One pot of a finished hand in its record: its amount (chips) and its winners
    (``p`` labels)."""

    amount: int
    winners: list[str]


class HandSummaryOut(BaseModel):
    """A finished hand in ``GET /api/tables/{id}/hands``: public information only (R9b)."""

    number: int
    players: list[str]
    pots: list[PotWonOut]
    shown: list[ShownOut | None] = Field(description="per seat, the hand shown or null")
    final_stacks: list[int] | None


class HandRecordOut(BaseModel):
    """``GET /api/tables/{id}/hands/{n}``: a finished hand as one seat saw it (R9b), or
    the public view (``seat`` null). Every card the reader did not see is ``??``; a
    showdown's cards appear only in ``shown``; never the dealer's seed."""

    number: int
    variant: Literal["primero"]
    seat: str | None = Field(description="the reader's p label, or null for the public view")
    players: list[str]
    starting_stacks: list[int] = Field(description="chips before the ante, per seat")
    actions: list[str] = Field(description="the record lines, unseen cards as ??")
    events: list[str] = Field(description="one sentence per line, then the result's")
    result: list[str] = Field(
        description="what the chips did, in words for this seat (R7): the uncalled bet "
        "returned, then who won each pot; the last sentences of events"
    )
    pots: list[PotWonOut]
    own_cards: list[list[str]] = Field(
        description="the reader's cards after each line ([] each for the public view)"
    )
    shown: list[ShownOut | None] = Field(description="per seat, the hand shown or null")
    final_stacks: list[int] | None


class StateOut(BaseModel):
    """``state``: sent on connecting and after every change at the table."""

    type: Literal["state"] = "state"
    version: int
    table: TableSummary
    hand: HandOut | None
    legal: LegalOut | None
    deadline: float | None = Field(description="unix seconds, or null")
    seat_note: str | None = Field(
        None,
        description="the reader's sitting out in words: that they sit out from the next "
        "hand while still dealt in the hand in progress, then that they are sitting out; "
        "null for a spectator or a seat not sitting out",
    )
    guide: str = Field(
        description="the guided first hand's lesson for this moment and reader (the "
        "page's ?learn): primero.play.lessons.guide_text"
    )
    notice: str | None = Field(
        None, description="the reader's join request or removal in words, else null"
    )
    join_requests: list[JoinRequestOut] | None = Field(
        None, description="the join requests waiting: to the host's connections only, else null"
    )
    your_seat: int | None = Field(None, description="the reader's 0-based seat, or null")


class ErrorOut(BaseModel):
    """``error``: a message the server could not take; nothing changed."""

    type: Literal["error"] = "error"
    id: str | None
    message: str
    stale: bool | None = Field(
        None, description="true: the action's version was not the current one; a state follows"
    )
    retry: bool | None = Field(
        None, description="true: the move could not be stored and was not made; send it again"
    )


class ChatOut(BaseModel):
    """``chat``: a line of chat from a seat, or from a spectator (``spectator`` true:
    ``from`` is ``"Spectator 3"``, ``"Host"`` or the former name of a seat a bot took)."""

    type: Literal["chat"] = "chat"
    from_: str = Field(alias="from")
    text: str
    spectator: bool | None = Field(
        None, description="true for a spectator's line (absent for a seat's)"
    )

    model_config = ConfigDict(populate_by_name=True)


class ChatHistoryOut(BaseModel):
    """``chat_history``: the table's last chat lines (at most 50, oldest first), sent to a
    connection when it opens; a client replaces the chat it shows with them."""

    type: Literal["chat_history"] = "chat_history"
    lines: list[ChatOut]


class PongOut(BaseModel):
    """``pong``: the answer to a ``ping``, to that connection only."""

    type: Literal["pong"] = "pong"
