"""`openresearch evidence …`, `conflicts` and `compare`: the evidence graph from the command line."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from openresearch.commands.common import (
    AsOfOpt,
    GraphOpt,
    JsonOpt,
    KnownOnOpt,
    console,
    err_console,
    parse_as_of,
    parse_known_on,
    print_json,
    store,
)
from openresearch.conflicts import condition_label, value_cell
from openresearch.models import Comparison, ComparisonCell, ConflictGroup
from openresearch.monitor import asof
from openresearch.numbers import quantity_label

app = typer.Typer(help="Import, export and inspect evidence.", no_args_is_help=True)


@app.command("import")
def import_(
    file: Annotated[Path, typer.Argument(help="JSONL file, one evidence object per line ('-' for stdin).")],
    graph: GraphOpt = None,
    strict: Annotated[bool, typer.Option(help="Write nothing if any line is malformed.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Import evidence from JSONL (idempotent: importing twice changes nothing).

    Malformed lines are reported with their line numbers and skipped; the rest is imported. With --strict
    every line is checked first (values after unit conversion included) and nothing is written if one is bad.
    UTF-8 (with or without a BOM) and UTF-16 files are read.

    Example: openresearch evidence import examples/evidence.jsonl
    """
    from openresearch.ingest.evidence_io import decoded_lines, import_file, import_lines

    with store(graph, writes=True) as st:
        st.init_schema()
        if str(file) == "-":
            report = import_lines(st, decoded_lines(sys.stdin.buffer), strict=strict)
        else:
            with Progress(console=err_console, transient=True, disable=json_out) as bar:
                task = bar.add_task("importing", total=None)
                report = import_file(st, file, strict=strict, progress=lambda n: bar.advance(task, n))
    if json_out:
        print_json(report)
    else:
        for err in report.errors:
            err_console.print(f"[yellow]skipped[/yellow] {err}")
        verb = "nothing written (--strict)" if strict and report.errors else f"imported {report.imported}"
        console.print(f"{report.lines} lines: {verb}, {report.skipped} malformed")
    if report.errors:
        raise typer.Exit(2)


@app.command("export")
def export(
    out: Annotated[Path | None, typer.Argument(help="Output JSONL file; default stdout.")] = None,
    graph: GraphOpt = None,
) -> None:
    """Export all evidence in the import format.

    Example: openresearch evidence export backup.jsonl
    """
    from openresearch.ingest.evidence_io import export_to
    from openresearch.output_dir import check_out_file, open_new_file

    target = check_out_file(out, "export to") if out is not None else None
    with store(graph) as st:
        if target is None:
            export_to(st, sys.stdout)
            return
        with open_new_file(target.parent, target.name) as fh:  # whole or absent; a link there is not followed
            n = export_to(st, fh)
    err_console.print(f"exported {n} evidence items to {out}")


@app.command("show")
def show(evidence_id: Annotated[str, typer.Argument(help="An evidence id such as E-1a2b3c4d5e6f.")],
         graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """Show one evidence item's provenance: quote, offsets, source, fetch time, run and question.

    Example: openresearch evidence show E-1a2b3c4d5e6f
    """
    with store(graph) as st:
        prov = st.provenance(evidence_id)
    if json_out:
        print_json(prov)
        return
    ev = prov.evidence
    console.print(f"[bold]{ev.id}[/bold] ({ev.type})")
    console.print(f"  quote:     “{ev.quote}”")
    console.print(f"  offsets:   {ev.start}..{ev.end}" if ev.start is not None else "  offsets:   (not recorded)")
    console.print(f"  source:    {ev.source.title or ''} <{ev.source.url}> published {ev.source.published_at or '?'}")
    console.print(f"  fetched:   {ev.source.fetched_at or '(imported)'}  extracted: {prov.extracted_at}")
    console.print(f"  entities:  {', '.join(ev.entities) or '-'}")
    for o in ev.observations:
        console.print(f"  observed:  {o.entity} {o.metric} = {o.raw_value} {o.raw_unit} "
                      f"(→ {o.value:g} {o.unit}) {o.condition}")
    console.print(f"  questions: {'; '.join(ev.questions) or '-'}")
    console.print(f"  runs:      {', '.join(prov.runs) or '-'}")


def conflicts(
    entity: Annotated[str | None, typer.Option("--entity", "-e", help="Only this entity (aliases resolve).")] = None,
    metric: Annotated[str | None, typer.Option("--metric", "-m", help="Only this metric.")] = None,
    tolerance: Annotated[float | None, typer.Option(help="Relative difference within which values agree.",
                                                     min=0.0, max=1e6)] = None,
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List conflicts, one group per entity + metric + condition with every value its sources give.

    Values within the tolerance count as one; each value shows its evidence, how many sources and origins
    support it, the newest date and whether a source is the entity's own, best supported first.

    Example: openresearch conflicts --entity Kafka --metric throughput
    """
    with store(graph) as st:
        found = st.conflict_groups(entity, metric, tolerance=tolerance)
    if json_out:
        print_json(found)
        return
    print_conflicts(found)


def print_conflicts(found: list[ConflictGroup]) -> None:
    table = Table(title=f"{len(found)} conflicts")
    for col in ("entity", "metric", "condition", "values (best supported first)", "Δ", "credibility"):
        table.add_column(col)
    for c in found:
        values = "\n".join(f"{value_cell(c, v)} {' '.join(v.evidence_ids)}" for v in c.values)
        table.add_row(c.entity, c.metric, condition_label(c), values, f"{c.relative_difference:.0%}", c.credibility)
    console.print(table)


def compare(
    entities: Annotated[list[str], typer.Argument(help="Two or more entity names.")],
    metric: Annotated[str | None, typer.Option("--metric", "-m", help="Only this metric.")] = None,
    as_of: AsOfOpt = None,
    superseded: Annotated[bool, typer.Option("--superseded", help="Show superseded values too, marked.")] = False,
    chart: Annotated[Path | None, typer.Option("--chart", help="Also write the figures as an SVG chart to this file "
                                                               "(one chart per metric and unit).")] = None,
    known_on: KnownOnOpt = None,
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Compare entities: a metric-by-entity table with the evidence ids behind every cell.

    The current values by default (a value a newer one superseded is left out); with --as-of, the values current
    at the end of that day; with --superseded, superseded values too, marked "superseded"; with --known-on, as
    the graph held them at the end of that day (what it had recorded and not yet retracted: the table a digest of
    that day saw). An entity with no value in the table is named under "no value for". With --chart FILE.svg,
    each metric's figures per entity as a chart, every figure its own point with its condition.

    Example: openresearch compare Kafka RabbitMQ Pulsar --metric throughput --as-of 2026-06-30 --chart out.svg
    """
    from openresearch.output_dir import check_out_file, open_new_file

    day, known = parse_as_of(as_of), parse_known_on(known_on)
    target = check_out_file(chart, "--chart") if chart is not None else None  # before any work
    with store(graph) as st:
        comp = asof.comparison(st, entities, metric, as_of=day, include_superseded=superseded, known_on=known)
    if target is not None:
        from openresearch.charts import charts_document, comparison_charts

        drawn = comparison_charts(comp)
        with open_new_file(target.parent, target.name) as fh:
            fh.write(charts_document(drawn))
        err_console.print(f"wrote {len(drawn)} chart{'s' if len(drawn) != 1 else ''} to {target}")
    if json_out:
        print_json(comp)
        return
    print_comparison(comp)


CELL_FIGURES = 3  # a cell a reader takes in at a glance; the rest are counted


def _cell_text(cell: ComparisonCell) -> str:
    """Each current figure with its condition and evidence id (the source's own first, at most three, then how
    many more), a figure only reported marked so; then each superseded value (when asked for)."""
    n = len(cell.values)
    marks = cell.superseded_by or [None] * n
    roles = cell.roles or ["own"] * n
    conds = cell.conditions or [""] * n
    current = sorted((i for i in range(n) if not marks[i]), key=lambda i: roles[i] in ("reported", "disputed"))
    lines = []
    for i in current[:CELL_FIGURES]:
        tag = f" ({roles[i]})" if roles[i] in ("reported", "disputed") else ""
        cond = f" ({conds[i]})" if conds[i] else ""
        lines.append(f"{quantity_label(cell.values[i], cell.unit)}{cond}{tag} [{cell.evidence_ids[i]}]")
    if len(current) > CELL_FIGURES:
        lines.append(f"+{len(current) - CELL_FIGURES} more")
    lines += [f"{quantity_label(cell.values[i], cell.unit)} superseded [{cell.evidence_ids[i]}]" for i in range(n)
              if marks[i]]
    return "\n".join(lines)


def print_comparison(comp: Comparison) -> None:
    table = Table(title="comparison")
    table.add_column("metric")
    for e in comp.entities:
        table.add_column(e)
    for m in comp.metrics:
        row = [m]
        for e in comp.entities:
            cell = comp.cells[m].get(e)
            if cell is None:
                row.append("-")
                continue
            row.append(_cell_text(cell))
        table.add_row(*row)
    console.print(table)
    if comp.missing:
        console.print(f"no value for: {', '.join(comp.missing)}")
