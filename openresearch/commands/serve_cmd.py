"""`openresearch serve`: the HTTP API (FastAPI on uvicorn) over the graph, with research runs in a worker pool."""

from __future__ import annotations

from typing import Annotated

import typer

from openresearch.commands.common import GraphOpt, err_console, one_of, settings


def serve(
    host: Annotated[str | None, typer.Option(help="Address to listen on (default OPENRESEARCH_API_HOST, "
                                             "127.0.0.1). Anything but loopback needs OPENRESEARCH_API_KEY.")] = None,
    port: Annotated[int | None, typer.Option(help="Port (default OPENRESEARCH_API_PORT, 8000).", min=1,
                                             max=65535)] = None,
    graph: GraphOpt = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the HTTP API: runs (with live events), evidence, entities, comparisons, conflicts, feedback and
    graph stats. OpenAPI at /docs. Runs left running by an earlier server are marked interrupted on start.

    Example: openresearch serve --port 8000
    """
    import uvicorn

    from openresearch.agents.run.manager import RunManager
    from openresearch.agents.run.services import open_services
    from openresearch.api.app import create_app
    from openresearch.api.deps import check_bind

    one_of(log_level, "--log-level", ("critical", "error", "warning", "info", "debug", "trace"))
    cfg = settings()
    bind = host or cfg.api_host
    check_bind(bind, cfg)
    with open_services(cfg, graph=graph) as services:
        app = create_app(cfg, services, runs=RunManager(services, workers=cfg.api_run_workers))
        err_console.print(f"OpenResearch API on http://{bind}:{port or cfg.api_port} (docs at /docs)")
        uvicorn.run(app, host=bind, port=port or cfg.api_port, log_level=log_level)
