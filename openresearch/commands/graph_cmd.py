"""`openresearch graph …`: the embedded server's life cycle, schema and statistics."""

from __future__ import annotations

import typer
from rich.table import Table

from openresearch.commands.common import GraphOpt, JsonOpt, console, print_json, settings, store

app = typer.Typer(help="The knowledge graph: embedded server, schema, statistics.", no_args_is_help=True)


@app.command("init")
def init(graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """Create constraints and indexes (idempotent; safe to run again).

    Example: openresearch graph init --graph bolt://127.0.0.1:7687
    """
    with store(graph, writes=True) as st:
        created = st.init_schema()
        desc = st.backend.description
    if json_out:
        print_json({"graph": desc, "created": created})
    else:
        note = " (already up to date)" if not created else ""
        console.print(f"{desc}: {len(created)} schema objects created{note}")


@app.command("stats")
def stats(graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """Count nodes per label and relations per type.

    Example: openresearch graph stats --json
    """
    with store(graph) as st:
        data = st.stats()
    if json_out:
        print_json(data)
        return
    for title, counts in (("label", data["nodes"]), ("relation", data["relations"])):
        table = Table(title=f"{title}s")
        table.add_column(title)
        table.add_column("count", justify="right")
        for k, v in sorted(counts.items()):
            table.add_row(k, str(v))
        console.print(table)


@app.command("serve")
def serve() -> None:
    """Run the embedded FalkorDB server in the foreground until Ctrl-C (other commands connect to it).

    Example: openresearch graph serve
    """
    from openresearch.graph.falkor_server import EmbeddedFalkor

    raise typer.Exit(EmbeddedFalkor(settings().data_dir).serve_foreground())


@app.command("status")
def status(json_out: JsonOpt = False) -> None:
    """Show whether the embedded FalkorDB server runs, its pid, socket and data directory.

    Example: openresearch graph status --json
    """
    from openresearch.graph.falkor_server import EmbeddedFalkor

    info = EmbeddedFalkor(settings().data_dir).status()
    data = {"running": info.running, "loading": info.loading, "pid": info.pid, "socket": str(info.socket),
            "data_dir": str(info.data_dir), "log_file": str(info.log_file)}
    if json_out:
        print_json(data)
    else:
        state = ("[yellow]loading its data[/yellow]" if info.loading else "[green]running[/green]") if info.running \
            else "[red]stopped[/red]"
        console.print(f"embedded FalkorDB {state} pid={info.pid} socket={info.socket} data={info.data_dir}")


@app.command("stop")
def stop() -> None:
    """Stop the embedded FalkorDB server (data is saved; the next command starts it again).

    Example: openresearch graph stop
    """
    from openresearch.graph.falkor_server import EmbeddedFalkor

    stopped = EmbeddedFalkor(settings().data_dir).stop()
    console.print("stopped" if stopped else "not running")
