"""Property-based fuzzing of the server: the REST API from its OpenAPI document
(schemathesis: no 500, and no request the document calls valid is refused: the document
states every limit) and WebSocket frames (Hypothesis: no crash, and a refused frame
changes nothing)."""

from __future__ import annotations

import json
import re
import tempfile
import unicodedata
from pathlib import Path
from typing import Any

import numpy  # noqa: F401  (see below)
import pytest
import schemathesis
from fastapi.testclient import TestClient
from fastapi.websockets import WebSocketDisconnect
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error, positive_data_acceptance
from schemathesis.specs.openapi.checks import (
    allow_header_conformance,
    content_type_conformance,
    negative_data_rejection,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
    unsupported_method,
)

from primero.server import Settings, create_app

# numpy is imported here, before the app: the server imports it in a worker thread (a
# table's bots are built off the event loop), and Hypothesis looks it up in sys.modules
# while generating; a half-imported numpy there fails the test, not the server.

# One app for the whole module (schemathesis keeps its lifespan running); bots slow; no
# creation limits (a 429 is allowed by the check, but would hide the bodies behind it).
_DB = Path(tempfile.mkdtemp(prefix="primero-fuzz-")) / "fuzz.db"
APP = create_app(
    Settings(
        database_url=f"sqlite:///{_DB}", bot_pause=5, create_rate=0, max_tables=0, bot_processes=0
    )
)
schema = schemathesis.openapi.from_asgi("/openapi.json", APP)


def _plain(text: object) -> bool:
    """online.md "Text", written here apart from the server's code: no character of a
    C* category (the schema's descriptions say so; JSON Schema cannot), no white space at
    either end."""
    return not isinstance(text, str) or (
        text == text.strip()
        and all(unicodedata.category(ch)[0] != "C" for ch in text)
        and unicodedata.normalize("NFC", text) == text  # NFC may shorten it past minLength
    )


def _consistent(body: Any) -> bool:
    """Keep the bodies whose fields agree with each other as the descriptions say (what
    JSON Schema cannot state): seats from the rules' min_players to max_players, a stack
    above the ante with room for a min_raise, and the text rules."""
    if not isinstance(body, dict):
        return True
    if not _plain(body.get("name")):
        return False
    value = body.get("chip_value")
    number = isinstance(value, str) and re.fullmatch(r"[0-9]+([.,][0-9]+)?", value)
    if number and not 0 < float(str(value).replace(",", ".")) <= 10**6:
        return False  # docs/protocol.md: above 0, at most 10⁶
    if "seats" not in body:
        return True
    rules = body.get("rules") or {}
    low, high = rules.get("min_players", 4), rules.get("max_players", 6)
    stack, ante = body.get("stack", 100), rules.get("ante", 1)
    if rules.get("bet_limit") == "pot" and ante == 0:
        return False  # docs/rules.md: pot-limit needs an ante (R5)
    return bool(
        low <= high
        and low <= len(body["seats"]) <= high
        and stack > ante
        and rules.get("min_raise", 1) <= stack - ante
    )


#: The checks that the server does what its document says, for every case.
DOCUMENT = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    negative_data_rejection,
    unsupported_method,
    allow_header_conformance,
]


@schema.parametrize()
# the same examples in every run (CI reproducible); derandomize=False explores anew
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
def test_the_rest_api_never_answers_500_nor_refuses_a_valid_request(
    case: schemathesis.Case[Any],
) -> None:
    # Every phase (examples, coverage, fuzzing) generates bodies; one whose fields do not
    # agree may be refused (400), but never with a 5xx.
    try:
        consistent = _consistent(case.body)
    except (TypeError, AttributeError):  # a negative case (wrong types): no positive check
        consistent = False
    check_case(case, consistent)


def check_case(case: schemathesis.Case[Any], consistent: bool) -> None:
    """Call ``case`` and check it against the document (and, when its fields agree, that
    the server takes it)."""
    if consistent:
        case.call_and_validate(checks=[*DOCUMENT, positive_data_acceptance])
    else:
        case.call_and_validate(checks=DOCUMENT)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=10,
)
MESSAGES = st.fixed_dictionaries(
    {
        "type": st.sampled_from(["action", "resync", "chat", "hints", "", "ACTION"])
        | st.text(max_size=8)
    },
    optional={
        "id": JSON | st.text(min_size=1, max_size=70),
        "line": JSON | st.sampled_from(["b 0", "b -1", "r 999", "x 7h", "dc chorus", "y", "zz"]),
        "since": JSON,
        "text": JSON,
    },
)
FRAMES = (
    MESSAGES.map(json.dumps)
    | st.text(max_size=40)
    | st.binary(max_size=40)
    | st.integers(4000, 6000).map(lambda n: json.dumps({"type": "chat", "text": "x" * n}))
)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _state(ws: Any) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = ws.receive_json()
        if m["type"] == "state":
            return m


@pytest.mark.timeout(300)
def test_websocket_frames_never_crash_and_refused_ones_change_nothing(tmp_path: Path) -> None:
    app = create_app(
        Settings(database_url=f"sqlite:///{tmp_path / 'ws.db'}", bot_pause=0, bot_processes=0)
    )
    with TestClient(app) as client:
        table = client.post(
            "/api/tables",
            json={"seats": ["open", "open"], "rules": {"min_players": 2}, "turn_seconds": 0},
        ).json()["id"]
        tokens = [
            client.post(f"/api/tables/{table}/seats", json={"name": n}).json()["token"]
            for n in ("Ana", "Ben")
        ]

        @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
        @given(frame=FRAMES, who=st.sampled_from([0, 1, None]))
        def run(frame: str | bytes, who: int | None) -> None:
            query = "" if who is None else f"?token={tokens[who]}"
            with client.websocket_connect(f"/ws/tables/{table}{query}") as ws:
                before = _state(ws)
                while before["hand"] is None or before["hand"]["to_act"] == "dealer":
                    before = _state(ws)
                if isinstance(frame, bytes):
                    ws.send_bytes(frame)
                else:
                    ws.send_text(frame)
                if isinstance(frame, str) and not _is_json(frame):  # no message at all
                    with pytest.raises(WebSocketDisconnect) as closed:
                        ws.receive_json()
                    assert closed.value.code == 1007
                    return
                reply = ws.receive_json()
                ws.send_json({"type": "resync", "since": 0})
                after = _state(ws)
                if reply["type"] == "error":
                    assert after == before
                elif reply["type"] == "chat":
                    assert after["version"] == before["version"]
                elif reply["type"] == "hints":  # odds for the seat: nothing changes
                    assert after == before and reply["version"] == before["version"]
                else:  # a legal action was applied, or a resync answered
                    assert reply["type"] == "state" and after["version"] >= before["version"]

        run()
        # The server is still up and answers.
        assert client.get(f"/api/tables/{table}").status_code == 200
