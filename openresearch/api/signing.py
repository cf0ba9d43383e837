"""Signed, expiring tokens (HMAC-SHA256, stdlib only): the web page's sign-in session and its form tokens.

A token is `<payload>.<expiry>.<mac>`; the MAC covers a purpose, the payload, the expiry and any `bound`
values the token does not carry (a form token is bound to the browser's nonce cookie and session), so a token
made for one purpose, one browser or one session verifies for no other. Pure: the clock is an argument.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re

_PART = re.compile(r"[A-Za-z0-9_-]{0,200}")


def _mac(key: bytes, purpose: str, payload: str, expires: int, bound: tuple[str, ...]) -> str:
    msg = "\x00".join((purpose, payload, str(expires), *bound)).encode()
    return base64.urlsafe_b64encode(hmac.new(key, msg, hashlib.sha256).digest()).rstrip(b"=").decode()


def derive(secret: bytes, label: str) -> bytes:
    """A key of its own for one use of the server secret."""
    return hmac.new(secret, label.encode(), hashlib.sha256).digest()


def sign(key: bytes, purpose: str, payload: str, expires: int, *bound: str) -> str:
    """`payload` (url-safe characters only) signed until `expires` (unix seconds)."""
    if not _PART.fullmatch(payload):
        raise ValueError("a token payload is url-safe base64 characters")
    return f"{payload}.{expires}.{_mac(key, purpose, payload, expires, bound)}"


def verify(key: bytes, purpose: str, token: str, now: float, *bound: str) -> str | None:
    """The payload of a token this key signed for `purpose` and `bound`, unexpired at `now`; else None."""
    parts = token.split(".")
    if len(parts) != 3 or not _PART.fullmatch(parts[0]) or not parts[1].isdigit() or len(parts[1]) > 12:
        return None
    payload, expires = parts[0], int(parts[1])
    if expires <= now:
        return None
    good = _mac(key, purpose, payload, expires, bound)
    return payload if hmac.compare_digest(good.encode(), parts[2].encode()) else None
