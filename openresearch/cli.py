"""The `openresearch` command: a thin shell over the package; every error becomes one clear line."""

from __future__ import annotations

import sys

import typer

from openresearch.commands import evidence_cmd, graph_cmd, neo4j_cmd
from openresearch.errors import OpenResearchError

app = typer.Typer(
    help="OpenResearch: research reports in which every claim traces to a verbatim quote in a knowledge graph.",
    no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
)
app.add_typer(graph_cmd.app, name="graph")
app.add_typer(evidence_cmd.app, name="evidence")
app.add_typer(neo4j_cmd.app, name="neo4j")
app.command("conflicts")(evidence_cmd.conflicts)
app.command("compare")(evidence_cmd.compare)


def main() -> None:
    try:
        app()
    except OpenResearchError as e:
        typer.echo(f"error: {e}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)


if __name__ == "__main__":
    main()
