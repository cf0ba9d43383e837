"""The MCP tools (openresearch/mcp_server.py) served by the API at `/mcp` over streamable HTTP, sharing the
API's run manager: a run started by an MCP client shows in `GET /runs` and on the web page, and the other way
round. When the API requires a key, `/mcp` requires the same bearer token."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager

from fastapi import FastAPI
from mcp.server.transport_security import TransportSecuritySettings
from starlette.routing import Route
from starlette.types import ASGIApp, Receive, Scope, Send

from openresearch.agents.run.manager import RunManager
from openresearch.agents.run.services import Services
from openresearch.boundary import Door
from openresearch.config import Settings
from openresearch.mcp_server import build_server

PATH = "/mcp"


class _Bearer:
    """Refuse a request without the API key (the same check as the API's routes)."""

    def __init__(self, app: ASGIApp, key: str) -> None:
        self.app, self.key = app, key

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        auth = headers.get(b"authorization", b"").decode("latin-1")
        token = auth[7:] if auth[:7].lower() == "bearer " else ""
        if not (token and secrets.compare_digest(token.encode(), self.key.encode())):
            body = (b'{"type":"about:blank","title":"Unauthorized","status":401,'
                    b'"detail":"send the API key as Authorization: Bearer <key>"}')
            await send({"type": "http.response.start", "status": 401,
                        "headers": [(b"content-type", b"application/problem+json"),
                                    (b"www-authenticate", b"Bearer")]})
            await send({"type": "http.response.body", "body": body})
            return
        await self.app(scope, receive, send)


def mount_mcp(app: FastAPI, services: Services, runs: RunManager, settings: Settings
              ) -> AbstractAsyncContextManager[None]:
    """Add the `/mcp` route to `app`; return the context manager the app's lifespan must enter (it runs the
    MCP session manager)."""
    key = settings.api_key.get_secret_value() if settings.api_key else ""
    # a resolution or feedback given through a tool is seen by the next GET /conflicts, as one given to the API
    server = build_server(services, runs, door=Door.service(settings, "mcp"),
                          on_change=app.state.api.cache.invalidate)
    # on loopback without a key, DNS-rebinding protection checks Host/Origin; with a key (any interface) the
    # bearer token is the guard
    sub = server.streamable_http_app(streamable_http_path=PATH, transport_security=TransportSecuritySettings(
        enable_dns_rebinding_protection=not key, allowed_hosts=["127.0.0.1:*", "localhost:*", "[::1]:*"],
        allowed_origins=["http://127.0.0.1:*", "http://localhost:*", "http://[::1]:*"]))
    for route in sub.routes:
        if isinstance(route, Route) and route.path == PATH:
            endpoint: ASGIApp = route.app
            app.router.routes.append(Route(PATH, endpoint=_Bearer(endpoint, key) if key else endpoint,
                                           methods=["GET", "POST", "DELETE"], include_in_schema=False))

    @asynccontextmanager
    async def running() -> AsyncIterator[None]:
        async with server.session_manager.run():
            yield

    return running()
