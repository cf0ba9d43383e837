"""`openresearch extract PATH`: what the graph would hold from one document or a folder, without a run."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from openresearch.commands.common import JsonOpt, console, err_console, print_json, settings
from openresearch.errors import InputError, NotADocument, ParseError


def extract(
    paths: Annotated[list[str], typer.Argument(help="Files, directories (recursive) or quoted globs of .md, .txt, "
                                               ".rst, .html and .pdf documents.")],
    question: Annotated[str | None, typer.Option(
        "--question", "-q", help="Read the documents as a run asking this would (its entities and metrics).")] = None,
    units: Annotated[bool, typer.Option("--units", help="Also list evidence units without observations.")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Show the evidence units and observations (entity, metric, value, unit, condition, role) the extractor
    reads from documents. Nothing is written to the graph.

    Example: openresearch extract docs/README.md --json
    """
    from openresearch.agents.extract.document import ReadDocument, read_document
    from openresearch.agents.extract.extractor import DeterministicExtractor
    from openresearch.identity import AliasResolver
    from openresearch.ingest.documents import SUFFIXES, Limits, may_be_document
    from openresearch.ingest.embed import HashEmbedder
    from openresearch.ingest.local import parse_local_file
    from openresearch.ingest.walk import expand

    s = settings()
    # the embedder only ranks units for a question, which extract does not do: the hash embedder is exact enough
    ex = DeterministicExtractor(HashEmbedder(), AliasResolver.load(s.aliases_file))
    docs: list[ReadDocument] = []
    errors: list[str] = []
    for spec in paths:
        found = expand(spec, may_be_document, follow_symlinks=s.follow_symlinks)
        if not found.files:
            raise InputError(f"{spec}: no document found (files of {', '.join(sorted(SUFFIXES))}, or text by content)")
        for path in found.files:
            try:
                src = parse_local_file(path, Limits.from_settings(s))
            except NotADocument:
                continue
            except ParseError as e:
                errors.append(str(e))
                continue
            docs.append(read_document(ex, src, question))
    if json_out:
        print_json([d.model_dump(mode="json") for d in docs])
    else:
        for d in docs:
            _print(d, units)
    for why in errors:
        err_console.print(f"[yellow]skipped[/yellow] {escape(why)}")
    if errors:
        raise typer.Exit(2)


def _print(d: object, all_units: bool) -> None:
    from openresearch.agents.extract.document import ReadDocument

    assert isinstance(d, ReadDocument)
    n_obs = sum(len(u.observations) for u in d.units)
    console.print(f"[bold]{escape(d.title or d.url)}[/bold]  {escape(d.url)}  "
                  f"({len(d.units)} units, {n_obs} observations)")
    table = Table(show_lines=False)
    for col in ("at", "entity", "metric", "value", "unit", "condition", "role"):
        table.add_column(col, overflow="fold")
    for u in d.units:
        if not u.observations:
            if all_units:
                table.add_row(f"{u.start}-{u.end}", escape(", ".join(u.entities)), f"[dim]{u.kind}[/dim]", "", "",
                              escape(u.quote[:80]), "")
            continue
        for o in u.observations:
            table.add_row(f"{u.start}-{u.end}", escape(o.entity), escape(o.metric), escape(str(o.value)),
                          escape(o.unit or ""), escape(o.condition or ""), o.role)
    console.print(table)
