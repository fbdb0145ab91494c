"""Every shared case (../shared/cases/*.prh) replays to its ``[expected]`` outcome.

The folder lives beside the project's root (shared/cases/README.md); the tests are
marked ``needs("shared_cases")`` (tests/needs.py).
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

import pytest

from primero.engine.history import read_record, replay
from tests.paths import CASES_DIR

CASE_FILES = sorted(CASES_DIR.glob("*.prh")) if CASES_DIR.is_dir() else []
NEED_CASES = pytest.mark.needs("shared_cases")


def _expected(path: Path) -> dict[str, Any]:
    with path.open("rb") as fh:
        data = tomllib.load(fh)
    expected = data.get("expected")
    assert isinstance(expected, dict), f"{path.name} has no [expected] table"
    return expected


@NEED_CASES
def test_shared_cases_folder_is_present() -> None:
    assert CASES_DIR.is_dir(), f"the shared cases are required at {CASES_DIR}"
    assert CASE_FILES, f"no .prh files in {CASES_DIR}"


@NEED_CASES
@pytest.mark.parametrize("path", CASE_FILES, ids=[p.stem for p in CASE_FILES])
def test_shared_case(path: Path) -> None:
    expected = _expected(path)
    record = read_record(path)
    outcome = replay(record)
    if "error_index" in expected:
        index = expected["error_index"]
        assert type(index) is int
        assert outcome.error is not None, f"{path.name}: expected an error, got none"
        assert outcome.error.index == (None if index == -1 else index)
        assert not outcome.complete
        assert outcome.to_act is None
        payload = outcome.to_json()
        assert payload["error"]["index"] == (None if index == -1 else index)
        if index == -1:
            assert payload["error"]["line"] == ""
        else:
            assert payload["error"]["line"] == record.actions[index]
        return
    assert outcome.error is None, f"{path.name}: unexpected error {outcome.error}"
    if expected["complete"]:
        assert outcome.complete
        state = outcome.state
        assert state is not None and state.result is not None
        final = list(expected["final_stacks"])
        assert list(state.result.final_stacks) == final
        payload = outcome.to_json()
        assert payload["complete"] is True
        assert payload["final_stacks"] == final
        assert payload["net"] == [f - s for f, s in zip(final, record.starting_stacks, strict=True)]
        assert sum(final) == sum(record.starting_stacks)
    else:
        assert not outcome.complete
        assert outcome.to_act == expected["to_act"]
        assert set(outcome.legal) == set(expected["legal"])
        assert len(outcome.legal) == len(set(outcome.legal))
        payload = outcome.to_json()
        assert payload["complete"] is False
        assert payload["to_act"] == expected["to_act"]
        assert set(payload["legal"]) == set(expected["legal"])


@NEED_CASES
def test_shared_cases_cover_all_three_outcomes() -> None:
    kinds = set()
    for path in CASE_FILES:
        exp = _expected(path)
        if "error_index" in exp:
            kinds.add("error")
        elif exp["complete"]:
            kinds.add("complete")
        else:
            kinds.add("pending")
    assert kinds == {"error", "complete", "pending"}
