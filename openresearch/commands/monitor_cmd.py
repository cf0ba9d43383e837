"""`openresearch monitor`: watched topics, their schedules, runs, digests and workers."""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from openresearch.commands.common import AsOfOpt, GraphOpt, JsonOpt, console, one_of, parse_as_of, print_json, settings
from openresearch.errors import InputError

if TYPE_CHECKING:  # deferred at run time so `--help` stays fast
    from openresearch.graph.monitor_store import MonitorStore
    from openresearch.monitor.service import Monitor

app = typer.Typer(help="Watch topics: scheduled research runs that merge what is new into the graph, with digests.",
                  no_args_is_help=True)

IdArg = Annotated[str, typer.Argument(help="The topic id (T-…), as `monitor list` shows it.")]
NowOpt = Annotated[str | None, typer.Option(
    "--now", help="Act as if it were this time (UTC; YYYY-MM-DD or YYYY-MM-DDTHH:MM): tests and backfills.")]
_CLOCK_NOW: list[int] = []  # the --now of this command, once parsed


def _parse_now(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        at = datetime.fromisoformat(text.strip())
    except ValueError:
        raise InputError(f"--now {text[:40]!r} is not a date or time (YYYY-MM-DD or YYYY-MM-DDTHH:MM)") from None
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return int(at.timestamp() * 1000)


@contextmanager
def _monitor(graph: str | None, lease_s: float = 60.0, now: int | None = None) -> Iterator[Monitor]:
    from openresearch.agents.run.services import open_services
    from openresearch.monitor.clock import FakeClock, SystemClock
    from openresearch.monitor.service import Monitor

    with open_services(settings(), graph=graph) as services:
        yield Monitor(services, clock=FakeClock(now) if now is not None else SystemClock(),
                      lease_ms=int(lease_s * 1000))


@contextmanager
def _topics(graph: str | None) -> Iterator[MonitorStore]:
    """Topic bookkeeping needs only the graph (no embedder, no model): fast commands."""
    from openresearch.commands.common import store
    from openresearch.graph.monitor_store import MonitorStore

    with store(graph) as st:
        st.init_schema()
        yield MonitorStore(st)


def _now() -> int:
    return int(time.time() * 1000)


def _when(ms: int | None) -> str:
    return "-" if ms is None else datetime.fromtimestamp(ms / 1000, tz=UTC).strftime("%Y-%m-%d %H:%M")


@app.command("add")
def add(
    topic: Annotated[str, typer.Argument(help="The topic or question to watch.")],
    source: Annotated[list[str] | None, typer.Option("--source", "-s",
                                                     help="web | arxiv | scholar | local:PATH (repeatable).")] = None,
    entity: Annotated[list[str] | None, typer.Option("--entity", "-e",
                                                     help="An entity to follow (repeatable).")] = None,
    every: Annotated[str, typer.Option(help="1d, 6h, 30m or a cron expression ('0 6 * * *').")] = "1d",
    style: Annotated[str, typer.Option(help="digest | report")] = "digest",
    offline: Annotated[bool, typer.Option(help="Deterministic methods only: no LLM, no network.")] = False,
    webhook: Annotated[str | None, typer.Option(help="POST each digest's JSON to this http(s) URL, signed.")] = None,
    webhook_empty: Annotated[bool, typer.Option("--webhook-empty",
                                                help="Post a digest with nothing new too.")] = False,
    now: NowOpt = None, graph: GraphOpt = None, json_out: JsonOpt = False,
) -> None:
    """Watch a topic: it is due now, then on its schedule. With --webhook, the signing secret is shown once.

    Example: openresearch monitor add "Kafka share groups" --source web --every 1d
    """
    from openresearch.boundary import Door
    from openresearch.monitor.service import checked_topic

    one_of(style, "--style", ("digest", "report"))
    at = _parse_now(now) or _now()
    new = checked_topic(topic, sources=source or ["web"], door=Door.cli(settings()), entities=entity or [],
                        every=every, style=style, options={"offline": True} if offline else {}, webhook=webhook,
                        now=at)
    new = new.model_copy(update={"webhook_empty": webhook_empty and bool(webhook)})
    with _topics(graph) as ms:
        ms.save_topic(new, at)
        t = ms.topic(new.id)
    if json_out:
        print_json({**t.model_dump(mode="json"), "webhook_secret": new.webhook_secret})
        return
    console.print(f"watching {t.id}: {t.question} (every {t.schedule}, next {_when(t.next_due)})", markup=False)
    if new.webhook_secret:
        console.print(f"webhook secret (shown once; each post carries X-OpenResearch-Signature: sha256=<HMAC-SHA256 "
                      f"of the body>): {new.webhook_secret}", markup=False)


@app.command("list")
def list_topics(graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """List watched topics, soonest due first.

    Example: openresearch monitor list
    """
    with _topics(graph) as ms:
        topics = ms.topics()
    if json_out:
        print_json(topics)
        return
    table = Table(title="topics")
    for col in ("id", "status", "every", "next due", "last run", "runs", "question"):
        table.add_column(col)
    for t in topics:
        table.add_row(t.id, t.status, t.schedule, _when(t.next_due), _when(t.last_run_at), str(t.runs), t.question)
    console.print(table)


@app.command("show")
def show(topic_id: IdArg, digests: Annotated[int, typer.Option(help="How many recent digests.", min=0, max=10_000)] = 3,
         graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """Show a topic and its latest digests.

    Example: openresearch monitor show T-0123456789ab
    """
    from openresearch.monitor.digest import to_markdown

    with _topics(graph) as ms:
        t = ms.topic(topic_id)
        ds = ms.digests(topic_id, digests)
    if json_out:
        print_json({"topic": t, "digests": ds})
        return
    console.print(f"[bold]{t.id}[/bold] {t.question}\n{t.status}, every {t.schedule}, sources {', '.join(t.sources)}, "
                  f"next {_when(t.next_due)}, last {_when(t.last_run_at)} ({t.runs} runs)")
    for d in ds:
        console.print(to_markdown(d), markup=False)


@app.command("pause")
def pause(topic_id: IdArg, graph: GraphOpt = None) -> None:
    """Pause a topic (it keeps its history; `monitor resume` restarts it).

    Example: openresearch monitor pause T-0123456789ab
    """
    with _topics(graph) as ms:
        ms.set_status(topic_id, "paused")
    console.print(f"paused {topic_id}")


@app.command("resume")
def resume(topic_id: IdArg, graph: GraphOpt = None) -> None:
    """Resume a paused topic (due now if its time has passed).

    Example: openresearch monitor resume T-0123456789ab
    """
    with _topics(graph) as ms:
        ms.set_status(topic_id, "active", max(ms.topic(topic_id).next_due, _now()))
    console.print(f"resumed {topic_id}")


@app.command("remove")
def remove(topic_id: IdArg, graph: GraphOpt = None) -> None:
    """Stop watching a topic; what its runs merged into the graph stays.

    Example: openresearch monitor remove T-0123456789ab
    """
    with _topics(graph) as ms:
        ms.remove_topic(topic_id)
    console.print(f"removed {topic_id}")


@app.command("run")
def run(topic_id: Annotated[str | None, typer.Argument(help="The topic to run now.")] = None,
        due: Annotated[bool, typer.Option("--due", help="Run every due topic once (for cron / a timer).")] = False,
        now: NowOpt = None, graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """Run one topic now, or every due topic once. A topic that fails is one `error:` line and exit 1 (the other
    due topics still run).

    Example: openresearch monitor run --due
    """
    from openresearch.errors import OpenResearchError
    from openresearch.monitor.digest import to_markdown
    from openresearch.monitor.service import TopicFailed

    if (topic_id is None) == (not due):
        raise InputError("give a topic id or --due (not both)")
    failed: list[TopicFailed] = []
    with _monitor(graph, now=_parse_now(now)) as m:
        if topic_id:
            try:
                one = m.run_topic(topic_id)
            except OpenResearchError:
                raise
            except Exception as e:  # one line, never a traceback
                raise TopicFailed(f"{topic_id}: the monitoring run failed: {type(e).__name__}: {e}") from None
            if one is None:
                holder = m.store.topic(topic_id)
                raise InputError(f"{topic_id} is being run by {holder.lease_owner or 'another worker'} (lease until "
                                 f"{_when(holder.lease_until)} UTC); `openresearch monitor unlock {topic_id}` "
                                 "breaks a stuck lease")
            results = [one]
        else:
            results = m.run_due(failed=failed)
    if json_out:
        print_json([{"run_id": r.run_id, "extracted": r.extracted, "digest": r.digest} for r in results])
    else:
        if not results and not failed:
            console.print("nothing due")
        for r in results:
            console.print(to_markdown(r.digest), markup=False)
    for f in failed:
        typer.echo(f"error: {' '.join(str(f).split())}", err=True)
    if failed:
        raise typer.Exit(1)


@app.command("unlock")
def unlock(topic_id: IdArg,
           force: Annotated[bool, typer.Option(help="Break it even if a live process on this host holds it.")] = False,
           graph: GraphOpt = None) -> None:
    """Break a topic's lease (a run killed on another machine holds it until it lapses, a minute after its
    last heartbeat); the run it left is marked interrupted and reported in the next digest.

    Example: openresearch monitor unlock T-0123456789ab
    """
    from openresearch.monitor.recovery import interrupted_runs
    from openresearch.monitor.service import unlock_topic

    with _topics(graph) as ms:
        owner = unlock_topic(ms, topic_id, force=force)
        marked = interrupted_runs(ms, ms.topic(topic_id).undigested) if owner else []
    if owner is None:
        console.print(f"{topic_id} was not locked")
        return
    console.print(f"unlocked {topic_id} (was held by {owner})"
                  + (f"; runs left unfinished: {', '.join(marked)}" if marked else ""), markup=False)


@app.command("worker")
def worker(poll: Annotated[float, typer.Option(help="Seconds between looks for due topics.", min=0.1,
                                               max=86_400)] = 30.0,
           lease: Annotated[float, typer.Option(help="Lease length in seconds (renewed while a run goes on).", min=1,
                                                max=86_400)] = 60.0,
           graph: GraphOpt = None) -> None:
    """Claim and run due topics until stopped (any number of workers may share one graph).

    Example: openresearch monitor worker --graph bolt://db:7687
    """
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with _monitor(graph, lease) as m:
        console.print(f"worker {m.owner} polling every {poll:g}s")
        try:
            n = m.work(stop, poll)
        except KeyboardInterrupt:
            n = 0
    console.print(f"worker stopped after {n} runs")


@app.command("values")
def values(entity: Annotated[str | None, typer.Option("--entity", "-e", help="Only this entity.")] = None,
           metric: Annotated[str | None, typer.Option("--metric", "-m", help="Only this metric.")] = None,
           as_of: AsOfOpt = None,
           superseded: Annotated[bool, typer.Option(help="Show superseded values too.")] = False,
           graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """Observed values current now or as of a date, each with its evidence and dates.

    Example: openresearch monitor values --entity Kafka --metric throughput --as-of 2025-06-30
    """
    from openresearch.commands.common import store
    from openresearch.monitor import asof

    with store(graph) as st:
        rows = asof.values(st, entity=entity, metric=metric, as_of=parse_as_of(as_of), include_superseded=superseded)
    if json_out:
        print_json(rows)
        return
    table = Table(title=f"values as of {as_of or 'now'}")
    for col in ("entity", "metric", "value", "condition", "dated", "superseded by", "evidence"):
        table.add_column(col)
    for r in rows:
        dated = r.get("as_of") if r.get("as_of") is not None else r.get("published_at")
        table.add_row(r.get("entity") or "", r["metric"], f"{r.get('raw_value')} {r.get('raw_unit') or ''}".strip(),
                      r.get("condition") or "", _when(dated)[:10], r.get("superseded_by") or "", r["evidence_id"])
    console.print(table)


@app.command("conflicts")
def conflicts(as_of: AsOfOpt = None, graph: GraphOpt = None, json_out: JsonOpt = False) -> None:
    """Conflicts among the values current now or as of a date (a superseded value is not a conflict).

    Example: openresearch monitor conflicts --as-of 2025-06-30
    """
    from openresearch.commands.common import store
    from openresearch.monitor import asof

    with store(graph) as st:
        groups = asof.conflicts(st, parse_as_of(as_of))
    if json_out:
        print_json(groups)
        return
    if not groups:
        console.print(f"no conflicts as of {as_of or 'now'}")
    for g in groups:
        vals = " vs ".join(f"{v.raw_values[0] if v.raw_values else v.value} [{', '.join(v.evidence_ids[:3])}]"
                           for v in g.values)
        console.print(f"{g.entity} {g.metric}{f' ({g.condition})' if g.condition else ''}: {vals}", markup=False)
