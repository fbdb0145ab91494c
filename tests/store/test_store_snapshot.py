"""``Store.load`` reads one snapshot: a table's version and its hand in progress always
agree, even when another process stores the next hand between two of its statements
(a mirror built from a mixed read showed the next hand under the old version)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import event

from primero.store import Store
from primero.store.store import SeatRow, TableRow
from tests.server_helpers import db_url_fixture  # noqa: F401 (the fixture db_url)


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    store = Store(db_url)
    store.migrate()
    yield store
    store.close()


def _table(table_id: str) -> TableRow:
    return TableRow(
        id=table_id,
        name="Snapshot",
        stack=100,
        rules={},
        turn_seconds=0,
        max_hands=None,
        status="playing",
        version=7,
        hands_played=2,
        dealer_index=0,
        created=1,
        seats=[SeatRow(i, f"p{i}", "random", None, 100) for i in range(2)],
    )


def test_a_hand_stored_during_a_load_is_not_read_under_the_old_version(
    store: Store, db_url: str
) -> None:
    with store.transaction() as conn:
        store.create_table(conn, _table("t1"))
    other = Store(db_url)  # another process's writer
    stored: list[bool] = []

    def between(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        # just before load() asks for the hand in progress: hand 3 is stored elsewhere
        if "FROM hands" in statement and not stored:
            stored.append(True)
            with other.transaction() as c:
                other.start_hand(c, "t1", 3, 12345, 7, 8)

    event.listen(store.engine, "before_cursor_execute", between)
    try:
        (row,) = store.load("t1")
    finally:
        event.remove(store.engine, "before_cursor_execute", between)
    assert stored == [True]  # the write happened in the middle of the read
    # the snapshot from before the write: version 7, between hands 2 and 3
    assert (row.version, row.current) == (7, None)
    (after,) = store.load("t1")
    assert after.version == 8 and after.current is not None and after.current.number == 3
    other.close()
