"""`openresearch conflicts` (list) and `openresearch conflicts resolve`: conflict groups and people's resolutions."""

from __future__ import annotations

from typing import Annotated

import typer

from openresearch.commands.common import (
    AsOfOpt,
    GraphOpt,
    JsonOpt,
    KnownOnOpt,
    console,
    parse_as_of,
    parse_known_on,
    print_json,
    store,
    to_jsonable,
)
from openresearch.commands.evidence_cmd import print_conflicts
from openresearch.errors import InputError
from openresearch.graph.judgements import status_matches, with_status
from openresearch.monitor import asof

app = typer.Typer()  # help: the callback's docstring

EntityOpt = Annotated[str | None, typer.Option("--entity", "-e", help="Only this entity (aliases resolve).")]
MetricOpt = Annotated[str | None, typer.Option("--metric", "-m", help="Only this metric.")]
ToleranceOpt = Annotated[float | None, typer.Option(help="Relative difference within which values agree.", min=0.0,
                                                    max=1e6)]
StatusOpt = Annotated[str, typer.Option(help="open (with stale), resolved, stale or all.")]


@app.callback(invoke_without_command=True)
def conflicts(
    ctx: typer.Context,
    entity: EntityOpt = None, metric: MetricOpt = None, tolerance: ToleranceOpt = None, status: StatusOpt = "all",
    as_of: AsOfOpt = None, known_on: KnownOnOpt = None, graph: GraphOpt = None, json_out: JsonOpt = False,
) -> None:
    """List conflicts, one group per entity + metric + condition with every value its sources give.

    Values within the tolerance count as one; each value shows its evidence, how many sources and origins
    support it, the newest date and whether a source is the entity's own, best supported first. A group
    someone resolved shows its resolution (`conflicts resolve`). With --as-of, among the values current then
    (a value superseded since is in it, its successor not yet); with --known-on, as the graph held them at the
    end of that day. A resolution given before the group's values changed is shown as stale (needs review).

    Example: openresearch conflicts --entity Kafka --metric throughput
    """
    if ctx.invoked_subcommand is None:
        list_conflicts(entity, metric, tolerance, status, as_of, known_on, graph, json_out)


@app.command("list")
def list_conflicts(
    entity: EntityOpt = None, metric: MetricOpt = None, tolerance: ToleranceOpt = None, status: StatusOpt = "all",
    as_of: AsOfOpt = None, known_on: KnownOnOpt = None, graph: GraphOpt = None, json_out: JsonOpt = False,
) -> None:
    """List conflict groups (the same as `openresearch conflicts`), with their resolutions.

    Example: openresearch conflicts list --status open --as-of 2026-06-30
    """
    if status not in ("open", "resolved", "stale", "all"):
        raise InputError(f"status must be open, resolved, stale or all, not {status!r}")
    day, known = parse_as_of(as_of), parse_known_on(known_on)
    with store(graph) as st:
        found = asof.conflicts(st, day, entity=entity, metric=metric, tolerance=tolerance, known_on=known)
        resolved = st.conflict_resolutions([g.id for g in found])
    shown = [(g, *with_status(g, resolved.get(g.id))) for g in found]
    shown = [(g, s, r) for g, s, r in shown if status_matches(s, status)]
    if json_out:
        print_json([{**to_jsonable(g), "status": s, "resolution": to_jsonable(r) if r else None}
                    for g, s, r in shown])
        return
    print_conflicts([g for g, _, _ in shown])
    for g, s, r in shown:
        if r is not None:
            value = f" ({r.value:g} {r.unit})" if r.value is not None else ""
            what = "resolved" if s == "resolved" else "stale (its values changed since it was resolved)"
            console.print(f"{g.id} {g.entity} {g.metric}: {what} {r.decision}{value} by {r.author}: {r.note}")


@app.command("resolve")
def resolve(
    conflict_id: Annotated[str, typer.Argument(help="A conflict id (C-…), as `conflicts --json` shows it.")],
    decision: Annotated[str, typer.Option(help="value_correct (give --value), both_hold or not_conflict.")],
    value: Annotated[float | None, typer.Option(help="The value that is right (one of the group's values).")] = None,
    note: Annotated[str, typer.Option("--note", "-n", help="Why.")] = "",
    author: Annotated[str, typer.Option(help="Who resolves it.")] = "cli",
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Resolve a conflict: one value is right, both hold under different conditions, or it is no conflict.

    Example: openresearch conflicts resolve C-4bb409f906ee --decision value_correct --value 605 --note "newer run"
    """
    from pydantic import ValidationError

    from openresearch.graph.judgements import RESOLUTION_IN

    try:
        fields = {"decision": decision, "note": note, "author": author, **({} if value is None else {"value": value})}
        body = RESOLUTION_IN.validate_python(fields)
    except ValidationError as e:
        raise InputError("; ".join(err["msg"] for err in e.errors())) from None
    with store(graph, writes=True) as st:
        res = st.resolve_conflict(conflict_id, body)
    if json_out:
        print_json(res)
        return
    console.print(f"{res.id}: conflict {res.conflict_id} ({res.entity} {res.metric}) resolved as {res.decision}")
