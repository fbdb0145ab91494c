"""``primero verify`` (docs/fair-deals.md "Verifying"): verified (0), the first card
that differs (1), not verifiable (2), on the known-answer vector of the docs."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from primero.cli import app
from primero.engine.fairdeal import commitment
from primero.engine.fairverify import proof_fields
from primero.engine.history import HandRecord, write_record

SEED = bytes(range(32))
# docs/fair-deals.md: the vector's deck starts 2s Jd Js 4c Ks 6c
LINES = ["d dh p1 2s Jd", "d dh p2 Js 4c", "p1 b 1", "p2 f"]


def record(lines: list[str], *, revealed: bool = True, fair: bool = True) -> HandRecord:
    extra = {}
    if fair:
        extra["fair"] = proof_fields(
            commitment(SEED), ["alpha", "beta"], 1, SEED if revealed else None
        )
    return HandRecord(("Ana", "Ben"), (10, 10), lines, extra=extra)


def run(*paths: Path) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["verify", *map(str, paths)])
    return result.exit_code, result.output


def test_verify(tmp_path: Path) -> None:
    good = write_record(record(LINES), tmp_path / "good.prh")
    assert run(good) == (
        0,
        f"{good}: verified: hand 1: all 4 dealt cards are the committed deck's\n",
    )
    bad = write_record(
        record(["d dh p1 2s Jd", "d dh p2 4c Js", "p1 b 1", "p2 f"]), tmp_path / "bad.prh"
    )
    code, out = run(good, bad)
    assert code == 1
    assert out.splitlines()[1] == (
        f"{bad}: differs: line 2 ('d dh p2 4c Js'): card 1 is 4c, the committed deck gives Js"
    )
    hidden = write_record(record(LINES, revealed=False), tmp_path / "hidden.prh")
    bare = write_record(record(LINES, fair=False), tmp_path / "bare.json")
    code, out = run(good, hidden, bare)
    assert code == 2
    assert "hidden.prh: not verifiable: the server seed is not revealed yet" in out
    assert "bare.json: not verifiable: the record has no proof fields" in out
    assert run(bad, bare)[0] == 1
    missing = tmp_path / "missing.prh"
    code, out = run(missing)
    assert code == 2 and "not verifiable: the record cannot be read" in out
