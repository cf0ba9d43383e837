"""The `openresearch` command: a thin shell over the package; every error becomes one clear line."""

from __future__ import annotations

import errno
import sqlite3
import sys

import typer
from pydantic import ValidationError
from typer._click.exceptions import ClickException, NoArgsIsHelpError

from openresearch.commands import evidence_cmd, extract_cmd, graph_cmd, ingest_cmd, neo4j_cmd, research_cmd, verify_cmd
from openresearch.commands.conflicts_cmd import app as conflicts_app
from openresearch.commands.feedback_cmd import feedback
from openresearch.commands.llm_cmd import app as llm_app
from openresearch.commands.mcp_cmd import mcp
from openresearch.commands.monitor_cmd import app as monitor_app
from openresearch.commands.serve_cmd import serve
from openresearch.errors import OpenResearchError

app = typer.Typer(
    help="OpenResearch: research reports in which every claim traces to a verbatim quote in a knowledge graph.",
    no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False,
)
app.add_typer(graph_cmd.app, name="graph")
app.add_typer(evidence_cmd.app, name="evidence")
app.add_typer(neo4j_cmd.app, name="neo4j")
app.add_typer(conflicts_app, name="conflicts")
app.command("compare")(evidence_cmd.compare)
app.command("research")(research_cmd.research)
app.add_typer(research_cmd.runs_app, name="runs")
app.command("verify-claims")(verify_cmd.verify_claims)
app.command("search")(ingest_cmd.search)
app.command("fetch")(ingest_cmd.fetch)
app.command("ingest")(ingest_cmd.ingest)
app.command("extract")(extract_cmd.extract)
app.add_typer(ingest_cmd.cache_app, name="cache")
app.add_typer(llm_app, name="llm")
app.command("serve")(serve)
app.command("feedback")(feedback)
app.command("mcp")(mcp)
app.add_typer(monitor_app, name="monitor")


def _one_line(text: str) -> str:
    return " ".join(text.split())


def main() -> None:
    """Run the command; a bad option, a domain error or a full disk is one line on stderr and a non-zero exit."""
    try:
        code = app(standalone_mode=False)
    except NoArgsIsHelpError as e:
        e.show()  # no arguments: the help, as a bare command always gave
        sys.exit(e.exit_code)
    except ClickException as e:  # a bad option value, an unknown option, a missing argument
        typer.echo(f"error: {_one_line(e.format_message())} (see --help)", err=True)
        sys.exit(e.exit_code)
    except typer.Abort:
        typer.echo("aborted", err=True)
        sys.exit(1)
    except OpenResearchError as e:
        typer.echo(f"error: {_one_line(str(e))}", err=True)
        sys.exit(1)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(130)
    except OSError as e:
        if e.errno == errno.EPIPE:  # the reader of stdout went away (`| head`)
            sys.exit(1)
        where = f"{e.filename}: " if e.filename else ""
        typer.echo(f"error: {where}{e.strerror or e}", err=True)
        sys.exit(1)
    except ValidationError as e:  # a value a command passed on unchecked: still one line, naming the field
        first = e.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "input"
        typer.echo(f"error: {where}: {_one_line(first['msg'])}", err=True)
        sys.exit(1)
    except sqlite3.OperationalError as e:  # the local caches: "database or disk is full"
        typer.echo(f"error: a local cache could not be written: {e}", err=True)
        sys.exit(1)
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
