"""The reveal of fair deals (docs/fair-deals.md "The reveal"): which seeds are public
when, the period seeds of ``seed_rotation`` (a known answer), and records getting
their seed only once it is revealed (R9b)."""

from __future__ import annotations

import pytest

from primero.engine.fairdeal import commitment
from primero.engine.fairverify import proof_fields
from primero.engine.history import HandRecord, dump_record
from primero.server import fairproof
from primero.store import SeatRow, TableRow

MASTER = bytes(range(32)).hex()
# HMAC-SHA256(bytes 0..31, "primero-fair-1 epoch 1"), docs/fair-deals.md
EPOCH1 = "628355e521a2c31a098e78e100fecac58d53b1cca893710e4d4eca23c7e0617a"


def row(rotation: int | None, played: int, status: str = "playing") -> TableRow:
    seats = [SeatRow(i, f"P{i}", "random", None, 100) for i in range(4)]
    seats[0] = SeatRow(0, "Ana", "person", "h", 100, "ana's seed")
    return TableRow(
        id="t1", name="T", stack=100, rules={}, turn_seconds=0, max_hands=None,
        status=status, version=1, hands_played=played, dealer_index=3, created=0,
        seats=seats, server_seed=MASTER, seed_rotation=rotation,
    )  # fmt: skip


def stored(r: TableRow, number: int) -> str:
    seed = fairproof.epoch_seed(r, fairproof.epoch_of(r, number))
    fair = proof_fields(commitment(seed), ["a", "b"], number)
    return dump_record(HandRecord(("A", "B"), (5, 5), [], extra={"fair": fair}))


@pytest.fixture(autouse=True)
def no_test_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PRIMERO_TEST_SEED", raising=False)


def test_one_seed_is_revealed_when_the_match_is_over() -> None:
    playing = row(None, 5)
    fair = fairproof.summary_fields(playing)
    assert fair is not None
    assert fair["commitment"] == commitment(bytes(range(32)))
    assert fair["server_seed"] is None and fair["revealed"] == []
    assert fair["client_seeds"] == ["ana's seed", *["primero-default"] * 3]
    assert "server_seed" not in fairproof.revealed_record(stored(playing, 5), playing).extra["fair"]
    over = row(None, 5, "over")
    fair = fairproof.summary_fields(over)
    assert fair is not None and fair["server_seed"] == MASTER
    assert fairproof.revealed_record(stored(over, 5), over).extra["fair"]["server_seed"] == MASTER


def test_rotation_reveals_each_period_after_its_last_hand() -> None:
    r = row(2, 3)  # hands 1-2 done (period 0), hand 3 done, hand 4 (period 1) due
    assert fairproof.epoch_seed(r, 1).hex() == EPOCH1
    assert [fairproof.epoch_of(r, h) for h in (1, 2, 3, 4, 5)] == [0, 0, 1, 1, 2]
    assert fairproof.revealed_epochs(r) == 1
    fair = fairproof.summary_fields(r)
    assert fair is not None
    assert fair["commitment"] == commitment(bytes.fromhex(EPOCH1))
    assert fair["server_seed"] is None
    seed0 = fairproof.epoch_seed(r, 0).hex()
    assert fair["revealed"] == [
        {
            "first_hand": 1,
            "last_hand": 2,
            "commitment": commitment(bytes.fromhex(seed0)),
            "server_seed": seed0,
        }
    ]
    assert fairproof.revealed_record(stored(r, 2), r).extra["fair"]["server_seed"] == seed0
    assert "server_seed" not in fairproof.revealed_record(stored(r, 3), r).extra["fair"]
    assert fairproof.revealed_epochs(row(2, 4)) == 2  # hand 4 over: period 1 revealed
    assert fairproof.revealed_epochs(row(2, 3, "over")) == 2  # the end reveals the rest
