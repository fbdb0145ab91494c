"""The server's doors: limits on TCP connections that uvicorn itself does not have.

uvicorn has no per-address cap and no deadline for a request head (its keep-alive timeout
only runs between requests and restarts at every byte received), so a stranger sending
half a request head on 1,100 connections held 1,100 file descriptors for ever. These
subclasses of uvicorn's own protocols (httptools for HTTP, websockets for WebSocket, the
ones ``uvicorn[standard]`` picks) add, per connection:

- **a cap per client address**: at most :attr:`Doors.per_address` connections open from
  one address (HTTP and WebSocket alike); the next is closed at once (one log line per
  address until its connections have all closed). Addresses of ``--forwarded-allow-ips``
  (a reverse proxy speaking for many people) are not capped.
- **a cap on all connections**: :attr:`Doors.total`, below the process's file descriptor
  limit, so that the database, Redis and the bot workers always have descriptors left
  (one log line each time the cap is reached).
- **a deadline for a request head**: :attr:`Doors.head_seconds` from the connection's
  start, or from the end of the previous response on a kept-alive connection, to the end
  of the request's headers; past it the connection is closed. A WebSocket is past its head
  once upgraded (websockets' own ping and ``open_timeout`` take over).

And a WebSocket text frame that is not UTF-8 closes its connection with 1007 and one log
line (uvicorn logs a traceback for it).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
from dataclasses import dataclass, field

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["Doors", "protocols"]

log = logging.getLogger("primero.server.doors")

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(forwarded_allow_ips: str | None) -> tuple[Network, ...]:
    """The networks of ``--forwarded-allow-ips`` (``*``: every address; a name or a
    socket path that is no address is ignored)."""
    if not forwarded_allow_ips:
        return ()
    found: list[Network] = []
    for item in forwarded_allow_ips.split(","):
        item = item.strip()
        if item == "*":
            return (ipaddress.ip_network("0.0.0.0/0"), ipaddress.ip_network("::/0"))
        try:
            found.append(ipaddress.ip_network(item, strict=False))
        except ValueError:
            continue
    return tuple(found)


@dataclass(eq=False)
class Doors:
    """The connection limits of one server and the connections it counts.

    Attributes:
        per_address: connections one client address may hold open (0: no cap).
        total: connections the process holds open at most (0: no cap).
        head_seconds: seconds a request head may take to arrive (0: no deadline).
        trusted: addresses that are not capped per address (reverse proxies).
    """

    per_address: int = 64
    total: int = 0
    head_seconds: float = 10.0
    trusted: tuple[Network, ...] = ()
    _by_address: dict[str, int] = field(default_factory=dict)
    _open: dict[asyncio.BaseTransport, str] = field(default_factory=dict)
    _warned: set[str] = field(default_factory=set)
    _full_warned: bool = False

    def count(self, address: str) -> int:
        """Connections open from ``address``."""
        return self._by_address.get(address, 0)

    def _is_trusted(self, address: str) -> bool:
        if not self.trusted:
            return False
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in net for net in self.trusted)

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection; False (and one log line) when a cap refuses it."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if self.total and len(self._open) >= self.total:
            if not self._full_warned:
                self._full_warned = True
                log.warning(
                    "%d connections are open, the most this server takes: new connections "
                    "are refused until some close",
                    len(self._open),
                )
            return False
        here = self._by_address.get(address, 0)
        if self.per_address and here >= self.per_address and not self._is_trusted(address):
            if address not in self._warned:
                self._warned.add(address)
                log.warning(
                    "%s has %d connections open, the most one address may hold: its new "
                    "connections are refused until some close",
                    address,
                    here,
                )
            return False
        self._by_address[address] = here + 1
        self._open[transport] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Forget a closed connection (once; a connection never admitted is ignored)."""
        address = self._open.pop(transport, None)
        if address is None:
            return
        left = self._by_address[address] - 1
        if left:
            self._by_address[address] = left
        else:
            del self._by_address[address]
            self._warned.discard(address)
        if self.total and len(self._open) < self.total * 9 // 10:
            self._full_warned = False


def protocols(doors: Doors) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP and WebSocket protocol classes under ``doors``: pass them as
    ``uvicorn.Config(http=..., ws=...)``."""

    class GuardedHttp(HttpToolsProtocol):
        _refused = False
        _head: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            if not doors.admit(transport):
                self._refused = True
                transport.abort()
                return
            super().connection_made(transport)
            self._arm()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:
                return
            self._disarm()
            doors.release(self.transport)
            super().connection_lost(exc)

        def _arm(self) -> None:
            self._disarm()
            if doors.head_seconds > 0:
                self._head = self.loop.call_later(doors.head_seconds, self._late)

        def _disarm(self) -> None:
            if self._head is not None:
                self._head.cancel()
                self._head = None

        def _late(self) -> None:
            self._head = None
            if not self.transport.is_closing():
                self.transport.close()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            # idle again (nothing pipelined): the next head has the same deadline
            if self.timeout_keep_alive_task is not None:
                self._arm()

    class GuardedWebSocket(WebSocketsSansIOProtocol):
        _door: asyncio.BaseTransport | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            self._door = transport  # counted when it came in as HTTP
            super().connection_made(transport)

        def connection_lost(self, exc: Exception | None) -> None:
            if self._door is not None:
                doors.release(self._door)
            super().connection_lost(exc)

        def send_receive_event_to_app(self) -> None:
            if self.curr_msg_data_type == "text" and not self.close_sent:
                try:
                    b"".join(self.frames).decode()
                except UnicodeDecodeError:
                    self.frames = []
                    log.info(
                        "a WebSocket connection from %s sent a text frame that is not UTF-8: "
                        "closed (1007)",
                        self.client[0] if self.client else "?",
                    )
                    self.conn.send_close(1007, "a text frame must be UTF-8")
                    self.handle_parser_exception()
                    return
            super().send_receive_event_to_app()

    return GuardedHttp, GuardedWebSocket
