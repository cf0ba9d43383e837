"""`openresearch serve`: the HTTP API (FastAPI on uvicorn) over the graph."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

import typer

from openresearch.commands.common import GraphOpt, err_console, settings
from openresearch.graph.store import GraphStore


@dataclass
class _GraphServices:
    store: GraphStore


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on (default OPENRESEARCH_API_HOST, "
                                             "127.0.0.1). Anything but loopback needs OPENRESEARCH_API_KEY.")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default OPENRESEARCH_API_PORT, 8000).")] = None,
    graph: GraphOpt = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the HTTP API: evidence, entities, comparisons, conflicts, feedback and graph stats (OpenAPI at /docs).

    Example: openresearch serve --port 8000
    """
    import uvicorn

    from openresearch.api.app import create_app
    from openresearch.api.deps import check_bind
    from openresearch.graph.connect import open_store

    cfg = settings()
    bind = host or cfg.api_host
    check_bind(bind, cfg)
    store = open_store(cfg, graph)
    try:
        store.init_schema()
        app = create_app(cfg, _GraphServices(store))
        err_console.print(f"OpenResearch API on http://{bind}:{port or cfg.api_port} (docs at /docs)")
        uvicorn.run(app, host=bind, port=port or cfg.api_port, log_level=log_level)
    finally:
        store.close()
