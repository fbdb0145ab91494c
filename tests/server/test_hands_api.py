"""The hands record of ``GET /api/tables/{id}/hands/{n}`` (server/hands_api.py) built
from a hand-written record, and its response model (online.md "Tables"; R7, R9b).

The hand (the one of tests/play/test_tablemodel_payload.py): Ana, Ben and Cy with 20, 3 and
3 chips, ante 1. Ana bets 10, Ben accepts and calls all in for 2, Cy calls all in for
2; everyone stands pat at the second exchange and the hands are shown: Cy's numerus 31
(7♦ 21 + Q♦ 10) beats Ben's 28 and Ana's 26. Cy wins the 3 x 3 = 9 chips everyone
matched; the 8 chips of Ana's bet nobody called go back to her (R7), said as returned,
not as a pot won.
"""

from __future__ import annotations

from pathlib import Path

from fastapi.testclient import TestClient

from primero.engine.history import HandRecord
from primero.engine.rules import Rules
from primero.server import Settings, create_app
from primero.server.hands_api import hand_for, public_hand
from primero.server.models import HandRecordOut, HandSummaryOut

RECORD = HandRecord(
    players=("Ana", "Ben", "Cy"),
    starting_stacks=(20, 3, 3),
    actions=[
        "d dh p1 4s Kh", "d dh p2 6d Kc", "d dh p3 Ah 7d",
        "p1 b 10", "p2 y", "p2 c", "p3 c",
        "d dh p1 2s 2d", "d dh p2 Kd 5h", "d dh p3 Js Qd",
        "p1 x", "p2 x", "p3 x",
    ],
    rules=Rules(min_players=3),
)  # fmt: skip


def test_the_result_is_said_for_each_reader() -> None:
    ana = hand_for(7, RECORD, 0)
    assert ana.result == ["Uncalled bet of 8 chips returned to you", "Cy wins 9 chips (numerus 31)"]
    cy = hand_for(7, RECORD, 2)
    assert cy.result == ["Uncalled bet of 8 chips returned to Ana", "You win 9 chips (numerus 31)"]
    public = hand_for(7, RECORD, None)
    assert public.result == [
        "Uncalled bet of 8 chips returned to Ana", "Cy wins 9 chips (numerus 31)",
    ]  # fmt: skip
    # events: one sentence per line, then the same closing sentences
    assert len(ana.events) == 13 + 2 and ana.events[-2:] == ana.result
    assert ana.events[:4] == [
        "You are dealt 4♠ K♥",
        "Ben is dealt 2 cards",
        "Cy is dealt 2 cards",
        "You bet 10",
    ]
    assert public.events[0] == "Ana is dealt 2 cards"


def test_the_record_fields_as_the_reader_saw_them() -> None:
    ben = hand_for(7, RECORD, 1).model_dump(mode="json")
    assert set(ben) == {
        "number", "variant", "seat", "players", "starting_stacks", "actions", "events",
        "result", "pots", "own_cards", "shown", "final_stacks",
    }  # fmt: skip
    assert (ben["number"], ben["variant"], ben["seat"]) == (7, "primero", "p2")
    assert ben["starting_stacks"] == [20, 3, 3] and ben["final_stacks"] == [17, 0, 9]
    assert ben["actions"][:3] == ["d dh p1 ?? ??", "d dh p2 6d Kc", "d dh p3 ?? ??"]
    assert ben["own_cards"][0] == [] and ben["own_cards"][1] == ["6d", "Kc"]
    assert ben["own_cards"][-1] == ["6d", "Kc", "Kd", "5h"]
    # the engine's pots by contribution level: 9 to Cy, Ana's own 8 (R7)
    assert ben["pots"] == [{"amount": 9, "winners": ["p3"]}, {"amount": 8, "winners": ["p1"]}]
    assert ben["shown"][2] == {
        "category": "numerus",
        "points": 31,
        "cards": ["Ah", "7d", "Js", "Qd"],
        "words": "numerus, 31 points",
    }
    summary = public_hand(7, RECORD).model_dump(mode="json")
    assert set(summary) == {"number", "players", "pots", "shown", "final_stacks"}
    assert summary["pots"] == ben["pots"] and summary["final_stacks"] == [17, 0, 9]


def test_the_openapi_document_names_the_response_models(tmp_path: Path) -> None:
    app = create_app(Settings(database_url=f"sqlite:///{tmp_path / 'p.db'}", bot_processes=0))
    with TestClient(app) as client:
        doc = client.get("/openapi.json").json()
    one = doc["paths"]["/api/tables/{table_id}/hands/{number}"]["get"]["responses"]["200"]
    assert one["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/HandRecordOut"
    }
    every = doc["paths"]["/api/tables/{table_id}/hands"]["get"]["responses"]["200"]
    assert every["content"]["application/json"]["schema"]["items"] == {
        "$ref": "#/components/schemas/HandSummaryOut"
    }
    schema = doc["components"]["schemas"]["HandRecordOut"]
    assert set(schema["required"]) == set(HandRecordOut.model_fields)
    assert schema["properties"]["result"]["items"] == {"type": "string"}
    assert set(doc["components"]["schemas"]["HandSummaryOut"]["required"]) == set(
        HandSummaryOut.model_fields
    )
