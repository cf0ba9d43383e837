"""Options and output helpers shared by every command."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from datetime import date
from typing import Annotated, Any

import typer
from pydantic import BaseModel, ValidationError
from rich.console import Console

from openresearch.config import Settings, get_settings
from openresearch.errors import InputError
from openresearch.graph.store import GraphStore
from openresearch.monitor.asof import parse_day

console = Console()
err_console = Console(stderr=True)

GraphOpt = Annotated[str | None, typer.Option(
    "--graph", "-g", help="Graph URL: bolt://host:7687, neo4j+s://…, falkordb://host:port; "
    "default: OPENRESEARCH_GRAPH_URL or the embedded FalkorDB.", show_default=False)]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print machine-readable JSON.")]
AsOfOpt = Annotated[str | None, typer.Option("--as-of", help="A date (YYYY-MM-DD): the values current then.")]
KnownOnOpt = Annotated[str | None, typer.Option(
    "--known-on", help="A date (YYYY-MM-DD): as the graph held it at the end of that day (what it had recorded "
    "and not yet retracted).")]


def one_of(value: str, option: str, choices: Sequence[str]) -> str:
    """``value`` if it is one of ``choices``; InputError naming the option and the choices otherwise."""
    if value not in choices:
        raise InputError(f"{option} {value[:60]!r}: use one of {', '.join(choices)}")
    return value


def invalid_options(e: ValidationError) -> InputError:
    """A pydantic error on options built from the command line, as one line naming the option."""
    first = e.errors()[0]
    option = "--" + "-".join(str(p) for p in first["loc"][-1:]).replace("_", "-")
    return InputError(f"{option}: {first['msg']} (got {str(first.get('input'))[:60]!r})")


def parse_as_of(text: str | None) -> date | None:
    """An `--as-of` date; InputError for anything but YYYY-MM-DD."""
    return parse_day(text, "--as-of")


def parse_known_on(text: str | None) -> date | None:
    """A `--known-on` date; InputError for anything but YYYY-MM-DD."""
    return parse_day(text, "--known-on")


def settings() -> Settings:
    return get_settings()


@contextmanager
def store(graph: str | None, *, writes: bool = False) -> Iterator[GraphStore]:
    """The graph a command asks for. ``writes``: the command's work is writing, so a graph that refuses writes
    (a full disk) stops it here, in one line, before any work; a read command goes on and says so."""
    from openresearch.errors import GraphReadOnly
    from openresearch.graph.connect import open_store

    st = open_store(settings(), graph)
    why = getattr(st.backend, "refuses_writes", None)
    if why and writes:
        st.close()
        raise GraphReadOnly(f"the graph refuses writes until disk space is freed where its data lives (read "
                            f"commands still work): {why.split('. ')[0]}")
    if why:  # a full disk: reads go on, and the user is told
        err_console.print(f"note: the graph is read-only until disk space is freed ({why.split('. ')[0][:160]})",
                          markup=False,
                          highlight=False, soft_wrap=True)
    try:
        yield st
    finally:
        st.close()


def to_jsonable(obj: Any) -> Any:
    if isinstance(obj, BaseModel):
        return obj.model_dump(mode="json")
    if isinstance(obj, list):
        return [to_jsonable(o) for o in obj]
    if isinstance(obj, dict):
        return {k: to_jsonable(v) for k, v in obj.items()}
    return obj


def print_json(obj: Any) -> None:
    typer.echo(json.dumps(to_jsonable(obj), ensure_ascii=False, indent=2, default=str))
