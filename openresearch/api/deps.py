"""What handlers depend on: the shared services held by the app, the page size and the API key check."""

from __future__ import annotations

import ipaddress
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any

from fastapi import Depends, HTTPException, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from openresearch.api.cache import VersionedCache
from openresearch.api.session import SESSION_COOKIE, Sessions
from openresearch.config import Settings
from openresearch.errors import ConfigError
from openresearch.graph.store import GraphStore

LOOPBACK_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost"})


@dataclass
class ApiState:
    """Everything the routes use, opened once: the settings, the graph, and the run manager (when runs are
    served). `extra` holds what other parts (the web page, MCP) attach."""

    settings: Settings
    store: GraphStore
    runs: Any = None
    extra: dict[str, Any] = field(default_factory=dict)
    cache: VersionedCache = field(init=False)
    secret: bytes = field(init=False, repr=False)
    sessions: Sessions = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.cache = VersionedCache(self.store, stale_s=self.settings.api_cache_stale_s)
        given = self.settings.api_session_secret
        self.secret = given.get_secret_value().encode() if given and given.get_secret_value() else \
            secrets.token_bytes(32)
        self.sessions = Sessions(self.secret, api_key(self.settings), self.settings.api_session_ttl_s)


def is_loopback(host: str) -> bool:
    h = host.strip("[]").lower()
    if h in LOOPBACK_NAMES:
        return True
    try:
        return ipaddress.ip_address(h).is_loopback
    except ValueError:
        return False


def check_bind(host: str, settings: Settings) -> None:
    """Refuse to serve beyond loopback without an API key."""
    if not is_loopback(host) and not (settings.api_key and settings.api_key.get_secret_value()):
        raise ConfigError(f"refusing to listen on {host} without an API key: set OPENRESEARCH_API_KEY "
                          "(clients send it as 'Authorization: Bearer <key>') or listen on 127.0.0.1")


# async, though they do no I/O: a sync dependency costs every request a hop to the thread pool
async def state(request: Request) -> ApiState:
    st: ApiState = request.app.state.api
    return st


StateDep = Annotated[ApiState, Depends(state)]


async def store(st: StateDep) -> GraphStore:
    return st.store


StoreDep = Annotated[GraphStore, Depends(store)]

_bearer = HTTPBearer(auto_error=False, description="The API key from OPENRESEARCH_API_KEY, when one is set.")


def api_key(settings: Settings) -> str:
    return settings.api_key.get_secret_value() if settings.api_key else ""


def key_matches(given: str, settings: Settings) -> bool:
    key = api_key(settings)
    return not key or secrets.compare_digest(given.encode(), key.encode())


def authorized(st: ApiState, headers: Mapping[str, str], cookies: Mapping[str, str]) -> bool:
    """The configured key as a bearer token, or the web page's signed sign-in session (the cookie
    /ui/login sets: HttpOnly, SameSite=Strict; a browser cannot put a bearer header on page loads or on an
    EventSource). No key configured: open (loopback only)."""
    if not api_key(st.settings):
        return True
    auth = headers.get("authorization", "")
    if auth[:7].lower() == "bearer ":
        return key_matches(auth[7:].strip(), st.settings) and bool(auth[7:].strip())
    return st.sessions.session_id(cookies.get(SESSION_COOKIE, "")) is not None


async def require_key(st: StateDep, request: Request,
                      creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)]) -> None:
    """401 unless `authorized` (the app's KeyGate checks every request the same way; this documents the
    scheme in the OpenAPI schema and holds for a router included without the gate)."""
    if not authorized(st, request.headers, request.cookies):
        raise HTTPException(401, "missing or wrong API key", headers={"WWW-Authenticate": "Bearer"})


def page_size(st: StateDep, limit: int | None) -> int:
    return limit if limit is not None else max(1, min(st.settings.api_page_size, 500))
