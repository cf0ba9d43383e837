"""Unknown ids through the real `openresearch` entry point (in process, over a graph of its own on the session's
FalkorDB): every command that takes a run, evidence, conflict or topic id answers an id the graph does not
hold with one line and a non-zero exit, never a traceback."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from test_cli_doors import Ran, cli, graph, one_line_refusal  # noqa: F401 - cli and graph are the fixtures

from openresearch.graph.store import GraphStore

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("args", [
    ["runs", "show", "run-nope"],
    ["research", "Which broker is fastest?", "--resume", "run-nope", "--offline"],
    ["evidence", "show", "E-000000000000"],
    ["conflicts", "resolve", "C-nope", "--decision", "both_hold"],
    ["monitor", "show", "T-nope"],
])
def test_an_unknown_id_is_one_line(graph: tuple[GraphStore, dict[str, str]],  # noqa: F811
                                   cli: Callable[..., Ran], args: list[str]) -> None:  # noqa: F811
    _, env = graph
    line = one_line_refusal(cli(env, *args))
    assert "nope" in line or "E-000000000000" in line, line
