"""The web page's sign-in: after the API key is entered once at /ui/login, the browser holds a signed,
expiring session in a cookie, never the key itself.

The session is a random id signed with a key derived from the server secret and the API key, so a stolen
cookie expires, a new API key ends every session, and a session signed out is refused until it would have
expired (kept in memory: a restart with a random secret ends all sessions anyway).
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field

from openresearch.api.signing import derive, sign, verify

SESSION_COOKIE = "openresearch_session"
_PURPOSE = "session"


@dataclass
class Sessions:
    secret: bytes
    api_key: str
    ttl_s: float
    revoked: dict[str, int] = field(default_factory=dict)  # session id -> when its cookie expires anyway

    def __post_init__(self) -> None:
        self._key = derive(self.secret, "session\x00" + self.api_key)

    def issue(self, now: float | None = None) -> str:
        """A new session's cookie value."""
        now = time.time() if now is None else now
        return sign(self._key, _PURPOSE, secrets.token_urlsafe(18), int(now + self.ttl_s))

    def session_id(self, cookie: str, now: float | None = None) -> str | None:
        """The id of a valid, unexpired, not signed-out session; None for anything else."""
        sid = verify(self._key, _PURPOSE, cookie, time.time() if now is None else now)
        return None if sid is None or sid in self.revoked else sid

    def revoke(self, cookie: str, now: float | None = None) -> None:
        now = time.time() if now is None else now
        sid = self.session_id(cookie, now)
        if sid is not None:
            self.revoked[sid] = int(cookie.split(".")[1])
        for old in [s for s, exp in self.revoked.items() if exp <= now]:
            del self.revoked[old]
