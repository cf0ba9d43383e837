"""`openresearch research` and `openresearch runs …`: research runs with live progress, read back from the graph."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn
from rich.table import Table

from openresearch.agents.run.events import EventRecord
from openresearch.commands.common import (
    GraphOpt,
    JsonOpt,
    console,
    err_console,
    invalid_options,
    one_of,
    print_json,
    settings,
    store,
)
from openresearch.errors import InputError
from openresearch.output_dir import REPORT_FILES, check_out_dir

runs_app = typer.Typer(help="Past research runs, read back from the graph.", no_args_is_help=True)


class LiveProgress:
    """A progress line per stage and per sub-question, drawn from the run's events."""

    def __init__(self, bar: Progress) -> None:
        self.bar = bar
        self.stage_task: TaskID = bar.add_task("starting", total=None)
        self.questions: dict[str, TaskID] = {}

    def __call__(self, record: EventRecord) -> None:
        ev = record.event
        if ev.type == "stage_started":
            self.bar.update(self.stage_task, description=f"[bold]{ev.stage}[/bold]")
        elif ev.type == "plan_ready":
            for sq in ev.sub_questions:
                if sq.id not in self.questions:
                    self.questions[sq.id] = self.bar.add_task(f"  {sq.text[:70]}", total=None)
        elif ev.type == "question_progress":
            task = self.questions.get(ev.question_id)
            if task is None:
                task = self.questions[ev.question_id] = self.bar.add_task(f"  {ev.text[:70]}", total=None)
            self.bar.update(task, description=f"  {ev.text[:60]} · {ev.status[:60]}")
            if ev.status == "done":
                self.bar.update(task, total=1, completed=1)
        elif ev.type == "sources_indexed":
            self.bar.console.print(f"indexed {ev.root}: {ev.added} added, {ev.updated} updated, {ev.unchanged} "
                                   f"unchanged, {ev.removed} removed, {ev.chunks} chunks")


def research(
    question: Annotated[str, typer.Argument(help="The research question (English or Chinese).")],
    source: Annotated[list[str] | None, typer.Option(
        "--source", "-s", help="web | arxiv | scholar | local:PATH | github:OWNER/REPO | "
        "worldbank:INDICATOR[:COUNTRIES] | who:INDICATOR[:COUNTRIES] (repeatable).")] = None,
    style: Annotated[str, typer.Option(help="brief | report | review")] = "report",
    budget: Annotated[int, typer.Option(help="Sum of sub-question depths (planning budget), 3 to 40.",
                                        min=3, max=40)] = 15,
    language: Annotated[str, typer.Option(help="auto | en | zh")] = "auto",
    offline: Annotated[bool, typer.Option(help="Deterministic methods only: no LLM, no network.")] = False,
    workers: Annotated[int, typer.Option(help="Sub-questions investigated in parallel, 1 to 16.", min=1, max=16)] = 4,
    out: Annotated[Path, typer.Option(help="Directory for report.md, report.json, report.html (not a symbolic "
                                      "link, not a system folder).")] = Path("out"),
    resume: Annotated[str | None, typer.Option(help="Continue a run that was interrupted.")] = None,
    max_llm_calls: Annotated[int | None, typer.Option(help="Hard cap on LLM calls.", min=0)] = None,
    max_tokens: Annotated[int | None, typer.Option(help="Hard cap on LLM tokens.", min=0)] = None,
    max_cost: Annotated[float | None, typer.Option(help="Hard cap on LLM cost in USD.", min=0.0)] = None,
    graph: GraphOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Research a question: plan, search, extract verbatim evidence into the graph, reflect, write a cited
    report and verify it.

    Example: openresearch research "Kafka or RabbitMQ for 1 KB events?" --source local:examples/corpus --offline
    """
    from openresearch.agents.run.run_config import Caps, RunOptions

    # every option is checked before any work (and before the heavy imports): a bad one is one line, not a
    # traceback after a finished run
    one_of(style, "--style", ("brief", "report", "review"))
    one_of(language, "--language", ("auto", "en", "zh"))
    if max_cost is not None and not math.isfinite(max_cost):
        raise InputError(f"--max-cost {max_cost}: not a finite amount")
    out = check_out_dir(out, REPORT_FILES)
    try:
        caps = Caps(llm_calls=max_llm_calls, llm_tokens=max_tokens, llm_cost_usd=max_cost)
        opts = RunOptions(question=question, sources=source or ["local:examples/corpus"], style=style,  # type: ignore[arg-type]
                          budget=budget, language=language, offline=offline, workers=workers, out=out,  # type: ignore[arg-type]
                          caps=caps)
    except ValidationError as e:
        raise invalid_options(e) from None
    from openresearch.agents.run.pipeline import run_research
    from openresearch.agents.write.report import verification_summary
    from openresearch.boundary import Door, check_run

    door = Door.cli(settings())
    if resume is None:
        opts = check_run(opts, door)
    with store(graph, writes=True) as st, Progress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                                      console=err_console, transient=False, disable=json_out) as bar:
        st.init_schema()
        if resume is not None:  # the run goes on with its stored options: they pass the boundary again
            check_run(RunOptions.model_validate(st.get_run(resume)["options"]), door)
        result = run_research(opts, st, settings(), resume=resume, subscribers=[LiveProgress(bar)])
    if json_out:
        print_json(result.model_dump(mode="json"))
        return
    console.print(f"[bold]{result.title}[/bold]  run {result.run_id}")
    console.print(verification_summary(result))
    if result.low_precision:
        console.print(f"[yellow]limited run:[/yellow] {result.low_precision}")
    console.print(f"wrote {out / 'report.md'}, {out / 'report.json'}, {out / 'report.html'}")


@runs_app.command("list")
def runs_list(limit: Annotated[int, typer.Option(help="How many runs.", min=1, max=10_000)] = 20,
              graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """List recent research runs, newest first.

    Example: openresearch runs list --limit 5
    """
    with store(graph) as st:
        rows = st.list_runs(limit)
    if json_out:
        print_json(rows)
        return
    table = Table(title="runs")
    for col in ("run", "status", "stage", "question"):
        table.add_column(col)
    for r in rows:
        table.add_row(r["id"], r["status"], r["stage"], r["question"])
    console.print(table)


@runs_app.command("show")
def runs_show(run_id: Annotated[str, typer.Argument(help="A run id from `runs list`.")], graph: GraphOpt = None,
              json_out: JsonOpt = False) -> None:
    """Show one run: options, plan and metrics, from the graph.

    Example: openresearch runs show run-20261130-120000-abc123
    """
    with store(graph) as st:
        run = st.get_run(run_id)
    if json_out:
        print_json(run)
        return
    console.print(f"[bold]{run['id']}[/bold] {run['status']} (stage {run['stage']})")
    console.print(f"question: {run['question']}")
    plan = run["plan"]
    if plan is not None:
        for i, sq in enumerate(plan.sub_questions, 1):
            console.print(f"  {i}. [{sq.role}] {sq.text}  (depth {sq.depth}; depends on {len(sq.depends_on)})")
    if run["metrics"]:
        print_json(run["metrics"])
