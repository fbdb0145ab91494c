"""A table's driver task (:meth:`TableRuntime.start`): deals, bots, timers, hands starting
and ending, each change checked, stored, then applied and sent (docs/protocol.md,
"Writing comes first").

The driver never dies silently: a write the database did not take is tried again after
0.1, 0.2, 0.4, 0.8, then every :data:`RETRY_MAX` seconds (nothing changed meanwhile); a
write the database keeps refusing, or an unexpected error, restarts the driver from what
is stored; a driver that stops :data:`CRASH_LIMIT` times within :data:`CRASH_WINDOW`
seconds leaves its table ``"broken"``. Every other table goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from primero.engine.errors import PrimeroError
from primero.engine.history import dump_record
from primero.engine.match import Agent
from primero.engine.views import SeatView
from primero.play.tablemodel import least_committal
from primero.server import fairproof, seatchange, seating
from primero.server.actor import Command
from primero.server.settings import fixed_test_seed
from primero.server.writer import Write, WriteFailed
from primero.store import StaleVersion
from primero.store.evening import Between

if TYPE_CHECKING:
    from primero.server.runtime import TableRuntime

__all__ = ["CRASH_LIMIT", "CRASH_WINDOW", "REFUSED_LIMIT", "RETRY_MAX", "run"]

log = logging.getLogger("primero.server")

#: Seconds between a driver's tries of a write that failed (doubling up to this).
RETRY_MAX = 1.0
#: A driver that stops this many times within :data:`CRASH_WINDOW` seconds: "broken".
CRASH_LIMIT = 4
CRASH_WINDOW = 60.0
#: Seconds a held (paused) table waits before it looks again, unless woken sooner.
HOLD_LOOK = 5.0
#: Tries of a write the database refused (not one it could not take) before the driver
#: restarts from what is stored.
REFUSED_LIMIT = 3


async def run(rt: TableRuntime) -> None:
    """The driver: build or replay the model, then step the match until it is over;
    a failed write is tried again, anything else restarts it from the store."""
    backoff = 0.0
    refused = 0
    while not rt.stopping:
        try:
            if rt.model is None and not await rt.resume():
                return
            if not await tick(rt):
                return
            backoff, refused = 0.0, 0
        except asyncio.CancelledError:
            raise
        except StaleVersion:  # another process wrote first (a lease that ran out): reread
            async with rt.commands.command(Command.READ):
                await rt.reload()
        except WriteFailed as exc:  # nothing changed: try again shortly
            refused = 0 if exc.transient else refused + 1
            backoff = min(RETRY_MAX, max(0.1, 2 * backoff))
            if refused >= REFUSED_LIMIT:
                if not await crashed(rt, f"the database refused a write: {exc}"):
                    return
                refused = 0
            await asyncio.sleep(backoff)
        except Exception as exc:
            log.exception("table %s: its driver stopped; it starts again", rt.row.id)
            if not await crashed(rt, f"{type(exc).__name__}: {exc}"):
                return


async def crashed(rt: TableRuntime, reason: str) -> bool:
    """Restart from the store after an error (False: the table is now broken)."""
    now = time.monotonic()
    rt.crashes.append(now)
    while rt.crashes and rt.crashes[0] < now - CRASH_WINDOW:
        rt.crashes.popleft()
    if rt.model is None or len(rt.crashes) >= CRASH_LIMIT:
        rt.mark_broken(f"it could not go on ({reason})")
        return False
    async with rt.commands.command(Command.READ):
        await rt.reload()
    return True


async def tick(rt: TableRuntime) -> bool:
    """One step of the match; False when it is over.

    Raises:
        WriteFailed: a write did not reach the database (nothing changed).
    """
    model = rt.model
    assert model is not None
    pause = rt.hub.settings.bot_pause
    rt.wake.clear()
    between: float | None = None
    async with rt.commands.command(Command.HAND):
        hand = model.hand
        if hand is None or model.match.hand is None:  # no hand open: start one
            if rt.evening.removals and await seatchange.due_removals(rt):
                return True  # the host's removals asked during the last hand, made first
            if model.over:
                seating.close_between(rt)
                await end(rt)
                return False
            if seating.held(rt) is None:
                # docs/protocol.md "Between hands": the result stays, the rebuy window
                between = seating.next_hand_at(rt)
                if between is None or rt.hub.clock.now() >= between:
                    await start_hand(rt)  # stored with the waits dropped, then taken in
                    return True
                held, closed = True, False
            else:  # the host's pause drops the waits; too few players keeps the window
                await hold(rt)  # paused by the host or the players
                held, closed = True, False
        else:
            held, closed = False, hand.complete
        if held:
            pass
        elif closed:
            await finish(rt)
        else:
            due = model.due()
            version = rt.row.version
    if between is not None:  # a rebuy, a no_rebuy, a leave, the host's pause or end wake it
        await rt.hub.clock.wait(rt.wake, between)
        return True
    if held:  # a sit-in, a rebuy, the host's resume or end wakes it
        await rt.hub.clock.wait(rt.wake, rt.hub.clock.now() + HOLD_LOOK)
        return True
    if closed:
        if pause > 0 and not seating.person_seated(rt):
            await asyncio.sleep(pause)  # bots alone: the finished hand stays --bot-pause
        return True
    if due is None:  # a person is to act
        if not await rt.hub.clock.wait(rt.wake, model.deadline):
            await time_out(rt)
        return True
    agent, v = due
    if pause > 0 and agent is not None:
        await asyncio.sleep(pause)
    # A table a person is connected to steps at once; the others take turns, a few
    # at a time, so that people's frames stay prompt however many bots play.
    turn = contextlib.nullcontext() if person_here(rt) else rt.hub.steps
    async with turn:
        if agent is None:
            async with rt.commands.command(Command.DEAL):
                await deal(rt)
        else:
            await bot_move(rt, agent, v, version)
    return True


def person_here(rt: TableRuntime) -> bool:
    """A person is connected to the table: here, or (several processes) to another
    process in the last 10 s."""
    if any(c.index is not None for c in rt.conns):
        return True
    now = rt.hub.clock.now()
    return any(now - t < 10 for t in rt.remote_seen.values())


async def end(rt: TableRuntime) -> None:
    if rt.row.status == "over":
        return
    table_id, store = rt.row.id, rt.store
    new = await rt.owner.store_change(
        lambda e, n: lambda conn: store.set_status(conn, table_id, "over", e, n)
    )
    rt.row.status = "over"
    rt.owner.publish(new)


async def hold(rt: TableRuntime) -> None:
    """No hand may start (docs/protocol.md "Status, as a table goes"): the table is
    ``paused`` (by the host, or by the players when fewer than two seats can be dealt
    in), stored first."""
    if rt.row.status == "paused":
        return
    table_id, store = rt.row.id, rt.store
    new = await rt.owner.store_change(
        lambda e, n: lambda conn: store.set_status(conn, table_id, "paused", e, n)
    )
    rt.row.status = "paused"
    rt.owner.publish(new)


async def start_hand(rt: TableRuntime) -> None:
    model = rt.model
    assert model is not None
    fixed = fixed_test_seed()
    seed = secrets.randbits(63) if fixed is None else fixed + model.match.hands_played
    table_id, number, store = rt.row.id, model.match.hands_played + 1, rt.store
    dealt = model.match.dealt_in()  # kept: who sits out may change during the hand
    # docs/fair-deals.md: the seeds of the hand are stored before its first card
    seeds = fairproof.client_seeds(rt.row) if fairproof.is_fair(rt.row) else None
    no_wait = seating.between_write(table_id, Between())  # the waits are over

    def build(e: int, n: int) -> Write:
        def write(conn: Any) -> None:
            store.start_hand(
                conn,
                table_id,
                number,
                seed,
                e,
                n,
                status="playing",
                dealt=dealt,
                client_seeds=seeds,
            )
            no_wait(conn)

        return write

    new = await rt.owner.store_change(build)
    rt.row.status = "playing"  # a paused table plays again
    seating.close_between(rt)
    model.turn_seconds = rt.row.turn_seconds or None  # the host's PATCH, from this hand
    model.start_hand(seed, now=rt.hub.clock.now(), dealt=dealt)
    if seeds is not None:
        fairproof.install_dealer(model, rt.row, seeds, number)
    rt.recent_ids.clear()
    rt.owner.publish(new)


async def deal(rt: TableRuntime) -> None:
    """The dealer's deal: drawn from a draft of the dealer, stored, then the draft kept
    and the deal applied; a failed write keeps the old dealer, so the seed's cards
    still come in order (R10)."""
    model = rt.model
    assert model is not None and model.hand is not None
    draft = model.match.dealer.draft()
    action = draft.deal(model.hand)
    new = await rt.owner.store_change(rt.owner.line_write(model, action, None, None))
    model.match.dealer = draft
    model.apply(action, now=rt.hub.clock.now())
    rt.owner.publish(new)


async def bot_move(rt: TableRuntime, agent: Agent, v: SeatView, version: int) -> None:
    """A bot's move: decided in a worker process (once per version: a failed write
    tries the same move again), checked, stored, applied."""
    model = rt.model
    assert model is not None
    index = model.to_act_index()
    if rt.decided is not None and rt.decided[0] == version:
        action = rt.decided[1]
    elif agent is least_committal:  # a person who left, or away with no timer
        action = least_committal(v)
        rt.decided = (version, action)
    else:
        try:
            action, after = await rt.hub.bots.decide(agent, v)
            if index is not None and model.agents[index] is not None:
                agents = list(model.agents)
                agents[index] = after
                model.agents = tuple(agents)
        except BrokenProcessPool:
            await asyncio.sleep(0.05)  # another table's stuck bot: the workers restart
            return
        except Exception as exc:  # a bug in the bot, or too slow: the timer's move
            log.warning(
                "table %s: a bot failed (%r); it makes the least committal move", rt.row.id, exc
            )
            action = least_committal(v)
        rt.decided = (version, action)
    async with rt.commands.command(Command.BOT):
        if rt.row.version != version or model is not rt.model:
            return  # the table moved on meanwhile: look again
        assert model.hand is not None
        try:
            model.hand.check(action)
        except PrimeroError:
            log.warning("table %s: a bot's move was illegal; least committal instead", rt.row.id)
            action = least_committal(v)
            rt.decided = (version, action)
        new = await rt.owner.store_change(rt.owner.line_write(model, action, None, None))
        model.apply(action, now=rt.hub.clock.now())
        rt.decided = None
        rt.owner.publish(new)


async def time_out(rt: TableRuntime) -> None:
    async with rt.commands.command(Command.TIMER):
        model = rt.model
        assert model is not None
        index = model.person_to_act()
        if index is None or not model.timed_out(rt.hub.clock.now()):
            return
        action = model.timeout_action()
        new = await rt.owner.store_change(
            rt.owner.line_write(model, action, index, None), urgent=True
        )
        model.time_out(now=rt.hub.clock.now())  # the same move, counted (protocol: "Presence")
        rt.owner.publish(new)


async def finish(rt: TableRuntime) -> None:
    """Close the complete hand: computed on a draft of the match (chips, the deal passed
    right, leaving seats leave, absent people sit out, rebuys made; the match itself is
    not touched), stored, and only then the draft becomes the match. A failed write
    leaves everything as it was: nothing to put back."""
    model = rt.model
    assert model is not None
    broke_before = {i for i, c in enumerate(model.match.chips) if c == 0}
    drafted = seating.draft(model.match)
    drafted.records = []  # its own (the server keeps no finished hand in memory)
    record = replace(drafted.finish_hand(), seed=model.hand_seed)
    record.extra["table"] = rt.row.id
    record.extra["hand_number"] = drafted.hands_played
    proof = fairproof.record_proof(rt.row, model, drafted.hands_played)  # the dealer: shared
    if proof is not None:  # docs/record-format.md: revealed when read after the match
        record.extra["fair"] = proof
    text = dump_record(record)
    chips = list(drafted.chips)
    status = "over" if drafted.over else rt.row.status
    table_id, number, dealer = rt.row.id, drafted.hands_played, drafted.dealer_index
    store = rt.store
    kept = seating.presence_write(rt, drafted)
    # docs/protocol.md "Between hands": the result stays, the rebuy window; kept with the
    # hand's end as deadlines, so that a restart waits what is left of them
    between = seating.between_after(rt, drafted, broke_before, status, rt.hub.clock.now())
    waits = seating.between_write(table_id, between)

    def build(e: int, n: int) -> Write:
        def write(conn: Any) -> None:
            store.finish_hand(conn, table_id, number, text, chips, dealer, status, e, n)
            kept(conn)
            waits(conn)

        return write

    new = await rt.owner.store_change(build)
    drafted.records = []
    model.match, model.deadline = drafted, None  # stored: the draft is the match now
    rt.row.hands_played = number
    rt.row.dealer_index = dealer
    for seat, c in zip(rt.row.seats, chips, strict=True):
        seat.chips = c
    rt.row.status = status
    rt.evening.between = between  # the result stays
    rt.owner.publish(new)
