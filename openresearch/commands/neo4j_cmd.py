"""`openresearch neo4j …`: a real local Neo4j 5.26 built from Maven artifacts, for development and tests."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from openresearch.commands.common import JsonOpt, console, print_json, settings

app = typer.Typer(help="A local Neo4j 5.26 (Bolt, HTTP, Browser) without Docker.", no_args_is_help=True)

HomeOpt = Annotated[Path | None, typer.Option(
    "--home", help="Neo4j home (data, logs); default OPENRESEARCH_NEO4J_HOME or <data_dir>/neo4j.")]


def _home(home: Path | None) -> Path:
    s = settings()
    return home or s.neo4j_home or (s.data_dir / "neo4j")


def _show(st: object, json_out: bool) -> None:
    from openresearch.graph import neo4j_browser

    data = {k: str(v) if isinstance(v, Path) else v for k, v in vars(st).items()}
    links = _browser_links(str(data["http_uri"]), str(data["bolt_uri"]))
    if json_out:
        print_json({**data, "browser": links} if data["running"] else data)
        return
    if not data["running"]:
        console.print(f"Neo4j not running (home={data['home']})")
        return
    console.print(f"Neo4j running pid={data['pid']}  Bolt {data['bolt_uri']}  home={data['home']}")
    console.print(f"Explore the evidence in Neo4j Browser: {links['open']}", soft_wrap=True)
    console.print("  on connect it applies the OpenResearch style and opens the guide of saved queries; by hand:",
                  soft_wrap=True)
    console.print(f"  {links['style_command']}", soft_wrap=True, markup=False)
    console.print(f"  {links['guide_command']}", soft_wrap=True, markup=False)
    console.print(f"  saved queries (drag into Favorites): {neo4j_browser.ASSETS / 'queries'}", soft_wrap=True)


def _browser_links(http_uri: str, bolt_uri: str) -> dict[str, str]:
    """Where to open Neo4j Browser (connected to this Bolt, no auth form) and its guide and style commands."""
    from urllib.parse import quote

    from openresearch.graph import neo4j_browser

    u = neo4j_browser.urls(http_uri)
    return {"open": f"{u.browser}?dbms={quote(bolt_uri, safe=':/')}&preselectAuthMethod=NO_AUTH",
            "guide": u.guide, "style": u.style, "guide_command": u.guide_command, "style_command": u.style_command}


@app.command("start")
def start(home: HomeOpt = None,
          bolt_port: Annotated[int | None, typer.Option(help="Bolt port.", min=1, max=65535)] = None,
          http_port: Annotated[int | None, typer.Option(help="HTTP/Browser port.", min=1, max=65535)] = None,
          json_out: JsonOpt = False) -> None:
    """Build (first time, with Maven) and start Neo4j 5.26 on loopback with a persistent data directory.

    Example: openresearch neo4j start && openresearch graph init --graph bolt://127.0.0.1:7687
    """
    import openresearch.graph.neo4j_local as neo4j_local

    s = settings()
    st = neo4j_local.start(_home(home), bolt_port or s.neo4j_bolt_port, http_port or s.neo4j_http_port)
    _show(st, json_out)


@app.command("status")
def status(home: HomeOpt = None, json_out: JsonOpt = False) -> None:
    """Show whether the local Neo4j runs, with its Bolt and Browser addresses.

    Example: openresearch neo4j status --json
    """
    import openresearch.graph.neo4j_local as neo4j_local

    _show(neo4j_local.status(_home(home)), json_out)


@app.command("stop")
def stop(home: HomeOpt = None) -> None:
    """Stop the local Neo4j (data stays in its home).

    Example: openresearch neo4j stop
    """
    import openresearch.graph.neo4j_local as neo4j_local

    console.print("stopped" if neo4j_local.stop(_home(home)) else "not running")
