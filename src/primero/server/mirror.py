"""The mirror of a table another process owns (docs/protocol.md "Several processes"): it
never writes; it reads the table back from the store when the owner says (through Redis)
that the version moved on, or when a connection here asks, and shows its connections the
states built here by ``view`` (R9b).

A stored row and its model are read and replayed aside, then swapped in at once (in a
command of the table's queue, :mod:`primero.server.actor`): no state is ever sent with a
new version and an old hand. A finished hand stays shown until the next one is stored.
"""

from __future__ import annotations

import asyncio
import logging

from primero.engine.history import parse_record
from primero.play.tablemodel import TableModel
from primero.server import seatchange, seating
from primero.server.actor import Command
from primero.server.table import TableState
from primero.store import TableRow
from primero.store.evening import EveningRow

__all__ = ["TableMirror"]

log = logging.getLogger("primero.server")


class TableMirror:
    """What follows one table for this process while another process owns it (see the
    module docstring). Its table's ``owned`` says which role is in force: a process that
    takes the lease becomes the owner of the same table object, and the mirror stops.

    Args:
        table: the table it follows.
    """

    def __init__(self, table: TableState) -> None:
        self.table = table
        #: The newest version the owner announced, and its deadline (unix seconds).
        self.heard_version: tuple[int, float | None] = (table.row.version, None)
        self.catching_up = False  # a read back is under way

    def heard(self, version: int, deadline: float | None) -> None:
        """Another process (the owner) says the table is at ``version``: a mirror with
        connections here reads it back from the store (at most one read at a time)."""
        if version > self.heard_version[0]:
            self.heard_version = (version, deadline)
        if self.table.conns and version > self.table.row.version and not self.catching_up:
            self.catching_up = True
            asyncio.get_running_loop().create_task(self._catch_up())

    async def _catch_up(self) -> None:
        try:
            while (
                self.table.conns
                and not self.table.owned
                and self.heard_version[0] > self.table.row.version
            ):
                before = self.table.row.version
                await self.refresh()
                if self.table.row.version == before:
                    break  # not stored yet as far as this read saw: the scan looks again
        finally:
            self.catching_up = False

    async def follow(self) -> None:
        """A mirror reads the table back from the store when the stored version moved on
        past the one it shows (before it answers a resync: a notice of the owner may have
        been lost, or come before the connection). The owner, and a mirror whose database
        does not answer, keep what they have (a resync is always answered)."""
        if self.table.owned:
            return
        table_id = self.table.row.id
        try:
            versions = await self.table.hub.writer.read(self.table.store.versions)
        except Exception:
            return
        stored = versions.get(table_id)
        if stored is not None and stored[0] != self.table.row.version:
            await self.refresh()

    async def at_least(self, version: int) -> None:
        """A mirror reads the table back until it is at ``version`` (answered by the
        owner after storing it)."""
        if not self.table.owned and self.table.row.version < version:
            await self.refresh(at_least=version)

    async def refresh(self, *, model: bool = True, at_least: int = 0) -> None:
        """A mirror (a table another process drives): read the row back from the store
        and rebuild the match by replaying the stored lines (``model``: also when nobody
        is connected here); then every connection here gets its state, built by ``view``
        in this process. The stored row and its model are computed aside and swapped in
        at once: no state is ever sent with the new version and the old (or no) hand. A
        finished hand stays shown until the next one is stored. Nothing is read when the
        mirror already reached ``at_least`` (another read did meanwhile). Waits while
        the database cannot be reached."""
        table = self.table
        async with table.commands.command(Command.READ):
            if table.owned or (at_least and table.row.version >= at_least):
                return
            old_model, old_version = table.model, table.row.version
            row, evening = await table.stored()
            if table.owned:  # taken here meanwhile: the owner's own state stands
                return
            if old_model is not None and table.conns:
                await self._show_end(old_model, row)
            if old_model is not None and row.version == old_version:
                table.evening = evening
                return
            keep = (
                old_model is not None
                and row.current is None
                and old_model.hand is not None
                and old_model.hand.complete
                and old_model.hand_number == row.hands_played
            )
            new_model: TableModel | None = None
            if keep or (old_model is not None and self._caught_up(old_model, row, evening)):
                new_model = old_model
            elif (model or table.conns) and row.status != "waiting" and table.broken is None:
                try:
                    new_model = await asyncio.to_thread(
                        table.resumed_model, table.hub.clock.now(), row, evening
                    )
                except Exception as exc:
                    table.row, table.evening, table.model = row, evening, None
                    table.mark_broken(f"the stored table cannot be resumed: {exc}")
                    return
                version, deadline = self.heard_version
                if version == row.version and new_model.deadline is not None:
                    new_model.deadline = deadline
            if table.owned:
                return
            table.row, table.evening, table.model, table.decided = row, evening, new_model, None
            for c in list(table.conns):  # a seat given up or taken by a bot: watching
                if c.index is not None and row.seats[c.index].kind != "person":
                    c.index = None
                seatchange.mirror_marks(c, row, evening)  # accepted, or removed elsewhere
            table.evicted = False
            table.refresh_summary()
            table.broadcast()

    async def _show_end(self, model: TableModel, row: TableRow) -> None:
        """A mirror whose hand in progress has ended since its last read (the owner
        stored the end, ``row``, and may have dealt the next hand already) first shows
        its connections that hand's end, taken from the finished record, so that a
        person connected here sees every showdown and who won what, as at the owner.
        It is sent under the version those connections already hold (never under the
        newer version, whose hand may be the next one)."""
        hand = model.hand
        if hand is None or hand.complete or row.hands_played < model.hand_number:
            return
        table_id, number = row.id, model.hand_number
        text = await self.table.hub.writer.read(
            lambda: self.table.store.hand_record(table_id, number)
        )
        if text is None or self.table.owned or model is not self.table.model:
            return
        try:
            lines = parse_record(text).actions
            if list(lines[: len(hand.actions)]) != [a.line() for a in hand.actions]:
                return
            for line in lines[len(hand.actions) :]:
                model.replay_line(line)
        except Exception:  # the caller rebuilds the table from what is stored
            log.debug("table %s: hand %d's end not shown here", table_id, number)
            return
        self.table.broadcast()

    def _caught_up(self, model: TableModel, row: TableRow, evening: EveningRow) -> bool:
        """A mirror's model of the same hand takes the lines stored since (cheap, no
        replay from the seed); False when it cannot (another hand, a line that does not
        follow): the caller rebuilds it."""
        current, hand = row.current, model.hand
        if current is None or hand is None or model.hand_number != current.number:
            return False
        done = len(hand.actions)
        if done > len(current.lines):
            return False
        try:
            for line, _seat, _id in current.lines[done:]:
                model.replay_line(line)
        except Exception:
            return False
        seating.restore(model, evening)
        version, deadline = self.heard_version
        if version == row.version:
            model.deadline = deadline
        return True
