"""One table in play on one server: its state as this process holds it (:class:`TableState`).

Every change follows docs/protocol.md's "Writing comes first": it is checked, then stored in a
transaction of this table's own (the table's version checked in the ``WHERE`` clause:
the fencing check a later lease can build on), and only once that is committed applied
in memory and sent (:mod:`primero.server.owner`). A table's changes are the commands of
its one queue (:mod:`primero.server.actor`), run one at a time in arrival order.

Its driver task (deals, bots, timers, hands starting and ending) never dies silently: an
unexpected error restarts it from what is stored; a table that cannot be resumed, or that
fails over and over, is ``"broken"`` with a ``detail`` in words, and every other table
goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Coroutine
from typing import Any, Protocol

from primero.engine.actions import Action
from primero.engine.errors import PrimeroError
from primero.engine.rules import Rules
from primero.play.tablemodel import TableModel, seat_guide, seat_note, seat_payload
from primero.play.text import TextError, clean
from primero.server import fairproof, seatchange, seating
from primero.server.actor import Command, TableActor
from primero.server.botpool import BotPool
from primero.server.chat import chat_refusal
from primero.server.clock import Clock
from primero.server.refusals import NOTATION, RETRY_WORDS, error_message, in_words
from primero.server.security import match_token
from primero.server.settings import Settings, fixed_test_seed
from primero.server.writer import Writer
from primero.store import Store, TableRow
from primero.store.evening import EveningRow, load_evening

__all__ = ["CHAT_KEPT", "RECENT_IDS", "Connection", "HubLike", "TableState"]

log = logging.getLogger("primero.server")

#: Recently applied action ids kept in memory per seat (older ones: the database).
RECENT_IDS = 64
#: Chat lines a table keeps for the connections that open later (docs/protocol.md).
CHAT_KEPT = 50


class HubLike(Protocol):
    """What a table needs of its server (:class:`primero.server.hub.Hub`); ``rt`` is the
    table (a :class:`primero.server.runtime.TableRuntime`)."""

    settings: Settings
    store: Store
    clock: Clock
    writer: Writer
    bots: BotPool
    steps: asyncio.Semaphore

    def drive(self, rt: Any) -> Coroutine[Any, Any, None]:
        """The driver coroutine of table ``rt`` (:func:`primero.server.driver.run`)."""

    def fence(self, table_id: str) -> bool:
        """Whether this process may write the table now (always, with one process; with
        several, while it surely holds the table's lease). Called in writer threads."""

    def notify(self, rt: Any, version: int) -> None:
        """The table's version moved on (other processes are told, with several)."""

    def relay_chat(self, table_id: str, message: dict[str, Any]) -> None:
        """A chat line for the connections of the other processes (with several)."""

    async def route(self, rt: Any, client: Any, kind: Any, msg: Any, handler: Any) -> None:
        """Run a WebSocket message's handler here or on the table's owner."""


class Connection(Protocol):
    """A client connection: its seat (None: a spectator) and a non-blocking send. A
    WebSocket's (``wsclient.Client``) also says whether it was opened with the host
    token (``host``), an asker's (``request``) or a removed person's (``removed``;
    docs/protocol.md "Private tables"), read with ``getattr``."""

    index: int | None

    def send(self, message: dict[str, Any]) -> None:
        """Queue ``message`` for the client."""


class TableState:
    """One table in this process: its row (as stored), its model once playing, its
    connections, its command queue, its driver task, and what every reader needs (the
    summary, each seat's state, the tokens). It changes only in its commands: what writes
    is :class:`primero.server.owner.TableOwner`, what follows another process's writes
    :class:`primero.server.mirror.TableMirror`.

    Args:
        row: the table as stored.
        hub: the server's tables, store, clock and workers.
    """

    def __init__(self, row: TableRow, hub: HubLike) -> None:
        self.row = row
        self.hub = hub
        self.model: TableModel | None = None
        self.commands = TableActor()  # the one queue of this table's changes
        self.wake = asyncio.Event()
        self.conns: set[Connection] = set()
        self.broken: str | None = row.problem
        self.recent_ids: dict[int, deque[str]] = {}
        self.task: asyncio.Task[None] | None = None
        self.crashes: deque[float] = deque()
        self.touched = hub.clock.now()
        self.evicted = False
        self.stopping = False
        self.decided: tuple[int, Action] | None = None
        # several processes (server/cluster.py): whether this process drives the table
        # (else a read-only mirror rebuilt from the store), and when each seat was last
        # heard of as connected to another process
        self.owned = True
        self.remote_seen: dict[int, float] = {}
        # game night (server/seating.py, host_api.py): host, rebuy, presence, absence
        self.evening = EveningRow()
        self.last_seen: dict[int, float] = {}
        self.last_activity = hub.clock.now()
        self.host_token_once: str | None = None
        self.spectators_seen = 0  # numbers the spectators' chat names ("Spectator 3")
        # between hands (docs/protocol.md "Between hands"): the waits are kept in the
        # evening (``evening.between``), stored with the hand's end
        # the last CHAT_KEPT chat lines, sent to each connection as it opens (in memory:
        # a reload shows them; a server restart forgets them, docs/protocol.md)
        self.chat_lines: deque[dict[str, Any]] = deque(maxlen=CHAT_KEPT)
        if row.current is not None:
            for _line, seat, action_id in row.current.lines:
                if seat is not None and action_id is not None:
                    self.remember(seat, action_id)
        self._summary: dict[str, Any] = self._build_summary()

    # ----------------------------------------------------------------- views

    @property
    def store(self) -> Store:
        """The server's store."""
        return self.hub.store

    @property
    def version(self) -> int:
        """The table's version (grows with every change, never otherwise)."""
        return self.row.version

    @property
    def status(self) -> str:
        """``waiting``, ``playing``, ``over`` or ``broken``."""
        return "broken" if self.broken is not None else self.row.status

    def summary(self) -> dict[str, Any]:
        """The table summary of docs/protocol.md (as last written to the store)."""
        return self._summary

    def _build_summary(self) -> dict[str, Any]:
        row = self.row
        model = self.model
        summary = {
            "id": row.id,
            "name": row.name,
            "status": self.status,
            "detail": self.broken,
            "hands_played": row.hands_played,
            "version": row.version,
            "seats": [
                {
                    "name": s.name,
                    "kind": s.kind,
                    "chips": model.match.chips[s.idx] if model is not None else s.chips,
                }
                for s in row.seats
            ],
            "stack": row.stack,
            "turn_seconds": row.turn_seconds,
            "max_hands": row.max_hands,
            "rules": dict(row.rules),
            "fair": fairproof.summary_fields(row),
        }
        return seating.merge_summary(summary, seating.summary_extras(self))

    @staticmethod
    def retry_message(action_id: str | None) -> dict[str, Any]:
        """The ``error`` for a change the database did not take (``"retry": true``)."""
        return error_message(action_id, RETRY_WORDS, retry=True)

    def refuse_to_retry(self, conn: Connection, action_id: str | None) -> None:
        """A change the database did not take: ``error`` with ``"retry": true``, then the
        unchanged state (docs/protocol.md: a state follows every refused action), so that the
        client shows the same choices again and its buttons come back."""
        conn.send(self.retry_message(action_id))
        conn.send(self.state(conn.index, conn))

    def refresh_summary(self) -> None:
        """Rebuild the summary for what changes without a version (``connected``)."""
        self._summary = self._build_summary()

    def pop_host_token(self) -> str | None:
        """The host token of a table just created (given once, then forgotten)."""
        token, self.host_token_once = self.host_token_once, None
        return token

    def state(self, index: int | None, conn: Connection | None = None) -> dict[str, Any]:
        """The ``state`` message for table ``index`` (None: a spectator), as connection
        ``conn`` reads it (its ``notice``, the host's ``join_requests``: docs/protocol.md
        "Private tables"; None: as any reader of that seat)."""
        model = self.model
        hand, legal = (None, None) if model is None else seat_payload(model, index)
        deadline = None
        if model is not None and model.person_to_act() is not None:
            deadline = model.deadline
        return {
            "type": "state",
            "version": self.row.version,
            "table": self._summary,
            "hand": hand,
            "legal": legal,
            "deadline": deadline,
            "seat_note": None if model is None else seat_note(model, index),
            "guide": seat_guide(model, index),
            **seatchange.viewer_fields(self, conn),
        }

    def seat_of(self, token: str) -> int | None:
        """The seat holding ``token`` (constant-time compare of hashes), or None."""
        return match_token(token, [(s.idx, s.token_hash) for s in self.row.seats])

    def is_host(self, token: str) -> bool:
        """Whether ``token`` is this table's host token (constant-time compare of hashes)."""
        digest = self.evening.host_hash
        return digest is not None and match_token(token, [(0, digest)]) is not None

    def request_of(self, token: str) -> int | None:
        """The join request made with ``token`` (docs/protocol.md "Private tables"), or
        None (constant-time compare of hashes)."""
        return match_token(token, [(r.id, r.token_hash) for r in self.evening.requests])

    def removed_token(self, token: str) -> bool:
        """Whether ``token`` is that of a person the host removed."""
        former = self.evening.former
        k = match_token(token, [(i, f.token_hash) for i, f in enumerate(former)])
        return k is not None and former[k].removed

    def former_seat(self, token: str) -> tuple[int, str] | None:
        """The seat and name a person held with ``token`` before a bot took it (they keep
        access to the hands they were dealt), or None."""
        former = self.evening.former
        k = match_token(token, [(i, f.token_hash) for i, f in enumerate(former)])
        return None if k is None else (former[k].idx, former[k].name)

    # ----------------------------------------------------------------- sending

    def broadcast(self) -> None:
        """Send every connection its state (one build per kind of reader)."""
        cache: dict[tuple[Any, ...], dict[str, Any]] = {}
        for conn in list(self.conns):
            key = (
                conn.index,
                seatchange.is_host_connection(self, conn),
                getattr(conn, "request", None),
                getattr(conn, "removed", False),
            )
            if key not in cache:
                cache[key] = self.state(conn.index, conn)
            conn.send(cache[key])

    def remember(self, seat: int, action_id: str) -> None:
        """Keep ``action_id`` among the seat's recent applied ids."""
        ids = self.recent_ids.setdefault(seat, deque(maxlen=RECENT_IDS))
        ids.append(action_id)

    # ----------------------------------------------------------------- chat

    def chat(self, conn: Connection, text: str) -> None:
        """Send a chat line from the connection's seat, or from a spectator (docs/protocol.md:
        spectators and the host may chat), to everyone at the table. A spectator's line
        is ``from`` its watcher name (``"Spectator 3"``, ``"Host"``) with ``"spectator":
        true``, so that no spectator passes for a seat. The text rules apply to both."""
        try:
            text = clean(text, "a chat line")
        except TextError as exc:
            conn.send(error_message(None, str(exc)))
            return
        if not text.strip():
            conn.send(
                error_message(None, "a chat line must hold a character that is not white space")
            )
            return
        watcher = getattr(conn, "watcher", None)
        refused = chat_refusal(
            self,
            conn,
            spectator=conn.index is None,
            host=watcher == "Host",
            open_=self.evening.spectator_chat,
            clock=self.hub.settings.rate_clock,
        )
        if refused is not None:  # docs/protocol.md: chat is bounded per table
            if refused:  # else told less than a second ago: dropped in silence
                conn.send(error_message(None, refused))
            return
        line: dict[str, Any] = {"type": "chat", "from": "", "text": text}
        if conn.index is None:
            line["from"] = getattr(conn, "watcher", None) or "Spectator"
            line["spectator"] = True
        else:
            line["from"] = self.row.seats[conn.index].name
        self.deliver_chat(line)

    def chat_history(self) -> dict[str, Any]:
        """The ``chat_history`` message: the last :data:`CHAT_KEPT` chat lines this process
        sent or relayed, oldest first."""
        return {"type": "chat_history", "lines": list(self.chat_lines)}

    def deliver_chat(self, message: dict[str, Any], *, relay: bool = True) -> None:
        """Send a chat line to this process's connections (and, with ``relay``, to the
        other processes' through the hub); it is kept among the table's last lines."""
        self.chat_lines.append(message)
        for c in list(self.conns):
            c.send(message)
        if relay:
            self.hub.relay_chat(self.row.id, message)

    # ----------------------------------------------------------------- the driver

    def start(self) -> None:
        """Start (or resume) the match's driver task; the model is built (or replayed
        from the store) in a thread, off the event loop."""
        self.stopping = False
        if self.task is None and self.broken is None:
            self.task = asyncio.get_running_loop().create_task(self.hub.drive(self))

    def _new_model(self, row: TableRow, evening: EveningRow) -> TableModel:
        model = TableModel(
            [s.name or "" for s in row.seats],
            # a seat a removal opened during the match is a left person's (docs/protocol.md)
            [None if s.kind in ("person", "open") else s.kind for s in row.seats],
            stack=row.stack,
            rules=Rules.from_mapping(row.rules),
            max_hands=row.max_hands,
            turn_seconds=row.turn_seconds or None,
            seed=fixed_test_seed(),
            rebuy=evening.rebuy,
            friendly_bots=True,  # bots bet as people at a friendly table
        )
        seating.restore(model, evening)
        return model

    def resumed_model(
        self, now: float, row: TableRow | None = None, evening: EveningRow | None = None
    ) -> TableModel:
        """The match rebuilt from a stored row (None: this runtime's): chips, hands
        played, the dealer, and the hand in progress replayed from its seed and lines
        (the same cards to come). Pure: nothing of this runtime changes.

        Raises:
            Exception: the row does not make a game, or its lines do not replay.
        """
        row = self.row if row is None else row
        model = self._new_model(row, self.evening if evening is None else evening)
        model.match.chips[:] = [s.chips for s in row.seats]
        model.match.hands_played = row.hands_played
        model.match.dealer_index = row.dealer_index
        current = row.current
        if current is not None:
            model.start_hand(current.seed, dealt=current.seats)
            if current.client_seeds is not None and row.server_seed is not None:
                fairproof.install_dealer(model, row, current.client_seeds, current.number)
            for line, _seat, _id in current.lines:
                model.replay_line(line)
            model.refresh_deadline(now)  # a restart gives the person a fresh deadline
        return model

    async def resume(self) -> bool:
        """Build the model, or replay it from the stored row, in a thread (off the event
        loop). A row that does not replay makes the table ``"broken"`` (False)."""
        try:
            model = await asyncio.to_thread(self.resumed_model, self.hub.clock.now())
        except Exception as exc:
            log.error("table %s cannot be resumed: %s: %s", self.row.id, type(exc).__name__, exc)
            self.mark_broken(f"the stored table cannot be resumed: {in_words(exc)}")
            return False
        self.model = model
        self._summary = self._build_summary()
        self.broadcast()  # whoever was sent nothing while it was read back
        return True

    def mark_broken(self, detail: str) -> None:
        """The table cannot go on: ``"broken"`` with ``detail`` in words (record
        notation in it is replaced, see :func:`in_words`; kept in memory; a restart of
        the server tries it again)."""
        log.error("table %s is broken: %s", self.row.id, detail)
        if NOTATION.search(detail):
            detail = "it could not go on: " + in_words(PrimeroError(detail))
        self.broken = detail
        self._summary = self._build_summary()
        self.broadcast()

    async def reload(self) -> None:
        """Read the table back from the store (the truth); the driver replays it; waits
        while the database cannot be reached."""
        row, evening = await self.stored()
        self.row, self.evening = row, evening
        self.model = None  # the driver replays it
        self.decided = None

    async def stored(self) -> tuple[TableRow, EveningRow]:
        """The table as stored now (its row and its evening), read in one go; nothing
        of this runtime changes (a caller swaps them in at once, so that no state is
        ever built from a new row and an old model). Waits while the database cannot
        be reached.

        Raises:
            RuntimeError: the table is not in the store any more.
        """
        store, table_id, delay = self.store, self.row.id, 0.1
        while True:
            try:
                rows, evening = await self.hub.writer.read(lambda: _read(store, table_id))
                break
            except Exception:
                await asyncio.sleep(delay)
                delay = min(1.0, 2 * delay)
        if not rows:
            raise RuntimeError(f"table {table_id} is not in the store any more")
        return rows[0], evening.get(table_id, EveningRow())

    # ----------------------------------------------------------------- memory

    def idle(self, now: float, seconds: float) -> bool:
        """Whether the table may leave memory: nobody connected for ``seconds``, and it
        is over, or waits for a person with no timer running."""
        model = self.model
        if self.conns or self.evicted or self.broken is not None or now - self.touched < seconds:
            return False
        if self.row.status == "over":
            return True
        return (
            model is not None
            and model.hand is not None
            and model.person_to_act() is not None
            and model.deadline is None
        )

    async def evict(self) -> None:
        """Leave memory (the store keeps everything); :meth:`Hub.touch` reads it back."""
        await self.stop()
        async with self.commands.command(Command.READ):
            self.model = None
            self.row.current = None
            self.recent_ids.clear()
            self.evicted = True

    def restart_soon(self) -> None:
        """Stop the driver and start it again from what is stored (a version conflict)."""
        task = self.task
        if task is not None:
            task.cancel()
            self.task = None

            async def restart() -> None:
                async with self.commands.command(Command.READ):
                    await self.reload()
                self.start()

            asyncio.get_running_loop().create_task(restart())

    async def stop(self) -> None:
        """Stop the driver task (the hand in progress stays kept as far as it went)."""
        task, self.task = self.task, None
        self.stopping = True  # Python 3.11's wait_for can swallow a cancel: the driver
        self.wake.set()
        if task is not None:  # also looks at this flag before each step
            task.cancel()
            with contextlib.suppress(BaseException):  # cancelled, or it had stopped
                await task


def _read(store: Store, table_id: str) -> tuple[list[TableRow], dict[str, EveningRow]]:
    """A table's row and its evening, from one snapshot of the store."""
    with store.snapshot() as conn:
        return store.load(table_id, conn), load_evening(conn, table_id)
