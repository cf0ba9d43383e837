"""`openresearch conflicts` (list) and `openresearch conflicts resolve`: conflict groups and people's resolutions."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from openresearch.commands.common import (
    AsOfOpt,
    GraphOpt,
    JsonOpt,
    console,
    parse_as_of,
    print_json,
    store,
    to_jsonable,
)
from openresearch.commands.evidence_cmd import print_conflicts
from openresearch.errors import InputError
from openresearch.monitor import asof

app = typer.Typer()  # help: the callback's docstring

EntityOpt = Annotated[str | None, typer.Option("--entity", "-e", help="Only this entity (aliases resolve).")]
MetricOpt = Annotated[str | None, typer.Option("--metric", "-m", help="Only this metric.")]
ToleranceOpt = Annotated[float | None, typer.Option(help="Relative difference within which values agree.", min=0.0,
                                                    max=1e6)]
StatusOpt = Annotated[str, typer.Option(help="open, resolved or all.")]


@app.callback(invoke_without_command=True)
def conflicts(
    ctx: typer.Context,
    entity: EntityOpt = None, metric: MetricOpt = None, tolerance: ToleranceOpt = None, status: StatusOpt = "all",
    as_of: AsOfOpt = None, graph: GraphOpt = None, json_out: JsonOpt = False,
) -> None:
    """List conflicts, one group per entity + metric + condition with every value its sources give.

    Values within the tolerance count as one; each value shows its evidence, how many sources and origins
    support it, the newest date and whether a source is the entity's own, best supported first. A group
    someone resolved shows its resolution (`conflicts resolve`). With --as-of, among the values current then
    (a value superseded since is in it, its successor not yet).

    Example: openresearch conflicts --entity Kafka --metric throughput
    """
    if ctx.invoked_subcommand is None:
        list_conflicts(entity, metric, tolerance, status, as_of, graph, json_out)


@app.command("list")
def list_conflicts(
    entity: EntityOpt = None, metric: MetricOpt = None, tolerance: ToleranceOpt = None, status: StatusOpt = "all",
    as_of: AsOfOpt = None, graph: GraphOpt = None, json_out: JsonOpt = False,
) -> None:
    """List conflict groups (the same as `openresearch conflicts`), with their resolutions.

    Example: openresearch conflicts list --status open --as-of 2026-06-30
    """
    if status not in ("open", "resolved", "all"):
        raise InputError(f"status must be open, resolved or all, not {status!r}")
    day = parse_as_of(as_of)
    with store(graph) as st:
        found = asof.conflicts(st, day, entity=entity, metric=metric, tolerance=tolerance)
        resolved = st.conflict_resolutions([g.id for g in found])
    found = [g for g in found if status == "all" or (g.id in resolved) == (status == "resolved")]
    if json_out:
        rows: list[dict[str, Any]] = []
        for g in found:
            res = resolved.get(g.id)
            rows.append({**to_jsonable(g), "status": "resolved" if res else "open",
                         "resolution": to_jsonable(res) if res else None})
        print_json(rows)
        return
    print_conflicts(found)
    for g in found:
        if g.id in resolved:
            r = resolved[g.id]
            value = f" ({r.value:g} {r.unit})" if r.value is not None else ""
            console.print(f"{g.id} {g.entity} {g.metric}: resolved {r.decision}{value} by {r.author}: {r.note}")


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
