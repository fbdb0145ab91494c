"""Seat tokens and the checks of names and origins.

A token is 32 random bytes from :mod:`secrets` (256 bits, URL-safe text); only its
SHA-256 hash is stored, and hashes are compared with :func:`hmac.compare_digest`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from collections.abc import Iterable

__all__ = ["check_name", "hash_token", "match_token", "new_token", "origin_allowed"]


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


def check_name(name: str, what: str, longest: int) -> str | None:
    """Why ``name`` is not a good name (None when it is): 1 to ``longest`` characters, at
    least one not white space, no control characters, no leading or trailing white space."""
    if not 1 <= len(name) <= longest:
        return f"{what} must be 1 to {longest} characters, not {len(name)}"
    if not name.strip():
        return f"{what} must hold a character that is not white space"
    if name != name.strip():
        return f"{what} must not start or end with white space"
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") for ch in name):
        return f"{what} must not hold control characters"
    return None


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
