"""Seat tokens, origins, the ``Host`` check and the log filter that hides tokens.

A token is 32 random bytes from :mod:`secrets` (256 bits, URL-safe text); only its
SHA-256 hash is stored, and hashes are compared with :func:`hmac.compare_digest`. A token
is read only from the WebSocket's literal query key ``token`` (:func:`query_token`) or a
REST request's ``Authorization: Bearer`` header (:func:`bearer_token`), never written to a
log (:class:`RedactTokens`). (The names' rules are in :mod:`primero.play.text`.)
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import unquote, unquote_plus

__all__ = [
    "HostCheck",
    "RedactTokens",
    "bearer_token",
    "hash_token",
    "host_allowed",
    "log_config",
    "match_token",
    "new_token",
    "origin_allowed",
    "query_token",
    "redact",
]


def new_token() -> tuple[str, str]:
    """A fresh seat token and its hash: ``(token, sha256 hex)``."""
    token = secrets.token_urlsafe(32)
    return token, hash_token(token)


def hash_token(token: str) -> str:
    """The SHA-256 hex digest of ``token``."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def match_token(token: str, hashes: Iterable[tuple[int, str | None]]) -> int | None:
    """The seat whose stored hash matches ``token`` (constant-time compare), or None."""
    digest = hash_token(token)
    found: int | None = None
    for seat, stored in hashes:
        if stored is not None and hmac.compare_digest(digest, stored) and found is None:
            found = seat
    return found


def origin_allowed(
    origin: str | None, scheme: str, host: str | None, allowed: Iterable[str]
) -> bool:
    """Whether a WebSocket handshake's ``Origin`` is accepted: absent (not a browser), the
    request's own ``scheme://host`` (``ws`` as ``http``, ``wss`` as ``https``), or one of
    ``allowed``."""
    if origin is None:
        return True
    own = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    origin = origin.rstrip("/").lower()
    if host is not None and origin == f"{own}://{host}".lower():
        return True
    return any(origin == a.rstrip("/").lower() for a in allowed)


# --------------------------------------------------------------------------- tokens in


def query_token(query_string: bytes | str) -> str | None:
    """The token of a WebSocket URL: the value of the literal query key ``token`` (its
    value percent-decoded), or None. A key that only decodes to ``token`` (``tok%65n``)
    is not it.

    >>> query_token(b"token=abc%2Dd")
    'abc-d'
    >>> query_token(b"tok%65n=abc") is None
    True
    """
    raw = query_string.decode("latin-1") if isinstance(query_string, bytes) else query_string
    for part in raw.split("&"):
        key, sep, value = part.partition("=")
        if key == "token" and sep:
            return unquote(value)
    return None


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (scheme case-insensitive),
    or None (no header, another scheme, no token).

    >>> bearer_token("bearer abc")
    'abc'
    >>> bearer_token("Basic abc") is None
    True
    """
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        return None
    return token


# --------------------------------------------------------------------------- Host


#: Host names always accepted (with any port).
LOCAL_HOSTS = frozenset({"localhost", "127.0.0.1", "[::1]"})
_ANY_ADDRESS = frozenset({"0.0.0.0", "::", "[::]", ""})


def _host_name(host: str) -> str:
    """``host`` without its port, lower case (``[::1]:8000`` -> ``[::1]``)."""
    host = host.strip().lower()
    if host.startswith("["):
        end = host.find("]")
        return host[: end + 1] if end >= 0 else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def host_allowed(host: str | None, listen: str, allowed: Iterable[str]) -> bool:
    """Whether a request's ``Host`` header is accepted (docs/protocol.md, DNS rebinding): it
    names (port ignored) the listening address ``listen``, ``localhost``, ``127.0.0.1``,
    ``[::1]`` or one of ``allowed``; with ``listen`` ``0.0.0.0`` (or ``::``) and nothing
    ``allowed``, any host. A missing ``Host`` is refused.

    >>> host_allowed("localhost:8000", "127.0.0.1", [])
    True
    >>> host_allowed("evil.example", "127.0.0.1", [])
    False
    >>> host_allowed("evil.example", "0.0.0.0", [])
    True
    """
    names = {_host_name(a) for a in allowed}
    if listen in _ANY_ADDRESS and not names:
        return True
    if host is None:
        return False
    listen_name = f"[{listen}]" if ":" in listen and not listen.startswith("[") else listen
    name = _host_name(host)
    return name in LOCAL_HOSTS or name == listen_name.lower() or name in names


Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]


class HostCheck:
    """ASGI middleware: a request or WebSocket handshake whose ``Host`` is not accepted
    by :func:`host_allowed` is answered ``400`` with ``{"detail": ...}`` (a WebSocket
    handshake is refused the same way, before it is accepted).

    Args:
        app: the application.
        listen: the listening address (``--host``).
        allowed: extra host names (``--allow-host``).
    """

    def __init__(
        self,
        app: Callable[[Scope, Receive, Send], Awaitable[None]],
        listen: str,
        allowed: Iterable[str],
    ) -> None:
        self.app = app
        self.listen = listen
        self.allowed = tuple(allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Check ``Host``, then hand the request on (or answer ``400``)."""
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        hosts = [v.decode("latin-1") for k, v in scope.get("headers", ()) if k == b"host"]
        refused = [h for h in hosts or [None] if not host_allowed(h, self.listen, self.allowed)]
        if not refused:  # every Host given names this server
            await self.app(scope, receive, send)
            return
        host = refused[0]
        shown = (host or "")[:80]
        body = json.dumps(
            {"detail": f"the Host {shown!r} is not served here: use the server's own address"}
        ).encode()
        prefix = "http" if scope["type"] == "http" else "websocket.http"
        start, part = f"{prefix}.response.start", f"{prefix}.response.body"
        if scope["type"] == "websocket":
            await receive()  # websocket.connect
            if "websocket.http.response" not in scope.get("extensions", {}):
                await send({"type": "websocket.close", "code": 1008})
                return
        await send(
            {
                "type": start,
                "status": 400,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": part, "body": body})


# --------------------------------------------------------------------------- logs


_BEARER = re.compile(r"(?i)(bearer\s+)[^\s\"',;]+")
_QUERY_PART = re.compile(r"([?&;])([^=&\s\"'#]*)=([^&\s\"'#]*)")
_LONG_RUN = re.compile(r"[A-Za-z0-9_\-]{32,}")
_SECRET_KEY = re.compile(r"(?i)tok|auth|key|secret|pass|sig|host|session|code")
HIDDEN = "<hidden>"


def _query_part(match: re.Match[str]) -> str:
    lead, key, value = match.groups()
    decoded = unquote_plus(key)
    if _SECRET_KEY.search(decoded) or _LONG_RUN.search(unquote_plus(value)):
        return f"{lead}{key}={HIDDEN}"
    return match.group(0)


def redact(text: str) -> str:
    """``text`` with anything that could be a token replaced by ``<hidden>``: the value of
    a query parameter whose name (percent-decoded: ``tok%65n`` is ``token``) speaks of a
    token, key, secret or host, or whose value holds a long random-looking run; what
    follows ``Bearer``; and any run of 32 or more URL-safe characters.

    >>> redact("GET /ws/tables/ab?tok%65n=s3cr3t HTTP/1.1")
    'GET /ws/tables/ab?tok%65n=<hidden> HTTP/1.1'
    """
    text = _QUERY_PART.sub(_query_part, text)
    text = _BEARER.sub(lambda m: m.group(1) + HIDDEN, text)
    return _LONG_RUN.sub(HIDDEN, text)


def log_config() -> dict[str, Any]:
    """uvicorn's logging set-up with :class:`RedactTokens` on every handler, and the
    ``primero`` loggers writing through the same handler (so through the filter)."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = json.loads(json.dumps(LOGGING_CONFIG))
    config["filters"] = {"redact": {"()": "primero.server.security.RedactTokens"}}
    for handler in config["handlers"].values():
        handler["filters"] = ["redact"]
    config["loggers"]["primero"] = {"handlers": ["default"], "level": "INFO", "propagate": False}
    config["root"] = {"handlers": ["default"], "level": "WARNING"}
    return config


class RedactTokens(logging.Filter):
    """A filter for every log handler of the server (uvicorn's access and error logs,
    primero's own): each record's message, and its traceback, pass through
    :func:`redact`, so that no token is ever written to a log. It keeps every record."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Redact the record in place (its message and each of its arguments, which
        uvicorn's access formatter reads one by one); always keep it."""
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(a) if isinstance(a, str) else a for a in record.args)
        elif isinstance(record.args, dict):
            record.args = {
                k: redact(v) if isinstance(v, str) else v for k, v in record.args.items()
            }
        try:
            message = record.getMessage()
        except (TypeError, ValueError):  # a malformed record: keep it as it is
            message = ""
        cleaned = redact(message)
        if cleaned != message and record.name != "uvicorn.access":  # whole once formatted
            record.msg = cleaned
            record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        return True
