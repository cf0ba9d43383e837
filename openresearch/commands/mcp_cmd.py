"""`openresearch mcp`: the MCP tools over stdio, for an agent that launches OpenResearch as a subprocess."""

from __future__ import annotations

import logging
import sys
from typing import Annotated

import typer

from openresearch.commands.common import GraphOpt, settings


def mcp(
    graph: GraphOpt = None,
    workers: Annotated[int, typer.Option(help="Research runs executed at once (more wait in a queue).", min=1,
                                         max=64)] = 1,
) -> None:
    """Serve the MCP tools over stdio: start_research, run_status, run_events, cancel_run, get_report,
    search_evidence, compare_entities, list_conflicts, resolve_conflict, give_feedback, provenance.

    Example (an MCP client's server entry): {"command": "openresearch", "args": ["mcp"]}
    """
    from openresearch.agents.run.services import open_services
    from openresearch.mcp_server import build_server

    # stdout carries the protocol: every log line goes to stderr
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, force=True)
    with open_services(settings(), graph=graph) as services:
        build_server(services, workers=workers).run("stdio")
