"""The FastAPI app: `create_app(settings, services)` wires the routers, the error handlers and the limits.

`services` is what `open_services(settings)` returns (anything with a `store: GraphStore`); the app never
opens or closes it, so the CLI, tests and benchmarks choose its lifetime. OpenAPI is at /docs.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Protocol

from fastapi import Depends, FastAPI
from fastapi.middleware.cors import CORSMiddleware

from openresearch import __version__
from openresearch.agents.run.services import Services
from openresearch.api import problems
from openresearch.api.deps import ApiState, require_key
from openresearch.api.gate import JsonOnly, KeyGate
from openresearch.api.limits import BodyLimit
from openresearch.api.mcp_mount import mount_mcp
from openresearch.api.problems import PROBLEM_RESPONSES
from openresearch.api.routers import compare, conflicts, docs, entities, evidence, feedback, graph, health, topics
from openresearch.config import Settings
from openresearch.graph.store import GraphStore
from openresearch.monitor.service import background_worker

if TYPE_CHECKING:
    from openresearch.agents.run.manager import RunManager

log = logging.getLogger(__name__)


class HasStore(Protocol):
    @property
    def store(self) -> GraphStore: ...


def create_app(settings: Settings, services: HasStore, runs: RunManager | None = None) -> FastAPI:
    """The app over `services.store`; with `runs` (a RunManager over the same services) also the run routes.
    The manager is started (runs a dead process left running become interrupted) and stopped with the app."""

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        if runs is not None:
            interrupted = await runs.start()
            if interrupted:
                log.warning("%d runs left unfinished by an earlier process are marked interrupted", interrupted)
        # due monitoring topics run in this process too (leases in the graph keep any topic to one runner)
        stop_monitor = background_worker(services) if runs is not None and settings.api_monitor and isinstance(
            services, Services) else None
        try:
            async with mcp_running if mcp_running is not None else contextlib.nullcontext():
                yield
        finally:
            if stop_monitor is not None:
                await asyncio.to_thread(stop_monitor)
            if runs is not None:
                await runs.stop()

    app = FastAPI(
        lifespan=lifespan,
        title="OpenResearch API", version=__version__,
        description="Evidence, entity comparisons, conflicts, people's judgements and research runs over the "
        "OpenResearch knowledge graph. Every list is cursor-paginated; every error is an RFC 9457 problem.",
        docs_url=None, redoc_url=None,  # /docs is routers/docs.py: Swagger UI from the package, not a CDN
    )
    app.state.api = ApiState(settings=settings, store=services.store, runs=runs)
    problems.install(app)
    # without a key the routes are open (loopback only) and the schema says so: it names the bearer scheme and
    # the 401s only when a key is required
    keyed = bool(settings.api_key and settings.api_key.get_secret_value())
    guarded = [Depends(require_key)] if keyed else []
    unauthorized: dict[int | str, dict[str, Any]] = {400: PROBLEM_RESPONSES[400], 422: PROBLEM_RESPONSES[422]}
    if keyed:
        unauthorized[401] = PROBLEM_RESPONSES[401]
    app.include_router(health.router)
    app.include_router(docs.router)
    for r in (health.ready_router, evidence.router, entities.router, compare.router, conflicts.router,
              feedback.router, graph.router, topics.router):
        app.include_router(r, dependencies=guarded, responses=unauthorized)
    if runs is not None:
        from openresearch.api.routers import runs as runs_router

        app.include_router(runs_router.router, dependencies=guarded, responses=unauthorized)
    _include_web(app)
    # the MCP tools at /mcp (streamable HTTP), sharing this app's run manager
    mcp_running = mount_mcp(app, services, runs, settings) if runs is not None and isinstance(
        services, Services) else None
    # innermost first: the JSON API takes no form bodies; with a key, nothing but /healthz and the sign-in form
    # answers without it (inside CORS, so a preflight is answered and a 401 carries the CORS headers)
    app.add_middleware(JsonOnly, cors_origins=settings.api_cors_origins)
    if keyed:
        app.add_middleware(KeyGate, api=app.state.api)
    if settings.api_cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=settings.api_cors_origins, allow_methods=["*"],
                           allow_headers=["Authorization", "Content-Type", "Last-Event-ID"])
    app.add_middleware(BodyLimit, max_bytes=settings.api_max_body_bytes)
    return app


def _include_web(app: FastAPI) -> None:
    """The server-rendered page at `/` lives in api/web.py (its own part); included when it is there."""
    try:
        web = importlib.import_module("openresearch.api.web")
    except ModuleNotFoundError as e:
        if e.name != "openresearch.api.web":
            raise
        return
    app.include_router(web.router)
    app.add_exception_handler(web.NeedsKey, web.needs_key)  # a page the key guards: to the sign-in form
    app.add_exception_handler(web.CrossSiteRefused, web.cross_site_refused)  # a form from elsewhere: a 403 page
